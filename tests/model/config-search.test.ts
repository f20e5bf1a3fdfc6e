import { test } from "node:test";
import assert from "node:assert/strict";
import {
  evaluateScenario,
  findGpu,
  findModelPreset,
  modelFlopsPerToken,
  ModelInputError,
  searchConfigurations,
  trainingMemory,
  groupBandwidth,
  stepTime,
  CONFIG_SEARCH_EXCLUSIONS,
  evaluateLayout,
} from "../../src/model/index.ts";
import { assertApprox } from "../helpers/approx.ts";

const h100 = findGpu("h100-sxm")!;
const llama8b = findModelPreset("llama-3.1-8b")!.config;
const llama70b = findModelPreset("llama-3.1-70b")!.config;

test("every ranked configuration uses all GPUs, reaches the batch, fits, and is sorted by step time", () => {
  const r = searchConfigurations({
    config: llama70b,
    gpu: h100,
    gpuCount: 64,
    seqLength: 4096,
    globalBatchSequences: 256,
  });
  assert.ok(r.ranked.length > 0);
  assert.equal(r.ranked.length + r.ruledOutBatch + r.ruledOutMemory, r.configsTried);
  for (const c of r.ranked) {
    assert.equal(c.dp * c.tp * c.pp * c.cp, 64);
    assert.equal(c.dp * c.microBatchSize * c.microbatches, 256);
    assert.ok(c.microbatches >= c.pp);
    assert.ok(c.memoryBytes <= 0.9 * 80e9);
    const sum =
      c.computeSeconds +
      c.bubbleSeconds +
      c.exposedSeconds.tp +
      c.exposedSeconds.cp +
      c.exposedSeconds.ep +
      c.exposedSeconds.pp +
      c.exposedSeconds.dp;
    assertApprox(sum, c.stepSeconds, { rel: 1e-12 });
    assert.ok(c.mfu > 0 && c.mfu < 1);
  }
  for (let i = 1; i < r.ranked.length; i++) assert.ok(r.ranked[i - 1].stepSeconds <= r.ranked[i].stepSeconds);
});

test("memory of a ranked configuration is trainingMemory's peak stage under its own stage split", () => {
  const r = searchConfigurations({
    config: llama70b,
    gpu: h100,
    gpuCount: 64,
    seqLength: 4096,
    globalBatchSequences: 256,
  });
  for (const c of r.ranked.slice(0, 10)) {
    const m = trainingMemory(llama70b, {
      seqLength: 4096,
      microBatchSize: c.microBatchSize,
      dp: c.dp,
      tp: c.tp,
      sequenceParallel: c.tp > 1,
      pp: c.pp,
      cp: c.cp,
      ep: c.ep,
      zeroStage: c.zeroStage,
      recompute: c.recompute,
      microbatches: c.microbatches,
      framework: c.framework,
      stageLayers: c.stageLayers,
    });
    assert.equal(c.memoryBytes, m.perGpu.total);
  }
});

test("each ranked configuration is the step model's prediction for its layout and stage split", () => {
  const r = searchConfigurations({
    config: llama70b,
    gpu: h100,
    gpuCount: 64,
    seqLength: 4096,
    globalBatchSequences: 256,
  });
  for (const c of r.ranked.slice(0, 20)) {
    const p = stepTime({
      config: llama70b,
      gpu: h100,
      gpuCount: 64,
      tp: c.tp,
      pp: c.pp,
      cp: c.cp,
      ep: c.ep,
      dp: c.dp,
      zeroStage: c.zeroStage,
      recompute: c.recompute,
      seqLength: 4096,
      microBatchSize: c.microBatchSize,
      globalBatch: 256,
      stageLayers: c.stageLayers,
      framework: c.framework,
      includeMemory: false,
    });
    assertApprox(p.stepSeconds, c.stepSeconds, { rel: 1e-12 });
    assert.equal(p.mfu, c.mfu);
    const mfu = (256 * 4096 * modelFlopsPerToken(llama70b, 4096).total) / (c.stepSeconds * 64 * 989.4e12);
    assertApprox(c.mfu, mfu, { abs: 1e-12 });
  }
});

test("pipeline layouts try the split with one layer fewer on each end stage and keep the faster", () => {
  const r = searchConfigurations({
    config: llama70b,
    gpu: h100,
    gpuCount: 64,
    seqLength: 4096,
    globalBatchSequences: 256,
  });
  const pp = r.ranked.filter((c) => c.pp > 1);
  assert.ok(pp.length > 0);
  for (const c of pp) {
    assert.equal(c.stageLayers.length, c.pp);
    assert.equal(
      c.stageLayers.reduce((a, x) => a + x, 0),
      80,
    );
    assert.ok(c.stageImbalance >= 1);
  }
  assert.ok(
    pp.some((c) => c.stageLayers[0] < c.stageLayers[1]),
    "some ranked split trims the first stage",
  );
});

test("each stage split is priced with its own layers: a trimmed split that fits ranks where the even one does not, with its own GB per GPU", () => {
  // Chapter 8's case (Llama 3.1 70B, 256 H100s, 8,192 tokens, 512 sequences) without CP or ZeRO
  // above stage 1: the fastest row is DP 16, TP 4, PP 4 with 19/21/21/19 layers. With 20 layers
  // per stage its first stage needs more than the 72 GB budget; one layer fewer there fits.
  const input = {
    config: llama70b,
    gpu: h100,
    gpuCount: 256,
    seqLength: 8192,
    globalBatchSequences: 512,
    maxCp: 1,
    maxZeroStage: 1,
  };
  const r = searchConfigurations(input);
  const top = r.ranked[0]!;
  assert.deepEqual(
    [top.dp, top.tp, top.pp, top.cp, top.zeroStage, top.microBatchSize, top.recompute],
    [16, 4, 4, 1, 1, 1, "none"],
  );
  assert.deepEqual(top.stageLayers, [19, 21, 21, 19]);
  const setup = {
    seqLength: 8192,
    tp: 4,
    sequenceParallel: true,
    pp: 4,
    dp: 16,
    zeroStage: 1 as const,
    microbatches: 32,
    framework: top.framework,
  };
  const trimmed = trainingMemory(llama70b, { ...setup, stageLayers: [19, 21, 21, 19] });
  const even = trainingMemory(llama70b, setup);
  assert.deepEqual(even.setup.stageLayers, [20, 20, 20, 20]);
  assert.equal(top.memoryBytes, trimmed.perGpu.total);
  assert.ok(top.memoryBytes <= r.memoryLimitBytes);
  assert.ok(even.perGpu.total > r.memoryLimitBytes, "the even split does not fit");
  // The first stage is the fullest under both splits: trimming drops one layer there, one layer's
  // parameters (a twentieth of an even middle stage's) and 4 microbatches of that layer's activations.
  assert.equal(even.peakStage, 0);
  assert.equal(trimmed.peakStage, 0);
  assert.equal(even.stages[0].layerCount - trimmed.stages[0].layerCount, 1);
  assert.equal(even.stages[0].parameterCount - trimmed.stages[0].parameterCount, even.stages[1].parameterCount / 20);
  assert.equal(even.stages[0].inFlightMicrobatches, 4);
  assert.equal(
    even.stages[0].activationDetail.layers - trimmed.stages[0].activationDetail.layers,
    even.stages[0].activationDetail.layers / 20,
  );
  // A named layout goes through the same pricing: it fits, with the trimmed split.
  const named = evaluateLayout(input, {
    tp: 4,
    pp: 4,
    cp: 1,
    ep: 1,
    zeroStage: 1,
    microBatchSize: 1,
    recompute: "none",
  });
  assert.ok(named.ok);
  if (named.ok) {
    assert.equal(named.fits, true);
    assert.deepEqual(named.config, top);
  }
  // With micro-batch 2 neither split fits: the named layout reports the split that needs the least.
  const big = evaluateLayout(input, { tp: 4, pp: 4, cp: 1, ep: 1, zeroStage: 1, microBatchSize: 2, recompute: "none" });
  assert.ok(big.ok);
  if (big.ok) {
    assert.equal(big.fits, false);
    const need = (stageLayers?: number[]) =>
      trainingMemory(llama70b, { ...setup, microBatchSize: 2, microbatches: 16, stageLayers }).perGpu.total;
    assert.equal(big.config.memoryBytes, Math.min(need(), need([19, 21, 21, 19])));
    assert.ok(big.config.memoryBytes > r.memoryLimitBytes);
  }
});

test("ZeRO-2 and ZeRO-3 are combined with pipeline parallelism (DeepSpeed's restriction is not the search's)", () => {
  const r = searchConfigurations({
    config: llama70b,
    gpu: h100,
    gpuCount: 64,
    seqLength: 4096,
    globalBatchSequences: 256,
  });
  assert.ok(r.ranked.some((c) => c.pp > 1 && c.zeroStage >= 2));
  assert.match(CONFIG_SEARCH_EXCLUSIONS, /DeepSpeed/);
});

test("one GPU: Llama 3.1 8B does not fit at 80 GB without sharding, so nothing is ranked", () => {
  const r = searchConfigurations({ config: llama8b, gpu: h100, gpuCount: 1, seqLength: 4096, globalBatchSequences: 8 });
  // 8.03e9 parameters × 16 bytes = 128 GB of model state alone.
  assert.equal(r.ranked.length, 0);
  assert.equal(r.ruledOutMemory, r.configsTried - r.ruledOutBatch);
});

test("a global batch smaller than the data-parallel degree rules layouts out", () => {
  const r = searchConfigurations({
    config: llama8b,
    gpu: h100,
    gpuCount: 16,
    seqLength: 4096,
    globalBatchSequences: 4,
  });
  for (const c of r.ranked) assert.ok(c.dp <= 4);
  assert.ok(r.ruledOutBatch > 0);
});

test("groups within a node use NVLink, larger ones the inter-node bandwidth", () => {
  assert.equal(groupBandwidth(8, 1, 8, 450e9, 50e9), 450e9);
  assert.equal(groupBandwidth(2, 8, 8, 450e9, 50e9), 50e9);
  assert.equal(groupBandwidth(4, 2, 8, 450e9, 50e9), 450e9);
});

test("invalid input throws ModelInputError naming the field", () => {
  for (const [field, patch] of [
    ["gpuCount", { gpuCount: 0 }],
    ["gpuCount", { gpuCount: 2.5 }],
    ["seqLength", { seqLength: -1 }],
    ["globalBatchSequences", { globalBatchSequences: Number.NaN }],
    ["computeEfficiency", { computeEfficiency: 1.5 }],
  ] as const) {
    assert.throws(
      () =>
        searchConfigurations({
          ...{ config: llama8b, gpu: h100, gpuCount: 8, seqLength: 4096, globalBatchSequences: 64 },
          ...patch,
        }),
      (e: unknown) => e instanceof ModelInputError && e.field === field,
    );
  }
});

test("every ranked row's memory is the engine's for that row (FSDP2 under a pipeline keeps its weights gathered)", () => {
  const r = searchConfigurations({
    config: llama70b,
    gpu: h100,
    gpuCount: 64,
    seqLength: 4096,
    globalBatchSequences: 256,
  });
  const rows = r.ranked.filter((c) => c.framework === "fsdp2" && c.pp > 1).slice(0, 10);
  assert.ok(rows.length > 0, "the search ranks FSDP2 rows with a pipeline");
  for (const c of [...rows, ...r.ranked.slice(0, 10)]) {
    const e = evaluateScenario({
      model: llama70b,
      cluster: { gpu: "h100-sxm", gpuCount: 64 },
      framework: c.framework,
      layout: { tp: c.tp, pp: c.pp, cp: c.cp, ep: c.ep, dp: c.dp, zeroStage: c.zeroStage, stageLayers: c.stageLayers },
      batch: { seqLength: 4096, microBatchSize: c.microBatchSize, globalBatch: 256 },
      recompute: c.recompute,
    });
    assert.equal(c.memoryBytes, e.bytesPerGpu, `${c.framework} tp ${c.tp} pp ${c.pp} cp ${c.cp} zero ${c.zeroStage}`);
    assert.equal(c.stepSeconds, e.step.stepSeconds);
  }
});

test("constraints: every ranked row keeps within maxTp, maxPp, maxCp, maxEp and maxZeroStage", () => {
  const mixtral = findModelPreset("mixtral-8x7b")!.config;
  const base = { config: mixtral, gpu: h100, gpuCount: 64, seqLength: 4096, globalBatchSequences: 256 };
  const free = searchConfigurations(base);
  assert.ok(
    free.ranked.some((c) => c.ep > 2) && free.ranked.some((c) => c.cp > 1) && free.ranked.some((c) => c.pp > 2),
  );
  const r = searchConfigurations({ ...base, maxTp: 4, maxPp: 2, maxCp: 1, maxEp: 2, maxZeroStage: 1 });
  assert.ok(r.ranked.length > 0);
  for (const c of r.ranked) assert.ok(c.tp <= 4 && c.pp <= 2 && c.cp === 1 && c.ep <= 2 && c.zeroStage <= 1);
  assert.ok(r.configsTried < free.configsTried);
  for (const [field, patch] of [
    ["maxPp", { maxPp: 0 }],
    ["maxCp", { maxCp: 1.5 }],
    ["maxEp", { maxEp: -2 }],
    ["maxZeroStage", { maxZeroStage: 4 }],
    ["gpusPerServer", { cluster: { gpusPerServer: 0 } }],
    ["nicBusBytesPerSecond", { cluster: { nicBusBytesPerSecond: -1 } }],
  ] as const) {
    assert.throws(
      () => searchConfigurations({ ...base, ...patch }),
      (e: unknown) => e instanceof ModelInputError && e.field === field,
      field,
    );
  }
});

test("cluster overrides reach the step model as the CLI passes them (step --gpus-per-server, --nics-per-server)", () => {
  const cluster = { gpusPerServer: 4, nvlinkDomain: 4, nicsPerServer: 2, nicBusBytesPerSecond: 12.5e9 };
  const r = searchConfigurations({
    config: llama70b,
    gpu: h100,
    gpuCount: 64,
    seqLength: 4096,
    globalBatchSequences: 256,
    cluster,
  });
  assert.ok(r.ranked.length > 0);
  for (const c of r.ranked.slice(0, 10)) {
    assert.ok(c.tp <= 4, "TP stays inside the NVLink domain by default");
    const e = evaluateScenario({
      model: llama70b,
      cluster: { gpu: "h100-sxm", gpuCount: 64, ...cluster },
      framework: c.framework,
      layout: { tp: c.tp, pp: c.pp, cp: c.cp, ep: c.ep, dp: c.dp, zeroStage: c.zeroStage, stageLayers: c.stageLayers },
      batch: { seqLength: 4096, microBatchSize: c.microBatchSize, globalBatch: 256 },
      recompute: c.recompute,
    });
    assert.equal(c.stepSeconds, e.step.stepSeconds);
  }
});

test("evaluateLayout: a ranked row evaluates to itself; a layout that does not divide or run is answered with the reason", () => {
  const input = { config: llama70b, gpu: h100, gpuCount: 64, seqLength: 4096, globalBatchSequences: 256 };
  const r = searchConfigurations(input);
  for (const c of [r.ranked[0]!, r.ranked[25]!]) {
    const e = evaluateLayout(input, {
      dp: c.dp,
      tp: c.tp,
      pp: c.pp,
      cp: c.cp,
      ep: c.ep,
      zeroStage: c.zeroStage,
      microBatchSize: c.microBatchSize,
      recompute: c.recompute,
      framework: c.framework,
    });
    assert.ok(e.ok);
    if (e.ok) {
      assert.deepEqual(e.config, c);
      assert.equal(e.fits, true);
      assert.deepEqual(e.outside, []);
    }
  }
  const named = { tp: 1, pp: 1, cp: 1, ep: 1, zeroStage: 1 as const, microBatchSize: 1, recompute: "none" as const };
  for (const [layout, field] of [
    [{ ...named, tp: 3 }, "tp"],
    [{ ...named, dp: 4 }, "dp"],
    [{ ...named, ep: 2 }, "ep"],
    [{ ...named, pp: 128 }, "tp"],
    [{ ...named, pp: 2, microBatchSize: 8, dp: 32 }, "microBatchSize"],
    [{ ...named, pp: 2, zeroStage: 2 as const, framework: "deepspeed" as const }, "framework"],
  ] as const) {
    const e = evaluateLayout(input, layout);
    assert.equal(e.ok, false, JSON.stringify(layout));
    if (!e.ok) assert.equal(e.field, field, e.reason);
  }
  // Outside the search's settings, still evaluated: TP 8 above a limit of 4.
  const e = evaluateLayout({ ...input, maxTp: 4 }, { ...named, tp: 8, pp: 2 });
  assert.ok(e.ok);
  if (e.ok) assert.deepEqual(e.outside, ["TP above 4"]);
  assert.throws(
    () => evaluateLayout(input, { ...named, tp: 0 }),
    (x: unknown) => x instanceof ModelInputError && x.field === "tp",
  );
});

test("precision fp8: each row is the step model's fp8 prediction, memory unchanged; an A100 refuses it", () => {
  const input = { config: llama8b, gpu: h100, gpuCount: 16, seqLength: 4096, globalBatchSequences: 64 };
  const bf16 = searchConfigurations(input);
  const fp8 = searchConfigurations({ ...input, precision: "fp8" });
  assert.equal(fp8.ranked.length, bf16.ranked.length, "memory is priced as bf16: the same rows fit");
  const top = fp8.ranked[0]!;
  assert.ok(top.stepSeconds < bf16.ranked[0]!.stepSeconds);
  const step = stepTime({
    config: llama8b,
    gpu: h100,
    gpuCount: 16,
    tp: top.tp,
    pp: top.pp,
    cp: top.cp,
    ep: top.ep,
    dp: top.dp,
    zeroStage: top.zeroStage,
    recompute: top.recompute,
    seqLength: 4096,
    microBatchSize: top.microBatchSize,
    globalBatch: 64,
    framework: top.framework,
    stageLayers: top.stageLayers,
    precision: "fp8",
    includeMemory: false,
  });
  assertApprox(top.stepSeconds, step.stepSeconds, { rel: 1e-12 });
  assert.equal(top.mfu, step.mfu);
  const same = bf16.ranked.find(
    (c) =>
      c.dp === top.dp &&
      c.tp === top.tp &&
      c.pp === top.pp &&
      c.cp === top.cp &&
      c.zeroStage === top.zeroStage &&
      c.recompute === top.recompute &&
      c.microBatchSize === top.microBatchSize &&
      c.framework === top.framework,
  )!;
  assert.equal(top.memoryBytes, same.memoryBytes);
  for (const [gpu, precision] of [
    [findGpu("a100-sxm-80gb")!, "fp8"],
    [h100, "fp16"],
  ] as const)
    assert.throws(
      () => searchConfigurations({ ...input, gpu, precision: precision as "fp8" }),
      (e: unknown) => e instanceof ModelInputError && e.field === "precision",
    );
});
