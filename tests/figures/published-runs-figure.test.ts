import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  breakdownFile,
  outputFile,
  renderPublishedRunsFigure,
  renderStepBreakdownFigure,
} from "../../tools/figures/published-runs.ts";
import { PUBLISHED_RUNS } from "../../src/model/index.ts";

test("the committed figures match what tools/figures/published-runs.ts writes", () => {
  const stale = "stale: run node --import tsx tools/figures/published-runs.ts";
  assert.equal(readFileSync(outputFile, "utf8"), renderPublishedRunsFigure(), stale);
  assert.equal(readFileSync(breakdownFile, "utf8"), renderStepBreakdownFigure(), stale);
});

test("the scatter and the breakdown have a title, a description and one titled mark per run", () => {
  for (const [svg, id] of [
    [renderPublishedRunsFigure(), "mfu-scatter"],
    [renderStepBreakdownFigure(), "step-breakdown"],
  ] as const) {
    assert.match(svg, new RegExp(`<title id="${id}-title">[^<]+</title>`));
    assert.match(svg, new RegExp(`<desc id="${id}-desc">[^<]+</desc>`));
    assert.equal((svg.match(/<g><title>/g) ?? []).length, PUBLISHED_RUNS.length, id);
    assert.ok(!/NaN|undefined|Infinity/.test(svg), id);
  }
});
