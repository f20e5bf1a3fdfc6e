/**
 * First-screen critical CSS (issue #25, docs/performance-log.md "Paint").
 *
 * A page's two stylesheets (KaTeX's and the book's, 56 KB as served) block its first paint: the browser
 * fetches them, parses them and builds their rule sets before it draws anything. This transform
 * gives each page, inline in `<head>`, only the rules that its first screen uses, and moves the
 * full sheets to the end of `<body>`, where they load without blocking the first paint and
 * without JavaScript:
 *
 *     <style>…the first screen's rules…</style>                    (head)
 *     …
 *     <link rel="stylesheet" href="/assets/css/book.css">           (end of body)
 *
 * The head has no preload for the sheets: the browser's preload scanner finds the links at the end
 * of `<body>`, and with preloads in `<head>` (as until 2026-11-29) the first paint came later in
 * interleaved batches; in traces the renderer handled the sheets' responses while the parser waited
 * for theme.js. On a slow connection the sheets now start later (docs/performance-log.md, "Paint",
 * fourteenth look, says what that costs).
 *
 * "The first screen" is the page up to the end of its first `section.part` (a chapter's header,
 * ToC, title block, opening and first section) or, on /book/, of its first
 * `article.edition-chapter`, or up to the end of the first block of the text that brings its
 * visible text to FIRST_SCREEN_TEXT characters, whichever comes first; other pages (the home
 * page, the glossary, …) are small and taken whole. Beasties (a maintained fork of Google's
 * critters) picks the rules: those whose selectors match that part of the page, the `@font-face`
 * rules of the math faces it uses (no preloads: they were measured slower), and, whatever the
 * static HTML matches, every rule that names `data-theme` (dark readers must not see a light
 * first frame) and every rule that book.css marks `beasties:include` (a chapter's end matter,
 * which lies past the first screen but is skipped from the first paint on). The page is given
 * to Beasties with `<html class="js theme-js">`, as theme.js and book.js set it, so the rules
 * for the scripted state are kept as well as those for JavaScript off (`:not(.js)` matches
 * either way).
 *
 * The same pass marks the blocks that the first paint may skip (`data-skippable="N"`): each block
 * of the opening and of the parts that start before the visible text reaches FIRST_SCREEN_TEXT
 * characters, once the text before it reaches N, the largest of SKIP_AFTER it has passed (less
 * the blocks that reach outside their box). book.css skips a block marked N while it is off
 * screen, until the load, on the screens estimated unable to show N characters of text ("Blocks
 * below the first screen"): 1,650 on phones held upright and on wide screens up to 57rem tall
 * (measured there, not a bound), 2,500 on wide screens up to 60rem tall, 3,000 on the others. So
 * the first paint skips the long opening parts beyond the screen (in the opening, beyond the
 * margin within which Chromium renders such blocks anyway; inside the first part, until a frame
 * after the first), without skipping, and so clipping or moving by a pixel, a block of the first
 * screen at the sizes the browser test loads. Each block carries the mark, rather than the first
 * one and a sibling selector (`[mark] ~ *`) finding the rest: a selector whose last step names no
 * class or attribute is tried on every element of the page, and that one, with its `:has()`
 * exceptions, took 14 ms of matching at full CPU speed before the largest paint of /one-gpu/
 * (docs/performance-log.md, "Paint").
 *
 * The page itself is edited at htmlparser2's source offsets (the head's stylesheet links, those
 * marks and the `</body>` tag); the rest is copied byte for byte. tests/browser/critical-css.test.ts renders
 * each chapter's first screen with the inline rules alone and with the full sheets, light and dark,
 * at both widths, and requires the same pixels.
 */
import { readFileSync } from "node:fs";
import beastiesModule from "beasties";
import { Parser } from "htmlparser2";
import postcss from "postcss";
import type { UserConfig } from "@11ty/eleventy";
import { assetSource } from "./assets.ts";
import { BookError } from "../shared/errors.ts";

/** A `<link rel="stylesheet">` in `<head>`, by its source offsets. */
interface HeadStylesheet {
  start: number;
  end: number;
  href: string;
}

/** What the transform needs to know about one page, from one htmlparser2 pass. */
export interface PageLandmarks {
  /** Offset of `>` that ends the `<html …>` start tag. */
  htmlTagEnd: number;
  stylesheets: HeadStylesheet[];
  /** Offset just after the element that ends the first screen, or undefined: the whole page. */
  firstScreenEnd: number | undefined;
  /**
   * The blocks that book.css may skip while they are off screen, until the load, each by the
   * offset of the `>` (or `/>`) that ends its start tag and the largest of SKIP_AFTER that the
   * visible text before it has reached: the blocks of the opening and of each part that starts
   * before the text reaches FIRST_SCREEN_TEXT characters, less the blocks that reach outside
   * their box (REACHES_OUT). Later parts are not in it: they start after that much text and are
   * skipped whole.
   */
  skippable: { tagEnd: number; after: SkipAfter }[];
  /** Offset of `</body>`. */
  bodyClose: number;
}

function hasClass(attrs: Record<string, string>, name: string): boolean {
  return (attrs.class ?? "").split(/\s+/).includes(name);
}

/**
 * Classes of what reaches outside its block's box: parts (skipped on their own), widgets (book.js
 * watches them), asides and sidenotes (they float into the margin), wide and full-width figures
 * (they reach past the column). A block that is one of these or holds one is never skipped:
 * skipping contains its layout and paint, and would clip them.
 */
const REACHES_OUT = ["part", "widget", "aside", "sidenote", "wide", "full-width"];

/**
 * Visible characters of text after which the first screen ends (at the end of the block that
 * reaches it): about 35 lines of body text at 1280 px, more than a 1440 px tall screen shows
 * under the title block, and about 70 lines on a phone.
 */
export const FIRST_SCREEN_TEXT = 3000;

/**
 * Characters of visible text after which a block is below the first screen of some screens, each
 * a value of the mark `data-skippable` that book.css matches ("Blocks below the first screen",
 * where the numbers are estimated): 1,650 on screens up to 30rem wide and 64rem tall (phones held
 * upright) and on screens at least 62rem wide and up to 57rem tall (measured, not a bound), 2,500
 * on screens at least 62rem wide and up to 60rem tall, FIRST_SCREEN_TEXT on every other screen.
 * Largest first.
 */
export const SKIP_AFTER = [FIRST_SCREEN_TEXT, 2500, 1650] as const;
export type SkipAfter = (typeof SKIP_AFTER)[number];

/** An open element, as pageLandmarks tracks it. */
interface OpenElement {
  /** It ends the first screen when it closes (the first part, or the book's first chapter). */
  ends: boolean;
  /** A block of the text: a child of `.chapter-body` or of one of its parts. */
  block: boolean;
  /** Its children are blocks of the text. */
  holdsBlocks: boolean;
  /** Its blocks are marked skippable: it holds blocks and opened before the text reached FIRST_SCREEN_TEXT. */
  marksBlocks: boolean;
  /** A skippable block, by the end of its start tag, while it may still be skipped. */
  skippable?: { tagEnd: number; after: SkipAfter; ok: boolean };
  /**
   * Its text is not seen (KaTeX's MathML copy, glossary definitions shown on hover, text for
   * screen readers only, skip links to widgets, scripts, styles, SVG titles).
   */
  unseen: boolean;
}

/** Finds the head's stylesheet links, the end of the first screen and `</body>` in `html`. */
export function pageLandmarks(html: string, inputPath: string): PageLandmarks {
  let htmlTagEnd: number | undefined;
  let inHead = false;
  const stylesheets: HeadStylesheet[] = [];
  let firstScreenEnd: number | undefined;
  const skippable: PageLandmarks["skippable"] = [];
  /** The skippable block that is open now (blocks are siblings: one at a time). */
  let openSkippable: OpenElement["skippable"];
  let textReached = false;
  let bodyClose: number | undefined;
  let inMain = false;
  let seenText = 0;
  const open: OpenElement[] = [];
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === "html") htmlTagEnd ??= parser.endIndex;
        if (name === "head") inHead = true;
        if (name === "body") inHead = false;
        if (name === "main") inMain = true;
        if (inHead && name === "link" && (attrs.rel ?? "").toLowerCase().split(/\s+/).includes("stylesheet")) {
          if (!attrs.href) throw new BookError(inputPath, undefined, "a stylesheet <link> has no href");
          stylesheets.push({ start: parser.startIndex, end: parser.endIndex + 1, href: attrs.href });
        }
        const parent = open.at(-1);
        const isPart = name === "section" && hasClass(attrs, "part");
        const block = parent?.holdsBlocks ?? false;
        const reachesOut = REACHES_OUT.some((c) => hasClass(attrs, c));
        const after = SKIP_AFTER.find((n) => seenText >= n);
        let mark: OpenElement["skippable"];
        if (block && !isPart && parent?.marksBlocks && after !== undefined) {
          const tagEnd = parser.endIndex;
          mark = { tagEnd: html[tagEnd - 1] === "/" ? tagEnd - 1 : tagEnd, after, ok: !reachesOut };
          openSkippable = mark;
        } else if (openSkippable && reachesOut) openSkippable.ok = false;
        const holdsBlocks = hasClass(attrs, "chapter-body") || (isPart && block);
        open.push({
          skippable: mark,
          ends: isPart || (name === "article" && hasClass(attrs, "edition-chapter")),
          block,
          holdsBlocks,
          marksBlocks: holdsBlocks && !textReached,
          unseen:
            !!parent?.unseen ||
            ["script", "style", "title", "desc", "template"].includes(name) ||
            hasClass(attrs, "katex-mathml") ||
            hasClass(attrs, "gloss-def") ||
            hasClass(attrs, "visually-hidden") ||
            hasClass(attrs, "widget-skip"), // "Skip to the widget" links: off screen until focused
        });
      },
      ontext(text) {
        const here = open.at(-1);
        if (inMain && here && !here.unseen) seenText += text.replace(/\s+/g, " ").trim().length;
      },
      onclosetag(name, implied) {
        if (name === "head") inHead = false;
        if (name === "main") inMain = false;
        if (name === "body" && !implied) bodyClose = parser.startIndex;
        const closed = open.pop();
        if (closed?.skippable) {
          if (closed.skippable.ok) skippable.push({ tagEnd: closed.skippable.tagEnd, after: closed.skippable.after });
          openSkippable = undefined;
        }
        if (closed?.block && seenText >= FIRST_SCREEN_TEXT) textReached = true;
        if (firstScreenEnd !== undefined || !closed) return;
        if (closed.ends || (closed.block && seenText >= FIRST_SCREEN_TEXT)) firstScreenEnd = parser.endIndex + 1;
      },
    },
    { lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: false },
  );
  parser.end(html);
  if (htmlTagEnd === undefined || html[htmlTagEnd] !== ">")
    throw new BookError(inputPath, undefined, "page has no <html> start tag for the critical CSS");
  if (bodyClose === undefined)
    throw new BookError(inputPath, undefined, "page has no </body> to put its stylesheets before");
  return { htmlTagEnd, stylesheets, firstScreenEnd, skippable, bodyClose };
}

/** The first screen as Beasties reads it: cut after its last element, `<html>` in the scripted state. */
export function firstScreenDocument(html: string, marks: PageLandmarks): string {
  const cut = html.slice(0, marks.firstScreenEnd ?? html.length);
  return `${cut.slice(0, marks.htmlTagEnd)} class="js theme-js"${cut.slice(marks.htmlTagEnd)}`;
}

/** The text of the first `<style>` element in `html` (what Beasties inlined), or "". */
function firstStyleText(html: string): string {
  let inStyle = false;
  let done = false;
  let text = "";
  const parser = new Parser({
    onopentag(name) {
      if (name === "style" && !done) inStyle = true;
    },
    ontext(data) {
      if (inStyle) text += data;
    },
    onclosetag(name) {
      if (name === "style" && inStyle) {
        inStyle = false;
        done = true;
      }
    },
  });
  parser.end(html);
  return text;
}

/** The attribute that marks the blocks the first paint may skip (book.css, "Blocks below the first screen"). */
const SKIPPABLE = "data-skippable";

/**
 * Writes the page with its critical rules inline: the inline `<style>` takes the place of the head's
 * stylesheet links, and the stylesheets are linked before `</body>` instead. The
 * skippable blocks are marked with SKIPPABLE="N": book.css skips those that are off screen until
 * the load, on the screens estimated unable to show N characters of text.
 */
export function withCriticalCss(html: string, marks: PageLandmarks, css: string, inputPath: string): string {
  if (marks.stylesheets.length === 0) return html;
  if (/<\/style/i.test(css)) throw new BookError(inputPath, undefined, "critical CSS would close its <style> early");
  const hrefs = marks.stylesheets.map((s) => s.href);
  let out = "";
  let at = 0;
  marks.stylesheets.forEach((sheet, i) => {
    out += html.slice(at, sheet.start);
    if (i === marks.stylesheets.length - 1) out += `<style>${css}</style>`;
    // A link that gives way to nothing takes the line break after it, so that no empty line is left.
    at = i < marks.stylesheets.length - 1 && html[sheet.end] === "\n" ? sheet.end + 1 : sheet.end;
  });
  for (const { tagEnd, after } of marks.skippable) {
    out += html.slice(at, tagEnd) + ` ${SKIPPABLE}="${after}"`;
    at = tagEnd;
  }
  out += html.slice(at, marks.bodyClose);
  out += hrefs.map((href) => `<link rel="stylesheet" href="${href}">\n`).join("");
  return out + html.slice(marks.bodyClose);
}

/**
 * The package's types are a CommonJS declaration (`export default class`), so TypeScript sees the
 * class at `.default`; Node loads the package's ES module, whose default export is the class.
 */
const Beasties = beastiesModule as unknown as typeof beastiesModule.default;
type Beasties = InstanceType<typeof Beasties>;

/** Pseudo-classes of a reader's interaction: no first paint is drawn in such a state. */
const INTERACTION = /:(?:hover|focus|focus-visible|focus-within|active)\b/;

/**
 * A stylesheet as the critical-CSS step reads it: without what no first paint needs, since the
 * full sheet (unchanged) arrives a round trip later and applies it all:
 * - `@media print` (printing waits for the page to load);
 * - selectors in an interaction state (`:hover`, `:focus`, …), and rules left with none;
 * - in `@font-face`, sources other than woff2 (the site serves only the woff2 files; every
 *   browser that runs this book reads woff2).
 * Each cut is on postcss's parse of the sheet.
 */
export function firstPaintSheet(css: string): string {
  const root = postcss.parse(css);
  root.walkAtRules("media", (rule) => {
    if (rule.params.trim() === "print") rule.remove();
  });
  root.walkRules((rule) => {
    if (!INTERACTION.test(rule.selector)) return;
    const kept = rule.selectors.filter((sel) => !INTERACTION.test(sel));
    if (kept.length === 0) rule.remove();
    else rule.selectors = kept;
  });
  root.walkAtRules("font-face", (face) => {
    face.walkDecls("src", (decl) => {
      const woff2 = decl.value.split(",").filter((source) => /format\(\s*["']woff2["']\s*\)/.test(source));
      if (woff2.length) decl.value = woff2.join(",").trim();
    });
  });
  return root.toString();
}

/** Beasties reading the sheets from their source files (the copies are written alongside the pages). */
class SourceBeasties extends Beasties {
  readonly #sheets = new Map<string, string>();

  override getCssAsset(href: string): string {
    const urlPath = new URL(href, "https://book.invalid/").pathname;
    const cached = this.#sheets.get(urlPath);
    if (cached !== undefined) return cached;
    const source = assetSource(urlPath.replace(/^.*?(?=\/assets\/)/, ""));
    if (!source) throw new Error(`critical CSS: no source file for the stylesheet ${href}`);
    const text = firstPaintSheet(readFileSync(source, "utf8"));
    this.#sheets.set(urlPath, text);
    return text;
  }
}

/** One Beasties instance per build, so a rebuild in watch mode reads the sheets afresh. */
function newBeasties(warnings: string[]): SourceBeasties {
  return new SourceBeasties({
    preload: "body",
    inlineFonts: true,
    preloadFonts: false,
    pruneSource: false,
    mergeStylesheets: true,
    compress: true,
    reduceInlineStyles: false,
    // Rules for the skippable blocks: the cut has no marks yet, and they must be inline.
    allowRules: [/\[data-theme/, new RegExp(`\\[${SKIPPABLE}`)],
    logger: { warn: (m: string) => warnings.push(m), error: (m: string) => warnings.push(m) },
  });
}

/** The critical CSS for one page's first screen. */
export async function criticalCss(beasties: Beasties, firstScreen: string): Promise<string> {
  return pruneCustomProperties(firstStyleText(await beasties.process(firstScreen)), attributeVars(firstScreen));
}

const VAR_REFERENCE = /var\(\s*(--[\w-]+)/g;

/** The custom properties that a CSS value reads through `var()`. */
function varsIn(value: string): string[] {
  return [...value.matchAll(VAR_REFERENCE)].map((m) => m[1]!);
}

/** Custom properties read by the page's own attributes (`style="…"`, SVG `fill="var(--…)"`). */
function attributeVars(html: string): Set<string> {
  const found = new Set<string>();
  const parser = new Parser({
    onattribute(_name, value) {
      for (const v of varsIn(value)) found.add(v);
    },
  });
  parser.end(html);
  return found;
}

/**
 * Drops the custom-property declarations (`--c-params: …`) that nothing in the critical CSS or
 * the page's attributes reads, directly or through another property: the palette of widgets
 * and code further down the page is a third of the book's `:root` rules, in three themes. Rules
 * left empty go too. On postcss's parse of the CSS.
 */
export function pruneCustomProperties(css: string, readByPage: Set<string>): string {
  const root = postcss.parse(css);
  const refs = new Map<string, string[]>();
  const queue = [...readByPage];
  root.walkDecls((decl) => {
    if (decl.prop.startsWith("--")) refs.set(decl.prop, [...(refs.get(decl.prop) ?? []), ...varsIn(decl.value)]);
    else queue.push(...varsIn(decl.value));
  });
  const needed = new Set<string>();
  for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
    if (needed.has(name)) continue;
    needed.add(name);
    queue.push(...(refs.get(name) ?? []));
  }
  root.walkDecls((decl) => {
    if (decl.prop.startsWith("--") && !needed.has(decl.prop)) decl.remove();
  });
  root.walkRules((rule) => {
    if (rule.nodes.length === 0) rule.remove();
  });
  root.walkAtRules((rule) => {
    if (rule.nodes !== undefined && rule.nodes.length === 0) rule.remove();
  });
  return root.toString();
}

export function criticalCssPlugin(eleventyConfig: UserConfig): void {
  let warnings: string[] = [];
  let beasties = newBeasties(warnings);
  eleventyConfig.on("eleventy.before", () => {
    warnings = [];
    beasties = newBeasties(warnings);
  });
  eleventyConfig.addTransform("critical-css", async function (content: string) {
    const outputPath = this.page.outputPath;
    if (typeof outputPath !== "string" || !outputPath.endsWith(".html")) return content;
    const inputPath = this.page.inputPath;
    const marks = pageLandmarks(content, inputPath);
    if (marks.stylesheets.length === 0) return content;
    const css = await criticalCss(beasties, firstScreenDocument(content, marks));
    if (warnings.length) throw new BookError(inputPath, undefined, `critical CSS: ${warnings.splice(0).join("; ")}`);
    if (!css) throw new BookError(inputPath, undefined, "critical CSS came out empty");
    return withCriticalCss(content, marks, css, inputPath);
  });
}
