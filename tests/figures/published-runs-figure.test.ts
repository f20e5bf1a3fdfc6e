import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { outputFile, renderPublishedRunsFigure } from "../../tools/figures/published-runs.ts";
import { PUBLISHED_RUNS } from "../../src/model/index.ts";

test("the committed MFU scatter matches what tools/figures/published-runs.ts writes", () => {
  const svg = renderPublishedRunsFigure();
  assert.equal(readFileSync(outputFile, "utf8"), svg, "stale: run node --import tsx tools/figures/published-runs.ts");
});

test("the scatter has a title, a description and one titled point per run", () => {
  const svg = renderPublishedRunsFigure();
  assert.match(svg, /<title id="mfu-scatter-title">[^<]+<\/title>/);
  assert.match(svg, /<desc id="mfu-scatter-desc">[^<]+<\/desc>/);
  assert.equal((svg.match(/<g><title>/g) ?? []).length, PUBLISHED_RUNS.length);
  assert.ok(!/NaN|undefined|Infinity/.test(svg));
});
