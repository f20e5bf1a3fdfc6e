/**
 * The critical-CSS transform's pieces (src/plugins/site/critical-css.ts) on small pages: where the
 * first screen ends, how the page is rewritten, and what the sheets lose before Beasties reads
 * them. The browser test tests/browser/critical-css.test.ts checks the result by its pixels.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  FIRST_SCREEN_TEXT,
  SKIP_AFTER,
  firstPaintSheet,
  firstScreenDocument,
  pageLandmarks,
  pruneCustomProperties,
  withCriticalCss,
} from "../../src/plugins/site/critical-css.ts";

const head = `<!doctype html><html lang="en-US"><head><meta charset="utf-8">
<link rel="stylesheet" href="/assets/katex/katex.min.css">
<link rel="stylesheet" href="/assets/css/book.css">
<script src="/assets/js/theme.js"></script></head>`;

function page(body: string): string {
  return `${head}<body><main><article><div class="chapter-body">${body}</div></article></main></body></html>`;
}

describe("pageLandmarks", () => {
  test("the first screen ends with the first part", () => {
    const html = page(`<p>Opening.</p><section class="part"><h2>One</h2><p>x</p></section><section class="part">`);
    const marks = pageLandmarks(html, "t.md");
    assert.equal(html.slice(0, marks.firstScreenEnd).endsWith(`<p>x</p></section>`), true);
    assert.deepEqual(
      marks.stylesheets.map((s) => s.href),
      ["/assets/katex/katex.min.css", "/assets/css/book.css"],
    );
    assert.equal(html.slice(marks.bodyClose, marks.bodyClose + 7), "</body>");
  });

  test("or with the block that brings the seen text to FIRST_SCREEN_TEXT characters", () => {
    const long = "word ".repeat(FIRST_SCREEN_TEXT / 5);
    const html = page(
      `<section class="part"><p>short</p><p>${long}</p><table><tr><td>later</td></tr></table></section>`,
    );
    const marks = pageLandmarks(html, "t.md");
    assert.equal(html.slice(0, marks.firstScreenEnd).endsWith(`${long}</p>`), true);
  });

  test("text nobody sees (KaTeX's MathML copy, SVG titles) does not count", () => {
    const hidden = `<span class="katex-mathml">${"m".repeat(FIRST_SCREEN_TEXT)}</span>`;
    const html = page(`<p>${hidden}</p><p>two</p>`);
    assert.equal(pageLandmarks(html, "t.md").firstScreenEnd, undefined);
  });

  test("glossary definitions and text for screen readers only do not count", () => {
    const hidden = "d".repeat(FIRST_SCREEN_TEXT);
    const html = page(
      `<p><span class="gloss-def">${hidden}</span><span class="visually-hidden">${hidden}</span></p><p>two</p>`,
    );
    assert.equal(pageLandmarks(html, "t.md").firstScreenEnd, undefined);
  });

  test("each block is marked with the largest of SKIP_AFTER that the text before it has reached", () => {
    assert.deepEqual([...SKIP_AFTER], [FIRST_SCREEN_TEXT, 2500, 1650]);
    const text = (n: number) => "x".repeat(n);
    const html = page(
      `<p>${text(1000)}</p><ul><li>${text(700)}</li></ul><p>${text(800)}</p>` +
        `<section class="part"><h2>${text(1)}</h2><p>${text(600)}</p><div class="math display">x</div><hr/><p>z <em>y</em></p></section>` +
        `<section class="part"><h2>Two</h2><p>next</p></section>`,
    );
    const marks = pageLandmarks(html, "t.md");
    assert.deepEqual(
      marks.skippable.map(({ tagEnd, after }) => `${html.slice(html.lastIndexOf("<", tagEnd), tagEnd + 1)} ${after}`),
      [`<p> 1650`, `<h2> 2500`, `<p> 2500`, `<div class="math display"> ${FIRST_SCREEN_TEXT}`, `<hr/ 3000`, `<p> 3000`],
    );
    const out = withCriticalCss(html, marks, "p{margin:0}", "t.md");
    assert.match(out, /<\/ul><p data-skippable="1650">x+<\/p><section class="part"><h2 data-skippable="2500">x<\/h2>/);
    assert.match(
      out,
      /<div class="math display" data-skippable="3000">x<\/div><hr data-skippable="3000"\/><p data-skippable="3000">z <em>y<\/em><\/p><\/section><section class="part"><h2>Two<\/h2><p>next<\/p>/,
    );
  });

  test("blocks that reach outside their box are not marked; the blocks after them are", () => {
    const long = "word ".repeat(FIRST_SCREEN_TEXT / 5 + 1);
    const html = page(
      `<section class="part"><p>${long}</p><p>a<span class="sidenote">s</span></p><div class="widget"></div>` +
        `<figure class="full-width"></figure><ul><li><div class="aside">x</div></li></ul><p>b</p></section>`,
    );
    const out = withCriticalCss(html, pageLandmarks(html, "t.md"), "p{margin:0}", "t.md");
    assert.equal(out.split("data-skippable").length - 1, 1, "one mark");
    assert.match(out, /<\/ul><p data-skippable="3000">b<\/p>/);
  });

  test("nothing is marked in a part that starts after the first screen's text", () => {
    const long = "word ".repeat(FIRST_SCREEN_TEXT / 5 + 1);
    const html = page(
      `<section class="part"><p>${long}</p></section><section class="part"><p>next</p><p>more</p></section>`,
    );
    assert.deepEqual(pageLandmarks(html, "t.md").skippable, []);
  });

  test("book.css skips each value of the mark, and only those", () => {
    const css = readFileSync("assets/css/book.css", "utf8");
    const values = new Set([...css.matchAll(/\[data-skippable="(\d+)"\]/g)].map((m) => Number(m[1])));
    assert.deepEqual([...values].sort(), [...SKIP_AFTER].sort());
  });

  test("a page without </body> is a build error naming the file", () => {
    assert.throws(() => pageLandmarks(`${head}<body><p>x`, "content/x.md"), /content\/x\.md .*<\/body>/);
  });
});

describe("withCriticalCss", () => {
  test("inlines the rules in place of the head's links and links the sheets before </body>", () => {
    const html = page(`<p>x</p>`);
    const out = withCriticalCss(html, pageLandmarks(html, "t.md"), "p{margin:0}", "t.md");
    assert.match(out, /<meta charset="utf-8">\n<style>p\{margin:0\}<\/style>\n<script src="\/assets\/js\/theme\.js">/);
    assert.doesNotMatch(out, /preload/, "no preload in <head> (docs/performance-log.md, fourteenth look)");
    assert.match(
      out,
      /<\/main><link rel="stylesheet" href="\/assets\/katex\/katex\.min\.css">\n<link rel="stylesheet" href="\/assets\/css\/book\.css">\n<\/body><\/html>$/,
    );
    assert.equal(out.split('rel="stylesheet"').length - 1, 2, "no stylesheet link left in <head>");
  });

  test("one link, or two on one line, give way to the inline rules alone; a page without a sheet is unchanged", () => {
    const two =
      '<link rel="stylesheet" href="/assets/katex/katex.min.css">\n<link rel="stylesheet" href="/assets/css/book.css">\n';
    const cases: [string, RegExp][] = [
      [
        '<link rel="stylesheet" href="/assets/css/book.css">\n',
        /<meta charset="utf-8">\n<style>p\{margin:0\}<\/style>\n<script/,
      ],
      [two.replace(">\n<link", "><link"), /<meta charset="utf-8">\n<style>p\{margin:0\}<\/style>\n<script/],
    ];
    for (const [links, expected] of cases) {
      const html = page(`<p>x</p>`).replace(two, links);
      assert.notEqual(html, page(`<p>x</p>`));
      assert.match(withCriticalCss(html, pageLandmarks(html, "t.md"), "p{margin:0}", "t.md"), expected, links);
    }
    const bare = page(`<p>x</p>`).replace(two, "");
    assert.equal(withCriticalCss(bare, pageLandmarks(bare, "t.md"), "p{margin:0}", "t.md"), bare);
  });

  test("refuses CSS that would end its <style> early", () => {
    const html = page(`<p>x</p>`);
    assert.throws(() => withCriticalCss(html, pageLandmarks(html, "t.md"), "a{}</style><p>", "t.md"), /early/);
  });

  test("Beasties reads the first screen with <html> in the scripted state", () => {
    const html = page(`<section class="part"><p>x</p></section><p>after</p>`);
    const doc = firstScreenDocument(html, pageLandmarks(html, "t.md"));
    assert.match(doc, /<html lang="en-US" class="js theme-js">/);
    assert.equal(doc.includes("after"), false);
  });
});

describe("firstPaintSheet", () => {
  test("drops print rules, interaction states and non-woff2 font sources", () => {
    const css = [
      `@media print{body{color:black}}`,
      `a:hover,a.x{color:red}`,
      `button:focus-visible{outline:1px}`,
      `@font-face{font-family:K;src:url(f/K.woff2) format("woff2"),url(f/K.woff) format("woff")}`,
      `@media (min-width: 80rem){p{margin:0}}`,
    ].join("");
    const out = firstPaintSheet(css);
    assert.equal(out.includes("print"), false);
    assert.equal(out.includes("hover"), false);
    assert.equal(out.includes("focus"), false);
    assert.match(out, /a\.x\{color:red\}/);
    assert.match(out, /src:url\(f\/K\.woff2\) format\("woff2"\)\}/);
    assert.match(out, /@media \(min-width: 80rem\)\{p\{margin:0\}\}/);
  });
});

describe("pruneCustomProperties", () => {
  test("keeps what a rule or the page reads, directly or through another property", () => {
    const css = `:root{--a:red;--b:var(--c);--c:blue;--unused:green;--svg:pink}p{color:var(--a);background:var(--b)}`;
    const out = pruneCustomProperties(css, new Set(["--svg"]));
    assert.equal(out, `:root{--a:red;--b:var(--c);--c:blue;--svg:pink}p{color:var(--a);background:var(--b)}`);
  });

  test("removes rules and media blocks left empty", () => {
    const out = pruneCustomProperties(`@media (prefers-color-scheme: dark){:root{--x:1}}p{margin:0}`, new Set());
    assert.equal(out, `p{margin:0}`);
  });
});
