/**
 * The `overlap-calculator` widget's state, without DOM: the settings (YAML inside `::: widget
 * overlap-calculator`, see src/figures/overlap-calculator.ts) and the typed fields, each validated
 * with a message for the field at fault, the communication and compute times per scheme from
 * src/model's overlapRatios, and the text summary (readout, screen readers, the SVG's description).
 */
import {
  findGpu,
  findModelPreset,
  ModelInputError,
  overlapRatios,
  type OverlapRatio,
  type OverlapRatios,
  type ZeroStage,
} from "../model/index.ts";
import { WidgetSettingsError, settingsObject } from "./widget.ts";
import { parseNumberField } from "./kit/field.ts";
import { formatNumber, formatSeconds } from "./kit/format.ts";

export interface OverlapCalculatorSettings {
  model: string;
  gpu: string;
  tp: number;
  pp: number;
  dp: number;
  zeroStage: ZeroStage;
  microBatchSize: number;
  seqLength: number;
}

/** The assumptions the note under the chart states. */
export const OVERLAP_MFU = 0.4;
export const DP_BUS_BYTES_PER_SECOND = 50e9;
const PP_BYTES_PER_SECOND = 50e9;

export const defaultOverlapSettings: OverlapCalculatorSettings = {
  model: "llama-3.1-8b",
  gpu: "h100-sxm",
  tp: 1,
  pp: 1,
  dp: 64,
  zeroStage: 3,
  microBatchSize: 1,
  seqLength: 4096,
};

/** Integer fields and their limits. */
export const overlapIntegerFields = [
  { key: "tp", label: "TP degree t", min: 1, max: 64 },
  { key: "pp", label: "PP degree p", min: 1, max: 128 },
  { key: "dp", label: "DP degree d", min: 1, max: 65536 },
  { key: "microBatchSize", label: "Microbatch b", min: 1, max: 1024 },
  { key: "seqLength", label: "Sequence s", min: 1, max: 1048576 },
] as const;
type IntKey = (typeof overlapIntegerFields)[number]["key"];

export type OverlapResult = { ok: true; ratios: OverlapRatios } | { ok: false; field: string; message: string };

/** The model's ratios for a settings object; a model input error becomes a message naming the field. */
export function computeOverlap(s: OverlapCalculatorSettings): OverlapResult {
  const preset = findModelPreset(s.model);
  const gpu = findGpu(s.gpu);
  if (!preset) return { ok: false, field: "model", message: `Unknown model ${s.model}.` };
  if (!gpu) return { ok: false, field: "gpu", message: `Unknown GPU ${s.gpu}.` };
  try {
    const ratios = overlapRatios(preset.config, {
      setup: {
        tp: s.tp,
        pp: s.pp,
        dp: s.dp,
        zeroStage: s.zeroStage,
        microBatchSize: s.microBatchSize,
        seqLength: s.seqLength,
        microbatches: Math.max(1, 2 * s.pp),
        sequenceParallel: s.tp > 1,
      },
      peakFlopsPerSecond: gpu.bf16FlopsPerSecond,
      mfu: OVERLAP_MFU,
      bandwidths: {
        dpBusBytesPerSecond: DP_BUS_BYTES_PER_SECOND,
        tpBusBytesPerSecond: gpu.nvlinkBytesPerSecond / 2,
        ppBytesPerSecond: PP_BYTES_PER_SECOND,
      },
    });
    for (const r of [ratios.dp, ratios.zero3, ratios.tp, ratios.pp]) {
      if (r && !(Number.isFinite(r.ratio) && Number.isFinite(r.commSeconds) && Number.isFinite(r.computeSeconds))) {
        return { ok: false, field: "seqLength", message: "These inputs give no finite time; use smaller values." };
      }
    }
    return { ok: true, ratios };
  } catch (e) {
    if (e instanceof ModelInputError) {
      const map: Record<string, string> = {
        tp: "tp",
        pp: "pp",
        dp: "dp",
        seqLength: "seqLength",
        microBatchSize: "microBatchSize",
      };
      return { ok: false, field: map[e.field] ?? "tp", message: e.message };
    }
    throw e;
  }
}

/** Reads the YAML settings of `::: widget overlap-calculator` (throws WidgetSettingsError with the key at fault). */
export function parseOverlapSettings(raw: unknown): OverlapCalculatorSettings {
  const obj = settingsObject(raw, ["model", "gpu", "tp", "pp", "dp", "zeroStage", "microBatchSize", "seqLength"]);
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
  const r = computeOverlap(s);
  if (!r.ok) throw new WidgetSettingsError(r.field, r.message);
  return s;
}

export type ControlResult =
  | { ok: true; settings: OverlapCalculatorSettings; ratios: OverlapRatios }
  | { ok: false; errors: Record<string, string> };

/** Validates the typed fields; never throws. */
export function validateOverlapControls(raw: Record<string, string>): ControlResult {
  const errors: Record<string, string> = {};
  const s: OverlapCalculatorSettings = { ...defaultOverlapSettings };
  s.model = findModelPreset(raw.model ?? "") ? raw.model! : defaultOverlapSettings.model;
  s.gpu = findGpu(raw.gpu ?? "") ? raw.gpu! : defaultOverlapSettings.gpu;
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
  return { ok: true, settings: s, ratios: r.ratios };
}

/** The table's rows (and the summary's lines), one per scheme. */
export const overlapRows: readonly { key: keyof OverlapRatios; label: string }[] = [
  { key: "dp", label: "DP gradient reduction" },
  { key: "zero3", label: "ZeRO-3 layer gather" },
  { key: "tp", label: "TP all-reduces (one layer)" },
  { key: "pp", label: "PP activation send" },
];

/** "1.90", "0.0035". */
export function formatRatio(r: number): string {
  return r >= 0.1 ? formatNumber(r, { decimals: 2 }) : formatNumber(r, { significant: 2 });
}

/** One line per active scheme. */
export function overlapLines(ratios: OverlapRatios): string[] {
  return overlapRows
    .filter((r) => ratios[r.key])
    .map((r) => {
      const v = ratios[r.key] as OverlapRatio;
      return `${r.label}: ${formatSeconds(v.commSeconds)} of communication against ${formatSeconds(v.computeSeconds)} of compute, ratio ${formatRatio(v.ratio)} (${v.ratio < 1 ? "can hide" : "exposed"}).`;
    });
}

export function summarizeOverlap(s: OverlapCalculatorSettings, ratios: OverlapRatios): string {
  const lines = overlapLines(ratios);
  const name = findModelPreset(s.model)?.name ?? s.model;
  const head = `${name}, t = ${s.tp}, p = ${s.pp}, d = ${s.dp}, ZeRO-${s.zeroStage}, ${s.microBatchSize * s.seqLength} tokens per microbatch.`;
  return lines.length === 0 ? `${head} No communication: every degree is 1.` : `${head} ${lines.join(" ")}`;
}
