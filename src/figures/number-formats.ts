/**
 * number-formats: one real number stored in fp32, tf32, fp16, bf16, fp8 E4M3 and fp8 E5M2. For each
 * format it draws the bit pattern, the value that comes back, the relative error and the gap to the
 * next representable value; then every format's range on a logarithmic line with the number marked;
 * then, for one chosen format, the representable values around the number on a linear line.
 * Used by the mixed-precision chapter. Every number comes from `src/model/number-formats.ts`.
 *
 * Settings (YAML inside `::: widget number-formats`):
 *   value: 0.1          # the number shown by default (finite; magnitude at most 1e300)
 *   focus: fp8-e4m3     # the format whose representable values the spacing strip draws
 *   saturate: false     # overflow saturates to ±max instead of becoming ±inf (or NaN for E4M3)
 *
 * Drawing uses the kit's `svg()` builder on the element it is given (its ownerDocument), never
 * window/document, so it runs at build time under linkedom and in the browser.
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
  valuesPerBinade,
  type EncodedNumber,
  type NumberFormatId,
} from "../model/index.ts";
import { numberFormatIds } from "../data/number-formats.ts";
import { WidgetSettingsError, defineWidget, settingsObject } from "./widget.ts";
import { dom, setAttrs } from "./kit/dom.ts";
import { looksNumeric, readNumber } from "./kit/field.ts";

export interface NumberFormatsSettings {
  value: number;
  focus: NumberFormatId;
  saturate: boolean;
}

/** Largest magnitude a reader may type; far beyond every format, far below float64 overflow. */
const maxInputMagnitude = 1e300;

export type NumberInputResult = { ok: true; value: number } | { ok: false; message: string };

/**
 * Reads what a reader typed: an optional sign, digits with an optional decimal point and exponent
 * ("-3.5", "1e-5", "65,504"). Never returns NaN or Infinity; anything else is a message.
 */
export function parseNumberInput(text: string): NumberInputResult {
  if (text.trim() === "") return { ok: false, message: "Enter a number, for example 0.1 or -3.5e-4." };
  const value = readNumber(text);
  if (!looksNumeric(text)) {
    return { ok: false, message: `"${text.trim()}" is not a number. Use digits, a point and an optional exponent, for example 6.1e-5.` };
  }
  if (value === null || Math.abs(value) > maxInputMagnitude) return { ok: false, message: "Enter a number of magnitude at most 1e300." };
  return { ok: true, value };
}

export function parseSettings(raw: unknown): NumberFormatsSettings {
  const obj = settingsObject(raw, ["value", "focus", "saturate"]);
  const value = obj.value ?? 0.1;
  if (typeof value !== "number" || !Number.isFinite(value) || Math.abs(value) > maxInputMagnitude) {
    throw new WidgetSettingsError("value", `must be a finite number of magnitude at most 1e300 (got ${JSON.stringify(value)})`);
  }
  const focus = obj.focus ?? "fp8-e4m3";
  if (typeof focus !== "string" || !(numberFormatIds as readonly string[]).includes(focus)) {
    throw new WidgetSettingsError("focus", `must be one of ${numberFormatIds.join(", ")} (got ${JSON.stringify(focus)})`);
  }
  const saturate = obj.saturate ?? false;
  if (typeof saturate !== "boolean") {
    throw new WidgetSettingsError("saturate", `must be true or false (got ${JSON.stringify(saturate)})`);
  }
  return { value, focus: focus as NumberFormatId, saturate };
}

// ---------------------------------------------------------------------------------------------
// Text formatting

const superscriptDigits: Record<string, string> = {
  "-": "⁻", "0": "⁰", "1": "¹", "2": "²", "3": "³", "4": "⁴", "5": "⁵", "6": "⁶", "7": "⁷", "8": "⁸", "9": "⁹",
};

/** "2⁻¹³" for 2^-13. */
function powerOfTwoLabel(exponent: number): string {
  return `2${String(exponent).split("").map((c) => superscriptDigits[c] ?? c).join("")}`;
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
    return `${sign}${m}×10${String(Number(exp)).split("").map((c) => superscriptDigits[c] ?? c).join("")}`;
  }
  if (Number.isInteger(abs)) return `${sign}${abs.toLocaleString("en-US")}`;
  let s = abs.toPrecision(digits);
  if (s.includes("e")) s = String(Number(s));
  if (s.includes(".")) s = s.replace(/0+$/, "").replace(/\.$/, "");
  const [intPart, frac] = s.split(".") as [string, string | undefined];
  const grouped = intPart.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${sign}${grouped}${frac !== undefined ? `.${frac}` : ""}`;
}

/** Significant decimal digits shown for a format's stored value: enough to see its precision. */
function displayDigits(id: NumberFormatId): number {
  return Math.min(12, Math.ceil((numberFormat(id).mantissaBits + 1) * Math.log10(2)) + 2);
}

/** Relative error as a percentage with 3 significant digits ("0.0244%"), "exact" for 0. */
function formatRelativeError(rel: number | null): string {
  if (rel === null) return "—";
  if (rel === 0) return "exact";
  const pct = rel * 100;
  if (pct < 1e-3) return `${formatValue(pct, 3)}%`;
  return `${Number(pct.toPrecision(3))}%`;
}

// ---------------------------------------------------------------------------------------------
// View model: everything the drawing and the text summary need, computed from the model once.

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
    const relation: FormatRow["relation"] = Number.isFinite(stored) && stored === value ? "=" : Number.isFinite(stored) ? "≈" : "→";
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

// ---------------------------------------------------------------------------------------------
// Drawing


/** Layout switch: below this width (CSS px) the rows stack value text under the bits. */
const narrowWidth = 600;


const colors = {
  sign: "var(--c-grads)",
  exponent: "var(--c-params)",
  mantissa: "var(--c-optim)",
  text: "var(--c-text)",
  muted: "var(--c-muted)",
  grid: "var(--c-border)",
  bg: "var(--c-bg)",
  warn: "var(--c-invalid)",
  marker: "var(--c-grads)",
};

/** Appends a `<text>` to `g` and returns it. */
function text(g: Element, x: number, y: number, content: string, opts: { size?: number; weight?: string; fill?: string; anchor?: string } = {}): SVGTextElement {
  const t = dom(g.ownerDocument).svg(
    "text",
    {
      x,
      y,
      "font-size": opts.size ?? 12,
      "font-weight": opts.weight ?? "normal",
      "text-anchor": opts.anchor ?? "start",
      style: `fill:${opts.fill ?? colors.text}`,
    },
    content,
  );
  g.append(t);
  return t;
}

function log10Tick(exp: number): string {
  return `10${String(exp).split("").map((c) => superscriptDigits[c] ?? c).join("")}`;
}

/**
 * Draws the view into `root` (replacing any previous drawing) as one SVG of the given width in CSS
 * pixels. Uses only `root.ownerDocument`.
 */
export function drawNumberFormats(root: Element, view: NumberFormatsView, width = 720): SVGSVGElement {
  const doc = root.ownerDocument;
  for (const old of Array.from(root.querySelectorAll("svg.nf-figure"))) old.remove();
  const b = dom(doc).svg;
  const narrow = width < narrowWidth;
  const pad = 8;

  const svg = b("svg", {
    class: "nf-figure",
    style: "max-width:100%;height:auto",
    role: "img",
    "font-family": "system-ui, -apple-system, 'Segoe UI', sans-serif",
    "aria-label": `How ${formatValue(view.value, 12)} is stored in six floating-point formats: bits, stored value, error and range.`,
  });
  root.append(svg);

  let y = 18;
  text(svg, pad, y, `x = ${formatValue(view.value, 12)}`, { size: 15, weight: "600" });
  const legend = [
    ["sign", colors.sign],
    ["exponent", colors.exponent],
    ["mantissa", colors.mantissa],
  ] as const;
  let lx = narrow ? pad : width - 250;
  const ly = narrow ? y + 20 : y - 10;
  for (const [name, fill] of legend) {
    svg.append(b("rect", { x: lx, y: ly, width: 11, height: 11, style: `fill:${fill}` }));
    text(svg, lx + 15, ly + 10, name, { size: 11, fill: colors.muted });
    lx += 22 + name.length * 6.6;
  }
  y = narrow ? y + 44 : y + 20;

  // --- bits rows
  const labelW = narrow ? 0 : 74;
  const cellW = narrow ? Math.max(6, Math.floor((width - 2 * pad) / 32)) : Math.min(13, Math.floor((width - labelW - 230) / 32));
  const cellH = narrow ? 16 : 18;
  const rowH = narrow ? 64 : 38;
  const bitsX = pad + labelW;
  const textX = narrow ? pad : bitsX + 32 * cellW + 12;
  for (const row of view.rows) {
    const g = b("g", { class: "nf-row", "data-format": row.id, transform: `translate(0,${y})` });
    svg.append(g);
    const bitsY = narrow ? 22 : 0;
    if (narrow) {
      text(g, pad, 13, row.label, { size: 13, weight: "600" });
      text(g, pad + 78, 13, `${row.relation} ${row.storedText}`, { size: 13 }).setAttribute("class", "nf-stored");
    } else {
      text(g, pad, 13, row.label, { size: 13, weight: "600" });
    }
    const bits = [
      ...row.fields.sign.split("").map((b) => [b, colors.sign] as const),
      ...row.fields.exponent.split("").map((b) => [b, colors.exponent] as const),
      ...row.fields.mantissa.split("").map((b) => [b, colors.mantissa] as const),
    ];
    bits.forEach(([bit, fill], i) => {
      g.append(b("rect", { x: bitsX + i * cellW, y: bitsY, width: cellW - 1, height: cellH, rx: 1.5, style: `fill:${fill};fill-opacity:${bit === "1" ? 1 : 0.22}` }));
      if (cellW >= 9) {
        text(g, bitsX + i * cellW + (cellW - 1) / 2, bitsY + cellH - 4.5, bit, {
          size: Math.min(11, cellW - 2),
          anchor: "middle",
          fill: bit === "1" ? colors.bg : colors.text,
        }).setAttribute("font-family", "ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace");
      }
    });
    for (let i = 0; i < row.paddingBits; i++) {
      g.append(b("rect", { x: bitsX + (bits.length + i) * cellW + 0.5, y: bitsY + 0.5, width: cellW - 2, height: cellH - 1, style: `fill:none;stroke:${colors.muted};stroke-dasharray:2 2` }));
    }
    const detail = `${row.errorText === "exact" ? "exact" : `error ${row.errorText}`} · gap ${row.gapText}${row.status ? ` · ${row.status}` : ""}`;
    if (narrow) {
      text(g, pad, bitsY + cellH + 15, detail, { size: 11.5, fill: row.status.startsWith("overflow") || row.status.startsWith("underflow") ? colors.warn : colors.muted }).setAttribute("class", "nf-detail");
    } else {
      text(g, textX, 12, `${row.relation} ${row.storedText}`, { size: 13 }).setAttribute("class", "nf-stored");
      text(g, textX, 27, detail, { size: 11, fill: row.status.startsWith("overflow") || row.status.startsWith("underflow") ? colors.warn : colors.muted }).setAttribute("class", "nf-detail");
    }
    y += rowH;
  }

  // --- range on a log10 axis
  y += 14;
  text(svg, pad, y, narrow ? "Range of each format (log scale)" : "Range of each format (logarithmic: powers of ten)", { size: 12.5, weight: "600" });
  y += 26;
  const axisFrom = -46;
  const axisTo = 40;
  const rangeLabelW = narrow ? 56 : 74;
  const ax0 = pad + rangeLabelW;
  const ax1 = width - pad - 4;
  const sx = (l: number) => ax0 + ((Math.min(Math.max(l, axisFrom), axisTo) - axisFrom) / (axisTo - axisFrom)) * (ax1 - ax0);
  const barH = 10;
  const barGap = 16;
  const rangeTop = y;
  for (const row of view.rows) {
    const g = b("g", { class: "nf-range", "data-format": row.id, transform: `translate(0,${y})` });
    svg.append(g);
    text(g, pad, barH, row.label, { size: 11 });
    g.append(b("rect", { x: ax0, y: 0, width: ax1 - ax0, height: barH, style: `fill:${colors.grid};fill-opacity:${0.35}` }));
    const subFrom = numberFormat(row.id).subnormalsSpecified ? row.log10MinSubnormal : row.log10MinNormal;
    g.append(b("rect", { class: "nf-subnormal", x: sx(subFrom), y: 0, width: Math.max(1, sx(row.log10MinNormal) - sx(subFrom)), height: barH, style: `fill:${colors.exponent};fill-opacity:${0.35}` }));
    g.append(b("rect", { class: "nf-normal", x: sx(row.log10MinNormal), y: 0, width: Math.max(1, sx(row.log10Max) - sx(row.log10MinNormal)), height: barH, style: `fill:${colors.exponent}` }));
    y += barGap;
  }
  const rangeBottom = y - barGap + barH;
  // ticks
  for (let e = -40; e <= 40; e += narrow ? 20 : 10) {
    const x = sx(e);
    svg.append(b("line", { x1: x, x2: x, y1: rangeTop - 2, y2: rangeBottom + 3, style: `stroke:${colors.muted};stroke-width:${0.5};stroke-opacity:${0.6}` }));
    text(svg, x, rangeBottom + 15, log10Tick(e), { size: 10.5, anchor: "middle", fill: colors.muted });
  }
  if (view.log10Value !== null) {
    const x = sx(view.log10Value);
    svg.append(b("line", { class: "nf-marker", x1: x, x2: x, y1: rangeTop - 6, y2: rangeBottom + 3, style: `stroke:${colors.marker};stroke-width:${2}` }));
    text(svg, x, rangeTop - 9, "|x|", { size: 11, anchor: "middle", fill: colors.marker, weight: "600" });
  }
  y = rangeBottom + 34;
  if (narrow) {
    text(svg, pad, y, "faint: subnormal · solid: normal", { size: 10.5, fill: colors.muted });
    y += 14;
    text(svg, pad, y, "grey track: overflow or underflow", { size: 10.5, fill: colors.muted });
  } else {
    text(svg, ax0, y, "faint: subnormal · solid: normal · grey track: overflow or underflow", { size: 10.5, fill: colors.muted });
  }

  // --- spacing strip for the focus format
  y += 26;
  const s = view.strip;
  text(svg, pad, y, `Representable ${s.label} values near |x|`, { size: 12.5, weight: "600" });
  y += 30;
  const lx0 = pad + 6;
  const lx1 = width - pad - 6;
  const lin = (v: number) => lx0 + ((Math.min(Math.max(v, s.from), s.to) - s.from) / (s.to - s.from)) * (lx1 - lx0);
  svg.append(b("line", { x1: lx0, x2: lx1, y1: y, y2: y, style: `stroke:${colors.muted}` }));
  if (s.to > s.maxFinite) {
    svg.append(b("rect", { class: "nf-overflow", x: lin(s.maxFinite), y: y - 12, width: Math.max(0, lx1 - lin(s.maxFinite)), height: 24, style: `fill:${colors.warn};fill-opacity:${0.15}` }));
  }
  if (s.dense) {
    svg.append(b("rect", { class: "nf-dense", x: lx0, y: y - 8, width: Math.max(0, lin(Math.min(s.to, s.maxFinite)) - lx0), height: 16, style: `fill:${colors.mantissa};fill-opacity:${0.5}` }));
  } else {
    for (const t of s.ticks) {
      svg.append(b("line", { class: "nf-tick", x1: lin(t), x2: lin(t), y1: y - 8, y2: y + 8, style: `stroke:${colors.mantissa};stroke-width:${1.5}` }));
    }
  }
  for (const p of s.binadeEdges) {
    const exp = Math.round(Math.log2(p));
    text(svg, lin(p), y + 24, powerOfTwoLabel(exp), { size: 10.5, anchor: "middle", fill: colors.muted });
    svg.append(b("line", { x1: lin(p), x2: lin(p), y1: y + 8, y2: y + 13, style: `stroke:${colors.muted}` }));
  }
  text(svg, lx0, y + 24, formatValue(s.from, 4), { size: 10.5, anchor: "start", fill: colors.muted });
  text(svg, lx1, y + 24, formatValue(s.to, 4), { size: 10.5, anchor: "end", fill: colors.muted });
  // input (triangle above) and stored value (dot on the line)
  const ix = lin(s.input);
  svg.append(b("path", { class: "nf-input", d: `M${ix},${y - 10} l-5,-8 h10 z`, style: `fill:${colors.marker}` }));
  if (s.stored !== null) {
    svg.append(b("circle", { class: "nf-stored-dot", cx: lin(s.stored), cy: y, r: 4.5, style: `fill:${colors.bg};stroke:${colors.marker};stroke-width:${2}` }));
  }
  y += 44;
  const perBinade = valuesPerBinade(s.id);
  const noteLines = s.dense
    ? [`${s.label} has ${perBinade.toLocaleString("en-US")} values per power of two here:`, "too dense to draw one by one."]
    : [`${s.count} values shown; the gap doubles at each power of two.`, `▼ your number, ○ the value ${s.label} stores.`];
  if (narrow) {
    const note = text(svg, pad, y, "", { size: 11, fill: colors.muted });
    note.setAttribute("class", "nf-strip-note");
    noteLines.forEach((line, i) => note.append(b("tspan", { x: pad, dy: i === 0 ? 0 : 14 }, line)));
    y += 14 * (noteLines.length - 1) + 10;
  } else {
    text(svg, pad, y, noteLines.join(" "), { size: 11, fill: colors.muted }).setAttribute("class", "nf-strip-note");
    y += 10;
  }

  setAttrs(svg, { viewBox: `0 0 ${width} ${y}`, width, height: y });
  return svg;
}

/** Builds the controls (disabled until the browser entry enables them), figure and live region. */
function renderStatic(root: Element, settings: NumberFormatsSettings): void {
  const doc = root.ownerDocument;
  const idBase = root.getAttribute("id") ?? "number-formats";
  const { el } = dom(doc);
  const box = el("div", { class: "number-formats" });
  const controls = el("div", { class: "widget-controls" });

  const valueField = el("div", { class: "widget-field" });
  valueField.append(
    el("label", { for: `${idBase}-value` }, "Number"),
    el("input", {
      id: `${idBase}-value`,
      name: "value",
      type: "text",
      inputmode: "decimal",
      autocomplete: "off",
      spellcheck: "false",
      value: String(settings.value),
      "aria-describedby": `${idBase}-value-message`,
      disabled: "",
    }),
    el("p", { class: "widget-message", id: `${idBase}-value-message`, role: "alert" }),
  );

  const magnitude = settings.value === 0 ? 0 : Math.log10(Math.abs(settings.value));
  const sliderField = el("div", { class: "widget-field" });
  sliderField.append(
    el("label", { for: `${idBase}-magnitude` }, "Magnitude (drag: powers of ten)"),
    el("input", {
      id: `${idBase}-magnitude`,
      name: "magnitude",
      type: "range",
      min: "-12",
      max: "6",
      step: "0.01",
      value: String(Math.min(6, Math.max(-12, Number(magnitude.toFixed(2))))),
      "aria-valuetext": formatValue(Math.abs(settings.value), 6),
      disabled: "",
    }),
  );

  const focusField = el("div", { class: "widget-field" });
  const selectEl = el("select", { id: `${idBase}-focus`, name: "focus", disabled: "" });
  for (const id of numberFormatIds) {
    const option = el("option", { value: id }, numberFormat(id).label);
    if (id === settings.focus) option.setAttribute("selected", "");
    selectEl.append(option);
  }
  focusField.append(el("label", { for: `${idBase}-focus` }, "Spacing strip for"), selectEl);

  const satField = el("div", { class: "widget-field widget-check", style: "flex-direction: row; align-items: center; gap: 0.5rem" });
  const checkbox = el("input", { id: `${idBase}-saturate`, name: "saturate", type: "checkbox", disabled: "" });
  if (settings.saturate) checkbox.setAttribute("checked", "");
  satField.append(checkbox, el("label", { for: `${idBase}-saturate` }, "Saturate on overflow (clamp to ±max instead of ±∞ or NaN)"));

  controls.append(valueField, sliderField, focusField, satField);
  const figure = el("div", { class: "nf-canvas" });
  const view = numberFormatsView(settings);
  drawNumberFormats(figure, view, 720);
  const live = el("p", { class: "visually-hidden", "aria-live": "polite" }, summarizeView(view));
  box.append(controls, figure, live);
  root.append(box);
}

export const numberFormatsWidget = defineWidget<NumberFormatsSettings>({
  description: "stores one number in fp32, tf32, fp16, bf16, fp8 E4M3 and E5M2: bits, error, range and spacing",
  parseSettings,
  renderStatic,
});
