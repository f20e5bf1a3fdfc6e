/**
 * The two charts of the `memory-explorer` figure: the stacked bars of memory per GPU by category
 * (one bar per pipeline stage) against the GPU's capacity, and the curve of the fullest GPU's
 * memory against sequence length or micro-batch size with the current setting marked. Each call
 * replaces its chart in the host it is given (kit `svg()`, `host.ownerDocument` only); every number
 * comes from the view that src/figures/memory-explorer/view.ts computed. The outputs around them
 * (verdict, summary, formula table) are src/figures/memory-explorer.ts.
 */
import { dom } from "./kit/dom.ts";
import { formatInteger, formatNumber } from "./kit/format.ts";
import { color } from "./kit/palette.ts";
import { scaleBand, scaleLinear, scaleLog } from "d3-scale";
import { line as d3line } from "d3-shape";
import {
  breakdownRows,
  formatBytes,
  gpuShortName,
  type CurveAxis,
  type CurvePoint,
  type MemoryView,
} from "./memory-explorer/view.ts";

const W = 340;
const H = 300;
const FONT = "system-ui, -apple-system, 'Segoe UI', sans-serif";

/** Category colors: the palette's variables (assets/css/book.css), so the charts follow the theme. */
const memoryColors = {
  parameters: color.params,
  gradients: color.grads,
  optimizer: color.optim,
  activations: color.acts,
} as const;

/** A new `<svg class=cls>` appended to `host`, replacing the previous one. */
function freshSvg(host: Element, cls: string, label: string): SVGSVGElement {
  for (const old of Array.from(host.querySelectorAll(`svg.${cls}`))) old.remove();
  const svg = dom(host.ownerDocument).svg("svg", {
    class: cls,
    viewBox: `0 0 ${W} ${H}`,
    role: "img",
    "aria-label": label,
    "font-family": FONT,
    "font-size": 12,
    fill: "currentColor",
    style: `width:100%;max-width:${W * 1.35}px;height:auto`,
  });
  host.append(svg);
  return svg;
}

/** `e` with a `<title>` child (its tooltip). */
function withTitle<E extends SVGElement>(e: E, title: string): E {
  e.append(dom(e.ownerDocument).svg("title", {}, title));
  return e;
}

/** The dashed line at the GPU's capacity (`cy`), across the plot area between the margins `m`. */
function drawCapacityLine(svg: SVGSVGElement, m: { l: number; r: number }, cy: number): void {
  svg.append(
    dom(svg.ownerDocument).svg("line", {
      class: "mx-capacity",
      x1: m.l,
      x2: W - m.r,
      y1: cy,
      y2: cy,
      stroke: "currentColor",
      "stroke-width": 1.6,
      "stroke-dasharray": "6 4",
    }),
  );
}

/** "80 GB"-style tick labels. */
function gbTick(bytes: number): string {
  const gb = bytes / 1e9;
  return gb >= 1 ? formatNumber(gb, { decimals: 1, trim: true }) : formatNumber(gb, { significant: 2 });
}

/** The stacked bars: one per pipeline stage (one bar without pipeline parallelism). */
export function drawMemoryBars(host: Element, view: MemoryView): SVGSVGElement {
  const { memory, gpu } = view;
  const stages = memory.stages;
  const multi = stages.length > 1;
  const b = dom(host.ownerDocument).svg;
  const svg = freshSvg(host, "mx-bars", `Stacked bar${multi ? "s" : ""} of memory per GPU. ${view.verdict.text}`);
  const m = { l: 46, r: 12, t: 28, b: 66 };
  const maxTotal = Math.max(...stages.map((s) => s.total));
  const y = scaleLinear()
    .domain([0, Math.max(maxTotal, gpu.hbmBytes) * 1.08])
    .range([H - m.b, m.t])
    .nice(5);
  const x = scaleBand<number>()
    .domain(stages.map((s) => s.stage))
    .range([m.l, W - m.r])
    .paddingInner(multi ? 0.2 : 0)
    .paddingOuter(multi ? 0.15 : 1.1);

  svg.append(b("text", { x: 0, y: 14, "font-weight": 600 }, "Memory per GPU (GB)"));
  const axis = b("g", { class: "mx-axis" });
  svg.append(axis);
  for (const t of y.ticks(5)) {
    axis.append(
      b("line", { x1: m.l, x2: W - m.r, y1: y(t), y2: y(t), stroke: "currentColor", "stroke-opacity": 0.14 }),
    );
    axis.append(b("text", { x: m.l - 5, y: y(t) + 4, "text-anchor": "end", fill: "var(--c-muted)" }, gbTick(t)));
  }

  const bw = x.bandwidth();
  const order = ["parameters", "gradients", "optimizer", "activations"] as const;
  for (const stage of stages) {
    const rows = breakdownRows(memory, stage);
    const bx = x(stage.stage) ?? m.l;
    let acc = 0;
    const g = b("g", { class: "mx-bar", "data-stage": stage.stage });
    svg.append(g);
    for (const key of order) {
      const row = rows.find((r) => r.key === key)!;
      const y0 = y(acc);
      const y1 = y(acc + row.bytes);
      acc += row.bytes;
      const rect = b("rect", {
        class: `mx-seg mx-${key}`,
        x: bx,
        y: y1,
        width: bw,
        height: Math.max(0, y0 - y1),
        fill: memoryColors[key],
      });
      g.append(rect);
      rect.append(
        b(
          "title",
          {},
          `${multi ? `Stage ${stage.stage + 1}: ` : ""}${row.label} ${formatBytes(row.bytes)} = ${row.formula}`,
        ),
      );
      if (y0 - y1 >= 15 && bw >= 44) {
        g.append(
          b(
            "text",
            {
              class: "mx-seg-label",
              x: bx + bw / 2,
              y: (y0 + y1) / 2 + 4,
              "text-anchor": "middle",
              fill: "var(--c-bg)",
              "font-size": bw >= 90 ? 12 : 10,
            },
            formatBytes(row.bytes),
          ),
        );
      }
    }
    if (!multi || stage.stage === memory.peakStage) {
      g.append(
        b(
          "text",
          {
            class: "mx-total",
            x: bx + bw / 2,
            y: y(stage.total) - 5,
            "text-anchor": "middle",
            "font-weight": 600,
            "paint-order": "stroke",
            stroke: "var(--c-surface)",
            "stroke-width": 4,
            "stroke-linejoin": "round",
          },
          formatBytes(stage.total),
        ),
      );
    }
    if (
      multi &&
      (stages.length <= 12 ||
        stage.stage === 0 ||
        stage.stage === stages.length - 1 ||
        stage.stage === memory.peakStage)
    ) {
      svg.append(
        b(
          "text",
          { x: bx + bw / 2, y: H - m.b + 14, "text-anchor": "middle", "font-size": 11, fill: "var(--c-muted)" },
          String(stage.stage + 1),
        ),
      );
    }
  }
  svg.append(
    b(
      "text",
      {
        x: (m.l + W - m.r) / 2,
        y: H - m.b + (multi ? 28 : 16),
        "text-anchor": "middle",
        "font-size": 11,
        fill: "var(--c-muted)",
      },
      multi ? `pipeline stage (fullest: ${memory.peakStage + 1})` : "one GPU",
    ),
  );

  const cy = y(gpu.hbmBytes);
  drawCapacityLine(svg, m, cy);
  svg.append(
    b(
      "text",
      {
        x: W - m.r,
        y: cy - 5,
        "text-anchor": "end",
        "font-size": 11,
        "paint-order": "stroke",
        stroke: "var(--c-surface)",
        "stroke-width": 4,
        "stroke-linejoin": "round",
      },
      `${gpuShortName(gpu.name)}: ${formatBytes(gpu.hbmBytes)}`,
    ),
  );
  // The one budget every "fits" applies (memoryBudget): a dotted line with its value under it.
  const uy = y(view.budget.usableBytes);
  svg.append(
    b("line", {
      class: "mx-budget",
      x1: m.l,
      x2: W - m.r,
      y1: uy,
      y2: uy,
      stroke: "currentColor",
      "stroke-width": 1.2,
      "stroke-dasharray": "2 3",
    }),
    b(
      "text",
      {
        x: m.l + 4,
        y: uy + 13,
        "font-size": 11,
        "paint-order": "stroke",
        stroke: "var(--c-surface)",
        "stroke-width": 4,
        "stroke-linejoin": "round",
      },
      `usable: ${formatBytes(view.budget.usableBytes)}`,
    ),
  );

  // legend, two rows of two
  const names = {
    parameters: "parameters",
    gradients: "gradients",
    optimizer: "optimizer states",
    activations: "activations",
  };
  order.forEach((key, i) => {
    const lx = 4 + (i % 2) * 160;
    const ly = H - 30 + Math.floor(i / 2) * 16;
    svg.append(b("rect", { x: lx, y: ly - 10, width: 11, height: 11, fill: memoryColors[key] }));
    svg.append(b("text", { x: lx + 16, y: ly, "font-size": 11.5 }, names[key]));
  });
  return svg;
}

/** "4K"-style token counts for the sequence axis (K = 1,024 tokens, as configs count them). */
function tokensTick(x: number): string {
  if (x >= 1024 && x % 1024 === 0) return `${x / 1024}K`;
  return String(x);
}

/** Memory of the fullest GPU against sequence length or micro-batch size, current point marked. */
export function drawMemoryCurve(host: Element, view: MemoryView, curve: CurvePoint[], axis: CurveAxis): SVGSVGElement {
  const current = axis === "seqLength" ? view.state.seqLength : view.state.microBatch;
  const what = axis === "seqLength" ? "sequence length" : "micro-batch size";
  const b = dom(host.ownerDocument).svg;
  const svg = freshSvg(
    host,
    "mx-curve",
    `Line chart of memory per GPU against ${what}, log scales, with the GPU’s capacity and the current setting marked.`,
  );
  const m = { l: 46, r: 14, t: 28, b: 66 };
  const valid = curve.filter((p) => p.total !== null) as Array<{ x: number; total: number; modelStates: number }>;
  const values = [
    view.gpu.hbmBytes,
    view.memory.perGpu.total,
    ...valid.flatMap((p) => [p.total, p.modelStates]),
  ].filter((v) => v > 0);
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const y = scaleLog()
    .domain([lo / 1.6, hi * 1.6])
    .range([H - m.b, m.t]);
  const xs = curve.map((p) => p.x);
  const x = scaleLog()
    .base(2)
    .domain([Math.min(...xs), Math.max(...xs)])
    .range([m.l, W - m.r]);

  svg.append(b("text", { x: 0, y: 14, "font-weight": 600 }, `Memory per GPU (GB) against ${what}`));
  const grid = b("g", { class: "mx-axis" });
  svg.append(grid);
  const [d0, d1] = y.domain();
  const yTicks: Array<{ v: number; f: number }> = [];
  for (let e = Math.floor(Math.log10(d0 / 1e9)); e <= Math.ceil(Math.log10(d1 / 1e9)); e++) {
    for (const f of [1, 2, 5]) {
      const v = f * 10 ** e * 1e9;
      if (v >= d0 && v <= d1) yTicks.push({ v, f });
    }
  }
  const thin = (yTicks.length > 7 ? yTicks.filter((t) => t.f === 1) : yTicks).map((t) => t.v);
  for (const t of thin) {
    grid.append(
      b("line", { x1: m.l, x2: W - m.r, y1: y(t), y2: y(t), stroke: "currentColor", "stroke-opacity": 0.14 }),
    );
    grid.append(b("text", { x: m.l - 5, y: y(t) + 4, "text-anchor": "end", fill: "var(--c-muted)" }, gbTick(t)));
  }
  const xTicks = xs.filter((v) => Number.isInteger(Math.log2(v)) && (axis === "microBatch" || Math.log2(v) % 2 === 1));
  for (const t of xTicks) {
    grid.append(
      b(
        "text",
        { x: x(t), y: H - m.b + 16, "text-anchor": "middle", "font-size": 11, fill: "var(--c-muted)" },
        axis === "seqLength" ? tokensTick(t) : String(t),
      ),
    );
  }
  svg.append(
    b(
      "text",
      { x: (m.l + W - m.r) / 2, y: H - m.b + 32, "text-anchor": "middle", "font-size": 11, fill: "var(--c-muted)" },
      axis === "seqLength" ? "sequence length s (tokens)" : "micro-batch size b (sequences)",
    ),
  );

  const cy = y(view.gpu.hbmBytes);
  drawCapacityLine(svg, m, cy);
  svg.append(
    b(
      "text",
      {
        x: m.l + 4,
        y: cy - 5,
        "font-size": 11,
        "paint-order": "stroke",
        stroke: "var(--c-surface)",
        "stroke-width": 4,
        "stroke-linejoin": "round",
      },
      formatBytes(view.gpu.hbmBytes),
    ),
  );

  const total = d3line<CurvePoint>()
    .defined((p) => p.total !== null)
    .x((p) => x(p.x))
    .y((p) => y(p.total ?? 1));
  const states = d3line<CurvePoint>()
    .defined((p) => p.modelStates !== null)
    .x((p) => x(p.x))
    .y((p) => y(p.modelStates ?? 1));
  svg.append(
    b("path", {
      class: "mx-line-states",
      d: states(curve) ?? "",
      fill: "none",
      stroke: memoryColors.optimizer,
      "stroke-width": 2,
      "stroke-dasharray": "3 3",
    }),
  );
  svg.append(
    b("path", {
      class: "mx-line-total",
      d: total(curve) ?? "",
      fill: "none",
      stroke: memoryColors.activations,
      "stroke-width": 2.5,
    }),
  );
  const dots = b("g", {});
  svg.append(dots);
  for (const p of valid) {
    dots.append(
      withTitle(
        b("circle", { cx: x(p.x), cy: y(p.total), r: 2.5, fill: memoryColors.activations }),
        `${axis === "seqLength" ? "s" : "b"} = ${formatInteger(p.x)}: ${formatBytes(p.total)} per GPU (model states ${formatBytes(p.modelStates)})`,
      ),
    );
  }
  const cx = x(current);
  const cyTotal = y(view.memory.perGpu.total);
  svg.append(b("line", { x1: cx, x2: cx, y1: m.t, y2: H - m.b, stroke: "currentColor", "stroke-opacity": 0.35 }));
  svg.append(
    withTitle(
      b("circle", {
        class: "mx-current",
        cx,
        cy: cyTotal,
        r: 5.5,
        fill: "var(--c-bg)",
        stroke: "currentColor",
        "stroke-width": 2.2,
      }),
      `current: ${formatBytes(view.memory.perGpu.total)}`,
    ),
  );
  const right = cx > (m.l + W - m.r) / 2;
  svg.append(
    b(
      "text",
      {
        class: "mx-current-label",
        x: cx + (right ? -9 : 9),
        y: cyTotal - 8,
        "text-anchor": right ? "end" : "start",
        "font-weight": 600,
        "paint-order": "stroke",
        stroke: "var(--c-surface)",
        "stroke-width": 4,
        "stroke-linejoin": "round",
      },
      formatBytes(view.memory.perGpu.total),
    ),
  );
  // legend
  const ly = H - 22;
  svg.append(
    b("line", { x1: 4, x2: 26, y1: ly - 4, y2: ly - 4, stroke: memoryColors.activations, "stroke-width": 2.5 }),
  );
  svg.append(b("text", { x: 30, y: ly, "font-size": 11.5 }, "total"));
  svg.append(
    b("line", {
      x1: 78,
      x2: 100,
      y1: ly - 4,
      y2: ly - 4,
      stroke: memoryColors.optimizer,
      "stroke-width": 2,
      "stroke-dasharray": "3 3",
    }),
  );
  svg.append(b("text", { x: 104, y: ly, "font-size": 11.5 }, "model states"));
  svg.append(
    b("line", {
      x1: 196,
      x2: 218,
      y1: ly - 4,
      y2: ly - 4,
      stroke: "currentColor",
      "stroke-width": 1.6,
      "stroke-dasharray": "6 4",
    }),
  );
  svg.append(b("text", { x: 222, y: ly, "font-size": 11.5 }, "GPU memory"));
  return svg;
}
