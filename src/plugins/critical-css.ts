/**
 * First-screen critical CSS (issue #25, docs/performance.md "Paint").
 *
 * A page's two stylesheets (KaTeX's and the book's, 67 KB) block its first paint: the browser
 * fetches them, parses them and builds their rule sets before it draws anything. This transform
 * gives each page, inline in `<head>`, only the rules that its first screen uses, and moves the
 * full sheets to the end of `<body>`, where they load without blocking the first paint and
 * without JavaScript:
 *
 *     <link rel="preload" href="/assets/css/book.css" as="style">   (head: fetched at once)
 *     <style>…the first screen's rules…</style>
 *     …
 *     <link rel="stylesheet" href="/assets/css/book.css">           (end of body)
 *
 * "The first screen" is the page up to the end of its first `section.part` (a chapter's header,
 * ToC, title block, opening and first section) or, on /book/, of its first
 * `article.edition-chapter`; other pages (the home page, the glossary, …) are small and taken
 * whole. Beasties (a maintained fork of Google's critters) picks the rules: those whose selectors
 * match that part of the page, the `@font-face` rules of the math faces it uses (no preloads:
 * they were measured slower), and, whatever the static HTML matches, every rule that names
 * `data-theme` (dark readers must not see a light first frame). The page is given to Beasties
 * with `<html class="js theme-js">`, as theme.js and book.js set it, so the rules for the
 * scripted state are kept as well as those for JavaScript off (`:not(.js)` matches either way).
 *
 * The page itself is edited at htmlparser2's source offsets (the head's stylesheet links and the
 * `</body>` tag); the rest is copied byte for byte. tests/browser/critical-css.test.ts renders
 * each chapter's first screen with the inline rules alone and with the full sheets, light and dark,
 * at both widths, and requires the same pixels.
 */
import { readFileSync } from "node:fs";
import beastiesModule from "beasties";
import { Parser } from "htmlparser2";
import type { UserConfig } from "@11ty/eleventy";
import { assetSource } from "./assets.ts";
import { BookError } from "./errors.ts";

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
  /** Offset of `</body>`. */
  bodyClose: number;
}

function hasClass(attrs: Record<string, string>, name: string): boolean {
  return (attrs.class ?? "").split(/\s+/).includes(name);
}

/** Finds the head's stylesheet links, the end of the first screen and `</body>` in `html`. */
export function pageLandmarks(html: string, inputPath: string): PageLandmarks {
  let htmlTagEnd: number | undefined;
  let inHead = false;
  const stylesheets: HeadStylesheet[] = [];
  let firstScreenEnd: number | undefined;
  let bodyClose: number | undefined;
  /** Open elements: whether each one is the element that ends the first screen. */
  const open: boolean[] = [];
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === "html") htmlTagEnd ??= parser.endIndex;
        if (name === "head") inHead = true;
        if (name === "body") inHead = false;
        if (inHead && name === "link" && (attrs.rel ?? "").toLowerCase().split(/\s+/).includes("stylesheet")) {
          if (!attrs.href) throw new BookError(inputPath, undefined, "a stylesheet <link> has no href");
          stylesheets.push({ start: parser.startIndex, end: parser.endIndex + 1, href: attrs.href });
        }
        const ends =
          firstScreenEnd === undefined &&
          ((name === "section" && hasClass(attrs, "part")) ||
            (name === "article" && hasClass(attrs, "edition-chapter")));
        open.push(ends);
      },
      onclosetag(name, implied) {
        if (name === "head") inHead = false;
        if (name === "body" && !implied) bodyClose = parser.startIndex;
        if (open.pop() && firstScreenEnd === undefined) firstScreenEnd = parser.endIndex + 1;
      },
    },
    { lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: false },
  );
  parser.end(html);
  if (htmlTagEnd === undefined || html[htmlTagEnd] !== ">")
    throw new BookError(inputPath, undefined, "page has no <html> start tag for the critical CSS");
  if (bodyClose === undefined)
    throw new BookError(inputPath, undefined, "page has no </body> to put its stylesheets before");
  return { htmlTagEnd, stylesheets, firstScreenEnd, bodyClose };
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

/**
 * Writes the page with its critical rules inline: the head's stylesheet links become preloads,
 * the inline `<style>` follows them, and the stylesheets are linked again before `</body>`.
 */
export function withCriticalCss(html: string, marks: PageLandmarks, css: string, inputPath: string): string {
  if (marks.stylesheets.length === 0) return html;
  if (/<\/style/i.test(css)) throw new BookError(inputPath, undefined, "critical CSS would close its <style> early");
  const hrefs = marks.stylesheets.map((s) => s.href);
  let out = "";
  let at = 0;
  marks.stylesheets.forEach((sheet, i) => {
    out += html.slice(at, sheet.start) + `<link rel="preload" href="${sheet.href}" as="style">`;
    if (i === marks.stylesheets.length - 1) out += `\n<style>${css}</style>`;
    at = sheet.end;
  });
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

/** Beasties reading the sheets from their source files (the copies are written alongside the pages). */
class SourceBeasties extends Beasties {
  readonly #sheets = new Map<string, string>();

  override getCssAsset(href: string): string {
    const urlPath = new URL(href, "https://book.invalid/").pathname;
    const cached = this.#sheets.get(urlPath);
    if (cached !== undefined) return cached;
    const source = assetSource(urlPath.replace(/^.*?(?=\/assets\/)/, ""));
    if (!source) throw new Error(`critical CSS: no source file for the stylesheet ${href}`);
    const text = readFileSync(source, "utf8");
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
    allowRules: [/\[data-theme/],
    logger: { warn: (m: string) => warnings.push(m), error: (m: string) => warnings.push(m) },
  });
}

/** The critical CSS for one page's first screen. */
export async function criticalCss(beasties: Beasties, firstScreen: string): Promise<string> {
  return firstStyleText(await beasties.process(firstScreen));
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
