/**
 * The project word list (cspell/project-words.txt) stays small and honest: one word per line,
 * sorted case-insensitively, no duplicates, and every word used somewhere in the checked prose
 * (a word nobody uses any more is a typo waiting to be accepted).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { lintConfig } from "../../tools/lint/config.ts";
import { collectSources } from "../../tools/lint/run.ts";
import { root } from "./helpers.ts";

const listPath = path.join(root, "cspell/project-words.txt");
const words = readFileSync(listPath, "utf8")
  .split("\n")
  .filter((w, k, all) => !(w === "" && k === all.length - 1));
const order = (a: string, b: string) => {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0;
};

describe("cspell/project-words.txt", () => {
  it("has one word per line, no blanks or spaces", () => {
    assert.deepEqual(
      words.filter((w) => !/^[\p{L}][\p{L}\p{N}'-]*$/u.test(w)),
      [],
    );
  });

  it("is sorted case-insensitively", () => {
    assert.deepEqual(words, [...words].sort(order));
  });

  it("has no duplicates (ignoring case)", () => {
    const seen = new Set<string>();
    const dups = words.filter((w) => (seen.has(w.toLowerCase()) ? true : (seen.add(w.toLowerCase()), false)));
    assert.deepEqual(dups, []);
  });

  it("has only words used in the checked prose (content/, bibliography, prose data files)", () => {
    const prose = collectSources(lintConfig, root)
      .sources.flatMap((s) => s.views.map((v) => v.prose))
      .join("\n");
    const unused = words.filter(
      (w) => !new RegExp(`(?<![\\p{L}])${w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}])`, "iu").test(prose),
    );
    assert.deepEqual(unused, [], `remove unused words from ${path.relative(root, listPath)}`);
  });
});
