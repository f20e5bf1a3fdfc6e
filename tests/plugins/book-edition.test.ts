/**
 * The single-page edition's rewrite (src/plugins/book-edition.ts): ids prefixed by the chapter
 * slug, references and chapter links pointed inside /book/, headings one level down, widgets
 * static, landmark names unique, and everything else byte for byte.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { addBookPermalinks, bookEdition, bookHref, bookId, rewriteChapterHtml } from "../../src/plugins/book-edition.ts";

const slugs = new Set(["preface", "data-parallelism", "tensor-parallelism"]);

test("bookId prefixes with the slug and --; top (and empty) is the chapter itself", () => {
  assert.equal(bookId("data-parallelism", "sec:zero"), "data-parallelism--sec:zero");
  assert.equal(bookId("data-parallelism", "fnref-1:2"), "data-parallelism--fnref-1:2");
  assert.equal(bookId("data-parallelism", "top"), "data-parallelism");
  assert.equal(bookId("data-parallelism", ""), "data-parallelism");
});

test("bookHref: in-chapter and cross-chapter links point inside the page; others stay", () => {
  assert.equal(bookHref("#eq:ring-volume", "data-parallelism", slugs), "#data-parallelism--eq:ring-volume");
  assert.equal(bookHref("/tensor-parallelism/#sec:sp", "data-parallelism", slugs), "#tensor-parallelism--sec:sp");
  assert.equal(bookHref("/tensor-parallelism/", "data-parallelism", slugs), "#tensor-parallelism");
  assert.equal(bookHref("/tensor-parallelism/#top", "data-parallelism", slugs), "#tensor-parallelism");
  assert.equal(bookHref("/glossary/#term-all-reduce", "data-parallelism", slugs), "/glossary/#term-all-reduce");
  assert.equal(bookHref("/no-such-chapter/#x", "data-parallelism", slugs), "/no-such-chapter/#x");
  assert.equal(bookHref("/assets/img/preface/bytes.svg", "preface", slugs), "/assets/img/preface/bytes.svg");
  assert.equal(bookHref("https://arxiv.org/abs/1910.02054#x", "preface", slugs), "https://arxiv.org/abs/1910.02054#x");
  assert.equal(bookHref("/", "preface", slugs), "/");
});

test("rewriteChapterHtml: ids, references, headings, widgets, landmarks", () => {
  const html = [
    '<h2 id="sec:zero" data-number="3.5"><span class="secnum">3.5</span> ZeRO</h2>',
    '<h3 id="memory-per-gpu" data-number="3.5.1">Memory per GPU</h3>',
    '<p>See <a class="xref" href="#fig:zero" data-xref="fig">Figure 2</a> and <a href="/tensor-parallelism/#sec:sp">Chapter 4</a>.<sup class="footnote-ref"><a href="#fn-1" id="fnref-1" data-footnote="1">1</a></sup></p>',
    '<div class="widget" data-widget="dp-overlap" data-settings="{&quot;a&quot;:1}" id="widget-dp-overlap-1"><label for="w-x">x &gt; 1</label><input disabled aria-describedby="w-x-msg other" id="w-x" aria-label="a > b">',
    '<svg aria-labelledby="t d"><title id="t">T</title><desc id="d">D</desc><rect fill="url(#grad)" style="stroke: url(#grad2)"/><style>.a>.b{fill:url(#keep)}</style></svg></div>',
    '<section class="exercise" id="exercise-1" aria-label="Exercise 1"><details class="solution"><summary>Solution</summary></details></section>',
    '<section class="references" aria-labelledby="references"><h2 id="references">References</h2></section>',
    '<aside class="aside"><p>One</p></aside><aside class="aside" aria-label="Named"></aside>',
    '<!-- <h2 id="commented"> --><pre><code>&lt;h2 id=&quot;code&quot;&gt;</code></pre>',
  ].join("\n");
  const out = rewriteChapterHtml(html, "data-parallelism", slugs, { chapter: "Chapter 3", titleId: "data-parallelism-title" });
  const expected = [
    '<h3 id="data-parallelism--sec:zero" data-number="3.5"><span class="secnum">3.5</span> ZeRO</h3>',
    '<h4 id="data-parallelism--memory-per-gpu" data-number="3.5.1">Memory per GPU</h4>',
    '<p>See <a class="xref" href="#data-parallelism--fig:zero" data-xref="fig">Figure 2</a> and <a href="#tensor-parallelism--sec:sp">Chapter 4</a>.<sup class="footnote-ref"><a href="#data-parallelism--fn-1" id="data-parallelism--fnref-1" data-footnote="1">1</a></sup></p>',
    '<div class="widget" data-widget-static="dp-overlap" data-settings="{&quot;a&quot;:1}" id="data-parallelism--widget-dp-overlap-1"><label for="data-parallelism--w-x">x &gt; 1</label><input disabled aria-describedby="data-parallelism--w-x-msg data-parallelism--other" id="data-parallelism--w-x" aria-label="a > b">',
    '<svg aria-labelledby="data-parallelism--t data-parallelism--d"><title id="data-parallelism--t">T</title><desc id="data-parallelism--d">D</desc><rect fill="url(#data-parallelism--grad)" style="stroke: url(#data-parallelism--grad2)"/><style>.a>.b{fill:url(#keep)}</style></svg></div>',
    '<section class="exercise" id="data-parallelism--exercise-1" aria-label="Exercise 1, Chapter 3"><details class="solution"><summary>Solution</summary></details></section>',
    '<section class="references" aria-labelledby="data-parallelism--references data-parallelism-title"><h3 id="data-parallelism--references">References</h3></section>',
    '<aside class="aside" aria-label="Margin note 1, Chapter 3"><p>One</p></aside><aside class="aside" aria-label="Named, Chapter 3"></aside>',
    '<!-- <h2 id="commented"> --><pre><code>&lt;h2 id=&quot;code&quot;&gt;</code></pre>',
  ].join("\n");
  assert.equal(out, expected);
});

test("rewriteChapterHtml leaves markup without ids or links unchanged", () => {
  const html = '<p class="x">Text with <strong>bold</strong>, <span class="katex" style="height:0.4em;">x</span> &amp; <br> <img src="/assets/a.svg" alt="A > B"></p>';
  assert.equal(rewriteChapterHtml(html, "preface", slugs), html);
});

test("addBookPermalinks adds one anchor per h3/h4 with an id, once", () => {
  const html = '<h3 id="p--sec:a" data-number="1.1">A</h3><h4 id="p--b">B</h4><h3>No id</h3>';
  const once = addBookPermalinks(html);
  assert.equal(
    once,
    '<h3 id="p--sec:a" data-number="1.1">A<a class="heading-anchor" href="#p--sec:a" aria-label="Link to this section"></a></h3>' +
      '<h4 id="p--b">B<a class="heading-anchor" href="#p--b" aria-label="Link to this section"></a></h4><h3>No id</h3>',
  );
  assert.equal(addBookPermalinks(once), once);
});

test("bookEdition marks glossary terms, and reuses an unchanged chapter while redoing an edited one", () => {
  const chapter = (file: string, content: string) => ({ url: `/${file.slice(3, -3)}/`, inputPath: `./content/chapters/${file}`, content, data: { title: file } });
  const a = chapter("02-one-gpu.md", '<p>Each all-reduce runs, see <a href="#sec:x">there</a>.</p><h2 id="sec:x">X</h2>');
  const b = chapter("03-data-parallelism.md", '<p>A microbatch of gradients, then a <a href="/one-gpu/#sec:x">look back</a>.</p>');
  const first = bookEdition([a, b]);
  // Marked where the chapter does not explain the term itself (one-gpu explains microbatches, data-parallelism all-reduce).
  assert.match(first[0]!.body, /<a class="gloss" href="\/glossary\/#term-all-reduce" aria-describedby="one-gpu--gloss-one-gpu-all-reduce">all-reduce<\/a>/);
  assert.match(first[1]!.body, /<a class="gloss" href="\/glossary\/#term-microbatch" aria-describedby="data-parallelism--gloss-data-parallelism-microbatch">microbatch<\/a>/);
  assert.match(first[0]!.body, /href="#one-gpu--sec:x"/);
  assert.match(first[1]!.body, /href="#one-gpu--sec:x"/);
  const again = bookEdition([a, b]);
  assert.equal(again[0], first[0], "unchanged chapter: the same result object");
  const edited = bookEdition([a, { ...b, content: b.content.replace("gradients", "gradients, twice") }]);
  assert.equal(edited[0], first[0]);
  assert.notEqual(edited[1], first[1]);
  assert.match(edited[1]!.body, /gradients, twice/);
  // A renamed chapter set changes every link target: nothing is reused.
  const renamed = bookEdition([a]);
  assert.notEqual(renamed[0], first[0]);
});
