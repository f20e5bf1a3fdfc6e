/**
 * The search index (src/plugins/after-build/search.ts): each build replaces `pagefind/` whole, so the
 * hash-named index files of an earlier build do not stay beside the new ones; Pagefind reads a copy
 * of each page with formulas as plain text, chapter numbers in titles and glossary terms as headings.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import katex from "katex";
import { parseHTML } from "linkedom";
import { formulaText, searchableHtml, writeSearchFiles } from "../../src/plugins/after-build/search.ts";

const bytes = (s: string) => new TextEncoder().encode(s);

test("writeSearchFiles replaces pagefind/ and leaves the rest of the output alone", () => {
  const out = mkdtempSync(path.join(os.tmpdir(), "search-files-"));
  try {
    mkdirSync(path.join(out, "pagefind", "index"), { recursive: true });
    writeFileSync(path.join(out, "pagefind", "index", "en_old.pf_index"), "stale");
    writeFileSync(path.join(out, "index.html"), "<p>home</p>");
    writeSearchFiles(out, [
      { path: "pagefind.js", content: bytes("js") },
      { path: "index/en_new.pf_index", content: bytes("new") },
    ]);
    assert.deepEqual(readdirSync(path.join(out, "pagefind", "index")), ["en_new.pf_index"]);
    assert.equal(readFileSync(path.join(out, "pagefind", "pagefind.js"), "utf8"), "js");
    assert.equal(readFileSync(path.join(out, "index.html"), "utf8"), "<p>home</p>");
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test("writeSearchFiles refuses a path that leaves pagefind/", () => {
  const out = mkdtempSync(path.join(os.tmpdir(), "search-files-"));
  try {
    assert.throws(() => writeSearchFiles(out, [{ path: "../index.html", content: bytes("x") }]), /outside pagefind/);
    assert.equal(existsSync(path.join(out, "index.html")), false);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

/** The `<math>` element KaTeX writes for `tex`, as the build renders it. */
function math(tex: string, displayMode = false): Element {
  const { document } = parseHTML(`<p>${katex.renderToString(tex, { displayMode, output: "htmlAndMathml" })}</p>`);
  return document.querySelector("math")!;
}

test("formulaText reads a formula's MathML as one line of plain text", () => {
  const cases: Array<[string, string]> = [
    ["I^* = \\frac{P}{B}", "I* = P/B"],
    ["9.62 \\times 10^{11}", "9.62 × 10¹¹"],
    ["2^{30}", "2³⁰"],
    ["2^{-24} \\approx 5.96 \\times 10^{-8}", "2⁻²⁴ ≈ 5.96 × 10⁻⁸"],
    ["\\frac{p-1}{m}", "(p − 1)/m"],
    ["(p-1)(T_F + T_B - T_W)", "(p − 1)(T_F + T_B − T_W)"],
    ["B_{\\text{crit}}", "B_crit"],
    ["x_1 + x_{12}", "x₁ + x₁₂"],
    ["\\sqrt{d}", "√d"],
    ["[2^k, 2^{k+1})", "[2^k, 2^(k + 1))"],
    ["96 \\times 107.0\\ \\text{MB} = 10.3", "96 × 107.0 MB = 10.3"],
  ];
  for (const [tex, text] of cases) assert.equal(formulaText(math(tex)), text, tex);
  assert.equal(formulaText(math("I = \\frac{F}{Q}. \\tag{1}", true)), "I = F/Q. (1)");
});

test("searchableHtml: formulas as text, the chapter number in the title, glossary terms as headings", () => {
  const formula = katex.renderToString("2^{30}", { output: "htmlAndMathml" });
  const chapter =
    `<html><body><article data-pagefind-body><header class="title-block"><p class="chapter-label">Chapter 9</p>` +
    `<h1>Inside the GPU</h1></header><p>A GiB is ${formula} bytes.</p></article></body></html>`;
  const out = parseHTML(searchableHtml(chapter)!).document;
  assert.equal(out.querySelector("article > p")!.textContent, "A GiB is 2³⁰ bytes.");
  assert.equal(out.querySelector(".katex"), null);
  const title = out.querySelector("[data-pagefind-meta=title]")!;
  assert.equal(title.textContent, "Chapter 9 · Inside the GPU");
  assert.ok(title.hasAttribute("data-pagefind-ignore"), "the title is metadata, not text to match twice");
  const glossary =
    `<html><body><article data-pagefind-body><h1>Glossary</h1><dl class="glossary">` +
    `<div class="glossary-entry" id="term-microbatch"><dt><a href="#term-microbatch">Microbatch</a></dt>` +
    `<dd>A slice of the batch.</dd></div></dl></article></body></html>`;
  const g = parseHTML(searchableHtml(glossary)!).document;
  const h2 = g.querySelector("h2")!;
  assert.equal(h2.id, "term-microbatch");
  assert.equal(h2.textContent, "Microbatch");
  assert.equal(g.querySelectorAll("[id=term-microbatch]").length, 1);
  assert.equal(searchableHtml("<html><body><p>home</p></body></html>"), undefined, "a page without a body mark");
});
