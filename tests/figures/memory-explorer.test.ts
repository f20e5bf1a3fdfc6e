import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { parseHTML } from "linkedom";
import {
  MODEL_PRESETS,
  countParameters,
  findGpu,
  modelStateBytes,
  parseModelConfig,
  trainingMemory,
} from "../../src/model/index.ts";
import { memoryControls, memoryDefaults, type MemoryExplorerState } from "../../src/figures/memory-explorer/state.ts";
import {
  computeMemoryView,
  formatBytes,
  memoryCurve,
  summarizeMemory,
  verdictOf,
} from "../../src/figures/memory-explorer/view.ts";
import { parseMemorySettings } from "../../src/figures/memory-explorer/settings.ts";
import { decodeMemoryState, encodeMemoryState } from "../../src/figures/memory-explorer/url.ts";
import { controlValuesOf, readConfigText, readMemoryControls } from "../../src/figures/memory-explorer/controls.ts";
import { memoryExplorerWidget } from "../../src/figures/memory-explorer.ts";
import { WidgetSettingsError } from "../../src/figures/widget.ts";
import { assertApprox } from "../helpers/approx.ts";

const GB = 1e9;
const state = (over: Partial<MemoryExplorerState>): MemoryExplorerState => ({ ...memoryDefaults, ...over });

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

describe("memory-explorer: numbers from the model", () => {
  test("chapter 2's running example (Llama 3.2 1B, s = 4,096, b = 4, bf16, FlashAttention) totals 48.2 GB and fits an H100 at 60%", () => {
    const view = computeMemoryView(state({ preset: "llama-3.2-1b", microBatch: 4 }));
    const direct = trainingMemory(MODEL_PRESETS.find((p) => p.id === "llama-3.2-1b")!.config, {
      seqLength: 4096,
      microBatchSize: 4,
    });
    assert.deepEqual(view.memory.perGpu, direct.perGpu);
    assert.equal(formatBytes(view.memory.perGpu.total), "48.2 GB");
    assert.equal(view.verdict.kind, "fits");
    assert.equal(view.verdict.text, "Fits: 48.2 GB of 80 GB (60%).");
    assert.equal(
      view.rows.reduce((s, r) => s + r.bytes, 0),
      view.memory.perGpu.total,
    );
  });

  test("one GPU holds every published parameter: Llama 3.1 8B's 8,030,261,248", () => {
    const view = computeMemoryView(state({}));
    assert.equal(view.memory.stages[0].parameterCount, 8_030_261_248);
    assert.equal(view.totalParameters, 8_030_261_248);
  });

  test("model states match the ZeRO table of chapter 3 (Llama 3.1 8B, d = 8: 128.5, 44.2, 30.1, 16.1 GB)", () => {
    const expected = ["128.5 GB", "44.2 GB", "30.1 GB", "16.1 GB"];
    for (const zero of [0, 1, 2, 3] as const) {
      const v = computeMemoryView(state({ zero, dp: 8 }));
      const p = v.memory.perGpu;
      const states = p.parameters + p.gradients + p.optimizer;
      assert.equal(states, modelStateBytes(8_030_261_248, { zeroStage: zero, dp: 8 }).total);
      assert.equal(formatBytes(states), expected[zero], `ZeRO-${zero}`);
    }
  });

  test("each formula's substituted numbers reproduce the model's value (dense model, every ZeRO stage, TP and PP)", () => {
    for (const [zero, dp, tp, pp] of [
      [0, 1, 1, 1],
      [1, 8, 1, 1],
      [2, 16, 2, 1],
      [3, 64, 8, 1],
      [1, 8, 4, 4],
    ] as const) {
      const v = computeMemoryView(state({ preset: "llama-3.1-70b", zero, dp, tp, pp, microbatches: 8 }));
      const st = v.memory.stages[v.memory.peakStage];
      const beta = { parameters: 2, gradients: 2, optimizer: 12 };
      const sharded = { parameters: zero >= 3, gradients: zero >= 2, optimizer: zero >= 1 };
      for (const key of ["parameters", "gradients", "optimizer"] as const) {
        const row = v.rows.find((r) => r.key === key)!;
        assertApprox(
          (st.parameterCount * beta[key]) / (sharded[key] ? dp : 1),
          row.bytes,
          { rel: 1e-6 },
          `${key} z${zero} d${dp} t${tp} p${pp}`,
        );
        assert.ok(row.formula.includes(`× ${beta[key]} bytes`), row.formula);
        assert.equal(row.formula.includes(`÷ ${dp} (ZeRO`), sharded[key] && dp > 1, row.formula);
      }
      const act = v.rows.find((r) => r.key === "activations")!;
      assert.ok(act.formula.includes(`${st.layerCount} layers ×`), act.formula);
      assert.ok(act.formula.includes(`× ${st.inFlightMicrobatches} microbatch`), act.formula);
    }
  });

  test("the TP chapter's preset: Llama 3.1 70B, s = 8,192, t = 8, ZeRO-1 over d = 8 runs out of memory without SP (109.4 GB) and fits with it (71.6 GB)", () => {
    const off = computeMemoryView(state({ preset: "llama-3.1-70b", seqLength: 8192, zero: 1, dp: 8, tp: 8 }));
    assert.equal(off.verdict.text, "Out of memory: 109.4 GB needed, the H100 SXM5 has 80 GB.");
    const on = computeMemoryView(state({ preset: "llama-3.1-70b", seqLength: 8192, zero: 1, dp: 8, tp: 8, sp: true }));
    assert.equal(on.verdict.text, "Fits: 71.6 GB of 80 GB (89%).");
  });

  test("the ZeRO chapter's preset: Llama 3.1 8B, ZeRO-1 over d = 8, s = 4,096, b = 1 needs 64.6 GB", () => {
    const v = computeMemoryView(state({ zero: 1, dp: 8 }));
    assert.equal(v.verdict.text, "Fits: 64.6 GB of 80 GB (81%).");
  });

  test("verdict thresholds: fits up to 90% of the GPU, tight up to 100%, out of memory above", () => {
    const h100 = findGpu("h100-sxm")!;
    assert.equal(verdictOf(72e9, h100).kind, "fits");
    assert.equal(verdictOf(72.1e9, h100).kind, "tight");
    assert.equal(verdictOf(80e9, h100).kind, "tight");
    assert.equal(verdictOf(80.1e9, h100).kind, "oom");
  });

  test("the memory curve is the model's total at each sequence length, includes the current point, and leaves gaps (not NaN) where the model refuses", () => {
    const s = state({ preset: "llama-3.2-1b", seqLength: 6000 });
    const curve = memoryCurve(s, "seqLength");
    assert.deepEqual(
      curve.map((p) => p.x),
      [512, 1024, 2048, 4096, 6000, 8192, 16384, 32768, 65536, 131072],
    );
    for (const p of curve) {
      const m = trainingMemory(MODEL_PRESETS.find((x) => x.id === "llama-3.2-1b")!.config, { seqLength: p.x });
      assert.equal(p.total, m.perGpu.total);
    }
    const withCp = memoryCurve(state({ cp: 3, seqLength: 3072 }), "seqLength");
    assert.equal(withCp.find((p) => p.x === 4096)!.total, null);
    assert.ok(withCp.find((p) => p.x === 3072)!.total! > 0);
    const byBatch = memoryCurve(state({}), "microBatch");
    assert.deepEqual(
      byBatch.map((p) => p.x),
      [1, 2, 4, 8, 16, 32, 64],
    );
    assert.ok(byBatch.every((p, i) => i === 0 || p.total! > byBatch[i - 1].total!));
  });

  test("MoE: DeepSeek-V3 with EP over d × cp shards experts differently, and the formula says so", () => {
    const v = computeMemoryView(state({ preset: "deepseek-v3", dp: 64, ep: 64, pp: 16, zero: 1, microbatches: 32 }));
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
      lock: ["precision"],
    });
    assert.equal(c.zero, 3);
    assert.equal(c.dp, 64);
    assert.deepEqual(c.hide, ["tp", "pp", "cp", "ep"]);
    assert.deepEqual(c.lock, ["precision"]);
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
      [{ precision: "fp16" }, "precision"],
      [{ sp: "yes" }, "sp"],
      [{ recompute: "some" }, "recompute"],
      [{ hide: ["tp", "nvlink"] }, "hide"],
      [{ lock: "everything" }, "lock"],
      [{ tp: 3 }, "tp"],
      [{ cp: 3 }, "cp"],
      [{ ep: 2 }, "ep"],
      [{ pp: 33 }, "pp"],
      [{ pp: 4, schedule: "interleaved", microbatches: 6 }, "microbatches"],
      [{ pp: 4, schedule: "interleaved", chunks: 3 }, "chunks"],
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

  test("controls the chapter hides or locks are not changed by a link", () => {
    const r = decodeMemoryState("dp:16,tp:8,precision:fp32", memoryDefaults, ["tp", "precision"]);
    assert.ok(r.ok);
    if (r.ok) {
      assert.equal(r.state.dp, 16);
      assert.equal(r.state.tp, 1);
      assert.equal(r.state.precision, "bf16");
      assert.deepEqual(r.ignored, ["tp", "precision"]);
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
    const cases: Array<[Partial<MemoryExplorerState>, string, RegExp]> = [
      [{ tp: 3 }, "tp", /^tp \(3\) must divide the number of attention heads \(32\)\.$/],
      [{ cp: 3 }, "cp", /cp \(3\) must divide the sequence length \(4096\)/],
      [{ ep: 2 }, "ep", /mixture-of-experts/],
      [{ pp: 40 }, "pp", /exceeds the number of layers \(32\)/],
      [{ pp: 4, schedule: "interleaved", microbatches: 6 }, "microbatches", /multiple of pp/],
      [{ pp: 4, schedule: "interleaved", chunks: 3 }, "chunks", /must divide the number of layers/],
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
    const textFields = memoryControls.filter((c) => c !== "fp32GradAccum" && c !== "sp");
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
    assert.equal(root.querySelector("p.mx-verdict")!.textContent, "Fits: 48.2 GB of 80 GB (60%).");
    assert.match(root.querySelector("p.widget-summary")!.textContent!, /total 48\.2 GB/);
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
    assert.match(
      root.querySelector("p.mx-verdict")!.textContent!,
      /^Out of memory: 6\.76 TB needed, the H100 SXM5 has 80 GB\.$/,
    );
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

describe("memory-explorer: the numbers the browser tests expect", () => {
  test("chapter presets and the control changes of tests/browser/memory-explorer.test.ts", () => {
    const one = { preset: "llama-3.2-1b", microBatch: 4 };
    const cases: Array<[Partial<MemoryExplorerState>, string]> = [
      [{ ...one, microBatch: 1 }, "Fits: 26.9 GB of 80 GB (34%)."],
      [{ ...one, microBatch: 1, recompute: "full" }, "Fits: 22.2 GB of 80 GB (28%)."],
      [{ ...one, recompute: "full" }, "Fits: 29.4 GB of 80 GB (37%)."],
      [{ ...one, attention: "eager" }, "Out of memory: 118.5 GB needed, the H100 SXM5 has 80 GB."],
      [{ ...one, precision: "fp32" }, "Fits: 68.2 GB of 80 GB (85%)."],
      [{ ...one, fp32GradAccum: true }, "Fits: 53.1 GB of 80 GB (66%)."],
      [{ ...one, preset: "llama-3.2-3b" }, "Out of memory: 101.3 GB needed, the H100 SXM5 has 80 GB."],
      [{ ...one, gpu: "a100-sxm-40gb" }, "Out of memory: 48.2 GB needed, the A100 SXM4 has 40 GB."],
      [
        { ...one, seqLength: 8192 },
        "Fits only just: 76.6 GB of 80 GB (96%), little room for the CUDA context and fragmentation.",
      ],
      [{ zero: 3, dp: 8 }, "Fits: 36.5 GB of 80 GB (46%)."],
      [{ zero: 3, dp: 16 }, "Fits: 28.5 GB of 80 GB (36%)."],
      [
        {
          ...one,
          preset: "custom",
          config: { model_type: "gpt2", n_embd: 1024, n_head: 16, n_layer: 24, vocab_size: 50257, n_positions: 1024 },
        },
        "Fits: 21.9 GB of 80 GB (27%).",
      ],
    ];
    for (const [over, text] of cases)
      assert.equal(computeMemoryView(state(over)).verdict.text, text, JSON.stringify(over));
  });
});
