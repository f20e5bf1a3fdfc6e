/**
 * Browser entry of the `tp-sharding` widget: enables the controls the build drew (disabled,
 * showing the default) and redraws the layer with the same figure code as the static SVG. A bad
 * value marks its field invalid with a message (role="alert") and the figure keeps the last valid
 * state. Nothing animates, so prefers-reduced-motion needs no special case. The settings live in
 * the URL under this widget's id; "Copy link" shares them (runtime/url-state.ts). An edit is
 * checked at once and the layer redrawn after the edit has painted, for keys typed into a field
 * after a pause (runtime/after-paint.ts, issue #54); the new drawing is built off the page and
 * swapped in, so the figure never collapses in between.
 */
import { drawTpSharding } from "../figures/tp-sharding.ts";
import {
  summarizeTpSharding,
  validateTpShardingControls,
  type TpShardingSettings,
  tpShardingUrlCodec,
} from "../figures/tp-sharding-state.ts";
import { setFieldProblem } from "../figures/kit/field.ts";
import { widgetLink } from "./runtime/url-state.ts";
import { afterPaint, typingPauseMs } from "./runtime/after-paint.ts";

export function mount(root: HTMLElement, settings: TpShardingSettings): void {
  const figure = root.querySelector<HTMLElement>(".tp-sharding-figure");
  const readout = root.querySelector<HTMLElement>(".tp-sharding-readout");
  const live = root.querySelector<HTMLElement>("[aria-live]");
  const model = root.querySelector<HTMLSelectElement>("select[name=model]");
  const sp = root.querySelector<HTMLInputElement>("input[name=sp]");
  const fields = {
    tp: root.querySelector<HTMLInputElement>("input[name=tp]"),
    seq: root.querySelector<HTMLInputElement>("input[name=seq]"),
    microBatch: root.querySelector<HTMLInputElement>("input[name=microBatch]"),
  };
  if (!figure || !readout || !model || !sp || !fields.tp || !fields.seq || !fields.microBatch) {
    throw new Error("tp-sharding: static markup missing");
  }
  const inputs = { model, tp: fields.tp, seq: fields.seq, microBatch: fields.microBatch };
  for (const input of Object.values(inputs)) input.disabled = false;
  sp.disabled = false;
  const idBase = root.getAttribute("id") ?? "tp-sharding";
  const link = widgetLink(root, tpShardingUrlCodec, settings, () => apply(settings));
  let last: TpShardingSettings = settings;
  const later = afterPaint(root);

  const draw = () => {
    const fresh = root.ownerDocument.createElement("div");
    drawTpSharding(fresh, last, `${idBase}-svg`);
    figure.replaceChildren(...fresh.childNodes);
    const text = summarizeTpSharding(last);
    readout.textContent = text;
    if (live) live.textContent = text;
    link.show(last);
  };

  const update = (delayMs = 0) => {
    const result = validateTpShardingControls(
      { model: model.value, tp: inputs.tp.value, seq: inputs.seq.value, microBatch: inputs.microBatch.value },
      sp.checked,
    );
    for (const [key, input] of Object.entries(inputs)) {
      setFieldProblem(input, result.ok ? undefined : result.errors[key as keyof typeof result.errors]);
    }
    if (!result.ok) return;
    last = result.settings;
    later(draw, "draw", delayMs);
  };
  const apply = (s: TpShardingSettings) => {
    model.value = s.model;
    inputs.tp.value = String(s.tp);
    inputs.seq.value = String(s.seq);
    inputs.microBatch.value = String(s.microBatch);
    sp.checked = s.sp;
    update();
  };
  for (const input of [inputs.tp, inputs.seq, inputs.microBatch])
    input.addEventListener("input", () => update(typingPauseMs));
  model.addEventListener("change", () => update());
  sp.addEventListener("change", () => update());
  if (link.restored) apply(link.restored);
}
