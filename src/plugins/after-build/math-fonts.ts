/**
 * KaTeX's math faces, cut to the characters the book's math draws (issue #25, docs/performance-log.md
 * "Initial load per page").
 *
 * KaTeX ships each face with every character of the TeX font it copies: KaTeX_Main-Regular holds 283
 * code points in 26 KB, of which the book's math draws about a third. Whole, the faces were most of a
 * chapter's first load (seven of them, 92 KB of /expert-parallelism/'s 143 KB), and a formula's text
 * waits for its face (`font-display: block`). As the build renders each formula (src/plugins/markdown/math.ts),
 * `recordFormula` collects the characters of KaTeX's visual rendering (`.katex-html`; the MathML copy
 * is drawn in the reader's own math font) with htmlparser2. After the build, this step adds the ones
 * katex.min.css draws itself (equation numbers) and every Basic Latin and Greek character
 * (`keptCharacters`), and writes each of KaTeX's woff2 faces cut to that one set with harfbuzz's
 * subsetter (through subset-font). The subsetter keeps every kept glyph's outline, metrics and
 * hinting and the layout tables (all features, and the glyphs they reach), so the math is drawn
 * pixel for pixel as with the full faces: tests/browser/math-fonts.test.ts draws every formula of
 * the site both ways.
 *
 * One set for every face, rather than each face's own characters, keeps this step free of KaTeX's
 * class-to-face table: a face gets every character it has that any formula uses, a few more than
 * it needs. Recording at render time, rather than reading the built pages, costs a parse of each
 * distinct formula once per process (reading every page took 0.85 s, /book/ most of it, on every
 * rebuild). In watch mode the set only grows, so a face may keep a character no formula draws any
 * more until the next build. The set is the whole site's, so a page's faces are the same files on
 * every page and stay cached from one chapter to the next. The files keep their names, as book.css
 * and book.js do: after a deploy that draws a new character, a reader whose cache still holds the
 * older face sees that character in a fallback font until the cache revalidates it.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Parser } from "htmlparser2";
import subsetFont from "subset-font";
import type { UserConfig } from "@11ty/eleventy";

/** KaTeX's fonts in the package, and where the site serves them (katex.min.css's `fonts/…` next to it). */
export const katexFontSource = "node_modules/katex/dist/fonts";
export const katexFontOutput = "assets/katex/fonts";

/**
 * Characters katex.min.css draws with generated content: an equation number is
 * `"(" counter(katexEqnNo) ")"`, in the font of the formula.
 */
export const cssDrawnCharacters = "()0123456789";

/** The characters of the Unicode blocks from `first` to `last`. */
const block = (first: number, last: number) =>
  Array.from({ length: last - first + 1 }, (_, i) => String.fromCodePoint(first + i)).join("");

/**
 * Kept in every face, drawn or not: Basic Latin and Greek. Without them a cut face is drawn a shade
 * differently: in the browser test, with the characters the math draws alone, the edges of a "Δ" and
 * of other glyphs differed from the full face's by up to the full range of a pixel, though the glyphs'
 * outlines are the same. A likely cause, not confirmed in FreeType's code: on Linux, Chromium has
 * FreeType hint web fonts with its auto-hinter, which sets a face's alignment zones from reference
 * letters of the face's scripts, so a face without them gets other zones.
 */
export const keptCharacters = block(0x20, 0x7e) + block(0x370, 0x3ff);

/**
 * HTML's white space (space, tab, line feed, form feed, carriage return), which the browser lays
 * out as a break or a collapsed space, not as a glyph. Any other space is a character KaTeX draws:
 * `\text{a b}`, `~` and `\ ` give U+00A0, a no-break space, which every full face has.
 */
const htmlWhiteSpace = new Set([" ", "\t", "\n", "\f", "\r"]);

/** Adds to `into` the characters, other than HTML's white space, of every `.katex-html` element of `html`. */
export function collectMathCharacters(html: string, into: Set<string> = new Set()): Set<string> {
  // One flag per open element: whether it is a .katex-html; `depth` counts those open.
  const opened: boolean[] = [];
  let depth = 0;
  const parser = new Parser(
    {
      onopentag(_name, attributes) {
        const isMath = (attributes.class ?? "").split(/\s+/).includes("katex-html");
        opened.push(isMath);
        if (isMath) depth++;
      },
      onclosetag() {
        if (opened.pop()) depth--;
      },
      ontext(text) {
        if (depth === 0) return;
        for (const c of text) if (!htmlWhiteSpace.has(c)) into.add(c);
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return into;
}

/** The formulas recorded so far (their HTML), and the characters they draw. */
const recorded = new Set<string>();
const drawn = new Set<string>();

/** Notes the characters a formula KaTeX rendered (its HTML) draws; called for every formula the build renders. */
export function recordFormula(html: string): void {
  if (recorded.has(html)) return;
  recorded.add(html);
  collectMathCharacters(html, drawn);
}

/** The characters every face is cut to, sorted by code point: those drawn, `cssDrawnCharacters` and `keptCharacters`. */
export function mathFontCharacters(drawnCharacters: Iterable<string> = drawn): string {
  const chars = new Set<string>([...cssDrawnCharacters, ...keptCharacters, ...drawnCharacters]);
  return [...chars].sort((a, b) => a.codePointAt(0)! - b.codePointAt(0)!).join("");
}

export interface MathFontsReport {
  faces: { file: string; bytes: number; fullBytes: number }[];
}

/**
 * What this process wrote last, so that a watch-mode rebuild with the same math skips the cut: the
 * folders, the characters, and each face's modification time (a face another process wrote since is
 * cut again).
 */
let written: { siteDir: string; fontSource: string; characters: string; mtimes: Map<string, number> } | undefined;

/** Writes each of KaTeX's woff2 faces into `siteDir`, cut to `characters`. */
export async function writeMathFonts(
  siteDir: string,
  characters: string,
  fontSource = katexFontSource,
): Promise<MathFontsReport> {
  const outDir = path.join(siteDir, katexFontOutput);
  const names = readdirSync(fontSource).filter((name) => name.endsWith(".woff2"));
  const mtime = (name: string) => {
    const file = path.join(outDir, name);
    return existsSync(file) ? statSync(file).mtimeMs : undefined;
  };
  const last = written;
  const current =
    last?.siteDir === siteDir &&
    last.fontSource === fontSource &&
    last.characters === characters &&
    names.every((name) => last.mtimes.get(name) === mtime(name));
  mkdirSync(outDir, { recursive: true });
  const faces = await Promise.all(
    names.map(async (name) => {
      const full = readFileSync(path.join(fontSource, name));
      const target = path.join(outDir, name);
      if (current) return { file: name, bytes: statSync(target).size, fullBytes: full.length };
      const cut = await subsetFont(full, characters, { targetFormat: "woff2" });
      // Written whole, then renamed: the dev server never serves half a face.
      writeFileSync(`${target}.tmp`, cut);
      renameSync(`${target}.tmp`, target);
      return { file: name, bytes: cut.length, fullBytes: full.length };
    }),
  );
  written = { siteDir, fontSource, characters, mtimes: new Map(names.map((name) => [name, mtime(name)!])) };
  return { faces };
}

export function mathFontsPlugin(eleventyConfig: UserConfig): void {
  eleventyConfig.on("eleventy.after", async ({ directories }) => {
    await writeMathFonts(directories.output, mathFontCharacters());
  });
}
