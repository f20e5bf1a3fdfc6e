/**
 * The Memory Explorer's logic, without DOM: its settings (YAML in a chapter, control values in the
 * browser, a compact string in the page URL), their validation, and the view model the drawing
 * reads (bytes per GPU by category with the formula behind each number, the fit verdict against
 * a GPU, and memory against sequence length or micro-batch size).
 *
 * Every number comes from `trainingMemory` in src/model; this module only chooses inputs, catches
 * the model's `ModelInputError`s and names the control at fault, so hostile input never becomes
 * NaN, Infinity or an exception in the page.
 */
import {
  GPUS,
  MODEL_PRESETS,
  ModelInputError,
  bytesPerParameter,
  countParameters,
  findGpu,
  findModelPreset,
  parseModelConfig,
  trainingMemory,
  type GpuSpec,
  type MemorySchedule,
  type ModelArchitecture,
  type Precision,
  type StageMemory,
  type TrainingMemory,
  type TrainingSetup,
  type ZeroStage,
} from "../model/index.ts";
import type { AttentionKernel, Recompute } from "../model/index.ts";
import { WidgetSettingsError, settingsObject } from "./widget.ts";
import { decodeUrlState, encodeUrlState, urlText, type UrlCodec, type UrlDecodeResult } from "./kit/url-codec.ts";
import { readNumber } from "./kit/field.ts";
import { formatBytes as formatBytesIn, formatCount, formatNumber } from "./kit/format.ts";

/** Every control of the widget, by the name used in YAML settings, `hide`, `lock` and the URL. */
export const memoryControls = [
  "preset",
  "gpu",
  "seqLength",
  "microBatch",
  "precision",
  "fp32GradAccum",
  "recompute",
  "attention",
  "zero",
  "dp",
  "tp",
  "sp",
  "pp",
  "cp",
  "ep",
  "schedule",
  "microbatches",
  "chunks",
] as const;
export type MemoryControl = (typeof memoryControls)[number];

/** The state the explorer computes from: JSON-safe (it travels in `data-settings` and the URL). */
export interface MemoryExplorerState {
  /** A preset id of src/data/models.ts, or `"custom"` for a pasted config. */
  preset: string;
  /** The pasted Hugging Face config when `preset` is `"custom"`, else null. */
  config: Record<string, unknown> | null;
  /** A GPU id of src/data/gpus.ts. */
  gpu: string;
  seqLength: number;
  microBatch: number;
  precision: Precision;
  fp32GradAccum: boolean;
  recompute: Recompute;
  attention: AttentionKernel;
  zero: ZeroStage;
  dp: number;
  tp: number;
  sp: boolean;
  pp: number;
  cp: number;
  ep: number;
  schedule: MemorySchedule;
  microbatches: number;
  chunks: number;
}

/** Chapter settings: a state plus the controls the chapter hides or locks. */
export interface MemoryExplorerSettings extends MemoryExplorerState {
  hide: MemoryControl[];
  lock: MemoryControl[];
}

export const memoryDefaults: MemoryExplorerState = {
  preset: "llama-3.1-8b",
  config: null,
  gpu: "h100-sxm",
  seqLength: 4096,
  microBatch: 1,
  precision: "bf16",
  fp32GradAccum: false,
  recompute: "none",
  attention: "flash",
  zero: 0,
  dp: 1,
  tp: 1,
  sp: false,
  pp: 1,
  cp: 1,
  ep: 1,
  schedule: "1f1b",
  microbatches: 8,
  chunks: 2,
};

/** Inclusive ranges of the integer controls (the model adds divisibility checks on top). */
const memoryIntegerRanges = {
  seqLength: [1, 1_048_576],
  microBatch: [1, 1024],
  dp: [1, 65_536],
  tp: [1, 1024],
  pp: [1, 1024],
  cp: [1, 1024],
  ep: [1, 1024],
  microbatches: [1, 4096],
  chunks: [2, 16],
} as const satisfies Partial<Record<MemoryControl, readonly [number, number]>>;
type IntegerControl = keyof typeof memoryIntegerRanges;

const memoryChoices = {
  precision: ["bf16", "fp32"],
  recompute: ["none", "selective", "full"],
  attention: ["flash", "eager"],
  zero: [0, 1, 2, 3],
  schedule: ["1f1b", "interleaved", "afab"],
} as const;

/** Largest pasted config accepted, in characters (a real config.json is 1–3 kB). */
const maxConfigChars = 20_000;



export { formatCount };

/**
 * Memory as chapter 3's tables print it: GB with one decimal ("48.2 GB", "128.5 GB"), TB with two,
 * trailing zeros dropped; below 1 GB the kit's three significant digits ("540 MB").
 */
export function formatBytes(bytes: number): string {
  if (bytes >= 1e12 * 0.9995) return formatBytesIn(bytes, "TB", { decimals: 2, trim: true });
  if (bytes >= 1e9 * 0.9995) return formatBytesIn(bytes, "GB", { decimals: 1, trim: true });
  return formatBytesIn(bytes);
}

/** The option label of a preset: its name and published size. */
export function presetLabel(id: string): string {
  const p = findModelPreset(id);
  if (!p) return "Pasted config.json";
  return `${p.name} (${formatCount(p.publishedTotal)})`;
}

function isControl(name: unknown): name is MemoryControl {
  return typeof name === "string" && (memoryControls as readonly string[]).includes(name);
}

/** A state field the model rejected, mapped to the control a reader can change. */
function controlOfModelField(field: string): MemoryControl {
  switch (field) {
    case "seqLength":
      return "seqLength";
    case "microBatchSize":
      return "microBatch";
    case "virtualStages":
      return "chunks";
    case "zeroStage":
      return "zero";
    case "sequenceParallel":
      return "sp";
    case "dp":
    case "tp":
    case "pp":
    case "cp":
    case "ep":
    case "microbatches":
    case "precision":
    case "recompute":
    case "attention":
    case "schedule":
      return field;
    case "setup":
      return "seqLength";
    default:
      return "preset"; // a config key such as hidden_size: the model itself
  }
}

/** What went wrong with one control. */
export interface ControlProblem {
  control: MemoryControl;
  message: string;
}

/** The view model the drawing and the text read. */
export interface MemoryView {
  state: MemoryExplorerState;
  modelName: string;
  arch: ModelArchitecture;
  totalParameters: number;
  gpu: GpuSpec;
  memory: TrainingMemory;
  rows: BreakdownRow[];
  verdict: Verdict;
  warnings: string[];
}

export interface BreakdownRow {
  key: "parameters" | "gradients" | "optimizer" | "activations";
  label: string;
  bytes: number;
  /** How the number is computed, with the values substituted. */
  formula: string;
}

export interface Verdict {
  kind: "fits" | "tight" | "oom";
  /** Peak-stage total over the GPU's advertised capacity. */
  fraction: number;
  text: string;
}

/** The architecture (and display name) of a state's model. Throws ModelInputError. */
function resolveModel(state: Pick<MemoryExplorerState, "preset" | "config">): { arch: ModelArchitecture; name: string; warnings: string[] } {
  if (state.preset === "custom") {
    if (!state.config) throw new ModelInputError("config", "paste a Hugging Face config.json first");
    const parsed = parseModelConfig(state.config);
    return { arch: parsed.architecture, name: "pasted config", warnings: parsed.warnings };
  }
  const preset = findModelPreset(state.preset);
  if (!preset) throw new ModelInputError("preset", `unknown model preset "${state.preset}"`);
  const parsed = parseModelConfig(preset.config);
  return { arch: parsed.architecture, name: preset.name, warnings: parsed.warnings };
}

/** The model's training setup for a state. */
function trainingSetupOf(state: MemoryExplorerState, overrides: Partial<TrainingSetup> = {}): TrainingSetup {
  return {
    seqLength: state.seqLength,
    microBatchSize: state.microBatch,
    dp: state.dp,
    tp: state.tp,
    sequenceParallel: state.sp,
    pp: state.pp,
    cp: state.cp,
    ep: state.ep,
    zeroStage: state.zero,
    recompute: state.recompute,
    precision: state.precision,
    fp32GradAccum: state.fp32GradAccum,
    schedule: state.pp > 1 ? state.schedule : "1f1b",
    microbatches: state.pp > 1 ? state.microbatches : 1,
    virtualStages: state.pp > 1 && state.schedule === "interleaved" ? state.chunks : undefined,
    attention: state.attention,
    ...overrides,
  };
}

/** The formulas behind the four numbers of a stage, with values substituted. */
export function breakdownRows(memory: TrainingMemory, stage: StageMemory): BreakdownRow[] {
  const s = memory.setup;
  const per = bytesPerParameter(s.precision, s.fp32GradAccum);
  const shard = s.dp * s.cp;
  const expertShard = shard / s.ep;
  const experts = stage.expertParameterCount;
  const where =
    `${formatCount(stage.parameterCount)} parameters on this GPU` +
    (s.pp > 1 ? ` (stage ${stage.stage + 1} of ${s.pp}: ${stage.layerCount} layers${stage.stage === 0 ? " + embedding" : ""}${stage.stage === s.pp - 1 ? " + head" : ""})` : "") +
    (s.tp > 1 ? `, matrices split ${s.tp} ways by TP` : "") +
    (experts > 0 && s.ep > 1 ? `, experts split ${s.ep} ways by EP` : "");
  const shardText = (sharded: boolean) => {
    if (!sharded || (shard === 1 && expertShard === 1)) return "";
    if (experts > 0 && expertShard !== shard) {
      return `, ZeRO-sharded: dense ÷ ${formatNumber(shard)} (d × cp), experts ÷ ${formatNumber(expertShard)} (d × cp ÷ ep)`;
    }
    return ` ÷ ${formatNumber(shard)} (ZeRO shards over d${s.cp > 1 ? " × cp" : ""} = ${formatNumber(shard)})`;
  };
  const weightText = s.precision === "bf16" ? "bf16 weights" : "fp32 weights";
  const gradText =
    s.precision === "fp32" ? "fp32 gradients" : s.fp32GradAccum ? "bf16 gradients + fp32 accumulation buffer (2 + 4)" : "bf16 gradients";
  const optText = s.precision === "bf16" ? "fp32 master weights + Adam moments (4 + 4 + 4)" : "Adam moments (4 + 4)";
  const layerBytesPerMicrobatch = stage.inFlightMicrobatches > 0 ? stage.activationDetail.layers / stage.inFlightMicrobatches : 0;
  const detail = stage.activationDetail;
  const actParts = [
    `${stage.layerCount} layers × ${formatBytes(layerBytesPerMicrobatch / Math.max(1, stage.layerCount))} per layer per microbatch` +
      ` (recompute: ${s.recompute}, ${s.attention === "flash" ? "FlashAttention" : "eager attention"}, s = ${formatNumber(s.seqLength)}, b = ${s.microBatchSize}` +
      `${s.tp > 1 ? `, t = ${s.tp}${s.sequenceParallel ? " with SP" : ""}` : ""}${s.cp > 1 ? `, cp = ${s.cp}` : ""})` +
      ` × ${formatNumber(stage.inFlightMicrobatches)} microbatch${stage.inFlightMicrobatches === 1 ? "" : "es"} in flight = ${formatBytes(detail.layers)}`,
  ];
  if (detail.embedding > 0) actParts.push(`embedding dropout mask ${formatBytes(detail.embedding)}`);
  if (detail.head > 0) actParts.push(`final norm, LM-head input and fp32 logits ${formatBytes(detail.head)}`);
  if (detail.recomputeWorkspace > 0) actParts.push(`one layer’s recomputed tensors ${formatBytes(detail.recomputeWorkspace)}`);
  const perParam = (label: string, beta: number, sharded: boolean) =>
    `${where} × ${beta} bytes (${label})${shardText(sharded)}`;
  return [
    { key: "parameters", label: "Parameters", bytes: stage.parameters, formula: perParam(weightText, per.parameters, s.zeroStage >= 3) },
    { key: "gradients", label: "Gradients", bytes: stage.gradients, formula: perParam(gradText, per.gradients, s.zeroStage >= 2) },
    { key: "optimizer", label: "Optimizer states", bytes: stage.optimizer, formula: perParam(optText, per.optimizer, s.zeroStage >= 1) },
    { key: "activations", label: "Activations", bytes: stage.activations, formula: actParts.join(" + ") },
  ];
}

/** Short name of a GPU: "H100 SXM5" for "NVIDIA H100 SXM5 80GB". */
export function gpuShortName(name: string): string {
  return name.replace(/^NVIDIA\s+/, "").replace(/\s+\d+GB$/, "");
}

/** Fit verdict of `bytes` on `gpu` (90% is chapter 2's planning limit for countable tensors). */
export function verdictOf(bytes: number, gpu: GpuSpec): Verdict {
  const fraction = bytes / gpu.hbmBytes;
  const cap = formatBytes(gpu.hbmBytes);
  if (fraction > 1) {
    return { kind: "oom", fraction, text: `Out of memory: ${formatBytes(bytes)} needed, the ${gpuShortName(gpu.name)} has ${cap}.` };
  }
  if (fraction > 0.9) {
    return { kind: "tight", fraction, text: `Fits only just: ${formatBytes(bytes)} of ${cap} (${Math.round(fraction * 100)}%), little room for the CUDA context and fragmentation.` };
  }
  return { kind: "fits", fraction, text: `Fits: ${formatBytes(bytes)} of ${cap} (${Math.round(fraction * 100)}%).` };
}

/**
 * Computes the view for a state. Throws ModelInputError (field = the model's name of the input)
 * when the model rejects the combination; see {@link controlOfModelField}.
 */
export function computeMemoryView(state: MemoryExplorerState): MemoryView {
  const { arch, name, warnings } = resolveModel(state);
  const gpu = findGpu(state.gpu);
  if (!gpu) throw new ModelInputError("gpu", `unknown GPU "${state.gpu}"`);
  const memory = trainingMemory(arch, trainingSetupOf(state));
  const peak = memory.stages[memory.peakStage];
  return {
    state,
    modelName: name,
    arch,
    totalParameters: countParameters(arch).total,
    gpu,
    memory,
    rows: breakdownRows(memory, peak),
    verdict: verdictOf(memory.perGpu.total, gpu),
    warnings: [...warnings, ...memory.warnings.filter((w) => !warnings.includes(w))],
  };
}

/** One point of the memory curve; `null` totals are gaps (the model rejects that value). */
export interface CurvePoint {
  x: number;
  total: number | null;
  modelStates: number | null;
}

export type CurveAxis = "seqLength" | "microBatch";

/** x values of the curve: powers of two over a fixed range, plus the current value. */
function curveXs(axis: CurveAxis, current: number): number[] {
  const xs = new Set<number>();
  const [lo, hi] = axis === "seqLength" ? [512, 131_072] : [1, 64];
  for (let x = lo; x <= hi; x *= 2) xs.add(x);
  xs.add(current);
  return [...xs].sort((a, b) => a - b);
}

/** Per-GPU memory (peak stage) against sequence length or micro-batch size, other settings fixed. */
export function memoryCurve(state: MemoryExplorerState, axis: CurveAxis, arch?: ModelArchitecture): CurvePoint[] {
  const a = arch ?? resolveModel(state).arch;
  const current = axis === "seqLength" ? state.seqLength : state.microBatch;
  return curveXs(axis, current).map((x) => {
    try {
      const m = trainingMemory(a, trainingSetupOf(state, axis === "seqLength" ? { seqLength: x } : { microBatchSize: x }));
      const st = m.stages[m.peakStage];
      return { x, total: m.perGpu.total, modelStates: st.parameters + st.gradients + st.optimizer };
    } catch (err) {
      if (err instanceof ModelInputError) return { x, total: null, modelStates: null };
      throw err;
    }
  });
}

/** One-paragraph description of the view (static summary and the live region). */
export function summarizeMemory(view: MemoryView): string {
  const s = view.state;
  const m = view.memory;
  const parallel: string[] = [];
  if (s.dp > 1 || s.zero > 0) parallel.push(`${s.zero > 0 ? `ZeRO-${s.zero}` : "plain data parallelism"} over d = ${formatNumber(s.dp)}`);
  if (s.tp > 1) parallel.push(`TP t = ${s.tp}${s.sp ? " with SP" : ""}`);
  if (s.pp > 1) parallel.push(`PP p = ${s.pp} (${s.schedule === "afab" ? "all forward, all backward" : s.schedule === "interleaved" ? `interleaved, v = ${s.chunks}` : "1F1B"}, m = ${s.microbatches})`);
  if (s.cp > 1) parallel.push(`CP = ${s.cp}`);
  if (s.ep > 1) parallel.push(`EP = ${s.ep}`);
  const setup =
    `${view.modelName} (${formatCount(view.totalParameters)} parameters), s = ${formatNumber(s.seqLength)}, b = ${s.microBatch}, ` +
    `${s.precision === "bf16" ? "bf16 mixed precision" : "fp32"}${s.fp32GradAccum && s.precision === "bf16" ? " with fp32 gradient accumulation" : ""}, ` +
    `recomputation ${s.recompute}, ${s.attention === "flash" ? "FlashAttention" : "eager attention"}` +
    (parallel.length ? `, ${parallel.join(", ")}` : ", one GPU") +
    ".";
  const p = m.perGpu;
  const stageText = s.pp > 1 ? ` on the fullest GPU (stage ${m.peakStage + 1} of ${s.pp})` : " per GPU";
  return (
    `${setup} Memory${stageText}: parameters ${formatBytes(p.parameters)}, gradients ${formatBytes(p.gradients)}, ` +
    `optimizer states ${formatBytes(p.optimizer)}, activations ${formatBytes(p.activations)}; total ${formatBytes(p.total)}. ` +
    view.verdict.text
  );
}

// ---------------------------------------------------------------------------------------------
// Parsing: YAML settings, URL strings and control values share one field parser.
// ---------------------------------------------------------------------------------------------

/** Parses one field from a typed value (YAML) or text (URL, controls). Throws WidgetSettingsError. */
function parseField(name: MemoryControl | "config", value: unknown): unknown {
  const bad = (why: string): never => {
    throw new WidgetSettingsError(name, why);
  };
  if (name in memoryIntegerRanges) {
    const [lo, hi] = memoryIntegerRanges[name as IntegerControl];
    const n = typeof value === "string" ? readNumber(value) : value;
    if (typeof n !== "number" || !Number.isInteger(n) || n < lo || n > hi) {
      bad(`must be a whole number from ${formatNumber(lo)} to ${formatNumber(hi)} (got ${JSON.stringify(value)})`);
    }
    return n;
  }
  switch (name) {
    case "preset": {
      if (value === "custom" || (typeof value === "string" && findModelPreset(value))) return typeof value === "string" ? value.toLowerCase() : value;
      return bad(`must be one of ${MODEL_PRESETS.map((p) => p.id).join(", ")} or custom (got ${JSON.stringify(value)})`);
    }
    case "gpu": {
      if (typeof value === "string" && findGpu(value)) return value.toLowerCase();
      return bad(`must be one of ${GPUS.map((g) => g.id).join(", ")} (got ${JSON.stringify(value)})`);
    }
    case "fp32GradAccum":
    case "sp": {
      if (typeof value === "boolean") return value;
      if (value === "1" || value === "true") return true;
      if (value === "0" || value === "false") return false;
      return bad(`must be true or false (got ${JSON.stringify(value)})`);
    }
    case "zero": {
      const n = typeof value === "string" ? readNumber(value) : value;
      if (n === 0 || n === 1 || n === 2 || n === 3) return n;
      return bad(`must be 0, 1, 2 or 3 (got ${JSON.stringify(value)})`);
    }
    case "precision":
    case "recompute":
    case "attention":
    case "schedule": {
      const allowed = memoryChoices[name] as readonly string[];
      if (typeof value === "string" && allowed.includes(value)) return value;
      return bad(`must be one of ${allowed.join(", ")} (got ${JSON.stringify(value)})`);
    }
    case "config": {
      if (value === null) return null;
      if (typeof value !== "object" || Array.isArray(value)) return bad("must be a Hugging Face config.json object");
      return value;
    }
  }
  return bad("unknown setting");
}

function parseControlList(name: "hide" | "lock", value: unknown): MemoryControl[] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  for (const item of list) {
    if (!isControl(item)) {
      throw new WidgetSettingsError(name, `unknown control ${JSON.stringify(item)} (known: ${memoryControls.join(", ")})`);
    }
  }
  return [...new Set(list as MemoryControl[])];
}

/** Throws WidgetSettingsError naming the control when the model rejects the state. */
export function checkWithModel(state: MemoryExplorerState): void {
  try {
    computeMemoryView(state);
  } catch (err) {
    if (err instanceof ModelInputError) {
      const mapped = controlOfModelField(err.field);
      const control = err.field === "config" || (mapped === "preset" && state.preset === "custom") ? "config" : mapped;
      throw new WidgetSettingsError(control, err.message);
    }
    throw err;
  }
}

/**
 * Parses `::: widget memory-explorer` YAML settings: every key optional (see
 * {@link memoryDefaults}), plus `config` (an HF config object, with `preset: custom`), `hide`
 * and `lock` (lists of control names). The combination must be one the model accepts.
 */
export function parseMemorySettings(raw: unknown): MemoryExplorerSettings {
  const obj = settingsObject(raw, [...memoryControls, "config", "hide", "lock"]);
  const state: MemoryExplorerState = { ...memoryDefaults };
  for (const key of memoryControls) {
    if (obj[key] !== undefined) (state as unknown as Record<string, unknown>)[key] = parseField(key, obj[key]);
  }
  if (obj.config !== undefined) {
    state.config = parseField("config", obj.config) as Record<string, unknown> | null;
    if (obj.preset === undefined) state.preset = "custom";
  }
  if (state.preset === "custom" && !state.config) throw new WidgetSettingsError("config", "preset: custom needs a config object");
  if (state.preset !== "custom") state.config = null;
  const hide = parseControlList("hide", obj.hide);
  const lock = parseControlList("lock", obj.lock);
  checkWithModel(state);
  return { ...state, hide, lock };
}

// ---------------------------------------------------------------------------------------------
// URL: `key:value,key:value` of the fields that differ from the page's settings.
// ---------------------------------------------------------------------------------------------

const urlKeys = [...memoryControls, "config"] as const;

function base64UrlEncode(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function base64UrlDecode(text: string): string {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error("not base64url");
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  const bin = atob(b64);
  return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
}

const memoryUrlCodec: UrlCodec<MemoryExplorerState, (typeof urlKeys)[number]> = {
  keys: urlKeys,
  same: (key, v, b) => (key === "config" ? JSON.stringify(v) === JSON.stringify(b) : v === b),
  write: (key, v) => (key !== "config" ? urlText(v) : v ? base64UrlEncode(JSON.stringify(v)) : undefined),
  read(key, value) {
    if (key !== "config") return parseField(key, value);
    let parsed: unknown;
    try {
      parsed = JSON.parse(base64UrlDecode(value));
    } catch {
      throw new WidgetSettingsError("config", "is not an encoded config.json");
    }
    return parseField("config", parsed);
  },
  check(state) {
    if (state.preset === "custom" && !state.config) throw new WidgetSettingsError("config", "preset custom needs a config");
    if (state.preset !== "custom") state.config = null;
    checkWithModel(state);
  },
  maxLength: 4 * maxConfigChars,
};

/** Encodes the fields of `state` that differ from `base` ("" when none). */
export function encodeMemoryState(state: MemoryExplorerState, base: MemoryExplorerState): string {
  return encodeUrlState(memoryUrlCodec, state.preset === "custom" ? state : { ...state, config: null }, base);
}

export type DecodeResult = UrlDecodeResult<MemoryExplorerState>;

/**
 * Restores a state from the URL string over `base` (the page's settings). Controls in `fixed`
 * (hidden or locked by the chapter) are ignored. Every value is validated, and so is the
 * combination; any problem rejects the whole link with a message.
 */
export function decodeMemoryState(text: string, base: MemoryExplorerState, fixed: readonly MemoryControl[] = []): DecodeResult {
  return decodeUrlState(memoryUrlCodec, text, base, fixed);
}

// ---------------------------------------------------------------------------------------------
// Controls: raw strings from the form → state, or a message per control.
// ---------------------------------------------------------------------------------------------

/** What the form holds: select and text values as strings, checkboxes as booleans, the pasted text. */
export type MemoryControlValues = Record<Exclude<MemoryControl, "fp32GradAccum" | "sp">, string> & {
  fp32GradAccum: boolean;
  sp: boolean;
  configText: string;
};

export type ControlsResult =
  | { ok: true; state: MemoryExplorerState; view: MemoryView }
  | { ok: false; problems: ControlProblem[] };

const friendly: Partial<Record<MemoryControl, string>> = {
  seqLength: "Enter a sequence length from 1 to 1,048,576 tokens, for example 4096.",
  microBatch: "Enter a micro-batch size from 1 to 1,024.",
  dp: "Enter a data-parallel degree from 1 to 65,536.",
  tp: "Enter a tensor-parallel degree from 1 to 1,024.",
  pp: "Enter a pipeline-parallel degree from 1 to 1,024.",
  cp: "Enter a context-parallel degree from 1 to 1,024.",
  ep: "Enter an expert-parallel degree from 1 to 1,024.",
  microbatches: "Enter a number of microbatches from 1 to 4,096.",
  chunks: "Enter 2 to 16 chunks per GPU.",
};

/** Reads a pasted config.json; a message (never an exception) when it is not a JSON object. */
export function readConfigText(text: string): { ok: true; config: Record<string, unknown> } | { ok: false; message: string } {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: false, message: "Paste the contents of a Hugging Face config.json." };
  if (trimmed.length > maxConfigChars) return { ok: false, message: `That is longer than a config.json (${formatNumber(maxConfigChars)} characters at most).` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch (err) {
    return { ok: false, message: `Not valid JSON: ${(err as Error).message.split("\n")[0]}` };
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return { ok: false, message: "A config.json is a JSON object ({ … })." };
  }
  return { ok: true, config: parsed as Record<string, unknown> };
}

/** Validates the form; on success also computes the view (so a model rejection is a control problem). */
export function readMemoryControls(values: MemoryControlValues): ControlsResult {
  const problems: ControlProblem[] = [];
  const state = { ...memoryDefaults } as MemoryExplorerState;
  for (const key of memoryControls) {
    try {
      (state as unknown as Record<string, unknown>)[key] = parseField(key, values[key]);
    } catch (err) {
      if (!(err instanceof WidgetSettingsError)) throw err;
      problems.push({ control: key, message: friendly[key] ?? `Choose a ${key} from the list.` });
    }
  }
  if (state.preset === "custom") {
    const read = readConfigText(values.configText);
    if (read.ok) state.config = read.config;
    else problems.push({ control: "preset", message: read.message });
  } else {
    state.config = null;
  }
  if (problems.length > 0) return { ok: false, problems };
  try {
    return { ok: true, state, view: computeMemoryView(state) };
  } catch (err) {
    if (!(err instanceof ModelInputError)) throw err;
    const control = controlOfModelField(err.field);
    const message = control === "preset" && state.preset === "custom" ? `This config cannot be read: ${err.message}.` : `${err.message}.`;
    return { ok: false, problems: [{ control, message }] };
  }
}

/** The form values that show a state. */
export function controlValuesOf(state: MemoryExplorerState): MemoryControlValues {
  const out = {} as Record<string, unknown>;
  for (const key of memoryControls) out[key] = typeof state[key] === "boolean" ? state[key] : String(state[key]);
  out.configText = state.config ? JSON.stringify(state.config, null, 2) : "";
  return out as MemoryControlValues;
}
