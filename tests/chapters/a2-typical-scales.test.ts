/**
 * Appendix on published runs (a2-typical-scales): the error tables, every row of the per-run table,
 * the inclusion rules, the runs left out and the misses quoted in the prose are recomputed from the
 * step model (src/model/step.ts, validation.ts) and the data set (src/data/published-runs.ts).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  countParameters,
  EXCLUDED_RUNS,
  evaluateInSample,
  findGpu,
  findModelPreset,
  layoutClass,
  modelFlopsPerToken,
  rankingCheck,
  runArchitecture,
  stepShares,
  fitKernelEfficiency,
  KERNEL_EFFICIENCY,
  bookConstantsGap,
  REFIT_THRESHOLD,
  leaveOneSourceOut,
  PUBLISHED_RUNS,
  RUN_SOURCES,
  stepTime,
  validationReport,
  whatIfStudies,
  FP8_KERNEL_EFFICIENCY,
  PUBLISHED_FP8_RUNS,
  fp8Pairs,
  fp8LeaveOneSourceOut,
  fitFp8KernelEfficiency,
  summarizeErrors,
} from "../../src/model/index.ts";
import { assertMentions, readChapter } from "../helpers/chapter-text.ts";
import { pct1, runRow } from "./a2-rows.ts";
import { assertApprox } from "../helpers/approx.ts";

const text = readChapter("a2-typical-scales");
/** A run's config as an object (a preset id resolved through models.ts). */
const runArchitectureConfig = (r: (typeof PUBLISHED_RUNS)[number]) =>
  typeof r.config === "string" ? findModelPreset(r.config)!.config : r.config;
const report = validationReport();
const inSample = evaluateInSample();
const held = leaveOneSourceOut();

test("the appendix leads with the held-out figures, then the in-sample ones, and states the goal", () => {
  const heldOut = `the median miss is ${pct1(report.leaveOneSourceOut.median)} of the reported MFU and the worst ${pct1(report.leaveOneSourceOut.worst)}`;
  const inSampleText = `misses by a median of ${pct1(report.inSample.median)} and at worst ${pct1(report.inSample.worst)}`;
  assertMentions(text, heldOut, "held-out lead");
  assertMentions(text, inSampleText, "in-sample after");
  const flat = text.replace(/\s+/g, " ");
  assert.ok(flat.indexOf(heldOut) < flat.indexOf(inSampleText), "held-out figures first");
  assertMentions(text, "a held-out median within 15% and a worst within 50%. It meets neither", "goal");
  assert.ok(report.leaveOneSourceOut.median > 0.15 || report.leaveOneSourceOut.worst > 0.5, "the goal is not met");
  assertMentions(
    text,
    `for each of ${PUBLISHED_RUNS.length} training runs from ${RUN_SOURCES.length} sources`,
    "counts",
  );
});

test("the error table: overall, by generation and by layout class, in sample and held out", () => {
  type Errors = { median: number; worst: number } | null;
  const row = (label: string, runs: number, s: { inSample: Errors; leaveOneSourceOut: Errors }) => {
    const i = s.inSample;
    const o = s.leaveOneSourceOut;
    if (!i || !o) return `| ${label} | ${runs} | n/a | n/a | n/a | n/a |`;
    return `| ${label} | ${runs} | ${pct1(i.median)} | ${pct1(i.worst)} | ${pct1(o.median)} | ${pct1(o.worst)} |`;
  };
  assertMentions(text, row("All", report.runs, report), "all");
  const gen = (g: string) => report.byGeneration.find((x) => x.generation === g)!;
  assertMentions(text, row("A100", gen("ampere").runs, gen("ampere")), "A100");
  assertMentions(text, row("H100", gen("hopper").runs, gen("hopper")), "H100");
  assertMentions(text, row("B200", gen("blackwell").runs, gen("blackwell")), "B200");
  const labels = {
    "DP/FSDP only": "DP or FSDP only",
    "TP+DP": "TP + DP",
    "TP+PP+DP": "TP + PP + DP",
    "with CP": "With CP",
    MoE: "MoE",
  };
  for (const b of report.byLayout) assertMentions(text, row(labels[b.layout], b.runs, b), b.layout);
  // The prose's comparisons hold.
  assert.ok(gen("ampere").leaveOneSourceOut!.median < gen("hopper").leaveOneSourceOut!.median);
  const dpOnly = report.byLayout.find((b) => b.layout === "DP/FSDP only")!.leaveOneSourceOut!.median;
  for (const b of report.byLayout.filter((x) => x.layout !== "DP/FSDP only" && x.runs > 0))
    assert.ok(b.leaveOneSourceOut!.median < dpOnly, b.layout);
});

test("the fitted constants and the sources table", () => {
  const fit = fitKernelEfficiency();
  assertMentions(
    text,
    `${Math.round(fit.ampere! * 100)}% of peak on A100 and ${Math.round(fit.hopper! * 100)}% on H100`,
    "efficiencies",
  );
  // The book's constants, within the refit threshold of the fit, and "the B200 … the H100's value".
  assertMentions(
    text,
    `\`KERNEL_EFFICIENCY\` in \`src/model/step.ts\`, ${Math.round(KERNEL_EFFICIENCY.ampere * 100)}% and ${Math.round(KERNEL_EFFICIENCY.hopper * 100)}%`,
    "one model",
  );
  for (const g of Object.values(bookConstantsGap())) assert.ok(g.gap <= REFIT_THRESHOLD + 1e-12, JSON.stringify(g));
  assert.equal(KERNEL_EFFICIENCY.blackwell, KERNEL_EFFICIENCY.hopper);
  for (const s of report.bySource) {
    const o = s.leaveOneSourceOut!;
    assertMentions(text, `| ${pct1(s.inSample!.median)} | ${pct1(o.median)} | ${pct1(o.worst)} |`, `source ${s.key}`);
    assertMentions(text, `[@${s.key}] | ${s.runs} |`, `runs of ${s.key}`);
  }
});

test("every source's inclusion rule is printed, and every run left out with its reason", () => {
  for (const s of RUN_SOURCES) assertMentions(text, `**${s.name}** [@${s.key}]: ${s.inclusion}.`, s.key);
  for (const x of EXCLUDED_RUNS) assertMentions(text, `**${x.model}** [@${x.source}]: ${x.reason}.`, x.model);
});

test("the fp8 group: every source's fp8 rule is printed, and the section's claims hold", () => {
  const fp8 = report.fp8!;
  for (const s of RUN_SOURCES.filter((x) => x.fp8Inclusion))
    assertMentions(text, `**${s.name}** [@${s.key}]: ${s.fp8Inclusion}.`, `fp8 rule of ${s.key}`);
  assert.deepEqual(
    fp8.sources.map((s) => s.key).sort(),
    RUN_SOURCES.filter((x) => x.fp8Inclusion)
      .map((x) => x.key)
      .sort(),
  );
  // "close to the bf16 runs'": within five points of the bf16 group's held-out median.
  assert.ok(Math.abs(fp8.leaveOneSourceOut.median - report.leaveOneSourceOut.median) < 0.05);
  // "not twice": the fp8 linear layers' rate over the bf16 one at the book's constants, on an H100.
  const h100 = findGpu("h100-sxm")!;
  const speedup =
    (FP8_KERNEL_EFFICIENCY.hopper! * h100.fp8FlopsPerSecond!) / (KERNEL_EFFICIENCY.hopper * h100.bf16FlopsPerSecond);
  assert.ok(speedup > 1 && speedup < 2, `${speedup}`);
  // "most of the group".
  const nvidia = fp8.bySource.find((s) => s.key === "nvidia2024dgxcbenchmarking")!;
  assert.ok(nvidia.runs > fp8.runs / 2);
  // "worst for torchtitan's long-context runs": the group's worst held-out run is one of them.
  const worst = PUBLISHED_FP8_RUNS.find((r) => r.id === fp8.leaveOneSourceOut.worstRun)!;
  assert.equal(worst.source, "pytorch2024torchtitanh100");
  assert.ok(worst.seqLength > 32768);
  // "the bf16 rows of the same tables at the same shapes are predicted too fast as well", and the
  // fp8 runs of those sources too, held out.
  const pairs = fp8Pairs(true);
  const heldFp8 = fp8LeaveOneSourceOut();
  for (const source of ["mosaicml2023benchmarks", "pytorch2024torchtitanh100"]) {
    const own = pairs.filter((p) => p.fp8.run.source === source);
    assert.ok(own.length > 0, source);
    for (const p of own) assert.ok(p.bf16.relativeError > 0, `${p.bf16.run.id}: the bf16 row is over-predicted too`);
    for (const e of heldFp8.filter((x) => x.run.source === source)) assert.ok(e.relativeError > 0, e.run.id);
  }
  // "come out slow, because without them both constants are fitted on those stacks": held out, every
  // NVIDIA run is under-predicted, and both constants fitted without NVIDIA are lower than with it.
  for (const e of heldFp8.filter((x) => x.run.source === "nvidia2024dgxcbenchmarking")) assert.ok(e.relativeError < 0);
  const noNvidia = PUBLISHED_RUNS.filter((r) => r.source !== "nvidia2024dgxcbenchmarking");
  assert.ok(fitKernelEfficiency(noNvidia).hopper! < fitKernelEfficiency().hopper!);
  assert.ok(
    fitFp8KernelEfficiency(
      PUBLISHED_FP8_RUNS.filter((r) => r.source !== "nvidia2024dgxcbenchmarking"),
      fitKernelEfficiency(noNvidia),
    ).hopper! < fitFp8KernelEfficiency().hopper!,
  );
  // "worst ..., torchtitan's 405B, which gained more than the model gives".
  const worstPair = pairs.reduce((a, p) => (Math.abs(p.relativeError) > Math.abs(a.relativeError) ? p : a));
  assert.equal(worstPair.fp8.run.id, "torchtitan-llama3-405b-128-h100-float8");
  assert.ok(worstPair.predictedGain < worstPair.reportedGain);
  // "...without re-running the Float8 rows, and against the bf16 row as first published the miss is
  // smaller": the data records the first publication (118 WPS at 9515a14), and the gain against it is
  // missed by less.
  const tt405 = PUBLISHED_RUNS.find((r) => r.id === "torchtitan-llama3-405b-128-h100")!;
  assert.ok(tt405.assumptions.some((a) => a.includes("118 WPS") && a.includes("PR #556")));
  assert.equal(tt405.reported.kind === "tokens-per-second-per-gpu" && tt405.reported.tokensPerSecondPerGpu, 109);
  const firstGain = worstPair.reportedGain * (109 / 118);
  assert.ok(Math.abs(worstPair.predictedGain / firstGain - 1) < Math.abs(worstPair.relativeError));
  // "(and, in one MosaicML pair, the micro-batch)": one pair differs in micro-batch, a MosaicML one.
  const microDiffers = pairs.filter((p) => p.fp8.run.microBatchSize !== p.bf16.run.microBatchSize);
  assert.equal(microDiffers.length, 1);
  assert.equal(microDiffers[0]!.fp8.run.source, "mosaicml2023benchmarks");
  // "torchtitan's long-context rows have no bf16 twin, and their error grows with the context-parallel
  // degree": no bf16 row of that source is longer than its shortest fp8 long-context row, and the
  // held-out error of the long-context rows rises with CP.
  const longTt = heldFp8
    .filter((e) => e.run.source === "pytorch2024torchtitanh100" && e.run.seqLength > 8192)
    .sort((a, b) => a.run.layout.cp - b.run.layout.cp);
  assert.ok(longTt.length > 2);
  const shortestLong = Math.min(...longTt.map((e) => e.run.seqLength));
  assert.ok(
    PUBLISHED_RUNS.filter((r) => r.source === "pytorch2024torchtitanh100").every((r) => r.seqLength < shortestLong),
  );
  for (let i = 1; i < longTt.length; i++)
    assert.ok(longTt[i]!.relativeError > longTt[i - 1]!.relativeError, longTt[i]!.run.id);
  // "adds a few percent": the held-out median error of the speedup is under ten percent.
  assert.ok(summarizeErrors(pairs.map((p) => ({ run: p.fp8.run, relativeError: p.relativeError }))).median < 0.1);
});

test("the per-run table has one row per run but MosaicML's, each recomputed by the step model", () => {
  const rows = PUBLISHED_RUNS.filter((r) => r.source !== "mosaicml2023benchmarks");
  assert.equal(
    rows.length,
    PUBLISHED_RUNS.length - PUBLISHED_RUNS.filter((r) => r.source === "mosaicml2023benchmarks").length,
  );
  for (const r of rows) {
    const e = inSample.find((x) => x.run.id === r.id)!;
    const h = held.find((x) => x.run.id === r.id)!;
    assertMentions(text, runRow(e, h), r.id);
  }
});

test("the misses quoted in the prose", () => {
  const w = whatIfStudies();
  for (const [name, label] of [
    ["attention-half-rate", "the held-out median falls to"],
    ["efficiency-per-framework", "gives a held-out median of"],
  ] as const) {
    const s = w.find((x) => x.name === name)!;
    assertMentions(text, `${label} ${pct1(s.leaveOneSourceOut.median)}`, name);
  }
  const both = w.find((x) => x.name === "both")!;
  assertMentions(
    text,
    `${pct1(both.leaveOneSourceOut.median)} and ${pct1(both.leaveOneSourceOut.worst)}. That meets the median goal and not the worst`,
    "both",
  );
  assert.ok(both.leaveOneSourceOut.median <= 0.15 && both.leaveOneSourceOut.worst > 0.5);
  // Llama 3 at 8K: the bubble and the TP traffic are the model's largest overheads.
  const l = inSample.find((e) => e.run.id === "grattafiori2024-405b-8192-8192")!.prediction.breakdown;
  for (const other of [l.dp, l.pp, l.cp, l.recompute, l.optimizer])
    assert.ok(Math.min(l.bubble, l.tp) > other, JSON.stringify(l));
  assertMentions(text, "the bubble and the TP traffic are now the model's\nlargest overheads", "Llama 3 bubble");
  // NVIDIA's recipe and torchtitan on the same model and GPU count.
  const nemo = inSample.find((e) => e.run.id === "dgxc-llama31-8b-8")!;
  const titan = inSample.find((e) => e.run.id === "torchtitan-h100-llama31-8b-8")!;
  assertMentions(text, `Llama 3.1 8B at ${pct1(nemo.reportedMfu)} MFU`, "NeMo 8B");
  assertMentions(text, `at ${pct1(titan.reportedMfu)} on 8 power-capped H100s`, "torchtitan 8B");
  assert.ok(nemo.reportedMfu > titan.reportedMfu);
});

test("left-out ZeRO-3 rows: the step model predicts no loss of throughput as GPUs are added", () => {
  const gpt = { model_type: "gpt2", n_embd: 12288, n_head: 96, n_layer: 96, vocab_size: 51200, n_positions: 2048 };
  const mfu = [384, 768, 1536].map(
    (g) =>
      stepTime({
        config: gpt,
        gpu: "a100-sxm-80gb",
        gpuCount: g,
        dp: g,
        zeroStage: 3,
        seqLength: 2048,
        microBatchSize: 1,
        globalBatch: 1536,
        recompute: "full",
        includeMemory: false,
      }).mfu,
  );
  assertApprox(mfu[2]!, mfu[0]!, { rel: 0.01 }, mfu.join(", "));
});

test("the review fixes of 2026-12-06: what the prose says about the stacks, model size and ranking holds", () => {
  const by = (id: string) => inSample.find((e) => e.run.id === id)!;
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    const n = s.length;
    return n % 2 ? s[(n - 1) / 2]! : (s[n / 2 - 1]! + s[n / 2]!) / 2;
  };
  // NVIDIA's recipes: the H100 constant under-predicts most of them, Llama 3.1 405B's (with its
  // proxies) by the most; the few over-predicted are Nemotron-4 15B's on the most GPUs. Without them
  // the H100 fit falls.
  const dgxc = inSample.filter((e) => e.run.source === "nvidia2024dgxcbenchmarking");
  const over = dgxc.filter((e) => e.relativeError > 0);
  const under = dgxc.filter((e) => e.relativeError < 0);
  assert.ok(under.length > dgxc.length / 2 && median(dgxc.map((e) => e.relativeError)) < 0);
  const nemotron15b = dgxc.filter((e) => e.run.id.startsWith("dgxc-nemotron4-15b-"));
  for (const e of over) {
    assert.match(e.run.id, /^dgxc-nemotron4-15b-/, e.run.id);
    for (const u of nemotron15b.filter((x) => x.relativeError < 0))
      assert.ok(u.run.gpuCount < e.run.gpuCount, u.run.id);
  }
  const worstDgxc = dgxc.reduce((a, e) => (Math.abs(e.relativeError) > Math.abs(a.relativeError) ? e : a));
  assert.match(worstDgxc.run.id, /^dgxc-llama31-405b-/);
  for (const e of dgxc.filter((x) => !x.run.id.startsWith("dgxc-llama31-405b-")))
    assert.ok(
      dgxc.filter((x) => x.run.id.startsWith("dgxc-llama31-405b-")).every((x) => x.relativeError < e.relativeError),
      e.run.id,
    );
  assertMentions(
    text,
    `under-predicts ${under.length} of NVIDIA's ${dgxc.length} recipe runs, by a median of ${pct1(-median(dgxc.map((e) => e.relativeError)))} (most of all those of Llama 3.1 405B and its proxies; the ${over.length} it over-predicts are Nemotron-4 15B's on the most GPUs)`,
    "NVIDIA's recipes under-predicted",
  );
  const without = fitKernelEfficiency(PUBLISHED_RUNS.filter((r) => r.source !== "nvidia2024dgxcbenchmarking"));
  const all = fitKernelEfficiency();
  assert.ok(without.hopper! < all.hopper!);
  assertMentions(
    text,
    `falls to ${Math.round(without.hopper! * 100)}% of peak, against ${Math.round(all.hopper! * 100)}% with them`,
    "H100 fit without NVIDIA's recipes",
  );
  // TP overlap: every NVIDIA recipe run with TP overlaps it (nemotron/configure.sh L97 turns it on for
  // Nemotron-4 340B too, over its yaml); Llama 3.1 8B has no TP.
  for (const e of dgxc.filter((x) => !(x.run.software.tpCommOverlap.value && x.run.layout.tp > 1)))
    assert.match(e.run.id, /^dgxc-llama31-8b-/, e.run.id);
  // The torchtitan pair: the data records the power cap, the approximate recomputation and the batching.
  const titan = by("torchtitan-h100-llama31-8b-8").run;
  assert.ok(titan.assumptions.some((a) => a.includes("500 W")) && titan.software.recomputeApproximate !== undefined);
  assert.equal(by("dgxc-llama31-8b-8").run.software.recomputePolicy.value, "none");
  // MosaicML's short H100 runs are over-predicted too, by a positive median.
  const mosaicShort = inSample.filter(
    (e) => e.run.source === "mosaicml2023benchmarks" && e.run.gpu === "h100-sxm" && e.run.seqLength <= 4096,
  );
  assert.ok(mosaicShort.filter((e) => e.relativeError > 0).length > mosaicShort.length / 2);
  assert.ok(median(mosaicShort.map((e) => e.relativeError)) > 0);
  // Model size: over-predicted smallest, under-predicted largest, in the three Megatron-LM sources quoted.
  for (const id of ["narayanan2021-1-7b", "megatron2024-weak-1-7b"]) assert.ok(by(id).relativeError > 0, id);
  for (const id of ["narayanan2021-1008b", "megatron2024-weak-462b", "korthikanti2022-1t"])
    assert.ok(by(id).relativeError < 0, id);
  const big = inSample.filter(
    (e) => e.run.software.framework === "megatron" && countParameters(runArchitectureConfig(e.run)).total >= 300e9,
  );
  assert.ok(big.length > 0 && big.every((e) => e.relativeError < 0));
  assert.ok(stepShares(by("korthikanti2022-1t")).compute > 1, "the 1T run's compute alone exceeds its reported step");
  for (const e of inSample.filter((x) => x.run.source === "smith2022megatronturing")) assert.ok(e.relativeError > 0);
  // The DP-only runs not on FSDP stacks are the smallest model of their source.
  for (const r of PUBLISHED_RUNS.filter((x) => layoutClass(x) === "DP/FSDP only" && x.software.framework !== "fsdp2")) {
    const size = (x: (typeof PUBLISHED_RUNS)[number]) => countParameters(runArchitectureConfig(x)).total;
    assert.ok(
      PUBLISHED_RUNS.filter((x) => x.source === r.source).every((x) => size(x) >= size(r)),
      r.id,
    );
  }
  // Long sequences: attention is at most half the FLOPs only for the 7B and 13B models at 16,384 tokens.
  for (const r of PUBLISHED_RUNS.filter((x) => x.source === "mosaicml2023benchmarks" && x.seqLength >= 16384)) {
    const f = modelFlopsPerToken(runArchitecture(r), r.seqLength);
    if (f.attentionTerm <= f.total / 2) assert.match(`${r.model} ${r.seqLength}`, /^MPT-(7B|13B) 16384$/, r.id);
  }
  // OPT's TFLOPS read as model FLOPs would raise its MFU.
  const opt = by("zhang2022-opt-175b");
  assert.equal(opt.run.reported.kind, "megatron-tflops");
  const optTflops = opt.run.reported.kind === "megatron-tflops" ? opt.run.reported.tflopsPerGpu : Number.NaN;
  const asModelFlops = (optTflops * 1e12) / findGpu(opt.run.gpu)!.bf16FlopsPerSecond;
  assert.ok(asModelFlops > opt.reportedMfu);
  assertMentions(text, `an MFU of ${pct1(asModelFlops)} instead of ${pct1(opt.reportedMfu)}`, "OPT");
  // Ranking: the counts, and the wrongly ordered pairs come from MosaicML's and torchtitan's H100 runs.
  const rank = rankingCheck(inSample);
  assertMentions(
    text,
    `gives ${rank.pairs} pairs; in ${rank.separated} of them the measured MFUs differ by more than 5%, and the model orders ${rank.separatedWrong} of those the wrong way. For ${rank.separatedWrongTies} of the ${rank.separatedWrong}`,
    "ranking",
  );
  const sourceOf = new Map(PUBLISHED_RUNS.map((r) => [r.id, r.source]));
  for (const [a] of rank.wrongPairs)
    assert.match(sourceOf.get(a)!, /^(mosaicml2023benchmarks|pytorch2024torchtitanh100)$/, a);
  const sel = by("torchtitan-llama2-70b-selective");
  const full = by("torchtitan-llama2-70b-full");
  assert.ok(Math.abs(sel.reportedMfu - full.reportedMfu) / sel.reportedMfu < 0.01);
  assert.ok((sel.predictedMfu - full.predictedMfu) / sel.predictedMfu > 0.2);
  // Proxies: every run the data marks as a proxy has fewer layers than the model it stands in for.
  const proxies = PUBLISHED_RUNS.filter((r) => r.proxy !== undefined);
  assert.equal(proxies.length, 3);
  const fullModel = runArchitecture(PUBLISHED_RUNS.find((r) => r.id === "dgxc-llama31-405b-576")!);
  for (const r of proxies) assert.ok(runArchitecture(r).numLayers < fullModel.numLayers, r.id);
});
