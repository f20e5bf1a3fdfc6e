/**
 * Wraps each h2-level part of a page's Markdown in `<section class="part">` (from its h2 up to the
 * next h2, or up to the footnotes and references), so the stylesheet can let the browser skip the
 * style, layout and paint of parts that are off screen (`content-visibility: auto` in book.css,
 * "Parts"). The text before the first h2 stays unwrapped: it is the first screen.
 *
 * Only top-level h2s start a part (an h2 inside a ::: block does not); ids, numbers and every
 * other token are left as they are, so anchors, the ToC, cross-references and footnotes do not
 * change. A part is unnamed, so it is not a landmark (a `<section>` without an accessible name
 * has no region role).
 *
 * The rule runs last among the core rules (registered after every other book plugin), when the
 * footnotes block and the reference list are already at the end of the token stream: the last
 * part closes before them, and chapter-render.ts renders the body apart from them (by token type).
 */
import type { MarkdownIt, StateCore, Token } from "markdown-it";

const partOpen = '<section class="part">\n';
const partClose = "</section>\n";

/** Where the body ends: the footnotes block or the reference list, whichever comes first. */
function isBackMatter(t: Token): boolean {
  return t.type === "footnote_block_open" || t.type === "book_references";
}

function sectionWrapCoreRule(state: StateCore): boolean {
  const tokens = state.tokens;
  const out: Token[] = [];
  let open = false;
  let ended = false;
  // Depth from the tokens' nesting: not every core rule that adds tokens sets their `level`
  // (in the book's chapters, later h2s carry levels 1 and 2), so `level` cannot tell a top-level h2.
  let depth = 0;
  const html = (content: string) => {
    const t = new state.Token("html_block", "", 0);
    t.content = content;
    return t;
  };
  for (const t of tokens) {
    if (!ended && isBackMatter(t)) {
      ended = true;
      if (open) out.push(html(partClose));
      open = false;
    }
    if (t.nesting === -1) depth -= 1;
    if (!ended && depth === 0 && t.type === "heading_open" && t.tag === "h2") {
      if (open) out.push(html(partClose));
      out.push(html(partOpen));
      open = true;
    }
    if (t.nesting === 1) depth += 1;
    out.push(t);
  }
  if (open) out.push(html(partClose));
  state.tokens = out;
  return true;
}

/** Registers the rule; call it after every other plugin that adds core rules. */
export function sectionWrapPlugin(md: MarkdownIt): void {
  md.core.ruler.push("book_section_wrap", sectionWrapCoreRule);
}
