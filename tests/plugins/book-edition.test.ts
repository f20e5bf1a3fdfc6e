/**
 * The single-page edition (src/plugins/markdown/edition.ts, book-edition.ts): the same Markdown rendered
 * with the book's env gets ids prefixed by the chapter slug, references and chapter links
 * pointed inside /book/, headings one level down, static widgets, unique landmark names and
 * permalinks, and is otherwise the chapter page's HTML.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { bookHref, bookId, editionRawHtml, bookEdition as bookEditionOf } from "../../src/plugins/markdown/edition.ts";
import { bookEdition } from "../../src/plugins/markdown/book-edition.ts";
import { md, renderEdition } from "../helpers/book-markdown.ts";

const slugs = ["preface", "data-parallelism", "tensor-parallelism"];
const slugSet = new Set(slugs);

test("bookId prefixes with the slug and --; top (and empty) is the chapter itself", () => {
  assert.equal(bookId("data-parallelism", "sec:zero"), "data-parallelism--sec:zero");
  assert.equal(bookId("data-parallelism", "fnref-1:2"), "data-parallelism--fnref-1:2");
  assert.equal(bookId("data-parallelism", "top"), "data-parallelism");
  assert.equal(bookId("data-parallelism", ""), "data-parallelism");
});

test("bookHref: in-chapter and cross-chapter links point inside the page; others stay", () => {
  assert.equal(bookHref("#eq:ring-volume", "data-parallelism", slugSet), "#data-parallelism--eq:ring-volume");
  assert.equal(bookHref("/tensor-parallelism/#sec:sp", "data-parallelism", slugSet), "#tensor-parallelism--sec:sp");
  assert.equal(bookHref("/tensor-parallelism/", "data-parallelism", slugSet), "#tensor-parallelism");
  assert.equal(bookHref("/tensor-parallelism/#top", "data-parallelism", slugSet), "#tensor-parallelism");
  assert.equal(bookHref("/glossary/#term-all-reduce", "data-parallelism", slugSet), "/glossary/#term-all-reduce");
  assert.equal(bookHref("/no-such-chapter/#x", "data-parallelism", slugSet), "/no-such-chapter/#x");
  assert.equal(bookHref("/assets/img/preface/bytes.svg", "preface", slugSet), "/assets/img/preface/bytes.svg");
  assert.equal(
    bookHref("https://arxiv.org/abs/1910.02054#x", "preface", slugSet),
    "https://arxiv.org/abs/1910.02054#x",
  );
  assert.equal(bookHref("/", "preface", slugSet), "/");
});

const chapter = [
  "## ZeRO {#sec:zero}",
  "",
  "### Memory per GPU",
  "",
  "See @fig:zero, @eq:bytes and [Chapter 4](/tensor-parallelism/#sec:sp) [@rajbhandari2020zero].[^1]",
  "",
  "$$",
  "x = 1",
  "$$ {#eq:bytes}",
  "",
  "::: figure {#fig:zero}",
  "::: widget unit-converter",
  ":::",
  "",
  "Caption: A widget.",
  ":::",
  "",
  "::: exercise",
  "Why?",
  "",
  "::: solution",
  "Because.",
  ":::",
  ":::",
  "",
  "::: aside",
  "A margin note.",
  ":::",
  "",
  "```text",
  '<h2 id="code">',
  "```",
  "",
  "[^1]: A footnote.",
].join("\n");

test("the book render: ids, references, headings, widgets, landmarks, permalinks", () => {
  const page = renderEdition(chapter);
  const book = renderEdition(chapter, "content/chapters/03-data-parallelism.md", slugs);
  const expectations: [string, string][] = [
    [
      '<h2 id="sec:zero" data-number="3.1" data-exercise-count="0" data-exercise-chapter="data-parallelism"><span class="secnum">3.1</span> ZeRO<a class="heading-anchor" href="#sec:zero" aria-label="Link to this section"></a></h2>',
      '<h3 id="data-parallelism--sec:zero" data-number="3.1" data-exercise-count="0" data-exercise-chapter="data-parallelism"><span class="secnum">3.1</span> ZeRO<a class="heading-anchor" href="#data-parallelism--sec:zero" aria-label="Link to this section"></a></h3>',
    ],
    [
      '<h3 id="memory-per-gpu" data-number="3.1.1"><span class="secnum">3.1.1</span> Memory per GPU<a class="heading-anchor" href="#memory-per-gpu"',
      '<h4 id="data-parallelism--memory-per-gpu" data-number="3.1.1"><span class="secnum">3.1.1</span> Memory per GPU<a class="heading-anchor" href="#data-parallelism--memory-per-gpu"',
    ],
    [
      '<a class="xref" href="#fig:zero" data-xref="fig">Figure 1</a>',
      '<a class="xref" href="#data-parallelism--fig:zero" data-xref="fig">Figure 1</a>',
    ],
    ['<a href="/tensor-parallelism/#sec:sp">Chapter 4</a>', '<a href="#tensor-parallelism--sec:sp">Chapter 4</a>'],
    ['href="#ref-rajbhandari2020zero"', 'href="#data-parallelism--ref-rajbhandari2020zero"'],
    [
      '<a href="#fn-1" id="fnref-1" data-footnote="1">1</a>',
      '<a href="#data-parallelism--fn-1" id="data-parallelism--fnref-1" data-footnote="1">1</a>',
    ],
    ['<div class="math display" id="eq:bytes">', '<div class="math display" id="data-parallelism--eq:bytes">'],
    ['<figure class="figure" id="fig:zero">', '<figure class="figure" id="data-parallelism--fig:zero">'],
    [
      'data-widget="unit-converter" id="widget-unit-converter-1" class="widget">',
      'data-widget-static="unit-converter" id="data-parallelism--widget-unit-converter-1" class="widget">',
    ],
    // On /book/ a widget's fields are text (widgets.ts, staticFields), under the chapter's prefix.
    [
      'for="widget-unit-converter-1-amount"',
      '<span id="data-parallelism--widget-unit-converter-1-amount" class="widget-static-value">',
    ],
    [
      '<section class="exercise" id="exercise-1" aria-label="Exercise 1">',
      '<section class="exercise" id="data-parallelism--exercise-1" aria-label="Exercise 1, Chapter 3">',
    ],
    ['<aside class="aside">', '<aside class="aside" aria-label="Margin note 1, Chapter 3">'],
    ["&lt;h2 id=&quot;code&quot;&gt;", "&lt;h2 id=&quot;code&quot;&gt;"],
  ];
  for (const [onPage, onBook] of expectations) {
    assert.ok(page.body.includes(onPage), `page: ${onPage}`);
    assert.ok(book.body.includes(onBook), `book: ${onBook}`);
  }
  assert.match(
    book.footnotes,
    /^<section class="footnotes" aria-labelledby="data-parallelism--footnotes data-parallelism-title">\n<h3 id="data-parallelism--footnotes">Footnotes<\/h3>/,
  );
  assert.match(
    book.footnotes,
    /<li id="data-parallelism--fn-1" class="footnote-item">.*<a href="#data-parallelism--fnref-1" class="footnote-backref"/s,
  );
  assert.match(
    book.references,
    /^<section class="references" aria-labelledby="data-parallelism--references data-parallelism-title">\n<h3 id="data-parallelism--references">References<\/h3>/,
  );
  assert.match(book.references, /<li id="data-parallelism--ref-rajbhandari2020zero">/);
  assert.deepEqual(
    book.toc.map((e) => [e.id, e.number, e.html, e.children.map((c) => c.id)]),
    [
      [
        "data-parallelism--sec:zero",
        "3.1",
        "ZeRO",
        ["data-parallelism--memory-per-gpu", "data-parallelism--exercise-1"],
      ],
    ],
  );
  assert.equal(book.words, page.words);
});

test("the page render leaves markup without ids or links as it is; only the book render prefixes them", () => {
  const src = "Text with **bold**, $x$ & <br> ![A > B](/assets/img/box.svg).";
  assert.equal(renderEdition(src).body, renderEdition(src, "content/chapters/03-data-parallelism.md", slugs).body);
});

test("raw HTML an author wrote: only tags whose ids or links change are written again", () => {
  const env = { edition: bookEditionOf("data-parallelism", slugSet, "Chapter 3") };
  assert.equal(
    editionRawHtml(
      env,
      '<span id="x" class="a">A &amp; B</span> <svg><use xlink:href="#s"/></svg> <a href="/glossary/">g</a><!-- id="c" -->',
    ),
    '<span id="data-parallelism--x" class="a">A &amp; B</span> <svg><use xlink:href="#data-parallelism--s" /></svg> <a href="/glossary/">g</a><!-- id="c" -->',
  );
  assert.equal(editionRawHtml({}, '<span id="x">'), '<span id="x">');
});

test("bookEdition renders every chapter with the book's env, marks glossary terms, and points links inside the page", () => {
  const item = (file: string, content: string) => ({
    url: `/${file.slice(3, -3)}/`,
    inputPath: `./content/chapters/${file}`,
    content,
    data: { title: file },
  });
  const a = item("02-one-gpu.md", "Each all-reduce runs, see [there](#sec:x).\n\n## X {#sec:x}\n");
  const b = item("03-data-parallelism.md", "A microbatch of gradients, then a [look back](/one-gpu/#sec:x).\n");
  const [one, dp] = bookEdition(md, [a, b]);
  // Marked where the chapter does not explain the term itself
  // (one-gpu explains microbatches, data-parallelism all-reduce).
  assert.match(
    one!.body,
    /<a class="gloss" href="\/glossary\/#term-all-reduce" aria-describedby="one-gpu--gloss-one-gpu-all-reduce">all-reduce<\/a>/,
  );
  assert.match(
    dp!.body,
    /<a class="gloss" href="\/glossary\/#term-microbatch" aria-describedby="data-parallelism--gloss-data-parallelism-microbatch">microbatch<\/a>/,
  );
  assert.match(one!.body, /href="#one-gpu--sec:x"/);
  assert.match(dp!.body, /href="#one-gpu--sec:x"/);
  assert.equal(one!.titleId, "one-gpu-title");
  assert.deepEqual(
    one!.toc.map((e) => e.id),
    ["one-gpu--sec:x"],
  );
});
