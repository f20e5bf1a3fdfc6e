/**
 * `npm run test:chapter` (tools/test-chapter.ts) finds every test of a chapter's widgets, from a
 * chapter named by its slug, file name or path; `npm run check` (tools/check.ts) adds their
 * browser tests and lints what changed.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import {
  chapterBrowserTestFiles,
  chapterFiles,
  chapterTestFiles,
  findChapter,
  widgetTests,
} from "../../tools/test-chapter.ts";
import { lintTargets } from "../../tools/check.ts";

test("every file in the widget → tests map exists and belongs to a widget a chapter uses", () => {
  for (const [widget, files] of Object.entries(widgetTests)) {
    assert.ok(existsSync(`src/figures/${widget}.ts`), `no widget "${widget}" (src/figures/${widget}.ts)`);
    for (const f of files) assert.ok(existsSync(f), `${widget}: ${f} does not exist`);
  }
});

test("a chapter's tests: its own, its widgets' by name and from the map, each once", () => {
  const file = "03-data-parallelism.md";
  const md = readFileSync(`content/chapters/${file}`, "utf8");
  assert.deepEqual(
    chapterTestFiles(file, "::: widget roofline\n:::\n\n::: widget collectives\n:::\n::: widget overlap-calculator\n"),
    [
      "tests/chapters/03-data-parallelism.test.ts",
      "tests/figures/roofline.test.ts",
      "tests/model/roofline.test.ts",
      "tests/figures/roofline-plotly.test.ts",
      "tests/figures/collectives.test.ts",
      "tests/model/collective-steps.test.ts",
      "tests/model/communication.test.ts",
      "tests/figures/overlap-calculator.test.ts",
    ],
  );
  assert.ok(chapterTestFiles(file, md).includes("tests/chapters/03-data-parallelism.test.ts"));
});

test("a chapter is named by its slug, its file name (with or without .md) or its path", () => {
  const chapters = chapterFiles();
  for (const name of [
    "data-parallelism",
    "03-data-parallelism",
    "03-data-parallelism.md",
    "content/chapters/03-data-parallelism.md",
    "./content/chapters/03-data-parallelism.md",
  ]) {
    assert.equal(findChapter(name, chapters), "03-data-parallelism.md", name);
  }
  assert.equal(findChapter("a1-profiling.md", chapters), "a1-profiling.md");
  assert.equal(findChapter("data-paralelism", chapters), undefined);
});

test("a chapter's browser tests: its widgets' and its own, those that exist", () => {
  assert.deepEqual(
    chapterBrowserTestFiles("09-gpu-kernels.md", "::: widget roofline\n:::\n::: widget coalescing\n:::\n"),
    ["tests/browser/roofline.test.ts", "tests/browser/gpu-kernels.test.ts"],
  );
  assert.deepEqual(chapterBrowserTestFiles("12-conclusion.md", "No widget."), []);
});

test("npm run check lints the chapter, the changed prose and the changed code", () => {
  const targets = lintTargets(
    ["bibliography.bib", "docs/widgets.md", "src/figures/ring.ts", "eslint.config.js", "companion/x.py"],
    "content/chapters/03-data-parallelism.md",
  );
  assert.deepEqual(targets.prose, ["content/chapters/03-data-parallelism.md", "bibliography.bib", "docs/widgets.md"]);
  assert.deepEqual(targets.code, ["src/figures/ring.ts", "eslint.config.js"]);
  assert.deepEqual(targets.formatted, ["src/figures/ring.ts", "eslint.config.js"]);
});
