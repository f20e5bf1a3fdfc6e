/**
 * The `overlap-calculator` widget's state, without DOM: the settings (YAML inside `::: widget
 * overlap-calculator`, see src/figures/overlap-calculator.ts) and the typed fields, each validated
 * with a message for the field at fault; the transfers of one training step with the compute each
 * could hide behind, from the engine (evaluateScenario, src/model/scenario.ts: the step model with
 * the GPU generation's kernel efficiency, each group's bandwidth from where its ranks sit, and the
 * framework profile's defaults); and the text summary (readout, screen readers, the SVG's
 * description).
 *
 * Each row is one transfer: its time per call, its window (the compute it could hide behind, as
 * the step model schedules it, with data-parallel overlap on), their ratio R (appendix D's
 * eq. ratio), and what stays exposed per step under the framework's own defaults (a framework
 * that does not overlap the gradient reduction exposes all of it, whatever R says).
 */
import {
  AUTO_FRAMEWORK,
  defaultZeroStage,
  evaluateScenario,
  findFrameworkProfile,
  findGpu,
  findModelPreset,
  ModelInputError,
  type Evaluation,
  type FrameworkId,
  type Scenario,
  type ZeroStage,
} from "../model/index.ts";
import { WidgetSettingsError, settingsObject } from "./widget.ts";
import { settingsUrlCodec } from "./kit/url-codec.ts";
import { parseNumberField } from "./kit/field.ts";
import { formatNumber, formatSeconds } from "./kit/format.ts";
import { FRAMEWORK_LABELS, efficiencyLabel, frameworkOptions, isFrameworkId } from "./kit/scenario.ts";

export interface OverlapCalculatorSettings {
  model: string;
  gpu: string;
  framework: FrameworkId;
  tp: number;
  pp: number;
  dp: number;
  cp: number;
  zeroStage: ZeroStage;
  microBatchSize: number;
  seqLength: number;
  /** Microbatches per step and data-parallel rank (the global batch is dp × b × m). */
  microbatches: number;
}

/** Appendix D's ZeRO-3 example: Llama 3.1 8B sharded over 64 H100s (eight per server), 4,096-token microbatches. */
export const defaultOverlapSettings: OverlapCalculatorSettings = {
  model: "llama-3.1-8b",
  gpu: "h100-sxm",
  framework: "fsdp2",
  tp: 1,
  pp: 1,
  dp: 64,
  cp: 1,
  zeroStage: 3,
  microBatchSize: 1,
  seqLength: 4096,
  microbatches: 1,
};

/** Integer fields and their limits. */
export const overlapIntegerFields = [
  { key: "tp", label: "TP degree t", min: 1, max: 64 },
  { key: "pp", label: "PP degree p", min: 1, max: 128 },
  { key: "dp", label: "DP degree d", min: 1, max: 65536 },
  { key: "cp", label: "CP degree", min: 1, max: 64 },
  { key: "microBatchSize", label: "Microbatch b", min: 1, max: 1024 },
  { key: "microbatches", label: "Microbatches m", min: 1, max: 4096 },
  { key: "seqLength", label: "Sequence s", min: 1, max: 1048576 },
] as const;
type IntKey = (typeof overlapIntegerFields)[number]["key"];
const settingKeys = ["model", "gpu", "framework", "zeroStage", ...overlapIntegerFields.map((f) => f.key)] as const;

/** One transfer of the step next to the compute it could hide behind. */
export interface OverlapRow {
  /** What moves, in the step model's words. */
  label: string;
  /** Seconds of one call. */
  commSeconds: number;
  /** Seconds of compute one call could hide behind (0: nothing to hide behind). */
  windowSeconds: number;
  /** commSeconds / windowSeconds, or null without a window. */
  ratio: number | null;
  /** Calls per step. */
  calls: number;
  /** Seconds per step left exposed under the framework's defaults. */
  exposedSeconds: number;
}

export interface OverlapOutcome {
  settings: OverlapCalculatorSettings;
  evaluation: Evaluation;
  rows: OverlapRow[];
}

export type OverlapResult = ({ ok: true } & OverlapOutcome) | { ok: false; field: string; message: string };

/** The scenario of the settings; `overlapGradReduce` forces data-parallel overlap on (for the windows). */
export function overlapScenario(s: OverlapCalculatorSettings, overlapGradReduce?: boolean): Scenario {
  return {
    model: s.model,
    cluster: { gpu: s.gpu, gpuCount: s.tp * s.pp * s.cp * s.dp },
    framework: s.framework,
    layout: {
      tp: s.tp,
      pp: s.pp,
      cp: s.cp,
      dp: s.dp,
      zeroStage: s.zeroStage,
      sequenceParallel: s.tp > 1,
      overlapGradReduce,
    },
    batch: {
      seqLength: s.seqLength,
      microBatchSize: s.microBatchSize,
      globalBatch: s.dp * s.microBatchSize * s.microbatches,
    },
  };
}

/** The transfers of an evaluation (exposed as configured), with the windows of the same step with overlap on. */
export function overlapRows(configured: Evaluation, overlapped: Evaluation): OverlapRow[] {
  const rows: OverlapRow[] = [];
  const push = (label: string, comm: number, window: number, calls: number, exposed: number) => {
    if (comm <= 0) return;
    rows.push({
      label,
      commSeconds: comm,
      windowSeconds: window,
      ratio: window > 0 ? comm / window : null,
      calls,
      exposedSeconds: exposed,
    });
  };
  configured.step.dpTransfers.forEach((t, i) => {
    const o = overlapped.step.dpTransfers[i];
    const window = o && o.name === t.name ? o.windowSeconds : t.windowSeconds;
    push(t.name, t.secondsPerCall, window, t.callsPerStep, t.exposedSeconds);
  });
  const w = configured.step.windows;
  const m = configured.step.microbatches;
  const first = configured.step.stages[0];
  push(
    `tensor-parallel ${configured.step.layout.sequenceParallel ? "all-gathers and reduce-scatters" : "all-reduces"}, one layer's forward`,
    w.tpCallsPerLayerForward * w.tpCall,
    w.layerForward,
    configured.step.stages.reduce((a, st) => Math.max(a, st.layers), 0) * m,
    configured.step.breakdown.tp,
  );
  push(
    "pipeline send of one microbatch's activations",
    w.ppSend,
    first ? first.compute / 3 / w.chunks : 0,
    m * w.chunks,
    configured.step.breakdown.pp,
  );
  return rows;
}

/** The engine's transfers for a settings object; a model input error becomes a message naming the field. */
export function computeOverlap(s: OverlapCalculatorSettings): OverlapResult {
  if (!findModelPreset(s.model)) return { ok: false, field: "model", message: `Unknown model ${s.model}.` };
  if (!findGpu(s.gpu)) return { ok: false, field: "gpu", message: `Unknown GPU ${s.gpu}.` };
  try {
    const configured = evaluateScenario(overlapScenario(s));
    // The windows: the same step with data-parallel overlap on (the configured step already is, unless the framework does not overlap).
    const overlapped = configured.step.layout.overlapGradReduce
      ? configured
      : evaluateScenario(overlapScenario(s, true));
    const rows = overlapRows(configured, overlapped);
    for (const r of rows) {
      const numbers = [r.commSeconds, r.windowSeconds, r.exposedSeconds, r.ratio ?? 0];
      if (!numbers.every(Number.isFinite))
        return { ok: false, field: "seqLength", message: "These inputs give no finite time; use smaller values." };
    }
    return { ok: true, settings: s, evaluation: configured, rows };
  } catch (e) {
    if (e instanceof ModelInputError) {
      const map: Record<string, string> = {
        framework: "framework",
        zeroStage: "zeroStage",
        tp: "tp",
        pp: "pp",
        dp: "dp",
        cp: "cp",
        seqLength: "seqLength",
        microBatchSize: "microBatchSize",
        globalBatch: "microbatches",
        stageLayers: "pp",
        gpu: "gpu",
        model: "model",
      };
      const message = `${e.message}.`;
      return { ok: false, field: map[e.field] ?? "tp", message };
    }
    throw e;
  }
}

/** Reads the YAML settings of `::: widget overlap-calculator` (throws WidgetSettingsError with the key at fault). */
export function parseOverlapSettings(raw: unknown): OverlapCalculatorSettings {
  const obj = settingsObject(raw, settingKeys);
  const s: OverlapCalculatorSettings = { ...defaultOverlapSettings };
  if (obj.model !== undefined) {
    if (typeof obj.model !== "string" || !findModelPreset(obj.model))
      throw new WidgetSettingsError("model", `must be a model preset id (got ${JSON.stringify(obj.model)})`);
    s.model = obj.model;
  }
  if (obj.gpu !== undefined) {
    if (typeof obj.gpu !== "string" || !findGpu(obj.gpu))
      throw new WidgetSettingsError("gpu", `must be a GPU id (got ${JSON.stringify(obj.gpu)})`);
    s.gpu = obj.gpu;
  }
  for (const f of overlapIntegerFields) {
    const v = obj[f.key];
    if (v === undefined) continue;
    if (typeof v !== "number" || !Number.isInteger(v) || v < f.min || v > f.max) {
      throw new WidgetSettingsError(
        f.key,
        `must be a whole number from ${f.min} to ${f.max} (got ${JSON.stringify(v)})`,
      );
    }
    s[f.key] = v;
  }
  if (obj.zeroStage !== undefined) {
    if (obj.zeroStage !== 0 && obj.zeroStage !== 1 && obj.zeroStage !== 2 && obj.zeroStage !== 3)
      throw new WidgetSettingsError("zeroStage", `must be 0, 1, 2 or 3 (got ${JSON.stringify(obj.zeroStage)})`);
    s.zeroStage = obj.zeroStage;
  }
  if (obj.framework !== undefined) {
    if (!isFrameworkId(obj.framework))
      throw new WidgetSettingsError(
        "framework",
        `must be one of ${frameworkOptions.map(([id]) => id).join(", ")} (got ${JSON.stringify(obj.framework)})`,
      );
    s.framework = obj.framework;
    if (obj.zeroStage === undefined) s.zeroStage = defaultZeroStage(s.framework);
  } else if (obj.zeroStage !== undefined) {
    // A stage without a framework: the framework the configuration search pairs with it.
    s.framework = AUTO_FRAMEWORK[s.zeroStage];
  }
  const r = computeOverlap(s);
  if (!r.ok) throw new WidgetSettingsError(r.field, r.message);
  return s;
}

export type ControlResult = ({ ok: true } & OverlapOutcome) | { ok: false; errors: Record<string, string> };

/** Validates the typed fields and the selects; never throws. */
export function validateOverlapControls(raw: Record<string, string>): ControlResult {
  const errors: Record<string, string> = {};
  const s: OverlapCalculatorSettings = { ...defaultOverlapSettings };
  s.model = findModelPreset(raw.model ?? "") ? raw.model! : defaultOverlapSettings.model;
  s.gpu = findGpu(raw.gpu ?? "") ? raw.gpu! : defaultOverlapSettings.gpu;
  if (isFrameworkId(raw.framework)) s.framework = raw.framework;
  else errors.framework = `Choose a framework: ${frameworkOptions.map(([, name]) => name).join(", ")}.`;
  const z = Number(raw.zeroStage);
  s.zeroStage = (z === 0 || z === 1 || z === 2 || z === 3 ? z : 0) as ZeroStage;
  for (const f of overlapIntegerFields) {
    const r = parseNumberField(raw[f.key] ?? "", { integer: true, min: f.min, max: f.max });
    if (r.ok) s[f.key as IntKey] = r.value;
    else errors[f.key] = r.message;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const r = computeOverlap(s);
  if (!r.ok) return { ok: false, errors: { [r.field]: r.message } };
  return r;
}

/** "1.90", "0.0035". */
export function formatRatio(r: number): string {
  return r >= 0.1 ? formatNumber(r, { decimals: 2 }) : formatNumber(r, { significant: 2 });
}

/** The verdict of a row: whether it can hide, and whether the framework leaves it exposed anyway. */
export function rowVerdict(r: OverlapRow): string {
  if (r.ratio === null) return "no window: exposed";
  if (r.ratio >= 1) return "exposed";
  return r.exposedSeconds > 0 ? "can hide, not overlapped" : "can hide";
}

/** One line per transfer. */
export function overlapLines(rows: readonly OverlapRow[]): string[] {
  return rows.map((r) => {
    const window =
      r.ratio === null
        ? "no compute to hide behind"
        : `a window of ${formatSeconds(r.windowSeconds)}, R = ${formatRatio(r.ratio)}`;
    return `${r.label[0]!.toUpperCase()}${r.label.slice(1)}: ${formatSeconds(r.commSeconds)} per call against ${window}; ${formatSeconds(r.exposedSeconds)} exposed per step (${rowVerdict(r)}).`;
  });
}

export function summarizeOverlap(o: OverlapOutcome): string {
  const s = o.settings;
  const name = findModelPreset(s.model)?.name ?? s.model;
  const head = `${name} with ${FRAMEWORK_LABELS[s.framework]}, t = ${s.tp}, p = ${s.pp}, cp = ${s.cp}, d = ${s.dp}, ZeRO-${s.zeroStage}, ${formatNumber(s.microBatchSize * s.seqLength)} tokens per microbatch, ${s.microbatches} microbatch${s.microbatches === 1 ? "" : "es"}; step ${formatSeconds(o.evaluation.step.stepSeconds)}.`;
  const lines = overlapLines(o.rows);
  return lines.length === 0 ? `${head} No communication: every degree is 1.` : `${head} ${lines.join(" ")}`;
}

/** The note under the table: what the engine assumed, with its numbers (none typed into the widget). */
export function overlapNote(o: OverlapOutcome): string {
  const s = o.settings;
  const c = o.evaluation.cluster;
  const gb = (x: number) => `${formatNumber(x / 1e9, { decimals: 0 })} GB/s`;
  const profile = findFrameworkProfile(s.framework);
  const overlap = profile?.overlapGradReduce.value ?? true;
  const sharp = c.nvlinkNvlsAllReduceBusBytesPerSecond;
  return (
    `From the step model, the engine every widget uses: compute at ${efficiencyLabel(s.gpu)}; each group's bus bandwidth from where its ranks sit ` +
    `(servers of ${c.gpusPerServer} GPUs: NVLink ring ${gb(c.nvlinkRingBusBytesPerSecond)}${sharp !== null ? `, all-reduce with NVLink SHARP ${gb(sharp)}` : ""}; ` +
    `across servers ${gb(c.nicBusBytesPerSecond)} per NIC, ${c.nicsPerServer} NICs per server); ` +
    `${FRAMEWORK_LABELS[s.framework]}'s defaults: gradients reduced in ${o.evaluation.step.layout.gradReduce}, the data-parallel reduction ${overlap ? "overlapped with" : "not overlapped with"} the backward pass. ` +
    "R compares a transfer with the compute it could hide behind; the exposed time is what the framework's defaults leave in the step."
  );
}

/** The widget's settings in a page link (`?<widget id>=key:value,…`), checked by the chapter's parser. */
export const overlapUrlCodec = settingsUrlCodec(
  {
    model: "choice",
    gpu: "choice",
    framework: "choice",
    zeroStage: "number",
    tp: "number",
    pp: "number",
    dp: "number",
    cp: "number",
    microBatchSize: "number",
    seqLength: "number",
    microbatches: "number",
  },
  parseOverlapSettings,
);
