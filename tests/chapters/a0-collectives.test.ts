/**
 * Appendix A (a0-collectives): every number the appendix computes is recomputed here from
 * src/model (collective schedules, bus-bandwidth factors, collective times) and src/data.
 * Assumptions stated in the text: α = 10 µs per step, β = 50 GB/s (one 400 Gb/s NIC's line rate) in
 * the α–β examples, 450 GB/s (NVLink, one direction) inside a server, bf16 gradients and parameters.
 * Every bus bandwidth of the worked examples comes from placement.ts for the layout the text names.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  alphaBetaSeconds,
  busBandwidthFactor,
  ceilLog2,
  clusterShape,
  collectiveSeconds,
  collectiveSteps,
  countParameters,
  findGpu,
  findInterconnect,
  findModelPreset,
  groupLink,
} from "../../src/model/index.ts";
import { assertMentions, readChapter } from "../helpers/chapter-text.ts";
import { assertApprox } from "../helpers/approx.ts";

const text = readChapter("a0-collectives");
const alpha = 10e-6;
const beta = 50e9;
const cluster = clusterShape("h100-sxm");

test("β of the α–β examples is the 400 Gb/s NIC's line rate of the H100 record", () => {
  assert.equal(findInterconnect("h100-sxm")?.nicLineBytesPerSecond, beta);
  assertMentions(text, "$\\beta = 50$ GB/s (the line rate of one 400 Gb/s network port per GPU", "β stated");
});
const ms = (s: number, d = 2) => `${(s * 1000).toFixed(d)} ms`;
const gb = (b: number, d = 2) => `${(b / 1e9).toFixed(d)} GB`;
/** Ring all-reduce, Eq. (ring-ar); equals the model's schedule cost where the schedule exists (n ≤ 16). */
const ring = (n: number, S: number) => 2 * (n - 1) * (alpha + S / (n * beta));
/** Binomial tree reduce + broadcast. */
const tree = (n: number, S: number) => 2 * ceilLog2(n) * (alpha + S / beta);

test("the closed forms agree with the step-by-step schedules of the model", () => {
  for (let n = 2; n <= 16; n++) {
    const S = 1e6;
    const ar = alphaBetaSeconds(collectiveSteps({ collective: "all-reduce", ranks: n, messageBytes: S }), alpha, beta);
    assertApprox(ar, ring(n, S), { abs: 1e-15 });
    const tr =
      alphaBetaSeconds(collectiveSteps({ collective: "reduce", ranks: n, messageBytes: S }), alpha, beta) +
      alphaBetaSeconds(collectiveSteps({ collective: "broadcast", ranks: n, messageBytes: S }), alpha, beta);
    assertApprox(tr, tree(n, S), { abs: 1e-15 });
  }
});

test("ring vs tree on 1,024 GPUs for 1 MB and 1 GB", () => {
  assertMentions(text, `@eq:ring-ar gives ${ms(ring(1024, 1e6))}`, "ring, 1 MB");
  assertMentions(text, `tree takes ${ms(tree(1024, 1e6))}`, "tree, 1 MB");
  assertMentions(text, `ring takes ${ms(ring(1024, 1e9))} and the tree ${ms(tree(1024, 1e9))}`, "1 GB");
});

const params8b = () => {
  const p = findModelPreset("llama-3.1-8b");
  assert.ok(p);
  return countParameters(p.config).total;
};

test("Llama 3.1 8B gradient all-reduce inside a server and across 16 servers, in two layouts", () => {
  const n = params8b();
  assertMentions(text, n.toLocaleString("en-US"), "parameters");
  const S = 2 * n;
  assertMentions(text, `its gradients, reduced in bf16, are ${gb(S)}`, "gradient bytes");
  assertMentions(text, "Reducing\nin bf16 is an assumption of this example", "the dtype is stated");
  assertMentions(
    text,
    `$2 \\times 7/8 \\times ${(S / 1e9).toFixed(2)}\\text{ GB} = ${((busBandwidthFactor("all-reduce", 8) * S) / 1e9).toFixed(2)}\\text{ GB}$`,
    "bytes per GPU on 8",
  );
  const h100 = findGpu("h100-sxm");
  assert.ok(h100);
  const nvlink = h100.nvlinkBytesPerSecond / 2;
  const time = (ranks: number, busbw: number) =>
    collectiveSeconds({ collective: "all-reduce", messageBytes: S, ranks, busBandwidthBytesPerSecond: busbw });
  assertMentions(text, `${(nvlink / 1e9).toFixed(0)} GB/s per direction`, "NVLink one direction");
  assertMentions(text, `the ${ms(time(8, nvlink), 1)} that the line rate would give`, "8-GPU time at line rate");
  // Inside one server, placement gives NVLink SHARP (about 480 GB/s) and, without it, the ring (370 GB/s),
  // the measured figures the text cites.
  const nvls = groupLink(cluster, "all-reduce", { ranks: 8, stride: 1 }).busBytesPerSecond;
  const ring8 = groupLink(cluster, "all-reduce", { ranks: 8, stride: 1 }, { nvls: false }).busBytesPerSecond;
  assert.equal(nvls, 480e9);
  assert.equal(ring8, 370e9);
  assertMentions(text, `At a bus bandwidth of ${nvls / 1e9} GB/s the all-reduce takes ${ms(time(8, nvls), 1)}`, "NVLS");
  assertMentions(text, `at ${ring8 / 1e9} GB/s ${ms(time(8, ring8), 1)}`, "8-GPU time without NVLS");
  assert.ok(nvls > nvlink, "NVLS busbw exceeds the NVLink line rate");
  assertMentions(text, `sends ${gb(busBandwidthFactor("all-reduce", 128) * S)} per GPU`, "bytes per GPU on 128");
  // All eight GPUs of each of 16 servers: eight NICs per boundary, 8 × 45 = 360 GB/s, under the ring's 370.
  const allEight = groupLink(cluster, "all-reduce", { ranks: 128, stride: 1 });
  assert.equal(allEight.nics, 8);
  assert.equal(allEight.busBytesPerSecond, 360e9);
  assertMentions(text, `on ${allEight.nics} network cards at once`, "eight NICs");
  assertMentions(
    text,
    `a bus bandwidth of ${allEight.busBytesPerSecond / 1e9} GB/s, just under the NVLink`,
    "all eight",
  );
  assertMentions(
    text,
    `the all-reduce takes ${ms(time(128, allEight.busBytesPerSecond), 1)}, little more`,
    "time, all eight",
  );
  // One rank per server: one NIC, 45 GB/s.
  const one = groupLink(cluster, "all-reduce", { ranks: 128, stride: 8 }).busBytesPerSecond;
  assert.equal(one, 45e9);
  assertMentions(text, `${one / 1e9} GB/s and ${ms(time(128, one), 1)}`, "time, one rank per server");
  assert.ok(time(128, one) / time(128, allEight.busBytesPerSecond) > 7, "placement, not rank count, sets the cost");
  assertMentions(
    text,
    `the bus bandwidth is ${(ring8 / one).toFixed(1)} to ${(nvls / one).toFixed(1)} times lower than inside one server`,
    "bus bandwidth drop from one server to one rank per server",
  );
  assertMentions(text, "each at an assumed 90% of its line rate", "NIC share of line rate");
});

test("exercise: ZeRO-3 all-gather over 64 GPUs, one per server (and all eight per server)", () => {
  const S = 2 * params8b();
  assertMentions(
    text,
    `(63/64) \\times ${(S / 1e9).toFixed(2)}\\text{ GB} = ${((busBandwidthFactor("all-gather", 64) * S) / 1e9).toFixed(2)}\\text{ GB}$`,
    "received bytes",
  );
  const busbw = groupLink(cluster, "all-gather", { ranks: 64, stride: 8 }).busBytesPerSecond;
  assert.equal(busbw, 45e9);
  assertMentions(
    text,
    "which the book's model takes as 45 GB/s of bus bandwidth",
    "question states the layout's busbw",
  );
  const t = collectiveSeconds({
    collective: "all-gather",
    messageBytes: S,
    ranks: 64,
    busBandwidthBytesPerSecond: busbw,
  });
  assertMentions(text, `/ 45\\text{ GB/s} = ${(t * 1000).toFixed(1)}$ ms`, "time");
  const all = groupLink(cluster, "all-gather", { ranks: 64, stride: 1 }).busBytesPerSecond;
  const tAll = collectiveSeconds({
    collective: "all-gather",
    messageBytes: S,
    ranks: 64,
    busBandwidthBytesPerSecond: all,
  });
  assertMentions(text, `${all / 1e9} GB/s and ${ms(tAll, 1)} for the same gather`, "all eight GPUs per server");
});

test("exercise: nccl-tests busbw conversions", () => {
  assertMentions(text, `= ${(180 * busBandwidthFactor("all-reduce", 8)).toFixed(0)}$ GB/s`, "all-reduce busbw");
  assertMentions(text, `= ${(180 * busBandwidthFactor("all-gather", 8)).toFixed(1)}$ GB/s`, "all-gather busbw");
});

test("exercise: ring/tree crossover S*", () => {
  const n = 1024;
  const k = 10;
  const sStar = (alpha * beta * (n - 1 - k)) / (k - (n - 1) / n);
  assertMentions(text, `${(k - (n - 1) / n).toFixed(6)}`, "denominator");
  assertMentions(text, `S^* = ${(sStar / 1e6).toFixed(2)}$ MB`, "crossover");
  // At S*, both algorithms take the same time.
  assertApprox(ring(n, sStar), tree(n, sStar), { abs: 1e-12 });
});

test("exercise: latency share of a 25 MB ring over 1,024 GPUs", () => {
  const lat = 2 * 1023 * alpha;
  const bw = ring(1024, 25e6) - lat;
  assertMentions(text, `= ${(lat * 1000).toFixed(2)}$ ms`, "latency term");
  assertMentions(text, `= ${(bw * 1000).toFixed(2)}$ ms`, "bandwidth term");
  assertMentions(text, `${((lat / ring(1024, 25e6)) * 100).toFixed(1)}% of`, "share");
  assertMentions(text, `the ${ms(ring(1024, 25e6))} total`, "total");
});
