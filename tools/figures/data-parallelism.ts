/**
 * Writes the data-parallelism chapter's code-drawn figures to assets/img/data-parallelism/.
 * Run after changing src/model/dp-overlap.ts or src/figures/dp-overlap.ts:
 *
 *   node --import tsx tools/figures/data-parallelism.ts
 *
 * tests/figures/dp-overlap.test.ts fails when the committed files differ from what this writes.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseHTML } from "linkedom";
import { renderChapterFigures } from "../../src/figures/dp-chapter-figures.ts";

const outDir = path.resolve("assets/img/data-parallelism");
mkdirSync(outDir, { recursive: true });
const { document } = parseHTML("<!doctype html><html><body></body></html>");
for (const [name, svg] of Object.entries(renderChapterFigures(document as unknown as Document))) {
  writeFileSync(path.join(outDir, name), `${svg}\n`);
  console.log(`wrote ${path.join("assets/img/data-parallelism", name)}`);
}
