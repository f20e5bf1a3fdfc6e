/**
 * The Memory Explorer's view model: for a state, the bytes per GPU by category with the formula
 * behind each number (values substituted), the fit verdict against a GPU, the summary sentence,
 * and memory against sequence length or micro-batch size; plus the chapter-3 style of printing
 * memory that every one of those texts uses.
 *
 * Every number comes from `trainingMemory` in src/model; this module only chooses its inputs. The
 * model's `ModelInputError`s pass through (`controlOfModelField` names the control at fault), so
 * the callers in settings.ts, url.ts and controls.ts turn them into messages, never NaN.
 */
import {
  ModelInputError,
  PLANNING_MEMORY_FRACTION,
  bytesPerParameter,
  countParameters,
  findGpu,
  findModelPreset,
  parseModelConfig,
  trainingMemory,
  type GpuSpec,
  type ModelArchitecture,
  type StageMemory,
  type TrainingMemory,
  type TrainingSetup,
} from "../../model/index.ts";
import { formatBytes as formatBytesIn, formatCount, formatNumber } from "../kit/format.ts";
import type { MemoryControl, MemoryExplorerState } from "./state.ts";

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

/** A state field the model rejected, mapped to the control a reader can change. */
export function controlOfModelField(field: string): MemoryControl {
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
function resolveModel(state: Pick<MemoryExplorerState, "preset" | "config">): {
  arch: ModelArchitecture;
  name: string;
  warnings: string[];
} {
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
    (s.pp > 1
      ? ` (stage ${stage.stage + 1} of ${s.pp}: ${stage.layerCount} layers${stage.stage === 0 ? " + embedding" : ""}${stage.stage === s.pp - 1 ? " + head" : ""})`
      : "") +
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
    s.precision === "fp32"
      ? "fp32 gradients"
      : s.fp32GradAccum
        ? "bf16 gradients + fp32 accumulation buffer (2 + 4)"
        : "bf16 gradients";
  const optText = s.precision === "bf16" ? "fp32 master weights + Adam moments (4 + 4 + 4)" : "Adam moments (4 + 4)";
  const layerBytesPerMicrobatch =
    stage.inFlightMicrobatches > 0 ? stage.activationDetail.layers / stage.inFlightMicrobatches : 0;
  const detail = stage.activationDetail;
  const actParts = [
    `${stage.layerCount} layers × ${formatBytes(layerBytesPerMicrobatch / Math.max(1, stage.layerCount))} per layer per microbatch` +
      ` (recompute: ${s.recompute}, ${s.attention === "flash" ? "FlashAttention" : "eager attention"}, s = ${formatNumber(s.seqLength)}, b = ${s.microBatchSize}` +
      `${s.tp > 1 ? `, t = ${s.tp}${s.sequenceParallel ? " with SP" : ""}` : ""}${s.cp > 1 ? `, cp = ${s.cp}` : ""})` +
      ` × ${formatNumber(stage.inFlightMicrobatches)} microbatch${stage.inFlightMicrobatches === 1 ? "" : "es"} in flight = ${formatBytes(detail.layers)}`,
  ];
  if (detail.embedding > 0) actParts.push(`embedding dropout mask ${formatBytes(detail.embedding)}`);
  if (detail.head > 0) actParts.push(`final norm, LM-head input and fp32 logits ${formatBytes(detail.head)}`);
  if (detail.recomputeWorkspace > 0)
    actParts.push(`one layer’s recomputed tensors ${formatBytes(detail.recomputeWorkspace)}`);
  const perParam = (label: string, beta: number, sharded: boolean) =>
    `${where} × ${beta} bytes (${label})${shardText(sharded)}`;
  return [
    {
      key: "parameters",
      label: "Parameters",
      bytes: stage.parameters,
      formula: perParam(weightText, per.parameters, s.zeroStage >= 3),
    },
    {
      key: "gradients",
      label: "Gradients",
      bytes: stage.gradients,
      formula: perParam(gradText, per.gradients, s.zeroStage >= 2),
    },
    {
      key: "optimizer",
      label: "Optimizer states",
      bytes: stage.optimizer,
      formula: perParam(optText, per.optimizer, s.zeroStage >= 1),
    },
    { key: "activations", label: "Activations", bytes: stage.activations, formula: actParts.join(" + ") },
  ];
}

/** Short name of a GPU: "H100 SXM5" for "NVIDIA H100 SXM5 80GB". */
export function gpuShortName(name: string): string {
  return name.replace(/^NVIDIA\s+/, "").replace(/\s+\d+GB$/, "");
}

/** Fit verdict of `bytes` on `gpu`: above PLANNING_MEMORY_FRACTION of its memory is "tight" (chapter 2's rule). */
export function verdictOf(bytes: number, gpu: GpuSpec): Verdict {
  const fraction = bytes / gpu.hbmBytes;
  const cap = formatBytes(gpu.hbmBytes);
  if (fraction > 1) {
    return {
      kind: "oom",
      fraction,
      text: `Out of memory: ${formatBytes(bytes)} needed, the ${gpuShortName(gpu.name)} has ${cap}.`,
    };
  }
  if (fraction > PLANNING_MEMORY_FRACTION) {
    return {
      kind: "tight",
      fraction,
      text: `Fits only just: ${formatBytes(bytes)} of ${cap} (${Math.round(fraction * 100)}%), little room for the CUDA context and fragmentation.`,
    };
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
      const m = trainingMemory(
        a,
        trainingSetupOf(state, axis === "seqLength" ? { seqLength: x } : { microBatchSize: x }),
      );
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
  if (s.dp > 1 || s.zero > 0)
    parallel.push(`${s.zero > 0 ? `ZeRO-${s.zero}` : "plain data parallelism"} over d = ${formatNumber(s.dp)}`);
  if (s.tp > 1) parallel.push(`TP t = ${s.tp}${s.sp ? " with SP" : ""}`);
  if (s.pp > 1)
    parallel.push(
      `PP p = ${s.pp} (${s.schedule === "afab" ? "all forward, all backward" : s.schedule === "interleaved" ? `interleaved, v = ${s.chunks}` : "1F1B"}, m = ${s.microbatches})`,
    );
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
