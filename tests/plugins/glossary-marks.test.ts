/**
 * First-use glossary marks (src/plugins/markdown/glossary-marks.ts), a core rule of the chapter renders:
 * which text is marked (first use per chapter, running text only, whole words, longest form,
 * aliases and plurals), the exact markup, everything else rendered as without marks, and ids
 * that stay unique when chapters share a page.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { glossary, type GlossaryEntry } from "../../src/data/glossary.ts";
import {
  buildTermMatcher,
  findTermMatches,
  glossMarkup,
  glossTooltipId,
  pluralForm,
  termForms,
  termsExplainedIn,
} from "../../src/plugins/markdown/glossary-marks.ts";
import { render, renderEdition } from "../helpers/book-markdown.ts";

const entry = (id: string): GlossaryEntry => {
  const e = glossary.find((g) => g.id === id);
  assert.ok(e, `no glossary entry ${id}`);
  return e;
};
const matcher = buildTermMatcher();
/** A chapter page's render of `src` (chapter "test" explains no term itself). */
const file = "content/chapters/04-test.md";
const mark = (src: string) => ({ html: renderEdition(src, file).body });
/** The marked texts, in order, as "id:text". */
const marks = (html: string) =>
  [...html.matchAll(/href="[^"]*#term-([^"]+)"[^>]*>([^<]*)<\/a>/g)].map((m) => `${m[1]}:${m[2]}`);
/** Undoes the marks: what must equal the input. */
const unmark = (html: string) =>
  html.replace(
    /<span class="gloss-term"><a class="gloss"[^>]*>([^<]*)<\/a><span class="gloss-def"[^>]*>[^<]*<\/span><\/span>/g,
    "$1",
  );

test("the exact markup of a mark: link to the entry, definition as a described-by tooltip hidden from search", () => {
  const zero3 = entry("zero-3");
  assert.equal(
    glossMarkup("ZeRO-3", zero3, glossTooltipId("data-parallelism", "zero-3"), "/glossary/"),
    '<span class="gloss-term"><a class="gloss" href="/glossary/#term-zero-3" aria-describedby="gloss-data-parallelism-zero-3">ZeRO-3</a>' +
      '<span class="gloss-def" id="gloss-data-parallelism-zero-3" role="tooltip" data-pagefind-ignore>' +
      "ZeRO stage 3: parameters are sharded too and all-gathered layer by layer in the forward and backward passes, for about 1.5 times the traffic of plain data parallelism." +
      "</span></span>",
  );
  // Definitions are escaped as text.
  const odd: GlossaryEntry = { term: "X", id: "x", definition: 'a < b & "c"', see: [] };
  assert.match(glossMarkup("X", odd, "gloss-s-x", "/g/"), />a &lt; b &amp; &quot;c&quot;<\/span><\/span>$/);
});

test("only the first use of a term in a chapter is marked", () => {
  const src = "An all-reduce, then another all-reduce.\n\n- All-reduce again.";
  const r = mark(src);
  assert.deepEqual(marks(r.html), ["all-reduce:all-reduce"]);
  assert.equal(unmark(r.html), render(src, file));
});

test("the longest form wins at a position, even when its term is already marked", () => {
  assert.deepEqual(marks(mark("ZeRO-3 shards the parameters; ZeRO in general shards states.").html), [
    "zero-3:ZeRO-3",
    "zero:ZeRO",
  ]);
  // The second ZeRO-3 is not marked as ZeRO.
  assert.deepEqual(marks(mark("ZeRO-3 first, then ZeRO-3 again.").html), ["zero-3:ZeRO-3"]);
  assert.deepEqual(marks(mark("Activation recomputation saves activations.").html), [
    "activation-recomputation:Activation recomputation",
    "activation:activations",
  ]);
  const m = findTermMatches("the interleaved 1F1B schedule, then 1F1B", matcher).map((x) => x.entry.id);
  assert.deepEqual(m, ["interleaved-schedule", "1f1b"]);
});

test("plurals and aliases; first letter in either case, the rest exactly; whole words only", () => {
  assert.deepEqual(marks(mark("Two all-reduces and four microbatches.").html), [
    "all-reduce:all-reduces",
    "microbatch:microbatches",
  ]);
  assert.deepEqual(marks(mark("A MoE layer, each pipeline stage, DeepSpeed-Ulysses, a zero-bubble schedule.").html), [
    "moe:MoE",
    "stage:pipeline stage",
    "ulysses:DeepSpeed-Ulysses",
    "zero-bubble:zero-bubble",
  ]);
  // "Stage" alone is ambiguous (ZeRO's stages): only "pipeline stage" is the term.
  assert.deepEqual(marks(mark("At each stage of ZeRO.").html), ["zero:ZeRO"]);
  // Case: acronyms exactly; sentence case matches lower case.
  assert.deepEqual(marks(mark("mfu, Mfu and nccl are not terms; Bubble is.").html), ["bubble:Bubble"]);
  // Whole words: no match inside hyphenated or longer words.
  assert.deepEqual(marks(mark("ZeRO-Offload, low-rank, ranked, bubbles-free, MFUs, fp16x.").html), []);
  assert.deepEqual(marks(mark("ZeRO’s design (ZeRO-1/2/3).").html), ["zero:ZeRO", "zero-1:ZeRO-1"]);
  // A multi-word term may be split by the source's line break.
  assert.deepEqual(marks(mark("With pipeline\nparallelism.").html), ["pipeline-parallelism:pipeline\nparallelism"]);
  assert.equal(pluralForm("microbatch"), "microbatches");
  assert.equal(pluralForm("pipeline stage"), "pipeline stages");
  assert.equal(pluralForm("model states"), undefined);
  assert.equal(pluralForm("MFU"), undefined);
  assert.equal(pluralForm("ZeRO-3"), undefined);
  assert.deepEqual(termForms(entry("moe")), ["mixture of experts", "mixture-of-experts", "MoE"]);
  assert.deepEqual(termForms(entry("all-reduce")), ["All-reduce", "All-reduces"]);
});

test("headings, code, math, links, figures, tables, widgets, titles, notes and opt-outs are skipped", () => {
  const skipped = [
    "## All-reduce",
    "## A\n\n### All-reduce",
    "`all-reduce`",
    "```text\nall-reduce()\n```",
    "$\\text{all-reduce}$",
    "$$\n\\text{all-reduce}\n$$",
    "[the all-reduce](/collectives/)",
    '![all-reduce](/assets/img/box.svg "An all-reduce.")',
    "| all-reduce |\n| --- |\n| all-reduce |\n\nTable: An all-reduce.",
    "::: widget unit-converter\n:::",
    "::: note All-reduce\nBody.\n:::",
    "::: exercise The all-reduce\nWhy?\n:::",
    "Text.[^1]\n\n[^1]: An all-reduce.",
    "::: aside\nAn all-reduce.\n:::",
    "::: figure {#fig:a}\nAn all-reduce.\n\nCaption: An all-reduce.\n:::",
    "An all-reduce. {.no-gloss}",
    'A <span class="no-gloss">all-reduce</span>.',
    'A <span class="visually-hidden">all-reduce</span>.',
    'A <svg viewBox="0 0 1 1"><text>all-reduce</text></svg>.',
    "<div>All-reduce in a div is not running text.</div>",
  ];
  for (const src of skipped) {
    const r = mark(src + "\n\nThen an all-reduce.");
    assert.deepEqual(marks(r.html), ["all-reduce:all-reduce"], src);
    assert.ok(r.html.includes('Then an <span class="gloss-term">'), src);
  }
  // Running text inside callouts, exercises, solutions, blockquotes, emphasis and lists is marked.
  for (const src of [
    "::: note\nAn all-reduce.\n:::",
    "::: exercise\nAn all-reduce.\n:::",
    "::: exercise\nWhy?\n\n::: solution An all-reduce\nBecause.\n:::\n:::",
    "::: exercise\nWhy?\n\n::: solution\nAn all-reduce.\n:::\n:::",
    "> An all-reduce.",
    "An *all-reduce*.",
    "1. An all-reduce.",
    "- First\n\n- An all-reduce.",
  ]) {
    assert.deepEqual(marks(mark(src).html), ["all-reduce:all-reduce"], src);
  }
});

test("everything but the marked words renders as without marks (entities, math, raw HTML, breaks)", () => {
  const src =
    "Bytes&nbsp;&amp; an all-reduce's cost $\\text{GB}$.\n\n<!-- an all-reduce in a comment -->\n\n" +
    'A < b and bf16 <br> <img src="/x.svg" alt="fp32"> fp32\nand a line break.';
  const r = mark(src);
  assert.deepEqual(marks(r.html), ["all-reduce:all-reduce", "bf16:bf16", "fp32:fp32"]);
  assert.equal(unmark(r.html), render(src, file));
});

test("the chapter page and /book/ mark the same words", () => {
  const src = "ZeRO-3 and FSDP. An all-reduce.\n\n- More FSDP and an all-gather.";
  const page = renderEdition(src, file).body;
  const book = renderEdition(src, file, ["test"]).body;
  assert.deepEqual(marks(page), ["zero-3:ZeRO-3", "fsdp:FSDP", "all-reduce:all-reduce", "all-gather:all-gather"]);
  assert.deepEqual(marks(book), marks(page));
});

test("tooltip ids carry the chapter's slug, so chapters on one page keep them unique", () => {
  const body = "An all-reduce and a bubble.";
  const page =
    renderEdition(body, "content/chapters/04-test.md").body + renderEdition(body, "content/chapters/05-other.md").body;
  const ids = [...page.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(ids, ["gloss-test-all-reduce", "gloss-test-bubble", "gloss-other-all-reduce", "gloss-other-bubble"]);
  const describedBy = [...page.matchAll(/aria-describedby="([^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(describedBy, ids);
  const book = renderEdition(body, "content/chapters/04-test.md", ["test"]).body;
  assert.match(book, /aria-describedby="test--gloss-test-all-reduce"/);
  assert.match(book, /id="test--gloss-test-all-reduce"/);
});

test("a chapter does not mark the terms it explains; a page that is not a chapter is not marked", () => {
  const explained = termsExplainedIn("data-parallelism");
  for (const id of [
    "data-parallelism",
    "zero",
    "zero-1",
    "zero-2",
    "zero-3",
    "fsdp",
    "all-reduce",
    "offloading",
    "global-batch-size",
  ]) {
    assert.ok(explained.has(id), id);
  }
  assert.ok(!explained.has("bubble"));
  const src = "An all-reduce, FSDP and a bubble.";
  assert.deepEqual(marks(renderEdition(src, "content/chapters/03-data-parallelism.md").body), ["bubble:bubble"]);
  assert.deepEqual(marks(render(src, "content/changelog.md")), []);
});

test("the glossary's forms are unambiguous: no form belongs to two terms", () => {
  assert.doesNotThrow(() => buildTermMatcher(glossary));
  const clash: GlossaryEntry[] = [
    { term: "Stage", id: "a", definition: "A.", see: [] },
    { term: "Pipe", id: "b", definition: "B.", see: [], aliases: ["stage"] },
  ];
  assert.throws(() => buildTermMatcher(clash), /"stage" belongs to both "Stage" and "Pipe"/);
});
