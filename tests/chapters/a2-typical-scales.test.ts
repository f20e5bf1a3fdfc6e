/**
 * Appendix on published runs (a2-typical-scales): every row of the table, the summary errors, the
 * leave-one-source-out errors and the misses quoted in the prose are recomputed from the step
 * model (src/model/step.ts, validation.ts) and the data set (src/data/published-runs.ts).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  EXCLUDED_RUNS,
  evaluateRuns,
  KERNEL_EFFICIENCY,
  leaveOneSourceOut,
  PUBLISHED_RUNS,
  stepTime,
  summarizeErrors,
} from "../../src/model/index.ts";
import { assertMentions, readChapter } from "../helpers/chapter-text.ts";
import { pct1, runRow } from "./a2-rows.ts";
import { assertApprox } from "../helpers/approx.ts";

const text = readChapter("a2-typical-scales");
const evaluations = evaluateRuns();
const summary = summarizeErrors(evaluations);
const err = (id: string) => {
  const e = evaluations.find((x) => x.run.id === id);
  assert.ok(e, id);
  return pct1(Math.abs(e.relativeError));
};

test("the table has one row per run, each recomputed by the step model", () => {
  for (const e of evaluations) assertMentions(text, runRow(e), e.run.id);
  assertMentions(text, `of ${PUBLISHED_RUNS.length} training runs`, "run count");
});

test("fitted efficiencies, median and worst error", () => {
  assertMentions(
    text,
    `${Math.round(KERNEL_EFFICIENCY.ampere * 100)}% of peak on A100 and ${Math.round(KERNEL_EFFICIENCY.hopper * 100)}% on H100`,
    "efficiencies",
  );
  assertMentions(
    text,
    `median absolute error is ${pct1(summary.medianAbsoluteError)} and the worst is ${pct1(summary.worstAbsoluteError)}, for MPT-760M on 8 H100s`,
    "summary",
  );
  assert.equal(summary.worstRun, "mosaicml-mpt-760m-2048-8-h100");
  assertMentions(
    text,
    `median error of ${pct1(summary.medianAbsoluteError)} and a worst of ${pct1(summary.worstAbsoluteError)},`,
    "takeaway",
  );
});

test("leave-one-source-out error", () => {
  const held = summarizeErrors(leaveOneSourceOut());
  assertMentions(
    text,
    `median error of\n${pct1(held.medianAbsoluteError)}, and a worst of ${pct1(held.worstAbsoluteError)}`,
    "LOSO",
  );
  assert.equal(held.worstRun.startsWith("mosaicml"), true);
  assertMentions(text, `(median ${pct1(held.medianAbsoluteError)})`, "LOSO takeaway");
  const h100 = PUBLISHED_RUNS.filter((r) => r.gpu === "h100-sxm");
  assert.equal(h100.length, 16);
  assert.equal(h100.filter((r) => r.source === "mosaicml2023benchmarks").length, 13);
  assertMentions(text, "Thirteen of the sixteen H100 runs", "H100 share");
});

test("misses quoted in the prose", () => {
  assertMentions(text, `over-predicted by ${err("narayanan2021-1-7b")}`, "1.7B");
  assertMentions(text, `MPT-760M, hidden size 1,536, by ${err("mosaicml-mpt-760m-2048-8-h100")}`, "760M");
  assertMentions(text, `under-predicted by ${err("korthikanti2022-1t")}`, "1T");
  assertMentions(text, `(MPT-30B on 32 GPUs by ${err("mosaicml-mpt-30b-2048-32-h100")})`, "MPT-30B");
  assertMentions(text, `MPT-70B on 64 GPUs with 8 by\n${err("mosaicml-mpt-70b-2048-64-h100")}`, "MPT-70B, 64 GPUs");
  assertMentions(text, `microbatches of 2 by only ${err("mosaicml-mpt-70b-2048-32-h100")}`, "MPT-70B, 32 GPUs");
  assertMentions(
    text,
    `under-predicted by ${err("grattafiori2024-405b-8192-8192")} and ${err("grattafiori2024-405b-16384-8192")}`,
    "Llama 3 8K",
  );
  assertMentions(text, `over-predicted by ${err("grattafiori2024-405b-16384-131072")}`, "Llama 3 128K");
  for (const id of [
    "smith2022-530b-2240",
    "smith2022-530b-2800",
    "smith2022-530b-3360",
    "bigscience2022-bloom-176b",
    "zhang2022-opt-175b",
  ]) {
    assertApprox(evaluations.find((e) => e.run.id === id)!.relativeError, 0, { abs: 0.09 }, id);
  }
});

test("runs left out are listed with their reasons", () => {
  for (const x of EXCLUDED_RUNS) assertMentions(text, `**${x.model}** [@${x.source}]`, x.model);
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
