/**
 * Browser entry of the `dp-overlap` widget: enables the controls the build drew (disabled,
 * showing the default) and redraws both timelines with the same figure code as the static
 * build-time SVG. A bad value marks its field invalid with a message (role="alert") and the
 * figure keeps the last valid state. Nothing animates, so prefers-reduced-motion needs no case.
 * The settings live in the URL under this widget's id; "Copy link" shares them (runtime/url-state.ts).
 * An edit is checked at once; the redraw follows after the edit has painted (runtime/after-paint.ts),
 * for typed keys after a pause, so typing "100" draws once (issue #54).
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
import { afterPaint, typingPauseMs } from "./runtime/after-paint.ts";

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
  const later = afterPaint(root);
  let last = settings;
  // What the figure shows: the state and the width it was drawn at (the build draws 640 units).
  let drawn = { key: JSON.stringify(settings), width: 640 };

  /**
   * Draws `last` into a detached element and swaps it in at once: the figure never stands empty,
   * so the page is laid out once, not once without the figure and again with it. Its width is
   * read before anything changes (the layout is clean then); a state and width already shown are
   * not drawn again.
   */
  const redraw = () => {
    const width = figure.clientWidth || 640;
    const key = JSON.stringify(last);
    if (key === drawn.key && Math.abs(width - drawn.width) <= 40) return;
    const holder = figure.ownerDocument.createElement("div");
    renderDpOverlap(holder, last, `${idBase}-svg`, width);
    figure.replaceChildren(...Array.from(holder.childNodes));
    const text = summarizeDpOverlap(last);
    readout.textContent = text;
    if (live) live.textContent = text;
    drawn = { key, width };
  };

  /**
   * Checks the fields at once (each message and aria-invalid shows with the key) and redraws after
   * the edit has painted, after `delayMs` without another edit (typing).
   */
  const update = (delayMs = 0) => {
    const raw: Record<string, string> = {};
    for (const [key, input] of inputs) raw[key] = input.value;
    const result = validateDpOverlapControls(raw, checkbox.checked, last);
    for (const [key, input] of inputs) {
      setFieldProblem(input, result.ok ? undefined : result.errors[key]);
    }
    if (!result.ok) return;
    last = result.settings;
    link.show(last);
    later(redraw, "draw", delayMs);
  };
  const apply = (s: DpOverlapSettings) => {
    for (const [key, input] of inputs) input.value = String(s[key as keyof DpOverlapSettings]);
    checkbox.checked = s.noSync;
    update();
  };
  for (const input of inputs.values()) input.addEventListener("input", () => update(typingPauseMs));
  checkbox.addEventListener("change", () => update());
  // Redraw at the width the page gives the figure.
  redraw();
  if (link.restored) apply(link.restored);
}
