/**
 * The `config-finder` widget's state, without DOM: the settings (YAML inside `::: widget
 * config-finder`, the URL and the form all read through {@link parseConfigFinderSettings}), the
 * search (searchConfigurations in src/model/config-search.ts, which evaluates each layout with the
 * engine's step and memory models and its one budget), the diagnosis when nothing fits (the cause,
 * and the nearest batches and GPU counts that work, with one sentence for the input to change), and
 * the link state. The browser runs {@link runConfigFinderJob} in a Worker
 * (src/widgets/workers/config-search.ts), so a search never blocks the page.
 */
import {
  findGpu,
  findModelPreset,
  MODEL_PRESETS,
  GPUS,
  ModelInputError,
  searchConfigurations,
  type ConfigSearchResult,
  type FrameworkId,
} from "../model/index.ts";
import { WidgetSettingsError, settingsObject } from "./widget.ts";
import { formatInteger } from "./kit/format.ts";
import { decodeUrlState, encodeUrlState, type UrlCodec, type UrlDecodeResult } from "./kit/url-codec.ts";
import { readNumber } from "./kit/field.ts";
import { FRAMEWORK_LABELS, frameworkOptions, isFrameworkId } from "./kit/scenario.ts";

/** The framework choice: one profile, or each ZeRO stage with the framework the search pairs it with. */
export type FinderFramework = FrameworkId | "auto";

/** Settings of the widget (JSON-safe). */
export interface ConfigFinderSettings {
  /** Model preset id (src/data/models.ts). */
  model: string;
  /** GPU id (src/data/gpus.ts). */
  gpu: string;
  /** A framework profile, or "auto" (AUTO_FRAMEWORK: Megatron-LM for ZeRO-0/1, DeepSpeed for 2, FSDP2 for 3). */
  framework: FinderFramework;
  gpuCount: number;
  seqLength: number;
  /** Global batch in sequences. */
  globalBatch: number;
}

/** Presets the widget offers: every preset except DeepSeek-V3, whose search is too slow to rerun on each edit. */
export const configFinderModels = MODEL_PRESETS.filter((p) => p.id !== "deepseek-v3").map((p) => ({
  id: p.id,
  name: p.name,
}));
/** GPUs the widget offers. */
export const configFinderGpus = GPUS.map((g) => ({ id: g.id, name: g.name }));
/** The framework select's options. */
export const configFinderFrameworks: readonly (readonly [FinderFramework, string])[] = [
  ["auto", "Auto: Megatron-LM, DeepSpeed or FSDP2 by ZeRO stage"],
  ...frameworkOptions,
];

/** Bounds of the numeric settings (inclusive, integers). */
export const configFinderBounds = {
  gpuCount: { min: 1, max: 16384 },
  seqLength: { min: 128, max: 131072 },
  globalBatch: { min: 1, max: 65536 },
} as const;

export type NumericKey = keyof typeof configFinderBounds;
const settingKeys = ["model", "gpu", "framework", "gpuCount", "seqLength", "globalBatch"] as const;
type SettingKey = (typeof settingKeys)[number];

/** The chapter's default case. */
export const configFinderDefaults: ConfigFinderSettings = {
  model: "llama-3.1-70b",
  gpu: "h100-sxm",
  framework: "auto",
  gpuCount: 256,
  seqLength: 8192,
  globalBatch: 512,
};

/** A problem with one numeric value, or undefined. */
export function configFinderProblem(key: NumericKey, value: number): string | undefined {
  const { min, max } = configFinderBounds[key];
  if (!Number.isFinite(value)) return "Enter a number.";
  if (!Number.isInteger(value)) return "Enter a whole number.";
  if (value < min || value > max) return `Enter a whole number from ${formatInteger(min)} to ${formatInteger(max)}.`;
  return undefined;
}

/** Reads one setting from YAML (typed: numbers must be numbers) or a link (text). Throws WidgetSettingsError naming it. */
function readSetting(key: SettingKey, v: unknown, fromText = false): unknown {
  if (key === "model") {
    if (typeof v !== "string" || !configFinderModels.some((m) => m.id === v))
      throw new WidgetSettingsError("model", `must be one of ${configFinderModels.map((m) => m.id).join(", ")}`);
    return v;
  }
  if (key === "gpu") {
    if (typeof v !== "string" || !findGpu(v))
      throw new WidgetSettingsError("gpu", `must be one of ${configFinderGpus.map((g) => g.id).join(", ")}`);
    return v;
  }
  if (key === "framework") {
    if (v !== "auto" && !isFrameworkId(v))
      throw new WidgetSettingsError(
        "framework",
        `must be auto or one of ${frameworkOptions.map(([id]) => id).join(", ")}`,
      );
    return v;
  }
  const n = fromText && typeof v === "string" ? readNumber(v) : v;
  const problem = typeof n === "number" ? configFinderProblem(key, n) : "must be a number";
  if (problem) throw new WidgetSettingsError(key, problem);
  return n;
}

/** Parses the chapter's settings (every key optional). */
export function parseConfigFinderSettings(raw: unknown): ConfigFinderSettings {
  const obj = settingsObject(raw, settingKeys);
  const out: ConfigFinderSettings = { ...configFinderDefaults };
  for (const key of settingKeys) {
    if (obj[key] !== undefined) (out as unknown as Record<string, unknown>)[key] = readSetting(key, obj[key]);
  }
  return out;
}

/** Runs the search for the settings (throws ModelInputError for inputs the model rejects). */
export function runConfigFinder(s: ConfigFinderSettings, maxRanked?: number): ConfigSearchResult {
  const preset = findModelPreset(s.model);
  const gpu = findGpu(s.gpu);
  if (!preset) throw new ModelInputError("model", `unknown model ${s.model}`);
  if (!gpu) throw new ModelInputError("gpu", `unknown GPU ${s.gpu}`);
  return searchConfigurations({
    config: preset.config,
    gpu,
    gpuCount: s.gpuCount,
    seqLength: s.seqLength,
    globalBatchSequences: s.globalBatch,
    framework: s.framework,
    maxRanked,
  });
}

/** Whether anything fits for the settings (the search stopped at the first fit). */
function anythingFits(s: ConfigFinderSettings): boolean {
  try {
    return runConfigFinder(s, 1).ranked.length > 0;
  } catch (e) {
    if (e instanceof ModelInputError) return false;
    throw e;
  }
}

/** n without its factors of two: every layout's data-parallel degree keeps it (TP, CP and PP are powers of two). */
function oddPart(n: number): number {
  let m = n;
  while (m % 2 === 0) m /= 2;
  return m;
}

/** The largest power of two dividing n. */
function twoPart(n: number): number {
  return n / oddPart(n);
}

/** Micro-batch sizes the search tries (searchConfigurations' default). */
const MICRO_BATCHES = [1, 2, 4, 8];

/**
 * Whether a batch can split over a GPU count at all (before memory): some data-parallel degree
 * N / 2^k with some micro-batch size divides it. Cheap; it prunes the candidates the search checks.
 */
function batchCanSplit(gpuCount: number, batch: number): boolean {
  for (let dp = gpuCount; ; dp /= 2) {
    if (MICRO_BATCHES.some((b) => batch % (dp * b) === 0)) return true;
    if (dp % 2 !== 0) return false;
  }
}

/** What nothing fitting is due to, and the nearest settings that fit. */
export interface ConfigFinderDiagnosis {
  /** One or two sentences naming the cause. */
  cause: string;
  /** The nearest global batches that fit (below and above), at most two. */
  batches: number[];
  /** The nearest GPU counts that fit (below and above), at most two. */
  gpuCounts: number[];
  /** The input to change, and one sentence for next to it. */
  field: SettingKey;
  hint: string;
}

/** Scans from `start` in each direction of `steps` for the nearest value that passes `cheap`, then `fits`. */
function nearest(
  start: number,
  min: number,
  max: number,
  steps: readonly (-1 | 1)[],
  cheap: (v: number) => boolean,
  fits: (v: number) => boolean,
  budget: number,
): number[] {
  const out: number[] = [];
  for (const step of steps) {
    let checks = 0;
    for (let v = start + step; v >= min && v <= max && checks < budget; v += step) {
      if (!cheap(v)) continue;
      checks++;
      if (fits(v)) {
        out.push(v);
        break;
      }
    }
  }
  return out.sort((a, b) => a - b);
}

/** Why nothing fits for `s` (given its search result `r`), and the nearest batch and GPU count that work. */
export function diagnoseConfigFinder(s: ConfigFinderSettings, r: ConfigSearchResult): ConfigFinderDiagnosis {
  const n = s.gpuCount;
  const b = s.globalBatch;
  const odd = oddPart(n);
  const gpus = `${formatInteger(n)} GPU${n === 1 ? "" : "s"}`;
  const both = [-1, 1] as const;
  let cause: string;
  // Which way a batch and a GPU count could move to help, and how many searches each direction may cost.
  let batchSteps: readonly (-1 | 1)[] = both;
  let gpuSteps: readonly (-1 | 1)[] = both;
  if (r.configsTried === 0) {
    const fw = s.framework === "auto" ? "" : ` under ${FRAMEWORK_LABELS[s.framework]}`;
    cause = `No layout of ${gpus} divides the model's heads, sequence length and layers${fw}.`;
    batchSteps = [];
  } else if (r.ruledOutMemory === 0 && odd > 1 && b % odd !== 0) {
    const two = twoPart(n);
    cause =
      `${gpus} do not divide the global batch of ${formatInteger(b)} sequences: every layout leaves a data-parallel degree ` +
      `with the factor ${formatInteger(odd)} (${formatInteger(n)} = ${two > 1 ? `${formatInteger(two)} × ` : ""}${formatInteger(odd)}; TP, CP and PP are powers of two), ` +
      `and ${formatInteger(odd)} does not divide ${formatInteger(b)}.`;
  } else if (r.ruledOutMemory === 0) {
    cause = `The global batch of ${formatInteger(b)} sequences is too small for ${gpus}: no layout gives every data-parallel replica a whole number of microbatches, at least one per pipeline stage.`;
    batchSteps = [1];
    gpuSteps = [-1];
  } else {
    const ddp =
      s.framework === "ddp"
        ? " PyTorch DDP keeps the whole model, its gradients and Adam's states on every GPU and splits no model dimension."
        : "";
    cause = `Every layout that splits the batch needs more than the usable memory per GPU: ${formatInteger(r.ruledOutMemory)} configurations are over it.${ddp}`;
    // More GPUs shard more (and split the model further); the batch barely changes memory.
    batchSteps = [];
    gpuSteps = s.framework === "ddp" ? [] : [1];
  }
  let field: SettingKey = "gpuCount";
  if (r.configsTried > 0 && r.ruledOutMemory === 0 && !(odd > 1 && b % odd !== 0)) field = "globalBatch";
  if (s.framework !== "auto" && r.ruledOutMemory > 0 && anythingFits({ ...s, framework: "auto" })) field = "framework";
  const batches = nearest(
    b,
    configFinderBounds.globalBatch.min,
    configFinderBounds.globalBatch.max,
    batchSteps,
    (v) => batchCanSplit(n, v),
    (v) => anythingFits({ ...s, globalBatch: v }),
    8,
  );
  const gpuCounts = nearest(
    n,
    configFinderBounds.gpuCount.min,
    configFinderBounds.gpuCount.max,
    gpuSteps,
    (v) => batchCanSplit(v, b),
    (v) => anythingFits({ ...s, gpuCount: v }),
    8,
  );
  const list = (xs: number[]) => xs.map((x) => formatInteger(x)).join(" or ");
  const hint =
    field === "framework"
      ? `Nothing fits under ${FRAMEWORK_LABELS[s.framework as FrameworkId]} here; Auto finds configurations that do.`
      : field === "globalBatch"
        ? `A batch of ${formatInteger(b)} does not split over ${gpus}${batches.length > 0 ? `; ${list(batches)} does` : ""}.`
        : odd > 1 && b % odd !== 0 && r.ruledOutMemory === 0
          ? `${gpus} do not divide a batch of ${formatInteger(b)}${gpuCounts.length > 0 ? `; ${list(gpuCounts)} GPUs do` : ""}.`
          : `Nothing fits on ${gpus}${gpuCounts.length > 0 ? `; ${list(gpuCounts)} GPUs is the nearest count that fits` : ""}.`;
  return { cause, batches, gpuCounts, field, hint };
}

/** The diagnosis in words: the cause and what to change. */
export function diagnosisText(d: ConfigFinderDiagnosis): string {
  const list = (xs: number[], unit: string) => xs.map((x) => formatInteger(x)).join(" or ") + unit;
  const fixes: string[] = [];
  if (d.batches.length > 0) fixes.push(`a global batch of ${list(d.batches, " sequences")}`);
  if (d.gpuCounts.length > 0) fixes.push(`${list(d.gpuCounts, " GPUs")}`);
  return fixes.length > 0
    ? `${d.cause} Nearest settings that fit: ${fixes.join(", or ")}.`
    : `${d.cause} No batch or GPU count near these fits either: try another framework, a GPU with more memory or a shorter sequence.`;
}

/** Rows the widget draws (bars; the table shows the first five of them). */
export const SHOWN_ROWS = 6;

/** A search result cut to the rows the widget shows, with the count of all that fit. */
export type ShownResult = ConfigSearchResult & { fitting?: number };

/** The result as the worker sends it: the shown rows only (cheap to copy between threads) and how many fit. */
export function shownResult(r: ConfigSearchResult): ShownResult {
  return { ...r, ranked: r.ranked.slice(0, SHOWN_ROWS), fitting: r.ranked.length };
}

/** A search request the page sends to the worker (`id` matches the reply to the latest request). */
export interface FinderJob {
  id: number;
  settings: ConfigFinderSettings;
}

/** The worker's reply: the result (and the diagnosis when nothing fits), or the input the model rejected. */
export type FinderReply =
  | { id: number; ok: true; result: ShownResult; diagnosis: ConfigFinderDiagnosis | null }
  | { id: number; ok: false; field: string; message: string };

/** One search with its diagnosis; never throws for bad input (the reply names the field). */
export function runConfigFinderJob(job: FinderJob): FinderReply {
  try {
    const result = runConfigFinder(job.settings);
    const diagnosis = result.ranked.length === 0 ? diagnoseConfigFinder(job.settings, result) : null;
    return { id: job.id, ok: true, result: shownResult(result), diagnosis };
  } catch (e) {
    if (e instanceof ModelInputError) return { id: job.id, ok: false, field: e.field, message: e.message };
    throw e;
  }
}

/** The control a field the model names belongs to. */
export function controlOfSearchField(field: string): SettingKey {
  if (field === "globalBatchSequences") return "globalBatch";
  return (settingKeys as readonly string[]).includes(field) ? (field as SettingKey) : "gpuCount";
}

const finderUrlCodec: UrlCodec<ConfigFinderSettings, SettingKey> = {
  keys: settingKeys,
  read: (key, text) => readSetting(key, text, true),
  check: () => {},
  maxLength: 400,
};

/** The settings that differ from the page's, for the link ("" when none). */
export function encodeConfigFinderState(s: ConfigFinderSettings, base: ConfigFinderSettings): string {
  return encodeUrlState(finderUrlCodec, s, base);
}

/** Settings from a link over the page's; a bad value rejects the link with a message. */
export function decodeConfigFinderState(
  text: string,
  base: ConfigFinderSettings,
): UrlDecodeResult<ConfigFinderSettings> {
  return decodeUrlState(finderUrlCodec, text, base);
}
