/**
 * Overlap appendix (a3-overlap-math): every printed time, ratio and break-even point is recomputed
 * from the engine (evaluateScenario's data-parallel transfers and stage times under a framework
 * profile), the kernel-efficiency constants and groupLink's bandwidths (see a3-numbers.ts); and the
 * conclusions the prose draws (what hides, what the framework overlaps by default) are checked.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { evaluateScenario, findInterconnect, type ScenarioLayout } from "../../src/model/index.ts";
import { findFrameworkProfile } from "../../src/data/frameworks.ts";
import { assertMentions, readChapter } from "../helpers/chapter-text.ts";
import { a3Numbers, run, transfer } from "./a3-numbers.ts";

const text = readChapter("a3-overlap-math");
const n = a3Numbers();

test("inputs: kernel efficiency, compute rate and measured bus bandwidths", () => {
  assertMentions(text, `${n.ETAH} on H100. So $F$ = ${n.FRATE} TFLOPS`, "F");
  assertMentions(text, `reaches about ${n.RING} GB/s of NVLink's 450 GB/s`, "ring");
  assertMentions(text, `reaches about ${n.NVLS} GB/s [@nvidia2024nccltests212]`, "NVLS");
  assertMentions(text, `assumes ${n.NIC} GB/s achieved`, "NIC");
  assertMentions(text, `$B = \\min(${n.RING}, ${n.NIC}\\,k)$ GB/s`, "group bandwidth");
  assertMentions(
    text,
    `one rank per server gets ${n.NIC} GB/s and one that takes all eight GPUs of each server gets ${n.EIGHT} GB/s`,
    "placements",
  );
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
  assert.equal(n.RDP32, "$4.77$");
  assertMentions(
    text,
    `Without the flag, Megatron-LM's default, all ${n.DPDEFAULT} of the fp32 all-reduce show`,
    "default",
  );
});

test("the framework defaults the prose states (re-read @sec:inputs if one changes)", () => {
  const megatron = findFrameworkProfile("megatron")!;
  assert.equal(megatron.overlapGradReduce.value, false, "Megatron-LM does not overlap by default");
  assert.equal(megatron.tpCommOverlap.value, false, "--tp-comm-overlap is off by default");
  const fsdp2 = findFrameworkProfile("fsdp2")!;
  assert.equal(fsdp2.overlapGradReduce.value, true, "FSDP2 overlaps by default");
  assert.equal(fsdp2.gradientReduceDtype.value, "fp32", "g = 4 in the ZeRO-3 examples");
  const source = readFileSync("src/model/values/overlap-math.ts", "utf8");
  for (const field of ["nvlinkRingBusBytesPerSecond", "nicBusBytesPerSecond", "interconnect("])
    assert.ok(!source.includes(field), `overlap-math.ts reads ${field}: use groupLink`);
});

test("ZeRO-1: reduce-scatter behind the backward, parameter all-gather behind the next forward (R ≈ 2.4)", () => {
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
  // At the refitted Hopper efficiency even the bf16 reduce-scatter outlasts the backward pass (R > 1).
  assert.ok(Number(n.RRS16.replace(/\$/g, "")) > 1, n.RRS16);
  assertMentions(
    text,
    `does not even hide its reduce-scatter: ${n.ZRS16EXP} of it outlast the backward pass, and it\nstill exposes ${n.ZAGEXP} of gather per step`,
    "exposed reduce-scatter and gather",
  );
  assert.equal(n.RAG, "$2.39$");
  assertMentions(text, `the ${n.RAG} of the example`, "takeaway");
});

test("ZeRO-3: break-even tokens of both windows and two examples", () => {
  assertMentions(
    text,
    `$T^* = F/B$ for the forward window, ${n.TSTAR45} tokens for a group with one rank per server, ${n.TSTAR8} when the group takes every GPU of each server, and ${n.TSTARNV} inside one server; 1.5 times that for the backward window, ${n.TSTAR45B}, ${n.TSTAR8B} and ${n.TSTARNVB} tokens`,
    "T*",
  );
  assertMentions(
    text,
    `layer in ${n.Z3AG} against a forward pass of ${n.Z3WIN}, $R$ = ${n.RZ3}, and gathers again and reduce-scatters in ${n.Z3BWD} against a backward pass of ${n.Z3BWDWIN}, $R$ = ${n.RZ3B}: well hidden, even though ${n.Z3LAT} of each gather`,
    "8B ZeRO-3",
  );
  assertMentions(
    text,
    `has $R$ = ${n.RZ370} forward and ${n.RZ370B} backward and exposes ${n.Z3EXP} per step`,
    "70B ZeRO-3",
  );
  // "Well hidden" and "exposes": the step model's verdicts.
  const small = run("llama-3.1-8b", 64, "fsdp2", { dp: 64, zeroStage: 3 }, 64);
  for (const prefix of ["parameter all-gather (forward", "parameter all-gather (backward"])
    assert.equal(transfer(small, prefix).exposedSeconds, 0, prefix);
  // "Try it": doubling the sequence about halves both ratios; with t = 8 the group has one rank per server
  // and both ratios jump.
  const r = (s: number, layout: ScenarioLayout = { dp: 64, zeroStage: 3 }) => {
    const step = run("llama-3.1-8b", 64, "fsdp2", layout, 64, s);
    return ["parameter all-gather (forward", "parameter all-gather (backward"].map((p) => {
      const t = transfer(step, p);
      return t.secondsPerCall / t.windowSeconds;
    });
  };
  const [f4, b4] = r(4096);
  const [f8, b8] = r(8192);
  assert.ok(f8 / f4 > 0.4 && f8 / f4 < 0.55 && b8 / b4 > 0.4 && b8 / b4 < 0.55, "about half");
  // The widget keeps d = 64 when t becomes 8 (512 GPUs): one sharding rank per server, both ratios above 1.
  const r512 = (s: number) => {
    const step = run("llama-3.1-8b", 512, "fsdp2", { tp: 8, dp: 64, zeroStage: 3 }, 64, s);
    const z = ["parameter all-gather (forward", "parameter all-gather (backward"].map((p) => {
      const t = transfer(step, p);
      return t.secondsPerCall / t.windowSeconds;
    });
    const st = step.stages[0]!;
    return { z, tp: st.tp / 2 / (st.compute / 3), tpExposed: step.breakdown.tp };
  };
  const t8 = r512(8192);
  const t16 = r512(16384);
  assert.ok(t8.z[0]! > 1 && t8.z[1]! > 1, "the ZeRO-3 ratios jump above 1 under TP 8");
  assert.ok(t8.tp < 1 && t8.tpExposed > 0, "the TP row could hide but FSDP2 leaves it exposed");
  assert.ok(t16.z[0]! < 0.5 * t8.z[0]! && t16.z[1]! < 0.5 * t8.z[1]!, "more than half once more");
  assert.ok(t16.tp > 0.75 * t8.tp, "the TP ratio falls far less");
  assertMentions(text, `the two per-layer ratios of @sec:zero3, ${n.RZ3} and ${n.RZ3B}`, "widget opening case");
  // DeepSpeed ZeRO-1 at the opening case: small ratios, every transfer exposed whole (no overlap_comm).
  // (The widget takes the windows from the same step with overlap forced on.)
  const ds = run("llama-3.1-8b", 64, "deepspeed", { dp: 64, zeroStage: 1 }, 64);
  const dsWindows = run("llama-3.1-8b", 64, "deepspeed", { dp: 64, zeroStage: 1, overlapGradReduce: true }, 64);
  assert.equal(ds.dpTransfers.length, 2);
  ds.dpTransfers.forEach((t, i) => {
    assert.ok(t.secondsPerCall / dsWindows.dpTransfers[i]!.windowSeconds < 0.5, t.name);
    assert.equal(t.exposedSeconds, t.secondsPerCall * t.callsPerStep, t.name);
  });
});

test("memory: the 70B example needs recomputation to fit; hybrid sharding at TP 8 does not fit, TP 2 does", () => {
  const ev = (framework: "megatron" | "fsdp2", layout: ScenarioLayout, recompute?: "full") =>
    evaluateScenario({
      model: "llama-3.1-70b",
      cluster: { gpu: "h100-sxm", gpuCount: 64 },
      framework,
      layout,
      recompute,
      batch: { seqLength: 4096, microBatchSize: 1, globalBatch: 64 },
    });
  const gb = (e: { bytesPerGpu: number }) => (e.bytesPerGpu / 1e9).toFixed(1);
  const z0 = ev("megatron", { tp: 8, dp: 8, zeroStage: 0, overlapGradReduce: true });
  const z1 = ev("megatron", { tp: 8, dp: 8, zeroStage: 1, overlapGradReduce: true });
  const z1r = ev("megatron", { tp: 8, dp: 8, zeroStage: 1, gradReduce: "bf16", overlapGradReduce: true }, "full");
  assert.ok(!z0.fits && !z1.fits && z1r.fits);
  assertMentions(
    text,
    `needs ${gb(z0)} GB per GPU and ZeRO-1 ${gb(z1)} GB, against 72 GB usable of an H100's 80 GB; ZeRO-1 with full recomputation fits in ${gb(z1r)} GB`,
    "fit",
  );
  const rs = transfer(z1r.step, "gradient reduce-scatter");
  assert.ok(
    rs.secondsPerCall < rs.windowSeconds && rs.exposedSeconds === 0,
    "bf16 reduce-scatter hides with recomputation",
  );
  assertMentions(
    text,
    `and $${(rs.secondsPerCall / rs.windowSeconds).toFixed(2)}$ in bf16, which hides`,
    "recompute R",
  );
  const hsdp = ev("fsdp2", { tp: 8, dp: 8, zeroStage: 3, hsdp: true });
  const tp2 = ev("fsdp2", { tp: 2, dp: 32, zeroStage: 3 });
  assert.ok(!hsdp.fits && tp2.fits);
  assert.ok(tp2.step.stepSeconds < ev("fsdp2", { tp: 8, dp: 8, zeroStage: 3 }).step.stepSeconds / 2);
  assertMentions(text, `fp32 Adam states, ${gb(hsdp)} GB, which does not fit`, "HSDP");
  assertMentions(text, `fits in ${gb(tp2)} GB, and exposes ${tp2.step.breakdown.dp.toFixed(2)} s`, "TP 2");
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
  assertMentions(
    text,
    `${n.TPOVERLAP} of this layout's ${n.TPSTEP} of exposed tensor-parallel traffic per step remains, all of it the attention block's excess`,
    "TP overlap",
  );
  assertMentions(text, "That is an upper bound", "TP overlap caveat");
  assertMentions(
    text,
    `$R$ = ${n.RTPATTN}, so that block stops hiding above a kernel efficiency of about ${n.ETABREAK}`,
    "attention block",
  );
  assert.ok(Number(n.RTPATTN.replace(/\$/g, "")) > 1, "the attention block's pair outlasts its GEMMs");
  const overlapped = run(
    "llama-3.1-70b",
    64,
    "megatron",
    { tp: 8, pp: 4, dp: 2, zeroStage: 1, tpCommOverlap: true },
    16,
  );
  // TP overlap hides most of it but not all: the attention block's collectives outlast its projections' GEMMs.
  assert.ok(overlapped.breakdown.tp > 0, "something stays exposed");
  assert.ok(
    overlapped.breakdown.tp <
      0.1 * run("llama-3.1-70b", 64, "megatron", { tp: 8, pp: 4, dp: 2, zeroStage: 1 }, 16).breakdown.tp,
  );
  assertMentions(text, `across servers, ${n.RPPSP} with sequence parallelism and ${n.RPPNOSP} without`, "R_PP");
  assertMentions(text, `peak grew\n${n.PEAKGROWTH}× while NVLink grew ${n.NVGROWTH}× (600 to 900 GB/s)`, "growth");
});

test("exercises", () => {
  assertMentions(text, `efficiency of ${n.ETAA}`, "A100 efficiency");
  assertMentions(text, `and ${n.FATFLOPS} TFLOPS / ${n.ANIC} GB/s = ${n.TSTARA} tokens`, "A100 T*");
  assertMentions(
    text,
    `needs ${n.TSTAR45}: its achieved FLOP rate grew by ${n.FGROWTH}× while the card's bandwidth in this comparison\ngrew by ${n.BGROWTH}×, so the break-even microbatch grew by ${n.TGROWTH}×`,
    "growth",
  );
  assertMentions(text, `= ${n.PL}$. Then`, "P_l");
  assertMentions(
    text,
    `with $F$ = ${n.FRATE} TFLOPS and $B$ = ${n.RING} GB/s, which is $${n.RTPCLOSED}$`,
    "R_TP closed form",
  );
  assertMentions(text, `The step model's ${n.RTPSP} is higher`, "model vs closed form");
  assert.ok(Number(n.RTPCLOSED) < Number(n.RTPSP.replace(/\$/g, "")));
  assertMentions(text, `rises from the book's ${n.ETAHINT}% to 65%`, "faster kernels: the Hopper constant");
  assertMentions(text, `65% / ${n.ETAHINT}% = ${n.KFACTOR}`, "faster kernels");
  assertMentions(text, `so 1 − ${n.ETAHINT}/65 = ${n.EXPSHARE} of its time`, "exposed share");
});
