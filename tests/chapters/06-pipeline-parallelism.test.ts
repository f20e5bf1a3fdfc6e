/**
 * Every number chapter 6 (pipeline parallelism) computes is recomputed here from src/model and
 * checked against the text. Numbers quoted from papers (Megatron-LM's 892 GB/s, Llama 3's MFU,
 * Zero Bubble's 23% and 31%, …) carry citations instead.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { assertMentions, readChapter } from "../helpers/chapter-text.ts";
import {
  clusterShape,
  countParameters,
  findGpu,
  findModelPreset,
  groupLink,
  korthikantiLayerActivationBytes,
  layerParameters,
  matmulParameters,
  modelFlopsPerToken,
  parseModelConfig,
} from "../../src/model/index.ts";

const text = readChapter("06-pipeline-parallelism");
const fmt = (n: number) => n.toLocaleString("en-US");
const tex = (n: number) => fmt(n).replace(/,/g, "{,}");
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
/** The same percentage inside TeX math, where % is escaped. */
const texPct = (x: number) => `${(x * 100).toFixed(1)}\\%`;
const gb = (bytes: number, digits = 1) => `${(bytes / 1e9).toFixed(digits)} GB`;
const mb = (bytes: number, digits = 1) => `${(bytes / 1e6).toFixed(digits)} MB`;
const h100 = findGpu("h100-sxm")!;
/** What nvidia-smi reports for an "80 GB" H100: 81,559 MiB (nvidia2024nccl1264, cited in the chapter). */
const h100UsableBytes = 81_559 * 2 ** 20;

/** A send between stages in different servers: one NIC's bus bandwidth (placement.ts), never typed in. */
const sendBus = groupLink(clusterShape("h100-sxm"), "send-recv", { ranks: 2, stride: 8 }).busBytesPerSecond;

/** Narayanan et al. §2.2: (p − 1)/m, divided by v when interleaved. */
const bubble = (p: number, m: number, v = 1) => (p - 1) / (v * m);

test("Llama 3.1 70B stage sizes", () => {
  const preset = findModelPreset("llama-3.1-70b")!;
  const arch = parseModelConfig(preset.config).architecture;
  const layer = layerParameters(arch, 0).total;
  const counts = countParameters(preset.config);
  assert.equal(layer, 855_654_400);
  assertMentions(text, `Each layer holds ${fmt(layer)}\nparameters`.replace("\n", " "), "layer parameters");
  assertMentions(text, `hold ${fmt(counts.breakdown.embedding)} each`, "embedding and head");
  assert.equal(counts.breakdown.head, counts.breakdown.embedding);
  assertMentions(text, `20 layers, ${fmt(20 * layer)} parameters`, "middle stage");
});

test("point-to-point volume and time vs a stage's compute (70B, b = 1, s = 4096)", () => {
  const bytes = 2 * 1 * 4096 * 8192;
  assertMentions(text, `it is ${mb(bytes)}.`, "p2p bytes");
  assert.equal(sendBus, 45e9);
  assertMentions(text, `of which the book's model counts ${sendBus / 1e9} GB/s`, "the link");
  assertMentions(text, `#sec:allreduce-cost)): ${((bytes / sendBus) * 1e3).toFixed(2)} ms.`, "p2p time");
  const arch = parseModelConfig(findModelPreset("llama-3.1-70b")!.config).architecture;
  const stageParams = 20 * layerParameters(arch, 0).total;
  const flops = 2 * stageParams * 4096;
  assertMentions(text, `${(flops / 1e14).toFixed(2)} \\times 10^{14}$ FLOPs`, "stage FLOPs");
  assertMentions(text, `which is ${((flops / h100.bf16FlopsPerSecond) * 1e3).toFixed(1)} ms`, "stage time at peak");
  const share = (100 * (bytes / sendBus)) / (flops / h100.bf16FlopsPerSecond);
  assert.ok(share < 2 && share > 1);
  assertMentions(text, `The transfer is under ${Math.ceil(share)}% of the work it feeds`, "share");
});

test("bubble examples", () => {
  assertMentions(
    text,
    `the bubble is ${pct(bubble(8, 32))} of the ideal time, or ${pct(7 / 39)} of the total`,
    "p=8, m=32",
  );
  assertMentions(text, `the bubble, ${pct(bubble(4, 8))} of the ideal time here`, "AFAB figure caption");
  assertMentions(text, `drops from ${pct(bubble(8, 64))} to ${pct(bubble(8, 64, 3))}`, "175B interleaved");
});

test("activation memory of the 175B example (Korthikanti et al. Table 3 configuration)", () => {
  const perLayer = korthikantiLayerActivationBytes({
    s: 2048,
    b: 1,
    h: 12288,
    a: 96,
    t: 8,
    sequenceParallel: true,
    recompute: "selective",
  });
  assert.equal(perLayer, (34 * 2048 * 12288) / 8);
  assertMentions(text, `which is\n${mb(perLayer)} here`.replace("\n", " "), "per-layer activations");
  const gpipe = 64 * (96 / 8) * perLayer;
  const oneF1B = 96 * perLayer;
  const interleaved = oneF1B * (1 + 7 / (8 * 3));
  assertMentions(text, `every stage: ${gb(gpipe)}, or ${(gpipe / 2 ** 30).toFixed(1)} GiB, before`, "GPipe");
  assertMentions(
    text,
    `which is ${(h100UsableBytes / 2 ** 30).toFixed(1)} GiB or\n${gb(h100UsableBytes)}`.replace("\n", " "),
    "H100 usable memory",
  );
  assertMentions(
    text,
    `The activations alone would take ${((gpipe / h100UsableBytes) * 100).toFixed(0)}% of it`,
    "GPipe share",
  );
  // 175B parameters over t·p = 64 GPUs at 16 bytes each.
  const states = (175e9 / 64) * 16;
  assert.equal(Math.round(states / 1e9), 44);
  assertMentions(
    text,
    `do not\nfit in the ${gb(h100UsableBytes - gpipe)} that would be left`.replace("\n", " "),
    "room left",
  );
  assertMentions(
    text,
    `GPipe needs ${gb(gpipe + 44e9)} in all and does not fit; its activations alone\nwould take ${((gpipe / h100UsableBytes) * 100).toFixed(0)}% of the GPU`.replace(
      "\n",
      " ",
    ),
    "exercise 3 GPipe total",
  );
  assertMentions(text, `(${gb(h100UsableBytes)} by \`nvidia-smi\`'s count, the "80 GB" model)`, "exercise 3 GPU");
  assertMentions(
    text,
    `$96 \\times ${(perLayer / 1e6).toFixed(1)}\\ \\text{MB} = ${(oneF1B / 1e9).toFixed(1)}$ GB`,
    "1F1B",
  );
  assertMentions(text, `(${gb(oneF1B)} becomes ${gb(interleaved)} in the 175B example)`, "interleaved");
  assertMentions(text, `a factor of ${(1 + 7 / 24).toFixed(2)}`, "interleaved factor");
  // exercise 3
  assertMentions(text, `64 \\times 12 = 768$ layer-microbatches, ${gb(gpipe)}`, "exercise 3 GPipe");
  assertMentions(text, `$10.3 \\times (1 + 7/24) = ${(interleaved / 1e9).toFixed(1)}$`, "exercise 3 interleaved");
});

test("balancing: Llama 3.1 8B vocabulary matrix and logits", () => {
  const preset = findModelPreset("llama-3.1-8b")!;
  const counts = countParameters(preset.config);
  const layer = layerParameters(parseModelConfig(preset.config).architecture, 0).total;
  assertMentions(text, `holds ${fmt(counts.breakdown.embedding)} parameters`, "8B embedding");
  assertMentions(
    text,
    `${(counts.breakdown.embedding / layer).toFixed(2)} layers' worth (a layer holds ${fmt(layer)})`,
    "ratio",
  );
  assertMentions(text, `= ${((4 * 8192 * 128256) / 1e9).toFixed(1)}$ GB`, "fp32 logits");
  // Compute, not parameters: a layer also spends attention FLOPs that grow with s (PaLM's 12·L·a·d·s term).
  const mp = matmulParameters(preset.config);
  const arch8b = parseModelConfig(preset.config).architecture;
  const f = modelFlopsPerToken(preset.config, 8192);
  const layerFull = (6 * mp.layers + f.attentionTerm) / arch8b.numLayers;
  const layerCausal = (6 * mp.layers + f.attentionTerm / 2) / arch8b.numLayers;
  const headFlops = 6 * mp.head;
  assertMentions(
    text,
    `as much as ${(headFlops / layerFull).toFixed(2)} layers if the causal mask saves nothing and ${(headFlops / layerCausal).toFixed(2)} layers if attention kernels skip the masked\nhalf`.replace(
      "\n",
      " ",
    ),
    "head in layers of compute",
  );
  const l405 = parseModelConfig(findModelPreset("llama-3.1-405b")!.config).architecture;
  assert.equal(l405.numLayers + 2, 16 * 8);
});

test("exercise 1: bubbles for p = 16, m = 48", () => {
  assertMentions(text, `$(p-1)/m = 15/48 = ${texPct(bubble(16, 48))}$`, "1F1B");
  assertMentions(text, `$15/96 = ${texPct(bubble(16, 48, 2))}$`, "v = 2");
  assertMentions(text, `$15/192 = ${texPct(bubble(16, 48, 4))}$`, "v = 4");
  assertMentions(text, `$(p-1)/(m+p-1) = 15/63 = ${texPct(15 / 63)}$`, "total convention");
  assertMentions(text, `$0.3125/1.3125 = ${(0.3125 / 1.3125).toFixed(3)}$`, "conversion");
});

test("exercise 5: m < p; no schedule rescues it (DualPipe needs m ≥ 2p; a zero-bubble schedule is bound by (m + 2p)T against 3mT)", () => {
  assertMentions(text, `bubble $15/32 = ${texPct(bubble(16, 32))}$`, "before");
  assertMentions(text, `$15/8 = ${texPct(bubble(16, 8))}$`, "after");
  const m = 8;
  const p = 16;
  assertMentions(text, `$(m + 2p)T$ = ${m + 2 * p}$T$`, "critical path");
  assertMentions(
    text,
    `$3mT$ = ${3 * m}$T$ of work: a bubble of at least ${pct((m + 2 * p - 3 * m) / (3 * m))}`,
    "floor",
  );
  assertMentions(text, "$2 \\times 16 = 32$ microbatches here", "DualPipe's requirement");
  assert.doesNotMatch(text, /use a\s+zero-bubble or DualPipe schedule/);
});

test("DualPipe needs at least 2p microbatches in DeepSeek's reference implementation; depth-first gathers m/N times", () => {
  assertMentions(text, "refuses a step with fewer than $2p$ microbatches", "DualPipe");
  assertMentions(text, "$m/N$ times per step", "m/N");
});

test("exercise 6: point-to-point traffic of a 70B pipeline at s = 8192", () => {
  const bytes = 2 * 8192 * 8192;
  assertMentions(
    text,
    `$2bsh = 2 \\times 8192 \\times 8192 = ${tex(bytes)}$ B, ${mb(bytes)}, ${((bytes / sendBus) * 1e3).toFixed(2)} ms`,
    "(a)",
  );
  assertMentions(
    text,
    `$2 \\times 32 \\times ${tex(bytes)} = ${gb(2 * 32 * bytes)}`.replace(" GB", "$ GB").replace("$ GB", "$ GB"),
    "(b)",
  );
  assertMentions(text, `only its slice, ${fmt(bytes / 8)} B (${mb(bytes / 8)})`, "(c)");
});
