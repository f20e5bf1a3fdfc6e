/**
 * The step model: the time of one optimizer step for a model, a GPU type and count, and a full
 * parallel layout, broken down into compute, recomputation, exposed communication per kind of
 * parallelism, the pipeline bubble and the optimizer update; and from it tokens per second per GPU
 * and MFU. The book's configuration search (config-search.ts), chapter 8 and the appendices on
 * overlap and on published runs all use it; the appendix on published runs holds it against
 * measured throughput.
 *
 * ## What it computes, stated once
 *
 * **Stage time.** One microbatch's forward and backward pass on pipeline stage $i$ takes
 * $t_i = (F_i + R_i)/(\pi\,\eta) + C_i$: $F_i$ the FLOPs of its layers (and the LM head on the last
 * stage) per GPU, $R_i$ what recomputation repeats, $\pi$ the dense bf16 peak, $\eta$ the kernel
 * efficiency of the GPU generation ({@link KERNEL_EFFICIENCY}), and $C_i$ the communication that
 * sits between dependent kernels inside the stage (tensor/sequence-parallel, context-parallel and
 * expert all-to-all traffic, and the pipeline sends). FLOPs follow compute.ts: $2N$ per token
 * forward and $4N$ backward for the matmul parameters, and attention's $QK^\top$ and $AV$; the
 * causal mask lets FlashAttention skip half of those (an option), while MFU still counts them
 * whole, as the book's definition does. The embedding lookup costs no FLOPs here.
 *
 * **Precision.** In fp8 (`precision: "fp8"`, Hopper and Blackwell only) the linear layers' matmuls
 * (QKV, output projection, MLP: every matmul parameter of the layers, forward and both backward
 * GEMMs) run against the dense fp8 peak $\pi_8$ at their own efficiency $\eta_8$
 * ({@link FP8_KERNEL_EFFICIENCY}), as Transformer Engine and torchao's Float8Linear run them;
 * attention's $QK^\top$ and $AV$ and the LM head stay at $\pi\eta$ (torchtitan's Float8 leaves the
 * output layer out, MPT's head is its tied embedding), so a layer's forward pass takes
 * $F_\text{lin}/(\pi_8\eta_8) + F_\text{attn}/(\pi\eta)$. Communication stays bf16 (fp8
 * all-gathers of weights are not modeled) and memory is priced as bf16 ({@link FP8_MEMORY_NOTE}).
 * MFU stays against the dense bf16 peak; `mfuFp8Peak` gives it against the fp8 peak as well.
 *
 * **Pipeline.** The slowest stage sets the pace (stage imbalance: embedding and LM head on the end
 * stages, uneven layer splits). With $m$ microbatches, $p$ stages and $v$ chunks per stage,
 * $T_\text{pipe} = (m + (p-1)/v)\,\max_i t_i$: 1F1B's fill and drain, divided by $v$ when
 * interleaved (narayanan2021efficient §2.2).
 *
 * **Data parallelism and sharding,** each with its own window (the compute it can hide behind):
 * - ZeRO-0: one gradient all-reduce, behind the last microbatch's backward pass.
 * - ZeRO-1: a gradient reduce-scatter behind the last backward; the updated-parameter all-gather
 *   behind the **next step's first forward pass** (it has nowhere else to go).
 * - ZeRO-2 and FSDP without resharding after forward (Llama 3's choice): a reduce-scatter after
 *   every microbatch's backward, behind that backward, and the parameter all-gather as ZeRO-1.
 * - ZeRO-3 (FSDP full shard): one unit per layer, as FSDP and DeepSpeed wrap them. Per microbatch
 *   each layer's weights are all-gathered before its forward (behind one layer's forward, by
 *   prefetching) and again before its backward, and its gradients reduce-scattered after it (both
 *   behind one layer's backward); every one of these calls pays its ring latency, which grows with
 *   the group. The root unit (embedding, final norm, head) is gathered and reduced once per
 *   microbatch with nothing to hide behind.
 * - Hybrid sharding (HSDP): the sharding group is the data-parallel ranks inside one node; an
 *   all-reduce of the gradient shard across nodes follows, behind the last backward.
 * Gradients travel in fp32 (Megatron-LM's default) or bf16 (an option); parameters in bf16.
 * Only what exceeds its window counts; with `overlapGradReduce: false` the ZeRO-0 to ZeRO-2
 * reductions and gathers have no window.
 *
 * **Framework profiles** (src/data/frameworks.ts). With `framework` the profile sets the defaults:
 * the gradient-reduction dtype, whether the reduction overlaps the backward pass and runs every
 * microbatch, its collective (DeepSpeed's ZeRO-1/2 all-reduce where others reduce-scatter), TP
 * communication overlap; it refuses what the framework does not run (a ZeRO stage it lacks, TP or PP
 * under plain DDP, DeepSpeed's pipeline with ZeRO-2/3), and gives the memory model its state layout.
 *
 * **TP communication overlap** (`tpCommOverlap`, Megatron-LM's `--tp-comm-overlap` with Transformer
 * Engine, which needs sequence parallelism): the attention block's all-gather and reduce-scatter
 * hide behind its GEMMs (Q, K, V and output projections) and the MLP's behind the MLP's, in the
 * forward pass, in the backward pass's data-gradient GEMMs of the same size, and in a recomputed
 * forward; only what exceeds the paired GEMM time is exposed. This is an upper bound on the overlap:
 * the communication kernels' use of SMs and memory bandwidth is not charged.
 *
 * **Bandwidth.** Every group is priced by placement.ts from where its ranks sit (NCCL's
 * convention: time $= \alpha + f S/\text{busBw}$ with $f = 2(n-1)/n$ for all-reduce and
 * $(n-1)/n$ for the others). Ranks are placed TP innermost, then CP, then DP and PP in the order
 * given (Megatron-LM: DP inside PP; Llama 3: PP inside DP). A group whose ranks fit in one NVLink
 * domain uses NVLink (all-reduce with NVLink SHARP where the system has it); a group that spans
 * domains with $k$ members per domain crosses on their NICs: $\min(\text{NVLink ring}, k\,B_\text{NIC})$
 * with one NIC per GPU.
 *
 * **Optimizer.** Adam's update reads and writes about 32 bytes per parameter it owns (fp32 master
 * weight, two moments and gradient, then the bf16 copy), at the GPU's HBM bandwidth.
 *
 * Not modeled: kernel efficiency that varies with matrix shape or micro-batch size (one constant
 * per generation), compute slowed by communication kernels running beside it, stragglers, data
 * loading, checkpointing, failures and restarts.
 */
import { parseModelConfig, type ModelArchitecture } from "./architecture.ts";
import type { Recompute } from "./activations.ts";
import {
  at,
  ModelInputError,
  requireBoolean,
  requireFraction,
  requireOneOf,
  requirePositiveInteger,
} from "./errors.ts";
import { matmulParameters, modelFlopsPerToken } from "./compute.ts";
import { isArchitecture, layerParameters } from "./parameters.ts";
import { isMoeLayer } from "./architecture.ts";
import {
  defaultReshardAfterForward,
  layoutMode,
  trainingMemory,
  type MemoryBreakdown,
  type TrainingSetup,
  type ZeroStage,
} from "./memory.ts";
import type { Collective } from "./communication.ts";
import { clusterShape, groupSeconds } from "./placement.ts";
import { findGpu, type GpuSpec } from "../data/gpus.ts";
import { findInterconnect, type InterconnectSpec } from "../data/interconnects.ts";
import { findFrameworkProfile, type FrameworkId } from "../data/frameworks.ts";
import type { ClusterOverrides } from "./placement.ts";

/** GPU generations that share one kernel-efficiency constant. */
export type GpuGeneration = "ampere" | "hopper" | "blackwell";

/**
 * Kernel efficiency $\eta$: the fraction of the dense bf16 peak that a transformer layer's
 * matmuls and attention kernels reach, one named constant per GPU generation. These are the
 * only numbers fitted to the published runs (src/data/published-runs.ts, 287 runs from 11
 * sources): each is the value on a grid of whole percents that minimizes the median absolute MFU
 * error over that generation's runs (validation.ts's fitKernelEfficiency; 0.57 over the A100 runs,
 * 0.52 over the H100 runs). tests/model/step-validation.test.ts recomputes the fit and fails when
 * these constants differ from it. Blackwell has no runs in the data set; its value is Hopper's, an
 * assumption, not a fit.
 */
export const KERNEL_EFFICIENCY: Readonly<Record<GpuGeneration, number>> = {
  ampere: 0.57,
  hopper: 0.52,
  blackwell: 0.52,
};

/**
 * Kernel efficiency of the linear layers' matmuls in fp8, $\eta_8$: the fraction of the dense fp8
 * peak (`fp8FlopsPerSecond` in gpus.ts) that the QKV, output-projection and MLP matmuls reach when
 * they run in fp8. Fitted the way {@link KERNEL_EFFICIENCY} is, on the fp8 runs of
 * src/data/published-runs.ts (PUBLISHED_FP8_RUNS: the value on a grid of whole percents that
 * minimizes the median absolute MFU error over the Hopper fp8 runs, with the bf16 parts of each step
 * at the Hopper constant; validation.ts's fitFp8KernelEfficiency). tests/model/step-validation.test.ts
 * recomputes the fit. Ampere has no fp8 tensor cores (null: the step model refuses fp8 there);
 * Blackwell's value is Hopper's, an assumption, not a fit.
 */
export const FP8_KERNEL_EFFICIENCY: Readonly<Record<GpuGeneration, number | null>> = {
  ampere: null,
  hopper: 0.38,
  blackwell: 0.38,
};

/** Precision of the linear layers' matmuls (attention's score and value matmuls and the LM head stay bf16). */
export type ComputePrecision = "bf16" | "fp8";

/** The precisions the step model takes, in the order the planner offers them. */
export const PRECISIONS: readonly ComputePrecision[] = ["bf16", "fp8"];

/**
 * Why the memory model prices an fp8 run as bf16, for the step's and the planner's notes. fp8
 * training moves memory both ways, by amounts the sources leave to the recipe: torchao's
 * Float8Linear at eab345c (the version of torchtitan's H100 benchmark) saves its input and its
 * weight for the backward pass in fp8 (torchao/float8/float8_linear.py L51, L369-L384), so a linear
 * layer's saved input takes 1 byte per value instead of 2 while a transposed fp8 copy of each
 * gathered weight lives until the backward pass unless `force_recompute_fp8_weight_in_bwd` is set
 * (torchao/float8/config.py L235, default False; torchtitan 9dec370's float8.py L58-L63 does not set
 * it); Transformer Engine under NeMo's `fp8_params` keeps the weights themselves in fp8. The one source
 * that measured both precisions found the net change small: torchtitan's H100 benchmark at 820504e,
 * Tables 1 and 3 (L27-L29, L44-L46), 77.0 against 76.8 GiB and 62.0 against 61.8 GiB without and with
 * Float8; the other sources print no memory. So the memory model keeps its bf16 bytes.
 */
export const FP8_MEMORY_NOTE =
  "fp8: memory per GPU priced as bf16 (torchtitan's H100 benchmark reports a peak of 76.8 against 77.0 GiB with and without Float8, on one 8B FSDP run)";

/** The generation of a GPU id from gpus.ts. */
export function gpuGeneration(gpuId: string): GpuGeneration {
  if (gpuId.startsWith("a100")) return "ampere";
  if (gpuId.startsWith("h100") || gpuId.startsWith("h200")) return "hopper";
  if (gpuId.startsWith("b200")) return "blackwell";
  throw new ModelInputError("gpu", `no kernel-efficiency constant for GPU "${gpuId}"`);
}

/** Pipeline schedules the step model knows. */
export type StepSchedule = "1f1b" | "interleaved";

/** Precision of the gradient reduction. */
export type GradReduce = "fp32" | "bf16";

/** Placement of the data- and pipeline-parallel dimensions (TP and CP are always innermost). */
export type RankOrder = "tp-cp-dp-pp" | "tp-cp-pp-dp";

/** Inputs of {@link stepTime}. Degrees default to 1. */
export interface StepInput {
  /** HF config object or parsed architecture. */
  config: unknown;
  /** GPU id from gpus.ts, or the record itself. */
  gpu: string | GpuSpec;
  /** GPUs in the job; must equal tp × pp × cp × dp. */
  gpuCount: number;
  tp?: number;
  pp?: number;
  cp?: number;
  /** Expert-parallel degree (MoE only), carved out of dp × cp. */
  ep?: number;
  /** Data-parallel degree; default gpuCount / (tp × pp × cp). */
  dp?: number;
  /** 0 plain data parallelism, 1 optimizer states, 2 + gradients, 3 + parameters (default 1). */
  zeroStage?: ZeroStage;
  /** ZeRO-3 only: free gathered parameters after the forward pass (default true); false is FSDP without resharding. */
  reshardAfterForward?: boolean;
  /** Hybrid sharding: shard inside a node, replicate across nodes (default false). */
  hsdp?: boolean;
  /** Sequence parallelism (default: on when tp > 1). */
  sequenceParallel?: boolean;
  /** Activation recomputation (default "none"). */
  recompute?: Recompute;
  /** Sequence length $s$. */
  seqLength: number;
  /** Micro-batch size $b$ in sequences. */
  microBatchSize: number;
  /** Global batch in sequences per optimizer step. */
  globalBatch: number;
  /** Default "1f1b". */
  schedule?: StepSchedule;
  /** Chunks per stage $v$ for "interleaved" (default 2). */
  chunks?: number;
  /** Default "fp32" (Megatron-LM's default). */
  gradReduce?: GradReduce;
  /** Layers per pipeline stage, first to last; default an even split (which must then divide). */
  stageLayers?: number[];
  /** Default "tp-cp-dp-pp" (Megatron-LM). */
  rankOrder?: RankOrder;
  /** FlashAttention skips the masked half of causal attention (default true). */
  causalAttention?: boolean;
  /** Use NVLink SHARP for in-node all-reduce where the system has it (default true). */
  nvls?: boolean;
  /** Override {@link KERNEL_EFFICIENCY} for this GPU. */
  kernelEfficiency?: number;
  /**
   * "fp8" runs the linear layers' matmuls (QKV, output projection, MLP) against the GPU's dense fp8
   * peak at {@link FP8_KERNEL_EFFICIENCY}; attention's score and value matmuls, the LM head and all
   * communication stay bf16. A GPU without fp8 tensor cores refuses it. Default "bf16".
   */
  precision?: ComputePrecision;
  /** Override {@link FP8_KERNEL_EFFICIENCY} for this GPU (fp8 only). */
  fp8KernelEfficiency?: number;
  /** Override the system's bandwidths. */
  interconnect?: InterconnectSpec;
  /** Override the cluster's shape (GPUs per server, NVLink domain, NICs per server, NIC bandwidth). */
  cluster?: ClusterOverrides;
  /**
   * A framework profile (src/data/frameworks.ts). It sets the defaults of `gradReduce`,
   * `tpCommOverlap` and `overlapGradReduce`, checks that the framework runs `zeroStage`, and gives
   * the memory model its state layout. Default: none (fp32 reduction, no TP overlap, DP overlapped,
   * the generic memory formulas).
   */
  framework?: FrameworkId;
  /**
   * Overlap tensor-parallel communication with the GEMMs next to it (Megatron-LM's
   * `--tp-comm-overlap` with Transformer Engine): each collective hides behind the GEMM it is paired
   * with, and only what exceeds that GEMM is exposed. Needs sequence parallelism. Default: the
   * profile's, else false.
   */
  tpCommOverlap?: boolean;
  /** Overlap data-parallel gradient reduction with the backward pass. Default: the profile's, else true. */
  overlapGradReduce?: boolean;
  /** Compute memory per GPU with trainingMemory (default true; the configuration search does its own). */
  includeMemory?: boolean;
}

/** Seconds per step by part; they sum to `stepSeconds`. */
export interface StepBreakdown {
  /** Model FLOPs of the slowest stage over m microbatches. */
  compute: number;
  /** What recomputation repeats, on the slowest stage. */
  recompute: number;
  /** Pipeline fill and drain. */
  bubble: number;
  /** Tensor/sequence-parallel collectives (exposed). */
  tp: number;
  /** Context-parallel K/V gathers and gradient reductions (exposed). */
  cp: number;
  /** Pipeline sends between stages (exposed). */
  pp: number;
  /** Expert all-to-alls (exposed). */
  ep: number;
  /** Data-parallel and sharding traffic beyond its overlap windows. */
  dp: number;
  /** Adam update. */
  optimizer: number;
}

/** One pipeline stage's time for one microbatch (forward + backward), seconds. */
export interface StageTime {
  stage: number;
  layers: number;
  compute: number;
  recompute: number;
  tp: number;
  cp: number;
  ep: number;
  pp: number;
  total: number;
}

/** One data-parallel collective and how much of it stays exposed. */
export interface DpTransfer {
  name: string;
  collective: Collective;
  ranks: number;
  messageBytes: number;
  callsPerStep: number;
  /** Seconds for one call. */
  secondsPerCall: number;
  /** Seconds of compute that one call can hide behind. */
  windowSeconds: number;
  /** Exposed seconds per step. */
  exposedSeconds: number;
}

/**
 * Seconds of one call of the tensor- and pipeline-parallel transfers and of the compute windows
 * the transfers can hide behind, for one microbatch on the slowest stage. The data-parallel
 * transfers carry their own windows in {@link DpTransfer}.
 */
export interface StepWindows {
  /** One average layer's forward pass on this GPU (matmuls and attention). */
  layerForward: number;
  /** One average layer's forward matmuls: what the layer's tensor-parallel collectives pair with. */
  layerGemm: number;
  /** The stage's forward pass (one chunk's share under interleaving is stageForward / chunks). */
  stageForward: number;
  /** The stage's backward pass with its recomputation: the window of the last microbatch's gradient reduction. */
  stageBackward: number;
  /** One tensor-parallel collective: an all-reduce, or an all-gather and a reduce-scatter with SP (0 when tp = 1). */
  tpCall: number;
  /** Tensor-parallel collectives per layer in the forward pass. */
  tpCallsPerLayerForward: number;
  /** One pipeline send of a microbatch's activations (0 when pp = 1). */
  ppSend: number;
  /** Chunks per stage (1 unless interleaved). */
  chunks: number;
}

/** Result of {@link stepTime}. */
export interface StepResult {
  stepSeconds: number;
  tokensPerStep: number;
  tokensPerSecondPerGpu: number;
  /**
   * Model FLOPs utilization, 0–1: model FLOPs of the step / (step time × GPUs × dense bf16 peak),
   * in fp8 as in bf16 (the book's definition), so the two precisions compare on one scale.
   */
  mfu: number;
  /**
   * In fp8: the same model FLOPs over the dense fp8 peak, the convention NeMo's and MosaicML's fp8
   * tables print (half of `mfu` on H100). Null in bf16.
   */
  mfuFp8Peak: number | null;
  breakdown: StepBreakdown;
  /** Microbatches per step per data-parallel rank. */
  microbatches: number;
  stages: StageTime[];
  /** Index of the slowest stage. */
  slowestStage: number;
  /** Slowest stage time / mean stage time (1 = balanced). */
  stageImbalance: number;
  dpTransfers: DpTransfer[];
  /** One call of each transfer next to the compute it could hide behind (the overlap calculator reads them). */
  windows: StepWindows;
  /** Kernel efficiency used. */
  kernelEfficiency: number;
  /** Kernel efficiency of the fp8 linear matmuls used, or null in bf16. */
  fp8KernelEfficiency: number | null;
  /** Bytes per GPU from trainingMemory, or null with the reason when the memory model cannot describe the layout. */
  memory: MemoryBreakdown | null;
  memoryNote: string | null;
  /** The memory model's setup for this run (what `memory` was computed from). */
  memorySetup: TrainingSetup;
  /** Resolved degrees. */
  layout: {
    tp: number;
    pp: number;
    cp: number;
    ep: number;
    dp: number;
    zeroStage: ZeroStage;
    reshardAfterForward: boolean;
    hsdp: boolean;
    sequenceParallel: boolean;
    recompute: Recompute;
    schedule: StepSchedule;
    chunks: number;
    gradReduce: GradReduce;
    rankOrder: RankOrder;
    stageLayers: number[];
    framework: FrameworkId | null;
    tpCommOverlap: boolean;
    overlapGradReduce: boolean;
    precision: ComputePrecision;
  };
}

/**
 * Layers per stage with `trim` layers removed from each end stage and
 * spread over the others (Llama 3's remedy for the embedding and LM head).
 */
export function balancedStageLayers(numLayers: number, pp: number, trim = 0): number[] {
  const L = requirePositiveInteger(numLayers, "numLayers");
  const p = requirePositiveInteger(pp, "pp");
  if (p === 1) return [L];
  const middle = p - 2;
  const endLayers = Math.round(L / p) - trim;
  if (endLayers < 1)
    throw new ModelInputError(
      "stageLayers",
      `cannot remove ${trim} layers from the end stages of a ${L}-layer, ${p}-stage split`,
    );
  const rest = L - 2 * endLayers;
  if (middle === 0) {
    if (rest !== 0)
      throw new ModelInputError(
        "stageLayers",
        `${L} layers do not split over ${p} stages with ${trim} removed from each end`,
      );
    return [endLayers, endLayers];
  }
  if (rest < middle) throw new ModelInputError("stageLayers", `${L} layers leave fewer than one per middle stage`);
  const out = [endLayers];
  for (let i = 0; i < middle; i++) out.push(Math.floor(rest / middle) + (i < rest % middle ? 1 : 0));
  out.push(endLayers);
  return out;
}

function resolveGpu(gpu: string | GpuSpec): GpuSpec {
  if (typeof gpu !== "string") return gpu;
  const found = findGpu(gpu);
  if (!found) throw new ModelInputError("gpu", `unknown GPU "${gpu}"`);
  return found;
}

const ADAM_BYTES_PER_PARAMETER = 32;

/**
 * Predicts one optimizer step (see the module comment). Throws `ModelInputError` naming the field
 * when the layout does not describe a valid run.
 */
export function stepTime(input: StepInput): StepResult {
  const arch: ModelArchitecture = isArchitecture(input.config)
    ? input.config
    : parseModelConfig(input.config).architecture;
  const gpu = resolveGpu(input.gpu);
  const net = input.interconnect ?? findInterconnect(gpu.id);
  if (!net) throw new ModelInputError("gpu", `no measured bandwidths for GPU "${gpu.id}"`);
  const eta =
    input.kernelEfficiency !== undefined
      ? requireFraction(input.kernelEfficiency, "kernelEfficiency")
      : KERNEL_EFFICIENCY[gpuGeneration(gpu.id)];
  const precision = requireOneOf(input.precision ?? "bf16", PRECISIONS, "precision");
  let eta8: number | null = null;
  let linearPeak = gpu.bf16FlopsPerSecond;
  if (precision === "fp8") {
    if (gpu.fp8FlopsPerSecond === null)
      throw new ModelInputError(
        "precision",
        `${gpu.name} has no fp8 tensor cores: choose bf16 or a Hopper or Blackwell GPU`,
      );
    linearPeak = gpu.fp8FlopsPerSecond;
    const fitted = FP8_KERNEL_EFFICIENCY[gpuGeneration(gpu.id)];
    if (input.fp8KernelEfficiency === undefined && fitted === null)
      throw new ModelInputError("precision", `no fp8 kernel-efficiency constant for GPU "${gpu.id}"`);
    eta8 =
      input.fp8KernelEfficiency !== undefined
        ? requireFraction(input.fp8KernelEfficiency, "fp8KernelEfficiency")
        : (fitted ?? 0);
  }
  const gpuCount = requirePositiveInteger(input.gpuCount, "gpuCount");
  const tp = requirePositiveInteger(input.tp ?? 1, "tp");
  const pp = requirePositiveInteger(input.pp ?? 1, "pp");
  const cp = requirePositiveInteger(input.cp ?? 1, "cp");
  const ep = requirePositiveInteger(input.ep ?? 1, "ep");
  const dpDefault = gpuCount / (tp * pp * cp);
  const dp = input.dp === undefined ? dpDefault : requirePositiveInteger(input.dp, "dp");
  if (!Number.isInteger(dp) || tp * pp * cp * dp !== gpuCount) {
    throw new ModelInputError(
      "gpuCount",
      `tp × pp × cp × dp = ${tp} × ${pp} × ${cp} × ${Number.isInteger(dp) ? dp : "?"} must equal the GPU count (${gpuCount})`,
    );
  }
  const zeroStage = requireOneOf(input.zeroStage ?? 1, [0, 1, 2, 3] as const, "zeroStage");
  // FSDP2 as torchtitan applies it keeps gathered weights after the forward pass when pipeline
  // parallelism is on (src/data/frameworks.ts, reshardAfterForward); otherwise frees them.
  const reshard = requireBoolean(
    input.reshardAfterForward ?? defaultReshardAfterForward(input.framework, pp),
    "reshardAfterForward",
  );
  const hsdp = requireBoolean(input.hsdp ?? false, "hsdp");
  const sp = requireBoolean(input.sequenceParallel ?? tp > 1, "sequenceParallel");
  const recompute = requireOneOf(input.recompute ?? "none", ["none", "selective", "full"] as const, "recompute");
  const s = requirePositiveInteger(input.seqLength, "seqLength");
  const b = requirePositiveInteger(input.microBatchSize, "microBatchSize");
  const batch = requirePositiveInteger(input.globalBatch, "globalBatch");
  const schedule = requireOneOf(input.schedule ?? "1f1b", ["1f1b", "interleaved"] as const, "schedule");
  const v = schedule === "interleaved" ? requirePositiveInteger(input.chunks ?? 2, "chunks") : 1;
  if (schedule === "interleaved" && v < 2)
    throw new ModelInputError("chunks", `the interleaved schedule needs at least 2 chunks per stage (got ${v})`);
  const profile = input.framework === undefined ? undefined : findFrameworkProfile(input.framework);
  if (input.framework !== undefined && !profile)
    throw new ModelInputError("framework", `unknown framework "${String(input.framework)}"`);
  if (profile && !profile.layouts[zeroStage]) {
    throw new ModelInputError(
      "zeroStage",
      `${profile.name} does not run ZeRO stage ${zeroStage} (it runs stage ${Object.keys(profile.layouts).join(", ")})`,
    );
  }
  if (profile?.id === "ddp" && tp * pp * cp * ep > 1)
    throw new ModelInputError(
      "framework",
      `PyTorch DDP replicates the whole model: it runs no tensor, pipeline, context or expert parallelism (got tp ${tp}, pp ${pp}, cp ${cp}, ep ${ep})`,
    );
  if (profile?.id === "deepspeed" && zeroStage >= 2 && pp > 1)
    throw new ModelInputError(
      "pp",
      `DeepSpeed's pipeline engine runs ZeRO stage 0 or 1 only (got ZeRO-${zeroStage} with pp ${pp})`,
    );
  const gradReduce = requireOneOf(
    input.gradReduce ?? profile?.gradientReduceDtype.value ?? "fp32",
    ["fp32", "bf16"] as const,
    "gradReduce",
  );
  const tpCommOverlap = requireBoolean(
    input.tpCommOverlap ?? (profile ? profile.tpCommOverlap.value && sp && tp > 1 : false),
    "tpCommOverlap",
  );
  if (tpCommOverlap && tp > 1 && !sp)
    throw new ModelInputError(
      "tpCommOverlap",
      "tensor-parallel communication overlap needs sequence parallelism (Transformer Engine overlaps its all-gathers and reduce-scatters)",
    );
  // The profile's record for this sharding mode (FSDP2 without resharding is its mode 2).
  const mode = profile ? layoutMode(profile.id, zeroStage, reshard) : zeroStage;
  const overlapGradReduce = requireBoolean(
    input.overlapGradReduce ??
      profile?.overlapGradReduceByMode?.[mode]?.value ??
      profile?.overlapGradReduce.value ??
      true,
    "overlapGradReduce",
  );
  const reduceEveryMicrobatch = profile?.gradReduceEveryMicrobatch?.[mode]?.value ?? zeroStage >= 2;
  // FSDP2 without resharding after forward reduces once per step and keeps its gathered weights only
  // under a pipeline (torch's pipeline stages turn gradient sync and resharding off until the last
  // microbatch). Without one, torchtitan leaves both on: every microbatch gathers each layer for its
  // forward pass (the weights are freed after the backward pass) and reduce-scatters its gradient.
  const perMicrobatchNoReshard = profile?.id === "fsdp2" && zeroStage === 3 && !reshard && pp === 1;
  const shardedReduce = profile?.gradReduceCollective?.[mode]?.value ?? "reduce-scatter";
  const rankOrder = requireOneOf(
    input.rankOrder ?? "tp-cp-dp-pp",
    ["tp-cp-dp-pp", "tp-cp-pp-dp"] as const,
    "rankOrder",
  );
  const causal = requireBoolean(input.causalAttention ?? true, "causalAttention");
  const useNvls = requireBoolean(input.nvls ?? true, "nvls");
  const L = arch.numLayers;

  if (arch.numHeads % tp !== 0)
    throw new ModelInputError("tp", `tp (${tp}) must divide the number of attention heads (${arch.numHeads})`);
  if (s % cp !== 0) throw new ModelInputError("cp", `cp (${cp}) must divide the sequence length (${s})`);
  if (sp && (s / cp) % tp !== 0)
    throw new ModelInputError(
      "tp",
      `with sequence parallelism, tp (${tp}) must divide the per-GPU sequence length (${s / cp})`,
    );
  if (ep > 1) {
    if (!arch.moe) throw new ModelInputError("ep", `ep (${ep}) > 1 needs a mixture-of-experts model`);
    if (arch.moe.routedExperts % ep !== 0)
      throw new ModelInputError("ep", `ep (${ep}) must divide the number of experts (${arch.moe.routedExperts})`);
    if ((dp * cp) % ep !== 0) throw new ModelInputError("ep", `ep (${ep}) must divide dp × cp (${dp * cp})`);
  }
  if (batch % (dp * b) !== 0) {
    throw new ModelInputError(
      "globalBatch",
      `the global batch (${batch}) must be a multiple of dp × micro-batch (${dp} × ${b} = ${dp * b})`,
    );
  }
  const m = batch / (dp * b);
  let stageLayers: number[];
  if (input.stageLayers !== undefined) {
    if (!Array.isArray(input.stageLayers) || input.stageLayers.length !== pp) {
      throw new ModelInputError("stageLayers", `stageLayers must list ${pp} stage sizes`);
    }
    stageLayers = input.stageLayers.map((n) => requirePositiveInteger(n, "stageLayers"));
    const sum = stageLayers.reduce((a, x) => a + x, 0);
    if (sum !== L)
      throw new ModelInputError("stageLayers", `stageLayers sum to ${sum}, not the number of layers (${L})`);
    if (schedule === "interleaved" && stageLayers.some((n) => n < v)) {
      throw new ModelInputError("stageLayers", `every stage needs at least ${v} layers for ${v} chunks`);
    }
  } else {
    if (L % (pp * v) !== 0) {
      throw new ModelInputError(
        "pp",
        `pp${v > 1 ? " × chunks" : ""} (${pp * v}) must divide the number of layers (${L}); give an uneven split with stageLayers (--stage-layers)`,
      );
    }
    stageLayers = Array.from({ length: pp }, () => L / pp);
  }

  const peak = gpu.bf16FlopsPerSecond;
  const rate = peak * eta;
  // The linear layers' matmuls: at the bf16 rate, or in fp8 against the fp8 peak at their own efficiency.
  const linearRate = eta8 === null ? rate : linearPeak * eta8;
  const h = arch.hiddenSize;
  const valueBytes = 2;
  const gradBytes = gradReduce === "fp32" ? 4 : 2;
  // Tokens one GPU processes per microbatch: the CP shard of b sequences.
  const tokens = (b * s) / cp;
  const qk = arch.mla ? arch.mla.qkNopeHeadDim + arch.mla.qkRopeHeadDim : arch.headDim;
  const vd = arch.mla ? arch.mla.vHeadDim : arch.headDim;
  const attnForwardPerToken = 2 * s * arch.numHeads * (qk + vd); // QKᵀ and AV, per layer
  const attnHardware = causal ? 0.5 : 1;
  const matmul = matmulParameters(arch);
  const layerMatmul = matmul.layers / L; // average active matmul parameters per layer
  const headMatmul = matmul.head;
  // The attention block's share of a layer's matmul parameters (Q, K, V and output projections),
  // on average over the layers: under TP overlap its two collectives hide behind its GEMMs, the
  // MLP's two behind the MLP's.
  let attentionParameters = 0;
  for (let k = 0; k < L; k++) attentionParameters += layerParameters(arch, k).attention;
  const attentionShare = Math.min(1, attentionParameters / matmul.layers);
  // One average layer's forward pass on this GPU: its linear matmuls at their rate, attention's
  // score and value matmuls at the bf16 rate.
  const layerForwardSeconds =
    (tokens * 2 * layerMatmul) / tp / linearRate + (tokens * attnHardware * attnForwardPerToken) / tp / rate;

  // Group bandwidth (see the module comment).
  const strides = rankOrder === "tp-cp-dp-pp" ? { dp: tp * cp, pp: tp * cp * dp } : { pp: tp * cp, dp: tp * cp * pp };
  const cluster = clusterShape(net, input.cluster ?? {});
  const nodeSize = cluster.nvlinkDomain;
  const collectiveSeconds = (collective: Collective, bytes: number, ranks: number, stride: number): number =>
    groupSeconds(cluster, collective, bytes, { ranks, stride }, { nvls: useNvls });

  // One tensor-parallel collective on a microbatch's activations, and one pipeline send of them.
  const activationBytes = tokens * h * valueBytes;
  const tpPerCall = sp
    ? collectiveSeconds("all-gather", activationBytes, tp, 1) +
      collectiveSeconds("reduce-scatter", activationBytes, tp, 1)
    : collectiveSeconds("all-reduce", activationBytes, tp, 1);
  const ppSendSeconds =
    pp > 1 ? collectiveSeconds("send-recv", sp ? activationBytes / tp : activationBytes, 2, strides.pp) : 0;

  // Per-stage, per-microbatch times.
  const stages: StageTime[] = [];
  let firstLayer = 0;
  for (const [i, n] of stageLayers.entries()) {
    const indices = Array.from({ length: n }, (_, k) => firstLayer + k);
    firstLayer += n;
    const isLast = i === pp - 1;
    // Forward and backward (3 passes' worth) of the stage's layers, and the LM head (bf16) on the last.
    let compute = 3 * n * layerForwardSeconds;
    if (isLast) compute += (3 * tokens * 2 * headMatmul) / tp / rate;
    let recomputeSeconds = 0;
    if (recompute === "selective") recomputeSeconds = (n * tokens * attnHardware * attnForwardPerToken) / tp / rate;
    if (recompute === "full") recomputeSeconds = n * layerForwardSeconds;
    // Tensor parallel: 2 collectives forward, 2 backward, 2 more under full recomputation, per layer.
    const tpCalls = (4 + (recompute === "full" ? 2 : 0)) * n;
    let tpSeconds = tpCalls * tpPerCall;
    if (tpCommOverlap && tp > 1) {
      // Each block's all-gather and reduce-scatter pair with that block's GEMMs (forward, the
      // backward's data-gradient GEMMs of the same size, and the recomputed forward): exposed is
      // only what exceeds the GEMM time.
      const blockGemm = (share: number) => (tokens * 2 * layerMatmul * share) / tp / linearRate;
      const exposedPerPass =
        Math.max(0, tpPerCall - blockGemm(attentionShare)) + Math.max(0, tpPerCall - blockGemm(1 - attentionShare));
      tpSeconds = (tpCalls / 2) * exposedPerPass;
    }
    // Context parallel: all-gather K and V forward (again under
    // full recomputation), reduce-scatter their gradients backward.
    let cpSeconds = 0;
    if (cp > 1) {
      const kvColumns = arch.mla ? arch.numHeads * (qk + vd) : 2 * arch.numKvHeads * arch.headDim;
      const kvBytes = (b * s * kvColumns * valueBytes) / Math.min(tp, arch.mla ? tp : arch.numKvHeads);
      const gathers = 1 + (recompute === "full" ? 1 : 0);
      cpSeconds =
        n *
        (gathers * collectiveSeconds("all-gather", kvBytes, cp, tp) +
          collectiveSeconds("reduce-scatter", kvBytes, cp, tp));
    }
    // Expert parallel: dispatch and combine, forward and backward (+2 under full recomputation).
    let epSeconds = 0;
    if (ep > 1 && arch.moe) {
      const moeLayers = indices.filter((k) => isMoeLayer(arch, k)).length;
      const dispatchBytes = (arch.moe.expertsPerToken * tokens * h * valueBytes) / (sp ? tp : 1);
      epSeconds =
        (4 + (recompute === "full" ? 2 : 0)) * moeLayers * collectiveSeconds("all-to-all", dispatchBytes, ep, tp * cp);
    }
    // Pipeline sends: activations forward and gradients back, once per chunk.
    let ppSeconds = 0;
    if (pp > 1) {
      const sends = (i === 0 || isLast ? 1 : 2) * v;
      ppSeconds = sends * ppSendSeconds;
    }
    const total = compute + recomputeSeconds + tpSeconds + cpSeconds + epSeconds + ppSeconds;
    stages.push({
      stage: i,
      layers: n,
      compute,
      recompute: recomputeSeconds,
      tp: tpSeconds,
      cp: cpSeconds,
      ep: epSeconds,
      pp: ppSeconds,
      total,
    });
  }
  let slow = at(stages, 0, "step: first pipeline stage");
  for (const st of stages) if (st.total > slow.total) slow = st;
  const slowest = slow.stage;
  const tMax = slow.total;
  const tMean = stages.reduce((a, st) => a + st.total, 0) / pp;
  const bubble = ((pp - 1) / v) * tMax;

  // Data parallel and sharding on the slowest stage.
  let parametersDense = 0;
  let parametersExpert = 0;
  let rootParameters = 0;
  {
    let first = 0;
    for (const n of stageLayers.slice(0, slowest)) first += n;
    for (let k = first; k < first + slow.layers; k++) {
      const lp = layerParameters(arch, k);
      const expert = lp.routedExperts;
      parametersExpert += expert / (tp * ep);
      parametersDense += (lp.total - expert) / tp;
    }
    if (slowest === 0) rootParameters += (arch.vocabSize * h) / tp;
    if (slowest === pp - 1 && (!arch.tiedEmbeddings || pp > 1)) rootParameters += (arch.vocabSize * h) / tp;
    parametersDense += rootParameters;
  }
  // Without overlap (Megatron-LM's default: --overlap-grad-reduce and --overlap-param-gather are
  // off) the reductions and the parameter gathers of ZeRO-0 to ZeRO-2 wait for nothing but run alone.
  const forwardWindow = overlapGradReduce ? slow.compute / 3 : 0;
  const backwardWindow = overlapGradReduce ? (2 * slow.compute) / 3 + slow.recompute : 0;
  // One layer's forward and backward on this GPU (the ZeRO-3 units' windows).
  const layerBackwardSeconds = 2 * layerForwardSeconds + slow.recompute / Math.max(1, slow.layers);
  const dpTransfers: DpTransfer[] = [];
  const denseStride = cp > 1 ? tp : strides.dp;
  const denseShardRanks = hsdp ? Math.max(1, Math.min(dp * cp, Math.floor(nodeSize / denseStride))) : dp * cp;
  const shardGroups = [
    { label: "", params: parametersDense, ranks: dp * cp, stride: denseStride },
    { label: "expert ", params: parametersExpert, ranks: (dp * cp) / ep, stride: strides.dp * ep },
  ];
  for (const g of shardGroups) {
    if (g.params === 0 || g.ranks <= 1) continue;
    const stride = g.stride;
    // Hybrid sharding: shard inside the node (as many ranks of the group as one node holds).
    const perNode = Math.max(1, Math.min(g.ranks, Math.floor(nodeSize / stride)));
    const shardRanks = hsdp ? perNode : g.ranks;
    const replicas = g.ranks / shardRanks;
    const add = (
      name: string,
      collective: Collective,
      bytes: number,
      ranks: number,
      st: number,
      calls: number,
      windowSecondsArg: number,
    ) => {
      const per = collectiveSeconds(collective, bytes, ranks, st);
      if (per === 0) return;
      dpTransfers.push({
        name: `${g.label}${name}`,
        collective,
        ranks,
        messageBytes: bytes,
        callsPerStep: calls,
        secondsPerCall: per,
        windowSeconds: windowSecondsArg,
        exposedSeconds: calls * Math.max(0, per - windowSecondsArg),
      });
    };
    const gradMessage = g.params * gradBytes;
    const paramMessage = g.params * valueBytes;
    if (zeroStage === 0) {
      add(
        "gradient all-reduce",
        "all-reduce",
        gradMessage,
        g.ranks,
        stride,
        reduceEveryMicrobatch ? m : 1,
        backwardWindow,
      );
    } else if (zeroStage === 1 || zeroStage === 2 || (zeroStage === 3 && !reshard && !perMicrobatchNoReshard)) {
      // Reduce-scatter, or (DeepSpeed ZeRO-1/2) an all-reduce of which each rank keeps its slice.
      add(
        `gradient ${shardedReduce}`,
        shardedReduce,
        gradMessage,
        shardRanks,
        stride,
        reduceEveryMicrobatch ? m : 1,
        backwardWindow,
      );
      add(
        "parameter all-gather (next step's first forward)",
        "all-gather",
        paramMessage,
        shardRanks,
        stride,
        1,
        forwardWindow,
      );
    } else {
      // ZeRO-3 / FSDP with resharding: one unit per layer, as FSDP and DeepSpeed wrap them. Per
      // microbatch each layer's weights are gathered before its forward (behind the previous
      // layer's forward, by prefetching) and again before its backward, and its gradients are
      // reduce-scattered after it (both behind the layer's backward). Every call pays its latency.
      // The root unit (embedding, final norm and head on the end stages) is gathered before the
      // first layer and reduce-scattered after the last: nothing is left to hide it behind.
      const units = Math.max(1, slow.layers);
      const rootShare = g.label === "" ? rootParameters / Math.max(g.params, 1) : 0;
      const unitParams = (g.params * (1 - rootShare)) / units;
      const gatherF = collectiveSeconds("all-gather", unitParams * valueBytes, shardRanks, stride);
      const gatherB = collectiveSeconds("all-gather", unitParams * valueBytes, shardRanks, stride);
      const scatter = collectiveSeconds("reduce-scatter", unitParams * gradBytes, shardRanks, stride);
      const calls = m * units;
      // Without resharding after the forward pass (FSDP2 without a pipeline), a layer's gathered
      // weights stay for its backward pass: no second gather, only the reduce-scatter.
      const backwardGather = reshard ? gatherB : 0;
      dpTransfers.push({
        name: `${g.label}parameter all-gather (forward, one per layer)`,
        collective: "all-gather",
        ranks: shardRanks,
        messageBytes: unitParams * valueBytes,
        callsPerStep: calls,
        secondsPerCall: gatherF,
        windowSeconds: layerForwardSeconds,
        exposedSeconds: calls * Math.max(0, gatherF - layerForwardSeconds),
      });
      dpTransfers.push({
        name: reshard
          ? `${g.label}parameter all-gather (backward) + gradient reduce-scatter, one per layer`
          : `${g.label}gradient reduce-scatter, one per layer (weights kept from the forward pass)`,
        collective: "reduce-scatter",
        ranks: shardRanks,
        messageBytes: unitParams * gradBytes,
        callsPerStep: calls,
        secondsPerCall: backwardGather + scatter,
        windowSeconds: layerBackwardSeconds,
        exposedSeconds: calls * Math.max(0, backwardGather + scatter - layerBackwardSeconds),
      });
      if (rootShare > 0) {
        const rootParams = g.params * rootShare;
        const root =
          collectiveSeconds("all-gather", rootParams * valueBytes, shardRanks, stride) +
          collectiveSeconds("reduce-scatter", rootParams * gradBytes, shardRanks, stride);
        dpTransfers.push({
          name: "root unit (embedding, final norm, head) all-gather + gradient reduce-scatter",
          collective: "all-gather",
          ranks: shardRanks,
          messageBytes: rootParams * valueBytes,
          callsPerStep: m,
          secondsPerCall: root,
          windowSeconds: 0,
          exposedSeconds: m * root,
        });
      }
    }
    if (hsdp && replicas > 1) {
      add(
        "cross-node gradient all-reduce of the shard",
        "all-reduce",
        gradMessage / shardRanks,
        replicas,
        stride * perNode,
        1,
        backwardWindow,
      );
    }
  }
  const dpExposed = dpTransfers.reduce((a, t) => a + t.exposedSeconds, 0);
  const ownedParameters =
    zeroStage >= 1
      ? parametersDense / denseShardRanks + parametersExpert / Math.max(1, (dp * cp) / ep)
      : parametersDense + parametersExpert;
  const optimizer = (ownedParameters * ADAM_BYTES_PER_PARAMETER) / gpu.hbmBytesPerSecond;

  const breakdown: StepBreakdown = {
    compute: m * slow.compute,
    recompute: m * slow.recompute,
    bubble,
    tp: m * slow.tp,
    cp: m * slow.cp,
    pp: m * slow.pp,
    ep: m * slow.ep,
    dp: dpExposed,
    optimizer,
  };
  const stepSeconds = Object.values(breakdown).reduce((a, x) => a + x, 0);
  const tokensPerStep = batch * s;
  const modelFlops = modelFlopsPerToken(arch, s).total;

  const memZero: ZeroStage = zeroStage === 3 && !reshard && !profile ? 2 : zeroStage;
  const memorySetup: TrainingSetup = {
    seqLength: s,
    microBatchSize: b,
    dp: hsdp && zeroStage >= 1 && Number.isInteger(denseShardRanks / cp) ? denseShardRanks / cp : dp,
    tp,
    sequenceParallel: sp,
    pp,
    cp,
    ep,
    zeroStage: memZero,
    recompute,
    schedule,
    microbatches: m,
    virtualStages: schedule === "interleaved" ? v : undefined,
    ...(input.stageLayers !== undefined ? { stageLayers } : {}),
    fp32GradAccum: gradReduce === "fp32",
    attention: causal ? "flash" : "eager",
    ...(profile ? { framework: profile.id, reshardAfterForward: reshard } : {}),
  };
  let memory: MemoryBreakdown | null = null;
  let memoryNote: string | null = null;
  if (input.includeMemory !== false)
    try {
      memory = trainingMemory(arch, memorySetup).perGpu;
      const notes: string[] = [];
      if (hsdp) notes.push("hybrid sharding: model states sharded over the ranks inside one node");
      if (zeroStage === 3 && !reshard)
        notes.push(
          profile
            ? "FSDP without resharding: every layer's gathered weights stay until its backward"
            : "FSDP without resharding: parameters counted whole, as under ZeRO-2",
        );
      if (precision === "fp8") notes.push(FP8_MEMORY_NOTE);
      memoryNote = notes.length > 0 ? notes.join("; ") : null;
    } catch (error) {
      if (!(error instanceof ModelInputError)) throw error;
      memoryNote = `memory model: ${error.message}`;
    }

  return {
    stepSeconds,
    tokensPerStep,
    tokensPerSecondPerGpu: tokensPerStep / (stepSeconds * gpuCount),
    mfu: (tokensPerStep * modelFlops) / (stepSeconds * gpuCount * peak),
    mfuFp8Peak: precision === "fp8" ? (tokensPerStep * modelFlops) / (stepSeconds * gpuCount * linearPeak) : null,
    breakdown,
    microbatches: m,
    stages,
    slowestStage: slowest,
    stageImbalance: tMax / tMean,
    dpTransfers,
    windows: {
      layerForward: layerForwardSeconds,
      layerGemm: (tokens * 2 * layerMatmul) / tp / linearRate,
      stageForward: slow.compute / 3,
      stageBackward: (2 * slow.compute) / 3 + slow.recompute,
      tpCall: tp > 1 ? tpPerCall : 0,
      tpCallsPerLayerForward: tp > 1 ? 2 : 0,
      ppSend: ppSendSeconds,
      chunks: v,
    },
    kernelEfficiency: eta,
    fp8KernelEfficiency: eta8,
    memory,
    memoryNote,
    memorySetup,
    layout: {
      tp,
      pp,
      cp,
      ep,
      dp,
      zeroStage,
      reshardAfterForward: reshard,
      hsdp,
      sequenceParallel: sp,
      recompute,
      schedule,
      chunks: v,
      gradReduce,
      rankOrder,
      stageLayers,
      framework: profile?.id ?? null,
      tpCommOverlap,
      overlapGradReduce,
      precision,
    },
  };
}
