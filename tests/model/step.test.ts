import assert from "node:assert/strict";
import { test } from "node:test";
import {
  balancedStageLayers,
  extrasHeld,
  findInterconnect,
  frameworkLayout,
  trainingMemory,
  findModelPreset,
  FP8_KERNEL_EFFICIENCY,
  GPUS,
  ModelInputError,
  stepTime,
  type StepInput,
} from "../../src/model/index.ts";
import { assertApprox } from "../helpers/approx.ts";

// A tiny GPT: h = 64, a = 4 (d = 16), L = 2, V = 100, s = 16. Hand counts:
// layer matmul parameters (weights and biases, no norms) = 4h² + 4h + 8h² + 5h = 49,728; head V·h = 6,400.
// Attention forward per token per layer 2·s·a·(d + d) = 4,096 FLOPs, half of it computed under the causal mask.
const tiny = { model_type: "gpt2", n_embd: 64, n_head: 4, n_layer: 2, vocab_size: 100, n_positions: 16 };
const base: StepInput = {
  config: tiny,
  gpu: "h100-sxm",
  gpuCount: 1,
  seqLength: 16,
  microBatchSize: 1,
  globalBatch: 1,
  kernelEfficiency: 0.5,
};
const PEAK = 989.4e12;

test("stepTime() on one GPU: compute is 3 × (2N + causal attention) per token plus the head, at η × peak", () => {
  const r = stepTime(base);
  const perToken = 2 * 3 * (2 * 49_728 + 2_048) + 3 * 2 * 6_400; // 647,424 FLOPs
  const expected = (16 * perToken) / (PEAK * 0.5);
  assertApprox(r.breakdown.compute, expected, { rel: 1e-12 });
  for (const k of ["bubble", "tp", "cp", "pp", "ep", "dp", "recompute"] as const) assert.equal(r.breakdown[k], 0, k);
  // Adam: 32 bytes per parameter owned (2 layers of 49,984 with norms + the 6,400 embedding) at HBM speed.
  assertApprox(r.breakdown.optimizer, ((2 * 49_984 + 6_400) * 32) / 3350e9, { abs: 1e-18 });
  const sum = Object.values(r.breakdown).reduce((a, x) => a + x, 0);
  assert.equal(r.stepSeconds, sum);
  assert.equal(r.tokensPerSecondPerGpu, 16 / r.stepSeconds);
});

test("stepTime(): MFU counts attention whole while the GPU computes half of it under the causal mask", () => {
  const r = stepTime(base);
  const modelFlops = 16 * (6 * (2 * 49_728 + 6_400) + 3 * 2 * 4_096);
  assertApprox(r.mfu, modelFlops / (r.stepSeconds * PEAK), { abs: 1e-12 });
  const full = stepTime({ ...base, causalAttention: false });
  assert.ok(full.breakdown.compute > r.breakdown.compute);
});

test("stepTime(): recomputation adds one attention forward (selective) or one layer forward (full)", () => {
  const none = stepTime(base);
  const selective = stepTime({ ...base, recompute: "selective" });
  const full = stepTime({ ...base, recompute: "full" });
  const rate = PEAK * 0.5;
  assertApprox(selective.breakdown.recompute, (16 * 2 * 2_048) / rate, { abs: 1e-18 });
  assertApprox(full.breakdown.recompute, (16 * 2 * (2 * 49_728 + 2_048)) / rate, { abs: 1e-18 });
  assert.equal(none.breakdown.recompute, 0);
});

test("stepTime(): the slowest pipeline stage sets the pace, and the bubble is (p − 1)/v of its time", () => {
  const r = stepTime({ ...base, gpuCount: 2, pp: 2, globalBatch: 4 });
  assert.equal(r.slowestStage, 1, "the last stage carries the LM head");
  assert.ok(r.stageImbalance > 1);
  const tMax = r.stages[1].total;
  assertApprox(r.breakdown.bubble, tMax, { abs: 1e-18 });
  assertApprox(r.breakdown.compute, 4 * r.stages[1].compute, { abs: 1e-18 });
  const v2 = stepTime({
    ...base,
    config: { ...tiny, n_layer: 4 },
    gpuCount: 2,
    pp: 2,
    globalBatch: 4,
    schedule: "interleaved",
    chunks: 2,
  });
  assertApprox(v2.breakdown.bubble, v2.stages[v2.slowestStage].total / 2, { abs: 1e-18 });
});

test("balancedStageLayers() moves layers off the end stages (Llama 3's 126 layers over 16 stages)", () => {
  assert.deepEqual(balancedStageLayers(126, 16, 1), [7, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 7]);
  assert.deepEqual(balancedStageLayers(80, 4, 0), [20, 20, 20, 20]);
});

test("stepTime(): ZeRO-1's parameter all-gather hides behind the next step's first forward pass", () => {
  const r = stepTime({ ...base, gpuCount: 8, dp: 8, globalBatch: 8, zeroStage: 1 });
  const gather = r.dpTransfers.find((t) => t.name.includes("first forward"));
  assert.ok(gather);
  assertApprox(gather.windowSeconds, r.stages[0].compute / 3, { abs: 1e-18 });
  const scatter = r.dpTransfers.find((t) => t.name.includes("reduce-scatter"));
  assert.ok(scatter);
  assertApprox(scatter.windowSeconds, (2 * r.stages[0].compute) / 3, { abs: 1e-18 });
});

test("stepTime(): bf16 gradient reduction moves half the bytes of fp32", () => {
  const fp32 = stepTime({ ...base, gpuCount: 8, dp: 8, globalBatch: 8, zeroStage: 1, gradReduce: "fp32" });
  const bf16 = stepTime({ ...base, gpuCount: 8, dp: 8, globalBatch: 8, zeroStage: 1, gradReduce: "bf16" });
  const bytes = (r: typeof fp32) => r.dpTransfers.find((t) => t.name.includes("reduce-scatter"))!.messageBytes;
  assert.equal(bytes(fp32), 2 * bytes(bf16));
});

test("stepTime(): an in-node all-reduce uses the measured NVLS bus bandwidth (480 GB/s), 370 GB/s without it", () => {
  const input = { ...base, gpuCount: 8, dp: 8, globalBatch: 8, zeroStage: 0 as const };
  const nvls = stepTime(input).dpTransfers[0];
  const ring = stepTime({ ...input, nvls: false }).dpTransfers[0];
  const alpha = 2 * 7 * 3e-6;
  assertApprox(nvls.secondsPerCall, alpha + (((2 * 7) / 8) * nvls.messageBytes) / 480e9, { abs: 1e-15 });
  assertApprox(ring.secondsPerCall, alpha + (((2 * 7) / 8) * ring.messageBytes) / 370e9, { abs: 1e-15 });
});

test("stepTime(): a data-parallel group with one rank per node runs at one NIC's bus bandwidth", () => {
  const r = stepTime({
    ...base,
    config: { ...tiny, n_head: 8 },
    gpuCount: 16,
    tp: 8,
    dp: 2,
    globalBatch: 2,
    zeroStage: 0,
  });
  const t = r.dpTransfers[0];
  const alpha = 2 * 1 * 8e-6;
  assertApprox(t.secondsPerCall, alpha + t.messageBytes / 45e9, { abs: 1e-15 });
});

test("stepTime(): ZeRO-3 gathers parameters every microbatch; FSDP without resharding gathers once", () => {
  const z3 = stepTime({ ...base, gpuCount: 8, dp: 8, globalBatch: 32, zeroStage: 3 });
  const noReshard = stepTime({
    ...base,
    gpuCount: 8,
    dp: 8,
    globalBatch: 32,
    zeroStage: 3,
    reshardAfterForward: false,
  });
  assert.equal(z3.microbatches, 4);
  // One unit per layer (2 layers) per microbatch, and the root unit (embedding, head) once per microbatch.
  assert.equal(z3.dpTransfers.find((t) => t.name.includes("(forward, one per layer)"))!.callsPerStep, 4 * 2);
  assert.equal(z3.dpTransfers.find((t) => t.name.startsWith("root unit"))!.callsPerStep, 4);
  assert.equal(noReshard.dpTransfers.find((t) => t.name.includes("first forward"))!.callsPerStep, 1);
});

test("stepTime(): each ZeRO-3 layer gather pays its ring latency, so 1,024 ranks cost more than 64 at equal work per GPU", () => {
  const cfg = findModelPreset("llama-3.1-70b")!.config;
  const run = (gpus: number) =>
    stepTime({
      config: cfg,
      gpu: "h100-sxm",
      gpuCount: gpus,
      seqLength: 4096,
      microBatchSize: 1,
      globalBatch: gpus,
      zeroStage: 3,
      includeMemory: false,
    });
  const small = run(64);
  const large = run(1024);
  const net = findInterconnect("h100-sxm")!;
  const gather = large.dpTransfers.find((t) => t.name.includes("(forward, one per layer)"))!;
  // 80 layers, one microbatch: 80 forward gathers, each paying 1,023 inter-node ring steps.
  assert.equal(gather.callsPerStep, 80);
  const small1 = small.dpTransfers.find((t) => t.name.includes("(forward, one per layer)"))!;
  assertApprox(gather.secondsPerCall - small1.secondsPerCall, (1023 - 63) * net.interNodeHopLatencySeconds, {
    rel: 0.02,
  });
  assert.ok(large.mfu < small.mfu, `MFU at 1,024 GPUs (${large.mfu}) should fall below 64 GPUs' (${small.mfu})`);
});

test("stepTime(): TP communication overlap hides each block's collectives behind its GEMMs, never below zero", () => {
  const cfg = findModelPreset("llama-3.1-70b")!.config;
  const input: StepInput = {
    config: cfg,
    gpu: "h100-sxm",
    gpuCount: 8,
    tp: 8,
    seqLength: 4096,
    microBatchSize: 1,
    globalBatch: 4,
    includeMemory: false,
  };
  const exposed = stepTime(input);
  const overlapped = stepTime({ ...input, tpCommOverlap: true });
  assert.ok(exposed.breakdown.tp > 0);
  assert.ok(overlapped.breakdown.tp >= 0 && overlapped.breakdown.tp < exposed.breakdown.tp);
  assert.equal(overlapped.breakdown.compute, exposed.breakdown.compute);
  assert.equal(overlapped.layout.tpCommOverlap, true);
  assert.throws(
    () => stepTime({ ...input, sequenceParallel: false, tpCommOverlap: true }),
    (e: unknown) => e instanceof ModelInputError && e.field === "tpCommOverlap",
  );
});

test("stepTime(): a framework profile sets the defaults and refuses a ZeRO stage it does not run", () => {
  const cfg = findModelPreset("llama-3.1-8b")!.config;
  const input: StepInput = {
    config: cfg,
    gpu: "h100-sxm",
    gpuCount: 16,
    seqLength: 4096,
    microBatchSize: 1,
    globalBatch: 16,
    zeroStage: 0,
  };
  const ddp = stepTime({ ...input, framework: "ddp" });
  assert.equal(ddp.layout.framework, "ddp");
  assert.equal(ddp.layout.gradReduce, "fp32");
  assert.throws(
    () => stepTime({ ...input, framework: "ddp", zeroStage: 3 }),
    (e: unknown) =>
      e instanceof ModelInputError && e.field === "zeroStage" && /does not run ZeRO stage 3/.test(e.message),
  );
  assert.throws(
    () => stepTime({ ...input, framework: "jax" as never }),
    (e: unknown) => e instanceof ModelInputError && e.field === "framework",
  );
  // Without overlap every DP byte is exposed; with it the backward hides some.
  const off = stepTime({ ...input, framework: "ddp", overlapGradReduce: false });
  assert.ok(off.breakdown.dp > ddp.breakdown.dp);
});

test("stepTime() refuses layouts that do not describe a run, naming the field", () => {
  const refuses = (input: StepInput, field: string, pattern: RegExp) =>
    assert.throws(
      () => stepTime(input),
      (e: unknown) => e instanceof ModelInputError && e.field === field && pattern.test(e.message),
    );
  refuses({ ...base, gpuCount: 8, tp: 2, dp: 2 }, "gpuCount", /must equal the GPU count \(8\)/);
  refuses({ ...base, gpuCount: 2, dp: 2, globalBatch: 3 }, "globalBatch", /multiple of dp × micro-batch/);
  refuses(
    { ...base, config: { ...tiny, n_layer: 3 }, gpuCount: 2, pp: 2, globalBatch: 2 },
    "pp",
    /must divide the number of layers \(3\)/,
  );
  refuses({ ...base, gpu: "v100" }, "gpu", /unknown GPU "v100"/);
  refuses({ ...base, gpuCount: 2, pp: 2, globalBatch: 2, stageLayers: [1, 2] }, "stageLayers", /sum to 3/);
});

test("stepTime(): hybrid sharding gathers inside the server and all-reduces the shard across servers", () => {
  const input: StepInput = {
    ...base,
    config: { ...tiny, n_layer: 2 },
    gpuCount: 16,
    dp: 16,
    globalBatch: 16,
    zeroStage: 3,
  };
  const flat = stepTime(input);
  const hsdp = stepTime({ ...input, hsdp: true });
  assert.equal(flat.dpTransfers[0].ranks, 16);
  assert.equal(hsdp.dpTransfers[0].ranks, 8);
  const cross = hsdp.dpTransfers.find((t) => t.name.includes("cross-node"));
  assert.ok(cross);
  assert.equal(cross.ranks, 2);
  assert.equal(cross.collective, "all-reduce");
});

test("stepTime(): expert parallelism adds exposed all-to-alls on MoE layers", () => {
  const mixtral = findModelPreset("mixtral-8x7b")!.config;
  const r = stepTime({
    config: mixtral,
    gpu: "h100-sxm",
    gpuCount: 64,
    tp: 8,
    dp: 8,
    ep: 8,
    seqLength: 4096,
    microBatchSize: 1,
    globalBatch: 64,
    includeMemory: false,
  });
  assert.ok(r.breakdown.ep > 0);
  const none = stepTime({
    config: mixtral,
    gpu: "h100-sxm",
    gpuCount: 64,
    tp: 8,
    dp: 8,
    seqLength: 4096,
    microBatchSize: 1,
    globalBatch: 64,
    includeMemory: false,
  });
  assert.equal(none.breakdown.ep, 0);
});

test("every GPU in gpus.ts has bandwidths and a kernel-efficiency generation, so the configuration finder can search it", () => {
  for (const g of GPUS) {
    assert.ok(findInterconnect(g.id), g.id);
    const r = stepTime({ ...base, gpu: g.id });
    assert.ok(r.stepSeconds > 0, g.id);
  }
});

test("stepTime(): FSDP2 without resharding gathers once per step under a pipeline, and per layer per microbatch without one", () => {
  const fsdp2 = { ...base, framework: "fsdp2" as const, zeroStage: 3 as const, reshardAfterForward: false };
  const flat = stepTime({ ...fsdp2, gpuCount: 8, dp: 8, globalBatch: 32 });
  assert.equal(flat.microbatches, 4);
  const forward = flat.dpTransfers.find((t) => t.name.includes("(forward, one per layer)"))!;
  assert.equal(forward.callsPerStep, 4 * 2);
  // The weights stay from the forward pass to the backward: the backward only reduce-scatters.
  const backward = flat.dpTransfers.find((t) => t.name.startsWith("gradient reduce-scatter, one per layer"))!;
  assert.equal(backward.callsPerStep, 4 * 2);
  assert.ok(!flat.dpTransfers.some((t) => t.name.includes("parameter all-gather (backward)")));
  const piped = stepTime({ ...fsdp2, gpuCount: 16, dp: 8, pp: 2, globalBatch: 32 });
  assert.equal(piped.dpTransfers.find((t) => t.name.includes("first forward"))!.callsPerStep, 1);
  // Memory: the accumulated unsharded fp32 gradients exist only under the pipeline.
  const stage0 = (pp: number) =>
    trainingMemory(tiny, { dp: 8, pp, zeroStage: 3, framework: "fsdp2", reshardAfterForward: false, seqLength: 16 })
      .stages[0]!;
  const layout = frameworkLayout("fsdp2", 3, "bf16", false).layout;
  assert.equal(extrasHeld(layout, 1).length, (layout.extra ?? []).length - 1);
  assert.equal(extrasHeld(layout, 2).length, (layout.extra ?? []).length);
  // fp32 gradient shards (4 bytes ÷ 8), plus, under the pipeline, the stage's whole fp32 accumulation (4 bytes).
  assertApprox(stage0(1).gradients, (4 / 8) * stage0(1).parameterCount, { rel: 1e-12 });
  assertApprox(stage0(2).gradients, (4 / 8 + 4) * stage0(2).parameterCount, { rel: 1e-12 });
});

// ---- fp8 ------------------------------------------------------------------------------------------

const FP8_PEAK = 1978.9e12;

test("stepTime() in fp8: the linear matmuls at η₈ × the fp8 peak, attention and the head at η × the bf16 peak", () => {
  const r = stepTime({ ...base, precision: "fp8", fp8KernelEfficiency: 0.4 });
  // Per token: linear 3 × 2 layers × 2 × 49,728; causal attention 3 × 2 layers × 2,048; head 3 × 2 × 6,400.
  const linear = 3 * 2 * 2 * 49_728;
  const attention = 3 * 2 * 2_048;
  const head = 3 * 2 * 6_400;
  const expected = 16 * (linear / (FP8_PEAK * 0.4) + (attention + head) / (PEAK * 0.5));
  assertApprox(r.breakdown.compute, expected, { rel: 1e-12 });
  assert.equal(r.layout.precision, "fp8");
  assert.equal(r.fp8KernelEfficiency, 0.4);
  assert.equal(r.kernelEfficiency, 0.5);
  // MFU stays against the bf16 peak; mfuFp8Peak divides the same FLOPs by the fp8 peak.
  const modelFlops = 16 * (6 * (2 * 49_728 + 6_400) + 3 * 2 * 4_096);
  assertApprox(r.mfu, modelFlops / (r.stepSeconds * PEAK), { rel: 1e-12 });
  assertApprox(r.mfuFp8Peak!, modelFlops / (r.stepSeconds * FP8_PEAK), { rel: 1e-12 });
  assert.equal(stepTime(base).mfuFp8Peak, null);
  assert.equal(stepTime(base).layout.precision, "bf16");
  assert.match(r.memoryNote ?? "", /fp8: memory per GPU priced as bf16/);
});

test("stepTime() in fp8: attention's matmuls, what selective recomputation repeats, are unchanged", () => {
  const bf16 = stepTime({ ...base, recompute: "selective" });
  const fp8 = stepTime({ ...base, recompute: "selective", precision: "fp8" });
  assert.ok(fp8.breakdown.recompute > 0);
  assertApprox(fp8.breakdown.recompute, bf16.breakdown.recompute, { rel: 1e-12 });
  assert.ok(fp8.breakdown.compute < bf16.breakdown.compute);
  // Full recomputation repeats the whole forward pass, linear layers included: it shrinks with them.
  const full = (precision: "bf16" | "fp8") => stepTime({ ...base, recompute: "full", precision }).breakdown.recompute;
  assert.ok(full("fp8") < full("bf16"));
});

test("stepTime() in fp8: a large dense model on H100 steps faster, at the fitted constant; communication is unchanged", () => {
  const run: StepInput = {
    config: findModelPreset("llama-3.1-70b")!.config,
    gpu: "h100-sxm",
    gpuCount: 64,
    tp: 8,
    pp: 1,
    zeroStage: 1,
    recompute: "selective",
    seqLength: 8192,
    microBatchSize: 1,
    globalBatch: 64,
    framework: "megatron",
  };
  const bf16 = stepTime(run);
  const fp8 = stepTime({ ...run, precision: "fp8" });
  assert.ok(fp8.stepSeconds < bf16.stepSeconds, `${fp8.stepSeconds} < ${bf16.stepSeconds}`);
  assert.ok(fp8.breakdown.compute < bf16.breakdown.compute);
  assert.equal(fp8.fp8KernelEfficiency, FP8_KERNEL_EFFICIENCY.hopper);
  assert.equal(fp8.breakdown.tp, bf16.breakdown.tp, "TP traffic priced in bf16 either way (no overlap here)");
  assert.equal(fp8.breakdown.dp, bf16.breakdown.dp);
  assert.ok(fp8.mfu > bf16.mfu, "the same model FLOPs in less time, over the same bf16 peak");
});

test("stepTime(): a GPU without fp8 tensor cores refuses fp8, and precision is bf16 or fp8", () => {
  for (const gpu of ["a100-sxm-80gb", "a100-sxm-40gb"]) {
    assert.throws(
      () => stepTime({ ...base, gpu, precision: "fp8" }),
      (e: unknown) => e instanceof ModelInputError && e.field === "precision" && /no fp8 tensor cores/.test(e.message),
    );
    assert.ok(stepTime({ ...base, gpu, precision: "bf16" }).stepSeconds > 0);
  }
  assert.throws(
    () => stepTime({ ...base, precision: "fp16" as "bf16" }),
    (e: unknown) => e instanceof ModelInputError && e.field === "precision",
  );
  assert.throws(
    () => stepTime({ ...base, precision: "fp8", fp8KernelEfficiency: 1.5 }),
    (e: unknown) => e instanceof ModelInputError && e.field === "fp8KernelEfficiency",
  );
  assert.equal(FP8_KERNEL_EFFICIENCY.ampere, null);
  assert.equal(FP8_KERNEL_EFFICIENCY.blackwell, FP8_KERNEL_EFFICIENCY.hopper, "Blackwell: Hopper's, an assumption");
});
