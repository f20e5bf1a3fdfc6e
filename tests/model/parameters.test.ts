import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  countParameters,
  findModelPreset,
  layerParameters,
  MODEL_PRESETS,
  ModelInputError,
  parseModelConfig,
} from "../../src/model/index.ts";

const config = (id: string) => {
  const preset = findModelPreset(id);
  assert.ok(preset, `preset ${id} exists`);
  return preset.config;
};

/** Asserts that `fn` throws a ModelInputError whose field is `field`. */
function throwsField(fn: () => unknown, field: string): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof ModelInputError, `expected ModelInputError, got ${String(error)}`);
    assert.equal(error.field, field);
    return true;
  });
}

describe("countParameters reproduces every preset's published total exactly", () => {
  for (const preset of MODEL_PRESETS) {
    test(`${preset.name}: ${preset.publishedTotal.toLocaleString("en-US")} (${preset.source})`, () => {
      const count = countParameters(preset.config);
      assert.equal(count.total, preset.publishedTotal);
      assert.deepEqual(count.warnings, []);
      const b = count.breakdown;
      assert.equal(b.embedding + b.positionEmbedding + b.attention + b.mlp + b.router + b.norms + b.head, count.total);
    });
  }
});

describe("active parameters of mixture-of-experts models", () => {
  test("Mixtral 8x7B: 12,879,925,248 active, which is Mistral's 12.9B (facts.md A.2)", () => {
    const count = countParameters(config("mixtral-8x7b"));
    assert.equal(count.active, 12_879_925_248);
    assert.equal(Math.round(count.active / 1e8) / 10, 12.9);
  });
  test("DeepSeek-V3: 37,552,297,472 active from the config shapes; the README's '37B activated' is this count rounded down (README_WEIGHTS prints 36.7B; gap unexplained, facts.md J)", () => {
    const count = countParameters(config("deepseek-v3"));
    assert.equal(count.active, 37_552_297_472);
    assert.equal(Math.floor(count.active / 1e9), 37);
  });
  test("dense models: active equals total", () => {
    const count = countParameters(config("llama-3.1-70b"));
    assert.equal(count.active, count.total);
  });
});

describe("per-layer breakdown matches facts.md A.2", () => {
  test("Llama-2-7B: attention 67,108,864, MLP 135,266,304, layer 202,383,360, embedding 131,072,000", () => {
    const count = countParameters(config("llama-2-7b"));
    const layer = count.layers[0];
    assert.equal(layer.attention, 67_108_864);
    assert.equal(layer.denseMlp, 135_266_304);
    assert.equal(layer.total, 202_383_360);
    assert.equal(count.breakdown.embedding, 131_072_000);
  });
  test("Llama-3.1-8B (GQA, 8 KV heads): attention 41,943,040, MLP 176,160,768, layer 218,112,000", () => {
    const layer = countParameters(config("llama-3.1-8b")).layers[0];
    assert.equal(layer.attention, 41_943_040);
    assert.equal(layer.denseMlp, 176_160_768);
    assert.equal(layer.total, 218_112_000);
  });
  test("Llama-3.2-1B (head_dim 64, tied): attention 10,485,760, MLP 50,331,648, no separate head", () => {
    const count = countParameters(config("llama-3.2-1b"));
    assert.equal(count.layers[0].attention, 10_485_760);
    assert.equal(count.layers[0].denseMlp, 50_331_648);
    assert.equal(count.layers[0].total, 60_821_504);
    assert.equal(count.breakdown.head, 0);
    assert.equal(count.breakdown.embedding, 262_668_288);
  });
  test("Qwen2.5-7B: attention with QKV bias 29,364,736; non-embedding 6,525,621,760 (card: 6.53B)", () => {
    const count = countParameters(config("qwen2.5-7b"));
    assert.equal(count.layers[0].attention, 29_364_736);
    assert.equal(count.layers[0].total, 233_057_792);
    assert.equal(count.nonEmbedding, 6_525_621_760);
  });
  test("Mixtral 8x7B: 8 experts of 176,160,768 plus a 32,768-parameter router; layer 1,451,270,144", () => {
    const layer = countParameters(config("mixtral-8x7b")).layers[0];
    assert.equal(layer.expertSize, 176_160_768);
    assert.equal(layer.routedExperts, 8 * 176_160_768);
    assert.equal(layer.router, 32_768);
    assert.equal(layer.total, 1_451_270_144);
  });
  test("DeepSeek-V3: MLA 187,107,328; dense MLP 396,361,728 in layers 0-2; 257 experts of 44,040,192 and a 1,835,264 gate from layer 3", () => {
    const arch = parseModelConfig(config("deepseek-v3")).architecture;
    const dense = layerParameters(arch, 2);
    const moe = layerParameters(arch, 3);
    assert.equal(dense.attention, 187_107_328);
    assert.equal(dense.denseMlp, 396_361_728);
    assert.equal(dense.routedExperts, 0);
    assert.equal(moe.expertSize, 44_040_192);
    assert.equal(moe.routedExperts + moe.sharedExperts, 257 * 44_040_192);
    assert.equal(moe.router, 1_835_264);
    assert.equal(countParameters(config("deepseek-v3")).breakdown.embedding, 926_679_040);
  });
  test("GPT-2: layer 12h² + 13h (7,087,872 / 12,596,224 / 19,677,440 / 30,740,800) and a learned position table", () => {
    const expected: [string, number, number][] = [
      ["gpt2", 7_087_872, 786_432],
      ["gpt2-medium", 12_596_224, 1_048_576],
      ["gpt2-large", 19_677_440, 1_310_720],
      ["gpt2-xl", 30_740_800, 1_638_400],
    ];
    for (const [id, layerTotal, positions] of expected) {
      const count = countParameters(config(id));
      assert.equal(count.layers[0].total, layerTotal, id);
      assert.equal(count.breakdown.positionEmbedding, positions, id);
      assert.equal(count.breakdown.head, 0, id);
    }
  });
});

test("GPT-style count matches narayanan2021efficient Eq. (2) plus the final LayerNorm: 1T row gives 1008.0B", () => {
  const h = 25600;
  const l = 128;
  const V = 51200;
  const s = 2048;
  const count = countParameters({
    model_type: "gpt2",
    n_embd: h,
    n_layer: l,
    n_head: 160,
    n_positions: s,
    vocab_size: V,
  });
  // Eq. (2): P = 12lh²(1 + 13/(12h) + (V + s)/(12lh)) = 12lh² + 13lh + (V + s)h.
  const eq2 = 12 * l * h * h + 13 * l * h + (V + s) * h;
  assert.equal(count.total - 2 * h, eq2);
  assert.equal((count.total / 1e9).toFixed(1), "1008.0");
});

test("GPT-2 n_inner: null means 4 × n_embd (HF GPT2Config)", () => {
  const base = config("gpt2");
  assert.equal(countParameters({ ...base, n_inner: null }).total, 124_439_808);
  assert.equal(countParameters({ ...base, n_inner: 3072 }).total, 124_439_808);
});

test("Llama attention_bias and mlp_bias add q, k, v, o and gate, up, down biases", () => {
  const base = config("llama-3.1-8b");
  const h = 4096;
  const kv = 8 * 128;
  const f = 14336;
  const withBias = countParameters({ ...base, attention_bias: true, mlp_bias: true });
  assert.equal(withBias.total - 8_030_261_248, 32 * (h + 2 * kv + h + 2 * f + h));
});

test("an unknown model_type with Llama keys is counted as Llama-like and returns a warning", () => {
  const count = countParameters({ ...config("llama-2-7b"), model_type: "my-llama" });
  assert.equal(count.total, 6_738_415_616);
  assert.equal(count.architecture.family, "llama-like");
  assert.equal(count.warnings.length, 1);
  assert.match(count.warnings[0], /model_type "my-llama" is not a known family/);
});

describe("bad configs throw ModelInputError naming the key", () => {
  test("missing hidden_size", () => {
    const { hidden_size: _omit, ...rest } = config("llama-3.1-8b") as Record<string, unknown>;
    throwsField(() => countParameters(rest), "hidden_size");
  });
  test("non-numeric num_hidden_layers", () =>
    throwsField(() => countParameters({ ...config("llama-3.1-8b"), num_hidden_layers: "32" }), "num_hidden_layers"));
  test("zero vocab_size", () =>
    throwsField(() => countParameters({ ...config("llama-3.1-8b"), vocab_size: 0 }), "vocab_size"));
  test("negative intermediate_size", () =>
    throwsField(() => countParameters({ ...config("llama-3.1-8b"), intermediate_size: -1 }), "intermediate_size"));
  test("fractional head count", () =>
    throwsField(
      () => countParameters({ ...config("llama-3.1-8b"), num_attention_heads: 31.5 }),
      "num_attention_heads",
    ));
  test("heads that do not divide hidden_size without head_dim", () =>
    throwsField(
      () => countParameters({ ...config("llama-2-7b"), num_attention_heads: 30, num_key_value_heads: 30 }),
      "num_attention_heads",
    ));
  test("KV heads that do not divide the query heads", () =>
    throwsField(() => countParameters({ ...config("llama-3.1-8b"), num_key_value_heads: 5 }), "num_key_value_heads"));
  test("GPT-2 missing n_embd", () => {
    const { n_embd: _omit, ...rest } = config("gpt2") as Record<string, unknown>;
    throwsField(() => countParameters(rest), "n_embd");
  });
  test("Mixtral top-k above the expert count", () =>
    throwsField(() => countParameters({ ...config("mixtral-8x7b"), num_experts_per_tok: 9 }), "num_experts_per_tok"));
  test("not an object", () => throwsField(() => countParameters([1, 2]), "config"));
  test("tie_word_embeddings not a boolean", () =>
    throwsField(
      () => countParameters({ ...config("llama-3.2-1b"), tie_word_embeddings: "yes" }),
      "tie_word_embeddings",
    ));
});
