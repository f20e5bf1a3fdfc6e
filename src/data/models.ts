/**
 * Model presets: Hugging Face `config.json` objects (the architecture keys as published on the
 * Hub, trimmed of tokenizer and generation settings that do not affect size) with each model's
 * published exact parameter count and where it was published. Imports nothing.
 *
 * Sources are keys of the fact sheet rows (facts.md §A) and the documents they cite; the book
 * cites the model cards and papers, never the sheet.
 */

/** A model preset: a real HF config plus the published totals the calculator must reproduce. */
export interface ModelPreset {
  /** Kebab-case id accepted by the CLI in place of a config path, e.g. `llama-3.1-8b`. */
  id: string;
  /** Human-readable name, e.g. `Llama 3.1 8B`. */
  name: string;
  /** Hugging Face repository the config comes from. */
  hfRepo: string;
  /** The config.json object (architecture keys). */
  config: Readonly<Record<string, unknown>>;
  /** Published exact parameter count. */
  publishedTotal: number;
  /** Published active-per-token count where the publisher gives one (MoE), as printed (may be rounded). */
  publishedActive?: number;
  /** Where the totals were published. */
  source: string;
}

const llama2Common = {
  architectures: ["LlamaForCausalLM"],
  bos_token_id: 1,
  eos_token_id: 2,
  hidden_act: "silu",
  initializer_range: 0.02,
  max_position_embeddings: 4096,
  model_type: "llama",
  pretraining_tp: 1,
  rms_norm_eps: 1e-5,
  rope_scaling: null,
  tie_word_embeddings: false,
  torch_dtype: "float16",
  use_cache: true,
  vocab_size: 32000,
} as const;

const llama3Common = {
  architectures: ["LlamaForCausalLM"],
  attention_bias: false,
  attention_dropout: 0.0,
  bos_token_id: 128000,
  eos_token_id: 128001,
  hidden_act: "silu",
  initializer_range: 0.02,
  max_position_embeddings: 131072,
  mlp_bias: false,
  model_type: "llama",
  pretraining_tp: 1,
  rms_norm_eps: 1e-5,
  rope_theta: 500000.0,
  torch_dtype: "bfloat16",
  use_cache: true,
  vocab_size: 128256,
} as const;

const llama31Rope = {
  factor: 8.0,
  low_freq_factor: 1.0,
  high_freq_factor: 4.0,
  original_max_position_embeddings: 8192,
  rope_type: "llama3",
} as const;

const llama32Rope = { ...llama31Rope, factor: 32.0 } as const;

const gpt2Common = {
  activation_function: "gelu_new",
  architectures: ["GPT2LMHeadModel"],
  attn_pdrop: 0.1,
  bos_token_id: 50256,
  embd_pdrop: 0.1,
  eos_token_id: 50256,
  initializer_range: 0.02,
  layer_norm_epsilon: 1e-5,
  model_type: "gpt2",
  n_ctx: 1024,
  n_positions: 1024,
  resid_pdrop: 0.1,
  vocab_size: 50257,
} as const;

/** Every preset, in the order the book introduces them. */
export const MODEL_PRESETS: readonly ModelPreset[] = [
  {
    id: "gpt2",
    name: "GPT-2 small",
    hfRepo: "openai-community/gpt2",
    config: { ...gpt2Common, n_embd: 768, n_head: 12, n_layer: 12 },
    publishedTotal: 124_439_808,
    source: "HF transformers num_parameters() for gpt2 (facts.md A.2); openai/gpt-2 model_card.md lists 124M",
  },
  {
    id: "gpt2-medium",
    name: "GPT-2 medium",
    hfRepo: "openai-community/gpt2-medium",
    config: { ...gpt2Common, n_embd: 1024, n_head: 16, n_layer: 24 },
    publishedTotal: 354_823_168,
    source: "HF transformers num_parameters() for gpt2-medium (facts.md A.2); model card 355M",
  },
  {
    id: "gpt2-large",
    name: "GPT-2 large",
    hfRepo: "openai-community/gpt2-large",
    config: { ...gpt2Common, n_embd: 1280, n_head: 20, n_layer: 36 },
    publishedTotal: 774_030_080,
    source: "HF transformers num_parameters() for gpt2-large (facts.md A.2); model card 774M",
  },
  {
    id: "gpt2-xl",
    name: "GPT-2 XL",
    hfRepo: "openai-community/gpt2-xl",
    config: { ...gpt2Common, n_embd: 1600, n_head: 25, n_layer: 48 },
    publishedTotal: 1_557_611_200,
    source: "HF transformers num_parameters() for gpt2-xl (facts.md A.2); model card 1.5B",
  },
  {
    id: "llama-2-7b",
    name: "Llama 2 7B",
    hfRepo: "meta-llama/Llama-2-7b-hf",
    config: {
      ...llama2Common,
      hidden_size: 4096,
      intermediate_size: 11008,
      num_attention_heads: 32,
      num_hidden_layers: 32,
      num_key_value_heads: 32,
      rope_theta: 10000.0,
    },
    publishedTotal: 6_738_415_616,
    source:
      "model.num_parameters() and GGUF general.parameter_count for meta-llama/Llama-2-7b-hf (facts.md A.2; HF safetensors.total adds 2,048 rotary inv_freq buffer entries)",
  },
  {
    id: "llama-2-13b",
    name: "Llama 2 13B",
    hfRepo: "meta-llama/Llama-2-13b-hf",
    config: {
      ...llama2Common,
      hidden_size: 5120,
      intermediate_size: 13824,
      num_attention_heads: 40,
      num_hidden_layers: 40,
      num_key_value_heads: 40,
      rope_theta: 10000.0,
    },
    publishedTotal: 13_015_864_320,
    source: "model.num_parameters() for meta-llama/Llama-2-13b-hf (facts.md A.2)",
  },
  {
    id: "llama-2-70b",
    name: "Llama 2 70B",
    hfRepo: "meta-llama/Llama-2-70b-hf",
    config: {
      ...llama2Common,
      hidden_size: 8192,
      intermediate_size: 28672,
      num_attention_heads: 64,
      num_hidden_layers: 80,
      num_key_value_heads: 8,
      rope_theta: 10000.0,
    },
    publishedTotal: 68_976_648_192,
    source: "model.num_parameters() for meta-llama/Llama-2-70b-hf (facts.md A.2)",
  },
  {
    id: "llama-3.1-8b",
    name: "Llama 3.1 8B",
    hfRepo: "meta-llama/Llama-3.1-8B",
    config: {
      ...llama3Common,
      hidden_size: 4096,
      intermediate_size: 14336,
      num_attention_heads: 32,
      num_hidden_layers: 32,
      num_key_value_heads: 8,
      rope_scaling: llama31Rope,
      tie_word_embeddings: false,
    },
    publishedTotal: 8_030_261_248,
    source: "HF API safetensors.total for meta-llama/Llama-3.1-8B (facts.md A.2)",
  },
  {
    id: "llama-3.1-70b",
    name: "Llama 3.1 70B",
    hfRepo: "meta-llama/Llama-3.1-70B",
    config: {
      ...llama3Common,
      hidden_size: 8192,
      intermediate_size: 28672,
      num_attention_heads: 64,
      num_hidden_layers: 80,
      num_key_value_heads: 8,
      rope_scaling: llama31Rope,
      tie_word_embeddings: false,
    },
    publishedTotal: 70_553_706_496,
    source: "HF API safetensors.total for meta-llama/Llama-3.1-70B (facts.md A.2)",
  },
  {
    id: "llama-3.1-405b",
    name: "Llama 3.1 405B",
    hfRepo: "meta-llama/Llama-3.1-405B",
    config: {
      ...llama3Common,
      hidden_size: 16384,
      intermediate_size: 53248,
      num_attention_heads: 128,
      num_hidden_layers: 126,
      num_key_value_heads: 8,
      rope_scaling: llama31Rope,
      tie_word_embeddings: false,
    },
    publishedTotal: 405_853_388_800,
    source: "HF API safetensors.total for meta-llama/Llama-3.1-405B (facts.md A.2)",
  },
  {
    id: "llama-3.2-1b",
    name: "Llama 3.2 1B",
    hfRepo: "meta-llama/Llama-3.2-1B",
    config: {
      ...llama3Common,
      head_dim: 64,
      hidden_size: 2048,
      intermediate_size: 8192,
      num_attention_heads: 32,
      num_hidden_layers: 16,
      num_key_value_heads: 8,
      rope_scaling: llama32Rope,
      tie_word_embeddings: true,
    },
    publishedTotal: 1_235_814_400,
    source: "HF parameter count for meta-llama/Llama-3.2-1B (facts.md A.2); model card 1.23B, shared embeddings",
  },
  {
    id: "llama-3.2-3b",
    name: "Llama 3.2 3B",
    hfRepo: "meta-llama/Llama-3.2-3B",
    config: {
      ...llama3Common,
      head_dim: 128,
      hidden_size: 3072,
      intermediate_size: 8192,
      num_attention_heads: 24,
      num_hidden_layers: 28,
      num_key_value_heads: 8,
      rope_scaling: llama32Rope,
      tie_word_embeddings: true,
    },
    publishedTotal: 3_212_749_824,
    source: "HF parameter count for meta-llama/Llama-3.2-3B (facts.md A.2); model card 3.21B, shared embeddings",
  },
  {
    id: "mistral-7b-v0.1",
    name: "Mistral 7B v0.1",
    hfRepo: "mistralai/Mistral-7B-v0.1",
    config: {
      architectures: ["MistralForCausalLM"],
      bos_token_id: 1,
      eos_token_id: 2,
      hidden_act: "silu",
      hidden_size: 4096,
      initializer_range: 0.02,
      intermediate_size: 14336,
      max_position_embeddings: 32768,
      model_type: "mistral",
      num_attention_heads: 32,
      num_hidden_layers: 32,
      num_key_value_heads: 8,
      rms_norm_eps: 1e-5,
      rope_theta: 10000.0,
      sliding_window: 4096,
      tie_word_embeddings: false,
      torch_dtype: "bfloat16",
      use_cache: true,
      vocab_size: 32000,
    },
    publishedTotal: 7_241_732_096,
    source: "GGUF general.parameter_count for mistralai/Mistral-7B-v0.1 (facts.md A.2)",
  },
  {
    id: "mixtral-8x7b",
    name: "Mixtral 8x7B",
    hfRepo: "mistralai/Mixtral-8x7B-v0.1",
    config: {
      architectures: ["MixtralForCausalLM"],
      attention_dropout: 0.0,
      bos_token_id: 1,
      eos_token_id: 2,
      hidden_act: "silu",
      hidden_size: 4096,
      initializer_range: 0.02,
      intermediate_size: 14336,
      max_position_embeddings: 32768,
      model_type: "mixtral",
      num_attention_heads: 32,
      num_experts_per_tok: 2,
      num_hidden_layers: 32,
      num_key_value_heads: 8,
      num_local_experts: 8,
      output_router_logits: false,
      rms_norm_eps: 1e-5,
      rope_theta: 1e6,
      router_aux_loss_coef: 0.02,
      sliding_window: null,
      tie_word_embeddings: false,
      torch_dtype: "bfloat16",
      use_cache: true,
      vocab_size: 32000,
    },
    publishedTotal: 46_702_792_704,
    publishedActive: 12.9e9,
    source:
      "HF API safetensors.total for mistralai/Mixtral-8x7B-v0.1 (facts.md A.2); active 12.9B per Mistral, 13B in the paper abstract (Jiang et al. 2024)",
  },
  {
    id: "qwen2.5-7b",
    name: "Qwen2.5 7B",
    hfRepo: "Qwen/Qwen2.5-7B",
    config: {
      architectures: ["Qwen2ForCausalLM"],
      attention_dropout: 0.0,
      bos_token_id: 151643,
      eos_token_id: 151643,
      hidden_act: "silu",
      hidden_size: 3584,
      initializer_range: 0.02,
      intermediate_size: 18944,
      max_position_embeddings: 131072,
      max_window_layers: 28,
      model_type: "qwen2",
      num_attention_heads: 28,
      num_hidden_layers: 28,
      num_key_value_heads: 4,
      rms_norm_eps: 1e-6,
      rope_theta: 1000000.0,
      sliding_window: 131072,
      tie_word_embeddings: false,
      torch_dtype: "bfloat16",
      use_cache: true,
      use_sliding_window: false,
      vocab_size: 152064,
    },
    publishedTotal: 7_615_616_512,
    source: "HF parameter count for Qwen/Qwen2.5-7B (facts.md A.2); model card 7.61B total, 6.53B non-embedding",
  },
  {
    id: "deepseek-v3",
    name: "DeepSeek-V3",
    hfRepo: "deepseek-ai/DeepSeek-V3",
    config: {
      architectures: ["DeepseekV3ForCausalLM"],
      attention_bias: false,
      attention_dropout: 0.0,
      first_k_dense_replace: 3,
      hidden_act: "silu",
      hidden_size: 7168,
      initializer_range: 0.02,
      intermediate_size: 18432,
      kv_lora_rank: 512,
      max_position_embeddings: 163840,
      model_type: "deepseek_v3",
      moe_intermediate_size: 2048,
      moe_layer_freq: 1,
      n_group: 8,
      n_routed_experts: 256,
      n_shared_experts: 1,
      norm_topk_prob: true,
      num_attention_heads: 128,
      num_experts_per_tok: 8,
      num_hidden_layers: 61,
      num_key_value_heads: 128,
      num_nextn_predict_layers: 1,
      q_lora_rank: 1536,
      qk_nope_head_dim: 128,
      qk_rope_head_dim: 64,
      rms_norm_eps: 1e-6,
      rope_scaling: {
        beta_fast: 32,
        beta_slow: 1,
        factor: 40,
        mscale: 1.0,
        mscale_all_dim: 1.0,
        original_max_position_embeddings: 4096,
        type: "yarn",
      },
      rope_theta: 10000,
      routed_scaling_factor: 2.5,
      scoring_func: "sigmoid",
      tie_word_embeddings: false,
      topk_group: 4,
      topk_method: "noaux_tc",
      torch_dtype: "bfloat16",
      v_head_dim: 128,
      vocab_size: 129280,
    },
    // The README's "671B" main-model total, exact from the published shapes; the multi-token-prediction
    // module (num_nextn_predict_layers) is not part of the main model and is not counted.
    publishedTotal: 671_026_419_200,
    publishedActive: 37e9,
    source:
      "deepseek-ai/DeepSeek-V3 README.md (671B total, 37B activated) and README_WEIGHTS.md; exact total from the config shapes (facts.md A.2)",
  },
];

/** Looks up a preset by id (case-insensitive); `undefined` when there is none. */
export function findModelPreset(id: string): ModelPreset | undefined {
  const key = id.toLowerCase();
  return MODEL_PRESETS.find((p) => p.id === key);
}
