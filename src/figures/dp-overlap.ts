/**
 * The `dp-overlap` widget: settings, validation, summary and static rendering. The chapter's
 * code-drawn figures are in dp-chapter-figures.ts; the drawing of both is dp-timelines.ts.
 */
import {
  allReduceSeconds,
  clusterShape,
  dataParallelTimeline,
  ddpModelBucketCount,
  findGpu,
  findModelPreset,
  gpuGeneration,
  groupLink,
  KERNEL_EFFICIENCY,
  modelFlopsPerToken,
  ModelInputError,
  parseModelConfig,
  type DpTimeline,
  type DpTimelineInput,
  type ModelArchitecture,
} from "../model/index.ts";
import { WidgetSettingsError, defineWidget, settingsObject } from "./widget.ts";
import { settingsUrlCodec } from "./kit/url-codec.ts";
import { dom } from "./kit/dom.ts";
import { checkNumberField, numberField } from "./kit/field.ts";
import { drawDpTimelines, exposedEstimateSeconds } from "./dp-timelines.ts";
import { formatBytes, formatDuration } from "./kit/format.ts";

/** Settings of the `dp-overlap` widget (and of its static rendering). */
export interface DpOverlapSettings {
  /**
   * Id of the dense model preset (src/data/models.ts) whose bf16 gradients are reduced: it sets the
   * gradient bytes, the layers and the tensors DDP packs into buckets.
   */
  model: string;
  /** Forward + backward time of one microbatch, in milliseconds. */
  microbatchMilliseconds: number;
  /** Data-parallel degree d. */
  dp: number;
  /** DDP's bucket cap (`bucket_cap_mb`) in MiB, applied to whole fp32 gradient tensors. */
  bucketMebibytes: number;
  /** Bus bandwidth in GB/s (10^9 bytes per second). */
  busBandwidthGBps: number;
  /** Fixed cost per collective in microseconds. */
  latencyMicroseconds: number;
  /** Microbatches per optimizer step. */
  microbatches: number;
  /** Use no_sync for all but the last microbatch. */
  noSync: boolean;
}

/** The widget's model, from its preset: parameters (half its bf16 gradient bytes), layers and architecture. */
interface DpOverlapModel {
  parameters: number;
  layers: number;
  architecture: ModelArchitecture;
}

/** The models looked up so far, by preset id (the widget asks for the same one on every edit). */
const modelCache = new Map<string, DpOverlapModel>();

/** Looks up a dense model preset for the widget; throws ModelInputError on `model` otherwise. */
function dpOverlapModel(id: string): DpOverlapModel {
  const cached = typeof id === "string" ? modelCache.get(id) : undefined;
  if (cached) return cached;
  const preset = typeof id === "string" ? findModelPreset(id) : undefined;
  if (!preset) throw new ModelInputError("model", `model: no model preset "${String(id)}"`);
  const { architecture } = parseModelConfig(preset.config);
  if (architecture.moe || architecture.mla) {
    throw new ModelInputError("model", `model: ${preset.name} is not a dense model with standard attention`);
  }
  const model = { parameters: preset.publishedTotal, layers: architecture.numLayers, architecture };
  modelCache.set(id, model);
  return model;
}

/**
 * The number of buckets the widget splits the gradients into: DDP's own count for the model and cap
 * (whole fp32 gradient tensors, the first bucket capped at 1 MiB; dp-overlap.ts ddpModelBucketCount),
 * the count the chapter prints for its timelines and exercises.
 */
export function dpOverlapBuckets(s: Pick<DpOverlapSettings, "model" | "bucketMebibytes">): number {
  return ddpModelBucketCount(dpOverlapModel(s.model).architecture, s.bucketMebibytes * 2 ** 20, 4);
}

/**
 * The widget's default state: Llama 3.1 8B (8,030,261,248 parameters, 32 layers), one microbatch of
 * 4096 tokens at the book's kernel efficiency for Hopper (step.ts) times an H100 SXM's 989.4 TFLOPS
 * dense bf16 peak (modelFlopsPerToken · 4096 / (η · peak), about 520 ms), 64 replicas with one rank
 * per server, so the ring's bus bandwidth is one NIC's (placement.ts), DDP's 25 MiB cap (194 buckets of
 * whole tensors), α = 50 µs: the chapter's timelines (a) and (b), to the millisecond.
 */
export const defaultDpOverlapSettings: DpOverlapSettings = {
  model: "llama-3.1-8b",
  microbatchMilliseconds: presetMicrobatchMilliseconds("llama-3.1-8b"),
  dp: 64,
  bucketMebibytes: 25,
  busBandwidthGBps: referenceBandwidthsGBps().onePerServer,
  latencyMicroseconds: 50,
  microbatches: 1,
  noSync: true,
};

/**
 * Forward + backward time of one 4096-token microbatch of a preset on an H100 SXM at the book's
 * kernel efficiency for Hopper, in milliseconds.
 */
export function presetMicrobatchMilliseconds(id: string): number {
  const preset = findModelPreset(id);
  const gpu = findGpu("h100-sxm");
  if (!preset || !gpu) throw new ModelInputError("model", `model: no model preset "${id}" or no H100 SXM spec`);
  const rate = KERNEL_EFFICIENCY[gpuGeneration(gpu.id)] * gpu.bf16FlopsPerSecond;
  return ((modelFlopsPerToken(preset.config, 4096).total * 4096) / rate) * 1000;
}

/**
 * Bus bandwidths, in GB/s, of the layouts the widget's note names (placement.ts, H100 SXM cluster):
 * 64 replicas with one rank per server, 64 with all eight GPUs of each server, 8 in one server.
 */
export function referenceBandwidthsGBps(): { onePerServer: number; allEight: number; oneServer: number } {
  const cluster = clusterShape("h100-sxm");
  const at = (ranks: number, stride: number) =>
    groupLink(cluster, "all-reduce", { ranks, stride }).busBytesPerSecond / 1e9;
  return { onePerServer: at(64, cluster.gpusPerServer), allEight: at(64, 1), oneServer: at(cluster.gpusPerServer, 1) };
}

/** Bounds for each numeric setting: [min, max, integer?]. */
const dpOverlapBounds: Record<Exclude<keyof DpOverlapSettings, "noSync" | "model">, [number, number, boolean]> = {
  microbatchMilliseconds: [0.1, 1e6, false],
  dp: [1, 100_000, true],
  bucketMebibytes: [0.25, 100_000, false],
  busBandwidthGBps: [0.1, 10_000, false],
  latencyMicroseconds: [0, 100_000, false],
  microbatches: [1, 64, true],
};

/** Checks one numeric setting; returns the problem in words, or null when it is valid. */
function dpOverlapSettingProblem(key: keyof typeof dpOverlapBounds, value: unknown): string | null {
  const [min, max, integer] = dpOverlapBounds[key];
  if (typeof value !== "number" || !Number.isFinite(value)) return "Enter a number.";
  if (integer && !Number.isInteger(value)) return "Enter a whole number.";
  if (value < min || value > max) return `Enter a value between ${min} and ${max}.`;
  return null;
}

/** Parses raw YAML settings of `::: widget dp-overlap`; throws ModelInputError naming the field. */
export function parseDpOverlapSettings(raw: unknown): DpOverlapSettings {
  const settings: DpOverlapSettings = { ...defaultDpOverlapSettings };
  if (raw === undefined || raw === null) return settings;
  if (typeof raw !== "object" || Array.isArray(raw))
    throw new ModelInputError("settings", "dp-overlap settings must be a mapping");
  const entries = Object.entries(raw as Record<string, unknown>);
  for (const [key, value] of entries) {
    if (key === "model") {
      if (typeof value !== "string") throw new ModelInputError("model", "model must be a model preset id");
      dpOverlapModel(value);
      settings.model = value;
      // A model given without its microbatch time gets the preset's own at the default rate.
      if (!entries.some(([k]) => k === "microbatchMilliseconds")) {
        settings.microbatchMilliseconds = presetMicrobatchMilliseconds(value);
      }
    } else if (key === "noSync") {
      if (typeof value !== "boolean") throw new ModelInputError("noSync", "noSync must be true or false");
      settings.noSync = value;
    } else if (key in dpOverlapBounds) {
      const k = key as keyof typeof dpOverlapBounds;
      const problem = dpOverlapSettingProblem(k, value);
      if (problem) throw new ModelInputError(k, `${k}: ${problem}`);
      settings[k] = value as number;
    } else {
      throw new ModelInputError(key, `unknown dp-overlap setting "${key}"`);
    }
  }
  dpOverlapInputs(settings);
  return settings;
}

/**
 * The two model inputs the widget draws: the same step without and with overlap. The bf16 gradients
 * are split evenly into DDP's bucket count for the model and cap ({@link dpOverlapBuckets}), as the
 * chapter's timelines are (values/data-parallelism.ts, dp-chapter-figures.ts).
 */
function dpOverlapInputs(s: DpOverlapSettings): { serial: DpTimelineInput; overlapped: DpTimelineInput } {
  const seconds = s.microbatchMilliseconds / 1000;
  const model = dpOverlapModel(s.model);
  const gradientBytes = 2 * model.parameters;
  const overlapped: DpTimelineInput = {
    gradientBytes,
    layers: model.layers,
    forwardSeconds: seconds / 3,
    backwardSeconds: (2 * seconds) / 3,
    microbatches: s.microbatches,
    dp: s.dp,
    bucketBytes: gradientBytes / dpOverlapBuckets(s),
    busBandwidthBytesPerSecond: s.busBandwidthGBps * 1e9,
    collectiveLatencySeconds: s.latencyMicroseconds * 1e-6,
    overlap: true,
    noSync: s.noSync,
  };
  // Validates (throws ModelInputError naming the field) before anything is drawn.
  dataParallelTimeline(overlapped);
  return { serial: { ...overlapped, overlap: false }, overlapped };
}

/** Both timelines of a state, and their inputs. */
interface DpOverlapRun {
  serial: DpTimelineInput;
  overlapped: DpTimelineInput;
  a: DpTimeline;
  b: DpTimeline;
}

/** The last state's timelines: the summary and the drawing of one edit share them. */
let lastRun: { key: string; run: DpOverlapRun } | undefined;

function dpOverlapRun(s: DpOverlapSettings): DpOverlapRun {
  const key = JSON.stringify(s);
  if (lastRun?.key === key) return lastRun.run;
  const { serial, overlapped } = dpOverlapInputs(s);
  const run = { serial, overlapped, a: dataParallelTimeline(serial), b: dataParallelTimeline(overlapped) };
  lastRun = { key, run };
  return run;
}

/** Text summary of a widget state, for the visually hidden live region and the static figure. */
export function summarizeDpOverlap(s: DpOverlapSettings): string {
  const { serial, overlapped, a, b } = dpOverlapRun(s);
  const ar = allReduceSeconds(serial.gradientBytes, s.dp, serial.busBandwidthBytesPerSecond, 0);
  return (
    `${formatBytes(serial.gradientBytes, "GB", { decimals: 2 })} of gradients in ${b.bucketsPerSync} buckets of whole tensors; ` +
    `one all-reduce moves them in ${formatDuration(ar)} plus ${formatDuration(b.bucketsPerSync * serial.collectiveLatencySeconds)} of per-call cost. ` +
    `Without overlap the step takes ${formatDuration(a.stepSeconds)}, ${formatDuration(a.exposedCommSeconds)} of it waiting; ` +
    `with overlap ${formatDuration(b.stepSeconds)}, ${formatDuration(b.exposedCommSeconds)} waiting` +
    (s.dp > 1 && s.microbatches === 1
      ? ` (the chapter’s exposed-time equation estimates ${formatDuration(exposedEstimateSeconds(overlapped))}: it spreads the buckets evenly over the layers, while the timeline waits for the layer that completes each bucket).`
      : ".")
  );
}

/** Draws the widget's figure: the same step without and with overlap, on one time axis. */
export function renderDpOverlap(root: Element, s: DpOverlapSettings, idPrefix = "dp-overlap", width = 640): void {
  const { a, b } = dpOverlapRun(s);
  drawDpTimelines(
    root,
    [
      { label: "Without overlap", timeline: a },
      { label: "With overlap", timeline: b },
    ],
    {
      title: "One data-parallel step, without and with overlap",
      description: summarizeDpOverlap(s),
      idPrefix,
      width: Math.max(340, Math.min(760, Math.round(width))),
    },
  );
}

/** Controls of the widget, in display order: setting key, label, unit hint. */
export const dpOverlapControls: readonly {
  key: "busBandwidthGBps" | "bucketMebibytes" | "dp" | "microbatches" | "latencyMicroseconds";
  label: string;
}[] = [
  { key: "busBandwidthGBps", label: "Bus bandwidth, GB/s" },
  { key: "dp", label: "Replicas d" },
  { key: "bucketMebibytes", label: "Bucket size, MiB" },
  { key: "microbatches", label: "Microbatches m" },
  { key: "latencyMicroseconds", label: "Cost per call α, µs" },
];

/**
 * Checks the widget's typed control values against `previous`; returns the new settings or a
 * message per field at fault. Pure, so tests drive it without a browser.
 */
export function validateDpOverlapControls(
  raw: Partial<Record<(typeof dpOverlapControls)[number]["key"], string>>,
  noSync: boolean,
  previous: DpOverlapSettings,
): { ok: true; settings: DpOverlapSettings } | { ok: false; errors: Partial<Record<string, string>> } {
  const next: DpOverlapSettings = { ...previous, noSync };
  const errors: Partial<Record<string, string>> = {};
  for (const { key } of dpOverlapControls) {
    const text = raw[key];
    if (text === undefined) continue;
    const read = checkNumberField(text, (value) => dpOverlapSettingProblem(key, value));
    if (read.ok) next[key] = read.value;
    else errors[key] = read.message;
  }
  if (Object.keys(errors).length === 0) {
    try {
      dpOverlapInputs(next);
    } catch (e) {
      if (e instanceof ModelInputError) {
        const field = e.field === "bucketBytes" || e.field === "bucketsPerSync" ? "bucketMebibytes" : e.field;
        errors[field] = e.message;
      } else throw e;
    }
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, settings: next };
}

function parseWidgetSettings(raw: unknown): DpOverlapSettings {
  const obj = settingsObject(raw, [...Object.keys(dpOverlapBounds), "noSync", "model"]);
  try {
    return parseDpOverlapSettings(obj);
  } catch (e) {
    if (e instanceof ModelInputError) throw new WidgetSettingsError(e.field, e.message);
    throw e;
  }
}

/** Draws the widget's controls (disabled until the script loads), figure and readout. */
function renderDpOverlapStatic(root: Element, settings: DpOverlapSettings): void {
  const doc = root.ownerDocument;
  const idBase = root.getAttribute("id") ?? "dp-overlap";
  const { el } = dom(doc);
  const box = el("div", { class: "dp-overlap" });
  const controls = el("div", { class: "widget-controls" });
  for (const c of dpOverlapControls) {
    controls.append(
      numberField(doc, {
        idBase,
        name: c.key,
        label: c.label,
        value: settings[c.key],
        inputmode: "decimal",
        size: 7,
      }),
    );
  }
  const syncField = el("div", { class: "widget-field" });
  const syncLabel = el("label", {});
  const checkbox = el("input", { id: `${idBase}-noSync`, name: "noSync", type: "checkbox", disabled: "" });
  if (settings.noSync) checkbox.setAttribute("checked", "");
  syncLabel.append(checkbox, doc.createTextNode(" no_sync until the last microbatch"));
  syncField.append(syncLabel);
  controls.append(syncField);
  const figure = el("div", { class: "dp-overlap-figure" });
  renderDpOverlap(figure, settings, `${idBase}-svg`);
  const readout = el("p", { class: "dp-overlap-readout" }, summarizeDpOverlap(settings));
  const live = el("p", { class: "visually-hidden", "aria-live": "polite" });
  const note = el("p");
  const ref = referenceBandwidthsGBps();
  const model = dpOverlapModel(settings.model);
  const small = el(
    "small",
    {},
    `Model: ${formatBytes(2 * model.parameters, "GB", { decimals: 2 })} of bf16 gradients from ${model.layers} equal layers, ` +
      `${formatDuration(settings.microbatchMilliseconds / 1000)} of compute per microbatch (a third forward, two thirds backward); ` +
      "as many buckets as DDP makes from the model's whole fp32 gradient tensors at the cap (the first capped at 1 MiB), " +
      "each holding an equal share of the bf16 gradients; " +
      "ring all-reduce time α + 2(d − 1)/d · S / bandwidth per bucket, one bucket at a time. " +
      `Bus bandwidth on H100 servers (the book's model): ${ref.onePerServer} GB/s for replicas one per server (one NIC each), ` +
      `${ref.allEight} GB/s for replicas that fill whole servers (eight NICs each), ${ref.oneServer} GB/s inside one server (NVLink SHARP).`,
  );
  note.append(small);
  box.append(controls, figure, readout, note, live);
  root.append(box);
}

/** The `dp-overlap` widget: a DP step's compute and all-reduce timelines without and with overlap. */
export const dpOverlapWidget = defineWidget<DpOverlapSettings>({
  description:
    "draws one data-parallel step’s backward pass, gradient buckets and all-reduces without and with overlap",
  parseSettings: parseWidgetSettings,
  renderStatic: renderDpOverlapStatic,
});

/** The widget's settings in a page link (`?<widget id>=key:value,…`), checked by the chapter's parser. */
export const dpOverlapUrlCodec = settingsUrlCodec(
  {
    busBandwidthGBps: "number",
    dp: "number",
    bucketMebibytes: "number",
    microbatches: "number",
    latencyMicroseconds: "number",
    noSync: "boolean",
  },
  parseWidgetSettings,
);
