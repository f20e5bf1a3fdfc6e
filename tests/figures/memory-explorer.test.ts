import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { parseHTML } from "linkedom";
import {
  MODEL_PRESETS,
  countParameters,
  evaluateScenario,
  findGpu,
  frameworkLayout,
  memoryBudget,
  parseModelConfig,
  trainingMemory,
  type FrameworkId,
  type ZeroStage,
} from "../../src/model/index.ts";
import {
  defaultFramework,
  memoryCheckboxes,
  memoryControls,
  memoryDefaults,
  type MemoryExplorerState,
} from "../../src/figures/memory-explorer/state.ts";
import {
  computeMemoryView,
  formatBytes,
  memoryCurve,
  resolveModel,
  scenarioOf,
  stageLayersText,
  summarizeMemory,
  titleFor,
  verdictOf,
  type MemoryView,
} from "../../src/figures/memory-explorer/view.ts";
import { gbShown } from "../../src/figures/kit/scenario.ts";
import { parseMemorySettings } from "../../src/figures/memory-explorer/settings.ts";
import { decodeMemoryState, encodeMemoryState, encodeMemoryStateFull } from "../../src/figures/memory-explorer/url.ts";
import { controlValuesOf, readConfigText, readMemoryControls } from "../../src/figures/memory-explorer/controls.ts";
import { memoryExplorerWidget } from "../../src/figures/memory-explorer.ts";
import { WidgetSettingsError } from "../../src/figures/widget.ts";
import { assertApprox } from "../helpers/approx.ts";

const GB = 1e9;
/** A state over the defaults; without a framework, the one a chapter's settings would get. */
const state = (over: Partial<MemoryExplorerState>): MemoryExplorerState => {
  const s = { ...memoryDefaults, ...over };
  return over.framework ? s : { ...s, framework: defaultFramework(s) };
};
const fitsText = (gb: string) => `Fits: ${gb} GB per GPU, within 72.0 GB usable of 80 GB (90%).`;
const oomText = (gb: string, gpu = "H100 SXM5’s 80 GB", budget = "72.0 GB usable of 80 GB (90%)") =>
  `Out of memory: ${gb} GB per GPU, more than the ${gpu}; the budget is ${budget}.`;

function render(raw: unknown) {
  const { document } = parseHTML("<!doctype html><html><body><div id=root></div></body></html>");
  const root = document.getElementById("root")!;
  memoryExplorerWidget.renderStatic(root, memoryExplorerWidget.parseSettings(raw));
  return root;
}

function settingsError(raw: unknown): WidgetSettingsError {
  try {
    parseMemorySettings(raw);
  } catch (err) {
    assert.ok(err instanceof WidgetSettingsError, String(err));
    return err;
  }
  assert.fail(`accepted ${JSON.stringify(raw)}`);
}

describe("memory-explorer: numbers from the engine", () => {
  /** Bytes per parameter of a profile's per-parameter stores for a dense model sharded over d (no gathered units), and its fixed buffers. */
  const layoutBytes = (framework: FrameworkId, zero: ZeroStage, d: number) => {
    const { layout } = frameworkLayout(framework, zero);
    const stores = [layout.weights, layout.gradients, layout.master, layout.moments, ...(layout.extra ?? [])];
    return {
      perParameter: stores.reduce((a, st) => a + st.bytes / (st.sharded ? d : 1), 0),
      fixed: (layout.fixedBuffers ?? []).reduce((a, b) => a + b.bytes * b.count, 0),
    };
  };
  const modelStates = (v: MemoryView) =>
    v.memory.perGpu.parameters + v.memory.perGpu.gradients + v.memory.perGpu.optimizer;

  test("chapter 2's running example (Llama 3.2 1B, s = 4,096, b = 4, FlashAttention) under PyTorch DDP: the profile's stores, the activations, the budget", () => {
    const view = computeMemoryView(state({ preset: "llama-3.2-1b", microBatch: 4 }));
    assert.equal(view.state.framework, "ddp");
    const generic = trainingMemory(MODEL_PRESETS.find((p) => p.id === "llama-3.2-1b")!.config, {
      seqLength: 4096,
      microBatchSize: 4,
    });
    const psi = view.memory.stages[0]!.parameterCount;
    assertApprox(modelStates(view), psi * layoutBytes("ddp", 0, 1).perParameter, { rel: 1e-12 });
    assert.equal(view.memory.perGpu.activations, generic.perGpu.activations);
    assert.equal(view.verdict.kind, "fits");
    assert.equal(view.verdict.text, fitsText(gbShown(view.memory.perGpu.total)));
    assert.equal(view.verdict.gb, gbShown(view.memory.perGpu.total));
    assertApprox(
      view.rows.reduce((s, r) => s + r.bytes, 0),
      view.memory.perGpu.total,
      { rel: 1e-12 },
    );
  });

  test("the view is the engine's evaluation of the state's scenario, byte for byte", () => {
    for (const over of [
      {},
      { zero: 1 as const, dp: 8 },
      { preset: "llama-3.1-70b", seqLength: 8192, zero: 1 as const, dp: 8, tp: 8, sp: true },
      { preset: "llama-3.1-70b", zero: 3 as const, dp: 16, tp: 4, pp: 2, microbatches: 4, framework: "fsdp2" as const },
      { preset: "mixtral-8x7b", zero: 1 as const, dp: 8, ep: 8, tp: 2, framework: "megatron" as const },
    ]) {
      const s = state(over);
      const view = computeMemoryView(s);
      const direct = evaluateScenario(scenarioOf(s, resolveModel(s).arch));
      assert.equal(view.evaluation.bytesPerGpu, direct.bytesPerGpu, JSON.stringify(over));
      assert.deepEqual(view.memory.perGpu, direct.memory.perGpu);
      assert.equal(view.budget.usableBytes, memoryBudget(view.gpu).usableBytes);
    }
  });

  test("the stage split: trimmed gives one layer fewer on each end stage, priced with those layers; even keeps the memory model's split", () => {
    const trimmed = state({ preset: "llama-3.1-70b", tp: 8, sp: true, pp: 4, microbatches: 8, split: "trimmed" });
    const view = computeMemoryView(trimmed);
    assert.deepEqual(view.memory.setup.stageLayers, [19, 21, 21, 19]);
    assert.deepEqual(view.evaluation.step.layout.stageLayers, [19, 21, 21, 19]);
    const direct = trainingMemory(resolveModel(trimmed).arch, {
      ...view.evaluation.step.memorySetup,
      stageLayers: [19, 21, 21, 19],
    });
    assert.deepEqual(view.memory.perGpu, direct.perGpu);
    const even = computeMemoryView({ ...trimmed, split: "even" });
    assert.deepEqual(even.memory.setup.stageLayers, [20, 20, 20, 20]);
    assert.notEqual(view.evaluation.bytesPerGpu, even.evaluation.bytesPerGpu);
    assert.match(summarizeMemory(view), /layers per stage 19, 21, 21, 19\)/);
    // 80 layers over 3 stages: even is the memory model's 27, 27, 26; trimmed 26, 28, 26.
    const three = { ...trimmed, pp: 3, microbatches: 6 };
    assert.deepEqual(computeMemoryView({ ...three, split: "even" }).memory.setup.stageLayers, [27, 27, 26]);
    assert.deepEqual(computeMemoryView(three).memory.setup.stageLayers, [26, 28, 26]);
    // Without a pipeline the split changes nothing.
    const flat = state({ preset: "llama-3.1-70b", tp: 8, sp: true, zero: 1, dp: 8 });
    assert.deepEqual(computeMemoryView({ ...flat, split: "trimmed" }).memory, computeMemoryView(flat).memory);
    assert.equal(stageLayersText([7, 9, 9, 7]), "7, 9, 9, 7");
    assert.equal(stageLayersText([7, ...Array<number>(14).fill(8), 7]), "7, 8 (×14), 7");
    assert.equal(stageLayersText([5, 6, 6, 6, 6, 6, 6, 6, 6, 5, 5]), "5, 6 (×8), 5, 5");
  });

  test("one GPU holds every published parameter: Llama 3.1 8B's 8,030,261,248", () => {
    const view = computeMemoryView(state({}));
    assert.equal(view.memory.stages[0].parameterCount, 8_030_261_248);
    assert.equal(view.totalParameters, 8_030_261_248);
  });

  test("model states follow the framework profile's state layout, sharded over d", () => {
    const psi = 8_030_261_248;
    for (const [framework, zero] of [
      ["ddp", 0],
      ["megatron", 0],
      ["megatron", 1],
      ["deepspeed", 1],
      ["deepspeed", 2],
    ] as const) {
      const v = computeMemoryView(state({ dp: 8, zero, framework }));
      const expected = layoutBytes(framework, zero, 8);
      assertApprox(
        modelStates(v),
        psi * expected.perParameter + expected.fixed,
        { rel: 1e-12 },
        `${framework} ${zero}`,
      );
    }
    // Megatron-LM's distributed optimizer keeps its fp32 gradient buffer whole: 2 + 4 + 12/d.
    assert.equal(layoutBytes("megatron", 1, 8).perParameter, 2 + 4 + 12 / 8);
  });

  test("each formula's terms reproduce the engine's value, and each per-parameter term its substituted numbers (every framework and stage it runs, TP and PP)", () => {
    for (const [framework, zero, dp, tp, pp] of [
      ["ddp", 0, 4, 1, 1],
      ["megatron", 0, 1, 8, 1],
      ["megatron", 1, 8, 4, 4],
      ["deepspeed", 1, 8, 1, 1],
      ["deepspeed", 2, 16, 2, 1],
      ["deepspeed", 3, 64, 8, 1],
      ["fsdp2", 3, 16, 4, 1],
      ["fsdp2", 3, 16, 4, 2],
    ] as const) {
      const v = computeMemoryView(state({ preset: "llama-3.1-70b", framework, zero, dp, tp, pp, microbatches: 8 }));
      const st = v.memory.stages[v.memory.peakStage]!;
      for (const row of v.rows) {
        const where = `${row.key} ${framework} z${zero} d${dp} t${tp} p${pp}: ${row.formula}`;
        assertApprox(
          row.terms.reduce((a, t) => a + t.bytes, 0),
          row.bytes,
          { rel: 1e-9 },
          where,
        );
        assert.equal(row.formula, row.terms.map((t) => t.text).join(" + ") || "none kept on this GPU");
        for (const t of row.terms) {
          if (!t.perParameter) continue;
          const { parameters, bytesPerParameter, divisor } = t.perParameter;
          assertApprox(t.bytes, (parameters * bytesPerParameter) / divisor, { rel: 1e-12 }, where);
          assert.ok(t.text.includes(`× ${bytesPerParameter} bytes`), t.text);
          assert.equal(t.text.includes(`÷ ${divisor} (sharded`), divisor > 1, t.text);
        }
      }
      if (zero === 3 && !(framework === "fsdp2" && pp > 1))
        assert.match(v.rows.find((r) => r.key === "parameters")!.formula, /gathered whole/);
      const act = v.rows.find((r) => r.key === "activations")!;
      assert.ok(act.formula.includes(`${st.layerCount} layers ×`), act.formula);
      assert.ok(act.formula.includes(`× ${st.inFlightMicrobatches} microbatch`), act.formula);
    }
  });

  test("the TP chapter's preset: Llama 3.1 70B, s = 8,192, t = 8, ZeRO-1 over d = 8: sequence parallelism takes the activations down by t", () => {
    const off = computeMemoryView(state({ preset: "llama-3.1-70b", seqLength: 8192, zero: 1, dp: 8, tp: 8 }));
    assert.equal(off.verdict.kind, "oom");
    assert.equal(off.verdict.text, oomText(gbShown(off.evaluation.bytesPerGpu)));
    const on = computeMemoryView(state({ preset: "llama-3.1-70b", seqLength: 8192, zero: 1, dp: 8, tp: 8, sp: true }));
    assert.ok(on.memory.perGpu.activations < off.memory.perGpu.activations / 2);
    assert.equal(modelStates(on), modelStates(off));
  });

  test("the ZeRO chapter's preset: Llama 3.1 8B, ZeRO-1 over d = 8, s = 4,096, b = 1, under DeepSpeed", () => {
    const v = computeMemoryView(state({ zero: 1, dp: 8 }));
    assert.equal(v.state.framework, "deepspeed");
    assert.equal(v.verdict.text, fitsText(gbShown(v.evaluation.bytesPerGpu)));
  });

  test("verdicts against the one budget: fits up to 90% of the GPU's memory, over it up to 100%, out of memory above", () => {
    const h100 = findGpu("h100-sxm")!;
    const budget = memoryBudget(h100);
    assert.equal(budget.label, "72.0 GB usable of 80 GB (90%)");
    assert.equal(verdictOf(72e9, h100, budget).kind, "fits");
    assert.equal(verdictOf(72.1e9, h100, budget).kind, "over");
    assert.equal(verdictOf(80e9, h100, budget).kind, "over");
    assert.equal(verdictOf(80.1e9, h100, budget).kind, "oom");
    assert.equal(
      verdictOf(76.6e9, h100, budget).text,
      "Does not fit: 76.6 GB per GPU is more than 72.0 GB usable of 80 GB (90%); the rest is for the CUDA context, NCCL buffers and fragmentation.",
    );
  });

  test("the title follows the chosen model", () => {
    const t = "Memory per GPU of Llama 3.1 70B with tensor parallelism";
    assert.equal(
      titleFor(t, "Llama 3.1 70B", "Mixtral 8x7B"),
      "Memory per GPU of Mixtral 8x7B with tensor parallelism",
    );
    assert.equal(titleFor("Memory per GPU with ZeRO", "Llama 3.1 8B", "Mixtral 8x7B"), "Memory per GPU with ZeRO");
  });

  test("the memory curve is the model's total at each sequence length, includes the current point, and leaves gaps (not NaN) where the model refuses", () => {
    const s = state({ preset: "llama-3.2-1b", seqLength: 6000 });
    const curve = memoryCurve(s, "seqLength");
    assert.deepEqual(
      curve.map((p) => p.x),
      [512, 1024, 2048, 4096, 6000, 8192, 16384, 32768, 65536, 131072],
    );
    const arch = resolveModel(s).arch;
    for (const p of curve) assert.equal(p.total, evaluateScenario(scenarioOf(s, arch, { seqLength: p.x })).bytesPerGpu);
    const cpState = state({ cp: 3, seqLength: 3072 });
    const withCp = memoryCurve(cpState, "seqLength");
    assert.equal(withCp.find((p) => p.x === 4096)!.total, null);
    assert.ok(withCp.find((p) => p.x === 3072)!.total! > 0);
    // A gap exactly where the engine refuses the scenario; elsewhere the engine's bytes.
    for (const [st, axis] of [
      [cpState, "seqLength"],
      [state({ preset: "llama-3.1-70b", tp: 8, sp: true, pp: 2, zero: 1, dp: 4, microbatches: 4 }), "seqLength"],
      [state({ preset: "mixtral-8x7b", zero: 3, dp: 8, ep: 8, framework: "fsdp2" }), "microBatch"],
    ] as const) {
      const arch = resolveModel(st).arch;
      for (const p of memoryCurve(st, axis)) {
        const over = axis === "seqLength" ? { seqLength: p.x } : { microBatch: p.x };
        let engine: number | null;
        try {
          engine = evaluateScenario(scenarioOf(st, arch, over)).bytesPerGpu;
        } catch {
          engine = null;
        }
        assert.equal(p.total, engine, `${axis} = ${p.x}`);
      }
    }
    const byBatch = memoryCurve(state({}), "microBatch");
    assert.deepEqual(
      byBatch.map((p) => p.x),
      [1, 2, 4, 8, 16, 32, 64],
    );
    assert.ok(byBatch.every((p, i) => i === 0 || p.total! > byBatch[i - 1].total!));
  });

  test("MoE: DeepSeek-V3 with EP over d × cp shards experts differently, and the formula says so", () => {
    const v = computeMemoryView(
      state({ preset: "deepseek-v3", dp: 64, ep: 64, pp: 16, zero: 1, microbatches: 32, framework: "megatron" }),
    );
    const opt = v.rows.find((r) => r.key === "optimizer")!;
    assert.ok(opt.formula.includes("experts ÷ 1 (d × cp ÷ ep)"), opt.formula);
    assert.ok(opt.formula.includes("dense ÷ 64"), opt.formula);
    assert.ok(Number.isFinite(v.memory.perGpu.total));
  });
});

describe("memory-explorer: settings", () => {
  test("defaults and a chapter's settings with hide and lock", () => {
    const s = parseMemorySettings({});
    assert.deepEqual(
      { ...s, hide: undefined, lock: undefined },
      { ...memoryDefaults, hide: undefined, lock: undefined },
    );
    const c = parseMemorySettings({
      preset: "llama-3.1-8b",
      zero: 3,
      dp: 64,
      hide: ["tp", "pp", "cp", "ep"],
      lock: ["gpu"],
    });
    assert.equal(c.zero, 3);
    assert.equal(c.dp, 64);
    assert.equal(c.framework, "deepspeed");
    assert.deepEqual(c.hide, ["tp", "pp", "cp", "ep"]);
    assert.deepEqual(c.lock, ["gpu"]);
    // Without a framework: DDP for plain data parallelism, Megatron-LM once a model dimension is
    // split, DeepSpeed for ZeRO, FSDP2 for ZeRO-3 with pipeline stages; a named one is kept.
    assert.equal(parseMemorySettings({ preset: "llama-3.1-70b", tp: 8, dp: 8 }).framework, "megatron");
    assert.equal(parseMemorySettings({ preset: "llama-3.1-70b", zero: 3, pp: 2, dp: 8 }).framework, "fsdp2");
    assert.equal(parseMemorySettings({ zero: 1, dp: 8, framework: "megatron" }).framework, "megatron");
  });

  test("every bad setting fails the build naming its field", () => {
    const cases: Array<[unknown, string]> = [
      [{ zeroo: 1 }, "zeroo"],
      [{ preset: "gpt-5" }, "preset"],
      [{ gpu: "h900" }, "gpu"],
      [{ dp: 0 }, "dp"],
      [{ dp: 1e40 }, "dp"],
      [{ seqLength: "long" }, "seqLength"],
      [{ microBatch: 1.5 }, "microBatch"],
      [{ zero: 4 }, "zero"],
      [{ precision: "bf16" }, "precision"],
      [{ framework: "jax" }, "framework"],
      [{ framework: "ddp", tp: 2 }, "framework"],
      [{ framework: "megatron", zero: 3 }, "zero"],
      [{ framework: "deepspeed", zero: 2, pp: 2 }, "pp"],
      [{ tp: 16, preset: "llama-3.1-70b" }, "tp"],
      [{ reshard: "no" }, "reshard"],
      [{ pp: 2, schedule: "afab" }, "schedule"],
      [{ sp: "yes" }, "sp"],
      [{ recompute: "some" }, "recompute"],
      [{ hide: ["tp", "nvlink"] }, "hide"],
      [{ lock: "everything" }, "lock"],
      [{ tp: 3, framework: "megatron" }, "tp"],
      [{ cp: 3, framework: "megatron" }, "cp"],
      [{ ep: 2, framework: "megatron" }, "ep"],
      [{ pp: 33, framework: "megatron" }, "pp"],
      [{ pp: 4, schedule: "interleaved", microbatches: 6, framework: "megatron" }, "microbatches"],
      // The step model checks pp × chunks against the layers first and names pp.
      [{ pp: 4, schedule: "interleaved", chunks: 3, framework: "megatron" }, "pp"],
      [{ preset: "custom" }, "config"],
      [{ config: { model_type: "llama" } }, "config"],
      [{ config: [1, 2] }, "config"],
    ];
    for (const [raw, field] of cases) assert.equal(settingsError(raw).field, field, JSON.stringify(raw));
  });

  test("a config object in the settings is read by the model", () => {
    const gpt2 = MODEL_PRESETS.find((p) => p.id === "gpt2-medium")!;
    const s = parseMemorySettings({ config: gpt2.config });
    assert.equal(s.preset, "custom");
    const v = computeMemoryView(s);
    assert.equal(v.totalParameters, gpt2.publishedTotal);
    assert.deepEqual(v.memory.perGpu, computeMemoryView(state({ preset: "gpt2-medium" })).memory.perGpu);
  });
});

describe("memory-explorer: URL state", () => {
  test("encodes only what differs from the page's settings and restores it", () => {
    const base = state({ zero: 1, dp: 8 });
    assert.equal(encodeMemoryState(base, base), "");
    const changed = state({ zero: 3, dp: 64, sp: true, tp: 8, preset: "llama-3.1-70b" });
    const text = encodeMemoryState(changed, base);
    assert.equal(text, "preset:llama-3.1-70b,zero:3,dp:64,tp:8,sp:1");
    assert.equal(changed.framework, base.framework);
    const back = decodeMemoryState(text, base);
    assert.ok(back.ok);
    if (back.ok) assert.deepEqual(back.state, changed);
  });

  test("a pasted config survives the round trip", () => {
    const cfg = { ...MODEL_PRESETS.find((p) => p.id === "qwen2.5-7b")!.config } as Record<string, unknown>;
    const s = state({ preset: "custom", config: cfg });
    const text = encodeMemoryState(s, memoryDefaults);
    assert.match(text, /^preset:custom,config:[A-Za-z0-9_-]+$/);
    const back = decodeMemoryState(text, memoryDefaults);
    assert.ok(back.ok);
    if (back.ok) assert.deepEqual(back.state.config, cfg);
  });

  test("every value from a link is validated; any bad one rejects the link with a message", () => {
    for (const bad of [
      "dp:0",
      "dp:1e40",
      "dp:-3",
      "dp:abc",
      "dp:",
      "zero:9",
      "preset:llama-9",
      "gpu:tpu",
      "sp:maybe",
      "framework:jax",
      "precision:fp32",
      "zero:3",
      "tp:3",
      "nonsense:1",
      "preset:custom",
      "preset:custom,config:!!!",
      "preset:custom,config:e30",
    ]) {
      const r = decodeMemoryState(bad, memoryDefaults);
      assert.equal(r.ok, false, bad);
      if (!r.ok) assert.match(r.message, /^The settings in this page’s link were not used: setting "/, bad);
    }
  });

  test("the stage split survives the round trip; a split the layers do not allow rejects the link, naming split", () => {
    const s = state({ preset: "llama-3.1-70b", tp: 8, sp: true, pp: 4, microbatches: 8, split: "trimmed" });
    const text = encodeMemoryState(s, memoryDefaults);
    assert.match(text, /(^|,)split:trimmed(,|$)/);
    const back = decodeMemoryState(text, memoryDefaults);
    assert.ok(back.ok);
    if (back.ok) assert.deepEqual(back.state, s);
    const full = decodeMemoryState(encodeMemoryStateFull(s), state({ zero: 1, dp: 8 }));
    assert.ok(full.ok);
    if (full.ok) assert.equal(full.state.split, "trimmed");
    for (const bad of ["split:uneven", "split:7-9-9-7", "pp:2,microbatches:2,framework:megatron,split:trimmed"]) {
      const r = decodeMemoryState(bad, memoryDefaults);
      assert.equal(r.ok, false, bad);
      if (!r.ok) assert.match(r.message, /^The settings in this page’s link were not used: setting "split"/, bad);
    }
  });

  test("controls the chapter locks are not changed by a link; the rest are", () => {
    const r = decodeMemoryState("dp:16,tp:8,gpu:b200,framework:megatron", memoryDefaults, ["tp", "gpu"]);
    assert.ok(r.ok);
    if (r.ok) {
      assert.equal(r.state.dp, 16);
      assert.equal(r.state.tp, 1);
      assert.equal(r.state.gpu, "h100-sxm");
      assert.equal(r.state.framework, "megatron");
      assert.deepEqual(r.ignored, ["tp", "gpu"]);
    }
  });

  test("a full link sets the same state over any page's settings", () => {
    const s = state({ preset: "llama-3.1-70b", zero: 3, dp: 16, tp: 4, pp: 2, microbatches: 4, framework: "fsdp2" });
    const text = encodeMemoryStateFull(s);
    for (const base of [memoryDefaults, state({ zero: 1, dp: 8 }), state({ preset: "llama-3.2-1b", microBatch: 4 })]) {
      const back = decodeMemoryState(text, base);
      assert.ok(back.ok);
      if (back.ok) assert.deepEqual(back.state, s);
    }
  });
});

describe("memory-explorer: controls", () => {
  test("the form values of a state read back to the same state and view", () => {
    const s = state({
      preset: "llama-3.1-70b",
      tp: 8,
      sp: true,
      pp: 4,
      schedule: "interleaved",
      microbatches: 8,
      chunks: 2,
      zero: 1,
      dp: 8,
    });
    const r = readMemoryControls(controlValuesOf(s));
    assert.ok(r.ok);
    if (r.ok) {
      assert.deepEqual(r.state, s);
      assert.deepEqual(r.view.memory.perGpu, computeMemoryView(s).memory.perGpu);
    }
  });

  test("hostile text in every numeric field is a message on that field, never an exception", () => {
    const numeric = ["seqLength", "microBatch", "dp", "tp", "pp", "cp", "ep", "microbatches", "chunks"] as const;
    for (const name of numeric) {
      for (const value of ["-5", "0", "1e40", "many", "", "1.5", "NaN", "Infinity", "0x10"]) {
        const v = { ...controlValuesOf(memoryDefaults), [name]: value };
        const r = readMemoryControls(v);
        assert.equal(r.ok, false, `${name}=${value}`);
        if (!r.ok) {
          assert.equal(r.problems[0].control, name);
          assert.ok(r.problems[0].message.length > 20);
        }
      }
    }
  });

  test("combinations the model refuses are messages on the control to change", () => {
    const m = { framework: "megatron" } as const;
    const cases: Array<[Partial<MemoryExplorerState>, string, RegExp]> = [
      [{ ...m, tp: 3 }, "tp", /^tp \(3\) must divide the number of attention heads \(32\)\.$/],
      [{ ...m, cp: 3 }, "cp", /cp \(3\) must divide the sequence length \(4096\)/],
      [{ ...m, ep: 2 }, "ep", /mixture-of-experts/],
      [{ ...m, pp: 40 }, "pp", /exceeds the number of layers \(32\)|stageLayers/],
      [{ ...m, pp: 4, schedule: "interleaved", microbatches: 6 }, "microbatches", /multiple of pp/],
      [
        { ...m, pp: 4, schedule: "interleaved", chunks: 3 },
        "pp",
        /pp × chunks \(12\) must divide the number of layers/,
      ],
      [{ ...m, tp: 16 }, "tp", /larger than one NVLink domain/],
      [{ framework: "ddp", tp: 2 }, "framework", /PyTorch DDP replicates the whole model/],
      [{ ...m, pp: 2, microbatches: 2, split: "trimmed" }, "split", /32 layers do not split over 2 stages/],
      [{ framework: "megatron", zero: 2, dp: 8 }, "zero", /does not run ZeRO stage 2/],
      [{ framework: "fsdp2", zero: 1, dp: 8 }, "zero", /does not run ZeRO stage 1/],
      [{ framework: "deepspeed", zero: 3, pp: 2, dp: 4 }, "pp", /pipeline engine runs ZeRO stage 0 or 1/],
    ];
    for (const [over, control, message] of cases) {
      const r = readMemoryControls(controlValuesOf(state(over)));
      assert.equal(r.ok, false, JSON.stringify(over));
      if (!r.ok) {
        assert.equal(r.problems[0].control, control);
        assert.match(r.problems[0].message, message);
      }
    }
  });

  test("a pasted config: malformed JSON, a non-object, a missing key and an empty box are messages on the model control", () => {
    for (const [text, message] of [
      ["{ hidden_size: 4096", /^Not valid JSON/],
      ["[1, 2]", /JSON object/],
      ['"llama"', /JSON object/],
      ["", /Paste the contents/],
      ['{"model_type": "llama"}', /^This config cannot be read: hidden_size must be a positive integer/],
      ['{"n_embd": -1, "model_type": "gpt2"}', /n_embd must be a positive integer/],
      [`{"a": "${"x".repeat(30_000)}"}`, /longer than a config\.json/],
    ] as const) {
      const r = readMemoryControls({ ...controlValuesOf(memoryDefaults), preset: "custom", configText: text });
      assert.equal(r.ok, false, text.slice(0, 30));
      if (!r.ok) {
        assert.equal(r.problems[0].control, "preset");
        assert.match(r.problems[0].message, message);
      }
    }
    assert.equal(readConfigText(JSON.stringify(MODEL_PRESETS[0].config)).ok, true);
  });

  test("fuzz: any text in any field gives a view with finite numbers or named problems", () => {
    const textFields = memoryControls.filter((c) => !(memoryCheckboxes as readonly string[]).includes(c));
    fc.assert(
      fc.property(
        fc.constantFrom(...textFields),
        fc.oneof(fc.string(), fc.double().map(String), fc.integer().map(String)),
        (field, value) => {
          const r = readMemoryControls({ ...controlValuesOf(state({ preset: "llama-3.2-1b" })), [field]: value });
          if (r.ok) {
            for (const k of ["parameters", "gradients", "optimizer", "activations", "total"] as const)
              assert.ok(Number.isFinite(r.view.memory.perGpu[k]));
            assert.ok(!/NaN|undefined|Infinity/.test(summarizeMemory(r.view)));
          } else {
            assert.ok(
              r.problems.length > 0 &&
                r.problems.every(
                  (p) => (memoryControls as readonly string[]).includes(p.control) && p.message.length > 0,
                ),
            );
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("memory-explorer: static drawing", () => {
  test("chapter 2's widget: one bar of four segments with formula titles, the H100 line, a curve, the summary and the formula table", () => {
    const root = render({ preset: "llama-3.2-1b", microBatch: 4, hide: ["zero", "dp", "tp", "pp", "cp", "ep"] });
    assert.equal(root.querySelectorAll("svg.mx-bars g.mx-bar").length, 1);
    const segs = root.querySelectorAll("svg.mx-bars rect.mx-seg");
    assert.equal(segs.length, 4);
    for (const seg of segs) assert.match(seg.querySelector("title")!.textContent!, /GB = .*bytes|GB = .*layers/);
    assert.equal(root.querySelectorAll("line.mx-capacity").length, 2);
    assert.match(root.querySelector("svg.mx-bars")!.textContent!, /H100 SXM5: 80 GB/);
    assert.ok(root.querySelector("svg.mx-curve path.mx-line-total")!.getAttribute("d")!.startsWith("M"));
    const view = computeMemoryView(state({ preset: "llama-3.2-1b", microBatch: 4 }));
    const gb = gbShown(view.evaluation.bytesPerGpu);
    assert.equal(root.querySelector("p.mx-verdict")!.textContent, fitsText(gb));
    assert.equal(root.querySelector("p.mx-verdict")!.getAttribute("data-total-gb"), gb);
    assert.equal(root.querySelector("p.mx-verdict")!.getAttribute("data-verdict"), "fits");
    assert.match(root.querySelector("svg.mx-bars")!.textContent!, /usable: 72 GB/);
    assert.match(
      root.querySelector("p.widget-summary")!.textContent!,
      new RegExp(`total ${gb.replace(".", "\\.")} GB`),
    );
    assert.equal(root.querySelectorAll("table.mx-formula-table tbody tr").length, 5);
    assert.ok(!/NaN|undefined|Infinity/.test(root.innerHTML));
  });

  test("with pipeline parallelism there is one bar per stage and the fullest is labelled", () => {
    const root = render({ preset: "llama-3.1-70b", tp: 8, pp: 4, microbatches: 8, zero: 1, dp: 8 });
    assert.equal(root.querySelectorAll("svg.mx-bars g.mx-bar").length, 4);
    const view = computeMemoryView(
      parseMemorySettings({ preset: "llama-3.1-70b", tp: 8, pp: 4, microbatches: 8, zero: 1, dp: 8 }),
    );
    assert.match(root.querySelector("svg.mx-bars")!.textContent!, new RegExp(`fullest: ${view.memory.peakStage + 1}`));
    assert.ok(root.querySelector("svg.mx-bars")!.textContent!.includes(formatBytes(view.memory.perGpu.total)));
  });

  test("a model far over the GPU still draws finite bars (Llama 3.1 405B on one GPU)", () => {
    const root = render({ preset: "llama-3.1-405b" });
    const view = computeMemoryView(state({ preset: "llama-3.1-405b" }));
    assert.equal(root.querySelector("p.mx-verdict")!.textContent!, oomText(gbShown(view.evaluation.bytesPerGpu)));
    for (const rect of root.querySelectorAll("rect")) {
      for (const attr of ["x", "y", "width", "height"])
        assert.ok(Number.isFinite(Number(rect.getAttribute(attr) ?? 0)), `${attr}`);
    }
  });

  test("model parameters per preset are the published ones", () => {
    for (const p of MODEL_PRESETS)
      assert.equal(countParameters(parseModelConfig(p.config).architecture).total, p.publishedTotal, p.id);
    void GB;
  });
});
