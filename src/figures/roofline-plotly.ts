/**
 * The interactive roofline's Plotly figure for a view and the reader's operations, as plain JSON:
 * the traces (the roof, the ridge point, one trace per operation) and the layout, colored from the
 * page's theme, and the chart's accessible name. Pure: no DOM, no Plotly import
 * (src/widgets/roofline/plotly-chart.ts loads Plotly lazily and draws what this file describes),
 * so the unit tests can check every number. The reader's operations are
 * src/figures/roofline-custom-ops.ts.
 */
import type { PlotlyLayout, PlotlyTrace } from "plotly.js-basic-dist-min";
import { attainableFlopsPerSecond } from "../model/index.ts";
import { formatIntensity, formatTflops, type RooflinePoint, type RooflineView } from "./roofline-state.ts";
import { describePoint } from "./roofline-custom-ops.ts";

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
export function rooflinePlot(
  view: RooflineView,
  custom: readonly RooflinePoint[],
  theme: RooflineTheme,
  opts: RooflinePlotOptions,
): RooflinePlot {
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
    const color = builtIn ? (theme.palette[POINT_COLOR_VARS[p.id]!] ?? theme.text) : theme.text;
    const symbol = builtIn ? POINT_SYMBOLS[p.id]! : "star";
    const open = symbol.endsWith("-open");
    data.push({
      type: "scatter",
      mode: "markers",
      name: builtIn ? SHORT_NAMES[p.id]! : p.label,
      x: [p.cost.intensityFlopsPerByte],
      y: [p.attainableFlopsPerSecond / TERA],
      customdata: [
        [
          p.label,
          formatIntensity(p.cost.intensityFlopsPerByte),
          formatTflops(p.attainableFlopsPerSecond),
          p.bound,
          p.id,
        ],
      ],
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
    legend: {
      orientation: "h",
      x: 0,
      y: -0.18,
      xanchor: "left",
      yanchor: "top",
      font: { color: theme.text, size: 12, family: theme.fontFamily },
      bgcolor: theme.surface,
    },
    hovermode: "closest",
    hoverlabel: {
      bgcolor: theme.bg,
      bordercolor: theme.border,
      font: { color: theme.text, family: theme.fontFamily, size: 13 },
      align: "left",
    },
    dragmode: opts.coarsePointer && !opts.pan ? false : opts.pan ? "pan" : "zoom",
  };
  return { data, layout, xRangeLog10, yRangeLog10 };
}

/** The chart's accessible name: what it shows and every point's numbers. */
export function rooflineChartLabel(view: RooflineView, custom: readonly RooflinePoint[]): string {
  const head = `Roofline chart of the ${view.gpu.name} in ${view.precision}, log-log axes: ridge at ${formatIntensity(view.ridgeFlopsPerByte)} FLOP/byte, peak ${formatTflops(view.peakFlopsPerSecond)} TFLOPS.`;
  return `${head} ${[...view.points, ...custom].map(describePoint).join("; ")}.`;
}
