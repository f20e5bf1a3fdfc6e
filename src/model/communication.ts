/**
 * Communication per training step: which collectives each form of parallelism issues, how many
 * bytes one GPU sends, how long a ring algorithm takes at a given bandwidth, and how that time
 * compares with the compute that could hide it.
 *
 * ## Ring time (nccl-tests bus-bandwidth convention)
 *
 * For a collective on a message of $S$ bytes over $n$ ranks, nccl-tests reports the algorithm
 * bandwidth $S/t$ and the bus bandwidth busbw $= (S/t) \cdot f$, with $f = 2(n-1)/n$ for all-reduce and
 * $(n-1)/n$ for all-gather, reduce-scatter and all-to-all; $f$ is also the fraction of $S$ each GPU
 * sends in a ring. So $t = f S / \text{busbw}$, and busbw can be compared with the link bandwidth.
 * Point-to-point sends use $f = 1$. Latency is an optional fixed cost per call.
 *
 * ## Volumes per step (one GPU)
 *
 * - Data parallel (ZeRO-0): one all-reduce of the gradients per step (accumulated over the $m$
 *   microbatches), $2\Psi$ "data movement" in rajbhandari2020zero §7.1.
 * - ZeRO-1/2: a reduce-scatter of the gradients and an all-gather of the updated parameters, the
 *   same $2\Psi$ (§7.2.1). ZeRO-2 and ZeRO-3 keep only a shard of the gradients, so they
 *   reduce-scatter after every microbatch.
 * - ZeRO-3: all-gather of the parameters before each microbatch's forward and again before its
 *   backward, plus the gradient reduce-scatter: $3\Psi$ for one microbatch (§7.2.2).
 * - Tensor parallel: per layer and microbatch two all-reduces of the $b s h$ activations in the
 *   forward pass and two in the backward, $8bsh(t-1)/t$ elements sent (narayanan2021efficient §3.2);
 *   with sequence parallelism four all-gathers and four reduce-scatters of the same size, the same
 *   bytes (korthikanti2023reducing §4.2.2), plus two all-gathers in the backward pass that
 *   re-gather the column-parallel inputs, stored as sequence shards (Megatron-LM overlaps them;
 *   tp-sharding.ts, tpSpRegatherElementsPerLayer). Full recomputation repeats the forward's collectives.
 * - Pipeline parallel (the busiest stage): per microbatch a middle stage sends the $bsh$
 *   activations to the next stage and their gradients back (narayanan2021efficient §3.2), $bsh/t$
 *   with sequence parallelism or the scatter/gather optimization (§4.1); $v$ times as many with
 *   interleaving. With two stages neither stage is a middle one: each sends $(2v-1)$ per microbatch.
 * - Context parallel (ring attention): per layer and microbatch each GPU passes its K and V chunk
 *   around the ring $c-1$ times in the forward pass and K, V plus their gradients in the backward
 *   ($3(c-1)$ chunk sends in all; one more round of K, V under full recomputation).
 * - Expert parallel: per MoE layer and microbatch an all-to-all to dispatch the $k$ routed copies of
 *   each token and one to combine them, in the forward and again in the backward pass; each
 *   sends the fraction $(e-1)/e$ of its $k s b h$ routed activations off the GPU (balanced routing).
 */
import { isMoeLayer, parseModelConfig, type ModelArchitecture } from "./architecture.ts";
import {
  at,
  requireFraction,
  requireNonNegativeNumber,
  requireOneOf,
  requirePositiveInteger,
  requirePositiveNumber,
} from "./errors.ts";
import { modelFlopsPerToken, matmulParameters } from "./compute.ts";
import { isArchitecture, layerParameters } from "./parameters.ts";
import { resolveTrainingSetup, stageLayerIndices, trainingMemory, type TrainingSetup } from "./memory.ts";
import { tpSpRegatherElementsPerLayer } from "./tp-sharding.ts";

/** Collective operations. `send-recv` is point-to-point. */
export type Collective = "all-reduce" | "all-gather" | "reduce-scatter" | "all-to-all" | "send-recv";

/** Every collective name. */
export const COLLECTIVES: readonly Collective[] = [
  "all-reduce",
  "all-gather",
  "reduce-scatter",
  "all-to-all",
  "send-recv",
];

/**
 * Bus-bandwidth factor $f$ of nccl-tests: the fraction of the message each GPU sends in a ring.
 * $2(n-1)/n$ for all-reduce, $(n-1)/n$ for all-gather, reduce-scatter, all-to-all; 1 for send-recv.
 */
export function busBandwidthFactor(collective: Collective, ranks: number): number {
  requireOneOf(collective, COLLECTIVES, "collective");
  const n = requirePositiveInteger(ranks, "ranks");
  if (collective === "send-recv") return 1;
  if (collective === "all-reduce") return (2 * (n - 1)) / n;
  return (n - 1) / n;
}

/** Inputs of {@link collectiveSeconds}. */
export interface CollectiveTimeInput {
  collective: Collective;
  /** Message size $S$ in bytes (the buffer the collective is called on: the full tensor). */
  messageBytes: number;
  /** Ranks $n$. */
  ranks: number;
  /** Bus bandwidth in bytes per second (nccl-tests busbw). */
  busBandwidthBytesPerSecond: number;
  /** Fixed cost per call, seconds (default 0). */
  latencySeconds?: number;
}

/** Ring time $t = \alpha + f S / \text{busbw}$; 0 for a single rank. */
export function collectiveSeconds(input: CollectiveTimeInput): number {
  const f = busBandwidthFactor(input.collective, input.ranks);
  const bytes = requireNonNegativeNumber(input.messageBytes, "messageBytes");
  const bw = requirePositiveNumber(input.busBandwidthBytesPerSecond, "busBandwidthBytesPerSecond");
  const latency = requireNonNegativeNumber(input.latencySeconds ?? 0, "latencySeconds");
  if (f === 0 || bytes === 0) return 0;
  return latency + (f * bytes) / bw;
}

/** Parallelism a communication item belongs to. */
export type CommunicationKind = "dp" | "zero" | "tp" | "pp" | "cp" | "ep";

/** One kind of collective issued during a step by one GPU. */
export interface CommunicationItem {
  kind: CommunicationKind;
  /** What it moves, e.g. "gradient all-reduce". */
  name: string;
  collective: Collective;
  /** Bytes of the buffer per call. */
  messageBytes: number;
  /** Calls per optimizer step. */
  callsPerStep: number;
  /** Ranks in the group. */
  ranks: number;
  /** Bytes this GPU sends per step: calls × message × bus-bandwidth factor. */
  bytesSentPerStep: number;
  /** Paper and section the volume follows. */
  source: string;
}

/** Result of {@link communicationPerStep}. */
export interface CommunicationVolume {
  items: CommunicationItem[];
  /** Bytes sent per GPU per step, by kind. */
  bytesSentByKind: Record<CommunicationKind, number>;
  /** Sum over all items. */
  totalBytesSent: number;
  /**
   * Pipeline stage the figures are for (the first; it holds the most layers), except the pipeline
   * sends, which are the busiest stage's (a middle one; with two stages, either).
   */
  stage: number;
}

function toArchitecture(config: unknown): ModelArchitecture {
  return isArchitecture(config) ? config : parseModelConfig(config).architecture;
}

/**
 * Collectives one GPU of the first pipeline stage issues per optimizer step under `setup` (the
 * pipeline sends: the busiest stage's)
 * (see the module comment for every volume and its source). Gradients are reduced in their
 * storage precision: fp32 with `fp32GradAccum` or `precision: "fp32"`, bf16 otherwise.
 */
export function communicationPerStep(config: unknown, setup: TrainingSetup = {}): CommunicationVolume {
  const arch = toArchitecture(config);
  const s = resolveTrainingSetup(arch, setup);
  const memory = trainingMemory(arch, setup);
  const stage = at(memory.stages, 0, "communication: first pipeline stage");
  const t = s.tp;
  const m = s.microbatches;
  const valueBytes = s.precision === "fp32" ? 4 : 2;
  const gradBytes = s.precision === "fp32" || s.fp32GradAccum ? 4 : 2;
  const tokens = (s.seqLength * s.microBatchSize) / s.cp;
  const h = arch.hiddenSize;
  const items: CommunicationItem[] = [];
  const push = (item: Omit<CommunicationItem, "bytesSentPerStep">) => {
    if (item.ranks <= 1 || item.callsPerStep === 0 || item.messageBytes === 0) return;
    items.push({
      ...item,
      bytesSentPerStep: item.callsPerStep * item.messageBytes * busBandwidthFactor(item.collective, item.ranks),
    });
  };

  // Data parallel / ZeRO: dense and expert parameters have different groups.
  const groups = [
    { count: stage.parameterCount - stage.expertParameterCount, ranks: s.dp * s.cp, label: "" },
    { count: stage.expertParameterCount, ranks: (s.dp * s.cp) / s.ep, label: "expert " },
  ];
  for (const g of groups) {
    if (g.count === 0) continue;
    if (s.zeroStage === 0) {
      push({
        kind: "dp",
        name: `${g.label}gradient all-reduce`,
        collective: "all-reduce",
        messageBytes: g.count * gradBytes,
        callsPerStep: 1,
        ranks: g.ranks,
        source: "rajbhandari2020zero §7.1",
      });
    } else {
      push({
        kind: "zero",
        name: `${g.label}gradient reduce-scatter`,
        collective: "reduce-scatter",
        messageBytes: g.count * gradBytes,
        callsPerStep: s.zeroStage >= 2 ? m : 1,
        ranks: g.ranks,
        source: "rajbhandari2020zero §7.2",
      });
      if (s.zeroStage === 3) {
        for (const pass of ["forward", "backward"]) {
          push({
            kind: "zero",
            name: `${g.label}parameter all-gather (${pass})`,
            collective: "all-gather",
            messageBytes: g.count * valueBytes,
            callsPerStep: m,
            ranks: g.ranks,
            source: "rajbhandari2020zero §7.2.2",
          });
        }
      } else {
        push({
          kind: "zero",
          name: `${g.label}updated parameter all-gather`,
          collective: "all-gather",
          messageBytes: g.count * valueBytes,
          callsPerStep: 1,
          ranks: g.ranks,
          source: "rajbhandari2020zero §7.2.1",
        });
      }
    }
  }

  const layers = stageLayerIndices(arch.numLayers, s.pp, 0, s.virtualStages, s.stageLayers);
  const activationBytes = tokens * h * valueBytes;
  // Tensor parallel.
  const tpForward = 2;
  const tpCalls = (tpForward * 2 + (s.recompute === "full" ? tpForward : 0)) * layers.length * m;
  if (s.sequenceParallel) {
    push({
      kind: "tp",
      name: "sequence-parallel all-gather",
      collective: "all-gather",
      messageBytes: activationBytes,
      callsPerStep: tpCalls,
      ranks: t,
      source: "korthikanti2023reducing §4.2.2",
    });
    push({
      kind: "tp",
      name: "sequence-parallel reduce-scatter",
      collective: "reduce-scatter",
      messageBytes: activationBytes,
      callsPerStep: tpCalls,
      ranks: t,
      source: "korthikanti2023reducing §4.2.2",
    });
    // The column-parallel blocks store only their sequence shard (activations.ts), so the backward
    // pass all-gathers each input again for the weight gradient (overlapped in Megatron-LM).
    // Calls per layer and microbatch: the re-gathered elements over one all-gather's (t-1)/t share.
    const regathersPerLayer = Math.round(tpSpRegatherElementsPerLayer(1, 1, 1, t) / ((t - 1) / t));
    push({
      kind: "tp",
      name: "sequence-parallel backward re-gather (overlapped)",
      collective: "all-gather",
      messageBytes: activationBytes,
      callsPerStep: regathersPerLayer * layers.length * m,
      ranks: t,
      source:
        "megatronlm2024code, tensor_parallel/layers.py (LinearWithGradAccumulationAndAsyncCommunication.backward)",
    });
  } else {
    push({
      kind: "tp",
      name: "tensor-parallel all-reduce",
      collective: "all-reduce",
      messageBytes: activationBytes,
      callsPerStep: tpCalls,
      ranks: t,
      source: "narayanan2021efficient §3.2",
    });
  }
  // Pipeline parallel, the busiest stage: a middle stage sends m activations forward and m
  // gradients back per model chunk (v chunks with interleaving). With two stages there is no
  // middle stage: the first chunk sends no gradient and the last no activation, so each of the
  // two stages sends (2v - 1)m.
  if (s.pp > 1) {
    const p2pBytes = s.sequenceParallel ? activationBytes / t : activationBytes;
    const sendsPerMicrobatch = 2 * s.virtualStages - (s.pp === 2 ? 1 : 0);
    push({
      kind: "pp",
      name: "activation and gradient sends (busiest stage)",
      collective: "send-recv",
      messageBytes: p2pBytes,
      callsPerStep: sendsPerMicrobatch * m,
      ranks: 2,
      source: "narayanan2021efficient §3.2, §4.1",
    });
  }
  // Context parallel: K and V chunk per ring step.
  if (s.cp > 1) {
    const kvColumns = arch.mla
      ? arch.numHeads * (arch.mla.qkNopeHeadDim + arch.mla.qkRopeHeadDim + arch.mla.vHeadDim)
      : 2 * arch.numKvHeads * arch.headDim;
    const kvBytes = (tokens * kvColumns * valueBytes) / t;
    const rounds = 3 + (s.recompute === "full" ? 1 : 0);
    push({
      kind: "cp",
      name: "ring attention K/V (and gradient) sends",
      collective: "send-recv",
      messageBytes: kvBytes,
      callsPerStep: rounds * (s.cp - 1) * layers.length * m,
      ranks: 2,
      source: "korthikanti2023reducing; ring attention as in Megatron-LM context parallelism",
    });
  }
  // Expert parallel.
  if (s.ep > 1 && arch.moe) {
    const moeLayers = layers.filter((i) => isMoeLayer(arch, i)).length;
    const calls = (4 + (s.recompute === "full" ? 2 : 0)) * moeLayers * m;
    push({
      kind: "ep",
      name: "expert dispatch and combine all-to-all",
      collective: "all-to-all",
      messageBytes: arch.moe.expertsPerToken * tokens * h * valueBytes,
      callsPerStep: calls,
      ranks: s.ep,
      source: "deepseekai2024v3 §3.2.2 (dispatch/combine)",
    });
  }
  const bytesSentByKind: Record<CommunicationKind, number> = { dp: 0, zero: 0, tp: 0, pp: 0, cp: 0, ep: 0 };
  for (const item of items) bytesSentByKind[item.kind] += item.bytesSentPerStep;
  const totalBytesSent = items.reduce((acc, i) => acc + i.bytesSentPerStep, 0);
  return { items, bytesSentByKind, totalBytesSent, stage: 0 };
}

/** Bandwidths (bytes per second, nccl-tests bus bandwidth) of each group's links. */
export interface GroupBandwidths {
  /** Data-parallel / ZeRO group (often InfiniBand across nodes). */
  dpBusBytesPerSecond: number;
  /** Tensor-parallel group (often NVLink). */
  tpBusBytesPerSecond: number;
  /** Point-to-point between pipeline stages. */
  ppBytesPerSecond: number;
}

/** Inputs of {@link overlapRatios}. */
export interface OverlapInput {
  setup: TrainingSetup;
  /** Peak FLOP/s of one GPU (dense, training precision). */
  peakFlopsPerSecond: number;
  /** Assumed MFU of the compute, in (0, 1]. */
  mfu: number;
  bandwidths: GroupBandwidths;
}

/** Communication time next to the compute time that could hide it; ratio < 1 means it can be hidden. */
export interface OverlapRatio {
  commSeconds: number;
  computeSeconds: number;
  /** commSeconds / computeSeconds. */
  ratio: number;
}

/** Result of {@link overlapRatios}; `null` where that parallelism is not used. */
export interface OverlapRatios {
  /**
   * Gradient reduction of the dense parameters (all-reduce, or reduce-scatter under
   * ZeRO-1/2) vs the backward pass (2× forward) of the last microbatch on the stage.
   */
  dp: OverlapRatio | null;
  /**
   * ZeRO-1/2 only: the all-gather of the updated parameters vs the forward pass of the next step's
   * first microbatch, the only compute it can hide behind (it needs the optimizer step, which needs
   * every gradient). `null` otherwise.
   */
  zeroParamGather?: OverlapRatio | null;
  /**
   * ZeRO-3: all-gather of one layer's parameters vs one layer's forward of one microbatch (prefetching the next layer).
   */
  zero3: OverlapRatio | null;
  /**
   * Tensor parallel: one layer's forward communication (two all-reduces,
   * or SP's gathers and scatters) vs that layer's forward compute.
   */
  tp: OverlapRatio | null;
  /** Pipeline: one activation send vs the stage's forward of one microbatch. */
  pp: OverlapRatio | null;
}

/**
 * Ratio of communication time to the compute time that could hide it, for DP, ZeRO-3, TP and PP
 * (definitions in {@link OverlapRatios}). Compute time = FLOPs on this GPU / (peak × MFU), with
 * the layer FLOPs of {@link modelFlopsPerToken} divided over TP and CP ranks.
 */
export function overlapRatios(config: unknown, input: OverlapInput): OverlapRatios {
  const arch = toArchitecture(config);
  const s = resolveTrainingSetup(arch, input.setup);
  const peak = requirePositiveNumber(input.peakFlopsPerSecond, "peakFlopsPerSecond");
  const mfu = requireFraction(input.mfu, "mfu");
  const bw = input.bandwidths;
  requirePositiveNumber(bw.dpBusBytesPerSecond, "dpBusBytesPerSecond");
  requirePositiveNumber(bw.tpBusBytesPerSecond, "tpBusBytesPerSecond");
  requirePositiveNumber(bw.ppBytesPerSecond, "ppBytesPerSecond");
  const memory = trainingMemory(arch, input.setup);
  const stage = at(memory.stages, 0, "overlap: first pipeline stage");
  const rate = peak * mfu;
  const tokensPerGpu = (s.seqLength * s.microBatchSize) / s.cp;
  const valueBytes = s.precision === "fp32" ? 4 : 2;
  const gradBytes = s.precision === "fp32" || s.fp32GradAccum ? 4 : 2;
  // Forward FLOPs of one average layer for one microbatch on this GPU.
  const perTokenForward = modelFlopsPerToken(arch, s.seqLength).total / 3;
  const headForward = 2 * matmulParameters(arch).head;
  const layerForwardFlops = (((perTokenForward - headForward) / arch.numLayers) * tokensPerGpu) / s.tp;
  const layerForwardSeconds = layerForwardFlops / rate;
  const stageForwardSeconds = layerForwardSeconds * stage.layerCount;
  const ratio = (comm: number, compute: number): OverlapRatio => ({
    commSeconds: comm,
    computeSeconds: compute,
    ratio: comm / compute,
  });

  const denseParams = stage.parameterCount - stage.expertParameterCount;
  const dpRanks = s.dp * s.cp;
  // One collective over the data-parallel group (dp × cp ranks) or the tensor-parallel group.
  const overDp = (collective: Collective, messageBytes: number): number =>
    collectiveSeconds({ collective, messageBytes, ranks: dpRanks, busBandwidthBytesPerSecond: bw.dpBusBytesPerSecond });
  const overTp = (collective: Collective, messageBytes: number): number =>
    collectiveSeconds({ collective, messageBytes, ranks: s.tp, busBandwidthBytesPerSecond: bw.tpBusBytesPerSecond });
  const dp =
    dpRanks > 1 && s.zeroStage < 3
      ? ratio(
          overDp(s.zeroStage === 0 ? "all-reduce" : "reduce-scatter", denseParams * gradBytes),
          2 * stageForwardSeconds,
        )
      : null;
  const zeroParamGather =
    dpRanks > 1 && (s.zeroStage === 1 || s.zeroStage === 2)
      ? ratio(overDp("all-gather", denseParams * valueBytes), stageForwardSeconds)
      : null;
  const zero3 =
    dpRanks > 1 && s.zeroStage === 3
      ? ratio(overDp("all-gather", (layerParameters(arch, 0).total / s.tp) * valueBytes), layerForwardSeconds)
      : null;
  let tp: OverlapRatio | null = null;
  if (s.tp > 1) {
    const message = tokensPerGpu * arch.hiddenSize * valueBytes;
    const comm = s.sequenceParallel
      ? 2 * (overTp("all-gather", message) + overTp("reduce-scatter", message))
      : 2 * overTp("all-reduce", message);
    tp = ratio(comm, layerForwardSeconds);
  }
  let pp: OverlapRatio | null = null;
  if (s.pp > 1) {
    const message = (tokensPerGpu * arch.hiddenSize * valueBytes) / (s.sequenceParallel ? s.tp : 1);
    const comm = collectiveSeconds({
      collective: "send-recv",
      messageBytes: message,
      ranks: 2,
      busBandwidthBytesPerSecond: bw.ppBytesPerSecond,
    });
    pp = ratio(comm, stageForwardSeconds / s.virtualStages);
  }
  return { dp, zeroParamGather, zero3, tp, pp };
}
