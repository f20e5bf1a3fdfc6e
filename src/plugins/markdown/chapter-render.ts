/**
 * One render of a chapter for one edition (src/plugins/markdown/edition.ts): the chapter page renders
 * its Markdown with the page edition, /book/ with the book edition. The parts the layouts place
 * apart (the body, the footnotes and the references) are rendered from their own tokens, and
 * the table of contents and word count come from the same tokens, so nothing is parsed twice
 * and no HTML is cut apart afterwards.
 */
import type { MarkdownIt, Token } from "markdown-it";
import { docState } from "./doc-state.ts";
import { editionOf, type Edition } from "./edition.ts";
import { tableOfContents, type TocEntry } from "./summary.ts";

export interface RenderedChapter {
  body: string;
  /** The footnotes `<section>`, or "". */
  footnotes: string;
  /** The references `<section>`, or "". */
  references: string;
  toc: TocEntry[];
  words: number;
}

/** The render env of one chapter: Eleventy's page fields the plugins read, and the edition. */
export interface ChapterEnv {
  page: { inputPath: string; url?: string };
  edition: Edition;
  /** false: skip the number ledger (plugin tests rendering snippets). */
  numberLedger?: boolean;
}

/** Renders `markdown`, the body of the chapter file `env.page.inputPath`, for `env.edition`. */
export function renderChapter(md: MarkdownIt, markdown: string, env: ChapterEnv): RenderedChapter {
  const tokens = md.parse(markdown, env);
  const body: Token[] = [];
  const footnotes: Token[] = [];
  const references: Token[] = [];
  let inFootnotes = false;
  for (const t of tokens) {
    if (t.type === "footnote_block_open") inFootnotes = true;
    (t.type === "book_references" ? references : inFootnotes ? footnotes : body).push(t);
    if (t.type === "footnote_block_close") inFootnotes = false;
  }
  const render = (list: Token[]) => md.renderer.render(list, md.options, env);
  return {
    body: render(body),
    footnotes: render(footnotes).trim(),
    references: render(references).trim(),
    toc: tableOfContents(tokens, md, env, editionOf(env)?.headingOffset ?? 0),
    words: docState(env).words,
  };
}
