/**
 * The `config-finder` widget's state, without DOM: the settings (YAML inside `::: widget
 * config-finder`, the URL and the form all read through {@link parseConfigFinderSettings}), the
 * search (searchConfigurations in src/model/config-search.ts, which evaluates each layout with the
 * engine's step and memory models and its one budget), the diagnosis when nothing fits (the cause,
 * and the nearest batches and GPU counts that work, with one sentence for the input to change), and
 * the link state; the planner's inputs: constraints on the degrees and the ZeRO stage, the
 * cluster's shape, a pasted config.json, tokens to train, and a layout the reader names (its rank
 * and why it loses). The browser runs {@link runConfigFinderJob} in a Worker
 * (src/widgets/workers/config-search.ts), so a search never blocks the page.
 */
import {
  clusterShape,
  evaluateLayout,
  findGpu,
  findModelPreset,
  layoutClassOf,
  MODEL_PRESETS,
  GPUS,
  ModelInputError,
  parseModelConfig,
  searchConfigurations,
  validationReport,
  LAYOUT_CLASSES,
  PRECISIONS,
  type ClusterOverrides,
  type ConfigSearchInput,
  type ConfigSearchResult,
  type FrameworkId,
  type LayoutClass,
  type NamedLayout,
  type ComputePrecision,
  type RankedConfig,
  type Recompute,
  type ZeroStage,
} from "../model/index.ts";
import { WidgetSettingsError, settingsObject } from "./widget.ts";
import { formatInteger, formatNumber, formatPercent, formatSeconds } from "./kit/format.ts";
import { decodeUrlState, encodeUrlState, urlText, type UrlCodec, type UrlDecodeResult } from "./kit/url-codec.ts";
import { readNumber } from "./kit/field.ts";
import { budgetLabel, FRAMEWORK_LABELS, frameworkOptions, gbShown, isFrameworkId } from "./kit/scenario.ts";

/** The framework choice: one profile, or each ZeRO stage with the framework the search pairs it with. */
export type FinderFramework = FrameworkId | "auto";

/** Settings of the widget (JSON-safe). */
export interface ConfigFinderSettings {
  /** Model preset id (src/data/models.ts), or "custom" for a pasted config.json (`config`). */
  model: string;
  /** The pasted config.json, cut to the keys the engine reads ({@link compactModelConfig}); null unless `model` is "custom". */
  config: Record<string, unknown> | null;
  /** GPU id (src/data/gpus.ts). */
  gpu: string;
  /** A framework profile, or "auto" (AUTO_FRAMEWORK: Megatron-LM for ZeRO-0/1, DeepSpeed for 2, FSDP2 for 3). */
  framework: FinderFramework;
  /** Precision of the linear layers' matmuls (the step model's `precision`): "bf16" or "fp8". */
  precision: ComputePrecision;
  gpuCount: number;
  seqLength: number;
  /** Global batch in sequences. */
  globalBatch: number;
  /** Largest degrees the search tries; null: no limit (TP: the NVLink domain). CP 1 is "my framework has no CP". */
  maxTp: number | null;
  maxPp: number | null;
  maxCp: number | null;
  maxEp: number | null;
  /** Highest ZeRO stage the search tries. */
  maxZero: ZeroStage;
  /** GPUs per server, which is also the NVLink domain here; null: the GPU system's record. */
  gpusPerServer: number | null;
  /** NICs per server on the scale-out network; null: the record's. */
  nicsPerServer: number | null;
  /** Bus bandwidth of one NIC, GB/s (1e9 bytes); null: the record's. */
  nicGBps: number | null;
  /** Tokens to train, for wall-clock days and GPU-hours; null: not asked. */
  tokens: number | null;
  /** A layout to evaluate, as the reader typed it ({@link parseNamedLayout}); "" for none. */
  layout: string;
}

/** Presets the widget offers: every preset except DeepSeek-V3, whose search is too slow to rerun on each edit. */
export const configFinderModels = MODEL_PRESETS.filter((p) => p.id !== "deepseek-v3").map((p) => ({
  id: p.id,
  name: p.name,
}));
/** The model select's options: the presets, then a pasted config.json. */
export const configFinderModelOptions: readonly (readonly [string, string])[] = [
  ...configFinderModels.map((m) => [m.id, m.name] as const),
  ["custom", "Custom: paste a config.json"],
];
/** GPUs the widget offers. */
export const configFinderGpus = GPUS.map((g) => ({ id: g.id, name: g.name }));
/** The framework select's options. */
export const configFinderFrameworks: readonly (readonly [FinderFramework, string])[] = [
  // Short enough for the select at phone width; the chapter names the framework of each stage.
  ["auto", "Auto, by ZeRO stage"],
  ...frameworkOptions,
];
/** The precision select's options. */
export const configFinderPrecisionOptions: readonly (readonly [ComputePrecision, string])[] = [
  ["bf16", "bf16"],
  ["fp8", "fp8 linear layers (H100, H200, B200)"],
];
/** The largest-ZeRO select's options. */
export const configFinderZeroOptions: readonly (readonly [string, string])[] = [
  ["3", "ZeRO-3 (any)"],
  ["2", "ZeRO-2"],
  ["1", "ZeRO-1"],
  ["0", "ZeRO-0 (none)"],
];

/** Bounds of the numeric settings (inclusive, integers). */
export const configFinderBounds = {
  gpuCount: { min: 1, max: 16384 },
  seqLength: { min: 128, max: 131072 },
  globalBatch: { min: 1, max: 65536 },
} as const;

/** Bounds of the optional numeric settings (inclusive; empty means the default). */
export const configFinderOptionalBounds = {
  maxTp: { min: 1, max: 16384, integer: true },
  maxPp: { min: 1, max: 16384, integer: true },
  maxCp: { min: 1, max: 16384, integer: true },
  maxEp: { min: 1, max: 16384, integer: true },
  gpusPerServer: { min: 1, max: 1024, integer: true },
  nicsPerServer: { min: 1, max: 64, integer: true },
  nicGBps: { min: 0.1, max: 10000, integer: false },
  tokens: { min: 1e6, max: 1e16, integer: false },
} as const;

export type NumericKey = keyof typeof configFinderBounds;
export type OptionalKey = keyof typeof configFinderOptionalBounds;
const settingKeys = [
  "model",
  "gpu",
  "framework",
  "precision",
  "gpuCount",
  "seqLength",
  "globalBatch",
  "maxTp",
  "maxPp",
  "maxCp",
  "maxEp",
  "maxZero",
  "gpusPerServer",
  "nicsPerServer",
  "nicGBps",
  "tokens",
  "layout",
  "config",
] as const;
type SettingKey = (typeof settingKeys)[number];

/** What each optional field means when empty, and its name in a message. */
export const optionalFieldText: Readonly<Record<OptionalKey, { name: string; empty: string }>> = {
  maxTp: { name: "Largest TP", empty: "no limit beyond the NVLink domain" },
  maxPp: { name: "Largest PP", empty: "no limit" },
  maxCp: { name: "Largest CP", empty: "no limit" },
  maxEp: { name: "Largest EP", empty: "no limit" },
  gpusPerServer: { name: "GPUs per server", empty: "the GPU system's record" },
  nicsPerServer: { name: "NICs per server", empty: "the GPU system's record" },
  nicGBps: { name: "Bandwidth per NIC", empty: "the GPU system's record" },
  tokens: { name: "Tokens to train", empty: "none" },
};

/** The chapter's default case. */
export const configFinderDefaults: ConfigFinderSettings = {
  model: "llama-3.1-70b",
  config: null,
  gpu: "h100-sxm",
  framework: "auto",
  precision: "bf16",
  gpuCount: 256,
  seqLength: 8192,
  globalBatch: 512,
  maxTp: null,
  maxPp: null,
  maxCp: null,
  maxEp: null,
  maxZero: 3,
  gpusPerServer: null,
  nicsPerServer: null,
  nicGBps: null,
  tokens: null,
  layout: "",
};

/** A problem with one numeric value, or undefined. */
export function configFinderProblem(key: NumericKey, value: number): string | undefined {
  const { min, max } = configFinderBounds[key];
  if (!Number.isFinite(value)) return "Enter a number.";
  if (!Number.isInteger(value)) return "Enter a whole number.";
  if (value < min || value > max) return `Enter a whole number from ${formatInteger(min)} to ${formatInteger(max)}.`;
  return undefined;
}

/** A problem with one optional numeric value (null is fine: the default), or undefined. */
export function configFinderOptionalProblem(key: OptionalKey, value: number | null): string | undefined {
  if (value === null) return undefined;
  const { min, max, integer } = configFinderOptionalBounds[key];
  const { name, empty } = optionalFieldText[key];
  const show = (x: number) => (x >= 1e6 ? x.toExponential().replace("e+", "e") : formatNumber(x));
  const range = `${integer ? "a whole number" : "a number"} from ${show(min)} to ${show(max)}`;
  if (!Number.isFinite(value) || (integer && !Number.isInteger(value)) || value < min || value > max)
    return `${name}: enter ${range}, or leave it empty for ${empty}.`;
  return undefined;
}

/** Suffixes a token count may carry: "15T", "2.5B", "800M", "50K". */
const TOKEN_SUFFIX: Readonly<Record<string, number>> = { k: 1e3, m: 1e6, b: 1e9, g: 1e9, t: 1e12 };

/**
 * Reads an optional field's text: null when empty, the number (a token count may end in K, M, B or
 * T), or NaN when it is not a number (the problem check then names the field).
 */
export function readOptionalText(key: OptionalKey, text: string): number | null {
  const t = text.trim();
  if (t === "" || t === "auto") return null;
  if (key === "tokens") {
    const m = /^(.*?)\s*([kmbgt])$/i.exec(t);
    if (m) {
      const n = readNumber(m[1]!);
      return n === null ? NaN : n * TOKEN_SUFFIX[m[2]!.toLowerCase()]!;
    }
  }
  return readNumber(t) ?? NaN;
}

/** A token count as a reader writes it: "15T", "2.5B", "1.2e16". */
export function tokensText(n: number): string {
  for (const [suffix, scale] of [
    ["T", 1e12],
    ["B", 1e9],
    ["M", 1e6],
  ] as const)
    if (n >= scale && n < 1e4 * scale)
      return `${formatNumber(n / scale, { significant: 4 }).replace(/,/g, "")}${suffix}`;
  return String(n);
}

/** Longest named-layout text accepted. */
const MAX_LAYOUT_CHARS = 200;

/** Reads one setting from YAML (typed: numbers must be numbers) or a link (text). Throws WidgetSettingsError naming it. */
function readSetting(key: SettingKey, v: unknown, fromText = false): unknown {
  if (key === "model") {
    if (typeof v !== "string" || !configFinderModelOptions.some(([id]) => id === v))
      throw new WidgetSettingsError("model", `must be one of ${configFinderModelOptions.map(([id]) => id).join(", ")}`);
    return v;
  }
  if (key === "config") {
    if (fromText) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(base64UrlDecode(String(v)));
      } catch {
        throw new WidgetSettingsError("config", "is not an encoded config.json");
      }
      v = parsed;
    }
    if (v === null) return null;
    const problem = configProblem(v);
    if (problem) throw new WidgetSettingsError("config", problem);
    return compactModelConfig(v as Record<string, unknown>);
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
  if (key === "precision") {
    if (typeof v !== "string" || !(PRECISIONS as readonly string[]).includes(v))
      throw new WidgetSettingsError("precision", `must be one of ${PRECISIONS.join(", ")}`);
    return v;
  }
  if (key === "maxZero") {
    const n = fromText && typeof v === "string" ? readNumber(v) : v;
    if (n !== 0 && n !== 1 && n !== 2 && n !== 3) throw new WidgetSettingsError("maxZero", "must be 0, 1, 2 or 3");
    return n;
  }
  if (key === "layout") {
    if (typeof v !== "string" || v.length > MAX_LAYOUT_CHARS)
      throw new WidgetSettingsError("layout", `must be text of at most ${MAX_LAYOUT_CHARS} characters`);
    const text = v.trim();
    if (text !== "") {
      const r = parseNamedLayout(text);
      if (!r.ok) throw new WidgetSettingsError("layout", r.message);
    }
    return text;
  }
  if (key in configFinderOptionalBounds) {
    const k = key as OptionalKey;
    const n = fromText && typeof v === "string" ? readOptionalText(k, v) : v;
    if (n !== null && typeof n !== "number") throw new WidgetSettingsError(key, "must be a number or empty");
    const problem = configFinderOptionalProblem(k, n);
    if (problem) throw new WidgetSettingsError(key, problem);
    return n;
  }
  const k = key as NumericKey;
  const n = fromText && typeof v === "string" ? readNumber(v) : v;
  const problem = typeof n === "number" ? configFinderProblem(k, n) : "must be a number";
  if (problem) throw new WidgetSettingsError(key, problem);
  return n;
}

/** The combination: a custom model needs its config, and a preset carries none. Throws WidgetSettingsError. */
function checkSettings(s: ConfigFinderSettings): void {
  if (s.model === "custom" && !s.config) throw new WidgetSettingsError("config", "model custom needs a config");
  if (s.model !== "custom") s.config = null;
}

/** Parses the chapter's settings (every key optional). */
export function parseConfigFinderSettings(raw: unknown): ConfigFinderSettings {
  const obj = settingsObject(raw, settingKeys);
  const out: ConfigFinderSettings = { ...configFinderDefaults };
  for (const key of settingKeys) {
    if (obj[key] !== undefined) (out as unknown as Record<string, unknown>)[key] = readSetting(key, obj[key]);
  }
  checkSettings(out);
  return out;
}

// ---- A pasted config.json ----------------------------------------------------------------------

/**
 * The Hugging Face config keys the engine reads (parseModelConfig in src/model/architecture.ts);
 * tests/figures/config-finder-planner.test.ts checks the list against that file, and that every
 * preset cut to these keys parses to the same architecture.
 */
export const ENGINE_CONFIG_KEYS = [
  "model_type",
  "hidden_size",
  "num_hidden_layers",
  "num_attention_heads",
  "num_key_value_heads",
  "vocab_size",
  "intermediate_size",
  "head_dim",
  "max_position_embeddings",
  "tie_word_embeddings",
  "attention_bias",
  "mlp_bias",
  "attention_dropout",
  "hidden_dropout",
  "hidden_act",
  "use_parallel_residual",
  "num_local_experts",
  "num_experts_per_tok",
  "n_routed_experts",
  "n_shared_experts",
  "moe_intermediate_size",
  "moe_layer_freq",
  "first_k_dense_replace",
  "topk_method",
  "q_lora_rank",
  "kv_lora_rank",
  "qk_nope_head_dim",
  "qk_rope_head_dim",
  "v_head_dim",
  "n_embd",
  "n_layer",
  "n_head",
  "n_inner",
  "n_positions",
  "attn_pdrop",
  "embd_pdrop",
  "resid_pdrop",
] as const;

/** The config cut to the keys the engine reads, in their order (what a link carries). */
export function compactModelConfig(config: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ENGINE_CONFIG_KEYS) if (config[key] !== undefined) out[key] = config[key];
  return out;
}

/** Why a config object does not parse (one sentence naming the field), or undefined. */
function configProblem(config: unknown): string | undefined {
  try {
    parseModelConfig(config);
    return undefined;
  } catch (e) {
    if (e instanceof ModelInputError)
      return `config.json: ${e.message}${e.message.includes(e.field) ? "" : ` (field ${e.field})`}`;
    throw e;
  }
}

/** Longest config.json text the textarea accepts, in characters. */
export const MAX_CONFIG_CHARS = 50_000;

/** Reads the textarea: the compact config, or one sentence naming what is wrong. */
export function readConfigText(
  text: string,
): { ok: true; config: Record<string, unknown> } | { ok: false; message: string } {
  const t = text.trim();
  if (t === "") return { ok: false, message: "config.json: paste a Hugging Face config.json here." };
  if (t.length > MAX_CONFIG_CHARS)
    return { ok: false, message: `config.json: at most ${formatInteger(MAX_CONFIG_CHARS)} characters.` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(t);
  } catch (e) {
    return { ok: false, message: `config.json is not valid JSON: ${(e as Error).message}.` };
  }
  const problem = configProblem(parsed);
  if (problem) return { ok: false, message: `${problem}.` };
  return { ok: true, config: compactModelConfig(parsed as Record<string, unknown>) };
}

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

/** Longest encoded config a link carries, in characters. */
export const MAX_LINK_CONFIG_CHARS = 1200;

/** The config as a link carries it (base64url JSON of the engine's keys). */
export function configLinkText(config: Record<string, unknown>): string {
  return base64UrlEncode(JSON.stringify(compactModelConfig(config)));
}

/** Why the link leaves the pasted config out (too long even cut to the engine's keys), or undefined. */
export function configLinkProblem(s: ConfigFinderSettings): string | undefined {
  if (s.model !== "custom" || !s.config) return undefined;
  const n = configLinkText(s.config).length;
  return n > MAX_LINK_CONFIG_CHARS
    ? `The pasted config.json is too long for a link (${formatInteger(n)} characters encoded, at most ${formatInteger(MAX_LINK_CONFIG_CHARS)}): the link keeps the other settings and the page's model.`
    : undefined;
}

// ---- A named layout ----------------------------------------------------------------------------

/** What a named layout leaves out reads as this (the field's hint says so). */
export const NAMED_LAYOUT_DEFAULTS =
  "Missing parts: TP, PP, CP and EP 1, DP the rest of the GPUs, ZeRO-1, b 1, no recompute, the search's framework for the ZeRO stage.";

/**
 * Reads a layout the reader types, in the table's words or the explanation's: "DP 4 · TP 8 · PP 8 ·
 * CP 1 · ZeRO-1 (Megatron-LM) · b 1 · m 16 · no recompute", "tp=8 pp=4 zero 3 selective" or
 * "TP8 PP8 Z1 b1". `m` is accepted and checked later against the batch (it follows from DP and b).
 */
export function parseNamedLayout(
  text: string,
): { ok: true; layout: NamedLayout; microbatches: number | null } | { ok: false; message: string } {
  let rest = ` ${text.toLowerCase()} `;
  const take = (re: RegExp): RegExpExecArray[] => {
    const found = [...rest.matchAll(re)];
    rest = rest.replace(re, " ");
    return found;
  };
  let framework: FrameworkId | undefined;
  for (const [, label] of take(/\(([^)]*)\)/g)) {
    const id = (Object.keys(FRAMEWORK_LABELS) as FrameworkId[]).find(
      (f) => FRAMEWORK_LABELS[f].toLowerCase() === label!.trim() || f === label!.trim(),
    );
    if (!id) return { ok: false, message: `Layout: unknown framework "${label!.trim()}".` };
    framework = id;
  }
  const values = new Map<string, number>();
  const alias: Record<string, string> = { z: "zero", mb: "b", micro: "b", "micro-batch": "b" };
  for (const m of take(/(?<![a-z])(dp|tp|pp|cp|ep|zero|z|micro-batch|mb|b|m)\s*[-=:]?\s*(\d+)(?![\d.])/g)) {
    const key = alias[m[1]!] ?? m[1]!;
    if (values.has(key)) return { ok: false, message: `Layout: ${key.toUpperCase()} is given twice.` };
    values.set(key, Number(m[2]));
  }
  let recompute: Recompute = "none";
  const words = take(/(?<![a-z])(no recompute|none|selective|full)(?![a-z])/g);
  if (words.length > 1) return { ok: false, message: "Layout: give one recomputation: none, selective or full." };
  if (words.length === 1) recompute = words[0]![1] === "no recompute" ? "none" : (words[0]![1] as Recompute);
  const leftover = rest.replace(/\b(recompute|recomputation)\b/g, " ").replace(/[\s·,;×x*|/_-]+/g, "");
  if (leftover !== "")
    return {
      ok: false,
      message: `Layout: "${leftover.slice(0, 20)}" is not understood; write e.g. "DP 8 TP 8 PP 4 ZeRO 1 b 1 selective".`,
    };
  if (values.size === 0 && words.length === 0)
    return { ok: false, message: 'Layout: write the degrees, e.g. "DP 8 TP 8 PP 4 ZeRO 1 b 1 selective".' };
  for (const [key, v] of values) {
    if (key === "zero" ? v > 3 : v < 1)
      return {
        ok: false,
        message: key === "zero" ? "Layout: ZeRO is 0, 1, 2 or 3." : `Layout: ${key.toUpperCase()} must be at least 1.`,
      };
  }
  const layout: NamedLayout = {
    tp: values.get("tp") ?? 1,
    pp: values.get("pp") ?? 1,
    cp: values.get("cp") ?? 1,
    ep: values.get("ep") ?? 1,
    zeroStage: (values.get("zero") ?? 1) as ZeroStage,
    microBatchSize: values.get("b") ?? 1,
    recompute,
  };
  if (values.has("dp")) layout.dp = values.get("dp");
  if (framework) layout.framework = framework;
  return { ok: true, layout, microbatches: values.get("m") ?? null };
}

/** The model's architecture for the settings (a preset's, or the pasted config's). Throws ModelInputError. */
export function finderArchitecture(s: ConfigFinderSettings): Readonly<Record<string, unknown>> {
  if (s.model === "custom") {
    if (!s.config) throw new ModelInputError("config", "paste a config.json for the custom model");
    return s.config;
  }
  const preset = findModelPreset(s.model);
  if (!preset) throw new ModelInputError("model", `unknown model ${s.model}`);
  return preset.config;
}

/** Bytes in a GB (decimal, the book's unit). */
const BYTES_PER_GB = 1e9;

/** The cluster overrides of the settings, as the CLI's `step --gpus-per-server`/`--nics-per-server` give them. */
export function clusterOverridesOf(s: ConfigFinderSettings): ClusterOverrides {
  const out: ClusterOverrides = {};
  if (s.gpusPerServer !== null) {
    out.gpusPerServer = s.gpusPerServer;
    out.nvlinkDomain = s.gpusPerServer;
  }
  if (s.nicsPerServer !== null) out.nicsPerServer = s.nicsPerServer;
  // The reader's own figure in GB/s, converted to the engine's bytes per second (no default here: empty means the record's).
  if (s.nicGBps !== null) out.nicBusBytesPerSecond = s.nicGBps * BYTES_PER_GB;
  return out;
}

/** The cluster the settings describe: the GPU system's record with the reader's overrides (for the fields' placeholders). */
export function finderCluster(s: ConfigFinderSettings) {
  return clusterShape(s.gpu, clusterOverridesOf(s));
}

/** The search input for the settings. */
export function searchInputOf(s: ConfigFinderSettings, maxRanked?: number): ConfigSearchInput {
  const gpu = findGpu(s.gpu);
  if (!gpu) throw new ModelInputError("gpu", `unknown GPU ${s.gpu}`);
  return {
    config: finderArchitecture(s),
    gpu,
    gpuCount: s.gpuCount,
    seqLength: s.seqLength,
    globalBatchSequences: s.globalBatch,
    framework: s.framework,
    precision: s.precision,
    cluster: clusterOverridesOf(s),
    ...(s.maxTp !== null ? { maxTp: s.maxTp } : {}),
    ...(s.maxPp !== null ? { maxPp: s.maxPp } : {}),
    ...(s.maxCp !== null ? { maxCp: s.maxCp } : {}),
    ...(s.maxEp !== null ? { maxEp: s.maxEp } : {}),
    maxZeroStage: s.maxZero,
    maxRanked,
  };
}

/** Runs the search for the settings (throws ModelInputError for inputs the model rejects). */
export function runConfigFinder(s: ConfigFinderSettings, maxRanked?: number): ConfigSearchResult {
  return searchConfigurations(searchInputOf(s, maxRanked));
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
  /** The constraints that rule everything out (each alone: lifting it lets configurations fit), else empty. */
  constraints?: ConstraintKey[];
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

/** The constraint fields, each with the value that lifts it and its words. */
const CONSTRAINTS = [
  { key: "maxTp", lifted: null, words: (s: ConfigFinderSettings) => `TP at most ${s.maxTp}` },
  { key: "maxPp", lifted: null, words: (s: ConfigFinderSettings) => `PP at most ${s.maxPp}` },
  {
    key: "maxCp",
    lifted: null,
    words: (s: ConfigFinderSettings) => (s.maxCp === 1 ? "no context parallelism" : `CP at most ${s.maxCp}`),
  },
  { key: "maxEp", lifted: null, words: (s: ConfigFinderSettings) => `EP at most ${s.maxEp}` },
  { key: "maxZero", lifted: 3, words: (s: ConfigFinderSettings) => `ZeRO at most stage ${s.maxZero}` },
] as const;
export type ConstraintKey = (typeof CONSTRAINTS)[number]["key"];

/** The constraints set in `s` (not at their "no limit" value). */
function constraintsSet(s: ConfigFinderSettings) {
  return CONSTRAINTS.filter((c) => s[c.key] !== c.lifted);
}

/** Without every constraint. */
function unconstrained(s: ConfigFinderSettings): ConfigFinderSettings {
  return { ...s, maxTp: null, maxPp: null, maxCp: null, maxEp: null, maxZero: 3 };
}

/**
 * When nothing fits because of the reader's constraints: the diagnosis naming them (the ones that,
 * lifted alone, let configurations fit; or all of them together), or null when lifting every
 * constraint does not help either.
 */
function constraintDiagnosis(s: ConfigFinderSettings): ConfigFinderDiagnosis | null {
  const set = constraintsSet(s);
  if (set.length === 0 || !anythingFits(unconstrained(s))) return null;
  const alone = set.filter((c) => anythingFits({ ...s, [c.key]: c.lifted }));
  const named = alone.length > 0 ? alone : set;
  const words = named.map((c) => c.words(s));
  const list =
    words.length === 1
      ? words[0]!
      : `${words.slice(0, -1).join(", ")} ${alone.length > 0 ? "or" : "and"} ${words.at(-1)}`;
  const cause =
    alone.length > 0
      ? `Your constraint${named.length > 1 ? "s" : ""} rule${named.length > 1 ? "" : "s"} everything out: lifting ${list} lets configurations fit.`
      : `Your constraints together rule everything out (${list}); without them configurations fit.`;
  const first = named[0]!;
  return {
    cause,
    batches: [],
    gpuCounts: [],
    field: first.key,
    hint: `Nothing fits with ${first.words(s)}; ${first.key === "maxZero" ? "a higher stage" : "a larger limit"}${alone.length > 0 ? "" : " with the others"} does.`,
    constraints: named.map((c) => c.key),
  };
}

/** Why nothing fits for `s` (given its search result `r`), and the nearest batch and GPU count that work. */
export function diagnoseConfigFinder(s: ConfigFinderSettings, r: ConfigSearchResult): ConfigFinderDiagnosis {
  const byConstraint = constraintDiagnosis(s);
  if (byConstraint) return byConstraint;
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
  if (d.constraints && d.constraints.length > 0) return d.cause;
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

// ---- Time to train --------------------------------------------------------------------------

/** Wall-clock time and GPU-hours to train `tokens` tokens at a row's throughput. */
export interface TrainingTime {
  seconds: number;
  days: number;
  gpuHours: number;
}

/** Time to train `tokens` tokens with configuration `c` on `gpuCount` GPUs: tokens / tokens per second. */
export function timeToTrain(c: Pick<RankedConfig, "tokensPerSecond">, tokens: number, gpuCount: number): TrainingTime {
  const seconds = tokens / c.tokensPerSecond;
  return { seconds, days: seconds / 86_400, gpuHours: (seconds * gpuCount) / 3600 };
}

/** Days as the widget prints them: "97.3 days", "1,204 days", "0.42 days". */
export function daysText(days: number): string {
  return `${formatNumber(days, days >= 1000 ? { decimals: 0 } : { significant: 3 })} days`;
}

/** GPU-hours as the widget prints them: "597,000 GPU-hours" (three significant digits). */
export function gpuHoursText(hours: number): string {
  return `${formatNumber(hours, { significant: 3 })} GPU-hours`;
}

// ---- The error band ----------------------------------------------------------------------------

/** One layout class's out-of-sample error: runs, median and worst absolute relative MFU error. */
export interface ErrorBand {
  runs: number;
  median: number;
  worst: number;
}

/**
 * The step model's leave-one-source-out errors on the published runs, overall and by layout class
 * (the bf16 runs), and over the fp8 group (`fp8`, null when the data has no fp8 runs).
 */
export interface FinderErrorBands {
  overall: ErrorBand;
  byLayout: Partial<Record<LayoutClass, ErrorBand>>;
  fp8: (ErrorBand & { sources: number }) | null;
}

let bandsCache: FinderErrorBands | null = null;

/**
 * The out-of-sample error of the step model (validationReport in src/model/validation.ts: each
 * source's runs predicted with efficiencies fitted on the other sources). Computed once (it takes
 * about a second): at build time, into the widget's markup, which the browser reads.
 */
export function finderErrorBands(): FinderErrorBands {
  if (bandsCache) return bandsCache;
  const report = validationReport();
  const byLayout: Partial<Record<LayoutClass, ErrorBand>> = {};
  for (const l of report.byLayout)
    if (l.leaveOneSourceOut) byLayout[l.layout] = { runs: l.runs, ...pickBand(l.leaveOneSourceOut) };
  const fp8 = report.fp8
    ? { runs: report.fp8.runs, sources: report.fp8.sources.length, ...pickBand(report.fp8.leaveOneSourceOut) }
    : null;
  bandsCache = { overall: { runs: report.runs, ...pickBand(report.leaveOneSourceOut) }, byLayout, fp8 };
  return bandsCache;
}

function pickBand(b: { median: number; worst: number }): { median: number; worst: number } {
  return { median: b.median, worst: b.worst };
}

/** Reads the bands back from the markup's JSON; null when absent or malformed. */
export function readErrorBands(text: string | null | undefined): FinderErrorBands | null {
  if (!text) return null;
  try {
    const v = JSON.parse(text) as FinderErrorBands;
    const ok = (b: unknown): b is ErrorBand =>
      typeof b === "object" &&
      b !== null &&
      ["runs", "median", "worst"].every((k) => Number.isFinite((b as Record<string, unknown>)[k]));
    if (!ok(v.overall) || typeof v.byLayout !== "object" || v.byLayout === null) return null;
    if (v.fp8 === undefined) v.fp8 = null;
    if (v.fp8 !== null && (!ok(v.fp8) || !Number.isFinite(v.fp8.sources))) return null;
    for (const key of Object.keys(v.byLayout))
      if (!(LAYOUT_CLASSES as readonly string[]).includes(key) || !ok(v.byLayout[key as LayoutClass])) return null;
    return v;
  } catch {
    return null;
  }
}

/**
 * The sentence on a row's error band, e.g. "Published runs of this layout class (TP+PP+DP, 31 runs)
 * were off by a median of 14% in MFU when predicted out of sample (34% at worst); …".
 */
export function errorBandText(
  bands: FinderErrorBands,
  c: RankedConfig,
  moe: boolean,
  precision: ComputePrecision = "bf16",
): string {
  const cls = layoutClassOf(c, moe);
  const band = bands.byLayout[cls];
  const pct = (x: number) => formatPercent(x, 0);
  const inverse = "MFU is inversely proportional to the step time, so the step time is off by the same ratio.";
  if (precision === "fp8") {
    const f = bands.fp8;
    if (!f)
      return `No published fp8 run is in the book's data, so the fp8 step time has no measured error band. ${inverse}`;
    return `Published fp8 runs (${formatInteger(f.runs)} runs from ${formatInteger(f.sources)} sources, every layout class) were off by a median of ${pct(f.median)} in MFU when predicted out of sample (${pct(f.worst)} at worst); ${inverse}`;
  }
  if (!band)
    return `No published run of this layout class (${cls}) is in the book's data; over all ${formatInteger(bands.overall.runs)} runs the model was off by a median of ${pct(bands.overall.median)} in MFU when predicted out of sample (${pct(bands.overall.worst)} at worst). ${inverse}`;
  return `Published runs of this layout class (${cls}, ${formatInteger(band.runs)} run${band.runs === 1 ? "" : "s"}) were off by a median of ${pct(band.median)} in MFU when predicted out of sample (${pct(band.worst)} at worst); ${inverse}`;
}

// ---- The named layout --------------------------------------------------------------------------

/** What the widget says about the reader's layout. */
export interface NamedVerdict {
  /** "ranked": it fits and has a rank; "no-fit": it runs but needs more memory; "invalid": it does not divide or run. */
  status: "ranked" | "no-fit" | "invalid";
  /** Its place among the ranked configurations (1 = fastest), or null. */
  rank: number | null;
  /** How many configurations the search ranked. */
  of: number;
  /** One to three sentences. */
  text: string;
  /** The step model's row for it, when it runs. */
  config: RankedConfig | null;
}

const PART_WORDS = {
  compute: "compute (with recomputation and the optimizer)",
  bubble: "pipeline bubble",
  tp: "exposed TP communication",
  cp: "exposed CP communication",
  ep: "exposed EP communication",
  pp: "exposed PP communication",
  dp: "exposed DP/ZeRO communication",
} as const;

function partsOf(c: RankedConfig): Record<keyof typeof PART_WORDS, number> {
  return { compute: c.computeSeconds, bubble: c.bubbleSeconds, ...c.exposedSeconds };
}

const stepText = (x: number) => formatSeconds(x, { significant: 4 });

/** Evaluates the reader's layout against the full ranking `ranked` (fastest first). */
export function namedVerdict(s: ConfigFinderSettings, ranked: readonly RankedConfig[]): NamedVerdict | null {
  if (s.layout.trim() === "") return null;
  const parsed = parseNamedLayout(s.layout);
  if (!parsed.ok) return { status: "invalid", rank: null, of: ranked.length, text: parsed.message, config: null };
  const e = evaluateLayout(searchInputOf(s), parsed.layout);
  if (!e.ok)
    return {
      status: "invalid",
      rank: null,
      of: ranked.length,
      text: `This layout does not run here: ${e.reason}`,
      config: null,
    };
  const c = e.config;
  const notes: string[] = [];
  if (parsed.microbatches !== null && parsed.microbatches !== c.microbatches)
    notes.push(`m is ${c.microbatches} here, not ${parsed.microbatches}: it follows from the batch, DP and b.`);
  const head = `DP ${c.dp} · TP ${c.tp} · PP ${c.pp} · CP ${c.cp}${c.ep > 1 ? ` · EP ${c.ep}` : ""} · ZeRO-${c.zeroStage} (${FRAMEWORK_LABELS[c.framework]}) · b ${c.microBatchSize} · m ${c.microbatches} · ${c.recompute === "none" ? "no" : c.recompute} recompute`;
  const gpu = findGpu(s.gpu);
  const budget = gpu ? budgetLabel(gpu) : "the usable memory";
  if (!e.fits)
    return {
      status: "no-fit",
      rank: null,
      of: ranked.length,
      text: `${head}: needs ${gbShown(c.memoryBytes)} GB per GPU, over ${budget}, so it is not ranked (its step would take ${stepText(c.stepSeconds)}). ${notes.join(" ")}`.trim(),
      config: c,
    };
  const rank = 1 + ranked.filter((r) => r.stepSeconds < c.stepSeconds).length;
  const outside =
    e.outside.length > 0
      ? ` It is outside the search (${e.outside.join("; ")}), so this is the rank it would take.`
      : "";
  const top = ranked[0];
  let why: string;
  if (!top || rank === 1) why = "No ranked configuration is faster.";
  else {
    const mine = partsOf(c);
    const best = partsOf(top);
    const key = (Object.keys(PART_WORDS) as (keyof typeof PART_WORDS)[]).reduce((a, k) =>
      mine[k] - best[k] > mine[a] - best[a] ? k : a,
    );
    why =
      `Its step takes ${stepText(c.stepSeconds)} against ${stepText(top.stepSeconds)} for #1, ` +
      `mostly because its ${PART_WORDS[key]} is ${stepText(mine[key] - best[key])} longer (${stepText(mine[key])} against ${stepText(best[key])}).`;
  }
  return {
    status: "ranked",
    rank,
    of: ranked.length,
    text: `${head}: rank ${formatInteger(rank)} of ${formatInteger(Math.max(ranked.length, rank))}, ${gbShown(c.memoryBytes)} GB per GPU, MFU ${formatPercent(c.mfu)}. ${why}${outside} ${notes.join(" ")}`.trim(),
    config: c,
  };
}

/** A named layout as a link writes it: "dp8-tp8-pp4-cp1-ep1-zero1-b1-selective" (and "-(fsdp2)" when the framework is named). */
export function namedLayoutLinkText(text: string): string {
  const r = parseNamedLayout(text);
  if (!r.ok) return text.replace(/[,:]/g, " ");
  const l = r.layout;
  const dp = l.dp !== undefined ? `dp${l.dp}-` : "";
  const fw = l.framework ? `-(${l.framework})` : "";
  return `${dp}tp${l.tp}-pp${l.pp}-cp${l.cp}-ep${l.ep}-zero${l.zeroStage}-b${l.microBatchSize}-${l.recompute}${fw}`;
}

/** A search request the page sends to the worker (`id` matches the reply to the latest request). */
export interface FinderJob {
  id: number;
  settings: ConfigFinderSettings;
}

/** The worker's reply: the result (and the diagnosis when nothing fits, and the named layout's verdict), or the input the model rejected. */
export type FinderReply =
  | {
      id: number;
      ok: true;
      result: ShownResult;
      diagnosis: ConfigFinderDiagnosis | null;
      named: NamedVerdict | null;
    }
  | { id: number; ok: false; field: string; message: string };

/** One search with its diagnosis; never throws for bad input (the reply names the field). */
export function runConfigFinderJob(job: FinderJob): FinderReply {
  try {
    const result = runConfigFinder(job.settings);
    const diagnosis = result.ranked.length === 0 ? diagnoseConfigFinder(job.settings, result) : null;
    const named = namedVerdict(job.settings, result.ranked);
    return { id: job.id, ok: true, result: shownResult(result), diagnosis, named };
  } catch (e) {
    if (e instanceof ModelInputError) return { id: job.id, ok: false, field: e.field, message: e.message };
    throw e;
  }
}

/** The control a field the model names belongs to. */
export function controlOfSearchField(field: string): SettingKey {
  if (field === "globalBatchSequences") return "globalBatch";
  if (field === "gpusPerNode" || field === "nvlinkDomain") return "gpusPerServer";
  if (field === "nicBusBytesPerSecond" || field === "interNodeBytesPerSecond") return "nicGBps";
  if (field === "maxZeroStage") return "maxZero";
  if ((settingKeys as readonly string[]).includes(field)) return field as SettingKey;
  // A field of the pasted config.json (hidden_size, …) belongs to the config.
  return (ENGINE_CONFIG_KEYS as readonly string[]).includes(field) ? "config" : "gpuCount";
}

const finderUrlCodec: UrlCodec<ConfigFinderSettings, SettingKey> = {
  keys: settingKeys,
  same: (key, v, b) => (key === "config" ? JSON.stringify(v) === JSON.stringify(b) : v === b),
  write: (key, v) =>
    key === "config"
      ? v
        ? configLinkText(v as Record<string, unknown>)
        : undefined
      : key === "tokens" && typeof v === "number"
        ? tokensText(v)
        : key === "layout"
          ? namedLayoutLinkText(String(v))
          : urlText(v),
  read: (key, text) => readSetting(key, text, true),
  check: checkSettings,
  maxLength: 2000,
};

/** The settings that differ from the page's, for the link ("" when none); a config too long for a link is left out with the model. */
export function encodeConfigFinderState(s: ConfigFinderSettings, base: ConfigFinderSettings): string {
  const state = configLinkProblem(s) ? { ...s, model: base.model, config: base.config } : s;
  return encodeUrlState(finderUrlCodec, state, base);
}

/** Settings from a link over the page's; a bad value rejects the link with a message. */
export function decodeConfigFinderState(
  text: string,
  base: ConfigFinderSettings,
): UrlDecodeResult<ConfigFinderSettings> {
  return decodeUrlState(finderUrlCodec, text, base);
}
