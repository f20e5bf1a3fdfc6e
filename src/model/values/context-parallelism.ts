/**
 * Computed values of the chapter "context-parallelism" for its prose: `{=ch5.name}` prints one (see
 * ../exercise-values.ts for the conventions: the value in its unit, how it prints, and a comment
 * that says which model function or stated input it comes from). Pure.
 */
import { layerActivations } from "../activations.ts";
import { at } from "../errors.ts";
import {
  headsPerTensorParallelRank,
  planRingAttention,
  ringForwardBytesPerLayer,
  ringKvBlockBytes,
  ringOverlapMinTokensPerGpu,
  ulyssesForwardBytesPerLayer,
  ulyssesReplicatedForwardBytesPerLayer,
} from "../ring-attention.ts";
import { clusterShape, groupLink } from "../placement.ts";
import { evaluateScenario } from "../scenario.ts";
import { arch, d0, d1, d2, gpu, v, type PutValue } from "./put.ts";
import { fact } from "./facts.ts";

const GB = 1e9;
const MB = 1e6;

export function contextParallelismValues(put: PutValue): void {
  const h100 = gpu("h100-sxm");
  const a = arch("llama-3.1-405b");

  // The chapter's example: Llama 3's long-context stage (grattafiori2024llama3): s = 131,072,
  // one sequence per microbatch, c = 16, TP 8 with SP inside each CP rank, bf16.
  const S = fact("llama3.longSeqLength").value;
  const cp = fact("llama3.longCp").value;
  const tp = fact("llama3.tp").value;
  const opts = { seqLength: S, microBatchSize: 1, tp, sequenceParallel: true, attention: "flash" as const };
  const noCp = layerActivations(a, opts).totalBytes;
  put("ch5.actLayerGB", v(noCp / GB, "GB", d2));
  put("ch5.actStageGB", v((8 * noCp) / GB, "GB", d1));
  put("ch5.actCp16MB", v(layerActivations(a, { ...opts, cp }).totalBytes / MB, "MB", d1));
  put("ch5.tokensPerRank", v(S / cp, "tokens", d0));

  // Ring K/V traffic per layer, with TP 8 inside each CP rank and with CP alone.
  const cost = {
    seqLength: S,
    microBatch: 1,
    cp,
    heads: a.numHeads,
    kvHeads: a.numKvHeads,
    headDim: a.headDim,
    bytesPerElement: 2,
  };
  const perRank = headsPerTensorParallelRank(a.numHeads, a.numKvHeads, tp);
  const llama3 = { ...cost, heads: perRank.heads, kvHeads: perRank.kvHeads };
  put("ch5.headsLlama405", v(a.numHeads, "heads", d0));
  put("ch5.kvHeadsLlama405", v(a.numKvHeads, "heads", d0));
  put("ch5.tpRankHeads", v(perRank.heads, "heads", d0));
  put("ch5.tpRankKvHeads", v(perRank.kvHeads, "heads", d0));
  put("ch5.ringTransfers", v(cp - 1, "transfers", d0));
  put("ch5.kvBlockMB", v(ringKvBlockBytes(llama3) / MB, "MB", d1));
  put("ch5.kvBlockAllMB", v(ringKvBlockBytes(cost) / MB, "MB", d1));
  put("ch5.ringTpForwardMB", v(ringForwardBytesPerLayer(llama3) / MB, "MB", d1));
  put("ch5.ringCpForwardMB", v(ringForwardBytesPerLayer(cost) / MB, "MB", d1));
  put("ch5.queryBlockMB", v(((S / cp) * perRank.heads * a.headDim * 2) / MB, "MB", d1));

  // @eq:ring-overlap: an H100's dense bf16 peak (the strictest case: compute at peak is the shortest)
  // against the link of a CP step in Llama 3's layout. TP fills each server, so CP neighbours sit in
  // different servers (stride tp): placement.ts gives such a send one NIC's bus bandwidth.
  const F = h100.bf16FlopsPerSecond;
  const B = groupLink(clusterShape(h100.id), "send-recv", { ranks: cp, stride: tp }).busBytesPerSecond;
  put("ch5.nicBusGBs", v(B / GB, "GB/s", d0));
  put("ch5.gqaRatio", v(a.numHeads / a.numKvHeads, "", d0));
  put("ch5.gqaRatioTp", v(perRank.heads / perRank.kvHeads, "", d0));
  const gqaTokens = ringOverlapMinTokensPerGpu(F, B, a.numHeads, a.numKvHeads, 2, false);
  const causalTokens = ringOverlapMinTokensPerGpu(F, B, a.numHeads, a.numKvHeads, 2, true);
  // Smallest whole s/c that meets each bound (rounded up).
  put("ch5.ringTokensMha", v(Math.ceil(ringOverlapMinTokensPerGpu(F, B, 1, 1, 2, false)), "tokens", d0));
  put("ch5.ringTokensGqa", v(Math.ceil(gqaTokens), "tokens", d0));
  put("ch5.ringTokensCausal", v(Math.ceil(causalTokens), "tokens", d0));
  put("ch5.causalBoundFactor", v(causalTokens / gqaTokens, "", d0));
  // The backward pass: ring-flash-attention sends K/V again plus fp32 dK and dV (3× the forward
  // bytes, zhu2024ringflashattn), for five block matmuls against the forward's two (2.5× the FLOPs):
  // the bound grows by 3 / 2.5.
  const backwardBytes = 3;
  const backwardFlops = 5 / 2;
  put("ch5.backwardBoundFactor", v(backwardBytes / backwardFlops, "", d1));
  put("ch5.ringTokensBackward", v(Math.ceil((causalTokens * backwardBytes) / backwardFlops), "tokens", d0));
  // A zig-zag step at s/c = 8,192 with TP 8: half of 4 (s/c)² n_h d FLOPs, and one K/V block.
  const sc = S / cp;
  const stepFlops = (4 * sc * sc * perRank.heads * a.headDim) / 2;
  put("ch5.zigzagStepMs", v((stepFlops / F) * 1e3, "ms", d2));
  put("ch5.zigzagStepCommMs", v((ringKvBlockBytes(llama3) / B) * 1e3, "ms", d2));
  // How many times a step's compute covers its transfer at s/c = 8,192, forward and backward.
  const forwardCover = stepFlops / F / (ringKvBlockBytes(llama3) / B);
  put("ch5.forwardCover", v(forwardCover, "", d0));
  put("ch5.backwardCover", v((forwardCover * backwardFlops) / backwardBytes, "", d1));

  // Causal load balance at c = 16 (planRingAttention counts tiles of (s/2c)² query–key pairs).
  const contiguous = planRingAttention({ gpus: cp, sharding: "contiguous", causal: true });
  put(
    "ch5.contiguousFirstStepTiles",
    v(at(contiguous.steps, 0, "ch5: contiguous ring's first step").maxWork, "tiles", d0),
  );
  put(
    "ch5.contiguousLaterStepTiles",
    v(at(contiguous.steps, 1, "ch5: contiguous ring's second step").maxWork, "tiles", d0),
  );
  put("ch5.contiguousCriticalTiles", v(contiguous.criticalPathWork, "tiles", d0));
  put("ch5.balancedTiles", v(contiguous.idealWork, "tiles", d0));
  put("ch5.contiguousEfficiency16", v(100 * contiguous.efficiency, "%", d1));
  put("ch5.contiguousImbalance", v(contiguous.imbalance, "", d0));
  // c/(2c − 1) for large c (the largest ring the planner takes, 64 GPUs, stands in for the limit: 50.4%).
  const big = planRingAttention({ gpus: 64, sharding: "contiguous", causal: true });
  put("ch5.contiguousEfficiencyLimit", v(100 * big.efficiency, "%", d0));
  const zigzag = planRingAttention({ gpus: cp, sharding: "zigzag", causal: true });
  put("ch5.zigzagStepTiles", v(at(zigzag.steps, 0, "ch5: zigzag ring's first step").maxWork, "tiles", d0));

  // Ring against Ulysses at c = 16, CP alone and in Llama 3's layout.
  put("ch5.ulyssesMB", v(ulyssesForwardBytesPerLayer(cost) / MB, "MB", d1));
  put("ch5.kvReplication", v(cp / a.numKvHeads, "GPUs", d0));
  put("ch5.ulyssesKvHeads", v(Math.max(cp, a.numKvHeads), "heads", d0));
  put("ch5.ulyssesReplicatedMB", v(ulyssesReplicatedForwardBytesPerLayer(cost) / MB, "MB", d1));
  put("ch5.ulyssesTpMB", v(ulyssesReplicatedForwardBytesPerLayer(llama3) / MB, "MB", d1));
  // Ring over Ulysses with replication, c·n_kv / (n_h + max(n_kv, c)): the largest c at which the ring
  // sends no more, and the ratio at c = 32.
  const ringOverUlysses = (c: number) => (c * a.numKvHeads) / (a.numHeads + Math.max(a.numKvHeads, c));
  let crossover = 1;
  while (ringOverUlysses(crossover + 1) <= 1) crossover += 1;
  put("ch5.ringUlyssesCrossover", v(crossover, "GPUs", d0));
  put("ch5.ringOverUlysses32", v(ringOverUlysses(32), "", d1));

  // The book's step model prices CP as Llama 3 ran it, an exposed all-gather of K and V and a
  // reduce-scatter of their gradients (step.ts). Llama 3's long-context layout: 16,384 H100s, TP 8,
  // CP 16, PP 16 with one layer fewer on the first and last stages, DP 8, s = 131,072, b = 1,
  // 128 sequences per step (16M tokens), Megatron-LM's profile.
  const longContext = evaluateScenario({
    model: "llama-3.1-405b",
    cluster: { gpu: h100.id, gpuCount: 16_384 },
    framework: "megatron",
    layout: { tp, cp, pp: 16, sequenceParallel: true, stageLayers: [7, ...Array<number>(14).fill(8), 7] },
    batch: { seqLength: S, microBatchSize: 1, globalBatch: 128 },
  });
  put("ch5.modelCpS", v(longContext.step.breakdown.cp, "s", d2));
  put("ch5.modelComputeS", v(longContext.step.breakdown.compute, "s", d1));
  put("ch5.modelCpSharePct", v((100 * longContext.step.breakdown.cp) / longContext.step.stepSeconds, "%", d1));
}
