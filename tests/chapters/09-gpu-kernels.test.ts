/**
 * Every number chapter 9 (GPU kernels) computes is recomputed here from src/model and src/data
 * and checked against the text. Numbers quoted from papers and datasheets (FlashAttention
 * speedups, 132 SMs, 50 MB L2, register and warp limits) carry citations instead.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { assertMentions, readChapter } from "../helpers/chapter-text.ts";
import {
  attainableFlopsPerSecond,
  elementwiseCost,
  elementwiseFusionTraffic,
  findGpu,
  findModelPreset,
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

const text = readChapter("09-gpu-kernels");
const h100 = findGpu("h100-sxm")!;
const P = h100.bf16FlopsPerSecond;
const B = h100.hbmBytesPerSecond;
const tflops = (x: number) => (x / 1e12).toFixed(1);
const mb = (bytes: number) =>
  `${(bytes / 1e6).toLocaleString("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 })} MB`;
const us = (seconds: number) => `${(seconds * 1e6).toFixed(1)} µs`;
const fmt = (n: number) => n.toLocaleString("en-US");

test("H100 per-SM shares and ridge points", () => {
  assert.equal(h100.smCount, 132);
  assertMentions(text, `${(P / 132 / 1e12).toFixed(2)} TFLOPS per SM`, "peak per SM");
  assertMentions(text, `share of ${(B / 132 / 1e9).toFixed(1)} GB/s`, "bandwidth per SM");
  const ridge = ridgePointFlopsPerByte(P, B);
  assertMentions(text, `3.35\\ \\mathrm{TB/s} = ${ridge.toFixed(1)}$ FLOP/byte`, "H100 ridge");
  assertMentions(text, `to ${ridgePointFlopsPerByte(h100.fp8FlopsPerSecond!, B).toFixed(1)} FLOP/byte`, "fp8 ridge");
  const a100 = findGpu("a100-sxm-80gb")!;
  const h200 = findGpu("h200-sxm")!;
  const ra = ridgePointFlopsPerByte(a100.bf16FlopsPerSecond, a100.hbmBytesPerSecond).toFixed(1);
  const rh = ridgePointFlopsPerByte(h200.bf16FlopsPerSecond, h200.hbmBytesPerSecond).toFixed(1);
  assertMentions(
    text,
    `has its ridge at ${ra} [@nvidia2020a100], an H200 (same compute, 4.8 TB/s) at ${rh} [@nvidia2024h200]`,
    "A100/H200 ridges",
  );
  assertMentions(text, `$312 / 2.039 = ${ra}$ FLOP/byte; H200, $989.4 / 4.8 = ${rh}$`, "exercise 1");
  assertMentions(text, `An H100 SXM can do ${ridge.toFixed(1)} bf16 FLOPs`, "takeaway");
});

test("Llama 3.1 8B shapes", () => {
  const cfg = findModelPreset("llama-3.1-8b")!.config as Record<string, number>;
  assert.equal(cfg.hidden_size, 4096);
  assert.equal(cfg.intermediate_size, 14336);
  assert.equal(cfg.num_attention_heads, 32);
  assert.equal(cfg.hidden_size / cfg.num_attention_heads, 128);
});

test("matmul intensities", () => {
  const big = matmulCost(8192, 14336, 4096);
  assertMentions(
    text,
    `$${(big.flops / 1e11).toFixed(2)} \\times 10^{11}$ FLOPs over ${mb(big.hbmBytes)}, an intensity of ${fmt(Math.round(big.intensityFlopsPerByte))} FLOP/byte`,
    "MLP up-projection",
  );
  assertMentions(text, `would take ${us(rooflineSeconds(big, P, B))}`, "time at peak");
  const thin = matmulCost(16, 14336, 4096);
  assertMentions(
    text,
    `intensity falls to ${thin.intensityFlopsPerByte.toFixed(1)} FLOP/byte and the attainable rate to ${tflops(attainableFlopsPerSecond(thin.intensityFlopsPerByte, P, B))} TFLOPS`,
    "16 tokens",
  );
  const m256 = matmulCost(256, 14336, 4096);
  const m512 = matmulCost(512, 14336, 4096);
  const ridge = ridgePointFlopsPerByte(P, B);
  assert.ok(m256.intensityFlopsPerByte < ridge && m512.intensityFlopsPerByte > ridge);
  assertMentions(
    text,
    `has an intensity of ${m256.intensityFlopsPerByte.toFixed(1)}\nFLOP/byte`.replace("\n", " "),
    "exercise 1 statement",
  );
  assertMentions(
    text,
    `$${m256.intensityFlopsPerByte.toFixed(1)} \\times 3.35 = ${tflops(attainableFlopsPerSecond(m256.intensityFlopsPerByte, P, B))}$`,
    "exercise 1 rate",
  );
  assertMentions(
    text,
    `$1 + 256/14336 + 256/4096 = ${(1 + 256 / 14336 + 256 / 4096).toFixed(3)}$, giving ${m256.intensityFlopsPerByte.toFixed(1)} FLOP/byte`,
    "exercise 2",
  );
  assertMentions(
    text,
    `With $m = 512$ it is\n${m512.intensityFlopsPerByte.toFixed(1)}`.replace("\n", " "),
    "exercise 2, m = 512",
  );
  const a100 = findGpu("a100-sxm-80gb")!;
  const h200 = findGpu("h200-sxm")!;
  assert.ok(m256.intensityFlopsPerByte > ridgePointFlopsPerByte(a100.bf16FlopsPerSecond, a100.hbmBytesPerSecond));
  assert.ok(m256.intensityFlopsPerByte > ridgePointFlopsPerByte(h200.bf16FlopsPerSecond, h200.hbmBytesPerSecond));
});

test("elementwise, softmax, RMSNorm", () => {
  const add = elementwiseCost(8192 * 4096, 2, 1, 1);
  assertMentions(
    text,
    `At ${add.intensityFlopsPerByte.toFixed(2)} FLOP/byte the roofline allows ${tflops(attainableFlopsPerSecond(add.intensityFlopsPerByte, P, B))} TFLOPS`,
    "add",
  );
  assertMentions(
    text,
    `moves ${mb(add.hbmBytes)} and takes at least ${us(rooflineSeconds(add, P, B))}`,
    "add bytes and time",
  );
  const sm = softmaxCost(32 * 4096, 4096);
  assertMentions(text, `our count): ${sm.intensityFlopsPerByte.toFixed(2)} FLOP/byte`, "softmax");
  const norm = rmsNormCost(8192, 4096);
  assertMentions(
    text,
    `${norm.intensityFlopsPerByte.toFixed(2)} FLOP/byte, ${mb(norm.hbmBytes)}, at least ${us(rooflineSeconds(norm, P, B))}`,
    "RMSNorm",
  );
  // table rows
  assertMentions(
    text,
    `| Residual add | ${add.intensityFlopsPerByte.toFixed(2)} | memory | ${tflops(attainableFlopsPerSecond(add.intensityFlopsPerByte, P, B))} |`,
    "table add",
  );
  assertMentions(
    text,
    `| Softmax | ${sm.intensityFlopsPerByte.toFixed(2)} | memory | ${tflops(attainableFlopsPerSecond(sm.intensityFlopsPerByte, P, B))} |`,
    "table softmax",
  );
  assertMentions(
    text,
    `| RMSNorm | ${norm.intensityFlopsPerByte.toFixed(2)} | memory | ${tflops(attainableFlopsPerSecond(norm.intensityFlopsPerByte, P, B))} |`,
    "table norm",
  );
  const thin = matmulCost(16, 14336, 4096);
  assertMentions(
    text,
    `| Same weights, 16 tokens | ${thin.intensityFlopsPerByte.toFixed(1)} | memory | ${tflops(attainableFlopsPerSecond(thin.intensityFlopsPerByte, P, B))} |`,
    "table thin",
  );
  const big = matmulCost(8192, 14336, 4096);
  assertMentions(text, `| ${fmt(Math.round(big.intensityFlopsPerByte))} | compute | ${tflops(P)} |`, "table big");
});

test("attention: standard vs fused", () => {
  const shape = { heads: 32, seq: 4096, headDim: 128 };
  const std = standardAttentionCost(shape);
  const fused = fusedAttentionCost(shape);
  assertMentions(text, `$${(std.flops / 1e11).toFixed(2)} \\times 10^{11}$ FLOPs in all`, "attention FLOPs");
  assertMentions(
    text,
    `${mb(std.hbmBytes)}, an intensity of ${std.intensityFlopsPerByte.toFixed(1)},\nmemory-bound at ${tflops(attainableFlopsPerSecond(std.intensityFlopsPerByte, P, B))} TFLOPS`.replace(
      "\n",
      " ",
    ),
    "standard attention",
  );
  assertMentions(
    text,
    `${mb(fused.hbmBytes)}, an intensity of $N/2 = ${fmt(fused.intensityFlopsPerByte).replace(/,/g, "{,}")}$, compute-bound`,
    "fused attention",
  );
  assertMentions(
    text,
    `| Attention, scores through HBM ($N = 4096$) | ${std.intensityFlopsPerByte.toFixed(1)} | memory | ${tflops(attainableFlopsPerSecond(std.intensityFlopsPerByte, P, B))} |`,
    "table std",
  );
  assertMentions(
    text,
    `| Attention, scores on chip ($N = 4096$) | ${fmt(fused.intensityFlopsPerByte)} | compute | ${tflops(P)} |`,
    "table fused",
  );
  // exercise: K and V re-read per query tile
  const elems = tiledAttentionHbmElements(4096, 128, 128);
  assertMentions(
    text,
    `$2Nd \\times 33 = ${fmt(elems).replace(/,/g, "{,}")}$ elements per head, ${mb(elems * 2)} in bf16`,
    "tiled elements",
  );
  const intensity = (4 * 4096 ** 2 * 128) / (2 * elems);
  assertMentions(
    text,
    `(2 \\times ${fmt(elems).replace(/,/g, "{,}")}) = ${intensity.toFixed(1)}$ FLOP/byte`,
    "tiled intensity",
  );
  assertMentions(text, `caps it at ${tflops(attainableFlopsPerSecond(intensity, P, B))} TFLOPS`, "tiled rate");
  // IO ratio M/d^2 with 228 KiB of bf16
  const mElems = h100.sharedMemoryPerSmBytes! / 2;
  assertMentions(
    text,
    `holding ${fmt(mElems)} bf16 values, $M/d^2 \\approx ${(mElems / 128 ** 2).toFixed(1)}$`,
    "M/d^2",
  );
});

test("fusion byte counts", () => {
  const elements = 8192 * 14336;
  const t = elementwiseFusionTraffic(
    [
      { inputs: ["g"], output: "a" },
      { inputs: ["a", "u"], output: "y" },
    ],
    elements,
  );
  assertMentions(text, `$8192 \\times 14336$ bf16 values, ${mb(elements * 2)}`, "tensor size");
  assertMentions(
    text,
    `move ${t.unfusedPasses} tensors: ${mb(t.unfusedBytes)}, at least\n${us(t.unfusedBytes / B)}`.replace("\n", " "),
    "unfused",
  );
  assertMentions(
    text,
    `they move ${t.fusedPasses} tensors: ${mb(t.fusedBytes)}, at least ${us(t.fusedBytes / B)}, ${Math.round((1 - t.fusedBytes / t.unfusedBytes) * 100)}% less`,
    "fused",
  );
  assertMentions(text, `moves ${t.fusedPasses} tensors instead of ${t.unfusedPasses}`, "takeaway");
  const res = elementwiseFusionTraffic(
    [
      { inputs: ["x", "r"], output: "s" },
      { inputs: ["s"], output: "y" },
    ],
    8192 * 4096,
    2,
    ["s", "y"],
  );
  assert.equal(res.unfusedPasses, 5);
  assert.equal(res.fusedPasses, 4);
  const pass = 8192 * 4096 * 2;
  assertMentions(
    text,
    `$8192 \\times 4096 \\times 2 = ${(pass / 1e6).toFixed(1)}$\nMB, so fusion saves ${mb(res.unfusedBytes - res.fusedBytes)}, ${us((res.unfusedBytes - res.fusedBytes) / B)}`.replace(
      "\n",
      " ",
    ),
    "residual fusion",
  );
});

test("coalescing, tiling and occupancy arithmetic", () => {
  const s8 = memoryTransactions(8);
  assert.equal(s8.sectors, 32);
  assertMentions(text, `an efficiency of ${(s8.efficiency * 100).toFixed(1)}%`, "stride 8 efficiency");
  const col = memoryTransactions(4096);
  assertMentions(
    text,
    `${col.sectors}\nsectors, ${fmt(col.movedBytes)} bytes fetched for ${col.requestedBytes} used, an efficiency of ${(col.efficiency * 100).toFixed(1)}%`.replace(
      "\n",
      " ",
    ),
    "column read",
  );
  // tiled intensity T/e
  assertMentions(text, "With $T = 32$ and fp32 that is 8 FLOP/byte, 32 times the naive kernel", "tiling");
  assert.equal(32 / 4 / 0.25, 32);
  // occupancy: 65,536 registers, 64 warps
  const warps = (regs: number, block = 256) => (Math.floor(Math.floor(65536 / regs) / block) * block) / 32;
  assert.equal(65536 / 128 / 32, 16);
  assertMentions(text, "fits 512 threads, which is 16 warps, an occupancy of 25%", "128 registers");
  assert.equal(warps(96), 16);
  assertMentions(
    text,
    `At 96 registers a thread, $\\lfloor 65{,}536 / 96 \\rfloor = ${Math.floor(65536 / 96)}$ threads fit`,
    "96 registers",
  );
  assert.equal(warps(168), 8);
  assertMentions(
    text,
    `At 168 registers, $\\lfloor 65{,}536 / 168 \\rfloor = ${Math.floor(65536 / 168)}$ threads fit`,
    "168 registers",
  );
});

test("A100 to H100 growth", () => {
  const a100 = findGpu("a100-sxm-80gb")!;
  assertMentions(
    text,
    `dense bf16 compute grew ${(P / a100.bf16FlopsPerSecond).toFixed(2)}× and HBM\nbandwidth ${(B / a100.hbmBytesPerSecond).toFixed(2)}×`.replace(
      "\n",
      " ",
    ),
    "growth",
  );
});

test("memory hierarchy table: register file equals shared memory/L1 per SM", () => {
  // 65,536 32-bit registers and a 256 KiB shared/L1 block (cited); 32 banks of 4 bytes per clock.
  assert.equal((65536 * 4) / 1024, 256);
  assertMentions(text, "65,536 32-bit registers = 256 KiB per SM", "register file");
  assertMentions(text, "256 KiB combined per SM, up to 228 KiB of it as shared memory", "shared memory / L1");
  assert.equal(32 * 4, 128);
  assertMentions(text, "32 banks of 4 bytes: 128 bytes per clock per SM", "shared-memory bandwidth");
  assert.ok(!/roughly ten times smaller/.test(text), "the 'ten times per level' claim is gone");
});

test("thread block clusters: blocks of a cluster synchronize and share shared memory (Hopper)", () => {
  // CUDA C++ Programming Guide, "Thread Block Clusters" and "Distributed Shared Memory"; Hopper Tuning
  // Guide 1.4.1.3 for the sizes (8 portable, 16 on H100 by opting in).
  assert.ok(!/private to an SM/.test(text), "shared memory is not private to an SM on Hopper");
  assert.ok(!/; blocks cannot wait on each other/.test(text), "the unqualified 'blocks cannot wait' claim is gone");
  assertMentions(text, "The blocks of an ordinary launch must be able to run in any order", "ordinary launch");
  assertMentions(text, "*thread block cluster*", "cluster defined");
  assertMentions(text, "*distributed shared memory*", "distributed shared memory defined");
  assertMentions(text, "8 blocks is the largest portable size, an H100 accepts 16 only", "cluster sizes");
  assertMentions(text, "one block (shared; the blocks of a cluster reach each other's), one SM (L1)", "table");
  assertMentions(text, "the only way into another SM's shared memory is a thread block cluster", "figure caption");
  const svg = readFileSync(new URL("../../assets/img/gpu-kernels/hierarchy.svg", import.meta.url), "utf8");
  assert.match(svg, /thread block cluster \(up to 8 blocks, 16 with opt-in\)/, "the figure draws the cluster");
  assert.match(svg, /marker-start="url\(#ah\)" marker-end="url\(#ah\)"/, "two-headed arrow between shared memories");
});

test("FlashAttention-3's published bf16 rate as a share of the H100's dense peak", () => {
  assert.equal(Math.round((840e12 / P) * 100), 85);
  assertMentions(text, "840 TFLOPS in bf16 (85% of peak)", "FA3 bf16");
  assert.equal(Math.round((740e12 / P) * 100), 75);
  assertMentions(text, "740 TFLOPS (75%)", "FA3 preprint");
});

test("strided loads: up to 8x the DRAM bytes at stride 8", () => {
  const s8 = memoryTransactions(8);
  assert.equal(s8.movedBytes / s8.requestedBytes, 8);
  assertMentions(text, "up to eight times the bytes it uses from DRAM", "stride-8 traffic");
});
