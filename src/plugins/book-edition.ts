/**
 * The single-page edition at /book/ (content/book.njk): every chapter, in book order, on one
 * page with one table of contents, for reading straight through and for printing (the PDF
 * edition, tools/pdf.ts, prints this page).
 *
 * It reuses each chapter's rendered HTML (the `chapters` collection's `content`, the same HTML
 * the chapter pages show) and only rewrites attributes, so nothing is rendered twice:
 *
 * - Ids are made unique across the page by prefixing them with the chapter's slug and `--`:
 *   `sec:zero` in /data-parallelism/ becomes `data-parallelism--sec:zero`. Slugs never contain
 *   `--` (src/plugins/chapters.ts), so the first `--` always ends the slug. The chapter itself is
 *   the `<article id="<slug>">`.
 * - Every reference to an id follows: `href="#x"` (within the chapter), `href="/slug/#x"` and
 *   `href="/slug/"` (another chapter: `#slug--x`, `#slug`), `for`, `headers`, the `aria-…`
 *   id lists, and `url(#x)` in any attribute. Links to other pages (glossary, reading list,
 *   assets, other sites) are left as they are.
 * - Headings move down one level (the page's `h1` is the book title, each chapter title is an
 *   `h2`), so a chapter's sections are `h3` and its subsections `h4`; their numbers ("3.2") and
 *   the figure, equation and table numbers stay as in the chapter.
 * - Widgets stay their static build-time drawings: `data-widget` becomes `data-widget-static`
 *   so the lazy loader does not mount them. Their controls are disabled in that drawing; the
 *   chapter page has the live version. Mounting two dozen widgets on one page would cost the
 *   reader time and memory, and the ids inside the drawings are rewritten here, which the
 *   widgets' own code does not know about.
 *
 * - Named `<section>`s (exercises, footnotes, references) get the chapter in their accessible
 *   name, so the page's landmarks stay unique ("Exercise 1, Chapter 3").
 * - Glossary marks: the collection's HTML is the chapter before the page transforms ran, so the
 *   first-use glossary marks (src/plugins/glossary-marks.ts) are added here, per chapter, with the
 *   chapter pages' rules; their tooltip ids are then prefixed like every other id.
 *
 * The rewrite is a small tokenizer over tags (comments, `<script>` and `<style>` bodies are
 * copied untouched); it changes only the attributes above, so KaTeX's and the widgets' markup
 * reaches the page byte for byte otherwise.
 */
import { chapterInfo } from "./chapters.ts";
import { buildTermMatcher, markGlossaryTerms, termsExplainedIn, type TermMatcher } from "./glossary-marks.ts";
import { chapterParts } from "./layout-helpers.ts";
import type { TocEntry } from "./summary.ts";

/** The separator between a chapter's slug and one of its ids on /book/. */
export const idSeparator = "--";

/** `data-parallelism` + `sec:zero` → `data-parallelism--sec:zero`; `top` is the chapter itself. */
export function bookId(slug: string, id: string): string {
  return id === "top" || id === "" ? slug : `${slug}${idSeparator}${id}`;
}

/** Attributes that hold one id reference (`for`) or a space-separated list of them. */
const idRefAttributes = new Set([
  "for",
  "headers",
  "list",
  "form",
  "aria-labelledby",
  "aria-describedby",
  "aria-controls",
  "aria-owns",
  "aria-activedescendant",
  "aria-details",
  "aria-errormessage",
  "aria-flowto",
]);

/**
 * Where a link from chapter `slug` points on /book/: `#x` → `#slug--x`; `/other/#x` → `#other--x`
 * and `/other/` → `#other` when `other` is a chapter; anything else unchanged.
 */
export function bookHref(href: string, slug: string, chapterSlugs: ReadonlySet<string>): string {
  if (href.startsWith("#")) return `#${bookId(slug, href.slice(1))}`;
  const m = /^\/([a-z0-9]+(?:-[a-z0-9]+)*)\/(?:index\.html)?(?:#(.*))?$/.exec(href);
  if (m && chapterSlugs.has(m[1]!)) return `#${bookId(m[1]!, m[2] ?? "")}`;
  return href;
}

const tagRe =
  /<!--[\s\S]*?-->|<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>|<\/(h[2-5])\s*>|<([a-zA-Z][a-zA-Z0-9:-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)(\s*\/?)>/g;
const attrRe = /(\s+)([^\s"'>/=]+)(?:(\s*=\s*)("[^"]*"|'[^']*'|[^\s"'=<>`]+))?/g;

function shiftHeading(tag: string): string {
  const m = /^h([2-5])$/i.exec(tag);
  return m ? `h${Number(m[1]) + 1}` : tag;
}

/**
 * Named sections, asides and navs are landmarks, and one page must not have two with the same
 * name ("Exercise 1", "References" in every chapter): their `aria-label` gets `, <chapter>`
 * appended ("Exercise 1, Chapter 3"), their `aria-labelledby` also names the chapter's title
 * element (`titleId`), and an unnamed `<aside>` is named "Margin note N, <chapter>".
 */
export interface LandmarkNames {
  chapter?: string;
  titleId?: string;
}

/**
 * Rewrites one chapter's HTML for /book/: ids prefixed, id references and chapter links
 * redirected, headings one level down, widgets static (see the file comment).
 */
export function rewriteChapterHtml(html: string, slug: string, chapterSlugs: ReadonlySet<string>, names: LandmarkNames = {}): string {
  let asides = 0;
  return html.replace(tagRe, (whole, _raw: string | undefined, closeHeading: string | undefined, tag: string | undefined, attrs: string | undefined, end: string | undefined) => {
    if (closeHeading) return `</${shiftHeading(closeHeading)}>`;
    if (!tag) return whole;
    const lowerTag = tag.toLowerCase();
    const section = lowerTag === "section" || lowerTag === "aside" || lowerTag === "nav";
    const newAttrs = (attrs ?? "").replace(attrRe, (a, space: string, name: string, eq: string | undefined, rawValue: string | undefined) => {
      if (rawValue === undefined) return a;
      const quote = rawValue.startsWith('"') || rawValue.startsWith("'") ? rawValue[0]! : "";
      const value = quote ? rawValue.slice(1, -1) : rawValue;
      const lower = name.toLowerCase();
      let out = value;
      if (lower === "id") out = bookId(slug, value);
      else if (lower === "href" || lower === "xlink:href") out = bookHref(value, slug, chapterSlugs);
      else if (idRefAttributes.has(lower)) {
        out = value.split(/\s+/).filter(Boolean).map((v) => bookId(slug, v)).join(" ");
        if (section && lower === "aria-labelledby" && names.titleId) out = `${out} ${names.titleId}`;
      } else if (section && lower === "aria-label" && names.chapter) out = `${value}, ${names.chapter}`;
      else if (lower === "data-widget") return `${space}data-widget-static${eq}${rawValue}`;
      if (value.includes("url(#")) out = out.replace(/url\(#([^)\s]+)\)/g, (_u, id: string) => `url(#${bookId(slug, id)})`);
      if (out === value) return a;
      const q = quote || '"';
      return `${space}${name}${eq}${q}${out}${q}`;
    });
    if (lowerTag === "aside" && names.chapter && !/\saria-label(ledby)?\s*=/i.test(newAttrs)) {
      asides += 1;
      return `<${tag}${newAttrs} aria-label="Margin note ${asides}, ${names.chapter}"${end}>`;
    }
    return `<${shiftHeading(tag)}${newAttrs}${end}>`;
  });
}

const permalinkRe = /<(h[34])(\s[^>]*?)?\sid="([^"]+)"([^>]*)>([\s\S]*?)<\/\1>/g;

/** A permalink (`<a class="heading-anchor">`, as on the chapter pages) on every h3/h4 with an id. */
export function addBookPermalinks(html: string): string {
  return html.replace(permalinkRe, (whole, tag: string, before: string | undefined, id: string, after: string, inner: string) => {
    if (inner.includes('class="heading-anchor"')) return whole;
    return `<${tag}${before ?? ""} id="${id}"${after}>${inner}<a class="heading-anchor" href="#${id}" aria-label="Link to this section"></a></${tag}>`;
  });
}

export interface EditionTocEntry {
  id: string;
  number: string;
  html: string;
}

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
  toc: EditionTocEntry[];
  body: string;
  footnotes: string;
  references: string;
}

interface ChapterItem {
  url: string;
  inputPath: string;
  content: string;
  data: { title: string; subtitle?: string };
}

let matcher: TermMatcher | undefined;

/** Every chapter of the collection, rewritten for /book/, in collection (book) order. */
export function bookEdition(chapters: readonly ChapterItem[]): EditionChapter[] {
  const infos = chapters.map((c) => {
    const info = chapterInfo(c.inputPath);
    if (!info) throw new Error(`book edition: ${c.inputPath} is not a chapter file`);
    return info;
  });
  const slugs = new Set(infos.map((i) => i.slug));
  const slugList = [...slugs].join(",");
  matcher ??= buildTermMatcher();
  return chapters.map((c, k) => {
    const info = infos[k]!;
    // In watch mode one edited chapter re-renders /book/: the other chapters come from here.
    const memo = memos.get(info.slug);
    const key = [c.inputPath, c.url, c.data.title, c.data.subtitle ?? "", slugList].join("\n");
    if (memo && memo.key === key && memo.content === c.content) return memo.result;
    const result = editionChapter(c, info, slugs);
    memos.set(info.slug, { key, content: c.content, result });
    return result;
  });
}

interface Memo {
  /** Everything but the content the result depends on. */
  key: string;
  content: string;
  result: EditionChapter;
}
const memos = new Map<string, Memo>();

function editionChapter(c: ChapterItem, info: NonNullable<ReturnType<typeof chapterInfo>>, slugs: ReadonlySet<string>): EditionChapter {
  const parts = chapterParts(c.content ?? "", c.inputPath);
  const body = markGlossaryTerms(parts.body, { slug: info.slug, skip: termsExplainedIn(info.slug), matcher }).html;
  const names: LandmarkNames = { chapter: info.label || "Preface", titleId: `${info.slug}-title` };
  const rewrite = (html: string) => (html ? rewriteChapterHtml(html, info.slug, slugs, names) : "");
  return {
    slug: info.slug,
    titleId: names.titleId!,
    url: c.url,
    label: info.label,
    title: c.data.title,
    subtitle: c.data.subtitle ?? "",
    toc: parts.toc.map((e: TocEntry) => ({ id: bookId(info.slug, e.id), number: e.number, html: e.html })),
    body: addBookPermalinks(rewrite(body)),
    footnotes: rewrite(parts.footnotes),
    references: rewrite(parts.references),
  };
}

export function bookEditionPlugin(eleventyConfig: any): void {
  eleventyConfig.addFilter("bookEdition", (chapters: readonly ChapterItem[]) => bookEdition(chapters));
}
