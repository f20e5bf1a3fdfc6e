/**
 * collectives: step through a collective operation on n GPUs. Each row is a GPU's buffer cut
 * into n chunks; a chunk's shade says how many GPUs' contributions it holds. The cells sent in
 * the current step are outlined, the cells they land in are dashed, and a list names every
 * message and its bytes. All schedules come from src/model (collectiveSteps).
 *
 * Settings (YAML inside `::: widget collectives`):
 *   collective: all-reduce   # one of STEP_COLLECTIVES
 *   ranks: 4                 # GPUs, 2 … 16
 *   messageMB: 64            # message size S in MB (1e6 bytes), nccl-tests convention
 *   step: 1                  # step shown by the static drawing (0 = before the first step)
 */
import {
  busBandwidthFactor,
  collectiveSteps,
  MAX_STEP_RANKS,
  STEP_COLLECTIVES,
  type CollectiveSchedule,
  type Piece,
  type StepCollective,
} from "../model/index.ts";
import { WidgetSettingsError, defineWidget, settingsObject } from "./widget.ts";
import { dom, figureSvg, type Attrs } from "./kit/dom.ts";
import { formatBytes, formatInteger, formatNumber } from "./kit/format.ts";
import { numberField, selectField } from "./kit/field.ts";

export interface CollectivesSettings {
  collective: StepCollective;
  ranks: number;
  messageMB: number;
  step: number;
}

/** Largest message accepted, MB (1 TB). */
const MAX_MESSAGE_MB = 1e6;

const collectiveLabels: Readonly<Record<StepCollective, string>> = {
  broadcast: "Broadcast",
  reduce: "Reduce",
  "all-reduce": "All-reduce (ring)",
  gather: "Gather",
  scatter: "Scatter",
  "all-gather": "All-gather (ring)",
  "reduce-scatter": "Reduce-scatter (ring)",
  "all-to-all": "All-to-all",
  barrier: "Barrier",
};

/** The schedule for a settings object (root 0). */
export function scheduleFor(s: Pick<CollectivesSettings, "collective" | "ranks" | "messageMB">): CollectiveSchedule {
  return collectiveSteps({
    collective: s.collective,
    ranks: s.ranks,
    messageBytes: s.collective === "barrier" ? 0 : s.messageMB * 1e6,
  });
}

type FieldErrors = Partial<Record<"ranks" | "messageMB", string>>;
export type ControlResult = { ok: true; settings: CollectivesSettings } | { ok: false; errors: FieldErrors };

/** Validates what a reader typed; never throws. The step is clamped to the new schedule. */
export function validateCollectivesControls(
  raw: { collective: string; ranks: string; messageMB: string },
  step: number,
): ControlResult {
  const errors: FieldErrors = {};
  const collective = (STEP_COLLECTIVES as readonly string[]).includes(raw.collective)
    ? (raw.collective as StepCollective)
    : "all-reduce";
  const ranksText = raw.ranks.trim();
  const ranks = Number(ranksText);
  if (ranksText === "" || !/^\d+$/.test(ranksText) || !Number.isInteger(ranks) || ranks < 2 || ranks > MAX_STEP_RANKS) {
    errors.ranks = `Enter a whole number of GPUs from 2 to ${MAX_STEP_RANKS}.`;
  }
  const mbText = raw.messageMB.trim().replace(/(?<=\d)[,_ ](?=\d)/g, "");
  const mb = Number(mbText);
  if (
    mbText === "" ||
    !/^\+?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i.test(mbText) ||
    !Number.isFinite(mb) ||
    mb <= 0 ||
    mb > MAX_MESSAGE_MB
  ) {
    errors.messageMB = `Enter a message size above 0 and at most ${formatInteger(MAX_MESSAGE_MB)} MB.`;
  }
  if (errors.ranks || errors.messageMB) return { ok: false, errors };
  const steps = scheduleFor({ collective, ranks, messageMB: mb }).steps.length;
  return {
    ok: true,
    settings: { collective, ranks, messageMB: mb, step: Math.min(Math.max(0, Math.round(step)), steps) },
  };
}

function parseSettings(raw: unknown): CollectivesSettings {
  const obj = settingsObject(raw, ["collective", "ranks", "messageMB", "step"]);
  const collective = obj.collective ?? "all-reduce";
  if (typeof collective !== "string" || !(STEP_COLLECTIVES as readonly string[]).includes(collective)) {
    throw new WidgetSettingsError(
      "collective",
      `must be one of ${STEP_COLLECTIVES.join(", ")} (got ${JSON.stringify(collective)})`,
    );
  }
  const ranks = obj.ranks ?? 4;
  if (typeof ranks !== "number" || !Number.isInteger(ranks) || ranks < 2 || ranks > MAX_STEP_RANKS) {
    throw new WidgetSettingsError(
      "ranks",
      `must be a whole number from 2 to ${MAX_STEP_RANKS} (got ${JSON.stringify(ranks)})`,
    );
  }
  const messageMB = obj.messageMB ?? 64;
  if (typeof messageMB !== "number" || !Number.isFinite(messageMB) || messageMB <= 0 || messageMB > MAX_MESSAGE_MB) {
    throw new WidgetSettingsError(
      "messageMB",
      `must be a number above 0 and at most ${MAX_MESSAGE_MB} (got ${JSON.stringify(messageMB)})`,
    );
  }
  const steps = scheduleFor({ collective: collective as StepCollective, ranks, messageMB }).steps.length;
  const step = obj.step ?? Math.min(1, steps);
  if (typeof step !== "number" || !Number.isInteger(step) || step < 0 || step > steps) {
    throw new WidgetSettingsError(
      "step",
      `must be a whole number from 0 to ${steps} for this collective (got ${JSON.stringify(step)})`,
    );
  }
  return { collective: collective as StepCollective, ranks, messageMB, step };
}

/** Buffers shown at `step` (0 = initial). */
function buffersAt(schedule: CollectiveSchedule, step: number): (Piece | null)[][] {
  return step === 0 ? schedule.initial : schedule.steps[step - 1]!.buffers;
}

/** Short text in a cell: "c2 3/4" for partial sums, "c2" for copies, "1→3" for all-to-all, "3/4 here" for barrier. */
export function cellLabel(c: StepCollective, n: number, p: Piece | null): string {
  if (!p) return "";
  if (c === "barrier") return `${p.sources.length}/${n} here`;
  if (c === "all-to-all") return `${p.sources[0]}→${p.chunk}`;
  if (c === "reduce" || c === "all-reduce" || c === "reduce-scatter") return `c${p.chunk} ${p.sources.length}/${n}`;
  return `c${p.chunk}`;
}

/** Fraction of the final content a cell holds (shade). */
function cellFraction(c: StepCollective, n: number, p: Piece | null): number {
  if (!p) return 0;
  if (c === "reduce" || c === "all-reduce" || c === "reduce-scatter" || c === "barrier") return p.sources.length / n;
  return 1;
}

/** Lines describing the messages of `step` (1-based); empty for step 0. */
export function transferLines(schedule: CollectiveSchedule, step: number): string[] {
  if (step === 0) return [];
  const s = schedule.steps[step - 1]!;
  return s.transfers.map((t) => {
    const what =
      schedule.collective === "barrier"
        ? "an empty message"
        : t.chunks.length === schedule.ranks
          ? "the whole buffer"
          : `chunk ${t.chunks.join(", ")}`;
    const verb =
      t.combine === "sum" && schedule.collective !== "barrier"
        ? "adds it in"
        : schedule.collective === "barrier"
          ? "learns who has arrived"
          : "stores it";
    return `GPU ${t.from} → GPU ${t.to}: ${what} (${formatBytes(t.bytes)}); GPU ${t.to} ${verb}.`;
  });
}

const ncclFactor = (c: StepCollective, n: number): number | null =>
  c === "all-reduce" || c === "all-gather" || c === "reduce-scatter" || c === "all-to-all"
    ? busBandwidthFactor(c, n)
    : null;

/** The sentence the reader (and screen reader) gets for the current state. */
export function summarizeCollectives(s: CollectivesSettings): string {
  const schedule = scheduleFor(s);
  const total = schedule.steps.length;
  const head = `${collectiveLabels[s.collective]} on ${s.ranks} GPUs, ${schedule.algorithm}, ${total} step${total === 1 ? "" : "s"}.`;
  if (s.collective === "barrier") {
    return `${head} Step ${s.step} of ${total}. No data moves; after the last step every GPU knows that all ${s.ranks} have arrived.`;
  }
  const maxSent = Math.max(...schedule.bytesSentByRank);
  const stepText =
    s.step === 0
      ? "Before the first step."
      : `Step ${s.step} of ${total}: ${schedule.steps[s.step - 1]!.transfers.length} messages, the busiest GPU link carries ${formatBytes(schedule.steps[s.step - 1]!.maxLinkBytes)}.`;
  const f = ncclFactor(s.collective, s.ranks);
  const factor =
    f === null ? "" : ` That is ${formatNumber(f, { significant: 4 })} × S, the nccl-tests bus-bandwidth factor.`;
  return `${head} ${stepText} Over the whole collective the busiest GPU sends ${formatBytes(maxSent)} of an S = ${formatBytes(schedule.messageBytes)} message.${factor}`;
}

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
  parseSettings,
  renderStatic,
});
