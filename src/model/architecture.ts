/**
 * Reads a Hugging Face `config.json` object into one normalised {@link ModelArchitecture}, the
 * shape every other calculator in `src/model` works from. It guards against the silent errors a
 * hand-written parameter count makes: GPT-2's different key names, `head_dim` that is not
 * hidden/heads (Llama 3.2 1B), GQA, tied heads, Qwen2's attention biases, MoE experts and
 * DeepSeek-V3's multi-head latent attention (MLA).
 *
 * Supported `model_type`s: `llama`, `mistral`, `qwen2`, `mixtral`, `gpt2`, `deepseek_v3`,
 * `gpt_neox` (Hugging Face's `GPTNeoXConfig`: LayerNorm, a plain two-matrix GeLU MLP with biases,
 * a fused QKV projection with biases, attention and MLP read in parallel from the same input) and
 * `nemotron` (`NemotronConfig`: LayerNorm "1p" with bias, a plain two-matrix squared-ReLU MLP,
 * grouped-query attention, partial rotary embedding). Any other type that has the standard Llama
 * keys is read as a Llama-style decoder (RMSNorm, SwiGLU, no biases) and a warning says so; the
 * warning is returned, never printed.
 */
import {
  ModelInputError,
  requireBoolean,
  requireNonNegativeInteger,
  requireNonNegativeNumber,
  requirePositiveInteger,
} from "./errors.ts";

/** Model families with an exact parameter formula. `llama-like` is the fallback for unknown types. */
export type ModelFamily =
  "llama" | "mistral" | "qwen2" | "mixtral" | "gpt2" | "deepseek_v3" | "gpt_neox" | "nemotron" | "llama-like";

/** Mixture-of-experts shape (Mixtral, DeepSeek-V3). */
export interface MoeSpec {
  /** Routed experts per MoE layer. */
  routedExperts: number;
  /** Routed experts each token is sent to (top-k). */
  expertsPerToken: number;
  /** FFN width of one routed expert. */
  expertIntermediateSize: number;
  /** Always-active shared experts per MoE layer (DeepSeek); 0 for Mixtral. */
  sharedExperts: number;
  /** The first `firstDenseLayers` layers use a dense MLP instead of experts (DeepSeek `first_k_dense_replace`). */
  firstDenseLayers: number;
  /**
   * Layers whose index is a multiple of `layerFrequency` (after
   * the dense ones) are MoE (DeepSeek `moe_layer_freq`; 1 = all).
   */
  layerFrequency: number;
  /** Router has a per-expert bias (DeepSeek-V3 `e_score_correction_bias`, `topk_method: noaux_tc`). */
  routerBias: boolean;
}

/** Multi-head latent attention shape (DeepSeek-V2/V3). */
export interface MlaSpec {
  /** Rank of the query down-projection, or 0 when queries are projected directly (`q_lora_rank: null`). */
  qLoraRank: number;
  /** Rank of the joint key/value down-projection. */
  kvLoraRank: number;
  /** Per-head query/key dimension without rotary embedding. */
  qkNopeHeadDim: number;
  /** Per-head query/key dimension with rotary embedding (the rotary key is shared by all heads). */
  qkRopeHeadDim: number;
  /** Per-head value dimension. */
  vHeadDim: number;
}

/** The normalised architecture every calculator uses. Sizes are counts (not bytes). */
export interface ModelArchitecture {
  /** Family whose parameter formula is applied. */
  family: ModelFamily;
  /** `model_type` as written in the config (empty string when absent). */
  modelType: string;
  /** Hidden size $h$. */
  hiddenSize: number;
  /** Number of transformer layers $L$. */
  numLayers: number;
  /** Query heads $a$. */
  numHeads: number;
  /** Key/value heads (GQA); equal to `numHeads` for multi-head attention. */
  numKvHeads: number;
  /** Per-head dimension $d$ (query/key/value for standard attention). */
  headDim: number;
  /** Dense MLP width (per-expert width lives in `moe`). */
  intermediateSize: number;
  /** Vocabulary size $V$ as stored in the embedding matrix. */
  vocabSize: number;
  /** LM head shares the embedding matrix. */
  tiedEmbeddings: boolean;
  /** Maximum sequence length of the position table or rotary scaling. */
  maxPositions: number;
  /** Learned absolute position table (GPT-2): `maxPositions × h` extra parameters. */
  learnedPositions: boolean;
  /** RMSNorm has a weight only; LayerNorm has weight and bias. */
  norm: "rmsnorm" | "layernorm";
  /**
   * Gated (SwiGLU: gate, up, down) or plain two-matrix MLP. `"gelu"` names the plain shape whatever
   * its activation (Nemotron's squared ReLU has the same two matrices; `hiddenAct` says which).
   */
  mlp: "swiglu" | "gelu";
  /** The MLP's activation as the config names it (`relu2` for Nemotron), where it is not the family's usual one. */
  hiddenAct?: string;
  /** Attention and MLP read the same input and their outputs are summed (GPT-NeoX `use_parallel_residual`). */
  parallelResidual?: boolean;
  /** Biases on the Q, K, V projections. */
  qkvBias: boolean;
  /** Bias on the attention output projection. */
  outputBias: boolean;
  /** Biases on the MLP projections. */
  mlpBias: boolean;
  /** Dropout active in training (GPT-2's `*_pdrop` > 0); Llama-family configs use none. */
  dropout: boolean;
  /** Present for mixture-of-experts models. */
  moe?: MoeSpec;
  /** Present for multi-head latent attention. */
  mla?: MlaSpec;
}

/** The result of reading a config: the architecture and any warnings (never printed). */
export interface ParsedConfig {
  architecture: ModelArchitecture;
  warnings: string[];
}

const KNOWN_FAMILIES: readonly ModelFamily[] = [
  "llama",
  "mistral",
  "qwen2",
  "mixtral",
  "gpt2",
  "deepseek_v3",
  "gpt_neox",
  "nemotron",
];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function optionalInteger(config: Record<string, unknown>, key: string, fallback: number): number {
  const value = config[key];
  if (value === undefined || value === null) return fallback;
  return requirePositiveInteger(value, key);
}

function optionalBoolean(config: Record<string, unknown>, key: string, fallback: boolean): boolean {
  const value = config[key];
  if (value === undefined || value === null) return fallback;
  return requireBoolean(value, key);
}

function optionalRate(config: Record<string, unknown>, key: string): number {
  const value = config[key];
  if (value === undefined || value === null) return 0;
  return requireNonNegativeNumber(value, key);
}

/**
 * Reads a Hugging Face config object. Throws {@link ModelInputError} (with `field` set to the
 * config key) for a missing or non-numeric size, a zero or negative size, or heads that do not
 * divide the hidden size when no `head_dim` is given.
 */
export function parseModelConfig(config: unknown): ParsedConfig {
  if (!isRecord(config)) {
    throw new ModelInputError("config", "config must be a JSON object (a Hugging Face config.json)");
  }
  const warnings: string[] = [];
  const rawType = config["model_type"];
  if (rawType !== undefined && typeof rawType !== "string") {
    throw new ModelInputError("model_type", `model_type must be a string (got ${typeof rawType})`);
  }
  const modelType = rawType ?? "";
  if (modelType === "gpt2") {
    return { architecture: parseGpt2(config), warnings };
  }
  let family: ModelFamily;
  if ((KNOWN_FAMILIES as readonly string[]).includes(modelType)) {
    family = modelType as ModelFamily;
  } else {
    family = "llama-like";
    warnings.push(
      modelType === ""
        ? "config has no model_type; it was read as a Llama-style decoder (RMSNorm, SwiGLU MLP, no biases)"
        : `model_type "${modelType}" is not a known family; it was read as a Llama-style decoder (RMSNorm, SwiGLU MLP, no biases)`,
    );
  }

  const hiddenSize = requirePositiveInteger(config["hidden_size"], "hidden_size");
  const numLayers = requirePositiveInteger(config["num_hidden_layers"], "num_hidden_layers");
  const numHeads = requirePositiveInteger(config["num_attention_heads"], "num_attention_heads");
  const numKvHeads = optionalInteger(config, "num_key_value_heads", numHeads);
  if (numHeads % numKvHeads !== 0) {
    throw new ModelInputError(
      "num_key_value_heads",
      `num_key_value_heads (${numKvHeads}) must divide num_attention_heads (${numHeads})`,
    );
  }
  const vocabSize = requirePositiveInteger(config["vocab_size"], "vocab_size");
  const intermediateSize = requirePositiveInteger(config["intermediate_size"], "intermediate_size");
  let headDim: number;
  if (config["head_dim"] !== undefined && config["head_dim"] !== null) {
    headDim = requirePositiveInteger(config["head_dim"], "head_dim");
  } else {
    if (hiddenSize % numHeads !== 0) {
      throw new ModelInputError(
        "num_attention_heads",
        `num_attention_heads (${numHeads}) must divide hidden_size (${hiddenSize}) when head_dim is absent`,
      );
    }
    headDim = hiddenSize / numHeads;
  }
  const maxPositions = optionalInteger(config, "max_position_embeddings", 4096);
  const tiedEmbeddings = optionalBoolean(config, "tie_word_embeddings", false);
  // GPTNeoXConfig defaults attention_bias to true (its fused QKV and output projections carry biases).
  const attentionBias = optionalBoolean(config, "attention_bias", family === "gpt_neox");
  // GPTNeoXMLP's two linears always carry biases; the others read mlp_bias (default false).
  const mlpBias = family === "gpt_neox" ? true : optionalBoolean(config, "mlp_bias", false);
  const dropout = optionalRate(config, "attention_dropout") > 0 || optionalRate(config, "hidden_dropout") > 0;

  const architecture: ModelArchitecture = {
    family,
    modelType,
    hiddenSize,
    numLayers,
    numHeads,
    numKvHeads,
    headDim,
    intermediateSize,
    vocabSize,
    tiedEmbeddings,
    maxPositions,
    learnedPositions: false,
    // GPT-NeoX: nn.LayerNorm; Nemotron: NemotronLayerNorm1P (an nn.LayerNorm with weight and bias).
    norm: family === "gpt_neox" || family === "nemotron" ? "layernorm" : "rmsnorm",
    mlp: family === "gpt_neox" || family === "nemotron" ? "gelu" : "swiglu",
    // Qwen2 hard-codes biases on q, k, v (not o) in its attention; Llama's `attention_bias` adds all four.
    qkvBias: family === "qwen2" ? true : attentionBias,
    outputBias: family === "qwen2" ? false : attentionBias,
    mlpBias,
    dropout,
  };
  if (family === "nemotron")
    architecture.hiddenAct = typeof config["hidden_act"] === "string" ? config["hidden_act"] : "relu2";
  if (family === "gpt_neox") architecture.parallelResidual = optionalBoolean(config, "use_parallel_residual", true);

  if (family === "mixtral") {
    architecture.moe = {
      routedExperts: requirePositiveInteger(config["num_local_experts"], "num_local_experts"),
      expertsPerToken: requirePositiveInteger(config["num_experts_per_tok"], "num_experts_per_tok"),
      expertIntermediateSize: intermediateSize,
      sharedExperts: 0,
      firstDenseLayers: 0,
      layerFrequency: 1,
      routerBias: false,
    };
    checkTopK(architecture.moe);
  }

  if (family === "deepseek_v3") {
    const qLora = config["q_lora_rank"];
    architecture.mla = {
      qLoraRank: qLora === null || qLora === undefined ? 0 : requirePositiveInteger(qLora, "q_lora_rank"),
      kvLoraRank: requirePositiveInteger(config["kv_lora_rank"], "kv_lora_rank"),
      qkNopeHeadDim: requirePositiveInteger(config["qk_nope_head_dim"], "qk_nope_head_dim"),
      qkRopeHeadDim: requirePositiveInteger(config["qk_rope_head_dim"], "qk_rope_head_dim"),
      vHeadDim: requirePositiveInteger(config["v_head_dim"], "v_head_dim"),
    };
    architecture.numKvHeads = numHeads;
    architecture.headDim = architecture.mla.qkNopeHeadDim + architecture.mla.qkRopeHeadDim;
    const routed = config["n_routed_experts"];
    if (routed !== undefined && routed !== null) {
      architecture.moe = {
        routedExperts: requirePositiveInteger(routed, "n_routed_experts"),
        expertsPerToken: requirePositiveInteger(config["num_experts_per_tok"], "num_experts_per_tok"),
        expertIntermediateSize: requirePositiveInteger(config["moe_intermediate_size"], "moe_intermediate_size"),
        sharedExperts:
          config["n_shared_experts"] === undefined || config["n_shared_experts"] === null
            ? 0
            : requireNonNegativeInteger(config["n_shared_experts"], "n_shared_experts"),
        firstDenseLayers:
          config["first_k_dense_replace"] === undefined
            ? 0
            : requireNonNegativeInteger(config["first_k_dense_replace"], "first_k_dense_replace"),
        layerFrequency: optionalInteger(config, "moe_layer_freq", 1),
        routerBias: config["topk_method"] === "noaux_tc",
      };
      checkTopK(architecture.moe);
      if (architecture.moe.firstDenseLayers > numLayers) {
        throw new ModelInputError(
          "first_k_dense_replace",
          `first_k_dense_replace (${architecture.moe.firstDenseLayers}) exceeds num_hidden_layers (${numLayers})`,
        );
      }
    }
  }
  return { architecture, warnings };
}

function checkTopK(moe: MoeSpec): void {
  if (moe.expertsPerToken > moe.routedExperts) {
    throw new ModelInputError(
      "num_experts_per_tok",
      `num_experts_per_tok (${moe.expertsPerToken}) exceeds the number of experts (${moe.routedExperts})`,
    );
  }
}

function parseGpt2(config: Record<string, unknown>): ModelArchitecture {
  const hiddenSize = requirePositiveInteger(config["n_embd"], "n_embd");
  const numLayers = requirePositiveInteger(config["n_layer"], "n_layer");
  const numHeads = requirePositiveInteger(config["n_head"], "n_head");
  if (hiddenSize % numHeads !== 0) {
    throw new ModelInputError("n_head", `n_head (${numHeads}) must divide n_embd (${hiddenSize})`);
  }
  const vocabSize = requirePositiveInteger(config["vocab_size"], "vocab_size");
  const maxPositions = requirePositiveInteger(config["n_positions"], "n_positions");
  // HF GPT2Config: n_inner = null means 4 × n_embd.
  const intermediateSize = optionalInteger(config, "n_inner", 4 * hiddenSize);
  const dropout =
    optionalRate(config, "attn_pdrop") > 0 ||
    optionalRate(config, "resid_pdrop") > 0 ||
    optionalRate(config, "embd_pdrop") > 0;
  return {
    family: "gpt2",
    modelType: "gpt2",
    hiddenSize,
    numLayers,
    numHeads,
    numKvHeads: numHeads,
    headDim: hiddenSize / numHeads,
    intermediateSize,
    vocabSize,
    tiedEmbeddings: optionalBoolean(config, "tie_word_embeddings", true),
    maxPositions,
    learnedPositions: true,
    norm: "layernorm",
    mlp: "gelu",
    qkvBias: true,
    outputBias: true,
    mlpBias: true,
    dropout,
  };
}

/** Whether layer `index` (0-based) of `arch` is a mixture-of-experts layer. */
export function isMoeLayer(arch: ModelArchitecture, index: number): boolean {
  const moe = arch.moe;
  if (!moe) return false;
  if (index < moe.firstDenseLayers) return false;
  // As in HF modeling_deepseek: layer_idx >= first_k_dense_replace and layer_idx % moe_layer_freq == 0.
  return index % moe.layerFrequency === 0;
}
