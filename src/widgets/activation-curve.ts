/**
 * Browser entry of the activation-curve widget: enables the controls the build drew (disabled,
 * showing the default) and redraws the chart from the model on every change, once the change has
 * painted (runtime/after-paint.ts). A bad micro-batch
 * marks the field invalid with a message and leaves the last good chart in place. Nothing
 * animates, so `prefers-reduced-motion` needs no special case. The settings live in the URL under
 * this widget's id; "Copy link" shares them (runtime/url-state.ts).
 */
import { drawActivationChart } from "../figures/activation-curve.ts";
import {
  activationCurves,
  curveSummary,
  parseMicroBatch,
  type ActivationCurveSettings,
  type CurveAttention,
  activationCurveUrlCodec,
} from "../figures/activation-curve-state.ts";
import { findModelPreset } from "../model/index.ts";
import { setFieldProblem } from "../figures/kit/field.ts";
import { afterPaint } from "./runtime/after-paint.ts";
import { widgetLink } from "./runtime/url-state.ts";

export function mount(root: HTMLElement, settings: ActivationCurveSettings): void {
  const model = root.querySelector<HTMLSelectElement>("select[name=model]");
  const attention = root.querySelector<HTMLSelectElement>("select[name=attention]");
  const batch = root.querySelector<HTMLInputElement>("input[name=microBatch]");
  const chart = root.querySelector<HTMLElement>(".ac-chart-box");
  const note = root.querySelector<HTMLElement>(".ac-summary");
  const live = root.querySelector<HTMLElement>("[aria-live]");
  if (!model || !attention || !batch || !chart) throw new Error("activation-curve: static markup missing");
  model.disabled = false;
  attention.disabled = false;
  batch.disabled = false;

  const link = widgetLink(root, activationCurveUrlCodec, settings, () => apply(settings));
  let last: ActivationCurveSettings = { ...settings };
  let drawnWidth = 0;
  const update = () => {
    const parsed = parseMicroBatch(batch.value);
    if (!parsed.ok) {
      setFieldProblem(batch, parsed.message);
      return;
    }
    setFieldProblem(batch, undefined);
    const next: ActivationCurveSettings = {
      model: findModelPreset(model.value) ? model.value : last.model,
      attention:
        attention.value === "flash" || attention.value === "eager"
          ? (attention.value as CurveAttention)
          : last.attention,
      microBatch: parsed.value,
      gpu: last.gpu,
    };
    last = next;
    link.show(next);
    // The model and the chart after the edit has painted (runtime/after-paint.ts).
    later(() => {
      const curves = activationCurves(next);
      drawnWidth = chart.clientWidth;
      drawActivationChart(chart, curves, chart.clientWidth || undefined);
      const text = curveSummary(curves);
      if (note) note.textContent = text;
      if (live) live.textContent = text;
    });
  };
  const later = afterPaint(root);
  // Redraw at the real width once (phones get the compact layout) and when it changes.
  const fit = () => {
    const w = chart.clientWidth;
    if (w > 0 && Math.abs(w - drawnWidth) > 24) {
      drawnWidth = w;
      drawActivationChart(chart, activationCurves(last), w);
    }
  };
  fit();
  if (typeof ResizeObserver !== "undefined") new ResizeObserver(fit).observe(chart);
  model.addEventListener("change", update);
  attention.addEventListener("change", update);
  batch.addEventListener("input", update);
  const apply = (s: ActivationCurveSettings) => {
    model.value = s.model;
    attention.value = s.attention;
    batch.value = String(s.microBatch);
    update();
  };
  if (link.restored) apply(link.restored);
}
