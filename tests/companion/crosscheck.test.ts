/**
 * The book's model against PyTorch: every layout in companion/measurements.json (written by
 * `npm run companion:measure`, fp32, one training step) must match src/model's prediction.
 *
 * - Parameters, gradients and optimizer states: equal, byte for byte, on every rank.
 * - Communication per kind of parallelism and collective: equal, byte for byte (the pipeline's
 *   busiest stage; expert parallelism compared in sum over ranks).
 * - Activations: within 1%, never below the model. What is left is what the formulas leave out on
 *   purpose: one 1/rms per token for every RMSNorm, the log-sum-exp per query row of ring
 *   attention, the 0-d attention scale factor autograd keeps, the loss's total weight, and (ranks
 *   in sum) the router's small tensors under expert parallelism.
 *   Token ids and routing indices (integer tensors) are measured separately and not compared.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  ACTIVATION_TOLERANCE,
  comparisonTable,
  crossCheck,
  extractRegion,
  loadMeasurements,
} from "../../src/plugins/markdown/include-code.ts";
import { assertApprox } from "../helpers/approx.ts";

const { layouts, config } = loadMeasurements();

test("companion/measurements.json covers every technique the companion measures", () => {
  const commands = layouts.map((l) => l.command).join("\n");
  for (const flag of [
    "--dp",
    "--zero 1",
    "--zero 2",
    "--zero 3",
    "--tp",
    "--sp",
    "--pp",
    "--schedule afab",
    "--cp",
    "--ep",
    "--recompute full",
  ]) {
    assert.ok(commands.includes(flag), `no measured layout uses ${flag}`);
  }
});

for (const layout of layouts) {
  const name = layout.command.replace("python3 -m companion.measure --config companion/configs/", "");
  test(`model and PyTorch agree: ${name}`, () => {
    const check = crossCheck(layout, config(layout.config));
    for (const c of check.states)
      assert.equal(c.measured, c.model, `${c.what}: model ${c.model}, measured ${c.measured}`);
    for (const c of check.communication) {
      assert.equal(
        c.measured,
        c.expected,
        `${c.what}: expected ${c.expected} (model ${c.model}), measured ${c.measured}`,
      );
    }
    for (const c of check.activations) {
      assertApprox(c.measured, c.expected, { rel: ACTIVATION_TOLERANCE }, `${c.what} (model ${c.model})`);
      assert.ok(
        c.measured >= c.expected,
        `${c.what}: PyTorch saved less than the corrected model (${c.measured} < ${c.expected}); a formula counts something PyTorch does not keep`,
      );
    }
  });
}

test("extractRegion() returns a marked region dedented, and names the regions it knows when one is missing", () => {
  const text = "a\n    # [start:x]\n    def f():\n        return 1\n    # [end:x]\n";
  assert.equal(extractRegion(text, "x", "f.py"), "def f():\n    return 1\n");
  assert.throws(() => extractRegion(text, "y", "f.py"), /no region "y" in f\.py \(regions: x\)/);
});

test("comparisonTable() refuses a layout that was never measured", () => {
  assert.throws(() => comparisonTable("tiny.json --dp 64"), /no measured layout "tiny\.json --dp 64"/);
});
