import assert from "node:assert/strict";
import { test } from "node:test";
import {
  evaluateScenario,
  findGpu,
  memoryBudget,
  ModelInputError,
  PLANNING_MEMORY_FRACTION,
  stepTime,
  trainingMemory,
  type Scenario,
} from "../../src/model/index.ts";

const base: Scenario = {
  model: "llama-3.1-70b",
  cluster: { gpu: "h100-sxm", gpuCount: 64 },
  framework: "megatron",
  layout: { tp: 8, zeroStage: 1 },
  batch: { seqLength: 4096, microBatchSize: 1, globalBatch: 64 },
};

test("evaluateScenario(): the step model's result and the memory of every stage under the same setup", () => {
  const e = evaluateScenario(base);
  const direct = stepTime({
    config: e.architecture,
    gpu: "h100-sxm",
    gpuCount: 64,
    tp: 8,
    zeroStage: 1,
    seqLength: 4096,
    microBatchSize: 1,
    globalBatch: 64,
    framework: "megatron",
  });
  assert.equal(e.step.stepSeconds, direct.stepSeconds);
  assert.equal(e.bytesPerGpu, direct.memory!.total);
  assert.equal(e.memory.perGpu.total, trainingMemory(e.architecture, direct.memorySetup).perGpu.total);
  assert.equal(e.framework, "megatron");
  assert.equal(e.step.layout.gradReduce, "fp32");
});

test("evaluateScenario(): one usable-memory budget, named, decides fits", () => {
  const e = evaluateScenario(base);
  const h100 = findGpu("h100-sxm")!;
  assert.deepEqual(e.budget, memoryBudget(h100));
  assert.equal(e.budget.usableBytes, h100.hbmBytes * PLANNING_MEMORY_FRACTION);
  assert.equal(e.budget.label, "72.0 GB usable of 80 GB (90%)");
  assert.equal(e.fits, e.bytesPerGpu <= e.budget.usableBytes);
  // Megatron-LM's distributed optimizer with TP 8 and d = 8: 6 + 12/8 bytes per parameter on 70B / 8.
  const small = evaluateScenario({
    ...base,
    layout: { tp: 8, pp: 4, zeroStage: 1 },
    batch: { ...base.batch, globalBatch: 64 },
  });
  assert.equal(small.fits, true);
});

test("evaluateScenario(): bandwidth comes from placement; a bigger NIC count speeds a spanning group", () => {
  const zero3: Scenario = {
    ...base,
    framework: "fsdp2",
    layout: { zeroStage: 3 },
    cluster: { gpu: "h100-sxm", gpuCount: 64 },
  };
  const eight = evaluateScenario(zero3);
  const two = evaluateScenario({ ...zero3, cluster: { gpu: "h100-sxm", gpuCount: 64, nicsPerServer: 2 } });
  assert.ok(two.step.breakdown.dp >= eight.step.breakdown.dp);
  assert.equal(eight.cluster.nicsPerServer, 8);
  assert.equal(two.cluster.nicsPerServer, 2);
});

test("evaluateScenario(): an impossible scenario is refused with one sentence naming the field", () => {
  const refuses = (s: Scenario, field: string, pattern: RegExp) =>
    assert.throws(
      () => evaluateScenario(s),
      (e: unknown) =>
        e instanceof ModelInputError && e.field === field && pattern.test(e.message) && !/NaN/.test(e.message),
    );
  refuses({ ...base, layout: { tp: 8, dp: 4 } }, "gpuCount", /must equal the GPU count \(64\)/);
  refuses({ ...base, layout: { tp: 16 } }, "tp", /larger than one NVLink domain/);
  refuses({ ...base, framework: "jax" as never }, "framework", /unknown framework "jax"/);
  refuses({ ...base, layout: { tp: 8, zeroStage: 3 } }, "zeroStage", /does not run ZeRO stage 3/);
  refuses({ ...base, framework: "ddp", layout: { tp: 8, zeroStage: 0 } }, "framework", /replicates the whole model/);
  refuses({ ...base, framework: "deepspeed", layout: { pp: 4, zeroStage: 3 } }, "pp", /pipeline engine/);
  refuses({ ...base, model: "no-such-model" }, "model", /unknown model "no-such-model"/);
  refuses({ ...base, cluster: { gpu: "v100", gpuCount: 64 } }, "gpu", /unknown GPU "v100"/);
});

test("evaluateScenario(): each framework's default ZeRO stage is the lowest it runs", () => {
  const run = (framework: Scenario["framework"], layout: Scenario["layout"]) =>
    evaluateScenario({ ...base, framework, layout }).step.layout.zeroStage;
  assert.equal(run("megatron", { tp: 8 }), 0);
  assert.equal(run("ddp", {}), 0);
  assert.equal(run("fsdp2", {}), 3);
  assert.equal(run("deepspeed", {}), 1);
});
