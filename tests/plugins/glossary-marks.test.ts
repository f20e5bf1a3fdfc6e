/**
 * First-use glossary marks (src/plugins/glossary-marks.ts): which text is marked (first use per
 * chapter, running text only, whole words, longest form, aliases and plurals), the exact
 * markup, byte-for-byte copying of everything else, idempotence, and ids that stay unique when
 * chapters share a page.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { glossary, type GlossaryEntry } from "../../src/data/glossary.ts";
import {
  buildTermMatcher,
  findTermMatches,
  glossMarkup,
  markChapterPage,
  markGlossaryTerms,
  pluralForm,
  termForms,
  termsExplainedIn,
} from "../../src/plugins/glossary-marks.ts";

const entry = (id: string): GlossaryEntry => {
  const e = glossary.find((g) => g.id === id);
  assert.ok(e, `no glossary entry ${id}`);
  return e;
};
const matcher = buildTermMatcher();
const mark = (html: string, slug = "ch") => markGlossaryTerms(html, { slug, matcher });
/** The marked texts, in order, as "id:text". */
const marks = (html: string) => [...html.matchAll(/href="[^"]*#term-([^"]+)"[^>]*>([^<]*)<\/a>/g)].map((m) => `${m[1]}:${m[2]}`);
/** Undoes the marks: what must equal the input. */
const unmark = (html: string) =>
  html.replace(/<span class="gloss-term"><a class="gloss"[^>]*>([^<]*)<\/a><span class="gloss-def"[^>]*>[^<]*<\/span><\/span>/g, "$1");

test("the exact markup of a mark: link to the entry, definition as a described-by tooltip hidden from search", () => {
  const zero3 = entry("zero-3");
  assert.equal(
    glossMarkup("ZeRO-3", zero3, "data-parallelism", "/glossary/"),
    '<span class="gloss-term"><a class="gloss" href="/glossary/#term-zero-3" aria-describedby="gloss-data-parallelism-zero-3">ZeRO-3</a>' +
      '<span class="gloss-def" id="gloss-data-parallelism-zero-3" role="tooltip" data-pagefind-ignore>' +
      "ZeRO stage 3: parameters are sharded too and all-gathered layer by layer in the forward and backward passes, for about 1.5 times the traffic of plain data parallelism." +
      "</span></span>",
  );
  // Definitions are escaped as text.
  const odd: GlossaryEntry = { term: "X", id: "x", definition: 'a < b & "c"', see: [] };
  assert.match(glossMarkup("X", odd, "s", "/g/"), />a &lt; b &amp; &quot;c&quot;<\/span><\/span>$/);
});

test("only the first use of a term in a chapter is marked", () => {
  const r = mark("<p>An all-reduce, then another all-reduce.</p><ul><li>All-reduce again.</li></ul>");
  assert.deepEqual(marks(r.html), ["all-reduce:all-reduce"]);
  assert.deepEqual(r.marked, ["all-reduce"]);
  assert.equal(unmark(r.html), "<p>An all-reduce, then another all-reduce.</p><ul><li>All-reduce again.</li></ul>");
});

test("the longest form wins at a position, even when its term is already marked", () => {
  assert.deepEqual(marks(mark("<p>ZeRO-3 shards the parameters; ZeRO in general shards states.</p>").html), ["zero-3:ZeRO-3", "zero:ZeRO"]);
  // The second ZeRO-3 is not marked as ZeRO.
  assert.deepEqual(marks(mark("<p>ZeRO-3 first, then ZeRO-3 again.</p>").html), ["zero-3:ZeRO-3"]);
  assert.deepEqual(marks(mark("<p>Activation recomputation saves activations.</p>").html), [
    "activation-recomputation:Activation recomputation",
    "activation:activations",
  ]);
  const m = findTermMatches("the interleaved 1F1B schedule, then 1F1B", matcher).map((x) => x.entry.id);
  assert.deepEqual(m, ["interleaved-schedule", "1f1b"]);
});

test("plurals and aliases; first letter in either case, the rest exactly; whole words only", () => {
  assert.deepEqual(marks(mark("<p>Two all-reduces and four microbatches.</p>").html), ["all-reduce:all-reduces", "microbatch:microbatches"]);
  assert.deepEqual(marks(mark("<p>A MoE layer, each pipeline stage, DeepSpeed-Ulysses, a zero-bubble schedule.</p>").html), [
    "moe:MoE",
    "stage:pipeline stage",
    "ulysses:DeepSpeed-Ulysses",
    "zero-bubble:zero-bubble",
  ]);
  // "Stage" alone is ambiguous (ZeRO's stages): only "pipeline stage" is the term.
  assert.deepEqual(marks(mark("<p>At each stage of ZeRO.</p>").html), ["zero:ZeRO"]);
  // Case: acronyms exactly; sentence case matches lower case.
  assert.deepEqual(marks(mark("<p>mfu, Mfu and nccl are not terms; Bubble is.</p>").html), ["bubble:Bubble"]);
  // Whole words: no match inside hyphenated or longer words.
  assert.deepEqual(marks(mark("<p>ZeRO-Offload, low-rank, ranked, bubbles-free, MFUs, fp16x.</p>").html), []);
  assert.deepEqual(marks(mark("<p>ZeRO’s design (ZeRO-1/2/3).</p>").html), ["zero:ZeRO", "zero-1:ZeRO-1"]);
  // A multi-word term may be split by the source's line break.
  assert.deepEqual(marks(mark("<p>With pipeline\nparallelism.</p>").html), ["pipeline-parallelism:pipeline\nparallelism"]);
  assert.equal(pluralForm("microbatch"), "microbatches");
  assert.equal(pluralForm("pipeline stage"), "pipeline stages");
  assert.equal(pluralForm("model states"), undefined);
  assert.equal(pluralForm("MFU"), undefined);
  assert.equal(pluralForm("ZeRO-3"), undefined);
  assert.deepEqual(termForms(entry("moe")), ["mixture of experts", "mixture-of-experts", "MoE"]);
  assert.deepEqual(termForms(entry("all-reduce")), ["All-reduce", "All-reduces"]);
});

test("headings, code, math, links, figures, tables, widgets, titles, summaries, notes and opt-outs are skipped", () => {
  const skipped = [
    '<h2 id="x">All-reduce</h2>',
    "<h3>All-reduce</h3>",
    "<p><code>all-reduce</code></p>",
    "<pre><code>all-reduce()</code></pre>",
    '<p><span class="katex"><span class="katex-html" aria-hidden="true"><span class="mord">all-reduce</span></span></span></p>',
    '<div class="math display"><p>all-reduce</p></div>',
    '<p><a href="/collectives/">the all-reduce</a></p>',
    '<figure class="figure"><img src="/a.svg" alt="all-reduce"><figcaption>An all-reduce.</figcaption></figure>',
    '<figure class="table-figure"><table><thead><tr><th>all-reduce</th></tr></thead><tbody><tr><td>all-reduce</td></tr></tbody></table></figure>',
    '<div class="widget" data-widget="x"><p>all-reduce</p></div>',
    '<div data-widget-static="x"><p>all-reduce</p></div>',
    '<div class="callout callout-note" role="note"><p class="callout-title">All-reduce</p></div>',
    '<section class="exercise"><p class="exercise-title"><span class="exercise-label">Exercise 1</span> The all-reduce</p></section>',
    '<details class="solution"><summary>All-reduce</summary></details>',
    '<p>Text<sup class="footnote-ref"><a href="#fn1">all-reduce</a></sup></p>',
    '<ol class="references-list"><li>All-reduce paper</li></ol>',
    '<nav class="toc"><ol><li>All-reduce</li></ol></nav>',
    '<div class="aside"><p>An all-reduce.</p></div>',
    '<p>Text<span class="sidenote">An all-reduce.</span></p>',
    '<p class="no-gloss">An all-reduce.</p>',
    '<div class="no-gloss"><ul><li>An all-reduce.</li></ul></div>',
    '<p><span class="visually-hidden">all-reduce</span></p>',
    '<p><svg viewBox="0 0 1 1"><text>all-reduce</text></svg></p>',
    '<div>All-reduce in a div is not running text.</div>',
  ];
  for (const html of skipped) {
    const r = mark(html + "<p>Then an all-reduce.</p>");
    assert.deepEqual(marks(r.html), ["all-reduce:all-reduce"], html);
    assert.ok(r.html.startsWith(html), `${html} left as it was`);
  }
  // Running text inside callouts, exercises, solutions, blockquotes and emphasis is marked.
  for (const html of [
    '<div class="callout callout-note" role="note"><p class="callout-title">Note</p><p>An all-reduce.</p></div>',
    '<details class="solution"><summary>Solution</summary><p>An all-reduce.</p></details>',
    "<blockquote><p>An all-reduce.</p></blockquote>",
    "<p>An <em>all-reduce</em>.</p>",
    "<ol><li><p>An all-reduce.</p></li></ol>",
  ]) {
    assert.deepEqual(marks(mark(html).html), ["all-reduce:all-reduce"], html);
  }
});

test("everything but the marked words is copied byte for byte (entities, SVG, comments, raw text)", () => {
  const html =
    '<p>Bytes&nbsp;&amp; an all-reduce&#39;s cost <span class="katex"><math><mtext>&#160;GB</mtext><mspace width="1em"/></math></span>.</p>\n' +
    '<!-- an all-reduce in a comment -->\n<div class="figure"><svg viewBox="0 0 2 2"><clipPath id="c"><rect width="1" height="1"/></clipPath>' +
    "<style>.a>b{fill:red}</style></svg></div>\n<p>A < b and bf16 <br> <img src='/x.svg' alt=\"fp32\"> fp32</p>";
  const r = mark(html);
  assert.deepEqual(marks(r.html), ["all-reduce:all-reduce", "bf16:bf16", "fp32:fp32"]);
  assert.equal(unmark(r.html), html);
});

test("running twice changes nothing; marks already present count as used", () => {
  const html = "<p>ZeRO-3 and FSDP. An all-reduce.</p><ul><li>More FSDP and an all-gather.</li></ul>";
  const once = mark(html).html;
  const twice = mark(once);
  assert.equal(twice.html, once);
  assert.deepEqual(twice.marked, []);
  assert.deepEqual(marks(once), ["zero-3:ZeRO-3", "fsdp:FSDP", "all-reduce:all-reduce", "all-gather:all-gather"]);
});

test("tooltip ids carry the chapter's slug, so chapters on one page keep them unique", () => {
  const body = "<p>An all-reduce and a bubble.</p>";
  const page = mark(body, "data-parallelism").html + mark(body, "pipeline-parallelism").html;
  const ids = [...page.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(ids, [
    "gloss-data-parallelism-all-reduce",
    "gloss-data-parallelism-bubble",
    "gloss-pipeline-parallelism-all-reduce",
    "gloss-pipeline-parallelism-bubble",
  ]);
  const describedBy = [...page.matchAll(/aria-describedby="([^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(describedBy, ids);
});

test("a chapter does not mark the terms it explains; the page outside the chapter body is untouched", () => {
  const explained = termsExplainedIn("data-parallelism");
  for (const id of ["data-parallelism", "zero", "zero-1", "zero-2", "zero-3", "fsdp", "all-reduce", "offloading", "global-batch-size"]) {
    assert.ok(explained.has(id), id);
  }
  assert.ok(!explained.has("bubble"));
  const page =
    '<html><body><nav class="toc"><p>An all-reduce and FSDP.</p></nav><article><div class="chapter-body">\n' +
    "<p>An all-reduce, FSDP and a bubble.</p>\n</div></article><footer><p>A bubble.</p></footer></body></html>";
  const r = markChapterPage(page, "data-parallelism", "/sub/glossary/", matcher);
  assert.deepEqual(r.marked, ["bubble"]);
  assert.ok(r.html.includes('<a class="gloss" href="/sub/glossary/#term-bubble"'));
  assert.ok(r.html.startsWith('<html><body><nav class="toc"><p>An all-reduce and FSDP.</p></nav>'));
  assert.ok(r.html.endsWith("</div></article><footer><p>A bubble.</p></footer></body></html>"));
  assert.equal(markChapterPage("<html><body><p>A bubble.</p></body></html>", "x").html, "<html><body><p>A bubble.</p></body></html>");
});

test("the glossary's forms are unambiguous: no form belongs to two terms", () => {
  assert.doesNotThrow(() => buildTermMatcher(glossary));
  const clash: GlossaryEntry[] = [
    { term: "Stage", id: "a", definition: "A.", see: [] },
    { term: "Pipe", id: "b", definition: "B.", see: [], aliases: ["stage"] },
  ];
  assert.throws(() => buildTermMatcher(clash), /"stage" belongs to both "Stage" and "Pipe"/);
});
