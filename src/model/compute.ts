/**
 * Training compute: FLOPs per token (model and hardware), step time from a peak and an assumed
 * MFU, and MFU/HFU from a measured throughput.
 *
 * ## Convention
 *
 * Training FLOPs per token = $6N$ + attention term (chowdhery2022palm, App. B):
 * - $N$ counts the parameters a token multiplies by: the active parameters minus the embedding and
 *   position tables (lookups, not matmuls) and the norm weights; the LM head counts (for a tied
 *   model, the embedding matrix used as the head). Each such parameter costs 2 FLOPs in the forward
 *   pass and 4 in the backward pass (kaplan2020scaling §2.1).
 * - Attention: PaLM's $12 \cdot L \cdot H \cdot Q \cdot T$ per token ($H$ heads of dimension $Q$,
 *   context $T = s$): forward $QK^\top$ and $AV$ cost $2 \cdot 2 s a d$ per token per layer, times 3 for
 *   forward plus backward. No causal-mask halving. This equals the $s/(6h)$ term of
 *   korthikanti2023reducing Eq. (7) and narayanan2021efficient Eq. (3). For MLA the query/key and
 *   value head dimensions differ: $6 L s a (d_{qk} + d_v)$.
 * - Hardware FLOPs add what recomputation repeats: selective recomputation one more forward of
 *   $QK^\top$ and $AV$ ($2 L s a (d_{qk} + d_v)$), full recomputation one more forward of every
 *   layer ($2 N_{layers}$ + the same attention term); the LM head is not recomputed (narayanan2021efficient
 *   Eq. (3) has $V/(16lh)$, i.e. head FLOPs unchanged). Note that korthikanti2023reducing Eq. (8)
 *   charges selective recomputation $12 L s h$ per token (their $s/(3h)$), three times this
 *   forward-only count; {@link korthikantiHardwareFlopsSelective} gives their figure.
 */
import { parseModelConfig, type ModelArchitecture } from "./architecture.ts";
import type { Recompute } from "./activations.ts";
import { requireFraction, requireOneOf, requirePositiveInteger, requirePositiveNumber } from "./errors.ts";
import { countParameters, isArchitecture } from "./parameters.ts";

/** FLOPs per trained token, split into the parameter and attention terms. */
export interface FlopsPerToken {
  /** Parameters a token multiplies by ($N$ above). */
  matmulParameters: number;
  /** $6N$. */
  parameterTerm: number;
  /** $12 L a d s$ (0 when attention is excluded). */
  attentionTerm: number;
  /** Their sum. */
  total: number;
}

function toArchitecture(config: unknown): ModelArchitecture {
  return isArchitecture(config) ? config : parseModelConfig(config).architecture;
}

/** Parameters a token multiplies by, split into the transformer layers and the LM head. */
export function matmulParameters(config: unknown): { layers: number; head: number; total: number } {
  const arch = toArchitecture(config);
  const count = countParameters(arch);
  const head = arch.vocabSize * arch.hiddenSize;
  const layerNorms = count.breakdown.norms - (arch.norm === "layernorm" ? 2 : 1) * arch.hiddenSize;
  const layersActive = count.layers.reduce((acc, l) => acc + l.active, 0);
  const layers = layersActive - layerNorms;
  return { layers, head, total: layers + head };
}

function attentionFlopsPerTokenForward(arch: ModelArchitecture, seqLength: number): number {
  const qk = arch.mla ? arch.mla.qkNopeHeadDim + arch.mla.qkRopeHeadDim : arch.headDim;
  const vd = arch.mla ? arch.mla.vHeadDim : arch.headDim;
  // QKᵀ: 2·s·a·d_qk, AV: 2·s·a·d_v FLOPs per token per layer.
  return 2 * arch.numLayers * seqLength * arch.numHeads * (qk + vd);
}

/**
 * Model FLOPs per trained token (forward + backward) at sequence length `seqLength`
 * (chowdhery2022palm App. B: $6N + 12LHQT$). `includeAttention: false` gives plain $6N$.
 */
export function modelFlopsPerToken(
  config: unknown,
  seqLength: number,
  options: { includeAttention?: boolean } = {},
): FlopsPerToken {
  const arch = toArchitecture(config);
  requirePositiveInteger(seqLength, "seqLength");
  const n = matmulParameters(arch).total;
  const parameterTerm = 6 * n;
  const attentionTerm = options.includeAttention === false ? 0 : 3 * attentionFlopsPerTokenForward(arch, seqLength);
  return { matmulParameters: n, parameterTerm, attentionTerm, total: parameterTerm + attentionTerm };
}

/**
 * Hardware FLOPs per trained token: model FLOPs plus what `recompute` repeats (see the module
 * comment). Used for HFU.
 */
export function hardwareFlopsPerToken(config: unknown, seqLength: number, recompute: Recompute): number {
  const arch = toArchitecture(config);
  requireOneOf(recompute, ["none", "selective", "full"] as const, "recompute");
  const model = modelFlopsPerToken(arch, seqLength).total;
  const attentionForward = attentionFlopsPerTokenForward(arch, seqLength);
  if (recompute === "none") return model;
  if (recompute === "selective") return model + attentionForward;
  return model + 2 * matmulParameters(arch).layers + attentionForward;
}

/** The job's side of {@link stepTimeSeconds} and {@link flopsUtilization}. */
export interface JobFlopsInput {
  /** FLOPs per token: model FLOPs for a step time or MFU, hardware FLOPs for HFU. */
  flopsPerToken: number;
  /** GPUs in the job. */
  gpuCount: number;
  /** Peak FLOP/s of one GPU (dense, in the training precision). */
  peakFlopsPerSecond: number;
}

/** Inputs of {@link stepTimeSeconds}. */
export interface StepTimeInput extends JobFlopsInput {
  /** Tokens per optimizer step (global batch × sequence length). */
  tokensPerStep: number;
  /** Assumed model FLOPs utilization, in (0, 1]. */
  mfu: number;
}

/** Inputs of {@link flopsUtilization}. */
export interface UtilizationInput extends JobFlopsInput {
  /** Measured training throughput of the whole job, tokens per second. */
  tokensPerSecond: number;
}

/** The job's inputs, checked (in this order). */
function requireJob(input: JobFlopsInput): { flops: number; gpus: number; peak: number } {
  return {
    flops: requirePositiveNumber(input.flopsPerToken, "flopsPerToken"),
    gpus: requirePositiveInteger(input.gpuCount, "gpuCount"),
    peak: requirePositiveNumber(input.peakFlopsPerSecond, "peakFlopsPerSecond"),
  };
}

/** Step time = tokens × FLOPs per token / (GPUs × peak × MFU). */
export function stepTimeSeconds(input: StepTimeInput): number {
  const tokens = requirePositiveNumber(input.tokensPerStep, "tokensPerStep");
  const { flops, gpus, peak } = requireJob(input);
  const mfu = requireFraction(input.mfu, "mfu");
  return (tokens * flops) / (gpus * peak * mfu);
}

/**
 * Utilization = tokens/s × FLOPs per token / (GPUs × peak). With model FLOPs per token this is MFU
 * (chowdhery2022palm App. B); with hardware FLOPs per token, HFU (korthikanti2023reducing §6.3).
 * May exceed 1 only for impossible inputs, which it returns as they are.
 */
export function flopsUtilization(input: UtilizationInput): number {
  const tps = requirePositiveNumber(input.tokensPerSecond, "tokensPerSecond");
  const { flops, gpus, peak } = requireJob(input);
  return (tps * flops) / (gpus * peak);
}

/** Achieved FLOP/s per GPU for a throughput: tokens/s × FLOPs per token / GPUs. */
export function achievedFlopsPerSecondPerGpu(tokensPerSecond: number, flopsPerToken: number, gpuCount: number): number {
  requirePositiveNumber(tokensPerSecond, "tokensPerSecond");
  requirePositiveNumber(flopsPerToken, "flopsPerToken");
  requirePositiveInteger(gpuCount, "gpuCount");
  return (tokensPerSecond * flopsPerToken) / gpuCount;
}

/** Total training FLOPs for `tokens` tokens: tokens × FLOPs per token (e.g. $6ND$). */
export function trainingFlops(tokens: number, flopsPerToken: number): number {
  return requirePositiveNumber(tokens, "tokens") * requirePositiveNumber(flopsPerToken, "flopsPerToken");
}

/** Shape inputs of the Megatron closed forms: batch $B$, layers $L$, sequence $s$, hidden $h$, vocabulary $V$. */
export interface MegatronShape {
  B: number;
  L: number;
  s: number;
  h: number;
  V: number;
}

/** korthikanti2023reducing Eq. (7): model FLOPs per iteration $72BLsh^2(1 + s/(6h) + V/(12hL))$. */
export function korthikantiModelFlops({ B, L, s, h, V }: MegatronShape): number {
  return 72 * B * L * s * h * h * (1 + s / (6 * h) + V / (12 * h * L));
}

/** korthikanti2023reducing Eq. (8): hardware FLOPs with selective recomputation $72BLsh^2(1 + s/(3h) + V/(12hL))$. */
export function korthikantiHardwareFlopsSelective({ B, L, s, h, V }: MegatronShape): number {
  return 72 * B * L * s * h * h * (1 + s / (3 * h) + V / (12 * h * L));
}

/** narayanan2021efficient Eq. (3): FLOPs per iteration with full recomputation $96BsLh^2(1 + s/(6h) + V/(16Lh))$. */
export function narayananFullRecomputeFlops({ B, L, s, h, V }: MegatronShape): number {
  return 96 * B * s * L * h * h * (1 + s / (6 * h) + V / (16 * L * h));
}

/**
 * chowdhery2022palm App. B: training FLOPs per token $6N + 12
 * L H Q T$ ($H$ heads of dimension $Q$, sequence length $T$).
 */
export function palmFlopsPerToken(
  parameters: number,
  layers: number,
  heads: number,
  headDim: number,
  seqLength: number,
): number {
  requirePositiveNumber(parameters, "parameters");
  requirePositiveInteger(layers, "layers");
  requirePositiveInteger(heads, "heads");
  requirePositiveInteger(headDim, "headDim");
  requirePositiveInteger(seqLength, "seqLength");
  return 6 * parameters + 12 * layers * heads * headDim * seqLength;
}
