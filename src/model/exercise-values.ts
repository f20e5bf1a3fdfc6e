/**
 * Named values for the exercises: the number a solution prints and the answer its check box
 * expects, defined once. A chapter refers to one by name, `{=ch2.llama2StatesGB}` in the text
 * or inside math, and `value: ch2.llama2StatesGB` in an `::: answer` block; the build prints the
 * first through the book's formatter (src/figures/kit/format.ts, with the `digits` given here)
 * and writes the second, unrounded, into the answer box's `data-answer`. So the solution and
 * the box cannot disagree, and a change to the model moves both.
 *
 * Each value is in the unit its `unit` names (GB = 1e9 bytes, GiB = 2^30 bytes, % = percent),
 * computed from src/model and src/data where the book's calculators cover it, and otherwise
 * from the exercise's own stated inputs (the question's numbers, repeated here as constants with
 * a comment saying where they come from). Values used only as hints (a known wrong answer) are
 * defined the same way, so a hint cannot drift from the mistake it names.
 *
 * Pure: no DOM, no formatting, no Node APIs (architecture.md: src/model imports src/data only).
 */
import { KERNEL_EFFICIENCY } from "./step.ts";
import { memoryBudget } from "./scenario.ts";
import { clusterShape, groupLink } from "./placement.ts";
import { AUTO_FRAMEWORK } from "./config-search.ts";
import { findFrameworkProfile } from "../data/frameworks.ts";
import { d0, d1, d2, gpu, params, v } from "./values/put.ts";
import { fact } from "./values/facts.ts";
import { prefaceValues } from "./values/preface.ts";
import { EXERCISE_MFU, introductionValues } from "./values/introduction.ts";
import { oneGpuValues } from "./values/one-gpu.ts";
import { dataParallelismValues } from "./values/data-parallelism.ts";
import { tensorParallelismValues } from "./values/tensor-parallelism.ts";
import { contextParallelismValues } from "./values/context-parallelism.ts";
import { pipelineParallelismValues } from "./values/pipeline-parallelism.ts";
import { expertParallelismValues } from "./values/expert-parallelism.ts";
import { fiveDParallelismValues } from "./values/five-d-parallelism.ts";
import { gpuKernelsValues } from "./values/gpu-kernels.ts";
import { mixedPrecisionValues } from "./values/mixed-precision.ts";
import { beyondOneDatacenterValues } from "./values/beyond-one-datacenter.ts";
import { conclusionValues } from "./values/conclusion.ts";
import { collectivesValues } from "./values/collectives.ts";
import { profilingValues } from "./values/profiling.ts";
import { typicalScalesValues } from "./values/typical-scales.ts";
import { overlapMathValues } from "./values/overlap-math.ts";
import { dataValues } from "./values/data.ts";
import { factValues } from "./values/facts.ts";
import type { FactRounding } from "../data/facts.ts";

/** How a value prints: the option names of `Digits` in src/figures/kit/format.ts. */
export interface PrintDigits {
  decimals?: number;
  significant?: number;
  trim?: boolean;
}

export interface ExerciseValue {
  /** The value, in `unit`. */
  value: number;
  /** The unit the value is in ("GB", "ms", "%", "tokens", … or "" for a pure number). */
  unit: string;
  /** How the solution prints it (`formatNumber(value, digits)`). */
  digits: PrintDigits;
  /**
   * How a print with fewer decimals (`{=name:N}`) may round it (src/data/facts.ts, FactRounding):
   * "exact" refuses, "down" and "up" round one way only; default "nearest".
   */
  rounding?: FactRounding;
  /** The id of the recorded fact (src/data/facts.ts) the value prints, for a cited fact. */
  fact?: string;
}

const GB = 1e9;
const MB = 1e6;
const MiB = 2 ** 20;
const GiB = 2 ** 30;

/**
 * Bus bandwidth of a group with one rank per server of this GPU's system (placement.ts's groupLink:
 * the ring leaves each server on one NIC), e.g. an A100 server's 200 Gb/s card.
 */
const oneRankPerServerBytesPerSecond = (gpuId: string): number => {
  const cluster = clusterShape(gpuId);
  return groupLink(cluster, "all-gather", { ranks: 2, stride: cluster.gpusPerServer }).busBytesPerSecond;
};

const psi7b = params("llama-2-7b"); // 6,738,415,616
const psi8b = params("llama-3.1-8b"); // 8,030,261,248
const psi70b = params("llama-3.1-70b"); // 70,553,706,496
const psi405b = params("llama-3.1-405b"); // 405,853,388,800
const psiMixtral = params("mixtral-8x7b"); // 46,702,792,704
const h100 = gpu("h100-sxm");
const a100 = gpu("a100-sxm-80gb");
const h200 = gpu("h200-sxm");

function values(): Record<string, ExerciseValue> {
  const out: Record<string, ExerciseValue> = {};
  const put = (name: string, value: ExerciseValue) => {
    if (Object.prototype.hasOwnProperty.call(out, name)) throw new Error(`exercise values: "${name}" is defined twice`);
    out[name] = value;
  };

  // Preface: 80 GB in GiB.
  put("pre.gib80", v(h100.hbmBytes / GiB, "GiB", d1));

  // Chapter 1. Stated inputs: N = 70.55e9, D = 15e12, 1,024 GPUs, the expected MFU (EXERCISE_MFU, 40%),
  // 989 TFLOPS dense (1,979 sparse).
  const trainSeconds = (peak: number) => (6 * 70.55e9 * 15e12) / (1024 * EXERCISE_MFU * peak);
  put("ch1.trainDays", v(trainSeconds(989e12) / 86_400, "days", d0));
  put("ch1.trainDaysSparse", v(trainSeconds(1979e12) / 86_400, "days", d0));
  put("ch1.statesGpus", v(Math.ceil((16 * psi70b) / h100.hbmBytes), "GPUs", d0));
  put("ch1.statesGpusFloor", v(Math.floor((16 * psi70b) / h100.hbmBytes), "GPUs", d0));
  // Llama 3 405B's 400 TFLOPS per GPU (grattafiori2024llama3, Table 4) over the H100's dense and sparse peaks.
  const llama3Tflops = fact("llama3.tflopsPerGpu").value * 1e12;
  put("ch1.mfuDense", v((100 * llama3Tflops) / h100.bf16FlopsPerSecond, "%", d1));
  put("ch1.mfuSparse", v((100 * llama3Tflops) / (2 * h100.bf16FlopsPerSecond), "%", d1));

  // Chapter 2.
  put("ch2.llama2StatesGB", v((16 * psi7b) / GB, "GB", d1));
  put("ch2.llama2StatesBufferGB", v((20 * psi7b) / GB, "GB", d1));
  put("ch2.llama2WeightsGB", v((2 * psi7b) / GB, "GB", d1));
  // SwiGLU MLP of Llama 3.1 8B: 2h + 8f bytes per token (h = 4,096, f = 14,336); GPT MLP: 19h.
  put("ch2.swigluBytes", v(2 * 4096 + 8 * 14336, "bytes", d0));
  put("ch2.swigluRecomputeBytes", v(2 * 4096 + 6 * 14336, "bytes", d0));
  put("ch2.gptMlpBytes", v(19 * 4096, "bytes", d0));
  // Attention-matrix share at h = 4,096, a = 32, s = 8,192: 5as/h against 34.
  const quad = (5 * 32 * 8192) / 4096;
  put("ch2.attentionShare", v((100 * quad) / (quad + 34), "%", d1));
  put("ch2.linearShare", v((100 * 34) / (quad + 34), "%", d1));
  // Step time: 256 × 4,096 tokens × 9.03e9 FLOPs (the chapter's F_token, rounded as printed) at the
  // Hopper kernel efficiency of the H100's dense peak, as in the chapter's prose.
  const stepSeconds = (256 * 4096 * 9.03e9) / (KERNEL_EFFICIENCY.hopper * h100.bf16FlopsPerSecond);
  put("ch2.stepSeconds", v(stepSeconds, "s", d1));
  put("ch2.trainYears", v(9e12 / ((256 * 4096) / stepSeconds) / (365.25 * 86_400), "years", d1));
  // The first-step exercise's answers are computed with its givens, from the model: values/one-gpu.ts.
  put("ch2.mfu", v(50 * (6 / 8), "%", d1));
  put("ch2.mfuInverted", v(50 * (8 / 6), "%", d1));

  // Chapter 3: in values/data-parallelism.ts.

  // Chapter 4.
  const tpElements = 8 * 2 * 4096 * 4096 * (3 / 4);
  put("ch4.tpLayerMB", v((2 * tpElements) / MB, "MB", d1));
  put("ch4.tpLayerElementsMB", v(tpElements / MB, "MB", d1));
  put("ch4.tpLayerNoFactorMB", v((2 * 8 * 2 * 4096 * 4096) / MB, "MB", d1));
  // ch4.minHidden: in values/tensor-parallelism.ts (the NVLS bus bandwidth from placement.ts).
  const sbh = 2048 * 12288;
  put("ch4.actTpMiB", v((23 * sbh) / MiB, "MiB", d0));
  put("ch4.actSpMiB", v((14.25 * sbh) / MiB, "MiB", d0));
  put("ch4.actTpFlashMiB", v((13 * sbh) / MiB, "MiB", d0));
  put("ch4.actSpFlashMiB", v((4.25 * sbh) / MiB, "MiB", d0));

  // Chapter 5: s/c = 8,192 tokens, 8 KV heads of 128, bf16, c = 16.
  const kvBlockBytes = 2 * 8192 * 8 * 128 * 2;
  put("ch5.kvForwardMB", v((15 * kvBlockBytes) / MB, "MB", d1));
  put("ch5.kvForwardAllMB", v((16 * kvBlockBytes) / MB, "MB", d1));
  put("ch5.contiguousEfficiency", v((100 * 16) / (2 * 16 - 1), "%", d1));
  // ch5.ringTokensMha, ringTokensGqa, ringTokensCausal: in values/context-parallelism.ts (placement.ts's link).

  // Chapter 6.
  put("ch6.bubble1f1b", v((100 * 15) / 48, "%", d1));
  put("ch6.bubble1f1bP", v((100 * 16) / 48, "%", d1));
  put("ch6.bubbleOfStep", v((100 * 15) / 63, "%", d1));
  put("ch6.bubbleAfter", v((100 * 15) / 8, "%", d1));
  put("ch6.bubbleAfterP", v((100 * 16) / 8, "%", d1));
  put("ch6.boundaryMB", v((2 * 8192 * 8192) / MB, "MB", d1));
  put("ch6.boundaryBf16TwiceMB", v((2 * 2 * 8192 * 8192) / MB, "MB", d1));
  // ch6.boundaryMs: in values/pipeline-parallelism.ts (placement.ts's link).

  // Chapter 7.
  put("ch7.mixtralWeightsGB", v((2 * psiMixtral) / GB, "GB", d1));
  put("ch7.mixtralGpus", v(Math.ceil((16 * psiMixtral) / (80 * GB)), "GPUs", d0));
  put("ch7.mixtralGpusFloor", v(Math.floor((16 * psiMixtral) / (80 * GB)), "GPUs", d0));
  put("ch7.capacity125", v(Math.ceil(1.25 * ((2 * 8192) / 64)), "slots", d0));
  put("ch7.capacityFactor", v(1.5, "", d1));
  put("ch7.dispatchMB", v((4096 * 8 * 7168 * 1 * (63 / 64)) / MB, "MB", d1));
  put("ch7.dispatchAllMB", v((4096 * 8 * 7168) / MB, "MB", d1));

  // Chapter 8.
  put("ch8.states405GB", v((16 * psi405b) / GB, "GB", d1));
  // Exercise 1: the states over the usable memory of an H100 (scenario.ts's memoryBudget).
  put("ch8.gpus405", v(Math.ceil((16 * psi405b) / memoryBudget(h100).usableBytes), "GPUs", d0));
  put("ch8.gpus405Floor", v(Math.floor((16 * psi405b) / memoryBudget(h100).usableBytes), "GPUs", d0));
  put("ch8.perGpu405GB", v(((psi405b / 128) * (4 + 12 / 64)) / GB, "GB", d1));
  put("ch8.perGpu405NoZeroGB", v(((psi405b / 128) * 16) / GB, "GB", d1));
  put("ch8.chunks", v(Math.floor(15 / 32 / 0.1 / 1) + 1, "chunks", d0));
  // Exercise 3: @eq:zero3-tokens on A100s, one rank per server, gradients reduced in the bytes of the
  // search's ZeRO-3 profile: T* = (2 + g)/4 · F/W.
  const gZ3 = findFrameworkProfile(AUTO_FRAMEWORK[3])?.gradientReduceDtype.value === "bf16" ? 2 : 4;
  put(
    "ch8.a100Tokens",
    v(
      (((2 + gZ3) / 4) * KERNEL_EFFICIENCY.ampere * a100.bf16FlopsPerSecond) /
        oneRankPerServerBytesPerSecond("a100-sxm-80gb"),
      "tokens",
      d0,
    ),
  );
  // Exercise 5: Llama 3's 54-day snapshot and its 419 unexpected interruptions (facts); 40 minutes lost each.
  const snapshotHours = fact("llama3.snapshotDays").value * 24;
  const unexpected = fact("llama3.unexpectedInterruptions").value;
  put("ch8.mtbiHours", v(snapshotHours / unexpected, "hours", d2));
  put("ch8.lostShare", v((100 * (unexpected * 40)) / 60 / snapshotHours, "%", d1));

  // Chapter 9.
  put("ch9.ridgeA100", v(a100.bf16FlopsPerSecond / a100.hbmBytesPerSecond, "FLOP/byte", d1));
  put("ch9.ridgeH200", v(h200.bf16FlopsPerSecond / h200.hbmBytesPerSecond, "FLOP/byte", d1));
  put("ch9.tiled32", v(32 / 4, "FLOP/byte", d0));
  put("ch9.l2Intensity", v((4 * 4096 ** 2 * 128) / (2 * (2 * 4096 * 128 * 33)), "FLOP/byte", d1));
  put("ch9.occupancy96", v((100 * 16) / 64, "%", d0));
  put("ch9.occupancy168", v((100 * 8) / 64, "%", d1));
  put("ch9.fusionMB", v((8192 * 4096 * 2) / MB, "MB", d1));
  put("ch9.fusionMicroseconds", v(((8192 * 4096 * 2) / h100.hbmBytesPerSecond) * 1e6, "µs", d1));
  put("ch9.stridedEfficiency", v((100 * 128) / 1024, "%", d1));

  // Chapter 10.
  put("ch10.e5m2Max", v(1.75 * 2 ** 15, "", d0));
  put("ch10.e4m3Max", v(1.75 * 2 ** 8, "", d0));
  put("ch10.e4m3Nan", v(1.875 * 2 ** 8, "", d0));
  put("ch10.statesGB", v((16 * psi8b) / GB, "GB", d1));
  put("ch10.deepseekStatesGB", v((14 * psi8b) / GB, "GB", d1));
  put("ch10.bf16LossThreshold", v(2 ** 8 * 1e-4, "", { decimals: 4 }));
  put("ch10.deepseekTileBits", v(8 + 32 / 128, "bits", d2));

  // Chapter 11's exercise values are computed from its step model: values/beyond-one-datacenter.ts.

  // Appendix A (collectives).
  put("a0.gatherGB", v(((63 / 64) * 2 * psi8b) / GB, "GB", d2));
  put("a0.gatherBf16TwiceGB", v(((63 / 64) * 4 * psi8b) / GB, "GB", d2));
  put("a0.busAllReduce", v(180 * 2 * (7 / 8), "GB/s", d0));
  put("a0.busAllGather", v(180 * (7 / 8), "GB/s", d1));

  // Appendix B (profiling): 4.0e14 FLOPs per step, 1,250 ms step, 1,000 ms compute, H100 dense peak.
  put("a1.mfu", v((100 * 4.0e14) / (1.25 * h100.bf16FlopsPerSecond), "%", d1));
  put("a1.mfuNoGaps", v((100 * 4.0e14) / (1.0 * h100.bf16FlopsPerSecond), "%", d1));
  put("a1.adamStatesGB", v((8 * psi8b) / GB, "GB", d2));
  put("a1.adamAllStatesGB", v((12 * psi8b) / GB, "GB", d2));

  // Appendix D (overlap math).
  put(
    "a3.breakEvenTokens",
    v(
      (KERNEL_EFFICIENCY.ampere * gpu("a100-sxm-80gb").bf16FlopsPerSecond) /
        oneRankPerServerBytesPerSecond("a100-sxm-80gb"),
      "tokens",
      d0,
    ),
  );
  // The prose values of each chapter (the number ledger, issue #27), one module per chapter.
  prefaceValues(put);
  introductionValues(put);
  oneGpuValues(put);
  dataParallelismValues(put);
  tensorParallelismValues(put);
  contextParallelismValues(put);
  pipelineParallelismValues(put);
  expertParallelismValues(put);
  fiveDParallelismValues(put);
  gpuKernelsValues(put);
  mixedPrecisionValues(put);
  beyondOneDatacenterValues(put);
  conclusionValues(put);
  collectivesValues(put);
  profilingValues(put);
  typicalScalesValues(put);
  overlapMathValues(put);
  // src/data printed by name ({=gpu.…}, {=net.…}, {=model.…}) and the cited facts ({=fact.…}), issue #53.
  dataValues(put);
  factValues(put);
  return out;
}

let cache: Readonly<Record<string, ExerciseValue>> | undefined;

/**
 * Every named value, by name ("ch2.llama2StatesGB"), computed on first use: src/model/index.ts
 * re-exports this module into the widgets' bundle, where nothing reads it, so loading it must
 * cost nothing (chapter 8's values run the configuration search).
 */
export function allExerciseValues(): Readonly<Record<string, ExerciseValue>> {
  cache ??= Object.freeze(values());
  return cache;
}

/** The named value, or undefined when no value has that name. */
export function exerciseValue(name: string): ExerciseValue | undefined {
  const all = allExerciseValues();
  return Object.prototype.hasOwnProperty.call(all, name) ? all[name] : undefined;
}
