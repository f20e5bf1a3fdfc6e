import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { parseModelConfig, layerParameters, findModelPreset, ModelInputError } from "../../src/model/index.ts";
import {
  tpShardingLayout,
  tpCommElementsPerLayer,
  tpCommToComputeRatio,
  kvHeadsByGpu,
  tpDegreeProblem,
} from "../../src/model/tp-sharding.ts";

const arch = (id: string) => parseModelConfig(findModelPreset(id)!.config).architecture;

test("Llama-3.1-70B at t = 8: 8 query heads and 1 KV head per GPU, no replication", () => {
  const layout = tpShardingLayout(arch("llama-3.1-70b"), {
    tp: 8,
    sequenceParallel: false,
    seqLength: 8192,
    microBatchSize: 1,
  });
  assert.equal(layout.queryHeadsPerGpu, 8);
  assert.equal(layout.kvHeadsPerGpu, 1);
  assert.equal(layout.kvReplication, 1);
  const q = layout.regions[1].tensors.find((x) => x.name === "query projection")!;
  assert.deepEqual(q.shardShape, [8192, 1024]);
  const down = layout.regions[7].tensors.find((x) => x.name === "down projection")!;
  assert.deepEqual(down.fullShape, [28672, 8192]);
  assert.deepEqual(down.shardShape, [3584, 8192]);
  assert.deepEqual(layout.notes, []);
});

test("Llama-3.1-70B at t = 16: each of the 8 KV heads is replicated on 2 GPUs and K/V projections stop shrinking", () => {
  const layout = tpShardingLayout(arch("llama-3.1-70b"), {
    tp: 16,
    sequenceParallel: true,
    seqLength: 8192,
    microBatchSize: 1,
  });
  assert.equal(layout.queryHeadsPerGpu, 4);
  assert.equal(layout.kvHeadsPerGpu, 1);
  assert.equal(layout.kvReplication, 2);
  const k = layout.regions[1].tensors.find((x) => x.name === "key projection")!;
  assert.deepEqual(k.shardShape, [8192, 128]);
  assert.match(layout.notes[0], /replicated on up to 2 GPUs/);
});

test("one layer's weight elements match the model's parameter count (norms included, no biases)", () => {
  for (const id of ["llama-3.1-8b", "llama-3.1-70b", "mistral-7b-v0.1", "llama-2-7b"]) {
    const a = arch(id);
    const layout = tpShardingLayout(a, { tp: 1, sequenceParallel: false, seqLength: 16, microBatchSize: 1 });
    assert.equal(layout.layerWeightElements, layerParameters(a, 0).total, id);
    assert.equal(layout.layerWeightElementsPerGpu, layout.layerWeightElements, id);
  }
});

test("with t dividing the KV heads the per-GPU weights are exactly 1/t of the split matrices plus replicated norms", () => {
  const a = arch("llama-3.1-8b");
  const full = tpShardingLayout(a, { tp: 1, sequenceParallel: false, seqLength: 16, microBatchSize: 1 });
  const split = tpShardingLayout(a, { tp: 8, sequenceParallel: false, seqLength: 16, microBatchSize: 1 });
  const norms = 2 * a.hiddenSize;
  assert.equal(split.layerWeightElementsPerGpu - norms, (full.layerWeightElements - norms) / 8);
});

test("sequence parallelism splits the norm regions along the sequence and turns f/g into all-gather/reduce-scatter", () => {
  const a = arch("llama-3.1-8b");
  const tp = tpShardingLayout(a, { tp: 4, sequenceParallel: false, seqLength: 4096, microBatchSize: 2 });
  const sp = tpShardingLayout(a, { tp: 4, sequenceParallel: true, seqLength: 4096, microBatchSize: 2 });
  assert.deepEqual(tp.regions[0].tensors[1].shardShape, [8192, 4096]);
  assert.deepEqual(sp.regions[0].tensors[1].shardShape, [2048, 4096]);
  assert.deepEqual(
    tp.boundaries.map((x) => [x.forward, x.backward]),
    [
      ["none", "all-reduce"],
      ["all-reduce", "none"],
      ["none", "all-reduce"],
      ["all-reduce", "none"],
    ],
  );
  assert.deepEqual(
    sp.boundaries.map((x) => [x.forward, x.backward]),
    [
      ["all-gather", "reduce-scatter"],
      ["reduce-scatter", "all-gather"],
      ["all-gather", "reduce-scatter"],
      ["reduce-scatter", "all-gather"],
    ],
  );
  assert.equal(tp.commElementsPerLayer, sp.commElementsPerLayer);
});

test("TP volume is 8bsh(t−1)/t (narayanan2021efficient §3.2)", () => {
  assert.equal(tpCommElementsPerLayer(1, 8192, 8192, 8), 469_762_048);
  assert.equal(tpCommElementsPerLayer(2, 4096, 4096, 4), 201_326_592);
  assert.equal(tpCommElementsPerLayer(1, 8192, 8192, 1), 0);
});

test("comm/compute ratio (t−1)F/(3hB(1+s/6h)) for h = s = 8192, t = 8 on H100 NVLink and across servers", () => {
  assert.equal(tpCommToComputeRatio(8, 989.4e12, 450e9, 8192, 8192).toFixed(2), "0.54");
  assert.equal(tpCommToComputeRatio(8, 989.4e12, 50e9, 8192, 8192).toFixed(1), "4.8");
  assert.throws(
    () => tpCommToComputeRatio(8, 989.4e12, 0, 8192, 8192),
    (e: unknown) => e instanceof ModelInputError && e.field === "linkBytesPerSecond",
  );
});

test("kvHeadsByGpu: contiguous query blocks read the KV heads of their groups", () => {
  assert.deepEqual(kvHeadsByGpu(32, 8, 4), [
    [0, 1],
    [2, 3],
    [4, 5],
    [6, 7],
  ]);
  assert.deepEqual(kvHeadsByGpu(24, 8, 3), [
    [0, 1, 2],
    [2, 3, 4, 5],
    [5, 6, 7],
  ]);
  assert.deepEqual(kvHeadsByGpu(28, 4, 7), [[0], [0, 1], [1], [1, 2], [2], [2, 3], [3]]);
});

test("bad degrees are rejected with a ModelInputError naming the field", () => {
  const qwen = arch("qwen2.5-7b");
  assert.equal(tpDegreeProblem(qwen, 8), "28 query heads do not split 8 ways");
  const cases: [unknown, string][] = [
    [{ tp: 8, sequenceParallel: false, seqLength: 4096, microBatchSize: 1 }, "tp"],
    [{ tp: 0, sequenceParallel: false, seqLength: 4096, microBatchSize: 1 }, "tp"],
    [{ tp: -4, sequenceParallel: false, seqLength: 4096, microBatchSize: 1 }, "tp"],
    [{ tp: 1e40, sequenceParallel: false, seqLength: 4096, microBatchSize: 1 }, "tp"],
    [{ tp: "4", sequenceParallel: false, seqLength: 4096, microBatchSize: 1 }, "tp"],
    [{ tp: 4, sequenceParallel: true, seqLength: 4098, microBatchSize: 1 }, "seqLength"],
    [{ tp: 4, sequenceParallel: false, seqLength: 0, microBatchSize: 1 }, "seqLength"],
    [{ tp: 4, sequenceParallel: false, seqLength: 4096, microBatchSize: Number.NaN }, "microBatchSize"],
    [{ tp: 4, sequenceParallel: "yes", seqLength: 4096, microBatchSize: 1 }, "sequenceParallel"],
  ];
  for (const [input, field] of cases) {
    assert.throws(
      () => tpShardingLayout(qwen, input as never),
      (e: unknown) => e instanceof ModelInputError && e.field === field,
      JSON.stringify(input),
    );
  }
  assert.throws(
    () => tpShardingLayout(arch("mixtral-8x7b"), { tp: 2, sequenceParallel: false, seqLength: 16, microBatchSize: 1 }),
    (e: unknown) => e instanceof ModelInputError && e.field === "model",
  );
});

test("property: every valid degree yields finite positive shapes, and K/V heads per GPU × t ≥ n_kv", () => {
  const ids = [
    "llama-3.1-8b",
    "llama-3.1-70b",
    "llama-3.1-405b",
    "qwen2.5-7b",
    "gpt2-xl",
    "llama-3.2-3b",
    "mistral-7b-v0.1",
  ];
  fc.assert(
    fc.property(fc.constantFrom(...ids), fc.integer({ min: 1, max: 128 }), fc.boolean(), (id, t, sp) => {
      const a = arch(id);
      if (tpDegreeProblem(a, t) !== null) return;
      const layout = tpShardingLayout(a, { tp: t, sequenceParallel: sp, seqLength: 1024 * t, microBatchSize: 1 });
      for (const r of layout.regions)
        for (const x of r.tensors) for (const v of x.shardShape) assert.ok(Number.isInteger(v) && v > 0);
      assert.ok(layout.kvHeadsPerGpu * t >= a.numKvHeads);
      assert.ok(layout.kvReplication >= 1 && layout.kvReplication <= t);
      assert.equal(layout.kvReplication === 1, a.numKvHeads % t === 0);
    }),
  );
});

test("sequence parallelism re-gathers the stored shards in the backward pass: 10bsh(t−1)/t in all, 2 of it overlapped", async () => {
  const { tpSpCommElementsPerLayer, tpSpRegatherElementsPerLayer } = await import("../../src/model/tp-sharding.ts");
  // 6 all-gathers + 4 reduce-scatters of b·s·h, each (t−1)/t of the tensor per GPU.
  assert.equal(tpSpCommElementsPerLayer(1, 8192, 8192, 8), (10 * 8192 * 8192 * 7) / 8);
  assert.equal(tpSpRegatherElementsPerLayer(1, 8192, 8192, 8), (2 * 8192 * 8192 * 7) / 8);
  assert.equal(
    tpSpCommElementsPerLayer(1, 8192, 8192, 8) - tpSpRegatherElementsPerLayer(1, 8192, 8192, 8),
    tpCommElementsPerLayer(1, 8192, 8192, 8),
  );
  const a = arch("llama-3.1-70b");
  const sp = tpShardingLayout(a, { tp: 8, sequenceParallel: true, seqLength: 8192, microBatchSize: 1 });
  const tp = tpShardingLayout(a, { tp: 8, sequenceParallel: false, seqLength: 8192, microBatchSize: 1 });
  assert.equal(sp.spRegatherElementsPerLayer, tpSpRegatherElementsPerLayer(1, 8192, 8192, 8));
  assert.equal(tp.spRegatherElementsPerLayer, 0);
  assert.deepEqual(
    sp.boundaries.map((b) => b.backwardRegather === true),
    [true, false, true, false],
  );
  assert.ok(tp.boundaries.every((b) => !b.backwardRegather));
});
