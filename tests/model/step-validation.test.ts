import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { assertApprox } from "../helpers/approx.ts";
import {
  checkRunData,
  countParameters,
  evaluateInSample,
  fitKernelEfficiency,
  isAssumed,
  KERNEL_EFFICIENCY,
  bookConstantsGap,
  REFIT_THRESHOLD,
  layoutClass,
  leaveOneSourceOut,
  ModelInputError,
  findGpu,
  PUBLISHED_RUNS,
  PUBLISHED_FP8_RUNS,
  FP8_KERNEL_EFFICIENCY,
  fitFp8KernelEfficiency,
  fp8ConstantsGap,
  fp8LeaveOneSourceOut,
  predictRun,
  reportedMfu,
  rankingCheck,
  RUN_SOURCES,
  runArchitecture,
  sameModelGroup,
  summarizeErrors,
  validationReport,
  whatIfStudies,
} from "../../src/model/index.ts";

// The step model against published runs (src/data/published-runs.ts), judged out of sample
// (issue #50). The goal: a leave-one-source-out median of at most 15% and a worst of at most 50%,
// with no more fitted constants than one kernel efficiency per GPU generation. The model does not
// meet it (the appendix says why, with the breakdown); the recorded figures below are the ones the
// appendix prints, so any change to the model or the data that moves them fails here until the
// appendix is rewritten from the new figures.
const GOAL = { median: 0.15, worst: 0.5 };
const RECORDED = {
  fitted: { ampere: 0.57, hopper: 0.51 },
  book: { ampere: 0.57, hopper: 0.52 },
  inSample: { median: 0.1564, worst: 1.6215 },
  leaveOneSourceOut: { median: 0.2593, worst: 1.7241 },
};

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const scratch = mkdtempSync(join(tmpdir(), "validate-cli-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

const near = (actual: number, expected: number, what: string) =>
  assert.ok(Math.abs(actual - expected) < 5e-5, `${what}: ${actual} (recorded ${expected})`);

describe("the data set", () => {
  test("at least 100 runs from at least 6 sources, at least 4 of them with H100 runs; every run by a listed source", () => {
    assert.ok(PUBLISHED_RUNS.length >= 100, `${PUBLISHED_RUNS.length} runs`);
    const sources = new Set(PUBLISHED_RUNS.map((r) => r.source));
    assert.ok(sources.size >= 6, `${sources.size} sources`);
    const withH100 = [...sources].filter((s) => PUBLISHED_RUNS.some((r) => r.source === s && r.gpu === "h100-sxm"));
    assert.ok(withH100.length >= 4, withH100.join(", "));
    assert.deepEqual([...sources].sort(), RUN_SOURCES.map((s) => s.key).sort(), "every source has an inclusion rule");
    assert.equal(checkRunData(JSON.parse(JSON.stringify(PUBLISHED_RUNS))).length, PUBLISHED_RUNS.length);
  });

  test("every run names its software: framework, vintage and six fields, each with a source or marked assumed", () => {
    for (const r of PUBLISHED_RUNS) {
      const sw = r.software;
      assert.ok(sw.name.length > 0, r.id);
      for (const f of [
        sw.attentionKernel,
        sw.tpCommOverlap,
        sw.sequenceParallel,
        sw.dpOverlap,
        sw.recomputePolicy,
        sw.gradPrecision,
      ]) {
        assert.ok(f.source.length > 10, `${r.id}: ${JSON.stringify(f)}`);
      }
      if (r.layout.tp === 1) assert.equal(sw.sequenceParallel.value, false, `${r.id}: no SP without TP`);
    }
    // The runs of 2021-22 computed the whole score matrix; none of them is marked causal-skipping.
    const early = [
      "narayanan2021efficient",
      "korthikanti2023reducing",
      "smith2022megatronturing",
      "bigscience2022bloom",
      "zhang2022opt",
    ];
    for (const r of PUBLISHED_RUNS.filter((x) => early.includes(x.source)))
      assert.equal(r.software.attentionKernel.value, "full", r.id);
    assert.ok(PUBLISHED_RUNS.some((r) => isAssumed(r.software.gradPrecision)));
  });

  test("MosaicML's NumParams column equals the exact parameter count of every row's configuration", () => {
    const rows = PUBLISHED_RUNS.filter((r) => r.publishedParameters !== undefined);
    assert.equal(rows.length, 209);
    for (const r of rows) assert.equal(countParameters(runArchitecture(r)).total, r.publishedParameters, r.id);
  });

  test("the configurations read the gpt2, llama and nemotron families the runs use", () => {
    const families = new Set(PUBLISHED_RUNS.map((r) => runArchitecture(r).family));
    assert.deepEqual([...families].sort(), ["gpt2", "llama", "nemotron"]);
  });
});

describe("the errors, in and out of sample", () => {
  const report = validationReport();

  test("the fit: two constants, one kernel efficiency per generation with runs", () => {
    assert.deepEqual(fitKernelEfficiency(), RECORDED.fitted);
    assert.equal(report.fitted.constants, 2);
  });

  test("the model's constants stay within the refit threshold of the fit; Blackwell takes Hopper's", () => {
    // Every chapter, widget and exercise reads KERNEL_EFFICIENCY; the appendix prints the fit. Once a
    // change to the data or the model puts the book's constants more than REFIT_THRESHOLD of median
    // error behind the fit, this fails until the constants (and the prose computed from them) follow.
    assert.deepEqual({ ampere: KERNEL_EFFICIENCY.ampere, hopper: KERNEL_EFFICIENCY.hopper }, RECORDED.book);
    const gaps = bookConstantsGap();
    for (const [generation, g] of Object.entries(gaps)) {
      assert.ok(g.gap >= -1e-12, `${generation}: the fit is the grid minimum`);
      assert.ok(g.gap <= REFIT_THRESHOLD, `${generation}: ${(100 * g.gap).toFixed(2)} points behind the fit`);
    }
    assert.equal(KERNEL_EFFICIENCY.blackwell, KERNEL_EFFICIENCY.hopper, "Blackwell: Hopper's value, an assumption");
  });

  test("in sample and leave one source out: the figures the appendix prints", () => {
    near(report.inSample.median, RECORDED.inSample.median, "in-sample median");
    near(report.inSample.worst, RECORDED.inSample.worst, "in-sample worst");
    near(report.leaveOneSourceOut.median, RECORDED.leaveOneSourceOut.median, "LOSO median");
    near(report.leaveOneSourceOut.worst, RECORDED.leaveOneSourceOut.worst, "LOSO worst");
    // Out of sample is worse than in sample, as it must be for a fit that is not a tautology.
    assert.ok(report.leaveOneSourceOut.median > report.inSample.median);
  });

  test("the goal is not met, and the appendix says so: this fails once it is, so the note can be removed", () => {
    const met = report.leaveOneSourceOut.median <= GOAL.median && report.leaveOneSourceOut.worst <= GOAL.worst;
    assert.equal(met, false);
  });

  test("leave one source out predicts each source with constants fitted without it", () => {
    const held = leaveOneSourceOut();
    assert.equal(held.length, PUBLISHED_RUNS.length);
    const mosaic = PUBLISHED_RUNS.filter((r) => r.source !== "mosaicml2023benchmarks");
    const fit = fitKernelEfficiency(mosaic);
    const heldMosaic = held.find((e) => e.run.source === "mosaicml2023benchmarks" && e.generation === "hopper");
    assert.ok(heldMosaic);
    assert.equal(heldMosaic.kernelEfficiency, fit.hopper);
    assert.notEqual(fit.hopper, RECORDED.fitted.hopper);
  });

  test("the breakdowns cover every run once, by generation and by layout class", () => {
    const sum = (xs: { runs: number }[]) => xs.reduce((a, x) => a + x.runs, 0);
    assert.equal(sum(report.byGeneration), PUBLISHED_RUNS.length);
    assert.equal(sum(report.byLayout), PUBLISHED_RUNS.length);
    assert.equal(sum(report.bySource), PUBLISHED_RUNS.length);
    assert.equal(report.byGeneration.find((g) => g.generation === "blackwell")?.runs, 0);
    assert.equal(report.byLayout.find((g) => g.layout === "MoE")?.runs, 0);
    for (const g of report.byGeneration.filter((x) => x.runs > 0)) {
      const own = evaluateInSample().filter((e) => e.generation === g.generation);
      assert.equal(g.inSample?.median, summarizeErrors(own).median);
    }
    assert.equal(layoutClass(PUBLISHED_RUNS.find((r) => r.id === "grattafiori2024-405b-16384-131072")!), "with CP");
  });

  test("what would close the gap: a slower attention kernel and one efficiency per framework family", () => {
    const [attention, framework, both] = whatIfStudies();
    assert.ok(attention && framework && both);
    assert.ok(attention.leaveOneSourceOut.median < report.leaveOneSourceOut.median);
    assert.ok(framework.leaveOneSourceOut.worst < report.leaveOneSourceOut.worst);
    assert.equal(framework.constants, 4);
    assert.ok(both.leaveOneSourceOut.median <= GOAL.median, `${both.leaveOneSourceOut.median}`);
    assert.ok(both.leaveOneSourceOut.worst > GOAL.worst, `${both.leaveOneSourceOut.worst}`);
  });
});

// The fp8 group (issue #52): the sources' fp8 rows, held apart from the bf16 runs and the two bf16
// constants, fitting the fp8 linear layers' efficiency. The recorded figures are the appendix's.
const RECORDED_FP8 = {
  runs: 52,
  fitted: { hopper: 0.38 },
  inSample: { median: 0.0766, worst: 1.9295 },
  leaveOneSourceOut: { median: 0.2434, worst: 2.0168 },
};

describe("the fp8 group", () => {
  const report = validationReport();

  test("every run has a precision; the fp8 runs carry their recipe, each field with a source or marked assumed", () => {
    for (const r of PUBLISHED_RUNS) {
      assert.equal(r.precision, "bf16", r.id);
      assert.equal(r.fp8, undefined, r.id);
    }
    assert.equal(PUBLISHED_FP8_RUNS.length, RECORDED_FP8.runs);
    const ids = new Set([...PUBLISHED_RUNS, ...PUBLISHED_FP8_RUNS].map((r) => r.id));
    assert.equal(ids.size, PUBLISHED_RUNS.length + PUBLISHED_FP8_RUNS.length, "ids unique across both groups");
    assert.equal(checkRunData(JSON.parse(JSON.stringify(PUBLISHED_FP8_RUNS))).length, PUBLISHED_FP8_RUNS.length);
    for (const r of PUBLISHED_FP8_RUNS) {
      assert.equal(r.precision, "fp8", r.id);
      assert.ok(r.fp8, r.id);
      for (const f of [r.fp8.library, r.fp8.scaling, r.fp8.layers, r.fp8.headInFp8, r.fp8.sourceMfuPeak])
        assert.ok(f.source.length > 10, `${r.id}: ${JSON.stringify(f)}`);
      // The step model prices the head in bf16; no source says its head ran in fp8.
      assert.equal(r.fp8.headInFp8.value, false, r.id);
      assert.notEqual(findGpu(r.gpu)?.fp8FlopsPerSecond ?? null, null, `${r.id}: an fp8-capable GPU`);
      assert.ok(RUN_SOURCES.find((s) => s.key === r.source)?.fp8Inclusion, `${r.id}: its source has an fp8 rule`);
    }
    // The MFU conventions the sources print: fp8 peak for NeMo, MosaicML and torchtitan's 405B table; none for the H100 benchmark.
    const peak = (source: string) =>
      new Set(PUBLISHED_FP8_RUNS.filter((r) => r.source === source).map((r) => r.fp8!.sourceMfuPeak.value));
    assert.deepEqual([...peak("nvidia2024dgxcbenchmarking")], ["fp8"]);
    assert.deepEqual([...peak("mosaicml2023benchmarks")], ["fp8"]);
    assert.deepEqual([...peak("pytorch2024torchtitanperf")], ["fp8"]);
    assert.deepEqual([...peak("pytorch2024torchtitanh100")], ["none"]);
  });

  test("the reported throughput is converted against the bf16 peak: the sources' fp8-peak MFU doubled, where they print one", () => {
    // NeMo's Llama 3.1 8B fp8 table on 8 GPUs prints 39.63% against 1,979 TFLOP/s (its own FLOP count).
    const nemo = PUBLISHED_FP8_RUNS.find((r) => r.id === "dgxc-llama31-8b-fp8-8")!;
    const bf16 = PUBLISHED_RUNS.find((r) => r.id === "dgxc-llama31-8b-8")!;
    // Same FLOP count on both sides: the MFU ratio is the step-time ratio the tables print (12.91 s against 9.67 s).
    assertApprox(reportedMfu(nemo) / reportedMfu(bf16), 12.91 / 9.67, { rel: 1e-12 });
    assert.ok(reportedMfu(nemo) > 0.5 && reportedMfu(nemo) < 1, `${reportedMfu(nemo)}: about twice 39.63%`);
  });

  test("the fit: one fp8 constant, reproduced by FP8_KERNEL_EFFICIENCY within the refit threshold", () => {
    assert.deepEqual(fitFp8KernelEfficiency(), RECORDED_FP8.fitted);
    assert.deepEqual(report.fp8?.fitted.fp8KernelEfficiency, RECORDED_FP8.fitted);
    const gaps = fp8ConstantsGap();
    assert.ok(gaps.hopper);
    assert.ok(gaps.hopper.gap >= -1e-12 && gaps.hopper.gap <= REFIT_THRESHOLD, `${gaps.hopper.gap}`);
    assert.equal(FP8_KERNEL_EFFICIENCY.hopper, report.fp8?.fitted.book.hopper);
  });

  test("in sample and leave one source out: the figures the appendix prints; the bf16 report is untouched", () => {
    const f = report.fp8!;
    assert.equal(f.runs, RECORDED_FP8.runs);
    near(f.inSample.median, RECORDED_FP8.inSample.median, "fp8 in-sample median");
    near(f.inSample.worst, RECORDED_FP8.inSample.worst, "fp8 in-sample worst");
    near(f.leaveOneSourceOut.median, RECORDED_FP8.leaveOneSourceOut.median, "fp8 LOSO median");
    near(f.leaveOneSourceOut.worst, RECORDED_FP8.leaveOneSourceOut.worst, "fp8 LOSO worst");
    assert.ok(f.leaveOneSourceOut.median > f.inSample.median);
    assert.equal(report.runs, PUBLISHED_RUNS.length, "the bf16 report counts the bf16 runs only");
    assert.equal(
      f.bySource.reduce((a, x) => a + x.runs, 0),
      PUBLISHED_FP8_RUNS.length,
    );
    // The split the appendix describes: NVIDIA's runs predicted low when held out, MosaicML's and
    // torchtitan's H100 benchmark runs high.
    const held = fp8LeaveOneSourceOut();
    const sign = (source: string) =>
      new Set(held.filter((e) => e.run.source === source).map((e) => Math.sign(e.relativeError)));
    assert.deepEqual([...sign("nvidia2024dgxcbenchmarking")], [-1]);
    assert.deepEqual([...sign("mosaicml2023benchmarks")], [1]);
    assert.deepEqual([...sign("pytorch2024torchtitanh100")], [1]);
  });

  test("leave one source out refits both constants without the held-out source", () => {
    const held = fp8LeaveOneSourceOut();
    assert.equal(held.length, PUBLISHED_FP8_RUNS.length);
    const nvidia = held.find((e) => e.run.source === "nvidia2024dgxcbenchmarking")!;
    const bf16Fit = fitKernelEfficiency(PUBLISHED_RUNS.filter((r) => r.source !== "nvidia2024dgxcbenchmarking"));
    assert.equal(nvidia.kernelEfficiency, bf16Fit.hopper);
    const fp8Fit = fitFp8KernelEfficiency(
      PUBLISHED_FP8_RUNS.filter((r) => r.source !== "nvidia2024dgxcbenchmarking"),
      bf16Fit,
    );
    assert.equal(nvidia.fp8KernelEfficiency, fp8Fit.hopper);
    assert.notEqual(fp8Fit.hopper, RECORDED_FP8.fitted.hopper);
    // An fp8 run predicted in bf16 is slower: the fp8 path is what the group exercises.
    const run = nvidia.run;
    assert.ok(predictRun({ ...run, precision: "bf16" }).stepSeconds > predictRun(run).stepSeconds);
  });

  test("a data file's fp8 runs form its fp8 group; a bad precision is refused, naming the run", () => {
    const file = PUBLISHED_FP8_RUNS.filter((r) => r.source === "pytorch2024torchtitanperf");
    const mixed = validationReport([
      ...PUBLISHED_RUNS.filter((r) => r.source === "megatronlm2024weakscaling"),
      ...file,
    ]);
    assert.equal(mixed.runs, 9);
    assert.equal(mixed.fp8?.runs, 2);
    const raw = JSON.parse(JSON.stringify(PUBLISHED_RUNS.slice(0, 1)));
    delete raw[0].precision;
    assert.equal(checkRunData(raw)[0]!.precision, "bf16", "a file's run without precision is bf16");
    raw[0].precision = "fp16";
    assert.throws(
      () => checkRunData(raw),
      (e: unknown) => e instanceof ModelInputError && e.field === "precision" && e.message.includes(raw[0].id),
    );
  });
});

describe("ranking: does the model order runs of one model as the measurements do", () => {
  // A hand-made group of three runs of one model: reported MFUs 0.50, 0.40 and 0.399, predicted
  // 0.45, 0.46 and 0.30. Pairs: (1, 2) separated by 20% and misordered (predicted 0.45 < 0.46, a
  // difference of 2%, not a tie at 1%); (1, 3) separated and ordered right; (2, 3) a near-tie of
  // 0.25%, ordered right but not counted as separated.
  const [a, b, c] = evaluateInSample().filter((e) => e.run.source === "pytorch2024torchtitanperf");
  assert.ok(a && b && c);
  const fake = (e: typeof a, reportedMfu: number, predictedMfu: number) => ({
    ...e,
    run: { ...e.run, model: "one model", seqLength: 4096 },
    reportedMfu,
    predictedMfu,
  });
  const group = [fake(a, 0.5, 0.45), fake(b, 0.4, 0.46), fake(c, 0.399, 0.3)];

  test("counts every pair in a group, the separated ones apart, and the misordered ones among them", () => {
    const r = rankingCheck(group, { group: (run) => run.model });
    assert.deepEqual(
      { ...r, wrongPairs: r.wrongPairs.length },
      { pairs: 3, agree: 2, separated: 2, separatedWrong: 1, separatedWrongTies: 0, wrongPairs: 1 },
    );
    assert.deepEqual(r.wrongPairs, [[a.run.id, b.run.id]]);
    // A wider tie makes the misordered pair one the model cannot tell apart; a wider gap drops it.
    assert.equal(rankingCheck(group, { group: (run) => run.model, tie: 0.05 }).separatedWrongTies, 1);
    assert.equal(rankingCheck(group, { group: (run) => run.model, minGap: 0.3 }).separated, 0);
  });

  test("runs of different groups are never paired, and bad fractions are refused", () => {
    assert.equal(rankingCheck(group, { group: (run) => run.id }).pairs, 0);
    assert.throws(
      () => rankingCheck(group, { minGap: 1 }),
      (e: unknown) => e instanceof ModelInputError && e.field === "minGap",
    );
    assert.throws(
      () => rankingCheck(group, { tie: -0.1 }),
      (e: unknown) => e instanceof ModelInputError && e.field === "tie",
    );
  });

  test("the default group keeps a proxy apart from the released model, and the data's ranking is far from perfect", () => {
    const proxy = PUBLISHED_RUNS.find((r) => r.proxy !== undefined);
    const full = PUBLISHED_RUNS.find(
      (r) => r.source === proxy?.source && r.model === proxy.model && r.proxy === undefined,
    );
    assert.ok(proxy && full);
    assert.notEqual(sameModelGroup(proxy), sameModelGroup(full));
    const r = rankingCheck(evaluateInSample());
    assert.ok(r.separated > 0 && r.separatedWrong > 0 && r.separatedWrong < r.separated, JSON.stringify(r));
  });
});

describe("bad data is refused, naming the run", () => {
  const base = () => JSON.parse(JSON.stringify(PUBLISHED_RUNS.slice(0, 2))) as Record<string, unknown>[];
  const refuses = (runs: unknown, field: string, pattern: RegExp) =>
    assert.throws(
      () => checkRunData(runs),
      (e: unknown) => e instanceof ModelInputError && e.field === field && pattern.test(e.message),
    );

  test("a missing field", () => {
    const runs = base();
    delete runs[1]!.seqLength;
    refuses(runs, "seqLength", /run narayanan2021-3-6b has no "seqLength"/);
    const noSoftware = base();
    delete (noSoftware[0]!.software as Record<string, unknown>).gradPrecision;
    refuses(noSoftware, "software.gradPrecision", /run narayanan2021-1-7b/);
  });

  test("software outside the model's vocabulary", () => {
    const runs = base();
    (runs[0]!.software as Record<string, unknown>).framework = "jax";
    refuses(runs, "software.framework", /run narayanan2021-1-7b: "software.framework" must be one of megatron/);
    const kernel = base();
    (kernel[1]!.software as Record<string, Record<string, unknown>>).attentionKernel!.value = "sparse";
    refuses(kernel, "software.attentionKernel", /run narayanan2021-3-6b/);
  });

  test("a proxy mark that is not a sentence", () => {
    const runs = base();
    runs[0]!.proxy = 7;
    refuses(runs, "proxy", /run narayanan2021-1-7b: "proxy" must say where/);
  });

  test("an unknown source key", () => {
    const runs = base();
    runs[0]!.source = "nobody2099";
    refuses(runs, "source", /run narayanan2021-1-7b: unknown source key "nobody2099"/);
  });

  test("degrees that do not multiply to the GPU count", () => {
    const runs = base();
    (runs[1]!.layout as Record<string, number>).dp = 31;
    refuses(
      runs,
      "layout",
      /run narayanan2021-3-6b: tp × pp × cp × dp = 2 × 1 × 1 × 31 = 62, not its GPU count \(64\)/,
    );
  });
});

describe("npm run -s model -- validate", () => {
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, ["--import", "tsx", "src/cli/model.ts", "validate", ...args], {
      cwd: root,
      encoding: "utf8",
    });

  test("prints runs, sources with their GPUs, and the errors in and out of sample with the breakdowns", () => {
    const r = cli();
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.runs, PUBLISHED_RUNS.length);
    assert.deepEqual(out.sources.find((s: { key: string }) => s.key === "mosaicml2023benchmarks").gpus.sort(), [
      "a100-sxm-40gb",
      "a100-sxm-80gb",
      "h100-sxm",
    ]);
    near(out.leaveOneSourceOut.median, RECORDED.leaveOneSourceOut.median, "CLI LOSO median");
    assert.equal(out.fp8.runs, PUBLISHED_FP8_RUNS.length);
    near(out.fp8.leaveOneSourceOut.median, RECORDED_FP8.leaveOneSourceOut.median, "CLI fp8 LOSO median");
    assert.deepEqual(Object.keys(out.inSample).sort(), ["median", "worst", "worstRun"]);
    assert.deepEqual(
      out.byLayout.map((b: { layout: string }) => b.layout),
      ["DP/FSDP only", "TP+DP", "TP+PP+DP", "with CP", "MoE"],
    );
  });

  test("a data file: its own runs, and the errors at the book's fitted efficiencies", () => {
    const file = join(scratch, "runs.json");
    const runs = JSON.parse(JSON.stringify(PUBLISHED_RUNS.filter((x) => x.source === "megatronlm2024weakscaling")));
    for (const x of runs) x.source = "held2025";
    writeFileSync(file, JSON.stringify({ sources: [{ key: "held2025", name: "Held back" }], runs }));
    const r = cli(file);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.runs, 9);
    assert.deepEqual(out.atBookEfficiencies.kernelEfficiency, { ...RECORDED.book, blackwell: RECORDED.book.hopper });
  });

  test("refuses a bad data file in one line naming the run", () => {
    const file = join(scratch, "bad.json");
    const runs = JSON.parse(JSON.stringify(PUBLISHED_RUNS.slice(0, 1)));
    runs[0].gpuCount = 33;
    writeFileSync(file, JSON.stringify(runs));
    const r = cli(file);
    assert.equal(r.status, 1);
    assert.equal(r.stdout, "");
    assert.match(
      r.stderr.trim(),
      /^error: run narayanan2021-1-7b: tp × pp × cp × dp = 1 × 1 × 1 × 32 = 32, not its GPU count \(33\) \[field: layout\]$/,
    );
  });
});
