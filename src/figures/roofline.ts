/**
 * roofline: a GPU's roofline (Williams et al. 2009) on log-log axes with a transformer's operations
 * placed on it by arithmetic intensity. Used by the GPU-kernels chapter. Every number comes from
 * `src/model/roofline.ts` and `src/data/gpus.ts`; this file only validates inputs and draws.
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
import {
  GPUS,
  attainableFlopsPerSecond,
  elementwiseCost,
  findGpu,
  fusedAttentionCost,
  matmulCost,
  ridgePointFlopsPerByte,
  rmsNormCost,
  softmaxCost,
  standardAttentionCost,
  type GpuSpec,
  type KernelCost,
} from "../model/index.ts";
import { WidgetSettingsError, defineWidget, settingsObject } from "./widget.ts";
import { dom, figureSvg } from "./kit/dom.ts";
import { numberField, parseNumberField } from "./kit/field.ts";
import { formatInteger, formatNumber } from "./kit/format.ts";

export type RooflinePrecision = "bf16" | "fp8";

export interface RooflineSettings {
  gpu: string;
  precision: RooflinePrecision;
  tokens: number;
  seq: number;
}

/** Largest token count and sequence length the widget accepts (keeps every product finite and readable). */
export const ROOFLINE_MAX_TOKENS = 1_048_576;

const HIDDEN = 4096;
const FFN = 14336;
const HEADS = 32;
const HEAD_DIM = 128;

/** One operation placed on the roofline. */
export interface RooflinePoint {
  id: string;
  label: string;
  cost: KernelCost;
  attainableFlopsPerSecond: number;
  bound: "memory" | "compute";
}

/** Everything the drawing and the summary need. */
export interface RooflineView {
  gpu: GpuSpec;
  precision: RooflinePrecision;
  peakFlopsPerSecond: number;
  bandwidthBytesPerSecond: number;
  ridgeFlopsPerByte: number;
  points: RooflinePoint[];
}

function peakOf(gpu: GpuSpec, precision: RooflinePrecision): number | null {
  return precision === "fp8" ? gpu.fp8FlopsPerSecond : gpu.bf16FlopsPerSecond;
}

/** Computes the roofline and the operations' positions for valid settings. */
export function rooflineView(s: RooflineSettings): RooflineView {
  const gpu = findGpu(s.gpu);
  if (!gpu) throw new WidgetSettingsError("gpu", `unknown GPU ${JSON.stringify(s.gpu)}`);
  const peak = peakOf(gpu, s.precision);
  if (peak === null) throw new WidgetSettingsError("precision", `${gpu.name} has no fp8 tensor cores`);
  const bw = gpu.hbmBytesPerSecond;
  const e = s.precision === "fp8" ? 1 : 2;
  const ridge = ridgePointFlopsPerByte(peak, bw);
  const ops: [string, string, KernelCost][] = [
    ["matmul", `MLP matmul ${s.tokens}×${HIDDEN}×${FFN}`, matmulCost(s.tokens, FFN, HIDDEN, e)],
    ["add", "residual add", elementwiseCost(s.tokens * HIDDEN, 2, 1, 1, e)],
    ["softmax", `softmax (${HEADS} heads × ${s.seq}²)`, softmaxCost(HEADS * s.seq, s.seq, e)],
    ["rmsnorm", "RMSNorm", rmsNormCost(s.tokens, HIDDEN, e)],
    [
      "attn-std",
      `attention, scores in HBM (N = ${s.seq})`,
      standardAttentionCost({ heads: HEADS, seq: s.seq, headDim: HEAD_DIM, bytesPerElement: e }),
    ],
    [
      "attn-fused",
      `attention, fused (N = ${s.seq})`,
      fusedAttentionCost({ heads: HEADS, seq: s.seq, headDim: HEAD_DIM, bytesPerElement: e }),
    ],
  ];
  const points = ops.map(([id, label, cost]) => {
    const rate = attainableFlopsPerSecond(cost.intensityFlopsPerByte, peak, bw);
    return {
      id,
      label,
      cost,
      attainableFlopsPerSecond: rate,
      bound: cost.intensityFlopsPerByte < ridge ? "memory" : "compute",
    } as RooflinePoint;
  });
  return {
    gpu,
    precision: s.precision,
    peakFlopsPerSecond: peak,
    bandwidthBytesPerSecond: bw,
    ridgeFlopsPerByte: ridge,
    points,
  };
}

/** "2,294", "62.1", "0.17": three significant figures below 100, whole numbers above. */
export function formatIntensity(x: number): string {
  if (x >= 100) return formatInteger(x);
  return formatNumber(x, { decimals: x >= 10 ? 1 : 2 });
}

/** TFLOPS with one decimal. */
export function formatTflops(flopsPerSecond: number): string {
  return formatNumber(flopsPerSecond / 1e12, { decimals: 1 });
}

/** The sentence the live region reads and the readout prints. */
export function summarizeRoofline(v: RooflineView): string {
  const head = `${v.gpu.name}, ${v.precision}: ridge at ${formatIntensity(v.ridgeFlopsPerByte)} FLOP/byte.`;
  const parts = v.points.map(
    (p) =>
      `${p.label}: ${formatIntensity(p.cost.intensityFlopsPerByte)} FLOP/byte, ${p.bound}-bound, up to ${formatTflops(p.attainableFlopsPerSecond)} TFLOPS`,
  );
  return `${head} ${parts.join("; ")}.`;
}

/** Result of reading the controls: settings or a message per field. */
export type RooflineControlsResult =
  | { ok: true; settings: RooflineSettings }
  | { ok: false; errors: Partial<Record<"tokens" | "seq" | "precision", string>> };

/** What the token count and sequence length accept (the kit's parser words the message). */
const countRule = { integer: true, min: 1, max: ROOFLINE_MAX_TOKENS, example: "4096" } as const;

/** Validates what a reader typed or chose (never throws). */
export function readRooflineControls(raw: {
  gpu: string;
  precision: string;
  tokens: string;
  seq: string;
}): RooflineControlsResult {
  const errors: Partial<Record<"tokens" | "seq" | "precision", string>> = {};
  const tokens = parseNumberField(raw.tokens, countRule);
  const seq = parseNumberField(raw.seq, countRule);
  if (!tokens.ok) errors.tokens = tokens.message;
  if (!seq.ok) errors.seq = seq.message;
  const gpu = findGpu(raw.gpu) ?? GPUS[0]!;
  const precision: RooflinePrecision = raw.precision === "fp8" ? "fp8" : "bf16";
  if (precision === "fp8" && gpu.fp8FlopsPerSecond === null)
    errors.precision = `${gpu.name} has no fp8 tensor cores; pick bf16.`;
  if (!tokens.ok || !seq.ok || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, settings: { gpu: gpu.id, precision, tokens: tokens.value, seq: seq.value } };
}

function parseSettings(raw: unknown): RooflineSettings {
  const obj = settingsObject(raw, ["gpu", "precision", "tokens", "seq"]);
  const gpu = obj.gpu ?? "h100-sxm";
  if (typeof gpu !== "string" || !findGpu(gpu)) {
    throw new WidgetSettingsError("gpu", `must be one of ${GPUS.map((g) => g.id).join(", ")}`);
  }
  const precision = obj.precision ?? "bf16";
  if (precision !== "bf16" && precision !== "fp8") throw new WidgetSettingsError("precision", "must be bf16 or fp8");
  const count = (key: string, fallback: number): number => {
    const v = obj[key] ?? fallback;
    if (typeof v !== "number" || !Number.isInteger(v) || v < 1 || v > ROOFLINE_MAX_TOKENS) {
      throw new WidgetSettingsError(key, `must be a whole number from 1 to ${ROOFLINE_MAX_TOKENS}`);
    }
    return v;
  };
  const settings: RooflineSettings = { gpu, precision, tokens: count("tokens", 8192), seq: count("seq", 4096) };
  rooflineView(settings); // throws WidgetSettingsError for fp8 on a GPU without it
  return settings;
}

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
  const gpuField = el("div", { class: "widget-field" });
  const gpuSelect = el("select", { id: `${idBase}-gpu`, name: "gpu", disabled: "" });
  for (const gpu of GPUS) {
    const o = el("option", { value: gpu.id }, gpu.name);
    if (gpu.id === settings.gpu) o.setAttribute("selected", "");
    gpuSelect.append(o);
  }
  gpuField.append(el("label", { for: `${idBase}-gpu` }, "GPU"), gpuSelect);
  const precField = el("div", { class: "widget-field" });
  const precSelect = el("select", {
    id: `${idBase}-precision`,
    name: "precision",
    disabled: "",
    "aria-describedby": `${idBase}-precision-message`,
  });
  for (const p of ["bf16", "fp8"]) {
    const o = el("option", { value: p }, p);
    if (p === settings.precision) o.setAttribute("selected", "");
    precSelect.append(o);
  }
  precField.append(
    el("label", { for: `${idBase}-precision` }, "Precision"),
    precSelect,
    el("p", { class: "widget-message", id: `${idBase}-precision-message`, role: "alert" }),
  );
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
  parseSettings,
  renderStatic,
});
