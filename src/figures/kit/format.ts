/**
 * The book's number formats, defined once: widgets, the build (numbers computed into the prose) and
 * the prose tests all print numbers through these functions, so "48.2 GB" is rounded the same way in
 * a chapter, a caption, a widget's readout and an exercise's answer box.
 *
 * Conventions (see CONTRIBUTING, "Numbers and units"): en-US digits with thousands separators
 * ("16,384"); decimal units (GB = 1e9 bytes) unless a function says GiB (2^30 bytes); no trailing
 * ".0" where a function says "trimmed". Every function refuses a non-finite input with a RangeError
 * instead of printing "NaN" or "Infinity": the caller must show a message, not garbage.
 */

const formatters = new Map<string, Intl.NumberFormat>();

/** One Intl.NumberFormat per option set (building one per call dominated widget redraws). */
function numberFormat(options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = JSON.stringify(options);
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat("en-US", options);
    formatters.set(key, f);
  }
  return f;
}

function finite(x: number, what: string): number {
  if (!Number.isFinite(x)) throw new RangeError(`${what}: expected a finite number, got ${String(x)}`);
  return x;
}

/** How many digits to keep: `decimals` fixed digits after the point, or `significant` digits. */
export interface Digits {
  /** Exactly this many digits after the decimal point ("4.10" for 2). */
  decimals?: number;
  /** At most this many significant digits ("0.0123" for 3); trailing zeros dropped. */
  significant?: number;
  /** Drop trailing zeros after the point ("4.1" instead of "4.10"); default false for `decimals`. */
  trim?: boolean;
}

/**
 * A plain number: `formatNumber(16384)` → "16,384", `formatNumber(4.1875, { decimals: 2 })` → "4.19",
 * `formatNumber(0.012345, { significant: 3 })` → "0.0123". Without options, integers print exactly
 * and other values with up to 3 decimals.
 */
export function formatNumber(x: number, digits: Digits = {}): string {
  finite(x, "formatNumber");
  if (digits.significant !== undefined) {
    return numberFormat({ maximumSignificantDigits: digits.significant }).format(x);
  }
  if (digits.decimals !== undefined) {
    const min = digits.trim ? 0 : digits.decimals;
    return numberFormat({ minimumFractionDigits: min, maximumFractionDigits: digits.decimals }).format(x);
  }
  return numberFormat({ maximumFractionDigits: 3 }).format(x);
}

/** A whole number with separators: 1128.6 → "1,129". */
export function formatInteger(x: number): string {
  return numberFormat({ maximumFractionDigits: 0 }).format(finite(x, "formatInteger"));
}

/** A fraction as a percentage: 0.4216 → "42.2%" (one decimal unless `decimals` says otherwise). */
export function formatPercent(fraction: number, decimals = 1): string {
  finite(fraction, "formatPercent");
  return `${numberFormat({ minimumFractionDigits: 0, maximumFractionDigits: decimals }).format(fraction * 100)}%`;
}

/** A parameter or token count with a suffix, three significant digits: 8.03e9 → "8.03B". */
export function formatCount(n: number): string {
  finite(n, "formatCount");
  const units: [number, string][] = [
    [1e12, "T"],
    [1e9, "B"],
    [1e6, "M"],
    [1e3, "k"],
  ];
  for (const [scale, suffix] of units) {
    if (Math.abs(n) >= scale * 0.9995) return `${Number((n / scale).toPrecision(3))}${suffix}`;
  }
  return formatInteger(n);
}

export type ByteUnit = "B" | "kB" | "MB" | "GB" | "TB" | "KiB" | "MiB" | "GiB" | "TiB";

const BYTE_SCALE: Record<ByteUnit, number> = {
  B: 1,
  kB: 1e3,
  MB: 1e6,
  GB: 1e9,
  TB: 1e12,
  KiB: 2 ** 10,
  MiB: 2 ** 20,
  GiB: 2 ** 30,
  TiB: 2 ** 40,
};

/**
 * Bytes in a given unit: `formatBytes(48.2e9, "GB")` → "48.2 GB" (one decimal by default).
 * Without a unit, the largest decimal unit that gives a value ≥ 1 is chosen and three significant
 * digits are kept: 5.333e6 → "5.33 MB", 512e3 → "512 kB", 0 → "0 B".
 */
export function formatBytes(bytes: number, unit?: ByteUnit, digits: Digits = { decimals: 1 }): string {
  finite(bytes, "formatBytes");
  if (unit) return `${formatNumber(bytes / BYTE_SCALE[unit], digits)} ${unit}`;
  const auto: ByteUnit[] = ["TB", "GB", "MB", "kB"];
  const chosen = auto.find((u) => Math.abs(bytes) >= BYTE_SCALE[u] * 0.9995) ?? "B";
  return `${formatNumber(bytes / BYTE_SCALE[chosen], { significant: 3 })} ${chosen}`;
}

/**
 * A duration, in the unit that reads best: 0.0029 → "2.9 ms", 12.4 → "12.4 s", 3.2e-6 → "3.2 µs".
 * `digits` defaults to three significant digits.
 */
export function formatSeconds(seconds: number, digits: Digits = { significant: 3 }): string {
  finite(seconds, "formatSeconds");
  const a = Math.abs(seconds);
  if (a !== 0 && a < 1e-3) return `${formatNumber(seconds * 1e6, digits)} µs`;
  if (a !== 0 && a < 1) return `${formatNumber(seconds * 1e3, digits)} ms`;
  return `${formatNumber(seconds, digits)} s`;
}

/**
 * A duration with fixed decimals, as the data-parallelism chapter and its timelines print it:
 * "3.0 ms" below 100 ms, "852 ms" below 1 s, "1.196 s" below 100 s, "123.4 s" above (unlike
 * `formatSeconds`, which keeps three significant digits and switches to µs).
 */
export function formatDuration(seconds: number): string {
  finite(seconds, "formatDuration");
  const ms = seconds * 1000;
  if (Math.abs(ms) < 100) return `${formatNumber(ms, { decimals: 1 })} ms`;
  if (Math.abs(ms) < 999.5) return `${formatNumber(ms, { decimals: 0 })} ms`;
  return `${formatNumber(seconds, { decimals: Math.abs(seconds) < 100 ? 3 : 1 })} s`;
}

const superscriptChars: Readonly<Record<string, string>> = {
  "-": "⁻",
  "0": "⁰",
  "1": "¹",
  "2": "²",
  "3": "³",
  "4": "⁴",
  "5": "⁵",
  "6": "⁶",
  "7": "⁷",
  "8": "⁸",
  "9": "⁹",
};

/** An integer exponent in superscript digits: 24 → "²⁴", -7 → "⁻⁷" (for "10²⁴", "2⁻¹³"). */
export function superscript(n: number): string {
  return String(n)
    .split("")
    .map((c) => superscriptChars[c] ?? c)
    .join("");
}
