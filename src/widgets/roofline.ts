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
 * Every number comes from src/model/ through src/figures/roofline.ts and roofline-plotly.ts. Bad
 * input marks its field invalid with a message (role="alert") and keeps the last good chart.
 * Plotly's mode bar is off: the buttons above the chart (zoom in, zoom out, reset, drag to pan)
 * are ordinary page buttons, reachable with the keyboard and styled like the book. The chart
 * has role="img" and an aria-label with every point's numbers; the list under it says the same.
 * Nothing animates, so prefers-reduced-motion needs no special case.
 */
import type { PlotlyConfig, PlotlyGraphDiv, PlotlyStatic } from "plotly.js-basic-dist-min";
import {
  drawRoofline,
  fillRooflineLegend,
  legendMarker,
  readRooflineControls,
  rooflineView,
  summarizeRoofline,
  type RooflinePoint,
  type RooflineSettings,
  type RooflineView,
} from "../figures/roofline.ts";
import {
  CUSTOM_OP_KINDS,
  MAX_CUSTOM_OPS,
  POINT_COLOR_VARS,
  customOpKind,
  customOpLabel,
  describePoint,
  placeCustomOp,
  readCustomOp,
  rooflineChartLabel,
  rooflinePlot,
  type CustomOp,
  type RooflineTheme,
} from "../figures/roofline-plotly.ts";
import { setFieldProblem } from "../figures/kit/field.ts";
import { ensureStyle } from "./runtime/widget-style.ts";
import { dom } from "../figures/kit/dom.ts";
import { lightPalette, type PaletteName } from "../figures/kit/palette.ts";

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

const config: PlotlyConfig = {
  responsive: false, // a ResizeObserver redraws at the figure's width (and switches the phone layout)
  displayModeBar: false, // our own buttons above the chart replace it
  displaylogo: false,
  scrollZoom: false, // the wheel scrolls the chapter
  doubleClick: "reset",
  showTips: false,
  displayNotifier: false,
  typesetMath: false, // never look for MathJax
  showAxisRangeEntryBoxes: false,
  showSendToCloud: false,
  showEditInChartStudio: false,
  locale: "en-US",
};

function readTheme(el: HTMLElement): RooflineTheme {
  const cs = getComputedStyle(el);
  // Plotly needs resolved colours; the light palette stands in if the page's CSS is missing.
  const v = (name: PaletteName) => cs.getPropertyValue(`--c-${name}`).trim() || lightPalette[name];
  const palette: Record<string, string> = {};
  for (const name of Object.values(POINT_COLOR_VARS)) palette[name] = cs.getPropertyValue(name).trim() || lightPalette.params;
  return {
    text: v("text"),
    muted: v("muted"),
    border: v("border"),
    surface: v("surface"),
    bg: v("bg"),
    fontFamily: cs.fontFamily || "system-ui, sans-serif",
    palette,
  };
}

export function mount(root: HTMLElement, settings: RooflineSettings): void {
  const doc = root.ownerDocument;
  const win = doc.defaultView ?? window;
  ensureStyle(doc, "roofline-widget-style", css);
  const box = root.querySelector<HTMLElement>(".roofline");
  const figure = root.querySelector<HTMLElement>(".roofline-figure");
  const legend = root.querySelector<HTMLElement>(".roofline-legend");
  const live = root.querySelector<HTMLElement>("[aria-live]");
  const gpu = root.querySelector<HTMLSelectElement>("select[name=gpu]");
  const precision = root.querySelector<HTMLSelectElement>("select[name=precision]");
  const tokens = root.querySelector<HTMLInputElement>("input[name=tokens]");
  const seq = root.querySelector<HTMLInputElement>("input[name=seq]");
  if (!box || !figure || !legend || !gpu || !precision || !tokens || !seq) throw new Error("roofline: static markup missing");
  for (const c of [gpu, precision, tokens, seq]) c.disabled = false;
  const idBase = root.getAttribute("id") ?? "roofline";
  const { el } = dom(doc);

  // --- The add-an-operation form (after the main controls) ---
  const details = el("details", { class: "roofline-add-details" });
  details.append(el("summary", {}, "Add an operation of your own"));
  const add = el("fieldset", { class: "roofline-add" });
  add.append(el("legend", { class: "visually-hidden" }, "Add an operation"));
  details.append(add);
  const kindField = el("div", { class: "widget-field" });
  const kind = el("select", { id: `${idBase}-op-kind`, name: "op-kind" });
  for (const k of CUSTOM_OP_KINDS) kind.append(el("option", { value: k.kind }, k.name));
  kindField.append(el("label", { for: kind.id }, "Operation"), kind);
  add.append(kindField);
  const opInputs: HTMLInputElement[] = [];
  const opLabels: HTMLLabelElement[] = [];
  for (const slot of ["a", "b", "c"]) {
    const f = el("div", { class: "widget-field" });
    const input = el("input", {
      id: `${idBase}-op-${slot}`,
      name: `op-${slot}`,
      type: "text",
      inputmode: "numeric",
      autocomplete: "off",
      spellcheck: "false",
      size: "8",
      "aria-describedby": `${idBase}-op-${slot}-message`,
    });
    const label = el("label", { for: input.id });
    f.append(label, input, el("p", { class: "widget-message", id: `${idBase}-op-${slot}-message`, role: "alert" }));
    opInputs.push(input);
    opLabels.push(label);
    add.append(f);
  }
  const addAction = el("div", { class: "widget-field roofline-add-action" });
  const addButton = el("button", { type: "button", class: "roofline-button", "aria-describedby": `${idBase}-op-add-message` }, "Add to chart");
  const addMessage = el("p", { class: "widget-message", id: `${idBase}-op-add-message`, role: "alert" });
  addAction.append(addButton, addMessage);
  add.append(addAction);
  const controls = box.querySelector(".widget-controls");
  (controls ?? figure).insertAdjacentElement(controls ? "afterend" : "beforebegin", details);

  // --- Chart buttons (usable once Plotly has drawn) ---
  const toolbar = el("div", { class: "roofline-toolbar", role: "group", "aria-label": "Chart view" });
  const zoomIn = el("button", { type: "button", class: "roofline-button", "aria-disabled": "true" }, "Zoom in");
  const zoomOut = el("button", { type: "button", class: "roofline-button", "aria-disabled": "true" }, "Zoom out");
  const reset = el("button", { type: "button", class: "roofline-button", "aria-disabled": "true" }, "Reset view");
  const pan = el("button", { type: "button", class: "roofline-button", "aria-pressed": "false", "aria-disabled": "true" }, "Drag to pan");
  const hint = el("p", { class: "roofline-hint" }, "Loading the interactive chart…");
  toolbar.append(zoomIn, zoomOut, reset, pan, hint);
  figure.insertAdjacentElement("beforebegin", toolbar);

  // --- State ---
  let last = settings;
  const custom: CustomOp[] = [];
  let Plotly: PlotlyStatic | undefined;
  let plotDiv: PlotlyGraphDiv | undefined;
  let drawnKey = "";
  let fullRanges: { x: [number, number]; y: [number, number] } | undefined;
  let panMode = false;
  let queued: Promise<unknown> = Promise.resolve();
  const coarse = win.matchMedia("(pointer: coarse)").matches;

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

  const fillLegend = (view: RooflineView, points: RooflinePoint[]) => {
    fillRooflineLegend(legend, view);
    points.forEach((p, i) => {
      const li = el("li");
      const svg = legendMarker(doc, STAR, "fill:var(--c-text)");
      const remove = el("button", { type: "button", class: "roofline-button roofline-remove", "aria-label": `Remove ${p.label}` }, "Remove");
      remove.addEventListener("click", () => {
        const [gone] = custom.splice(i, 1);
        redraw();
        if (live && gone) live.textContent = `Removed ${customOpLabel(gone)}.`;
        addButton.focus();
      });
      li.append(svg, doc.createTextNode(` ${describePoint(p)}`), remove);
      legend.append(li);
    });
  };

  const plotWidth = () => Math.max(260, Math.round(figure.clientWidth || 640));

  const drawPlotly = (view: RooflineView, points: RooflinePoint[]): Promise<unknown> => {
    const P = Plotly!;
    const div = plotDiv!;
    const width = plotWidth();
    const spec = rooflinePlot(view, points, readTheme(root), { widthPx: width, coarsePointer: coarse, pan: panMode });
    const key = JSON.stringify([last, custom]);
    spec.layout.width = width;
    spec.layout.autosize = false;
    // Same data (a theme change, a resize): keep the reader's zoom. New data: show all of it.
    if (key === drawnKey && div.layout?.xaxis?.range && div.layout?.yaxis?.range) {
      spec.layout.xaxis!.range = [...div.layout.xaxis.range];
      spec.layout.yaxis!.range = [...div.layout.yaxis.range];
    }
    drawnKey = key;
    fullRanges = { x: spec.xRangeLog10, y: spec.yRangeLog10 };
    div.setAttribute("aria-label", rooflineChartLabel(view, points));
    return P.react(div, spec.data, spec.layout, config);
  };

  const redraw = (): RooflineView => {
    const view = rooflineView(last);
    const points = placed(view);
    if (Plotly && plotDiv) {
      queued = queued.then(() => drawPlotly(view, points)).catch((err: unknown) => console.warn("roofline: Plotly could not redraw", err));
    } else {
      figure.textContent = "";
      drawRoofline(figure, view, `${idBase}-svg`, Math.max(320, Math.min(760, figure.clientWidth || 640)));
    }
    fillLegend(view, points);
    return view;
  };

  const announce = (view: RooflineView) => {
    const extra = placed(view).map(describePoint);
    if (live) live.textContent = `${summarizeRoofline(view)}${extra.length ? ` Your operations: ${extra.join("; ")}.` : ""}`;
  };

  // --- Main controls ---
  const update = () => {
    const result = readRooflineControls({ gpu: gpu.value, precision: precision.value, tokens: tokens.value, seq: seq.value });
    const errors = result.ok ? {} : result.errors;
    setFieldProblem(tokens, errors.tokens);
    setFieldProblem(seq, errors.seq);
    setFieldProblem(precision, errors.precision);
    if (!result.ok) return;
    last = result.settings;
    announce(redraw());
  };
  for (const c of [tokens, seq]) c.addEventListener("input", update);
  for (const c of [gpu, precision]) c.addEventListener("change", update);

  // --- Adding operations ---
  const showKind = (resetValues: boolean) => {
    const info = customOpKind(kind.value) ?? CUSTOM_OP_KINDS[0]!;
    info.fields.forEach((f, i) => {
      opLabels[i]!.textContent = f.label;
      if (resetValues) opInputs[i]!.value = String(f.initial);
      setFieldProblem(opInputs[i]!, undefined);
    });
    addMessage.textContent = "";
  };
  const readAdd = () => {
    const info = customOpKind(kind.value) ?? CUSTOM_OP_KINDS[0]!;
    const raw: Record<string, string> = {};
    info.fields.forEach((f, i) => (raw[f.key] = opInputs[i]!.value));
    const result = readCustomOp(info.kind, raw);
    info.fields.forEach((f, i) => setFieldProblem(opInputs[i]!, result.ok ? undefined : result.errors[f.key]));
    return result;
  };
  const addOp = () => {
    const result = readAdd();
    if (!result.ok) return;
    if (custom.length >= MAX_CUSTOM_OPS) {
      addMessage.textContent = `The chart holds ${MAX_CUSTOM_OPS} operations of your own; remove one first.`;
      return;
    }
    try {
      placeCustomOp(result.op, rooflineView(last), custom.length);
    } catch (err) {
      addMessage.textContent = `The model cannot place this operation: ${(err as Error).message}.`;
      return;
    }
    addMessage.textContent = "";
    custom.push(result.op);
    const view = redraw();
    const points = placed(view);
    if (live) live.textContent = `Added ${describePoint(points[points.length - 1]!)}.`;
  };
  kind.addEventListener("change", () => showKind(true));
  for (const input of opInputs) {
    input.addEventListener("input", () => {
      readAdd();
      addMessage.textContent = "";
    });
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter") {
        e.preventDefault();
        addOp();
      }
    });
  }
  addButton.addEventListener("click", addOp);
  showKind(true);

  // --- Chart buttons ---
  const zoom = (factor: number) => {
    if (!Plotly || !plotDiv) return;
    const r = (range: [number, number] | undefined, full: [number, number]): [number, number] => {
      const [a, b] = range ?? full;
      const mid = (a + b) / 2;
      const half = ((b - a) / 2) * factor;
      return [mid - half, mid + half];
    };
    const xr = r(plotDiv.layout?.xaxis?.range, fullRanges!.x);
    const yr = r(plotDiv.layout?.yaxis?.range, fullRanges!.y);
    void Plotly.relayout(plotDiv, { "xaxis.range": xr, "yaxis.range": yr });
  };
  zoomIn.addEventListener("click", () => zoom(0.5));
  zoomOut.addEventListener("click", () => zoom(2));
  reset.addEventListener("click", () => {
    if (!Plotly || !plotDiv || !fullRanges) return;
    void Plotly.relayout(plotDiv, { "xaxis.range": [...fullRanges.x], "yaxis.range": [...fullRanges.y] });
  });
  pan.addEventListener("click", () => {
    if (!Plotly || !plotDiv) return;
    panMode = !panMode;
    pan.setAttribute("aria-pressed", String(panMode));
    void Plotly.relayout(plotDiv, { dragmode: panMode ? "pan" : coarse ? false : "zoom" });
  });

  // Redraw at the width the page gives the figure (the build draws it 640 units wide).
  redraw();

  // --- Plotly, lazily ---
  const started = win.performance.now();
  import("plotly.js-basic-dist-min")
    .then(async (mod) => {
      Plotly = mod.default;
      const div = el("div", { class: "roofline-plot", role: "img", id: `${idBase}-plot` }) as unknown as PlotlyGraphDiv;
      figure.textContent = "";
      figure.append(div);
      plotDiv = div;
      const view = rooflineView(last);
      const points = placed(view);
      const spec = rooflinePlot(view, points, readTheme(root), { widthPx: plotWidth(), coarsePointer: coarse, pan: panMode });
      spec.layout.width = plotWidth();
      spec.layout.autosize = false;
      drawnKey = JSON.stringify([last, custom]);
      fullRanges = { x: spec.xRangeLog10, y: spec.yRangeLog10 };
      div.setAttribute("aria-label", rooflineChartLabel(view, points));
      await Plotly.newPlot(div, spec.data, spec.layout, config);
      for (const b of [zoomIn, zoomOut, reset, pan]) b.removeAttribute("aria-disabled");
      hint.textContent = coarse
        ? "Tap a point for its numbers; turn on pan to drag the chart."
        : "Hover a point for its numbers; drag to zoom into a box, double-click to reset.";
      root.dataset.chart = "plotly";
      root.dataset.chartMs = String(Math.round(win.performance.now() - started));
      // Follow the theme: the toggle sets data-theme on <html>; with no choice the system decides.
      const rethemed = () => redraw();
      new MutationObserver(rethemed).observe(doc.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
      win.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", rethemed);
      let lastWidth = plotWidth();
      let frame = 0;
      new ResizeObserver(() => {
        cancelAnimationFrame(frame);
        frame = requestAnimationFrame(() => {
          const w = plotWidth();
          if (Math.abs(w - lastWidth) < 2) return;
          lastWidth = w;
          redraw();
        });
      }).observe(figure);
    })
    .catch((err: unknown) => {
      // No Plotly (offline, blocked): the d3 figure stays and keeps following the controls.
      console.warn("roofline: the interactive chart could not load; the drawing stays.", err);
      Plotly = undefined;
      plotDiv = undefined;
      toolbar.hidden = true;
      redraw();
    });
}
