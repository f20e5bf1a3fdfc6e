import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  achievedFlopsPerSecondPerGpu,
  countParameters,
  findGpu,
  findModelPreset,
  flopsUtilization,
  GPUS,
  hardwareFlopsPerToken,
  korthikantiHardwareFlopsSelective,
  korthikantiModelFlops,
  matmulParameters,
  ModelInputError,
  modelFlopsPerToken,
  narayananFullRecomputeFlops,
  palmFlopsPerToken,
  stepTimeSeconds,
  trainingFlops,
} from "../../src/model/index.ts";
import { assertApprox } from "../helpers/approx.ts";

const config = (id: string) => findModelPreset(id)!.config;

describe("FLOPs per token", () => {
  test("Llama-3.1-8B at s = 8192: 6N + 12·L·a·d·s with N = matmul parameters (total − input embedding − norms)", () => {
    const flops = modelFlopsPerToken(config("llama-3.1-8b"), 8192);
    const norms = 32 * 2 * 4096 + 4096;
    assert.equal(flops.matmulParameters, 8_030_261_248 - 525_336_576 - norms);
    assert.equal(flops.attentionTerm, 12 * 32 * 32 * 128 * 8192);
    assert.equal(flops.total, palmFlopsPerToken(flops.matmulParameters, 32, 32, 128, 8192));
  });
  test("tied embeddings still pay for the LM head matmul (Llama-3.2-1B)", () => {
    const m = matmulParameters(config("llama-3.2-1b"));
    assert.equal(m.head, 128256 * 2048);
    assert.equal(m.total, 1_235_814_400 - 16 * 2 * 2048 - 2048);
  });
  test("MoE uses active parameters: Mixtral's N is its active count minus embedding and norms", () => {
    const count = countParameters(config("mixtral-8x7b"));
    const norms = 32 * 2 * 4096 + 4096;
    assert.equal(matmulParameters(config("mixtral-8x7b")).total, count.active - count.breakdown.embedding - norms);
  });
  test("chowdhery2022palm App. B: PaLM 540B MFU is 46.2% with attention FLOPs and 45.7% without (L 118, H 48, Q 256, T 2048)", () => {
    const withAttention = palmFlopsPerToken(540e9, 118, 48, 256, 2048);
    const without = 6 * 540e9;
    assert.equal(((45.7 * withAttention) / without).toFixed(1), "46.2");
  });
  test("the attention term equals korthikanti2023reducing Eq. (7)'s s/(6h) term for a bias-free GPT shape", () => {
    const [B, L, s, h, V] = [1, 96, 2048, 12288, 51200];
    const eq7 = korthikantiModelFlops({ B, L, s, h, V }) / (B * s);
    const expected = 72 * L * h * h + 12 * L * s * h + 6 * V * h;
    assertApprox(eq7, expected, { rel: 1e-12 });
    assert.equal(12 * L * s * h, palmFlopsPerToken(1, L, 96, 128, s) - 6);
  });
  test("our GPT-2-family count is within 0.01% of Eq. (7) for the 175B shape (the gap is the biases)", () => {
    const cfg = { model_type: "gpt2", n_embd: 12288, n_head: 96, n_layer: 96, n_positions: 2048, vocab_size: 51200 };
    const ours = modelFlopsPerToken(cfg, 2048).total;
    const eq7 = korthikantiModelFlops({ B: 1, L: 96, s: 2048, h: 12288, V: 51200 }) / 2048;
    assertApprox(ours, eq7, { rel: 1e-4 });
  });
  test("hardware FLOPs: full recomputation adds a forward of the layers, matching narayanan2021efficient Eq. (3) for a bias-free shape", () => {
    const [L, s, h, V] = [96, 2048, 12288, 51200];
    const cfg = { model_type: "gpt2", n_embd: h, n_head: 96, n_layer: L, n_positions: s, vocab_size: V };
    const ours = hardwareFlopsPerToken(cfg, s, "full");
    const eq3 = narayananFullRecomputeFlops({ B: 1, L, s, h, V }) / s;
    assertApprox(ours, eq3, { rel: 1e-4 });
    assert.ok(hardwareFlopsPerToken(cfg, s, "selective") > modelFlopsPerToken(cfg, s).total);
    assert.equal(hardwareFlopsPerToken(cfg, s, "none"), modelFlopsPerToken(cfg, s).total);
  });
});

describe("MFU and HFU reproduce korthikanti2023reducing Table 5 (A100 312 TFLOPS, s 2048, V 51200)", () => {
  // [name, global batch B, L, h, GPUs, iteration seconds, MFU %, HFU %] from Tables 3 and 5.
  const rows = [
    ["22B", 4, 48, 6144, 8, 1.1, 41.5, 43.7],
    ["175B", 64, 96, 12288, 64, 13.75, 51.4, 52.8],
    ["530B", 280, 105, 20480, 280, 37.83, 56.0, 57.0],
    ["1T", 512, 128, 25600, 512, 71.49, 56.3, 57.0],
  ] as const;
  for (const [name, B, L, h, gpus, seconds, mfu, hfu] of rows) {
    test(`${name}: MFU ${mfu}%, HFU ${hfu}% within the rounding of the printed iteration time`, () => {
      const tokensPerSecond = (B * 2048) / seconds;
      const modelPerToken = korthikantiModelFlops({ B, L, s: 2048, h, V: 51200 }) / (B * 2048);
      const hardwarePerToken = korthikantiHardwareFlopsSelective({ B, L, s: 2048, h, V: 51200 }) / (B * 2048);
      const peak = findGpu("a100-sxm-80gb")!.bf16FlopsPerSecond;
      const m =
        100 *
        flopsUtilization({ tokensPerSecond, flopsPerToken: modelPerToken, gpuCount: gpus, peakFlopsPerSecond: peak });
      const hw =
        100 *
        flopsUtilization({
          tokensPerSecond,
          flopsPerToken: hardwarePerToken,
          gpuCount: gpus,
          peakFlopsPerSecond: peak,
        });
      // The iteration time is printed to ±half its last digit; the percentages to ±0.05.
      const timeTolerance = 0.005 / seconds;
      assertApprox(m, mfu, { abs: m * timeTolerance + 0.05 }, `MFU ${m}`);
      assertApprox(hw, hfu, { abs: hw * timeTolerance + 0.05 }, `HFU ${hw}`);
    });
  }
});

describe("training time and compute", () => {
  test("Llama 3 405B: 6·N·D with N = 405.85B and D = 15.6T tokens is 3.8e25 FLOPs (Llama 3 paper §3.3)", () => {
    const flops = trainingFlops(15.6e12, 6 * 405_853_388_800);
    assert.equal(Number(flops.toPrecision(2)), 3.8e25);
  });
  test("narayanan2021efficient Eq. (4), 8TP/(nX): GPT-3 175B on 1024 A100 at 140 TFLOP/s for 300B tokens ≈ 34 days; 1T on 3072 at 163 for 450B ≈ 84 days", () => {
    const days = (P: number, T: number, n: number, X: number) => trainingFlops(T, 8 * P) / (n * X) / 86400;
    assert.equal(Math.round(days(175e9, 300e9, 1024, 140e12)), 34);
    assert.equal(Math.round(days(1008e9, 450e9, 3072, 163e12)), 84);
  });
  test("Llama 3 Table 4: 430 TFLOPS per GPU is 43% MFU of the dense 989.4 TFLOPS H100 peak", () => {
    const peak = findGpu("h100-sxm")!.bf16FlopsPerSecond;
    const flopsPerToken = 1e12;
    const tokensPerSecond = (430e12 * 8192) / flopsPerToken;
    assert.equal(achievedFlopsPerSecondPerGpu(tokensPerSecond, flopsPerToken, 8192), 430e12);
    assert.equal(
      Math.round(100 * flopsUtilization({ tokensPerSecond, flopsPerToken, gpuCount: 8192, peakFlopsPerSecond: peak })),
      43,
    );
  });
  test("step time = tokens × FLOPs per token / (GPUs × peak × MFU)", () => {
    assert.equal(
      stepTimeSeconds({ tokensPerStep: 4e6, flopsPerToken: 5e10, gpuCount: 1000, peakFlopsPerSecond: 1e15, mfu: 0.5 }),
      0.4,
    );
  });
  test("invalid inputs name the field", () => {
    const check = (fn: () => unknown, field: string) =>
      assert.throws(fn, (e: unknown) => e instanceof ModelInputError && e.field === field);
    check(
      () => stepTimeSeconds({ tokensPerStep: 1, flopsPerToken: 1, gpuCount: 1, peakFlopsPerSecond: 1, mfu: 1.2 }),
      "mfu",
    );
    check(
      () => stepTimeSeconds({ tokensPerStep: 1, flopsPerToken: 1, gpuCount: 0, peakFlopsPerSecond: 1, mfu: 0.5 }),
      "gpuCount",
    );
    check(
      () =>
        flopsUtilization({
          tokensPerSecond: Number.POSITIVE_INFINITY,
          flopsPerToken: 1,
          gpuCount: 1,
          peakFlopsPerSecond: 1,
        }),
      "tokensPerSecond",
    );
    check(() => modelFlopsPerToken(config("llama-3.1-8b"), 0), "seqLength");
    check(() => hardwareFlopsPerToken(config("llama-3.1-8b"), 4096, "half" as "full"), "recompute");
  });
});

describe("GPU specs (src/data/gpus.ts)", () => {
  test("H100 SXM dense bf16 is 989.4 TFLOPS, half the datasheet's 1,979 sparse figure; A100 is 312", () => {
    assert.equal(findGpu("h100-sxm")!.bf16FlopsPerSecond, 989.4e12);
    assert.equal(findGpu("a100-sxm-80gb")!.bf16FlopsPerSecond, 312e12);
    assert.equal(findGpu("h100-sxm")!.hbmBytesPerSecond, 3.35e12);
    assert.equal(findGpu("h100-sxm")!.nvlinkBytesPerSecond, 900e9);
  });
  test("H200 has the H100 SXM's compute with 141 GB of HBM3e at 4.8 TB/s", () => {
    const h100 = findGpu("h100-sxm")!;
    const h200 = findGpu("h200-sxm")!;
    assert.equal(h200.bf16FlopsPerSecond, h100.bf16FlopsPerSecond);
    assert.equal(h200.hbmBytes, 141e9);
    assert.equal(h200.hbmBytesPerSecond, 4.8e12);
  });
  test("every GPU: positive figures, TF32 about half of BF16, FP8 about twice BF16 where present, unique ids", () => {
    const ids = new Set<string>();
    for (const g of GPUS) {
      assert.ok(!ids.has(g.id));
      ids.add(g.id);
      for (const v of [
        g.bf16FlopsPerSecond,
        g.tf32FlopsPerSecond,
        g.hbmBytes,
        g.hbmBytesPerSecond,
        g.nvlinkBytesPerSecond,
        g.pcieBytesPerSecond,
      ]) {
        assert.ok(Number.isFinite(v) && v > 0, g.id);
      }
      assertApprox(g.tf32FlopsPerSecond / g.bf16FlopsPerSecond, 0.5, { abs: 0.02 }, g.id);
      if (g.fp8FlopsPerSecond !== null)
        assertApprox(g.fp8FlopsPerSecond / g.bf16FlopsPerSecond, 2, { abs: 0.01 }, g.id);
      assert.ok(g.source.length > 20, g.id);
    }
    for (const id of ["h100-sxm", "h100-pcie", "h200-sxm", "a100-sxm-80gb", "a100-sxm-40gb", "b200"])
      assert.ok(ids.has(id), id);
  });
  test("B200 out-computes H100 SXM at bf16 and has more HBM", () => {
    assert.ok(findGpu("b200")!.bf16FlopsPerSecond > findGpu("h100-sxm")!.bf16FlopsPerSecond * 2);
    assert.ok(findGpu("b200")!.hbmBytes > findGpu("h200-sxm")!.hbmBytes);
  });
});
