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
 * The scan is a markdown-it core rule over the chapter's tokens (src/plugins/markdown/edition.ts sets
 * the render env): running text is the text and soft breaks of an inline token that opens a
 * paragraph, outside links and outside any skipped block or raw-HTML element (raw HTML is read
 * with htmlparser2). A mark replaces the matched text by three tokens, so KaTeX, SVG and the
 * widgets' drawings are never touched. Raw HTML an author writes is never marked. The tooltip
 * ids carry the chapter's slug, so chapters combined into one page (/book/) keep unique ids.
 */
import { Parser } from "htmlparser2";
import type { MarkdownIt, StateCore, Token } from "markdown-it";
import { glossary, type GlossaryEntry } from "../../data/glossary.ts";
import { docId, editionOf } from "./edition.ts";

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
      if (other && other.id !== e.id)
        throw new Error(`glossary: the form "${f}" belongs to both "${other.term}" and "${e.term}"`);
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

/* The scan over tokens */

/** Elements (in raw HTML) whose text is never marked. */
const skipTags = new Set([
  "a",
  "abbr",
  "aside",
  "button",
  "code",
  "dfn",
  "figcaption",
  "figure",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "kbd",
  "label",
  "math",
  "nav",
  "option",
  "pre",
  "samp",
  "select",
  "sub",
  "summary",
  "sup",
  "svg",
  "table",
  "var",
]);
/** Classes whose content is never marked. */
const skipClasses = new Set([
  "aside",
  "callout-title",
  "citation",
  "exercise-title",
  "fig-label",
  "footnote-ref",
  "footnotes",
  "gloss",
  "gloss-def",
  "gloss-term",
  "heading-anchor",
  "katex",
  "math",
  "no-gloss",
  "references",
  "references-list",
  "secnum",
  "sidenote",
  "toc",
  "visually-hidden",
  "widget",
]);
/** Block tokens whose content is never marked. */
const skipTokens = new Set(["heading_open", "table_open", "footnote_block_open", "book_figcaption_open"]);
/** Tokens whose inline content is running text (paragraphs; a solution's title, the others are skipped). */
const runningTextOpeners = new Set(["paragraph_open", "book_title_open"]);
/** Blocks (`::: name`) whose content is never marked. */
const skipContainers = new Set(["aside", "figure"]);

function skippedByAttributes(get: (name: string) => string | null | undefined): boolean {
  if (get("data-widget") != null || get("data-widget-static") != null || get("hidden") != null) return true;
  if (get("aria-hidden") === "true") return true;
  const cls = get("class");
  return cls != null && cls.split(/\s+/).some((c) => skipClasses.has(c));
}

/**
 * Open elements of raw HTML (an author's `<span class="no-gloss">`, a plugin's `<figure>`), read
 * with htmlparser2 across the chunks it is fed: `skipped` while any open one is skipped.
 */
class RawHtmlScope {
  private readonly stack: boolean[] = [];
  private skips = 0;
  private readonly parser = new Parser(
    {
      onopentag: (name, attribs) => {
        const skip = skipTags.has(name) || skippedByAttributes((k) => attribs[k]);
        this.stack.push(skip);
        if (skip) this.skips++;
      },
      onclosetag: () => {
        if (this.stack.pop()) this.skips--;
      },
    },
    { lowerCaseTags: true, recognizeSelfClosing: true },
  );
  feed(html: string): void {
    this.parser.write(html);
  }
  get skipped(): boolean {
    return this.skips > 0;
  }
}

/** Escapes a definition for element content (as the glossary page does). */
function escapeText(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function markOpen(entry: GlossaryEntry, tooltipId: string, glossaryHref: string): string {
  return `<span class="gloss-term"><a class="gloss" href="${glossaryHref}#term-${entry.id}" aria-describedby="${tooltipId}">`;
}

function markClose(entry: GlossaryEntry, tooltipId: string): string {
  return `</a><span class="gloss-def" id="${tooltipId}" role="tooltip" data-pagefind-ignore>${escapeText(entry.definition)}</span></span>`;
}

/** The markup of one mark. `text` is the matched text as HTML. */
export function glossMarkup(text: string, entry: GlossaryEntry, tooltipId: string, glossaryHref: string): string {
  return markOpen(entry, tooltipId, glossaryHref) + text + markClose(entry, tooltipId);
}

/** One mark as three tokens around the matched text. */
function markTokens(state: StateCore, text: string, entry: GlossaryEntry, tooltipId: string): Token[] {
  const open = new state.Token("html_inline", "", 0);
  open.content = markOpen(entry, tooltipId, "/glossary/");
  open.meta = { glossary: entry.id };
  const close = new state.Token("html_inline", "", 0);
  close.content = markClose(entry, tooltipId);
  return [open, textToken(state, text), close];
}

interface Scan {
  state: StateCore;
  matcher: TermMatcher;
  used: Set<string>;
  slug: string;
}

/** Marks the first uses in one run of text and soft breaks; returns the run's new tokens, or undefined if unchanged. */
function markRun(scan: Scan, run: Token[]): Token[] | undefined {
  const text = run.map((t) => (t.type === "softbreak" ? "\n" : t.content)).join("");
  const out: Token[] = [];
  let copied = 0;
  for (const m of findTermMatches(text, scan.matcher)) {
    if (scan.used.has(m.entry.id)) continue;
    scan.used.add(m.entry.id);
    if (m.start > copied) out.push(textToken(scan.state, text.slice(copied, m.start)));
    const tooltipId = docId(scan.state.env, glossTooltipId(scan.slug, m.entry.id));
    out.push(...markTokens(scan.state, text.slice(m.start, m.end), m.entry, tooltipId));
    copied = m.end;
  }
  if (copied === 0) return undefined;
  if (copied < text.length) out.push(textToken(scan.state, text.slice(copied)));
  return out;
}

function textToken(state: StateCore, content: string): Token {
  const t = new state.Token("text", "", 0);
  t.content = content;
  return t;
}

/** Marks the running text among one inline token's children: not in links or skipped raw HTML. */
function markInline(scan: Scan, inline: Token): void {
  const children = inline.children ?? [];
  const out: Token[] = [];
  const raw = new RawHtmlScope();
  let links = 0;
  let run: Token[] = [];
  const flush = () => {
    if (run.length > 0) out.push(...(markRun(scan, run) ?? run));
    run = [];
  };
  for (const c of children) {
    if ((c.type === "text" || c.type === "softbreak") && links === 0 && !raw.skipped) {
      run.push(c);
      continue;
    }
    flush();
    out.push(c);
    if (c.type === "link_open") links++;
    else if (c.type === "link_close") links--;
    else if (c.type === "html_inline") raw.feed(c.content);
  }
  flush();
  inline.children = out;
}

/**
 * Core rule: marks the first use of each glossary term in a chapter's running text (see the
 * file comment for the rules). Only chapter renders (an env with an edition) are marked.
 */
function glossaryRule(state: StateCore, matcher: TermMatcher): boolean {
  const edition = editionOf(state.env);
  if (!edition) return true;
  const scan: Scan = { state, matcher, used: termsExplainedIn(edition.slug), slug: edition.slug };
  const raw = new RawHtmlScope();
  const open: { skip: boolean; container?: string }[] = [];
  let skips = 0;
  const tokens = state.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.nesting === 1) {
      const container = t.type === "book_container_open" ? (t.meta as { name: string }).name : undefined;
      let skip = skipTokens.has(t.type) || skippedByAttributes((k) => t.attrGet(k));
      if (container)
        skip ||=
          skipContainers.has(container) ||
          (t.meta as { attrs: { classes: string[] } }).attrs.classes.some((c) => skipClasses.has(c));
      // Callout and exercise titles are skipped; a solution's title is running text.
      if (t.type === "book_title_open") skip ||= [...open].reverse().find((o) => o.container)?.container !== "solution";
      open.push({ skip, container });
      if (skip) skips++;
    } else if (t.nesting === -1) {
      if (open.pop()?.skip) skips--;
    } else if (t.type === "html_block") {
      raw.feed(t.content);
    } else if (
      t.type === "inline" &&
      skips === 0 &&
      !raw.skipped &&
      runningTextOpeners.has(tokens[i - 1]?.type ?? "")
    ) {
      markInline(scan, t);
    }
  }
  return true;
}

export function glossaryMarksPlugin(md: MarkdownIt): void {
  const matcher = buildTermMatcher();
  md.core.ruler.push("book_glossary", (state) => glossaryRule(state, matcher));
}

/** Terms that chapter `slug` explains itself: one of their `see` links points at it. */
export function termsExplainedIn(slug: string, entries: readonly GlossaryEntry[] = glossary): Set<string> {
  return new Set(entries.filter((e) => e.see.some((s) => s.split("#")[0] === `/${slug}/`)).map((e) => e.id));
}
