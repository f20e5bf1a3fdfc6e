/**
 * First-use glossary marks: in each chapter, the first use of each term of the glossary
 * (src/data/glossary.ts) in the body text becomes a link to its entry on /glossary/, followed by
 * the definition in a tooltip that CSS shows on hover and keyboard focus (assets/css/book.css,
 * "Glossary marks"):
 *
 *   <span class="gloss-term"><a class="gloss" href="/glossary/#term-zero-3"
 *     aria-describedby="gloss-data-parallelism-zero-3">ZeRO-3</a><span class="gloss-def"
 *     id="gloss-data-parallelism-zero-3" role="tooltip" data-pagefind-ignore>ZeRO stage 3: …</span></span>
 *
 * The rules (for authors: CONTRIBUTING.md, "Glossary terms"; docs/reader-features.md):
 * - Only running text is marked: text inside a `<p>` or `<li>` of the chapter body, and not
 *   inside headings, code, math, links, figures and their captions, tables, widgets, callout
 *   and exercise titles, solution summaries, footnote marks, margin notes (asides, sidenotes),
 *   visually hidden text, or anything with the class `no-gloss`.
 * - Each term is marked once per chapter, at its first use in that text.
 * - Forms: the term's `aliases` when it has them, else the term as written (a parenthesised
 *   part dropped), plus the plural (+s, or +es after x/z/ch/sh) of each form whose last word is
 *   all lower case. The first letter matches in either case, the rest exactly ("All-reduce"
 *   matches "all-reduce", "MFU" never matches "mfu"). `aliases` replace the term so that an
 *   ambiguous word can be matched only in context: "Stage" is matched as "pipeline stage".
 * - Whole words only: the character before and after a match is not a letter, digit, `_` or
 *   `-` (so "ZeRO" does not match in "ZeRO-Offload"). A space in a form matches any white
 *   space, line breaks included.
 * - At each position the longest form wins, even when its term is already marked: "ZeRO-3"
 *   is never marked as "ZeRO" plus "-3".
 * - A chapter does not mark the terms it explains itself (a `see` link of the term points at
 *   the chapter): there the reader is about to get the full explanation.
 *
 * The scan is a small tokenizer over the chapter body's tags. Only the marked words change;
 * every other byte (KaTeX, inline SVG, the widgets' drawings) is copied as it was. Parsing and
 * re-serializing the body with linkedom would rewrite entities in MathML, lower-case SVG
 * element names such as `foreignObject` or `clipPath` (breaking them), and take about four
 * times as long as this scan. Running it twice changes nothing (marks already present count as
 * used), and the tooltip ids carry the chapter's slug, so chapters combined into one page
 * (/book/) keep unique ids.
 */
import { glossary, type GlossaryEntry } from "../data/glossary.ts";
import { chapterInfo, isChapterPath } from "./chapters.ts";

/** Id of a term's tooltip in chapter `slug`. */
export function glossTooltipId(slug: string, termId: string): string {
  return `gloss-${slug}-${termId}`;
}

/** The key a form and a matched text share: the first letter in lower case, the rest as is. */
function formKey(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** The term as the book writes it in prose, without a parenthesised part. */
function baseForm(term: string): string {
  return term.replace(/\s*\([^)]*\)\s*$/, "").trim();
}

/**
 * `Microbatch` → `Microbatches`, `pipeline stage` → `pipeline stages`; undefined when the last
 * word (its first letter aside, for a one-word form) is not all lower case, or ends in "s".
 */
export function pluralForm(form: string): string | undefined {
  const last = /[\p{L}]+$/u.exec(formKey(form))?.[0];
  if (!last || last !== last.toLowerCase() || last.length < 2) return undefined;
  if (/(s|x|z|ch|sh)$/.test(last)) return last.endsWith("s") ? undefined : `${form}es`;
  return `${form}s`;
}

/** Every form a term is matched in: its aliases (or else the term itself), and their plurals. */
export function termForms(entry: GlossaryEntry): string[] {
  const forms = new Set<string>();
  for (const f of entry.aliases ?? [baseForm(entry.term)]) {
    forms.add(f);
    const p = pluralForm(f);
    if (p) forms.add(p);
  }
  return [...forms];
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A compiled matcher over the glossary's forms. */
export interface TermMatcher {
  regex: RegExp;
  /** formKey(form) → the entry. */
  byKey: Map<string, GlossaryEntry>;
}

export function buildTermMatcher(entries: readonly GlossaryEntry[] = glossary): TermMatcher {
  const byKey = new Map<string, GlossaryEntry>();
  for (const e of entries) {
    for (const f of termForms(e)) {
      const key = formKey(f);
      const other = byKey.get(key);
      if (other && other.id !== e.id) throw new Error(`glossary: the form "${f}" belongs to both "${other.term}" and "${e.term}"`);
      byKey.set(key, e);
    }
  }
  // Longest first, so the alternation prefers the longest form at a position.
  const keys = [...byKey.keys()].sort((a, b) => b.length - a.length || a.localeCompare(b));
  const alternatives = keys.map((k) => {
    const first = k.charAt(0);
    const upper = first.toUpperCase();
    const head = upper !== first ? `[${escapeRegExp(first)}${escapeRegExp(upper)}]` : escapeRegExp(first);
    // A space in a form matches any run of white space: the HTML keeps the source's line breaks.
    return head + escapeRegExp(k.slice(1)).replace(/ /g, "\\s+");
  });
  const regex = new RegExp(`(?<![\\p{L}\\p{N}_-])(?:${alternatives.join("|")})(?![\\p{L}\\p{N}_-])`, "gu");
  return { regex, byKey };
}

export interface TermMatch {
  start: number;
  end: number;
  entry: GlossaryEntry;
}

/** Every match of a term in `text`, left to right, the longest form at each position. */
export function findTermMatches(text: string, matcher: TermMatcher): TermMatch[] {
  const out: TermMatch[] = [];
  matcher.regex.lastIndex = 0;
  for (const m of text.matchAll(matcher.regex)) {
    const entry = matcher.byKey.get(formKey(m[0].replace(/\s+/g, " ")));
    if (entry) out.push({ start: m.index!, end: m.index! + m[0].length, entry });
  }
  return out;
}

/* The scan over tags */

const voidTags = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);
/** Elements whose content is text up to their end tag (copied untouched). */
const rawTextTags = new Set(["script", "style", "textarea", "title"]);
/** Elements whose text is never marked. */
const skipTags = new Set([
  "a", "abbr", "aside", "button", "code", "dfn", "figcaption", "figure", "h1", "h2", "h3", "h4", "h5", "h6",
  "kbd", "label", "math", "nav", "option", "pre", "samp", "select", "sub", "summary", "sup", "svg", "table", "var",
]);
/** Classes whose content is never marked. */
const skipClasses = new Set([
  "aside", "callout-title", "citation", "exercise-title", "fig-label", "footnote-ref", "footnotes", "gloss",
  "gloss-def", "gloss-term", "heading-anchor", "katex", "math", "no-gloss", "references", "references-list",
  "secnum", "sidenote", "toc", "visually-hidden", "widget",
]);
/** Elements whose text is running text. */
const blockTags = new Set(["p", "li"]);

const tagRe = /<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*(\/?)>/y;
const attrRe = /\s+([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

function attributes(raw: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of raw.matchAll(attrRe)) out.set(m[1]!.toLowerCase(), m[2] ?? m[3] ?? m[4] ?? "");
  return out;
}

function isSkipped(tag: string, attrs: Map<string, string>): boolean {
  if (skipTags.has(tag)) return true;
  if (attrs.has("data-widget") || attrs.has("data-widget-static") || attrs.has("hidden")) return true;
  if (attrs.get("aria-hidden") === "true") return true;
  const cls = attrs.get("class");
  return cls !== undefined && cls.split(/\s+/).some((c) => skipClasses.has(c));
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

export interface MarkOptions {
  /** The chapter's slug: part of every tooltip id. */
  slug: string;
  /** Where /glossary/ is, with a trailing slash ("/glossary/", or "/sub/glossary/" under a path prefix). */
  glossaryHref?: string;
  /** Term ids not to mark in this chapter. */
  skip?: ReadonlySet<string>;
  matcher?: TermMatcher;
}

export interface MarkResult {
  html: string;
  /** Ids of the terms marked by this call, in order of first use. */
  marked: string[];
}

/** The markup of one mark. `text` is the matched text exactly as it was in the HTML. */
export function glossMarkup(text: string, entry: GlossaryEntry, slug: string, glossaryHref: string): string {
  const tid = glossTooltipId(slug, entry.id);
  return (
    `<span class="gloss-term"><a class="gloss" href="${glossaryHref}#term-${entry.id}" aria-describedby="${tid}">${text}</a>` +
    `<span class="gloss-def" id="${tid}" role="tooltip" data-pagefind-ignore>${escapeHtml(entry.definition)}</span></span>`
  );
}

/**
 * Marks the first use of each glossary term in a chapter body's HTML (see the file comment for
 * the rules). Marks already in `html` count as used, so a second run changes nothing.
 */
export function markGlossaryTerms(html: string, options: MarkOptions): MarkResult {
  const matcher = options.matcher ?? buildTermMatcher();
  const glossaryHref = options.glossaryHref ?? "/glossary/";
  const used = new Set<string>(options.skip ?? []);
  const marked: string[] = [];
  const stack: { tag: string; skip: boolean; block: boolean }[] = [];
  let skipDepth = 0;
  let blockDepth = 0;
  // The output is the input with marks spliced in: `parts` holds the pieces, `copied` is how
  // far the input has been copied.
  const parts: string[] = [];
  let copied = 0;
  let i = 0;

  const push = (tag: string, skip: boolean, block: boolean) => {
    stack.push({ tag, skip, block });
    if (skip) skipDepth++;
    if (block) blockDepth++;
  };
  const popTo = (index: number) => {
    while (stack.length > index) {
      const e = stack.pop()!;
      if (e.skip) skipDepth--;
      if (e.block) blockDepth--;
    }
  };
  /** The text html[start, end) between two tags. */
  const text = (start: number, end: number) => {
    if (skipDepth > 0 || blockDepth === 0) return;
    const s = html.slice(start, end);
    if (s.trim() === "") return;
    for (const m of findTermMatches(s, matcher)) {
      if (used.has(m.entry.id)) continue;
      used.add(m.entry.id);
      marked.push(m.entry.id);
      parts.push(html.slice(copied, start + m.start), glossMarkup(s.slice(m.start, m.end), m.entry, options.slug, glossaryHref));
      copied = start + m.end;
    }
  };

  while (i < html.length) {
    const lt = html.indexOf("<", i);
    if (lt < 0) {
      text(i, html.length);
      break;
    }
    if (lt > i) text(i, lt);
    if (html.startsWith("<!--", lt)) {
      const end = html.indexOf("-->", lt + 4);
      i = end < 0 ? html.length : end + 3;
      continue;
    }
    if (html.startsWith("<!", lt) || html.startsWith("<?", lt)) {
      const end = html.indexOf(">", lt);
      i = end < 0 ? html.length : end + 1;
      continue;
    }
    tagRe.lastIndex = lt;
    const m = tagRe.exec(html);
    if (!m) {
      // A "<" that starts no tag is text (and no term).
      i = lt + 1;
      continue;
    }
    const [whole, closing, name, rawAttrs, selfClosing] = m;
    const tag = name!.toLowerCase();
    i = lt + whole.length;
    if (closing) {
      for (let k = stack.length - 1; k >= 0; k--) {
        if (stack[k]!.tag === tag) {
          popTo(k);
          break;
        }
      }
      continue;
    }
    // Inside skipped content (most of it KaTeX's spans) only the tag names matter, except a
    // mark's link, which says its term is used.
    const attrs = skipDepth === 0 || tag === "a" ? attributes(rawAttrs ?? "") : undefined;
    if (tag === "a" && (attrs!.get("class") ?? "").split(/\s+/).includes("gloss")) {
      const id = /#term-([^"#]+)$/.exec(attrs!.get("href") ?? "")?.[1];
      if (id) used.add(id);
    }
    if (rawTextTags.has(tag)) {
      const close = new RegExp(`</${tag}\\s*>`, "ig");
      close.lastIndex = i;
      const c = close.exec(html);
      i = c ? c.index + c[0].length : html.length;
      continue;
    }
    if (voidTags.has(tag) || selfClosing) continue;
    // An unclosed <p> or <li> ends where the next one starts.
    if (blockTags.has(tag) && stack.length > 0 && stack[stack.length - 1]!.tag === tag) popTo(stack.length - 1);
    push(tag, attrs !== undefined && isSkipped(tag, attrs), blockTags.has(tag));
  }
  parts.push(html.slice(copied));
  return { html: parts.join(""), marked };
}

/** Terms that chapter `slug` explains itself: one of their `see` links points at it. */
export function termsExplainedIn(slug: string, entries: readonly GlossaryEntry[] = glossary): Set<string> {
  return new Set(entries.filter((e) => e.see.some((s) => s.split("#")[0] === `/${slug}/`)).map((e) => e.id));
}

const bodyStart = '<div class="chapter-body">';

/**
 * Marks the chapter body of a built chapter page (between `<div class="chapter-body">` and
 * `</article>`); other pages and the rest of the page are returned unchanged.
 */
export function markChapterPage(html: string, slug: string, glossaryHref = "/glossary/", matcher?: TermMatcher): MarkResult {
  const start = html.indexOf(bodyStart);
  if (start < 0) return { html, marked: [] };
  const end = html.indexOf("</article>", start);
  const stop = end < 0 ? html.length : end;
  const r = markGlossaryTerms(html.slice(start, stop), { slug, glossaryHref, skip: termsExplainedIn(slug), matcher });
  return { html: html.slice(0, start) + r.html + html.slice(stop), marked: r.marked };
}

export function glossaryMarksPlugin(eleventyConfig: any): void {
  const matcher = buildTermMatcher();
  eleventyConfig.addTransform("glossary-marks", function (this: { page: { inputPath?: string; outputPath?: string | false } }, content: string) {
    const { inputPath, outputPath } = this.page ?? {};
    if (typeof outputPath !== "string" || !outputPath.endsWith(".html") || !inputPath) return content;
    const info = isChapterPath(inputPath) ? chapterInfo(inputPath) : undefined;
    if (!info) return content;
    // Eleventy runs HtmlBasePlugin's URL rewriting before the transforms added here, so the
    // path prefix is applied to this link directly.
    const prefix = String(eleventyConfig.pathPrefix ?? "/").replace(/\/?$/, "/");
    return markChapterPage(content, info.slug, `${prefix}glossary/`, matcher).html;
  });
}
