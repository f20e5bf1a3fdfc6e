/**
 * Every number chapter 3 prints that is not a quotation from a cited source is recomputed here
 * from src/model and src/data, and must appear in the chapter exactly as formatted below.
 *
 * Shared assumptions of the chapter (stated in its text): Llama 3.1 8B, s = 4096, b = 1, bf16
 * gradients, an H100 SXM sustaining 40% of its dense bf16 peak, 50 GB/s bus bandwidth across
 * servers and 450 GB/s inside one, DDP's 25 MiB buckets, α = 50 µs per collective.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  allReduceSeconds,
  bucketCount,
  countParameters,
  dataParallelTimeline,
  findGpu,
  findModelPreset,
  layerParameters,
  modelFlopsPerToken,
  modelStateBytes,
  offloadHidingTokens,
  parseModelConfig,
  ringAllReduceBytesPerGpu,
  trainingMemory,
  zero3HidingTokens,
  type DpTimelineInput,
  type ZeroStage,
} from "../../src/model/index.ts";
import { defaultDpOverlapSettings } from "../../src/figures/dp-overlap.ts";
import { chapterScalingPoints, chapterTimelinePanels } from "../../src/figures/dp-chapter-figures.ts";
import { formatDuration } from "../../src/figures/kit/format.ts";
import { assertMentions, readChapter } from "../helpers/chapter-text.ts";
import { assertApprox } from "../helpers/approx.ts";

const text = readChapter("03-data-parallelism");
const MiB = 2 ** 20;
const grouped = (x: number) => Math.round(x).toLocaleString("en-US");
const tex = (x: number) => grouped(x).replace(/,/g, "{,}");
const gb = (bytes: number, digits = 1) => `${(bytes / 1e9).toFixed(digits)} GB`;
const ms = (seconds: number, digits = 0) => `${(seconds * 1000).toFixed(digits)} ms`;
const s3 = (seconds: number) => `${seconds.toFixed(3)} s`;

const preset8 = findModelPreset("llama-3.1-8b");
const preset70 = findModelPreset("llama-3.1-70b");
const h100 = findGpu("h100-sxm");
assert.ok(preset8 && preset70 && h100);
const psi8 = countParameters(preset8.config).total;
const psi70 = countParameters(preset70.config).total;
const grad8 = 2 * psi8;
const grad70 = 2 * psi70;
const F = 0.4 * h100.bf16FlopsPerSecond;
const flops8 = modelFlopsPerToken(preset8.config, 4096).total * 4096;
const mb8 = flops8 / F;
const ib = 50e9;
const nvlinkOneWay = h100.nvlinkBytesPerSecond / 2;
const base8: DpTimelineInput = {
  gradientBytes: grad8,
  layers: 32,
  forwardSeconds: mb8 / 3,
  backwardSeconds: (2 * mb8) / 3,
  microbatches: 1,
  dp: 64,
  bucketBytes: 25 * MiB,
  busBandwidthBytesPerSecond: ib,
  collectiveLatencySeconds: 50e-6,
  overlap: true,
  noSync: true,
};

test("the running example: Llama 3.1 8B's parameters, model states and gradient bytes", () => {
  assert.equal(psi8, 8_030_261_248);
  assertMentions(text, `$\\Psi = ${tex(psi8)}$ parameters`, "8B parameter count");
  assertMentions(text, `$2 \\times ${tex(psi8)} = ${(grad8 / 1e9).toFixed(2)}$ GB`, "bf16 gradient bytes");
  const states = modelStateBytes(psi8, { zeroStage: 0 }).total;
  assert.equal(states, 16 * psi8);
  assertMentions(text, `is ${gb(states)}: more than an 80 GB GPU`, "16Ψ in the introduction");
  assertMentions(text, `$16\\Psi$ is ${gb(states)}`, "16Ψ in the ZeRO section");
  assertMentions(text, "about 167 years", "1.46M GPU hours in years");
  assert.equal((1.46e6 / (24 * 365.25)).toFixed(0), "167");
});

test("the all-reduce table: ring times at 450 and 50 GB/s (nvidia2024nccltests busbw convention)", () => {
  assert.equal(nvlinkOneWay, 450e9);
  assertMentions(
    text,
    "| 8 | " + ms(allReduceSeconds(grad8, 8, nvlinkOneWay), 1) + " | " + ms(allReduceSeconds(grad8, 8, ib), 1) + " |",
    "d = 8 row",
  );
  assertMentions(text, "| 64 | — | " + ms(allReduceSeconds(grad8, 64, ib), 1) + " |", "d = 64 row");
  assertMentions(text, "| 1024 | — | " + ms(allReduceSeconds(grad8, 1024, ib), 1) + " |", "d = 1024 row");
  const growth = allReduceSeconds(grad8, 1024, ib) / allReduceSeconds(grad8, 64, ib) - 1;
  assertMentions(text, `costs ${(100 * growth).toFixed(1)}% more`, "64 → 1024 growth");
  assert.equal(ringAllReduceBytesPerGpu(4, 4), 6);
});

test("one microbatch of 4096 tokens at 40% of the H100's dense bf16 peak", () => {
  assertMentions(text, `${h100.bf16FlopsPerSecond / 1e12} TFLOPS dense bf16 peak`, "H100 peak");
  const exponent = Math.floor(Math.log10(flops8));
  assertMentions(text, `$${(flops8 / 10 ** exponent).toFixed(2)} \\times 10^{${exponent}}$ FLOPs`, "microbatch FLOPs");
  assertMentions(text, `takes\n${ms(mb8)}`.replace("\n", " "), "microbatch time");
  assertMentions(text, `two thirds, ${ms((2 * mb8) / 3)}`, "backward time");
  assert.equal(defaultDpOverlapSettings.microbatchMilliseconds, mb8 * 1000);
});

test("buckets: 613 of 25 MiB, 15,317 of 1 MiB", () => {
  assert.equal(bucketCount(grad8, 25 * MiB), 613);
  assertMentions(text, "make 613 buckets", "buckets at 25 MiB");
  assertMentions(text, "fill 613 buckets of 25 MiB", "buckets in the exercise");
  const small = bucketCount(grad8, MiB);
  assertMentions(text, `paid ${grouped(small)}\ntimes`.replace("\n", " "), "buckets at 1 MiB in the widget text");
  assertMentions(
    text,
    `$${tex(grad8)} / ${tex(MiB)} = ${(grad8 / MiB).toFixed(1).replace(/\B(?=(\d{3})+(?!\d))/g, "{,}")}$`,
    "1 MiB division",
  );
  assertMentions(
    text,
    `$${tex(small)} \\times 50\\ \\mu\\text{s} = ${(small * 50e-6).toFixed(3)}$ s`,
    "per-call cost of 1 MiB buckets",
  );
  const t = dataParallelTimeline({ ...base8, bucketBytes: MiB });
  const ref = dataParallelTimeline(base8);
  assertMentions(text, `of ${s3(t.stepSeconds)} instead of ${s3(ref.stepSeconds)}`, "1 MiB step");
  const nv = dataParallelTimeline({ ...base8, dp: 8, busBandwidthBytesPerSecond: nvlinkOneWay });
  assertMentions(text, `shrink to ${formatDuration(nv.exposedCommSeconds)}`, "NVLink exposed tail");
});

test("the four timelines of the figure (dataParallelTimeline)", () => {
  const [a, b, c, d] = chapterTimelinePanels().map((p) => p.timeline);
  const ar = allReduceSeconds(grad8, 64, ib, 50e-6) * 0 + a.commSeconds;
  assertMentions(text, `the ${ms(mb8)} of compute are followed by ${ms(ar)} of all-reduce`, "(a) comm");
  assertMentions(text, `a step of ${s3(a.stepSeconds)}`, "(a) step");
  assertMentions(text, `the step falls to ${ms(b.stepSeconds)}, with ${ms(b.exposedCommSeconds)} exposed`, "(b)");
  assertMentions(text, `${s3(c.stepSeconds)} for ${s3(c.computeSeconds)} of compute`, "(c)");
  assertMentions(text, `${s3(d.stepSeconds)}, of which ${ms(d.exposedCommSeconds)} is exposed`, "(d)");
  // The exposed-time equation reproduces (b): t_AR − t_b + t_b/L.
  const tAR = b.commSeconds;
  const tb = (2 * mb8) / 3;
  assertApprox(b.exposedCommSeconds, tAR - tb + tb / 32, { abs: 1e-9 });
});

test("global batch arithmetic", () => {
  assertMentions(text, `$${tex(4 * 2 ** 20)} / 4096 = ${(4 * 2 ** 20) / 4096}$`, "4M tokens in sequences");
  assert.equal(1024 / 64, 16);
  assertMentions(text, "each replica runs $m = 16$ microbatches", "m for 1024 sequences on 64 replicas");
  assertMentions(text, `$128 \\times 16 = ${128 * 16}$`, "Llama 3 405B sequences");
  assertMentions(text, `$${tex(2048 * 8192)}$ tokens`, "Llama 3 405B tokens");
});

test("McCandlish et al.'s trade-off at a quarter, one and four times the critical batch", () => {
  const steps = (ratio: number) => 1 + 1 / ratio; // S/S_min at B = ratio · B_crit
  const examples = (ratio: number) => 1 + ratio; // E/E_min
  assert.equal(steps(0.25), 5);
  assert.equal(examples(0.25), 1.25);
  assert.equal(steps(1), 2);
  assert.equal(examples(4), 5);
  assert.equal(steps(4), 1.25);
  assertMentions(text, "training needs $5\\,S_{\\min}$ steps but only $1.25\\,E_{\\min}$ examples", "quarter");
  assertMentions(text, "$1.25\\,S_{\\min}$ steps but $5\\,E_{\\min}$ examples", "four times");
});

test("the scaling figure's efficiencies (dataParallelScaling)", () => {
  const points = chapterScalingPoints();
  const at = (d: number) => points.find((p) => p.dp === d)!;
  const pct = (d: number) => `${(100 * at(d).efficiency).toFixed(1)}%`;
  assertMentions(text, `model predicts ${pct(64)} of ideal throughput; with 256 ($m = 4$), ${pct(256)}`, "64 and 256");
  assertMentions(
    text,
    `($m = 1$), ${pct(1024)}, at ${(at(1024).tokensPerSecond / 1e6).toFixed(2)} million tokens per second`,
    "1024",
  );
  assert.equal(at(64).microbatches, 16);
  assertMentions(
    text,
    `wait for the network for ${((100 * at(1024).exposedCommSeconds) / at(1024).stepSeconds).toFixed(0)}%\nof every step`.replace(
      "\n",
      " ",
    ),
    "waiting share at 1024",
  );
});

test("ZeRO memory table (rajbhandari2020zero §5 worked example and the 8B model)", () => {
  const row = (psi: number, d: number) =>
    ([0, 1, 2, 3] as ZeroStage[]).map((z) => modelStateBytes(psi, { zeroStage: z, dp: d }).total);
  const paper = row(7.5e9, 64).map((b) => (b / 1e9).toFixed(1).replace(/\.0$/, ""));
  assert.deepEqual(paper, ["120", "31.4", "16.6", "1.9"]);
  assertMentions(text, `| ${paper.map((v) => `${v} GB`).join(" | ")} |`, "paper row");
  assertMentions(
    text,
    `(one server) | ${row(psi8, 8)
      .map((b) => gb(b))
      .join(" | ")} |`,
    "8B, d = 8",
  );
  assertMentions(
    text,
    `$d = 64$ | ${row(psi8, 64)
      .map((b) => gb(b))
      .join(" | ")} |`,
    "8B, d = 64",
  );
  const free = 80e9 - modelStateBytes(psi8, { zeroStage: 1, dp: 8 }).total;
  assertMentions(text, `leaves about ${(free / 1e9).toFixed(0)} GB of each`, "room left under ZeRO-1 at d = 8");
});

test("ZeRO communication volumes (rajbhandari2020zero §7)", () => {
  const dpBytes = ringAllReduceBytesPerGpu(grad8, 64);
  assertMentions(
    text,
    `${gb(dpBytes)} per step for DP, ZeRO-1 and ZeRO-2, and ${gb(1.5 * dpBytes)} for ZeRO-3`,
    "bytes per step",
  );
});

test("ZeRO-3 prefetch buffers and the tokens-per-microbatch bound", () => {
  const arch = parseModelConfig(preset8.config).architecture;
  const layer = layerParameters(arch, 0).total;
  assert.equal(layer, 218_112_000);
  assertMentions(
    text,
    `holds ${grouped(layer)}\nparameters, ${((2 * layer) / 1e6).toFixed(1)} MB in bf16`.replace("\n", " "),
    "layer size",
  );
  assertMentions(text, `(${(F / 1e12).toFixed(1)} TFLOPS)`, "sustained FLOP/s");
  assertMentions(text, `at least ${grouped(zero3HidingTokens(F, ib, 64))} tokens per microbatch`, "IB bound");
  assertMentions(text, `${grouped(zero3HidingTokens(F, nvlinkOneWay, 8))} tokens suffice`, "NVLink bound");
  const maxGpus = (4 * 2 ** 20) / (F / ib);
  assert.equal(Math.round(maxGpus / 10) * 10, 530);
  assertMentions(text, "about 530 GPUs", "ZeRO-3 scaling limit");
  const fp32Bound = 1.5 * zero3HidingTokens(F, ib, 64);
  assertMentions(text, `$T \\ge ${tex(Math.floor(fp32Bound))}$ tokens`, "exercise: fp32 reduce-scatter bound");
});

test("offloading over PCIe (ren2021zerooffload)", () => {
  assert.equal(h100.pcieBytesPerSecond, 128e9);
  const oneWay = h100.pcieBytesPerSecond / 2;
  assertMentions(text, "carries 128 GB/s counting\nboth directions".replace("\n", " "), "PCIe both ways");
  assertMentions(text, `so ${oneWay / 1e9} GB/s each way`, "PCIe one way");
  assertMentions(text, `take ${ms(grad8 / oneWay)}`, "transfer time");
  assertMentions(text, `each takes ${ms(grad8 / oneWay)}`, "transfer time in the exercise");
  assertMentions(
    text,
    `${grouped(offloadHidingTokens(F, oneWay))} tokens for an H100 at 40% utilization`,
    "offload bound",
  );
  assertMentions(
    text,
    `processes at least ${grouped(offloadHidingTokens(F, oneWay))} tokens per step`,
    "offload bound in the exercise",
  );
  // F / (2 B): the gradient upload hides behind the backward pass (4Ψ FLOPs per token) only.
  assert.equal(offloadHidingTokens(F, oneWay), F / (2 * oneWay));
  const cpuStates = modelStateBytes(psi8, { zeroStage: 0 }).optimizer;
  assert.equal(cpuStates, 12 * psi8);
  // CPU memory: optimizer states plus gradients, 16-bit in the paper's design (14Ψ), fp32 in DeepSpeed (16Ψ).
  const cpu16 = cpuStates + modelStateBytes(psi8).gradients;
  const cpu32 = cpuStates + modelStateBytes(psi8, { fp32GradAccum: true, fp32GradBuffer: "replace" }).gradients;
  assert.equal(cpu16, 14 * psi8);
  assert.equal(cpu32, 16 * psi8);
  assertMentions(
    text,
    `least $14\\Psi$, ${gb(cpu16)} for the 8B model on a single GPU`,
    "CPU memory, 16-bit gradients",
  );
  assertMentions(text, `$16\\Psi$, ${gb(cpu32)}, in DeepSpeed`, "CPU memory, DeepSpeed");
  assertMentions(text, `$12\\Psi = ${(cpuStates / 1e9).toFixed(1)}$ GB`, "CPU memory in the exercise");
  assertMentions(
    text,
    `in 16 bits (${gb(cpu16)} in all), or $4\\Psi$ more in DeepSpeed's fp32 buffer (${gb(cpu32)})`,
    "CPU memory with gradients in the exercise",
  );
  assertMentions(text, `for up to ${ms(grad8 / oneWay)} of upload`, "exposed upload in the exercise");
  assertMentions(text, `$2\\Psi = ${(grad8 / 1e9).toFixed(2)}$ GB`, "gradient bytes in the exercise");
});

test("activations do not shrink with d (trainingMemory, FlashAttention, no recomputation)", () => {
  const a = trainingMemory(preset8.config, { seqLength: 4096, microBatchSize: 1, dp: 8, zeroStage: 1 }).perGpu
    .activations;
  const b = trainingMemory(preset8.config, { seqLength: 4096, microBatchSize: 1, dp: 64, zeroStage: 3 }).perGpu
    .activations;
  assert.equal(a, b);
  assertMentions(text, `they take ${gb(a)} on every GPU`, "activations per GPU");
});

test("exercise: the 70B all-reduce and the microbatches that hide it", () => {
  assert.equal(psi70, 70_553_706_496);
  assertMentions(text, `$2 \\times ${tex(psi70)} = ${(grad70 / 1e9).toFixed(1)}$ GB`, "70B gradient bytes");
  const tAR = allReduceSeconds(grad70, 64, ib);
  assertMentions(
    text,
    `${gb(grad70)}\\ \\text{GB} / 50\\ \\text{GB/s} = ${tAR.toFixed(3)}$ s`.replace(
      `${gb(grad70)}\\ \\text{GB}`,
      `${(grad70 / 1e9).toFixed(1)}\\ \\text{GB}`,
    ),
    "70B all-reduce time",
  );
  const mb70 = (modelFlopsPerToken(preset70.config, 4096).total * 4096) / F;
  assertMentions(text, `takes ${mb70.toFixed(3)} s of compute`, "70B microbatch");
  assertMentions(text, `\\cdot ${mb70.toFixed(3)} = ${((2 * mb70) / 3).toFixed(3)}$ s`, "70B backward");
  const input70: DpTimelineInput = {
    ...base8,
    gradientBytes: grad70,
    layers: 80,
    forwardSeconds: mb70 / 3,
    backwardSeconds: (2 * mb70) / 3,
  };
  const buckets = bucketCount(grad70, 25 * MiB);
  assertMentions(
    text,
    `$\\alpha$ of ${grouped(buckets)} buckets contributes ${(buckets * 50e-6).toFixed(3)} s`,
    "70B per-call cost",
  );
  const exposed = dataParallelTimeline(input70).exposedCommSeconds;
  assertMentions(text, `exposed communication at ${exposed.toFixed(3)} s per step`, "70B exposed");
  const threshold = (exposed * 19) / mb70; // exposed / (mb·m + exposed) < 0.05 ⇔ m > 19·exposed/mb
  assertMentions(text, `requires $m > ${threshold.toFixed(2)}$, so $m = ${Math.ceil(threshold)}$`, "m bound");
  const m = Math.ceil(threshold);
  const t = dataParallelTimeline({ ...input70, microbatches: m });
  assertApprox(t.exposedCommSeconds, exposed, { abs: 1e-9 }, "no_sync makes the exposed time independent of m");
  assertMentions(
    text,
    `a step of\n${t.stepSeconds.toFixed(2)} s, with ${((100 * t.exposedCommSeconds) / t.stepSeconds).toFixed(2)}% exposed`.replace(
      "\n",
      " ",
    ),
    "70B step",
  );
  assertMentions(text, `$${m} \\times 64 = ${m * 64}$ sequences`, "70B batch");
});

test("exercise: a 2M-token batch on 96 GPUs", () => {
  assertMentions(text, `$2^{21} = ${tex(2 ** 21)}$ tokens are ${2 ** 21 / 8192} sequences`, "2^21 tokens");
  assertMentions(text, `$m = 256/96 = ${(256 / 96).toFixed(2)}$`, "non-integer m");
  assertMentions(
    text,
    `288 sequences, ${grouped(288 * 8192)} tokens (${((288 / 256 - 1) * 100).toFixed(1)}% larger`,
    "m = 3",
  );
  assertMentions(text, `192 sequences, ${grouped(192 * 8192)} tokens`, "m = 2");
});

test("exercise: which ZeRO stage fits Llama 3.1 70B in 60 GB", () => {
  const s1 = modelStateBytes(psi70, { zeroStage: 1, dp: 1_000_000 });
  assertMentions(text, `the first term alone is ${gb(4 * psi70)}`, "ZeRO-1 floor");
  assert.ok(s1.total > 60e9);
  assertMentions(text, `$2\\Psi = ${((2 * psi70) / 1e9).toFixed(1)}$ GB also exceeds`, "ZeRO-2 floor");
  const needed = (16 * psi70) / 60e9;
  assertMentions(
    text,
    `$d \\ge ${((16 * psi70) / 1e9).toFixed(1)} / 60 = ${needed.toFixed(1)}$, so $d = ${Math.ceil(needed)}$`,
    "ZeRO-3 degree",
  );
  assertMentions(
    text,
    `so $d = ${Math.ceil(needed)}$, giving ${gb(modelStateBytes(psi70, { zeroStage: 3, dp: Math.ceil(needed) }).total)}`,
    "ZeRO-3 at 19",
  );
  const servers = Math.ceil(Math.ceil(needed) / 8) * 8;
  assert.equal(servers, 24);
  assert.ok(modelStateBytes(psi70, { zeroStage: 3, dp: servers }).total <= 60e9);
  assertMentions(
    text,
    `from 19 up is $d = ${servers}$, giving ${gb(modelStateBytes(psi70, { zeroStage: 3, dp: servers }).total)}`,
    "ZeRO-3 at 24",
  );
  assertMentions(text, `so 32 (${gb(modelStateBytes(psi70, { zeroStage: 3, dp: 32 }).total)})`, "ZeRO-3 at 32");
});
