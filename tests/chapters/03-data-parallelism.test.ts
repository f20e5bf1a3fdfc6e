/**
 * Every number chapter 3 prints that is not a quotation from a cited source is recomputed here
 * from src/model and src/data, and must appear in the chapter exactly as formatted below.
 *
 * Shared assumptions of the chapter (stated in its text): Llama 3.1 8B, s = 4096, b = 1, bf16
 * gradients on the wire, an H100 SXM at the book's kernel efficiency for Hopper (step.ts), bus
 * bandwidths and per-step latencies from placement.ts for two layouts of the data-parallel group
 * (all eight GPUs of each server, or one rank per server), DDP's 25 MiB buckets, α = 50 µs per
 * bucket in the timelines.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  allReduceSeconds,
  ddpModelBucketCount,
  clusterShape,
  countParameters,
  dataParallelScaling,
  dataParallelTimeline,
  findGpu,
  findModelPreset,
  groupLink,
  KERNEL_EFFICIENCY,
  layerParameters,
  modelFlopsPerToken,
  modelStateBytes,
  offloadHidingTokens,
  parseModelConfig,
  ringAllReduceBytesPerGpu,
  ringSteps,
  trainingMemory,
  zero3HidingTokens,
  type Collective,
  type DpTimelineInput,
  type ZeroStage,
} from "../../src/model/index.ts";
import { defaultDpOverlapSettings, dpOverlapBuckets, referenceBandwidthsGBps } from "../../src/figures/dp-overlap.ts";
import { chapterScalingPoints, chapterTimelinePanels } from "../../src/figures/dp-chapter-figures.ts";
import { formatDuration } from "../../src/figures/kit/format.ts";
import { parseMemorySettings } from "../../src/figures/memory-explorer/settings.ts";
import { computeMemoryView } from "../../src/figures/memory-explorer/view.ts";
import { assertMentions, readChapter, widgetSettings } from "../helpers/chapter-text.ts";
import { assertApprox } from "../helpers/approx.ts";

const text = readChapter("03-data-parallelism");
const source = readFileSync("content/chapters/03-data-parallelism.md", "utf8");
const MiB = 2 ** 20;
const grouped = (x: number) => Math.round(x).toLocaleString("en-US");
const tex = (x: number) => grouped(x).replace(/,/g, "{,}");
const gb = (bytes: number, digits = 1) => `${(bytes / 1e9).toFixed(digits)} GB`;
const ms = (seconds: number, digits = 0) => `${(seconds * 1000).toFixed(digits)} ms`;
const s3 = (seconds: number) => `${seconds.toFixed(3)} s`;
const gbps = (bytesPerSecond: number) => `${Math.round(bytesPerSecond / 1e9)} GB/s`;

const preset8 = findModelPreset("llama-3.1-8b");
const preset70 = findModelPreset("llama-3.1-70b");
const h100 = findGpu("h100-sxm");
assert.ok(preset8 && preset70 && h100);
const psi8 = countParameters(preset8.config).total;
const psi70 = countParameters(preset70.config).total;
const grad8 = 2 * psi8;
const grad70 = 2 * psi70;
const F = KERNEL_EFFICIENCY.hopper * h100.bf16FlopsPerSecond;
const flops8 = modelFlopsPerToken(preset8.config, 4096).total * 4096;
const mb8 = flops8 / F;
// The two layouts: all eight GPUs of each server (stride 1) and one rank per server (stride 8).
const cluster = clusterShape("h100-sxm");
const ALL = 1;
const ONE = cluster.gpusPerServer;
const link = (collective: Collective, ranks: number, stride: number) =>
  groupLink(cluster, collective, { ranks, stride });
const bus = (ranks: number, stride: number) => link("all-reduce", ranks, stride).busBytesPerSecond;
// DDP's whole-tensor buckets in fp32 (reducer.cpp compute_bucket_assignment_by_size; 1 MiB first bucket).
const arch8 = parseModelConfig(preset8.config).architecture;
const arch70 = parseModelConfig(preset70.config).architecture;
const buckets8 = ddpModelBucketCount(arch8, 25 * MiB, 4);
const buckets70 = ddpModelBucketCount(arch70, 25 * MiB, 4);
const base8: DpTimelineInput = {
  gradientBytes: grad8,
  layers: 32,
  forwardSeconds: mb8 / 3,
  backwardSeconds: (2 * mb8) / 3,
  microbatches: 1,
  dp: 64,
  bucketBytes: grad8 / buckets8,
  busBandwidthBytesPerSecond: bus(64, ONE),
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

test("no bandwidth or efficiency of the chapter's own: the prose names the model's, not 50 GB/s or 40%", () => {
  assert.doesNotMatch(source, /\{:40\}%|50 GB\/s bus|Across servers, 50 GB\/s|at 450 GB\/s/);
  assertMentions(text, `takes ${gbps(cluster.nicBusBytesPerSecond)} of bus bandwidth per NIC`, "one NIC");
  assertMentions(text, `one rank per server then gets ${gbps(bus(64, ONE))}`, "one rank per server");
  assertMentions(
    text,
    `spans all eight GPUs of each server gets ${gbps(bus(64, ALL))}, eight NICs' worth`,
    "all eight GPUs of each server",
  );
  assert.equal(link("all-reduce", 64, ALL).nics, 8);
  assert.equal(bus(64, ALL), Math.min(cluster.nvlinkRingBusBytesPerSecond, 8 * cluster.nicBusBytesPerSecond));
  assert.equal(bus(64, ONE), cluster.nicBusBytesPerSecond);
  // The widget's note and default print the same bandwidths.
  const ref = referenceBandwidthsGBps();
  assert.deepEqual(ref, {
    onePerServer: bus(64, ONE) / 1e9,
    allEight: bus(64, ALL) / 1e9,
    oneServer: bus(8, ALL) / 1e9,
  });
  assert.equal(defaultDpOverlapSettings.busBandwidthGBps, bus(64, ONE) / 1e9);
});

test("the all-reduce table: ring times in both layouts (placement.ts bandwidths, nccl-tests busbw convention)", () => {
  const row = (d: number) =>
    `| ${d} | ${ms(allReduceSeconds(grad8, d, bus(d, ALL)), 1)}` +
    (d === 8 ? " (one server, NVLink SHARP)" : "") +
    ` | ${ms(allReduceSeconds(grad8, d, bus(d, ONE)), 1)} |`;
  for (const d of [8, 64, 1024]) assertMentions(text, row(d), `d = ${d} row`);
  assert.ok(link("all-reduce", 8, ALL).intraDomain, "eight GPUs of one server stay on NVLink");
  const growth = allReduceSeconds(grad8, 1024, bus(1024, ALL)) / allReduceSeconds(grad8, 64, bus(64, ALL)) - 1;
  assertMentions(text, `costs ${(100 * growth).toFixed(1)}% more communication time`, "64 → 1024 growth");
  assert.equal(ringAllReduceBytesPerGpu(4, 4), 6);
  // The ring's latency that the table leaves out: 2(d − 1) steps at the inter-server step latency.
  const lat = (d: number) => ringSteps("all-reduce", d) * link("all-reduce", d, ALL).hopLatencySeconds;
  assertMentions(
    text,
    `add ${ms(lat(64), 1)} to a call at $d = 64$ and ${ms(lat(1024), 1)} at $d = 1024$`,
    "ring latency at 64 and 1024",
  );
  assertMentions(text, `${cluster.interNodeHopLatencySeconds * 1e6} µs per step across servers`, "step latency");
});

test("one microbatch of 4096 tokens at the kernel efficiency of Hopper, against both all-reduces", () => {
  assertMentions(text, `${h100.bf16FlopsPerSecond / 1e12} TFLOPS dense bf16 peak`, "H100 peak");
  assertMentions(text, `sustains ${Math.round(100 * KERNEL_EFFICIENCY.hopper)}% of its`, "kernel efficiency");
  const exponent = Math.floor(Math.log10(flops8));
  assertMentions(text, `$${(flops8 / 10 ** exponent).toFixed(2)} \\times 10^{${exponent}}$ FLOPs`, "microbatch FLOPs");
  assertMentions(text, `that microbatch takes ${ms(mb8)}`, "microbatch time");
  assertMentions(text, `two thirds, ${ms((2 * mb8) / 3)}`, "backward time");
  assert.equal(defaultDpOverlapSettings.microbatchMilliseconds, mb8 * 1000);
  const arAll = allReduceSeconds(grad8, 64, bus(64, ALL));
  const arOne = allReduceSeconds(grad8, 64, bus(64, ONE));
  assert.ok(
    arAll < (2 * mb8) / 3 && arOne > (2 * mb8) / 3,
    "shorter than the backward pass in one layout, longer in the other",
  );
  assertMentions(
    text,
    `takes ${((100 * arAll) / ((2 * mb8) / 3)).toFixed(0)}% of the backward pass`,
    "all eight: share",
  );
  assertMentions(text, `still add ${((100 * arAll) / mb8).toFixed(0)}% to every step`, "all eight: naive");
  assertMentions(
    text,
    `takes ${(arOne / ((2 * mb8) / 3)).toFixed(1)} times as long as the whole backward pass`,
    "one: ratio",
  );
  assert.ok(mb8 + arOne > 2 * mb8, "more than doubles the step");
});

test("buckets: DDP's whole tensors make 194 of 25 MiB and 226 of 1 MiB, not 613 and 15,317", () => {
  assert.equal(buckets8, 194);
  assertMentions(text, "DDP makes 194 buckets, not the\n613 that dividing the bytes", "buckets at 25 MiB");
  assertMentions(text, "fill 194 buckets (cap 25 MiB)", "buckets in the exercise");
  const small = ddpModelBucketCount(arch8, MiB, 4);
  assert.equal(small, 7 * 32 + 2, "seven per layer, the LM head and the embedding");
  const sliced = Math.ceil(grad8 / MiB);
  assert.equal(sliced, 15_317);
  assertMentions(text, `by 1 MiB would give ${grouped(sliced)} buckets`, "byte-sliced buckets in the exercise");
  // The widget makes DDP's count too, for the same model and cap.
  assert.equal(dpOverlapBuckets(defaultDpOverlapSettings), buckets8, "widget at 25 MiB");
  assert.equal(dpOverlapBuckets({ ...defaultDpOverlapSettings, bucketMebibytes: 1 }), small, "widget at 1 MiB");
  assertMentions(text, "The widget makes as many buckets as DDP does, from whole tensors", "widget text");
  assertMentions(
    text,
    `$${tex(small)} \\times 50\\ \\mu\\text{s} = ${(small * 50e-6).toFixed(3)}$ s`,
    "per-call cost of 1 MiB buckets",
  );
  const t = dataParallelTimeline({ ...base8, bucketBytes: grad8 / small });
  const ref = dataParallelTimeline(base8);
  assert.ok(t.stepSeconds - ref.stepSeconds < 0.01, "1 MiB DDP buckets barely change the step");
  assertMentions(text, `step of\n${s3(t.stepSeconds)} instead of ${s3(ref.stepSeconds)}`, "1 MiB step");
});

test("the widget text: the tails at eight NICs per server and inside one server", () => {
  const all = dataParallelTimeline({ ...base8, busBandwidthBytesPerSecond: bus(64, ALL) });
  assertMentions(text, `exposed tail shrink to ${ms(all.exposedCommSeconds, 1)}`, "all eight tail");
  const nv = dataParallelTimeline({ ...base8, dp: 8, busBandwidthBytesPerSecond: bus(8, ALL) });
  assertMentions(text, `the tail is ${formatDuration(nv.exposedCommSeconds)}`, "NVLink SHARP tail");
  assertMentions(text, `It starts with one rank per server, at ${gbps(bus(64, ONE))}`, "widget default");
});

test("the four timelines of the figure (dataParallelTimeline, one rank per server)", () => {
  const [a, b, c, d] = chapterTimelinePanels().map((p) => p.timeline);
  assert.equal(a.commSeconds, dataParallelTimeline({ ...base8, overlap: false }).commSeconds);
  assertMentions(text, `the ${ms(mb8)} of compute are followed by ${ms(a.commSeconds)} of all-reduce`, "(a) comm");
  assertMentions(text, `a step of ${s3(a.stepSeconds)}`, "(a) step");
  assertMentions(text, `the step falls to ${ms(b.stepSeconds)}, with ${ms(b.exposedCommSeconds)} exposed`, "(b)");
  assertMentions(text, `${s3(c.stepSeconds)} for ${s3(c.computeSeconds)} of compute`, "(c)");
  assertMentions(text, `${s3(d.stepSeconds)}, of which ${ms(d.exposedCommSeconds)} is exposed`, "(d)");
  // The exposed-time equation reproduces (b): t_AR − t_b + t_b/L.
  const tAR = b.commSeconds;
  const tb = (2 * mb8) / 3;
  assertApprox(b.exposedCommSeconds, tAR - tb + tb / 32, { abs: 1e-9 });
  // All eight GPUs of each server: (a) pays it all, (b) only the tail, (c) four tails.
  const all = { ...base8, busBandwidthBytesPerSecond: bus(64, ALL) };
  const aAll = dataParallelTimeline({ ...all, overlap: false });
  const bAll = dataParallelTimeline(all);
  const cAll = dataParallelTimeline({ ...all, microbatches: 4, noSync: false });
  assertMentions(
    text,
    `takes ${ms(aAll.commSeconds)}, which (a) still pays in full, but with overlap only ${ms(bAll.exposedCommSeconds, 1)} stay exposed`,
    "all eight: (a), (b)",
  );
  assertMentions(text, `costs ${ms(cAll.exposedCommSeconds, 1)} in all`, "all eight: (c)");
  // α against a ring's latency over 64 GPUs.
  assertMentions(text, `$2 \\cdot 63 = ${ringSteps("all-reduce", 64)}$ steps`, "ring steps at 64");
});
test("global batch arithmetic", () => {
  assertMentions(text, `$${tex(4 * 2 ** 20)} / 4096 = ${(4 * 2 ** 20) / 4096}$`, "4M tokens in sequences");
  assert.equal(1024 / 64, 16);
  assertMentions(text, "each replica runs $m = 16$ microbatches", "m for 1024 sequences on 64 replicas");
  assertMentions(text, `$128 \\times 16 = ${128 * 16}$`, "Llama 3 405B sequences");
  assertMentions(text, `$2048 \\times ${tex(8192)} = ${tex(2048 * 8192)}$ tokens`, "Llama 3 405B tokens");
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

test("the scaling figure's efficiencies (dataParallelScaling) in both layouts", () => {
  const point = (d: number, stride: number) =>
    dataParallelScaling({
      globalBatchSequences: 1024,
      microBatchSequences: 1,
      sequenceTokens: 4096,
      trainingFlopsPerToken: modelFlopsPerToken(preset8.config, 4096).total,
      effectiveFlopsPerSecond: F,
      dpDegrees: [d],
      gradientBytes: grad8,
      layers: 32,
      bucketBytes: grad8 / buckets8,
      busBandwidthBytesPerSecond: bus(d, stride),
      collectiveLatencySeconds: 50e-6,
    })[0]!;
  // The figure's points are the same model runs.
  for (const [layout, stride] of [
    ["all-eight", ALL],
    ["one-per-server", ONE],
  ] as const) {
    const fig = chapterScalingPoints(layout);
    for (const d of [64, 256, 1024])
      assertApprox(fig.find((p) => p.dp === d)!.efficiency, point(d, stride).efficiency, { abs: 1e-12 });
  }
  const pct = (d: number, stride: number) => `${(100 * point(d, stride).efficiency).toFixed(1)}%`;
  for (const d of [1, 2, 4, 8, 16, 32, 64, 128, 256, 512]) {
    const p = chapterScalingPoints("all-eight").find((x) => x.dp === d)!;
    assert.ok(p.efficiency > 0.99, `all eight GPUs of each server within one percent at d = ${d}`);
  }
  assertMentions(
    text,
    `${pct(1024, ALL)} at $m = 1$, ${(point(1024, ALL).tokensPerSecond / 1e6).toFixed(2)} million tokens per second`,
    "all eight at 1024",
  );
  assertMentions(
    text,
    `it predicts ${pct(64, ONE)} of ideal throughput with 64 GPUs ($m = 16$)`,
    "one per server at 64",
  );
  assertMentions(text, `with 256 ($m = 4$), ${pct(256, ONE)}`, "one per server at 256");
  assertMentions(
    text,
    `with 1024 ($m = 1$), ${pct(1024, ONE)}, at ${(point(1024, ONE).tokensPerSecond / 1e6).toFixed(2)} million tokens per second`,
    "one per server at 1024",
  );
  assertMentions(
    text,
    `wait for the network for ${((100 * point(1024, ONE).exposedCommSeconds) / point(1024, ONE).stepSeconds).toFixed(0)}% of every step`,
    "waiting share at 1024",
  );
  assertMentions(text, `reaching ${(100 * point(1024, ONE).efficiency).toFixed(0)}% of ideal`, "alt text");
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

test("ZeRO-3 prefetch buffers and the tokens-per-microbatch bound with its latency term", () => {
  const arch = parseModelConfig(preset8.config).architecture;
  const layer = layerParameters(arch, 0).total;
  assert.equal(layer, 218_112_000);
  assertMentions(
    text,
    `holds ${grouped(layer)} parameters, ${((2 * layer) / 1e6).toFixed(1)} MB in bf16`,
    "layer size",
  );
  assertMentions(text, `$F$ = ${(F / 1e12).toFixed(1)} TFLOPS`, "sustained FLOP/s");
  const gather = (d: number, stride: number) => link("all-gather", d, stride);
  const need = (d: number, stride: number, latency = true) =>
    zero3HidingTokens(
      F,
      gather(d, stride).busBytesPerSecond,
      d,
      latency ? { stepSeconds: gather(d, stride).hopLatencySeconds, layerParameters: layer } : undefined,
    );
  // The bound by hand: (d − 1)/d · F/B + (d − 1)·α·F/(2P).
  const g64 = gather(64, ALL);
  assertApprox(
    need(64, ALL),
    (63 / 64) * (F / g64.busBytesPerSecond) + (63 * g64.hopLatencySeconds * F) / (2 * layer),
    {
      rel: 1e-12,
    },
  );
  const bw = need(64, ALL, false);
  assertMentions(
    text,
    `The bandwidth term is ${grouped(bw)} tokens and the latency term ${grouped(need(64, ALL) - bw)}, so each GPU needs at least ${grouped(need(64, ALL))} tokens per microbatch, less than one sequence`,
    "all eight at 64",
  );
  assert.ok(need(64, ALL) < 4096);
  assertMentions(text, `it needs ${grouped(need(64, ONE))} tokens, just under three sequences`, "one per server at 64");
  assert.equal(Math.ceil(need(64, ONE) / 4096), 3);
  assertMentions(
    text,
    `${gbps(gather(8, ALL).busBytesPerSecond)}), ${grouped(need(8, ALL))} tokens suffice`,
    "one server",
  );
  // The largest degree that hides at 2^22 tokens: B/d ≥ bound(d) at d, not at d + 1.
  const largest = (stride: number, latency: boolean) => {
    let d = 1;
    while (2 ** 22 / (d + 1) >= need(d + 1, stride, latency)) d += 1;
    return d;
  };
  const about = (x: number) => grouped(Number(x.toPrecision(2)));
  assertMentions(text, `that happens at about ${about(largest(ALL, true))} GPUs`, "ZeRO-3 limit");
  assertMentions(text, `alone would allow about ${about(largest(ALL, false))}`, "bandwidth-only limit");
  assertMentions(text, `the limit is about ${about(largest(ONE, true))} GPUs`, "one per server limit");
  assert.ok(largest(ALL, true) < largest(ALL, false) / 4, "latency sets the limit at this scale");
  // fp32 gradient reduction (the exercise): the bandwidth term × 1.5, the latency term unchanged.
  const fp32 = 1.5 * bw + (need(64, ALL) - bw);
  assertMentions(
    text,
    `$T \\ge ${tex(fp32)}$ tokens against ${grouped(need(64, ALL))} for bf16 gradients`,
    "fp32 bound",
  );
  assert.ok(fp32 < 4096, "one sequence still suffices");
  // The recipe quotes both layouts.
  assertMentions(
    text,
    `needs about ${grouped(need(64, ALL))} tokens per microbatch with bf16 gradient reduction`,
    "recipe, bf16",
  );
  assertMentions(
    text,
    `if the group fills its servers and ${grouped(need(64, ONE))} with one rank per server`,
    "recipe",
  );
});

test("Narayanan et al.'s ZeRO-3 runs: the bound predicts no drop at 1,536 A100s", () => {
  const a100 = findGpu("a100-sxm-80gb");
  assert.ok(a100);
  const gpt3 = parseModelConfig({
    model_type: "gpt2",
    n_embd: 12288,
    n_head: 96,
    n_layer: 96,
    vocab_size: 51200,
    n_positions: 2048,
    n_inner: null,
    tie_word_embeddings: true,
  }).architecture;
  const P = layerParameters(gpt3, 0).total;
  assert.equal(P, 12 * 12288 ** 2 + 13 * 12288); // the GPT layer: 12h² + 13h
  const g = groupLink(clusterShape("a100-sxm-80gb"), "all-gather", { ranks: 1536, stride: 1 });
  const Fa = KERNEL_EFFICIENCY.ampere * a100.bf16FlopsPerSecond;
  const need = zero3HidingTokens(Fa, g.busBytesPerSecond, 1536, {
    stepSeconds: g.hopLatencySeconds,
    layerParameters: P,
  });
  assert.ok(need < 2048, "fewer than one 2,048-token sequence");
  assertMentions(text, `prices at ${gbps(g.busBytesPerSecond)} for a group`, "A100 group bandwidth");
  assertMentions(text, `kernel efficiency of ${Math.round(100 * KERNEL_EFFICIENCY.ampere)}%`, "A100 efficiency");
  assertMentions(text, `asks for ${grouped(need)} tokens per microbatch even at 1,536 GPUs`, "A100 bound");
  assert.doesNotMatch(source, /observed\s+exactly this/);
});

test("offloading over PCIe (ren2021zerooffload; DeepSpeed's fp32 copy)", () => {
  assert.equal(h100.pcieBytesPerSecond, 128e9);
  const oneWay = h100.pcieBytesPerSecond / 2;
  assertMentions(text, "carries 128 GB/s counting both directions", "PCIe both ways");
  assertMentions(text, `so ${oneWay / 1e9} GB/s each way`, "PCIe one way");
  assertMentions(text, `take ${ms(grad8 / oneWay)}`, "16-bit transfer time");
  assertMentions(text, `$4\\Psi$ bytes (${gb(2 * grad8)}, ${ms((2 * grad8) / oneWay)})`, "fp32 transfer time");
  assertMentions(text, `each takes ${ms(grad8 / oneWay)}`, "transfer time in the exercise");
  assertMentions(
    text,
    `$4\\Psi = ${((2 * grad8) / 1e9).toFixed(1)}$ GB of fp32 gradients, ${ms((2 * grad8) / oneWay)}`,
    "fp32 in the exercise",
  );
  // g·F / (4 B): only the backward pass that finishes the gradients can hide them, per microbatch.
  assert.equal(offloadHidingTokens(F, oneWay), F / (2 * oneWay));
  assert.equal(offloadHidingTokens(F, oneWay, 4), F / oneWay);
  assertMentions(
    text,
    `that is ${grouped(offloadHidingTokens(F, oneWay))} tokens with 16-bit gradients ($g = 2$), which one sequence`,
    "16-bit bound",
  );
  assertMentions(
    text,
    `and ${grouped(offloadHidingTokens(F, oneWay, 4))} with DeepSpeed's fp32 copy ($g = 4$), which takes two`,
    "fp32 bound",
  );
  assert.ok(offloadHidingTokens(F, oneWay) < 4096 && offloadHidingTokens(F, oneWay, 4) > 4096);
  assertMentions(
    text,
    `at least ${grouped(offloadHidingTokens(F, oneWay))} tokens for 16-bit gradients and ${grouped(offloadHidingTokens(F, oneWay, 4))} for fp32 ones`,
    "bounds in the exercise",
  );
  assertMentions(text, "the bound holds per microbatch, not per optimizer step", "per microbatch");
  assert.doesNotMatch(source, /tokens per optimizer step/);
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
  // With accumulation DeepSpeed's offload adds a bf16 buffer per owned parameter on the CPU (2Ψ on one GPU).
  const cpuAccum = cpu32 + modelStateBytes(psi8).gradients;
  assert.equal(cpuAccum, 18 * psi8);
  assertMentions(text, `$18\\Psi$, ${gb(cpuAccum)}`, "CPU memory, DeepSpeed with accumulation");
  assertMentions(text, `$2\\Psi$ more\n(${gb(cpuAccum)})`, "CPU memory with accumulation in the exercise");
  assertMentions(text, `$12\\Psi = ${(cpuStates / 1e9).toFixed(1)}$ GB`, "CPU memory in the exercise");
  assertMentions(
    text,
    `in 16 bits in ZeRO-Offload's design (${gb(cpu16)} in all), or $4\\Psi$ more in DeepSpeed's fp32 buffer (${gb(cpu32)})`,
    "CPU memory with gradients in the exercise",
  );
  assertMentions(text, `for up to ${ms(grad8 / oneWay)} of upload`, "exposed upload in the exercise");
  assertMentions(text, `$2\\Psi = ${(grad8 / 1e9).toFixed(2)}$ GB`, "gradient bytes in the exercise");
  assert.doesNotMatch(source, /bf16 weights and gradients stay on the GPU/);
});

test("activations do not shrink with d (trainingMemory, FlashAttention, no recomputation)", () => {
  const a = trainingMemory(preset8.config, { seqLength: 4096, microBatchSize: 1, dp: 8, zeroStage: 1 }).perGpu
    .activations;
  const b = trainingMemory(preset8.config, { seqLength: 4096, microBatchSize: 1, dp: 64, zeroStage: 3 }).perGpu
    .activations;
  assert.equal(a, b);
  assertMentions(text, `they take ${gb(a)} on every GPU`, "activations per GPU");
});

test("exercise: the 70B all-reduce in both layouts and the microbatches that hide it", () => {
  assert.equal(psi70, 70_553_706_496);
  assertMentions(text, `$2 \\times ${tex(psi70)} = ${(grad70 / 1e9).toFixed(1)}$ GB`, "70B gradient bytes");
  const chain = (stride: number) =>
    `${(grad70 / 1e9).toFixed(1)}\\ \\text{GB} / ${gbps(bus(64, stride)).replace(" GB/s", "")}\\ \\text{GB/s} = ${allReduceSeconds(grad70, 64, bus(64, stride)).toFixed(3)}$ s`;
  assertMentions(text, chain(ALL), "70B all-reduce, all eight");
  assertMentions(text, chain(ONE), "70B all-reduce, one rank per server");
  const mb70 = (modelFlopsPerToken(preset70.config, 4096).total * 4096) / F;
  assertMentions(text, `takes ${mb70.toFixed(3)} s of compute`, "70B microbatch");
  assertMentions(text, `\\cdot ${mb70.toFixed(3)} = ${((2 * mb70) / 3).toFixed(3)}$ s`, "70B backward");
  const input70 = (stride: number): DpTimelineInput => ({
    ...base8,
    gradientBytes: grad70,
    bucketBytes: grad70 / buckets70,
    layers: 80,
    forwardSeconds: mb70 / 3,
    backwardSeconds: (2 * mb70) / 3,
    busBandwidthBytesPerSecond: bus(64, stride),
  });
  const tail = dataParallelTimeline(input70(ALL)).exposedCommSeconds;
  assertMentions(text, `a tail of ${ms(tail)}, under 5% of the step at any $m$`, "all eight: tail");
  assert.ok(tail / (mb70 + tail) < 0.05);
  const buckets = buckets70;
  assertMentions(
    text,
    `$\\alpha$ of DDP's ${grouped(buckets)} whole-tensor buckets contributes ${(buckets * 50e-6).toFixed(3)} s`,
    "70B per-call cost",
  );
  const exposed = dataParallelTimeline(input70(ONE)).exposedCommSeconds;
  assertMentions(text, `exposed communication at ${exposed.toFixed(3)} s per step`, "70B exposed");
  const threshold = (exposed * 19) / mb70; // exposed / (mb·m + exposed) < 0.05 ⇔ m > 19·exposed/mb
  assertMentions(text, `requires $m > ${threshold.toFixed(2)}$, so $m = ${Math.ceil(threshold)}$`, "m bound");
  const m = Math.ceil(threshold);
  const t = dataParallelTimeline({ ...input70(ONE), microbatches: m });
  assertApprox(t.exposedCommSeconds, exposed, { abs: 1e-9 }, "no_sync makes the exposed time independent of m");
  assertMentions(
    text,
    `a step of ${t.stepSeconds.toFixed(2)} s, with ${((100 * t.exposedCommSeconds) / t.stepSeconds).toFixed(2)}% exposed`,
    "70B step",
  );
  assertMentions(text, `$${m} \\times 64 = ${tex(m * 64)}$ sequences`, "70B batch");
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

test("memory fits under the framework profiles: DDP's 22 bytes per parameter, Megatron ZeRO-1 over 80 GB", () => {
  const fw = (framework: "ddp" | "megatron" | "deepspeed", zeroStage: 0 | 1) =>
    trainingMemory(preset8.config, { seqLength: 4096, microBatchSize: 1, dp: 8, zeroStage, framework }).perGpu;
  const ddp = fw("ddp", 0);
  assert.equal(Math.round((ddp.parameters + ddp.gradients + ddp.optimizer) / psi8), 22);
  assert.ok(fw("megatron", 1).total > h100.hbmBytes, "Megatron-LM's ZeRO-1 at d = 8 does not fit");
  assert.ok(fw("deepspeed", 1).total < h100.hbmBytes, "DeepSpeed's ZeRO-1 at d = 8 fits");
  assertMentions(text, `under Megatron-LM, whose distributed`, "the framework named for the 80.6 GB");
});

test("the memory explorer starts at the DeepSpeed ZeRO-1 total the prose quotes, and Megatron-LM's total is its framework switched", () => {
  const settings = widgetSettings("03-data-parallelism", "memory-explorer");
  const view = computeMemoryView(parseMemorySettings(settings));
  assert.equal(view.state.framework, "deepspeed");
  assertMentions(text, `ZeRO-1 at $d = 8$, the ${view.verdict.gb} GB above`, "the explorer's default total");
  const megatron = computeMemoryView(parseMemorySettings({ ...settings, framework: "megatron" }));
  assertMentions(text, `past the GPU (${megatron.verdict.gb} GB)`, "the explorer with Megatron-LM");
  assert.equal(megatron.verdict.kind, "oom");
});
