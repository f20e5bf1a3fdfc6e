/**
 * KaTeX's faces cut to the characters the math draws (src/plugins/after-build/math-fonts.ts): which characters
 * count (KaTeX's visual rendering only, through its SVG and struts), that the book's Markdown
 * records every formula it renders, and that every face written holds every character of the full
 * face that the site's math uses, read back from the written files' character maps with harfbuzz.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import katex from "katex";
import fontverter from "fontverter";
import { Blob, Face } from "harfbuzzjs";
import {
  collectMathCharacters,
  cssDrawnCharacters,
  katexFontOutput,
  katexFontSource,
  keptCharacters,
  mathFontCharacters,
  writeMathFonts,
} from "../../src/plugins/after-build/math-fonts.ts";
import { render } from "../helpers/book-markdown.ts";

const sorted = (chars: Iterable<string>) => [...chars].sort((a, b) => a.codePointAt(0)! - b.codePointAt(0)!).join("");

/** The code points in a woff2 file's character map. */
async function codePoints(woff2: Buffer): Promise<Set<number>> {
  const sfnt = await fontverter.convert(woff2, "sfnt");
  return new Set(new Face(new Blob(sfnt)).collectUnicodes());
}

test("only the characters of KaTeX's visual rendering count, not its MathML copy or the prose", () => {
  // \sqrt and \overbrace draw SVG (with self-closing <path/>) inside .katex-html; \tag adds "(3)";
  // KaTeX puts a zero-width space (U+200B, not white space) after a stack of boxes.
  const formula = katex.renderToString(String.raw`\sqrt{x}+\overbrace{ab}^{n}-\sum_i \alpha \tag{3}`, {
    displayMode: true,
    output: "htmlAndMathml",
  });
  const html = `<p>Prose: q, w, &amp; Ω.</p>${formula}<p>After the formula: k, z, ∞.</p>`;
  const chars = collectMathCharacters(html);
  assert.equal(sorted(chars), sorted("x+abn−∑iα(3)\u200b"));
  for (const absent of ["q", "w", "&", "Ω", "k", "z", "∞"]) assert.ok(!chars.has(absent), absent);
  // The MathML copy and the TeX annotation name these too, but they are not drawn in KaTeX's faces.
  assert.ok(formula.includes("<annotation"));
  assert.ok(!chars.has("\\") && !chars.has("{") && !chars.has("^"));
});

test("every formula the book's Markdown renders is recorded, inline and display", () => {
  // "ℓ" and "⊗" are neither kept in every face nor drawn by katex.min.css.
  assert.ok(!mathFontCharacters().includes("ℓ") && !mathFontCharacters().includes("⊗"));
  render("Inline $\\ell_k$ and display:\n\n$$\na \\otimes b\n$$\n");
  assert.ok(mathFontCharacters().includes("ℓ"), "inline");
  assert.ok(mathFontCharacters().includes("⊗"), "display");
});

test("entities are decoded, and every space but HTML's white space is a character", () => {
  const html = `<span class="katex-html"><span class="mord">&#x3B2;&lt;</span>\n <span>&nbsp;</span>\u2009\t</span>`;
  assert.equal(sorted(collectMathCharacters(html)), sorted("β<\u00a0\u2009"));
  // KaTeX draws \text{…}'s spaces, ~ and "\ " as no-break spaces, which every full face has.
  const text = katex.renderToString(String.raw`\text{a b}~x\ y`, { output: "htmlAndMathml" });
  assert.ok(collectMathCharacters(text).has("\u00a0"));
});

test("each face written holds every character of the full face that the site's math draws", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "math-fonts-"));
  try {
    const math = (tex: string) => katex.renderToString(tex, { output: "htmlAndMathml" });
    const drawn = collectMathCharacters(`<p>words</p>${math(String.raw`x \le \sum_k y_k \cdot \mathbb{R}`)}`);
    const characters = mathFontCharacters(drawn);

    const report = await writeMathFonts(dir, characters);
    assert.equal(characters, sorted(new Set([...cssDrawnCharacters, ...keptCharacters, ..."x≤∑ykR⋅\u200b"])));
    const wanted = new Set([...characters].map((c) => c.codePointAt(0)!));
    const names = readdirSync(katexFontSource).filter((n) => n.endsWith(".woff2"));
    assert.equal(report.faces.length, names.length);
    assert.deepEqual(readdirSync(path.join(dir, katexFontOutput)).sort(), names.sort());
    for (const name of names) {
      const full = await codePoints(readFileSync(path.join(katexFontSource, name)));
      const cut = await codePoints(readFileSync(path.join(dir, katexFontOutput, name)));
      const missing = [...full].filter((c) => wanted.has(c) && !cut.has(c));
      assert.deepEqual(
        missing.map((c) => String.fromCodePoint(c)),
        [],
        `${name} lost characters the math draws`,
      );
      // harfbuzz may keep a few more (a character's mirror image, "≥" for "≤"), never one the face lacks.
      assert.ok(
        [...cut].every((c) => full.has(c)),
        name,
      );
      assert.ok(cut.size <= wanted.size * 2, `${name}: ${cut.size} characters kept for ${wanted.size} drawn`);
    }
    // Cut, not copied: the full KaTeX_Main-Regular has "∞", which nothing here draws or keeps.
    const main = report.faces.find((f) => f.file === "KaTeX_Main-Regular.woff2")!;
    assert.ok(main.bytes < main.fullBytes, `${main.bytes} of ${main.fullBytes} bytes`);
    const mainFull = await codePoints(readFileSync(path.join(katexFontSource, main.file)));
    const mainCut = await codePoints(readFileSync(path.join(dir, katexFontOutput, main.file)));
    assert.ok(mainFull.has(0x221e) && !mainCut.has(0x221e));

    // The same math again: nothing is cut again. A new character: every face is.
    const mainFile = path.join(dir, katexFontOutput, "KaTeX_Main-Regular.woff2");
    const before = statSync(mainFile).mtimeMs;
    await new Promise((resolve) => setTimeout(resolve, 20));
    await writeMathFonts(dir, characters);
    assert.equal(statSync(mainFile).mtimeMs, before);
    await writeMathFonts(dir, mathFontCharacters(collectMathCharacters(math(String.raw`x + \infty`), drawn)));
    assert.ok(statSync(mainFile).mtimeMs > before);
    assert.ok((await codePoints(readFileSync(mainFile))).has(0x221e));

    // A face written over by something else since (another build into the same folder) is cut again.
    const withInfinity = mathFontCharacters(collectMathCharacters(math(String.raw`x + \infty`), drawn));
    const cutBytes = readFileSync(mainFile);
    await new Promise((resolve) => setTimeout(resolve, 20));
    copyFileSync(path.join(katexFontSource, "KaTeX_Main-Regular.woff2"), mainFile);
    await writeMathFonts(dir, withInfinity);
    assert.ok(readFileSync(mainFile).equals(cutBytes));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
