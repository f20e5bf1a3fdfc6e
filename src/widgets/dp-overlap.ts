/**
 * Browser entry of the `dp-overlap` widget: enables the controls the build drew (disabled,
 * showing the default) and redraws both timelines with the same figure code as the static
 * build-time SVG. A bad value marks its field invalid with a message (role="alert") and the
 * figure keeps the last valid state. Nothing animates, so prefers-reduced-motion needs no case.
 * The settings live in the URL under this widget's id; "Copy link" shares them (runtime/url-state.ts).
 */
import {
  dpOverlapControls,
  renderDpOverlap,
  summarizeDpOverlap,
  validateDpOverlapControls,
  type DpOverlapSettings,
  dpOverlapUrlCodec,
} from "../figures/dp-overlap.ts";
import { setFieldProblem } from "../figures/kit/field.ts";
import { widgetLink } from "./runtime/url-state.ts";

export function mount(root: HTMLElement, settings: DpOverlapSettings): void {
  const figure = root.querySelector<HTMLElement>(".dp-overlap-figure");
  const readout = root.querySelector<HTMLElement>(".dp-overlap-readout");
  const live = root.querySelector<HTMLElement>("[aria-live]");
  const checkbox = root.querySelector<HTMLInputElement>("input[name=noSync]");
  if (!figure || !readout || !checkbox) throw new Error("dp-overlap: static markup missing");
  const inputs = new Map<string, HTMLInputElement>();
  for (const c of dpOverlapControls) {
    const input = root.querySelector<HTMLInputElement>(`input[name=${c.key}]`);
    if (!input) throw new Error(`dp-overlap: control ${c.key} missing`);
    input.disabled = false;
    inputs.set(c.key, input);
  }
  checkbox.disabled = false;
  const idBase = root.getAttribute("id") ?? "dp-overlap";
  const link = widgetLink(root, dpOverlapUrlCodec, settings, () => apply(settings));
  let last = settings;

  const update = () => {
    const raw: Record<string, string> = {};
    for (const [key, input] of inputs) raw[key] = input.value;
    const result = validateDpOverlapControls(raw, checkbox.checked, last);
    for (const [key, input] of inputs) {
      setFieldProblem(input, result.ok ? undefined : result.errors[key]);
    }
    if (!result.ok) return;
    last = result.settings;
    figure.textContent = "";
    renderDpOverlap(figure, last, `${idBase}-svg`, figure.clientWidth || 640);
    const text = summarizeDpOverlap(last);
    readout.textContent = text;
    if (live) live.textContent = text;
    link.show(last);
  };
  const apply = (s: DpOverlapSettings) => {
    for (const [key, input] of inputs) input.value = String(s[key as keyof DpOverlapSettings]);
    checkbox.checked = s.noSync;
    update();
  };
  for (const input of inputs.values()) input.addEventListener("input", update);
  checkbox.addEventListener("change", update);
  // Redraw at the width the page gives the figure (the build draws it 640 units wide).
  const width = figure.clientWidth;
  if (width > 0 && Math.abs(width - 640) > 40) {
    figure.textContent = "";
    renderDpOverlap(figure, last, `${idBase}-svg`, width);
  }
  if (link.restored) apply(link.restored);
}
