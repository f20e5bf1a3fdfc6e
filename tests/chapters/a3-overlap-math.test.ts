/**
 * Appendix D (a3-overlap-math): every printed time and ratio is recomputed from src/model's
 * overlapRatios and src/data's H100 figures. Assumptions stated in the text: u = 0.4, 50 GB/s
 * for DP and PP traffic, 450 GB/s (NVLink, one direction) for TP, bf16, s = 4096, b = 1.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { findGpu, findModelPreset, layerParameters, overlapRatios, parseModelConfig, type TrainingSetup } from "../../src/model/index.ts";
import { assertMentions, readChapter } from "../helpers/chapter-text.ts";

const text = readChapter("a3-overlap-math");
const h100 = findGpu("h100-sxm")!;
const u = 0.4;
const Fu = h100.bf16FlopsPerSecond * u;
const nvlink = h100.nvlinkBytesPerSecond / 2;
const bandwidths = { dpBusBytesPerSecond: 50e9, tpBusBytesPerSecond: nvlink, ppBytesPerSecond: 50e9 };
const ratios = (id: string, setup: TrainingSetup) => overlapRatios(findModelPreset(id)!.config, { setup, peakFlopsPerSecond: h100.bf16FlopsPerSecond, mfu: u, bandwidths });
const ms = (s: number, d: number) => `${(s * 1000).toFixed(d)} ms`;
const base = { seqLength: 4096, microBatchSize: 1 };

test("inputs: H100 peak and NVLink per direction", () => {
  assertMentions(text, `${(h100.bf16FlopsPerSecond / 1e12).toFixed(1)} TFLOPS`, "peak");
  assertMentions(text, `$B = ${(nvlink / 1e9).toFixed(0)}$ GB/s inside a server`, "NVLink");
});

test("break-even tokens T* and width h*", () => {
  assertMentions(text, `$T^* = ${Math.round(Fu / 50e9).toLocaleString("en-US").replace(",", "{,}")}$ tokens`, "T*");
  assertMentions(text, `$h = ${Math.round((7 * Fu) / (3 * nvlink)).toLocaleString("en-US").replace(",", "{,}")}$`, "h*");
});

test("DP and ZeRO-1 on Llama 3.1 8B over 64 GPUs", () => {
  const dp = ratios("llama-3.1-8b", { ...base, dp: 64, zeroStage: 0 }).dp!;
  assertMentions(text, `all-reduce takes ${ms(dp.commSeconds, 1)} while the last backward pass takes\n${ms(dp.computeSeconds, 1)}, $R = ${dp.ratio.toFixed(2)}$`, "DP");
  const z1 = ratios("llama-3.1-8b", { ...base, dp: 64, zeroStage: 1 }).dp!;
  assert.ok(Math.abs(z1.computeSeconds - dp.computeSeconds) < 1e-12);
  assertMentions(text, `${ms(z1.commSeconds, 1)} against the same ${ms(z1.computeSeconds, 1)}, $R = ${z1.ratio.toFixed(2)}$`, "ZeRO-1");
});

test("ZeRO-3 on Llama 3.1 8B over 64 GPUs", () => {
  const z3 = ratios("llama-3.1-8b", { ...base, dp: 64, zeroStage: 3 }).zero3!;
  assertMentions(text, `${ms(z3.commSeconds, 2)} of gather per layer against ${ms(z3.computeSeconds, 2)} of forward compute, $R = ${z3.ratio.toFixed(2)}$`, "ZeRO-3");
});

test("TP and PP on Llama 3.1 70B (t = 8, p = 4, d = 16)", () => {
  const setup = { ...base, tp: 8, pp: 4, dp: 16, microbatches: 8 };
  const withSp = ratios("llama-3.1-70b", { ...setup, sequenceParallel: true });
  const noSp = ratios("llama-3.1-70b", { ...setup, sequenceParallel: false });
  assertMentions(text, `${ms(withSp.tp!.commSeconds, 3)} of communication per layer against ${ms(withSp.tp!.computeSeconds, 3)} of compute, $R = ${withSp.tp!.ratio.toFixed(2)}$`, "TP");
  assert.equal(noSp.tp!.ratio, withSp.tp!.ratio, "SP leaves R_TP unchanged");
  assert.ok(Math.abs(withSp.tp!.ratio * 9 - 2) < 0.1, "about 2 across servers");
  assertMentions(text, `the send takes ${ms(withSp.pp!.commSeconds, 3)} against ${ms(withSp.pp!.computeSeconds, 2)} of stage compute, $R = ${withSp.pp!.ratio.toPrecision(2)}$`, "PP with SP");
  assertMentions(text, `${ms(noSp.pp!.commSeconds, 3)}, $R = ${noSp.pp!.ratio.toPrecision(2)}$`, "PP without SP");
});

test("exercises: A100 break-even, SwiGLU layer size and R_TP, faster kernels", () => {
  const a100 = findGpu("a100-sxm-80gb")!;
  const tA = (a100.bf16FlopsPerSecond * 0.4) / 25e9;
  assertMentions(text, `= ${Math.round(tA).toLocaleString("en-US").replace(",", "{,}")}$ tokens`, "A100 T*");
  assertMentions(text, `${(h100.bf16FlopsPerSecond / a100.bf16FlopsPerSecond).toFixed(1)}×`, "FLOP growth");
  assertMentions(text, `${(Fu / 50e9 / tA).toFixed(1)}×`, "break-even growth");
  const arch = parseModelConfig(findModelPreset("llama-3.1-70b")!.config).architecture;
  const lp = layerParameters(arch, 0);
  const pl = lp.total - 2 * arch.hiddenSize; // without the two norms
  assertMentions(text, `= ${pl.toLocaleString("en-US").replace(/,/g, "{,}")}$`, "P_l");
  const rtp = (4 * 8192 * 7 * Fu) / (pl * nvlink);
  assertMentions(text, `= ${rtp.toFixed(2)}$`, "R_TP closed form");
  assertMentions(text, `${(Fu / 1e12).toFixed(2)} \\times 10^{12}`, "Fu");
  assertMentions(text, `${Math.round((1 - 40 / 55) * 100)}% of its time`, "exposed share");
});

test("A100 to H100: FLOPs and NVLink growth", () => {
  const a100 = findGpu("a100-sxm-80gb")!;
  assertMentions(text, `grew\n${(h100.bf16FlopsPerSecond / a100.bf16FlopsPerSecond).toFixed(1)}× while NVLink grew ${(h100.nvlinkBytesPerSecond / a100.nvlinkBytesPerSecond).toFixed(1)}× (${a100.nvlinkBytesPerSecond / 1e9} to ${h100.nvlinkBytesPerSecond / 1e9} GB/s)`, "growth");
});
