/**
 * One scenario, one number, in every tool (issues #49 and #52). A grid of training jobs (presets
 * from src/data/models.ts including a mixture of experts, four GPU types, layouts with TP, PP, CP,
 * EP and every ZeRO stage, under each framework profile that runs them) is evaluated by every tool
 * that reports memory, fit or step time, and each must report what the engine (evaluateScenario)
 * reports, to the byte and to the second:
 * - the memory explorer's view of the same state (src/figures/memory-explorer/view.ts);
 * - the configuration finder's row for that layout (searchConfigurations), priced with the row's
 *   own stage split, or no row exactly when the engine says the layout fits under none of the
 *   splits the finder tries or the batch does not split;
 * - the overlap calculator's step (src/figures/overlap-calculator-state.ts);
 * - the CLI, `npm run model -- memory/step … --framework` (src/cli/model.ts).
 * A layout the engine refuses must be refused by the explorer and the CLI too, naming a field.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  evaluateScenario,
  findGpu,
  findModelPreset,
  ModelInputError,
  searchConfigurations,
  stageSplits,
  type ConfigSearchResult,
  type Evaluation,
  type FrameworkId,
  type Recompute,
  type Scenario,
  type ZeroStage,
  defaultReshardAfterForward,
} from "../../src/model/index.ts";
import { frameworkStages, gbShown } from "../../src/figures/kit/scenario.ts";
import { computeMemoryView } from "../../src/figures/memory-explorer/view.ts";
import { readMemoryControls, controlValuesOf } from "../../src/figures/memory-explorer/controls.ts";
import type { MemoryExplorerState } from "../../src/figures/memory-explorer/state.ts";
import { computeOverlap } from "../../src/figures/overlap-calculator-state.ts";
import { configFinderDefaults, explorerStateOf, runConfigFinder } from "../../src/figures/config-finder.ts";
import { runCliBatch } from "../helpers/cli-batch.ts";

const MODELS = ["llama-3.2-1b", "llama-3.1-8b", "llama-3.1-70b", "mixtral-8x7b"] as const;
const GPUS = ["h100-sxm", "a100-sxm-80gb", "h200-sxm", "b200"] as const;
const FRAMEWORKS: readonly FrameworkId[] = ["megatron", "ddp", "fsdp2", "deepspeed"];
const GPU_COUNT = 32;
const SEQ = 4096;
const BATCH = 256;
/** (tp, pp, cp, ep); dp is what the 32 GPUs leave. */
const SHAPES: ReadonlyArray<readonly [number, number, number, number]> = [
  [1, 1, 1, 1],
  [2, 1, 1, 1],
  [8, 1, 1, 1],
  [4, 2, 1, 1],
  [2, 2, 2, 1],
  [1, 4, 1, 1],
  [1, 1, 4, 1],
  [2, 1, 1, 8],
  [1, 2, 1, 4],
];
const RECOMPUTE: readonly Recompute[] = ["none", "selective", "full"];

interface Case {
  name: string;
  model: string;
  gpu: string;
  framework: FrameworkId;
  tp: number;
  pp: number;
  cp: number;
  ep: number;
  dp: number;
  zero: ZeroStage;
  b: number;
  m: number;
  recompute: Recompute;
}

function scenarioOf(c: Case, stageLayers?: number[]): Scenario {
  return {
    model: c.model,
    cluster: { gpu: c.gpu, gpuCount: GPU_COUNT },
    framework: c.framework,
    layout: { tp: c.tp, pp: c.pp, cp: c.cp, ep: c.ep, dp: c.dp, zeroStage: c.zero, stageLayers },
    batch: { seqLength: SEQ, microBatchSize: c.b, globalBatch: BATCH },
    recompute: c.recompute,
  };
}

function explorerState(c: Case): MemoryExplorerState {
  return {
    preset: c.model,
    config: null,
    gpu: c.gpu,
    framework: c.framework,
    seqLength: SEQ,
    microBatch: c.b,
    recompute: c.recompute,
    attention: "flash",
    zero: c.zero,
    reshard: defaultReshardAfterForward(c.framework, c.pp),
    dp: c.dp,
    tp: c.tp,
    sp: c.tp > 1,
    pp: c.pp,
    split: "even",
    schedule: "1f1b",
    microbatches: c.m,
    chunks: 2,
    cp: c.cp,
    ep: c.ep,
  };
}

function cliArgs(c: Case): { memory: string[]; step: string[] } {
  const common = ["--tp", c.tp, "--pp", c.pp, "--cp", c.cp, "--ep", c.ep, "--dp", c.dp, "--zero", c.zero];
  const shared = [...common, "--recompute", c.recompute, "--framework", c.framework].map(String);
  return {
    memory: [
      "memory",
      c.model,
      "--gpu",
      c.gpu,
      "--seq",
      String(SEQ),
      "--micro-batch",
      String(c.b),
      "--microbatches",
      String(c.m),
      ...(c.tp > 1 ? ["--sp"] : []),
      ...shared,
    ],
    step: [
      "step",
      c.model,
      "--gpu",
      c.gpu,
      "--gpus",
      String(GPU_COUNT),
      "--seq",
      String(SEQ),
      "--micro-batch",
      String(c.b),
      "--global-batch",
      String(BATCH),
      ...shared,
    ],
  };
}

/** The grid: every model × GPU × shape × framework stage, with recomputation and micro-batch size varying along it. */
function grid(): Case[] {
  const out: Case[] = [];
  let i = 0;
  for (const [mi, model] of MODELS.entries()) {
    const moe = findModelPreset(model)!.config.num_local_experts !== undefined;
    for (const [gi, gpu] of GPUS.entries()) {
      for (const [tp, pp, cp, ep] of SHAPES) {
        if (ep > 1 && !moe) continue;
        // Half the shapes on each GPU, so the grid stays a few hundred jobs.
        if ((mi + gi + tp + pp + cp) % 2 === 1 && !(tp === 1 && pp === 1 && cp === 1)) continue;
        for (const framework of FRAMEWORKS) {
          for (const zero of frameworkStages(framework)) {
            const dp = GPU_COUNT / (tp * pp * cp);
            const b = i % 4 === 3 ? 2 : 1;
            const m = BATCH / (dp * b);
            out.push({
              name: `${model} ${gpu} ${framework} ZeRO-${zero} tp${tp} pp${pp} cp${cp} ep${ep} dp${dp} b${b} ${RECOMPUTE[i % 3]}`,
              model,
              gpu,
              framework,
              tp,
              pp,
              cp,
              ep,
              dp,
              zero,
              b,
              m,
              recompute: RECOMPUTE[i % 3]!,
            });
            i++;
          }
        }
      }
    }
  }
  return out;
}

function evaluate(c: Case): Evaluation | ModelInputError {
  try {
    return evaluateScenario(scenarioOf(c));
  } catch (e) {
    if (e instanceof ModelInputError) return e;
    throw e;
  }
}

describe("one scenario, one number in every tool", () => {
  const cases = grid();
  const results = cases.map(evaluate);
  const valid = cases.filter((_, i) => !(results[i] instanceof ModelInputError));
  const evaluations = new Map(valid.map((c) => [c.name, results[cases.indexOf(c)] as Evaluation]));

  test("the grid: at least 200 jobs the engine evaluates, over every model, GPU, framework and ZeRO stage", (t) => {
    assert.ok(valid.length >= 200, `only ${valid.length} valid jobs of ${cases.length}`);
    t.diagnostic(`${valid.length} jobs the engine evaluates, ${cases.length - valid.length} it refuses`);
    for (const model of MODELS)
      assert.ok(
        valid.some((c) => c.model === model),
        model,
      );
    for (const gpu of GPUS)
      assert.ok(
        valid.some((c) => c.gpu === gpu),
        gpu,
      );
    for (const f of FRAMEWORKS)
      for (const z of frameworkStages(f))
        assert.ok(
          valid.some((c) => c.framework === f && c.zero === z),
          `${f} ZeRO-${z}`,
        );
    for (const dim of ["tp", "pp", "cp", "ep"] as const)
      assert.ok(
        valid.some((c) => c[dim] > 1),
        dim,
      );
    assert.ok(valid.some((c) => evaluations.get(c.name)!.fits) && valid.some((c) => !evaluations.get(c.name)!.fits));
  });

  test("the memory explorer shows the engine's bytes, GB and verdict; it refuses what the engine refuses", () => {
    for (const [i, c] of cases.entries()) {
      const e = results[i]!;
      const state = explorerState(c);
      if (e instanceof ModelInputError) {
        const r = readMemoryControls(controlValuesOf(state));
        assert.equal(r.ok, false, `${c.name}: the explorer accepted what the engine refused (${e.message})`);
        continue;
      }
      const view = computeMemoryView(state);
      assert.equal(view.evaluation.bytesPerGpu, e.bytesPerGpu, c.name);
      assert.deepEqual(view.memory.perGpu, e.memory.perGpu, c.name);
      assert.equal(view.verdict.gb, gbShown(e.bytesPerGpu), c.name);
      assert.equal(view.verdict.kind === "fits", e.fits, c.name);
      assert.equal(view.budget.usableBytes, e.budget.usableBytes, c.name);
    }
  });

  test("the configuration finder's row for each layout has the engine's GB per GPU and step time; it has none exactly when the engine says it cannot run", (t) => {
    const searches = new Map<string, ConfigSearchResult>();
    const search = (c: Case) => {
      const key = `${c.model} ${c.gpu} ${c.framework}`;
      let r = searches.get(key);
      if (!r) {
        r = searchConfigurations({
          config: findModelPreset(c.model)!.config,
          gpu: findGpu(c.gpu)!,
          gpuCount: GPU_COUNT,
          seqLength: SEQ,
          globalBatchSequences: BATCH,
          framework: c.framework,
          microBatchSizes: [1, 2],
        });
        searches.set(key, r);
      }
      return r;
    };
    let rows = 0;
    let trimmedRows = 0;
    for (const c of valid) {
      const e = evaluations.get(c.name)!;
      const row = search(c).ranked.find(
        (r) =>
          r.dp === c.dp &&
          r.tp === c.tp &&
          r.pp === c.pp &&
          r.cp === c.cp &&
          r.ep === c.ep &&
          r.zeroStage === c.zero &&
          r.recompute === c.recompute &&
          r.microBatchSize === c.b,
      );
      // The finder prices each stage split it tries with its own layers and ranks the layout when
      // one of them fits.
      const layers = e.memory.setup.stageLayers.reduce((a, n) => a + n, 0);
      const splits = stageSplits(layers, c.pp).map((split) => evaluateScenario(scenarioOf(c, split)));
      const runs = splits.some((x) => x.fits) && c.m >= c.pp && !(c.zero > 0 && c.dp * c.cp === 1);
      assert.equal(
        row !== undefined,
        runs,
        `${c.name}: finder row ${row ? "present" : "absent"}, engine fits ${e.fits}`,
      );
      if (!row) continue;
      rows++;
      assert.equal(row.framework, c.framework);
      assert.equal(row.microbatches, c.m);
      const withSplit = evaluateScenario(scenarioOf(c, row.stageLayers));
      assert.equal(row.memoryBytes, withSplit.bytesPerGpu, `${c.name}: the row's memory is its split's`);
      assert.ok(withSplit.fits, c.name);
      assert.equal(row.stepSeconds, withSplit.step.stepSeconds, c.name);
      assert.equal(row.mfu, withSplit.step.mfu, c.name);
      // The ranked split is the fastest of those that fit.
      for (const x of splits)
        if (x.fits) assert.ok(row.stepSeconds <= x.step.stepSeconds, `${c.name}: a faster split fits`);
      if (row.stageLayers.length > 1 && row.stageLayers[0] !== e.memory.setup.stageLayers[0]) trimmedRows++;
    }
    assert.ok(rows >= 50, `only ${rows} finder rows compared`);
    assert.ok(trimmedRows > 0, "some rows rank the trimmed split");
    t.diagnostic(
      `${rows} finder rows compared (${trimmedRows} with the trimmed split), ${valid.length - rows} layouts without a row, each one the engine says does not fit under any split tried or whose batch does not split over its pipeline`,
    );
  });

  test("the overlap calculator's step is the engine's step", (t) => {
    let compared = 0;
    for (const c of valid) {
      if (c.ep > 1 || c.recompute !== "none") continue; // the calculator has neither control
      const r = computeOverlap({
        model: c.model,
        gpu: c.gpu,
        framework: c.framework,
        tp: c.tp,
        pp: c.pp,
        dp: c.dp,
        cp: c.cp,
        zeroStage: c.zero,
        microBatchSize: c.b,
        seqLength: SEQ,
        microbatches: c.m,
      });
      assert.ok(r.ok, `${c.name}: ${r.ok ? "" : r.message}`);
      if (!r.ok) continue;
      const e = evaluations.get(c.name)!;
      assert.equal(r.evaluation.step.stepSeconds, e.step.stepSeconds, c.name);
      assert.equal(r.evaluation.bytesPerGpu, e.bytesPerGpu, c.name);
      const exposed = r.rows.reduce((a, row) => a + row.exposedSeconds, 0);
      const expected =
        e.step.dpTransfers.reduce((a, t) => a + t.exposedSeconds, 0) + e.step.breakdown.tp + e.step.breakdown.pp;
      assert.ok(
        Math.abs(exposed - expected) <= 1e-12 * Math.max(1, expected),
        `${c.name}: exposed ${exposed} vs ${expected}`,
      );
      compared++;
    }
    assert.ok(compared >= 40, `only ${compared} compared`);
    t.diagnostic(`${compared} overlap-calculator steps compared`);
  });

  test("the CLI (memory and step with --framework) prints the engine's bytes, budget, verdict and step time", () => {
    const runs = cases.flatMap((c) => {
      const a = cliArgs(c);
      return [a.memory, a.step];
    });
    const out = runCliBatch(runs);
    for (const [i, c] of cases.entries()) {
      const e = results[i]!;
      const memory = out[2 * i]!;
      const step = out[2 * i + 1]!;
      if (e instanceof ModelInputError) {
        assert.equal(step.status, 1, `${c.name}: the CLI step accepted what the engine refused (${e.message})`);
        assert.match(step.stderr, /^error: .* \[field: \w+\]\n$/, c.name);
        continue;
      }
      assert.equal(memory.status, 0, `${c.name}: ${memory.stderr}`);
      assert.equal(step.status, 0, `${c.name}: ${step.stderr}`);
      const m = JSON.parse(memory.stdout) as {
        perGpu: { total: number };
        fits: boolean;
        budget: { usableBytes: number };
      };
      const s = JSON.parse(step.stdout) as {
        stepSeconds: number;
        mfu: number;
        memoryPerGpu: { total: number };
        fits: boolean;
      };
      assert.equal(m.perGpu.total, e.bytesPerGpu, c.name);
      assert.equal(m.fits, e.fits, c.name);
      assert.equal(m.budget.usableBytes, e.budget.usableBytes, c.name);
      assert.equal(s.stepSeconds, e.step.stepSeconds, c.name);
      assert.equal(s.mfu, e.step.mfu, c.name);
      assert.equal(s.memoryPerGpu.total, e.bytesPerGpu, c.name);
      assert.equal(s.fits, e.fits, c.name);
    }
  });

  test("chapter 8's finder case: every row shown is the engine's scenario, and its memory-explorer state has the same GB", () => {
    const r = runConfigFinder(configFinderDefaults);
    for (const row of r.ranked.slice(0, 5)) {
      const e = evaluateScenario({
        model: configFinderDefaults.model,
        cluster: { gpu: configFinderDefaults.gpu, gpuCount: configFinderDefaults.gpuCount },
        framework: row.framework,
        layout: {
          tp: row.tp,
          pp: row.pp,
          cp: row.cp,
          ep: row.ep,
          dp: row.dp,
          zeroStage: row.zeroStage,
          stageLayers: row.stageLayers,
        },
        batch: {
          seqLength: configFinderDefaults.seqLength,
          microBatchSize: row.microBatchSize,
          globalBatch: configFinderDefaults.globalBatch,
        },
        recompute: row.recompute,
      });
      assert.equal(row.memoryBytes, e.bytesPerGpu);
      assert.equal(row.stepSeconds, e.step.stepSeconds);
      const view = computeMemoryView(explorerStateOf(configFinderDefaults, row));
      assert.equal(view.evaluation.bytesPerGpu, e.bytesPerGpu);
      assert.deepEqual(view.memory.setup.stageLayers, row.stageLayers);
    }
  });
});
