import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import {
  bytesPerParameter,
  countParameters,
  findModelPreset,
  inFlightMicrobatches,
  korthikantiLayerActivationBytes,
  layerActivations,
  MODEL_PRESETS,
  ModelInputError,
  modelStateBytes,
  parseModelConfig,
  stageLayerIndices,
  storedLayerBytes,
  trainingMemory,
  type Recompute,
  type TrainingSetup,
} from "../../src/model/index.ts";
import { assertApprox } from "../helpers/approx.ts";

const MiB = 2 ** 20;
const config = (id: string) => findModelPreset(id)!.config;

function throwsField(fn: () => unknown, field: string): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof ModelInputError, `expected ModelInputError, got ${String(error)}`);
    assert.equal(error.field, field);
    return true;
  });
}

describe("model states follow rajbhandari2020zero", () => {
  test("bytes per parameter: bf16 mixed 2 + 2 + 12 = 16 (§3.1), fp32 4 + 4 + 8 = 16, fp32 accumulation +4", () => {
    assert.deepEqual(bytesPerParameter("bf16"), { parameters: 2, gradients: 2, optimizer: 12 });
    assert.deepEqual(bytesPerParameter("fp32"), { parameters: 4, gradients: 4, optimizer: 8 });
    assert.deepEqual(bytesPerParameter("bf16", true), { parameters: 2, gradients: 6, optimizer: 12 });
  });
  test("an fp32 gradient buffer that replaces the bf16 gradients gives Megatron-LM's 18 bytes (bf16 params, fp32 grads); alongside them, 20", () => {
    assert.deepEqual(bytesPerParameter("bf16", true, "replace"), { parameters: 2, gradients: 4, optimizer: 12 });
    assert.deepEqual(bytesPerParameter("bf16", false, "replace"), bytesPerParameter("bf16"));
    assert.equal(modelStateBytes(1e9, { fp32GradAccum: true, fp32GradBuffer: "replace" }).total, 18e9);
    assert.equal(modelStateBytes(1e9, { fp32GradAccum: true }).total, 20e9);
    assert.equal(
      modelStateBytes(1e9, { fp32GradAccum: true, fp32GradBuffer: "replace", zeroStage: 1, dp: 4 }).total,
      6e9 + 12e9 / 4,
    );
    throwsField(() => modelStateBytes(1e9, { fp32GradBuffer: "both" as never }), "fp32GradBuffer");
  });
  test("Ψ = 7.5B, N_d = 64: 120 / 31.4 / 16.6 / 1.9 GB for baseline, P_os, P_os+g, P_os+g+p (§5, Fig. 1)", () => {
    const gb = [0, 1, 2, 3].map(
      (stage) => modelStateBytes(7.5e9, { zeroStage: stage as 0 | 1 | 2 | 3, dp: 64 }).total / 1e9,
    );
    assert.deepEqual(gb, [120, 31.40625, 16.640625, 1.875]);
    assert.deepEqual(
      gb.map((x) => Number(x.toFixed(1))),
      [120, 31.4, 16.6, 1.9],
    );
  });
  test("Table 1 entries printed in bold (fit in 32 GB): 7.5B P_os@64 = 31.4, P_os+g@16 = 21.6, P_os+g+p@4 = 30; 128B P_os+g+p@64 = 32; 1T P_os+g+p@1024 = 15.6", () => {
    const gb = (psi: number, stage: 1 | 2 | 3, dp: number) =>
      modelStateBytes(psi, { zeroStage: stage, dp }).total / 1e9;
    assert.equal(gb(7.5e9, 1, 64).toFixed(1), "31.4");
    assert.equal(gb(7.5e9, 2, 16).toFixed(1), "21.6");
    assert.equal(gb(7.5e9, 3, 4), 30);
    assert.equal(gb(128e9, 3, 64), 32);
    assert.equal(gb(1e12, 3, 1024).toFixed(1), "15.6");
  });
  test("§5.4: with N_d = 64, P_os fits 7.5B and P_os+g 14B in 32 GB of model states; with N_d = 1024 P_os+g+p fits 1T", () => {
    assert.ok(modelStateBytes(7.5e9, { zeroStage: 1, dp: 64 }).total < 32e9);
    assert.ok(modelStateBytes(14e9, { zeroStage: 2, dp: 64 }).total < 32e9);
    assert.ok(modelStateBytes(1e12, { zeroStage: 3, dp: 1024 }).total < 32e9);
  });
  test("§3.1: a 1.5B-parameter GPT-2 needs at least 24 GB of model states", () => {
    assert.equal(modelStateBytes(1.5e9).total, 24e9);
  });
});

/** A GPT-style (LayerNorm, GeLU, dropout) config with Korthikanti's Table 3 shapes. */
function gptConfig(h: number, a: number, layers: number) {
  return {
    model_type: "gpt2",
    n_embd: h,
    n_head: a,
    n_layer: layers,
    n_positions: 2048,
    vocab_size: 51200,
    attn_pdrop: 0.1,
    resid_pdrop: 0.1,
    embd_pdrop: 0.1,
  };
}

const table3 = [
  { name: "22B", h: 6144, a: 64, L: 48, b: 4, mib: [1264, 844, 624, 204, 96] },
  { name: "175B", h: 12288, a: 96, L: 96, b: 1, mib: [552, 342, 312, 102, 48] },
  { name: "530B", h: 20480, a: 128, L: 105, b: 1, mib: [840, 490, 520, 170, 80] },
  { name: "1T", h: 25600, a: 160, L: 128, b: 1, mib: [1050, 612.5, 650, 212.5, 100] },
];
const table2Rows: { label: string; sp: boolean; recompute: Recompute }[] = [
  { label: "TP only, sbh(10 + 24/t + 5as/(ht))", sp: false, recompute: "none" },
  { label: "TP + SP, sbh(34/t + 5as/(ht))", sp: true, recompute: "none" },
  { label: "TP + selective, sbh(10 + 24/t)", sp: false, recompute: "selective" },
  { label: "TP + SP + selective, sbh(34/t)", sp: true, recompute: "selective" },
  { label: "full recomputation, 2sbh", sp: false, recompute: "full" },
];

describe("activations per layer follow korthikanti2023reducing Table 2 (t = 8, s = 2048, eager attention, dropout)", () => {
  for (const model of table3) {
    table2Rows.forEach((row, index) => {
      test(`${model.name}, ${row.label}: ${model.mib[index]} MiB (facts.md C.3)`, () => {
        const closed = korthikantiLayerActivationBytes({
          s: 2048,
          b: model.b,
          h: model.h,
          a: model.a,
          t: 8,
          sequenceParallel: row.sp,
          recompute: row.recompute,
        });
        assert.equal(closed / MiB, model.mib[index]);
        const arch = parseModelConfig(gptConfig(model.h, model.a, model.L)).architecture;
        const layer = layerActivations(arch, {
          seqLength: 2048,
          microBatchSize: model.b,
          tp: 8,
          sequenceParallel: row.sp,
          attention: "eager",
        });
        const general = storedLayerBytes(layer, row.recompute);
        assertApprox(general, closed, { rel: 1e-9 }, `${general} vs ${closed}`);
      });
    });
  }
  test("no parallelism: sbh(34 + 5as/h) (Eq. 1), with 11sbh + 5as²b in attention and 19sbh in the MLP", () => {
    const [s, b, h, a] = [2048, 2, 4096, 32];
    const arch = parseModelConfig(gptConfig(h, a, 4)).architecture;
    const layer = layerActivations(arch, { seqLength: s, microBatchSize: b, attention: "eager" });
    assert.equal(layer.totalBytes, s * b * h * (34 + (5 * a * s) / h));
    assert.equal(
      korthikantiLayerActivationBytes({ s, b, h, a, t: 1, sequenceParallel: false, recompute: "none" }),
      s * b * h * (34 + (5 * a * s) / h),
    );
  });
  test("§5: selective recomputation saves 70% for GPT-3 (5as/h = 80) and 65% for MT-NLG (5as/h = 64) under TP + SP", () => {
    const saved = (h: number, a: number) => {
      const full = korthikantiLayerActivationBytes({
        s: 2048,
        b: 1,
        h,
        a,
        t: 8,
        sequenceParallel: true,
        recompute: "none",
      });
      const sel = korthikantiLayerActivationBytes({
        s: 2048,
        b: 1,
        h,
        a,
        t: 8,
        sequenceParallel: true,
        recompute: "selective",
      });
      return Math.round((100 * (full - sel)) / full);
    };
    assert.equal(saved(12288, 96), 70);
    assert.equal(saved(20480, 128), 65);
  });
  test("FlashAttention removes exactly the 5as²b/t score terms", () => {
    const arch = parseModelConfig(gptConfig(12288, 96, 96)).architecture;
    const eager = layerActivations(arch, { seqLength: 2048, microBatchSize: 1, tp: 8, attention: "eager" });
    const flash = layerActivations(arch, { seqLength: 2048, microBatchSize: 1, tp: 8, attention: "flash" });
    assert.equal(eager.totalBytes - flash.totalBytes, (5 * 96 * 2048 * 2048) / 8);
    assert.equal(flash.totalBytes, flash.selectiveBytes);
  });
});

describe("activations of a Llama-style layer (RMSNorm, GQA, SwiGLU, no dropout)", () => {
  test("Llama-3.1-8B, s = 4096, b = 1, flash: 2s(6h + 2·n_kv·d + 3f) = 544 MiB per layer, tensor by tensor", () => {
    const arch = parseModelConfig(config("llama-3.1-8b")).architecture;
    const layer = layerActivations(arch, { seqLength: 4096, microBatchSize: 1 });
    const byName = Object.fromEntries(layer.tensors.map((t) => [t.name, t.bytes / MiB]));
    assert.deepEqual(byName, {
      "attention norm input": 32,
      "QKV projection input": 32,
      query: 32,
      key: 8,
      value: 8,
      "output projection input": 32,
      "MLP norm input": 32,
      "MLP input": 32,
      "gate and up projection outputs": 224,
      "down projection input": 112,
    });
    assert.equal(layer.totalBytes, 2 * 4096 * (6 * 4096 + 2 * 1024 + 3 * 14336));
    assert.equal(layer.totalBytes / MiB, 544);
    assert.equal(layer.fullBytes, 2 * 4096 * 4096);
  });
  test("eager attention without dropout keeps only the softmax output (2as²b), which selective recomputation drops", () => {
    const arch = parseModelConfig(config("llama-3.1-8b")).architecture;
    const eager = layerActivations(arch, { seqLength: 4096, microBatchSize: 1, attention: "eager" });
    const flash = layerActivations(arch, { seqLength: 4096, microBatchSize: 1 });
    // Softmax output, plus K and V repeated from 8 to 32 heads of 128 (GQA under eager attention).
    assert.equal(eager.totalBytes - flash.totalBytes, 2 * 32 * 4096 * 4096 + 2 * 4096 * (32 - 8) * 128 * 2);
    assert.equal(eager.selectiveBytes, flash.totalBytes);
    assert.deepEqual(
      eager.tensors.filter((t) => !t.keptUnderSelective).map((t) => t.name),
      ["key and value repeated to every query head", "attention softmax output"],
    );
  });
  test("eager GQA attention stores K and V at every query head; MHA and FlashAttention at the key/value heads", () => {
    const arch = parseModelConfig(config("llama-3.1-8b")).architecture;
    const keys = (attention: "eager" | "flash", tp = 1) =>
      layerActivations(arch, { seqLength: 4096, microBatchSize: 1, attention, tp })
        .tensors.filter((t) => t.name === "key" || t.name === "value" || t.name.startsWith("key and value"))
        .reduce((acc, t) => acc + t.bytes, 0);
    assert.equal(keys("eager"), 2 * 4096 * 32 * 128 * 2);
    assert.equal(keys("eager", 8), (2 * 4096 * 32 * 128 * 2) / 8);
    assert.equal(keys("flash"), 2 * 4096 * 8 * 128 * 2);
    const mha = parseModelConfig(gptConfig(1024, 16, 2)).architecture;
    assert.ok(
      !layerActivations(mha, { seqLength: 512, microBatchSize: 1, attention: "eager" }).tensors.some((t) =>
        t.name.startsWith("key and value"),
      ),
    );
  });
  test("Mixtral MoE layer: top-2 dispatch and expert tensors over 2sb routed tokens", () => {
    const arch = parseModelConfig(config("mixtral-8x7b")).architecture;
    const layer = layerActivations(arch, { seqLength: 4096, microBatchSize: 1 });
    const byName = Object.fromEntries(layer.tensors.map((t) => [t.name, t.bytes]));
    const T = 4096;
    assert.equal(byName["router probabilities (fp32)"], 4 * T * 8);
    assert.equal(byName["dispatched tokens"], 2 * 2 * T * 4096);
    assert.equal(byName["expert gate and up projection outputs"], 2 * 2 * 2 * T * 14336);
    assert.equal(byName["expert down projection input"], 2 * 2 * T * 14336);
  });
});

describe("whole-stage activations under pipeline schedules", () => {
  const gpt22b = gptConfig(6144, 64, 48);
  test("1F1B first stage holds L layers' worth (korthikanti2023reducing Eq. 5): p = 4, L = 48", () => {
    const m = trainingMemory(gpt22b, {
      seqLength: 2048,
      microBatchSize: 1,
      tp: 8,
      sequenceParallel: true,
      pp: 4,
      microbatches: 8,
      attention: "eager",
    });
    const perLayer = korthikantiLayerActivationBytes({
      s: 2048,
      b: 1,
      h: 6144,
      a: 64,
      t: 8,
      sequenceParallel: true,
      recompute: "none",
    });
    assert.equal(m.stages[0].inFlightMicrobatches, 4);
    assertApprox(m.stages[0].activationDetail.layers, 48 * perLayer, { abs: 1e-6 * perLayer });
  });
  test("interleaved first stage holds L(1 + (p−1)/(pv)) layers' worth (§4.2.3): p = 4, v = 3, L = 48", () => {
    const m = trainingMemory(gpt22b, {
      seqLength: 2048,
      microBatchSize: 1,
      tp: 8,
      sequenceParallel: true,
      pp: 4,
      schedule: "interleaved",
      virtualStages: 3,
      microbatches: 8,
      attention: "eager",
    });
    const perLayer = korthikantiLayerActivationBytes({
      s: 2048,
      b: 1,
      h: 6144,
      a: 64,
      t: 8,
      sequenceParallel: true,
      recompute: "none",
    });
    const factor = 1 + (4 - 1) / (4 * 3);
    assertApprox(m.stages[0].activationDetail.layers, 48 * factor * perLayer, { abs: 1e-6 * perLayer });
  });
  test("in-flight microbatches: AFAB m, 1F1B min(p − i, m), interleaved Megatron warm-up + 1 chunks (Narayanan §2.2)", () => {
    assert.equal(inFlightMicrobatches("afab", 4, 0, 16), 16);
    assert.deepEqual(
      [0, 1, 2, 3].map((i) => inFlightMicrobatches("1f1b", 4, i, 16)),
      [4, 3, 2, 1],
    );
    assert.deepEqual(
      [0, 1, 2, 3].map((i) => inFlightMicrobatches("1f1b", 4, i, 2)),
      [2, 2, 2, 1],
    );
    assert.deepEqual(
      [0, 3].map((i) => inFlightMicrobatches("interleaved", 4, i, 8, 2) * 2),
      [11, 5],
    );
  });
  test("the last stage keeps fp32 logits 4sbV/t for one microbatch (1F1B) or m (AFAB)", () => {
    const setup: TrainingSetup = { seqLength: 1024, microBatchSize: 2, pp: 2, tp: 2, microbatches: 4 };
    const oneF = trainingMemory(config("llama-3.1-8b"), setup).stages[1].activationDetail.head;
    const afab = trainingMemory(config("llama-3.1-8b"), { ...setup, schedule: "afab" }).stages[1].activationDetail.head;
    const tokens = 1024 * 2;
    const expected = 2 * (tokens * 4096 * 2) + (4 * tokens * 128256) / 2;
    assert.equal(oneF, expected);
    assert.equal(afab, 4 * expected);
  });
  test("under recomputation one microbatch's head tensors and the recomputed layer share the peak: the larger counts", () => {
    for (const schedule of ["1f1b", "afab"] as const) {
      const setup: TrainingSetup = {
        seqLength: 1024,
        microBatchSize: 2,
        pp: 2,
        tp: 2,
        microbatches: 4,
        recompute: "full",
        schedule,
      };
      const last = trainingMemory(config("llama-3.1-8b"), setup).stages[1];
      const d = last.activationDetail;
      const one = d.head / (schedule === "afab" ? 4 : 1);
      assert.ok(d.recomputeWorkspace > 0 && one > 0);
      assert.equal(last.activations, d.layers + d.embedding + d.head - one + Math.max(one, d.recomputeWorkspace));
      assert.ok(last.activations < d.layers + d.embedding + d.head + d.recomputeWorkspace);
      // Stages without the head still add the whole working set.
      const first = trainingMemory(config("llama-3.1-8b"), setup).stages[0];
      assert.equal(
        first.activations,
        first.activationDetail.layers + first.activationDetail.embedding + first.activationDetail.recomputeWorkspace,
      );
    }
  });
});

describe("parameters per GPU", () => {
  test("no parallelism: 16 bytes per parameter of model states for Llama-3.1-8B (bf16 mixed)", () => {
    const m = trainingMemory(config("llama-3.1-8b"));
    assert.equal(m.perGpu.parameters + m.perGpu.gradients + m.perGpu.optimizer, 16 * 8_030_261_248);
    assert.equal(m.stages[0].parameterCount, 8_030_261_248);
  });
  test("tensor and pipeline shards add back up to the model (norms replicated over TP, tied head copied on the last stage)", () => {
    const id = "llama-3.2-1b";
    const count = 1_235_814_400;
    const m = trainingMemory(config(id), { tp: 2, pp: 2 });
    const h = 2048;
    const norms = 16 * 2 * h + h;
    const embedding = 128256 * h;
    // Sum over stages × t, minus the (t − 1) extra copies of the replicated norms, minus the tied head's copy.
    const total = 2 * (m.stages[0].parameterCount + m.stages[1].parameterCount) - norms - embedding;
    assert.equal(total, count);
  });
  test("expert parallelism divides Mixtral's experts over e GPUs; ZeRO shards experts over dp/e", () => {
    const base = trainingMemory(config("mixtral-8x7b"), { dp: 8, zeroStage: 1 });
    const ep = trainingMemory(config("mixtral-8x7b"), { dp: 8, ep: 8, zeroStage: 1 });
    assert.equal(base.stages[0].expertParameterCount, 32 * 8 * 176_160_768);
    assert.equal(ep.stages[0].expertParameterCount, 32 * 176_160_768);
    // Expert optimizer states are sharded over dp·cp/ep = 1 rank: 12 bytes per local expert parameter.
    const denseOptimizer = ((base.stages[0].parameterCount - base.stages[0].expertParameterCount) * 12) / 8;
    assert.equal(ep.perGpu.optimizer, denseOptimizer + 32 * 176_160_768 * 12);
  });
});

describe("layers per stage (stageLayers)", () => {
  const llama = config("llama-3.1-8b");
  // Llama 3.1 8B, by hand: one layer holds 4096·4096·2 (Q, O) + 4096·1024·2 (K, V) + 3·4096·14,336
  // (SwiGLU) + 2·4096 (norms) = 218,112,000 parameters; the embedding and the untied head
  // 128,256·4096 = 525,336,576 each, the final norm 4096. With FlashAttention, s = 4096 and b = 1 a
  // layer keeps 2s(6h + 2·n_kv·d + 3f) = 544 MiB per microbatch (the Llama layer test above).
  const layer = 218_112_000;
  const embedding = 525_336_576;
  const act = 544 * MiB;
  const setup: TrainingSetup = { pp: 4, microbatches: 8 };

  test("7/9/9/7 against 8/8/8/8 (p = 4, 1F1B): each stage holds its own layers' parameters, 16 bytes each, and its own layers' activations for its in-flight microbatches", () => {
    const m = trainingMemory(llama, { ...setup, stageLayers: [7, 9, 9, 7] });
    assert.deepEqual(m.setup.stageLayers, [7, 9, 9, 7]);
    assert.deepEqual(
      m.stages.map((st) => st.layerCount),
      [7, 9, 9, 7],
    );
    assert.deepEqual(
      m.stages.map((st) => st.parameterCount),
      [7 * layer + embedding, 9 * layer, 9 * layer, 7 * layer + 4096 + embedding],
    );
    for (const st of m.stages) assert.equal(st.parameters + st.gradients + st.optimizer, 16 * st.parameterCount);
    // 1F1B keeps 4, 3, 2 and 1 microbatches in flight on stages 1 to 4.
    assert.deepEqual(
      m.stages.map((st) => st.activationDetail.layers),
      [7 * 4 * act, 9 * 3 * act, 9 * 2 * act, 7 * 1 * act],
    );
  });

  test("a stage with one more layer holds exactly one more layer's parameters, and one more layer's activations per microbatch in flight", () => {
    const even = trainingMemory(llama, setup);
    const uneven = trainingMemory(llama, { ...setup, stageLayers: [7, 9, 9, 7] });
    assert.deepEqual(even.setup.stageLayers, [8, 8, 8, 8]);
    for (const [i, extra] of [-1, 1, 1, -1].entries()) {
      const a = even.stages[i];
      const b = uneven.stages[i];
      assert.equal(b.parameterCount - a.parameterCount, extra * layer, `stage ${i}`);
      assert.equal(b.parameters - a.parameters, extra * 2 * layer, `stage ${i}`);
      assert.equal(b.inFlightMicrobatches, a.inFlightMicrobatches);
      assert.equal(
        b.activationDetail.layers - a.activationDetail.layers,
        extra * act * a.inFlightMicrobatches,
        `stage ${i}`,
      );
      assert.equal(b.activationDetail.head, a.activationDetail.head);
    }
    // The first stage is the fullest in both; one layer fewer there saves 16 bytes × 218,112,000
    // parameters and 4 microbatches × 544 MiB.
    assert.equal(even.peakStage, 0);
    assert.equal(uneven.peakStage, 0);
    assert.equal(even.perGpu.total - uneven.perGpu.total, 16 * layer + 4 * act);
  });

  test("the default split is unchanged: giving it explicitly changes no byte, and the documented CLI example still prints 33,267,564,544 bytes", () => {
    const cases: Array<[unknown, TrainingSetup, number[]]> = [
      [llama, setup, [8, 8, 8, 8]],
      [llama, { pp: 3, microbatches: 6, recompute: "full" }, [11, 11, 10]],
      [llama, { pp: 4, schedule: "interleaved", virtualStages: 2, microbatches: 8 }, [8, 8, 8, 8]],
      [llama, { pp: 4, dp: 8, zeroStage: 3, framework: "fsdp2", microbatches: 8 }, [8, 8, 8, 8]],
      [config("mixtral-8x7b"), { pp: 2, dp: 8, ep: 8, zeroStage: 1, microbatches: 4 }, [16, 16]],
      [llama, {}, [32]],
    ];
    for (const [cfg, s, split] of cases) {
      const plain = trainingMemory(cfg, s);
      assert.deepEqual(plain.setup.stageLayers, split, JSON.stringify(s));
      assert.deepEqual(trainingMemory(cfg, { ...s, stageLayers: split }), plain, JSON.stringify(s));
    }
    // docs/model-cli.md: memory llama-3.1-70b --seq 8192 --dp 16 --tp 8 --sp --pp 4 --zero 1 --recompute selective --microbatches 16
    const docSetup: TrainingSetup = {
      seqLength: 8192,
      dp: 16,
      tp: 8,
      sequenceParallel: true,
      pp: 4,
      zeroStage: 1,
      recompute: "selective",
      microbatches: 16,
    };
    const documented = trainingMemory(config("llama-3.1-70b"), docSetup);
    assert.equal(documented.perGpu.total, 33_267_564_544);
    assert.equal(documented.stages[0].layerCount, 20);
    // and its --stage-layers 19,21,21,19 example: the first stage drops one layer (1/8 of it per GPU
    // under TP 8) and that layer's activations for its 4 microbatches in flight.
    const trimmed = trainingMemory(config("llama-3.1-70b"), { ...docSetup, stageLayers: [19, 21, 21, 19] });
    assert.equal(trimmed.perGpu.total, 31_635_378_176);
    assert.equal(trimmed.stages[0].parameterCount, 2_163_785_728);
    assert.equal(documented.stages[0].parameterCount - trimmed.stages[0].parameterCount, 106_971_136);
    assert.equal(
      documented.stages[0].activationDetail.layers - trimmed.stages[0].activationDetail.layers,
      documented.stages[0].activationDetail.layers / 20,
    );
  });

  test("interleaved: each stage's layers in v chunks (the first L_i mod v one larger), chunk c of every stage before chunk c + 1", () => {
    assert.deepEqual(stageLayerIndices(32, 4, 0, 2, [7, 9, 9, 7]), [0, 1, 2, 3, 18, 19, 20]);
    assert.deepEqual(stageLayerIndices(32, 4, 1, 2, [7, 9, 9, 7]), [4, 5, 6, 7, 8, 21, 22, 23, 24]);
    assert.deepEqual(stageLayerIndices(32, 4, 3, 2, [7, 9, 9, 7]), [14, 15, 16, 17, 29, 30, 31]);
    assert.deepEqual(stageLayerIndices(32, 4, 2, 2, [8, 8, 8, 8]), stageLayerIndices(32, 4, 2, 2));
    assert.deepEqual(stageLayerIndices(10, 4, 1, 1, [2, 3, 3, 2]), [2, 3, 4]);
    // The first stage keeps 2(p − 1) + (v − 1)p + 1 = 11 chunk-microbatches, each at its mean chunk of 7/2 layers.
    const m = trainingMemory(llama, { ...setup, schedule: "interleaved", virtualStages: 2, stageLayers: [7, 9, 9, 7] });
    assert.equal(m.stages[0].inFlightMicrobatches, 11 / 2);
    assert.equal(m.stages[0].activationDetail.layers, 7 * act * (11 / 2));
    assert.equal(m.stages[0].parameterCount, 7 * layer + embedding);
  });

  test("bad splits name stageLayers", () => {
    const bad: unknown[] = [
      [8, 8, 16],
      [8, 8, 8, 7],
      [8, 8, 8.5, 7.5],
      [0, 16, 8, 8],
      [8, 8, 8, Number.NaN],
      [-8, 24, 8, 8],
      "8,8,8,8",
      null,
    ];
    for (const stageLayers of bad) {
      throwsField(() => trainingMemory(llama, { ...setup, stageLayers: stageLayers as number[] }), "stageLayers");
      throwsField(() => stageLayerIndices(32, 4, 0, 1, stageLayers as number[]), "stageLayers");
    }
    // Under the interleaved schedule every stage needs at least v layers.
    throwsField(
      () =>
        trainingMemory(llama, {
          pp: 4,
          schedule: "interleaved",
          virtualStages: 4,
          microbatches: 8,
          stageLayers: [3, 13, 13, 3],
        }),
      "stageLayers",
    );
    assert.throws(
      () => trainingMemory(llama, { ...setup, stageLayers: [8, 8, 8, 7] }),
      /stageLayers sum to 31, not the number of layers \(32\)/,
    );
  });
});

describe("validation names the field", () => {
  const llama = config("llama-3.1-8b");
  test("tp that does not divide the heads", () => throwsField(() => trainingMemory(llama, { tp: 3 }), "tp"));
  test("tp that does not divide the KV heads (8)", () => throwsField(() => trainingMemory(llama, { tp: 16 }), "tp"));
  test("dp = 0", () => throwsField(() => trainingMemory(llama, { dp: 0 }), "dp"));
  test("negative sequence length", () => throwsField(() => trainingMemory(llama, { seqLength: -4096 }), "seqLength"));
  test("NaN micro-batch size", () =>
    throwsField(() => trainingMemory(llama, { microBatchSize: Number.NaN }), "microBatchSize"));
  test("ZeRO stage 4", () => throwsField(() => trainingMemory(llama, { zeroStage: 4 as 0 }), "zeroStage"));
  test("unknown recompute option", () =>
    throwsField(() => trainingMemory(llama, { recompute: "some" as Recompute }), "recompute"));
  test("unknown precision", () =>
    throwsField(() => trainingMemory(llama, { precision: "fp8" as "bf16" }), "precision"));
  test("unknown attention kernel", () =>
    throwsField(() => trainingMemory(llama, { attention: "sdpa" as "flash" }), "attention"));
  test("pp larger than the layer count", () => throwsField(() => trainingMemory(llama, { pp: 33 }), "pp"));
  test("cp that does not divide the sequence", () =>
    throwsField(() => trainingMemory(llama, { seqLength: 1000, cp: 3 }), "cp"));
  test("ep on a dense model", () => throwsField(() => trainingMemory(llama, { dp: 8, ep: 8 }), "ep"));
  test("ep that does not divide the experts", () =>
    throwsField(() => trainingMemory(config("mixtral-8x7b"), { dp: 6, ep: 3 }), "ep"));
  test("interleaved with microbatches not a multiple of pp", () =>
    throwsField(() => trainingMemory(llama, { pp: 4, schedule: "interleaved", microbatches: 6 }), "microbatches"));
  test("interleaved with chunks that do not divide the layers", () =>
    throwsField(
      () => trainingMemory(llama, { pp: 4, schedule: "interleaved", virtualStages: 3, microbatches: 8 }),
      "virtualStages",
    ));
});

describe("properties (fast-check)", () => {
  const presetIds = MODEL_PRESETS.map((p) => p.id).filter((id) => id !== "deepseek-v3");
  const divisors = (n: number, max: number) => Array.from({ length: max }, (_, i) => i + 1).filter((d) => n % d === 0);
  const setupArb = fc.record({
    id: fc.constantFrom(...presetIds),
    seqExp: fc.integer({ min: 7, max: 13 }),
    microBatchSize: fc.integer({ min: 1, max: 4 }),
    dpExp: fc.integer({ min: 0, max: 6 }),
    zeroStage: fc.constantFrom(0, 1, 2, 3) as fc.Arbitrary<0 | 1 | 2 | 3>,
    recompute: fc.constantFrom("none", "selective", "full") as fc.Arbitrary<Recompute>,
    precision: fc.constantFrom("bf16", "fp32") as fc.Arbitrary<"bf16" | "fp32">,
    attention: fc.constantFrom("flash", "eager") as fc.Arbitrary<"flash" | "eager">,
    sequenceParallel: fc.boolean(),
    fp32GradAccum: fc.boolean(),
    schedule: fc.constantFrom("afab", "1f1b") as fc.Arbitrary<"afab" | "1f1b">,
    tpPick: fc.nat(),
    ppPick: fc.nat(),
    mExtra: fc.integer({ min: 0, max: 8 }),
  });
  function toSetup(r: typeof setupArb extends fc.Arbitrary<infer T> ? T : never) {
    const arch = parseModelConfig(config(r.id)).architecture;
    const tps = divisors(arch.numKvHeads, 8).filter((t) => arch.numHeads % t === 0 && arch.intermediateSize % t === 0);
    const pps = divisors(arch.numLayers, 16);
    const tp = tps[r.tpPick % tps.length];
    const pp = pps[r.ppPick % pps.length];
    const setup: TrainingSetup = {
      seqLength: 2 ** r.seqExp,
      microBatchSize: r.microBatchSize,
      dp: 2 ** r.dpExp,
      tp,
      pp,
      zeroStage: r.zeroStage,
      recompute: r.recompute,
      precision: r.precision,
      attention: r.attention,
      // Sequence parallelism needs t to divide the sequence; drop it where it does not.
      sequenceParallel: r.sequenceParallel && 2 ** r.seqExp % (2 * tp) === 0,
      fp32GradAccum: r.fp32GradAccum,
      schedule: r.schedule,
      microbatches: 2 * pp + r.mExtra,
    };
    return { arch, setup, tps, pps };
  }
  const finiteNonNegative = (m: ReturnType<typeof trainingMemory>) => {
    for (const st of m.stages) {
      for (const v of [st.parameters, st.gradients, st.optimizer, st.activations, st.total]) {
        assert.ok(Number.isFinite(v) && v >= 0, `stage ${st.stage}: ${v}`);
      }
    }
  };

  test("memory is finite and non-negative for every valid setup", () => {
    fc.assert(
      fc.property(setupArb, (r) => {
        const { setup } = toSetup(r);
        finiteNonNegative(trainingMemory(config(r.id), setup));
      }),
      { numRuns: 150 },
    );
  });
  test("total per GPU never rises with the ZeRO stage", () => {
    fc.assert(
      fc.property(setupArb, (r) => {
        const { setup } = toSetup(r);
        const totals = [0, 1, 2, 3].map(
          (z) => trainingMemory(config(r.id), { ...setup, zeroStage: z as 0 }).perGpu.total,
        );
        for (let i = 1; i < 4; i++) assert.ok(totals[i] <= totals[i - 1], `${totals}`);
      }),
      { numRuns: 80 },
    );
  });
  test("under ZeRO ≥ 1 doubling dp never raises the total per GPU", () => {
    fc.assert(
      fc.property(setupArb, (r) => {
        const { setup } = toSetup(r);
        const zero = Math.max(1, setup.zeroStage ?? 0) as 1;
        const a = trainingMemory(config(r.id), { ...setup, zeroStage: zero }).perGpu.total;
        const b = trainingMemory(config(r.id), { ...setup, zeroStage: zero, dp: (setup.dp ?? 1) * 2 }).perGpu.total;
        assert.ok(b <= a);
        assert.ok(b < a);
      }),
      { numRuns: 80 },
    );
  });
  test("doubling tp (where it divides the heads) never raises the total per GPU", () => {
    fc.assert(
      fc.property(setupArb, (r) => {
        const { setup, tps } = toSetup(r);
        const tp = setup.tp ?? 1;
        if (!tps.includes(2 * tp)) return;
        const a = trainingMemory(config(r.id), setup).perGpu.total;
        const b = trainingMemory(config(r.id), { ...setup, tp: 2 * tp }).perGpu.total;
        assert.ok(b < a, `${b} vs ${a}`);
      }),
      { numRuns: 80 },
    );
  });
  test("doubling pp (dividing the layers, same microbatches) never raises the total per GPU, except by the first stage's embedding dropout masks for its extra in-flight microbatches (korthikanti2023reducing §4.3, the sbhp/t term)", () => {
    fc.assert(
      fc.property(setupArb, (r) => {
        const { setup, pps } = toSetup(r);
        const pp = setup.pp ?? 1;
        if (!pps.includes(2 * pp)) return;
        const microbatches = 4 * pp + 8;
        const a = trainingMemory(config(r.id), { ...setup, microbatches });
        const b = trainingMemory(config(r.id), { ...setup, pp: 2 * pp, microbatches });
        const extraMasks = b.stages[0].activationDetail.embedding - a.stages[0].activationDetail.embedding;
        assert.ok(extraMasks >= 0);
        assert.ok(b.perGpu.total <= a.perGpu.total + extraMasks, `${b.perGpu.total} vs ${a.perGpu.total}`);
        if (!setup.dropout && !parseModelConfig(config(r.id)).architecture.dropout)
          assert.ok(b.perGpu.total <= a.perGpu.total);
      }),
      { numRuns: 80 },
    );
  });
  test("doubling cp never raises the total per GPU", () => {
    fc.assert(
      fc.property(setupArb, (r) => {
        const { setup } = toSetup(r);
        const seq = setup.seqLength ?? 4096;
        const tp = setup.tp ?? 1;
        if (setup.sequenceParallel && (seq / 2) % tp !== 0) return;
        const a = trainingMemory(config(r.id), setup).perGpu.total;
        const b = trainingMemory(config(r.id), { ...setup, cp: 2 }).perGpu.total;
        assert.ok(b < a, `${b} vs ${a}`);
      }),
      { numRuns: 80 },
    );
  });
});

test("absurd sizes give a ModelInputError, never Infinity or NaN", () => {
  throwsField(() => trainingMemory(config("llama-3.1-8b"), { seqLength: 2 ** 1020 }), "seqLength");
});

test("trainingMemory() with a framework profile: its state layout, e.g. Megatron-LM's distributed optimizer at 6 + 12/d bytes", () => {
  const cfg = findModelPreset("llama-3.1-8b")!.config;
  const psi = countParameters(cfg).total;
  for (const dp of [1, 8, 64]) {
    const m = trainingMemory(cfg, { dp, zeroStage: 1, framework: "megatron" }).perGpu;
    const states = m.parameters + m.gradients + m.optimizer;
    assert.ok(Math.abs(states / psi - (6 + 12 / dp)) < 1e-9, `dp ${dp}: ${states / psi}`);
  }
  // DDP under autocast: fp32 weights 4, gradients 4, moments 8, plus its buckets' second copy of the
  // gradients (4, gradient_as_bucket_view=False) and autocast's bf16 weight copies (2): 22 bytes.
  const ddp = trainingMemory(cfg, { dp: 8, zeroStage: 0, framework: "ddp" }).perGpu;
  const ddpBytes = (ddp.parameters + ddp.gradients + ddp.optimizer) / psi;
  assert.ok(Math.abs(ddpBytes - 22) < 1e-9, `DDP: ${ddpBytes} bytes per parameter`);
  assert.throws(
    () => trainingMemory(cfg, { dp: 8, zeroStage: 3, framework: "megatron" }),
    (e: unknown) => e instanceof ModelInputError && e.field === "zeroStage",
  );
  // FSDP without resharding keeps every layer gathered: more than with it.
  const z3 = (reshardAfterForward: boolean) =>
    trainingMemory(cfg, { dp: 8, zeroStage: 3, framework: "fsdp2", reshardAfterForward }).perGpu.parameters;
  assert.ok(z3(false) > z3(true), `FSDP2 weights: ${z3(false)} without resharding, ${z3(true)} with`);
});
