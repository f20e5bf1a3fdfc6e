/**
 * The `collectives` widget's state, without DOM: the settings (YAML inside `::: widget
 * collectives`, see src/figures/collectives.ts) and the control values, each validated with a
 * message for the field at fault; the step schedule of validated settings from `collectiveSteps`
 * in src/model; what each cell holds; and the text (the list of messages, the summary sentence
 * for the readout and screen readers).
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
import { WidgetSettingsError, settingsObject } from "./widget.ts";
import { settingsUrlCodec } from "./kit/url-codec.ts";
import { parseNumberField } from "./kit/field.ts";
import { formatBytes, formatNumber } from "./kit/format.ts";

export interface CollectivesSettings {
  collective: StepCollective;
  ranks: number;
  messageMB: number;
  step: number;
}

/** Largest message accepted, MB (1 TB). */
const MAX_MESSAGE_MB = 1e6;

export const collectiveLabels: Readonly<Record<StepCollective, string>> = {
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
  const ranksField = parseNumberField(raw.ranks, { integer: true, min: 2, max: MAX_STEP_RANKS });
  if (!ranksField.ok) errors.ranks = ranksField.message;
  const mbField = parseNumberField(raw.messageMB, { above: 0, max: MAX_MESSAGE_MB });
  if (!mbField.ok) errors.messageMB = mbField.message;
  if (!ranksField.ok || !mbField.ok) return { ok: false, errors };
  const ranks = ranksField.value;
  const mb = mbField.value;
  const steps = scheduleFor({ collective, ranks, messageMB: mb }).steps.length;
  return {
    ok: true,
    settings: { collective, ranks, messageMB: mb, step: Math.min(Math.max(0, Math.round(step)), steps) },
  };
}

/** Validates the YAML settings; throws WidgetSettingsError naming the field at fault. */
export function parseCollectivesSettings(raw: unknown): CollectivesSettings {
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
export function buffersAt(schedule: CollectiveSchedule, step: number): (Piece | null)[][] {
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
export function cellFraction(c: StepCollective, n: number, p: Piece | null): number {
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

/** The widget's settings in a page link (`?<widget id>=key:value,…`), checked by the chapter's parser. */
export const collectivesUrlCodec = settingsUrlCodec(
  { collective: "choice", ranks: "number", messageMB: "number", step: "number" },
  parseCollectivesSettings,
);
