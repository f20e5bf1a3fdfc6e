/**
 * The single-GPU chapter's code-generated figures (assets/img/one-gpu/*.svg) must be exactly what
 * tools/figures/one-gpu.ts writes from the current model, so a model change cannot leave a stale
 * figure behind. Also checks the drawing logic: the timeline's schedule and peaks.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { memoryAt, timelinePeaks, type MemoryTimelineInput } from "../../src/figures/memory-timeline.ts";
import { bytesLayouts, outputDir, renderOneGpuFigures } from "../../tools/figures/one-gpu.ts";

test("committed one-gpu SVGs equal what tools/figures/one-gpu.ts renders (run it after changing the model)", () => {
  for (const [name, svg] of Object.entries(renderOneGpuFigures())) {
    const committed = readFileSync(path.join(outputDir, name), "utf8");
    assert.equal(committed, svg, `assets/img/one-gpu/${name} is stale: run node --import tsx tools/figures/one-gpu.ts`);
  }
});

test("every static figure has a title, a description, no NaN/undefined, and the legend and values it describes", () => {
  const figures = renderOneGpuFigures();
  for (const [name, svg] of Object.entries(figures)) {
    assert.match(svg, /<title id="[a-z]+-title">[^<]+<\/title>/, `${name} title`);
    assert.match(svg, /<desc id="[a-z]+-desc">[^<]+<\/desc>/, `${name} desc`);
    assert.doesNotMatch(svg, /NaN|undefined|Infinity/, `${name} has no NaN/undefined`);
    assert.match(svg, /prefers-color-scheme:dark/, `${name} follows dark mode`);
  }
  const bpp = figures["bytes-per-parameter.svg"]!;
  assert.match(bpp, /fp32: weights 4, gradients 4, Adam moments 8; 16 bytes in total\./);
  assert.match(
    bpp,
    /bf16 mixed precision: weights 2, gradients 2, fp32 master weights 4, Adam moments 8; 16 bytes in total\./,
  );
  assert.match(
    bpp,
    /bf16, fp32 gradients: weights 2, fp32 gradients 4, fp32 master weights 4, Adam moments 8; 18 bytes in total\./,
  );
  assert.match(bpp, /fp32 gradient buffer 4, fp32 master weights 4, Adam moments 8; 20 bytes in total\./);
  const mtl = figures["memory-timeline.svg"]!;
  assert.match(mtl, /Peak of step 1: 35\.8 GB; peak of step 2: 45\.7 GB\./);
  assert.match(mtl, />step 2 peak 45\.7 GB</);
  assert.match(mtl, />H100 memory 80 GB</);
});

test("bytes-per-parameter layouts sum to 16, 16, 18 and 20", () => {
  const totals = bytesLayouts().map((l) => l.segments.reduce((s, seg) => s + seg.bytesPerParameter, 0));
  assert.deepEqual(totals, [16, 16, 18, 20]);
});

test("memory timeline schedule: activations peak at the end of the forward pass, moments appear in the first optimizer step, gradients are freed by zero_grad", () => {
  const input: MemoryTimelineInput = {
    modelName: "m",
    weightsBytes: 10,
    gradientBytes: 2,
    momentBytes: 4,
    activationBytes: 8,
  };
  assert.deepEqual(memoryAt(input, 0), { t: 0, weights: 10, moments: 0, grads: 0, acts: 0 });
  assert.equal(memoryAt(input, 1).acts, 8);
  assert.equal(memoryAt(input, 2).acts, 4);
  assert.equal(memoryAt(input, 2).grads, 1);
  assert.equal(memoryAt(input, 3.05).moments, 0);
  assert.equal(memoryAt(input, 3.15).moments, 4);
  assert.equal(memoryAt(input, 3.15).grads, 2);
  assert.equal(memoryAt(input, 3.25).grads, 0);
  assert.equal(memoryAt(input, 3.3).moments, 4, "step 2 starts with the moments resident");
  assert.equal(memoryAt(input, 4.3).acts, 8);
  // Peaks: step 1 = W + max(A, G + M) = 18; step 2 = W + M + max(A, G) = 22.
  assert.deepEqual(timelinePeaks(input), { first: 18, second: 22 });
  // When gradients + moments exceed activations, step 1 peaks at the optimizer step.
  assert.deepEqual(timelinePeaks({ ...input, activationBytes: 3 }), { first: 16, second: 17 });
});
