/**
 * What the layout needs to know about a rendered page, computed from the markdown-it tokens
 * (never by parsing the HTML again): the h2/h3 table of contents and the word count. The
 * renderer also writes two marker comments before the footnotes and the references, so the
 * layout can move them into the chapter's appendix by splitting on our own markers.
 */
import type { MarkdownIt, StateCore, Token } from "markdown-it";
import { docState } from "./doc-state.ts";

export const footnotesMarker = "<!-- book:footnotes -->";
export const referencesMarker = "<!-- book:references -->";

export interface TocEntry {
  id: string;
  /** "3.2", or "" in unnumbered pages. */
  number: string;
  /** Heading content as HTML (may contain math), without the number. */
  html: string;
  children: TocEntry[];
}

export interface PageSummary {
  toc: TocEntry[];
  words: number;
}

const summaries = new Map<string, PageSummary>();

/** The summary of the page rendered from `file` (repository-relative, e.g. "content/chapters/00-preface.md"). */
export function pageSummary(file: string): PageSummary | undefined {
  return summaries.get(file.replace(/^\.\//, ""));
}

function countWords(tokens: Token[]): number {
  let words = 0;
  for (const t of tokens) {
    if (t.type !== "inline" || !t.children) continue;
    for (const c of t.children) {
      if (c.type === "text" || c.type === "code_inline") words += c.content.split(/\s+/).filter((w) => /[A-Za-z0-9]/.test(w)).length;
      else if (c.type === "math_inline") words += 1;
    }
  }
  return words;
}

function summaryCoreRule(state: StateCore, md: MarkdownIt): boolean {
  const doc = docState(state.env);
  const toc: TocEntry[] = [];
  const tokens = state.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.type !== "heading_open" || (t.tag !== "h2" && t.tag !== "h3")) continue;
    const children = (tokens[i + 1]!.children ?? []).filter(
      (c, k) => !(k === 0 && c.type === "html_inline" && c.content.startsWith('<span class="secnum">')) && c.type !== "footnote_ref",
    );
    const entry: TocEntry = {
      id: t.attrGet("id") ?? "",
      number: t.attrGet("data-number") ?? "",
      html: md.renderer.renderInline(children, md.options, state.env).trim(),
      children: [],
    };
    if (t.tag === "h3" && toc.length > 0) toc[toc.length - 1]!.children.push(entry);
    else toc.push(entry);
  }
  summaries.set(doc.file, { toc, words: countWords(tokens) });
  return true;
}

export function summaryPlugin(md: MarkdownIt): void {
  md.core.ruler.push("book_summary", (state) => summaryCoreRule(state, md));
}
