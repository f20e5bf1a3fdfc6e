/**
 * One data-parallel training step as a timeline: what a GPU's compute stream and its
 * communication stream do, and how much of the gradient all-reduce the backward pass hides.
 *
 * What it is for: the data-parallelism chapter, its timeline figures and the `dp-overlap` widget
 * draw these segments; the chapter's tests check every printed time against them. It guards
 * against the two usual mistakes of back-of-envelope DP estimates: adding the whole all-reduce to
 * the step (ignoring overlap) and assuming it is always hidden (ignoring the tail after the last
 * layer's gradients are ready).
 *
 * The model (li2020pytorch §3.2, the design of PyTorch DDP):
 * - The backward pass walks through `layers` equal layers, last layer first. A layer's gradients
 *   (gradientBytes / layers) become ready when that layer's backward finishes.
 * - Gradients are packed, in the order they become ready, into buckets of `bucketBytes` (the
 *   last bucket may be smaller). A bucket can be reduced once all its bytes are ready.
 * - With `overlap`, a bucket's all-reduce is launched as soon as it is ready (the autograd hooks
 *   of DDP); without it, every bucket waits for the end of the backward pass.
 * - One communication stream: all-reduces run one after another, never concurrently.
 * - A bucket's all-reduce takes α + 2(d − 1)/d · S / busbw (ring algorithm; nccl-tests'
 *   bus-bandwidth convention, nvidia2024nccltests), with α a fixed cost per collective.
 *   With d = 1 nothing is communicated.
 * - Gradient accumulation over m microbatches: with `noSync` only the last microbatch's backward
 *   reduces gradients (DDP's `no_sync()`); without it every microbatch does.
 * - At the end of a synchronizing backward the compute stream waits for all of that
 *   microbatch's all-reduces (DDP finalizes the reduction before the optimizer or the next
 *   forward may use the gradients). The optimizer step itself is not modelled.
 *
 * Compute and communication are assumed not to slow each other down (in reality NCCL kernels
 * take a few SMs and some memory bandwidth from the compute kernels), so the overlap shown is
 * an upper bound on what a real run achieves.
 */
import {
  ModelInputError,
  requireBoolean,
  requireNonNegativeNumber,
  requirePositiveInteger,
  requirePositiveNumber,
} from "./errors.ts";
import type { ModelArchitecture } from "./architecture.ts";

/** Input of {@link dataParallelTimeline}. Times in seconds, sizes in bytes. */
export interface DpTimelineInput {
  /** Gradient bytes each replica contributes to the all-reduce (bf16: 2 bytes × parameters). */
  gradientBytes: number;
  /** Number of equal layers the backward pass walks through (integer ≥ 1). */
  layers: number;
  /** Forward time of one microbatch, in seconds (≥ 0). */
  forwardSeconds: number;
  /** Backward time of one microbatch, in seconds (> 0). */
  backwardSeconds: number;
  /** m, microbatches accumulated per optimizer step (integer ≥ 1). */
  microbatches: number;
  /** d, the data-parallel degree (integer ≥ 1). */
  dp: number;
  /** Bucket capacity in bytes (> 0). PyTorch DDP's default is 25 MiB. */
  bucketBytes: number;
  /** Bus bandwidth of the all-reduce in bytes per second (nccl-tests "busbw"; > 0). */
  busBandwidthBytesPerSecond: number;
  /** Fixed cost of one collective call, in seconds (≥ 0). */
  collectiveLatencySeconds: number;
  /** Launch each bucket when it is ready (true) or after the whole backward pass (false). */
  overlap: boolean;
  /** Skip gradient synchronization on all but the last microbatch. */
  noSync: boolean;
}

/** One box on the timeline. */
export interface DpTimelineSegment {
  /** `compute` (forward, backward) or `comm` (all-reduce of one bucket). */
  lane: "compute" | "comm";
  kind: "forward" | "backward" | "allreduce";
  /** Microbatch index, 0 … m − 1. */
  microbatch: number;
  /** Bucket index within the microbatch, for `allreduce` segments; −1 otherwise. */
  bucket: number;
  /** Bytes all-reduced, for `allreduce` segments; 0 otherwise. */
  bytes: number;
  /** When the bucket's gradients were all ready (equals `startSeconds` for compute segments). */
  readySeconds: number;
  startSeconds: number;
  endSeconds: number;
}

/** Output of {@link dataParallelTimeline}. */
export interface DpTimeline {
  segments: DpTimelineSegment[];
  /** Time from the first forward to the moment the gradients are reduced (optimizer excluded). */
  stepSeconds: number;
  /** Sum of forward and backward times: m · (forward + backward). */
  computeSeconds: number;
  /** Sum of all all-reduce durations. */
  commSeconds: number;
  /** Communication not hidden behind compute: stepSeconds − computeSeconds. */
  exposedCommSeconds: number;
  /** Buckets per synchronization: ⌈gradientBytes / bucketBytes⌉. */
  bucketsPerSync: number;
  /** Number of synchronizing backward passes (1 with noSync, m without). */
  syncs: number;
  /** Bytes one GPU sends over the step: syncs · 2(d − 1)/d · gradientBytes. */
  bytesSentPerGpu: number;
}

function requireCount(field: string, value: number, max: number): void {
  requirePositiveInteger(value, field);
  if (value > max) throw new ModelInputError(field, `${field} must be at most ${max} (got ${value})`);
}

/** Largest accepted number of buckets per synchronization (keeps timelines drawable). */
export const MAX_DP_BUCKETS = 100_000;

/**
 * Bytes one GPU sends (and receives) in a ring all-reduce of `bytes` over `gpus` GPUs:
 * 2(n − 1)/n · S. Reduce-scatter and all-gather each move (n − 1)/n · S (nvidia2024nccltests;
 * rajbhandari2020zero §7.1).
 */
export function ringAllReduceBytesPerGpu(bytes: number, gpus: number): number {
  requireNonNegativeNumber(bytes, "bytes");
  requireCount("gpus", gpus, 1_000_000);
  return (2 * (gpus - 1) * bytes) / gpus;
}

/**
 * Time of one all-reduce of `bytes` over `gpus` GPUs at bus bandwidth `busBandwidthBytesPerSecond`:
 * α + 2(n − 1)/n · S / busbw. nccl-tests defines busbw = algbw · 2(n − 1)/n with algbw = S / t,
 * which is the same relation solved for t (nvidia2024nccltests). Zero when `gpus` is 1.
 */
export function allReduceSeconds(
  bytes: number,
  gpus: number,
  busBandwidthBytesPerSecond: number,
  latencySeconds = 0,
): number {
  requirePositiveNumber(busBandwidthBytesPerSecond, "busBandwidthBytesPerSecond");
  requireNonNegativeNumber(latencySeconds, "collectiveLatencySeconds");
  if (gpus === 1 || bytes === 0) {
    requireCount("gpus", gpus, 1_000_000);
    requireNonNegativeNumber(bytes, "bytes");
    return 0;
  }
  return latencySeconds + ringAllReduceBytesPerGpu(bytes, gpus) / busBandwidthBytesPerSecond;
}

/** Number of buckets DDP-style bucketing makes: ⌈gradientBytes / bucketBytes⌉. */
export function bucketCount(gradientBytes: number, bucketBytes: number): number {
  requirePositiveNumber(gradientBytes, "gradientBytes");
  requirePositiveNumber(bucketBytes, "bucketBytes");
  return Math.ceil(gradientBytes / bucketBytes - 1e-9);
}

/**
 * DDP's cap on its first bucket: `dist._DEFAULT_FIRST_BUCKET_BYTES`, 1 MiB, passed with the user's cap as
 * `[dist._DEFAULT_FIRST_BUCKET_BYTES, self.bucket_bytes_cap]` (pytorch/pytorch@v1.13.1,
 * torch/nn/parallel/distributed.py L723 and L744-750, `_ddp_init_helper`; torch/csrc/distributed/c10d/reducer.hpp
 * L28: kDefaultFirstBucketBytes = 1024 * 1024).
 */
export const DDP_FIRST_BUCKET_BYTES = 2 ** 20;

/**
 * The number of buckets PyTorch DDP makes from whole gradient tensors, as its bucketer assigns them
 * (pytorch/pytorch@v1.13.1, torch/csrc/distributed/c10d/reducer.cpp, `compute_bucket_assignment_by_size`,
 * L1959-2036: L2018 adds numel × element size, L2028 closes the bucket at its cap; `Reducer::rebuild_buckets`
 * passes both caps at L1690-1692):
 * tensors are taken in the order their gradients become ready, each bucket adds whole tensors
 * (numel × element size, in the gradients' own data type) and closes as soon as its size reaches its cap;
 * the first bucket's cap is `firstCapBytes` (1 MiB), every later one's `capBytes`. A tensor is never split,
 * so a tensor larger than the cap is a bucket of its own. `tensorBytes` lists the tensors in ready order
 * (for a transformer, the reverse of the order the modules register them: DDP rebuilds its buckets in that
 * order after the first step).
 */
export function ddpBucketCount(
  tensorBytes: readonly number[],
  capBytes: number,
  firstCapBytes: number = DDP_FIRST_BUCKET_BYTES,
): number {
  requirePositiveNumber(capBytes, "bucketBytes");
  requirePositiveNumber(firstCapBytes, "firstBucketBytes");
  if (tensorBytes.length === 0) throw new ModelInputError("tensorBytes", "tensorBytes must list at least one tensor");
  let buckets = 0;
  let filled = 0;
  for (const bytes of tensorBytes) {
    requirePositiveNumber(bytes, "tensorBytes");
    filled += bytes;
    if (filled >= (buckets === 0 ? firstCapBytes : capBytes)) {
      buckets += 1;
      filled = 0;
    }
  }
  return filled > 0 ? buckets + 1 : buckets;
}

/**
 * Element counts of a dense model's parameter tensors in the order the Hugging Face modules register
 * them: the embedding (and learned position table), then per layer Q, K, V, O (each weight, then its
 * bias where the architecture has one), the MLP's matrices (gate, up, down; or in, out), the two norms,
 * then the final norm and an untied LM head. They sum to countParameters' total. Mixture-of-experts and
 * latent-attention models are refused (their tensor lists are not modelled here).
 */
export function denseParameterTensors(arch: ModelArchitecture): number[] {
  if (arch.moe || arch.mla) {
    throw new ModelInputError("architecture", "denseParameterTensors models dense, standard-attention models only");
  }
  const h = arch.hiddenSize;
  const q = arch.numHeads * arch.headDim;
  const kv = arch.numKvHeads * arch.headDim;
  const f = arch.intermediateSize;
  const normTensors = arch.norm === "layernorm" ? [h, h] : [h];
  const tensors: number[] = [arch.vocabSize * h];
  if (arch.learnedPositions) tensors.push(arch.maxPositions * h);
  for (let layer = 0; layer < arch.numLayers; layer++) {
    tensors.push(h * q, ...(arch.qkvBias ? [q] : []));
    tensors.push(h * kv, ...(arch.qkvBias ? [kv] : []));
    tensors.push(h * kv, ...(arch.qkvBias ? [kv] : []));
    tensors.push(q * h, ...(arch.outputBias ? [h] : []));
    if (arch.mlp === "swiglu") tensors.push(h * f, h * f, ...(arch.mlpBias ? [f, f] : []), f * h);
    else tensors.push(h * f, ...(arch.mlpBias ? [f] : []), f * h);
    if (arch.mlpBias) tensors.push(h);
    tensors.push(...normTensors, ...normTensors);
  }
  tensors.push(...normTensors);
  if (!arch.tiedEmbeddings) tensors.push(arch.vocabSize * h);
  return tensors;
}

/**
 * DDP's bucket count for a dense model: its tensors in ready order (the reverse of registration),
 * at `bytesPerElement` bytes (the gradients' data type: 4 for fp32 gradients under autocast, also when
 * a bf16 compression hook casts each bucket afterwards), with DDP's 1 MiB first bucket.
 */
export function ddpModelBucketCount(arch: ModelArchitecture, capBytes: number, bytesPerElement: number): number {
  requirePositiveNumber(bytesPerElement, "bytesPerElement");
  return ddpBucketCount(
    denseParameterTensors(arch)
      .reverse()
      .map((n) => n * bytesPerElement),
    capBytes,
  );
}

/** Checks a {@link DpTimelineInput}; throws {@link ModelInputError} naming the first bad field. */
export function validateDpTimelineInput(input: DpTimelineInput): DpTimelineInput {
  requirePositiveNumber(input.gradientBytes, "gradientBytes");
  requireCount("layers", input.layers, 100_000);
  requireNonNegativeNumber(input.forwardSeconds, "forwardSeconds");
  requirePositiveNumber(input.backwardSeconds, "backwardSeconds");
  requireCount("microbatches", input.microbatches, 10_000);
  requireCount("dp", input.dp, 1_000_000);
  requirePositiveNumber(input.bucketBytes, "bucketBytes");
  requirePositiveNumber(input.busBandwidthBytesPerSecond, "busBandwidthBytesPerSecond");
  requireNonNegativeNumber(input.collectiveLatencySeconds, "collectiveLatencySeconds");
  requireBoolean(input.overlap, "overlap");
  requireBoolean(input.noSync, "noSync");
  if (bucketCount(input.gradientBytes, input.bucketBytes) > MAX_DP_BUCKETS) {
    throw new ModelInputError(
      "bucketBytes",
      `bucketBytes gives more than ${MAX_DP_BUCKETS} buckets for ${input.gradientBytes} gradient bytes`,
    );
  }
  return input;
}

/**
 * Lays out one data-parallel step (m microbatches, then the gradient reduction) on a compute
 * stream and a communication stream. See the module comment for the assumptions.
 */
export function dataParallelTimeline(input: DpTimelineInput): DpTimeline {
  validateDpTimelineInput(input);
  const {
    gradientBytes,
    layers,
    forwardSeconds,
    backwardSeconds,
    microbatches,
    dp,
    bucketBytes,
    busBandwidthBytesPerSecond,
    collectiveLatencySeconds,
    overlap,
    noSync,
  } = input;
  const buckets = bucketCount(gradientBytes, bucketBytes);
  const layerBytes = gradientBytes / layers;
  const layerSeconds = backwardSeconds / layers;
  const segments: DpTimelineSegment[] = [];
  let clock = 0;
  let commFree = 0;
  let commSeconds = 0;
  let syncs = 0;
  for (let mb = 0; mb < microbatches; mb++) {
    if (forwardSeconds > 0) {
      segments.push({
        lane: "compute",
        kind: "forward",
        microbatch: mb,
        bucket: -1,
        bytes: 0,
        readySeconds: clock,
        startSeconds: clock,
        endSeconds: clock + forwardSeconds,
      });
    }
    clock += forwardSeconds;
    const backwardStart = clock;
    const backwardEnd = backwardStart + backwardSeconds;
    segments.push({
      lane: "compute",
      kind: "backward",
      microbatch: mb,
      bucket: -1,
      bytes: 0,
      readySeconds: backwardStart,
      startSeconds: backwardStart,
      endSeconds: backwardEnd,
    });
    clock = backwardEnd;
    const sync = !noSync || mb === microbatches - 1;
    if (!sync || dp === 1) continue;
    syncs += 1;
    for (let k = 0; k < buckets; k++) {
      const endByte = Math.min((k + 1) * bucketBytes, gradientBytes);
      const bytes = endByte - k * bucketBytes;
      // The bucket is complete when the layer holding its last byte has finished its backward.
      const layersDone = Math.min(layers, Math.max(1, Math.ceil(endByte / layerBytes - 1e-9)));
      const ready = overlap ? backwardStart + layersDone * layerSeconds : backwardEnd;
      const start = Math.max(ready, commFree);
      const duration = allReduceSeconds(bytes, dp, busBandwidthBytesPerSecond, collectiveLatencySeconds);
      segments.push({
        lane: "comm",
        kind: "allreduce",
        microbatch: mb,
        bucket: k,
        bytes,
        readySeconds: ready,
        startSeconds: start,
        endSeconds: start + duration,
      });
      commFree = start + duration;
      commSeconds += duration;
    }
    clock = Math.max(clock, commFree);
  }
  const computeSeconds = microbatches * (forwardSeconds + backwardSeconds);
  const stepSeconds = clock;
  return {
    segments,
    stepSeconds,
    computeSeconds,
    commSeconds,
    exposedCommSeconds: Math.max(0, stepSeconds - computeSeconds),
    bucketsPerSync: buckets,
    syncs,
    bytesSentPerGpu: syncs * ringAllReduceBytesPerGpu(gradientBytes, dp),
  };
}

/** Input of {@link dataParallelScaling}: a fixed global batch spread over more and more replicas. */
export interface DpScalingInput {
  /** Global batch in sequences, B (integer ≥ 1). */
  globalBatchSequences: number;
  /** Micro-batch size b in sequences (integer ≥ 1). */
  microBatchSequences: number;
  /** Tokens per sequence, s (integer ≥ 1). */
  sequenceTokens: number;
  /** Forward + backward FLOPs per token (e.g. 6N plus attention). */
  trainingFlopsPerToken: number;
  /** Sustained FLOP/s of one GPU on this model: peak × the assumed model FLOPs utilization. */
  effectiveFlopsPerSecond: number;
  /** Data-parallel degrees to evaluate; each must divide B / b. */
  dpDegrees: number[];
  /** The communication settings of {@link DpTimelineInput}. */
  gradientBytes: number;
  layers: number;
  bucketBytes: number;
  busBandwidthBytesPerSecond: number;
  collectiveLatencySeconds: number;
}

/** One point of {@link dataParallelScaling}. */
export interface DpScalingPoint {
  dp: number;
  /** m = B / (b · d). */
  microbatches: number;
  stepSeconds: number;
  exposedCommSeconds: number;
  /** Global tokens per second: B · s / stepSeconds. */
  tokensPerSecond: number;
  /** d times the tokens per second of one GPU that never communicates. */
  idealTokensPerSecond: number;
  /** tokensPerSecond / idealTokensPerSecond. */
  efficiency: number;
}

/**
 * Throughput of plain data parallelism (overlap on, `no_sync` on) as the number of replicas
 * grows at a fixed global batch: the forward takes one third and the backward two thirds of the
 * microbatch's FLOPs (the 2N : 4N split behind 6N, kaplan2020scaling §2.1).
 */
export function dataParallelScaling(input: DpScalingInput): DpScalingPoint[] {
  requireCount("globalBatchSequences", input.globalBatchSequences, 100_000_000);
  requireCount("microBatchSequences", input.microBatchSequences, 1_000_000);
  requireCount("sequenceTokens", input.sequenceTokens, 100_000_000);
  requirePositiveNumber(input.trainingFlopsPerToken, "trainingFlopsPerToken");
  requirePositiveNumber(input.effectiveFlopsPerSecond, "effectiveFlopsPerSecond");
  if (!Array.isArray(input.dpDegrees) || input.dpDegrees.length === 0) {
    throw new ModelInputError("dpDegrees", "dpDegrees must be a non-empty list of integers");
  }
  const microbatchSeconds =
    (input.trainingFlopsPerToken * input.microBatchSequences * input.sequenceTokens) / input.effectiveFlopsPerSecond;
  const tokensPerGpuSecond = (input.microBatchSequences * input.sequenceTokens) / microbatchSeconds;
  return input.dpDegrees.map((dp) => {
    requireCount("dpDegrees", dp, 1_000_000);
    const perReplica = input.globalBatchSequences / (input.microBatchSequences * dp);
    if (!Number.isInteger(perReplica) || perReplica < 1) {
      throw new ModelInputError(
        "dpDegrees",
        `global batch ${input.globalBatchSequences} is not a multiple of b·d = ${input.microBatchSequences * dp}`,
      );
    }
    const timeline = dataParallelTimeline({
      gradientBytes: input.gradientBytes,
      layers: input.layers,
      forwardSeconds: microbatchSeconds / 3,
      backwardSeconds: (2 * microbatchSeconds) / 3,
      microbatches: perReplica,
      dp,
      bucketBytes: input.bucketBytes,
      busBandwidthBytesPerSecond: input.busBandwidthBytesPerSecond,
      collectiveLatencySeconds: input.collectiveLatencySeconds,
      overlap: true,
      noSync: true,
    });
    const tokensPerSecond = (input.globalBatchSequences * input.sequenceTokens) / timeline.stepSeconds;
    const idealTokensPerSecond = dp * tokensPerGpuSecond;
    return {
      dp,
      microbatches: perReplica,
      stepSeconds: timeline.stepSeconds,
      exposedCommSeconds: timeline.exposedCommSeconds,
      tokensPerSecond,
      idealTokensPerSecond,
      efficiency: tokensPerSecond / idealTokensPerSecond,
    };
  });
}

/** The per-layer latency term of {@link zero3HidingTokens}: each call pays a latency per ring step. */
export interface Zero3LatencyTerm {
  /** Latency of one ring step, seconds (placement.ts: the group's `hopLatencySeconds`). */
  stepSeconds: number;
  /** Parameters of the layer whose all-gather each call moves (one FSDP unit). */
  layerParameters: number;
}

/**
 * Tokens each GPU must process per microbatch for ZeRO-3's parameter all-gathers to hide behind
 * the layer's compute: T ≥ (d − 1)/d · F / busbw + (d − 1) · α · F / (2P), with F the sustained
 * FLOP/s, α the latency of one ring step and P the layer's parameters. Without `latency` the
 * second term is left out.
 *
 * Derivation (per layer of P parameters, bf16): the all-gather of S = 2P bytes over a ring of d
 * ranks takes d − 1 steps, (d − 1)·α + (d − 1)/d · S / busbw (nvidia2024nccltests; placement.ts).
 * The forward computes 2P FLOPs per token, so 2P·T / F ≥ that time gives the bound; P cancels from
 * the bandwidth term but not from the latency term (a small layer needs more tokens to hide a
 * call's fixed cost). The backward computes 4P·T and runs the all-gather of the parameters and the
 * reduce-scatter of bf16 gradients, twice the bytes and twice the steps, which gives the same bound
 * (rajbhandari2020zero §7.2).
 */
export function zero3HidingTokens(
  effectiveFlopsPerSecond: number,
  busBandwidthBytesPerSecond: number,
  dp: number,
  latency?: Zero3LatencyTerm,
): number {
  requirePositiveNumber(effectiveFlopsPerSecond, "effectiveFlopsPerSecond");
  requirePositiveNumber(busBandwidthBytesPerSecond, "busBandwidthBytesPerSecond");
  requireCount("dp", dp, 1_000_000);
  const bandwidth = ((dp - 1) / dp) * (effectiveFlopsPerSecond / busBandwidthBytesPerSecond);
  if (latency === undefined) return bandwidth;
  requireNonNegativeNumber(latency.stepSeconds, "stepSeconds");
  requirePositiveNumber(latency.layerParameters, "layerParameters");
  return bandwidth + ((dp - 1) * latency.stepSeconds * effectiveFlopsPerSecond) / (2 * latency.layerParameters);
}

/**
 * The largest data-parallel degree d at which ZeRO-3's gathers still hide when a fixed batch of
 * `batchTokens` is spread over d GPUs, one microbatch each: batchTokens / d ≥
 * {@link zero3HidingTokens} at d. `linkAt(d)` gives the group's bus bandwidth and per-step
 * latency at d ranks (placement.ts's groupLink). The tokens per GPU fall and the threshold grows
 * with d, so the degrees that hide form a range from 1; the search walks up from 1 and stops at the
 * first degree that does not hide (at most `batchTokens`, one token per GPU).
 */
export function zero3LargestDegree(
  batchTokens: number,
  effectiveFlopsPerSecond: number,
  linkAt: (dp: number) => { busBytesPerSecond: number; hopLatencySeconds: number },
  layerParameters: number | null,
): number {
  requirePositiveNumber(batchTokens, "batchTokens");
  let d = 1;
  while (d < batchTokens) {
    const next = d + 1;
    const link = linkAt(next);
    const need = zero3HidingTokens(
      effectiveFlopsPerSecond,
      link.busBytesPerSecond,
      next,
      layerParameters === null ? undefined : { stepSeconds: link.hopLatencySeconds, layerParameters },
    );
    if (batchTokens / next < need) break;
    d = next;
  }
  return d;
}

/**
 * Tokens each GPU must process per microbatch for ZeRO-Offload's gradient transfer to hide
 * behind compute, when `gradientBytesPerParameter` bytes of gradient per parameter go to the CPU.
 * Only the backward pass that produces the final gradients can hide their transfer: it computes
 * 4Ψ FLOPs per token (kaplan2020scaling), so 4Ψ·T / F ≥ gΨ / B_pcie gives T ≥ g · F / (4 · B_pcie).
 * With gradient accumulation that is the last microbatch's backward pass, so the bound holds per
 * microbatch, not per optimizer step. ZeRO-Offload's design sends 16-bit gradients, g = 2, so
 * T ≥ F / (2 · B_pcie) (ren2021zerooffload); DeepSpeed's ZeRO-1/2 offload casts them to fp32 before
 * the copy, g = 4 (deepspeed2025code, stage_1_and_2.py). The updated parameters coming back cannot
 * hide this way: they follow the CPU's Adam step, and the next forward pass needs them, unless
 * ZeRO-Offload's one-step delayed parameter update lets that forward pass run on the previous
 * step's parameters.
 */
export function offloadHidingTokens(
  effectiveFlopsPerSecond: number,
  pcieBytesPerSecond: number,
  gradientBytesPerParameter = 2,
): number {
  requirePositiveNumber(effectiveFlopsPerSecond, "effectiveFlopsPerSecond");
  requirePositiveNumber(pcieBytesPerSecond, "pcieBytesPerSecond");
  requirePositiveNumber(gradientBytesPerParameter, "gradientBytesPerParameter");
  return (gradientBytesPerParameter * effectiveFlopsPerSecond) / (4 * pcieBytesPerSecond);
}
