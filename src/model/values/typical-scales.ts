/**
 * Computed values of the chapter "typical-scales" for its prose: `{=a2.name}` prints one (see
 * ../exercise-values.ts for the conventions: the value in its unit, how it prints, and a comment
 * that says which model function or stated input it comes from). Pure.
 *
 * Every value comes from the published runs of src/data/published-runs.ts and the step model's
 * evaluation of them (src/model/validation.ts). The leave-one-source-out refit and the refit
 * without MosaicML's runs take seconds, so their values are computed on first read (`lazy`), not
 * when every value is built.
 */
import { PUBLISHED_RUNS, type PublishedRun } from "../../data/published-runs.ts";
import { KERNEL_EFFICIENCY } from "../step.ts";
import {
  evaluateRuns,
  fitKernelEfficiency,
  leaveOneSourceOut,
  runArchitecture,
  summarizeErrors,
  type RunEvaluation,
} from "../validation.ts";
import { d0, d1, lazy, once, v, type PutValue } from "./put.ts";

export function typicalScalesValues(put: PutValue): void {
  const evaluations = evaluateRuns();
  const summary = summarizeErrors(evaluations);
  tableValues(put, evaluations);
  const run = (id: string): PublishedRun => {
    const r = PUBLISHED_RUNS.find((x) => x.id === id);
    if (!r) throw new Error(`typical-scales values: no published run "${id}"`);
    return r;
  };
  const evaluation = (id: string): RunEvaluation => {
    const e = evaluations.find((x) => x.run.id === id);
    if (!e) throw new Error(`typical-scales values: no evaluation of run "${id}"`);
    return e;
  };

  put("a2.runCount", v(PUBLISHED_RUNS.length, "runs", d0));
  // The two fitted kernel efficiencies (src/model/step.ts), in percent of dense peak.
  put("a2.effA100", v(100 * KERNEL_EFFICIENCY.ampere, "%", d0));
  put("a2.effH100", v(100 * KERNEL_EFFICIENCY.hopper, "%", d0));

  // Median and worst absolute error over every run; the worst run's GPU count.
  put("a2.medianError", v(100 * summary.medianAbsoluteError, "%", d1));
  put("a2.worstError", v(100 * summary.worstAbsoluteError, "%", d1));
  put("a2.worstRunGpus", v(run(summary.worstRun).gpuCount, "GPUs", d0));

  // Leave one source out: refit the efficiencies without it and predict it (slow: computed on read).
  const loso = once(() => summarizeErrors(leaveOneSourceOut()));
  put(
    "a2.losoMedian",
    lazy(() => 100 * loso().medianAbsoluteError, "%", d1),
  );
  put(
    "a2.losoWorst",
    lazy(() => 100 * loso().worstAbsoluteError, "%", d1),
  );
  // The H100 efficiency fitted without MosaicML's runs (only Llama 3's are left): the top of the grid.
  const withoutMosaic = PUBLISHED_RUNS.filter((r) => r.gpu === "h100-sxm" && r.source !== "mosaicml2023benchmarks");
  put(
    "a2.h100FitWithoutMosaic",
    lazy(() => 100 * (fitKernelEfficiency(withoutMosaic).hopper ?? Number.NaN), "%", d0),
  );

  // Misses by model shape: hidden sizes from the runs' architectures (errors: the table's values).
  put("a2.hidden1p7b", v(runArchitecture(run("narayanan2021-1-7b")).hiddenSize, "", d0));
  put("a2.hidden760m", v(runArchitecture(run("mosaicml-mpt-760m-2048-8-h100")).hiddenSize, "", d0));
  put("a2.hidden1t", v(runArchitecture(run("korthikanti2022-1t")).hiddenSize, "", d0));

  // MosaicML's runs with activation checkpointing: the range of their micro-batch sizes.
  const checkpointed = PUBLISHED_RUNS.filter(
    (r) => r.source === "mosaicml2023benchmarks" && r.layout.recompute === "full",
  ).map((r) => r.microBatchSize);
  put("a2.mosaicMicroMin", v(Math.min(...checkpointed), "sequences", d0));
  put("a2.mosaicMicroMax", v(Math.max(...checkpointed), "sequences", d0));
  // The three MosaicML runs the prose names: micro-batch size and GPU count (errors: the table's values).
  for (const [name, id] of [
    ["mpt30b32", "mosaicml-mpt-30b-2048-32-h100"],
    ["mpt70b64", "mosaicml-mpt-70b-2048-64-h100"],
    ["mpt70b32", "mosaicml-mpt-70b-2048-32-h100"],
  ] as const) {
    put(`a2.${name}Micro`, v(run(id).microBatchSize, "sequences", d0));
    put(`a2.${name}Gpus`, v(run(id).gpuCount, "GPUs", d0));
  }

  // Llama 3 405B's rows: sequence lengths, the chunks per stage we assumed, microbatches per replica
  // (errors: the table's values).
  const l8k = run("grattafiori2024-405b-8192-8192");
  const l16k = run("grattafiori2024-405b-16384-8192");
  const lLong = run("grattafiori2024-405b-16384-131072");
  put("a2.llama3Seq", v(l8k.seqLength, "tokens", d0));
  // Microbatches per replica in the step model's prediction (global batch over DP and micro-batch size).
  put("a2.llama3Micro8k", v(evaluation(l8k.id).prediction.microbatches, "microbatches", d0));
  put("a2.llama3Micro16k", v(evaluation(l16k.id).prediction.microbatches, "microbatches", d0));
  put("a2.llama3Stages", v(l8k.layout.pp, "stages", d0));
  put("a2.llama3LongSeq", v(lLong.seqLength, "tokens", d0));
  // Table 4 of the Llama 3 paper prints DP 4 for the long-context row (cited in the prose).
  const table4Dp = 4;
  put("a2.llama3Table4Gpus", v(table4Dp * lLong.layout.tp * lLong.layout.cp * lLong.layout.pp, "GPUs", d0));
  put("a2.llama3LongGpus", v(lLong.gpuCount, "GPUs", d0));
  put("a2.llama3LongDp", v(lLong.layout.dp, "", d0));

  // 3D-parallel A100 runs (MT-NLG, BLOOM, OPT): the bound on their error, rounded up to a percent.
  const threeD = evaluations.filter((e) =>
    ["smith2022megatronturing", "bigscience2022bloom", "zhang2022opt"].includes(e.run.source),
  );
  put("a2.threeDBound", v(Math.ceil(100 * Math.max(...threeD.map((e) => Math.abs(e.relativeError)))), "%", d0));
}

/**
 * The table of runs: for each run, the reported MFU converted to the book's definition
 * (validation.ts's reportedMfu), the step model's prediction and the absolute relative error, in
 * percent (`a2.reported.<run id>`, `a2.predicted.<run id>`, `a2.error.<run id>`), and the
 * interleaved chunks per stage of the data set (`a2.chunks.<run id>`; the table writes
 * the error's sign, which tests/chapters/a2-typical-scales.test.ts checks row by row).
 */
function tableValues(put: PutValue, evaluations: readonly RunEvaluation[]): void {
  for (const e of evaluations) {
    put(`a2.reported.${e.run.id}`, v(100 * e.reportedMfu, "%", d1));
    put(`a2.predicted.${e.run.id}`, v(100 * e.predictedMfu, "%", d1));
    put(`a2.error.${e.run.id}`, v(100 * Math.abs(e.relativeError), "%", d1));
    // Interleaved chunks per stage, as src/data/published-runs.ts
    // records them (its assumptions say which are filled in).
    if (e.run.layout.chunks !== undefined) put(`a2.chunks.${e.run.id}`, v(e.run.layout.chunks, "chunks", d0));
  }
}
