/**
 * Browser entry of the number-formats widget: enables the controls rendered at build time and redraws
 * the figure on every change, after the change has painted (runtime/after-paint.ts; for keys typed
 * into the number, after a pause), so a key shows at once (issue #54). Bad input marks the field (setFieldProblem: aria-invalid and a role="alert" message) and keeps
 * the last valid drawing. All numbers come from src/model/number-formats.ts via the figure's modules in
 * src/figures/number-formats/. The value, format and overflow mode live in the URL under this
 * widget's id; "Copy link" shares them (runtime/url-state.ts).
 */
import {
  numberFormatsUrlCodec,
  parseNumberInput,
  type NumberFormatsSettings,
} from "../figures/number-formats/settings.ts";
import { formatValue } from "../figures/number-formats/text.ts";
import { numberFormatsView, summarizeView } from "../figures/number-formats/view.ts";
import { drawNumberFormats } from "../figures/number-formats/draw.ts";
import { numberFormatIds } from "../data/number-formats.ts";
import type { NumberFormatId } from "../data/number-formats.ts";
import { setFieldProblem } from "../figures/kit/field.ts";
import { widgetLink } from "./runtime/url-state.ts";
import { afterPaint, typingPauseMs } from "./runtime/after-paint.ts";

const sliderMin = -12;
const sliderMax = 6;

/** Plain text for the number field, short enough to read ("0.000123", "7e+4"). */
function fieldText(v: number): string {
  return String(Number(v.toPrecision(6)));
}

export function mount(root: HTMLElement, settings: NumberFormatsSettings): void {
  const idBase = root.getAttribute("id") ?? "number-formats";
  const byId = <T extends HTMLElement>(suffix: string): T | null =>
    root.querySelector<T>(`#${CSS.escape(`${idBase}-${suffix}`)}`);
  const valueInput = byId<HTMLInputElement>("value");
  const slider = byId<HTMLInputElement>("magnitude");
  const focusSelect = byId<HTMLSelectElement>("focus");
  const saturate = byId<HTMLInputElement>("saturate");
  const canvas = root.querySelector<HTMLElement>(".nf-canvas");
  const live = root.querySelector<HTMLElement>("[aria-live]");
  if (!valueInput || !slider || !focusSelect || !saturate || !canvas || !live) return;

  const link = widgetLink(root, numberFormatsUrlCodec, settings, () => apply(settings));
  const state: NumberFormatsSettings = { ...settings };
  let lastWidth = 0;
  const later = afterPaint(root);

  const redraw = (announce: boolean) => {
    const width = Math.max(300, Math.min(900, Math.floor(canvas.clientWidth || 720)));
    lastWidth = width;
    const view = numberFormatsView(state);
    drawNumberFormats(canvas, view, width);
    if (announce) live.textContent = summarizeView(view);
    link.show({ ...state });
  };

  const syncSlider = () => {
    const magnitude = state.value === 0 ? sliderMin : Math.log10(Math.abs(state.value));
    slider.value = String(Math.min(sliderMax, Math.max(sliderMin, magnitude)));
    slider.setAttribute("aria-valuetext", formatValue(Math.abs(state.value), 6));
  };

  valueInput.addEventListener("input", () => {
    const parsed = parseNumberInput(valueInput.value);
    if (!parsed.ok) {
      setFieldProblem(valueInput, parsed.message);
      return; // keep the last valid drawing
    }
    setFieldProblem(valueInput, undefined);
    state.value = parsed.value;
    syncSlider();
    later(() => redraw(true), "draw", typingPauseMs);
  });

  slider.addEventListener("input", () => {
    const exponent = Number(slider.value);
    if (!Number.isFinite(exponent)) return;
    const sign = state.value < 0 ? -1 : 1;
    state.value = sign * Number((10 ** exponent).toPrecision(6));
    valueInput.value = fieldText(state.value);
    slider.setAttribute("aria-valuetext", formatValue(Math.abs(state.value), 6));
    setFieldProblem(valueInput, undefined);
    later(() => redraw(true), "draw");
  });

  focusSelect.addEventListener("change", () => {
    if ((numberFormatIds as readonly string[]).includes(focusSelect.value)) {
      state.focus = focusSelect.value as NumberFormatId;
      later(() => redraw(true), "draw");
    }
  });

  saturate.addEventListener("change", () => {
    state.saturate = saturate.checked;
    later(() => redraw(true), "draw");
  });

  /** Shows a whole state (a link's, or the chapter's again). */
  const apply = (s: NumberFormatsSettings) => {
    Object.assign(state, s);
    valueInput.value = String(s.value);
    setFieldProblem(valueInput, undefined);
    focusSelect.value = s.focus;
    saturate.checked = s.saturate;
    syncSlider();
    redraw(true);
  };

  for (const control of [valueInput, slider, focusSelect, saturate]) control.disabled = false;
  syncSlider();
  if (link.restored) apply(link.restored);
  else redraw(false);

  if (typeof ResizeObserver !== "undefined") {
    new ResizeObserver(() => {
      const width = Math.max(300, Math.min(900, Math.floor(canvas.clientWidth || 720)));
      if (width !== lastWidth) redraw(false);
    }).observe(canvas);
  }
}
