import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { parseHTML } from "linkedom";
import { overlapCalculatorWidget } from "../../src/figures/overlap-calculator.ts";
import {
  computeOverlap,
  defaultOverlapSettings,
  overlapNote,
  overlapScenario,
  summarizeOverlap,
  validateOverlapControls,
} from "../../src/figures/overlap-calculator-state.ts";
import { formatSeconds } from "../../src/figures/kit/format.ts";
import { WidgetSettingsError } from "../../src/figures/widget.ts";
import { evaluateScenario, KERNEL_EFFICIENCY } from "../../src/model/index.ts";

const raw = (over: Record<string, string> = {}) => ({
  model: "llama-3.1-8b",
  gpu: "h100-sxm",
  framework: "fsdp2",
  zeroStage: "3",
  tp: "1",
  pp: "1",
  dp: "64",
  cp: "1",
  microBatchSize: "1",
  microbatches: "1",
  seqLength: "4096",
  ...over,
});

describe("overlap-calculator", () => {
  it("default settings: appendix D's ZeRO-3 case, every number from the engine's step", () => {
    const s = overlapCalculatorWidget.parseSettings({});
    assert.deepEqual(s, defaultOverlapSettings);
    const r = computeOverlap(s);
    assert.ok(r.ok);
    const direct = evaluateScenario(overlapScenario(s));
    assert.equal(r.evaluation.step.stepSeconds, direct.step.stepSeconds);
    const gather = direct.step.dpTransfers.find((t) => t.name.includes("(forward, one per layer)"))!;
    const row = r.rows.find((x) => x.label === gather.name)!;
    assert.equal(row.commSeconds, gather.secondsPerCall);
    assert.equal(row.windowSeconds, gather.windowSeconds);
    assert.equal(row.ratio, gather.secondsPerCall / gather.windowSeconds);
    assert.ok(row.ratio! < 1, "the appendix's example hides its gathers");
    // The appendix's walk-through: doubling the sequence roughly halves the ZeRO-3 ratio.
    const longer = computeOverlap({ ...s, seqLength: 8192 });
    assert.ok(longer.ok);
    const ratio2 = longer.rows.find((x) => x.label === gather.name)!.ratio!;
    assert.ok(ratio2 < 0.55 * row.ratio! && ratio2 > 0.4 * row.ratio!, `${ratio2} vs ${row.ratio}`);
  });
  it("windows come from the step with overlap on; exposure from the framework's defaults (Megatron-LM does not overlap)", () => {
    const s = {
      ...defaultOverlapSettings,
      model: "llama-3.1-70b",
      tp: 8,
      dp: 8,
      framework: "megatron" as const,
      zeroStage: 0 as const,
    };
    const r = computeOverlap(s);
    assert.ok(r.ok);
    const ar = r.rows.find((x) => x.label === "gradient all-reduce")!;
    const overlapped = evaluateScenario(overlapScenario(s, true)).step.dpTransfers.find(
      (t) => t.name === "gradient all-reduce",
    )!;
    assert.equal(ar.windowSeconds, overlapped.windowSeconds);
    assert.equal(ar.exposedSeconds, ar.commSeconds);
    const tp = r.rows.find((x) => x.label.startsWith("tensor-parallel"))!;
    assert.equal(tp.commSeconds, 2 * r.evaluation.step.windows.tpCall);
    assert.equal(tp.windowSeconds, r.evaluation.step.windows.layerForward);
    assert.equal(tp.exposedSeconds, r.evaluation.step.breakdown.tp);
  });
  it("the note states the engine's efficiency and bandwidths, no numbers of its own", () => {
    const r = computeOverlap(defaultOverlapSettings);
    assert.ok(r.ok);
    const note = overlapNote(r);
    assert.ok(note.includes(`${Math.round(KERNEL_EFFICIENCY.hopper * 100)}% of the dense bf16 peak (Hopper)`));
    assert.ok(note.includes(`NVLink ring ${Math.round(r.evaluation.cluster.nvlinkRingBusBytesPerSecond / 1e9)} GB/s`));
    assert.ok(note.includes(`${Math.round(r.evaluation.cluster.nicBusBytesPerSecond / 1e9)} GB/s per NIC`));
    assert.doesNotMatch(note, /40%|50 GB\/s/);
    assert.doesNotMatch(summarizeOverlap(r), /NaN|undefined|Infinity/);
  });
  it("static render: a table row per transfer, no NaN or undefined", () => {
    const { document } = parseHTML("<!doctype html><html><body><div id='w'></div></body></html>");
    const root = document.getElementById("w") as unknown as Element;
    overlapCalculatorWidget.renderStatic(root, { ...defaultOverlapSettings, tp: 8, pp: 2, dp: 4, microbatches: 4 });
    const rows = [...root.querySelectorAll(".ovl-table tbody tr")].map(
      (tr) => tr.querySelector("th")!.textContent + " | " + tr.querySelectorAll("td")[4]!.textContent,
    );
    assert.ok(rows.length >= 4, rows.join("\n"));
    // FSDP2 under a pipeline keeps the gathered weights (the engine's default): one gather per step, not per layer.
    assert.ok(
      rows.some((r) => /^parameter all-gather \(next step's first forward\) \| /.test(r)),
      rows.join("\n"),
    );
    assert.ok(
      rows.some((r) => /^tensor-parallel all-gathers and reduce-scatters, one layer's forward \| can hide/.test(r)),
    );
    assert.ok(rows.some((r) => /^pipeline send/.test(r)));
    assert.equal(root.querySelectorAll("select[name=framework]").length, 1);
    assert.doesNotMatch(root.innerHTML, /NaN|undefined|Infinity/);
  });
  it("bad settings and hostile control input give messages naming the field", () => {
    assert.throws(() => overlapCalculatorWidget.parseSettings({ tp: 3 }), WidgetSettingsError);
    assert.throws(() => overlapCalculatorWidget.parseSettings({ model: "gpt-5" }), WidgetSettingsError);
    assert.throws(() => overlapCalculatorWidget.parseSettings({ framework: "jax" }), WidgetSettingsError);
    assert.equal(overlapCalculatorWidget.parseSettings({ zeroStage: 1 }).framework, "megatron");
    assert.equal(overlapCalculatorWidget.parseSettings({ framework: "deepspeed" }).zeroStage, 1);
    for (const v of ["", "-1", "0", "1e40", "abc", "2.5"]) {
      const r = validateOverlapControls(raw({ dp: v }));
      assert.equal(r.ok, false, v);
      if (!r.ok) assert.ok(r.errors.dp, v);
    }
    for (const [over, field, message] of [
      [{ tp: "5" }, "tp", /tp \(5\) must divide/],
      [{ tp: "16" }, "tp", /larger than one NVLink domain/],
      [{ framework: "megatron" }, "zeroStage", /does not run ZeRO stage 3/],
      [{ framework: "ddp", zeroStage: "0", tp: "2", dp: "32" }, "framework", /PyTorch DDP/],
      [{ framework: "nonsense" }, "framework", /Choose a framework/],
    ] as const) {
      const r = validateOverlapControls(raw(over));
      assert.equal(r.ok, false, JSON.stringify(over));
      if (!r.ok) assert.match(r.errors[field] ?? "", message, JSON.stringify(r.errors));
    }
  });
  it("formats durations", () => {
    assert.equal(formatSeconds(0.6323), "632 ms");
    assert.equal(formatSeconds(0.000168), "168 µs");
    assert.equal(formatSeconds(1.5), "1.5 s");
  });
});
