/**
 * Computed values of the chapter "overlap-math" for its prose: `{=a3.name}` prints one (see
 * ../exercise-values.ts for the conventions: the value in its unit, how it prints, and a comment
 * that says which model function or stated input it comes from). Pure.
 *
 * Every time and ratio comes from the engine: evaluateScenario (scenario.ts) with a framework profile
 * (src/data/frameworks.ts), whose step result lists each data-parallel transfer with its window, and
 * groupLink (placement.ts), which prices a group from where its ranks sit. Nothing here types a
 * bandwidth or an efficiency.
 *
 * The chapter's stated inputs: an H100 SXM at the step model's Hopper kernel efficiency; Llama 3.1
 * 70B on 64 H100s as TP 8 × DP 8, one 4,096-token sequence per microbatch (global batch 64, the
 * appendix's example), under Megatron-LM with its gradient-reduction and parameter-gather overlap
 * switched on, and under FSDP2; Llama 3.1 8B under FSDP2 over 64 GPUs; TP 8 · PP 4 · DP 2 under
 * Megatron-LM for the tensor and pipeline ratios; an A100 behind a 200 Gb/s card for the exercise;
 * the Hopper efficiency raised to 65%.
 */
import { d0, d1, d2, gpu, preset, v, type PutValue } from "./put.ts";
import { at } from "../errors.ts";
import { PUBLISHED_RUNS } from "../../data/published-runs.ts";
import { findFrameworkProfile, type FrameworkId } from "../../data/frameworks.ts";
import { gpuGeneration, KERNEL_EFFICIENCY, stepTime, type StepResult } from "../step.ts";
import { evaluateScenario, type ScenarioLayout } from "../scenario.ts";
import { clusterShape, groupLink } from "../placement.ts";
import type { ZeroStage } from "../memory.ts";
import { parseModelConfig } from "../architecture.ts";
import { layerParameters } from "../parameters.ts";
import { bytesPerValue } from "../number-formats.ts";

function transfer(r: StepResult, prefix: string) {
  const t = r.dpTransfers.find((x) => x.name.startsWith(prefix));
  if (!t) throw new Error(`overlap-math values: no transfer "${prefix}"`);
  return t;
}

export function overlapMathValues(put: PutValue): void {
  const h100 = gpu("h100-sxm");
  const a100 = gpu("a100-sxm-80gb");
  const hcluster = clusterShape("h100-sxm");
  const acluster = clusterShape("a100-sxm-80gb");
  const per = hcluster.gpusPerServer;
  // Bus bandwidths by placement (placement.ts): a ring inside one server, an all-reduce there (NVLink
  // SHARP), one rank per server, every GPU of eight servers.
  const ringLink = groupLink(hcluster, "all-gather", { ranks: per, stride: 1 });
  const ring = ringLink.busBytesPerSecond;
  const nvls = groupLink(hcluster, "all-reduce", { ranks: per, stride: 1 }).busBytesPerSecond;
  const nic = groupLink(hcluster, "all-gather", { ranks: 8, stride: per }).busBytesPerSecond;
  const eight = groupLink(hcluster, "all-gather", { ranks: 8 * per, stride: 1 }).busBytesPerSecond;
  const anic = groupLink(acluster, "all-gather", { ranks: 8, stride: acluster.gpusPerServer }).busBytesPerSecond;
  // F = η π on an H100 (step.ts's fitted Hopper efficiency times the dense bf16 peak).
  const eta = KERNEL_EFFICIENCY[gpuGeneration(h100.id)];
  const etaA = KERNEL_EFFICIENCY[gpuGeneration(a100.id)];
  const F = eta * h100.bf16FlopsPerSecond;
  const FA = etaA * a100.bf16FlopsPerSecond;

  // @sec:inputs.
  put("a3.publishedRuns", v(PUBLISHED_RUNS.length, "runs", d0));
  put("a3.etaHopper", v(100 * eta, "%", d0));
  put("a3.fTflops", v(F / 1e12, "TFLOPS", d1));
  put("a3.ringGBps", v(ring / 1e9, "GB/s", d0));
  put("a3.nvlsGBps", v(nvls / 1e9, "GB/s", d0));
  put("a3.nicGBps", v(nic / 1e9, "GB/s", d0));
  put("a3.eightPerServerGBps", v(eight / 1e9, "GB/s", d0));
  put("a3.gradBytesFp32", v(bytesPerValue("fp32"), "bytes", d0));
  put("a3.gradBytesBf16", v(bytesPerValue("bf16"), "bytes", d0));

  // @sec:dp and @sec:zero12: Llama 3.1 70B on 64 H100s, TP 8 × DP 8, 4,096-token microbatches, under
  // Megatron-LM with --overlap-grad-reduce and --overlap-param-gather on (overlapGradReduce), and with
  // its defaults (nothing overlapped).
  const c70 = preset("llama-3.1-70b").config;
  const run = (
    model: string,
    gpuCount: number,
    framework: FrameworkId,
    layout: ScenarioLayout,
    globalBatch: number,
  ): StepResult =>
    evaluateScenario({
      model,
      cluster: { gpu: "h100-sxm", gpuCount },
      framework,
      layout,
      batch: { seqLength: 4096, microBatchSize: 1, globalBatch },
    }).step;
  const dp70 = (zeroStage: ZeroStage, gradReduce: "fp32" | "bf16", overlapGradReduce = true) =>
    run("llama-3.1-70b", 64, "megatron", { tp: 8, dp: 8, zeroStage, gradReduce, overlapGradReduce }, 64);
  const ratio = (t: { secondsPerCall: number; windowSeconds: number }) => t.secondsPerCall / t.windowSeconds;
  const ar32 = transfer(dp70(0, "fp32"), "gradient all-reduce");
  const ar16 = transfer(dp70(0, "bf16"), "gradient all-reduce");
  put("a3.dpAllReduceFp32Ms", v(ar32.secondsPerCall * 1000, "ms", d1));
  put("a3.dpWindowMs", v(ar32.windowSeconds * 1000, "ms", d1));
  put("a3.rDpFp32", v(ratio(ar32), "", d2));
  put("a3.dpAllReduceBf16Ms", v(ar16.secondsPerCall * 1000, "ms", d1));
  put("a3.rDpBf16", v(ratio(ar16), "", d2));
  put(
    "a3.dpDefaultExposedMs",
    v(transfer(dp70(0, "fp32", false), "gradient all-reduce").exposedSeconds * 1000, "ms", d1),
  );
  const z1bf16 = dp70(1, "bf16");
  const rs32 = transfer(dp70(1, "fp32"), "gradient reduce-scatter");
  const rs16 = transfer(z1bf16, "gradient reduce-scatter");
  const ag = transfer(z1bf16, "parameter all-gather (next step");
  put("a3.rsFp32Ms", v(rs32.secondsPerCall * 1000, "ms", d1));
  put("a3.rRsFp32", v(ratio(rs32), "", d2));
  put("a3.rsBf16Ms", v(rs16.secondsPerCall * 1000, "ms", d1));
  put("a3.rRsBf16", v(ratio(rs16), "", d2));
  put("a3.rsBf16ExposedMs", v(rs16.exposedSeconds * 1000, "ms", d1));
  put("a3.agMs", v(ag.secondsPerCall * 1000, "ms", d1));
  put("a3.agWindowMs", v(ag.windowSeconds * 1000, "ms", d1));
  put("a3.rAg", v(ratio(ag), "", d2));
  put("a3.agExposedMs", v(ag.exposedSeconds * 1000, "ms", d1));
  // Whether the 70B layout fits (memoryBudget through evaluateScenario): ZeRO-0 and ZeRO-1 without
  // recomputation, and ZeRO-1 with full recomputation, whose recomputed forward lengthens the
  // backward window of the reduce-scatter.
  const mem70 = (zeroStage: ZeroStage, gradReduce: "fp32" | "bf16", recompute?: "full") =>
    evaluateScenario({
      model: "llama-3.1-70b",
      cluster: { gpu: "h100-sxm", gpuCount: 64 },
      framework: "megatron",
      layout: { tp: 8, dp: 8, zeroStage, gradReduce, overlapGradReduce: true },
      recompute,
      batch: { seqLength: 4096, microBatchSize: 1, globalBatch: 64 },
    });
  const z0mem = mem70(0, "fp32");
  const z1mem = mem70(1, "fp32");
  const z1rec32 = mem70(1, "fp32", "full");
  const z1rec16 = mem70(1, "bf16", "full");
  if (z0mem.fits || z1mem.fits || !z1rec16.fits)
    throw new Error("overlap-math values: the prose says ZeRO-0/1 do not fit and ZeRO-1 with recomputation does");
  put("a3.z0Gb", v(z0mem.bytesPerGpu / 1e9, "GB", d1));
  put("a3.z1Gb", v(z1mem.bytesPerGpu / 1e9, "GB", d1));
  put("a3.budgetGb", v(z1mem.budget.usableBytes / 1e9, "GB", d0));
  put("a3.z1RecomputeGb", v(z1rec16.bytesPerGpu / 1e9, "GB", d1));
  const rsRec32 = transfer(z1rec32.step, "gradient reduce-scatter");
  const rsRec16 = transfer(z1rec16.step, "gradient reduce-scatter");
  put("a3.rsRecomputeWindowMs", v(rsRec16.windowSeconds * 1000, "ms", d1));
  put("a3.rRsFp32Recompute", v(ratio(rsRec32), "", d2));
  put("a3.rRsBf16Recompute", v(ratio(rsRec16), "", d2));

  // @sec:zero3: break-even tokens of the forward window (F/B) and of the backward window
  // ((2 + g)/4 · F/B, g the bytes per gradient value of the FSDP2 profile) for three placements;
  // Llama 3.1 8B over 64 GPUs (DP 64) and the 70B layout, both under FSDP2's defaults.
  const fsdp2 = findFrameworkProfile("fsdp2");
  if (!fsdp2) throw new Error("overlap-math values: no FSDP2 profile");
  const g = fsdp2.gradientReduceDtype.value === "fp32" ? bytesPerValue("fp32") : bytesPerValue("bf16");
  const backward = (2 + g) / 4;
  put("a3.z3GradBytes", v(g, "bytes", d0));
  put("a3.z3BackwardFactor", v(backward, "", d1));
  put("a3.tStarNic", v(F / nic, "tokens", d0));
  put("a3.tStarEight", v(F / eight, "tokens", d0));
  put("a3.tStarRing", v(F / ring, "tokens", d0));
  put("a3.tStarNicBackward", v((backward * F) / nic, "tokens", d0));
  put("a3.tStarEightBackward", v((backward * F) / eight, "tokens", d0));
  put("a3.tStarRingBackward", v((backward * F) / ring, "tokens", d0));
  const z3small = run("llama-3.1-8b", 64, "fsdp2", { dp: 64, zeroStage: 3 }, 64);
  const z3f = transfer(z3small, "parameter all-gather (forward");
  const z3b = transfer(z3small, "parameter all-gather (backward");
  put("a3.z3AgMs", v(z3f.secondsPerCall * 1000, "ms", d1));
  put("a3.z3WindowMs", v(z3f.windowSeconds * 1000, "ms", d1));
  put("a3.rZ3", v(ratio(z3f), "", d2));
  put("a3.z3BackwardMs", v(z3b.secondsPerCall * 1000, "ms", d1));
  put("a3.z3BackwardWindowMs", v(z3b.windowSeconds * 1000, "ms", d1));
  put("a3.rZ3Backward", v(ratio(z3b), "", d2));
  put("a3.z3Ranks", v(z3f.ranks, "ranks", d0));
  put(
    "a3.z3LatencyMs",
    v(
      (z3f.ranks - 1) * groupLink(hcluster, "all-gather", { ranks: z3f.ranks, stride: 1 }).hopLatencySeconds * 1000,
      "ms",
      d2,
    ),
  );
  const z370 = run("llama-3.1-70b", 64, "fsdp2", { tp: 8, dp: 8, zeroStage: 3 }, 64);
  put("a3.rZ370", v(ratio(transfer(z370, "parameter all-gather (forward")), "", d2));
  put("a3.rZ370Backward", v(ratio(transfer(z370, "parameter all-gather (backward")), "", d2));
  put("a3.z370ExposedSeconds", v(z370.breakdown.dp, "s", d2));
  put("a3.z370Microbatches", v(z370.microbatches, "microbatches", d0));
  // Hybrid sharding of that layout (shard groups inside a server: one rank each, so a replica) and
  // the layout with less TP, TP 2 × DP 32 (four sharding ranks per server), under FSDP2.
  const z70 = (layout: ScenarioLayout) =>
    evaluateScenario({
      model: "llama-3.1-70b",
      cluster: { gpu: "h100-sxm", gpuCount: 64 },
      framework: "fsdp2",
      layout,
      batch: { seqLength: 4096, microBatchSize: 1, globalBatch: 64 },
    });
  const hsdp8 = z70({ tp: 8, dp: 8, zeroStage: 3, hsdp: true });
  const tp2 = z70({ tp: 2, dp: 32, zeroStage: 3 });
  if (hsdp8.fits || !tp2.fits)
    throw new Error("overlap-math values: the prose says HSDP at TP 8 does not fit, TP 2 does");
  put("a3.hsdpTp8Gb", v(hsdp8.bytesPerGpu / 1e9, "GB", d1));
  put("a3.tp2Gb", v(tp2.bytesPerGpu / 1e9, "GB", d1));
  put("a3.tp2RanksPerServer", v(per / 2, "ranks", d0));
  put("a3.tp2ExposedSeconds", v(tp2.step.breakdown.dp, "s", d2));
  put("a3.tp2StepSeconds", v(tp2.step.stepSeconds, "s", d2));
  put("a3.tp8Z3StepSeconds", v(z370.stepSeconds, "s", d2));

  // @sec:tp: h* = (t − 1)F/(3B) at t = 8 for the line rate (half the GPU's NVLink figure, one direction),
  // the ring and NVLink SHARP; R_TP from the step model's first stage of TP 8 · PP 4 · DP 2 under
  // Megatron-LM (forward collectives, half the layer's TP time, against the forward pass, a third of its
  // compute), with and without sequence parallelism, with TP communication overlap, and with the TP
  // group's members one to a server (servers of one GPU with one NIC: the ring crosses on one NIC).
  const hStar = (b: number) => (7 * F) / (3 * b);
  put("a3.hStarLine", v(hStar(h100.nvlinkBytesPerSecond / 2), "", d0));
  put("a3.hStarRing", v(hStar(ring), "", d0));
  put("a3.hStarNvls", v(hStar(nvls), "", d0));
  const tpLayout = (extra: ScenarioLayout) =>
    run("llama-3.1-70b", 64, "megatron", { tp: 8, pp: 4, dp: 2, zeroStage: 1, ...extra }, 16);
  const stage0 = (r: StepResult) => at(r.stages, 0, "a3: first stage of TP 8 · PP 4 · DP 2");
  const withSp = tpLayout({});
  const tpsp = stage0(withSp);
  const tpno = stage0(tpLayout({ sequenceParallel: false }));
  const rTp = (st: ReturnType<typeof stage0>) => st.tp / 2 / (st.compute / 3);
  put("a3.rTpSp", v(rTp(tpsp), "", d2));
  put("a3.rTpNoSp", v(rTp(tpno), "", d2));
  put("a3.tpStepSeconds", v(withSp.breakdown.tp, "s", d2));
  put("a3.tpOverlapStepSeconds", v(tpLayout({ tpCommOverlap: true }).breakdown.tp, "s", d2));
  // Under TP overlap (step.ts) each block's all-gather + reduce-scatter pair hides behind that block's
  // GEMMs: one pair's time (the stage's TP time over its 4 calls per layer) against the attention
  // block's projections (Q, K, V, output) and the MLP's, each at F over t GPUs; the attention block
  // stops hiding at the efficiency where the two are equal.
  const arch70 = parseModelConfig(c70).architecture;
  const lp = layerParameters(arch70, 0);
  const pairSeconds = tpsp.tp / (4 * tpsp.layers);
  const gemm = (params: number) => (4096 * 2 * params) / 8 / F;
  const attnRatio = pairSeconds / gemm(lp.attention);
  put("a3.tpPairMs", v(pairSeconds * 1000, "ms", d2));
  put("a3.tpAttnGemmMs", v(gemm(lp.attention) * 1000, "ms", d2));
  put("a3.tpAttnRatio", v(attnRatio, "", d2));
  put("a3.tpMlpRatio", v(pairSeconds / gemm(lp.total - lp.attention - 2 * arch70.hiddenSize), "", d2));
  put("a3.tpOverlapEtaBreak", v((100 * eta) / attnRatio, "%", d0));
  const across = stage0(
    stepTime({
      config: c70,
      gpu: h100,
      gpuCount: 64,
      tp: 8,
      pp: 4,
      dp: 2,
      zeroStage: 1,
      seqLength: 4096,
      microBatchSize: 1,
      globalBatch: 16,
      framework: "megatron",
      cluster: { gpusPerServer: 1, nvlinkDomain: 1, nicsPerServer: 1 },
      includeMemory: false,
    }),
  );
  put("a3.rTpAcross", v(rTp(across), "", d1));
  put("a3.rPpSp", v(tpsp.pp / (tpsp.compute / 3), "", { significant: 2 }));
  put("a3.rPpNoSp", v(tpno.pp / (tpno.compute / 3), "", { significant: 2 }));
  put("a3.peakGrowth", v(h100.bf16FlopsPerSecond / a100.bf16FlopsPerSecond, "×", d1));
  put("a3.nvlinkGrowth", v(h100.nvlinkBytesPerSecond / a100.nvlinkBytesPerSecond, "×", d1));

  // Exercises: the A100 at the Ampere efficiency behind its 200 Gb/s card (one rank per server); the
  // SwiGLU layer of Llama 3.1 70B (layer parameters less its two norms); per-step latency of a ring step
  // inside a server.
  put("a3.etaAmpere", v(100 * etaA, "%", d0));
  put("a3.fGrowth", v(F / FA, "×", d2));
  put("a3.nicGrowth", v(nic / anic, "×", d1));
  put("a3.tStarGrowth", v(F / nic / (FA / anic), "×", d2));
  put("a3.fAmpereTflops", v(FA / 1e12, "TFLOPS", d1));
  put("a3.anicGBps", v(anic / 1e9, "GB/s", d1));
  put("a3.hopLatencyMicroseconds", v(ringLink.hopLatencySeconds * 1e6, "µs", d0));
  const arch = parseModelConfig(c70).architecture;
  const swiglu = layerParameters(arch, 0).total - 2 * arch.hiddenSize;
  put("a3.swigluLayerParams", v(swiglu, "", d0));
  // The key-value width k of the exercise: KV heads times head size.
  put("a3.kvWidth70", v(arch.numKvHeads * arch.headDim, "", d0));
  put("a3.rTpClosed", v((4 * arch.hiddenSize * 7 * F) / (swiglu * ring), "", d2));
  // Kernel efficiency from the Hopper constant (52%) to 65% (the exercise's given).
  put("a3.kernelSpeedup", v(0.65 / eta, "×", d2));
  put("a3.exposedShare", v(100 * (1 - eta / 0.65), "%", d0));
}
