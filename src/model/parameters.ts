/**
 * Exact parameter counts from a Hugging Face config, with a per-component breakdown and, for
 * mixture-of-experts models, the parameters active per token. The formulas are the shapes of the
 * tensors each family's HF modeling code creates; facts.md A.2 lists the published totals they
 * reproduce to the parameter (tests/model/parameters.test.ts checks every preset).
 *
 * Buffers that are not parameters (e.g. Llama-2 checkpoints' `rotary_emb.inv_freq`) are not counted,
 * which is why HF's `safetensors.total` for Llama-2-7B is 2,048 higher than the true count.
 */
import { isMoeLayer, parseModelConfig, type ModelArchitecture } from "./architecture.ts";
import { assertFinite } from "./errors.ts";

/** Parameters of one transformer layer, by component. */
export interface LayerParameters {
  /** Q, K, V and output projections with their biases; for MLA also its two low-rank norms. */
  attention: number;
  /** Dense MLP (0 in an MoE layer). */
  denseMlp: number;
  /** All routed experts of the layer (0 in a dense layer). */
  routedExperts: number;
  /** One routed expert. */
  expertSize: number;
  /** Shared (always active) experts (DeepSeek). */
  sharedExperts: number;
  /** Router weight (and bias). */
  router: number;
  /** The two per-layer norms. */
  norms: number;
  /** Sum of the above. */
  total: number;
  /** What one token uses: everything but the unselected routed experts. */
  active: number;
}

/** Whole-model parameters by component; sums to `total`. */
export interface ParameterBreakdown {
  /** Token embedding table $V \cdot h$. */
  embedding: number;
  /** Learned position table (GPT-2); 0 for rotary models. */
  positionEmbedding: number;
  /** All layers' attention (see {@link LayerParameters.attention}). */
  attention: number;
  /** All layers' dense MLPs, routed experts and shared experts. */
  mlp: number;
  /** All MoE routers. */
  router: number;
  /** Every norm: two per layer plus the final one. */
  norms: number;
  /** LM head $V \cdot h$; 0 when tied to the embedding. */
  head: number;
}

/** Result of {@link countParameters}. */
export interface ParameterCount {
  /** Exact parameter count. */
  total: number;
  /** Parameters one token uses (equals `total` for dense models). */
  active: number;
  /** `total` minus the embedding, position table and untied head (the Kaplan-style "non-embedding" count). */
  nonEmbedding: number;
  breakdown: ParameterBreakdown;
  /** Per-layer counts, index 0 first. */
  layers: LayerParameters[];
  /** The architecture the counts were computed from. */
  architecture: ModelArchitecture;
  /** Notes about how the config was read (e.g. unknown model_type); never printed by the model. */
  warnings: string[];
}

function normSize(arch: ModelArchitecture): number {
  return arch.norm === "layernorm" ? 2 * arch.hiddenSize : arch.hiddenSize;
}

/** Attention parameters of one layer. */
function attentionParameters(arch: ModelArchitecture): number {
  const h = arch.hiddenSize;
  const mla = arch.mla;
  if (mla) {
    // DeepSeek-V3 MLA (HF modeling_deepseek): q_a_proj h→q_lora, q_a_layernorm, q_b_proj q_lora→a·(nope+rope)
    // (or q_proj h→a·(nope+rope) when q_lora_rank is null), kv_a_proj_with_mqa h→kv_lora+rope, kv_a_layernorm,
    // kv_b_proj kv_lora→a·(nope+v), o_proj a·v→h. No biases.
    const a = arch.numHeads;
    const qkDim = mla.qkNopeHeadDim + mla.qkRopeHeadDim;
    const q = mla.qLoraRank > 0 ? h * mla.qLoraRank + mla.qLoraRank + mla.qLoraRank * a * qkDim : h * a * qkDim;
    const kv =
      h * (mla.kvLoraRank + mla.qkRopeHeadDim) +
      mla.kvLoraRank +
      mla.kvLoraRank * a * (mla.qkNopeHeadDim + mla.vHeadDim);
    const o = a * mla.vHeadDim * h;
    return q + kv + o;
  }
  const qDim = arch.numHeads * arch.headDim;
  const kvDim = arch.numKvHeads * arch.headDim;
  // Q: h×qDim, K and V: h×kvDim each, O: qDim×h (facts.md A.2).
  let params = h * qDim + 2 * h * kvDim + qDim * h;
  if (arch.qkvBias) params += qDim + 2 * kvDim;
  if (arch.outputBias) params += h;
  return params;
}

/** Parameters of a dense MLP of width `width`. */
function mlpParameters(arch: ModelArchitecture, width: number): number {
  const h = arch.hiddenSize;
  if (arch.mlp === "gelu") {
    // c_fc h→f (+f bias), c_proj f→h (+h bias).
    return 2 * h * width + (arch.mlpBias ? width + h : 0);
  }
  // gate and up h→f, down f→h.
  return 3 * h * width + (arch.mlpBias ? 2 * width + h : 0);
}

/** Per-layer parameter counts for layer `index` of `arch`. */
export function layerParameters(arch: ModelArchitecture, index: number): LayerParameters {
  const attention = attentionParameters(arch);
  const norms = 2 * normSize(arch);
  let denseMlp = 0;
  let routedExperts = 0;
  let expertSize = 0;
  let sharedExperts = 0;
  let router = 0;
  let activeExperts = 0;
  const moe = arch.moe;
  if (moe && isMoeLayer(arch, index)) {
    expertSize = mlpParameters(arch, moe.expertIntermediateSize);
    routedExperts = moe.routedExperts * expertSize;
    sharedExperts = moe.sharedExperts * expertSize;
    router = moe.routedExperts * arch.hiddenSize + (moe.routerBias ? moe.routedExperts : 0);
    activeExperts = moe.expertsPerToken * expertSize;
  } else {
    denseMlp = mlpParameters(arch, arch.intermediateSize);
  }
  const total = attention + denseMlp + routedExperts + sharedExperts + router + norms;
  const active = attention + denseMlp + activeExperts + sharedExperts + router + norms;
  return { attention, denseMlp, routedExperts, expertSize, sharedExperts, router, norms, total, active };
}

/**
 * Counts the parameters of a model described by a Hugging Face config object (or an already
 * parsed {@link ModelArchitecture}). Throws `ModelInputError` for invalid configs.
 *
 * total = V·h (embedding) [+ n_pos·h positions] + Σ layers + final norm [+ V·h head if untied].
 */
export function countParameters(config: unknown): ParameterCount {
  const { architecture: arch, warnings } = isArchitecture(config)
    ? { architecture: config, warnings: [] as string[] }
    : parseModelConfig(config);
  const h = arch.hiddenSize;
  const layers: LayerParameters[] = [];
  for (let i = 0; i < arch.numLayers; i++) layers.push(layerParameters(arch, i));
  const sum = (pick: (l: LayerParameters) => number) => layers.reduce((acc, l) => acc + pick(l), 0);
  const breakdown: ParameterBreakdown = {
    embedding: arch.vocabSize * h,
    positionEmbedding: arch.learnedPositions ? arch.maxPositions * h : 0,
    attention: sum((l) => l.attention),
    mlp: sum((l) => l.denseMlp + l.routedExperts + l.sharedExperts),
    router: sum((l) => l.router),
    norms: sum((l) => l.norms) + normSize(arch),
    head: arch.tiedEmbeddings ? 0 : arch.vocabSize * h,
  };
  const total =
    breakdown.embedding +
    breakdown.positionEmbedding +
    breakdown.attention +
    breakdown.mlp +
    breakdown.router +
    breakdown.norms +
    breakdown.head;
  assertFinite(total, "hidden_size");
  const active = total - sum((l) => l.total - l.active);
  const nonEmbedding = total - breakdown.embedding - breakdown.positionEmbedding - breakdown.head;
  return { total, active, nonEmbedding, breakdown, layers, architecture: arch, warnings };
}

/** True when `value` is an already parsed {@link ModelArchitecture} rather than a raw config. */
export function isArchitecture(value: unknown): value is ModelArchitecture {
  return (
    typeof value === "object" &&
    value !== null &&
    "family" in value &&
    "hiddenSize" in value &&
    "numLayers" in value &&
    !("model_type" in value)
  );
}
