/**
 * Browser entry of the `roofline` widget: enables the controls the build drew (disabled, showing
 * the default) and redraws the chart and legend with the same figure code as the static SVG. A bad
 * value marks its field invalid with a message (role="alert"); the chart keeps the last valid
 * state. Nothing animates, so prefers-reduced-motion needs no special case.
 */
import {
  drawRoofline,
  fillRooflineLegend,
  readRooflineControls,
  rooflineView,
  summarizeRoofline,
  type RooflineSettings,
} from "../figures/roofline.ts";
import { setFieldProblem } from "./runtime/inputs.ts";

export function mount(root: HTMLElement, settings: RooflineSettings): void {
  const figure = root.querySelector<HTMLElement>(".roofline-figure");
  const legend = root.querySelector<HTMLElement>(".roofline-legend");
  const live = root.querySelector<HTMLElement>("[aria-live]");
  const gpu = root.querySelector<HTMLSelectElement>("select[name=gpu]");
  const precision = root.querySelector<HTMLSelectElement>("select[name=precision]");
  const tokens = root.querySelector<HTMLInputElement>("input[name=tokens]");
  const seq = root.querySelector<HTMLInputElement>("input[name=seq]");
  if (!figure || !legend || !gpu || !precision || !tokens || !seq) throw new Error("roofline: static markup missing");
  for (const c of [gpu, precision, tokens, seq]) c.disabled = false;
  const idBase = root.getAttribute("id") ?? "roofline";
  let last = settings;

  const draw = () => {
    const view = rooflineView(last);
    figure.textContent = "";
    drawRoofline(figure, view, `${idBase}-svg`, Math.max(320, Math.min(760, figure.clientWidth || 640)));
    fillRooflineLegend(legend, view);
    return view;
  };
  const update = () => {
    const result = readRooflineControls({ gpu: gpu.value, precision: precision.value, tokens: tokens.value, seq: seq.value });
    const errors = result.ok ? {} : result.errors;
    setFieldProblem(tokens, errors.tokens);
    setFieldProblem(seq, errors.seq);
    setFieldProblem(precision, errors.precision);
    if (!result.ok) return;
    last = result.settings;
    const view = draw();
    if (live) live.textContent = summarizeRoofline(view);
  };
  for (const c of [tokens, seq]) c.addEventListener("input", update);
  for (const c of [gpu, precision]) c.addEventListener("change", update);
  // Redraw at the width the page gives the figure (the build draws it 640 units wide).
  draw();
}
