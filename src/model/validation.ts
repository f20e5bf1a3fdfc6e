/**
 * Holds the step model against published runs (src/data/published-runs.ts): converts each
 * source's reported throughput to MFU with the book's definition, predicts the same run with
 * {@link stepTime}, and summarizes the errors; fits the per-generation kernel efficiency and
 * computes the leave-one-source-out error.
 *
 * Error of a run: (predicted MFU − reported MFU) / reported MFU.
 */
import { parseModelConfig, type ModelArchitecture } from "./architecture.ts";
import { modelFlopsPerToken } from "./compute.ts";
import { at, ModelInputError } from "./errors.ts";
import { gpuGeneration, KERNEL_EFFICIENCY, stepTime, type GpuGeneration, type StepResult } from "./step.ts";
import { findModelPreset } from "../data/models.ts";
import { findGpu } from "../data/gpus.ts";
import { findInterconnect } from "../data/interconnects.ts";
import { PUBLISHED_RUNS, type PublishedRun } from "../data/published-runs.ts";

/** A run with its reported and predicted MFU. */
export interface RunEvaluation {
  run: PublishedRun;
  generation: GpuGeneration;
  /** Reported throughput converted to the book's MFU. */
  reportedMfu: number;
  predictedMfu: number;
  /** (predicted − reported) / reported. */
  relativeError: number;
  prediction: StepResult;
}

/** Median and worst absolute relative error. */
export interface ErrorSummary {
  count: number;
  medianAbsoluteError: number;
  worstAbsoluteError: number;
  /** Id of the worst run. */
  worstRun: string;
}

/** The architecture of a run's config (a preset id or a config object). */
export function runArchitecture(run: PublishedRun): ModelArchitecture {
  if (typeof run.config === "string") {
    const preset = findModelPreset(run.config);
    if (!preset) throw new ModelInputError("config", `unknown preset "${run.config}" in run ${run.id}`);
    return parseModelConfig(preset.config).architecture;
  }
  return parseModelConfig(run.config).architecture;
}

/** narayanan2021efficient Eq. (3) divided by the tokens of an iteration: FLOPs per token with full recomputation. */
export function megatronFlopsPerToken(arch: ModelArchitecture, seqLength: number): number {
  const { numLayers: L, hiddenSize: h, vocabSize: V } = arch;
  return 96 * L * h * h * (1 + seqLength / (6 * h) + V / (16 * L * h));
}

/** The reported throughput of `run` as MFU with the book's definition. */
export function reportedMfu(run: PublishedRun): number {
  const arch = runArchitecture(run);
  const gpu = findGpu(run.gpu);
  if (!gpu) throw new ModelInputError("gpu", `unknown GPU "${run.gpu}" in run ${run.id}`);
  const modelFlops = modelFlopsPerToken(arch, run.seqLength).total;
  const r = run.reported;
  let tokensPerSecondPerGpu: number;
  if (r.kind === "mfu") return r.mfu;
  if (r.kind === "megatron-tflops")
    tokensPerSecondPerGpu = (r.tflopsPerGpu * 1e12) / megatronFlopsPerToken(arch, run.seqLength);
  else if (r.kind === "iteration-seconds")
    tokensPerSecondPerGpu = (run.globalBatch * run.seqLength) / (r.seconds * run.gpuCount);
  else tokensPerSecondPerGpu = r.tokensPerSecondPerGpu;
  return (tokensPerSecondPerGpu * modelFlops) / gpu.bf16FlopsPerSecond;
}

/** Predicts `run` with the step model; `efficiency` overrides the kernel-efficiency constants by generation. */
export function predictRun(run: PublishedRun, efficiency: Partial<Record<GpuGeneration, number>> = {}): StepResult {
  const arch = runArchitecture(run);
  const generation = gpuGeneration(run.gpu);
  const base = findInterconnect(run.gpu);
  if (!base) throw new ModelInputError("gpu", `no interconnect for "${run.gpu}"`);
  const interconnect =
    run.nicBusBytesPerSecond !== undefined ? { ...base, nicBusBytesPerSecond: run.nicBusBytesPerSecond } : base;
  const l = run.layout;
  return stepTime({
    config: arch,
    gpu: run.gpu,
    gpuCount: run.gpuCount,
    tp: l.tp,
    pp: l.pp,
    cp: l.cp,
    ep: l.ep,
    dp: l.dp,
    zeroStage: l.zeroStage,
    reshardAfterForward: l.reshardAfterForward,
    sequenceParallel: l.sequenceParallel,
    recompute: l.recompute,
    seqLength: run.seqLength,
    microBatchSize: run.microBatchSize,
    globalBatch: run.globalBatch,
    schedule: l.schedule,
    chunks: l.chunks,
    gradReduce: l.gradReduce,
    stageLayers: l.stageLayers,
    rankOrder: l.rankOrder,
    kernelEfficiency: efficiency[generation] ?? KERNEL_EFFICIENCY[generation],
    interconnect,
  });
}

/** Evaluates every run (default: the whole data set). */
export function evaluateRuns(
  runs: readonly PublishedRun[] = PUBLISHED_RUNS,
  efficiency: Partial<Record<GpuGeneration, number>> = {},
): RunEvaluation[] {
  return runs.map((run) => {
    const prediction = predictRun(run, efficiency);
    const reported = reportedMfu(run);
    return {
      run,
      generation: gpuGeneration(run.gpu),
      reportedMfu: reported,
      predictedMfu: prediction.mfu,
      relativeError: (prediction.mfu - reported) / reported,
      prediction,
    };
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  const value = (index: number) => at(sorted, index, "median: sorted values");
  return n % 2 === 1 ? value((n - 1) / 2) : (value(n / 2 - 1) + value(n / 2)) / 2;
}

/** Median and worst absolute relative error of `evaluations`. */
export function summarizeErrors(evaluations: readonly { run: PublishedRun; relativeError: number }[]): ErrorSummary {
  let worst = evaluations[0];
  if (worst === undefined) throw new ModelInputError("evaluations", "no runs to summarize");
  for (const e of evaluations) if (Math.abs(e.relativeError) > Math.abs(worst.relativeError)) worst = e;
  return {
    count: evaluations.length,
    medianAbsoluteError: median(evaluations.map((e) => Math.abs(e.relativeError))),
    worstAbsoluteError: Math.abs(worst.relativeError),
    worstRun: worst.run.id,
  };
}

/**
 * Fits the kernel efficiency of each generation present in `runs`: the value on a 0.01 grid in
 * [0.30, 0.90] with the smallest median absolute MFU error over that generation's runs (ties: the
 * smaller worst error, then the smaller value).
 */
export function fitKernelEfficiency(
  runs: readonly PublishedRun[] = PUBLISHED_RUNS,
): Partial<Record<GpuGeneration, number>> {
  const out: Partial<Record<GpuGeneration, number>> = {};
  const generations = [...new Set(runs.map((r) => gpuGeneration(r.gpu)))];
  for (const g of generations) {
    const subset = runs.filter((r) => gpuGeneration(r.gpu) === g);
    let best: { eta: number; median: number; worst: number } | null = null;
    for (let k = 30; k <= 90; k++) {
      const eta = k / 100;
      const summary = summarizeErrors(evaluateRuns(subset, { [g]: eta }));
      const better =
        best === null ||
        summary.medianAbsoluteError < best.median - 1e-12 ||
        (Math.abs(summary.medianAbsoluteError - best.median) <= 1e-12 &&
          summary.worstAbsoluteError < best.worst - 1e-12);
      if (better) best = { eta, median: summary.medianAbsoluteError, worst: summary.worstAbsoluteError };
    }
    out[g] = best!.eta;
  }
  return out;
}

/**
 * Leave-one-source-out: for each source, fits the efficiencies on the other sources' runs and
 * predicts the held-out source's runs with them. Returns every held-out prediction; a generation
 * with no runs left after holding a source out keeps its constant from {@link KERNEL_EFFICIENCY}.
 */
export function leaveOneSourceOut(runs: readonly PublishedRun[] = PUBLISHED_RUNS): RunEvaluation[] {
  const sources = [...new Set(runs.map((r) => r.source))];
  const out: RunEvaluation[] = [];
  for (const source of sources) {
    const train = runs.filter((r) => r.source !== source);
    const held = runs.filter((r) => r.source === source);
    const fitted = fitKernelEfficiency(train);
    out.push(...evaluateRuns(held, fitted));
  }
  return out;
}
