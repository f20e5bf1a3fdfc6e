/**
 * Holds the step model against published runs (src/data/published-runs.ts): converts each
 * source's reported throughput to MFU with the book's definition, predicts the same run with
 * {@link stepTime} from its layout and its software, and summarizes the errors in sample and out
 * of sample (leave one source out), overall and broken down by GPU generation and by layout class.
 *
 * Error of a run: (predicted MFU − reported MFU) / reported MFU; the summaries report its absolute
 * value (median and worst).
 *
 * **What is fitted.** One kernel efficiency per GPU generation that has runs (A100 and H100: two
 * numbers), each the value on a 0.01 grid that minimizes the median absolute error over that
 * generation's runs ({@link fitKernelEfficiency}). Nothing else is fitted: every other input is the
 * run's own layout and software or a stated assumption. Out of sample, each source is predicted
 * with the two numbers fitted on the other sources ({@link leaveOneSourceOut}).
 *
 * **The fp8 group.** The fp8 runs (PUBLISHED_FP8_RUNS) are held apart: they do not enter the two
 * bf16 fits or the report's bf16 numbers. They fit one more number, the efficiency of the fp8 linear
 * matmuls on Hopper ({@link fitFp8KernelEfficiency}), with each step's bf16 parts (attention, the LM
 * head) at the Hopper bf16 constant, and are judged out of sample the same way
 * ({@link fp8LeaveOneSourceOut}: the held-out source's runs predicted with both the bf16 and the fp8
 * efficiency fitted without that source). MFU stays against the dense bf16 peak for them too.
 */
import { parseModelConfig, type ModelArchitecture } from "./architecture.ts";
import { modelFlopsPerToken } from "./compute.ts";
import { at, ModelInputError } from "./errors.ts";
import {
  FP8_KERNEL_EFFICIENCY,
  gpuGeneration,
  KERNEL_EFFICIENCY,
  stepTime,
  type GpuGeneration,
  type StepResult,
} from "./step.ts";
import { findModelPreset } from "../data/models.ts";
import { findGpu } from "../data/gpus.ts";
import { findInterconnect } from "../data/interconnects.ts";
import { FRAMEWORK_IDS } from "../data/frameworks.ts";
import {
  PUBLISHED_FP8_RUNS,
  PUBLISHED_RUNS,
  RUN_SOURCES,
  type PublishedRun,
  type RunSource,
} from "../data/published-runs.ts";

/** A run with its reported and predicted MFU. */
export interface RunEvaluation {
  run: PublishedRun;
  generation: GpuGeneration;
  /** Reported throughput converted to the book's MFU. */
  reportedMfu: number;
  predictedMfu: number;
  /** (predicted − reported) / reported. */
  relativeError: number;
  /** The step time the reported throughput implies, seconds. */
  reportedStepSeconds: number;
  /** Kernel efficiency the prediction used. */
  kernelEfficiency: number;
  /** Efficiency of the fp8 linear matmuls the prediction used (null for a bf16 run). */
  fp8KernelEfficiency: number | null;
  prediction: StepResult;
}

/** Median and worst absolute relative error. */
export interface ErrorSummary {
  count: number;
  median: number;
  worst: number;
  /** Id of the worst run. */
  worstRun: string;
}

/** Kernel efficiency by GPU generation. */
export type Efficiencies = Partial<Record<GpuGeneration, number>>;

/** The layout classes the validation breaks its errors down by. */
export const LAYOUT_CLASSES = ["DP/FSDP only", "TP+DP", "TP+PP+DP", "with CP", "MoE"] as const;
export type LayoutClass = (typeof LAYOUT_CLASSES)[number];

/** The GPU generations in the order the breakdown lists them. */
export const GENERATIONS: readonly GpuGeneration[] = ["ampere", "hopper", "blackwell"];

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

/**
 * Megatron-Core r0.8.0's `num_floating_point_operations` (megatron/training/training.py L73-L108)
 * divided by the tokens of a batch: model FLOPs per token without recomputation, attention counted whole.
 */
export function megatronCoreFlopsPerToken(arch: ModelArchitecture, seqLength: number): number {
  const { numLayers: L, hiddenSize: h, vocabSize: V, numHeads: a, numKvHeads: g } = arch;
  const queryRatio = (arch.headDim * a) / h;
  const gated = arch.mlp === "swiglu" ? 3 / 2 : 1;
  return (
    12 * L * h * h * ((1 + g / a + seqLength / h) * queryRatio + (arch.intermediateSize / h) * gated + V / (2 * L * h))
  );
}

/** The layout class of a run: MoE, then context parallelism, then pipeline, then tensor parallelism. */
export function layoutClass(run: PublishedRun): LayoutClass {
  return layoutClassOf(run.layout, runArchitecture(run).moe !== undefined);
}

/** The layout class of parallel degrees on a model (`moe`: the model has experts), by the rule of {@link layoutClass}. */
export function layoutClassOf(l: { tp: number; pp: number; cp: number; ep: number }, moe: boolean): LayoutClass {
  if (l.ep > 1 || moe) return "MoE";
  if (l.cp > 1) return "with CP";
  if (l.pp > 1) return "TP+PP+DP";
  if (l.tp > 1) return "TP+DP";
  return "DP/FSDP only";
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
  else if (r.kind === "megatron-core-tflops")
    tokensPerSecondPerGpu = (r.tflopsPerGpu * 1e12) / megatronCoreFlopsPerToken(arch, run.seqLength);
  else if (r.kind === "iteration-seconds")
    tokensPerSecondPerGpu = (run.globalBatch * run.seqLength) / (r.seconds * run.gpuCount);
  else tokensPerSecondPerGpu = r.tokensPerSecondPerGpu;
  return (tokensPerSecondPerGpu * modelFlops) / gpu.bf16FlopsPerSecond;
}

/**
 * Predicts `run` with the step model from its layout and software; `efficiency` overrides the
 * kernel efficiency by generation (default {@link KERNEL_EFFICIENCY}), and `eta`, when given, sets it.
 * An fp8 run's linear matmuls take `fp8.eta`, else `fp8.efficiency` by generation, else
 * {@link FP8_KERNEL_EFFICIENCY}.
 */
export function predictRun(
  run: PublishedRun,
  efficiency: Efficiencies = {},
  eta?: number,
  fp8: { efficiency?: Efficiencies; eta?: number } = {},
): StepResult {
  const arch = runArchitecture(run);
  const generation = gpuGeneration(run.gpu);
  const base = findInterconnect(run.gpu);
  if (!base) throw new ModelInputError("gpu", `no interconnect for "${run.gpu}" in run ${run.id}`);
  const interconnect =
    run.nicBusBytesPerSecond !== undefined ? { ...base, nicBusBytesPerSecond: run.nicBusBytesPerSecond } : base;
  const l = run.layout;
  const sw = run.software;
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
    sequenceParallel: sw.sequenceParallel.value,
    recompute: l.recompute,
    seqLength: run.seqLength,
    microBatchSize: run.microBatchSize,
    globalBatch: run.globalBatch,
    schedule: l.schedule,
    chunks: l.chunks,
    gradReduce: sw.gradPrecision.value,
    stageLayers: l.stageLayers,
    rankOrder: l.rankOrder,
    causalAttention: sw.attentionKernel.value === "causal-skip",
    framework: sw.framework,
    tpCommOverlap: sw.tpCommOverlap.value,
    overlapGradReduce: sw.dpOverlap.value,
    kernelEfficiency: eta ?? efficiency[generation] ?? KERNEL_EFFICIENCY[generation],
    interconnect,
    includeMemory: false,
    precision: run.precision,
    ...(run.precision === "fp8"
      ? { fp8KernelEfficiency: fp8.eta ?? fp8.efficiency?.[generation] ?? FP8_KERNEL_EFFICIENCY[generation] ?? 0 }
      : {}),
  });
}

/** Evaluates every run (default: the whole data set) at the given efficiencies (default {@link KERNEL_EFFICIENCY}). */
export function evaluateRuns(
  runs: readonly PublishedRun[] = PUBLISHED_RUNS,
  efficiency: Efficiencies = {},
  fp8Efficiency: Efficiencies = {},
): RunEvaluation[] {
  return runs.map((run) => {
    const prediction = predictRun(run, efficiency, undefined, { efficiency: fp8Efficiency });
    const reported = reportedMfu(run);
    return {
      run,
      generation: gpuGeneration(run.gpu),
      reportedMfu: reported,
      predictedMfu: prediction.mfu,
      relativeError: (prediction.mfu - reported) / reported,
      reportedStepSeconds: (prediction.stepSeconds * prediction.mfu) / reported,
      kernelEfficiency: prediction.kernelEfficiency,
      fp8KernelEfficiency: prediction.fp8KernelEfficiency,
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

/** Parts of the model's step the appendix shows, each as a share of the step time the run reported. */
export interface StepShares {
  compute: number;
  recompute: number;
  bubble: number;
  tp: number;
  cp: number;
  dp: number;
  /** Pipeline sends, expert all-to-alls and the optimizer. */
  other: number;
}

/** The model's step for `e` by part, each over the reported step time (they sum to predicted over reported). */
export function stepShares(e: RunEvaluation): StepShares {
  const b = e.prediction.breakdown;
  const t = e.reportedStepSeconds;
  return {
    compute: b.compute / t,
    recompute: b.recompute / t,
    bubble: b.bubble / t,
    tp: b.tp / t,
    cp: b.cp / t,
    dp: b.dp / t,
    other: (b.pp + b.ep + b.optimizer) / t,
  };
}

/** Median and worst absolute relative error of `evaluations`. */
export function summarizeErrors(evaluations: readonly { run: PublishedRun; relativeError: number }[]): ErrorSummary {
  let worst = evaluations[0];
  if (worst === undefined) throw new ModelInputError("evaluations", "no runs to summarize");
  for (const e of evaluations) if (Math.abs(e.relativeError) > Math.abs(worst.relativeError)) worst = e;
  return {
    count: evaluations.length,
    median: median(evaluations.map((e) => Math.abs(e.relativeError))),
    worst: Math.abs(worst.relativeError),
    worstRun: worst.run.id,
  };
}

/** The grid the efficiencies are fitted on: 0.30 to 0.90 in steps of 0.01. */
const GRID = Array.from({ length: 61 }, (_, k) => (30 + k) / 100);

const mfuCache = new WeakMap<PublishedRun, Map<number, number>>();

/** The predicted MFU of `run` at kernel efficiency `eta`, remembered per run (the fits ask for the same pairs many times). */
function predictedMfuAt(run: PublishedRun, eta: number): number {
  let byEta = mfuCache.get(run);
  if (!byEta) {
    byEta = new Map();
    mfuCache.set(run, byEta);
  }
  let mfu = byEta.get(eta);
  if (mfu === undefined) {
    mfu = predictRun(run, {}, eta).mfu;
    byEta.set(eta, mfu);
  }
  return mfu;
}

/**
 * Fits one efficiency per group of `runs` (`group` names a run's group): the value on a 0.01 grid
 * in [0.30, 0.90] with the smallest median absolute MFU error over the group's runs (ties: the
 * smaller worst error, then the smaller value).
 */
export function fitEfficiencyByGroup(
  runs: readonly PublishedRun[],
  group: (run: PublishedRun) => string,
): Map<string, number> {
  const out = new Map<string, number>();
  for (const g of new Set(runs.map(group))) {
    const subset = runs.filter((r) => group(r) === g);
    const reported = subset.map(reportedMfu);
    let best: { eta: number; median: number; worst: number } | null = null;
    for (const eta of GRID) {
      const errors = subset.map((r, i) => {
        const rep = at(reported, i, "fit: reported MFU");
        return Math.abs(predictedMfuAt(r, eta) - rep) / rep;
      });
      const m = median(errors);
      const w = Math.max(...errors);
      const better =
        best === null || m < best.median - 1e-12 || (Math.abs(m - best.median) <= 1e-12 && w < best.worst - 1e-12);
      if (better) best = { eta, median: m, worst: w };
    }
    if (best) out.set(g, best.eta);
  }
  return out;
}

const fitCache = new WeakMap<readonly PublishedRun[], Efficiencies>();

/**
 * Fits the kernel efficiency of each generation present in `runs` ({@link fitEfficiencyByGroup}
 * with the GPU generation as the group): the only fitted numbers of the validation.
 */
export function fitKernelEfficiency(runs: readonly PublishedRun[] = PUBLISHED_RUNS): Efficiencies {
  const cached = fitCache.get(runs);
  if (cached) return cached;
  const out: Efficiencies = Object.fromEntries(fitEfficiencyByGroup(runs, (r) => gpuGeneration(r.gpu)));
  fitCache.set(runs, out);
  return out;
}

/**
 * How far the book's constants may drift from the fit before they are refitted: the median absolute
 * MFU error at {@link KERNEL_EFFICIENCY} may exceed the grid minimum's by at most this much (two
 * percentage points). The grid minimum of a median moves by whole percents with small changes to the
 * model or the data; refitting on every such move would shift every number of the book without
 * improving the fit by more than its noise, so the book refits only past this threshold (the
 * step-validation test enforces it).
 */
export const REFIT_THRESHOLD = 0.02;

/** Per generation with runs: the median absolute error at the book's constants, at the fit, and the gap. */
export function bookConstantsGap(
  runs: readonly PublishedRun[] = PUBLISHED_RUNS,
): Partial<Record<GpuGeneration, { book: number; fit: number; gap: number }>> {
  const fit = fitKernelEfficiency(runs);
  const out: Partial<Record<GpuGeneration, { book: number; fit: number; gap: number }>> = {};
  for (const generation of Object.keys(fit) as GpuGeneration[]) {
    const own = runs.filter((r) => gpuGeneration(r.gpu) === generation);
    const medianAt = (efficiency: Efficiencies) => summarizeErrors(evaluateRuns(own, efficiency)).median;
    const book = medianAt({ [generation]: KERNEL_EFFICIENCY[generation] });
    const best = medianAt({ [generation]: fit[generation] });
    out[generation] = { book, fit: best, gap: book - best };
  }
  return out;
}

/** Every run predicted at the efficiencies fitted on all of `runs` (the in-sample evaluation). */
export function evaluateInSample(runs: readonly PublishedRun[] = PUBLISHED_RUNS): RunEvaluation[] {
  return evaluateRuns(runs, fitKernelEfficiency(runs));
}

const losoCache = new WeakMap<readonly PublishedRun[], RunEvaluation[]>();

/**
 * Leave-one-source-out: for each source, fits the efficiencies on the other sources' runs and
 * predicts the held-out source's runs with them. Returns every held-out prediction, in the order of
 * `runs`; a generation with no runs left after holding a source out keeps its constant from
 * {@link KERNEL_EFFICIENCY}.
 */
export function leaveOneSourceOut(runs: readonly PublishedRun[] = PUBLISHED_RUNS): RunEvaluation[] {
  const cached = losoCache.get(runs);
  if (cached) return cached;
  const byId = new Map<string, RunEvaluation>();
  for (const source of new Set(runs.map((r) => r.source))) {
    const train = runs.filter((r) => r.source !== source);
    const held = runs.filter((r) => r.source === source);
    for (const e of evaluateRuns(held, fitKernelEfficiency(train))) byId.set(e.run.id, e);
  }
  const out = runs.map((r) => {
    const e = byId.get(r.id);
    if (!e) throw new ModelInputError("runs", `run ${r.id} was not held out`);
    return e;
  });
  losoCache.set(runs, out);
  return out;
}

// ---- The fp8 group --------------------------------------------------------------------------------

const fp8MfuCache = new WeakMap<PublishedRun, Map<string, number>>();

/** The predicted MFU of fp8 `run` with bf16 efficiency `eta` and fp8 efficiency `eta8`, remembered per run. */
function predictedFp8MfuAt(run: PublishedRun, eta: number, eta8: number): number {
  let byKey = fp8MfuCache.get(run);
  if (!byKey) {
    byKey = new Map();
    fp8MfuCache.set(run, byKey);
  }
  const key = `${eta}/${eta8}`;
  let mfu = byKey.get(key);
  if (mfu === undefined) {
    mfu = predictRun(run, {}, eta, { eta: eta8 }).mfu;
    byKey.set(key, mfu);
  }
  return mfu;
}

/**
 * Fits the fp8 efficiency of each generation present in the fp8 `runs`: the value on the same 0.01
 * grid as {@link fitEfficiencyByGroup} with the smallest median absolute MFU error over that
 * generation's runs (ties: the smaller worst error, then the smaller value), each run's bf16 parts at
 * `bf16` (default {@link KERNEL_EFFICIENCY}).
 */
export function fitFp8KernelEfficiency(
  runs: readonly PublishedRun[] = PUBLISHED_FP8_RUNS,
  bf16: Efficiencies = {},
): Efficiencies {
  const out: Efficiencies = {};
  for (const generation of new Set(runs.map((r) => gpuGeneration(r.gpu)))) {
    const subset = runs.filter((r) => gpuGeneration(r.gpu) === generation);
    const eta = bf16[generation] ?? KERNEL_EFFICIENCY[generation];
    const reported = subset.map(reportedMfu);
    let best: { eta8: number; median: number; worst: number } | null = null;
    for (const eta8 of GRID) {
      const errors = subset.map((r, i) => {
        const rep = at(reported, i, "fp8 fit: reported MFU");
        return Math.abs(predictedFp8MfuAt(r, eta, eta8) - rep) / rep;
      });
      const m = median(errors);
      const w = Math.max(...errors);
      const better =
        best === null || m < best.median - 1e-12 || (Math.abs(m - best.median) <= 1e-12 && w < best.worst - 1e-12);
      if (better) best = { eta8, median: m, worst: w };
    }
    if (best) out[generation] = best.eta8;
  }
  return out;
}

/** The fp8 gap of {@link bookConstantsGap}: median error at {@link FP8_KERNEL_EFFICIENCY} against the fit's, per generation. */
export function fp8ConstantsGap(
  runs: readonly PublishedRun[] = PUBLISHED_FP8_RUNS,
): Partial<Record<GpuGeneration, { book: number; fit: number; gap: number }>> {
  const fit = fitFp8KernelEfficiency(runs);
  const out: Partial<Record<GpuGeneration, { book: number; fit: number; gap: number }>> = {};
  for (const generation of Object.keys(fit) as GpuGeneration[]) {
    const own = runs.filter((r) => gpuGeneration(r.gpu) === generation);
    const bookEta = FP8_KERNEL_EFFICIENCY[generation];
    if (bookEta === null) continue;
    const medianAt = (eta8: number) => summarizeErrors(evaluateRuns(own, {}, { [generation]: eta8 })).median;
    const book = medianAt(bookEta);
    const best = medianAt(fit[generation] ?? bookEta);
    out[generation] = { book, fit: best, gap: book - best };
  }
  return out;
}

/**
 * Leave-one-source-out for the fp8 group: each fp8 source's runs predicted with the bf16 efficiency
 * fitted on the bf16 runs of the other sources (`bf16Runs`) and the fp8 efficiency fitted on the
 * other sources' fp8 runs with it. A generation with no fp8 runs left keeps {@link FP8_KERNEL_EFFICIENCY}.
 */
export function fp8LeaveOneSourceOut(
  runs: readonly PublishedRun[] = PUBLISHED_FP8_RUNS,
  bf16Runs: readonly PublishedRun[] = PUBLISHED_RUNS,
): RunEvaluation[] {
  const byId = new Map<string, RunEvaluation>();
  for (const source of new Set(runs.map((r) => r.source))) {
    const bf16Train = bf16Runs.filter((r) => r.source !== source);
    const bf16Fit = bf16Train.length > 0 ? fitKernelEfficiency(bf16Train) : {};
    const fp8Fit = fitFp8KernelEfficiency(
      runs.filter((r) => r.source !== source),
      bf16Fit,
    );
    for (const e of evaluateRuns(
      runs.filter((r) => r.source === source),
      bf16Fit,
      fp8Fit,
    ))
      byId.set(e.run.id, e);
  }
  return runs.map((r) => {
    const e = byId.get(r.id);
    if (!e) throw new ModelInputError("runs", `fp8 run ${r.id} was not held out`);
    return e;
  });
}

/** A bf16 run and an fp8 run of one table that differ only in precision, and the speedup fp8 gave. */
export interface Fp8Pair {
  bf16: RunEvaluation;
  fp8: RunEvaluation;
  /** The fp8 run's throughput over the bf16 run's, as reported. */
  reportedGain: number;
  /** The same ratio as the step model predicts it (at the book's constants, or held out: see {@link fp8Pairs}). */
  predictedGain: number;
  /** (predicted − reported) / reported gain. */
  relativeError: number;
}

/** What two runs must share to be a pair: all but the precision, the micro-batch and the batch. */
function pairKey(r: PublishedRun): string {
  const l = r.layout;
  const sw = r.software;
  return JSON.stringify([
    r.source,
    r.model,
    runArchitecture(r).numLayers,
    r.gpu,
    r.gpuCount,
    r.seqLength,
    l.tp,
    l.pp,
    l.cp,
    l.dp,
    l.zeroStage,
    l.recompute,
    l.chunks ?? 1,
    sw.tpCommOverlap.value,
    sw.compiled?.value ?? null,
  ]);
}

/**
 * Every fp8 run with a bf16 run of the same source that differs from it only in precision (and
 * micro-batch and batch, which some tables change with it): the fp8 speedup the source measured
 * against the one the step model predicts. It judges what fp8 adds to the model apart from what the
 * bf16 model already misses on the same shape. `held` predicts both runs of a pair out of sample
 * (each with the constants fitted without its source: {@link leaveOneSourceOut} and
 * {@link fp8LeaveOneSourceOut}); otherwise both are at the book's constants.
 */
export function fp8Pairs(
  held = false,
  fp8Runs: readonly PublishedRun[] = PUBLISHED_FP8_RUNS,
  bf16Runs: readonly PublishedRun[] = PUBLISHED_RUNS,
): Fp8Pair[] {
  const byKey = new Map<string, PublishedRun>();
  for (const r of bf16Runs) if (!byKey.has(pairKey(r))) byKey.set(pairKey(r), r);
  const heldBf16 = held ? new Map(leaveOneSourceOut(bf16Runs).map((e) => [e.run.id, e])) : null;
  const heldFp8 = held ? new Map(fp8LeaveOneSourceOut(fp8Runs, bf16Runs).map((e) => [e.run.id, e])) : null;
  const out: Fp8Pair[] = [];
  for (const r of fp8Runs) {
    const partner = byKey.get(pairKey(r));
    if (!partner) continue;
    const b = heldBf16 ? heldBf16.get(partner.id) : evaluateRuns([partner])[0];
    const f = heldFp8 ? heldFp8.get(r.id) : evaluateRuns([r])[0];
    if (!b || !f) continue;
    // Throughput per GPU is MFU times a constant of the model and GPU: the MFU ratio is the throughput ratio.
    const reportedGain = f.reportedMfu / b.reportedMfu;
    const predictedGain = f.predictedMfu / b.predictedMfu;
    out.push({
      bf16: b,
      fp8: f,
      reportedGain,
      predictedGain,
      relativeError: (predictedGain - reportedGain) / reportedGain,
    });
  }
  return out;
}

/** The fp8 group of the validation report. */
export interface Fp8Report {
  runs: number;
  sources: { key: string; name: string; runs: number; inclusion: string }[];
  fitted: {
    /** The fp8 efficiency fitted on all fp8 runs, by generation. */
    fp8KernelEfficiency: Efficiencies;
    /** The book's constant ({@link FP8_KERNEL_EFFICIENCY}) for the generations with fp8 runs. */
    book: Efficiencies;
    rule: string;
  };
  /** At the book's constants (bf16 and fp8). */
  inSample: { median: number; worst: number; worstRun: string };
  leaveOneSourceOut: { median: number; worst: number; worstRun: string };
  bySource: ({ key: string } & SubsetErrors)[];
}

/** The fp8 group's report, or null when there are no fp8 runs. */
export function fp8Report(
  runs: readonly PublishedRun[] = PUBLISHED_FP8_RUNS,
  sources: readonly RunSource[] = RUN_SOURCES,
  bf16Runs: readonly PublishedRun[] = PUBLISHED_RUNS,
): Fp8Report | null {
  if (runs.length === 0) return null;
  const fitted = fitFp8KernelEfficiency(runs);
  const book: Efficiencies = {};
  for (const g of Object.keys(fitted) as GpuGeneration[]) {
    const b = FP8_KERNEL_EFFICIENCY[g];
    if (b !== null) book[g] = b;
  }
  const inSample = evaluateRuns(runs, {}, book);
  const held = fp8LeaveOneSourceOut(runs, bf16Runs);
  const keys = [...new Set(runs.map((r) => r.source))];
  const a = summarizeErrors(inSample);
  const b = summarizeErrors(held);
  return {
    runs: runs.length,
    sources: keys.map((key) => {
      const meta = sources.find((x) => x.key === key);
      return {
        key,
        name: meta?.name ?? key,
        runs: runs.filter((r) => r.source === key).length,
        inclusion: meta?.fp8Inclusion ?? "",
      };
    }),
    fitted: {
      fp8KernelEfficiency: fitted,
      book,
      rule: "one efficiency of the fp8 linear matmuls per GPU generation with fp8 runs, the value on a 0.01 grid in [0.30, 0.90] that minimizes the median absolute MFU error over that generation's fp8 runs, with attention and the LM head at the generation's bf16 constant",
    },
    inSample: { median: a.median, worst: a.worst, worstRun: a.worstRun },
    leaveOneSourceOut: { median: b.median, worst: b.worst, worstRun: b.worstRun },
    bySource: keys.map((key) => ({ key, ...subsetErrors(inSample, held, (e) => e.run.source === key) })),
  };
}

/** Median and worst of a subset, or null when the subset is empty. */
function summaryOrNull(
  evaluations: readonly RunEvaluation[],
): { median: number; worst: number; worstRun: string } | null {
  if (evaluations.length === 0) return null;
  const s = summarizeErrors(evaluations);
  return { median: s.median, worst: s.worst, worstRun: s.worstRun };
}

/** The error of one subset in and out of sample. */
export interface SubsetErrors {
  runs: number;
  inSample: { median: number; worst: number; worstRun: string } | null;
  leaveOneSourceOut: { median: number; worst: number; worstRun: string } | null;
}

function subsetErrors(
  inSample: readonly RunEvaluation[],
  held: readonly RunEvaluation[],
  keep: (e: RunEvaluation) => boolean,
): SubsetErrors {
  const a = inSample.filter(keep);
  return { runs: a.length, inSample: summaryOrNull(a), leaveOneSourceOut: summaryOrNull(held.filter(keep)) };
}

/** The report `npm run -s model -- validate` prints. */
export interface ValidationReport {
  runs: number;
  sources: { key: string; name: string; runs: number; gpus: string[]; inclusion: string }[];
  /** What was fitted: the kernel efficiency per generation on all runs, and how. */
  fitted: { kernelEfficiency: Efficiencies; constants: number; rule: string };
  inSample: { median: number; worst: number; worstRun: string };
  leaveOneSourceOut: { median: number; worst: number; worstRun: string };
  byGeneration: ({ generation: GpuGeneration } & SubsetErrors)[];
  byLayout: ({ layout: LayoutClass } & SubsetErrors)[];
  bySource: ({ key: string } & SubsetErrors)[];
  /** The fp8 runs, reported as their own group (null when there are none). */
  fp8: Fp8Report | null;
}

/**
 * Builds the validation report of `runs` (default: the book's bf16 data set, with the book's fp8
 * runs as the fp8 group). The fp8 runs of `runs` (`precision: "fp8"`) form the fp8 group, with the
 * book's own fp8 runs when `runs` is the default; the rest form the bf16 report.
 */
export function validationReport(
  allRuns: readonly PublishedRun[] = PUBLISHED_RUNS,
  sources: readonly RunSource[] = RUN_SOURCES,
): ValidationReport {
  const isDefault = allRuns === PUBLISHED_RUNS;
  const runs = isDefault ? allRuns : allRuns.filter((r) => r.precision !== "fp8");
  const fp8Runs = isDefault ? PUBLISHED_FP8_RUNS : allRuns.filter((r) => r.precision === "fp8");
  const fitted = fitKernelEfficiency(runs);
  const inSample = evaluateRuns(runs, fitted);
  const held = leaveOneSourceOut(runs);
  const keys = [...new Set(runs.map((r) => r.source))];
  const ordered = [
    ...sources.filter((s) => keys.includes(s.key)).map((s) => s.key),
    ...keys.filter((k) => !sources.some((s) => s.key === k)),
  ];
  const classes = new Map(runs.map((r) => [r.id, layoutClass(r)]));
  const overallIn = summarizeErrors(inSample);
  const overallHeld = summarizeErrors(held);
  return {
    runs: runs.length,
    sources: ordered.map((key) => {
      const own = runs.filter((r) => r.source === key);
      const meta = sources.find((s) => s.key === key);
      return {
        key,
        name: meta?.name ?? key,
        runs: own.length,
        gpus: [...new Set(own.map((r) => r.gpu))],
        inclusion: meta?.inclusion ?? "",
      };
    }),
    fitted: {
      kernelEfficiency: fitted,
      constants: Object.keys(fitted).length,
      rule: "one kernel efficiency per GPU generation with runs, each the value on a 0.01 grid in [0.30, 0.90] that minimizes the median absolute MFU error over that generation's runs",
    },
    inSample: { median: overallIn.median, worst: overallIn.worst, worstRun: overallIn.worstRun },
    leaveOneSourceOut: { median: overallHeld.median, worst: overallHeld.worst, worstRun: overallHeld.worstRun },
    byGeneration: GENERATIONS.map((generation) => ({
      generation,
      ...subsetErrors(inSample, held, (e) => e.generation === generation),
    })),
    byLayout: LAYOUT_CLASSES.map((layout) => ({
      layout,
      ...subsetErrors(inSample, held, (e) => classes.get(e.run.id) === layout),
    })),
    bySource: ordered.map((key) => ({ key, ...subsetErrors(inSample, held, (e) => e.run.source === key) })),
    fp8: fp8Report(fp8Runs, sources, runs),
  };
}

// ---- Ranking -------------------------------------------------------------------------------------

/**
 * The group a run's ranking is checked within ({@link rankingCheck}): one source, one model (its name
 * and layer count, so a proxy with fewer layers is a model of its own), one sequence length and one
 * GPU type. Two runs of a group differ only in settings a user chooses (GPU count, layout, micro-batch,
 * recomputation, compilation).
 */
export function sameModelGroup(run: PublishedRun): string {
  return [run.source, run.model, runArchitecture(run).numLayers, run.seqLength, run.gpu].join(" | ");
}

/** How well the model orders pairs of runs by MFU ({@link rankingCheck}). */
export interface RankingCheck {
  /** Pairs of runs in one group. */
  pairs: number;
  /** Of those, the pairs whose predicted MFUs are in the same order as the reported ones. */
  agree: number;
  /** Pairs whose reported MFUs differ by more than `minGap` of the larger one: a difference a ranking should see. */
  separated: number;
  /** Of the separated pairs, those the model orders the wrong way (or predicts equal). */
  separatedWrong: number;
  /** Of the wrongly ordered separated pairs, those whose predicted MFUs differ by less than `tie` of the larger one: the model sees no difference. */
  separatedWrongTies: number;
  /** The wrongly ordered separated pairs, by run id. */
  wrongPairs: [string, string][];
}

/**
 * Checks whether the model ranks runs as the measurements do: for every pair of `evaluations` in one
 * group (default {@link sameModelGroup}), whether the predicted MFUs are in the same order as the
 * reported ones. Pairs whose reported MFUs differ by more than `minGap` (default 0.05) of the larger
 * are counted apart, since a ranking that misorders near-ties is no fault. Throws when `minGap` or
 * `tie` is not a fraction in [0, 1).
 */
export function rankingCheck(
  evaluations: readonly RunEvaluation[],
  options: { minGap?: number; tie?: number; group?: (run: PublishedRun) => string } = {},
): RankingCheck {
  const minGap = options.minGap ?? 0.05;
  const tie = options.tie ?? 0.01;
  for (const [field, value] of [
    ["minGap", minGap],
    ["tie", tie],
  ] as const) {
    if (!Number.isFinite(value) || value < 0 || value >= 1)
      throw new ModelInputError(field, `${field} must be a fraction from 0 to below 1, not ${value}`);
  }
  const group = options.group ?? sameModelGroup;
  const groups = new Map<string, RunEvaluation[]>();
  for (const e of evaluations) {
    const key = group(e.run);
    const list = groups.get(key);
    if (list) list.push(e);
    else groups.set(key, [e]);
  }
  const gap = (a: number, b: number) => Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b));
  const out: RankingCheck = {
    pairs: 0,
    agree: 0,
    separated: 0,
    separatedWrong: 0,
    separatedWrongTies: 0,
    wrongPairs: [],
  };
  for (const list of groups.values()) {
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const a = at(list, i, "ranking: group");
        const b = at(list, j, "ranking: group");
        const reported = Math.sign(a.reportedMfu - b.reportedMfu);
        const right = reported !== 0 && Math.sign(a.predictedMfu - b.predictedMfu) === reported;
        out.pairs++;
        if (right) out.agree++;
        if (gap(a.reportedMfu, b.reportedMfu) <= minGap) continue;
        out.separated++;
        if (right) continue;
        out.separatedWrong++;
        out.wrongPairs.push([a.run.id, b.run.id]);
        if (gap(a.predictedMfu, b.predictedMfu) < tie) out.separatedWrongTies++;
      }
    }
  }
  return out;
}

// ---- Reading a data file ------------------------------------------------------------------------

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function need(run: Record<string, unknown>, id: string, field: string, kind: "string" | "number" | "object"): unknown {
  const value = run[field];
  if (value === undefined || value === null) throw new ModelInputError(field, `run ${id} has no "${field}"`);
  const ok = kind === "object" ? isRecord(value) : typeof value === kind;
  if (!ok && !(field === "config" && typeof value === "string"))
    throw new ModelInputError(field, `run ${id}: "${field}" must be ${kind === "object" ? "an object" : `a ${kind}`}`);
  return value;
}

const SOFTWARE_FIELDS = [
  "attentionKernel",
  "tpCommOverlap",
  "sequenceParallel",
  "dpOverlap",
  "recomputePolicy",
  "gradPrecision",
] as const;

/**
 * Checks a list of runs before it is evaluated: every field the model needs is present, every
 * source key is known (in `sources`), every id is unique, and the parallel degrees multiply to the
 * GPU count. Throws {@link ModelInputError} naming the run and the field; returns the runs typed.
 */
export function checkRunData(runs: unknown, sources: readonly RunSource[] = RUN_SOURCES): PublishedRun[] {
  if (!Array.isArray(runs)) throw new ModelInputError("runs", "the data file must hold a list of runs");
  if (runs.length === 0) throw new ModelInputError("runs", "the data file holds no runs");
  const known = new Set(sources.map((s) => s.key));
  const ids = new Set<string>();
  return runs.map((raw, index) => {
    if (!isRecord(raw)) throw new ModelInputError("runs", `run ${index + 1} is not an object`);
    const id = typeof raw.id === "string" && raw.id !== "" ? raw.id : `#${index + 1}`;
    need(raw, id, "id", "string");
    if (ids.has(id)) throw new ModelInputError("id", `run ${id} appears twice`);
    ids.add(id);
    for (const f of ["source", "location", "model", "gpu", "reportedText"] as const) need(raw, id, f, "string");
    for (const f of ["gpuCount", "seqLength", "microBatchSize", "globalBatch"] as const) need(raw, id, f, "number");
    need(raw, id, "config", "object");
    const source = raw.source as string;
    if (!known.has(source))
      throw new ModelInputError(
        "source",
        `run ${id}: unknown source key "${source}" (declare it in the file's "sources")`,
      );
    const layout = need(raw, id, "layout", "object") as Record<string, unknown>;
    for (const f of ["tp", "pp", "cp", "ep", "dp", "zeroStage"] as const) {
      if (typeof layout[f] !== "number")
        throw new ModelInputError(`layout.${f}`, `run ${id} has no number "layout.${f}"`);
    }
    for (const f of ["recompute", "schedule"] as const) {
      if (typeof layout[f] !== "string") throw new ModelInputError(`layout.${f}`, `run ${id} has no "layout.${f}"`);
    }
    const product = (layout.tp as number) * (layout.pp as number) * (layout.cp as number) * (layout.dp as number);
    if (product !== raw.gpuCount) {
      throw new ModelInputError(
        "layout",
        `run ${id}: tp × pp × cp × dp = ${layout.tp} × ${layout.pp} × ${layout.cp} × ${layout.dp} = ${product}, not its GPU count (${String(raw.gpuCount)})`,
      );
    }
    const software = need(raw, id, "software", "object") as Record<string, unknown>;
    if (typeof software.framework !== "string" || !(FRAMEWORK_IDS as readonly string[]).includes(software.framework))
      throw new ModelInputError(
        "software.framework",
        `run ${id}: "software.framework" must be one of ${FRAMEWORK_IDS.join(", ")}`,
      );
    for (const f of SOFTWARE_FIELDS) {
      const field = software[f];
      if (!isRecord(field) || field.value === undefined || typeof field.source !== "string")
        throw new ModelInputError(`software.${f}`, `run ${id} has no "software.${f}" with a value and a source`);
    }
    const allowed: Partial<Record<(typeof SOFTWARE_FIELDS)[number], readonly unknown[]>> = {
      attentionKernel: ["full", "causal-skip"],
      tpCommOverlap: [true, false],
      sequenceParallel: [true, false],
      dpOverlap: [true, false],
      gradPrecision: ["fp32", "bf16"],
    };
    for (const [f, values] of Object.entries(allowed)) {
      const value = (software[f] as Record<string, unknown>).value;
      if (!values.includes(value))
        throw new ModelInputError(
          `software.${f}`,
          `run ${id}: "software.${f}.value" must be one of ${values.join(", ")}`,
        );
    }
    const reported = need(raw, id, "reported", "object") as Record<string, unknown>;
    if (typeof reported.kind !== "string")
      throw new ModelInputError("reported.kind", `run ${id} has no "reported.kind"`);
    if (!Array.isArray(raw.assumptions))
      throw new ModelInputError("assumptions", `run ${id} has no "assumptions" list (an empty list if none)`);
    if (raw.precision !== undefined && raw.precision !== "bf16" && raw.precision !== "fp8")
      throw new ModelInputError("precision", `run ${id}: "precision" must be "bf16" or "fp8" (default "bf16")`);
    if (raw.proxy !== undefined && typeof raw.proxy !== "string")
      throw new ModelInputError("proxy", `run ${id}: "proxy" must say where the source calls the run a proxy`);
    return { ...raw, precision: raw.precision ?? "bf16" } as unknown as PublishedRun;
  });
}

/**
 * Reads a data file's JSON: `{ "sources": [...], "runs": [...] }` (sources optional; each
 * `{ key, name, inclusion }`) or a bare list of runs. Source keys may be the book's or the file's.
 */
export function parseRunData(json: unknown): { runs: PublishedRun[]; sources: RunSource[] } {
  let rawRuns: unknown = json;
  let fileSources: RunSource[] = [];
  if (isRecord(json)) {
    rawRuns = json.runs;
    if (json.sources !== undefined) {
      if (!Array.isArray(json.sources)) throw new ModelInputError("sources", '"sources" must be a list');
      fileSources = json.sources.map((s, i) => {
        if (!isRecord(s) || typeof s.key !== "string")
          throw new ModelInputError("sources", `source ${i + 1} has no "key"`);
        return {
          key: s.key,
          name: typeof s.name === "string" ? s.name : s.key,
          inclusion: typeof s.inclusion === "string" ? s.inclusion : "",
        };
      });
    }
  }
  const sources = [...RUN_SOURCES, ...fileSources.filter((s) => !RUN_SOURCES.some((b) => b.key === s.key))];
  return { runs: checkRunData(rawRuns, sources), sources };
}

// ---- What-if studies ----------------------------------------------------------------------------

/** One what-if study: the data set evaluated with one thing of the model changed. */
export interface WhatIf {
  name: string;
  description: string;
  /** Fitted constants the study uses. */
  constants: number;
  inSample: { median: number; worst: number; worstRun: string };
  leaveOneSourceOut: { median: number; worst: number; worstRun: string };
}

/** The framework family a run's efficiency would be grouped by in a what-if: Megatron-LM-based stacks, or PyTorch FSDP stacks. */
export function frameworkFamily(run: PublishedRun): "megatron" | "pytorch" {
  const f = run.software.framework;
  return f === "megatron" || f === "deepspeed" ? "megatron" : "pytorch";
}

function evaluateGrouped(
  runs: readonly PublishedRun[],
  group: (run: PublishedRun) => string,
): { inSample: RunEvaluation[]; held: RunEvaluation[]; constants: number } {
  const evalWith = (subset: readonly PublishedRun[], fit: Map<string, number>, fallback: Efficiencies) =>
    subset.map((run) => {
      const eta = fit.get(group(run)) ?? fallback[gpuGeneration(run.gpu)] ?? KERNEL_EFFICIENCY[gpuGeneration(run.gpu)];
      const prediction = predictRun(run, {}, eta);
      const reported = reportedMfu(run);
      return {
        run,
        generation: gpuGeneration(run.gpu),
        reportedMfu: reported,
        predictedMfu: prediction.mfu,
        relativeError: (prediction.mfu - reported) / reported,
        reportedStepSeconds: (prediction.stepSeconds * prediction.mfu) / reported,
        kernelEfficiency: eta,
        fp8KernelEfficiency: prediction.fp8KernelEfficiency,
        prediction,
      };
    });
  const fit = fitEfficiencyByGroup(runs, group);
  const inSample = evalWith(runs, fit, {});
  const held: RunEvaluation[] = [];
  for (const source of new Set(runs.map((r) => r.source))) {
    const train = runs.filter((r) => r.source !== source);
    held.push(
      ...evalWith(
        runs.filter((r) => r.source === source),
        fitEfficiencyByGroup(train, group),
        fitKernelEfficiency(train),
      ),
    );
  }
  return { inSample, held, constants: fit.size };
}

/** The runs with every attention kernel priced whole: a causal kernel that runs at half the GEMM rate costs the same. */
const wholeCache = new WeakMap<readonly PublishedRun[], PublishedRun[]>();
function attentionWhole(runs: readonly PublishedRun[]): PublishedRun[] {
  const cached = wholeCache.get(runs);
  if (cached) return cached;
  const out = runs.map((r) => ({
    ...r,
    software: { ...r.software, attentionKernel: { value: "full" as const, source: "what-if" } },
  }));
  wholeCache.set(runs, out);
  return out;
}

function whatIf(
  name: string,
  description: string,
  runs: readonly PublishedRun[],
  group: (run: PublishedRun) => string,
): WhatIf {
  const r = evaluateGrouped(runs, group);
  const a = summarizeErrors(r.inSample);
  const b = summarizeErrors(r.held);
  return {
    name,
    description,
    constants: r.constants,
    inSample: { median: a.median, worst: a.worst, worstRun: a.worstRun },
    leaveOneSourceOut: { median: b.median, worst: b.worst, worstRun: b.worstRun },
  };
}

/**
 * What would close the gap: the data set evaluated with the two inputs the step model lacks, each
 * alone and together (never used for the book's own figures): an attention kernel slower than the
 * GEMMs (priced as if it skipped nothing, which costs what a causal kernel at half the GEMM rate
 * costs), and one kernel efficiency per GPU generation and framework family (Megatron-LM-based or
 * PyTorch FSDP), which doubles the fitted constants.
 */
export function whatIfStudies(runs: readonly PublishedRun[] = PUBLISHED_RUNS): WhatIf[] {
  const gen = (r: PublishedRun) => gpuGeneration(r.gpu);
  const genFamily = (r: PublishedRun) => `${gpuGeneration(r.gpu)}/${frameworkFamily(r)}`;
  return [
    whatIf(
      "attention-half-rate",
      "attention kernels run at half the GEMM rate (priced as if they skipped nothing)",
      attentionWhole(runs),
      gen,
    ),
    whatIf(
      "efficiency-per-framework",
      "one kernel efficiency per GPU generation and framework family (Megatron-LM-based or PyTorch FSDP)",
      runs,
      genFamily,
    ),
    whatIf("both", "both changes together", attentionWhole(runs), genFamily),
  ];
}
