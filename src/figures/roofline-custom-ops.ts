/**
 * The operations a reader adds to the interactive roofline (a matmul m × n × k, an elementwise
 * pass, attention fused or with the scores in HBM): the kinds and their fields, reading and
 * validating what was typed, the label, and the point on a view's roofline with the cost and
 * attainable rate from `src/model/roofline.ts`. Pure (no DOM), so the unit tests check every
 * number; src/widgets/roofline/add-form.ts is the form and src/figures/roofline-plotly.ts draws
 * the points.
 */
import {
  ModelInputError,
  attainableFlopsPerSecond,
  elementwiseCost,
  fusedAttentionCost,
  matmulCost,
  standardAttentionCost,
  type KernelCost,
} from "../model/index.ts";
import {
  ROOFLINE_MAX_TOKENS,
  formatIntensity,
  formatTflops,
  type RooflinePoint,
  type RooflineView,
} from "./roofline-state.ts";
import { parseNumberField } from "./kit/field.ts";
import { formatNumber } from "./kit/format.ts";

/** Kinds of operation a reader can add to the chart. */
export type CustomOpKind = "matmul" | "elementwise" | "attn-fused" | "attn-std";

export interface CustomOpField {
  /** Key in {@link CustomOp.values} and the input's `name` suffix. */
  key: string;
  label: string;
  /** Value the field shows when the kind is picked. */
  initial: number;
  max: number;
}

export interface CustomOpKindInfo {
  kind: CustomOpKind;
  /** Text of the kind's `<option>`. */
  name: string;
  fields: readonly [CustomOpField, CustomOpField, CustomOpField];
}

/** Most FLOPs per element an elementwise operation may declare. */
export const MAX_FLOPS_PER_ELEMENT = 100_000;
/** Most operations a reader may add at once (keeps the legend and the list readable). */
export const MAX_CUSTOM_OPS = 8;

const count = (key: string, label: string, initial: number): CustomOpField => ({
  key,
  label,
  initial,
  max: ROOFLINE_MAX_TOKENS,
});

/** The fields of both attention kinds (fused, and with the scores in HBM). */
const attentionFields: readonly [CustomOpField, CustomOpField, CustomOpField] = [
  count("heads", "heads", 32),
  count("seq", "sequence length N", 8192),
  count("headDim", "head dimension d", 128),
];

export const CUSTOM_OP_KINDS: readonly CustomOpKindInfo[] = [
  {
    kind: "matmul",
    name: "matmul m × n × k",
    fields: [
      count("m", "m (rows of A)", 4096),
      count("n", "n (columns of B)", 4096),
      count("k", "k (inner size)", 4096),
    ],
  },
  {
    kind: "elementwise",
    name: "elementwise (reads 1 tensor, writes 1)",
    fields: [
      count("rows", "rows", 8192),
      count("width", "width", 4096),
      { key: "flops", label: "FLOPs per element", initial: 8, max: MAX_FLOPS_PER_ELEMENT },
    ],
  },
  {
    kind: "attn-fused",
    name: "attention, fused",
    fields: attentionFields,
  },
  {
    kind: "attn-std",
    name: "attention, scores in HBM",
    fields: attentionFields,
  },
];

export function customOpKind(kind: string): CustomOpKindInfo | undefined {
  return CUSTOM_OP_KINDS.find((k) => k.kind === kind);
}

/** An operation the reader added: its kind and the three whole numbers of its fields. */
export interface CustomOp {
  kind: CustomOpKind;
  values: Record<string, number>;
}

export type CustomOpResult = { ok: true; op: CustomOp } | { ok: false; errors: Record<string, string> };

/** A field's whole number from 1 to its max, read with the kit's parser. */
function readWhole(text: string, field: CustomOpField): number | string {
  const r = parseNumberField(text, { integer: true, min: 1, max: field.max, example: String(field.initial) });
  return r.ok ? r.value : r.message;
}

/** Validates the add-an-operation fields (never throws): an operation or a message per field. */
export function readCustomOp(kind: string, raw: Record<string, string>): CustomOpResult {
  const info = customOpKind(kind);
  if (!info) return { ok: false, errors: { kind: "Pick an operation from the list." } };
  const errors: Record<string, string> = {};
  const values: Record<string, number> = {};
  for (const f of info.fields) {
    const v = readWhole(raw[f.key] ?? "", f);
    if (typeof v === "string") errors[f.key] = v;
    else values[f.key] = v;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, op: { kind: info.kind, values } };
}

const n = (x: number): string => formatNumber(x);

/** The operation's name in the legend, list and hover label, e.g. "matmul 4,096×4,096×4,096". */
export function customOpLabel(op: CustomOp): string {
  const v = op.values;
  switch (op.kind) {
    case "matmul":
      return `matmul ${n(v.m!)}×${n(v.n!)}×${n(v.k!)}`;
    case "elementwise":
      return `elementwise ${n(v.rows!)}×${n(v.width!)}, ${n(v.flops!)} FLOP/element`;
    case "attn-fused":
      return `attention, fused (${n(v.heads!)} heads, N = ${n(v.seq!)}, d = ${n(v.headDim!)})`;
    case "attn-std":
      return `attention, scores in HBM (${n(v.heads!)} heads, N = ${n(v.seq!)}, d = ${n(v.headDim!)})`;
  }
}

/** Element size of the view's precision, the one the built-in operations use (bf16: 2 bytes, fp8: 1). */
function bytesPerElementOf(view: RooflineView): number {
  return view.precision === "fp8" ? 1 : 2;
}

function customCost(op: CustomOp, bytesPerElement: number): KernelCost {
  const v = op.values;
  switch (op.kind) {
    case "matmul":
      return matmulCost(v.m!, v.n!, v.k!, bytesPerElement);
    case "elementwise":
      return elementwiseCost(v.rows! * v.width!, 1, 1, v.flops!, bytesPerElement);
    case "attn-fused":
      return fusedAttentionCost({ heads: v.heads!, seq: v.seq!, headDim: v.headDim!, bytesPerElement });
    case "attn-std":
      return standardAttentionCost({ heads: v.heads!, seq: v.seq!, headDim: v.headDim!, bytesPerElement });
  }
}

/**
 * Places a reader's operation on the view's roofline with the model's cost and attainable rate.
 * Throws `ModelInputError` when the model refuses the numbers, or when a result is not a finite
 * positive number (so nothing non-finite ever reaches the chart).
 */
export function placeCustomOp(op: CustomOp, view: RooflineView, index: number): RooflinePoint {
  const cost = customCost(op, bytesPerElementOf(view));
  for (const [k, v] of Object.entries(cost)) {
    if (!Number.isFinite(v) || v <= 0) throw new ModelInputError(k, `${k} is not a finite positive number`);
  }
  const rate = attainableFlopsPerSecond(
    cost.intensityFlopsPerByte,
    view.peakFlopsPerSecond,
    view.bandwidthBytesPerSecond,
  );
  return {
    id: `custom-${index}`,
    label: customOpLabel(op),
    cost,
    attainableFlopsPerSecond: rate,
    bound: cost.intensityFlopsPerByte < view.ridgeFlopsPerByte ? "memory" : "compute",
  };
}

/** One line per point: "label: 2,294 FLOP/byte, compute-bound, 989.4 TFLOPS" (legend, hover, summaries). */
export function describePoint(p: RooflinePoint): string {
  return `${p.label}: ${formatIntensity(p.cost.intensityFlopsPerByte)} FLOP/byte, ${p.bound}-bound, ${formatTflops(p.attainableFlopsPerSecond)} TFLOPS`;
}
