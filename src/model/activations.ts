/**
 * Activation memory of one transformer layer, tensor by tensor.
 *
 * ## Derivation (reused by the book)
 *
 * Backpropagation needs, for every operation, the inputs it saved in the forward pass. Count
 * them per layer for one microbatch of $b$ sequences of $s$ tokens (with context parallelism each
 * GPU holds $T = sb/c$ tokens). Activations are 16-bit (2 bytes; 4 with `bytesPerValue: 4` for fp32
 * training), dropout masks are 1 byte per element, and the fp32 logits are 4 bytes.
 *
 * GPT-style block (LayerNorm, GeLU MLP of width $4h$, dropout), Korthikanti et al. 2022 §4.1:
 * - attention: LayerNorm input $2sbh$; QKV projection input $2sbh$; $Q$ and $K$ for $QK^\top$ $4sbh$;
 *   softmax output $2as^2b$; its dropout mask $as^2b$; the dropout output (input to the product
 *   with $V$) $2as^2b$ and $V$ $2sbh$; output-projection input $2sbh$; output dropout mask $sbh$.
 *   That is $11sbh + 5as^2b$.
 * - MLP: LayerNorm input $2sbh$; first linear input $2sbh$; GeLU input $8sbh$; second linear input
 *   $8sbh$; dropout mask $sbh$. That is $19sbh$ (with the two LayerNorms: $34sbh + 5as^2b$,
 *   i.e. $sbh(34 + 5as/h)$, Eq. (1) of korthikanti2023reducing).
 * - Tensor parallelism ($t$) splits everything between the column- and row-parallel linears:
 *   $Q, K, V$, the scores, the projection input and the MLP intermediates ($24sbh + 5as^2b$);
 *   the LayerNorm inputs, the two linear inputs and the two dropout masks ($10sbh$) stay
 *   replicated, giving $sbh(10 + 24/t + 5as/(ht))$ (Eq. (2)). Sequence parallelism splits the
 *   replicated part along the sequence too: $sbh(34/t + 5as/(ht))$ (Eq. (4)).
 * - Selective recomputation drops the $5as^2b$ terms (recomputed in the backward pass);
 *   full recomputation stores only each layer's input, $2sbh$ (Table 2). With sequence
 *   parallelism that input is already split along the sequence, so it is $2sbh/t$ here.
 *
 * Other architectures store their real tensors instead:
 * - RMSNorm stores its input like LayerNorm (per-token statistics are ignored everywhere: they
 *   are $sb$ values per norm, under 0.1% of a layer).
 * - GQA: $K$ and $V$ have $n_{kv} \cdot d$ columns, not $h$. Rotary embeddings need no saved input
 *   (the rotation is linear); the rotated $Q$ and $K$ are what attention saves. Eager attention
 *   repeats $K$ and $V$ to all $a$ heads before multiplying and saves the copies, so there they
 *   count at $a \cdot d$ columns (measured with the companion, companion/measurements.json);
 *   FlashAttention reads the $n_{kv}$ heads directly.
 * - SwiGLU MLP of width $f$ (fused as in Megatron-LM's `bias_swiglu`): the gate and up outputs
 *   $4sbf$ (the activation is recomputed from them in backward) and the down-projection input
 *   $2sbf$, plus the shared input $2sbh$. An unfused PyTorch SwiGLU also keeps the SiLU output
 *   ($2sbf$ more).
 * - No dropout in Llama-family configs: no masks, and without dropout the softmax output is
 *   itself the input of the product with $V$ ($2as^2b$ instead of $5as^2b$).
 * - MoE layers: router probabilities (fp32, $4sbE$), the dispatched copies of the tokens
 *   ($2ksbh$ for top-$k$), each expert's SwiGLU tensors over the $ksb$ routed tokens, and the expert
 *   outputs kept for the probability-weighted combine ($2ksbh$). Balanced routing is assumed: under
 *   expert parallelism a GPU processes $ksb$ routed tokens on average. Dispatched tokens are
 *   gathered over the TP group (Megatron-LM's MoE dispatch), so they are not divided by $t$.
 * - MLA (DeepSeek-V3): the compressed query and key/value latents and their norm inputs, the
 *   shared rotary key, then per-head $Q$, $K$ ($d_{nope}+d_{rope}$ columns) and $V$.
 * - `attention: "flash"` (FlashAttention) never materialises the $s \times s$ scores: the
 *   $as^2b$ terms vanish and only $Q$, $K$, $V$ and the output are kept (the output is the
 *   output-projection input already counted). Its per-row softmax statistics are ignored like the
 *   norm statistics. Under flash attention selective recomputation therefore saves nothing here.
 *   With context parallelism and eager attention each GPU scores its $s/c$ queries against all $s$ keys.
 *
 * The default kernel is `"flash"`, as in current Megatron-LM, PyTorch and Hugging Face training.
 * Pass `attention: "eager"` to reproduce Korthikanti et al.'s tables.
 */
import { isMoeLayer, type ModelArchitecture } from "./architecture.ts";
import { assertFinite, ModelInputError, requireBoolean, requireOneOf, requirePositiveInteger } from "./errors.ts";

/** Attention kernel: FlashAttention (no stored score matrix) or eager softmax(QKᵀ)V. */
export type AttentionKernel = "flash" | "eager";

/** Activation recomputation (checkpointing) policy. */
export type Recompute = "none" | "selective" | "full";

/** Shape of the work one GPU does for one layer and one microbatch. */
export interface ActivationOptions {
  /** Sequence length $s$ (tokens per sequence). */
  seqLength: number;
  /** Micro-batch size $b$ (sequences per microbatch). */
  microBatchSize: number;
  /** Tensor-parallel degree $t$ (default 1). */
  tp?: number;
  /** Sequence parallelism on top of tensor parallelism (default false). */
  sequenceParallel?: boolean;
  /** Context-parallel degree (default 1): each GPU holds $s/c$ tokens of each sequence. */
  cp?: number;
  /** Attention kernel (default `"flash"`). */
  attention?: AttentionKernel;
  /** Dropout on (default: the architecture's own setting). */
  dropout?: boolean;
  /** Bytes per activation value: 2 for bf16/fp16 (default), 4 for fp32. */
  bytesPerValue?: number;
}

/** One saved tensor of a layer. */
export interface ActivationTensor {
  /** What the tensor is, e.g. "attention softmax output". */
  name: string;
  /** Bytes on one GPU for one microbatch. */
  bytes: number;
  /** Still stored under selective recomputation (false: recomputed in backward). */
  keptUnderSelective: boolean;
  /** Split across tensor-parallel ranks even without sequence parallelism. */
  splitByTensorParallel: boolean;
}

/** Saved activations of one layer for one microbatch on one GPU. */
export interface LayerActivations {
  tensors: ActivationTensor[];
  /** Everything, no recomputation. */
  totalBytes: number;
  /** What selective recomputation keeps. */
  selectiveBytes: number;
  /** What full recomputation keeps: the layer's input. */
  fullBytes: number;
}

/** Resolved activation options (defaults applied). */
export interface ResolvedActivationOptions {
  seqLength: number;
  microBatchSize: number;
  tp: number;
  sequenceParallel: boolean;
  cp: number;
  attention: AttentionKernel;
  dropout: boolean;
  bytesPerValue: number;
}

/** Validates {@link ActivationOptions} against `arch` and applies defaults. Throws `ModelInputError`. */
function resolveActivationOptions(arch: ModelArchitecture, options: ActivationOptions): ResolvedActivationOptions {
  const resolved: ResolvedActivationOptions = {
    seqLength: requirePositiveInteger(options.seqLength, "seqLength"),
    microBatchSize: requirePositiveInteger(options.microBatchSize, "microBatchSize"),
    tp: requirePositiveInteger(options.tp ?? 1, "tp"),
    sequenceParallel: requireBoolean(options.sequenceParallel ?? false, "sequenceParallel"),
    cp: requirePositiveInteger(options.cp ?? 1, "cp"),
    attention: requireOneOf(options.attention ?? "flash", ["flash", "eager"] as const, "attention"),
    dropout: requireBoolean(options.dropout ?? arch.dropout, "dropout"),
    bytesPerValue: requireOneOf(options.bytesPerValue ?? 2, [2, 4] as const, "bytesPerValue"),
  };
  if (arch.numHeads % resolved.tp !== 0 || arch.numKvHeads % resolved.tp !== 0) {
    throw new ModelInputError(
      "tp",
      `tp (${resolved.tp}) must divide the attention heads (${arch.numHeads}) and key/value heads (${arch.numKvHeads})`,
    );
  }
  if (resolved.seqLength % resolved.cp !== 0) {
    throw new ModelInputError("cp", `cp (${resolved.cp}) must divide the sequence length (${resolved.seqLength})`);
  }
  return resolved;
}

/**
 * Saved activations of layer `layerIndex` (0-based; it matters only for models that mix dense and
 * MoE layers) for one microbatch on one GPU. See the module comment for the derivation.
 */
export function layerActivations(
  arch: ModelArchitecture,
  options: ActivationOptions,
  layerIndex = 0,
): LayerActivations {
  const o = resolveActivationOptions(arch, options);
  if (layerIndex < 0 || layerIndex >= arch.numLayers || !Number.isInteger(layerIndex)) {
    throw new ModelInputError(
      "layerIndex",
      `layerIndex must be an integer in [0, ${arch.numLayers - 1}] (got ${layerIndex})`,
    );
  }
  const t = o.tp;
  const v = o.bytesPerValue;
  const h = arch.hiddenSize;
  const tokens = (o.seqLength * o.microBatchSize) / o.cp; // T = sb/c
  // How a tensor is divided across the TP group: "tp" always by t (between the column- and
  // row-parallel linears), "seq" by t only under sequence parallelism, "none" never.
  type Split = "tp" | "seq" | "none";
  const tensors: ActivationTensor[] = [];
  const add = (name: string, elements: number, bytesPerElement: number, split: Split, kept = true) => {
    const divisor = split === "tp" || (split === "seq" && o.sequenceParallel) ? t : 1;
    tensors.push({
      name,
      bytes: (elements * bytesPerElement) / divisor,
      keptUnderSelective: kept,
      splitByTensorParallel: split === "tp" && t > 1,
    });
  };
  const a = arch.numHeads;

  // Attention block.
  add("attention norm input", tokens * h, v, "seq");
  let qColumns: number;
  let kColumns: number;
  let vColumns: number;
  if (arch.mla) {
    const m = arch.mla;
    if (m.qLoraRank > 0) {
      add("query and key/value down-projection input", tokens * h, v, "seq");
      add("query latent norm input", tokens * m.qLoraRank, v, "seq");
      add("query up-projection input", tokens * m.qLoraRank, v, "seq");
    } else {
      add("query and key/value projection input", tokens * h, v, "seq");
    }
    add("key/value latent norm input", tokens * m.kvLoraRank, v, "seq");
    add("key/value up-projection input", tokens * m.kvLoraRank, v, "seq");
    qColumns = a * (m.qkNopeHeadDim + m.qkRopeHeadDim);
    kColumns = a * (m.qkNopeHeadDim + m.qkRopeHeadDim);
    vColumns = a * m.vHeadDim;
  } else {
    add("QKV projection input", tokens * h, v, "seq");
    qColumns = a * arch.headDim;
    kColumns = arch.numKvHeads * arch.headDim;
    vColumns = arch.numKvHeads * arch.headDim;
  }
  add("query", tokens * qColumns, v, "tp");
  add("key", tokens * kColumns, v, "tp");
  add("value", tokens * vColumns, v, "tp");
  if (o.attention === "eager" && !arch.mla && arch.numKvHeads < a) {
    // Eager attention with grouped-query attention repeats K and V to every query head before the
    // two batched matmuls (`repeat_kv` in Hugging Face's eager_attention_forward, `repeat_interleave`
    // in companion/model.py), and the matmuls save the repeated copies: K and V are stored at $a$
    // heads, not $n_{kv}$. Selective recomputation recomputes the repeat with the scores.
    add(
      "key and value repeated to every query head",
      2 * tokens * (a - arch.numKvHeads) * arch.headDim,
      v,
      "tp",
      false,
    );
  }
  if (o.attention === "eager") {
    // Scores: a heads × (s/c local queries) × (s keys) × b.
    const scores = a * (o.seqLength / o.cp) * o.seqLength * o.microBatchSize;
    add("attention softmax output", scores, v, "tp", false);
    if (o.dropout) {
      add("attention dropout mask", scores, 1, "tp", false);
      add("attention dropout output", scores, v, "tp", false);
    }
  }
  const outColumns = arch.mla ? a * arch.mla.vHeadDim : a * arch.headDim;
  add("output projection input", tokens * outColumns, v, "tp");
  if (o.dropout) add("attention output dropout mask", tokens * h, 1, "seq");

  // MLP block.
  add("MLP norm input", tokens * h, v, "seq");
  const moeLayer = isMoeLayer(arch, layerIndex) && arch.moe !== undefined;
  add(moeLayer ? "router and expert input" : "MLP input", tokens * h, v, "seq");
  const mlpTensors = (prefix: string, count: number, width: number) => {
    if (arch.mlp === "gelu") {
      add(`${prefix}GeLU input`, count * width, v, "tp");
      add(`${prefix}second linear input`, count * width, v, "tp");
    } else {
      add(`${prefix}gate and up projection outputs`, 2 * count * width, v, "tp");
      add(`${prefix}down projection input`, count * width, v, "tp");
    }
  };
  if (moeLayer && arch.moe) {
    const moe = arch.moe;
    const k = moe.expertsPerToken;
    add("router probabilities (fp32)", tokens * moe.routedExperts, 4, "seq");
    add("dispatched tokens", k * tokens * h, v, "none");
    mlpTensors("expert ", k * tokens, moe.expertIntermediateSize);
    add("expert outputs for the weighted combine", k * tokens * h, v, "none");
    if (moe.sharedExperts > 0) mlpTensors("shared expert ", tokens, moe.sharedExperts * moe.expertIntermediateSize);
  } else {
    mlpTensors("", tokens, arch.intermediateSize);
  }
  if (o.dropout) add("MLP dropout mask", tokens * h, 1, "seq");

  const totalBytes = tensors.reduce((acc, x) => acc + x.bytes, 0);
  const selectiveBytes = tensors.filter((x) => x.keptUnderSelective).reduce((acc, x) => acc + x.bytes, 0);
  const fullBytes = (tokens * h * v) / (o.sequenceParallel ? t : 1);
  assertFinite(totalBytes, "seqLength");
  return { tensors, totalBytes, selectiveBytes, fullBytes };
}

/** Bytes one layer keeps for one microbatch under `recompute`. */
export function storedLayerBytes(layer: LayerActivations, recompute: Recompute): number {
  if (recompute === "full") return layer.fullBytes;
  if (recompute === "selective") return layer.selectiveBytes;
  return layer.totalBytes;
}

/** Inputs of Korthikanti et al.'s Table 2 closed forms. */
export interface KorthikantiLayerInput {
  /** Sequence length $s$. */
  s: number;
  /** Micro-batch size $b$. */
  b: number;
  /** Hidden size $h$. */
  h: number;
  /** Attention heads $a$. */
  a: number;
  /** Tensor-parallel degree $t$ (1 for "no parallelism"). */
  t: number;
  /** Sequence parallelism. */
  sequenceParallel: boolean;
  /** Recomputation policy. */
  recompute: Recompute;
}

/**
 * Activation bytes per transformer layer from Table 2 of korthikanti2023reducing (GPT block,
 * 16-bit activations, 1-byte dropout masks). Full recomputation is the table's $2sbh$.
 */
export function korthikantiLayerActivationBytes(input: KorthikantiLayerInput): number {
  const { s, b, h, a, t, sequenceParallel, recompute } = input;
  for (const [field, value] of [
    ["s", s],
    ["b", b],
    ["h", h],
    ["a", a],
    ["t", t],
  ] as const)
    requirePositiveInteger(value, field);
  requireBoolean(sequenceParallel, "sequenceParallel");
  requireOneOf(recompute, ["none", "selective", "full"] as const, "recompute");
  const sbh = s * b * h;
  const scores = 5 * a * s * s * b; // 5as²b
  if (recompute === "full") return 2 * sbh; // Table 2, "full activation recomputation"
  if (sequenceParallel) {
    // Eq. (4): sbh(34/t + 5as/(ht)); with selective recomputation sbh(34/t).
    return recompute === "selective" ? (34 * sbh) / t : (34 * sbh + scores) / t;
  }
  // Eq. (2) (t = 1 gives Eq. (1): sbh(34 + 5as/h)); with selective recomputation sbh(10 + 24/t).
  return recompute === "selective" ? 10 * sbh + (24 * sbh) / t : 10 * sbh + (24 * sbh + scores) / t;
}
