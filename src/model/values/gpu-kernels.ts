/**
 * Computed values of the chapter "gpu-kernels" for its prose: `{=ch9.name}` prints one (see
 * ../exercise-values.ts for the conventions: the value in its unit, how it prints, and a comment
 * that says which model function or stated input it comes from). Pure.
 *
 * The chapter's stated inputs: an H100 SXM in bf16 (src/data/gpus.ts); Llama 3.1 8B's shapes
 * (src/data/models.ts); a microbatch of 8,192 tokens, and 16, 256 and 512 tokens for thin matmuls;
 * attention over N = 4,096 tokens with query tiles of 128 rows; the warp size, registers and
 * resident warps per SM of the CUDA C++ Programming Guide (recorded facts, src/data/facts.ts);
 * 32-byte sectors (src/model/roofline.ts); the occupancy and strided-load examples' register
 * counts and strides.
 */
import { d0, d1, d2, gpu, preset, v, type PutValue } from "./put.ts";
import { fact } from "./facts.ts";
import {
  attainableFlopsPerSecond,
  elementwiseCost,
  elementwiseFusionTraffic,
  fusedAttentionCost,
  matmulCost,
  memoryTransactions,
  ridgePointFlopsPerByte,
  rmsNormCost,
  rooflineSeconds,
  SECTOR_BYTES,
  softmaxCost,
  standardAttentionCost,
  tiledAttentionHbmElements,
  type KernelCost,
} from "../roofline.ts";

const MB = 1e6;

/** Warp size, registers and resident warps per SM on Hopper (CUDA C++ Programming Guide, src/data/facts.ts). */
const WARP = fact("cuda.warpSize").value;
const REGISTERS_PER_SM = fact("cuda.registersPerSm").value;
const MAX_WARPS_PER_SM = fact("cuda.maxWarpsPerSm").value;

export function gpuKernelsValues(put: PutValue): void {
  const h100 = gpu("h100-sxm");
  const a100 = gpu("a100-sxm-80gb");
  const P = h100.bf16FlopsPerSecond;
  const B = h100.hbmBytesPerSecond;
  const tflops = (k: KernelCost) => attainableFlopsPerSecond(k.intensityFlopsPerByte, P, B) / 1e12;
  const micros = (k: KernelCost) => rooflineSeconds(k, P, B) * 1e6;

  // @sec:roofline: the H100's peak and ridges, and the growth from the A100.
  put("ch9.h100Bf16Tflops", v(P / 1e12, "TFLOPS", d1));
  put("ch9.ridgeH100", v(ridgePointFlopsPerByte(P, B), "FLOP/byte", d1));
  if (h100.fp8FlopsPerSecond === null) throw new Error("gpu-kernels values: the H100 has no fp8 rate");
  put("ch9.ridgeH100Fp8", v(ridgePointFlopsPerByte(h100.fp8FlopsPerSecond, B), "FLOP/byte", d1));
  put("ch9.computeGrowth", v(P / a100.bf16FlopsPerSecond, "×", d2));
  put("ch9.hbmGrowth", v(B / a100.hbmBytesPerSecond, "×", d2));

  // Llama 3.1 8B's shapes (src/data/models.ts): hidden size, MLP width, heads, layers.
  const cfg = preset("llama-3.1-8b").config as unknown as Record<string, number>;
  const hidden = cfg.hidden_size!;
  const mlp = cfg.intermediate_size!;
  const heads = cfg.num_attention_heads!;
  put("ch9.llamaHeads", v(heads, "heads", d0));
  put("ch9.llamaLayers", v(cfg.num_hidden_layers!, "layers", d0));
  const tokens = 8192; // the chapter's microbatch

  // Matmul: the MLP up-projection at 8,192 tokens, and the same weights at 16, 256 and 512 tokens.
  const big = matmulCost(tokens, mlp, hidden);
  put("ch9.upProjFlopsE11", v(big.flops / 1e11, "×1e11 FLOPs", d2));
  put("ch9.upProjMB", v(big.hbmBytes / MB, "MB", d1));
  put("ch9.upProjIntensity", v(big.intensityFlopsPerByte, "FLOP/byte", d0));
  put("ch9.upProjMicroseconds", v(micros(big), "µs", d1));
  put("ch9.upProjTflops", v(tflops(big), "TFLOPS", d1));
  const thin = matmulCost(16, mlp, hidden);
  put("ch9.thinIntensity", v(thin.intensityFlopsPerByte, "FLOP/byte", d1));
  put("ch9.thinTflops", v(tflops(thin), "TFLOPS", d1));
  const m256 = matmulCost(256, mlp, hidden);
  const m512 = matmulCost(512, mlp, hidden);
  put("ch9.thin256Intensity", v(m256.intensityFlopsPerByte, "FLOP/byte", d1));
  put("ch9.thin512Intensity", v(m512.intensityFlopsPerByte, "FLOP/byte", d1));
  // The token count at which m/(1 + m/n + m/k) reaches the ridge, rounded to one digit ("roughly 300").
  const ridge = ridgePointFlopsPerByte(P, B);
  put("ch9.crossoverTokens", v(ridge / (1 - ridge / mlp - ridge / hidden), "tokens", { significant: 1 }));

  // Elementwise add, softmax and RMSNorm over 8,192 × 4,096 bf16 activations.
  const add = elementwiseCost(tokens * hidden, 2, 1, 1);
  put("ch9.addIntensity", v(add.intensityFlopsPerByte, "FLOP/byte", d2));
  put("ch9.addTflops", v(tflops(add), "TFLOPS", d1));
  put("ch9.addMB", v(add.hbmBytes / MB, "MB", d1));
  put("ch9.addMicroseconds", v(micros(add), "µs", d1));
  const softmax = softmaxCost(heads * 4096, 4096);
  put("ch9.softmaxIntensity", v(softmax.intensityFlopsPerByte, "FLOP/byte", d2));
  put("ch9.softmaxTflops", v(tflops(softmax), "TFLOPS", d1));
  const norm = rmsNormCost(tokens, hidden);
  put("ch9.normIntensity", v(norm.intensityFlopsPerByte, "FLOP/byte", d2));
  put("ch9.normMB", v(norm.hbmBytes / MB, "MB", d1));
  put("ch9.normMicroseconds", v(micros(norm), "µs", d1));
  put("ch9.normTflops", v(tflops(norm), "TFLOPS", d1));

  // Attention over one sequence of N = 4,096 tokens, all heads of d = hidden / heads.
  const shape = { heads, seq: 4096, headDim: hidden / heads };
  const std = standardAttentionCost(shape);
  const fused = fusedAttentionCost(shape);
  put("ch9.attnFlopsE11", v(std.flops / 1e11, "×1e11 FLOPs", d2));
  put("ch9.attnStdMB", v(std.hbmBytes / MB, "MB", d1));
  put("ch9.attnStdIntensity", v(std.intensityFlopsPerByte, "FLOP/byte", d1));
  put("ch9.attnStdTflops", v(tflops(std), "TFLOPS", d1));
  put("ch9.attnFusedMB", v(fused.hbmBytes / MB, "MB", d1));
  put("ch9.attnFusedIntensity", v(fused.intensityFlopsPerByte, "FLOP/byte", d0));
  put("ch9.attnFusedTflops", v(tflops(fused), "TFLOPS", d1));
  // Exercise: K and V re-read from HBM by every query tile of 128 rows.
  const l2Elements = tiledAttentionHbmElements(4096, 128, 128);
  put("ch9.kvPasses", v(Math.ceil(4096 / 128), "passes", d0));
  put("ch9.l2Passes", v(Math.ceil(4096 / 128) + 1, "passes", d0));
  put("ch9.l2Elements", v(l2Elements, "elements", d0));
  put("ch9.l2MB", v((2 * l2Elements) / MB, "MB", d1));
  put("ch9.l2Tflops", v(attainableFlopsPerSecond((4 * 4096 ** 2 * 128) / (2 * l2Elements), P, B) / 1e12, "TFLOPS", d1));

  // The IO argument: the H100 SM's shared memory (src/data/gpus.ts) in bf16 values, M, against d² for d = 128.
  if (h100.sharedMemoryPerSmBytes === null) throw new Error("gpu-kernels values: the H100 has no shared-memory size");
  const sharedValues = h100.sharedMemoryPerSmBytes / 2;
  put("ch9.sharedBf16Values", v(sharedValues, "values", d0));
  put("ch9.ioRatio", v(sharedValues / 128 ** 2, "", d1));

  // @sec:primer: the chip's peak and bandwidth divided among its SMs.
  if (h100.smCount === null) throw new Error("gpu-kernels values: the H100 has no SM count");
  put("ch9.tflopsPerSm", v(P / h100.smCount / 1e12, "TFLOPS", d2));
  put("ch9.hbmPerSmGBps", v(B / h100.smCount / 1e9, "GB/s", d1));
  // Shared memory serves one word per bank per clock without conflicts: banks × bank width.
  put(
    "ch9.smemBytesPerClock",
    v(fact("cuda.sharedMemoryBanks").value * fact("cuda.bankWidthBytes").value, "bytes", d0),
  );

  // Occupancy from registers (the register file and warp limits above).
  const residentWarps = (registers: number, block = WARP) =>
    (Math.floor(Math.floor(REGISTERS_PER_SM / registers) / block) * block) / WARP;
  put("ch9.threads128", v(REGISTERS_PER_SM / 128, "threads", d0));
  put("ch9.warps128", v(residentWarps(128), "warps", d0));
  put("ch9.occupancy128", v((100 * residentWarps(128)) / MAX_WARPS_PER_SM, "%", d0));
  put("ch9.warps64", v(residentWarps(64), "warps", d0));
  put("ch9.occupancy64", v((100 * residentWarps(64)) / MAX_WARPS_PER_SM, "%", d0));
  // Exercise: blocks of 256 threads at 96 and 168 registers per thread.
  const blocks = (registers: number) => Math.floor(Math.floor(REGISTERS_PER_SM / registers) / 256);
  put("ch9.blocks96", v(blocks(96), "blocks", d0));
  put("ch9.threads96", v(blocks(96) * 256, "threads", d0));
  put("ch9.warps96", v(residentWarps(96, 256), "warps", d0));
  put("ch9.warps168", v(residentWarps(168, 256), "warps", d0));

  // @sec:fusion: the SwiGLU gate, silu(g) ⊙ u, as two kernels or one (8,192 × 14,336 bf16 values).
  const gateElements = tokens * mlp;
  const gate = elementwiseFusionTraffic(
    [
      { inputs: ["g"], output: "a" },
      { inputs: ["a", "u"], output: "y" },
    ],
    gateElements,
  );
  put("ch9.gateTensorMB", v((gateElements * 2) / MB, "MB", d1));
  put("ch9.gateUnfusedPasses", v(gate.unfusedPasses, "tensors", d0));
  put("ch9.gateUnfusedMB", v(gate.unfusedBytes / MB, "MB", d1));
  put("ch9.gateUnfusedMicroseconds", v((gate.unfusedBytes / B) * 1e6, "µs", d1));
  put("ch9.gateFusedPasses", v(gate.fusedPasses, "tensors", d0));
  put("ch9.gateFusedMB", v(gate.fusedBytes / MB, "MB", d1));
  put("ch9.gateFusedMicroseconds", v((gate.fusedBytes / B) * 1e6, "µs", d1));
  put("ch9.gateSavedPercent", v(100 * (1 - gate.fusedBytes / gate.unfusedBytes), "%", d0));
  // Exercise: residual add then norm; s and y are both kept; "forgetting s" keeps only y.
  const addStep = { inputs: ["x", "r"], output: "s" };
  const normStep = { inputs: ["s"], output: "y" };
  const residual = elementwiseFusionTraffic([addStep, normStep], tokens * hidden, 2, ["s", "y"]);
  const forgetful = elementwiseFusionTraffic([addStep, normStep], tokens * hidden, 2, ["y"]);
  put("ch9.residualAddPasses", v(addStep.inputs.length + 1, "passes", d0));
  put("ch9.residualNormPasses", v(normStep.inputs.length + 1, "passes", d0));
  put("ch9.residualUnfusedPasses", v(residual.unfusedPasses, "passes", d0));
  put("ch9.residualFusedPasses", v(residual.fusedPasses, "passes", d0));
  put("ch9.residualForgetfulPasses", v(forgetful.fusedPasses, "passes", d0));

  // @sec:fast, coalescing: fp32 loads by one warp; stride 8 puts every thread in its own sector.
  const s8 = memoryTransactions(8);
  put("ch9.ownSectorStride", v(SECTOR_BYTES / 4, "elements", d0));
  put("ch9.stride1Sectors", v(memoryTransactions(1).sectors, "sectors", d0));
  put("ch9.stride8Sectors", v(s8.sectors, "sectors", d0));
  put("ch9.stride8UsefulBytes", v(s8.requestedBytes, "bytes", d0));
  put("ch9.stride8Efficiency", v(100 * s8.efficiency, "%", d1));
  // Exercise: one column of a row-major fp32 matrix with 4,096 columns.
  const column = memoryTransactions(4096);
  put("ch9.columnStrideBytes", v(4096 * 4, "bytes", d0));
  put("ch9.columnSectors", v(column.sectors, "sectors", d0));
  put("ch9.columnMovedBytes", v(column.movedBytes, "bytes", d0));
  put("ch9.columnUsedBytes", v(column.requestedBytes, "bytes", d0));

  // Tiling: intensity T/e; the naive kernel is T = 1; fp32 (e = 4).
  put("ch9.naiveFp32", v(1 / 4, "FLOP/byte", d2));
  put("ch9.tiled16", v(16 / 4, "FLOP/byte", d0));
  put("ch9.tiledGain32", v(32 / 4 / (1 / 4), "×", d0));
}
