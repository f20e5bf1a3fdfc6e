/**
 * Every number chapter 4 prints that is not a quotation from a cited source is recomputed here
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
  korthikantiLayerActivationBytes,
  maxFinite,
  type ModelArchitecture,
  parseModelConfig,
  type Scenario,
  tpCommElementsPerLayer,
  tpCommToComputeRatio,
  tpDegreeProblem,
  tpShardingLayout,
  tpSpCommElementsPerLayer,
  tpSpRegatherElementsPerLayer,
} from "../../src/model/index.ts";
import { parseMemorySettings } from "../../src/figures/memory-explorer/settings.ts";
import { computeMemoryView } from "../../src/figures/memory-explorer/view.ts";
import { assertMentions, readChapter, widgetSettings } from "../helpers/chapter-text.ts";

const text = readChapter("04-tensor-parallelism");
const cluster = clusterShape("h100-sxm");
/** Bus bandwidths from the placement model, never typed in. */
const bus = (collective: "all-reduce" | "all-gather", ranks: number, stride: number) =>
  groupLink(cluster, collective, { ranks, stride }).busBytesPerSecond;
const ringBus = bus("all-gather", 8, 1);
const nvlsBus = bus("all-reduce", 8, 1);
const h100 = findGpu("h100-sxm")!;
const F = h100.bf16FlopsPerSecond;
const nvlinkPerDirection = h100.nvlinkBytesPerSecond / 2;
const grouped = (x: number) => Math.round(x).toLocaleString("en-US");
/** "578{,}813{,}952": thousands separators as the chapter writes them inside TeX. */
const texGrouped = (x: number) => grouped(x).replace(/,/g, "{,}");
const MiB = 2 ** 20;
const GiB = 2 ** 30;

function arch(id: string): ModelArchitecture {
  const preset = findModelPreset(id);
  assert.ok(preset, `preset ${id}`);
  return parseModelConfig(preset.config).architecture;
}

test("H100 figures: 989 TFLOPS dense bf16, NVLink 900 GB/s total = 450 GB/s per direction", () => {
  assert.equal(Math.round(F / 1e12), 989);
  assertMentions(
    text,
    "989 TFLOPS of dense bf16 and NVLink at 900 GB/s in total, which is 450 GB/s in each direction",
    "H100 specs",
  );
  assert.equal(h100.nvlinkBytesPerSecond, 900e9);
});

test("Llama 3.1 vocabulary and the vocab-parallel cross-entropy numbers (8,192 tokens, t = 8)", () => {
  const a = arch("llama-3.1-8b");
  assert.equal(a.vocabSize, 128256);
  assertMentions(text, "vocabularies of 128,256 entries", "Llama 3.1 vocab");
  const tokens = 8192;
  const logitsBytes = tokens * a.vocabSize * 4;
  assertMentions(text, `the fp32 logits take ${(logitsBytes / 1e9).toFixed(2)} GB`, "full logits");
  assertMentions(text, `each GPU of an 8-way group holds ${(logitsBytes / 8 / 1e6).toFixed(1)} MB`, "logits per GPU");
  assertMentions(
    text,
    `an all-gather would move ${((logitsBytes * 7) / 8 / 1e9).toFixed(2)} GB into every GPU`,
    "all-gather of logits",
  );
  assertMentions(
    text,
    `that is ${((3 * tokens * 4) / 1e3).toFixed(1)} kB of fp32 scalars`,
    "three all-reduces of scalars",
  );
});

test("TP volume for Llama-3.1-70B at s = 8192, b = 1, t = 8 (Eq. tp-volume)", () => {
  const a = arch("llama-3.1-70b");
  assert.equal(a.hiddenSize, 8192);
  assert.equal(a.numLayers, 80);
  const elements = tpCommElementsPerLayer(1, 8192, a.hiddenSize, 8);
  assertMentions(
    text,
    `gives ${grouped(elements)} elements, or ${((elements * 2) / 1e6).toFixed(1)} MB per layer`,
    "per layer",
  );
  assertMentions(
    text,
    `and ${((elements * 2 * a.numLayers) / 1e9).toFixed(1)} GB per microbatch across the 80 layers`,
    "per microbatch",
  );
});

test("comm/compute ratio: 0.54 at NVLink's line rate, 0.65 on the ring, 0.50 with NVLS; across servers 1.44 for t = 16 on two whole servers (placement: 360 GB/s) and 5.4 with one member per server (45 GB/s)", () => {
  assert.equal(ringBus, 370e9);
  assert.equal(nvlsBus, 480e9);
  const ratio = (B: number, t = 8) => tpCommToComputeRatio(t, F, B, 8192, 8192);
  assertMentions(text, `@eq:tp-ratio gives ${ratio(nvlinkPerDirection).toFixed(2)}`, "NVLink ratio");
  assertMentions(text, `which raises the ratio to ${ratio(ringBus).toFixed(2)}`, "ring");
  assertMentions(text, `which lowers it to ${ratio(nvlsBus).toFixed(2)}`, "NVLS");
  const one = bus("all-reduce", 8, 8);
  const two = bus("all-reduce", 16, 1);
  assert.equal(one, 45e9);
  assert.equal(two, 360e9);
  assertMentions(
    text,
    `the ratio becomes ${ratio(one).toFixed(1)}, about ${Math.round(ratio(one) / ratio(nvlsBus))} times the NVLink SHARP figure`,
    "one member per server",
  );
  assertMentions(
    text,
    `about ${two / 1e9} GB/s: the ratio is ${ratio(two, 16).toFixed(2)}, about ${(ratio(two, 16) / ratio(nvlsBus)).toFixed(1)} times the ${ratio(nvlsBus).toFixed(2)} of eight GPUs in one server`,
    "t = 16 on two servers",
  );
  assertMentions(text, `would give ${ratio(nvlsBus, 16).toFixed(2)})`, "t − 1 alone");
  assertMentions(
    text,
    `the ratio would be ${ratio(one, 16).toFixed(1)}, about ${Math.round(ratio(one, 16) / ratio(nvlsBus))} times the in-server figure`,
    "exercise: one member on each of sixteen servers",
  );
  assert.ok(ratio(nvlsBus, 16) - ratio(nvlsBus) > (ratio(two, 16) - ratio(nvlsBus)) / 2, "more than half is t − 1");
  assertMentions(
    text,
    `take ${ratio(two, 16).toFixed(1)} times the ideal compute instead of ${ratio(nvlsBus).toFixed(2)}: about three times`,
    "exercise: t = 16 on two servers",
  );
  assertMentions(
    text,
    "about three times that for $t = 16$ on two whole servers, and about ten times for $t = 8$ with one member per server",
    "takeaway",
  );
  assert.doesNotMatch(text, /about nine times|about ten times as long as the ideal compute/);
});

test("sequence parallelism in the step model: Llama 3.1 70B on 512 H100s exposes 27% more TP time with SP, but fits only with it; with --tp-comm-overlap most of it hides", () => {
  const scenario = (sequenceParallel: boolean, tpCommOverlap?: boolean): Scenario => ({
    model: "llama-3.1-70b",
    cluster: { gpu: "h100-sxm", gpuCount: 512 },
    framework: "megatron",
    layout: { tp: 8, pp: 4, sequenceParallel, ...(tpCommOverlap === undefined ? {} : { tpCommOverlap }) },
    batch: { seqLength: 8192, microBatchSize: 1, globalBatch: 512 },
  });
  const off = evaluateScenario(scenario(false));
  const on = evaluateScenario(scenario(true));
  const overlap = evaluateScenario(scenario(true, true));
  assert.ok(on.step.breakdown.tp > off.step.breakdown.tp, "SP exposes more TP time on H100 (ring vs NVLS)");
  assert.ok(!off.fits && on.fits, "only SP fits the budget");
  // The overlap hides most of the exposed TP time; what is left is the attention block's collectives
  // beyond its GEMMs (step.ts), which the chapter prints.
  assert.ok(overlap.step.breakdown.tp < on.step.breakdown.tp / 5, "the overlap hides most of it");
  assert.ok(overlap.step.mfu > on.step.mfu);
  assertMentions(
    text,
    `exposes only ${overlap.step.breakdown.tp.toFixed(2)} s of tensor-parallel time`,
    "what stays exposed",
  );
  assertMentions(
    text,
    `exposes ${off.step.breakdown.tp.toFixed(2)} s of tensor-parallel communication per step without SP and ${on.step.breakdown.tp.toFixed(2)} s with it, ${Math.round(100 * (on.step.breakdown.tp / off.step.breakdown.tp - 1))}% more, and MFU falls from ${(100 * off.step.mfu).toFixed(1)}% to ${(100 * on.step.mfu).toFixed(1)}%`,
    "SP's cost",
  );
  assertMentions(text, `needs ${(off.bytesPerGpu / 1e9).toFixed(1)} GB per GPU`, "memory without SP");
  assertMentions(text, `(${(100 * overlap.step.mfu).toFixed(1)}% MFU)`, "with TP overlap");
  assertMentions(
    text,
    `the same bytes can take up to ${Math.round(100 * (nvlsBus / ringBus - 1))}% longer`,
    "ring vs NVLS",
  );
  assert.doesNotMatch(
    text,
    /cost what they cost before|Always turn on sequence parallelism|Sequence parallelism adds nothing to the critical path/,
  );
});

test("Megatron-Core supports t > n_kv since 0.16 by all-gathering the QKV output (attention.py at core_v0.19.0)", () => {
  assertMentions(text, "until Megatron-Core version 0.16 (December 2025)", "version");
  assertMentions(text, "lines 353–367 and 1839–1918 at Megatron-Core version 0.19.0", "file and lines");
  assert.doesNotMatch(text, /simply divides the number of KV groups/);
});

test("Table tp-degrees: degrees with whole KV heads and degrees that need replication, from the presets", () => {
  const candidates = [1, 2, 4, 5, 7, 8, 14, 16, 25, 28, 32, 64, 128];
  assertMentions(text, "do not divide its MLP width of 18,944", "Qwen MLP width");
  assert.equal(arch("qwen2.5-7b").intermediateSize, 18944);
  for (const t of [7, 14, 28]) assert.match(tpDegreeProblem(arch("qwen2.5-7b"), t) ?? "", /MLP width/);
  const rows: [string, string][] = [
    ["llama-3.1-8b", "Llama-3.1-8B"],
    ["llama-3.1-70b", "Llama-3.1-70B"],
    ["llama-3.1-405b", "Llama-3.1-405B"],
    ["qwen2.5-7b", "Qwen2.5-7B"],
    ["mistral-7b-v0.1", "Mistral-7B-v0.1"],
    ["gpt2-xl", "GPT-2 XL"],
  ];
  for (const [id, label] of rows) {
    const a = arch(id);
    const valid = candidates.filter((t) => a.numHeads % t === 0 && tpDegreeProblem(a, t) === null);
    const whole = valid.filter((t) => a.numKvHeads % t === 0);
    const replicated = valid.filter((t) => a.numKvHeads % t !== 0);
    for (const t of replicated) {
      assert.ok(
        tpShardingLayout(a, { tp: t, sequenceParallel: false, seqLength: 16, microBatchSize: 1 }).kvReplication > 1,
      );
    }
    const row = `| ${label} | ${a.numHeads} | ${a.numKvHeads} | ${whole.join(", ")} | ${replicated.length ? replicated.join(", ") : "none"} |`;
    assertMentions(text, row, `table row ${label}`);
  }
  assert.equal(tpDegreeProblem(arch("qwen2.5-7b"), 8), "28 query heads do not split 8 ways");
});

test("the 70B MLP weight 8192 × 28672 becomes 8192 × 3584 at t = 8", () => {
  const layout = tpShardingLayout(arch("llama-3.1-70b"), {
    tp: 8,
    sequenceParallel: true,
    seqLength: 8192,
    microBatchSize: 1,
  });
  const up = layout.regions.flatMap((r) => r.tensors).find((x) => x.name === "up projection")!;
  assertMentions(
    text,
    `a $${texGrouped(up.fullShape[0]!)} \\times ${texGrouped(up.fullShape[1]!)}$ MLP weight becomes $${texGrouped(up.shardShape[0]!)} \\times ${texGrouped(up.shardShape[1]!)}$ at $t = 8$`,
    "MLP shard",
  );
});

test("Korthikanti GPT-3 175B activations: 552 / 342 MiB per layer, 51.75 / 32.06 GiB for 96 layers, 312 / 102 MiB with FlashAttention", () => {
  const base = { s: 2048, b: 1, h: 12288, a: 96, t: 8 };
  const tp = korthikantiLayerActivationBytes({ ...base, sequenceParallel: false, recompute: "none" });
  const sp = korthikantiLayerActivationBytes({ ...base, sequenceParallel: true, recompute: "none" });
  // FlashAttention stores no score matrix: the same tensors that selective recomputation keeps.
  const tpFlash = korthikantiLayerActivationBytes({ ...base, sequenceParallel: false, recompute: "selective" });
  const spFlash = korthikantiLayerActivationBytes({ ...base, sequenceParallel: true, recompute: "selective" });
  assertMentions(
    text,
    `With plain TP a layer stores ${tp / MiB} MiB per GPU; with TP and SP, ${sp / MiB} MiB`,
    "per layer",
  );
  assertMentions(
    text,
    `between ${((96 * tp) / GiB).toFixed(2)} GiB and ${((96 * sp) / GiB).toFixed(2)} GiB per GPU`,
    "96 layers",
  );
  assertMentions(text, `${tpFlash / MiB} MiB against ${spFlash / MiB} MiB per layer`, "flash");
  assertMentions(text, `= ${texGrouped(tp)}$ bytes $= ${tp / MiB}$ MiB`, "exercise: plain TP");
  assertMentions(text, `= ${sp / MiB}$ MiB`, "exercise: TP + SP");
  assertMentions(
    text,
    `$13\\,sbh = ${tpFlash / MiB}$ MiB against $4.25\\,sbh = ${spFlash / MiB}$ MiB`,
    "exercise: flash",
  );
});

test("exercise: Llama-3.1-8B, t = 4, s = 4096, b = 2 sends 201,326,592 elements = 402.7 MB per layer", () => {
  const a = arch("llama-3.1-8b");
  const elements = tpCommElementsPerLayer(2, 4096, a.hiddenSize, 4);
  assertMentions(text, `= ${texGrouped(elements)}$ elements`, "elements");
  assertMentions(
    text,
    `that is ${((elements * 2) / 1e6).toFixed(1)} MB per layer per microbatch, and ${a.numLayers} times that`,
    "bytes",
  );
});

test("exercise: h ≥ 4(t−1)F/(3B) ≈ 19,238 for a 25% ratio at t = 8 with NVLS (24,958 with SP on the ring); largest Llama 3.1 is h = 16384", () => {
  const h = (4 * 7 * F) / (3 * nvlsBus);
  assertMentions(text, `(3 \\cdot 480\\times10^{9}) \\approx ${texGrouped(h)}$`, "threshold");
  assertMentions(text, `the bound rises to about ${grouped((4 * 7 * F) / (3 * ringBus))}`, "with SP");
  assertMentions(text, `$h = ${texGrouped(arch("llama-3.1-405b").hiddenSize)}$`, "405B width");
});

test("exercise: overflow thresholds ln(65504) ≈ 11.1, ln(max bf16/fp32) ≈ 88.7", () => {
  assert.equal(maxFinite("fp16"), 65504);
  assertMentions(
    text,
    `fp16 overflows above $z \\approx ${Math.log(maxFinite("fp16")).toFixed(1)}$ (its largest value is 65,504)`,
    "fp16",
  );
  assert.equal(Math.log(maxFinite("bf16")).toFixed(1), Math.log(maxFinite("fp32")).toFixed(1));
  assertMentions(
    text,
    `bf16 and fp32 overflow above $z \\approx ${Math.log(maxFinite("fp32")).toFixed(1)}$`,
    "bf16/fp32",
  );
});

test("sequence parallelism sends 10bsh(t−1)/t: 1,174.4 MB instead of 939.5 MB per layer for the 70B example, 234.9 MB of it overlapped", () => {
  const a = arch("llama-3.1-70b");
  const plain = tpCommElementsPerLayer(1, 8192, a.hiddenSize, 8);
  const sp = tpSpCommElementsPerLayer(1, 8192, a.hiddenSize, 8);
  const regather = tpSpRegatherElementsPerLayer(1, 8192, a.hiddenSize, 8);
  assert.equal(sp, plain + regather);
  const mb = (elements: number) =>
    ((elements * 2) / 1e6).toLocaleString("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  assertMentions(
    text,
    `for the Llama-3.1-70B example above, ${mb(sp)} MB per layer instead of ${mb(plain)} MB. The extra ${mb(regather)} MB rarely cost time`,
    "SP volume",
  );
  assertMentions(text, "6 all-gathers (2 of them overlapped re-gathers) + 4 reduce-scatters of $bsh$", "table");
  assertMentions(text, "V_{\\text{TP+SP}} = 10\\,bsh\\,\\frac{t-1}{t}", "equation");
});

test("the memory explorer starts from the step model's layout and shows the totals the prose quotes", () => {
  const settings = widgetSettings("04-tensor-parallelism", "memory-explorer");
  const view = (extra: Record<string, unknown>) => computeMemoryView(parseMemorySettings({ ...settings, ...extra }));
  const off = view({});
  assert.equal(off.state.framework, "megatron");
  assertMentions(text, `sequence parallelism off, ${off.verdict.gb} GB per GPU`, "the explorer's default");
  assertMentions(text, `the total fall to the ${view({ sp: true }).verdict.gb} GB above`, "the explorer with SP");
  const fitsUpTo = Number(
    /the layout fits up to ([\d,]+) tokens/.exec(text.replace(/\s+/g, " "))?.[1]?.replace(/,/g, ""),
  );
  assert.equal(view({ sp: true, seqLength: fitsUpTo }).verdict.kind, "fits");
  const over = view({ sp: true, seqLength: fitsUpTo + 1024 });
  assert.notEqual(over.verdict.kind, "fits");
  assertMentions(text, `it needs ${over.verdict.gb} GB`, "the first sequence length that does not fit");
});
