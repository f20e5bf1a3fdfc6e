/**
 * Every number chapter 2 prints that is not a quotation from a cited source is recomputed here
 * from src/model and src/data (and from the figure inputs of tools/figures/one-gpu.ts), and must
 * appear in the chapter exactly as formatted below.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  bytesPerParameter,
  countParameters,
  findGpu,
  findModelPreset,
  KERNEL_EFFICIENCY,
  korthikantiHardwareFlopsSelective,
  korthikantiModelFlops,
  layerActivations,
  matmulParameters,
  modelFlopsPerToken,
  modelStateBytes,
  narayananFullRecomputeFlops,
  parseModelConfig,
  stepTimeSeconds,
  trainingMemory,
} from "../../src/model/index.ts";
import { timelinePeaks } from "../../src/figures/memory-timeline.ts";
import { memoryTimelineInput } from "../../tools/figures/one-gpu.ts";
import { assertMentions, readChapter } from "../helpers/chapter-text.ts";

const text = readChapter("02-one-gpu");
const h100 = findGpu("h100-sxm")!;
const gb = (bytes: number, digits = 1) =>
  `${(bytes / 1e9).toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits })} GB`;
const grouped = (x: number) => Math.round(x).toLocaleString("en-US");
const tex = (s: string) => s.replace(/,/g, "{,}");
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
function sci(x: number, digits = 2): string {
  const exponent = Math.floor(Math.log10(x));
  return `${(x / 10 ** exponent).toFixed(digits)} \\times 10^{${exponent}}`;
}
function preset(id: string) {
  const p = findModelPreset(id);
  assert.ok(p, `preset ${id}`);
  return p;
}
const n = (id: string) => countParameters(preset(id).config).total;

test("bytes per parameter: 16 in fp32 and bf16 mixed precision, 18 with fp32 gradients in place of bf16 (megatroncore2025distoptimizer), 20 with both", () => {
  const total = (b: { parameters: number; gradients: number; optimizer: number }) =>
    b.parameters + b.gradients + b.optimizer;
  assert.equal(total(bytesPerParameter("fp32")), 16);
  assert.equal(total(bytesPerParameter("bf16")), 16);
  const mainGrad = bytesPerParameter("bf16", true, "replace");
  assert.equal(total(mainGrad), 18);
  assert.equal(total(bytesPerParameter("bf16", true)), 20);
  assertMentions(text, "= 16 bytes per parameter, exactly the same as fp32", "bf16 mixed total");
  assertMentions(
    text,
    `${mainGrad.parameters} + ${mainGrad.gradients} + ${mainGrad.optimizer} = ${total(mainGrad)} bytes per parameter`,
    "fp32 gradients in place of bf16",
  );
  assertMentions(text, "side pays for both, 20 bytes per parameter", "both buffers");
  assertMentions(text, "fp32 gradients in place of bf16 ones make it 18; keeping both, 20", "takeaway");
});

test("model states: Llama 3.1 8B 128.5 GB (optimizer 96.4 GB), Llama 3.2 1B 19.8 GB", () => {
  assertMentions(
    text,
    `$N$ = ${grouped(n("llama-3.1-8b"))}, that is ${gb(modelStateBytes(n("llama-3.1-8b")).total)}`,
    "8B states",
  );
  assertMentions(
    text,
    `alone (master weights and two moments) is ${gb(modelStateBytes(n("llama-3.1-8b")).optimizer)}`,
    "8B optimizer",
  );
  assertMentions(
    text,
    `$N$ = ${grouped(n("llama-3.2-1b"))}, the model states take\n${gb(modelStateBytes(n("llama-3.2-1b")).total)}`,
    "1B states",
  );
  assertMentions(text, `${gb(modelStateBytes(n("llama-3.1-8b")).total)} for an 8B model`, "takeaway");
});

test("memory timeline of the running example: step 1 peaks at 35.8 GB, step 2 at 45.7 GB, moments 9.9 GB, model sum 48.2 GB", () => {
  const input = memoryTimelineInput();
  const peaks = timelinePeaks(input);
  assert.ok(peaks.second > peaks.first);
  assert.ok(input.activationBytes > input.gradientBytes + input.momentBytes, "activations dominate in the example");
  assertMentions(text, `first\nstep peaks at ${gb(peaks.first)} and the second at ${gb(peaks.second)}`, "peaks");
  assertMentions(text, `exactly the ${gb(input.momentBytes)} of Adam moments`, "moments");
  assert.equal(peaks.second - peaks.first, input.momentBytes);
  const model = trainingMemory(preset("llama-3.2-1b").config, { seqLength: 4096, microBatchSize: 4 });
  assertMentions(text, `(${gb(model.perGpu.total)} here)`, "model sum");
  assertMentions(text, "micro-batch size 4, no recomputation, FlashAttention", "figure caption setup");
});

test("GPT-2 XL activations follow sbh(34 + 5as/h): 186.8 MB per layer, 8.97 / 30.5 / 111.4 GB for 48 layers, 0.16 GB with full recomputation", () => {
  const arch = parseModelConfig(preset("gpt2-xl").config).architecture;
  assert.equal(arch.hiddenSize, 1600);
  assert.equal(arch.numHeads, 25);
  assert.equal(arch.numLayers, 48);
  const layer = (s: number) => layerActivations(arch, { seqLength: s, microBatchSize: 1, attention: "eager" });
  assert.equal(layer(1024).totalBytes, 1024 * 1600 * (34 + (5 * 25 * 1024) / 1600));
  assertMentions(
    text,
    `gives ${(layer(1024).totalBytes / 1e6).toFixed(1)} MB per layer and ${gb(48 * layer(1024).totalBytes, 2)}`,
    "s=1024",
  );
  assertMentions(text, `grows to ${gb(48 * layer(2048).totalBytes)}`, "s=2048");
  assertMentions(text, `At $s$ = 4,096 it is ${gb(48 * layer(4096).totalBytes)}`, "s=4096");
  assertMentions(
    text,
    `cuts the ${gb(48 * layer(1024).totalBytes, 2)} to ${gb(48 * layer(1024).fullBytes, 2)}`,
    "full recomputation",
  );
});

test("crossover s* = 6.8 d_head: about 870 tokens for d_head 128, 435 for 64; 90.4% at s = 8192", () => {
  assert.equal(Math.round((34 * 128) / 5 / 10) * 10, 870);
  assertMentions(text, "this is about 870 tokens", "d_head 128");
  assert.equal(Math.round((34 * 64) / 5 / 5) * 5, 435);
  assertMentions(text, "for GPT-2's 64 it is about 435", "d_head 64");
  const arch = parseModelConfig(preset("llama-3.1-8b").config).architecture;
  const term = (5 * arch.numHeads * 8192) / arch.hiddenSize;
  assert.equal(term, 320);
  assertMentions(text, `so it is $320/354$ = ${pct(term / (term + 34))}`, "attention share at 8K");
});

test("fp32 logits of Llama 3's 128,256-token vocabulary take 2.1 GB per 4,096-token sequence", () => {
  const vocab = parseModelConfig(preset("llama-3.1-8b").config).architecture.vocabSize;
  assert.equal(vocab, 128_256);
  assertMentions(text, `4,096 $\\times$ 128,256 = ${gb(4 * 4096 * vocab)} per sequence`, "logits");
});

test("the preset table matches trainingMemory for every row (s = 4096, b = 1)", () => {
  const rows: [string, string][] = [
    ["llama-3.2-1b", "1.24B"],
    ["llama-3.2-3b", "3.21B"],
    ["mistral-7b-v0.1", "7.24B"],
    ["qwen2.5-7b", "7.62B"],
    ["llama-3.1-8b", "8.03B"],
    ["llama-3.1-70b", "70.55B"],
    ["llama-3.1-405b", "405.85B"],
  ];
  for (const [id, size] of rows) {
    const p = preset(id);
    const count = n(id);
    assert.equal(size, `${(count / 1e9).toFixed(2)}B`);
    const mem = (recompute: "none" | "full", attention: "eager" | "flash") =>
      trainingMemory(p.config, { seqLength: 4096, microBatchSize: 1, recompute, attention }).perGpu;
    const eager = mem("none", "eager");
    const flash = mem("none", "flash");
    const full = mem("full", "flash");
    const states = eager.parameters + eager.gradients + eager.optimizer;
    const row = `| ${p.name} | ${size} | ${gb(states)} | ${gb(eager.activations)} | ${gb(flash.activations)} | ${gb(full.activations)} |`;
    assertMentions(text, row, `table row ${id}`);
    const ratio = eager.activations / flash.activations;
    assert.ok(ratio > 2 && ratio < 3.5, `eager/flash ratio between 2 and 3.5 for ${id} (${ratio})`);
  }
  const one = trainingMemory(preset("llama-3.2-1b").config, { seqLength: 4096, microBatchSize: 1 });
  assertMentions(
    text,
    `${gb(4 * 4096 * 128_256)} of the ${gb(one.perGpu.activations)} per sequence are fp32 logits`,
    "logits share",
  );
});

test("selective recomputation for GPT-3 175B: 70% less activation memory for 2.7% more FLOPs (ratio 1.027)", () => {
  const shape = { B: 1, L: 96, s: 2048, h: 12288, V: 51200 };
  assert.equal((5 * 96 * 2048) / 12288, 80);
  assertMentions(text, `removes $80/114$ = ${Math.round((100 * 80) / 114)}%`, "memory saved");
  const ratio = korthikantiHardwareFlopsSelective(shape) / korthikantiModelFlops(shape);
  assertMentions(text, `gives a ratio of\n${ratio.toFixed(3)}: ${pct(ratio - 1)} more FLOPs`, "FLOP ratio");
  assert.equal(pct(ratio - 1), "2.7%");
});

test("FLOPs per token of Llama 3.2 1B at s = 4096: 6N = 7.41e9, attention 1.61e9, total 9.03e9 (17.8% attention)", () => {
  const config = preset("llama-3.2-1b").config;
  const f = modelFlopsPerToken(config, 4096);
  assert.equal(matmulParameters(config).total, f.matmulParameters);
  assertMentions(
    text,
    `that is ${grouped(f.matmulParameters)} of\nits ${grouped(n("llama-3.2-1b"))} parameters`,
    "matmul parameters",
  );
  assertMentions(text, `$6N = ${sci(f.parameterTerm)}$ FLOPs per token`, "parameter term");
  assertMentions(
    text,
    `= ${sci(f.attentionTerm)}$, so a token costs\n$${sci(f.total)}$ FLOPs, ${pct(f.attentionTerm / f.total)} of them in attention`,
    "attention term",
  );
  // At the model's Hopper kernel efficiency, not a 40% of the chapter's own.
  const eta = KERNEL_EFFICIENCY.hopper;
  const tokensPerSecond = (eta * h100.bf16FlopsPerSecond) / f.total;
  // Two significant digits, as the chapter prints it: tens of thousands of tokens per second.
  const shown = Math.round(tokensPerSecond / 1000) * 1000;
  assert.ok(shown >= 10_000 && shown < 100_000, `${shown} tokens/s: tens of thousands`);
  assertMentions(text, `sustain ${Math.round(100 * eta)}% of the 989 TFLOPS peak`, "kernel efficiency");
  assertMentions(
    text,
    `= ${eta} \\times 989.4 \\times 10^{12} / (9.03 \\times 10^{9}) \\approx ${shown.toLocaleString("en-US").replace(",", "{,}")}$\ntokens of the running example per second`,
    "throughput",
  );
  assert.doesNotMatch(text, /\{:40\}% MFU|at 40% MFU/);
});

test("Megatron-LM 1T: the full-recompute count is 4/3 of the model count (ratio 0.750), so 52.2% HFU is 39.2% MFU", () => {
  const shape = { B: 1, L: 128, s: 2048, h: 25600, V: 51200 };
  const ratio = korthikantiModelFlops(shape) / narayananFullRecomputeFlops(shape);
  const a100 = findGpu("a100-sxm-80gb")!;
  const hfu = 163e12 / a100.bf16FlopsPerSecond;
  assertMentions(
    text,
    `the ratio of the two is ${ratio.toFixed(3)}, so the run's ${pct(hfu)} HFU is an MFU of\n${pct(ratio * hfu)}`,
    "MFU from HFU",
  );
});

test("exercise: Llama 2 7B needs 107.8 GB of model states (121.3 GB with fp32 gradients, 134.8 GB with both buffers; weights 13.5 GB)", () => {
  const count = n("llama-2-7b");
  assertMentions(text, `$${tex(grouped(count))} \\times 16$ bytes = ${gb(modelStateBytes(count).total)}`, "7B states");
  assertMentions(
    text,
    `18 bytes per parameter, it is ${gb(modelStateBytes(count, { fp32GradAccum: true, fp32GradBuffer: "replace" }).total)}`,
    "fp32 gradients",
  );
  assertMentions(
    text,
    `20 bytes per parameter, it is\n${gb(modelStateBytes(count, { fp32GradAccum: true }).total)}`,
    "with buffer",
  );
  assertMentions(text, `The bf16 weights alone are only ${gb(modelStateBytes(count).parameters)}`, "weights");
  assertMentions(text, `Llama 2 7B has ${grouped(count)} parameters`, "question");
});

test("exercise: a SwiGLU MLP storing every intermediate keeps 2sbh + 8sbf bytes, 1.58 times the GPT MLP for Llama 3.1 8B", () => {
  const arch = parseModelConfig(preset("llama-3.1-8b").config).architecture;
  const h = arch.hiddenSize;
  const f = arch.intermediateSize;
  assert.equal(f, 14_336);
  assertMentions(
    text,
    `$sb \\times (${tex(grouped(2 * h))} + ${tex(grouped(8 * f))})$ =\n${grouped(2 * h + 8 * f)} $sb$ bytes`,
    "SwiGLU bytes",
  );
  assertMentions(text, `$19sbh$ = ${grouped(19 * h)} $sb$ bytes`, "GPT MLP bytes");
  assertMentions(text, `${((2 * h + 8 * f) / (19 * h)).toFixed(2)} times as much`, "ratio");
  // 8sbf = four f-wide bf16 tensors (g, u, SiLU(g), their product) against the GPT MLP's two 4h-wide ones (16sbh).
  assert.equal((8 * f) / (2 * f), 4);
  assertMentions(text, "there are four wide tensors instead of two", "count of wide tensors");
  // The model's fused SwiGLU keeps one 2sbf tensor fewer (the SiLU output is recomputed), as the solution says.
  const mlp = layerActivations(arch, { seqLength: 1, microBatchSize: 1 }).tensors.filter((t) =>
    /MLP input|gate|down/.test(t.name),
  );
  assert.equal(
    mlp.reduce((sum, t) => sum + t.bytes, 0),
    2 * h + 6 * f,
  );
});

test("exercise: one optimizer step of 256 × 4,096 tokens of Llama 3.2 1B takes 23.3 s at the Hopper kernel efficiency; 9T tokens take 6.3 years", () => {
  const f = modelFlopsPerToken(preset("llama-3.2-1b").config, 4096).total;
  const tokens = 256 * 4096;
  assertMentions(text, `$256 \\times 4{,}096 = ${tex(grouped(tokens))}$ tokens`, "tokens per step");
  const t = stepTimeSeconds({
    tokensPerStep: tokens,
    flopsPerToken: f,
    gpuCount: 1,
    peakFlopsPerSecond: h100.bf16FlopsPerSecond,
    mfu: KERNEL_EFFICIENCY.hopper,
  });
  // The solution divides the rounded F_token (9.03e9) as printed; the exact one gives the same 0.1 s.
  assertMentions(text, `= ${t.toFixed(1)}$ s`, "step time");
  const seconds = (9e12 * 9.03e9) / (KERNEL_EFFICIENCY.hopper * h100.bf16FlopsPerSecond);
  assertMentions(
    text,
    `take $${sci(seconds)}$ seconds, about ${(seconds / (365.25 * 86_400)).toFixed(1)} years`,
    "9T tokens",
  );
});

test("exercise: planning the micro-batch from the first step picks b = 10 (78.4 GB), which OOMs at 88.3 GB in step 2; the steady state allows b = 8 (74.1 GB), or 7 (67.0 GB) with 10% kept free", () => {
  const input = memoryTimelineInput();
  const perSequence = input.activationBytes / 4;
  const W = input.weightsBytes;
  const M = input.momentBytes;
  const G = input.gradientBytes;
  assertMentions(
    text,
    `weights and master copy ${gb(W)}, Adam moments ${gb(M)}, gradients\n${gb(G)}, and ${gb(perSequence)} of activations per sequence`,
    "inputs",
  );
  const first = (b: number) => W + Math.max(b * perSequence, G + M);
  const second = (b: number) => W + M + Math.max(b * perSequence, G);
  const largest = (limit: number, peak: (b: number) => number) => {
    let b = 1;
    while (peak(b + 1) <= limit) b++;
    return b;
  };
  const naive = largest(80e9, first);
  assert.equal(naive, 10);
  assertMentions(text, `The largest $b$ that fits is 10, with a first-step peak of ${gb(first(naive))}`, "naive b");
  assertMentions(
    text,
    `$7.4 + 9.9 + ${((naive * perSequence) / 1e9).toFixed(1)}$ = ${gb(second(naive))}`,
    "step 2 OOM",
  );
  assert.equal(largest(80e9, second), 8);
  assertMentions(text, `so $b$ = 8 with a peak of ${gb(second(8))}`, "steady-state b");
  assertMentions(text, `$b \\leq (80 - ${((W + M) / 1e9).toFixed(1)})/7.1$`, "bound");
  assert.equal(largest(72e9, second), 7);
  assertMentions(text, `gives $b$ = 7 and ${gb(second(7))}`, "with 10% free");
});

test("exercise: 50% HFU with full recomputation is 37.5% MFU", () => {
  assertMentions(text, `= 50\\% \\times 0.75 = ${pct(0.5 * (6 / 8)).replace("%", "\\%")}$`, "MFU from HFU");
});

test("BLOOM's 2,048 sequences of 2,048 tokens are about 4.2M tokens", () => {
  assert.equal(((2048 * 2048) / 1e6).toFixed(1), "4.2");
  assertMentions(text, "2,048 tokens, about 4.2M tokens", "BLOOM batch");
});

test("the Memory Explorer paragraph quotes the model's sum for the running example", () => {
  const model = trainingMemory(preset("llama-3.2-1b").config, { seqLength: 4096, microBatchSize: 4 });
  assertMentions(text, `running example and the model's ${gb(model.perGpu.total)}`, "memory-explorer default");
  assert.match(
    text,
    /::: widget memory-explorer(?: title="[^"\n]*")?\npreset: llama-3\.2-1b\nseqLength: 4096\nmicroBatch: 4\n/,
    "memory-explorer preset is the running example",
  );
});

test("the model's sum is not an upper bound on the loop: three fp32 logit buffers in the loss (25.2 GB) and an unfused SwiGLU (4.3 GB) put the second step near 66.8 GB", () => {
  const arch = parseModelConfig(preset("llama-3.2-1b").config).architecture;
  const model = trainingMemory(preset("llama-3.2-1b").config, { seqLength: 4096, microBatchSize: 4 }).perGpu;
  const logits = 4 * 4 * 4096 * arch.vocabSize;
  const unfused = arch.numLayers * 2 * 4096 * 4 * arch.intermediateSize;
  assertMentions(text, `one fp32 tensor of logits, ${gb(logits)} at $b = 4$`, "the model's logits");
  assertMentions(text, `the loss therefore holds ${gb(3 * logits)}`, "three loss buffers");
  assertMentions(text, `${gb(unfused)} more over the ${arch.numLayers} layers`, "unfused SwiGLU");
  const peak = model.parameters + model.optimizer + model.activations + 2 * logits + unfused;
  assert.ok(peak > model.total && peak < 80e9, "above the model's sum, below the H100's 80 GB");
  assertMentions(text, `the second step peaks near\n${gb(peak)}`, "the loop's peak");
  assert.doesNotMatch(text, /safe upper bound/);
});

test("the quadratic term quadruples from s = 1,024 to 2,048: its share grows from 70% to 82%", () => {
  const gpt2 = parseModelConfig(preset("gpt2-xl").config).architecture;
  const share = (s: number) => {
    const q = (5 * gpt2.numHeads * s) / gpt2.hiddenSize;
    return `${Math.round((100 * q) / (34 + q))}%`;
  };
  assertMentions(
    text,
    `quadratic term quadruples, its share of the layer grows from ${share(1024)} to ${share(2048)}`,
    "share",
  );
});
