/**
 * roofline: a GPU's roofline (Williams et al. 2009) on log-log axes with a transformer's operations
 * placed on it by arithmetic intensity. Used by the GPU-kernels chapter. Every number comes from
 * `src/model/roofline.ts` and `src/data/gpus.ts` through src/figures/roofline-state.ts (settings,
 * validation, view, summary); this file only draws the chart and its legend and builds the static
 * widget.
 *
 * Settings (YAML inside `::: widget roofline`):
 *   gpu: h100-sxm      # a GPU id from src/data/gpus.ts
 *   precision: bf16    # bf16 or fp8 (fp8 only on GPUs with fp8 tensor cores)
 *   tokens: 8192       # rows m of the matmul (tokens per GPU), also the rows of the elementwise ops
 *   seq: 4096          # attention sequence length N
 *
 * Operation shapes are Llama 3.1 8B's (hidden 4096, MLP width 14336, 32 heads of 128), in the
 * chosen precision's element size (bf16: 2 bytes, fp8: 1 byte).
 */
import { scaleLog } from "d3-scale";
import { GPUS } from "../model/index.ts";
import { defineWidget } from "./widget.ts";
import { dom, figureSvg } from "./kit/dom.ts";
import { numberField, selectField } from "./kit/field.ts";
import { formatInteger, formatNumber } from "./kit/format.ts";
import {
  formatIntensity,
  formatTflops,
  parseRooflineSettings,
  rooflineView,
  summarizeRoofline,
  type RooflineSettings,
  type RooflineView,
} from "./roofline-state.ts";

const POINT_COLORS: Record<string, string> = {
  matmul: "var(--c-params)",
  add: "var(--c-grads)",
  softmax: "var(--c-acts)",
  rmsnorm: "var(--c-optim)",
  "attn-std": "var(--c-comm)",
  "attn-fused": "var(--c-accent)",
};
const POINT_SHAPES: Record<string, string> = {
  matmul: "M-6,-6H6V6H-6Z",
  add: "M0,-7L7,6H-7Z",
  softmax: "M0,-7L7,0L0,7L-7,0Z",
  rmsnorm: "M-7,-2H-2V-7H2V-2H7V2H2V7H-2V2H-7Z",
  "attn-std": "M-6,-6L6,6M-6,6L6,-6",
  "attn-fused": "M6,0A6,6 0 1 1 -6,0A6,6 0 1 1 6,0",
};

/** Draws the roofline chart as an SVG into `container` (build time under linkedom, or in the browser). */
export function drawRoofline(container: Element, view: RooflineView, idPrefix: string, width = 640): void {
  const doc = container.ownerDocument;
  const height = 360;
  const m = { top: 26, right: 30, bottom: 48, left: 64 };
  const tickStep = width < 480 ? 2 : 1;
  const svgEl = figureSvg(doc, {
    idPrefix,
    width,
    height,
    title: `Roofline of the ${view.gpu.name} in ${view.precision}`,
    desc: summarizeRoofline(view),
    attrs: { width: "100%", class: "roofline-svg" },
  });
  container.append(svgEl);
  const svg = svgEl;
  const b = dom(doc).svg;
  const xMin = 0.05;
  const xMax = 1e5;
  const yMax = view.peakFlopsPerSecond * 3;
  const yMin = Math.min(xMin * view.bandwidthBytesPerSecond, ...view.points.map((p) => p.attainableFlopsPerSecond)) / 2;
  const x = scaleLog()
    .domain([xMin, xMax])
    .range([m.left, width - m.right]);
  const y = scaleLog()
    .domain([yMin, yMax])
    .range([height - m.bottom, m.top]);
  const text = "fill:var(--c-text);font:12px system-ui,-apple-system,'Segoe UI',sans-serif";
  const muted = "fill:var(--c-muted);font:11px system-ui,-apple-system,'Segoe UI',sans-serif";
  // grid and ticks: decades
  const g = b("g", {});
  svg.append(g);
  for (let k = Math.ceil(Math.log10(xMin)); k <= Math.log10(xMax); k += tickStep) {
    const xv = x(10 ** k);
    g.append(
      b("line", {
        x1: xv,
        x2: xv,
        y1: m.top,
        y2: height - m.bottom,
        style: "stroke:var(--c-muted);stroke-opacity:.25",
      }),
    );
    g.append(
      b(
        "text",
        { x: xv, y: height - m.bottom + 16, "text-anchor": "middle", style: muted },
        k >= 0 ? formatInteger(10 ** k) : String(10 ** k),
      ),
    );
  }
  for (let k = Math.ceil(Math.log10(yMin)); k <= Math.log10(yMax); k++) {
    const yv = y(10 ** k);
    g.append(
      b("line", { x1: m.left, x2: width - m.right, y1: yv, y2: yv, style: "stroke:var(--c-muted);stroke-opacity:.25" }),
    );
    const tf = 10 ** k / 1e12;
    g.append(
      b(
        "text",
        { x: m.left - 6, y: yv + 4, "text-anchor": "end", style: muted },
        tf >= 1 ? formatNumber(tf) : formatNumber(tf, { significant: 1 }),
      ),
    );
  }
  svg.append(
    b(
      "text",
      { x: (m.left + width - m.right) / 2, y: height - 10, "text-anchor": "middle", style: text },
      "arithmetic intensity (FLOP/byte, log scale)",
    ),
  );
  svg.append(
    b(
      "text",
      {
        transform: `translate(14 ${(m.top + height - m.bottom) / 2}) rotate(-90)`,
        "text-anchor": "middle",
        style: text,
      },
      "attainable TFLOPS (log scale)",
    ),
  );
  // the roof
  const ridge = view.ridgeFlopsPerByte;
  const startX = Math.max(xMin, yMin / view.bandwidthBytesPerSecond);
  svg.append(
    b("path", {
      d: `M${x(startX)},${y(startX * view.bandwidthBytesPerSecond)}L${x(ridge)},${y(view.peakFlopsPerSecond)}L${x(xMax)},${y(view.peakFlopsPerSecond)}`,
      style: "fill:none;stroke:var(--c-text);stroke-width:2",
    }),
  );
  svg.append(
    b("line", {
      x1: x(ridge),
      x2: x(ridge),
      y1: y(view.peakFlopsPerSecond),
      y2: height - m.bottom,
      style: "stroke:var(--c-muted);stroke-dasharray:4 4",
    }),
  );
  svg.append(
    b(
      "text",
      { x: m.left + 4, y: m.top - 6, style: text },
      `ridge ${formatIntensity(ridge)} FLOP/byte, peak ${formatTflops(view.peakFlopsPerSecond)} TFLOPS`,
    ),
  );
  // points
  for (const p of view.points) {
    const px = x(Math.min(xMax, Math.max(xMin, p.cost.intensityFlopsPerByte)));
    const py = y(p.attainableFlopsPerSecond);
    const color = POINT_COLORS[p.id] ?? "currentColor";
    const shape = b("path", {
      transform: `translate(${px} ${py})`,
      d: POINT_SHAPES[p.id] ?? "",
      class: `roofline-point roofline-${p.id}`,
      style:
        p.id === "attn-std"
          ? `fill:none;stroke:${color};stroke-width:2.5`
          : `fill:${color};stroke:var(--c-bg);stroke-width:1`,
    });
    shape.append(
      b(
        "title",
        {},
        `${p.label}: ${formatIntensity(p.cost.intensityFlopsPerByte)} FLOP/byte, ${formatTflops(p.attainableFlopsPerSecond)} TFLOPS`,
      ),
    );
    svg.append(shape);
  }
}

/** The legend as an HTML list (readable, wraps on phones). */
/** A 14 px marker of a legend entry: the point's shape drawn with `style`. */
export function legendMarker(doc: Document, shape: string, style: string): SVGSVGElement {
  const { svg } = dom(doc);
  const marker = svg("svg", { viewBox: "-8 -8 16 16", width: 14, height: 14, "aria-hidden": "true" });
  marker.append(svg("path", { d: shape, style }));
  return marker;
}

export function fillRooflineLegend(list: Element, view: RooflineView): void {
  const doc = list.ownerDocument;
  const { el } = dom(doc);
  list.textContent = "";
  for (const p of view.points) {
    const li = el("li");
    const color = POINT_COLORS[p.id] ?? "currentColor";
    li.append(
      legendMarker(
        doc,
        POINT_SHAPES[p.id] ?? "",
        p.id === "attn-std" ? `fill:none;stroke:${color};stroke-width:2.5` : `fill:${color}`,
      ),
      doc.createTextNode(
        ` ${p.label}: ${formatIntensity(p.cost.intensityFlopsPerByte)} FLOP/byte, ${p.bound}-bound, ${formatTflops(p.attainableFlopsPerSecond)} TFLOPS`,
      ),
    );
    list.append(li);
  }
}

function renderStatic(root: Element, settings: RooflineSettings): void {
  const doc = root.ownerDocument;
  const idBase = root.getAttribute("id") ?? "roofline";
  const { el } = dom(doc);
  const view = rooflineView(settings);
  const box = el("div", { class: "roofline" });
  const controls = el("div", { class: "widget-controls" });
  const gpuField = selectField(doc, {
    idBase,
    name: "gpu",
    label: "GPU",
    options: GPUS.map((gpu) => [gpu.id, gpu.name] as const),
    value: settings.gpu,
  });
  const precField = selectField(doc, {
    idBase,
    name: "precision",
    label: "Precision",
    options: [
      ["bf16", "bf16"],
      ["fp8", "fp8"],
    ],
    value: settings.precision,
    message: true,
  });
  const field = (name: string, label: string, value: number): Element =>
    numberField(doc, { idBase, name, label, value, size: 8 });
  controls.append(
    gpuField,
    precField,
    field("tokens", "Tokens (matmul rows m)", settings.tokens),
    field("seq", "Attention length N", settings.seq),
  );
  const figure = el("div", { class: "roofline-figure" });
  drawRoofline(figure, view, `${idBase}-svg`);
  const legend = el("ul", { class: "roofline-legend" });
  fillRooflineLegend(legend, view);
  const note = el(
    "p",
    { class: "roofline-note" },
    "Shapes of Llama 3.1 8B (hidden 4096, MLP 14336, 32 heads of 128); compulsory HBM traffic only; no causal mask.",
  );
  const live = el("p", { class: "visually-hidden", "aria-live": "polite" });
  box.append(controls, figure, legend, note, live);
  root.append(box);
}

export const rooflineWidget = defineWidget<RooflineSettings>({
  description: "places a transformer’s operations on a GPU’s roofline (arithmetic intensity vs attainable FLOP/s)",
  parseSettings: parseRooflineSettings,
  renderStatic,
});
