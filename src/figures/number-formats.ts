/**
 * number-formats: one real number stored in fp32, tf32, fp16, bf16, fp8 E4M3 and fp8 E5M2. For each
 * format it draws the bit pattern, the value that comes back, the relative error and the gap to the
 * next representable value; then every format's range on a logarithmic line with the number marked;
 * then, for one chosen format, the representable values around the number on a linear line.
 * Used by the mixed-precision chapter. Every number comes from `src/model/number-formats.ts`.
 *
 * This file is the widget's definition: the build-time controls (disabled until the browser entry,
 * src/widgets/number-formats.ts, enables them), the figure and the live region. The parts live in
 * number-formats/: settings.ts (settings and typed input), text.ts (how values print), view.ts (the
 * view model) and draw.ts (the SVG).
 */
import { numberFormat } from "../model/index.ts";
import { numberFormatIds } from "../data/number-formats.ts";
import { defineWidget } from "./widget.ts";
import { dom } from "./kit/dom.ts";
import { numberField, selectField } from "./kit/field.ts";
import { parseSettings, type NumberFormatsSettings } from "./number-formats/settings.ts";
import { formatValue } from "./number-formats/text.ts";
import { numberFormatsView, summarizeView } from "./number-formats/view.ts";
import { drawNumberFormats } from "./number-formats/draw.ts";

/** Builds the controls (disabled until the browser entry enables them), figure and live region. */
function renderStatic(root: Element, settings: NumberFormatsSettings): void {
  const doc = root.ownerDocument;
  const idBase = root.getAttribute("id") ?? "number-formats";
  const { el } = dom(doc);
  const box = el("div", { class: "number-formats" });
  const controls = el("div", { class: "widget-controls" });

  const valueField = numberField(doc, {
    idBase,
    name: "value",
    label: "Number",
    value: settings.value,
    inputmode: "decimal",
  });

  const magnitude = settings.value === 0 ? 0 : Math.log10(Math.abs(settings.value));
  const sliderField = el("div", { class: "widget-field" });
  sliderField.append(
    el("label", { for: `${idBase}-magnitude` }, "Magnitude (drag: powers of ten)"),
    el("input", {
      id: `${idBase}-magnitude`,
      name: "magnitude",
      type: "range",
      min: "-12",
      max: "6",
      step: "0.01",
      value: String(Math.min(6, Math.max(-12, Number(magnitude.toFixed(2))))),
      "aria-valuetext": formatValue(Math.abs(settings.value), 6),
      disabled: "",
    }),
  );

  const focusField = selectField(doc, {
    idBase,
    name: "focus",
    label: "Spacing strip for",
    options: numberFormatIds.map((id) => [id, numberFormat(id).label] as const),
    value: settings.focus,
  });

  const satField = el("div", {
    class: "widget-field widget-check",
    style: "flex-direction: row; align-items: center; gap: 0.5rem",
  });
  const checkbox = el("input", { id: `${idBase}-saturate`, name: "saturate", type: "checkbox", disabled: "" });
  if (settings.saturate) checkbox.setAttribute("checked", "");
  satField.append(
    checkbox,
    el("label", { for: `${idBase}-saturate` }, "Saturate on overflow (clamp to ±max instead of ±∞ or NaN)"),
  );

  controls.append(valueField, sliderField, focusField, satField);
  const figure = el("div", { class: "nf-canvas" });
  const view = numberFormatsView(settings);
  drawNumberFormats(figure, view, 720);
  const live = el("p", { class: "visually-hidden", "aria-live": "polite" }, summarizeView(view));
  box.append(controls, figure, live);
  root.append(box);
}

export const numberFormatsWidget = defineWidget<NumberFormatsSettings>({
  description: "stores one number in fp32, tf32, fp16, bf16, fp8 E4M3 and E5M2: bits, error, range and spacing",
  parseSettings,
  renderStatic,
});
