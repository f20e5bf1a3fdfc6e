import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { parseHTML } from "linkedom";
import { overlapCalculatorWidget } from "../../src/figures/overlap-calculator.ts";
import {
  computeOverlap,
  defaultOverlapSettings,
  validateOverlapControls,
} from "../../src/figures/overlap-calculator-state.ts";
import { formatSeconds } from "../../src/figures/kit/format.ts";
import { WidgetSettingsError } from "../../src/figures/widget.ts";
import { findGpu, findModelPreset, overlapRatios } from "../../src/model/index.ts";

const raw = (over: Record<string, string> = {}) => ({
  model: "llama-3.1-8b",
  gpu: "h100-sxm",
  zeroStage: "3",
  tp: "1",
  pp: "1",
  dp: "64",
  microBatchSize: "1",
  seqLength: "4096",
  ...over,
});

describe("overlap-calculator", () => {
  it("default settings reproduce the model's ZeRO-3 ratio for Llama 3.1 8B on 64 H100s", () => {
    const s = overlapCalculatorWidget.parseSettings({});
    assert.deepEqual(s, defaultOverlapSettings);
    const r = computeOverlap(s);
    assert.ok(r.ok);
    const h100 = findGpu("h100-sxm")!;
    const direct = overlapRatios(findModelPreset("llama-3.1-8b")!.config, {
      setup: {
        tp: 1,
        pp: 1,
        dp: 64,
        zeroStage: 3,
        microBatchSize: 1,
        seqLength: 4096,
        microbatches: 2,
        sequenceParallel: false,
      },
      peakFlopsPerSecond: h100.bf16FlopsPerSecond,
      mfu: 0.4,
      bandwidths: { dpBusBytesPerSecond: 50e9, tpBusBytesPerSecond: 450e9, ppBytesPerSecond: 50e9 },
    });
    assert.equal(r.ratios.zero3!.ratio, direct.zero3!.ratio);
    assert.equal(r.ratios.dp, null);
  });
  it("static render: a table row per scheme, no NaN or undefined", () => {
    const { document } = parseHTML("<!doctype html><html><body><div id='w'></div></body></html>");
    const root = document.getElementById("w") as unknown as Element;
    overlapCalculatorWidget.renderStatic(root, { ...defaultOverlapSettings, tp: 8, pp: 2 });
    const rows = [...root.querySelectorAll(".ovl-table tbody tr")].map(
      (tr) => tr.querySelector("th")!.textContent + " | " + tr.querySelectorAll("td")[3]!.textContent,
    );
    assert.equal(rows.length, 4);
    assert.match(rows[0]!, /^DP gradient reduction \| $/);
    assert.match(rows[1]!, /^ZeRO-3 layer gather \| (can hide|exposed)$/);
    assert.match(rows[2]!, /^TP all-reduces \(one layer\) \| can hide$/);
    assert.doesNotMatch(root.innerHTML, /NaN|undefined|Infinity/);
  });
  it("bad settings and hostile control input give messages", () => {
    assert.throws(() => overlapCalculatorWidget.parseSettings({ tp: 3 }), WidgetSettingsError);
    assert.throws(() => overlapCalculatorWidget.parseSettings({ model: "gpt-5" }), WidgetSettingsError);
    for (const v of ["", "-1", "0", "1e40", "abc", "2.5"]) {
      const r = validateOverlapControls(raw({ dp: v }));
      assert.equal(r.ok, false, v);
      if (!r.ok) assert.ok(r.errors.dp, v);
    }
    const r = validateOverlapControls(raw({ tp: "5" }));
    assert.equal(r.ok, false);
    if (!r.ok) assert.ok(Object.values(r.errors)[0]!.length > 0);
  });
  it("formats durations", () => {
    assert.equal(formatSeconds(0.6323), "632 ms");
    assert.equal(formatSeconds(0.000168), "168 µs");
    assert.equal(formatSeconds(1.5), "1.5 s");
  });
});
