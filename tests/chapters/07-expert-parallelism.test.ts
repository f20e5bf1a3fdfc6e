/**
 * Every number chapter 7 (expert parallelism) computes is recomputed here from src/model and
 * checked against the text. Numbers the chapter cites from papers (DeepSeek-V3's 671B/37B, its
 * 160 GB/s and 50 GB/s, γ = 0.001, …) carry citations instead.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { assertMentions, readChapter } from "../helpers/chapter-text.ts";
import {
  bytesPerParameter,
  clusterShape,
  countParameters,
  expertCapacity,
  expertDispatchBytes,
  findGpu,
  findInterconnect,
  findModelPreset,
  groupLink,
  layerParameters,
  parseModelConfig,
  simulateMoeRouting,
  switchBalanceLoss,
} from "../../src/model/index.ts";
import { moeRoutingDefaults, parseMoeRoutingSettings } from "../../src/figures/moe-routing.ts";

const text = readChapter("07-expert-parallelism");
const fmt = (n: number) => n.toLocaleString("en-US");
const gb = (bytes: number, digits = 1) => `${(bytes / 1e9).toFixed(digits)} GB`;
const mb = (bytes: number, digits = 1) => `${(bytes / 1e6).toFixed(digits)} MB`;
const ms = (seconds: number, digits: number) => `${(seconds * 1e3).toFixed(digits)} ms`;

const mixtral = findModelPreset("mixtral-8x7b")!;
const counts = countParameters(mixtral.config);
const arch = parseModelConfig(mixtral.config).architecture;
const layer0 = layerParameters(arch, 0);
const h100 = findGpu("h100-sxm")!;
const layers = 32;
const experts = 8;

test("Mixtral total and active parameters match the model", () => {
  assert.equal(counts.total, 46_702_792_704);
  assertMentions(text, fmt(counts.total), "Mixtral total parameters");
  assertMentions(text, fmt(counts.active), "Mixtral active parameters");
  assertMentions(text, `${(counts.total / 1e9).toFixed(1)}B`, "Mixtral total in billions");
  assertMentions(text, `${(counts.active / 1e9).toFixed(1)}B`, "Mixtral active in billions");
});

test("Mixtral FLOPs per token at 6N (active vs all parameters)", () => {
  assertMentions(text, `${((6 * counts.active) / 1e9).toFixed(1)} GFLOP`, "6·N_active");
  assertMentions(text, `${((6 * counts.total) / 1e9).toFixed(1)} GFLOP`, "6·N_total");
  assertMentions(
    text,
    `$6 \\times 12{,}879{,}925{,}248 = ${((6 * counts.active) / 1e10).toFixed(2)} \\times 10^{10}$`,
    "exercise 1b",
  );
});

test("Mixtral expert size, expert share and memory", () => {
  assert.equal(layer0.expertSize, 3 * 4096 * 14336);
  assertMentions(text, `= 176{,}160{,}768$`, "N_expert in the equation");
  const allExperts = layers * experts * layer0.expertSize;
  assertMentions(text, fmt(allExperts), "all experts' parameters");
  assertMentions(text, `${((allExperts / counts.total) * 100).toFixed(1)}% of the model`, "experts' share");
  assert.equal(counts.total - layers * 6 * layer0.expertSize, counts.active);
  const bf16Bytes = counts.total * 2;
  assertMentions(text, gb(bf16Bytes), "bf16 weights");
  assertMentions(text, `= ${fmt(bf16Bytes).replace(/,/g, "{,}")}\\ \\text{B}$`, "exercise 1a exact bytes");
  const bpp = bytesPerParameter("bf16");
  const statesBytes = counts.total * (bpp.parameters + bpp.gradients + bpp.optimizer);
  assert.equal(bpp.parameters + bpp.gradients + bpp.optimizer, 16);
  assertMentions(text, gb(statesBytes), "mixed-precision Adam model states");
  assertMentions(text, `that is ${(statesBytes / 80e9).toFixed(1)}`, "GPUs of 80 GB");
  // nvidia-smi reports 81,559 MiB for an "80 GB" H100 (nvidia2024nccl1264).
  const usable = 81_559 * 2 ** 20;
  assertMentions(text, `the ${(usable / 1e9).toFixed(1)} GB that \`nvidia-smi\` reports`, "usable H100 memory");
  assertMentions(
    text,
    `it is\n${(statesBytes / usable).toFixed(1)}, so ${Math.ceil(statesBytes / usable)} GPUs`.replace("\n", " "),
    "GPUs of 85.5 GB",
  );
});

test("capacity examples follow Eq. (capacity)", () => {
  assertMentions(text, `every expert gets ${fmt(expertCapacity(4096, 8, 2, 1.25))} slots`, "T=4096, E=8, k=2, c=1.25");
  assert.equal(expertCapacity(8192, 64, 2, 1.0), 256);
  assert.equal(expertCapacity(8192, 64, 2, 1.25), 320);
  assertMentions(text, "$C = 256$ at $c = 1.0$", "exercise 2a");
  assertMentions(text, "$C = \\lceil 320 \\rceil = 320$", "exercise 2a");
  assertMentions(text, "$1.5 \\times 256 = 384$", "exercise 2b");
  assertMentions(text, "$64 \\times 384 = 24{,}576$", "exercise 2b slots");
  assertMentions(text, "16,384 real assignments", "exercise 2b real");
});

test("the widget's default state printed in the chapter matches the simulation", () => {
  const settingsBlock = /::: widget moe-routing(?: title="[^"\n]*")?\n([\s\S]*?):::/.exec(text);
  assert.ok(settingsBlock, "the chapter has a moe-routing widget block");
  const raw: Record<string, unknown> = {};
  for (const line of settingsBlock[1].trim().split("\n")) {
    const [k, v] = line.split(":").map((x) => x.trim());
    raw[k] = Number(v);
  }
  const settings = parseMoeRoutingSettings(raw);
  assert.deepEqual(settings, moeRoutingDefaults);
  const r = simulateMoeRouting(settings);
  assertMentions(text, `capacity is ${r.capacityPerExpert} slots per expert`, "capacity");
  assertMentions(text, `${fmt(r.droppedAssignments)} of the ${fmt(r.totalAssignments)} assignments`, "dropped");
  assertMentions(text, `(${(r.droppedFraction * 100).toFixed(1)}%)`, "dropped fraction");
  const meanFill = r.totalAssignments / settings.experts / (r.capacityPerExpert ?? 1);
  assertMentions(text, `only ${(meanFill * 100).toFixed(0)}% full`, "mean fill");
});

test("dispatch volume and times for a Mixtral-sized layer", () => {
  const v = expertDispatchBytes({ tokensPerGpu: 4096, hidden: 4096, topK: 2, epDegree: 8, bytesPerElement: 2 });
  assertMentions(text, `one dispatch sends ${mb(v)} per GPU`, "dispatch bytes");
  assertMentions(text, `make\n7.5 GB per GPU`.replace("\n", " "), "4 all-to-alls × 32 layers");
  assert.equal(gb(4 * layers * v), "7.5 GB");
  const flops = 2 * layer0.expertSize * 4096 * 2;
  assertMentions(text, `$${(flops / 1e12).toFixed(2)} \\times 10^{12}$ FLOPs`, "expert FLOPs");
  const computeSeconds = flops / h100.bf16FlopsPerSecond;
  assertMentions(text, `or ${ms(computeSeconds, 2)} on an`, "expert time at peak");
  assertMentions(text, `${ms(computeSeconds, 2)} of expert math`, "expert time at peak, again");
  const perDirection = h100.nvlinkBytesPerSecond / 2;
  assertMentions(
    text,
    `${(h100.nvlinkBytesPerSecond / 1e9).toFixed(0)} GB/s of\ntotal bandwidth, ${(perDirection / 1e9).toFixed(0)} GB/s`.replace(
      "\n",
      " ",
    ),
    "NVLink",
  );
  assertMentions(text, `the dispatch takes about ${ms(v / perDirection, 3)}`, "NVLink dispatch time");
  assertMentions(
    text,
    `or ${ms(v / 370e9, 3)} at the 370 GB/s that NCCL reaches`,
    "NVLink dispatch time at measured bandwidth",
  );
  // Inside one server placement gives the NVLink ring's 370 GB/s to an all-to-all of eight ranks.
  const cluster = clusterShape("h100-sxm");
  assert.equal(groupLink(cluster, "all-to-all", { ranks: 8, stride: 1 }).busBytesPerSecond, 370e9);
  // One rank in each of eight servers: one 400 Gb/s NIC each, 50 GB/s line rate, 45 GB/s in the model.
  const line = findInterconnect("h100-sxm")!.nicLineBytesPerSecond;
  assert.equal(line, 50e9);
  const ib = groupLink(cluster, "all-to-all", { ranks: 8, stride: 8 }).busBytesPerSecond;
  assert.equal(ib, 45e9);
  assertMentions(text, `50 GB/s at line rate, and one dispatch would take ${ms(v / line, 2)} at best`, "IB line rate");
  assertMentions(text, `at the ${ib / 1e9} GB/s that the book's model assumes a NIC sustains`, "NIC bus bandwidth");
  assertMentions(text, `it takes ${ms(v / ib, 2)}. Dispatch plus combine`, "IB dispatch time");
  assertMentions(text, `would then cost ${ms((2 * v) / ib, 2)} against`, "IB dispatch + combine");
  assert.ok((2 * v) / ib < computeSeconds, "dispatch plus combine stays below the expert math at peak");
});

test("four all-to-alls per MoE layer and microbatch, six under full recomputation (as the step model charges)", () => {
  assertMentions(text, "four all-to-alls per MoE layer per microbatch, or six when the layer is recomputed", "§7.5");
  assertMentions(text, "and it moves $6 m V_\\text{dispatch}$", "exercise 3");
});

test("skew 0 balances popularity, not load: the widget's batch at skew 0 over seeds 0–199", () => {
  const balanced = { ...moeRoutingDefaults, skew: 0 };
  const r7 = simulateMoeRouting(balanced);
  assert.equal(r7.droppedAssignments, 0, "the default seed drops nothing at skew 0");
  assertMentions(
    text,
    `each\nexpert expects ${r7.totalAssignments / balanced.experts} assignments`.replace("\n", " "),
    "fair share",
  );
  assertMentions(text, `busiest one ${Math.round(100 * (r7.expertImbalance - 1))}% more`, "busiest expert");
  const runs = Array.from({ length: 200 }, (_, seed) => simulateMoeRouting({ ...balanced, seed }));
  const dropping = runs.filter((x) => x.droppedAssignments > 0).length;
  assert.ok(dropping > 0, "some seeds drop at skew 0");
  assertMentions(text, `${Math.round((100 * dropping) / runs.length)}% of the seeds from 0 to 199`, "seeds that drop");
  assertMentions(text, `(up to ${Math.max(...runs.map((x) => x.droppedAssignments))})`, "most dropped");
});

test("recipe: DeepSeek-V3's bf16 weights per GPU at EP 8 and EP 64 without pipeline parallelism", () => {
  const ds = countParameters(findModelPreset("deepseek-v3")!.config);
  const routed = ds.layers.reduce((sum, l) => sum + l.routedExperts, 0);
  const weights = (ep: number) => 2 * (ds.total - routed + routed / ep);
  assertMentions(text, `${(weights(8) / 1e9).toFixed(0)} GB of bf16 weights on every GPU`, "EP 8");
  assertMentions(text, `against ${(weights(64) / 1e9).toFixed(0)} GB with the 64-way EP`, "EP 64");
  assert.ok(weights(8) > h100.hbmBytes, "at EP 8 the weights alone exceed the GPU");
});

test("exercise 5: DeepSeek-V3-like dispatch with and without node-limited routing", () => {
  const v = expertDispatchBytes({ tokensPerGpu: 4096, hidden: 7168, topK: 8, epDegree: 64, bytesPerElement: 1 });
  assertMentions(text, `${fmt(v).replace(/,/g, "{,}")}$ B, about ${mb(v)}`, "full dispatch bytes");
  // The report's 50 GB/s per GPU of InfiniBand is the 400 Gb/s NIC's line rate of the H100 record.
  assert.equal(findInterconnect("h100-sxm")!.nicLineBytesPerSecond, 50e9);
  assertMentions(text, `or ${ms(v / 50e9, 2)} at\n50 GB/s`.replace("\n", " "), "full dispatch time");
  const bound = 4096 * 4 * 7168;
  assertMentions(
    text,
    `${fmt(bound).replace(/,/g, "{,}")}$ B, about\n${mb(bound)}`.replace("\n", " "),
    "node-limited bound",
  );
  assertMentions(text, `at most ${ms(bound / 50e9, 2)}`, "node-limited time");
});

test("Switch's balance loss is not uniquely minimized by uniform routing: 3 tokens, 3 experts, 2 on one expert → 0.84α", () => {
  const loss = switchBalanceLoss([
    [0.34, 0.33, 0.33],
    [0.34, 0.33, 0.33],
    [0, 0.51, 0.49],
  ]);
  assertMentions(text, `can reach $${loss.toFixed(2)}\\alpha$`, "counterexample");
});
