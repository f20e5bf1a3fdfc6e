/**
 * Limits, rounding and bit patterns of the floating-point formats in `src/data/number-formats.ts`.
 *
 * What it is for: the mixed-precision chapter prints the range and resolution of each format and its
 * `number-formats` widget shows how one real number is stored in each of them. Both read every value from
 * here, so the chapter, the widget and the tests cannot disagree.
 *
 * What it guards against: rounding done with `Math.log2` and floating-point tricks that are off by one
 * ulp at binade edges, and overflow rules copied from the wrong format (fp8 E4M3 has no infinity).
 * The rounding below works on exact float64 arithmetic only: every format here is a subset of float64,
 * scaling by a power of two is exact, and the integer significands stay below 2^53.
 *
 * Conventions:
 * - A normal number with exponent field E (1 ≤ E, not the special all-ones field of an "ieee" format) and
 *   fraction field F has the value (−1)^s · 2^(E − bias) · (1 + F / 2^m); a subnormal (E = 0) has
 *   (−1)^s · 2^(1 − bias) · (F / 2^m). This is IEEE 754 §3.4 [ieee2019floatingpoint], and the same rule
 *   defines the OCP fp8 formats [micikevicius2022fp8].
 * - Rounding is round-to-nearest, ties-to-even, applied as if the exponent range were unbounded; a result
 *   larger than the largest finite value then overflows (IEEE 754 §4.3.1, §7.4). On overflow,
 *   `overflow: "saturate"` returns the largest finite value with the input's sign (the OCP fp8 saturating
 *   mode); `"ieee"` (the default) returns ±infinity where the format has one and NaN for fp8 E4M3, which has
 *   none (the OCP non-saturating mode).
 */
import { numberFormatIds, numberFormats } from "../data/number-formats.ts";
import type { NumberFormatId, NumberFormatSpec } from "../data/number-formats.ts";
import { ModelInputError } from "./errors.ts";

export type { NumberFormatId, NumberFormatSpec } from "../data/number-formats.ts";

/** What happens to a value whose rounded magnitude exceeds the largest finite value. */
export type OverflowMode = "ieee" | "saturate";

/** Class of an encoded value. */
export type FloatClass = "zero" | "subnormal" | "normal" | "infinity" | "nan";

/** Result of {@link encodeNumber}: the stored bits and what they mean. */
export interface EncodedNumber {
  readonly format: NumberFormatId;
  /** The input, as given. */
  readonly input: number;
  /** Bit pattern as an unsigned integer of 1 + exponentBits + mantissaBits bits (19 bits for tf32). */
  readonly bits: number;
  readonly signBit: 0 | 1;
  readonly exponentField: number;
  readonly mantissaField: number;
  /** The value the bits represent (`decodeBits(format, bits)`). */
  readonly value: number;
  readonly class: FloatClass;
  /** The finite input's rounded magnitude exceeded the largest finite value (result is ±inf, NaN or saturated). */
  readonly overflowed: boolean;
  /** A nonzero finite input became ±0. */
  readonly flushedToZero: boolean;
  /** A nonzero finite input landed in the subnormal range (it keeps fewer significant bits). */
  readonly subnormal: boolean;
  /** value − input for finite input and value; null otherwise. */
  readonly absoluteError: number | null;
  /** |value − input| / |input| for nonzero finite input and finite value; null otherwise. */
  readonly relativeError: number | null;
}

/** Options of {@link encodeNumber}. */
export interface EncodeOptions {
  /** Default `"ieee"`. */
  readonly overflow?: OverflowMode;
}

/** The layout of a format, or a `ModelInputError` naming `field` for an unknown id. */
export function numberFormat(id: string, field = "format"): NumberFormatSpec {
  if (!Object.hasOwn(numberFormats, id)) {
    throw new ModelInputError(field, `unknown number format "${id}"; expected one of ${numberFormatIds.join(", ")}`);
  }
  return numberFormats[id as NumberFormatId];
}

/** Number of bits of the pattern itself: 1 + exponentBits + mantissaBits (19 for tf32, 8 for fp8). */
export function significantBits(id: NumberFormatId): number {
  const f = numberFormat(id);
  return 1 + f.exponentBits + f.mantissaBits;
}

/** Bytes one value occupies in memory (tf32 occupies a 4-byte fp32 container). */
export function bytesPerValue(id: NumberFormatId): number {
  return numberFormat(id).storageBits / 8;
}

/** Largest exponent field that encodes finite numbers. */
function maxFiniteExponentField(f: NumberFormatSpec): number {
  const allOnes = 2 ** f.exponentBits - 1;
  return f.specials === "ieee" ? allOnes - 1 : allOnes;
}

/** Largest finite fraction field at the top exponent (E4M3 gives up its all-ones pattern to NaN). */
function maxFiniteMantissaField(f: NumberFormatSpec): number {
  const allOnes = 2 ** f.mantissaBits - 1;
  return f.specials === "ieee" ? allOnes : allOnes - 1;
}

/** Unbiased exponent of the smallest normal binade, emin = 1 − bias. */
export function minExponent(id: NumberFormatId): number {
  return 1 - numberFormat(id).bias;
}

/** Unbiased exponent of the largest finite binade, emax. */
export function maxExponent(id: NumberFormatId): number {
  const f = numberFormat(id);
  return maxFiniteExponentField(f) - f.bias;
}

/**
 * Largest finite value: (1 + F_max / 2^m) · 2^emax. For IEEE-style formats F_max = 2^m − 1, giving
 * (2 − 2^−m) · 2^emax (fp16: 65504). For fp8 E4M3 the top pattern is NaN, so F_max = 2^m − 2 and the
 * maximum is 1.75 · 2^8 = 448 [micikevicius2022fp8].
 */
export function maxFinite(id: NumberFormatId): number {
  const f = numberFormat(id);
  return (1 + maxFiniteMantissaField(f) / 2 ** f.mantissaBits) * 2 ** (maxFiniteExponentField(f) - f.bias);
}

/** Smallest positive normal value, 2^(1 − bias). */
export function minNormal(id: NumberFormatId): number {
  return 2 ** minExponent(id);
}

/** Smallest positive subnormal value, 2^(1 − bias − m). */
export function minSubnormal(id: NumberFormatId): number {
  const f = numberFormat(id);
  return 2 ** (1 - f.bias - f.mantissaBits);
}

/** Machine epsilon: the gap between 1 and the next larger representable value, 2^−m. */
export function machineEpsilon(id: NumberFormatId): number {
  return 2 ** -numberFormat(id).mantissaBits;
}

/** Unit roundoff u = 2^−(m+1): the largest relative error of round-to-nearest in the normal range. */
export function unitRoundoff(id: NumberFormatId): number {
  return 2 ** -(numberFormat(id).mantissaBits + 1);
}

/** Count of representable values in [1, 2): one per fraction pattern, 2^m. */
export function valuesPerBinade(id: NumberFormatId): number {
  return 2 ** numberFormat(id).mantissaBits;
}

/**
 * Binades (factors of two) between the smallest subnormal and the largest finite value,
 * log2(maxFinite / minSubnormal). E4M3: log2(448 / 2^−9) ≈ 17.8; E5M2: log2(57344 / 2^−16) ≈ 31.8.
 */
export function dynamicRangeBinades(id: NumberFormatId): number {
  return Math.log2(maxFinite(id) / minSubnormal(id));
}

/** Exact unbiased exponent floor(log2 |x|) of a finite nonzero float64, read from its bits. */
function float64Exponent(x: number): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const biased = (view.getUint32(0) >>> 20) & 0x7ff;
  if (biased === 0) {
    // float64 subnormal (below 2^-1022): far below every format here; scale up exactly and retry.
    return float64Exponent(x * 2 ** 64) - 64;
  }
  return biased - 1023;
}

/** Round a nonnegative float64 below 2^53 to an integer, ties to even. Exact. */
function roundHalfEven(y: number): number {
  const floor = Math.floor(y);
  const diff = y - floor; // exact: y < 2^53
  if (diff > 0.5) return floor + 1;
  if (diff < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

/**
 * Spacing of representable values (one ulp) for numbers of the binade containing |x|: 2^(e − m) where
 * e = max(floor(log2 |x|), emin). For x = 0 this is the subnormal spacing. Beyond the largest finite value the
 * spacing of the top binade is returned.
 */
export function spacingAt(id: NumberFormatId, x: number): number {
  const f = numberFormat(id);
  if (!Number.isFinite(x)) throw new ModelInputError("x", `spacingAt needs a finite number, got ${x}`);
  const emin = 1 - f.bias;
  const emax = maxFiniteExponentField(f) - f.bias;
  const e = x === 0 ? emin : Math.min(Math.max(float64Exponent(x), emin), emax);
  return 2 ** (e - f.mantissaBits);
}

/** Bit pattern of NaN for a format: the quiet NaN with the top fraction bit set (E4M3: the only NaN, S.1111.111). */
function nanBits(f: NumberFormatSpec): number {
  const expAllOnes = 2 ** f.exponentBits - 1;
  if (f.specials === "nan-only") return expAllOnes * 2 ** f.mantissaBits + (2 ** f.mantissaBits - 1);
  return expAllOnes * 2 ** f.mantissaBits + 2 ** (f.mantissaBits - 1);
}

function infinityBits(f: NumberFormatSpec): number {
  return (2 ** f.exponentBits - 1) * 2 ** f.mantissaBits;
}

function maxFiniteBits(f: NumberFormatSpec): number {
  return maxFiniteExponentField(f) * 2 ** f.mantissaBits + maxFiniteMantissaField(f);
}

/**
 * Decode a bit pattern (unsigned integer of 1 + exponentBits + mantissaBits bits) to its value.
 * Throws `ModelInputError("bits")` for a pattern outside that range or not an integer.
 */
export function decodeBits(id: NumberFormatId, bits: number): number {
  const f = numberFormat(id);
  const width = 1 + f.exponentBits + f.mantissaBits;
  if (!Number.isInteger(bits) || bits < 0 || bits >= 2 ** width) {
    throw new ModelInputError("bits", `a ${f.label} bit pattern is an integer in [0, 2^${width}), got ${bits}`);
  }
  const mantissaSpan = 2 ** f.mantissaBits;
  const signBit = Math.floor(bits / 2 ** (width - 1));
  const rest = bits - signBit * 2 ** (width - 1);
  const exponentField = Math.floor(rest / mantissaSpan);
  const mantissaField = rest - exponentField * mantissaSpan;
  const sign = signBit === 1 ? -1 : 1;
  const expAllOnes = 2 ** f.exponentBits - 1;
  if (f.specials === "ieee" && exponentField === expAllOnes) {
    return mantissaField === 0 ? sign * Infinity : NaN;
  }
  if (f.specials === "nan-only" && exponentField === expAllOnes && mantissaField === mantissaSpan - 1) {
    return NaN;
  }
  if (exponentField === 0) {
    return sign * mantissaField * 2 ** (1 - f.bias - f.mantissaBits);
  }
  return sign * (mantissaSpan + mantissaField) * 2 ** (exponentField - f.bias - f.mantissaBits);
}

/** Class of a bit pattern. */
export function classifyBits(id: NumberFormatId, bits: number): FloatClass {
  const value = decodeBits(id, bits);
  if (Number.isNaN(value)) return "nan";
  if (!Number.isFinite(value)) return "infinity";
  if (value === 0) return "zero";
  return Math.abs(value) < minNormal(id) ? "subnormal" : "normal";
}

/**
 * Encode a float64 into a format with round-to-nearest-even. NaN maps to the format's NaN; ±infinity maps to
 * ±infinity (or, for E4M3 and under `overflow: "saturate"`, to NaN or ±max as the OCP conversion rules say:
 * saturation clamps infinities too). Never throws for a number input; throws `ModelInputError` for an unknown
 * format or overflow mode.
 */
export function encodeNumber(id: NumberFormatId, x: number, options: EncodeOptions = {}): EncodedNumber {
  const f = numberFormat(id);
  const overflow = options.overflow ?? "ieee";
  if (overflow !== "ieee" && overflow !== "saturate") {
    throw new ModelInputError("overflow", `overflow mode must be "ieee" or "saturate", got "${String(overflow)}"`);
  }
  if (typeof x !== "number") throw new ModelInputError("x", `expected a number, got ${typeof x}`);
  const width = 1 + f.exponentBits + f.mantissaBits;
  const signBit: 0 | 1 = x < 0 || Object.is(x, -0) ? 1 : 0;
  const signOffset = signBit * 2 ** (width - 1);

  let magnitudeBits: number;
  let overflowed = false;
  let flushedToZero = false;
  let subnormal = false;

  if (Number.isNaN(x)) {
    magnitudeBits = nanBits(f);
  } else if (!Number.isFinite(x)) {
    if (overflow === "saturate") magnitudeBits = maxFiniteBits(f);
    else magnitudeBits = f.specials === "ieee" ? infinityBits(f) : nanBits(f);
  } else if (x === 0) {
    magnitudeBits = 0;
  } else {
    const m = f.mantissaBits;
    const emin = 1 - f.bias;
    const e = Math.max(float64Exponent(x), emin);
    const quantum = 2 ** (e - m);
    // Integer significand n in [0, 2^(m+1)]; rounding up to 2^(m+1) carries into the exponent below.
    const n = roundHalfEven(Math.abs(x) / quantum);
    const rounded = n * quantum;
    if (rounded > maxFinite(id)) {
      overflowed = true;
      if (overflow === "saturate") magnitudeBits = maxFiniteBits(f);
      else magnitudeBits = f.specials === "ieee" ? infinityBits(f) : nanBits(f);
    } else if (n === 0) {
      flushedToZero = true;
      magnitudeBits = 0;
    } else if (e === emin && n < 2 ** m) {
      subnormal = true;
      magnitudeBits = n; // exponent field 0, fraction n
    } else {
      // n in [2^m, 2^(m+1)]: field = (e + bias)·2^m + (n − 2^m); n = 2^(m+1) lands on the next binade exactly.
      magnitudeBits = (e + f.bias) * 2 ** m + (n - 2 ** m);
    }
  }

  const bits = signOffset + magnitudeBits;
  const mantissaSpan = 2 ** f.mantissaBits;
  const exponentField = Math.floor(magnitudeBits / mantissaSpan);
  const mantissaField = magnitudeBits - exponentField * mantissaSpan;
  const value = decodeBits(id, bits);
  const finiteBoth = Number.isFinite(x) && Number.isFinite(value);
  return {
    format: id,
    input: x,
    bits,
    signBit,
    exponentField,
    mantissaField,
    value,
    class: classifyBits(id, bits),
    overflowed,
    flushedToZero,
    subnormal,
    absoluteError: finiteBoth ? value - x : null,
    relativeError: finiteBoth && x !== 0 ? Math.abs(value - x) / Math.abs(x) : null,
  };
}

/** The nearest representable value (round-to-nearest-even), i.e. `encodeNumber(id, x, options).value`. */
export function roundToFormat(id: NumberFormatId, x: number, options: EncodeOptions = {}): number {
  return encodeNumber(id, x, options).value;
}

/** Bit fields of a pattern as strings of 0/1, most significant bit first, for display. */
export function bitFields(id: NumberFormatId, bits: number): { sign: string; exponent: string; mantissa: string } {
  const f = numberFormat(id);
  decodeBits(id, bits); // validates the pattern
  const width = 1 + f.exponentBits + f.mantissaBits;
  const all = bits.toString(2).padStart(width, "0");
  return {
    sign: all.slice(0, 1),
    exponent: all.slice(1, 1 + f.exponentBits),
    mantissa: all.slice(1 + f.exponentBits),
  };
}

/**
 * Whether adding `update` to `weight` in format `id` leaves the weight unchanged ("swamping"): the sum
 * rounds back to `round(weight)`. Both inputs are first rounded to the format.
 */
export function updateIsLost(id: NumberFormatId, weight: number, update: number): boolean {
  const w = roundToFormat(id, weight);
  const u = roundToFormat(id, update);
  if (u === 0) return true;
  return roundToFormat(id, w + u) === w;
}

/**
 * Ratio |w| / |Δw| beyond which an update can be lost ("swamping"): 2^(m+1). With 2^k ≤ |w| < 2^(k+1) the gap
 * to the next value away from zero is 2^(k−m), so an update below half of it, 2^(k−m−1) ≤ |w|·2^−(m+1), rounds
 * away. Beyond 2^(m+2) every update is lost, whatever its direction (the gap below an exact power of two is
 * halved). fp16: 2^11 = 2048, as Micikevicius et al. observe [micikevicius2018mixed]; bf16: 2^8 = 256.
 */
export function swampingRatio(id: NumberFormatId): number {
  return 2 ** (numberFormat(id).mantissaBits + 1);
}

/**
 * Every limit of one format, as the chapter's table prints them: the fields of its layout
 * (src/data/number-formats.ts) and what follows from them.
 */
export interface NumberFormatSummary extends Pick<
  NumberFormatSpec,
  "id" | "label" | "exponentBits" | "mantissaBits" | "bias" | "storageBits"
> {
  readonly maxFinite: number;
  readonly minNormal: number;
  /** null where the defining document does not specify subnormals (tf32). */
  readonly minSubnormal: number | null;
  readonly machineEpsilon: number;
  readonly valuesPerBinade: number;
  readonly hasInfinity: boolean;
}

/** Summary of one format. */
export function summarizeNumberFormat(id: NumberFormatId): NumberFormatSummary {
  const f = numberFormat(id);
  return {
    id: f.id,
    label: f.label,
    exponentBits: f.exponentBits,
    mantissaBits: f.mantissaBits,
    bias: f.bias,
    storageBits: f.storageBits,
    maxFinite: maxFinite(id),
    minNormal: minNormal(id),
    minSubnormal: f.subnormalsSpecified ? minSubnormal(id) : null,
    machineEpsilon: machineEpsilon(id),
    valuesPerBinade: valuesPerBinade(id),
    hasInfinity: f.specials === "ieee",
  };
}

/**
 * Per-tensor scale factor for casting to fp8 so that the largest magnitude `amax` maps to
 * 2^−margin · maxFinite, as Transformer Engine's delayed-scaling recipe computes it
 * [nvidia2024transformerengine]: scale = maxFinite · 2^−margin / amax. The stored value is x · scale; the
 * GEMM result is multiplied by 1/scale of each operand. Throws for amax ≤ 0 or a non-finite amax.
 */
export function fp8ScaleFactor(id: NumberFormatId, amax: number, margin = 0): number {
  if (!(Number.isFinite(amax) && amax > 0)) {
    throw new ModelInputError("amax", `amax must be a positive finite number, got ${amax}`);
  }
  if (!Number.isInteger(margin) || margin < 0) {
    throw new ModelInputError("margin", `margin must be a nonnegative integer, got ${margin}`);
  }
  return (maxFinite(id) * 2 ** -margin) / amax;
}
