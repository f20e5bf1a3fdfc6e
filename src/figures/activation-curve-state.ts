/**
 * activation-curve's state, without DOM: the settings (YAML inside `::: widget activation-curve`,
 * see src/figures/activation-curve.ts) and their validation, the micro-batch field's parser, and
 * the curves themselves: activation memory of one microbatch per sequence length for no, selective
 * and full recomputation, from `trainingMemory` in src/model (one GPU, no parallelism), with the
 * summary sentence that the chart's label, the note under it and the live region share.
 */
import {
  MODEL_PRESETS,
  findGpu,
  findModelPreset,
  parseModelConfig,
  trainingMemory,
  type Recompute,
} from "../model/index.ts";
import { WidgetSettingsError, settingsObject } from "./widget.ts";
import { settingsUrlCodec } from "./kit/url-codec.ts";
import { formatBytes, formatInteger } from "./kit/format.ts";

export type CurveAttention = "eager" | "flash";

export interface ActivationCurveSettings {
  model: string;
  attention: CurveAttention;
  microBatch: number;
  gpu: string;
}

/** The three recomputation modes, in the order the chart and the summary list them. */
export const recomputeModes: readonly Recompute[] = ["none", "selective", "full"];
export const recomputeLabels: Readonly<Record<Recompute, string>> = {
  none: "no recomputation",
  selective: "selective",
  full: "full",
};
export const attentionLabels: Readonly<Record<CurveAttention, string>> = {
  eager: "eager attention",
  flash: "FlashAttention",
};

/** Largest micro-batch the widget accepts. */
const maxMicroBatch = 1024;
/** Shortest and longest sequence drawn (the longest is capped by the model's position limit). */
const minSeqLength = 256;
const maxSeqLength = 131_072;

/** The curves of one state of the widget. */
export interface ActivationCurves {
  modelName: string;
  attention: CurveAttention;
  microBatch: number;
  /** Sequence lengths, powers of two. */
  seqLengths: number[];
  /** Activation bytes per GPU for each recomputation mode, one value per sequence length. */
  bytes: Record<Recompute, number[]>;
  gpuName: string;
  gpuBytes: number;
}

/** Computes every point of the chart from the model. Throws only for settings parseActivationCurveSettings rejects. */
export function activationCurves(settings: ActivationCurveSettings): ActivationCurves {
  const preset = findModelPreset(settings.model);
  const gpu = findGpu(settings.gpu);
  if (!preset) throw new WidgetSettingsError("model", `unknown preset "${settings.model}"`);
  if (!gpu) throw new WidgetSettingsError("gpu", `unknown GPU "${settings.gpu}"`);
  const arch = parseModelConfig(preset.config).architecture;
  const longest = Math.min(maxSeqLength, arch.maxPositions);
  const seqLengths: number[] = [];
  for (let s = minSeqLength; s <= longest; s *= 2) seqLengths.push(s);
  if (seqLengths.length === 0) seqLengths.push(longest);
  const bytes = { none: [], selective: [], full: [] } as Record<Recompute, number[]>;
  for (const recompute of recomputeModes) {
    for (const seqLength of seqLengths) {
      const memory = trainingMemory(arch, {
        seqLength,
        microBatchSize: settings.microBatch,
        recompute,
        attention: settings.attention,
      });
      bytes[recompute].push(memory.perGpu.activations);
    }
  }
  return {
    modelName: preset.name,
    attention: settings.attention,
    microBatch: settings.microBatch,
    seqLengths,
    bytes,
    gpuName: gpu.name,
    gpuBytes: gpu.hbmBytes,
  };
}

export type MicroBatchResult = { ok: true; value: number } | { ok: false; message: string };

/** Reads the micro-batch field: a whole number from 1 to {@link maxMicroBatch}; never NaN. */
export function parseMicroBatch(text: string): MicroBatchResult {
  const cleaned = text.trim();
  if (cleaned === "") return { ok: false, message: "Enter a micro-batch size, for example 1." };
  if (!/^\+?\d+$/.test(cleaned)) {
    return { ok: false, message: `"${cleaned.slice(0, 20)}" is not a whole number. Enter 1 to ${maxMicroBatch}.` };
  }
  const value = Number(cleaned);
  if (!Number.isSafeInteger(value) || value < 1 || value > maxMicroBatch) {
    return { ok: false, message: `Enter a whole number from 1 to ${maxMicroBatch}.` };
  }
  return { ok: true, value };
}

/** Bytes with up to three significant digits in MB, GB (10^9 B) or TB (10^12 B), e.g. "20.4 GB", "80 GB". */
export function formatMemory(bytes: number): string {
  return formatBytes(bytes, bytes >= 1e12 ? "TB" : bytes >= 1e9 ? "GB" : "MB", { significant: 3 });
}

/** Longest sequence that fits in the GPU's memory with activations alone, or undefined if none. */
export function longestFitting(curves: ActivationCurves, recompute: Recompute): number | undefined {
  let best: number | undefined;
  curves.seqLengths.forEach((s, i) => {
    if (curves.bytes[recompute][i]! <= curves.gpuBytes) best = s;
  });
  return best;
}

/** Sentence for screen readers (and the visible note under the chart). */
export function curveSummary(curves: ActivationCurves): string {
  const pick = curves.seqLengths.includes(4096) ? 4096 : curves.seqLengths[curves.seqLengths.length - 1]!;
  const i = curves.seqLengths.indexOf(pick);
  const parts = recomputeModes.map((r) => `${recomputeLabels[r]} ${formatMemory(curves.bytes[r][i]!)}`);
  const fits = recomputeModes.map((r) => {
    const s = longestFitting(curves, r);
    return `${recomputeLabels[r]} ${s === undefined ? "none" : `${formatInteger(s)} tokens`}`;
  });
  return (
    `${curves.modelName}, ${attentionLabels[curves.attention]}, micro-batch ${curves.microBatch}: ` +
    `activations at ${formatInteger(pick)} tokens are ${parts.join(", ")}. ` +
    `Longest sequence drawn whose activations alone fit in ${formatMemory(curves.gpuBytes)}: ${fits.join(", ")}.`
  );
}

/** The options of the model select: every preset, in the data file's order. */
export function modelOptions(): { id: string; name: string }[] {
  return MODEL_PRESETS.map((p) => ({ id: p.id, name: p.name }));
}

/**
 * Validates `::: widget activation-curve` settings; every key is optional. Throws WidgetSettingsError naming the key.
 */
export function parseActivationCurveSettings(raw: unknown): ActivationCurveSettings {
  const obj = settingsObject(raw, ["model", "attention", "microBatch", "gpu"]);
  const model = obj.model ?? "llama-3.1-8b";
  if (typeof model !== "string" || !findModelPreset(model)) {
    throw new WidgetSettingsError(
      "model",
      `must be a preset id (${modelOptions()
        .map((o) => o.id)
        .join(", ")}); got ${JSON.stringify(model)}`,
    );
  }
  const attention = obj.attention ?? "eager";
  if (attention !== "eager" && attention !== "flash") {
    throw new WidgetSettingsError("attention", `must be eager or flash (got ${JSON.stringify(attention)})`);
  }
  const microBatch = obj.microBatch ?? 1;
  if (typeof microBatch !== "number" || !Number.isInteger(microBatch) || microBatch < 1 || microBatch > maxMicroBatch) {
    throw new WidgetSettingsError(
      "microBatch",
      `must be a whole number from 1 to ${maxMicroBatch} (got ${JSON.stringify(microBatch)})`,
    );
  }
  const gpu = obj.gpu ?? "h100-sxm";
  if (typeof gpu !== "string" || !findGpu(gpu)) {
    throw new WidgetSettingsError("gpu", `must be a GPU id of src/data/gpus.ts (got ${JSON.stringify(gpu)})`);
  }
  return { model, attention, microBatch, gpu };
}

/** The widget's settings in a page link (`?<widget id>=key:value,…`), checked by the chapter's parser. */
export const activationCurveUrlCodec = settingsUrlCodec(
  { model: "choice", attention: "choice", microBatch: "number" },
  parseActivationCurveSettings,
);
