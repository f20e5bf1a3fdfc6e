import assert from "node:assert/strict";
import { test } from "node:test";
import { countParameters, matmulParameters, parseModelConfig } from "../../src/model/index.ts";

// The two families the published runs brought in: gpt_neox (Hugging Face's GPTNeoXConfig) and
// nemotron (NemotronConfig), checked against the totals their publishers print.

/** An HF GPTNeoXConfig as the Pythia checkpoints publish it. */
const pythia = (h: number, layers: number, heads: number) => ({
  model_type: "gpt_neox",
  hidden_size: h,
  intermediate_size: 4 * h,
  num_attention_heads: heads,
  num_hidden_layers: layers,
  vocab_size: 50304,
  max_position_embeddings: 2048,
  rotary_pct: 0.25,
  tie_word_embeddings: false,
  use_parallel_residual: true,
});

test("gpt_neox: Pythia 160M and 1.4B, exact totals and non-embedding counts of the Pythia model cards", () => {
  // EleutherAI/pythia-160m and pythia-1.4b model cards (Hugging Face), table of exact parameter
  // counts: 162,322,944 total and 85,056,000 non-embedding; 1,414,647,808 and 1,208,602,624.
  const small = countParameters(pythia(768, 12, 12));
  assert.equal(small.total, 162_322_944);
  assert.equal(small.nonEmbedding, 85_056_000);
  const large = countParameters(pythia(2048, 24, 16));
  assert.equal(large.total, 1_414_647_808);
  assert.equal(large.nonEmbedding, 1_208_602_624);
  const arch = large.architecture;
  assert.equal(arch.family, "gpt_neox");
  assert.equal(arch.norm, "layernorm");
  assert.equal(arch.mlp, "gelu");
  assert.equal(arch.parallelResidual, true);
  assert.ok(arch.qkvBias && arch.outputBias && arch.mlpBias);
  assert.deepEqual(large.warnings, []);
});

test("gpt_neox: attention_bias false drops the attention biases but not the MLP's", () => {
  const withBias = countParameters(pythia(768, 12, 12)).total;
  const without = countParameters({ ...pythia(768, 12, 12), attention_bias: false }).total;
  assert.equal(withBias - without, 12 * (3 * 768 + 768));
});

/** Nemotron-4 15B as HF's NemotronConfig defaults describe it (they are this model's sizes). */
const nemotron15b = {
  model_type: "nemotron",
  hidden_size: 6144,
  intermediate_size: 24576,
  num_hidden_layers: 32,
  num_attention_heads: 48,
  num_key_value_heads: 8,
  vocab_size: 256000,
  max_position_embeddings: 4096,
  hidden_act: "relu2",
  partial_rotary_factor: 0.5,
  tie_word_embeddings: false,
};

test("nemotron: Nemotron-4 15B's embedding and non-embedding counts, which its report rounds to 3.2B and 12.5B", () => {
  // Nemotron-4 15B Technical Report (arXiv 2402.16819) §2: "3.2 billion embedding parameters and
  // 12.5 billion non-embedding parameters" (no exact total is published; two summaries of the
  // report quote these figures, the PDF was not in our corpus).
  // The embedding and the untied head hold 2 × 256,000 × 6,144 = 3,145,728,000 parameters, which
  // the report prints as 3.2 billion (3.15 rounded up); the non-embedding count rounds to 12.5.
  const c = countParameters(nemotron15b);
  assert.equal(c.breakdown.embedding + c.breakdown.head, 3_145_728_000);
  assert.equal(Math.round((c.breakdown.embedding + c.breakdown.head) / 1e7) / 100, 3.15);
  assert.equal(Math.round(c.nonEmbedding / 1e8) / 10, 12.5);
  // The plain two-matrix MLP with squared ReLU: up and down projections only, no biases.
  assert.equal(c.layers[0]!.denseMlp, 2 * 6144 * 24576);
  // GQA: 48 query heads of 128, 8 key/value heads.
  assert.equal(c.layers[0]!.attention, 6144 * 6144 * 2 + 2 * 6144 * 1024);
  // NemotronLayerNorm1P is a LayerNorm with weight and bias: 2h per norm, two per layer.
  assert.equal(c.layers[0]!.norms, 4 * 6144);
  const arch = parseModelConfig(nemotron15b).architecture;
  assert.equal(arch.family, "nemotron");
  assert.equal(arch.hiddenAct, "relu2");
  assert.equal(arch.mlp, "gelu");
  assert.equal(arch.tiedEmbeddings, false);
});

test("nemotron: FLOPs count the two MLP matrices, not three", () => {
  const m = matmulParameters(nemotron15b);
  const perLayer = 2 * 6144 * 6144 + 2 * 6144 * 1024 + 2 * 6144 * 24576;
  assert.equal(m.layers, 32 * perLayer);
  assert.equal(m.head, 256000 * 6144);
});
