/**
 * The single-page edition at /book/ (content/book.njk): every chapter, in book order, on one
 * page with one table of contents, for reading straight through and for printing (the PDF
 * edition, tools/pdf.ts, prints this page).
 *
 * Each chapter's Markdown is rendered once more, with the book edition (src/plugins/markdown/edition.ts):
 * ids prefixed by the chapter's slug (`data-parallelism--sec:zero`; the chapter itself is the
 * `<article id="<slug>">`), links to other chapters pointed inside the page, headings one level
 * down (the page's h1 is the book title, each chapter title an h2), landmark names that say
 * the chapter, and widgets left as their static drawings (`data-widget-static`): mounting two
 * dozen widgets on one page would cost the reader time and memory; the chapter page has the
 * live version. Section, figure, equation and table numbers stay as in the chapter.
 */
import type { MarkdownIt } from "markdown-it";
import { chapterInfo } from "../shared/chapters.ts";
import { renderChapter } from "./chapter-render.ts";
import { bookEdition as bookEditionOf } from "./edition.ts";
import type { TocEntry } from "./summary.ts";

export interface EditionChapter {
  slug: string;
  /** Id of the chapter's title (`<slug>-title`): the article's and its sections' names point at it. */
  titleId: string;
  url: string;
  /** "Chapter 3", "Appendix A", "" for the preface. */
  label: string;
  title: string;
  subtitle: string;
  /** The chapter's h2 sections, ids prefixed. */
  toc: TocEntry[];
  body: string;
  footnotes: string;
  references: string;
}

/** A chapter of the `chapters` collection; `content` is its Markdown (the chapters' engine is "html": no render). */
export interface ChapterItem {
  url: string;
  inputPath: string;
  content: string;
  data: { title: string; subtitle?: string };
}

/** Every chapter of the collection, rendered for /book/, in collection (book) order. */
export function bookEdition(md: MarkdownIt, chapters: readonly ChapterItem[]): EditionChapter[] {
  const infos = chapters.map((c) => {
    const info = chapterInfo(c.inputPath);
    if (!info) throw new Error(`book edition: ${c.inputPath} is not a chapter file`);
    return info;
  });
  const slugs = new Set(infos.map((i) => i.slug));
  return chapters.map((c, k) => {
    const info = infos[k]!;
    const edition = bookEditionOf(info.slug, slugs, info.label || "Preface");
    const r = renderChapter(md, c.content ?? "", { page: { inputPath: c.inputPath, url: c.url }, edition });
    return {
      slug: info.slug,
      titleId: edition.landmark!.titleId,
      url: c.url,
      label: info.label,
      title: c.data.title,
      subtitle: c.data.subtitle ?? "",
      toc: r.toc,
      body: r.body,
      footnotes: r.footnotes,
      references: r.references,
    };
  });
}
