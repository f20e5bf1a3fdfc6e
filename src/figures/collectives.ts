/**
 * collectives: step through a collective operation on n GPUs. Each row is a GPU's buffer cut
 * into n chunks; a chunk's shade says how many GPUs' contributions it holds. The cells sent in
 * the current step are outlined, the cells they land in are dashed, and a list names every
 * message and its bytes. All schedules come from src/model (collectiveSteps), through
 * src/figures/collectives-state.ts (settings, validation, schedule, text); this file draws the
 * grid and the list and builds the static widget.
 *
 * Settings (YAML inside `::: widget collectives`):
 *   collective: all-reduce   # one of STEP_COLLECTIVES
 *   ranks: 4                 # GPUs, 2 … 16
 *   messageMB: 64            # message size S in MB (1e6 bytes), nccl-tests convention
 *   step: 1                  # step shown by the static drawing (0 = before the first step)
 */
import { STEP_COLLECTIVES } from "../model/index.ts";
import { defineWidget } from "./widget.ts";
import { dom, figureSvg, type Attrs } from "./kit/dom.ts";
import { numberField, selectField } from "./kit/field.ts";
import {
  buffersAt,
  cellFraction,
  cellLabel,
  collectiveLabels,
  parseCollectivesSettings,
  scheduleFor,
  summarizeCollectives,
  transferLines,
  type CollectivesSettings,
} from "./collectives-state.ts";

/** Draws the buffer grid for `s` into `container` (replacing its content). Width in user units. */
export function renderCollectivesGrid(container: Element, s: CollectivesSettings, svgId: string, width = 640): void {
  const doc = container.ownerDocument;
  const schedule = scheduleFor(s);
  const n = s.ranks;
  const slots = s.collective === "barrier" ? 1 : n;
  const buffers = buffersAt(schedule, s.step);
  const transfers = s.step === 0 ? [] : schedule.steps[s.step - 1]!.transfers;
  const sending = new Set<string>();
  const receiving = new Set<string>();
  for (const t of transfers) {
    for (const j of t.chunks) {
      sending.add(`${t.from}:${j}`);
      receiving.add(`${t.to}:${s.collective === "all-to-all" ? t.from : j}`);
    }
  }
  const left = 62;
  const top = 28;
  const rowH = n > 10 ? 20 : 26;
  const cellW = Math.max(14, (width - left - 8) / slots);
  const height = top + n * rowH + 10;
  const { svg: mk } = dom(doc);
  container.textContent = "";
  const svg = figureSvg(doc, {
    width,
    height,
    idPrefix: svgId,
    title: `${collectiveLabels[s.collective]} on ${n} GPUs, ${s.step === 0 ? "before the first step" : `after step ${s.step} of ${schedule.steps.length}`}`,
    attrs: { width, height, class: "coll-svg" },
  });
  svg.append(
    mk(
      "style",
      {},
      ".coll-svg text{font:12px system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;fill:var(--c-text)}" +
        ".coll-svg .halo{paint-order:stroke;stroke:var(--c-bg);stroke-width:3px;stroke-linejoin:round}" +
        ".coll-svg .muted{fill:var(--c-muted)}",
    ),
  );
  const showText = cellW >= 30;
  for (let j = 0; j < slots; j++) {
    const label =
      s.collective === "barrier" ? "arrivals known" : s.collective === "all-to-all" ? `slot ${j}` : `chunk ${j}`;
    if (cellW >= 44 || j % Math.ceil(44 / cellW) === 0) {
      svg.append(
        mk(
          "text",
          { x: left + j * cellW + cellW / 2, y: top - 9, "text-anchor": "middle", class: "muted" },
          cellW >= 52 ? label : String(j),
        ),
      );
    }
  }
  for (let r = 0; r < n; r++) {
    const y = top + r * rowH;
    svg.append(mk("text", { x: left - 8, y: y + rowH / 2 + 4, "text-anchor": "end" }, `GPU ${r}`));
    for (let j = 0; j < slots; j++) {
      const p = buffers[r]![j] ?? null;
      const x = left + j * cellW;
      const frac = cellFraction(s.collective, n, p);
      // The cell's box: once filled by what it holds, and once more outlined when it sends or receives.
      const box = (paint: Attrs) =>
        mk("rect", { x: x + 1.5, y: y + 1.5, width: cellW - 3, height: rowH - 3, rx: 3, ...paint });
      svg.append(
        box({
          fill: p ? "var(--c-comm)" : "none",
          "fill-opacity": p ? (0.2 + 0.8 * frac).toFixed(2) : 0,
          stroke: "var(--c-border)",
          "stroke-width": 1,
        }),
      );
      const key = `${r}:${j}`;
      if (sending.has(key) || receiving.has(key)) {
        svg.append(
          box({
            fill: "none",
            stroke: sending.has(key) ? "var(--c-accent)" : "var(--c-grads)",
            "stroke-width": 2.5,
            "stroke-dasharray": sending.has(key) ? "none" : "4 3",
            class: sending.has(key) ? "coll-send" : "coll-recv",
          }),
        );
      }
      const text = cellLabel(s.collective, n, p);
      if (showText && text && (cellW >= 52 || text.length <= 4)) {
        svg.append(mk("text", { x: x + cellW / 2, y: y + rowH / 2 + 4, "text-anchor": "middle", class: "halo" }, text));
      }
    }
  }
  container.append(svg);
}

/** Fills the list of messages of the current step. */
export function fillTransferList(list: Element, s: CollectivesSettings): void {
  const { el } = dom(list.ownerDocument);
  list.textContent = "";
  const lines = transferLines(scheduleFor(s), s.step);
  if (lines.length === 0) {
    list.append(el("li", {}, "Before the first step: nothing has moved yet."));
    return;
  }
  list.append(...lines.map((line) => el("li", {}, line)));
}

function renderStatic(root: Element, s: CollectivesSettings): void {
  const doc = root.ownerDocument;
  const idBase = root.getAttribute("id") ?? "collectives";
  const { el } = dom(doc);
  const box = el("div", { class: "collectives" });
  const controls = el("div", { class: "widget-controls" });
  controls.append(
    selectField(doc, {
      idBase,
      name: "collective",
      label: "Collective",
      options: STEP_COLLECTIVES.map((c) => [c, collectiveLabels[c]] as const),
      value: s.collective,
    }),
    numberField(doc, { idBase, name: "ranks", label: "GPUs (2–16)", value: s.ranks, size: 6 }),
    numberField(doc, {
      idBase,
      name: "messageMB",
      label: "Message size S (MB)",
      value: s.messageMB,
      inputmode: "decimal",
      size: 6,
    }),
  );
  const total = scheduleFor(s).steps.length;
  const stepper = el("div", { class: "widget-controls coll-stepper" });
  stepper.append(
    el("button", { type: "button", name: "prev", disabled: "" }, "← Previous step"),
    el("span", { class: "coll-step", "aria-hidden": "true" }, `Step ${s.step} of ${total}`),
    el("button", { type: "button", name: "next", disabled: "" }, "Next step →"),
  );
  const figure = el("div", { class: "coll-figure" });
  renderCollectivesGrid(figure, s, `${idBase}-svg`);
  const legend = el(
    "p",
    { class: "coll-legend" },
    "Rows are GPUs, columns the n chunks of each buffer. Darker cells hold more GPUs’ contributions; solid outlines are the chunks sent in this step, dashed outlines where they land.",
  );
  const list = el("ul", { class: "coll-transfers" });
  fillTransferList(list, s);
  const readout = el("p", { class: "coll-readout" }, summarizeCollectives(s));
  const live = el("p", { class: "visually-hidden", "aria-live": "polite" });
  box.append(controls, stepper, figure, legend, list, readout, live);
  root.append(box);
}

export const collectivesWidget = defineWidget<CollectivesSettings>({
  description: "steps through a collective on n GPUs: which chunk moves where, and the bytes sent",
  parseSettings: parseCollectivesSettings,
  renderStatic,
});
