/**
 * The bibliography checks on a fixture .bib: each broken entry is reported at its key (or the
 * offending value) with the right rule; published titles keep their UK spelling while our own
 * notes get every prose rule; a `% lint-ignore` line excuses the entry below it.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { citedKeys } from "../../tools/lint/bibliography.ts";
import { parseBibtex } from "../../tools/lint/bibtex.ts";
import type { Finding } from "../../tools/lint/findings.ts";
import { fixtureConfig, lintFixtures } from "./helpers.ts";

let byFile: Map<string, string[]>;
let findings: Finding[];

before(async () => {
  ({ byFile, findings } = await lintFixtures(fixtureConfig("bib/content", "bib/bibliography.bib")));
});

describe("bibliography checks", () => {
  it("reports duplicate keys, missing fields, bad url and doi, uncited entries, and prose mistakes in notes", () => {
    assert.deepEqual(byFile.get("bibliography.bib"), [
      "17:10 bib-duplicate-key",
      "33:7 bib-missing-field",
      "40:7 bib-missing-field",
      "47:7 bib-missing-field",
      "59:19 bib-url",
      "67:14 bib-doi → 10.1000/abc",
      "75:14 bib-doi",
      "78:10 bib-uncited",
      "92:31 uk-spelling → optimize",
      "92:48 repeated-word → the",
      "92:93 spelling → wrong",
      "109:19 bib-duplicate-url",
    ]);
    assert.equal(byFile.get("cites.md"), undefined);
  });

  it("a url (or doi) used twice is reported at the second entry's value, naming the first entry", () => {
    const dup = findings.find((f) => f.rule === "bib-duplicate-url");
    assert.ok(dup);
    assert.equal(`${dup.file}:${dup.line}:${dup.col}`, "tests/lint/fixtures/bib/bibliography.bib:109:19");
    assert.equal(
      dup.message,
      'entry "sameurl2010" links to "https://example.org/paper.pdf", as "good2020cited" on line 1 does (one entry per work)',
    );
  });

  it("citedKeys reads every key of a citation group and skips cross-references", () => {
    assert.deepEqual(
      [...citedKeys("See @eq:x and [@a2020b; @c-d_2021e] and [-@f2019g, p. 3], not @h.")],
      ["a2020b", "c-d_2021e", "f2019g"],
    );
  });

  it("parseBibtex keeps value offsets and reads quoted, braced, bare and concatenated values", () => {
    const text =
      '@article{k1,\n  title = "A {B} c",\n  year = 2020,\n  note = {x {y} z} # " w"\n}\n@comment{ignored @x{}}\n';
    const { entries, errors } = parseBibtex(text);
    assert.deepEqual(errors, []);
    assert.equal(entries.length, 1);
    const [e] = entries;
    assert.equal(e.key, "k1");
    assert.deepEqual(
      e.fields.map((f) => [f.name, f.value, text.slice(f.valueOffset, f.valueOffset + 3)]),
      [
        ["title", "A {B} c", "A {"],
        ["year", "2020", "202"],
        ["note", "x {y} z w", "x {"],
      ],
    );
  });

  it("parseBibtex reports an unclosed entry and recovers at the next one", () => {
    const { entries, errors } = parseBibtex("@misc{a,\n  title = {open\n\n@misc{b, title = {ok}}\n");
    assert.equal(errors.length, 1);
    assert.deepEqual(
      entries.map((e) => e.key),
      ["b"],
    );
  });
});
