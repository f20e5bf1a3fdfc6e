/**
 * Editions: a chapter is rendered once for its own page (/slug/) and once for the single-page
 * edition (/book/), from the same Markdown, by the same markdown-it, with a different render
 * env. Everything that differs between the two is decided here, at the token level, while the
 * chapter renders; no HTML is rewritten afterwards.
 *
 * - Ids: on /book/ every id gets the chapter's slug and `--` in front (`sec:zero` in
 *   /data-parallelism/ becomes `data-parallelism--sec:zero`; slugs never contain `--`, see
 *   chapters.ts). References follow: `href="#x"`, `href="/other/#x"` (another chapter: `#other--x`,
 *   `/other/` → `#other`), `for`, the `aria-…` id lists. Links to other pages stay as they are.
 *   The plugins that write ids (sections, math, figures, containers, footnotes, citations, xrefs,
 *   widgets, glossary marks) call `docId`/`docHref`; the rule below handles ids and links held in
 *   token attributes, and an early rule rewrites the few attributes in raw HTML an author wrote.
 * - Headings move down `headingOffset` levels (the page's h1 is the book title, each chapter
 *   title an h2, so sections are h3); their numbers stay as in the chapter.
 * - Landmarks: named sections and asides get the chapter in their accessible name, so the page's
 *   landmarks stay unique ("Exercise 1, Chapter 3"); an unnamed aside becomes "Margin note N, …".
 * - Permalinks: every h2/h3 section heading of a chapter gets a trailing
 *   `<a class="heading-anchor" href="#id">` (the mark is drawn by CSS, the name is its aria-label).
 * - Widgets stay their static build-time drawings on /book/ (`data-widget-static`, so the lazy
 *   loader does not mount them); the chapter page has the live version.
 *
 * A render without `env.edition` (the non-chapter pages, the plugin tests) is the plain book
 * Markdown: no permalinks, no marks, ids as written.
 */
import { Parser } from "htmlparser2";
import type { MarkdownIt, StateCore, Token } from "markdown-it";

/** How one render of a chapter differs by edition. */
export interface Edition {
  name: "page" | "book";
  /** The chapter's URL slug. */
  slug: string;
  /** "" on the chapter page, `<slug>--` on /book/. */
  idPrefix: string;
  /** Levels added to every heading: 0 on the chapter page, 1 on /book/. */
  headingOffset: number;
  /** Slugs of every chapter: links to them point inside /book/. Empty on a chapter page. */
  chapterSlugs: ReadonlySet<string>;
  /** On /book/: the chapter's name for landmark labels ("Chapter 3", "Preface") and its title's id. */
  landmark?: { chapter: string; titleId: string };
}

/** The separator between a chapter's slug and one of its ids on /book/. */
const idSeparator = "--";

/** The edition of a page of chapter `slug`. */
export function pageEdition(slug: string): Edition {
  return { name: "page", slug, idPrefix: "", headingOffset: 0, chapterSlugs: new Set() };
}

/** The edition of chapter `slug` on /book/. */
export function bookEdition(slug: string, chapterSlugs: ReadonlySet<string>, chapterName: string): Edition {
  const landmark = { chapter: chapterName, titleId: `${slug}-title` };
  return { name: "book", slug, idPrefix: `${slug}${idSeparator}`, headingOffset: 1, chapterSlugs, landmark };
}

/** The render env's edition, if any. */
export function editionOf(env: unknown): Edition | undefined {
  return (env as { edition?: Edition } | undefined)?.edition;
}

/** `data-parallelism` + `sec:zero` → `data-parallelism--sec:zero`; `top` (and "") is the chapter itself. */
export function bookId(slug: string, id: string): string {
  return id === "top" || id === "" ? slug : `${slug}${idSeparator}${id}`;
}

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

/** An element id as this render writes it. */
export function docId(env: unknown, id: string): string {
  const e = editionOf(env);
  return e?.idPrefix ? bookId(e.slug, id) : id;
}

/** A link target as this render writes it. */
export function docHref(env: unknown, href: string): string {
  const e = editionOf(env);
  return e?.idPrefix ? bookHref(href, e.slug, e.chapterSlugs) : href;
}

/** A heading tag for a Markdown heading level: `h2` on the chapter page is `h3` on /book/. */
export function headingTag(env: unknown, level: number): string {
  return `h${level + (editionOf(env)?.headingOffset ?? 0)}`;
}

/** A landmark's `aria-label`, with the chapter's name on /book/. */
export function landmarkLabel(env: unknown, label: string): string {
  const chapter = editionOf(env)?.landmark?.chapter;
  return chapter ? `${label}, ${chapter}` : label;
}

/** A landmark's `aria-labelledby` (one id): on /book/ it also names the chapter's title. */
export function landmarkLabelledBy(env: unknown, id: string): string {
  const titleId = editionOf(env)?.landmark?.titleId;
  return titleId ? `${docId(env, id)} ${titleId}` : id;
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

/** One attribute's value as this render writes it (ids, id lists, links, `url(#…)`). */
export function editionAttribute(env: unknown, name: string, value: string): string {
  const e = editionOf(env);
  if (!e?.idPrefix) return value;
  const lower = name.toLowerCase();
  let out = value;
  if (lower === "id") out = docId(env, value);
  else if (lower === "href" || lower === "xlink:href") out = docHref(env, value);
  else if (idRefAttributes.has(lower))
    out = value
      .split(/\s+/)
      .filter(Boolean)
      .map((v) => docId(env, v))
      .join(" ");
  if (value.includes("url(#")) out = out.replace(/url\(#([^)\s]+)\)/g, (_u, id: string) => `url(#${docId(env, id)})`);
  return out;
}

function escapeAttribute(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
}

/**
 * Raw HTML an author wrote in a chapter, with its ids and links as this render writes them:
 * htmlparser2 finds each start tag and its source offsets, and only a tag whose attributes
 * change is written again; every other byte is copied.
 */
export function editionRawHtml(env: unknown, html: string): string {
  if (!editionOf(env)?.idPrefix) return html;
  const parts: string[] = [];
  let copied = 0;
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        let changed = false;
        const attrs = Object.entries(attribs).map(([k, v]) => {
          const out = editionAttribute(env, k, v);
          if (out !== v) changed = true;
          return ` ${k}="${escapeAttribute(out)}"`;
        });
        if (!changed) return;
        const start = parser.startIndex;
        const end = parser.endIndex + 1;
        const selfClosing = html.slice(start, end).endsWith("/>") ? " /" : "";
        parts.push(html.slice(copied, start), `<${name}${attrs.join("")}${selfClosing}>`);
        copied = end;
      },
    },
    { decodeEntities: true, lowerCaseAttributeNames: false, lowerCaseTags: false, recognizeSelfClosing: true },
  );
  parser.end(html);
  parts.push(html.slice(copied));
  return parts.join("");
}

/** Every token and inline child, depth first. */
function* allTokens(tokens: Token[]): Generator<Token> {
  for (const t of tokens) {
    yield t;
    if (t.children) yield* allTokens(t.children);
  }
}

/** Early core rule: the raw HTML the author wrote (no plugin has added any yet). */
function rawHtmlRule(state: StateCore): boolean {
  if (!editionOf(state.env)?.idPrefix) return true;
  for (const t of allTokens(state.tokens)) {
    if (t.type === "html_block" || t.type === "html_inline") t.content = editionRawHtml(state.env, t.content);
  }
  return true;
}

/** The `# link` after a section heading, as on every page that has them. */
export function permalinkHtml(id: string): string {
  return `<a class="heading-anchor" href="#${escapeAttribute(id)}" aria-label="Link to this section"></a>`;
}

/**
 * Late core rule: ids and links in token attributes, heading levels, permalinks. A page that is
 * not a chapter gets permalinks when its data says `headingPermalinks: true` (the changelog's
 * layout does).
 */
function editionRule(state: StateCore): boolean {
  const edition = editionOf(state.env);
  if (!edition && (state.env as { headingPermalinks?: unknown }).headingPermalinks !== true) return true;
  const tokens = state.tokens;
  for (const t of allTokens(tokens)) {
    if (!t.attrs) continue;
    for (const attr of t.attrs) attr[1] = editionAttribute(state.env, attr[0], attr[1]);
  }
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.type !== "heading_open" && t.type !== "heading_close") continue;
    const level = Number(t.tag.slice(1));
    t.tag = headingTag(state.env, level);
    const id = t.attrGet("id");
    const inline = tokens[i + 1];
    if (t.type === "heading_open" && (level === 2 || level === 3) && id && inline?.children) {
      const anchor = new state.Token("html_inline", "", 0);
      anchor.content = permalinkHtml(id);
      anchor.meta = { permalink: true };
      inline.children.push(anchor);
    }
  }
  return true;
}

export function editionPlugin(md: MarkdownIt): void {
  md.core.ruler.after("inline", "book_edition_raw", rawHtmlRule);
  md.core.ruler.push("book_edition", editionRule);
}
