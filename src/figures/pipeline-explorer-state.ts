/**
 * The Pipeline Explorer's logic, without DOM: settings (YAML in a chapter, control values in the
 * browser, a compact string in the page URL), their validation, and the view the drawing reads:
 * the model's schedule layout (`pipelineSchedule` in src/model/pipeline.ts), its measured bubble
 * next to the closed-form value for the schedule, and the peak activations in flight per stage.
 *
 * The widget's limits are tighter than the model's (at most 32 stages and 4,096
 * stage-microbatches) so that a redraw stays within a frame; inside them every input the model
 * rejects becomes a message on the control at fault, never NaN or an exception.
 */
import {
  ModelInputError,
  PIPELINE_SCHEDULES,
  bubbleFraction1f1b,
  bubbleFractionInterleaved,
  bubbleTimeDualPipe,
  bubbleTimeZbH1,
  checkPipelineInput,
  pipelineSchedule,
  type PipelineResult,
  type PipelineSchedule,
} from "../model/index.ts";
import { WidgetSettingsError, settingsObject } from "./widget.ts";
import { decodeUrlState, encodeUrlState, type UrlCodec, type UrlDecodeResult } from "./kit/url-codec.ts";
import { readNumber } from "./kit/field.ts";
import { formatNumber, formatPercent } from "./kit/format.ts";

export const pipelineControls = [
  "schedule",
  "stages",
  "microbatches",
  "chunks",
  "forward",
  "backward",
  "weightGrad",
  "forwardBackward",
] as const;
export type PipelineControl = (typeof pipelineControls)[number];

/** JSON-safe state of the explorer. Durations are relative (any unit). */
export interface PipelineExplorerState {
  schedule: PipelineSchedule;
  stages: number;
  microbatches: number;
  /** Chunks per GPU $v$ (used by the interleaved schedule only). */
  chunks: number;
  forward: number;
  backward: number;
  weightGrad: number;
  /** DualPipe's overlapped forward+backward duration; null = forward + backward + weightGrad. */
  forwardBackward: number | null;
}

export interface PipelineExplorerSettings extends PipelineExplorerState {
  hide: PipelineControl[];
  lock: PipelineControl[];
}

export const pipelineDefaults: PipelineExplorerState = {
  schedule: "1f1b",
  stages: 4,
  microbatches: 8,
  chunks: 2,
  forward: 1,
  backward: 1,
  weightGrad: 1,
  forwardBackward: null,
};

const pipelineLimits = {
  stages: [1, 32],
  microbatches: [1, 256],
  chunks: [2, 8],
  /** stages × microbatches (× chunks when interleaved). */
  cells: 4096,
  /** Largest duration of one operation, relative units. */
  duration: 100,
} as const;

export const scheduleNames: Record<PipelineSchedule, string> = {
  afab: "All forward, all backward (GPipe)",
  "1f1b": "1F1B (PipeDream-Flush)",
  interleaved: "Interleaved 1F1B",
  "zb-h1": "ZB-H1 (zero bubble)",
  dualpipe: "DualPipe",
};

/** Time units and counts: up to two decimals ("12.5", "3"). */
const two = (x: number) => formatNumber(x, { decimals: 2, trim: true });

/** The closed-form bubble of a schedule, next to what the layout measured. */
export interface BubbleComparison {
  /** The formula with values substituted, e.g. "(p − 1)/m = 3/8 = 37.5%". */
  closedForm: string;
  /** Measured from the layout, in the same form as the closed form (fraction or time units). */
  measured: string;
  /** Whether the two agree (within 1e-9). */
  agree: boolean;
  /** When the closed form's assumptions do not hold for these inputs, why. */
  caveat: string | null;
}

export interface PipelineView {
  state: PipelineExplorerState;
  result: PipelineResult;
  bubble: BubbleComparison;
}

/** The model's input for a state. */
function pipelineInputOf(s: PipelineExplorerState) {
  return {
    schedule: s.schedule,
    stages: s.stages,
    microbatches: s.microbatches,
    chunks: s.schedule === "interleaved" ? s.chunks : undefined,
    forward: s.forward,
    backward: s.backward,
    weightGrad: s.weightGrad,
    forwardBackward: s.schedule === "dualpipe" && s.forwardBackward !== null ? s.forwardBackward : undefined,
  };
}

/** Compares the layout's bubble with the closed form of its schedule (see src/model/pipeline.ts). */
function compareBubble(s: PipelineExplorerState, r: PipelineResult): BubbleComparison {
  const p = s.stages;
  const m = s.microbatches;
  const close = (a: number, b: number) => Math.abs(a - b) < 1e-9 * Math.max(1, Math.abs(b));
  if (s.schedule === "afab" || s.schedule === "1f1b") {
    const value = bubbleFraction1f1b(p, m);
    return {
      closedForm: `(p − 1)/m = ${p - 1}/${m} = ${formatPercent(value)}`,
      measured: formatPercent(r.bubbleFraction),
      agree: close(r.bubbleFraction, value),
      caveat: null,
    };
  }
  if (s.schedule === "interleaved") {
    const value = bubbleFractionInterleaved(p, m, s.chunks);
    return {
      closedForm: `(p − 1)/(v·m) = ${p - 1}/${s.chunks * m} = ${formatPercent(value)}`,
      measured: formatPercent(r.bubbleFraction),
      agree: close(r.bubbleFraction, value),
      caveat: null,
    };
  }
  const idle = Math.max(...r.idlePerStage);
  if (s.schedule === "zb-h1") {
    const value = bubbleTimeZbH1(p, s.forward, s.backward, s.weightGrad);
    const holds = s.weightGrad <= s.forward && s.weightGrad <= s.backward;
    return {
      closedForm: `idle per GPU (p − 1)(T_F + T_B − T_W) = ${two(value)}`,
      measured: `${two(idle)} on the most idle GPU`,
      agree: close(idle, value),
      caveat: holds ? null : "the closed form assumes T_W ≤ T_F and T_W ≤ T_B",
    };
  }
  const fb = s.forwardBackward ?? s.forward + s.backward + s.weightGrad;
  const value = bubbleTimeDualPipe(p, fb, s.backward + s.weightGrad, s.weightGrad);
  const holds = s.forward === s.backward && s.backward === s.weightGrad;
  return {
    closedForm: `idle per GPU (p/2 − 1)(F&B + B − 3W) = ${two(value)}, with B the full backward`,
    measured: `${two(idle)} on the most idle GPU`,
    agree: close(idle, value),
    caveat: holds ? null : "the README’s expression matches this layout when T_F = T_B = T_W",
  };
}

/** The widget's size limit on a state (the model allows more). Throws ModelInputError. */
function checkCells(state: PipelineExplorerState): void {
  const cells = state.stages * state.microbatches * (state.schedule === "interleaved" ? state.chunks : 1);
  if (cells > pipelineLimits.cells) {
    throw new ModelInputError(
      "microbatches",
      `stages × microbatches${state.schedule === "interleaved" ? " × chunks" : ""} must be at most ${two(pipelineLimits.cells)} here (got ${two(cells)})`,
    );
  }
}

/**
 * Checks a state against the widget's limit and the model's rules without laying it out (no
 * operations are built: cheap enough for every key press). Throws ModelInputError.
 */
export function checkPipelineState(state: PipelineExplorerState): void {
  checkCells(state);
  checkPipelineInput(pipelineInputOf(state));
}

/** Lays out a state. Throws ModelInputError (field = the model's input name). */
export function computePipelineView(state: PipelineExplorerState): PipelineView {
  checkCells(state);
  const result = pipelineSchedule(pipelineInputOf(state));
  return { state, result, bubble: compareBubble(state, result) };
}

/** The screen-reader and static summary of a view. */
export function summarizePipeline(view: PipelineView): string {
  const { state: s, result: r, bubble } = view;
  const durations =
    s.schedule === "afab" || s.schedule === "1f1b" || s.schedule === "interleaved"
      ? `forward ${two(s.forward)}, backward ${two(s.backward + s.weightGrad)} (T_B ${two(s.backward)} + T_W ${two(s.weightGrad)})`
      : `forward ${two(s.forward)}, input gradient ${two(s.backward)}, weight gradient ${two(s.weightGrad)}` +
        (s.schedule === "dualpipe"
          ? `, overlapped F&B ${two(s.forwardBackward ?? s.forward + s.backward + s.weightGrad)}`
          : "");
  const peak = r.peakInFlight.join(", ");
  const unit =
    s.schedule === "interleaved"
      ? "chunk-microbatches"
      : s.schedule === "dualpipe"
        ? "chunk-microbatches"
        : "microbatches";
  return (
    `${scheduleNames[s.schedule]} on ${s.stages} GPU${s.stages === 1 ? "" : "s"} with ${s.microbatches} microbatches` +
    `${s.schedule === "interleaved" ? ` and ${s.chunks} chunks per GPU` : ""} (durations: ${durations}). ` +
    `Step time ${two(r.makespan)}. Bubble measured from the timeline: ${formatPercent(r.bubbleFraction)} of busy time ` +
    `(${formatPercent(r.bubbleRate)} of the step). Closed form: ${bubble.closedForm}` +
    `${bubble.measured.endsWith("%") ? "" : `; measured ${bubble.measured}`}${bubble.caveat ? ` (${bubble.caveat})` : ""}. ` +
    `Peak activations in flight per GPU, in ${unit}: ${peak}.`
  );
}

// ---------------------------------------------------------------------------------------------
// Parsing shared by YAML, URL and controls.
// ---------------------------------------------------------------------------------------------

const messages: Record<PipelineControl, string> = {
  schedule: `Choose one of ${PIPELINE_SCHEDULES.join(", ")}.`,
  stages: `Enter a whole number of stages from ${pipelineLimits.stages[0]} to ${pipelineLimits.stages[1]}.`,
  microbatches: `Enter a whole number of microbatches from ${pipelineLimits.microbatches[0]} to ${pipelineLimits.microbatches[1]}.`,
  chunks: `Enter ${pipelineLimits.chunks[0]} to ${pipelineLimits.chunks[1]} chunks per GPU.`,
  forward: `Enter a forward duration above 0 and at most ${pipelineLimits.duration}, for example 1.`,
  backward: `Enter a backward duration above 0 and at most ${pipelineLimits.duration}, for example 1.`,
  weightGrad: `Enter a weight-gradient duration from 0 to ${pipelineLimits.duration}, for example 1.`,
  forwardBackward: `Enter an overlapped F&B duration above 0 and at most ${3 * pipelineLimits.duration}, or leave it empty for F + B + W.`,
};

function parseField(name: PipelineControl, value: unknown): unknown {
  const bad = (): never => {
    throw new WidgetSettingsError(name, `${messages[name]} (got ${JSON.stringify(value)})`);
  };
  const num = typeof value === "string" ? readNumber(value) : value;
  switch (name) {
    case "schedule":
      return typeof value === "string" && (PIPELINE_SCHEDULES as readonly string[]).includes(value) ? value : bad();
    case "stages":
    case "microbatches":
    case "chunks": {
      const [lo, hi] = pipelineLimits[name];
      return typeof num === "number" && Number.isInteger(num) && num >= lo && num <= hi ? num : bad();
    }
    case "forward":
    case "backward":
      return typeof num === "number" && num > 0 && num <= pipelineLimits.duration ? num : bad();
    case "weightGrad":
      return typeof num === "number" && num >= 0 && num <= pipelineLimits.duration ? num : bad();
    case "forwardBackward":
      if (value === null || value === "" || value === "auto") return null;
      return typeof num === "number" && num > 0 && num <= 3 * pipelineLimits.duration ? num : bad();
  }
}

function isControl(name: unknown): name is PipelineControl {
  return typeof name === "string" && (pipelineControls as readonly string[]).includes(name);
}

/** Maps a model input name to the control at fault. */
function controlOfPipelineField(field: string): PipelineControl {
  return isControl(field) ? field : "microbatches";
}

function checkWithModel(state: PipelineExplorerState): void {
  try {
    computePipelineView(state);
  } catch (err) {
    if (err instanceof ModelInputError) throw new WidgetSettingsError(controlOfPipelineField(err.field), err.message);
    throw err;
  }
}

function parseList(name: "hide" | "lock", value: unknown): PipelineControl[] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  for (const item of list) {
    if (!isControl(item))
      throw new WidgetSettingsError(
        name,
        `unknown control ${JSON.stringify(item)} (known: ${pipelineControls.join(", ")})`,
      );
  }
  return [...new Set(list as PipelineControl[])];
}

/** Parses `::: widget pipeline-explorer` YAML settings (every key optional; see {@link pipelineDefaults}). */
export function parsePipelineSettings(raw: unknown): PipelineExplorerSettings {
  const obj = settingsObject(raw, [...pipelineControls, "hide", "lock"]);
  const state: PipelineExplorerState = { ...pipelineDefaults };
  for (const key of pipelineControls) {
    if (obj[key] !== undefined) (state as unknown as Record<string, unknown>)[key] = parseField(key, obj[key]);
  }
  const hide = parseList("hide", obj.hide);
  const lock = parseList("lock", obj.lock);
  checkWithModel(state);
  return { ...state, hide, lock };
}

const pipelineUrlCodec: UrlCodec<PipelineExplorerState, PipelineControl> = {
  keys: pipelineControls,
  read: (key, value) => parseField(key, value),
  check: checkWithModel,
  maxLength: 1000,
};

/** URL form: `key:value` pairs of the fields that differ from `base`, joined by commas. */
export function encodePipelineState(state: PipelineExplorerState, base: PipelineExplorerState): string {
  return encodeUrlState(pipelineUrlCodec, state, base);
}

export type PipelineDecodeResult = UrlDecodeResult<PipelineExplorerState>;

/** Restores a state from the URL over `base`; controls in `fixed` are ignored; any bad value rejects the link. */
export function decodePipelineState(
  text: string,
  base: PipelineExplorerState,
  fixed: readonly PipelineControl[] = [],
): PipelineDecodeResult {
  return decodeUrlState(pipelineUrlCodec, text, base, fixed);
}

export type PipelineControlValues = Record<PipelineControl, string>;

export interface PipelineProblem {
  control: PipelineControl;
  message: string;
}

/**
 * `ok` with the view when the schedule can be drawn; `problems` may still list controls the
 * chosen schedule ignores (chunks outside interleaved, F&B outside DualPipe), which do not block it.
 */
export type PipelineControlsResult =
  | { ok: true; state: PipelineExplorerState; view: PipelineView; problems: PipelineProblem[] }
  | { ok: false; problems: PipelineProblem[] };

/**
 * What the form values give before the layout: the state with the problems that do not block it,
 * or the blocking problems.
 */
export type PipelineFieldsResult =
  { ok: true; state: PipelineExplorerState; problems: PipelineProblem[] } | { ok: false; problems: PipelineProblem[] };

/** A model refusal as the problem of the control at fault. */
const modelProblem = (err: ModelInputError): PipelineProblem => ({
  control: controlOfPipelineField(err.field),
  message: `${err.message}.`,
});

/**
 * Validates the form values and checks the combination with the model's rules
 * ({@link checkPipelineState}), without laying the schedule out: what the widget runs on every key
 * press, so that every message shows with the edit. {@link layOutPipeline} does the rest.
 */
export function checkPipelineControls(values: PipelineControlValues): PipelineFieldsResult {
  const problems: PipelineProblem[] = [];
  const state = { ...pipelineDefaults };
  for (const key of pipelineControls) {
    try {
      (state as unknown as Record<string, unknown>)[key] = parseField(key, values[key]);
    } catch (err) {
      if (!(err instanceof WidgetSettingsError)) throw err;
      problems.push({ control: key, message: messages[key] });
    }
  }
  // Controls the schedule ignores cannot block it.
  const relevant = (c: PipelineControl) =>
    (c !== "chunks" || state.schedule === "interleaved") && (c !== "forwardBackward" || state.schedule === "dualpipe");
  const blocking = problems.filter((p) => relevant(p.control));
  if (blocking.length > 0) return { ok: false, problems };
  for (const p of problems) {
    (state as unknown as Record<string, unknown>)[p.control] = pipelineDefaults[p.control];
  }
  try {
    checkPipelineState(state);
  } catch (err) {
    if (!(err instanceof ModelInputError)) throw err;
    return { ok: false, problems: [...problems, modelProblem(err)] };
  }
  return { ok: true, state, problems };
}

/**
 * Lays out a state that {@link checkPipelineControls} accepted (`problems`: its non-blocking
 * ones). The model may still refuse it (durations whose step is not a finite number).
 */
export function layOutPipeline(state: PipelineExplorerState, problems: PipelineProblem[]): PipelineControlsResult {
  try {
    return { ok: true, state, view: computePipelineView(state), problems };
  } catch (err) {
    if (!(err instanceof ModelInputError)) throw err;
    return { ok: false, problems: [...problems, modelProblem(err)] };
  }
}

/** Validates the form values and lays the schedule out; problems name their control. */
export function readPipelineControls(values: PipelineControlValues): PipelineControlsResult {
  const checked = checkPipelineControls(values);
  return checked.ok ? layOutPipeline(checked.state, checked.problems) : checked;
}

/** The form values that show a state. */
export function pipelineControlValuesOf(state: PipelineExplorerState): PipelineControlValues {
  const out = {} as PipelineControlValues;
  for (const key of pipelineControls) out[key] = state[key] === null ? "" : String(state[key]);
  return out;
}
