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
import { PUBLISHED_RUNS, RUN_SOURCES, type PublishedRun } from "../../data/published-runs.ts";
import {
  evaluateInSample,
  fitKernelEfficiency,
  layoutClass,
  leaveOneSourceOut,
  runArchitecture,
  stepShares,
  summarizeErrors,
  validationReport,
  whatIfStudies,
  type LayoutClass,
  type RunEvaluation,
  bookConstantsGap,
  REFIT_THRESHOLD,
} from "../validation.ts";
import { KERNEL_EFFICIENCY } from "../step.ts";
import { d0, d1, lazy, once, preset, v, type PutValue } from "./put.ts";
import { fact } from "./facts.ts";
import { modelFlopsPerToken } from "../compute.ts";

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

  // In sample on H100: how many of NVIDIA's recipe runs the model under-predicts, and how many of
  // the PyTorch FSDP runs (framework profile fsdp2) it over-predicts.
  put(
    "a2.dgxcUnder",
    lazy(
      () => inSample().filter((e) => e.run.source === "nvidia2024dgxcbenchmarking" && e.relativeError < 0).length,
      "runs",
      d0,
    ),
  );
  const fsdpH100 = (e: RunEvaluation) => e.run.gpu === "h100-sxm" && e.run.software.framework === "fsdp2";
  put(
    "a2.fsdpH100Runs",
    v(PUBLISHED_RUNS.filter((r) => r.gpu === "h100-sxm" && r.software.framework === "fsdp2").length, "runs", d0),
  );
  put(
    "a2.fsdpH100Over",
    lazy(() => inSample().filter((e) => fsdpH100(e) && e.relativeError > 0).length, "runs", d0),
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
}
