/**
 * activation-curve: activation memory of one microbatch against sequence length, for no,
 * selective and full recomputation, for any model preset. Used by the single-GPU chapter's
 * recomputation section. Every number comes from `trainingMemory` in src/model (one GPU, no
 * parallelism; activations include the fp32 logits and, under recomputation, the working set of
 * the layer being recomputed).
 *
 * Settings (YAML inside `::: widget activation-curve`):
 *   model: llama-3.1-8b   # a preset id of src/data/models.ts
 *   attention: eager      # eager (stores the s × s scores) or flash (FlashAttention)
 *   microBatch: 1         # micro-batch size b, an integer from 1 to 1024
 *   gpu: h100-sxm         # GPU whose memory is drawn as a horizontal line
 *
 * Both axes are logarithmic: a line of slope 1 grows linearly with s, slope 2 quadratically.
 * Marks are built with the kit's `svg()`; the axes are d3-axis, which draws into a d3 selection,
 * so d3-selection stays for those two calls.
 *
 * This file draws the chart and builds the static widget (controls, chart, note); the settings,
 * their validation and the curves are src/figures/activation-curve-state.ts.
 */
import { scaleLog } from "d3-scale";
import { select } from "d3-selection";
import { axisBottom, axisLeft } from "d3-axis";
import { line } from "d3-shape";
import type { Recompute } from "../model/index.ts";
import { defineWidget } from "./widget.ts";
import { dom } from "./kit/dom.ts";
import { numberField, selectField } from "./kit/field.ts";
import { formatInteger } from "./kit/format.ts";
import {
  activationCurves,
  attentionLabels,
  curveSummary,
  formatMemory,
  modelOptions,
  parseActivationCurveSettings,
  recomputeLabels,
  recomputeModes,
  type ActivationCurveSettings,
  type ActivationCurves,
} from "./activation-curve-state.ts";

/** Axis label of a power of ten of bytes: "100 MB", "1 GB", "10 GB", "1 TB". */
export function powerOfTenLabel(bytes: number): string {
  const units: [number, string][] = [
    [1e12, "TB"],
    [1e9, "GB"],
    [1e6, "MB"],
    [1e3, "kB"],
  ];
  for (const [size, unit] of units) if (bytes >= size) return `${Math.round(bytes / size)} ${unit}`;
  return `${Math.round(bytes)} B`;
}

/** Width of the chart's coordinate system when the page does not say otherwise. */
const defaultChartWidth = 640;
/** Below this width the line labels move from the right margin to a legend inside the plot. */
const compactWidth = 480;
const height = 340;
const lineStyle: Readonly<Record<Recompute, string>> = {
  none: "stroke: var(--c-acts); stroke-width: 2.5; fill: none",
  selective: "stroke: var(--c-params); stroke-width: 2.5; fill: none; stroke-dasharray: 7 4",
  full: "stroke: var(--c-optim); stroke-width: 2.5; fill: none; stroke-dasharray: 2 3",
};
const pointFill: Readonly<Record<Recompute, string>> = {
  none: "fill: var(--c-acts)",
  selective: "fill: var(--c-params)",
  full: "fill: var(--c-optim)",
};

/**
 * Replaces the chart inside `container` (an element of the widget) with the curves. `layoutWidth`
 * is the width of the SVG coordinate system; the browser passes the container's width so that
 * text keeps its size on phones (under 480 the labels become a legend inside the plot).
 */
export function drawActivationChart(
  container: Element,
  curves: ActivationCurves,
  layoutWidth = defaultChartWidth,
): void {
  const width = Math.max(300, Math.min(defaultChartWidth, Math.round(layoutWidth)));
  const compact = width < compactWidth;
  const margin = { top: 16, right: compact ? 14 : 118, bottom: 48, left: 62 };
  const doc = container.ownerDocument;
  container.textContent = "";
  const svg = dom(doc).svg("svg", {
    viewBox: `0 0 ${width} ${height}`,
    class: "ac-chart",
    role: "img",
    "aria-label": curveSummary(curves),
    style: `width: 100%; height: auto; max-width: ${width}px; font: 12px system-ui, sans-serif`,
  });
  container.append(svg);

  const all = recomputeModes.flatMap((r) => curves.bytes[r]).concat(curves.gpuBytes);
  const lo = Math.min(...all);
  const hi = Math.max(...all);
  const first = curves.seqLengths[0]!;
  const last = curves.seqLengths[curves.seqLengths.length - 1]!;
  const x = scaleLog()
    .base(2)
    .domain(first === last ? [first / 2, last * 2] : [first, last])
    .range([margin.left, width - margin.right]);
  const y = scaleLog()
    .domain([10 ** Math.floor(Math.log10(lo)), 10 ** Math.ceil(Math.log10(hi))])
    .range([height - margin.bottom, margin.top]);
  const b = dom(doc).svg;
  // d3-axis draws the ticks and needs a d3 selection: the one place this file uses d3-selection.
  const xAxis = b("g", { transform: `translate(0,${height - margin.bottom})` });
  const yAxis = b("g", { transform: `translate(${margin.left},0)` });
  svg.append(xAxis, yAxis);
  select(xAxis).call(
    axisBottom(x)
      .tickValues(compact ? curves.seqLengths.filter((_, i) => i % 2 === 0) : curves.seqLengths)
      .tickFormat((d) => {
        const v = Number(d);
        return v >= 1024 ? `${v / 1024}K` : String(v);
      }),
  );
  select(yAxis).call(
    axisLeft(y)
      .tickValues(y.ticks().filter((t) => Number.isInteger(Math.log10(t))))
      .tickFormat((d) => powerOfTenLabel(Number(d))),
  );
  for (const axis of [xAxis, yAxis]) {
    for (const t of Array.from(axis.querySelectorAll("text"))) t.setAttribute("style", "fill: var(--c-muted)");
    for (const l of Array.from(axis.querySelectorAll("path, line"))) l.setAttribute("style", "stroke: var(--c-muted)");
  }
  svg.append(
    b(
      "text",
      {
        x: (margin.left + width - margin.right) / 2,
        y: height - 8,
        "text-anchor": "middle",
        style: "fill: var(--c-muted)",
      },
      "sequence length s (tokens, log scale)",
    ),
  );
  svg.append(
    b(
      "text",
      {
        transform: `translate(14,${(margin.top + height - margin.bottom) / 2}) rotate(-90)`,
        "text-anchor": "middle",
        style: "fill: var(--c-muted)",
      },
      "activation memory (log scale)",
    ),
  );

  // GPU memory line.
  const gy = y(curves.gpuBytes);
  svg.append(
    b("line", {
      x1: margin.left,
      x2: width - margin.right,
      y1: gy,
      y2: gy,
      style: "stroke: var(--c-accent); stroke-width: 1.5",
    }),
  );
  svg.append(
    b(
      "text",
      {
        x: compact ? margin.left + 6 : width - margin.right + 6,
        y: compact ? gy - 5 : gy + 4,
        style: "fill: var(--c-accent)",
      },
      `GPU: ${formatMemory(curves.gpuBytes)}`,
    ),
  );

  const path = line<number>()
    .x((_, i) => x(curves.seqLengths[i]!))
    .y((bytes) => y(bytes));
  // Label positions at the right end, nudged apart so they never overlap.
  const ends = recomputeModes.map((r) => ({ r, y: y(curves.bytes[r][curves.bytes[r].length - 1]!) }));
  ends.sort((p, q) => p.y - q.y);
  for (let i = 1; i < ends.length; i++) ends[i]!.y = Math.max(ends[i]!.y, ends[i - 1]!.y + 15);
  for (const r of recomputeModes) {
    const series = b("g", { class: `ac-series ac-${r}` });
    svg.append(series);
    series.append(b("path", { d: path(curves.bytes[r]) ?? "", style: lineStyle[r] }));
    curves.bytes[r].forEach((bytes, i) => {
      const dot = b("circle", { cx: x(curves.seqLengths[i]!), cy: y(bytes), r: 3, style: pointFill[r] });
      dot.append(
        b("title", {}, `${recomputeLabels[r]}, s = ${formatInteger(curves.seqLengths[i]!)}: ${formatMemory(bytes)}`),
      );
      series.append(dot);
    });
    if (compact) {
      // Legend in the empty top-left corner of the plot (curves start low on the left).
      const k = recomputeModes.indexOf(r);
      const ly = margin.top + 10 + 16 * k;
      series.append(b("line", { x1: margin.left + 10, x2: margin.left + 34, y1: ly, y2: ly, style: lineStyle[r] }));
      series.append(b("text", { x: margin.left + 40, y: ly + 4, style: pointFill[r] }, recomputeLabels[r]));
    } else {
      const end = ends.find((e) => e.r === r)!;
      series.append(b("text", { x: width - margin.right + 6, y: end.y + 4, style: pointFill[r] }, recomputeLabels[r]));
    }
  }
}

function renderStatic(root: Element, settings: ActivationCurveSettings): void {
  const doc = root.ownerDocument;
  const idBase = root.getAttribute("id") ?? "activation-curve";
  const { el } = dom(doc);
  const box = el("div", { class: "activation-curve" });
  const controls = el("div", { class: "widget-controls" });

  const modelField = selectField(doc, {
    idBase,
    name: "model",
    label: "Model",
    options: modelOptions().map((o) => [o.id, o.name] as const),
    value: settings.model,
  });
  const attentionField = selectField(doc, {
    idBase,
    name: "attention",
    label: "Attention",
    options: (["eager", "flash"] as const).map((a) => [a, attentionLabels[a]] as const),
    value: settings.attention,
  });

  const batchField = numberField(doc, {
    idBase,
    name: "microBatch",
    label: "Micro-batch size b",
    value: settings.microBatch,
  });
  controls.append(modelField, attentionField, batchField);

  const chart = el("div", { class: "ac-chart-box" });
  const curves = activationCurves(settings);
  drawActivationChart(chart, curves);
  const note = el("p", { class: "ac-summary" }, curveSummary(curves));
  const live = el("p", { class: "visually-hidden", "aria-live": "polite" });
  box.append(controls, chart, note, live);
  root.append(box);
}

export const activationCurveWidget = defineWidget<ActivationCurveSettings>({
  description: "activation memory against sequence length for no, selective and full recomputation",
  parseSettings: parseActivationCurveSettings,
  renderStatic,
});
