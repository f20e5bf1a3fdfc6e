/**
 * The `tp-sharding` widget's state, without DOM: the settings (YAML inside `::: widget
 * tp-sharding`, see src/figures/tp-sharding.ts) and the control values, each validated with a
 * message for the field at fault, the layer layout of validated settings from `tpShardingLayout`
 * and `layerActivations` in src/model, and the text summary (readout, screen readers, the SVG's
 * description).
 */
import {
  MODEL_PRESETS,
  ModelInputError,
  findModelPreset,
  layerActivations,
  parseModelConfig,
  tpShardingLayout,
  type ModelArchitecture,
  type TpShardingLayout,
} from "../model/index.ts";
import { WidgetSettingsError, settingsObject } from "./widget.ts";
import { settingsUrlCodec } from "./kit/url-codec.ts";
import { parseNumberField } from "./kit/field.ts";
import { formatBytes, formatInteger, formatNumber } from "./kit/format.ts";

/** Settings of the widget (and its state). */
export interface TpShardingSettings {
  model: string;
  tp: number;
  sp: boolean;
  seq: number;
  microBatch: number;
}

export const tpShardingDefaults: TpShardingSettings = {
  model: "llama-3.1-70b",
  tp: 8,
  sp: true,
  seq: 8192,
  microBatch: 1,
};

/** Upper bounds of the number fields (the model accepts more; the drawing stays readable). */
const tpShardingLimits = { tp: 1024, seq: 16_777_216, microBatch: 1024 } as const;

/** Presets the layout supports: dense models with standard attention. */
export function tpShardingModels(): { id: string; name: string }[] {
  return MODEL_PRESETS.filter((p) => {
    const arch = parseModelConfig(p.config).architecture;
    return !arch.moe && !arch.mla;
  }).map((p) => ({ id: p.id, name: p.name }));
}

function archOf(id: string): ModelArchitecture {
  const preset = findModelPreset(id);
  if (!preset) throw new ModelInputError("model", `unknown model "${id}"`);
  return parseModelConfig(preset.config).architecture;
}

/** The model and its layer layout for settings that have been validated (the drawing reads it too). */
export function tpShardingState(s: TpShardingSettings): {
  arch: ModelArchitecture;
  layout: TpShardingLayout;
  activationBytes: number | null;
} {
  const arch = archOf(s.model);
  const layout = tpShardingLayout(arch, {
    tp: s.tp,
    sequenceParallel: s.sp,
    seqLength: s.seq,
    microBatchSize: s.microBatch,
  });
  // The activation model splits K and V by t, so it only accepts degrees that divide the KV heads;
  // with replicated KV heads the widget shows the layout and leaves the activation total out.
  let activationBytes: number | null = null;
  if (arch.numKvHeads % s.tp === 0) {
    activationBytes = layerActivations(arch, {
      seqLength: s.seq,
      microBatchSize: s.microBatch,
      tp: s.tp,
      sequenceParallel: s.sp,
    }).totalBytes;
  }
  return { arch, layout, activationBytes };
}

type FieldKey = "model" | "tp" | "seq" | "microBatch";
export type TpShardingValidation =
  { ok: true; settings: TpShardingSettings } | { ok: false; errors: Partial<Record<FieldKey, string>> };

/** A whole number from 1 to `max`, read with the kit's parser (so every widget words it the same). */
function readInteger(text: string, max: number, example: string): { value?: number; error?: string } {
  const r = parseNumberField(text, { integer: true, min: 1, max, example });
  return r.ok ? { value: r.value } : { error: r.message };
}

/**
 * Validates the raw control values. Never throws: a problem is a message keyed by the field to mark.
 */
export function validateTpShardingControls(
  raw: { model: string; tp: string; seq: string; microBatch: string },
  sp: boolean,
): TpShardingValidation {
  const errors: Partial<Record<FieldKey, string>> = {};
  if (!tpShardingModels().some((m) => m.id === raw.model)) errors.model = "Choose one of the listed models.";
  const tp = readInteger(raw.tp, tpShardingLimits.tp, "8");
  const seq = readInteger(raw.seq, tpShardingLimits.seq, "8192");
  const mb = readInteger(raw.microBatch, tpShardingLimits.microBatch, "1");
  if (tp.error) errors.tp = tp.error;
  if (seq.error) errors.seq = seq.error;
  if (mb.error) errors.microBatch = mb.error;
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const settings: TpShardingSettings = { model: raw.model, tp: tp.value!, sp, seq: seq.value!, microBatch: mb.value! };
  try {
    tpShardingState(settings);
  } catch (e) {
    if (e instanceof ModelInputError) {
      const field: FieldKey = e.field === "seqLength" ? "seq" : e.field === "model" ? "model" : "tp";
      const message =
        e.field === "seqLength"
          ? `With sequence parallelism the sequence length must divide by t = ${settings.tp}.`
          : capitalize(e.message.replace(/^tp = \d+: /, "")) + ".";
      return { ok: false, errors: { [field]: message } };
    }
    throw e;
  }
  return { ok: true, settings };
}

function capitalize(s: string): string {
  return s.length ? s[0].toUpperCase() + s.slice(1) : s;
}

/** "106.95 M" style element counts. */
function millions(x: number): string {
  return `${formatNumber(x / 1e6, { decimals: 2 })} M`;
}

/** The text summary (readout and screen-reader summary). */
export function summarizeTpSharding(s: TpShardingSettings): string {
  const { arch, layout, activationBytes } = tpShardingState(s);
  const name = findModelPreset(s.model)?.name ?? s.model;
  const parts = [
    `${name}, t = ${s.tp}, sequence parallelism ${s.sp ? "on" : "off"}, ${formatInteger(s.microBatch)} × ${formatInteger(s.seq)} tokens.`,
    `Each GPU holds ${layout.queryHeadsPerGpu} of ${arch.numHeads} query heads and ${layout.kvHeadsPerGpu} of ${arch.numKvHeads} KV heads.`,
    `One layer’s weights per GPU: ${millions(layout.layerWeightElementsPerGpu)} of ${millions(layout.layerWeightElements)} elements.`,
    activationBytes === null
      ? `Stored activations: the book’s activation model assumes whole KV heads per GPU, so it gives no total for t = ${s.tp}.`
      : `Stored activations per layer per GPU: ${formatBytes(activationBytes)} (bf16, FlashAttention).`,
    s.tp === 1
      ? "With t = 1 there is no tensor-parallel traffic."
      : `TP traffic per layer per microbatch: ${formatInteger(layout.commElementsPerLayer)} elements (${formatBytes(layout.commElementsPerLayer * 2)} in bf16) sent by each GPU.`,
    ...layout.notes,
  ];
  return parts.join(" ");
}

/** Validates `::: widget tp-sharding` settings; every key is optional. Throws WidgetSettingsError naming the key. */
export function parseTpShardingSettings(raw: unknown): TpShardingSettings {
  const obj = settingsObject(raw, ["model", "tp", "sp", "seq", "microBatch"]);
  const s: TpShardingSettings = { ...tpShardingDefaults };
  if (obj.model !== undefined) {
    if (typeof obj.model !== "string" || !tpShardingModels().some((m) => m.id === obj.model)) {
      throw new WidgetSettingsError(
        "model",
        `must be a dense preset id (${tpShardingModels()
          .map((m) => m.id)
          .join(", ")})`,
      );
    }
    s.model = obj.model;
  }
  for (const key of ["tp", "seq", "microBatch"] as const) {
    const v = obj[key];
    if (v === undefined) continue;
    if (typeof v !== "number" || !Number.isInteger(v) || v < 1 || v > tpShardingLimits[key]) {
      throw new WidgetSettingsError(
        key,
        `must be an integer from 1 to ${tpShardingLimits[key]} (got ${JSON.stringify(v)})`,
      );
    }
    s[key] = v;
  }
  if (obj.sp !== undefined) {
    if (typeof obj.sp !== "boolean")
      throw new WidgetSettingsError("sp", `must be true or false (got ${JSON.stringify(obj.sp)})`);
    s.sp = obj.sp;
  }
  try {
    tpShardingState(s);
  } catch (e) {
    if (e instanceof ModelInputError)
      throw new WidgetSettingsError(e.field === "seqLength" ? "seq" : e.field, e.message);
    throw e;
  }
  return s;
}

/** The widget's settings in a page link (`?<widget id>=key:value,…`), checked by the chapter's parser. */
export const tpShardingUrlCodec = settingsUrlCodec(
  { model: "choice", tp: "number", sp: "boolean", seq: "number", microBatch: "number" },
  parseTpShardingSettings,
);
