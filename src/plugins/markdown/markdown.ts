/**
 * The book's Markdown: markdown-it plus our plugins, in the order their rules must run.
 * Eleventy uses it through `amendLibrary`; tests use `createBookMarkdown()` directly.
 */
import MarkdownIt from "markdown-it";
import attrs from "markdown-it-attrs";
import type { PluginSimple } from "markdown-it";
import { bookStatePlugin } from "./doc-state.ts";
import { containersPlugin } from "./containers.ts";
import { mathPlugin, texErrorsFirst } from "./math.ts";
import { footnotesPlugin } from "./footnotes.ts";
import { sectionsPlugin } from "./sections.ts";
import { figuresPlugin, type FiguresOptions } from "./figures.ts";
import { widgetsPlugin, type WidgetsOptions } from "./widgets.ts";
import { xrefsPlugin } from "./xrefs.ts";
import { citationsPlugin, type CitationsOptions } from "./citations.ts";
import { summaryPlugin } from "./summary.ts";
import { glossaryMarksPlugin } from "./glossary-marks.ts";
import { editionPlugin } from "./edition.ts";
import { exerciseCheckPlugin } from "./exercise-check.ts";
import { sectionWrapPlugin } from "./section-wrap.ts";
import { numberLedgerPlugin } from "./number-ledger.ts";
import { changelogPlugin } from "./changelog.ts";

export interface BookMarkdownOptions extends CitationsOptions, FiguresOptions, WidgetsOptions {}

/** Configures an existing markdown-it (Eleventy's) for the book. */
export function bookMarkdownPlugin(md: MarkdownIt, options: BookMarkdownOptions): void {
  md.set({ html: true, typographer: true, linkify: false });
  md.disable("replacements"); // keep "(c)" and "--" as typed; smart quotes stay on
  bookStatePlugin(md);
  containersPlugin(md); // block rule for ::: blocks; core rule validates and numbers them
  footnotesPlugin(md);
  md.use(attrs as unknown as PluginSimple, { allowedAttributes: ["id", "class"] });
  sectionsPlugin(md); // ids, numbers, sec: labels
  figuresPlugin(md, options); // image figures and table captions (may add inline math)
  mathPlugin(md); // $…$ and $$…$$ {#eq:…}; core rule renders KaTeX and numbers equations
  widgetsPlugin(md, options);
  xrefsPlugin(md);
  citationsPlugin(md, options);
  summaryPlugin(md); // word count for the layout (before marks add markup)
  exerciseCheckPlugin(md); // {=name} computed values, {:x} inputs, ::: answer check boxes, exercises in the ToC
  numberLedgerPlugin(md); // every number computed, checked, cited or an input (before {=name} is printed)
  texErrorsFirst(md, "book_ledger"); // the ledger reads math before KaTeX: a TeX error is reported before its own
  glossaryMarksPlugin(md); // chapter renders: first use of each glossary term → link + definition
  changelogPlugin(md); // content/changelog.md: the "**Corrections:**" bullet becomes a warning callout
  editionPlugin(md); // chapter renders: ids, links, heading levels, permalinks per edition
  sectionWrapPlugin(md); // <section class="part"> per h2 (content-visibility); last core rule
}

/** A fresh markdown-it configured like the book's (for tests and tools). */
export function createBookMarkdown(options: BookMarkdownOptions): MarkdownIt {
  const md = new MarkdownIt();
  bookMarkdownPlugin(md, options);
  return md;
}
