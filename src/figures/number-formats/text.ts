/**
 * How the number-formats widget prints values: exact-looking decimals with a "×10⁻⁵" exponent form
 * for very small and very large magnitudes, powers of two and ten with superscript exponents
 * ("2⁻¹³", "10⁴⁰"), and relative errors as percentages. These keep more digits than the kit's
 * defaults because the widget is about the last digits a format keeps, and print NaN, ±∞ and −0,
 * which are values here; the digits themselves go through the kit (src/figures/kit/format.ts).
 */
import { formatInteger, formatNumber, superscript } from "../kit/format.ts";

/** "2⁻¹³" for 2^-13. */
export function powerOfTwoLabel(exponent: number): string {
  return `2${superscript(exponent)}`;
}

/** "10⁻²⁰" for 10^-20 (the ticks of the logarithmic range axis). */
export function powerOfTenLabel(exponent: number): string {
  return `10${superscript(exponent)}`;
}

/**
 * A value with `digits` significant digits, trailing zeros removed; "×10⁻⁵" exponent form below 1e-3
 * and from 1e6 up. Uses the Unicode minus sign.
 */
export function formatValue(v: number, digits = 6): string {
  if (Number.isNaN(v)) return "NaN";
  if (v === Infinity) return "+∞";
  if (v === -Infinity) return "−∞";
  if (v === 0) return Object.is(v, -0) ? "−0" : "0";
  const abs = Math.abs(v);
  const sign = v < 0 ? "−" : "";
  if (abs < 1e-3 || abs >= 1e6) {
    const [mantissa, exp] = abs.toExponential(digits - 1).split("e") as [string, string];
    const m = mantissa.includes(".") ? mantissa.replace(/0+$/, "").replace(/\.$/, "") : mantissa;
    return `${sign}${m}×10${superscript(Number(exp))}`;
  }
  if (Number.isInteger(abs)) return `${sign}${formatInteger(abs)}`;
  return `${sign}${formatNumber(abs, { significant: digits })}`;
}

/** Relative error as a percentage with 3 significant digits ("0.0244%"), "exact" for 0. */
export function formatRelativeError(rel: number | null): string {
  if (rel === null) return "—";
  if (rel === 0) return "exact";
  const pct = rel * 100;
  if (pct < 1e-3) return `${formatValue(pct, 3)}%`;
  return `${formatNumber(pct, { significant: 3 })}%`;
}
