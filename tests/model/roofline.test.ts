import { test } from "node:test";
import assert from "node:assert/strict";
import {
  ModelInputError,
  attainableFlopsPerSecond,
  elementwiseCost,
  elementwiseFusionTraffic,
  findGpu,
  fusedAttentionCost,
  matmulCost,
  memoryTransactions,
  ridgePointFlopsPerByte,
  rmsNormCost,
  rooflineSeconds,
  softmaxCost,
  standardAttentionCost,
  tiledAttentionHbmElements,
} from "../../src/model/index.ts";
import { assertApprox } from "../helpers/approx.ts";

const h100 = findGpu("h100-sxm")!;

test("ridge point of the H100 SXM in bf16 is 989.4 TFLOPS / 3.35 TB/s", () => {
  const ridge = ridgePointFlopsPerByte(h100.bf16FlopsPerSecond, h100.hbmBytesPerSecond);
  assertApprox(ridge, 989.4 / 3.35, { abs: 1e-9 });
  assert.equal(ridge.toFixed(1), "295.3");
});

test("attainable rate is the lower of the two roofs", () => {
  assert.equal(attainableFlopsPerSecond(1, 100, 10), 10);
  assert.equal(attainableFlopsPerSecond(10, 100, 10), 100);
  assert.equal(attainableFlopsPerSecond(50, 100, 10), 100);
  assert.throws(() => attainableFlopsPerSecond(0, 100, 10), ModelInputError);
  assert.throws(() => attainableFlopsPerSecond(1, Number.POSITIVE_INFINITY, 10), ModelInputError);
});

test("matmul: 2mnk FLOPs and (mk + kn + mn) elements", () => {
  const c = matmulCost(2, 3, 4, 2);
  assert.equal(c.flops, 48);
  assert.equal(c.hbmBytes, (8 + 12 + 6) * 2);
  const square = matmulCost(4096, 4096, 4096);
  // mnk / (mk + kn + mn) = n/3 for a square bf16 matmul
  assertApprox(square.intensityFlopsPerByte, 4096 / 3, { abs: 1e-9 });
  assert.throws(() => matmulCost(0, 1, 1), ModelInputError);
  assert.throws(() => matmulCost(1.5, 1, 1), ModelInputError);
});

test("elementwise, softmax and RMSNorm intensities", () => {
  assert.equal(elementwiseCost(1000, 2, 1, 1).intensityFlopsPerByte, 1 / 6);
  assert.equal(softmaxCost(10, 100).intensityFlopsPerByte, 1.25);
  const norm = rmsNormCost(8, 16);
  assert.equal(norm.flops, 4 * 8 * 16);
  assert.equal(norm.hbmBytes, (2 * 8 * 16 + 16) * 2);
});

test("attention: standard traffic 4Nd + 4N², fused 4Nd, same FLOPs", () => {
  const shape = { heads: 2, seq: 8, headDim: 4 };
  const std = standardAttentionCost(shape);
  const fused = fusedAttentionCost(shape);
  assert.equal(std.flops, 2 * 4 * 64 * 4);
  assert.equal(std.flops, fused.flops);
  assert.equal(std.hbmBytes, 2 * (4 * 8 * 4 + 4 * 64) * 2);
  assert.equal(fused.hbmBytes, 2 * 4 * 8 * 4 * 2);
  // fused intensity in bf16 is N/2
  assert.equal(fusedAttentionCost({ heads: 1, seq: 4096, headDim: 128 }).intensityFlopsPerByte, 2048);
  assert.equal(tiledAttentionHbmElements(4096, 128, 128), 2 * 4096 * 128 * 33);
  assert.throws(() => standardAttentionCost({ heads: 1, seq: -1, headDim: 4 }), ModelInputError);
});

test("roofline time is the larger of compute and memory time", () => {
  const c = { flops: 100, hbmBytes: 10, intensityFlopsPerByte: 10 };
  assert.equal(rooflineSeconds(c, 50, 10), 2);
  assert.equal(rooflineSeconds(c, 200, 1), 10);
});

test("fusion: SwiGLU's silu(g)·u moves 5 tensors unfused and 3 fused", () => {
  const t = elementwiseFusionTraffic(
    [
      { inputs: ["g"], output: "a" },
      { inputs: ["a", "u"], output: "y" },
    ],
    10,
  );
  assert.deepEqual(t, { unfusedPasses: 5, fusedPasses: 3, unfusedBytes: 100, fusedBytes: 60 });
  const kept = elementwiseFusionTraffic(
    [
      { inputs: ["x", "r"], output: "s" },
      { inputs: ["s"], output: "y" },
    ],
    1,
    1,
    ["s", "y"],
  );
  assert.equal(kept.fusedPasses, 4);
  assert.throws(() => elementwiseFusionTraffic([], 1), ModelInputError);
  assert.throws(() => elementwiseFusionTraffic([{ inputs: ["x"], output: "y" }], 1, 2, ["z"]), ModelInputError);
});

test("warp loads: stride 1 is 4 sectors, stride 8 and beyond one sector per thread", () => {
  assert.equal(memoryTransactions(1).sectors, 4);
  assert.equal(memoryTransactions(1).efficiency, 1);
  assert.equal(memoryTransactions(2).sectors, 8);
  assert.equal(memoryTransactions(8).sectors, 32);
  assert.equal(memoryTransactions(32).sectors, 32);
  assert.equal(memoryTransactions(32).efficiency, 0.125);
  // misaligned by one float: 5 sectors
  assert.equal(memoryTransactions(1, 4, 1).sectors, 5);
  // 2-byte elements, stride 1: 64 bytes = 2 sectors
  assert.equal(memoryTransactions(1, 2).sectors, 2);
  assert.deepEqual(memoryTransactions(1).threadSectors.slice(0, 9), [0, 0, 0, 0, 0, 0, 0, 0, 1]);
  assert.throws(() => memoryTransactions(0), ModelInputError);
  assert.throws(() => memoryTransactions(1, 4, -1), ModelInputError);
});
