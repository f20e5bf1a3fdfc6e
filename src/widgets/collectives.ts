/**
 * Browser entry of the `collectives` widget: enables the controls the build drew (disabled,
 * showing the default step) and redraws the buffer grid with the same figure code as the
 * static SVG. Previous/Next buttons (and the arrow keys while a button has focus) move through
 * the steps. A bad value marks its field invalid (role="alert") and the drawing keeps the last
 * valid state. Nothing animates, so prefers-reduced-motion needs no special case. The settings and
 * the step live in the URL under this widget's id; "Copy link" shares them (runtime/url-state.ts).
 */
import { fillTransferList, renderCollectivesGrid } from "../figures/collectives.ts";
import {
  scheduleFor,
  summarizeCollectives,
  validateCollectivesControls,
  type CollectivesSettings,
  collectivesUrlCodec,
} from "../figures/collectives-state.ts";
import { setFieldProblem } from "../figures/kit/field.ts";
import { widgetLink } from "./runtime/url-state.ts";

export function mount(root: HTMLElement, settings: CollectivesSettings): void {
  const select = root.querySelector<HTMLSelectElement>("select[name=collective]");
  const ranks = root.querySelector<HTMLInputElement>("input[name=ranks]");
  const size = root.querySelector<HTMLInputElement>("input[name=messageMB]");
  const prev = root.querySelector<HTMLButtonElement>("button[name=prev]");
  const next = root.querySelector<HTMLButtonElement>("button[name=next]");
  const stepText = root.querySelector<HTMLElement>(".coll-step");
  const figure = root.querySelector<HTMLElement>(".coll-figure");
  const list = root.querySelector<HTMLElement>(".coll-transfers");
  const readout = root.querySelector<HTMLElement>(".coll-readout");
  const live = root.querySelector<HTMLElement>("[aria-live]");
  if (!select || !ranks || !size || !prev || !next || !stepText || !figure || !list || !readout)
    throw new Error("collectives: static markup missing");
  const idBase = root.getAttribute("id") ?? "collectives";
  const link = widgetLink(root, collectivesUrlCodec, settings, () => apply(settings));
  let last = settings;

  const draw = () => {
    const total = scheduleFor(last).steps.length;
    renderCollectivesGrid(figure, last, `${idBase}-svg`, Math.max(320, figure.clientWidth || 640));
    fillTransferList(list, last);
    stepText.textContent = `Step ${last.step} of ${total}`;
    prev.disabled = last.step === 0;
    next.disabled = last.step >= total;
    const text = summarizeCollectives(last);
    readout.textContent = text;
    if (live) live.textContent = text;
    link.show(last);
  };
  const update = (step: number) => {
    const result = validateCollectivesControls(
      { collective: select.value, ranks: ranks.value, messageMB: size.value },
      step,
    );
    setFieldProblem(ranks, result.ok ? undefined : result.errors.ranks);
    setFieldProblem(size, result.ok ? undefined : result.errors.messageMB);
    if (!result.ok) return;
    last = result.settings;
    draw();
  };
  for (const el of [select, ranks, size]) el.disabled = false;
  select.addEventListener("change", () => update(1));
  ranks.addEventListener("input", () => update(last.step));
  size.addEventListener("input", () => update(last.step));
  prev.addEventListener("click", () => update(last.step - 1));
  next.addEventListener("click", () => update(last.step + 1));
  for (const b of [prev, next]) {
    b.addEventListener("keydown", (e) => {
      if (e.key === "ArrowLeft") {
        e.preventDefault();
        update(last.step - 1);
      } else if (e.key === "ArrowRight") {
        e.preventDefault();
        update(last.step + 1);
      }
    });
  }
  const apply = (s: CollectivesSettings) => {
    select.value = s.collective;
    ranks.value = String(s.ranks);
    size.value = String(s.messageMB);
    update(s.step);
  };
  draw();
  if (link.restored) apply(link.restored);
}
