/**
 * Every number chapter 1 prints that is not a quotation from a cited source is recomputed here
 * from src/model and src/data, and must appear in the chapter exactly as formatted below.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  clusterShape,
  countParameters,
  findGpu,
  findModelPreset,
  groupLink,
  KERNEL_EFFICIENCY,
  modelStateBytes,
  trainingFlops,
} from "../../src/model/index.ts";
import { assertMentions, readChapter } from "../helpers/chapter-text.ts";

const text = readChapter("01-introduction");
const source = readFileSync("content/chapters/01-introduction.md", "utf8");
/** What nvidia-smi reports for an "80 GB" H100 (NVIDIA/nccl issue 1264): 81,559 MiB. */
const smiBytes = 81_559 * 2 ** 20;
const h100 = findGpu("h100-sxm");
const a100 = findGpu("a100-sxm-80gb") ?? findGpu("a100-sxm4-80gb");
const secondsPerYear = 365.25 * 86_400;

function params(id: string): number {
  const preset = findModelPreset(id);
  assert.ok(preset, `preset ${id} exists`);
  return countParameters(preset.config).total;
}

/** "3.80 \times 10^{25}" style, as the chapter writes scientific numbers in TeX. */
function sci(x: number, digits = 2): string {
  const exponent = Math.floor(Math.log10(x));
  const mantissa = x / 10 ** exponent;
  return `${mantissa.toFixed(digits)} \\times 10^{${exponent}}`;
}

const percent = (x: number) => `${(100 * x).toFixed(1)}%`;
const grouped = (x: number) => Math.round(x).toLocaleString("en-US");

test("the H100 peak quoted in the chapter is the data file's dense bf16 figure (989 TFLOPS), and the sparse headline is twice it", () => {
  assert.ok(h100);
  assert.equal(Math.round(h100.bf16FlopsPerSecond / 1e12), 989);
  assertMentions(text, "989 TFLOPS", "H100 dense bf16 peak");
  assert.equal(Math.round((2 * h100.bf16FlopsPerSecond) / 1e12).toLocaleString("en-US"), "1,979");
  assertMentions(text, "1,979 TFLOPS", "sparse headline");
  assert.equal(h100.hbmBytes, 80e9);
  assertMentions(text, "80 GB of HBM", "H100 memory");
  assert.equal(h100.nvlinkBytesPerSecond, 900e9);
  assertMentions(
    text,
    "450 GB/s in each direction per H100, the 900 GB/s of the datasheet counting both",
    "NVLink bandwidth",
  );
});

test("links: both line rates per direction, and the book's model's 370 GB/s NVLink ring against 45 GB/s per NIC, about 8 times", () => {
  const cluster = clusterShape("h100-sxm");
  const ring = groupLink(cluster, "all-gather", { ranks: 8, stride: 1 }).busBytesPerSecond;
  const nic = groupLink(cluster, "all-gather", { ranks: 8, stride: 8 }).busBytesPerSecond;
  assert.equal(ring, 370e9);
  assert.equal(nic, 45e9);
  assertMentions(text, "which is 50 GB/s in each direction", "NIC line rate per direction");
  assertMentions(
    text,
    `reaches about ${ring / 1e9} GB/s and one network card about ${nic / 1e9} GB/s, so the gap between the two links is about ${Math.round(ring / nic)} times, not the 18 times`,
    "measured gap",
  );
});

test("no efficiency of the chapter's own in the prose: the one-GPU time uses the model's Hopper kernel efficiency", () => {
  assert.doesNotMatch(source, /sustained \{:40\}%/);
  assertMentions(
    text,
    `kept its kernels at ${Math.round(100 * KERNEL_EFFICIENCY.hopper)}% of its 989 TFLOPS peak`,
    "eta",
  );
});

test("6ND for Llama 3.1 405B on 15.6T tokens reproduces the paper's 3.8e25 FLOPs", () => {
  const n = params("llama-3.1-405b");
  assertMentions(text, `$N = ${n.toLocaleString("en-US").replace(/,/g, "{,}")}$`, "405B parameter count");
  const flops = trainingFlops(15.6e12, 6 * n);
  assertMentions(text, `$${sci(flops)}$ FLOPs`, "6ND");
  assertMentions(text, `$${sci(flops)}$ for Llama 3 405B`, "6ND in the takeaways");
});

test("6ND at the Hopper kernel efficiency takes thousands of years on one H100 and weeks on 16,384, both from the model", () => {
  assert.ok(h100);
  const eta = KERNEL_EFFICIENCY.hopper;
  assertMentions(text, `kept its kernels at ${Math.round(100 * eta)}% of its`, "the efficiency");
  const flops = trainingFlops(15.6e12, 6 * params("llama-3.1-405b"));
  const seconds = flops / (eta * h100.bf16FlopsPerSecond);
  // One significant digit, as the chapter prints it ("about 2,000 years"); the days to the nearest day.
  const years = seconds / secondsPerYear;
  const magnitude = 10 ** Math.floor(Math.log10(years));
  const yearsShown = Math.round(years / magnitude) * magnitude;
  assert.ok(yearsShown >= 1000 && yearsShown < 10_000, `about ${yearsShown} years: thousands`);
  assertMentions(text, `about ${yearsShown.toLocaleString("en-US")} years`, "one-GPU time");
  const days = Math.round(seconds / 16_384 / 86_400);
  assert.ok(days > 7 && days < 120, `${days} days: weeks, not hours or years`);
  assertMentions(text, `about ${days} days of pure computation`, "16K-GPU time");
});

test("model states of Llama 3.1 405B at 16 bytes per parameter: 6,494 GB, 81.2 H100s, at least 82 GPUs", () => {
  assert.ok(h100);
  const bytes = modelStateBytes(params("llama-3.1-405b")).total;
  assertMentions(text, `${grouped(bytes / 1e9)} GB of model state`, "405B model states");
  const ratio = bytes / h100.hbmBytes;
  assertMentions(text, `${ratio.toFixed(1)} times the 80 GB`, "ratio to one H100");
  assertMentions(text, `fewer than ${Math.ceil(ratio)} GPUs`, "minimum GPUs");
  assert.equal(Math.ceil(bytes / smiBytes), 76);
  assertMentions(
    text,
    `85.5 GB, which lowers the floor to ${Math.ceil(bytes / smiBytes)} GPUs`,
    "floor at nvidia-smi's count",
  );
});

test("MFU examples: 400 TFLOPS on an H100 is 40.4%, 163 TFLOPS on an A100 is 52.2%, and 400 over the sparse peak is 20.2%", () => {
  assert.ok(h100 && a100);
  const llama = 400e12 / h100.bf16FlopsPerSecond;
  assertMentions(text, `= ${percent(llama).replace("%", "\\%")}{,}`, "Llama 3 405B MFU");
  assertMentions(text, `giving ${percent(llama)}`, "exercise answer");
  assertMentions(text, `${percent(llama)} for Llama 3 405B at 400 TFLOPS`, "takeaway");
  assert.equal(a100.bf16FlopsPerSecond, 312e12);
  assertMentions(text, `which is ${percent(163e12 / a100.bf16FlopsPerSecond)}`, "Megatron-LM 1T HFU");
  assertMentions(
    text,
    `$400 / 1{,}979 = ${percent(400e12 / (2 * h100.bf16FlopsPerSecond)).replace("%", "\\%")}$`,
    "sparse-peak mistake",
  );
});

test("exercise: Llama 3.1 70B on 15T tokens with 1,024 H100s at 40% MFU takes about 181 days", () => {
  assert.ok(h100);
  const n = params("llama-3.1-70b");
  assertMentions(text, `$N$ = ${(n / 1e9).toFixed(2)} billion`, "70B parameter count");
  const flops = 6 * n * 15e12;
  assertMentions(text, `= ${sci(flops)}$ FLOPs`, "70B training FLOPs");
  const rate = 1024 * 0.4 * h100.bf16FlopsPerSecond;
  assertMentions(text, `= ${sci(rate)}$ FLOPs per second`, "cluster rate");
  assertMentions(text, `$${sci(flops / rate)}$ seconds`, "seconds");
  assertMentions(text, `about ${Math.round(flops / rate / 86_400)} days`, "days");
});

test("exercise: Llama 3.1 70B model states take 1,129 GB, 14.1 GPUs' worth, so at least 15", () => {
  const n = params("llama-3.1-70b");
  assertMentions(text, `$${n.toLocaleString("en-US").replace(/,/g, "{,}")} \\times 16$`, "70B count in the solution");
  const bytes = modelStateBytes(n).total;
  assertMentions(text, `${grouped(bytes / 1e9)} GB`, "70B model states");
  assertMentions(
    text,
    `that is ${(bytes / 80e9).toFixed(1)}, so at least ${Math.ceil(bytes / 80e9)} GPUs`,
    "GPU count",
  );
  assertMentions(text, `an H100 reports, ${Math.ceil(bytes / smiBytes)})`, "GPU count at nvidia-smi's capacity");
});

test("MFU range: each run as its paper counts, and the 1T run's 52.2% is 39.2% as MFU (chapter 2)", () => {
  assertMentions(text, "each as its paper counts FLOPs", "counting conventions");
  assertMentions(text, "shows is 39.2% when only the model's FLOPs are counted", "HFU to MFU");
});

test("DeepSeek-V3's quoted cost is its GPU hours times $2", () => {
  assert.equal(2.788e6 * 2, 5.576e6);
  assertMentions(text, "\\$5.576 million", "DeepSeek-V3 cost");
});
