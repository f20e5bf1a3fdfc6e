import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { outputDir, renderPipelineFigures, timelineFigures } from "../../tools/figures/pipeline-parallelism.ts";
import { pipelineSchedule } from "../../src/model/index.ts";
import { formatPercent } from "../../src/figures/kit/format.ts";

test("committed pipeline timelines match what tools/figures/pipeline-parallelism.ts writes", () => {
  for (const [name, svg] of Object.entries(renderPipelineFigures())) {
    const committed = readFileSync(path.join(outputDir, name), "utf8");
    assert.equal(committed, svg, `${name} is stale: run node --import tsx tools/figures/pipeline-parallelism.ts`);
  }
});

test("each timeline prints the model's bubble and has a title and description", () => {
  const svgs = renderPipelineFigures();
  for (const f of timelineFigures) {
    const r = pipelineSchedule(f.input);
    const svg = svgs[f.file];
    assert.ok(svg.includes(`bubble: ${formatPercent(r.bubbleFraction)} of busy time`), f.file);
    assert.ok(
      /<title id="[^"]+-title">[^<]+<\/title>/.test(svg) && /<desc id="[^"]+-desc">[^<]+<\/desc>/.test(svg),
      f.file,
    );
    assert.ok(!/NaN|undefined|Infinity/.test(svg), f.file);
  }
});

test("the figures show the closed forms of the chapter (p = 4, m = 8, T_F = T_B = T_W = 1)", () => {
  const get = (file: string) => pipelineSchedule(timelineFigures.find((f) => f.file === file)!.input);
  assert.equal(get("afab.svg").bubbleFraction, 3 / 8);
  assert.equal(get("1f1b.svg").bubbleFraction, 3 / 8);
  assert.deepEqual(get("afab.svg").peakInFlight, [8, 8, 8, 8]);
  assert.deepEqual(get("1f1b.svg").peakInFlight, [4, 3, 2, 1]);
  assert.equal(get("interleaved.svg").bubbleFraction, 3 / 16);
  // ZB-H1: (p − 1)(T_F + T_B − T_W) = 3 idle units per stage, a third of 1F1B's 9
  assert.deepEqual(get("zb-h1.svg").idlePerStage, [3, 3, 3, 3]);
  assert.deepEqual(get("1f1b.svg").idlePerStage, [9, 9, 9, 9]);
  // DualPipe: (p/2 − 1)(F&B + B − 3W) = 1 · (3 + 2 − 3) = 2; peak p + 1 = 5
  assert.deepEqual(get("dualpipe.svg").idlePerStage, [2, 2, 2, 2]);
  assert.deepEqual(get("dualpipe.svg").peakInFlight, [5, 5, 5, 5]);
});
