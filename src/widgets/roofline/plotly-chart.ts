/**
 * The roofline widget's Plotly chart: the lazy `import()` of plotly.js-basic-dist-min (its own
 * chunk, fetched only when the widget mounts), the chart buttons above it (zoom in, zoom out, reset,
 * drag to pan: ordinary page buttons that replace Plotly's mode bar), the page's colors read from
 * its CSS variables at draw time, and redraws on a theme change or a new width. Until Plotly has
 * drawn, and for good if it cannot load, `ready` is false and the widget redraws its d3 figure.
 * The traces and layout come from src/figures/roofline-plotly.ts.
 */
import type { PlotlyConfig, PlotlyGraphDiv, PlotlyStatic } from "plotly.js-basic-dist-min";
import type { RooflinePoint, RooflineView } from "../../figures/roofline-state.ts";
import {
  POINT_COLOR_VARS,
  rooflineChartLabel,
  rooflinePlot,
  type RooflineTheme,
} from "../../figures/roofline-plotly.ts";
import { dom } from "../../figures/kit/dom.ts";
import { lightPalette, type PaletteName } from "../../figures/kit/palette.ts";

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
  for (const name of Object.values(POINT_COLOR_VARS))
    palette[name] = cs.getPropertyValue(name).trim() || lightPalette.params;
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

/** What the chart shows: the view and the reader's placed operations. */
export interface RooflineChartData {
  view: RooflineView;
  points: RooflinePoint[];
}

export interface RooflinePlotlyChart {
  /** Whether Plotly is loaded and owns the figure. */
  ready(): boolean;
  /** Queues a Plotly redraw (call only when ready). */
  draw(data: RooflineChartData): void;
  /**
   * Starts loading Plotly; on success it replaces the figure's SVG, on failure it hides the buttons and calls `redraw`.
   */
  load(): void;
}

export interface RooflinePlotlyOptions {
  /** The widget's root: its colors are read for the chart, and `data-chart` is set on it. */
  root: HTMLElement;
  /** The element that holds the d3 figure, then Plotly's chart. */
  figure: HTMLElement;
  idBase: string;
  /** The data to draw when Plotly arrives. */
  current: () => RooflineChartData;
  /**
   * Names the widget's data when a drawing starts: an unchanged key (a theme change, a resize) keeps the reader's zoom.
   */
  dataKey: () => string;
  /** Redraws the whole widget (theme change, resize, Plotly failing to load). */
  redraw: () => void;
}

/** Builds the chart buttons before `figure` and returns the chart, not yet loading. */
export function rooflinePlotlyChart(o: RooflinePlotlyOptions): RooflinePlotlyChart {
  const { root, figure } = o;
  const doc = root.ownerDocument;
  const win = doc.defaultView ?? window;
  const { el } = dom(doc);

  const toolbar = el("div", { class: "roofline-toolbar", role: "group", "aria-label": "Chart view" });
  const zoomIn = el("button", { type: "button", class: "roofline-button", "aria-disabled": "true" }, "Zoom in");
  const zoomOut = el("button", { type: "button", class: "roofline-button", "aria-disabled": "true" }, "Zoom out");
  const reset = el("button", { type: "button", class: "roofline-button", "aria-disabled": "true" }, "Reset view");
  const pan = el(
    "button",
    { type: "button", class: "roofline-button", "aria-pressed": "false", "aria-disabled": "true" },
    "Drag to pan",
  );
  const hint = el("p", { class: "roofline-hint" }, "Loading the interactive chart…");
  toolbar.append(zoomIn, zoomOut, reset, pan, hint);
  figure.insertAdjacentElement("beforebegin", toolbar);

  let Plotly: PlotlyStatic | undefined;
  let plotDiv: PlotlyGraphDiv | undefined;
  let drawnKey = "";
  let fullRanges: { x: [number, number]; y: [number, number] } | undefined;
  let panMode = false;
  let queued: Promise<unknown> = Promise.resolve();
  const coarse = win.matchMedia("(pointer: coarse)").matches;
  const plotWidth = () => Math.max(260, Math.round(figure.clientWidth || 640));

  const drawPlotly = ({ view, points }: RooflineChartData): Promise<unknown> => {
    const P = Plotly!;
    const div = plotDiv!;
    const width = plotWidth();
    const spec = rooflinePlot(view, points, readTheme(root), { widthPx: width, coarsePointer: coarse, pan: panMode });
    const key = o.dataKey();
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

  const load = () => {
    const started = win.performance.now();
    import("plotly.js-basic-dist-min")
      .then(async (mod) => {
        Plotly = mod.default;
        const div = el("div", {
          class: "roofline-plot",
          role: "img",
          id: `${o.idBase}-plot`,
        }) as unknown as PlotlyGraphDiv;
        figure.textContent = "";
        figure.append(div);
        plotDiv = div;
        const { view, points } = o.current();
        const spec = rooflinePlot(view, points, readTheme(root), {
          widthPx: plotWidth(),
          coarsePointer: coarse,
          pan: panMode,
        });
        spec.layout.width = plotWidth();
        spec.layout.autosize = false;
        drawnKey = o.dataKey();
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
        const rethemed = () => o.redraw();
        new MutationObserver(rethemed).observe(doc.documentElement, {
          attributes: true,
          attributeFilter: ["data-theme"],
        });
        win.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", rethemed);
        let lastWidth = plotWidth();
        let frame = 0;
        new ResizeObserver(() => {
          cancelAnimationFrame(frame);
          frame = requestAnimationFrame(() => {
            const w = plotWidth();
            if (Math.abs(w - lastWidth) < 2) return;
            lastWidth = w;
            o.redraw();
          });
        }).observe(figure);
      })
      .catch((err: unknown) => {
        // No Plotly (offline, blocked): the d3 figure stays and keeps following the controls.
        console.warn("roofline: the interactive chart could not load; the drawing stays.", err);
        Plotly = undefined;
        plotDiv = undefined;
        toolbar.hidden = true;
        o.redraw();
      });
  };

  return {
    ready: () => Plotly !== undefined && plotDiv !== undefined,
    draw: (data) => {
      queued = queued
        .then(() => drawPlotly(data))
        .catch((err: unknown) => console.warn("roofline: Plotly could not redraw", err));
    },
    load,
  };
}
