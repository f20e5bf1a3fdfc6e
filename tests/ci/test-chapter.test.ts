/** `npm run test:chapter` (tools/test-chapter.ts) finds every test of a chapter's widgets. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { chapterTestFiles, widgetTests } from "../../tools/test-chapter.ts";

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
