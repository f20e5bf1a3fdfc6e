/**
 * Every number chapter 10 (mixed precision) prints, recomputed from src/model and src/data. The
 * helpers below format values exactly as the chapter writes them; `chapterStrings()` is the list of
 * (expected text, what it is) pairs, so a failing assertion names the string the model computes.
 */
import { describe, it } from "node:test";
import { assertMentions, readChapter } from "../helpers/chapter-text.ts";
import {
  bytesPerParameter,
  countParameters,
  findGpu,
  findModelPreset,
  modelStateBytes,
} from "../../src/model/index.ts";
import {
  dynamicRangeBinades,
  encodeNumber,
  machineEpsilon,
  maxFinite,
  minNormal,
  minSubnormal,
  numberFormat,
  roundToFormat,
  spacingAt,
  summarizeNumberFormat,
  swampingRatio,
  unitRoundoff,
  fp8ScaleFactor,
} from "../../src/model/index.ts";
import type { NumberFormatId } from "../../src/model/index.ts";
import { numberFormatIds } from "../../src/data/number-formats.ts";

const text = readChapter("10-mixed-precision");

/** "1,234" with thousands separators. */
const int = (n: number) => Math.round(n).toLocaleString("en-US");
/** Thousands separators as KaTeX needs them inside math: "1{,}234". */
const mathInt = (n: number) => int(n).replace(/,/g, "{,}");
/** "$1.18 \times 10^{-38}$" body (without dollars), 3 significant digits. */
function sci(x: number, digits = 3): string {
  const [m, e] = x.toExponential(digits - 1).split("e") as [string, string];
  return `${m} \\times 10^{${Number(e)}}`;
}
const log2 = (x: number) => Math.round(Math.log2(x));

/** The cells the formats table prints for a largest finite value. */
function maxCell(id: NumberFormatId): string {
  const v = maxFinite(id);
  return v < 1e6 ? int(v) : `$${sci(v)}$`;
}
/** A power of two with its decimal value: "$2^{-14} \approx 6.10 \times 10^{-5}$", exact when short. */
function powerCell(x: number): string {
  const p = `2^{${log2(x)}}`;
  if (x >= 1e-3 && String(x).length <= 9) return `$${p} = ${x}$`;
  return `$${p} \\approx ${sci(x)}$`;
}

/** Row of the layout-and-resolution table. */
function layoutRow(id: NumberFormatId): string {
  const s = summarizeNumberFormat(id);
  const f = numberFormat(id);
  return `| ${f.label} | 1/${f.exponentBits}/${f.mantissaBits} | ${f.bias} | ${powerCell(s.machineEpsilon)} | ${int(s.valuesPerBinade)} |`;
}

/** Row of the range table. */
function rangeRow(id: NumberFormatId): string {
  const s = summarizeNumberFormat(id);
  const f = numberFormat(id);
  const minNormalCell = id === "tf32" ? `$2^{${log2(s.minNormal)}}$` : powerCell(s.minNormal);
  const minSubCell = s.minSubnormal === null ? "—" : powerCell(s.minSubnormal);
  return `| ${f.label} | ${maxCell(id)} | ${minNormalCell} | ${minSubCell} |`;
}

function pointOneRow(id: NumberFormatId): string {
  const e = encodeNumber(id, 0.1);
  const stored = String(Number(e.value.toPrecision(12)));
  return `| ${numberFormat(id).label} | ${stored} | $${sci(e.relativeError!)}$ | $${sci(unitRoundoff(id))}$ |`;
}

const h100 = findGpu("h100-sxm")!;
const tflops = (flops: number) => flops / 1e12;
const bf16Peak = h100.bf16FlopsPerSecond;
const fp8Peak = h100.fp8FlopsPerSecond!;
const ridgeBf16 = bf16Peak / h100.hbmBytesPerSecond;
const ridgeFp8 = fp8Peak / h100.hbmBytesPerSecond;

const llama = countParameters(findModelPreset("llama-3.1-8b")!.config).total;
const gb = (bytes: number) => `${(bytes / 1e9).toFixed(1)} GB`;

function chapterStrings(): [string, string][] {
  const out: [string, string][] = [];
  // Introduction and costs: H100 peaks (src/data/gpus.ts)
  out.push([`dense peak of ${int(tflops(bf16Peak))} TFLOPS`, "H100 bf16 dense peak"]);
  out.push([`fp8 matrices at ${int(tflops(fp8Peak))} TFLOPS`, "H100 fp8 dense peak"]);
  out.push([`fp32 units manage ${int(tflops(h100.fp32FlopsPerSecond!))} TFLOPS`, "H100 fp32 non-tensor peak"]);
  out.push([`${int(tflops(fp8Peak))} TFLOPS against ${int(tflops(bf16Peak))} TFLOPS, both dense`, "fp8 vs bf16 peaks"]);
  out.push([`${Math.round(bf16Peak / h100.fp32FlopsPerSecond!)} times the H100's fp32`, "bf16 / fp32 peak ratio"]);
  out.push([`twice its tf32 rate`, "bf16 / tf32 = 2"]);
  if (Math.abs(bf16Peak / h100.tf32FlopsPerSecond - 2) > 1e-9) throw new Error("tf32 is not half of bf16");

  // Formats table
  for (const id of numberFormatIds) out.push([layoutRow(id), `layout table row for ${id}`]);
  for (const id of numberFormatIds) out.push([rangeRow(id), `range table row for ${id}`]);
  // 0.1 table
  for (const id of numberFormatIds) out.push([pointOneRow(id), `0.1 row for ${id}`]);

  // prose about formats
  out.push([`ends at ${int(maxFinite("fp16"))}`, "fp16 max"]);
  out.push([`near $6 \\times 10^{-8}$`, "fp16 min subnormal"]);
  if (sci(minSubnormal("fp16"), 1) !== "6 \\times 10^{-8}") throw new Error("fp16 subnormal rounding");
  out.push([`${machineEpsilon("bf16") / machineEpsilon("fp16")} times coarser than fp16's`, "bf16 / fp16 epsilon"]);
  const ieeeE4m3Max = (2 - 2 ** -3) * 2 ** (14 - 7); // E4M3 with the all-ones exponent reserved
  out.push([`raises the maximum from ${ieeeE4m3Max} to ${maxFinite("fp8-e4m3")}`, "E4M3 max: IEEE-style vs OCP"]);

  // widget prose
  out.push([`bf16 stores ${int(roundToFormat("bf16", 70000))}`, "bf16 of 70000"]);
  const rel = encodeNumber("fp16", 1e-5).relativeError! * 100;
  const relBf = encodeNumber("bf16", 1e-5).relativeError! * 100;
  out.push([`within ${Math.max(rel, relBf).toFixed(2)}%`, "fp16/bf16 error at 1e-5"]);
  if (roundToFormat("fp8-e5m2", 1e-5) !== minSubnormal("fp8-e5m2")) throw new Error("E5M2 of 1e-5");
  if (roundToFormat("fp8-e4m3", 1e-5) !== 0) throw new Error("E4M3 of 1e-5");
  out.push([`until it reaches ${spacingAt("fp8-e4m3", 448)} at the top`, "E4M3 spacing at 448"]);

  // swamping
  out.push([`$2^{11} = ${mathInt(swampingRatio("fp16"))}$`, "fp16 swamping ratio"]);
  out.push([`$2^8 = ${swampingRatio("bf16")}$`, "bf16 swamping ratio"]);
  out.push([
    `spacing at 0.02 is $2^{${log2(spacingAt("bf16", 0.02))}} \\approx ${sci(spacingAt("bf16", 0.02))}$`,
    "bf16 spacing at 0.02",
  ]);
  out.push([
    `spacing is $2^{${log2(spacingAt("fp16", 0.02))}} \\approx ${sci(spacingAt("fp16", 0.02))}$`,
    "fp16 spacing at 0.02",
  ]);
  const w = 0.02;
  const dw = 1e-5;
  const step = (id: NumberFormatId) =>
    roundToFormat(id, roundToFormat(id, w) + roundToFormat(id, dw)) - roundToFormat(id, w);
  if (step("bf16") !== 0) throw new Error("bf16 update should vanish");
  out.push([`${Math.round(((step("fp16") - dw) / dw) * 100)}% too large`, "fp16 update error"]);
  out.push([`error of about ${((Math.abs(step("fp32") - dw) / dw) * 100).toFixed(3)}%`, "fp32 update error"]);

  // memory
  const bppFp32 = bytesPerParameter("fp32");
  const bppMixed = bytesPerParameter("bf16");
  const sum = (b: { parameters: number; gradients: number; optimizer: number }) =>
    b.parameters + b.gradients + b.optimizer;
  out.push([`two fp32 moments (8), for ${sum(bppFp32)} bytes`, "fp32 bytes/param"]);
  out.push([`again ${sum(bppMixed)} bytes per parameter`, "mixed bytes/param"]);
  out.push([`$N = ${mathInt(llama)}$`, "Llama-3.1-8B parameters"]);
  out.push([`that is ${gb(modelStateBytes(llama, { precision: "bf16" }).total)} for either recipe`, "8B states"]);
  if (modelStateBytes(llama, { precision: "fp32" }).total !== modelStateBytes(llama, { precision: "bf16" }).total)
    throw new Error("fp32 != mixed");
  const mainGrad = bytesPerParameter("bf16", true, "replace");
  out.push([
    `${sum(mainGrad)} bytes per parameter in its own table, ${gb(modelStateBytes(llama, { precision: "bf16", fp32GradAccum: true, fp32GradBuffer: "replace" }).total)} here`,
    "8B states with fp32 gradients in place of bf16 (Megatron-LM)",
  ]);
  out.push([
    `pays ${sum(bytesPerParameter("bf16", true))} bytes per parameter: ${gb(modelStateBytes(llama, { precision: "bf16", fp32GradAccum: true }).total)}`,
    "8B states with both gradient buffers",
  ]);

  // loss scaling
  out.push([
    `down to $2^{${log2(minSubnormal("fp16") / 2 ** 16)}} \\approx ${sci(minSubnormal("fp16") / 2 ** 16)}$`,
    "smallest gradient surviving with S = 2^16",
  ]);
  out.push([
    `above $65504 / 65536 \\approx ${(maxFinite("fp16") / 2 ** 16).toFixed(4)}$`,
    "largest gradient with S = 2^16",
  ]);
  out.push([`is $2^{-126} \\approx ${sci(minNormal("bf16"))}$`, "bf16 min normal"]);

  // fp8
  out.push([
    `about ${dynamicRangeBinades("fp8-e4m3").toFixed(1)} (E4M3) or ${dynamicRangeBinades("fp8-e5m2").toFixed(1)} (E5M2) binades`,
    "fp8 dynamic ranges",
  ]);
  out.push([`$\\sigma = 448 / 3.5 = ${fp8ScaleFactor("fp8-e4m3", 3.5)}$`, "E4M3 scale for amax 3.5"]);
  out.push([`about ${Math.round(dynamicRangeBinades("fp8-e4m3"))} binades below it`, "E4M3 binades"]);
  const stale = 5.0 * fp8ScaleFactor("fp8-e4m3", 3.5);
  out.push([`Scaled, it is ${stale}, beyond ${maxFinite("fp8-e4m3")}`, "stale-scale overflow"]);
  if (!Number.isNaN(roundToFormat("fp8-e4m3", stale))) throw new Error("E4M3 640 should be NaN");
  const sat = roundToFormat("fp8-e4m3", stale, { overflow: "saturate" }) / fp8ScaleFactor("fp8-e4m3", 3.5);
  out.push([`which decodes as ${sat}: a silent error of ${Math.round(((5 - sat) / 5) * 100)}%`, "saturated decode"]);
  // Transformer Engine's delayed-scaling default and its cast (NVIDIA/TransformerEngine, cited in the chapter).
  out.push(["keeps a history of 1,024 amaxes per tensor and takes their maximum", "TE's amax history"]);
  out.push(["That default dates from Transformer Engine 0.7", "TE version of the default"]);
  out.push(["Transformer Engine's cast saturates", "TE saturates"]);
  const hidden = (findModelPreset("deepseek-v3")!.config as { hidden_size: number }).hidden_size;
  out.push([`hidden size of ${int(hidden)}`, "DeepSeek-V3 hidden size"]);
  out.push([`promotes ${hidden / 128} times per output element`, "promotions per output"]);

  // block-scaled formats
  const bitsPer = (element: number, block: number, scale: number) => element + scale / block;
  out.push([
    `| MXFP8 (E4M3 or E5M2) [@rouhani2023microscaling] | 8 | 32 | 8 (E8M0) | ${bitsPer(8, 32, 8)} |`,
    "MXFP8 bits",
  ]);
  out.push([`| MXFP4 (E2M1) [@rouhani2023microscaling] | 4 | 32 | 8 (E8M0) | ${bitsPer(4, 32, 8)} |`, "MXFP4 bits"]);
  out.push([`| NVFP4 (E2M1) [@nvidia2025nvfp4] | 4 | 16 | 8 (E4M3) | ${bitsPer(4, 16, 8)} |`, "NVFP4 bits"]);

  // roofline
  out.push([
    `ridge sits at ${Math.round(ridgeBf16)} FLOP/B for bf16 and ${Math.round(ridgeFp8)} FLOP/B for fp8`,
    "ridge points",
  ]);
  out.push([`HBM bandwidth of ${h100.hbmBytesPerSecond / 1e12} TB/s`, "H100 HBM bandwidth"]);
  out.push([
    `$n \\approx ${mathInt(3 * ridgeBf16)}$ for bf16 and $n \\approx ${mathInt(2 * ridgeFp8)}$ for fp8`,
    "smallest compute-bound square GEMM",
  ]);
  out.push([`that is ${(1 / (0.2 + 0.8 / 2)).toFixed(2)}×`, "Amdahl bound for f = 0.8"]);

  // exercises
  out.push([
    `$x_{\\max} = (1 + 3/4) \\cdot 2^{15} = 1.75 \\cdot 32{,}768 = ${mathInt(maxFinite("fp8-e5m2"))}$`,
    "E5M2 max derivation",
  ]);
  out.push([
    `$x_{\\max} = (1 + 6/8) \\cdot 2^{8} = 1.75 \\cdot 256 = ${maxFinite("fp8-e4m3")}$`,
    "E4M3 max derivation",
  ]);
  out.push([`$1.875 \\cdot 2^7 = ${ieeeE4m3Max}$`, "IEEE-style E4M3 max"]);
  out.push([`+ 8 (two fp32 moments). ${gb(16 * llama)}`, "exercise: 16 B/param"]);
  out.push([`= 14 bytes per parameter, ${gb((2 + 4 + 4 + 4) * llama)}`, "exercise: DeepSeek-style 14 B/param"]);
  out.push([`$2^8 \\cdot 10^{-4} = ${Number((2 ** 8 * 1e-4).toPrecision(6))}$`, "bf16 lost-update threshold"]);
  out.push([`$2^{11} \\cdot 10^{-4} = ${Number((2 ** 11 * 1e-4).toPrecision(6))}$`, "fp16 lost-update threshold"]);
  out.push([`$2^9 \\cdot 10^{-4} = ${Number((2 ** 9 * 1e-4).toPrecision(6))}$`, "bf16 always-lost threshold"]);
  out.push([`$2^{12} \\cdot 10^{-4} = ${Number((2 ** 12 * 1e-4).toPrecision(6))}$`, "fp16 always-lost threshold"]);
  out.push([`$2^{24} \\cdot 10^{-4} \\approx ${mathInt(2 ** 24 * 1e-4)}$`, "fp32 lost-update threshold"]);
  // loss-scale exercise: largest gradient 4
  const overflows = (S: number) => !Number.isFinite(roundToFormat("fp16", 4 * S));
  const skipped = [16, 15, 14, 13].filter((k) => overflows(2 ** k)).length;
  out.push([
    `so ${["no", "one", "two", "three", "four"][skipped]} steps are skipped and training proceeds at $S = 2^{13} = ${mathInt(2 ** 13)}$`,
    "skipped steps",
  ]);
  if (overflows(2 ** 13)) throw new Error("2^13 should not overflow");
  out.push([`is ${((1 / 2001) * 100).toFixed(2)}% of steps`, "skipped fraction"]);
  const flopsProj = 2 * 4096 ** 3;
  const bytesProj = 4096 * 4096 + 4096 * 4096 + 2 * 4096 * 4096;
  out.push([`= ${mathInt(flopsProj / bytesProj)}$ FLOP/B`, "projection intensity"]);
  out.push([`$8 + 32/128 = ${bitsPer(8, 128, 32)}$`, "DeepSeek tile bits"]);
  return out;
}

describe("chapter 10 (mixed precision) prints the model's numbers", () => {
  for (const [expected, what] of chapterStrings()) {
    it(what, () => assertMentions(text, expected, what));
  }
});
