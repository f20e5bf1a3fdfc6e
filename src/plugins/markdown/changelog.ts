/**
 * The changelog page's Markdown: a bullet that starts with "**Corrections:**" lists factual
 * corrections and is set apart like a warning callout (book.css styles `.changelog-corrections`).
 * A core rule on the book's Markdown, active only for content/changelog.md, adds the classes to
 * the list item's token; nothing edits the rendered HTML.
 */
import type MarkdownIt from "markdown-it";
import type { StateCore, Token } from "markdown-it";
import type { BookEnv } from "./doc-state.ts";
import { normalizeFile } from "../shared/errors.ts";
import { changelogFile } from "../site/feed.ts";

export const correctionsClass = "callout callout-warning changelog-corrections";

/** The inline's first tokens (empty text tokens, which other rules leave, skipped) are strong "Corrections:". */
function startsWithCorrections(inline: Token | undefined): boolean {
  const c = (inline?.children ?? []).filter((t) => !(t.type === "text" && t.content === ""));
  return (
    c[0]?.type === "strong_open" &&
    c[1]?.type === "text" &&
    c[1].content === "Corrections:" &&
    c[2]?.type === "strong_close"
  );
}

function correctionsRule(state: StateCore): boolean {
  const inputPath = (state.env as BookEnv).page?.inputPath;
  if (!inputPath || normalizeFile(inputPath) !== changelogFile) return true;
  const tokens = state.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const item = tokens[i]!;
    // list_item_open, paragraph_open (hidden in a tight list), inline
    if (item.type !== "list_item_open" || tokens[i + 1]?.type !== "paragraph_open") continue;
    if (startsWithCorrections(tokens[i + 2])) item.attrJoin("class", correctionsClass);
  }
  return true;
}

export function changelogPlugin(md: MarkdownIt): void {
  md.core.ruler.push("book_changelog_corrections", correctionsRule);
}
