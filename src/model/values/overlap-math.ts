/**
 * Computed values of the chapter "overlap-math" for its prose: `{=a3.name}` prints one (see
 * ../exercise-values.ts for the conventions: the value in its unit, how it prints, and a comment
 * that says which model function or stated input it comes from). Pure.
 *
 * The chapter's stated inputs: an H100 SXM at the step model's Hopper kernel efficiency; Llama 3.1
 * 70B on 64 H100s as TP 8 × DP 8, one 4,096-token sequence per microbatch (global batch 64, the
 * appendix's example); Llama 3.1 8B under ZeRO-3 over 64 GPUs; TP 8 · PP 4 · DP 2 for the tensor
 * and pipeline ratios; an A100 behind a 200 Gb/s card for the exercise; 41% → 55% efficiency.
 */
import { d0, d1, d2, gpu, interconnect, preset, v, type PutValue } from "./put.ts";
import { at } from "../errors.ts";
import { PUBLISHED_RUNS } from "../../data/published-runs.ts";
import { KERNEL_EFFICIENCY, stepTime, type StepResult } from "../step.ts";
import type { ZeroStage } from "../memory.ts";
import { parseModelConfig } from "../architecture.ts";
import { layerParameters } from "../parameters.ts";
import { bytesPerValue } from "../number-formats.ts";

function transfer(r: StepResult, match: string) {
  const t = r.dpTransfers.find((x) => x.name.includes(match));
  if (!t) throw new Error(`overlap-math values: no transfer "${match}"`);
  return t;
}

export function overlapMathValues(put: PutValue): void {
  const h100 = gpu("h100-sxm");
  const a100 = gpu("a100-sxm-80gb");
  const hnet = interconnect("h100-sxm");
  const anet = interconnect("a100-sxm-80gb");
  const ring = hnet.nvlinkRingBusBytesPerSecond;
  const nvls = hnet.nvlinkNvlsAllReduceBusBytesPerSecond;
  if (nvls === null) throw new Error("overlap-math values: no NVLink SHARP bandwidth for h100-sxm");
  const nic = hnet.nicBusBytesPerSecond;
  // F = η π on an H100 (step.ts's fitted Hopper efficiency times the dense bf16 peak).
  const F = KERNEL_EFFICIENCY.hopper * h100.bf16FlopsPerSecond;
  const FA = KERNEL_EFFICIENCY.ampere * a100.bf16FlopsPerSecond;

  // @sec:inputs.
  put("a3.publishedRuns", v(PUBLISHED_RUNS.length, "runs", d0));
  put("a3.etaHopper", v(100 * KERNEL_EFFICIENCY.hopper, "%", d0));
  put("a3.fTflops", v(F / 1e12, "TFLOPS", d1));
  // A group with all eight GPUs of each server: B = min(ring, 8 × NIC).
  const eight = Math.min(ring, 8 * nic);
  put("a3.eightPerServerGBps", v(eight / 1e9, "GB/s", d0));
  put("a3.gradBytesFp32", v(bytesPerValue("fp32"), "bytes", d0));
  put("a3.gradBytesBf16", v(bytesPerValue("bf16"), "bytes", d0));

  // @sec:dp and @sec:zero12: Llama 3.1 70B on 64 H100s, TP 8 × DP 8, 4,096-token microbatches.
  const c70 = preset("llama-3.1-70b").config;
  const c8 = preset("llama-3.1-8b").config;
  const base = { gpu: "h100-sxm", seqLength: 4096, microBatchSize: 1, includeMemory: false } as const;
  const dp70 = (zeroStage: ZeroStage, gradReduce: "fp32" | "bf16") =>
    stepTime({ ...base, config: c70, gpuCount: 64, tp: 8, dp: 8, globalBatch: 64, zeroStage, gradReduce });
  const ratio = (t: { secondsPerCall: number; windowSeconds: number }) => t.secondsPerCall / t.windowSeconds;
  const ar32 = transfer(dp70(0, "fp32"), "all-reduce");
  const ar16 = transfer(dp70(0, "bf16"), "all-reduce");
  put("a3.dpAllReduceFp32Ms", v(ar32.secondsPerCall * 1000, "ms", d1));
  put("a3.dpWindowMs", v(ar32.windowSeconds * 1000, "ms", d1));
  put("a3.rDpFp32", v(ratio(ar32), "", d2));
  put("a3.dpAllReduceBf16Ms", v(ar16.secondsPerCall * 1000, "ms", d1));
  put("a3.rDpBf16", v(ratio(ar16), "", d2));
  const z1bf16 = dp70(1, "bf16");
  const rs32 = transfer(dp70(1, "fp32"), "reduce-scatter");
  const rs16 = transfer(z1bf16, "reduce-scatter");
  const ag = transfer(z1bf16, "first forward");
  put("a3.rsFp32Ms", v(rs32.secondsPerCall * 1000, "ms", d1));
  put("a3.rRsFp32", v(ratio(rs32), "", d2));
  put("a3.rsBf16Ms", v(rs16.secondsPerCall * 1000, "ms", d1));
  put("a3.rRsBf16", v(ratio(rs16), "", d2));
  put("a3.agMs", v(ag.secondsPerCall * 1000, "ms", d1));
  put("a3.agWindowMs", v(ag.windowSeconds * 1000, "ms", d1));
  put("a3.rAg", v(ratio(ag), "", d2));
  put("a3.agExposedMs", v(ag.exposedSeconds * 1000, "ms", d1));

  // @sec:zero3: T* = F/B for three group bandwidths; 8B over 64 GPUs (DP 64); the 70B layout under ZeRO-3.
  put("a3.tStarNic", v(F / nic, "tokens", d0));
  put("a3.tStarEight", v(F / eight, "tokens", d0));
  put("a3.tStarRing", v(F / ring, "tokens", d0));
  const z3small = stepTime({
    ...base,
    config: c8,
    gpuCount: 64,
    dp: 64,
    globalBatch: 64,
    zeroStage: 3,
    gradReduce: "bf16",
  });
  const z3ag = transfer(z3small, "(forward, one per layer)");
  put("a3.z3AgMs", v(z3ag.secondsPerCall * 1000, "ms", d1));
  put("a3.z3WindowMs", v(z3ag.windowSeconds * 1000, "ms", d1));
  put("a3.rZ3", v(ratio(z3ag), "", d2));
  const z370 = dp70(3, "bf16");
  put("a3.rZ370", v(ratio(transfer(z370, "(forward, one per layer)")), "", d2));
  put("a3.z370ExposedSeconds", v(z370.breakdown.dp, "s", d2));
  put("a3.z370Microbatches", v(z370.microbatches, "microbatches", d0));

  // @sec:tp: h* = (t − 1)F/(3B) at t = 8; R_TP from the step model's first stage of TP 8 · PP 4 · DP 2
  // (forward collectives, half the layer's TP time, against the forward pass, a third of its compute).
  const hStar = (b: number) => (7 * F) / (3 * b);
  put("a3.hStarLine", v(hStar(h100.nvlinkBytesPerSecond / 2), "", d0));
  put("a3.hStarRing", v(hStar(ring), "", d0));
  put("a3.hStarNvls", v(hStar(nvls), "", d0));
  const stage = (sequenceParallel: boolean) =>
    at(
      stepTime({
        ...base,
        config: c70,
        gpuCount: 64,
        tp: 8,
        pp: 4,
        dp: 2,
        globalBatch: 16,
        zeroStage: 1,
        sequenceParallel,
      }).stages,
      0,
      "a3: first stage of TP 8 · PP 4 · DP 2",
    );
  const tpsp = stage(true);
  const tpno = stage(false);
  const rTp = (s: ReturnType<typeof stage>) => s.tp / 2 / (s.compute / 3);
  put("a3.rTpSp", v(rTp(tpsp), "", d2));
  put("a3.rTpNoSp", v(rTp(tpno), "", d2));
  // The same ratio at the 45 GB/s of a network card instead of the 370 GB/s ring.
  put("a3.rTpAcross", v(rTp(tpsp) * (ring / nic), "", d1));
  put("a3.rPpSp", v(tpsp.pp / (tpsp.compute / 3), "", { significant: 2 }));
  put("a3.rPpNoSp", v(tpno.pp / (tpno.compute / 3), "", { significant: 2 }));
  put("a3.peakGrowth", v(h100.bf16FlopsPerSecond / a100.bf16FlopsPerSecond, "×", d1));
  put("a3.nvlinkGrowth", v(h100.nvlinkBytesPerSecond / a100.nvlinkBytesPerSecond, "×", d1));

  // Exercises: the A100 at the Ampere efficiency behind its 22.5 GB/s card; the SwiGLU layer of
  // Llama 3.1 70B (layer parameters less its two norms); per-step latency of a ring step.
  put("a3.etaAmpere", v(100 * KERNEL_EFFICIENCY.ampere, "%", d0));
  put("a3.fGrowth", v(F / FA, "×", d2));
  put("a3.nicGrowth", v(nic / anet.nicBusBytesPerSecond, "×", d1));
  put("a3.tStarGrowth", v(F / nic / (FA / anet.nicBusBytesPerSecond), "×", d2));
  put("a3.hopLatencyMicroseconds", v(hnet.hopLatencySeconds * 1e6, "µs", d0));
  const arch = parseModelConfig(c70).architecture;
  put("a3.swigluLayerParams", v(layerParameters(arch, 0).total - 2 * arch.hiddenSize, "", d0));
  // Kernel efficiency 41% → 55% (the exercise's givens).
  put("a3.kernelSpeedup", v(55 / 41, "×", d2));
}
