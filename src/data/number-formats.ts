/**
 * Bit layouts of the floating-point formats a training run meets: fp32, tf32, fp16, bf16 and the two
 * OCP fp8 encodings. Every derived quantity (largest finite value, smallest normal, epsilon, …) is
 * computed from these layouts by `src/model/number-formats.ts`, so a wrong limit can only come from a
 * wrong layout here, and each layout names the document that defines it.
 *
 * Imports nothing.
 */

/** Identifier of a floating-point format, as used in widget settings and model calls. */
export type NumberFormatId = "fp32" | "tf32" | "fp16" | "bf16" | "fp8-e4m3" | "fp8-e5m2";

/**
 * How a format spends the bit patterns whose exponent field is all ones.
 * - `"ieee"`: IEEE 754 style. Fraction 0 is ±infinity, every other fraction is NaN.
 * - `"nan-only"`: the OCP fp8 E4M3 style ("fn": finite, NaN). There is no infinity; only the pattern with
 *   exponent and fraction all ones is NaN, and the other all-ones-exponent patterns are ordinary normal numbers.
 */
export type SpecialValueEncoding = "ieee" | "nan-only";

/** One binary floating-point format: 1 sign bit, `exponentBits`, `mantissaBits` stored fraction bits. */
export interface NumberFormatSpec {
  readonly id: NumberFormatId;
  /** Name as the book prints it. */
  readonly label: string;
  readonly exponentBits: number;
  /** Stored fraction bits (the leading 1 of a normal number is implicit and not counted). */
  readonly mantissaBits: number;
  /** Exponent bias: a normal number with exponent field E has the value 2^(E − bias) · 1.f. */
  readonly bias: number;
  /**
   * Bits of memory one value occupies. Equal to 1 + exponentBits + mantissaBits except for tf32, which is a
   * Tensor Core compute format: its 19 significant bits live in a 32-bit fp32 container.
   */
  readonly storageBits: number;
  readonly specials: SpecialValueEncoding;
  /** Whether the defining document specifies subnormal numbers for this format. */
  readonly subnormalsSpecified: boolean;
  /** Bibliography key of the document that defines the layout. */
  readonly source: string;
}

export const numberFormats: Readonly<Record<NumberFormatId, NumberFormatSpec>> = {
  fp32: {
    id: "fp32",
    label: "fp32",
    exponentBits: 8,
    mantissaBits: 23,
    bias: 127,
    storageBits: 32,
    specials: "ieee",
    subnormalsSpecified: true,
    source: "ieee2019floatingpoint", // binary32
  },
  tf32: {
    id: "tf32",
    label: "tf32",
    exponentBits: 8,
    mantissaBits: 10,
    bias: 127,
    storageBits: 32,
    specials: "ieee",
    // NVIDIA describes TF32 as fp32's 8-bit exponent with fp16's 10-bit mantissa; it does not document
    // subnormal behavior, so the book prints no smallest subnormal for it.
    subnormalsSpecified: false,
    source: "nvidia2020ampere",
  },
  fp16: {
    id: "fp16",
    label: "fp16",
    exponentBits: 5,
    mantissaBits: 10,
    bias: 15,
    storageBits: 16,
    specials: "ieee",
    subnormalsSpecified: true,
    source: "ieee2019floatingpoint", // binary16
  },
  bf16: {
    id: "bf16",
    label: "bf16",
    exponentBits: 8,
    mantissaBits: 7,
    bias: 127,
    storageBits: 16,
    specials: "ieee",
    subnormalsSpecified: true,
    source: "kalamkar2019study",
  },
  "fp8-e4m3": {
    id: "fp8-e4m3",
    label: "fp8 E4M3",
    exponentBits: 4,
    mantissaBits: 3,
    bias: 7,
    storageBits: 8,
    specials: "nan-only",
    subnormalsSpecified: true,
    source: "micikevicius2022fp8", // and the OCP OFP8 specification, ocp2023ofp8
  },
  "fp8-e5m2": {
    id: "fp8-e5m2",
    label: "fp8 E5M2",
    exponentBits: 5,
    mantissaBits: 2,
    bias: 15,
    storageBits: 8,
    specials: "ieee",
    subnormalsSpecified: true,
    source: "micikevicius2022fp8", // and the OCP OFP8 specification, ocp2023ofp8
  },
};

/** The formats in the order the book lists them (widest first). */
export const numberFormatIds: readonly NumberFormatId[] = ["fp32", "tf32", "fp16", "bf16", "fp8-e4m3", "fp8-e5m2"];
