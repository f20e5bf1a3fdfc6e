/**
 * What the layout needs to know about a rendered chapter, computed from its markdown-it tokens
 * (never by parsing the HTML again): the h2/h3 table of contents and the word count.
 */
import type { MarkdownIt, StateCore, Token } from "markdown-it";
import { docState } from "./doc-state.ts";
import { docId } from "./edition.ts";

export interface TocEntry {
  id: string;
  /** "3.2", or "" in unnumbered pages. */
  number: string;
  /** Heading content as HTML (may contain math), without the number. */
  html: string;
  children: TocEntry[];
}

/** Words of running text: text and code count by white space, a formula as one word. */
function countWords(tokens: Token[]): number {
  let words = 0;
  for (const t of tokens) {
    if (t.type !== "inline" || !t.children) continue;
    for (const c of t.children) {
      if (c.type === "text" || c.type === "code_inline")
        words += c.content.split(/\s+/).filter((w) => /[A-Za-z0-9]/.test(w)).length;
      else if (c.type === "math_inline") words += 1;
    }
  }
  return words;
}

/** The parts of a `::: exercise` container's token meta that the ToC reads (src/plugins/markdown/containers.ts). */
interface ContainerMetaLike {
  name: string;
  number?: number;
  attrs?: { id?: string };
  exerciseId?: string;
}

/** An exercise as a ToC entry under its h2: "Exercise 3: <title>", linked to its section's id. */
function exerciseEntry(tokens: Token[], i: number, md: MarkdownIt, env: object): TocEntry {
  const meta = tokens[i]!.meta as ContainerMetaLike;
  const title = tokens[i + 1]?.type === "book_title_open" ? tokens[i + 2] : undefined;
  const titleHtml = title?.children ? md.renderer.renderInline(title.children, md.options, env).trim() : "";
  return {
    id: docId(env, meta.exerciseId ?? meta.attrs?.id ?? `exercise-${meta.number}`),
    number: "",
    html: `Exercise ${meta.number}${titleHtml ? `: ${titleHtml}` : ""}`,
    children: [],
  };
}

/**
 * The h2 sections with their h3 subsections, as rendered (ids as this render writes them).
 * `headingOffset` is how far the render moved headings down (src/plugins/markdown/edition.ts).
 */
export function tableOfContents(tokens: Token[], md: MarkdownIt, env: object, headingOffset = 0): TocEntry[] {
  const toc: TocEntry[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (
      t.type === "book_container_open" &&
      (t.meta as ContainerMetaLike | null)?.name === "exercise" &&
      toc.length > 0
    ) {
      toc[toc.length - 1]!.children.push(exerciseEntry(tokens, i, md, env));
      continue;
    }
    const level = Number(t.tag.slice(1)) - headingOffset;
    if (t.type !== "heading_open" || (level !== 2 && level !== 3)) continue;
    const children = (tokens[i + 1]!.children ?? []).filter(
      (c, k) =>
        !(k === 0 && c.type === "html_inline" && c.content.startsWith('<span class="secnum">')) &&
        c.type !== "footnote_ref" &&
        !(c.meta as { permalink?: boolean } | null)?.permalink,
    );
    const entry: TocEntry = {
      id: t.attrGet("id") ?? "",
      number: t.attrGet("data-number") ?? "",
      html: md.renderer.renderInline(children, md.options, env).trim(),
      children: [],
    };
    if (level === 3 && toc.length > 0) toc[toc.length - 1]!.children.push(entry);
    else toc.push(entry);
  }
  return toc;
}

/** Core rule: counts the words before any rule adds markup (glossary marks) to the text. */
export function summaryPlugin(md: MarkdownIt): void {
  md.core.ruler.push("book_words", (state: StateCore) => {
    docState(state.env).words = countWords(state.tokens);
    return true;
  });
}
