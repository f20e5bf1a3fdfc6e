/**
 * Overlap appendix (a3-overlap-math): every printed time, ratio and break-even point is recomputed
 * from the step model (stepTime's data-parallel transfers and stage times), the kernel-efficiency
 * constants and the measured bandwidths of src/data/interconnects.ts (see a3-numbers.ts).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { findInterconnect } from "../../src/model/index.ts";
import { assertMentions, readChapter } from "../helpers/chapter-text.ts";
import { a3Numbers } from "./a3-numbers.ts";

const text = readChapter("a3-overlap-math");
const n = a3Numbers();

test("inputs: kernel efficiency, compute rate and measured bus bandwidths", () => {
  assertMentions(text, `${n.ETAH} on H100. So $F$ = ${n.FRATE} TFLOPS`, "F");
  assertMentions(text, `reaches about ${n.RING} GB/s of NVLink's 450 GB/s`, "ring");
  assertMentions(text, `reaches about ${n.NVLS} GB/s [@nvidia2024nccltests212]`, "NVLS");
  assertMentions(text, `assumes ${n.NIC} GB/s achieved`, "NIC");
  assertMentions(text, `$B = \\min(${n.RING}, ${n.NIC}\\,k)$ GB/s`, "group bandwidth");
  assertMentions(text, `gets ${n.EIGHT} GB/s`, "eight per server");
  const net = findInterconnect("h100-sxm")!;
  assert.equal(net.nvlinkRingBusBytesPerSecond, 370e9);
  assert.equal(net.nvlinkNvlsAllReduceBusBytesPerSecond, 480e9);
});

test("data parallelism: fp32 against bf16 gradient all-reduce", () => {
  assertMentions(
    text,
    `the all-reduce takes ${n.DPAR32} against a backward window of ${n.DPWIN},\n$R$ = ${n.RDP32}; in bf16 it takes ${n.DPAR16}, $R$ = ${n.RDP16}`,
    "DP",
  );
  assert.equal(n.RDP32, "$3.76$");
});

test("ZeRO-1: reduce-scatter behind the backward, parameter all-gather behind the next forward (R ≈ 1.9)", () => {
  assertMentions(
    text,
    `reduce-scatter takes ${n.ZRS32} with fp32 gradients ($R$ = ${n.RRS32}) or ${n.ZRS16} in bf16\n($R$ = ${n.RRS16})`,
    "RS",
  );
  assertMentions(
    text,
    `all-gather takes ${n.ZAG} against a first forward pass of ${n.ZAGWIN}: $R_\\text{AG}$ =\n${n.RAG}`,
    "AG",
  );
  assertMentions(text, `still exposes ${n.ZAGEXP} of gather per step`, "exposed gather");
  assert.equal(n.RAG, "$1.88$");
  assertMentions(text, `the ${n.RAG} of the example`, "takeaway");
});

test("ZeRO-3: break-even tokens and two examples", () => {
  assertMentions(
    text,
    `$T^* = F/B$: ${n.TSTAR45} tokens for a group with one rank per server, ${n.TSTAR8} when the\ngroup takes every GPU of each server, and ${n.TSTARNV} inside one server`,
    "T*",
  );
  assertMentions(text, `gathers in ${n.Z3AG} against a forward pass of ${n.Z3WIN}, $R$ = ${n.RZ3}`, "8B ZeRO-3");
  assertMentions(text, `has $R$ = ${n.RZ370} and exposes ${n.Z3EXP} per step`, "70B ZeRO-3");
});

test("tensor and pipeline parallelism with measured bandwidths", () => {
  assertMentions(text, `$t = 8$, $h^*$ = ${n.HLINE}`, "h* line rate");
  assertMentions(
    text,
    `$h^*$ = ${n.HRING}. Plain all-reduces get NVLink SHARP's ${n.NVLS} GB/s: $h^*$ = ${n.HNVLS}`,
    "h* measured",
  );
  assertMentions(text, `$R_\\text{TP}$ = ${n.RTPSP} with sequence parallelism and ${n.RTPNOSP} without`, "R_TP");
  assertMentions(text, `the same layout's ratio would be about ${n.RTPIB}`, "R_TP across servers");
  assertMentions(text, `across servers, ${n.RPPSP} with sequence parallelism and ${n.RPPNOSP} without`, "R_PP");
  assertMentions(text, `peak grew\n${n.PEAKGROWTH}× while NVLink grew ${n.NVGROWTH}× (600 to 900 GB/s)`, "growth");
});

test("exercises", () => {
  assertMentions(text, `efficiency of ${n.ETAA}`, "A100 efficiency");
  assertMentions(
    text,
    `$T^* = F/B = ${n.ETAAFRAC} \\times 312 \\times 10^{12} / (${n.ANIC} \\times 10^9) = ${n.TSTARA}$ tokens`,
    "A100 T*",
  );
  assertMentions(
    text,
    `needs ${n.TSTAR45}: its achieved FLOP rate grew by ${n.FGROWTH}× while the card's bandwidth in this comparison\ngrew by ${n.BGROWTH}×, so the break-even microbatch grew by ${n.TGROWTH}×`,
    "growth",
  );
  assertMentions(text, `= ${n.PL}$. Then`, "P_l");
  assertMentions(text, `${n.FSCI} / (${n.PL} \\cdot ${n.RING} \\times 10^9) = ${n.RTPCLOSED}$`, "R_TP closed form");
  assertMentions(text, `The step model's ${n.RTPSP} is higher`, "model vs closed form");
  assert.ok(Number(n.RTPCLOSED) < Number(n.RTPSP.replace(/\$/g, "")));
  assertMentions(text, `$55/41 = ${n.KFACTOR}$`, "faster kernels");
  assertMentions(text, `so $1 - 41/55 = ${n.EXPSHARE.replace("%", "\\%")}$ of its time`, "exposed share");
});
