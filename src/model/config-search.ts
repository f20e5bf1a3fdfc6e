/**
 * Search over parallel configurations: enumerate (DP, TP, PP, CP, EP, ZeRO, recomputation,
 * micro-batch size) for a model on a cluster, rule out what does not divide, does not reach the
 * global batch or does not fit in memory, and rank the rest by a simple step-time model.
 *
 * ## Step-time model (the assumptions, stated once)
 *
 * $$T_\text{step} = T_\text{compute}\,\bigl(1 + \tfrac{p-1}{m}\bigr) + T_\text{TP} + T_\text{CP} + T_\text{EP} + T_\text{PP} + T_\text{DP,exposed}$$
 *
 * - Compute: hardware FLOPs of the step (model FLOPs plus what recomputation repeats,
 *   {@link hardwareFlopsPerToken}) spread evenly over all GPUs, running at `computeEfficiency` of
 *   the dense bf16 peak. Stage imbalance and kernel efficiency differences between shapes are ignored.
 * - Bubble: 1F1B, idle time / ideal busy time $= (p-1)/m$ (narayanan2021efficient §2.2.1).
 * - Tensor-, context- and expert-parallel traffic and pipeline sends are counted as fully exposed:
 *   they sit on the critical path between dependent operations. Volumes come from
 *   {@link communicationPerStep}.
 * - Data-parallel / ZeRO traffic can hide behind independent compute: ZeRO-0/1 behind the backward
 *   pass of the last microbatch, ZeRO-2 behind every microbatch's backward pass, ZeRO-3 behind the
 *   whole step's compute; only the excess counts.
 * - Placement: ranks are ordered TP (innermost), CP, DP/EP, PP (outermost), as Megatron-LM orders
 *   them. A group whose ranks span at most `gpusPerNode` consecutive GPUs uses the NVLink bus
 *   bandwidth (half the bidirectional NVLink figure); any larger group uses `interNodeBytesPerSecond`
 *   per GPU.
 * - Memory: {@link trainingMemory} with sequence parallelism whenever $t > 1$, the 1F1B schedule,
 *   bf16 mixed precision; a configuration fits when its peak stage needs at most
 *   `usableMemoryFraction` of the GPU's HBM.
 *
 * It is a model for ranking, not a prediction of measured throughput.
 */
import { isArchitecture } from "./parameters.ts";
import { parseModelConfig, type ModelArchitecture } from "./architecture.ts";
import { ModelInputError, requireFraction, requirePositiveInteger, requirePositiveNumber } from "./errors.ts";
import { hardwareFlopsPerToken, modelFlopsPerToken } from "./compute.ts";
import { trainingMemory, type TrainingSetup, type ZeroStage } from "./memory.ts";
import { collectiveSeconds, communicationPerStep, type CommunicationItem } from "./communication.ts";
import type { Recompute } from "./activations.ts";
import type { GpuSpec } from "../data/gpus.ts";

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
  /** Bus bandwidth per GPU across nodes, bytes/s (default 50e9: one 400 Gb/s NIC per GPU). */
  interNodeBytesPerSecond?: number;
  /** Fraction of the dense bf16 peak the compute runs at (default 0.6). */
  computeEfficiency?: number;
  /** Fraction of HBM a configuration may use (default 0.9; the rest is for the framework, NCCL buffers, fragmentation). */
  usableMemoryFraction?: number;
  /** Micro-batch sizes tried (default 1, 2, 4, 8). */
  microBatchSizes?: number[];
  /** Largest TP degree tried (default `gpusPerNode`). */
  maxTp?: number;
}

/** One configuration that fits, with its modeled step time. */
export interface RankedConfig {
  dp: number;
  tp: number;
  pp: number;
  cp: number;
  ep: number;
  zeroStage: ZeroStage;
  recompute: Recompute;
  microBatchSize: number;
  /** Microbatches per step per DP rank, $m = B/(d\,b)$. */
  microbatches: number;
  /** Peak bytes per GPU (decimal). */
  memoryBytes: number;
  /** Step time and its parts, seconds. */
  stepSeconds: number;
  computeSeconds: number;
  bubbleSeconds: number;
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

/** Bus bandwidth a group of `ranks` ranks spaced `stride` apart gets (see the module comment). */
export function groupBandwidth(ranks: number, stride: number, gpusPerNode: number, intraBytesPerSecond: number, interBytesPerSecond: number): number {
  return ranks * stride <= gpusPerNode ? intraBytesPerSecond : interBytesPerSecond;
}

function itemSeconds(items: CommunicationItem[], kinds: string[], bandwidth: number): number {
  let total = 0;
  for (const item of items) {
    if (!kinds.includes(item.kind)) continue;
    total += item.callsPerStep * collectiveSeconds({ collective: item.collective, messageBytes: item.messageBytes, ranks: item.ranks, busBandwidthBytesPerSecond: bandwidth });
  }
  return total;
}

/**
 * Enumerates configurations and ranks those that fit (see the module comment for the model).
 * Throws `ModelInputError` naming the field for invalid input.
 */
export function searchConfigurations(input: ConfigSearchInput): ConfigSearchResult {
  const arch: ModelArchitecture = isArchitecture(input.config) ? input.config : parseModelConfig(input.config).architecture;
  const gpuCount = requirePositiveInteger(input.gpuCount, "gpuCount");
  const seqLength = requirePositiveInteger(input.seqLength, "seqLength");
  const batch = requirePositiveInteger(input.globalBatchSequences, "globalBatchSequences");
  const gpusPerNode = requirePositiveInteger(input.gpusPerNode ?? 8, "gpusPerNode");
  const inter = requirePositiveNumber(input.interNodeBytesPerSecond ?? 50e9, "interNodeBytesPerSecond");
  const efficiency = requireFraction(input.computeEfficiency ?? 0.6, "computeEfficiency");
  const usable = requireFraction(input.usableMemoryFraction ?? 0.9, "usableMemoryFraction");
  const microBatchSizes = (input.microBatchSizes ?? [1, 2, 4, 8]).map((b) => requirePositiveInteger(b, "microBatchSizes"));
  const maxTp = requirePositiveInteger(input.maxTp ?? gpusPerNode, "maxTp");
  if (gpuCount > 1_000_000) throw new ModelInputError("gpuCount", "gpuCount must be at most 1,000,000");
  if (seqLength > 10_000_000) throw new ModelInputError("seqLength", "seqLength must be at most 10,000,000");
  const intra = input.gpu.nvlinkBytesPerSecond / 2;
  const peak = input.gpu.bf16FlopsPerSecond;
  const limit = input.gpu.hbmBytes * usable;

  const modelFlops = modelFlopsPerToken(arch, seqLength).total;
  const hwFlops: Record<Recompute, number> = {
    none: hardwareFlopsPerToken(arch, seqLength, "none"),
    selective: hardwareFlopsPerToken(arch, seqLength, "selective"),
    full: hardwareFlopsPerToken(arch, seqLength, "full"),
  };
  const tokensPerStep = batch * seqLength;
  const experts = arch.moe?.routedExperts ?? 1;

  const ranked: RankedConfig[] = [];
  const commCache = new Map<string, CommunicationItem[]>();
  let layoutsTried = 0;
  let configsTried = 0;
  let ruledOutBatch = 0;
  let ruledOutMemory = 0;

  for (const tp of powersOfTwoUpTo(Math.min(maxTp, gpuCount))) {
    if (arch.numHeads % tp !== 0 || arch.numKvHeads % tp !== 0) continue;
    for (const cp of powersOfTwoUpTo(gpuCount / tp)) {
      if (seqLength % cp !== 0 || (seqLength / cp) % tp !== 0) continue;
      for (const pp of powersOfTwoUpTo(Math.min(arch.numLayers, gpuCount / (tp * cp)))) {
        const rest = gpuCount / (tp * cp * pp);
        if (!Number.isInteger(rest)) continue;
        const dp = rest;
        for (const ep of divisors(Math.min(experts, dp * cp))) {
          if (experts % ep !== 0 || (dp * cp) % ep !== 0) continue;
          let layoutValid = true;
          try {
            trainingMemory(arch, { seqLength, tp, sequenceParallel: tp > 1, pp, cp, dp, ep, microbatches: Math.max(pp, 1) });
          } catch (e) {
            if (e instanceof ModelInputError) layoutValid = false;
            else throw e;
          }
          if (!layoutValid) continue;
          layoutsTried++;
          for (const zeroStage of [0, 1, 2, 3] as ZeroStage[]) {
            if (zeroStage >= 2 && pp > 1) continue; // DeepSpeed does not combine ZeRO-2/3 with PP.
            if (zeroStage > 0 && dp * cp === 1) continue; // nothing to shard over.
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
                const setup: TrainingSetup = { seqLength, microBatchSize: b, tp, sequenceParallel: tp > 1, pp, cp, dp, ep, zeroStage, recompute, microbatches: m };
                const memory = trainingMemory(arch, setup).perGpu.total;
                if (memory > limit) {
                  ruledOutMemory++;
                  outOfMemory = true;
                  continue;
                }
                ranked.push(rankOne(arch, setup, { dp, tp, pp, cp, ep, zeroStage, recompute, b, m, memory }));
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
    setup: TrainingSetup,
    c: { dp: number; tp: number; pp: number; cp: number; ep: number; zeroStage: ZeroStage; recompute: Recompute; b: number; m: number; memory: number },
  ): RankedConfig {
    const computeSeconds = (tokensPerStep * hwFlops[c.recompute]) / (gpuCount * peak * efficiency);
    const bubbleSeconds = (computeSeconds * (c.pp - 1)) / c.m;
    const key = `${c.tp}/${c.pp}/${c.cp}/${c.dp}/${c.ep}/${c.b}/${c.zeroStage}/${c.recompute === "full"}`;
    let items = commCache.get(key);
    if (!items) {
      items = communicationPerStep(a, setup).items;
      commCache.set(key, items);
    }
    const bw = (ranks: number, stride: number) => groupBandwidth(ranks, stride, gpusPerNode, intra, inter);
    const tpSeconds = itemSeconds(items, ["tp"], bw(c.tp, 1));
    const cpSeconds = itemSeconds(items, ["cp"], bw(c.cp, c.tp));
    // Expert all-to-alls of the stage with the most MoE layers (communicationPerStep reports the
    // first stage, which may hold only dense layers): 4 per MoE layer and microbatch, 6 with full
    // recomputation, each dispatching k routed copies of the microbatch's tokens.
    let epSeconds = 0;
    if (c.ep > 1 && a.moe) {
      const moeLayers = a.numLayers - a.moe.firstDenseLayers;
      const perStage = Math.ceil(moeLayers / c.pp);
      const message = (a.moe.expertsPerToken * seqLength * c.b * a.hiddenSize * 2) / (c.cp * c.tp);
      const calls = (4 + (c.recompute === "full" ? 2 : 0)) * perStage * c.m;
      epSeconds = calls * collectiveSeconds({ collective: "all-to-all", messageBytes: message, ranks: c.ep, busBandwidthBytesPerSecond: bw(c.ep, c.tp * c.cp) });
    }
    const ppSeconds = itemSeconds(items, ["pp"], bw(c.pp, c.tp * c.cp * c.dp));
    const dpSeconds = itemSeconds(items, ["dp", "zero"], bw(c.dp * c.cp, c.tp));
    // Per-microbatch compute of one GPU; backward is two thirds of a step without recomputation.
    const perMicrobatch = computeSeconds / c.m;
    const overlapWindowSeconds = c.zeroStage === 3 ? computeSeconds : c.zeroStage === 2 ? (2 / 3) * computeSeconds : (2 / 3) * perMicrobatch;
    const dpExposed = Math.max(0, dpSeconds - overlapWindowSeconds);
    const stepSeconds = computeSeconds + bubbleSeconds + tpSeconds + cpSeconds + epSeconds + ppSeconds + dpExposed;
    return {
      dp: c.dp,
      tp: c.tp,
      pp: c.pp,
      cp: c.cp,
      ep: c.ep,
      zeroStage: c.zeroStage,
      recompute: c.recompute,
      microBatchSize: c.b,
      microbatches: c.m,
      memoryBytes: c.memory,
      stepSeconds,
      computeSeconds,
      bubbleSeconds,
      exposedSeconds: { tp: tpSeconds, cp: cpSeconds, ep: epSeconds, pp: ppSeconds, dp: dpExposed },
      tokensPerSecond: tokensPerStep / stepSeconds,
      mfu: (tokensPerStep * modelFlops) / (stepSeconds * gpuCount * peak),
    };
  }
}
