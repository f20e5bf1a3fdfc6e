/**
 * The number-formats widget's view model: everything the drawing and the screen-reader summary need,
 * computed from src/model/number-formats.ts once per change. For each format, the bits, the stored
 * value, the relative error, the gap to the next value and the overflow or underflow status; the
 * range edges for the logarithmic line; and, for the focus format, the representable values in a
 * window around the number (the spacing strip).
 */
import {
  bitFields,
  decodeBits,
  encodeNumber,
  maxFinite,
  minNormal,
  minSubnormal,
  numberFormat,
  spacingAt,
  type EncodedNumber,
  type NumberFormatId,
} from "../../model/index.ts";
import { numberFormatIds } from "../../data/number-formats.ts";
import type { NumberFormatsSettings } from "./settings.ts";
import { formatRelativeError, formatValue, powerOfTwoLabel } from "./text.ts";

export interface FormatRow {
  id: NumberFormatId;
  label: string;
  encoded: EncodedNumber;
  fields: { sign: string; exponent: string; mantissa: string };
  /** Bits of the container the format is stored in beyond its own pattern (13 for tf32). */
  paddingBits: number;
  storedText: string;
  /** "=" when the stored value equals the input, "≈" otherwise. */
  relation: "=" | "≈" | "→";
  errorText: string;
  /** Gap to the next representable value at the stored value, as "2⁻¹³". */
  gapText: string;
  /** A short status: "overflow → +∞", "flushed to zero", "subnormal", "" … */
  status: string;
  /** log10 of the range edges. */
  log10MinSubnormal: number;
  log10MinNormal: number;
  log10Max: number;
}

export interface SpacingStrip {
  id: NumberFormatId;
  label: string;
  /** Linear window drawn. */
  from: number;
  to: number;
  /** Representable nonnegative values inside the window (empty when `dense`). */
  ticks: number[];
  /** True when the window holds too many values to draw one tick each. */
  dense: boolean;
  /** Number of representable values in the window. */
  count: number;
  /** |input| and |stored| (stored may be ±∞/NaN: then null), clamped to the window for drawing. */
  input: number;
  stored: number | null;
  /** Powers of two inside the window where the spacing changes. */
  binadeEdges: number[];
  maxFinite: number;
}

export interface NumberFormatsView {
  value: number;
  saturate: boolean;
  rows: FormatRow[];
  strip: SpacingStrip;
  /** log10 |value|, or null for 0. */
  log10Value: number | null;
}

/** Significant decimal digits shown for a format's stored value: enough to see its precision. */
function displayDigits(id: NumberFormatId): number {
  return Math.min(12, Math.ceil((numberFormat(id).mantissaBits + 1) * Math.log10(2)) + 2);
}

function statusOf(e: EncodedNumber, saturate: boolean): string {
  if (e.overflowed) {
    if (saturate) return `overflow, saturated to ${e.value < 0 ? "−" : "+"}max`;
    return Number.isNaN(e.value) ? "overflow → NaN (no ∞)" : `overflow → ${e.value < 0 ? "−" : "+"}∞`;
  }
  if (e.flushedToZero) return "underflow → 0";
  if (e.subnormal) return "subnormal";
  return "";
}

const maxTicks = 260;

function spacingStrip(id: NumberFormatId, x: number, encoded: EncodedNumber): SpacingStrip {
  const f = numberFormat(id);
  const ax = Math.abs(x);
  const max = maxFinite(id);
  const emin = 1 - f.bias;
  const emax = Math.floor(Math.log2(max));
  let from: number;
  let to: number;
  if (ax < minNormal(id)) {
    from = 0;
    to = 2 ** (emin + 1);
  } else {
    const k = Math.min(Math.floor(Math.log2(ax)), emax);
    from = 2 ** (k - 1);
    to = 2 ** (k + 1);
    if (ax > max) to = Math.max(to, Math.min(ax * 1.1, 2 ** (emax + 1)));
  }
  // Representable values in [from, to]: count from the layout, list them only when few.
  const ticks: number[] = [];
  const binadeEdges: number[] = [];
  const m = f.mantissaBits;
  // From 0: the subnormals (spacing 2^(emin - m)) plus the first normal binade; else two binades.
  const count = from === 0 ? 2 ** m + 2 ** m + 1 : 2 * 2 ** m + 1;
  const dense = count > maxTicks;
  if (!dense) {
    const step0 = from === 0 ? 2 ** (emin - m) : spacingAt(id, from);
    let v = from;
    while (v <= to && v <= max) {
      if (Number.isFinite(decodeBits(id, encodeNumber(id, v).bits))) ticks.push(v);
      const step = v === 0 ? step0 : spacingAt(id, v);
      v += step;
    }
  }
  for (let p = from === 0 ? 2 ** emin : from * 2; p < to; p *= 2) binadeEdges.push(p);
  const stored = Number.isFinite(encoded.value) ? Math.abs(encoded.value) : null;
  return {
    id,
    label: f.label,
    from,
    to,
    ticks,
    dense,
    count: dense ? count : ticks.length,
    input: ax,
    stored,
    binadeEdges,
    maxFinite: max,
  };
}

export function numberFormatsView(settings: NumberFormatsSettings): NumberFormatsView {
  const { value, saturate } = settings;
  const rows: FormatRow[] = numberFormatIds.map((id) => {
    const f = numberFormat(id);
    const encoded = encodeNumber(id, value, { overflow: saturate ? "saturate" : "ieee" });
    const stored = encoded.value;
    const digits = displayDigits(id);
    const storedText = formatValue(stored, digits);
    const relation: FormatRow["relation"] =
      Number.isFinite(stored) && stored === value ? "=" : Number.isFinite(stored) ? "≈" : "→";
    const gapAt = Number.isFinite(stored) ? stored : Math.sign(value) * maxFinite(id);
    const gap = spacingAt(id, gapAt);
    return {
      id,
      label: f.label,
      encoded,
      fields: bitFields(id, encoded.bits),
      paddingBits: f.storageBits - (1 + f.exponentBits + f.mantissaBits),
      storedText,
      relation,
      errorText: value === 0 ? "exact" : formatRelativeError(encoded.relativeError),
      gapText: powerOfTwoLabel(Math.round(Math.log2(gap))),
      status: statusOf(encoded, saturate),
      log10MinSubnormal: Math.log10(minSubnormal(id)),
      log10MinNormal: Math.log10(minNormal(id)),
      log10Max: Math.log10(maxFinite(id)),
    };
  });
  const focusRow = rows.find((r) => r.id === settings.focus)!;
  return {
    value,
    saturate,
    rows,
    strip: spacingStrip(settings.focus, value, focusRow.encoded),
    log10Value: value === 0 ? null : Math.log10(Math.abs(value)),
  };
}

/** The sentence a screen reader hears after each change. */
export function summarizeView(view: NumberFormatsView): string {
  const parts = view.rows.map((r) => {
    const err = r.errorText === "exact" ? "exactly" : r.errorText === "—" ? "" : `with relative error ${r.errorText}`;
    const status = r.status ? ` (${r.status})` : "";
    return `${r.label} stores ${r.storedText}${err ? ` ${err}` : ""}${status}`;
  });
  return `${formatValue(view.value, 12)}: ${parts.join("; ")}.`;
}
