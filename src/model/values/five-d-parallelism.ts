/**
 * Computed values of the chapter "five-d-parallelism" for its prose: `{=ch8.name}` prints one (see
 * ../exercise-values.ts for the conventions: the value in its unit, how it prints, and a comment
 * that says which model function or stated input it comes from). Pure.
 *
 * Every time, memory figure and bandwidth comes from the engine: evaluateScenario (scenario.ts)
 * with a framework profile (src/data/frameworks.ts), the configuration search (config-search.ts,
 * which evaluates each ZeRO stage with its framework) and groupLink (placement.ts), which prices a
 * group from where its ranks sit. Nothing here types a bandwidth or an efficiency.
 *
 * The chapter's stated inputs: Llama 3.1 70B at s = 8,192 with b = 1; H100 SXM servers; the default
 * search of @sec:widget (256 GPUs, a batch of 512 sequences) and the variants its "Things to try"
 * paragraph names (1,024 GPUs; 131,072 tokens with a batch of 32; an A100 40 GB); the hand-built
 * layouts TP 8 alone (DP 32), TP 8 · PP 4 (DP 8) and TP 4 · PP 4 (DP 16) with ZeRO-1 under the
 * Megatron-LM profile; Llama 3 405B on 16,384 GPUs (TP 8 or CP 8, PP 16, FSDP without resharding,
 * a batch of 2,048 sequences); GPT 175B (h 12,288, 96 heads, 96 layers, 51,200-word vocabulary,
 * 2,048 tokens) under ZeRO-3 on 384 and 1,536 A100s for Narayanan et al.'s comparison; the
 * exercises' givens (repeated below where used).
 *
 * Values that need a configuration search are lazy (computed on first read, each search run
 * once): the searches take seconds, which a reader of another chapter's values (a chapter test,
 * the exercise checks) should not pay.
 */
import { d0, d1, d2, d3, gpu, lazy, once, preset, v, type PutValue } from "./put.ts";
import { at } from "../errors.ts";
import { PUBLISHED_RUNS } from "../../data/published-runs.ts";
import { findFrameworkProfile, type FrameworkId } from "../../data/frameworks.ts";
import { balancedStageLayers, gpuGeneration, KERNEL_EFFICIENCY, stepTime, type StepResult } from "../step.ts";
import { AUTO_FRAMEWORK, searchConfigurations, type ConfigSearchResult, type RankedConfig } from "../config-search.ts";
import { evaluateScenario, memoryBudget, type Evaluation, type ScenarioLayout } from "../scenario.ts";
import { clusterShape, groupLink, ringSteps } from "../placement.ts";
import { bytesPerParameter, frameworkLayout } from "../memory.ts";
import type { Recompute } from "../activations.ts";
import { countParameters } from "../parameters.ts";
import { modelFlopsPerToken } from "../compute.ts";
import { parseModelConfig } from "../architecture.ts";
import { fact } from "./facts.ts";

const GB = 1e9;
const MODEL = "llama-3.1-70b";
const GPU = "h100-sxm";
/** The chapter's sequence length, GPU count and global batch (sequences). */
const S = 8192;
const GPUS = 256;
const BATCH = 512;

/** The chapter's default search (@sec:widget): Llama 3.1 70B on 256 H100s, 512 sequences of 8,192 tokens. */
export const chapterEightSearch = once(() =>
  searchConfigurations({
    config: preset(MODEL).config,
    gpu: gpu(GPU),
    gpuCount: GPUS,
    seqLength: S,
    globalBatchSequences: BATCH,
  }),
);

/** The fastest configuration of the chapter's default search. */
export function chapterEightTop(): RankedConfig {
  return at(chapterEightSearch().ranked, 0, "five-d-parallelism values: best ranked configuration");
}

/** A ranked row of the default search as a scenario, with overrides of its layout (the engine's evaluation). */
export function evaluateRanked(
  c: RankedConfig,
  overrides: ScenarioLayout = {},
  cluster: { gpuCount?: number; seqLength?: number; globalBatch?: number; model?: string } = {},
): Evaluation {
  return evaluateScenario({
    model: cluster.model ?? MODEL,
    cluster: { gpu: GPU, gpuCount: cluster.gpuCount ?? GPUS },
    framework: c.framework,
    layout: {
      tp: c.tp,
      pp: c.pp,
      cp: c.cp,
      ep: c.ep,
      dp: c.dp,
      zeroStage: c.zeroStage,
      stageLayers: c.stageLayers,
      ...overrides,
    },
    batch: {
      seqLength: cluster.seqLength ?? S,
      microBatchSize: c.microBatchSize,
      globalBatch: cluster.globalBatch ?? BATCH,
    },
    recompute: c.recompute,
  });
}

/** A data-parallel transfer of a step by the start of its name. */
function transfer(r: StepResult, prefix: string) {
  const t = r.dpTransfers.find((x) => x.name.startsWith(prefix));
  if (!t) throw new Error(`five-d-parallelism values: no transfer "${prefix}"`);
  return t;
}

/** Bytes per gradient value a framework reduces in by default. */
function gradBytes(framework: FrameworkId): number {
  const profile = findFrameworkProfile(framework);
  if (!profile) throw new Error(`five-d-parallelism values: no framework "${framework}"`);
  return profile.gradientReduceDtype.value === "fp32" ? 4 : 2;
}

export function fiveDParallelismValues(put: PutValue): void {
  const h100 = gpu(GPU);
  const c70 = preset(MODEL).config;
  const arch70 = parseModelConfig(c70).architecture;
  const n70 = countParameters(c70).total;
  const n405 = countParameters(preset("llama-3.1-405b").config).total;
  const arch405 = parseModelConfig(preset("llama-3.1-405b").config).architecture;
  const budget = memoryBudget(h100);
  const usableGB = budget.usableBytes / GB;
  const cluster = clusterShape(GPU);
  const perServer = cluster.gpusPerServer;

  // A scenario of the chapter's case (70B, 256 H100s, s = 8,192, B = 512) under a framework.
  const scenario = (
    framework: FrameworkId,
    layout: ScenarioLayout,
    extra: { recompute?: Recompute; microBatchSize?: number; gpuCount?: number } = {},
  ) =>
    evaluateScenario({
      model: MODEL,
      cluster: { gpu: GPU, gpuCount: extra.gpuCount ?? GPUS },
      framework,
      layout,
      batch: { seqLength: S, microBatchSize: extra.microBatchSize ?? 1, globalBatch: BATCH },
      recompute: extra.recompute ?? "none",
    });

  const search = chapterEightSearch;
  const searchAt = (gpuCount: number, seqLength: number, globalBatchSequences: number, gpuId = GPU) =>
    once(() => searchConfigurations({ config: c70, gpu: gpu(gpuId), gpuCount, seqLength, globalBatchSequences }));
  const longSearch = searchAt(GPUS, 131072, 32);
  const bigSearch = searchAt(1024, S, BATCH);
  const a100Search = searchAt(GPUS, S, BATCH, "a100-sxm-40gb");
  const find = (result: () => ConfigSearchResult, what: string, p: (c: RankedConfig) => boolean) => {
    const k = result().ranked.findIndex(p);
    if (k < 0) throw new Error(`five-d-parallelism values: no ranked configuration ${what}`);
    return { rank: k + 1, c: at(result().ranked, k, `five-d-parallelism values: ranked configuration ${what}`) };
  };
  const top = chapterEightTop;
  // The per-layer ZeRO-3 layout without a pipeline: CP 4 over 64 replicas, one sequence per microbatch.
  const cp4 = () =>
    find(
      search,
      "CP 4 · DP 64, ZeRO-3, b = 1",
      (c) =>
        c.tp === 1 && c.pp === 1 && c.cp === 4 && c.zeroStage === 3 && c.recompute === "none" && c.microBatchSize === 1,
    );
  const hand = () =>
    find(
      search,
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
  const noPp = () => find(search, "TP 8 without PP or CP", (c) => c.tp === 8 && c.pp === 1 && c.cp === 1).c;
  const noPpB1 = () =>
    find(
      search,
      "TP 8, ZeRO-3, b = 1",
      (c) =>
        c.tp === 8 && c.pp === 1 && c.cp === 1 && c.zeroStage === 3 && c.recompute === "none" && c.microBatchSize === 1,
    ).c;
  const old = () => find(search, "CP 8 · PP 32", (c) => c.cp === 8 && c.pp === 32 && c.tp === 1);
  const llamaShape = () => find(search, "TP 8 · PP 16", (c) => c.tp === 8 && c.pp === 16 && c.cp === 1);
  const cp8 = () => find(search, "CP 8 without TP or PP", (c) => c.cp === 8 && c.tp === 1 && c.pp === 1).c;
  const longNoCp = () => find(longSearch, "long context without CP", (c) => c.cp === 1).c;
  const longBest = () => at(longSearch().ranked, 0, "five-d-parallelism values: best long-context configuration");
  const bigTop = () => at(bigSearch().ranked, 0, "five-d-parallelism values: best configuration on 1,024 GPUs");

  // Mixed-precision Adam's model states per parameter (memory.ts): bf16 weights and gradients, fp32 master
  // weights and Adam's two moments (16 bytes; ZeRO's 2 + 2 + K with K = 12).
  const perParam = bytesPerParameter("bf16");
  const bpp = perParam.parameters + perParam.gradients + perParam.optimizer;
  put("ch8.bytesPerParam", v(bpp, "bytes", d0));
  put("ch8.weightBytes", v(perParam.parameters, "bytes", d0));
  put("ch8.gradBytes", v(perParam.gradients, "bytes", d0));
  put("ch8.optimizerBytes", v(perParam.optimizer, "bytes", d0));
  put("ch8.zero1WholeBytes", v(perParam.parameters + perParam.gradients, "bytes", d0));

  // Introduction and @sec:zero3-vs-pp: states, bf16 weights, a stage boundary.
  put("ch8.states70GB", v((bpp * n70) / GB, "GB", d1));
  put("ch8.weights70GB", v((2 * n70) / GB, "GB", d1));
  put("ch8.gathers70GB", v((4 * n70) / GB, "GB", d1));
  put("ch8.ppSendMB", v((S * arch70.hiddenSize * 2) / 1e6, "MB", d1));

  // @eq:zero3-tokens: F at the Hopper kernel efficiency (step.ts), W from where the sharding group sits
  // (placement.ts): eight ranks in one server, one rank per server (stride 8, as under TP 8), all eight
  // GPUs of every server (the chapter's 256 ranks, stride 1). The backward window binds: T* = (2 + g)/4 · F/W with g the
  // bytes per gradient value of the search's ZeRO-3 profile (AUTO_FRAMEWORK[3]).
  const eta = KERNEL_EFFICIENCY[gpuGeneration(GPU)];
  const F = eta * h100.bf16FlopsPerSecond;
  const ring = groupLink(cluster, "all-gather", { ranks: perServer, stride: 1 });
  const nic = groupLink(cluster, "all-gather", { ranks: GPUS / perServer, stride: perServer });
  const eight = groupLink(cluster, "all-gather", { ranks: GPUS, stride: 1 });
  const g = gradBytes(AUTO_FRAMEWORK[3]);
  const factor = (2 + g) / 4;
  const tStar = (w: number) => (factor * F) / w;
  put("ch8.etaHopper", v(100 * eta, "%", d0));
  put("ch8.etaAmpere", v(100 * KERNEL_EFFICIENCY.ampere, "%", d0));
  put("ch8.fTflops", v(F / 1e12, "TFLOPS", d1));
  put("ch8.gradBytesZ3", v(g, "bytes", d0));
  put("ch8.z3Factor", v(factor, "", d1));
  put("ch8.ringGBps", v(ring.busBytesPerSecond / GB, "GB/s", d0));
  put("ch8.nicGBps", v(nic.busBytesPerSecond / GB, "GB/s", d0));
  put("ch8.eightNicsGBps", v(eight.busBytesPerSecond / GB, "GB/s", d0));
  put("ch8.tStarRing", v(tStar(ring.busBytesPerSecond), "tokens", d0));
  put("ch8.tStarRingAbout", v(tStar(ring.busBytesPerSecond), "tokens", { significant: 2 }));
  put("ch8.tStarNic", v(tStar(nic.busBytesPerSecond), "tokens", d0));
  put("ch8.tStarNicAbout", v(tStar(nic.busBytesPerSecond), "tokens", { significant: 2 }));
  put("ch8.tStarEight", v(tStar(eight.busBytesPerSecond), "tokens", d0));
  put("ch8.tStarEightAbout", v(tStar(eight.busBytesPerSecond), "tokens", { significant: 2 }));
  put("ch8.tStarBf16Nic", v(F / nic.busBytesPerSecond, "tokens", d0));
  put("ch8.tpThresholdFactor", v(eight.busBytesPerSecond / nic.busBytesPerSecond, "", d0));
  put("ch8.gpusPerServer", v(perServer, "GPUs", d0));
  put("ch8.interHopMicroseconds", v(eight.hopLatencySeconds * 1e6, "µs", d0));

  // ZeRO-3 and the GPU count: the per-layer ZeRO-3 layout of @sec:widget (CP 4 over 64 replicas, a 256-rank
  // sharding group) against the same layout on 1,024 GPUs (DP 256): each per-layer call pays n − 1 ring-step
  // latencies.
  const cp4Eval = once(() => evaluateRanked(cp4().c).step);
  const layerCalls = (r: StepResult) => ({
    forward: transfer(r, "parameter all-gather (forward"),
    backward: transfer(r, "parameter all-gather (backward"),
  });
  const latencyMs = (ranks: number) => ringSteps("all-gather", ranks) * eight.hopLatencySeconds * 1e3;
  put(
    "ch8.cp4Rank",
    lazy(() => cp4().rank, "", d0),
  );
  put(
    "ch8.cp4Dp",
    lazy(() => cp4().c.dp, "", d0),
  );
  put(
    "ch8.cp4StepSeconds",
    lazy(() => cp4().c.stepSeconds, "s", d2),
  );
  put(
    "ch8.cp4DpSeconds",
    lazy(() => cp4().c.exposedSeconds.dp, "s", d2),
  );
  put(
    "ch8.cp4TokensPerMicrobatch",
    lazy(() => (S / cp4().c.cp) * cp4().c.microBatchSize, "tokens", d0),
  );
  put(
    "ch8.cp4ShardRanks",
    lazy(() => layerCalls(cp4Eval()).forward.ranks, "ranks", d0),
  );
  put(
    "ch8.cp4GatherMs",
    lazy(() => layerCalls(cp4Eval()).forward.secondsPerCall * 1e3, "ms", d1),
  );
  put(
    "ch8.cp4BackwardMs",
    lazy(() => layerCalls(cp4Eval()).backward.secondsPerCall * 1e3, "ms", d1),
  );
  put(
    "ch8.cp4BackwardWindowMs",
    lazy(() => layerCalls(cp4Eval()).backward.windowSeconds * 1e3, "ms", d1),
  );
  put(
    "ch8.cp4LatencyMs",
    lazy(() => latencyMs(layerCalls(cp4Eval()).forward.ranks), "ms", d1),
  );
  const wideCp4 = once(() => evaluateRanked(cp4().c, { dp: (cp4().c.dp * 1024) / GPUS }, { gpuCount: 1024 }).step);
  put(
    "ch8.wideShardRanks",
    lazy(() => layerCalls(wideCp4()).forward.ranks, "ranks", d0),
  );
  put(
    "ch8.wideLatencyMs",
    lazy(() => latencyMs(layerCalls(wideCp4()).forward.ranks), "ms", d1),
  );
  put(
    "ch8.wideGatherMs",
    lazy(() => layerCalls(wideCp4()).forward.secondsPerCall * 1e3, "ms", d1),
  );
  put(
    "ch8.wideForwardWindowMs",
    lazy(() => layerCalls(wideCp4()).forward.windowSeconds * 1e3, "ms", d1),
  );
  put(
    "ch8.wideDpSeconds",
    lazy(() => wideCp4().breakdown.dp, "s", d2),
  );
  put(
    "ch8.wideStepSeconds",
    lazy(() => wideCp4().stepSeconds, "s", d2),
  );

  // The top layout is ZeRO-3 without a pipeline: FSDP2 regathers every layer for every microbatch, so its
  // sharding traffic is the per-layer gathers and reduce-scatters; its exposed TP, CP and sharding time.
  const topEval = once(() => evaluateRanked(top()).step);
  put(
    "ch8.topShardRanks",
    lazy(() => layerCalls(topEval()).forward.ranks, "ranks", d0),
  );
  put(
    "ch8.topBackwardMs",
    lazy(() => layerCalls(topEval()).backward.secondsPerCall * 1e3, "ms", d1),
  );
  put(
    "ch8.topBackwardWindowMs",
    lazy(() => layerCalls(topEval()).backward.windowSeconds * 1e3, "ms", d1),
  );
  put(
    "ch8.topTokensPerMicrobatch",
    lazy(() => (S / top().cp) * top().microBatchSize, "tokens", d0),
  );
  put(
    "ch8.topTp",
    lazy(() => top().tp, "", d0),
  );
  put(
    "ch8.topTpSeconds",
    lazy(() => top().exposedSeconds.tp, "s", d2),
  );
  put(
    "ch8.topDpSeconds",
    lazy(() => top().exposedSeconds.dp, "s", d2),
  );
  // The fastest pipelined row of the default search, and its rank.
  const bestPp = () => find(search, "with a pipeline", (c) => c.pp > 1);
  put(
    "ch8.bestPpRank",
    lazy(() => bestPp().rank, "", d0),
  );
  put(
    "ch8.bestPpPp",
    lazy(() => bestPp().c.pp, "", d0),
  );
  put(
    "ch8.bestPpStepSeconds",
    lazy(() => bestPp().c.stepSeconds, "s", d2),
  );

  // Narayanan et al.'s ZeRO-3 comparison, GPT 175B on A100s (the shape of their Table 2's model; one
  // 2,048-token sequence per microbatch, full recomputation, a batch of 1,536 as a stated input): the
  // step model's per-layer gather over 1,536 ranks, latency included, against one layer's forward pass.
  const gpt175 = {
    architectures: ["GPT2LMHeadModel"],
    model_type: "gpt2",
    n_embd: 12288,
    n_head: 96,
    n_layer: 96,
    n_inner: 4 * 12288,
    vocab_size: 51200,
    n_positions: 2048,
    n_ctx: 2048,
    activation_function: "gelu_new",
  };
  const narayanan = (gpuCount: number) =>
    evaluateScenario({
      model: gpt175,
      cluster: { gpu: "a100-sxm-80gb", gpuCount },
      framework: AUTO_FRAMEWORK[3],
      layout: { zeroStage: 3 },
      batch: { seqLength: 2048, microBatchSize: 1, globalBatch: 1536 },
      recompute: "full",
    }).step;
  const n384 = once(() => narayanan(384));
  const n1536 = once(() => narayanan(1536));
  put(
    "ch8.narayananGatherMs",
    lazy(() => layerCalls(n1536()).forward.secondsPerCall * 1e3, "ms", d1),
  );
  put(
    "ch8.narayananWindowMs",
    lazy(() => layerCalls(n1536()).forward.windowSeconds * 1e3, "ms", d1),
  );
  put(
    "ch8.narayananMfu384",
    lazy(() => 100 * n384().mfu, "%", d1),
  );
  put(
    "ch8.narayananMfu1536",
    lazy(() => 100 * n1536().mfu, "%", d1),
  );

  // @sec:fit: the budget, the smallest sharding, and the hand-built layouts under the Megatron-LM profile
  // (its distributed optimizer: bf16 weights and fp32 gradients whole, fp32 master weights and Adam's
  // moments sharded), each evaluated by the engine.
  put("ch8.usableGB", v(usableGB, "GB", d0));
  put("ch8.usablePercent", v(100 * budget.fraction, "%", d0));
  put("ch8.statesGpus70", v(Math.ceil((bpp * n70) / budget.usableBytes), "GPUs", d0));
  put("ch8.serverStatesBillion", v((perServer * budget.usableBytes) / bpp / 1e9, "billion", d0));
  const megatron1 = frameworkLayout(AUTO_FRAMEWORK[1], 1).layout;
  const states = [megatron1.weights, megatron1.gradients, megatron1.master, megatron1.moments];
  const wholeBytes = states.filter((x) => !x.sharded).reduce((a, x) => a + x.bytes, 0);
  const shardedBytes = states.filter((x) => x.sharded).reduce((a, x) => a + x.bytes, 0);
  put("ch8.megatronWholeBytes", v(wholeBytes, "bytes", d0));
  put("ch8.megatronShardedBytes", v(shardedBytes, "bytes", d0));
  const mem = (
    layout: ScenarioLayout,
    framework: FrameworkId = AUTO_FRAMEWORK[1],
    recompute: Recompute = "none",
  ): Evaluation => scenario(framework, { zeroStage: 1, ...layout }, { recompute });
  const statesOf = (e: Evaluation) =>
    e.memory.perGpu.parameters + e.memory.perGpu.gradients + e.memory.perGpu.optimizer;
  const a = mem({ tp: 8, dp: 32 });
  const aZ3 = mem({ tp: 8, dp: 32, zeroStage: 3 }, AUTO_FRAMEWORK[3]);
  const b = mem({ tp: 8, pp: 4, dp: 8 });
  const c = mem({ tp: 4, pp: 4, dp: 16 });
  put("ch8.memTp8StatesGB", v(statesOf(a) / GB, "GB", d1));
  put("ch8.memTp8ActsGB", v(a.memory.perGpu.activations / GB, "GB", d1));
  put("ch8.memTp8TotalGB", v(a.bytesPerGpu / GB, "GB", d1));
  put("ch8.memTp8Z3StatesGB", v(statesOf(aZ3) / GB, "GB", d1));
  put("ch8.memTp8Z3TotalGB", v(aZ3.bytesPerGpu / GB, "GB", d1));
  put("ch8.memTp8Pp4StatesGB", v(statesOf(b) / GB, "GB", d1));
  put("ch8.memTp8Pp4ActsGB", v(b.memory.perGpu.activations / GB, "GB", d1));
  put("ch8.memTp8Pp4TotalGB", v(b.bytesPerGpu / GB, "GB", d1));
  put("ch8.memTp4Pp4ActsGB", v(c.memory.perGpu.activations / GB, "GB", d1));
  put("ch8.memTp4Pp4TotalGB", v(c.bytesPerGpu / GB, "GB", d1));
  put(
    "ch8.memSelectiveActsGB",
    v(mem({ tp: 8, pp: 4, dp: 8 }, AUTO_FRAMEWORK[1], "selective").memory.perGpu.activations / GB, "GB", d1),
  );
  put(
    "ch8.memFullRecomputeActsGB",
    v(mem({ tp: 8, pp: 4, dp: 8 }, AUTO_FRAMEWORK[1], "full").memory.perGpu.activations / GB, "GB", d1),
  );

  // @sec:batch: B = 512 sequences of s tokens; TP 8 without a pipeline on 256 GPUs has d = 32.
  put("ch8.batchTokens", v(BATCH * S, "tokens", d0));
  put("ch8.batchHandDp", v(GPUS / (8 * 4), "", d0));
  put("ch8.batchHandM", v(BATCH / (GPUS / (8 * 4)), "microbatches", d0));
  put("ch8.batchNoPpDp", v(GPUS / 8, "", d0));
  put("ch8.batchNoPpM", v(BATCH / (GPUS / 8), "microbatches", d0));
  put("ch8.noPpSequencesPerReplica", v(BATCH / (GPUS / 8), "sequences", d0));

  // @sec:rank and @sec:widget: the default search, and the hand-built layouts in it.
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
    "ch8.handDpSeconds",
    lazy(() => hand().exposedSeconds.dp, "s", d2),
  );
  // The hand-built layout's stage imbalance: its slowest stage (the last, with the LM head) over the
  // evenly spread compute of the top layout; and its pipeline sends.
  put(
    "ch8.handImbalanceSeconds",
    lazy(() => hand().computeSeconds - top().computeSeconds, "s", d2),
  );
  put(
    "ch8.handPpSeconds",
    lazy(() => hand().exposedSeconds.pp, "s", d3),
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
    "ch8.noPpMicroBatch",
    lazy(() => noPp().microBatchSize, "sequences", d0),
  );
  put(
    "ch8.noPpTpSeconds",
    lazy(() => noPp().exposedSeconds.tp, "s", d2),
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
    "ch8.noPpB1StepSeconds",
    lazy(() => noPpB1().stepSeconds, "s", d2),
  );
  put(
    "ch8.noPpB1DpSeconds",
    lazy(() => noPpB1().exposedSeconds.dp, "s", d2),
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
  // The share of the top layout's step that is not compute: the bubble and exposed communication.
  put(
    "ch8.topOverheadPct",
    lazy(() => (100 * (top().stepSeconds - top().computeSeconds)) / top().stepSeconds, "%", d1),
  );
  put(
    "ch8.topCpSeconds",
    lazy(() => top().exposedSeconds.cp, "s", d3),
  );
  put(
    "ch8.cp8CpSeconds",
    lazy(() => cp8().exposedSeconds.cp, "s", d2),
  );
  put("ch8.hidden70", v(arch70.hiddenSize, "", d0));
  put("ch8.layers70", v(arch70.numLayers, "layers", d0));
  put("ch8.vocab70", v(arch70.vocabSize, "words", d0));

  // MFU against the kernel efficiency (@sec:widget): MFU counts attention's QKᵀ and AV whole (the book's
  // definition, compute.ts), the step model's time follows FlashAttention, which skips their masked half.
  // The ceiling of a step with no overhead at all is η × model FLOPs / executed FLOPs.
  const flops = (s: number) => modelFlopsPerToken(c70, s);
  const skipped = (s: number) => flops(s).attentionTerm / 2 / flops(s).total;
  const ceiling = (s: number) => (100 * eta * flops(s).total) / (flops(s).total - flops(s).attentionTerm / 2);
  put("ch8.skippedShare8k", v(100 * skipped(S), "%", d1));
  put("ch8.mfuCeiling8k", v(ceiling(S), "%", d1));
  put("ch8.skippedShareLong", v(100 * skipped(131072), "%", d1));
  put("ch8.mfuCeilingLong", v(ceiling(131072), "%", d1));
  put(
    "ch8.longBestMfu",
    lazy(() => 100 * longBest().mfu, "%", d1),
  );
  put(
    "ch8.longBestHfu",
    lazy(() => 100 * longBest().mfu * (1 - skipped(131072)), "%", d1),
  );

  // TP communication overlap (Megatron-LM's --tp-comm-overlap, off in every profile by default): the
  // default search's rows re-evaluated with it on wherever t > 1, everything else as ranked.
  const tpOverlap = once(() =>
    search()
      .ranked.map((row) => ({
        row,
        step: (row.tp > 1 ? evaluateRanked(row, { tpCommOverlap: true }) : evaluateRanked(row)).step,
      }))
      .sort((x, y) => x.step.stepSeconds - y.step.stepSeconds),
  );
  const tpOverlapTop = () => at(tpOverlap(), 0, "five-d-parallelism values: fastest with TP overlap");
  const handOverlap = once(() => evaluateRanked(hand(), { tpCommOverlap: true }).step);
  put(
    "ch8.handTpOverlapStepSeconds",
    lazy(() => handOverlap().stepSeconds, "s", d2),
  );
  put(
    "ch8.handTpOverlapTpSeconds",
    lazy(() => handOverlap().breakdown.tp, "s", d2),
  );
  put(
    "ch8.handTpOverlapBubbleSeconds",
    lazy(() => handOverlap().breakdown.bubble, "s", d2),
  );
  put(
    "ch8.handTpOverlapMfu",
    lazy(() => 100 * handOverlap().mfu, "%", d1),
  );
  put(
    "ch8.tpOverlapTopTp",
    lazy(() => tpOverlapTop().row.tp, "", d0),
  );
  put(
    "ch8.tpOverlapTopDp",
    lazy(() => tpOverlapTop().row.dp, "", d0),
  );
  put(
    "ch8.tpOverlapTopMicroBatch",
    lazy(() => tpOverlapTop().row.microBatchSize, "sequences", d0),
  );
  put(
    "ch8.tpOverlapTopStepSeconds",
    lazy(() => tpOverlapTop().step.stepSeconds, "s", d2),
  );
  // How far apart the layouts ranked above the default top are, with TP overlap on (percent of the fastest).
  put(
    "ch8.tpOverlapSpreadPercent",
    lazy(
      () => {
        const rank = tpOverlap().findIndex((x) => x.row === top());
        const own = at(tpOverlap(), rank, "five-d-parallelism values: default top with TP overlap");
        return (100 * (own.step.stepSeconds - tpOverlapTop().step.stepSeconds)) / tpOverlapTop().step.stepSeconds;
      },
      "%",
      d1,
    ),
  );
  put(
    "ch8.tpOverlapDefaultTopRank",
    lazy(() => 1 + tpOverlap().findIndex((x) => x.row === top()), "", d0),
  );

  put(
    "ch8.oldImbalance",
    lazy(() => old().c.stageImbalance, "", d3),
  );
  put(
    "ch8.oldMicrobatches",
    lazy(() => old().c.microbatches, "microbatches", d0),
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
  // @sec:failures: Llama 3's 16,384-GPU layout (PP 16, 16 sequences per data-parallel rank, Table 4) with
  // one sequence per microbatch and four chunks per stage, as the appendix on published runs models it (the
  // paper gives neither): the interleaved bubble (p − 1)/(v·m) in percent of the busy time.
  const llama3Run = PUBLISHED_RUNS.find((r) => r.id === "grattafiori2024-405b-16384-8192");
  const llama3Chunks = llama3Run?.layout.chunks;
  if (llama3Chunks === undefined)
    throw new Error("five-d-parallelism values: no chunk count for Llama 3's 16,384-GPU run");
  put(
    "ch8.llamaBubblePct",
    v((100 * (fact("llama3.pp").value - 1)) / (llama3Chunks * fact("llama3.batchPerDp").value), "%", d0),
  );
  put("ch8.llamaChunks", v(llama3Chunks, "chunks", d0));
  // @sec:failures: "more than 90% effective training time" leaves interruptions under the rest of the wall time.
  put("ch8.llamaInterruptionPct", v(100 - fact("llama3.effectiveTime").value, "%", d0));
  put("ch8.llamaBatchSequences", v(2 ** 24 / S, "sequences", d0));
  // Llama 3 405B on 16,384 GPUs under FSDP without resharding (weights gathered whole from the forward
  // pass to the backward): the weights each GPU holds with TP 8 or, in its place, CP 8 (PP 16 with one
  // layer fewer on each end stage, as Llama 3 split it; DP 128; 2,048 sequences of 8,192 tokens, b = 1).
  const llama405 = (layout: ScenarioLayout) =>
    evaluateScenario({
      model: "llama-3.1-405b",
      cluster: { gpu: GPU, gpuCount: 16384 },
      framework: AUTO_FRAMEWORK[3],
      layout: {
        pp: 16,
        dp: 128,
        zeroStage: 3,
        reshardAfterForward: false,
        stageLayers: balancedStageLayers(arch405.numLayers, 16, 1),
        ...layout,
      },
      batch: { seqLength: S, microBatchSize: 1, globalBatch: 2048 },
    });
  put("ch8.l3TpWeightsGB", v(llama405({ tp: 8 }).memory.perGpu.parameters / GB, "GB", d1));
  put("ch8.l3CpWeightsGB", v(llama405({ cp: 8 }).memory.perGpu.parameters / GB, "GB", d1));

  // @sec:widget "Things to try": 1,024 GPUs at the same batch; 131,072 tokens with a batch of 32; A100 40 GB.
  put(
    "ch8.bigTopDp",
    lazy(() => bigTop().dp, "", d0),
  );
  put(
    "ch8.bigTopTp",
    lazy(() => bigTop().tp, "", d0),
  );
  put(
    "ch8.bigTopPp",
    lazy(() => bigTop().pp, "", d0),
  );
  put(
    "ch8.bigTopCp",
    lazy(() => bigTop().cp, "", d0),
  );
  put(
    "ch8.bigTopSequencesPerReplica",
    lazy(() => BATCH / bigTop().dp, "sequences", d0),
  );
  put(
    "ch8.bigTopStepSeconds",
    lazy(() => bigTop().stepSeconds, "s", d2),
  );
  put(
    "ch8.bigTopMfu",
    lazy(() => 100 * bigTop().mfu, "%", d1),
  );
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
    lazy(() => longBest().stepSeconds, "s", d2),
  );
  put(
    "ch8.a100RankedCount",
    lazy(() => a100Search().ranked.length, "configurations", d0),
  );

  // @sec:regimes rule 3: (p − 1)/(4p) at p = 8, and its limit 1/4.
  put("ch8.ruleBubbleLow", v((100 * 7) / 32, "%", d0));
  put("ch8.ruleBubbleHigh", v(100 / 4, "%", d0));
  // @sec:sweeps: the pipeline configuration's loss from 384 to 1,536 A100s (Narayanan et al., Table 2).
  put(
    "ch8.narayananPipelineLoss",
    v(100 * (1 - fact("narayanan.ptdTflops175b1536").value / fact("narayanan.ptdTflops175b384").value), "%", d0),
  );

  // Exercise 1: 405B with TP 8 · PP 16 (128 GPUs); states over the usable memory; Llama 3's FSDP
  // (2 + 14/64 bytes); the Megatron-LM profile's ZeRO-1 layout over 64 replicas.
  put("ch8.states405Gpus", v((bpp * n405) / budget.usableBytes, "GPUs", d1));
  put("ch8.modelParallel405", v(8 * 16, "ways", d0));
  put("ch8.params405PerGpuBillion", v(n405 / 128 / 1e9, "billion", d2));
  put("ch8.fsdp405GB", v(((n405 / 128) * (2 + 14 / 64)) / GB, "GB", d1));
  put("ch8.megatron405GB", v(((n405 / 128) * (wholeBytes + shardedBytes / 64)) / GB, "GB", d1));

  // Exercise 4: a TP group of eight whose members sit four to a server. groupLink prices it as a group of
  // eight consecutive ranks on a cluster whose servers (and NVLink domains) hold four GPUs with four NICs,
  // which is what each half of the group sees; the step model (with the hand-built layout's framework and
  // stage split) reruns the layout on that cluster. Its DP and PP groups already had one rank per server.
  const straddleShape = { gpusPerServer: 4, nvlinkDomain: 4, nicsPerServer: 4 };
  const straddleLink = groupLink(clusterShape(GPU, straddleShape), "all-gather", { ranks: 8, stride: 1 });
  const straddle = once(() =>
    stepTime({
      config: arch70,
      gpu: h100,
      gpuCount: GPUS,
      tp: hand().tp,
      pp: hand().pp,
      dp: hand().dp,
      zeroStage: hand().zeroStage,
      seqLength: S,
      microBatchSize: hand().microBatchSize,
      globalBatch: BATCH,
      stageLayers: hand().stageLayers,
      framework: hand().framework,
      cluster: straddleShape,
      includeMemory: false,
    }),
  );
  put("ch8.straddleNics", v(straddleLink.nics, "NICs", d0));
  put("ch8.straddleGBps", v(straddleLink.busBytesPerSecond / GB, "GB/s", d0));
  put("ch8.straddleRatio", v(ring.busBytesPerSecond / straddleLink.busBytesPerSecond, "", d2));
  put(
    "ch8.straddleTpSeconds",
    lazy(() => straddle().breakdown.tp, "s", d2),
  );
  put(
    "ch8.straddleStepSeconds",
    lazy(() => straddle().stepSeconds, "s", d2),
  );
  put(
    "ch8.straddleMfu",
    lazy(() => 100 * straddle().mfu, "%", d1),
  );

  // Exercise 5 (givens): Llama 3's 54-day snapshot and its 419 unexpected interruptions (facts), a 10-minute
  // restart, a failure halfway through an interval of 60 minutes (b) or 30 minutes (c), a 1-minute pause per
  // checkpoint write.
  const interruptions = fact("llama3.unexpectedInterruptions").value;
  const hours = fact("llama3.snapshotDays").value * 24;
  const lossB = 60 / 2 + 10;
  const lossC = 30 / 2 + 10;
  const lostB = (interruptions * lossB) / 60;
  const lostC = (interruptions * lossC) / 60;
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
