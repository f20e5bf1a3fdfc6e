/**
 * Search over parallel configurations: enumerate (DP, TP, PP, CP, EP, ZeRO, recomputation,
 * micro-batch size, stage split) for a model on a cluster, rule out what does not divide, does not
 * reach the global batch or does not fit in memory, and rank the rest by the step model
 * ({@link stepTime}, src/model/step.ts), the same model the book holds against published runs.
 *
 * ## What the search assumes, stated once
 *
 * - Step time: {@link stepTime} with the GPU's measured bus bandwidths and its generation's kernel
 *   efficiency, the 1F1B schedule, fp32 gradient reduction (Megatron-LM's default), sequence
 *   parallelism whenever $t > 1$ and Megatron-LM's rank order (TP, CP, DP, PP). The slowest
 *   pipeline stage sets the pace, so the LM head on the last stage counts.
 * - Stage splits: for $p > 1$ both the even split (when $p$ divides the layers; otherwise the
 *   first stages take one extra layer) and the split with one layer fewer on each end stage (Llama
 *   3's remedy) are tried. Each is priced in memory with its own layers per stage; a split that
 *   does not fit is not ranked, and the faster of those that fit is kept, so a trimmed split that
 *   fits can rank where the even one does not, and the other way round.
 * - Sharding: each ZeRO stage with a framework that runs it ({@link AUTO_FRAMEWORK}, or the one
 *   `framework` given): Megatron-LM's distributed optimizer (ZeRO-0/1) with any pipeline degree,
 *   FSDP2 (ZeRO-3) with any pipeline degree (as torchtitan and Llama 3 run it, keeping gathered
 *   weights under a pipeline), DeepSpeed's ZeRO-2 only without a pipeline (its pipeline engine
 *   refuses ZeRO-2 and ZeRO-3), plain DDP only without TP, PP, CP or EP.
 * - Memory: {@link trainingMemory} for the row's stage split with its framework profile; a
 *   configuration fits when its peak stage needs at most `usableMemoryFraction` of HBM.
 *
 * - The reader's limits: `maxTp` (default the NVLink domain), `maxPp`, `maxCp`, `maxEp` and
 *   `maxZeroStage` bound the degrees and stages tried; `cluster` overrides the GPU system's shape
 *   (GPUs per server, NVLink domain, NICs per server, per-NIC bandwidth) as the step model takes it.
 * - A named layout ({@link evaluateLayout}) goes through the same checks and the same step and
 *   memory models, so its step time compares with the ranked rows' even when the search would not
 *   have tried it (a degree that is not a power of two, a limit it exceeds).
 *
 * It is a model for ranking and planning; the appendix on published runs states its error.
 */
import { isArchitecture } from "./parameters.ts";
import { parseModelConfig, type ModelArchitecture } from "./architecture.ts";
import {
  ModelInputError,
  requireFraction,
  requireOneOf,
  requirePositiveInteger,
  requirePositiveNumber,
} from "./errors.ts";
import { evenStageLayers, trainingMemory, type TrainingSetup, type ZeroStage } from "./memory.ts";
import type { Recompute } from "./activations.ts";
import type { GpuSpec } from "../data/gpus.ts";
import { findInterconnect } from "../data/interconnects.ts";
import { clusterShape, type ClusterOverrides } from "./placement.ts";
import { PLANNING_MEMORY_FRACTION } from "./scenario.ts";
import { findFrameworkProfile, type FrameworkId } from "../data/frameworks.ts";
import {
  balancedStageLayers,
  gpuGeneration,
  KERNEL_EFFICIENCY,
  PRECISIONS,
  stepTime,
  type ComputePrecision,
  type StepResult,
} from "./step.ts";

/** What the search leaves out and why, for the configuration finder to print. */
export const CONFIG_SEARCH_EXCLUSIONS =
  "Ruled out: layouts whose degrees do not divide the heads, sequence or layers; batches that do not split into at least p microbatches per replica; configurations whose peak stage needs more than the usable memory under each stage split tried (each split priced with its own layers per stage); layouts a framework does not run. Each ZeRO stage runs with one framework: Megatron-LM for ZeRO-0 and ZeRO-1, DeepSpeed for ZeRO-2 (without pipeline parallelism, which its pipeline engine refuses), FSDP2 for ZeRO-3 (with pipeline parallelism, as torchtitan and Llama 3 run it).";

/** Inputs of {@link searchConfigurations}. */
export interface ConfigSearchInput {
  /** HF config object or parsed architecture. */
  config: unknown;
  gpu: GpuSpec;
  /** GPUs in the job. */
  gpuCount: number;
  /** Sequence length $s$ in tokens. */
  seqLength: number;
  /** Global batch in sequences per optimizer step. */
  globalBatchSequences: number;
  /** GPUs per node sharing NVLink (default 8). Kept for callers; `cluster.gpusPerServer` says the same. */
  gpusPerNode?: number;
  /**
   * Bus bandwidth of one NIC across nodes, bytes/s (default: the GPU
   * system's measured or assumed figure in src/data/interconnects.ts).
   * Kept for callers; `cluster.nicBusBytesPerSecond` says the same.
   */
  interNodeBytesPerSecond?: number;
  /**
   * The cluster's shape over the GPU system's record (GPUs per server, NVLink domain, NICs per
   * server, per-NIC bus bandwidth), as the step model and the CLI's `step --gpus-per-server` take it
   * (src/model/placement.ts `clusterShape`).
   */
  cluster?: ClusterOverrides;
  /**
   * Kernel efficiency, the fraction of the dense bf16 peak the kernels
   * reach (default: the GPU generation's constant, KERNEL_EFFICIENCY).
   */
  computeEfficiency?: number;
  /**
   * Precision of the linear layers' matmuls (default "bf16"): "fp8" runs them against the GPU's
   * dense fp8 peak (the step model's `precision`); a GPU without fp8 tensor cores refuses it. Memory
   * is priced as bf16 (FP8_MEMORY_NOTE in step.ts).
   */
  precision?: ComputePrecision;
  /** Fraction of HBM a configuration may use (default PLANNING_MEMORY_FRACTION). */
  usableMemoryFraction?: number;
  /** Micro-batch sizes tried (default 1, 2, 4, 8). */
  microBatchSizes?: number[];
  /** Largest TP degree tried (default: the NVLink domain, `gpusPerNode` unless `cluster` says otherwise). */
  maxTp?: number;
  /** Largest pipeline degree tried (default: no limit beyond the layers). */
  maxPp?: number;
  /** Largest context-parallel degree tried (default: no limit; 1 for a framework without CP). */
  maxCp?: number;
  /** Largest expert-parallel degree tried (default: no limit beyond the experts). */
  maxEp?: number;
  /** Highest ZeRO stage tried (default 3). */
  maxZeroStage?: number;
  /**
   * The framework whose sharding modes and defaults the search uses, or "auto" (default): each
   * ZeRO stage with the framework the book pairs it with ({@link AUTO_FRAMEWORK}).
   */
  framework?: FrameworkId | "auto";
  /**
   * Stop once this many configurations fit (default: rank every one). With 1 the search answers
   * "does anything fit?" in a fraction of the time: the configuration finder's diagnosis asks it of
   * nearby batches and GPU counts. The ranking is then over the ones found.
   */
  maxRanked?: number;
}

/** The framework "auto" searches each ZeRO stage with: Megatron-LM for 0 and 1, DeepSpeed for 2, FSDP2 for 3. */
export const AUTO_FRAMEWORK: Readonly<Record<ZeroStage, FrameworkId>> = {
  0: "megatron",
  1: "megatron",
  2: "deepspeed",
  3: "fsdp2",
};

/** One configuration that fits, with its modeled step time. */
export interface RankedConfig {
  dp: number;
  tp: number;
  pp: number;
  cp: number;
  ep: number;
  zeroStage: ZeroStage;
  recompute: Recompute;
  /** The framework profile the row was evaluated with. */
  framework: FrameworkId;
  microBatchSize: number;
  /** Microbatches per step per DP rank, $m = B/(d\,b)$. */
  microbatches: number;
  /** Peak bytes per GPU (decimal) under the ranked stage split, `stageLayers`. */
  memoryBytes: number;
  /** Step time and its parts, seconds (compute includes recomputation and the optimizer update). */
  stepSeconds: number;
  computeSeconds: number;
  bubbleSeconds: number;
  /** Of computeSeconds: what recomputation repeats. */
  recomputeSeconds: number;
  /** Layers per pipeline stage of the ranked split. */
  stageLayers: number[];
  /** Slowest stage time over mean stage time. */
  stageImbalance: number;
  /** Exposed communication by kind, seconds. */
  exposedSeconds: { tp: number; cp: number; ep: number; pp: number; dp: number };
  tokensPerSecond: number;
  /** Model FLOPs utilization: model FLOPs of the step / (step time × GPUs × dense bf16 peak), in fp8 too. */
  mfu: number;
}

/** Result of {@link searchConfigurations}. */
export interface ConfigSearchResult {
  /** Fitting configurations, fastest first. */
  ranked: RankedConfig[];
  /** Parallel layouts (dp, tp, pp, cp, ep) that divide the GPU count and the model. */
  layoutsTried: number;
  /** Full configurations examined (layout × ZeRO × recomputation × micro-batch size). */
  configsTried: number;
  /** Of those: could not reach the global batch with m ≥ p. */
  ruledOutBatch: number;
  /** Of those: did not fit in memory under any stage split tried. */
  ruledOutMemory: number;
  /** Usable bytes per GPU. */
  memoryLimitBytes: number;
}

function powersOfTwoUpTo(limit: number): number[] {
  const out: number[] = [];
  for (let v = 1; v <= limit; v *= 2) out.push(v);
  return out;
}

function divisors(n: number): number[] {
  const out: number[] = [];
  for (let v = 1; v <= n; v++) if (n % v === 0) out.push(v);
  return out;
}

/**
 * Bus bandwidth a group of `ranks` ranks spaced `stride` apart gets in the
 * simplest two-level model: NVLink inside a node, the inter-node figure otherwise.
 */
export function groupBandwidth(
  ranks: number,
  stride: number,
  gpusPerNode: number,
  intraBytesPerSecond: number,
  interBytesPerSecond: number,
): number {
  return ranks * stride <= gpusPerNode ? intraBytesPerSecond : interBytesPerSecond;
}

/** The checked inputs one search (or one named layout) is evaluated with. */
interface Prepared {
  input: ConfigSearchInput;
  arch: ModelArchitecture;
  gpuCount: number;
  seqLength: number;
  batch: number;
  efficiency: number;
  precision: ComputePrecision;
  limit: number;
  microBatchSizes: number[];
  maxTp: number;
  maxPp: number;
  maxCp: number;
  maxEp: number;
  maxZeroStage: ZeroStage;
  maxRanked: number;
  net: ReturnType<typeof requireInterconnect>;
  cluster: ClusterOverrides;
  frameworkFor: (zeroStage: ZeroStage) => FrameworkId | null;
  experts: number;
}

function requireInterconnect(gpu: GpuSpec) {
  const net = findInterconnect(gpu.id);
  if (!net) throw new ModelInputError("gpu", `no measured bandwidths for GPU "${gpu.id}"`);
  return net;
}

/** An optional positive-integer limit: Infinity when absent. */
function limitOf(value: number | undefined, field: string): number {
  return value === undefined ? Infinity : requirePositiveInteger(value, field);
}

function prepare(input: ConfigSearchInput): Prepared {
  const arch: ModelArchitecture = isArchitecture(input.config)
    ? input.config
    : parseModelConfig(input.config).architecture;
  const gpuCount = requirePositiveInteger(input.gpuCount, "gpuCount");
  const seqLength = requirePositiveInteger(input.seqLength, "seqLength");
  const batch = requirePositiveInteger(input.globalBatchSequences, "globalBatchSequences");
  const baseNet = requireInterconnect(input.gpu);
  const gpusPerNode = requirePositiveInteger(input.gpusPerNode ?? baseNet.gpusPerNode, "gpusPerNode");
  const inter = requirePositiveNumber(
    input.interNodeBytesPerSecond ?? baseNet.nicBusBytesPerSecond,
    "interNodeBytesPerSecond",
  );
  const net = { ...baseNet, gpusPerNode, nicBusBytesPerSecond: inter };
  const cluster = input.cluster ?? {};
  // Checks the overrides (each field named) and gives the NVLink domain the default TP limit follows.
  const shape = clusterShape(net, cluster);
  const efficiency = requireFraction(
    input.computeEfficiency ?? KERNEL_EFFICIENCY[gpuGeneration(input.gpu.id)],
    "computeEfficiency",
  );
  const precision = requireOneOf(input.precision ?? "bf16", PRECISIONS, "precision");
  if (precision === "fp8" && input.gpu.fp8FlopsPerSecond === null)
    throw new ModelInputError("precision", `${input.gpu.name} has no fp8 tensor cores: choose bf16`);
  const usable = requireFraction(input.usableMemoryFraction ?? PLANNING_MEMORY_FRACTION, "usableMemoryFraction");
  const microBatchSizes = (input.microBatchSizes ?? [1, 2, 4, 8]).map((b) =>
    requirePositiveInteger(b, "microBatchSizes"),
  );
  const maxTp = requirePositiveInteger(input.maxTp ?? shape.nvlinkDomain, "maxTp");
  const maxPp = limitOf(input.maxPp, "maxPp");
  const maxCp = limitOf(input.maxCp, "maxCp");
  const maxEp = limitOf(input.maxEp, "maxEp");
  const maxZero = input.maxZeroStage ?? 3;
  if (![0, 1, 2, 3].includes(maxZero)) throw new ModelInputError("maxZeroStage", "maxZeroStage must be 0, 1, 2 or 3");
  const maxRanked = input.maxRanked === undefined ? Infinity : requirePositiveInteger(input.maxRanked, "maxRanked");
  if (gpuCount > 1_000_000) throw new ModelInputError("gpuCount", "gpuCount must be at most 1,000,000");
  if (seqLength > 10_000_000) throw new ModelInputError("seqLength", "seqLength must be at most 10,000,000");
  const chosen = input.framework ?? "auto";
  if (chosen !== "auto" && !findFrameworkProfile(chosen))
    throw new ModelInputError("framework", `unknown framework "${String(chosen)}"`);
  const frameworkFor = (zeroStage: ZeroStage): FrameworkId | null => {
    if (chosen === "auto") return AUTO_FRAMEWORK[zeroStage];
    return findFrameworkProfile(chosen)?.layouts[zeroStage] ? chosen : null;
  };
  return {
    input,
    arch,
    gpuCount,
    seqLength,
    batch,
    efficiency,
    precision,
    limit: input.gpu.hbmBytes * usable,
    microBatchSizes,
    maxTp,
    maxPp,
    maxCp,
    maxEp,
    maxZeroStage: maxZero as ZeroStage,
    maxRanked,
    net,
    cluster,
    frameworkFor,
    experts: arch.moe?.routedExperts ?? 1,
  };
}

/** Why a framework does not run a ZeRO stage with a layout, or null when it does. */
function frameworkProblem(
  framework: FrameworkId,
  zeroStage: ZeroStage,
  c: { tp: number; pp: number; cp: number; ep: number },
) {
  if (framework === "ddp" && c.tp * c.pp * c.cp * c.ep > 1)
    return "plain PyTorch DDP runs data parallelism only (TP, PP, CP and EP 1)";
  if (framework === "deepspeed" && zeroStage >= 2 && c.pp > 1)
    return "DeepSpeed's pipeline engine refuses ZeRO-2 and ZeRO-3 (PP must be 1)";
  return null;
}

/**
 * Enumerates configurations and ranks those that fit (see the module comment for the model).
 * Throws `ModelInputError` naming the field for invalid input.
 */
export function searchConfigurations(input: ConfigSearchInput): ConfigSearchResult {
  const p = prepare(input);
  const { arch, gpuCount, seqLength, batch, microBatchSizes, limit, experts } = p;

  const ranked: RankedConfig[] = [];
  let layoutsTried = 0;
  let configsTried = 0;
  let ruledOutBatch = 0;
  let ruledOutMemory = 0;

  search: for (const tp of powersOfTwoUpTo(Math.min(p.maxTp, gpuCount))) {
    if (arch.numHeads % tp !== 0 || arch.numKvHeads % tp !== 0) continue;
    for (const cp of powersOfTwoUpTo(Math.min(p.maxCp, gpuCount / tp))) {
      if (seqLength % cp !== 0 || (seqLength / cp) % tp !== 0) continue;
      for (const pp of powersOfTwoUpTo(Math.min(p.maxPp, arch.numLayers, gpuCount / (tp * cp)))) {
        const rest = gpuCount / (tp * cp * pp);
        if (!Number.isInteger(rest)) continue;
        const dp = rest;
        for (const ep of divisors(Math.min(p.maxEp, experts, dp * cp))) {
          if (experts % ep !== 0 || (dp * cp) % ep !== 0) continue;
          const layout = { seqLength, tp, sequenceParallel: tp > 1, pp, cp, dp, ep };
          let layoutValid = true;
          try {
            trainingMemory(arch, { ...layout, microbatches: Math.max(pp, 1) });
          } catch (e) {
            if (e instanceof ModelInputError) layoutValid = false;
            else throw e;
          }
          if (!layoutValid) continue;
          layoutsTried++;
          const splits = stageSplits(arch.numLayers, pp);
          for (const zeroStage of [0, 1, 2, 3] as ZeroStage[]) {
            if (zeroStage > p.maxZeroStage) continue;
            if (zeroStage > 0 && dp * cp === 1) continue; // nothing to shard over.
            const framework = p.frameworkFor(zeroStage);
            if (framework === null) continue;
            if (frameworkProblem(framework, zeroStage, layout) !== null) continue;
            for (const recompute of ["none", "selective", "full"] as Recompute[]) {
              // Memory grows with b, so once one b does not fit the larger ones do not either.
              let outOfMemory = false;
              for (const b of [...microBatchSizes].sort((x, y) => x - y)) {
                configsTried++;
                const m = batch / (dp * b);
                if (!Number.isInteger(m) || m < pp) {
                  ruledOutBatch++;
                  continue;
                }
                if (outOfMemory) {
                  ruledOutMemory++;
                  continue;
                }
                const setup: TrainingSetup = {
                  ...layout,
                  microBatchSize: b,
                  zeroStage,
                  recompute,
                  microbatches: m,
                  framework,
                };
                const fitting = priceSplits(arch, setup, splits).filter((x) => x.memory <= limit);
                if (fitting.length === 0) {
                  ruledOutMemory++;
                  outOfMemory = true;
                  continue;
                }
                ranked.push(rankOne(p, { dp, tp, pp, cp, ep, zeroStage, recompute, framework, b, m, splits: fitting }));
                if (ranked.length >= p.maxRanked) break search;
              }
            }
          }
        }
      }
    }
  }
  ranked.sort((x, y) => x.stepSeconds - y.stepSeconds || x.memoryBytes - y.memoryBytes);
  return { ranked, layoutsTried, configsTried, ruledOutBatch, ruledOutMemory, memoryLimitBytes: limit };
}

/**
 * The stage splits tried for `pp` stages: the even split (the memory model's default, the first
 * stages taking any extra layer) and, where it exists, the split with one layer fewer on each end
 * stage. One split, all the layers, without a pipeline.
 */
export function stageSplits(numLayers: number, pp: number): number[][] {
  if (pp === 1) return [[numLayers]];
  const splits = [evenStageLayers(numLayers, pp)];
  try {
    const trimmed = balancedStageLayers(numLayers, pp, 1);
    if (trimmed.every((n) => n >= 1)) splits.push(trimmed);
  } catch (e) {
    if (!(e instanceof ModelInputError)) throw e;
  }
  return splits;
}

/** A stage split with the peak bytes per GPU it needs. */
interface PricedSplit {
  stageLayers: number[];
  memory: number;
}

/** Each split's memory per GPU (peak stage) under `setup`, priced with its own layers per stage. */
function priceSplits(arch: ModelArchitecture, setup: TrainingSetup, splits: readonly number[][]): PricedSplit[] {
  return splits.map((stageLayers) => ({
    stageLayers,
    memory: trainingMemory(arch, { ...setup, stageLayers }).perGpu.total,
  }));
}

/** Evaluates one configuration with the step model: the faster of `splits` (each priced in memory). */
function rankOne(
  p: Prepared,
  c: Pick<RankedConfig, "dp" | "tp" | "pp" | "cp" | "ep" | "zeroStage" | "recompute" | "framework"> & {
    b: number;
    m: number;
    splits: readonly PricedSplit[];
  },
): RankedConfig {
  const a = p.arch;
  let best: StepResult | null = null;
  let memory = 0;
  for (const { stageLayers, memory: splitMemory } of c.splits) {
    const r = stepTime({
      config: a,
      gpu: p.input.gpu,
      gpuCount: p.gpuCount,
      tp: c.tp,
      pp: c.pp,
      cp: c.cp,
      ep: c.ep,
      dp: c.dp,
      zeroStage: c.zeroStage,
      sequenceParallel: c.tp > 1,
      recompute: c.recompute,
      seqLength: p.seqLength,
      microBatchSize: c.b,
      globalBatch: p.batch,
      framework: c.framework,
      stageLayers,
      kernelEfficiency: p.efficiency,
      precision: p.precision,
      interconnect: p.net,
      cluster: p.cluster,
      includeMemory: false,
    });
    if (best === null || r.stepSeconds < best.stepSeconds) {
      best = r;
      memory = splitMemory;
    }
  }
  const r = best!;
  const k = r.breakdown;
  return {
    dp: c.dp,
    tp: c.tp,
    pp: c.pp,
    cp: c.cp,
    ep: c.ep,
    zeroStage: c.zeroStage,
    recompute: c.recompute,
    framework: c.framework,
    microBatchSize: c.b,
    microbatches: c.m,
    memoryBytes: memory,
    stepSeconds: r.stepSeconds,
    computeSeconds: k.compute + k.recompute + k.optimizer,
    bubbleSeconds: k.bubble,
    recomputeSeconds: k.recompute,
    stageLayers: r.layout.stageLayers,
    stageImbalance: r.stageImbalance,
    exposedSeconds: { tp: k.tp, cp: k.cp, ep: k.ep, pp: k.pp, dp: k.dp },
    tokensPerSecond: r.tokensPerStep / r.stepSeconds,
    mfu: r.mfu,
  };
}

/** A layout a reader names: the degrees (DP defaults to what the others leave of the GPUs), ZeRO stage, micro-batch size and recomputation. */
export interface NamedLayout {
  dp?: number;
  tp: number;
  pp: number;
  cp: number;
  ep: number;
  zeroStage: ZeroStage;
  microBatchSize: number;
  recompute: Recompute;
  /** Default: the search's framework for its ZeRO stage. */
  framework?: FrameworkId;
}

/** What the search makes of a named layout. */
export type LayoutEvaluation =
  /** It does not divide, or no framework runs it: the field at fault and one sentence. */
  | { ok: false; field: string; reason: string }
  /**
   * It runs: the step model's row for it (as the search would rank it: the faster of the stage
   * splits that fit, or the split that needs the least memory when none does), whether it fits the
   * usable memory, and the search settings it falls outside of (constraints, micro-batch sizes,
   * powers of two), each a short phrase.
   */
  | { ok: true; config: RankedConfig; fits: boolean; outside: string[] };

/**
 * Evaluates one named layout with the search's checks and the same step and memory models, so its
 * step time compares with the ranked rows'. Throws `ModelInputError` for invalid search input (the
 * same as {@link searchConfigurations}); a layout that does not divide or run is answered, not thrown.
 */
export function evaluateLayout(input: ConfigSearchInput, named: NamedLayout): LayoutEvaluation {
  const p = prepare(input);
  const { arch, gpuCount, seqLength, batch } = p;
  const fail = (field: string, reason: string): LayoutEvaluation => ({ ok: false, field, reason });
  for (const [field, v] of [
    ["tp", named.tp],
    ["pp", named.pp],
    ["cp", named.cp],
    ["ep", named.ep],
    ["microBatchSize", named.microBatchSize],
  ] as const)
    requirePositiveInteger(v, field);
  const { tp, pp, cp, ep, zeroStage, recompute } = named;
  if (![0, 1, 2, 3].includes(zeroStage)) throw new ModelInputError("zeroStage", "zeroStage must be 0, 1, 2 or 3");
  const b = named.microBatchSize;
  const model = tp * pp * cp;
  if (gpuCount % model !== 0) return fail("tp", `TP × PP × CP = ${model} does not divide the ${gpuCount} GPUs.`);
  const dp = named.dp === undefined ? gpuCount / model : requirePositiveInteger(named.dp, "dp");
  if (dp * model !== gpuCount) return fail("dp", `DP × TP × PP × CP = ${dp * model}, not the ${gpuCount} GPUs.`);
  if (arch.numHeads % tp !== 0 || arch.numKvHeads % tp !== 0)
    return fail(
      "tp",
      `TP ${tp} does not divide the model's ${arch.numHeads} attention heads and ${arch.numKvHeads} key-value heads.`,
    );
  if (seqLength % cp !== 0 || (seqLength / cp) % tp !== 0)
    return fail(
      "cp",
      `CP ${cp} × TP ${tp} does not divide the sequence length ${seqLength} (each CP shard is split over TP by sequence parallelism).`,
    );
  if (pp > arch.numLayers) return fail("pp", `PP ${pp} is more than the model's ${arch.numLayers} layers.`);
  if (p.experts % ep !== 0 || (dp * cp) % ep !== 0)
    return fail(
      "ep",
      p.experts === 1
        ? `EP ${ep} needs a mixture-of-experts model; this one is dense (EP 1).`
        : `EP ${ep} must divide the ${p.experts} experts and DP × CP = ${dp * cp}.`,
    );
  if (zeroStage > 0 && dp * cp === 1)
    return fail("zeroStage", `ZeRO-${zeroStage} has nothing to shard over with DP × CP = 1.`);
  const framework = named.framework ?? p.frameworkFor(zeroStage);
  if (framework === null || !findFrameworkProfile(framework)?.layouts[zeroStage])
    return fail("zeroStage", `The chosen framework does not run ZeRO-${zeroStage}.`);
  const fwProblem = frameworkProblem(framework, zeroStage, { tp, pp, cp, ep });
  if (fwProblem) return fail("framework", `${fwProblem[0]!.toUpperCase()}${fwProblem.slice(1)}.`);
  const m = batch / (dp * b);
  if (!Number.isInteger(m) || m < pp)
    return fail(
      "microBatchSize",
      Number.isInteger(m)
        ? `The batch of ${batch} sequences gives each of the ${dp} replicas ${m} microbatches of ${b}, fewer than the ${pp} pipeline stages.`
        : `The batch of ${batch} sequences does not split into microbatches of ${b} over DP ${dp}.`,
    );
  const layout = { seqLength, tp, sequenceParallel: tp > 1, pp, cp, dp, ep };
  const setup: TrainingSetup = { ...layout, microBatchSize: b, zeroStage, recompute, microbatches: m, framework };
  let priced: PricedSplit[];
  try {
    priced = priceSplits(arch, setup, stageSplits(arch.numLayers, pp));
  } catch (e) {
    if (e instanceof ModelInputError) return fail(e.field, `${e.message}.`);
    throw e;
  }
  // As the search ranks it: the faster of the splits that fit; when none fits, the one that needs
  // the least memory (what the layout needs at best).
  const fitting = priced.filter((x) => x.memory <= p.limit);
  const fits = fitting.length > 0;
  const leanest = priced.reduce((a, x) => (x.memory < a.memory ? x : a));
  const config = rankOne(p, {
    dp,
    tp,
    pp,
    cp,
    ep,
    zeroStage,
    recompute,
    framework,
    b,
    m,
    splits: fits ? fitting : [leanest],
  });
  const outside: string[] = [];
  if (tp > p.maxTp) outside.push(`TP above ${p.maxTp}`);
  if (pp > p.maxPp) outside.push(`PP above ${p.maxPp}`);
  if (cp > p.maxCp) outside.push(`CP above ${p.maxCp}`);
  if (ep > p.maxEp) outside.push(`EP above ${p.maxEp}`);
  if (zeroStage > p.maxZeroStage) outside.push(`ZeRO above stage ${p.maxZeroStage}`);
  if (!p.microBatchSizes.includes(b)) outside.push(`a micro-batch size other than ${p.microBatchSizes.join(", ")}`);
  const pow2 = (v: number) => (v & (v - 1)) === 0;
  for (const [name, v] of [
    ["TP", tp],
    ["PP", pp],
    ["CP", cp],
  ] as const)
    if (!pow2(v)) outside.push(`${name} ${v}, not a power of two`);
  if (named.framework !== undefined && named.framework !== p.frameworkFor(zeroStage))
    outside.push(`a framework the search does not pair with ZeRO-${zeroStage}`);
  return { ok: true, config, fits, outside };
}
