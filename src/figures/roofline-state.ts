/**
 * The `roofline` widget's state, without DOM: the settings (YAML inside `::: widget roofline`, see
 * src/figures/roofline.ts) and the control values, each validated with a message for the field at
 * fault, the view of valid settings (the roof and each operation's place on it, from
 * `src/model/roofline.ts` and `src/data/gpus.ts`), and the text summary (readout, screen readers,
 * the SVG's description).
 *
 * Operation shapes are Llama 3.1 8B's (hidden 4096, MLP width 14336, 32 heads of 128), in the
 * chosen precision's element size (bf16: 2 bytes, fp8: 1 byte).
 */
import {
  GPUS,
  attainableFlopsPerSecond,
  elementwiseCost,
  findGpu,
  fusedAttentionCost,
  matmulCost,
  ridgePointFlopsPerByte,
  rmsNormCost,
  softmaxCost,
  standardAttentionCost,
  type GpuSpec,
  type KernelCost,
} from "../model/index.ts";
import { WidgetSettingsError, settingsObject } from "./widget.ts";
import { settingsUrlCodec } from "./kit/url-codec.ts";
import { parseNumberField } from "./kit/field.ts";
import { formatInteger, formatNumber } from "./kit/format.ts";

export type RooflinePrecision = "bf16" | "fp8";

export interface RooflineSettings {
  gpu: string;
  precision: RooflinePrecision;
  tokens: number;
  seq: number;
}

/** Largest token count and sequence length the widget accepts (keeps every product finite and readable). */
export const ROOFLINE_MAX_TOKENS = 1_048_576;

const HIDDEN = 4096;
const FFN = 14336;
const HEADS = 32;
const HEAD_DIM = 128;

/** One operation placed on the roofline. */
export interface RooflinePoint {
  id: string;
  label: string;
  cost: KernelCost;
  attainableFlopsPerSecond: number;
  bound: "memory" | "compute";
}

/** Everything the drawing and the summary need. */
export interface RooflineView {
  gpu: GpuSpec;
  precision: RooflinePrecision;
  peakFlopsPerSecond: number;
  bandwidthBytesPerSecond: number;
  ridgeFlopsPerByte: number;
  points: RooflinePoint[];
}

function peakOf(gpu: GpuSpec, precision: RooflinePrecision): number | null {
  return precision === "fp8" ? gpu.fp8FlopsPerSecond : gpu.bf16FlopsPerSecond;
}

/** Computes the roofline and the operations' positions for valid settings. */
export function rooflineView(s: RooflineSettings): RooflineView {
  const gpu = findGpu(s.gpu);
  if (!gpu) throw new WidgetSettingsError("gpu", `unknown GPU ${JSON.stringify(s.gpu)}`);
  const peak = peakOf(gpu, s.precision);
  if (peak === null) throw new WidgetSettingsError("precision", `${gpu.name} has no fp8 tensor cores`);
  const bw = gpu.hbmBytesPerSecond;
  const e = s.precision === "fp8" ? 1 : 2;
  const ridge = ridgePointFlopsPerByte(peak, bw);
  const ops: [string, string, KernelCost][] = [
    ["matmul", `MLP matmul ${s.tokens}×${HIDDEN}×${FFN}`, matmulCost(s.tokens, FFN, HIDDEN, e)],
    ["add", "residual add", elementwiseCost(s.tokens * HIDDEN, 2, 1, 1, e)],
    ["softmax", `softmax (${HEADS} heads × ${s.seq}²)`, softmaxCost(HEADS * s.seq, s.seq, e)],
    ["rmsnorm", "RMSNorm", rmsNormCost(s.tokens, HIDDEN, e)],
    [
      "attn-std",
      `attention, scores in HBM (N = ${s.seq})`,
      standardAttentionCost({ heads: HEADS, seq: s.seq, headDim: HEAD_DIM, bytesPerElement: e }),
    ],
    [
      "attn-fused",
      `attention, fused (N = ${s.seq})`,
      fusedAttentionCost({ heads: HEADS, seq: s.seq, headDim: HEAD_DIM, bytesPerElement: e }),
    ],
  ];
  const points = ops.map(([id, label, cost]) => {
    const rate = attainableFlopsPerSecond(cost.intensityFlopsPerByte, peak, bw);
    return {
      id,
      label,
      cost,
      attainableFlopsPerSecond: rate,
      bound: cost.intensityFlopsPerByte < ridge ? "memory" : "compute",
    } as RooflinePoint;
  });
  return {
    gpu,
    precision: s.precision,
    peakFlopsPerSecond: peak,
    bandwidthBytesPerSecond: bw,
    ridgeFlopsPerByte: ridge,
    points,
  };
}

/** "2,294", "62.1", "0.17": three significant figures below 100, whole numbers above. */
export function formatIntensity(x: number): string {
  if (x >= 100) return formatInteger(x);
  return formatNumber(x, { decimals: x >= 10 ? 1 : 2 });
}

/** TFLOPS with one decimal. */
export function formatTflops(flopsPerSecond: number): string {
  return formatNumber(flopsPerSecond / 1e12, { decimals: 1 });
}

/** The sentence the live region reads and the readout prints. */
export function summarizeRoofline(v: RooflineView): string {
  const head = `${v.gpu.name}, ${v.precision}: ridge at ${formatIntensity(v.ridgeFlopsPerByte)} FLOP/byte.`;
  const parts = v.points.map(
    (p) =>
      `${p.label}: ${formatIntensity(p.cost.intensityFlopsPerByte)} FLOP/byte, ${p.bound}-bound, up to ${formatTflops(p.attainableFlopsPerSecond)} TFLOPS`,
  );
  return `${head} ${parts.join("; ")}.`;
}

/** Result of reading the controls: settings or a message per field. */
export type RooflineControlsResult =
  | { ok: true; settings: RooflineSettings }
  | { ok: false; errors: Partial<Record<"tokens" | "seq" | "precision", string>> };

/** What the token count and sequence length accept (the kit's parser words the message). */
const countRule = { integer: true, min: 1, max: ROOFLINE_MAX_TOKENS, example: "4096" } as const;

/** Validates what a reader typed or chose (never throws). */
export function readRooflineControls(raw: {
  gpu: string;
  precision: string;
  tokens: string;
  seq: string;
}): RooflineControlsResult {
  const errors: Partial<Record<"tokens" | "seq" | "precision", string>> = {};
  const tokens = parseNumberField(raw.tokens, countRule);
  const seq = parseNumberField(raw.seq, countRule);
  if (!tokens.ok) errors.tokens = tokens.message;
  if (!seq.ok) errors.seq = seq.message;
  const gpu = findGpu(raw.gpu) ?? GPUS[0]!;
  const precision: RooflinePrecision = raw.precision === "fp8" ? "fp8" : "bf16";
  if (precision === "fp8" && gpu.fp8FlopsPerSecond === null)
    errors.precision = `${gpu.name} has no fp8 tensor cores; pick bf16.`;
  if (!tokens.ok || !seq.ok || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, settings: { gpu: gpu.id, precision, tokens: tokens.value, seq: seq.value } };
}

/** Reads the YAML settings of `::: widget roofline` (throws WidgetSettingsError with the key at fault). */
export function parseRooflineSettings(raw: unknown): RooflineSettings {
  const obj = settingsObject(raw, ["gpu", "precision", "tokens", "seq"]);
  const gpu = obj.gpu ?? "h100-sxm";
  if (typeof gpu !== "string" || !findGpu(gpu)) {
    throw new WidgetSettingsError("gpu", `must be one of ${GPUS.map((g) => g.id).join(", ")}`);
  }
  const precision = obj.precision ?? "bf16";
  if (precision !== "bf16" && precision !== "fp8") throw new WidgetSettingsError("precision", "must be bf16 or fp8");
  const count = (key: string, fallback: number): number => {
    const v = obj[key] ?? fallback;
    if (typeof v !== "number" || !Number.isInteger(v) || v < 1 || v > ROOFLINE_MAX_TOKENS) {
      throw new WidgetSettingsError(key, `must be a whole number from 1 to ${ROOFLINE_MAX_TOKENS}`);
    }
    return v;
  };
  const settings: RooflineSettings = { gpu, precision, tokens: count("tokens", 8192), seq: count("seq", 4096) };
  rooflineView(settings); // throws WidgetSettingsError for fp8 on a GPU without it
  return settings;
}

/** The widget's settings in a page link (`?<widget id>=key:value,…`), checked by the chapter's parser. */
export const rooflineUrlCodec = settingsUrlCodec(
  { gpu: "choice", precision: "choice", tokens: "number", seq: "number" },
  parseRooflineSettings,
);
