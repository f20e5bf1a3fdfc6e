import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  busBandwidthFactor,
  collectiveSeconds,
  communicationPerStep,
  findModelPreset,
  ModelInputError,
  overlapRatios,
  tpSpRegatherElementsPerLayer,
} from "../../src/model/index.ts";
import { assertApprox } from "../helpers/approx.ts";

const config = (id: string) => findModelPreset(id)!.config;
const LLAMA_8B = 8_030_261_248;

describe("ring times use the nccl-tests bus-bandwidth convention", () => {
  test("factors: all-reduce 2(n−1)/n, all-gather and reduce-scatter (n−1)/n, send-recv 1", () => {
    assert.equal(busBandwidthFactor("all-reduce", 8), 1.75);
    assert.equal(busBandwidthFactor("all-gather", 8), 0.875);
    assert.equal(busBandwidthFactor("reduce-scatter", 4), 0.75);
    assert.equal(busBandwidthFactor("all-to-all", 2), 0.5);
    assert.equal(busBandwidthFactor("send-recv", 2), 1);
    assert.equal(busBandwidthFactor("all-reduce", 1), 0);
  });
  test("1 GB all-reduce over 8 GPUs at 100 GB/s bus bandwidth takes 17.5 ms (+ latency)", () => {
    assert.equal(
      collectiveSeconds({ collective: "all-reduce", messageBytes: 1e9, ranks: 8, busBandwidthBytesPerSecond: 100e9 }),
      0.0175,
    );
    assert.equal(
      collectiveSeconds({
        collective: "all-reduce",
        messageBytes: 1e9,
        ranks: 8,
        busBandwidthBytesPerSecond: 100e9,
        latencySeconds: 1e-4,
      }),
      0.0176,
    );
    assert.equal(
      collectiveSeconds({ collective: "all-gather", messageBytes: 1e9, ranks: 1, busBandwidthBytesPerSecond: 100e9 }),
      0,
    );
  });
  test("bad input names the field", () => {
    assert.throws(
      () =>
        collectiveSeconds({
          collective: "broadcast" as "all-reduce",
          messageBytes: 1,
          ranks: 2,
          busBandwidthBytesPerSecond: 1,
        }),
      (e: unknown) => e instanceof ModelInputError && e.field === "collective",
    );
    assert.throws(
      () => collectiveSeconds({ collective: "all-reduce", messageBytes: 1, ranks: 2, busBandwidthBytesPerSecond: 0 }),
      (e: unknown) => e instanceof ModelInputError && e.field === "busBandwidthBytesPerSecond",
    );
    assert.throws(
      () => busBandwidthFactor("all-reduce", 0),
      (e: unknown) => e instanceof ModelInputError && e.field === "ranks",
    );
  });
});

describe("volumes per step follow rajbhandari2020zero §7", () => {
  const dp = 64;
  const ring = (dp - 1) / dp;
  test("plain DP: one all-reduce of the bf16 gradients, 2Ψ·(n−1)/n elements sent", () => {
    const v = communicationPerStep(config("llama-3.1-8b"), { dp, microbatches: 4 });
    assert.equal(v.items.length, 1);
    assert.equal(v.items[0].collective, "all-reduce");
    assert.equal(v.bytesSentByKind.dp, 2 * LLAMA_8B * 2 * ring);
  });
  test("ZeRO-1 moves the same 2Ψ as plain DP (reduce-scatter + all-gather)", () => {
    const dpOnly = communicationPerStep(config("llama-3.1-8b"), { dp }).totalBytesSent;
    const zero1 = communicationPerStep(config("llama-3.1-8b"), { dp, zeroStage: 1 }).totalBytesSent;
    assert.equal(zero1, dpOnly);
  });
  test("ZeRO-3 moves 3Ψ for one microbatch, 1.5× plain DP (§7.2.2)", () => {
    const dpOnly = communicationPerStep(config("llama-3.1-8b"), { dp, microbatches: 1 }).totalBytesSent;
    const zero3 = communicationPerStep(config("llama-3.1-8b"), { dp, zeroStage: 3, microbatches: 1 }).totalBytesSent;
    assert.equal(zero3 / dpOnly, 1.5);
  });
  test("ZeRO-2/3 reduce-scatter every microbatch; ZeRO-3 gathers parameters twice per microbatch", () => {
    const v = communicationPerStep(config("llama-3.1-8b"), { dp, zeroStage: 3, microbatches: 4 });
    assert.deepEqual(
      v.items.map((i) => [i.name, i.callsPerStep]),
      [
        ["gradient reduce-scatter", 4],
        ["parameter all-gather (forward)", 4],
        ["parameter all-gather (backward)", 4],
      ],
    );
  });
  test("fp32 gradient accumulation reduces 4-byte gradients", () => {
    const v = communicationPerStep(config("llama-3.1-8b"), { dp, fp32GradAccum: true });
    assert.equal(v.items[0].messageBytes, 4 * LLAMA_8B);
  });
});

describe("model-parallel volumes", () => {
  const [s, b, h, L, t, m] = [4096, 1, 4096, 32, 8, 2];
  test("TP: 8bsh(t−1)/t elements per layer per microbatch (narayanan2021efficient §3.2)", () => {
    const v = communicationPerStep(config("llama-3.1-8b"), { tp: t, microbatches: m });
    assert.equal(v.bytesSentByKind.tp, L * m * 8 * b * s * h * ((t - 1) / t) * 2);
  });
  test("TP + SP: the bytes of TP (korthikanti2023reducing §4.2.2) plus two backward re-gathers per layer (Megatron-LM)", () => {
    const tp = communicationPerStep(config("llama-3.1-8b"), { tp: t, microbatches: m }).bytesSentByKind.tp;
    const sp = communicationPerStep(config("llama-3.1-8b"), { tp: t, sequenceParallel: true, microbatches: m });
    assert.equal(sp.bytesSentByKind.tp, (tp * 10) / 8);
    const regather = sp.items.find((i) => i.name.includes("re-gather"))!;
    assert.equal(regather.collective, "all-gather");
    assert.equal(regather.bytesSentPerStep, tpSpRegatherElementsPerLayer(b, s, h, t) * 2 * L * m);
    const gathers = sp.items.filter((i) => i.collective === "all-gather").reduce((acc, i) => acc + i.callsPerStep, 0);
    const scatters = sp.items
      .filter((i) => i.collective === "reduce-scatter")
      .reduce((acc, i) => acc + i.callsPerStep, 0);
    assert.deepEqual([gathers, scatters], [6 * L * m, 4 * L * m]);
  });
  test("full recomputation repeats the forward's two TP all-reduces (6 instead of 4 per layer)", () => {
    const plain = communicationPerStep(config("llama-3.1-8b"), { tp: t }).bytesSentByKind.tp;
    const full = communicationPerStep(config("llama-3.1-8b"), { tp: t, recompute: "full" }).bytesSentByKind.tp;
    assert.equal(full / plain, 1.5);
  });
  test("PP: bsh per microbatch each way, bsh/t with sequence parallelism; ×v interleaved", () => {
    const pp = communicationPerStep(config("llama-3.1-8b"), { pp: 4, microbatches: 8 });
    assert.equal(pp.bytesSentByKind.pp, 2 * 8 * b * s * h * 2);
    const sp = communicationPerStep(config("llama-3.1-8b"), { pp: 4, tp: 8, sequenceParallel: true, microbatches: 8 });
    assert.equal(sp.bytesSentByKind.pp, (2 * 8 * b * s * h * 2) / 8);
    const inter = communicationPerStep(config("llama-3.1-8b"), {
      pp: 4,
      schedule: "interleaved",
      virtualStages: 2,
      microbatches: 8,
    });
    assert.equal(inter.bytesSentByKind.pp, 2 * pp.bytesSentByKind.pp);
  });
  test("PP: the busiest stage; with two stages there is no middle stage and each sends (2v − 1)m", () => {
    const two = communicationPerStep(config("llama-3.1-8b"), { pp: 2, microbatches: 8 });
    assert.equal(two.bytesSentByKind.pp, 8 * b * s * h * 2);
    assert.match(two.items.find((i) => i.kind === "pp")!.name, /busiest stage/);
    const inter = communicationPerStep(config("llama-3.1-8b"), {
      pp: 2,
      schedule: "interleaved",
      virtualStages: 2,
      microbatches: 8,
    });
    assert.equal(inter.bytesSentByKind.pp, 3 * 8 * b * s * h * 2);
  });
  test("CP: 3(c−1) K/V chunk sends per layer per microbatch (GQA: 2·n_kv·d columns)", () => {
    const c = 4;
    const v = communicationPerStep(config("llama-3.1-8b"), { cp: c, microbatches: 1 });
    const chunk = (s / c) * 2 * 8 * 128 * 2;
    assert.equal(v.bytesSentByKind.cp, 3 * (c - 1) * L * chunk);
  });
  test("EP: four all-to-alls of the k routed copies per MoE layer per microbatch, (e−1)/e leaving the GPU", () => {
    const e = 8;
    const v = communicationPerStep(config("mixtral-8x7b"), { dp: 8, ep: e, microbatches: 1 });
    assert.equal(v.bytesSentByKind.ep, 4 * 32 * 2 * s * h * 2 * ((e - 1) / e));
  });
});

describe("overlap ratios", () => {
  const bandwidths = { dpBusBytesPerSecond: 50e9, tpBusBytesPerSecond: 450e9, ppBytesPerSecond: 50e9 };
  test("DP: gradient all-reduce time over the last microbatch's backward (2× forward) time", () => {
    const r = overlapRatios(config("llama-3.1-8b"), {
      setup: { dp: 8, seqLength: 4096 },
      peakFlopsPerSecond: 1e15,
      mfu: 0.5,
      bandwidths,
    });
    assert.ok(r.dp && r.tp === null && r.pp === null && r.zero3 === null);
    assert.equal(r.dp.commSeconds, (1.75 * LLAMA_8B * 2) / 50e9);
    assertApprox(r.dp.ratio, r.dp.commSeconds / r.dp.computeSeconds, { abs: 1e-12 });
  });
  test("ratios grow as bandwidth falls and shrink as sequences grow", () => {
    const setup = { tp: 8, pp: 4, dp: 8, zeroStage: 1 as const, microbatches: 8 };
    const fast = overlapRatios(config("llama-3.1-70b"), { setup, peakFlopsPerSecond: 989.4e12, mfu: 0.4, bandwidths });
    const slow = overlapRatios(config("llama-3.1-70b"), {
      setup,
      peakFlopsPerSecond: 989.4e12,
      mfu: 0.4,
      bandwidths: { ...bandwidths, tpBusBytesPerSecond: 45e9 },
    });
    assert.ok(slow.tp!.ratio > fast.tp!.ratio);
    const zero3Short = overlapRatios(config("llama-3.1-8b"), {
      setup: { dp: 64, zeroStage: 3, seqLength: 2048 },
      peakFlopsPerSecond: 989.4e12,
      mfu: 0.4,
      bandwidths,
    });
    const zero3Long = overlapRatios(config("llama-3.1-8b"), {
      setup: { dp: 64, zeroStage: 3, seqLength: 8192 },
      peakFlopsPerSecond: 989.4e12,
      mfu: 0.4,
      bandwidths,
    });
    assert.ok(zero3Long.zero3!.ratio < zero3Short.zero3!.ratio);
  });
  test("bad bandwidth names the field", () => {
    assert.throws(
      () =>
        overlapRatios(config("llama-3.1-8b"), {
          setup: { dp: 2 },
          peakFlopsPerSecond: 1e15,
          mfu: 0.5,
          bandwidths: { ...bandwidths, ppBytesPerSecond: -1 },
        }),
      (e: unknown) => e instanceof ModelInputError && e.field === "ppBytesPerSecond",
    );
  });
});

test("overlapRatios(): ZeRO-1's parameter all-gather is measured against the next step's first forward pass", () => {
  const bw = { dpBusBytesPerSecond: 50e9, tpBusBytesPerSecond: 450e9, ppBytesPerSecond: 50e9 };
  const z0 = overlapRatios(config("llama-3.1-8b"), {
    setup: { dp: 64, zeroStage: 0, seqLength: 4096 },
    peakFlopsPerSecond: 989.4e12,
    mfu: 0.4,
    bandwidths: bw,
  });
  const z1 = overlapRatios(config("llama-3.1-8b"), {
    setup: { dp: 64, zeroStage: 1, seqLength: 4096 },
    peakFlopsPerSecond: 989.4e12,
    mfu: 0.4,
    bandwidths: bw,
  });
  assert.equal(z0.zeroParamGather, null);
  // Half the all-reduce's bytes in half its window (the forward is half the backward): the same ratio.
  assertApprox(z1.zeroParamGather!.ratio, z0.dp!.ratio, { abs: 1e-9 });
  assert.ok(z1.zeroParamGather!.ratio > 1.8);
});
