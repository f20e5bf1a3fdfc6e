/**
 * Computed values of the chapter "mixed-precision" for its prose: `{=ch10.name}` prints one (see
 * ../exercise-values.ts for the conventions: the value in its unit, how it prints, and a comment
 * that says which model function or stated input it comes from). Pure.
 *
 * Format facts (bits, bias, limits, spacings, rounding) come from the layouts of
 * src/data/number-formats.ts through src/model/number-formats.ts; bytes per parameter from
 * src/model/memory.ts; H100 rates from src/data/gpus.ts.
 */
import { numberFormats, type NumberFormatId } from "../../data/number-formats.ts";
import { bytesPerParameter } from "../memory.ts";
import {
  bytesPerValue,
  dynamicRangeBinades,
  encodeNumber,
  fp8ScaleFactor,
  machineEpsilon,
  maxExponent,
  maxFinite,
  minExponent,
  minSubnormal,
  roundToFormat,
  significantBits,
  spacingAt,
  swampingRatio,
  unitRoundoff,
  valuesPerBinade,
} from "../number-formats.ts";
import { d0, d1, d2, d3, gpu, params, preset, v, type PutValue } from "./put.ts";
import { FP8_KERNEL_EFFICIENCY, KERNEL_EFFICIENCY } from "../step.ts";
import { PUBLISHED_FP8_RUNS } from "../../data/published-runs.ts";
import { fact } from "./facts.ts";

/** Short names of the formats in value names: `ch10.fp32.e`, `ch10.e4m3.m`. */
const SHORT: Record<NumberFormatId, string> = {
  fp32: "fp32",
  tf32: "tf32",
  fp16: "fp16",
  bf16: "bf16",
  "fp8-e4m3": "e4m3",
  "fp8-e5m2": "e5m2",
};

/** x = mantissa · 10^exponent with the mantissa in [1, 10) at `decimals` (as the tables print it). */
function scientific(x: number, decimals: number): { mantissa: number; exponent: number } {
  const [m, e] = x.toExponential(decimals).split("e") as [string, string];
  return { mantissa: Number(m), exponent: Number(e) };
}

export function mixedPrecisionValues(put: PutValue): void {
  /** Puts `<name>Mant` and `<name>Exp` for a number printed as $m \times 10^{e}$. */
  const putScientific = (name: string, x: number, decimals = 2) => {
    const s = scientific(x, decimals);
    put(`${name}Mant`, v(s.mantissa, "", { decimals }));
    put(`${name}Exp`, v(s.exponent, "", d0));
  };

  // Per format: sign, exponent and mantissa bits, bias, values per binade (2^m), storage bits.
  for (const [id, short] of Object.entries(SHORT) as [NumberFormatId, string][]) {
    const f = numberFormats[id];
    put(`ch10.${short}.s`, v(significantBits(id) - f.exponentBits - f.mantissaBits, "bits", d0));
    put(`ch10.${short}.e`, v(f.exponentBits, "bits", d0));
    put(`ch10.${short}.m`, v(f.mantissaBits, "bits", d0));
    put(`ch10.${short}.bias`, v(f.bias, "", d0));
    put(`ch10.${short}.binade`, v(valuesPerBinade(id), "values", d0));
    put(`ch10.${short}.emin`, v(minExponent(id), "", d0));
    // The 0.1 table: the stored value, its relative error and the unit roundoff (3 significant digits).
    const point = encodeNumber(id, 0.1);
    put(`ch10.${short}.pointOne`, v(point.value, "", { significant: 12 }));
    putScientific(`ch10.${short}.pointOneErr`, point.relativeError ?? Number.NaN);
    putScientific(`ch10.${short}.u`, unitRoundoff(id));
  }
  // The 16-bit and 8-bit formats' storage (bf16 and fp16; both fp8 encodings).
  put("ch10.bits16", v(numberFormats.bf16.storageBits, "bits", d0));
  put("ch10.bits8", v(numberFormats["fp8-e4m3"].storageBits, "bits", d0));
  // bf16 is fp32 without its low mantissa bits.
  put("ch10.bf16CutBits", v(numberFormats.fp32.mantissaBits - numberFormats.bf16.mantissaBits, "bits", d0));
  put("ch10.epsRatio", v(machineEpsilon("bf16") / machineEpsilon("fp16"), "", d0));
  put("ch10.bf16Eps", v(machineEpsilon("bf16"), "", { decimals: 7 }));
  put("ch10.tf32Bytes", v(bytesPerValue("tf32"), "bytes", d0));
  put("ch10.bf16Bytes", v(bytesPerValue("bf16"), "bytes", d0));

  // Largest finite values (the fp8 ones are ch10.e4m3Max and ch10.e5m2Max of exercise-values.ts).
  put("ch10.fp16Max", v(maxFinite("fp16"), "", d0));
  putScientific("ch10.fp32Max", maxFinite("fp32"));
  putScientific("ch10.tf32Max", maxFinite("tf32"));
  putScientific("ch10.bf16Max", maxFinite("bf16"));
  // fp16's smallest subnormal, "near 6 × 10^-8" (one significant digit).
  putScientific("ch10.fp16MinSub", minSubnormal("fp16"), 0);
  // E4M3 with an IEEE-style all-ones exponent (reserved): (2 − 2^−3) · 2^(14 − 7).
  const e4 = numberFormats["fp8-e4m3"];
  const ieeeE4m3Max = (2 - 2 ** -e4.mantissaBits) * 2 ** (2 ** e4.exponentBits - 2 - e4.bias);
  put("ch10.e4m3IeeeMax", v(ieeeE4m3Max, "", d0));
  // The NaN pattern's value, 1.875 · 2^8 = 480: fraction all ones at the top exponent.
  put("ch10.e4m3NanMant", v(1 + (2 ** e4.mantissaBits - 1) / 2 ** e4.mantissaBits, "", d3));

  // Exercise on the largest fp8 values: E5M2's reserved all-ones exponent, emax, largest fraction.
  const e5 = numberFormats["fp8-e5m2"];
  put("ch10.e5m2.allOnes", v(2 ** e5.exponentBits - 1, "", d0));
  put("ch10.e5m2.Emax", v(2 ** e5.exponentBits - 2, "", d0));
  put("ch10.e5m2.emax", v(maxExponent("fp8-e5m2"), "", d0));
  put("ch10.e5m2.Fmax", v(2 ** e5.mantissaBits - 1, "", d0));
  put("ch10.e4m3.allOnes", v(2 ** e4.exponentBits - 1, "", d0));
  put("ch10.e4m3.Fmax", v(2 ** e4.mantissaBits - 2, "", d0));

  // The widget's examples: 70000 in bf16; 1e-5 in fp16 and bf16; E4M3's gap at the top of its range.
  put("ch10.bf16Of70000", v(roundToFormat("bf16", 70000), "", d0));
  const rel = (id: NumberFormatId) => encodeNumber(id, 1e-5).relativeError ?? Number.NaN;
  put("ch10.tinyErrorPct", v(100 * Math.max(rel("fp16"), rel("bf16")), "%", d2));
  put("ch10.e4m3TopGap", v(spacingAt("fp8-e4m3", maxFinite("fp8-e4m3")), "", d0));

  // Swamping example: a weight of 0.02 and an update of 1e-5 (stated inputs).
  const w = 0.02;
  const dw = 1e-5;
  const step = (id: NumberFormatId) =>
    roundToFormat(id, roundToFormat(id, w) + roundToFormat(id, dw)) - roundToFormat(id, w);
  put("ch10.fp16UpdateErr", v((100 * (step("fp16") - dw)) / dw, "%", d0));
  put("ch10.fp32UpdateErr", v((100 * Math.abs(step("fp32") - dw)) / dw, "%", d3));
  put("ch10.swampFp16", v(swampingRatio("fp16"), "", d0));
  put("ch10.swampBf16", v(swampingRatio("bf16"), "", d0));

  // Bytes per parameter of Adam (src/model/memory.ts): pure fp32, bf16 mixed precision, and with an
  // fp32 gradient buffer in place of (Megatron-LM) or beside the bf16 gradients.
  const fp32 = bytesPerParameter("fp32");
  const mixed = bytesPerParameter("bf16");
  const sum = (b: { parameters: number; gradients: number; optimizer: number }) =>
    b.parameters + b.gradients + b.optimizer;
  put("ch10.fp32.weightBytes", v(fp32.parameters, "bytes", d0));
  put("ch10.fp32.gradBytes", v(fp32.gradients, "bytes", d0));
  put("ch10.fp32.momentBytes", v(fp32.optimizer, "bytes", d0));
  put("ch10.fp32.totalBytes", v(sum(fp32), "bytes", d0));
  put("ch10.mixed.weightBytes", v(mixed.parameters, "bytes", d0));
  put("ch10.mixed.gradBytes", v(mixed.gradients, "bytes", d0));
  put("ch10.mixed.optimizerBytes", v(mixed.optimizer, "bytes", d0));
  put("ch10.mixed.totalBytes", v(sum(mixed), "bytes", d0));
  put("ch10.mixed.masterBytes", v(bytesPerValue("fp32"), "bytes", d0));
  put("ch10.mixed.momentBytes", v(2 * bytesPerValue("fp32"), "bytes", d0));
  const psi8b = params("llama-3.1-8b");
  const replace = bytesPerParameter("bf16", true, "replace");
  const alongside = bytesPerParameter("bf16", true);
  put("ch10.replaceGB", v((sum(replace) * psi8b) / 1e9, "GB", d1));
  put("ch10.alongsideBytes", v(sum(alongside), "bytes", d0));
  put("ch10.alongsideGB", v((sum(alongside) * psi8b) / 1e9, "GB", d1));
  // DeepSeek-V3's choice: bf16 weights, fp32 gradients, fp32 master, two bf16 moments.
  const ds = {
    weights: bytesPerValue("bf16"),
    gradients: bytesPerValue("fp32"),
    master: bytesPerValue("fp32"),
    moments: 2 * bytesPerValue("bf16"),
  };
  put("ch10.ds.gradBytes", v(ds.gradients, "bytes", d0));
  put("ch10.ds.momentBytes", v(ds.moments, "bytes", d0));
  put("ch10.ds.totalBytes", v(ds.weights + ds.gradients + ds.master + ds.moments, "bytes", d0));
  put("ch10.ds.momentSaving", v(2 * bytesPerValue("fp32") - ds.moments, "bytes", d0));
  put("ch10.ds.gradExtra", v(ds.gradients - bytesPerValue("bf16"), "bytes", d0));
  put("ch10.ds.netSaving", v(sum(mixed) - (ds.weights + ds.gradients + ds.master + ds.moments), "bytes", d0));

  // fp8 ranges, in binades from the smallest subnormal to the largest finite value.
  put("ch10.e4m3Binades", v(dynamicRangeBinades("fp8-e4m3"), "binades", d1));
  put("ch10.e5m2Binades", v(dynamicRangeBinades("fp8-e5m2"), "binades", d1));
  put("ch10.e4m3BinadesRounded", v(dynamicRangeBinades("fp8-e4m3"), "binades", d0));
  // Delayed scaling: amax 3.5 (stated input) gives the scale; a new activation of 5.0 (stated input)
  // overflows it; saturated, it decodes to 448 / scale.
  const scale = fp8ScaleFactor("fp8-e4m3", 3.5);
  put("ch10.e4m3Scale", v(scale, "", d0));
  put("ch10.staleScaled", v(5.0 * scale, "", d0));
  const decoded = roundToFormat("fp8-e4m3", 5.0 * scale, { overflow: "saturate" }) / scale;
  put("ch10.staleDecoded", v(decoded, "", d1));
  put("ch10.staleErrorPct", v((100 * (5.0 - decoded)) / 5.0, "%", d0));

  // DeepSeek-V3 promotes fp8 partial sums to fp32 every N_C = 128 elements of K (cited): over its hidden size.
  const dsHidden = (preset("deepseek-v3").config as { hidden_size: number }).hidden_size;
  put("ch10.deepseekHidden", v(dsHidden, "", d0));
  put("ch10.deepseekPromotions", v(dsHidden / fact("deepseekV3.promotionInterval").value, "", d0));

  // Block-scaled formats: element bits + scale bits / block size (OCP MX, NVFP4; src/data/facts.ts).
  // E2M1 (MXFP4 and NVFP4 elements): 1 sign, 2 exponent and 1 mantissa bit, bias 1, every pattern finite.
  const e2m1Exp = fact("mx.e2m1ExponentBits").value;
  const e2m1Man = fact("mx.e2m1MantissaBits").value;
  const e2m1Bias = fact("mx.e2m1Bias").value;
  const e2m1Bits = 1 + e2m1Exp + e2m1Man;
  put("ch10.e2m1Bits", v(e2m1Bits, "bits", d0));
  const magnitudes: number[] = [];
  for (let e = 0; e < 2 ** e2m1Exp; e++) {
    for (let m = 0; m < 2 ** e2m1Man; m++) {
      const fraction = m / 2 ** e2m1Man;
      magnitudes.push(e === 0 ? fraction * 2 ** (1 - e2m1Bias) : (1 + fraction) * 2 ** (e - e2m1Bias));
    }
  }
  magnitudes.forEach((x, k) => put(`ch10.e2m1Magnitude${k}`, v(x, "", { decimals: 1, trim: true })));
  const mxBlock = fact("mx.blockSize").value;
  const mxScale = fact("mx.scaleBits").value;
  const fp8Bits = 8 * bytesPerValue("fp8-e4m3");
  put("ch10.mxfp8Bits", v(fp8Bits + mxScale / mxBlock, "bits", d2));
  put("ch10.mxfp4Bits", v(e2m1Bits + mxScale / mxBlock, "bits", d2));
  put("ch10.nvfp4Bits", v(e2m1Bits + fp8Bits / fact("nvfp4.blockSize").value, "bits", d1));

  // Roofline of the H100 (src/data/gpus.ts): ridge points, smallest compute-bound square GEMMs.
  const h100 = gpu("h100-sxm");
  const ridgeBf16 = h100.bf16FlopsPerSecond / h100.hbmBytesPerSecond;
  const ridgeFp8 = (h100.fp8FlopsPerSecond ?? Number.NaN) / h100.hbmBytesPerSecond;
  put("ch10.ridgeBf16", v(ridgeBf16, "FLOP/B", d0));
  put("ch10.ridgeFp8", v(ridgeFp8, "FLOP/B", d0));
  // Intensity n/3 (bf16: 2n^3 FLOPs on 6n^2 bytes) and n/2 (fp8 inputs, bf16 output: 4n^2 bytes).
  put("ch10.nBf16", v(3 * ridgeBf16, "", d0));
  put("ch10.nFp8", v(2 * ridgeFp8, "", d0));
  put("ch10.intensityGain", v(3 / 2, "", d1));
  // bf16 Tensor Core peak over the fp32 (non-Tensor-Core) peak, "15 times".
  put("ch10.bf16OverFp32", v(h100.bf16FlopsPerSecond / (h100.fp32FlopsPerSecond ?? Number.NaN), "", d0));
  put("ch10.fp8PeakRatio", v((h100.fp8FlopsPerSecond ?? Number.NaN) / h100.bf16FlopsPerSecond, "", d0));
  // Amdahl bound with GEMMs a fraction f = 0.8 (stated input) of the step, twice as fast.
  put("ch10.amdahl", v(1 / (1 - 0.8 + 0.8 / 2), "", d2));
  // The book's fitted rates (step.ts FP8_KERNEL_EFFICIENCY and KERNEL_EFFICIENCY, appendix C's fp8 fit):
  // the fp8 linear layers' rate over the bf16 one on an H100, and the fp8 runs the fit rests on.
  put(
    "ch10.fp8FittedLinearSpeedup",
    v(
      ((FP8_KERNEL_EFFICIENCY.hopper ?? Number.NaN) * (h100.fp8FlopsPerSecond ?? Number.NaN)) /
        (KERNEL_EFFICIENCY.hopper * h100.bf16FlopsPerSecond),
      "",
      d2,
    ),
  );
  put("ch10.fp8Runs", v(PUBLISHED_FP8_RUNS.length, "runs", d0));
  // Bytes per element of the fp8 projection: fp8 inputs (1 + 1) and a bf16 output (2).
  put("ch10.projBytesCoeff", v(2 * bytesPerValue("fp8-e4m3") + bytesPerValue("bf16"), "", d0));

  // Dynamic loss scaling: PyTorch's GradScaler doubles after 2,000 clean steps (growth_interval,
  // cited in the chapter), so one step in every 2,001 is skipped when the scale sits at the edge.
  const growthInterval = fact("pytorch.gradScalerGrowthInterval").value;
  put("ch10.scalerCycle", v(growthInterval + 1, "steps", d0));
  put("ch10.skippedPct", v(100 / (growthInterval + 1), "%", d2));
}
