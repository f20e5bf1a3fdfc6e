import { test } from "node:test";
import assert from "node:assert/strict";
import { parseBibliography, loadBibliography } from "../../src/plugins/markdown/bibliography.ts";
import { BookError } from "../../src/plugins/shared/errors.ts";
import {
  entryTopic,
  plainNote,
  readingList,
  readingListHtml,
  READING_TOPICS,
  LEGACY_TOPICS,
  OTHER_TOPIC,
} from "../../src/plugins/site/reading-list.ts";

const entry = (key: string, extra: string, author = "Doe, Jane") => `
@misc{${key},
  author       = {${author}},
  title        = {A title for ${key}},
  howpublished = {arXiv preprint},
  year         = {2024},
  url          = {https://example.org/${key}},
  ${extra}
  note         = {Why to read ${key} \\& more.}
}
`;

test("entries are grouped by their keywords topic, in READING_TOPICS order, sorted by first author", () => {
  const bib = parseBibliography(
    entry("zeta2024", "keywords = {kernels},", "Zeta, Ann") +
      entry("alpha2024", "keywords = {kernels},", "Alpha, Bo") +
      entry("hand2024", "keywords = {handbooks},") +
      entry("huang2019gpipe", "") +
      entry("stray2024", ""),
  );
  const groups = readingList(bib);
  assert.deepEqual(
    groups.map((g) => [g.topic.id, g.entries.map((e) => e.key)]),
    [
      ["handbooks", ["hand2024"]],
      ["pipeline-parallelism", ["huang2019gpipe"]],
      ["kernels", ["alpha2024", "zeta2024"]],
      [OTHER_TOPIC.id, ["stray2024"]],
    ],
  );
  assert.equal(groups[0]!.entries[0]!.note, "Why to read hand2024 & more.");
});

test("an unknown keywords value fails with the entry's key and line", () => {
  const bib = parseBibliography(
    entry("ok2024", "keywords = {kernels},") + entry("typo2024", "keywords = {kernals},"),
    "refs.bib",
  );
  assert.throws(
    () => readingList(bib),
    (e: unknown) =>
      e instanceof BookError &&
      /refs\.bib:12/.test(e.message) &&
      /"typo2024": keywords "kernals" is not a reading-list topic/.test(e.message),
  );
});

test("plainNote turns TeX escapes into characters", () => {
  assert.equal(plainNote(" memory\\_allocated \\& \\%  "), "memory_allocated & %");
});

test("the HTML has one section per group, an escaped note and a contents list with counts", () => {
  const bib = parseBibliography(entry("x2024", "keywords = {debugging},").replace("Why to read", "<b>Why</b> to read"));
  const html = readingListHtml(readingList(bib));
  assert.match(html, /<p>1 work in 1 group:<\/p>/);
  assert.match(html, /<li><a href="#topic-debugging">Profiling, debugging and tooling<\/a> \(1\)<\/li>/);
  assert.match(html, /<section class="reading-topic" aria-labelledby="topic-debugging">\n<h2 id="topic-debugging">/);
  assert.match(html, /<p class="reading-note">&lt;b&gt;Why&lt;\/b&gt; to read x2024 &amp; more\.<\/p>/);
  assert.match(html, /<a href="https:\/\/example\.org\/x2024" rel="noopener">/);
});

test("legacy topics name only real topics", () => {
  const ids = new Set(READING_TOPICS.map((t) => t.id));
  for (const [key, id] of Object.entries(LEGACY_TOPICS)) assert.ok(ids.has(id), `${key}: ${id}`);
});

test("bibliography.bib: at least 60 entries, every one in a topic, every topic used, no url twice", () => {
  const bib = loadBibliography("bibliography.bib");
  assert.ok(bib.entries.size >= 60, `${bib.entries.size} entries`);
  const unplaced = [...bib.entries.values()]
    .filter((e) => entryTopic(e, bib.file) === OTHER_TOPIC.id)
    .map((e) => e.key);
  assert.deepEqual(unplaced, [], "entries without keywords (add keywords = {topic})");
  const used = new Set(readingList(bib).map((g) => g.topic.id));
  assert.deepEqual(
    READING_TOPICS.filter((t) => !used.has(t.id)).map((t) => t.id),
    [],
  );
  const urls = new Map<string, string>();
  for (const e of bib.entries.values()) {
    const url = (e.fields.url ?? e.fields.doi ?? "").trim().replace(/\/$/, "");
    assert.ok(!urls.has(url), `${e.key} and ${urls.get(url)} share ${url}`);
    urls.set(url, e.key);
  }
});
