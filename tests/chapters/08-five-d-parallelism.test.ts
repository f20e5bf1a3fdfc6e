/**
 * Every number chapter 8 (5D parallelism) computes is recomputed here from src/model and checked
 * against the text. Numbers quoted from papers (Narayanan et al.'s Table 2, Llama 3's Table 4 and
 * interruption counts, DeepSeek-V3's layout) carry citations instead.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { assertMentions, readChapter } from "../helpers/chapter-text.ts";
import { countParameters, findGpu, findModelPreset, searchConfigurations, trainingMemory, type RankedConfig } from "../../src/model/index.ts";

const text = readChapter("08-five-d-parallelism");
const fmt = (n: number) => n.toLocaleString("en-US");
const gb = (bytes: number, digits = 1) => `${(bytes / 1e9).toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits })} GB`;
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

test("ZeRO-3 token threshold F/W on H100 and A100", () => {
  const h = (0.6 * h100.bf16FlopsPerSecond) / 50e9;
  assert.equal(h100.bf16FlopsPerSecond, 989.4e12);
  assertMentions(text, `is about ${fmt(Math.round(h))} tokens`, "H100 F/W");
  assertMentions(text, `H100 figure of ${fmt(Math.round(h))} tokens`, "H100 F/W in exercise");
  assert.ok(Math.round(h) / 8192 > 1 && Math.round(h) / 8192 < 2);
  const a = (0.6 * a100.bf16FlopsPerSecond) / 25e9;
  assertMentions(text, `= ${fmt(a).replace(/,/g, "{,}")}$ tokens per microbatch`, "A100 F/W");
  assert.ok(h100.bf16FlopsPerSecond / a100.bf16FlopsPerSecond > 3);
});

test("step 1 memory of hand-built configurations", () => {
  const mem = (tp: number, pp: number, dp: number, recompute: "none" | "full" = "none") =>
    trainingMemory(llama70b, { seqLength: 8192, microBatchSize: 1, tp, pp, dp, sequenceParallel: true, zeroStage: 1, recompute, microbatches: 512 / dp }).perGpu;
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

const search = searchConfigurations({ config: llama70b, gpu: h100, gpuCount: 256, seqLength: 8192, globalBatchSequences: 512 });
const secs = (x: number, digits = 2) => `${x.toFixed(digits)} s`;
const find = (p: (c: RankedConfig) => boolean) => {
  const c = search.ranked.find(p);
  assert.ok(c, "configuration present");
  return c!;
};

test("step 3 and the widget's default search", () => {
  const top = search.ranked[0];
  assertMentions(text, `compute term alone is ${secs(top.computeSeconds)} per step`, "compute term");
  const hand = find((c) => c.tp === 8 && c.pp === 4 && c.dp === 8 && c.cp === 1 && c.zeroStage === 1 && c.recompute === "none" && c.microBatchSize === 1);
  assertMentions(text, `adds a ${secs(hand.bubbleSeconds, 3)} bubble and ${secs(hand.exposedSeconds.tp, 3)} of exposed`, "hand config overheads");
  assertMentions(text, `for ${secs(hand.stepSeconds)} and ${pct(hand.mfu)} MFU`, "hand config step");
  const noPp = search.ranked.find((c) => c.tp === 8 && c.pp === 1 && c.cp === 1)!;
  assert.equal(noPp.dp, 32);
  assert.equal(noPp.zeroStage, 2);
  assertMentions(text, `${secs(noPp.stepSeconds)}, ${pct(noPp.mfu)} MFU`, "TP8 no PP");
  assertMentions(text, `search tries ${fmt(search.configsTried)} configurations: ${fmt(search.ruledOutBatch)} cannot split`, "counts");
  assertMentions(text, `and ${fmt(search.ruledOutMemory)} do not fit. Of the ${fmt(search.ranked.length)} that remain`, "counts 2");
  assert.deepEqual([top.tp, top.cp, top.pp, top.dp, top.zeroStage], [1, 8, 32, 1, 1]);
  assertMentions(text, `${secs(top.stepSeconds)} per step and ${pct(top.mfu)} MFU`, "top config");
});

test("exercise 1: 405B states", () => {
  const n = countParameters(llama405b).total;
  assertMentions(text, fmt(n), "405B count");
  assertMentions(text, `${gb(16 * n)}.`, "405B states");
  assertMentions(text, `${gb(16 * n).replace(" GB", "")} / 72 = ${((16 * n) / 72e9).toFixed(1)}, so at least ${Math.ceil((16 * n) / 72e9)} GPUs`, "min GPUs");
  assertMentions(text, `about ${(n / 128 / 1e9).toFixed(2)} billion per GPU`, "per GPU params");
  assertMentions(text, `about ${gb((n / 128) * (4 + 12 / 64))} per GPU`, "per GPU states");
});

test("exercise 2: Llama 3 pipeline bubble", () => {
  assertMentions(text, `$15/32 = ${(15 / 32).toFixed(3)}$`, "1F1B bubble");
  assertMentions(text, `$v > ${(15 / 32 / 0.1).toFixed(2)}$`, "v bound");
});

test("exercise 4: TP across servers", () => {
  const hand = find((c) => c.tp === 8 && c.pp === 4 && c.dp === 8 && c.cp === 1 && c.zeroStage === 1 && c.recompute === "none" && c.microBatchSize === 1);
  const slow = hand.exposedSeconds.tp * 9;
  const step = hand.stepSeconds - hand.exposedSeconds.tp + slow;
  assertMentions(text, `$${hand.exposedSeconds.tp.toFixed(3)} \\times 9 = ${slow.toFixed(2)}$ s`, "slow TP");
  assertMentions(text, `to about ${step.toFixed(1)} s`, "slow step");
  assertMentions(text, `to about ${Math.round((100 * hand.mfu * hand.stepSeconds) / step)}%`, "slow MFU");
});

test("exercise 5: checkpoint interval", () => {
  const hours = 54 * 24;
  assertMentions(text, `${fmt(hours)} hours over 419 interruptions: ${(hours / 419).toFixed(2)} hours`, "MTBI");
  const lossB = (419 * 40) / 60;
  assertMentions(text, `${lossB.toFixed(1)} hours, ${pct(lossB / hours)} of ${fmt(hours)} hours`, "loss b");
  const lossC = (419 * 25) / 60;
  assertMentions(text, `${lossC.toFixed(1)} hours (${pct(lossC / hours)})`, "loss c");
  assertMentions(text, `(${(2592 / 60).toFixed(1)} hours, ${pct(43.2 / hours)})`, "writes c");
  assertMentions(text, `${(1296 / 60).toFixed(1)} hours (${pct(21.6 / hours)})`, "writes b");
  assertMentions(text, `from ${pct(lossB / hours + 21.6 / hours)} to ${pct(lossC / hours + 43.2 / hours)}`, "totals");
});
