/**
 * The glossary data (src/data/glossary.ts) and its page helpers: enough terms, the ones the
 * book cannot do without, unique kebab-case anchors, short definitions that end as sentences,
 * links only into chapters, and the alphabetical order the page shows.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import { glossary, glossaryAlphabetical } from "../../src/data/glossary.ts";
import { glossarySeeLabel } from "../../src/plugins/site/glossary.ts";

test("at least 60 terms, including the ones the book leans on", () => {
  assert.ok(glossary.length >= 60, `${glossary.length} terms`);
  const terms = new Set(glossary.map((e) => e.term));
  for (const t of [
    "All-reduce",
    "All-gather",
    "Reduce-scatter",
    "All-to-all",
    "Bubble",
    "MFU",
    "HFU",
    "ZeRO-1",
    "ZeRO-2",
    "ZeRO-3",
    "FSDP",
    "Microbatch",
    "Gradient accumulation",
    "Activation recomputation",
    "Tensor parallelism",
    "Sequence parallelism",
    "Context parallelism",
    "Pipeline parallelism",
    "Expert parallelism",
    "1F1B",
    "Interleaved schedule",
    "Zero bubble",
    "Ring attention",
  ]) {
    assert.ok(terms.has(t), `missing ${t}`);
  }
});

test("ids are unique and kebab-case; definitions are one or two sentences", () => {
  const ids = glossary.map((e) => e.id);
  assert.equal(new Set(ids).size, ids.length);
  for (const e of glossary) {
    assert.match(e.id, /^[a-z0-9]+(-[a-z0-9]+)*$/, e.id);
    assert.match(e.definition, /\.$/, `${e.term}: ends with a period`);
    // Printed as is (no Markdown typographer runs on data): apostrophes must already be typographic.
    assert.doesNotMatch(e.definition, /'/, `${e.term}: straight apostrophe (write ’)`);
    const sentences = e.definition.split(/(?<=\.)\s+(?=[A-Z])/).length;
    assert.ok(sentences <= 2, `${e.term}: ${sentences} sentences`);
    assert.ok(e.definition.length <= 260, `${e.term}: ${e.definition.length} characters`);
  }
});

test("every see-link points at a chapter file that exists", () => {
  const slugs = new Set(
    readdirSync("content/chapters")
      .filter((f) => f.endsWith(".md"))
      .map((f) => f.replace(/^[0-9a-z][0-9]-/, "").replace(/\.md$/, "")),
  );
  for (const e of glossary) {
    assert.ok(e.see.length >= 1, `${e.term} links somewhere`);
    for (const href of e.see) {
      const m = /^\/([a-z0-9-]+)\/#[a-z0-9:-]+$/.exec(href);
      assert.ok(m, `${e.term}: ${href} has the form /slug/#id`);
      assert.ok(slugs.has(m[1]!), `${e.term}: no chapter /${m[1]}/`);
    }
  }
  assert.ok(existsSync("content/glossary.njk"));
});

test("alphabetical order ignores case and leading symbols", () => {
  const sorted = glossaryAlphabetical().map((e) => e.term);
  assert.equal(sorted[0], "1F1B");
  assert.ok(sorted.indexOf("All-gather") < sorted.indexOf("All-reduce"));
  assert.ok(sorted.indexOf("ZeRO-1") < sorted.indexOf("ZeRO-3"));
  assert.equal(sorted.length, glossary.length);
  const plain = sorted.map((t) => t.toLowerCase());
  assert.ok(plain.indexOf("bf16") < plain.indexOf("bubble"));
});

test("see labels name the chapter; a link outside the chapters is an error", () => {
  const chapters = [
    { url: "/data-parallelism/", data: { title: "Data parallelism and ZeRO", chapter: { label: "Chapter 3" } } },
    { url: "/preface/", data: { title: "Preface", chapter: { label: "" } } },
  ];
  assert.equal(glossarySeeLabel("/data-parallelism/#sec:zero", chapters), "Chapter 3: Data parallelism and ZeRO");
  assert.equal(glossarySeeLabel("/preface/#x", chapters), "Preface");
  assert.throws(() => glossarySeeLabel("/nowhere/#x", chapters), /not a chapter/);
});
