/**
 * ring-attention: settings validation, the GPU-count parser on hostile input, tile steps and
 * per-step work against the model's plan, and the static drawing under linkedom.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseHTML } from "linkedom";
import {
  drawRingAttention,
  ringAttentionDefaults,
  ringAttentionWidget,
  summarizeRingAttention,
  tileSteps,
  validateRingGpus,
  workSoFar,
} from "../../src/figures/ring-attention.ts";
import { WidgetSettingsError } from "../../src/figures/widget.ts";
import { planRingAttention } from "../../src/model/index.ts";

test("parseSettings applies defaults and rejects bad values, naming the field", () => {
  assert.deepEqual(ringAttentionWidget.parseSettings({}), ringAttentionDefaults);
  assert.deepEqual(ringAttentionWidget.parseSettings({ gpus: 8, sharding: "zigzag", causal: false, step: 3 }), {
    gpus: 8,
    sharding: "zigzag",
    causal: false,
    step: 3,
  });
  assert.equal(ringAttentionWidget.parseSettings({ step: "all" }).step, null);
  const bad: [unknown, string][] = [
    [{ gpus: 0 }, "gpus"],
    [{ gpus: 17 }, "gpus"],
    [{ gpus: "4" }, "gpus"],
    [{ sharding: "striped" }, "sharding"],
    [{ causal: 1 }, "causal"],
    [{ gpus: 4, step: 4 }, "step"],
    [{ step: -1 }, "step"],
    [{ ring: true }, "ring"],
  ];
  for (const [raw, field] of bad) {
    assert.throws(
      () => ringAttentionWidget.parseSettings(raw),
      (e: unknown) => e instanceof WidgetSettingsError && e.field === field,
      JSON.stringify(raw),
    );
  }
});

test("validateRingGpus: whole numbers 1–16 only", () => {
  assert.deepEqual(validateRingGpus(" 8 "), { ok: true, gpus: 8 });
  for (const bad of ["-3", "0", "1e40", "four", "", "17", "2.5", "NaN", "Infinity", "99999999999999999999"]) {
    const r = validateRingGpus(bad);
    assert.equal(r.ok, false, bad);
  }
  // Each message names what is wrong: a negative count or zero is not positive, 2.5 not whole.
  for (const bad of ["-4", "−4", "0", "-2.5"]) {
    const r = validateRingGpus(bad);
    assert.ok(!r.ok && /must be positive: choose from 1 to 16/.test(r.message), `${bad}: ${JSON.stringify(r)}`);
  }
  const half = validateRingGpus("2.5");
  assert.ok(!half.ok && /whole number/.test(half.message));
  const big = validateRingGpus("17");
  assert.ok(!big.ok && /from 1 to 16/.test(big.message));
});

test("tileSteps: contiguous c = 4 computes tile (q, k) at step (owner(q) − owner(k)) mod c, masked above the diagonal", () => {
  const plan = planRingAttention({ gpus: 4, sharding: "contiguous", causal: true });
  const steps = tileSteps(plan);
  for (let q = 0; q < 8; q++) {
    for (let k = 0; k < 8; k++) {
      const expected = k > q ? -1 : (((Math.floor(q / 2) - Math.floor(k / 2)) % 4) + 4) % 4;
      assert.equal(steps[q][k], expected, `tile ${q},${k}`);
    }
  }
  assert.deepEqual(workSoFar(plan, 0), [2, 2, 2, 2]);
  assert.deepEqual(workSoFar(plan, 1), [2, 6, 6, 6]);
  assert.deepEqual(workSoFar(plan, null), [2, 6, 10, 14]);
});

test("summaries print the plan's numbers", () => {
  assert.equal(
    summarizeRingAttention(ringAttentionDefaults),
    "4 GPUs, contiguous sharding, causal mask. Work per GPU in tiles: GPU 0 2, GPU 1 6, GPU 2 10, GPU 3 14. Critical path 14 tiles against 8 for a balanced ring (57.1% efficient).",
  );
  assert.match(
    summarizeRingAttention({ gpus: 16, sharding: "zigzag", causal: true, step: 5 }),
    /This step lasts 2 tiles\. Critical path 32 tiles against 32 for a balanced ring \(100% efficient\)\./,
  );
});

test("static render under linkedom: disabled controls, title/desc, one drawn tile per unmasked tile", () => {
  const { document } = parseHTML(
    "<!doctype html><html><body><div id='r' data-widget='ring-attention'></div></body></html>",
  );
  const root = document.getElementById("r")!;
  ringAttentionWidget.renderStatic(root, ringAttentionDefaults);
  const svg = root.querySelector("svg.ring-attention-chart")!;
  assert.match(svg.querySelector("title")!.textContent!, /Ring attention tiles on 4 GPUs/);
  // 8×8 grid, causal: 28 full + 8 diagonal tiles drawn, 28 masked.
  assert.equal(svg.querySelectorAll(".ra-tile").length, 36);
  assert.equal(svg.querySelectorAll(".ra-masked").length, 28);
  for (const c of root.querySelectorAll("input, select, button")) assert.ok(c.hasAttribute("disabled"));
  assert.doesNotMatch(root.innerHTML, /NaN|Infinity|undefined/);
  drawRingAttention(root.querySelector(".ring-attention-figure")!, {
    gpus: 4,
    sharding: "zigzag",
    causal: true,
    step: 2,
  });
  assert.equal(root.querySelectorAll("svg.ring-attention-chart").length, 1);
  // Every GPU computes 2 tile units per step under zig-zag: 4 GPUs × (2 full, or 1 full + 2 halves) tiles.
  const now = root.querySelectorAll(".ra-now").length;
  assert.equal(now, 8);
});
