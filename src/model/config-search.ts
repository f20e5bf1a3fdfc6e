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
 *   3's remedy) are tried; the faster is kept.
 * - Sharding: each ZeRO stage with a framework that runs it ({@link AUTO_FRAMEWORK}, or the one
 *   `framework` given): Megatron-LM's distributed optimizer (ZeRO-0/1) with any pipeline degree,
 *   FSDP2 (ZeRO-3) with any pipeline degree (as torchtitan and Llama 3 run it, keeping gathered
 *   weights under a pipeline), DeepSpeed's ZeRO-2 only without a pipeline (its pipeline engine
 *   refuses ZeRO-2 and ZeRO-3), plain DDP only without TP, PP, CP or EP.
 * - Memory: {@link trainingMemory} for the even split with the row's framework profile; a
 *   configuration fits when its peak stage needs at most `usableMemoryFraction` of HBM.
 *
 * It is a model for ranking and planning; the appendix on published runs states its error.
 */
import { isArchitecture } from "./parameters.ts";
import { parseModelConfig, type ModelArchitecture } from "./architecture.ts";
import { ModelInputError, requireFraction, requirePositiveInteger, requirePositiveNumber } from "./errors.ts";
import { trainingMemory, type TrainingSetup, type ZeroStage } from "./memory.ts";
import type { Recompute } from "./activations.ts";
import type { GpuSpec } from "../data/gpus.ts";
import { findInterconnect } from "../data/interconnects.ts";
import { PLANNING_MEMORY_FRACTION } from "./scenario.ts";
import { findFrameworkProfile, type FrameworkId } from "../data/frameworks.ts";
import { balancedStageLayers, gpuGeneration, KERNEL_EFFICIENCY, stepTime, type StepResult } from "./step.ts";

/** What the search leaves out and why, for the configuration finder to print. */
export const CONFIG_SEARCH_EXCLUSIONS =
  "Ruled out: layouts whose degrees do not divide the heads, sequence or layers; batches that do not split into at least p microbatches per replica; configurations whose peak stage needs more than the usable memory; layouts a framework does not run. Each ZeRO stage runs with one framework: Megatron-LM for ZeRO-0 and ZeRO-1, DeepSpeed for ZeRO-2 (without pipeline parallelism, which its pipeline engine refuses), FSDP2 for ZeRO-3 (with pipeline parallelism, as torchtitan and Llama 3 run it).";

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
  /** GPUs per node sharing NVLink (default 8). */
  gpusPerNode?: number;
  /**
   * Bus bandwidth of one NIC across nodes, bytes/s (default: the GPU
   * system's measured or assumed figure in src/data/interconnects.ts).
   */
  interNodeBytesPerSecond?: number;
  /**
   * Kernel efficiency, the fraction of the dense bf16 peak the kernels
   * reach (default: the GPU generation's constant, KERNEL_EFFICIENCY).
   */
  computeEfficiency?: number;
  /** Fraction of HBM a configuration may use (default PLANNING_MEMORY_FRACTION). */
  usableMemoryFraction?: number;
  /** Micro-batch sizes tried (default 1, 2, 4, 8). */
  microBatchSizes?: number[];
  /** Largest TP degree tried (default `gpusPerNode`). */
  maxTp?: number;
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
  /** Peak bytes per GPU (decimal). */
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
  /** Model FLOPs utilization: model FLOPs of the step / (step time × GPUs × peak). */
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
  /** Of those: did not fit in memory. */
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

/**
 * Enumerates configurations and ranks those that fit (see the module comment for the model).
 * Throws `ModelInputError` naming the field for invalid input.
 */
export function searchConfigurations(input: ConfigSearchInput): ConfigSearchResult {
  const arch: ModelArchitecture = isArchitecture(input.config)
    ? input.config
    : parseModelConfig(input.config).architecture;
  const gpuCount = requirePositiveInteger(input.gpuCount, "gpuCount");
  const seqLength = requirePositiveInteger(input.seqLength, "seqLength");
  const batch = requirePositiveInteger(input.globalBatchSequences, "globalBatchSequences");
  const baseNet = findInterconnect(input.gpu.id);
  if (!baseNet) throw new ModelInputError("gpu", `no measured bandwidths for GPU "${input.gpu.id}"`);
  const gpusPerNode = requirePositiveInteger(input.gpusPerNode ?? baseNet.gpusPerNode, "gpusPerNode");
  const inter = requirePositiveNumber(
    input.interNodeBytesPerSecond ?? baseNet.nicBusBytesPerSecond,
    "interNodeBytesPerSecond",
  );
  const efficiency = requireFraction(
    input.computeEfficiency ?? KERNEL_EFFICIENCY[gpuGeneration(input.gpu.id)],
    "computeEfficiency",
  );
  const usable = requireFraction(input.usableMemoryFraction ?? PLANNING_MEMORY_FRACTION, "usableMemoryFraction");
  const microBatchSizes = (input.microBatchSizes ?? [1, 2, 4, 8]).map((b) =>
    requirePositiveInteger(b, "microBatchSizes"),
  );
  const maxTp = requirePositiveInteger(input.maxTp ?? gpusPerNode, "maxTp");
  const maxRanked = input.maxRanked === undefined ? Infinity : requirePositiveInteger(input.maxRanked, "maxRanked");
  if (gpuCount > 1_000_000) throw new ModelInputError("gpuCount", "gpuCount must be at most 1,000,000");
  if (seqLength > 10_000_000) throw new ModelInputError("seqLength", "seqLength must be at most 10,000,000");
  const net = { ...baseNet, gpusPerNode, nicBusBytesPerSecond: inter };
  const limit = input.gpu.hbmBytes * usable;
  const chosen = input.framework ?? "auto";
  if (chosen !== "auto" && !findFrameworkProfile(chosen))
    throw new ModelInputError("framework", `unknown framework "${String(chosen)}"`);
  const frameworkFor = (zeroStage: ZeroStage): FrameworkId | null => {
    if (chosen === "auto") return AUTO_FRAMEWORK[zeroStage];
    return findFrameworkProfile(chosen)?.layouts[zeroStage] ? chosen : null;
  };
  const experts = arch.moe?.routedExperts ?? 1;

  const ranked: RankedConfig[] = [];
  let layoutsTried = 0;
  let configsTried = 0;
  let ruledOutBatch = 0;
  let ruledOutMemory = 0;

  search: for (const tp of powersOfTwoUpTo(Math.min(maxTp, gpuCount))) {
    if (arch.numHeads % tp !== 0 || arch.numKvHeads % tp !== 0) continue;
    for (const cp of powersOfTwoUpTo(gpuCount / tp)) {
      if (seqLength % cp !== 0 || (seqLength / cp) % tp !== 0) continue;
      for (const pp of powersOfTwoUpTo(Math.min(arch.numLayers, gpuCount / (tp * cp)))) {
        const rest = gpuCount / (tp * cp * pp);
        if (!Number.isInteger(rest)) continue;
        const dp = rest;
        for (const ep of divisors(Math.min(experts, dp * cp))) {
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
          for (const zeroStage of [0, 1, 2, 3] as ZeroStage[]) {
            if (zeroStage > 0 && dp * cp === 1) continue; // nothing to shard over.
            const framework = frameworkFor(zeroStage);
            if (framework === null) continue;
            if (framework === "ddp" && tp * pp * cp * ep > 1) continue; // plain DDP: data parallelism only.
            if (framework === "deepspeed" && zeroStage >= 2 && pp > 1) continue; // its pipeline engine refuses.
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
                const memory = trainingMemory(arch, setup).perGpu.total;
                if (memory > limit) {
                  ruledOutMemory++;
                  outOfMemory = true;
                  continue;
                }
                ranked.push(
                  rankOne(arch, setup, { dp, tp, pp, cp, ep, zeroStage, recompute, framework, b, m, memory }),
                );
                if (ranked.length >= maxRanked) break search;
              }
            }
          }
        }
      }
    }
  }
  ranked.sort((x, y) => x.stepSeconds - y.stepSeconds || x.memoryBytes - y.memoryBytes);
  return { ranked, layoutsTried, configsTried, ruledOutBatch, ruledOutMemory, memoryLimitBytes: limit };

  function rankOne(
    a: ModelArchitecture,
    _setup: TrainingSetup,
    c: Pick<RankedConfig, "dp" | "tp" | "pp" | "cp" | "ep" | "zeroStage" | "recompute" | "framework"> & {
      b: number;
      m: number;
      memory: number;
    },
  ): RankedConfig {
    const splits: number[][] = [];
    if (c.pp === 1) splits.push([a.numLayers]);
    else {
      const even = Array.from(
        { length: c.pp },
        (_, i) => Math.floor(a.numLayers / c.pp) + (i < a.numLayers % c.pp ? 1 : 0),
      );
      splits.push(even);
      try {
        const trimmed = balancedStageLayers(a.numLayers, c.pp, 1);
        if (trimmed.every((n) => n >= 1)) splits.push(trimmed);
      } catch (e) {
        if (!(e instanceof ModelInputError)) throw e;
      }
    }
    let best: StepResult | null = null;
    for (const stageLayers of splits) {
      const r = stepTime({
        config: a,
        gpu: input.gpu,
        gpuCount,
        tp: c.tp,
        pp: c.pp,
        cp: c.cp,
        ep: c.ep,
        dp: c.dp,
        zeroStage: c.zeroStage,
        sequenceParallel: c.tp > 1,
        recompute: c.recompute,
        seqLength,
        microBatchSize: c.b,
        globalBatch: batch,
        framework: c.framework,
        stageLayers,
        kernelEfficiency: efficiency,
        interconnect: net,
        includeMemory: false,
      });
      if (best === null || r.stepSeconds < best.stepSeconds) best = r;
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
      memoryBytes: c.memory,
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
}
