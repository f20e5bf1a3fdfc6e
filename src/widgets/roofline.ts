/**
 * Browser entry of the `roofline` widget. The build drew the default state with d3 (the figure
 * readers see with JavaScript off, in print and in the PDF). Here:
 *
 * - the controls are enabled, and a form (in a <details>, closed at first) lets the reader add
 *   operations of their own (matmul m × n × k, an elementwise pass, fused or unfused attention)
 *   and remove them again;
 * - Plotly (plotly.js-basic-dist-min) is imported lazily, as its own chunk, only when this widget
 *   mounts; it then replaces the SVG with a log-log chart whose points have hover labels
 *   (intensity, attainable TFLOPS, memory- or compute-bound) and which zooms and pans. Until it
 *   arrives, and if it cannot load, edits redraw the d3 figure instead;
 * - colors and font are read from the page's CSS variables at draw time, and the chart is drawn
 *   again when the theme changes (`data-theme` on <html>, or the system's color scheme).
 *
 * Every number comes from src/model/ through src/figures/roofline-state.ts, roofline-custom-ops.ts and
 * roofline-plotly.ts. Bad input marks its field invalid with a message (role="alert") and keeps
 * the last good chart; a good edit redraws once it has painted (runtime/after-paint.ts). Plotly's mode bar is off: the buttons above the chart (zoom in, zoom out,
 * reset, drag to pan) are ordinary page buttons, reachable with the keyboard and styled like the
 * book. The chart has role="img" and an aria-label with every point's numbers; the list under it
 * says the same. Nothing animates, so prefers-reduced-motion needs no special case.
 *
 * This file holds the styles, the state (the settings and the reader's operations), the list under
 * the chart and the main controls; the add form is ./roofline/add-form.ts and the Plotly chart with
 * its buttons ./roofline/plotly-chart.ts.
 */
import { drawRoofline, fillRooflineLegend, legendMarker } from "../figures/roofline.ts";
import {
  readRooflineControls,
  rooflineView,
  summarizeRoofline,
  type RooflinePoint,
  type RooflineSettings,
  type RooflineView,
  rooflineUrlCodec,
} from "../figures/roofline-state.ts";
import {
  MAX_CUSTOM_OPS,
  customOpLabel,
  describePoint,
  placeCustomOp,
  type CustomOp,
} from "../figures/roofline-custom-ops.ts";
import { setFieldProblem } from "../figures/kit/field.ts";
import { ensureStyle } from "./runtime/widget-style.ts";
import { dom } from "../figures/kit/dom.ts";
import { addOperationForm } from "./roofline/add-form.ts";
import { rooflinePlotlyChart } from "./roofline/plotly-chart.ts";
import { afterPaint } from "./runtime/after-paint.ts";
import { widgetLink } from "./runtime/url-state.ts";

const css = `
.widget details.roofline-add-details { margin: 0 0 0.8rem; }
.widget details.roofline-add-details > summary { cursor: pointer; font-weight: 600; font-size: 0.9rem; color: var(--c-accent); width: fit-content; }
.roofline-add { border: 1px solid var(--c-border); border-radius: 6px; margin: 0.5rem 0 0; padding: 0.6rem 0.8rem 0.7rem; display: flex; flex-wrap: wrap; gap: 0.6rem 1rem; align-items: flex-start; min-width: 0; }
.roofline-add input[type="text"] { width: 7.5rem; }
.roofline-add select { max-width: 100%; }
.roofline-add .roofline-add-action { align-self: flex-start; margin-top: 1.45rem; }
.roofline-toolbar { display: flex; flex-wrap: wrap; gap: 0.4rem 0.5rem; align-items: center; margin: 0 0 0.4rem; }
.roofline-toolbar[hidden] { display: none; }
.widget .roofline-button { font: inherit; font-size: 0.85rem; color: var(--c-text); background: var(--c-bg); border: 1px solid var(--c-border); border-radius: 5px; padding: 0.25rem 0.7rem; min-height: 2rem; cursor: pointer; }
.widget .roofline-button:hover { border-color: var(--c-accent); color: var(--c-accent); }
.widget .roofline-button[aria-pressed="true"] { border-color: var(--c-accent); background: var(--c-accent-soft); }
.widget .roofline-button[aria-disabled="true"] { opacity: 0.6; cursor: default; }
.roofline-hint { font-size: 0.8rem; color: var(--c-muted); margin: 0; }
.roofline-plot { width: 100%; min-height: 360px; }
.roofline-plot .main-svg { overflow: visible; }
.widget .roofline-legend { list-style: none; padding: 0; margin: 0.6rem 0; font-size: 0.85rem; }
.widget .roofline-legend li { margin: 0.15rem 0; }
.widget .roofline-note { font-size: 0.82rem; color: var(--c-muted); margin: 0; }
.widget .roofline-legend .roofline-remove { font-size: 0.78rem; min-height: 1.6rem; padding: 0.05rem 0.5rem; margin-left: 0.4rem; }
`;

const STAR = "M0,-7L1.8,-2.4L6.7,-2.2L2.9,0.9L4.1,5.7L0,3L-4.1,5.7L-2.9,0.9L-6.7,-2.2L-1.8,-2.4Z";

export function mount(root: HTMLElement, settings: RooflineSettings): void {
  const doc = root.ownerDocument;
  ensureStyle(doc, "roofline-widget-style", css);
  const box = root.querySelector<HTMLElement>(".roofline");
  const figure = root.querySelector<HTMLElement>(".roofline-figure");
  const legend = root.querySelector<HTMLElement>(".roofline-legend");
  const live = root.querySelector<HTMLElement>("[aria-live]");
  const gpu = root.querySelector<HTMLSelectElement>("select[name=gpu]");
  const precision = root.querySelector<HTMLSelectElement>("select[name=precision]");
  const tokens = root.querySelector<HTMLInputElement>("input[name=tokens]");
  const seq = root.querySelector<HTMLInputElement>("input[name=seq]");
  if (!box || !figure || !legend || !gpu || !precision || !tokens || !seq)
    throw new Error("roofline: static markup missing");
  for (const c of [gpu, precision, tokens, seq]) c.disabled = false;
  const idBase = root.getAttribute("id") ?? "roofline";
  const { el } = dom(doc);

  // --- State ---
  let last = settings;
  const custom: CustomOp[] = [];
  // The GPU, precision and sizes live in the URL under this widget's id (the reader's own
  // operations do not); "Copy link" shares them (runtime/url-state.ts).
  const link = widgetLink(root, rooflineUrlCodec, settings, () => apply(settings));

  const placed = (view: RooflineView): RooflinePoint[] => {
    const out: RooflinePoint[] = [];
    custom.forEach((op, i) => {
      try {
        out.push(placeCustomOp(op, view, i));
      } catch {
        /* validated when added; a refusal here leaves the point out rather than the chart blank */
      }
    });
    return out;
  };

  // --- The add-an-operation form (after the main controls) ---
  const focusAdd = addOperationForm(doc, {
    idBase,
    place: (details) => {
      const controls = box.querySelector(".widget-controls");
      (controls ?? figure).insertAdjacentElement(controls ? "afterend" : "beforebegin", details);
    },
    onAdd: (op) => {
      if (custom.length >= MAX_CUSTOM_OPS)
        return `The chart holds ${MAX_CUSTOM_OPS} operations of your own; remove one first.`;
      try {
        placeCustomOp(op, rooflineView(last), custom.length);
      } catch (err) {
        return `The model cannot place this operation: ${(err as Error).message}.`;
      }
      custom.push(op);
      const view = redraw();
      const points = placed(view);
      if (live) live.textContent = `Added ${describePoint(points[points.length - 1]!)}.`;
      return undefined;
    },
  });

  // --- The Plotly chart and its buttons (usable once Plotly has drawn) ---
  const chart = rooflinePlotlyChart({
    root,
    figure,
    idBase,
    current: () => {
      const view = rooflineView(last);
      return { view, points: placed(view) };
    },
    dataKey: () => JSON.stringify([last, custom]),
    redraw: () => redraw(),
  });

  const fillLegend = (view: RooflineView, points: RooflinePoint[]) => {
    fillRooflineLegend(legend, view);
    points.forEach((p, i) => {
      const li = el("li");
      const svg = legendMarker(doc, STAR, "fill:var(--c-text)");
      const remove = el(
        "button",
        { type: "button", class: "roofline-button roofline-remove", "aria-label": `Remove ${p.label}` },
        "Remove",
      );
      remove.addEventListener("click", () => {
        const [gone] = custom.splice(i, 1);
        redraw();
        if (live && gone) live.textContent = `Removed ${customOpLabel(gone)}.`;
        focusAdd();
      });
      li.append(svg, doc.createTextNode(` ${describePoint(p)}`), remove);
      legend.append(li);
    });
  };

  const redraw = (): RooflineView => {
    const view = rooflineView(last);
    const points = placed(view);
    if (chart.ready()) {
      chart.draw({ view, points });
    } else {
      figure.textContent = "";
      drawRoofline(figure, view, `${idBase}-svg`, Math.max(320, Math.min(760, figure.clientWidth || 640)));
    }
    fillLegend(view, points);
    return view;
  };

  const announce = (view: RooflineView) => {
    const extra = placed(view).map(describePoint);
    if (live)
      live.textContent = `${summarizeRoofline(view)}${extra.length ? ` Your operations: ${extra.join("; ")}.` : ""}`;
  };

  // --- Main controls ---
  const update = () => {
    const result = readRooflineControls({
      gpu: gpu.value,
      precision: precision.value,
      tokens: tokens.value,
      seq: seq.value,
    });
    const errors = result.ok ? {} : result.errors;
    setFieldProblem(tokens, errors.tokens);
    setFieldProblem(seq, errors.seq);
    setFieldProblem(precision, errors.precision);
    if (!result.ok) return;
    last = result.settings;
    link.show(last);
    // Plotly's redraw takes a while on a slow phone: after the edit has painted (after-paint.ts).
    later(() => announce(redraw()));
  };
  const later = afterPaint(root);
  for (const c of [tokens, seq]) c.addEventListener("input", update);
  for (const c of [gpu, precision]) c.addEventListener("change", update);

  const apply = (s: RooflineSettings) => {
    gpu.value = s.gpu;
    precision.value = s.precision;
    tokens.value = String(s.tokens);
    seq.value = String(s.seq);
    update();
  };
  if (link.restored) apply(link.restored);

  // Redraw at the width the page gives the figure (the build draws it 640 units wide), then load Plotly.
  redraw();
  chart.load();
}
