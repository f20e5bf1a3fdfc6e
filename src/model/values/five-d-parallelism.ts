/**
 * Computed values of the chapter "five-d-parallelism" for its prose: `{=ch8.name}` prints one (see
 * ../exercise-values.ts for the conventions: the value in its unit, how it prints, and a comment
 * that says which model function or stated input it comes from). Pure.
 *
 * The chapter's stated inputs: Llama 3.1 70B at s = 8,192 with b = 1; H100 SXM servers of eight
 * GPUs; the default search of @sec:widget (256 GPUs, a batch of 512 sequences) and its long-context
 * variant (131,072 tokens, batch 32); the hand-built layouts TP 8 alone (DP 32), TP 8 · PP 4 (DP 8)
 * and TP 4 · PP 4 (DP 16) with ZeRO-1; the exercises' givens (repeated below where used).
 *
 * Values that need the configuration search are lazy (computed on first read, each search run
 * once): the two searches take seconds, which a reader of another chapter's values (a chapter
 * test, the exercise checks) should not pay.
 */
import { d0, d1, d2, d3, gpu, interconnect, lazy, once, preset, v, type PutValue } from "./put.ts";
import { at } from "../errors.ts";
import { PUBLISHED_RUNS } from "../../data/published-runs.ts";
import { KERNEL_EFFICIENCY } from "../step.ts";
import { searchConfigurations, type RankedConfig } from "../config-search.ts";
import { trainingMemory } from "../memory.ts";
import { countParameters } from "../parameters.ts";
import { parseModelConfig } from "../architecture.ts";

const GB = 1e9;

export function fiveDParallelismValues(put: PutValue): void {
  const h100 = gpu("h100-sxm");
  const net = interconnect("h100-sxm");
  const c70 = preset("llama-3.1-70b").config;
  const arch70 = parseModelConfig(c70).architecture;
  const n70 = countParameters(c70).total;
  const n405 = countParameters(preset("llama-3.1-405b").config).total;
  const s = 8192; // the chapter's sequence length

  // The chapter's searches (config-search.ts), run once on first read.
  const search = once(() =>
    searchConfigurations({ config: c70, gpu: h100, gpuCount: 256, seqLength: s, globalBatchSequences: 512 }),
  );
  const longSearch = once(() =>
    searchConfigurations({ config: c70, gpu: h100, gpuCount: 256, seqLength: 131072, globalBatchSequences: 32 }),
  );
  const find = (what: string, p: (c: RankedConfig) => boolean) => {
    const k = search().ranked.findIndex(p);
    if (k < 0) throw new Error(`five-d-parallelism values: no ranked configuration ${what}`);
    return { rank: k + 1, c: at(search().ranked, k, `five-d-parallelism values: ranked configuration ${what}`) };
  };
  const top = () => at(search().ranked, 0, "five-d-parallelism values: best ranked configuration");
  const hand = () =>
    find(
      "TP 8 · PP 4 · DP 8, ZeRO-1",
      (c) =>
        c.tp === 8 &&
        c.pp === 4 &&
        c.dp === 8 &&
        c.cp === 1 &&
        c.zeroStage === 1 &&
        c.recompute === "none" &&
        c.microBatchSize === 1,
    ).c;
  const noPp = () => find("TP 8 without PP or CP", (c) => c.tp === 8 && c.pp === 1 && c.cp === 1).c;
  const old = () => find("CP 8 · PP 32", (c) => c.cp === 8 && c.pp === 32 && c.tp === 1);
  const llamaShape = () => find("TP 8 · PP 16", (c) => c.tp === 8 && c.pp === 16 && c.cp === 1);
  const longNoCp = () => {
    const c = longSearch().ranked.find((x) => x.cp === 1);
    if (!c) throw new Error("five-d-parallelism values: no long-context layout without CP");
    return c;
  };
  // Usable memory per GPU: the search's limit (90% of HBM by default).
  const usableGB = () => search().memoryLimitBytes / GB;

  // Introduction and @sec:zero3-vs-pp: states (16 bytes per parameter), bf16 weights, a stage boundary.
  put("ch8.states70GB", v((16 * n70) / GB, "GB", d1));
  put("ch8.weights70GB", v((2 * n70) / GB, "GB", d1));
  put("ch8.gathers70GB", v((4 * n70) / GB, "GB", d1));
  put("ch8.ppSendMB", v((s * arch70.hiddenSize * 2) / 1e6, "MB", d1));

  // ZeRO-3 threshold F/W at the H100's fitted efficiency (step.ts) and measured bandwidths (interconnects.ts).
  const F = KERNEL_EFFICIENCY.hopper * h100.bf16FlopsPerSecond;
  const eight = Math.min(net.nvlinkRingBusBytesPerSecond, net.gpusPerNode * net.nicBusBytesPerSecond);
  put("ch8.etaHopper", v(100 * KERNEL_EFFICIENCY.hopper, "%", d0));
  put("ch8.fTflops", v(F / 1e12, "TFLOPS", d1));
  put("ch8.tStarRing", v(F / net.nvlinkRingBusBytesPerSecond, "tokens", d0));
  put("ch8.tStarRingAbout", v(F / net.nvlinkRingBusBytesPerSecond, "tokens", { significant: 2 }));
  put("ch8.tStarNic", v(F / net.nicBusBytesPerSecond, "tokens", d0));
  put("ch8.tStarNicAbout", v(F / net.nicBusBytesPerSecond, "tokens", { significant: 2 }));
  put("ch8.eightNicsGBps", v(eight / GB, "GB/s", d0));
  put("ch8.tStarEight", v(F / eight, "tokens", d0));
  put("ch8.tStarEightAbout", v(F / eight, "tokens", { significant: 2 }));
  put("ch8.gpusPerServer", v(net.gpusPerNode, "GPUs", d0));

  // @sec:fit: usable memory, the smallest sharding, and trainingMemory of the hand-built layouts.
  put("ch8.usableGB", lazy(usableGB, "GB", d0));
  put(
    "ch8.usablePercent",
    lazy(() => (100 * search().memoryLimitBytes) / h100.hbmBytes, "%", d0),
  );
  put(
    "ch8.statesGpus70",
    lazy(() => Math.ceil((16 * n70) / (usableGB() * GB)), "GPUs", d0),
  );
  put(
    "ch8.serverStatesBillion",
    lazy(() => (net.gpusPerNode * usableGB() * GB) / 16 / 1e9, "billion", d0),
  );
  const mem = (tp: number, pp: number, dp: number, recompute: "none" | "full" = "none") =>
    trainingMemory(c70, {
      seqLength: s,
      microBatchSize: 1,
      tp,
      pp,
      dp,
      sequenceParallel: true,
      zeroStage: 1,
      recompute,
      microbatches: 512 / dp,
    }).perGpu;
  const states = (m: ReturnType<typeof mem>) => m.parameters + m.gradients + m.optimizer;
  const a = mem(8, 1, 32);
  const b = mem(8, 4, 8);
  const c = mem(4, 4, 16);
  put("ch8.memTp8StatesGB", v(states(a) / GB, "GB", d1));
  put("ch8.memTp8ActsGB", v(a.activations / GB, "GB", d1));
  put("ch8.memTp8TotalGB", v(a.total / GB, "GB", d1));
  put("ch8.memTp8Pp4StatesGB", v(states(b) / GB, "GB", d1));
  put("ch8.memTp8Pp4ActsGB", v(b.activations / GB, "GB", d1));
  put("ch8.memTp8Pp4TotalGB", v(b.total / GB, "GB", d1));
  put("ch8.memTp4Pp4ActsGB", v(c.activations / GB, "GB", d1));
  put("ch8.memTp4Pp4TotalGB", v(c.total / GB, "GB", d1));
  put("ch8.memFullRecomputeActsGB", v(mem(8, 4, 8, "full").activations / GB, "GB", d1));

  // @sec:batch: B = 512 sequences of s tokens; TP 8 without a pipeline on 256 GPUs has d = 32.
  put("ch8.batchTokens", v(512 * s, "tokens", d0));
  put("ch8.batchHandDp", v(256 / (8 * 4), "", d0));
  put("ch8.batchHandM", v(512 / (256 / (8 * 4)), "microbatches", d0));
  put("ch8.batchNoPpDp", v(256 / 8, "", d0));
  put("ch8.batchNoPpM", v(512 / (256 / 8), "microbatches", d0));
  put("ch8.noPpSequencesPerReplica", v(512 / (256 / 8), "sequences", d0));

  // @sec:rank and @sec:widget: the default search.
  put("ch8.publishedRuns", v(PUBLISHED_RUNS.length, "runs", d0));
  put(
    "ch8.topComputeSeconds",
    lazy(() => top().computeSeconds, "s", d2),
  );
  put(
    "ch8.handBubbleSeconds",
    lazy(() => hand().bubbleSeconds, "s", d3),
  );
  put(
    "ch8.handTpSeconds",
    lazy(() => hand().exposedSeconds.tp, "s", d3),
  );
  put(
    "ch8.handStepSeconds",
    lazy(() => hand().stepSeconds, "s", d2),
  );
  put(
    "ch8.handMfu",
    lazy(() => 100 * hand().mfu, "%", d1),
  );
  put(
    "ch8.noPpDp",
    lazy(() => noPp().dp, "", d0),
  );
  put(
    "ch8.noPpStepSeconds",
    lazy(() => noPp().stepSeconds, "s", d2),
  );
  put(
    "ch8.noPpMfu",
    lazy(() => 100 * noPp().mfu, "%", d1),
  );
  put(
    "ch8.configsTried",
    lazy(() => search().configsTried, "configurations", d0),
  );
  put(
    "ch8.ruledOutBatch",
    lazy(() => search().ruledOutBatch, "configurations", d0),
  );
  put(
    "ch8.ruledOutMemory",
    lazy(() => search().ruledOutMemory, "configurations", d0),
  );
  put(
    "ch8.rankedCount",
    lazy(() => search().ranked.length, "configurations", d0),
  );
  put(
    "ch8.topDp",
    lazy(() => top().dp, "", d0),
  );
  put(
    "ch8.topCp",
    lazy(() => top().cp, "", d0),
  );
  put(
    "ch8.topStepSeconds",
    lazy(() => top().stepSeconds, "s", d2),
  );
  put(
    "ch8.topMfu",
    lazy(() => 100 * top().mfu, "%", d1),
  );
  put(
    "ch8.topTokensPerMicrobatch",
    lazy(() => (s / top().cp) * top().microBatchSize, "tokens", d0),
  );
  put(
    "ch8.topCpSeconds",
    lazy(() => top().exposedSeconds.cp, "s", d3),
  );
  put("ch8.hidden70", v(arch70.hiddenSize, "", d0));
  put("ch8.layers70", v(arch70.numLayers, "layers", d0));
  put("ch8.vocab70", v(arch70.vocabSize, "words", d0));
  put(
    "ch8.oldImbalance",
    lazy(() => old().c.stageImbalance, "", d3),
  );
  put(
    "ch8.oldRank",
    lazy(() => old().rank, "", d0),
  );
  put(
    "ch8.oldStepSeconds",
    lazy(() => old().c.stepSeconds, "s", d2),
  );
  put(
    "ch8.oldMfu",
    lazy(() => 100 * old().c.mfu, "%", d1),
  );
  put(
    "ch8.llamaShapeDp",
    lazy(() => llamaShape().c.dp, "", d0),
  );
  put(
    "ch8.llamaShapeRank",
    lazy(() => llamaShape().rank, "", d0),
  );
  put(
    "ch8.llamaShapeStepSeconds",
    lazy(() => llamaShape().c.stepSeconds, "s", d2),
  );
  put(
    "ch8.llamaShapeImbalance",
    lazy(() => llamaShape().c.stageImbalance, "", d3),
  );
  put(
    "ch8.llamaShapeTpSeconds",
    lazy(() => llamaShape().c.exposedSeconds.tp, "s", d3),
  );
  // Llama 3's 16M-token batch (2^24 tokens, Table 4) in 8,192-token sequences.
  put("ch8.llamaBatchSequences", v(2 ** 24 / s, "sequences", d0));
  put(
    "ch8.longNoCpTp",
    lazy(() => longNoCp().tp, "", d0),
  );
  put(
    "ch8.longNoCpStepSeconds",
    lazy(() => longNoCp().stepSeconds, "s", d2),
  );
  put(
    "ch8.longBestStepSeconds",
    lazy(
      () => at(longSearch().ranked, 0, "five-d-parallelism values: best long-context configuration").stepSeconds,
      "s",
      d2,
    ),
  );

  // @sec:regimes rule 3: (p − 1)/(4p) at p = 8, and its limit 1/4.
  put("ch8.ruleBubbleLow", v((100 * 7) / 32, "%", d0));
  put("ch8.ruleBubbleHigh", v(100 / 4, "%", d0));
  // @sec:sweeps: the pipeline configuration's 153 → 141 TFLOPS per A100 (Narayanan et al., Table 2).
  put("ch8.narayananPipelineLoss", v(100 * (1 - 141 / 153), "%", d0));

  // Exercise 1: 405B with TP 8 · PP 16 (128 GPUs); states over 72 GB usable; Llama 3's FSDP (2 + 14/64 bytes).
  put(
    "ch8.states405Gpus",
    lazy(() => (16 * n405) / (usableGB() * GB), "GPUs", d1),
  );
  put("ch8.modelParallel405", v(8 * 16, "ways", d0));
  put("ch8.params405PerGpuBillion", v(n405 / 128 / 1e9, "billion", d2));
  put("ch8.fsdp405GB", v(((n405 / 128) * (2 + 14 / 64)) / GB, "GB", d1));

  // Exercise 4: a TP group of four GPUs in each of two servers crosses on four NICs.
  const straddle = Math.min(net.nvlinkRingBusBytesPerSecond, 4 * net.nicBusBytesPerSecond);
  const straddleStep = () =>
    hand().stepSeconds -
    hand().exposedSeconds.tp +
    (hand().exposedSeconds.tp * net.nvlinkRingBusBytesPerSecond) / straddle;
  put("ch8.straddleGBps", v(straddle / GB, "GB/s", d0));
  put("ch8.straddleStepSeconds", lazy(straddleStep, "s", d1));
  put(
    "ch8.straddleMfu",
    lazy(() => (100 * hand().mfu * hand().stepSeconds) / straddleStep(), "%", d0),
  );

  // Exercise 5 (givens): 54 days, 419 interruptions, a 10-minute restart, a failure halfway through an
  // interval of 60 minutes (b) or 30 minutes (c), a 1-minute pause per checkpoint write.
  const hours = 54 * 24;
  const lossB = 60 / 2 + 10;
  const lossC = 30 / 2 + 10;
  const lostB = (419 * lossB) / 60;
  const lostC = (419 * lossC) / 60;
  const writesB = (hours * 60) / 60 / 60; // one write per hour, one minute each, in hours
  const writesC = (hours * 60) / 30 / 60;
  put("ch8.snapshotHours", v(hours, "hours", d0));
  put("ch8.halfIntervalMinutes", v(60 / 2, "minutes", d0));
  put("ch8.lossPerInterruptionMinutes", v(lossB, "minutes", d0));
  put("ch8.lostHours", v(lostB, "hours", d1));
  put("ch8.halfIntervalCMinutes", v(30 / 2, "minutes", d0));
  put("ch8.lossPerInterruptionCMinutes", v(lossC, "minutes", d0));
  put("ch8.lostCHours", v(lostC, "hours", d1));
  put("ch8.lostCShare", v((100 * lostC) / hours, "%", d1));
  put("ch8.writesCMinutes", v(writesC * 60, "minutes", d0));
  put("ch8.writesCHours", v(writesC, "hours", d1));
  put("ch8.writesCShare", v((100 * writesC) / hours, "%", d1));
  put("ch8.writesBHours", v(writesB, "hours", d1));
  put("ch8.writesBShare", v((100 * writesB) / hours, "%", d1));
  put("ch8.totalBShare", v((100 * (lostB + writesB)) / hours, "%", d1));
  put("ch8.totalCShare", v((100 * (lostC + writesC)) / hours, "%", d1));
}
