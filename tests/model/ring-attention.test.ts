import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  planRingAttention,
  ownedChunks,
  tileKind,
  ringKvBlockBytes,
  ringForwardBytesPerLayer,
  ulyssesForwardBytesPerLayer,
  ringOverlapMinTokensPerGpu,
} from "../../src/model/ring-attention.ts";
import { ModelInputError } from "../../src/model/errors.ts";
import { assertApprox } from "../helpers/approx.ts";

test("zig-zag sharding gives GPU i chunks i and 2c−1−i (the Llama 3 split, grattafiori2024llama3 §3.3.2)", () => {
  assert.deepEqual(ownedChunks(4, "zigzag", 0), [0, 7]);
  assert.deepEqual(ownedChunks(4, "zigzag", 3), [3, 4]);
  assert.deepEqual(ownedChunks(4, "contiguous", 1), [2, 3]);
  const plan = planRingAttention({ gpus: 4, sharding: "zigzag", causal: true });
  assert.deepEqual(plan.chunkOwner, [0, 1, 2, 3, 3, 2, 1, 0]);
});

test("tileKind: below the diagonal full, on it diagonal, above it masked; no mask → all full", () => {
  assert.equal(tileKind(3, 1, true), "full");
  assert.equal(tileKind(2, 2, true), "diagonal");
  assert.equal(tileKind(1, 3, true), "masked");
  assert.equal(tileKind(1, 3, false), "full");
});

test("GPU i holds the K/V of GPU (i − j) mod c at step j", () => {
  const plan = planRingAttention({ gpus: 4, sharding: "contiguous", causal: true });
  assert.deepEqual(
    plan.steps.map((s) => s.gpus.map((g) => g.kvFrom)),
    [
      [0, 1, 2, 3],
      [3, 0, 1, 2],
      [2, 3, 0, 1],
      [1, 2, 3, 0],
    ],
  );
  assert.deepEqual(
    plan.steps.map((s) => s.gpus[0].sends),
    [true, true, true, false],
  );
});

test("causal contiguous sharding: GPU i does 4i+2 tiles, critical path 4c−2, efficiency c/(2c−1)", () => {
  for (const c of [1, 2, 3, 4, 8, 16]) {
    const plan = planRingAttention({ gpus: c, sharding: "contiguous", causal: true });
    assert.deepEqual(
      plan.workPerGpu,
      Array.from({ length: c }, (_, i) => 4 * i + 2),
    );
    assert.equal(plan.totalWork, 2 * c * c);
    assert.equal(plan.criticalPathWork, 4 * c - 2);
    assert.equal(plan.idealWork, 2 * c);
    assertApprox(plan.efficiency, c / (2 * c - 1), { abs: 1e-12 });
    assert.equal(plan.imbalance, 2 * c - 1);
  }
});

test("causal zig-zag sharding: every GPU does 2 tiles in every step (perfect balance)", () => {
  for (const c of [1, 2, 3, 4, 5, 8, 16, 64]) {
    const plan = planRingAttention({ gpus: c, sharding: "zigzag", causal: true });
    for (const s of plan.steps) for (const g of s.gpus) assert.equal(g.work, 2);
    assert.equal(plan.criticalPathWork, 2 * c);
    assert.equal(plan.efficiency, 1);
    assert.equal(plan.imbalance, 1);
  }
});

test("without a causal mask both shardings do 4 full tiles per GPU per step", () => {
  for (const sharding of ["contiguous", "zigzag"] as const) {
    const plan = planRingAttention({ gpus: 8, sharding, causal: false });
    for (const s of plan.steps) for (const g of s.gpus) assert.equal(g.work, 4);
    assert.equal(plan.totalWork, 16 * 16);
    assert.equal(plan.efficiency, 1);
  }
});

test("property: every tile of the 2c×2c score grid is computed exactly once, by the owner of its query chunk", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 24 }),
      fc.constantFrom("contiguous" as const, "zigzag" as const),
      fc.boolean(),
      (c, sharding, causal) => {
        const plan = planRingAttention({ gpus: c, sharding, causal });
        const seen = new Map<string, number>();
        for (const s of plan.steps) {
          for (const g of s.gpus) {
            for (const t of g.tiles) {
              assert.equal(plan.chunkOwner[t.queryChunk], g.gpu);
              assert.equal(plan.chunkOwner[t.keyChunk], g.kvFrom);
              const key = `${t.queryChunk},${t.keyChunk}`;
              seen.set(key, (seen.get(key) ?? 0) + 1);
            }
          }
        }
        assert.equal(seen.size, 4 * c * c);
        for (const n of seen.values()) assert.equal(n, 1);
        assert.equal(plan.totalWork, causal ? 2 * c * c : 4 * c * c);
        assert.ok(plan.efficiency > 0 && plan.efficiency <= 1);
      },
    ),
  );
});

test("planRingAttention rejects bad input with a ModelInputError naming the field", () => {
  const bad: [unknown, string][] = [
    [{ gpus: 0, sharding: "zigzag", causal: true }, "gpus"],
    [{ gpus: -3, sharding: "zigzag", causal: true }, "gpus"],
    [{ gpus: 2.5, sharding: "zigzag", causal: true }, "gpus"],
    [{ gpus: 1e40, sharding: "zigzag", causal: true }, "gpus"],
    [{ gpus: Number.NaN, sharding: "zigzag", causal: true }, "gpus"],
    [{ gpus: "4", sharding: "zigzag", causal: true }, "gpus"],
    [{ gpus: 4, sharding: "striped", causal: true }, "sharding"],
    [{ gpus: 4, sharding: "zigzag", causal: "yes" }, "causal"],
  ];
  for (const [input, field] of bad) {
    assert.throws(
      () => planRingAttention(input as never),
      (e: unknown) => e instanceof ModelInputError && e.field === field,
      JSON.stringify(input),
    );
  }
});

const llama405bAt128k = {
  seqLength: 131072,
  microBatch: 1,
  cp: 16,
  heads: 128,
  kvHeads: 8,
  headDim: 128,
  bytesPerElement: 2,
};

test("ring K/V block: 2·b·(s/c)·n_kv·d·2 bytes (Llama-3.1-405B shapes at 128K tokens, c = 16)", () => {
  assert.equal(ringKvBlockBytes(llama405bAt128k), 2 * 8192 * 8 * 128 * 2);
  assert.equal(ringKvBlockBytes(llama405bAt128k), 33_554_432);
  assert.equal(ringForwardBytesPerLayer(llama405bAt128k), 15 * 33_554_432);
});

test("Ulysses sends (c−1)/c of the local Q, K, V and output; with 16:1 GQA and c = 16 that is more than the ring", () => {
  const ulysses = ulyssesForwardBytesPerLayer(llama405bAt128k);
  assert.equal(ulysses, (8192 * (2 * 128 + 2 * 8) * 128 * 2 * 15) / 16);
  // ring / Ulysses = c·n_kv / (n_h + n_kv) = 16·8/136
  assertApprox(ringForwardBytesPerLayer(llama405bAt128k) / ulysses, (16 * 8) / 136, { abs: 1e-12 });
  // multi-head attention: ring / Ulysses = c/2
  const mha = { ...llama405bAt128k, kvHeads: 128 };
  assertApprox(ringForwardBytesPerLayer(mha) / ulyssesForwardBytesPerLayer(mha), 8, { abs: 1e-12 });
});

test("overlap bound: block ≥ F/B for multi-head attention in 16-bit (liu2023ring §3), scaled by n_kv/n_h and ×2 for causal", () => {
  assert.equal(ringOverlapMinTokensPerGpu(1000e12, 50e9, 32, 32, 2, false), 20000);
  assert.equal(ringOverlapMinTokensPerGpu(1000e12, 50e9, 128, 8, 2, false), 1250);
  assert.equal(ringOverlapMinTokensPerGpu(1000e12, 50e9, 128, 8, 2, true), 2500);
  assert.throws(
    () => ringOverlapMinTokensPerGpu(1000e12, 0, 128, 8, 2, true),
    (e: unknown) => e instanceof ModelInputError && e.field === "linkBytesPerSecond",
  );
});

test("cost helpers reject sequences that do not split into 2c chunks, and kvHeads that do not divide heads", () => {
  assert.throws(
    () => ringKvBlockBytes({ ...llama405bAt128k, seqLength: 1000 }),
    (e: unknown) => e instanceof ModelInputError && e.field === "seqLength",
  );
  assert.throws(
    () => ringKvBlockBytes({ ...llama405bAt128k, kvHeads: 7 }),
    (e: unknown) => e instanceof ModelInputError && e.field === "kvHeads",
  );
  assert.throws(
    () => ulyssesForwardBytesPerLayer({ ...llama405bAt128k, cp: 0 }),
    (e: unknown) => e instanceof ModelInputError && e.field === "cp",
  );
});

test("heads per GPU under TP × CP: Llama 3's TP 8 leaves 16 query heads and 1 KV head per CP rank (grattafiori2024llama3 §3.3.2)", async () => {
  const { headsPerTensorParallelRank, ulyssesHeadProblem, ulyssesReplicatedForwardBytesPerLayer } =
    await import("../../src/model/ring-attention.ts");
  assert.deepEqual(headsPerTensorParallelRank(128, 8, 8), { heads: 16, kvHeads: 1, kvReplication: 1 });
  assert.deepEqual(headsPerTensorParallelRank(64, 8, 16), { heads: 4, kvHeads: 1, kvReplication: 2 });
  assert.deepEqual(headsPerTensorParallelRank(32, 8, 4), { heads: 8, kvHeads: 2, kvReplication: 1 });
  assert.throws(
    () => headsPerTensorParallelRank(28, 4, 7),
    (e: unknown) => e instanceof ModelInputError && e.field === "tp",
  );
  assert.throws(
    () => headsPerTensorParallelRank(28, 4, 8),
    (e: unknown) => e instanceof ModelInputError && e.field === "tp",
  );
  const perRank = { ...llama405bAt128k, heads: 16, kvHeads: 1 };
  assert.equal(ringKvBlockBytes(perRank), 2 * 8192 * 1 * 128 * 2);
  assert.equal(ringForwardBytesPerLayer(perRank), 15 * 4_194_304);
  assert.equal(ulyssesHeadProblem(perRank), "1 KV head for 16 GPUs: each must be replicated 16 times");
  assert.equal(ulyssesHeadProblem(llama405bAt128k), "8 KV heads for 16 GPUs: each must be replicated 2 times");
  assert.equal(ulyssesHeadProblem({ ...llama405bAt128k, cp: 8 }), null);
  assert.equal(
    ulyssesHeadProblem({ ...llama405bAt128k, cp: 32, seqLength: 131072 }),
    "8 KV heads for 32 GPUs: each must be replicated 4 times",
  );
  // Replicated KV heads travel as c heads: 566.2 MB instead of the 534.8 MB that whole heads would need.
  assert.equal(ulyssesReplicatedForwardBytesPerLayer(llama405bAt128k), (8192 * (2 * 128 + 2 * 16) * 128 * 2 * 15) / 16);
  assert.ok(ulyssesReplicatedForwardBytesPerLayer(llama405bAt128k) > ulyssesForwardBytesPerLayer(llama405bAt128k));
  assert.equal(
    ulyssesReplicatedForwardBytesPerLayer({ ...llama405bAt128k, cp: 8 }),
    ulyssesForwardBytesPerLayer({ ...llama405bAt128k, cp: 8 }),
  );
  assert.equal(ulyssesReplicatedForwardBytesPerLayer(perRank), (8192 * (2 * 16 + 2 * 16) * 128 * 2 * 15) / 16);
  assert.throws(
    () => ulyssesReplicatedForwardBytesPerLayer({ ...llama405bAt128k, cp: 6, seqLength: 131072 - (131072 % 12) }),
    (e: unknown) => e instanceof ModelInputError && e.field === "cp",
  );
});
