/**
 * Every number chapter 8 (5D parallelism) computes is recomputed here from src/model and checked
 * against the text. Numbers quoted from papers (Narayanan et al.'s Table 2, Llama 3's Table 4 and
 * interruption counts, DeepSeek-V3's layout) carry citations instead.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { assertMentions, readChapter } from "../helpers/chapter-text.ts";
import {
  countParameters,
  findGpu,
  findInterconnect,
  findModelPreset,
  KERNEL_EFFICIENCY,
  searchConfigurations,
  trainingMemory,
  type RankedConfig,
} from "../../src/model/index.ts";

const text = readChapter("08-five-d-parallelism");
const fmt = (n: number) => n.toLocaleString("en-US");
const gb = (bytes: number, digits = 1) =>
  `${(bytes / 1e9).toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits })} GB`;
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const h100 = findGpu("h100-sxm")!;
const a100 = findGpu("a100-sxm-80gb")!;
const llama70b = findModelPreset("llama-3.1-70b")!.config;
const llama405b = findModelPreset("llama-3.1-405b")!.config;
const n70 = countParameters(llama70b).total;

test("Llama 3.1 70B model states and the ZeRO-3 vs PP volumes", () => {
  assertMentions(text, `${gb(16 * n70)} in bf16 mixed precision`, "70B states");
  assertMentions(text, `needs ${gb(16 * n70)} of\nstates`, "70B states in step 1");
  assert.equal(Math.ceil((16 * n70) / 72e9), 16);
  assertMentions(text, `all-gathers of a\n${gb(2 * n70)} buffer, ${gb(4 * n70)} of messages`, "ZeRO-3 gathers");
  const h = 8192;
  const sendBytes = 8192 * h * 2;
  assertMentions(text, `${(sendBytes / 1e6).toFixed(1)} MB each way`, "PP send");
  const ratio = (4 * n70) / (2 * sendBytes);
  assert.ok(ratio > 900 && ratio < 1200, `about a thousand: ${ratio}`);
});

test("ZeRO-3 token threshold F/W on H100 and A100, from the step model's efficiencies and measured bandwidths", () => {
  const F = KERNEL_EFFICIENCY.hopper * h100.bf16FlopsPerSecond;
  const net = findInterconnect("h100-sxm")!;
  assertMentions(text, `$F$ = ${(F / 1e12).toFixed(1)} TFLOPS`, "achieved rate");
  assertMentions(text, `${Math.round(KERNEL_EFFICIENCY.hopper * 100)}% (see the`, "H100 efficiency");
  assertMentions(
    text,
    `at ${net.nvlinkRingBusBytesPerSecond / 1e9} GB/s, it is ${fmt(Math.round(F / net.nvlinkRingBusBytesPerSecond))} tokens`,
    "NVLink threshold",
  );
  assertMentions(
    text,
    `at one NIC's ${net.nicBusBytesPerSecond / 1e9} GB/s, it is ${fmt(Math.round(F / net.nicBusBytesPerSecond))} tokens`,
    "one NIC threshold",
  );
  const eight = Math.min(net.nvlinkRingBusBytesPerSecond, 8 * net.nicBusBytesPerSecond);
  assertMentions(
    text,
    `about ${eight / 1e9} GB/s, and needs\nonly ${fmt(Math.round(F / eight))} tokens`,
    "eight NICs threshold",
  );
  assertMentions(
    text,
    `H100 figure of ${fmt(Math.round(F / net.nicBusBytesPerSecond))} tokens`,
    "H100 F/W in exercise",
  );
  const anet = findInterconnect("a100-sxm-80gb")!;
  const a = (KERNEL_EFFICIENCY.ampere * a100.bf16FlopsPerSecond) / anet.nicBusBytesPerSecond;
  assertMentions(
    text,
    `${KERNEL_EFFICIENCY.ampere} \\times 312 \\times 10^{12} / (${anet.nicBusBytesPerSecond / 1e9} \\times 10^{9}) = ${fmt(Math.round(a)).replace(/,/g, "{,}")}$ tokens`,
    "A100 F/W",
  );
});

test("exercise 1 (c): Llama 3's FSDP states per GPU", () => {
  const n = countParameters(llama405b).total;
  assertMentions(text, `about ${gb((n / 128) * (2 + 14 / 64))} per GPU`, "FSDP states");
});

test("rule of thumb: m = 4p leaves a 22–25% bubble for p ≥ 8", () => {
  assert.equal(Math.round((100 * 7) / 32), 22);
  for (const p of [8, 16, 64]) assert.ok((p - 1) / (4 * p) < 0.25, `p = ${p}`);
  assertMentions(text, "22% to 25% of the busy\n   time for $p \\geq 8$", "rule 3");
});

test("step 1 memory of hand-built configurations", () => {
  const mem = (tp: number, pp: number, dp: number, recompute: "none" | "full" = "none") =>
    trainingMemory(llama70b, {
      seqLength: 8192,
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
  assertMentions(text, `states take ${gb(states(a))} per GPU and activations ${gb(a.activations)}`, "TP 8 alone");
  assertMentions(text, `$b = 1$: ${gb(a.total)}, which fits`, "TP 8 alone total");
  const b = mem(8, 4, 8);
  assertMentions(text, `states drop to ${gb(states(b))}`, "TP8 PP4 states");
  assertMentions(text, `are ${gb(b.activations)}: ${gb(b.total)} per GPU`, "TP8 PP4 acts and total");
  const c = mem(4, 4, 16);
  assertMentions(text, `activations double to ${gb(c.activations)}`, "TP4 PP4 acts");
  assertMentions(text, `dimension: ${gb(c.total)}.`, "TP4 PP4 total");
  const full = mem(8, 4, 8, "full");
  assertMentions(text, `from ${gb(b.activations)} to\n${gb(full.activations)}`, "full recompute");
  assert.equal(512 / 8, 64);
});

const search = searchConfigurations({
  config: llama70b,
  gpu: h100,
  gpuCount: 256,
  seqLength: 8192,
  globalBatchSequences: 512,
});
const secs = (x: number, digits = 2) => `${x.toFixed(digits)} s`;
const find = (p: (c: RankedConfig) => boolean) => {
  const c = search.ranked.find(p);
  assert.ok(c, "configuration present");
  return c!;
};

test("ranking with the step model and the widget's default search", () => {
  const top = search.ranked[0];
  assertMentions(text, `fastest configuration\nis ${secs(top.computeSeconds)} per step`, "compute term");
  const hand = find(
    (c) =>
      c.tp === 8 &&
      c.pp === 4 &&
      c.dp === 8 &&
      c.cp === 1 &&
      c.zeroStage === 1 &&
      c.recompute === "none" &&
      c.microBatchSize === 1,
  );
  assertMentions(
    text,
    `adds a\n${secs(hand.bubbleSeconds, 3)} bubble and ${secs(hand.exposedSeconds.tp, 3)} of exposed`,
    "hand config overheads",
  );
  assertMentions(text, `for ${secs(hand.stepSeconds)} and ${pct(hand.mfu)} MFU`, "hand config step");
  const noPp = search.ranked.find((c) => c.tp === 8 && c.pp === 1 && c.cp === 1)!;
  assert.equal(noPp.dp, 32);
  assert.equal(noPp.zeroStage, 3);
  assertMentions(text, `${secs(noPp.stepSeconds)}, ${pct(noPp.mfu)} MFU`, "TP8 no PP");
  assertMentions(
    text,
    `search tries ${fmt(search.configsTried)} configurations: ${fmt(search.ruledOutBatch)} cannot split`,
    "counts",
  );
  assertMentions(
    text,
    `and ${fmt(search.ruledOutMemory)} do not fit. Of the ${fmt(search.ranked.length)} that remain`,
    "counts 2",
  );
  assert.deepEqual([top.tp, top.cp, top.pp, top.dp, top.zeroStage, top.microBatchSize], [1, 4, 1, 64, 3, 1]);
  assertMentions(text, `${secs(top.stepSeconds)} per step and ${pct(top.mfu)} MFU`, "top config");
  assertMentions(text, `context parallelism costs ${secs(top.exposedSeconds.cp, 3)}`, "top CP cost");
  const old = search.ranked.findIndex((c) => c.cp === 8 && c.pp === 32 && c.tp === 1);
  const oc = search.ranked[old];
  assertMentions(
    text,
    `takes ${oc.stageImbalance.toFixed(3)} times the mean, and that configuration falls to rank ${old + 1} of\n${fmt(search.ranked.length)} at ${secs(oc.stepSeconds)} (${pct(oc.mfu)} MFU)`,
    "old top with imbalance",
  );
  const l3 = search.ranked.findIndex((c) => c.tp === 8 && c.pp === 16 && c.cp === 1);
  const lc = search.ranked[l3];
  assert.equal(lc.dp, 2);
  assertMentions(text, `ranks ${l3 + 1}th, at ${secs(lc.stepSeconds)}`, "Llama 3 shape rank");
  assertMentions(
    text,
    `(imbalance ${lc.stageImbalance.toFixed(3)}), and TP costs ${secs(lc.exposedSeconds.tp, 3)}`,
    "Llama 3 shape costs",
  );
});

test("long context: at 131,072 tokens and batch 32, layouts without CP fit, only slower", () => {
  const long = searchConfigurations({
    config: llama70b,
    gpu: h100,
    gpuCount: 256,
    seqLength: 131072,
    globalBatchSequences: 32,
  });
  const noCp = long.ranked.find((c) => c.cp === 1)!;
  assert.equal(noCp.tp, 8);
  assert.equal(noCp.recompute, "full");
  assert.ok(long.ranked[0].cp > 1);
  assertMentions(
    text,
    `(${secs(noCp.stepSeconds)} per\nstep against ${secs(long.ranked[0].stepSeconds)} for the best)`,
    "long context",
  );
});

test("exercise 1: 405B states", () => {
  const n = countParameters(llama405b).total;
  assertMentions(text, fmt(n), "405B count");
  assertMentions(text, `${gb(16 * n)}.`, "405B states");
  assertMentions(
    text,
    `${gb(16 * n).replace(" GB", "")} / 72 = ${((16 * n) / 72e9).toFixed(1)}, so at least ${Math.ceil((16 * n) / 72e9)} GPUs`,
    "min GPUs",
  );
  assertMentions(text, `about ${(n / 128 / 1e9).toFixed(2)} billion per GPU`, "per GPU params");
  assertMentions(text, `about ${gb((n / 128) * (4 + 12 / 64))} per GPU`, "per GPU states");
});

test("exercise 2: Llama 3 pipeline bubble", () => {
  assertMentions(text, `$15/32 = ${(15 / 32).toFixed(3)}$`, "1F1B bubble");
  assertMentions(text, `$v > 15/(32 \\times 0.1) = ${(15 / 32 / 0.1).toFixed(2)}$`, "v bound");
});

test("exercise 4: TP across servers", () => {
  const hand = find(
    (c) =>
      c.tp === 8 &&
      c.pp === 4 &&
      c.dp === 8 &&
      c.cp === 1 &&
      c.zeroStage === 1 &&
      c.recompute === "none" &&
      c.microBatchSize === 1,
  );
  const net = findInterconnect("h100-sxm")!;
  const crossed = Math.min(net.nvlinkRingBusBytesPerSecond, 4 * net.nicBusBytesPerSecond);
  assert.equal(crossed, 180e9);
  const slow = (hand.exposedSeconds.tp * net.nvlinkRingBusBytesPerSecond) / crossed;
  const step = hand.stepSeconds - hand.exposedSeconds.tp + slow;
  assertMentions(text, `$${hand.exposedSeconds.tp.toFixed(3)} \\times 370/180 = ${slow.toFixed(2)}$ s`, "slow TP");
  assertMentions(text, `from ${secs(hand.stepSeconds)} to\nabout ${step.toFixed(1)} s`, "slow step");
  assertMentions(
    text,
    `from ${pct(hand.mfu)} to about ${Math.round((100 * hand.mfu * hand.stepSeconds) / step)}%`,
    "slow MFU",
  );
});

test("exercise 5: checkpoint interval", () => {
  const hours = 54 * 24;
  assertMentions(
    text,
    `$54 \\times 24 = ${fmt(hours).replace(",", "{,}")}$ hours over 419 interruptions: ${(hours / 419).toFixed(2)} hours`,
    "MTBI",
  );
  const lossB = (419 * 40) / 60;
  assertMentions(text, `${lossB.toFixed(1)} hours, ${pct(lossB / hours)} of ${fmt(hours)} hours`, "loss b");
  const lossC = (419 * 25) / 60;
  assertMentions(text, `${lossC.toFixed(1)} hours (${pct(lossC / hours)})`, "loss c");
  assertMentions(text, `(${(2592 / 60).toFixed(1)} hours, ${pct(43.2 / hours)})`, "writes c");
  assertMentions(text, `${(1296 / 60).toFixed(1)} hours (${pct(21.6 / hours)})`, "writes b");
  assertMentions(text, `from ${pct(lossB / hours + 21.6 / hours)} to ${pct(lossC / hours + 43.2 / hours)}`, "totals");
});
