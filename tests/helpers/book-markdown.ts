/**
 * A bare markdown-it configured like the book's, with a small in-memory bibliography, for plugin
 * tests. Snippets render with the number ledger off (`numberLedger: false`): its own tests are in
 * tests/plugins/number-ledger.test.ts.
 */
import { createBookMarkdown } from "../../src/plugins/markdown/markdown.ts";
import { parseBibliography } from "../../src/plugins/markdown/bibliography.ts";
import { findBookError, type BookError } from "../../src/plugins/shared/errors.ts";
import { renderChapter, type RenderedChapter } from "../../src/plugins/markdown/chapter-render.ts";
import { chapterInfo } from "../../src/plugins/shared/chapters.ts";
import { bookEdition, pageEdition } from "../../src/plugins/markdown/edition.ts";

export const testBib = parseBibliography(
  `@inproceedings{rajbhandari2020zero,
  author    = {Rajbhandari, Samyam and Rasley, Jeff and Ruwase, Olatunji and He, Yuxiong},
  title     = {{ZeRO}: Memory Optimizations Toward Training Trillion Parameter Models},
  booktitle = {Proceedings of SC20},
  year      = {2020},
  doi       = {10.1109/SC41405.2020.00024},
  note      = {Test entry.}
}

@misc{shoeybi2019megatron,
  author       = {Shoeybi, Mohammad and Patwary, Mostofa},
  title        = {{Megatron-LM}: Training Multi-Billion Parameter Language Models Using Model Parallelism},
  howpublished = {arXiv preprint arXiv:1909.08053},
  year         = {2019},
  url          = {https://arxiv.org/abs/1909.08053},
  note         = {Test entry.}
}
`,
  "test.bib",
);

export const md = createBookMarkdown({ bibliography: () => testBib, assetsDir: "tests/plugins/fixtures/assets" });

/** Renders Markdown as if it were the body of `file` (default: chapter 3, so sections are numbered 3.x). */
export function render(src: string, file = "content/chapters/03-zero.md"): string {
  return md.render(src, { page: { inputPath: file }, numberLedger: false });
}

/** The BookError that rendering throws (fails the test if it does not throw one). */
export function renderError(src: string, file = "content/chapters/03-zero.md"): BookError {
  try {
    render(src, file);
  } catch (e) {
    const be = findBookError(e);
    if (be) return be;
    throw e;
  }
  throw new Error("expected a BookError, but the Markdown rendered");
}

/** Renders Markdown as chapter `file` for one edition: its own page (default) or /book/ among `bookSlugs`. */
export function renderEdition(
  src: string,
  file = "content/chapters/03-data-parallelism.md",
  bookSlugs?: readonly string[],
): RenderedChapter {
  const info = chapterInfo(file);
  if (!info) throw new Error(`${file} is not a chapter file`);
  const edition = bookSlugs
    ? bookEdition(info.slug, new Set(bookSlugs), info.label || "Preface")
    : pageEdition(info.slug);
  return renderChapter(md, src, { page: { inputPath: file }, edition, numberLedger: false });
}
