/**
 * Browser entry of the `coalescing` widget: enables the controls the build drew and redraws the
 * warp and its sectors as the reader changes stride, element size or offset. A bad value marks
 * its field invalid with a message (role="alert"); the drawing keeps the last valid state.
 * Nothing animates, so prefers-reduced-motion needs no special case. The settings live in the URL
 * under this widget's id; "Copy link" shares them (runtime/url-state.ts).
 */
import {
  drawCoalescing,
  readCoalescingControls,
  summarizeCoalescing,
  type CoalescingSettings,
  coalescingUrlCodec,
} from "../figures/coalescing.ts";
import { setFieldProblem } from "../figures/kit/field.ts";
import { widgetLink } from "./runtime/url-state.ts";

export function mount(root: HTMLElement, settings: CoalescingSettings): void {
  const figure = root.querySelector<HTMLElement>(".coalescing-figure");
  const readout = root.querySelector<HTMLElement>(".coalescing-readout");
  const live = root.querySelector<HTMLElement>("[aria-live]");
  const stride = root.querySelector<HTMLInputElement>("input[name=stride]");
  const offset = root.querySelector<HTMLInputElement>("input[name=offset]");
  const size = root.querySelector<HTMLSelectElement>("select[name=elementBytes]");
  if (!figure || !readout || !stride || !offset || !size) throw new Error("coalescing: static markup missing");
  for (const c of [stride, offset, size]) c.disabled = false;
  const idBase = root.getAttribute("id") ?? "coalescing";
  const link = widgetLink(root, coalescingUrlCodec, settings, () => apply(settings));
  let last = settings;
  const update = () => {
    const result = readCoalescingControls({ stride: stride.value, elementBytes: size.value, offset: offset.value });
    const errors = result.ok ? {} : result.errors;
    setFieldProblem(stride, errors.stride);
    setFieldProblem(offset, errors.offset);
    if (!result.ok) return;
    last = result.settings;
    figure.textContent = "";
    const access = drawCoalescing(figure, last, `${idBase}-svg`);
    const text = summarizeCoalescing(last, access);
    readout.textContent = text;
    if (live) live.textContent = text;
    link.show(last);
  };
  const apply = (s: CoalescingSettings) => {
    stride.value = String(s.stride);
    offset.value = String(s.offset);
    size.value = String(s.elementBytes);
    update();
  };
  for (const c of [stride, offset]) c.addEventListener("input", update);
  size.addEventListener("change", update);
  if (link.restored) apply(link.restored);
}
