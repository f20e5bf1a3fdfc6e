/**
 * Every built page is written in ASCII. A character beyond ASCII ("−", "×", "’", KaTeX's no-break
 * and zero-width spaces) becomes a numeric character reference (`&#x2212;`) in text and attribute
 * values, and a CSS escape (`\2212 `) in an inline `<style>`. The document the browser builds is
 * the same, character for character (comments and SVG's `<style>` aside: below); the work of
 * building it is not.
 *
 * Why: Chromium decodes a page's bytes into text fastest when they are all ASCII. A character
 * beyond U+00FF makes the decoded text 16-bit, and any byte outside ASCII costs time. A chapter
 * has a few hundred such characters among 300-650 KB of markup (`/pipeline-parallelism/`: 511 of
 * 651,534, the first at character 500). In traced loads of `/pipeline-parallelism/` (CPU 4× slower; docs/performance-log.md, "Paint",
 * thirteenth look), decoding took 55-73 ms per chunk of the page. The second chunk was decoded while
 * the parser waited for `theme.js`, so before the first paint; the bare twin (no scripts) paints
 * before it. With the page in ASCII, a chunk took 4-20 ms; with the Latin-1 characters ("×", "·")
 * left as they were, 15-26 ms. `npm run bench:paint-trace -- /one-gpu/ --decode` measures it.
 *
 * Where a character is:
 * - text, RCDATA (`<title>`, `<textarea>`), attribute values: a reference, which the HTML parser
 *   decodes. `<noscript>` too: with scripting off its content is parsed as markup, references
 *   decoded; with scripting on it is raw text that is never shown;
 * - a comment: a reference too, which a comment keeps as written. A comment is never shown, and
 *   the built pages have none;
 * - an inline `<style>`: a CSS escape, which means the character in strings, identifiers and
 *   `url()`, and is inert text in a CSS comment, as the character was. A character already escaped
 *   (`\Ψ`) keeps its backslash: `\3a8 `. Inside SVG, `<style>` is not raw text in the HTML parser,
 *   so the DOM holds the escape instead of the character; CSS reads the two alike;
 * - a build error, where no escape would mean the same: an inline `<script>` (the build allows
 *   none anyway: site-checks.ts), a CDATA section, the raw text of `<xmp>`, `<plaintext>`,
 *   `<iframe>`, `<noembed>` and `<noframes>`, a tag or attribute name, a C1 control (U+0080-U+009F,
 *   which a reference would map through Windows-1252: `&#x80;` is "€") and a byte order mark at the
 *   start of the page (a reference would make it text, and the page quirky).
 *
 * The spans of raw text are htmlparser2's, which ends a `<style>` or `<script>` at `</style>` and
 * `</style ...>` but not at `</style/>`, which the HTML parser accepts too; the build writes none.
 *
 * The `entities` package's encoders escape `&`, `<`, `>` and quotes as well; this transform works
 * on markup that is already escaped, so it writes its own references, a few lines below.
 */
import { Parser } from "htmlparser2";
import type { UserConfig } from "@11ty/eleventy";
import { BookError } from "../shared/errors.ts";

type RawKind = "style" | "script" | "cdata" | "raw";

/** Elements whose content the HTML parser takes as raw text but htmlparser2 parses as markup. */
const otherRawText = new Set(["xmp", "plaintext", "iframe", "noembed", "noframes"]);

interface RawSpan {
  start: number;
  /** One past the last character. */
  end: number;
  kind: RawKind;
}

const nonAscii = /[\u0080-\u{10ffff}]/u;

/** 1-based line of `offset` in `text`. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/** The spans of `html` that are not HTML text: inline `<style>` and `<script>` bodies, CDATA. */
function rawSpans(html: string, inputPath: string): RawSpan[] {
  const spans: RawSpan[] = [];
  const open: string[] = [];
  let cdata = false;
  const nameError = (what: string, name: string): never => {
    throw new BookError(
      inputPath,
      undefined,
      `built HTML has a ${what} with a character outside ASCII, ${JSON.stringify(name)} (line ${lineAt(html, parser.startIndex)} of the output); names cannot be escaped`,
    );
  };
  const parser = new Parser(
    {
      onopentagname(name) {
        if (nonAscii.test(name)) nameError("tag name", name);
        open.push(name);
      },
      onattribute(name) {
        if (nonAscii.test(name)) nameError("attribute name", name);
      },
      onclosetag(name) {
        const at = open.lastIndexOf(name);
        if (at !== -1) open.length = at;
      },
      oncdatastart() {
        cdata = true;
      },
      oncdataend() {
        cdata = false;
      },
      ontext() {
        const inner = open.at(-1);
        const kind: RawKind | undefined = cdata
          ? "cdata"
          : inner === "style" || inner === "script"
            ? inner
            : open.some((name) => otherRawText.has(name))
              ? "raw"
              : undefined;
        if (kind) spans.push({ start: parser.startIndex, end: parser.endIndex + 1, kind });
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeCDATA: true },
  );
  parser.end(html);
  return spans;
}

/** `html` with every character outside ASCII escaped for where it stands (see the file's comment). */
export function asciiHtml(html: string, inputPath: string): string {
  if (!nonAscii.test(html)) return html;
  if (html.startsWith("\ufeff")) {
    throw new BookError(
      inputPath,
      undefined,
      "built HTML starts with a byte order mark; the page is UTF-8 without one",
    );
  }
  const spans = rawSpans(html, inputPath);
  let out = "";
  let copied = 0;
  let span = 0;
  for (let i = 0; i < html.length; i++) {
    if (html.charCodeAt(i) < 0x80) continue;
    const point = html.codePointAt(i) ?? 0;
    const width = point > 0xffff ? 2 : 1;
    while (span < spans.length && (spans[span]?.end ?? 0) <= i) span++;
    const inside = spans[span] !== undefined && (spans[span]?.start ?? 0) <= i ? spans[span]?.kind : undefined;
    const hex = point.toString(16);
    const name = `U+${hex.toUpperCase().padStart(4, "0")}`;
    const where = () => `(line ${lineAt(html, i)} of the output)`;
    if (inside === "script" || inside === "cdata" || inside === "raw") {
      const what = {
        script: "an inline <script>",
        cdata: "a CDATA section",
        raw: "raw text (xmp, plaintext, iframe, noembed, noframes)",
      }[inside];
      throw new BookError(
        inputPath,
        undefined,
        `built HTML has ${name} inside ${what} ${where()}; no escape means the same there`,
      );
    }
    if (point <= 0x9f) {
      throw new BookError(
        inputPath,
        undefined,
        `built HTML has the C1 control ${name} ${where()}; it has no place in a page`,
      );
    }
    let escaped = `&#x${hex};`;
    if (inside === "style") {
      let backslashes = 0;
      while (html[i - 1 - backslashes] === "\\") backslashes++;
      escaped = `${backslashes % 2 === 1 ? "" : "\\"}${hex} `;
    }
    out += html.slice(copied, i) + escaped;
    copied = i + width;
    i += width - 1;
  }
  return out + html.slice(copied);
}

export function asciiHtmlPlugin(eleventyConfig: UserConfig): void {
  eleventyConfig.addTransform("ascii-html", function (content: string) {
    const outputPath = this.page.outputPath;
    if (typeof outputPath !== "string" || !outputPath.endsWith(".html")) return content;
    return asciiHtml(content, this.page.inputPath);
  });
}
