/**
 * Every number chapter 5 prints that is not a quotation from a cited source is recomputed here
 * from src/model and src/data, and must appear in the chapter exactly as formatted below.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  clusterShape,
  evaluateScenario,
  findGpu,
  findModelPreset,
  groupLink,
  headsPerTensorParallelRank,
  layerActivations,
  type ModelArchitecture,
  parseModelConfig,
  planRingAttention,
  ringForwardBytesPerLayer,
  ringKvBlockBytes,
  ringOverlapMinTokensPerGpu,
  ulyssesForwardBytesPerLayer,
  ulyssesHeadProblem,
  ulyssesReplicatedForwardBytesPerLayer,
} from "../../src/model/index.ts";
import { assertMentions, readChapter } from "../helpers/chapter-text.ts";

const text = readChapter("05-context-parallelism");
const h100 = findGpu("h100-sxm")!;
const F = h100.bf16FlopsPerSecond;
/** A CP step's link in Llama 3's layout: one NIC (placement.ts, CP neighbours one server apart). */
const B = groupLink(clusterShape("h100-sxm"), "send-recv", { ranks: 16, stride: 8 }).busBytesPerSecond;
const grouped = (x: number) => Math.round(x).toLocaleString("en-US");
const texGrouped = (x: number) => grouped(x).replace(/,/g, "{,}");

function arch(id: string): ModelArchitecture {
  const preset = findModelPreset(id);
  assert.ok(preset, `preset ${id}`);
  return parseModelConfig(preset.config).architecture;
}

const a405 = arch("llama-3.1-405b");
const S = 131072;
const cost = {
  seqLength: S,
  microBatch: 1,
  cp: 16,
  heads: a405.numHeads,
  kvHeads: a405.numKvHeads,
  headDim: a405.headDim,
  bytesPerElement: 2,
};
/** Llama 3's long-context layout runs TP 8 inside each CP rank (grattafiori2024llama3 §3.3.2, Table 4). */
const perRankHeads = headsPerTensorParallelRank(a405.numHeads, a405.numKvHeads, 8);
const llama3 = { ...cost, heads: perRankHeads.heads, kvHeads: perRankHeads.kvHeads };
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

test("Llama-3.1-405B at 131,072 tokens, TP 8 + SP: 8.52 GB per layer, 68.2 GB for eight layers, 532.7 MB with c = 16 (= 8,192 tokens without CP)", () => {
  const opts = { seqLength: S, microBatchSize: 1, tp: 8, sequenceParallel: true, attention: "flash" as const };
  const noCp = layerActivations(a405, opts).totalBytes;
  const cp16 = layerActivations(a405, { ...opts, cp: 16 }).totalBytes;
  const short = layerActivations(a405, { ...opts, seqLength: 8192 }).totalBytes;
  assertMentions(text, `one layer stores ${(noCp / 1e9).toFixed(2)} GB of activations per GPU`, "no CP");
  assertMentions(
    text,
    `eight layers would need ${((8 * noCp) / 1e9).toFixed(1)} GB for a single microbatch`,
    "eight layers",
  );
  assert.equal(cp16, short);
  assertMentions(
    text,
    `the same layer stores ${(cp16 / 1e6).toFixed(1)} MB per GPU, exactly what it stores at 8,192 tokens without CP`,
    "CP 16",
  );
});

test("ring K/V traffic in Llama 3's layout (TP 8 × CP 16): 16 query heads and 1 KV head per GPU, 4.2 MB block, 62.9 MB per layer, 33.6 MB query block; CP alone 33.6 / 503.3 MB", () => {
  assert.deepEqual(perRankHeads, { heads: 16, kvHeads: 1, kvReplication: 1 });
  assertMentions(text, "each GPU holds 16 of the 128 query heads and 1 of the 8 KV heads", "heads per GPU");
  const block = ringKvBlockBytes(llama3);
  const fwd = ringForwardBytesPerLayer(llama3);
  assertMentions(
    text,
    `In bf16 a block is then ${mb(block)}, and the 15 transfers of a forward pass move ${mb(fwd)} per GPU per layer`,
    "ring volume, Llama 3 layout",
  );
  const blockCp = ringKvBlockBytes(cost);
  const fwdCp = ringForwardBytesPerLayer(cost);
  assertMentions(
    text,
    `With CP alone, each GPU would hold all 8 KV heads: ${mb(blockCp)} per block and ${mb(fwdCp)} per layer`,
    "ring volume, CP alone",
  );
  const qBlock = (S / 16) * perRankHeads.heads * a405.headDim * 2;
  assertMentions(
    text,
    `a GPU's query block is ${mb(qBlock)} while the K/V block it passes on is ${mb(block)}`,
    "Q vs KV",
  );
  assertMentions(
    text,
    `$2 \\cdot 8192 \\cdot 1 \\cdot 128 = ${texGrouped(block / 2)}$ elements, or ${mb(block)} in bf16`,
    "exercise block",
  );
  assertMentions(text, `$c - 1 = 16 - 1 = 15$ transfers: ${mb(fwd)} per GPU per layer`, "exercise total");
  assertMentions(
    text,
    `$2 \\cdot 8192 \\cdot 8 \\cdot 128 = ${texGrouped(blockCp / 2)}$ elements, ${mb(blockCp)} per block and ${mb(fwdCp)} per layer`,
    "exercise CP alone",
  );
});

test("overlap bound at the placement model's 45 GB/s: 21,987 tokens (MHA), 1,375 (GQA 128:8), 2,749 (causal), 3,298 (backward)", () => {
  assert.equal(B, 45e9);
  const mha = ringOverlapMinTokensPerGpu(F, B, 128, 128, 2, false);
  const gqa = Math.ceil(ringOverlapMinTokensPerGpu(F, B, a405.numHeads, a405.numKvHeads, 2, false));
  const causal = Math.ceil(ringOverlapMinTokensPerGpu(F, B, a405.numHeads, a405.numKvHeads, 2, true));
  assert.equal(a405.numHeads / a405.numKvHeads, 16);
  assertMentions(text, `gives ${grouped(mha)} tokens per GPU for multi-head attention`, "MHA");
  assertMentions(
    text,
    `which is 16 for Llama-3.1-405B (and still 16 per GPU under TP 8, which divides both head counts), giving ${grouped(gqa)} tokens`,
    "GQA",
  );
  assert.equal(perRankHeads.heads / perRankHeads.kvHeads, 16);
  assertMentions(text, `doubles the bound, to ${grouped(causal)} tokens`, "causal");
  assertMentions(
    text,
    `$s/c \\ge F/B = 989.4\\times10^{12} / 45\\times10^{9} = ${texGrouped(mha)}$ tokens`,
    "exercise MHA",
  );
  assertMentions(text, `$n_{kv}/n_h = 8/128$: ${grouped(gqa)} tokens`, "exercise GQA");
  assertMentions(text, `double it: ${grouped(causal)} tokens`, "exercise causal");
  // Backward: 3x the bytes (fp32 dK, dV) for 2.5x the FLOPs.
  const backward = Math.round((ringOverlapMinTokensPerGpu(F, B, a405.numHeads, a405.numKvHeads, 2, true) * 3) / 2.5);
  assertMentions(text, `its bound is 1.2 times higher, ${grouped(backward)} tokens`, "backward bound");
  assert.ok(backward < S / 16, "Llama 3's s/c is above the backward bound too");
});

test("at s/c = 8192 a zig-zag step computes about three times as long as it transfers (TP 8: 0.27 TFLOP, 0.28 ms vs 4.2 MB, 0.08 ms)", () => {
  const sc = S / 16;
  const flops = (4 * sc * sc * llama3.heads * a405.headDim) / 2;
  const computeSeconds = flops / F;
  const commSeconds = ringKvBlockBytes(llama3) / B;
  assert.equal(Math.round(computeSeconds / commSeconds), 3);
  assertMentions(
    text,
    `about 3 times its transfer in the forward pass and ${((computeSeconds * 2.5) / (commSeconds * 3)).toFixed(1)} times in the backward pass`,
    "forward and backward cover",
  );
  // TP divides compute and K/V traffic alike: the same ratio as CP alone.
  assert.equal(Math.round((4 * sc * sc * a405.numHeads * a405.headDim) / 2 / F / (ringKvBlockBytes(cost) / B)), 3);
  assertMentions(
    text,
    `\\approx ${(flops / 1e12).toFixed(2)}$ TFLOP (about ${(computeSeconds * 1e3).toFixed(2)} ms at peak) while sending ${mb(ringKvBlockBytes(llama3))} (${(commSeconds * 1e3).toFixed(2)} ms at 45 GB/s)`,
    "exercise step",
  );
});

test("contiguous causal sharding at c = 16: 62 tiles vs 32, 51.6% efficient, busiest GPU 31× the idlest", () => {
  const plan = planRingAttention({ gpus: 16, sharding: "contiguous", causal: true });
  assertMentions(
    text,
    `For $c = 16$ that is ${plan.criticalPathWork} tiles where ${plan.idealWork} would do, an efficiency of ${(plan.efficiency * 100).toFixed(1)}%, and the busiest GPU does ${plan.imbalance} times the work of the idlest`,
    "contiguous",
  );
  assertMentions(text, `${(plan.efficiency * 100).toFixed(1)}% at $c = 16$`, "exercise");
  const zz = planRingAttention({ gpus: 16, sharding: "zigzag", causal: true });
  assert.equal(zz.efficiency, 1);
  for (const s of zz.steps) for (const g of s.gpus) assert.equal(g.work, 2);
  assertMentions(text, "Every GPU does 2 tiles in every step, and the critical path is $2c$ tiles", "zig-zag");
});

test("ring vs Ulysses for Llama-3.1-405B at c = 16: ratio 0.94, 503.3 MB vs 534.8 MB (566.2 MB with replicated KV heads); Llama 3 layout 62.9 vs 125.8 MB; MHA ratio c/2", () => {
  const ring = ringForwardBytesPerLayer(cost);
  const uly = ulyssesForwardBytesPerLayer(cost);
  assertMentions(
    text,
    `gives $16 \\cdot 8/136 \\approx ${(ring / uly).toFixed(2)}$: ${mb(ring)} for the ring against ${mb(uly)} for Ulysses`,
    "GQA",
  );
  assert.match(ulyssesHeadProblem(cost) ?? "", /replicated 2 times/);
  assertMentions(
    text,
    `each must be replicated on 2 GPUs, K and V travel as 16 heads, and Ulysses sends ${mb(ulyssesReplicatedForwardBytesPerLayer(cost))}`,
    "replicated Ulysses",
  );
  assert.match(ulyssesHeadProblem(llama3) ?? "", /1 KV head for 16 GPUs/);
  assertMentions(
    text,
    `${mb(ulyssesReplicatedForwardBytesPerLayer(llama3))} per GPU per layer, twice the ring's ${mb(ringForwardBytesPerLayer(llama3))}`,
    "Llama 3 layout Ulysses",
  );
  assert.equal(ulyssesReplicatedForwardBytesPerLayer(llama3), 2 * ringForwardBytesPerLayer(llama3));
  const mha = { ...cost, kvHeads: cost.heads };
  assert.equal(ringForwardBytesPerLayer(mha) / ulyssesForwardBytesPerLayer(mha), 16 / 2);
  for (const id of ["llama-3.1-8b", "llama-3.1-70b", "llama-3.1-405b"]) assert.equal(arch(id).numKvHeads, 8);
  assertMentions(text, "8 for every Llama 3.1 model", "KV heads");
});

test("ring against Ulysses: the ring sends less only while c·n_kv < n_h + max(n_kv, c), up to c = 18 for Llama-3.1-405B; 1.6 times more at c = 32", () => {
  const ratio = (c: number) => (c * a405.numKvHeads) / (a405.numHeads + Math.max(a405.numKvHeads, c));
  assert.ok(ratio(18) <= 1 && ratio(19) > 1);
  assertMentions(text, "up to $c$ = 18: at $c = 32$", "crossover");
  assertMentions(text, `the ring sends ${ratio(32).toFixed(1)} times what Ulysses sends`, "c = 32");
  assert.doesNotMatch(text, /the ring sends no more than Ulysses/);
});

test("the step model charges CP as an exposed all-gather: 0.39 s per step against 10.3 s of compute for Llama 3's long-context layout", () => {
  const e = evaluateScenario({
    model: "llama-3.1-405b",
    cluster: { gpu: "h100-sxm", gpuCount: 16_384 },
    framework: "megatron",
    layout: { tp: 8, cp: 16, pp: 16, sequenceParallel: true, stageLayers: [7, ...Array<number>(14).fill(8), 7] },
    batch: { seqLength: S, microBatchSize: 1, globalBatch: 128 },
  });
  assert.equal(e.step.layout.dp, 8);
  assertMentions(
    text,
    `that is ${e.step.breakdown.cp.toFixed(2)} s per step against ${e.step.breakdown.compute.toFixed(1)} s of compute`,
    "model's CP time",
  );
});

test("notation: the head dimension is d_head, not d (the data-parallel degree elsewhere)", () => {
  assert.doesNotMatch(text, /n_\{kv\} \\cdot d\$|n_h d\}|\(\$d = 128\$\)|\\sqrt\{d\}/);
  assertMentions(text, "($d_{\\text{head}} = 128$)", "head dimension");
});
