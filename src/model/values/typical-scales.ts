/**
 * Computed values of the chapter "typical-scales" for its prose: `{=a2.name}` prints one (see
 * ../exercise-values.ts for the conventions: the value in its unit, how it prints, and a comment
 * that says which model function or stated input it comes from). Pure.
 *
 * Every value comes from the published runs of src/data/published-runs.ts and the step model's
 * evaluation of them (src/model/validation.ts): the in-sample evaluation at the two fitted kernel
 * efficiencies, the leave-one-source-out evaluation, and the what-if studies. The refits take a few
 * seconds, so every value that needs one is computed on first read (`lazy`), not when every value
 * is built.
 */
import { PUBLISHED_FP8_RUNS, PUBLISHED_RUNS, RUN_SOURCES, type PublishedRun } from "../../data/published-runs.ts";
import {
  evaluateInSample,
  fitKernelEfficiency,
  layoutClass,
  leaveOneSourceOut,
  rankingCheck,
  runArchitecture,
  stepShares,
  summarizeErrors,
  validationReport,
  whatIfStudies,
  type LayoutClass,
  type RunEvaluation,
  bookConstantsGap,
  fp8LeaveOneSourceOut,
  fitFp8KernelEfficiency,
  fp8Pairs,
  predictRun,
  REFIT_THRESHOLD,
} from "../validation.ts";
import { FP8_KERNEL_EFFICIENCY, KERNEL_EFFICIENCY } from "../step.ts";
import { d0, d1, d2, gpu, lazy, once, preset, v, type PutValue } from "./put.ts";
import { fact } from "./facts.ts";
import { modelFlopsPerToken } from "../compute.ts";
import { countParameters } from "../parameters.ts";
import { parseModelConfig } from "../architecture.ts";

/** Value-name keys of the layout classes. */
export const LAYOUT_KEYS: Readonly<Record<LayoutClass, string>> = {
  "DP/FSDP only": "dpOnly",
  "TP+DP": "tpDp",
  "TP+PP+DP": "tpPpDp",
  "with CP": "withCp",
  MoE: "moe",
};

/** The runs the per-run table of the appendix lists: every run but MosaicML's (which the figure shows). */
function tableRuns(): PublishedRun[] {
  return PUBLISHED_RUNS.filter((r) => r.source !== "mosaicml2023benchmarks");
}

export function typicalScalesValues(put: PutValue): void {
  const report = once(() => validationReport());
  const inSample = once(() => evaluateInSample());
  const held = once(() => leaveOneSourceOut());
  const whatIf = once(() => whatIfStudies());
  const run = (id: string): PublishedRun => {
    const r = PUBLISHED_RUNS.find((x) => x.id === id);
    if (!r) throw new Error(`typical-scales values: no published run "${id}"`);
    return r;
  };
  const pct = (get: () => number) => lazy(() => 100 * get(), "%", d1);

  // The data set: runs, sources, and how many sources have H100 runs (src/data/published-runs.ts).
  put("a2.runCount", v(PUBLISHED_RUNS.length, "runs", d0));
  put("a2.sourceCount", v(RUN_SOURCES.length, "sources", d0));
  const h100Sources = RUN_SOURCES.filter((s) => PUBLISHED_RUNS.some((r) => r.source === s.key && r.gpu === "h100-sxm"));
  put("a2.h100SourceCount", v(h100Sources.length, "sources", d0));
  put("a2.h100Runs", v(PUBLISHED_RUNS.filter((r) => r.gpu === "h100-sxm").length, "runs", d0));
  put("a2.a100Runs", v(PUBLISHED_RUNS.filter((r) => r.gpu.startsWith("a100")).length, "runs", d0));
  put("a2.mosaicRuns", v(PUBLISHED_RUNS.filter((r) => r.source === "mosaicml2023benchmarks").length, "runs", d0));

  // The book's MFU definition: model FLOPs per token per parameter a token multiplies by, without
  // attention (compute.ts modelFlopsPerToken, the 6N term; any model gives the same ratio).
  const perParam = modelFlopsPerToken(preset("llama-3.1-8b").config, 4096, { includeAttention: false });
  put("a2.flopsPerParam", v(perParam.parameterTerm / perParam.matmulParameters, "FLOPs", d0));

  // The two fitted kernel efficiencies (validation.ts fitKernelEfficiency), in percent of dense peak.
  put(
    "a2.effA100",
    lazy(() => 100 * (fitKernelEfficiency().ampere ?? Number.NaN), "%", d0),
  );
  put(
    "a2.effH100",
    lazy(() => 100 * (fitKernelEfficiency().hopper ?? Number.NaN), "%", d0),
  );

  // The book's constants (step.ts KERNEL_EFFICIENCY), the refit threshold and how far the book's
  // constants are behind the fit in median error, in percentage points (validation.ts bookConstantsGap).
  put("a2.bookA100", v(100 * KERNEL_EFFICIENCY.ampere, "%", d0));
  put("a2.bookH100", v(100 * KERNEL_EFFICIENCY.hopper, "%", d0));
  put("a2.refitThresholdPoints", v(100 * REFIT_THRESHOLD, "points", d0));
  put(
    "a2.bookGapA100",
    lazy(() => 100 * (bookConstantsGap().ampere?.gap ?? Number.NaN), "points", d1),
  );
  put(
    "a2.bookGapH100",
    lazy(() => 100 * (bookConstantsGap().hopper?.gap ?? Number.NaN), "points", d1),
  );

  // Overall errors, in sample and held out (validation.ts validationReport).
  put(
    "a2.inMedian",
    pct(() => report().inSample.median),
  );
  put(
    "a2.inWorst",
    pct(() => report().inSample.worst),
  );
  put(
    "a2.losoMedian",
    pct(() => report().leaveOneSourceOut.median),
  );
  put(
    "a2.losoWorst",
    pct(() => report().leaveOneSourceOut.worst),
  );

  // By generation, by layout class and by source: runs, medians and worsts (validationReport).
  for (const g of ["ampere", "hopper"] as const) {
    const sub = () => {
      const x = report().byGeneration.find((b) => b.generation === g);
      if (!x?.inSample || !x.leaveOneSourceOut) throw new Error(`typical-scales values: no ${g} runs`);
      return { runs: x.runs, in: x.inSample, out: x.leaveOneSourceOut };
    };
    put(
      `a2.gen.${g}.runs`,
      lazy(() => sub().runs, "runs", d0),
    );
    put(
      `a2.gen.${g}.inMedian`,
      pct(() => sub().in.median),
    );
    put(
      `a2.gen.${g}.inWorst`,
      pct(() => sub().in.worst),
    );
    put(
      `a2.gen.${g}.losoMedian`,
      pct(() => sub().out.median),
    );
    put(
      `a2.gen.${g}.losoWorst`,
      pct(() => sub().out.worst),
    );
  }
  for (const [layout, key] of Object.entries(LAYOUT_KEYS) as [LayoutClass, string][]) {
    const runs = PUBLISHED_RUNS.filter((r) => layoutClass(r) === layout).length;
    put(`a2.layout.${key}.runs`, v(runs, "runs", d0));
    if (runs === 0) continue;
    const sub = () => {
      const x = report().byLayout.find((b) => b.layout === layout);
      if (!x?.inSample || !x.leaveOneSourceOut) throw new Error(`typical-scales values: no ${layout} runs`);
      return { in: x.inSample, out: x.leaveOneSourceOut };
    };
    put(
      `a2.layout.${key}.inMedian`,
      pct(() => sub().in.median),
    );
    put(
      `a2.layout.${key}.inWorst`,
      pct(() => sub().in.worst),
    );
    put(
      `a2.layout.${key}.losoMedian`,
      pct(() => sub().out.median),
    );
    put(
      `a2.layout.${key}.losoWorst`,
      pct(() => sub().out.worst),
    );
  }
  for (const s of RUN_SOURCES) {
    const sub = () => {
      const x = report().bySource.find((b) => b.key === s.key);
      if (!x?.inSample || !x.leaveOneSourceOut) throw new Error(`typical-scales values: no runs of ${s.key}`);
      return { in: x.inSample, out: x.leaveOneSourceOut };
    };
    put(`a2.source.${s.key}.runs`, v(PUBLISHED_RUNS.filter((r) => r.source === s.key).length, "runs", d0));
    put(
      `a2.source.${s.key}.inMedian`,
      pct(() => sub().in.median),
    );
    put(
      `a2.source.${s.key}.losoMedian`,
      pct(() => sub().out.median),
    );
    put(
      `a2.source.${s.key}.losoWorst`,
      pct(() => sub().out.worst),
    );
  }

  // The fp8 group (validation.ts fp8Report, in validationReport().fp8): runs, sources, the fitted
  // fp8 efficiency, its errors in and out of sample, per source, and the fit without NVIDIA's runs.
  const fp8 = () => {
    const x = report().fp8;
    if (!x) throw new Error("typical-scales values: no fp8 runs");
    return x;
  };
  const fp8Held = once(() => fp8LeaveOneSourceOut());
  put("a2.fp8.runs", v(PUBLISHED_FP8_RUNS.length, "runs", d0));
  put("a2.fp8.sourceCount", v(new Set(PUBLISHED_FP8_RUNS.map((r) => r.source)).size, "sources", d0));
  put(
    "a2.fp8.fitH100",
    lazy(() => 100 * (fitFp8KernelEfficiency().hopper ?? Number.NaN), "%", d0),
  );
  put("a2.fp8.bookH100", v(100 * (FP8_KERNEL_EFFICIENCY.hopper ?? Number.NaN), "%", d0));
  // How much faster the fp8 linear layers run than bf16 ones on an H100 at the book's constants:
  // η₈ × fp8 peak over η × bf16 peak (gpus.ts, step.ts).
  const h100 = gpu("h100-sxm");
  put(
    "a2.fp8.linearSpeedup",
    v(
      ((FP8_KERNEL_EFFICIENCY.hopper ?? Number.NaN) * (h100.fp8FlopsPerSecond ?? Number.NaN)) /
        (KERNEL_EFFICIENCY.hopper * h100.bf16FlopsPerSecond),
      "×",
      d2,
    ),
  );
  put(
    "a2.fp8.inMedian",
    pct(() => fp8().inSample.median),
  );
  put(
    "a2.fp8.inWorst",
    pct(() => fp8().inSample.worst),
  );
  put(
    "a2.fp8.losoMedian",
    pct(() => fp8().leaveOneSourceOut.median),
  );
  put(
    "a2.fp8.losoWorst",
    pct(() => fp8().leaveOneSourceOut.worst),
  );
  for (const key of new Set(PUBLISHED_FP8_RUNS.map((r) => r.source))) {
    const sub = () => {
      const x = fp8().bySource.find((b) => b.key === key);
      if (!x?.inSample || !x.leaveOneSourceOut) throw new Error(`typical-scales values: no fp8 runs of ${key}`);
      return { in: x.inSample, out: x.leaveOneSourceOut };
    };
    put(`a2.fp8.source.${key}.runs`, v(PUBLISHED_FP8_RUNS.filter((r) => r.source === key).length, "runs", d0));
    put(
      `a2.fp8.source.${key}.inMedian`,
      pct(() => sub().in.median),
    );
    put(
      `a2.fp8.source.${key}.losoMedian`,
      pct(() => sub().out.median),
    );
  }
  // The fp8 efficiency fitted without NVIDIA's runs: what predicts them when they are held out.
  put(
    "a2.fp8.fitWithoutNvidia",
    lazy(
      () =>
        100 * (fp8Held().find((e) => e.run.source === "nvidia2024dgxcbenchmarking")?.fp8KernelEfficiency ?? Number.NaN),
      "%",
      d0,
    ),
  );
  // The pairs of a bf16 and an fp8 row that differ only in precision (validation.ts fp8Pairs), held
  // out: how far the model's fp8 speedup is from the measured one.
  const pairsHeld = once(() => fp8Pairs(true));
  const gainErrors = once(() =>
    summarizeErrors(pairsHeld().map((x) => ({ run: x.fp8.run, relativeError: x.relativeError }))),
  );
  put(
    "a2.fp8.pairs",
    lazy(() => pairsHeld().length, "pairs", d0),
  );
  put(
    "a2.fp8.gainHeldMedian",
    pct(() => gainErrors().median),
  );
  put(
    "a2.fp8.gainHeldWorst",
    pct(() => gainErrors().worst),
  );
  // One recipe in both precisions (NVIDIA's Llama 3.1 70B on 64 H100): the step-time ratio the
  // tables report, and the model's at the book's constants.
  const ratio = (bf16Id: string, fp8Id: string, of: "reported" | "predicted") => {
    const find = (id: string) => {
      const r = [...PUBLISHED_RUNS, ...PUBLISHED_FP8_RUNS].find((x) => x.id === id);
      if (!r || r.reported.kind !== "iteration-seconds")
        throw new Error(`typical-scales values: no run "${id}" with a step time`);
      return { seconds: r.reported.seconds, predicted: predictRun(r).stepSeconds };
    };
    const [b, f] = [find(bf16Id), find(fp8Id)];
    return of === "reported" ? b.seconds / f.seconds : b.predicted / f.predicted;
  };
  put(
    "a2.fp8.llama70bReportedSpeedup",
    lazy(() => ratio("dgxc-llama31-70b-64", "dgxc-llama31-70b-fp8-64", "reported"), "×", d2),
  );
  put(
    "a2.fp8.llama70bPredictedSpeedup",
    lazy(() => ratio("dgxc-llama31-70b-64", "dgxc-llama31-70b-fp8-64", "predicted"), "×", d2),
  );

  // The per-run table (every run but MosaicML's): reported and predicted MFU, the in-sample and
  // held-out errors (absolute; the table writes the sign, which tests/chapters/a2-rows.ts checks),
  // and the model's step by part in percent of the reported step time.
  for (const r of tableRuns()) {
    const e = () => {
      const x = inSample().find((y) => y.run.id === r.id);
      if (!x) throw new Error(`typical-scales values: no evaluation of ${r.id}`);
      return x;
    };
    const h = () => {
      const x = held().find((y) => y.run.id === r.id);
      if (!x) throw new Error(`typical-scales values: no held-out evaluation of ${r.id}`);
      return x;
    };
    put(
      `a2.reported.${r.id}`,
      pct(() => e().reportedMfu),
    );
    put(
      `a2.predicted.${r.id}`,
      pct(() => e().predictedMfu),
    );
    put(
      `a2.error.${r.id}`,
      pct(() => Math.abs(e().relativeError)),
    );
    put(
      `a2.held.${r.id}`,
      pct(() => Math.abs(h().relativeError)),
    );
    for (const part of ["compute", "recompute", "bubble", "tp", "cp", "dp", "other"] as const) {
      put(
        `a2.part.${r.id}.${part}`,
        lazy(() => 100 * stepShares(e())[part], "%", d0),
      );
    }
    if (r.layout.chunks !== undefined) put(`a2.chunks.${r.id}`, v(r.layout.chunks, "chunks", d0));
    // A proxy (a cut-down stand-in for the named model, published-runs.ts `proxy`): its layer count,
    // which the table prints after "proxy" (tests/chapters/a2-rows.ts writes the same label).
    if (r.proxy !== undefined) put(`a2.layers.${r.id}`, v(runArchitecture(r).numLayers, "layers", d0));
    // The run's GPUs, sequence length and parallel degrees as src/data/published-runs.ts records them
    // (the table's GPUs, Tokens and Layout columns; a degree of 1 is not printed).
    put(`a2.gpus.${r.id}`, v(r.gpuCount, "GPUs", d0));
    put(`a2.seq.${r.id}`, v(r.seqLength, "tokens", d0));
    put(`a2.dp.${r.id}`, v(r.layout.dp, "", d0));
    for (const k of ["tp", "cp", "pp"] as const) if (r.layout[k] > 1) put(`a2.${k}.${r.id}`, v(r.layout[k], "", d0));
  }

  // What would close the gap (validation.ts whatIfStudies): held-out median and worst of each study.
  for (const name of ["attention-half-rate", "efficiency-per-framework", "both"] as const) {
    const key = { "attention-half-rate": "attention", "efficiency-per-framework": "framework", both: "both" }[name];
    const study = () => {
      const x = whatIf().find((w) => w.name === name);
      if (!x) throw new Error(`typical-scales values: no what-if "${name}"`);
      return x;
    };
    put(
      `a2.whatIf.${key}.losoMedian`,
      pct(() => study().leaveOneSourceOut.median),
    );
    put(
      `a2.whatIf.${key}.losoWorst`,
      pct(() => study().leaveOneSourceOut.worst),
    );
    put(
      `a2.whatIf.${key}.constants`,
      lazy(() => study().constants, "constants", d0),
    );
  }

  // The smallest model of the worst held-out run of the study that changes both (its hidden size).
  put(
    "a2.whatIf.both.worstHidden",
    lazy(
      () => {
        const x = whatIf().find((w) => w.name === "both");
        if (!x) throw new Error("typical-scales values: no what-if 'both'");
        return runArchitecture(run(x.leaveOneSourceOut.worstRun)).hiddenSize;
      },
      "",
      d0,
    ),
  );
  // Blackwell runs in the data (none: the appendix says so).
  put("a2.blackwellRuns", v(PUBLISHED_RUNS.filter((r) => r.gpu.startsWith("b200")).length, "runs", d0));

  // In sample on H100: how many of NVIDIA's recipe runs the model over-predicts and under-predicts,
  // the median of their signed errors negated (how far under they are), and how many of the H100
  // runs of PyTorch FSDP stacks (framework profile fsdp2, less Llama 3's three runs on Meta's own
  // 4D-parallel stack) it over-predicts.
  const dgxc = () => inSample().filter((e) => e.run.source === "nvidia2024dgxcbenchmarking");
  put(
    "a2.dgxcOver",
    lazy(() => dgxc().filter((e) => e.relativeError > 0).length, "runs", d0),
  );
  put(
    "a2.dgxcUnder",
    lazy(() => dgxc().filter((e) => e.relativeError < 0).length, "runs", d0),
  );
  put(
    "a2.dgxcUnderMedian",
    lazy(() => -100 * signedMedian(dgxc().map((e) => e.relativeError)), "%", d1),
  );
  // The H100 constant fitted without NVIDIA's recipes (the fit their held-out prediction uses).
  put(
    "a2.hopperWithoutDgxc",
    lazy(
      () =>
        100 *
        (fitKernelEfficiency(PUBLISHED_RUNS.filter((r) => r.source !== "nvidia2024dgxcbenchmarking")).hopper ??
          Number.NaN),
      "%",
      d0,
    ),
  );
  const fsdpStack = (r: PublishedRun) => r.software.framework === "fsdp2" && r.source !== "grattafiori2024llama3";
  const fsdpH100 = (e: RunEvaluation) => e.run.gpu === "h100-sxm" && fsdpStack(e.run);
  put("a2.fsdpH100Runs", v(PUBLISHED_RUNS.filter((r) => r.gpu === "h100-sxm" && fsdpStack(r)).length, "runs", d0));
  put(
    "a2.fsdpH100Over",
    lazy(() => inSample().filter((e) => fsdpH100(e) && e.relativeError > 0).length, "runs", d0),
  );
  // Like for like with NVIDIA's recipes on the SXM part: MosaicML's H100 runs of 4,096 tokens or fewer
  // (another FSDP stack, no power cap recorded), how many the H100 constant over-predicts in sample and
  // their median signed error.
  const mosaicShortH100 = () =>
    inSample().filter(
      (e) => e.run.source === "mosaicml2023benchmarks" && e.run.gpu === "h100-sxm" && e.run.seqLength <= 4096,
    );
  put(
    "a2.mosaicShortH100Runs",
    lazy(() => mosaicShortH100().length, "runs", d0),
  );
  put(
    "a2.mosaicShortH100Over",
    lazy(() => mosaicShortH100().filter((e) => e.relativeError > 0).length, "runs", d0),
  );
  put(
    "a2.mosaicShortH100SignedMedian",
    lazy(() => 100 * signedMedian(mosaicShortH100().map((e) => e.relativeError)), "%", d1),
  );

  // MosaicML's runs by sequence length: the held-out median error of the long (≥ 16,384 tokens) and
  // the short (≤ 4,096) runs, and how many there are.
  const mosaic = (keep: (r: PublishedRun) => boolean) => () =>
    summarizeErrors(held().filter((e) => e.run.source === "mosaicml2023benchmarks" && keep(e.run)));
  const long = (r: PublishedRun) => r.seqLength >= 16384;
  const short = (r: PublishedRun) => r.seqLength <= 4096;
  put(
    "a2.mosaicLongRuns",
    v(PUBLISHED_RUNS.filter((r) => r.source === "mosaicml2023benchmarks" && long(r)).length, "runs", d0),
  );
  put(
    "a2.mosaicLongMedian",
    pct(() => mosaic(long)().median),
  );
  put(
    "a2.mosaicShortMedian",
    pct(() => mosaic(short)().median),
  );
  put("a2.longSeq", v(16384, "tokens", d0));
  put("a2.shortSeq", v(4096, "tokens", d0));
  // The worst held-out run: its model's hidden size and its sequence length.
  put(
    "a2.losoWorstSeq",
    lazy(() => run(report().leaveOneSourceOut.worstRun).seqLength, "tokens", d0),
  );
  put(
    "a2.losoWorstHidden",
    lazy(() => runArchitecture(run(report().leaveOneSourceOut.worstRun)).hiddenSize, "", d0),
  );

  // Llama 3.1 8B on H100 in two stacks: NVIDIA's NeMo recipe on 8 GPUs and torchtitan's FSDP on 8.
  // How each batches a step (published-runs.ts): torchtitan's micro-batch, and the microbatches each
  // data-parallel rank accumulates per step (global batch over micro-batch × DP).
  const nemo8b = run("dgxc-llama31-8b-8");
  const titan8b = run("torchtitan-h100-llama31-8b-8");
  const accumulated = (r: PublishedRun) => r.globalBatch / (r.microBatchSize * r.layout.dp);
  put("a2.titan8bMicro", v(titan8b.microBatchSize, "sequences", d0));
  put("a2.titan8bAccum", v(accumulated(titan8b), "microbatches", d0));
  put("a2.nemo8bAccum", v(accumulated(nemo8b), "microbatches", d0));
  put(
    "a2.nemo8bMfu",
    pct(() => inSample().find((e) => e.run.id === "dgxc-llama31-8b-8")!.reportedMfu),
  );
  put(
    "a2.titan8bMfu",
    pct(() => inSample().find((e) => e.run.id === "torchtitan-h100-llama31-8b-8")!.reportedMfu),
  );

  // The TP share of the model's step in NVIDIA's recipes that overlap TP communication (their median).
  put(
    "a2.tpShareOverlapped",
    lazy(
      () => {
        const shares = inSample()
          .filter((e) => e.run.software.tpCommOverlap.value && e.run.layout.tp > 1)
          .map((e) => e.prediction.breakdown.tp / e.prediction.stepSeconds)
          .sort((a, b) => a - b);
        return 100 * (shares[Math.floor((shares.length - 1) / 2)] ?? Number.NaN);
      },
      "%",
      d0,
    ),
  );
  put(
    "a2.tpOverlappedRuns",
    v(PUBLISHED_RUNS.filter((r) => r.software.tpCommOverlap.value && r.layout.tp > 1).length, "runs", d0),
  );

  // Llama 3's rows: sequence lengths, DP of the long row (Table 4 prints 4), GPUs that DP 4 implies.
  const lLong = run("grattafiori2024-405b-16384-131072");
  put("a2.llama3Seq", v(run("grattafiori2024-405b-8192-8192").seqLength, "tokens", d0));
  put("a2.llama3LongSeq", v(lLong.seqLength, "tokens", d0));
  // The GPUs that Table 4's printed degrees of the long-context row make (DP as printed, TP, CP, PP).
  const table4Gpus = ["llama3.longDpPrinted", "llama3.tp", "llama3.longCp", "llama3.longPp"]
    .map((id) => fact(id).value)
    .reduce((a, b) => a * b, 1);
  put("a2.llama3Table4Gpus", v(table4Gpus, "GPUs", d0));
  put("a2.llama3LongGpus", v(lLong.gpuCount, "GPUs", d0));
  // The prose says the run uses the DP that arXiv v3's Table 4 prints (the fact): hold the data to it.
  if (lLong.layout.dp !== fact("llama3.longDp").value)
    throw new Error(`typical-scales: the long-context run's DP (${lLong.layout.dp}) is not Table 4's (v3)`);
  // Llama 3 at 8,192 GPUs: the model's step by part (percent of the model's own step) and its length
  // against the reported step.
  const l8k = () => inSample().find((e) => e.run.id === "grattafiori2024-405b-8192-8192")!;
  for (const part of ["compute", "bubble", "tp", "dp"] as const) {
    put(
      `a2.llama3Share.${part}`,
      lazy(() => (100 * l8k().prediction.breakdown[part]) / l8k().prediction.stepSeconds, "%", d0),
    );
  }
  put(
    "a2.llama3StepRatio",
    lazy(() => 100 * Math.abs(l8k().prediction.stepSeconds / l8k().reportedStepSeconds - 1), "%", d0),
  );
  put(
    "a2.llama3Micro8k",
    lazy(() => l8k().prediction.microbatches, "microbatches", d0),
  );

  // OPT's 147 TFLOPS read as model FLOPs instead (the paper does not define its count): that
  // throughput over the A100's dense bf16 peak, the MFU the run would then have (gpus.ts).
  const opt = run("zhang2022-opt-175b");
  put(
    "a2.optIfModelFlops",
    v(
      opt.reported.kind === "megatron-tflops"
        ? (100 * opt.reported.tflopsPerGpu * 1e12) / gpu(opt.gpu).bf16FlopsPerSecond
        : Number.NaN,
      "%",
      d1,
    ),
  );

  // NVIDIA's Llama 3.1 405B recipe: its query groups (the recipe's config) against the released
  // model's (models.ts).
  put("a2.dgxc405bGroups", v(runArchitecture(run("dgxc-llama31-405b-576")).numKvHeads, "groups", d0));
  put("a2.llama405bGroups", v(parseModelConfig(preset("llama-3.1-405b").config).architecture.numKvHeads, "groups", d0));

  // Error against model size: the runs on Megatron-LM's own stacks (framework profile megatron) of
  // models of at least 300 billion parameters (a stated threshold; a proxy counts at its own size),
  // how many the model under-predicts in sample and their median signed error.
  put("a2.bigBillions", v(BIG_PARAMETERS / 1e9, "billion", d0));
  const bigMegatron = () =>
    inSample().filter(
      (e) => e.run.software.framework === "megatron" && countParameters(runConfig(e.run)).total >= BIG_PARAMETERS,
    );
  put(
    "a2.bigRuns",
    lazy(() => bigMegatron().length, "runs", d0),
  );
  put(
    "a2.bigUnder",
    lazy(() => bigMegatron().filter((e) => e.relativeError < 0).length, "runs", d0),
  );
  put(
    "a2.bigSignedMedian",
    lazy(() => -100 * signedMedian(bigMegatron().map((e) => e.relativeError)), "%", d1),
  );

  // The DP-only runs: how many run on PyTorch FSDP stacks (framework profile fsdp2), and the others.
  const dpOnly = PUBLISHED_RUNS.filter((r) => layoutClass(r) === "DP/FSDP only");
  put("a2.dpOnlyFsdp", v(dpOnly.filter((r) => r.software.framework === "fsdp2").length, "runs", d0));
  put("a2.dpOnlyOther", v(dpOnly.filter((r) => r.software.framework !== "fsdp2").length, "runs", d0));

  // MosaicML's long runs (≥ 16,384 tokens) whose attention is more than half the model FLOPs (compute.ts).
  put(
    "a2.mosaicLongAttnMajority",
    v(
      PUBLISHED_RUNS.filter((r) => {
        if (r.source !== "mosaicml2023benchmarks" || !long(r)) return false;
        const f = modelFlopsPerToken(runArchitecture(r), r.seqLength);
        return f.attentionTerm > f.total / 2;
      }).length,
      "runs",
      d0,
    ),
  );

  // Held out by source: the median of the sources' held-out medians, and the smallest and largest.
  const sourceMedians = () =>
    report()
      .bySource.map((x) => x.leaveOneSourceOut?.median ?? Number.NaN)
      .sort((a, b) => a - b);
  put(
    "a2.sourceMedianOfMedians",
    pct(() => signedMedian(sourceMedians())),
  );
  put(
    "a2.sourceMedianLow",
    pct(() => sourceMedians()[0] ?? Number.NaN),
  );
  put(
    "a2.sourceMedianHigh",
    pct(() => sourceMedians().at(-1) ?? Number.NaN),
  );

  // Ranking (validation.ts rankingCheck): pairs of runs of one model, sequence length and GPU type
  // in one source, in sample; those whose reported MFUs differ by more than the stated gap, how many
  // the model misorders, and how many of those it predicts within the stated tie of each other.
  const ranking = once(() => rankingCheck(inSample(), { minGap: RANK_GAP, tie: RANK_TIE }));
  put("a2.rank.gap", v(100 * RANK_GAP, "%", d0));
  put("a2.rank.tie", v(100 * RANK_TIE, "%", d0));
  put(
    "a2.rank.pairs",
    lazy(() => ranking().pairs, "pairs", d0),
  );
  put(
    "a2.rank.agree",
    lazy(() => ranking().agree, "pairs", d0),
  );
  put(
    "a2.rank.separated",
    lazy(() => ranking().separated, "pairs", d0),
  );
  put(
    "a2.rank.wrong",
    lazy(() => ranking().separatedWrong, "pairs", d0),
  );
  put(
    "a2.rank.ties",
    lazy(() => ranking().separatedWrongTies, "pairs", d0),
  );
}

/** The size from which the appendix calls a model large: 300 billion parameters (a stated threshold). */
const BIG_PARAMETERS = 300e9;
/** The ranking check's stated inputs: a measured gap worth ranking (5%) and a predicted tie (1%). */
const RANK_GAP = 0.05;
const RANK_TIE = 0.01;

/** The median of `values` (not their absolute values). */
function signedMedian(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  return n % 2 === 1 ? (sorted[(n - 1) / 2] ?? Number.NaN) : ((sorted[n / 2 - 1] ?? 0) + (sorted[n / 2] ?? 0)) / 2;
}

/** A run's config as a config object (a preset id resolved through models.ts). */
function runConfig(r: PublishedRun): Readonly<Record<string, unknown>> {
  return typeof r.config === "string" ? preset(r.config).config : r.config;
}
