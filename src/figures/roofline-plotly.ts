/**
 * The interactive roofline's data: the operations a reader adds (matmul, elementwise, attention),
 * validated and costed by `src/model/roofline.ts`, and the Plotly figure (traces and layout) for a
 * view, as plain JSON. Pure: no DOM, no Plotly import (src/widgets/roofline.ts loads Plotly
 * lazily and draws what this file describes), so the unit tests can check every number.
 */
import type { PlotlyLayout, PlotlyTrace } from "plotly.js-basic-dist-min";
import {
  ModelInputError,
  attainableFlopsPerSecond,
  elementwiseCost,
  fusedAttentionCost,
  matmulCost,
  standardAttentionCost,
  type KernelCost,
} from "../model/index.ts";
import { ROOFLINE_MAX_TOKENS, formatIntensity, formatTflops, type RooflinePoint, type RooflineView } from "./roofline.ts";
import { formatInteger, formatNumber } from "./kit/format.ts";

/** Kinds of operation a reader can add to the chart. */
export type CustomOpKind = "matmul" | "elementwise" | "attn-fused" | "attn-std";

export interface CustomOpField {
  /** Key in {@link CustomOp.values} and the input's `name` suffix. */
  key: string;
  label: string;
  /** Value the field shows when the kind is picked. */
  initial: number;
  max: number;
}

export interface CustomOpKindInfo {
  kind: CustomOpKind;
  /** Text of the kind's `<option>`. */
  name: string;
  fields: readonly [CustomOpField, CustomOpField, CustomOpField];
}

/** Most FLOPs per element an elementwise operation may declare. */
export const MAX_FLOPS_PER_ELEMENT = 100_000;
/** Most operations a reader may add at once (keeps the legend and the list readable). */
export const MAX_CUSTOM_OPS = 8;

const count = (key: string, label: string, initial: number): CustomOpField => ({ key, label, initial, max: ROOFLINE_MAX_TOKENS });

export const CUSTOM_OP_KINDS: readonly CustomOpKindInfo[] = [
  { kind: "matmul", name: "matmul m × n × k", fields: [count("m", "m (rows of A)", 4096), count("n", "n (columns of B)", 4096), count("k", "k (inner size)", 4096)] },
  {
    kind: "elementwise",
    name: "elementwise (reads 1 tensor, writes 1)",
    fields: [count("rows", "rows", 8192), count("width", "width", 4096), { key: "flops", label: "FLOPs per element", initial: 8, max: MAX_FLOPS_PER_ELEMENT }],
  },
  { kind: "attn-fused", name: "attention, fused", fields: [count("heads", "heads", 32), count("seq", "sequence length N", 8192), count("headDim", "head dimension d", 128)] },
  { kind: "attn-std", name: "attention, scores in HBM", fields: [count("heads", "heads", 32), count("seq", "sequence length N", 8192), count("headDim", "head dimension d", 128)] },
];

export function customOpKind(kind: string): CustomOpKindInfo | undefined {
  return CUSTOM_OP_KINDS.find((k) => k.kind === kind);
}

/** An operation the reader added: its kind and the three whole numbers of its fields. */
export interface CustomOp {
  kind: CustomOpKind;
  values: Record<string, number>;
}

export type CustomOpResult = { ok: true; op: CustomOp } | { ok: false; errors: Record<string, string> };

function readWhole(text: string, field: CustomOpField): number | string {
  const cleaned = text.trim().replace(/(?<=\d)[,_ ](?=\d)/g, "");
  const what = field.label.replace(/ \(.*\)$/, "");
  if (cleaned === "") return `Enter ${what}, a whole number.`;
  if (!/^\d+$/.test(cleaned)) return `${what[0]!.toUpperCase()}${what.slice(1)} must be a whole number (no sign, decimals or exponent).`;
  const n = Number(cleaned);
  if (n < 1) return `${what[0]!.toUpperCase()}${what.slice(1)} must be at least 1.`;
  if (n > field.max) return `Enter at most ${formatInteger(field.max)}.`;
  return n;
}

/** Validates the add-an-operation fields (never throws): an operation or a message per field. */
export function readCustomOp(kind: string, raw: Record<string, string>): CustomOpResult {
  const info = customOpKind(kind);
  if (!info) return { ok: false, errors: { kind: "Pick an operation from the list." } };
  const errors: Record<string, string> = {};
  const values: Record<string, number> = {};
  for (const f of info.fields) {
    const v = readWhole(raw[f.key] ?? "", f);
    if (typeof v === "string") errors[f.key] = v;
    else values[f.key] = v;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, op: { kind: info.kind, values } };
}

const n = (x: number): string => formatNumber(x);

/** The operation's name in the legend, list and hover label, e.g. "matmul 4,096×4,096×4,096". */
export function customOpLabel(op: CustomOp): string {
  const v = op.values;
  switch (op.kind) {
    case "matmul":
      return `matmul ${n(v.m!)}×${n(v.n!)}×${n(v.k!)}`;
    case "elementwise":
      return `elementwise ${n(v.rows!)}×${n(v.width!)}, ${n(v.flops!)} FLOP/element`;
    case "attn-fused":
      return `attention, fused (${n(v.heads!)} heads, N = ${n(v.seq!)}, d = ${n(v.headDim!)})`;
    case "attn-std":
      return `attention, scores in HBM (${n(v.heads!)} heads, N = ${n(v.seq!)}, d = ${n(v.headDim!)})`;
  }
}

/** Element size of the view's precision, the one the built-in operations use (bf16: 2 bytes, fp8: 1). */
function bytesPerElementOf(view: RooflineView): number {
  return view.precision === "fp8" ? 1 : 2;
}

function customCost(op: CustomOp, bytesPerElement: number): KernelCost {
  const v = op.values;
  switch (op.kind) {
    case "matmul":
      return matmulCost(v.m!, v.n!, v.k!, bytesPerElement);
    case "elementwise":
      return elementwiseCost(v.rows! * v.width!, 1, 1, v.flops!, bytesPerElement);
    case "attn-fused":
      return fusedAttentionCost({ heads: v.heads!, seq: v.seq!, headDim: v.headDim!, bytesPerElement });
    case "attn-std":
      return standardAttentionCost({ heads: v.heads!, seq: v.seq!, headDim: v.headDim!, bytesPerElement });
  }
}

/**
 * Places a reader's operation on the view's roofline with the model's cost and attainable rate.
 * Throws `ModelInputError` when the model refuses the numbers, or when a result is not a finite
 * positive number (so nothing non-finite ever reaches the chart).
 */
export function placeCustomOp(op: CustomOp, view: RooflineView, index: number): RooflinePoint {
  const cost = customCost(op, bytesPerElementOf(view));
  for (const [k, v] of Object.entries(cost)) {
    if (!Number.isFinite(v) || v <= 0) throw new ModelInputError(k, `${k} is not a finite positive number`);
  }
  const rate = attainableFlopsPerSecond(cost.intensityFlopsPerByte, view.peakFlopsPerSecond, view.bandwidthBytesPerSecond);
  return {
    id: `custom-${index}`,
    label: customOpLabel(op),
    cost,
    attainableFlopsPerSecond: rate,
    bound: cost.intensityFlopsPerByte < view.ridgeFlopsPerByte ? "memory" : "compute",
  };
}

/** One line per point: "label: 2,294 FLOP/byte, compute-bound, 989.4 TFLOPS" (legend, hover, summaries). */
export function describePoint(p: RooflinePoint): string {
  return `${p.label}: ${formatIntensity(p.cost.intensityFlopsPerByte)} FLOP/byte, ${p.bound}-bound, ${formatTflops(p.attainableFlopsPerSecond)} TFLOPS`;
}

/** Colors and font of the page at draw time (CSS variables resolved by the widget). */
export interface RooflineTheme {
  text: string;
  muted: string;
  border: string;
  /** Background of the widget box (paper and plot). */
  surface: string;
  /** Page background (marker outlines, hover label). */
  bg: string;
  fontFamily: string;
  /** Palette variable name → color, for the built-in operations' variables. */
  palette: Record<string, string>;
}

/** CSS variable of each built-in operation's color: the same as the static drawing's. */
export const POINT_COLOR_VARS: Readonly<Record<string, string>> = {
  matmul: "--c-params",
  add: "--c-grads",
  softmax: "--c-acts",
  rmsnorm: "--c-optim",
  "attn-std": "--c-comm",
  "attn-fused": "--c-accent",
};

/** Plotly marker symbols closest to the static drawing's shapes. */
const POINT_SYMBOLS: Readonly<Record<string, string>> = {
  matmul: "square",
  add: "triangle-up",
  softmax: "diamond",
  rmsnorm: "cross",
  "attn-std": "x-thin-open",
  "attn-fused": "circle",
};

/** Short legend names of the built-in operations (the hover label gives the full one). */
const SHORT_NAMES: Readonly<Record<string, string>> = {
  matmul: "MLP matmul",
  add: "residual add",
  softmax: "softmax",
  rmsnorm: "RMSNorm",
  "attn-std": "attention, scores in HBM",
  "attn-fused": "attention, fused",
};

export interface RooflinePlotOptions {
  /** Width of the chart's box in CSS pixels: narrow charts drop Plotly's legend (the list below shows it). */
  widthPx: number;
  /** A touch screen: dragging scrolls the page instead of zooming. */
  coarsePointer: boolean;
  /** Drag pans instead of drawing a zoom box. */
  pan: boolean;
}

export interface RooflinePlot {
  data: PlotlyTrace[];
  layout: PlotlyLayout;
  /** The axes' full ranges in log10 units (what "Reset view" returns to). */
  xRangeLog10: [number, number];
  yRangeLog10: [number, number];
}

const TERA = 1e12;

/**
 * The Plotly figure of a view plus the reader's operations: the roof (bandwidth slope up to the
 * ridge, then the compute ceiling), the ridge point, and one trace per operation. y is in TFLOPS.
 */
export function rooflinePlot(view: RooflineView, custom: readonly RooflinePoint[], theme: RooflineTheme, opts: RooflinePlotOptions): RooflinePlot {
  const points = [...view.points, ...custom];
  const intensities = points.map((p) => p.cost.intensityFlopsPerByte);
  const xMin = Math.min(0.05, Math.min(...intensities) / 3);
  const xMax = Math.max(1e5, Math.max(...intensities) * 3);
  const floor = attainableFlopsPerSecond(xMin, view.peakFlopsPerSecond, view.bandwidthBytesPerSecond);
  const yMin = Math.min(floor, ...points.map((p) => p.attainableFlopsPerSecond)) / 2;
  const yMax = view.peakFlopsPerSecond * 3;
  const ridge = view.ridgeFlopsPerByte;
  const peakT = view.peakFlopsPerSecond / TERA;
  const gpuName = `${view.gpu.name}, ${view.precision}`;
  const narrow = opts.widthPx < 560;
  const data: PlotlyTrace[] = [
    {
      type: "scatter",
      mode: "lines",
      name: `roofline: ${gpuName}`,
      x: [xMin, ridge, xMax],
      y: [floor / TERA, peakT, peakT],
      line: { color: theme.text, width: 2.5 },
      hoverinfo: "skip",
      legendgroup: "roof",
    },
    {
      type: "scatter",
      mode: "lines",
      name: "ridge guide",
      x: [ridge, ridge],
      y: [yMin / TERA, peakT],
      line: { color: theme.muted, width: 1.2, dash: "dash" },
      hoverinfo: "skip",
      showlegend: false,
      legendgroup: "roof",
    },
    {
      type: "scatter",
      mode: "markers+text",
      name: "ridge point",
      x: [ridge],
      y: [peakT],
      text: [`ridge ${formatIntensity(ridge)}`],
      textposition: "bottom right",
      textfont: { color: theme.text, size: 12, family: theme.fontFamily },
      marker: { symbol: "circle-open", size: 13, color: theme.text, line: { color: theme.text, width: 2 } },
      customdata: [[formatIntensity(ridge), formatTflops(view.peakFlopsPerSecond), view.gpu.name, view.precision]],
      hovertemplate:
        "<b>ridge point of the %{customdata[2]} in %{customdata[3]}</b><br>" +
        "%{customdata[0]} FLOP/byte: peak ÷ bandwidth<br>peak %{customdata[1]} TFLOPS<extra></extra>",
      showlegend: false,
      legendgroup: "roof",
      cliponaxis: false,
    },
  ];
  points.forEach((p, i) => {
    const builtIn = p.id in POINT_SYMBOLS;
    const color = builtIn ? theme.palette[POINT_COLOR_VARS[p.id]!] ?? theme.text : theme.text;
    const symbol = builtIn ? POINT_SYMBOLS[p.id]! : "star";
    const open = symbol.endsWith("-open");
    data.push({
      type: "scatter",
      mode: "markers",
      name: builtIn ? SHORT_NAMES[p.id]! : p.label,
      x: [p.cost.intensityFlopsPerByte],
      y: [p.attainableFlopsPerSecond / TERA],
      customdata: [[p.label, formatIntensity(p.cost.intensityFlopsPerByte), formatTflops(p.attainableFlopsPerSecond), p.bound, p.id]],
      hovertemplate:
        "<b>%{customdata[0]}</b><br>arithmetic intensity %{customdata[1]} FLOP/byte<br>" +
        "attainable %{customdata[2]} TFLOPS<br>%{customdata[3]}-bound<extra></extra>",
      marker: {
        symbol,
        size: builtIn ? 12 : 15,
        color,
        line: open ? { color, width: 2.5 } : { color: theme.bg, width: 1 },
      },
      legendgroup: `op-${i}`,
      cliponaxis: false,
    });
  });
  const axisFont = { color: theme.muted, size: narrow ? 11 : 12, family: theme.fontFamily };
  const axis = (title: string, range: [number, number]) => ({
    type: "log" as const,
    range,
    title: { text: title, font: { color: theme.text, size: narrow ? 12 : 13, family: theme.fontFamily }, standoff: 8 },
    gridcolor: theme.border,
    linecolor: theme.muted,
    tickcolor: theme.muted,
    tickfont: axisFont,
    showline: true,
    zeroline: false,
    automargin: true,
    exponentformat: "none" as const,
    dtick: 1, // a label per decade only (the default adds 2 and 5 between them)
  });
  const xRangeLog10: [number, number] = [Math.log10(xMin), Math.log10(xMax)];
  const yRangeLog10: [number, number] = [Math.log10(yMin / TERA), Math.log10(yMax / TERA)];
  const layout: PlotlyLayout = {
    autosize: true,
    height: narrow ? 360 : 440,
    margin: { l: 8, r: 12, t: 12, b: 8 },
    paper_bgcolor: theme.surface,
    plot_bgcolor: theme.surface,
    font: { family: theme.fontFamily, color: theme.text, size: 12 },
    separators: ".,",
    xaxis: axis(narrow ? "FLOP/byte (log)" : "arithmetic intensity (FLOP/byte, log scale)", xRangeLog10),
    yaxis: axis(narrow ? "TFLOPS (log)" : "attainable TFLOPS (log scale)", yRangeLog10),
    showlegend: !narrow,
    legend: { orientation: "h", x: 0, y: -0.18, xanchor: "left", yanchor: "top", font: { color: theme.text, size: 12, family: theme.fontFamily }, bgcolor: theme.surface },
    hovermode: "closest",
    hoverlabel: { bgcolor: theme.bg, bordercolor: theme.border, font: { color: theme.text, family: theme.fontFamily, size: 13 }, align: "left" },
    dragmode: opts.coarsePointer && !opts.pan ? false : opts.pan ? "pan" : "zoom",
  };
  return { data, layout, xRangeLog10, yRangeLog10 };
}

/** The chart's accessible name: what it shows and every point's numbers. */
export function rooflineChartLabel(view: RooflineView, custom: readonly RooflinePoint[]): string {
  const head = `Roofline chart of the ${view.gpu.name} in ${view.precision}, log-log axes: ridge at ${formatIntensity(view.ridgeFlopsPerByte)} FLOP/byte, peak ${formatTflops(view.peakFlopsPerSecond)} TFLOPS.`;
  return `${head} ${[...view.points, ...custom].map(describePoint).join("; ")}.`;
}
