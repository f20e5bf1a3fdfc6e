/**
 * The Memory Explorer's view model: for a state, the scenario it describes, the engine's
 * evaluation of it (evaluateScenario in src/model/scenario.ts: the same function the
 * configuration finder, the overlap calculator, the chapters and the CLI use), the bytes per GPU
 * by category with the formula behind each number (values substituted), the verdict against the
 * one usable-memory budget, the summary sentence, and memory against sequence length or
 * micro-batch size; plus the chapter-3 style of printing memory that those texts use.
 *
 * The model's `ModelInputError`s pass through (`controlOfModelField` names the control at fault),
 * so the callers in settings.ts, url.ts and controls.ts turn them into messages, never NaN.
 */
import {
  ModelInputError,
  balancedStageLayers,
  countParameters,
  evenStageLayers,
  evaluateScenario,
  findGpu,
  findModelPreset,
  extrasHeld,
  frameworkLayout,
  parseModelConfig,
  trainingMemory,
  type Evaluation,
  type GpuSpec,
  type MemoryBudget,
  type ModelArchitecture,
  type Scenario,
  type StageMemory,
  type StateBytes,
  type TrainingMemory,
} from "../../model/index.ts";
import { formatBytes as formatBytesIn, formatCount, formatNumber } from "../kit/format.ts";
import { FRAMEWORK_LABELS, gbShown } from "../kit/scenario.ts";
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

/** A scenario field the engine rejected, mapped to the control a reader can change. */
export function controlOfModelField(field: string): MemoryControl {
  switch (field) {
    case "seqLength":
      return "seqLength";
    case "microBatchSize":
      return "microBatch";
    case "virtualStages":
    case "chunks":
      return "chunks";
    case "zeroStage":
      return "zero";
    case "reshardAfterForward":
      return "reshard";
    case "sequenceParallel":
    case "tpCommOverlap":
      return "sp";
    case "stageLayers":
      return "split";
    case "gpu":
    case "nvlinkDomain":
      return "gpu";
    case "framework":
    case "dp":
    case "tp":
    case "pp":
    case "cp":
    case "ep":
    case "microbatches":
    case "recompute":
    case "attention":
    case "schedule":
      return field;
    case "globalBatch":
      return "microbatches";
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
  /** The engine's evaluation of {@link scenarioOf}(state). */
  evaluation: Evaluation;
  memory: TrainingMemory;
  budget: MemoryBudget;
  rows: BreakdownRow[];
  verdict: Verdict;
  warnings: string[];
}

export interface BreakdownRow {
  key: "parameters" | "gradients" | "optimizer" | "activations";
  label: string;
  bytes: number;
  /** The terms that sum to `bytes`. */
  terms: FormulaTerm[];
  /** How the number is computed, with the values substituted: the terms joined by " + ". */
  formula: string;
}

export interface Verdict {
  /** Within the usable budget, over it but within the GPU's memory, or over the GPU's memory. */
  kind: "fits" | "over" | "oom";
  /** Peak-stage total over the GPU's advertised capacity. */
  fraction: number;
  /** GB per GPU as the verdict prints it ("48.2"). */
  gb: string;
  text: string;
}

/** The architecture (and display name) of a state's model. Throws ModelInputError. */
export function resolveModel(state: Pick<MemoryExplorerState, "preset" | "config">): {
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

/**
 * The layers per stage a state asks for, or undefined for the step model's even split: with the
 * `trimmed` split one layer fewer on each end stage (balancedStageLayers, as the configuration
 * finder tries it); with `even`, when pp does not divide the layers under 1F1B, the memory model's
 * default (the first stages take one more layer), so the step model accepts what the memory model
 * accepts. Throws ModelInputError (`stageLayers`) when the layers do not split so.
 */
export function stageLayersOf(
  state: Pick<MemoryExplorerState, "pp" | "split" | "schedule">,
  arch: ModelArchitecture,
): number[] | undefined {
  if (state.pp <= 1 || state.pp > arch.numLayers) return undefined;
  if (state.split === "trimmed") return balancedStageLayers(arch.numLayers, state.pp, 1);
  return state.schedule === "1f1b" && arch.numLayers % state.pp !== 0
    ? evenStageLayers(arch.numLayers, state.pp)
    : undefined;
}

/**
 * Layers per stage as the explorer prints them: every count up to 8 stages ("7, 9, 9, 7"), runs of
 * three or more written once with their length beyond that ("7, 8 (×14), 7").
 */
export function stageLayersText(layers: readonly number[]): string {
  if (layers.length <= 8) return layers.join(", ");
  const parts: string[] = [];
  for (let i = 0; i < layers.length;) {
    let j = i;
    while (j < layers.length && layers[j] === layers[i]) j++;
    const run = j - i;
    if (run >= 3) parts.push(`${layers[i]} (×${run})`);
    else for (let k = i; k < j; k++) parts.push(String(layers[k]));
    i = j;
  }
  return parts.join(", ");
}

/**
 * The scenario a state describes: GPUs = dp × tp × pp × cp, the global batch dp × b × m, and the
 * stage split of {@link stageLayersOf}.
 */
export function scenarioOf(
  state: MemoryExplorerState,
  arch: ModelArchitecture,
  overrides: { seqLength?: number; microBatch?: number } = {},
): Scenario {
  const microBatch = overrides.microBatch ?? state.microBatch;
  const pipelined = state.pp > 1;
  const schedule = pipelined ? state.schedule : "1f1b";
  const stageLayers = stageLayersOf({ pp: state.pp, split: state.split, schedule }, arch);
  return {
    model: arch,
    cluster: { gpu: state.gpu, gpuCount: state.dp * state.tp * state.pp * state.cp },
    framework: state.framework,
    layout: {
      dp: state.dp,
      tp: state.tp,
      pp: state.pp,
      cp: state.cp,
      ep: state.ep,
      zeroStage: state.zero,
      reshardAfterForward: state.zero === 3 ? state.reshard : undefined,
      sequenceParallel: state.sp,
      schedule,
      chunks: schedule === "interleaved" ? state.chunks : undefined,
      stageLayers,
    },
    batch: {
      seqLength: overrides.seqLength ?? state.seqLength,
      microBatchSize: microBatch,
      globalBatch: state.dp * microBatch * state.microbatches,
    },
    recompute: state.recompute,
    attention: state.attention,
  };
}

/** The framework and its sharding in words: "DeepSpeed ZeRO-1", "PyTorch DDP without sharding". */
export function layoutName(memory: TrainingMemory): string {
  const s = memory.setup;
  const name = s.framework === null ? "the generic layout" : FRAMEWORK_LABELS[s.framework];
  if (s.zeroStage === 0) return `${name} without sharding`;
  if (s.zeroStage === 3 && !s.reshardAfterForward) return `${name} ZeRO-3 without resharding after forward`;
  return `${name} ZeRO-${s.zeroStage}`;
}

/**
 * One term of a formula: its bytes and its text with the values substituted. A per-parameter term
 * also carries its numbers (parameters × bytes per parameter ÷ the sharding divisor), so a test can
 * recompute it.
 */
export interface FormulaTerm {
  text: string;
  bytes: number;
  perParameter?: { parameters: number; bytesPerParameter: number; divisor: number };
}

/**
 * The formulas behind the four numbers of a stage in the framework profile's state layout, term by
 * term as trainingMemory (src/model/memory.ts) counts them: weights, ZeRO-3's gathered units
 * (their unsharded gradient while it is reduced), and the profile's further stores under
 * parameters; gradients, the further gradient stores and fixed reduction buckets under gradients;
 * master weights and Adam's moments under optimizer states.
 */
export function breakdownRows(memory: TrainingMemory, stage: StageMemory): BreakdownRow[] {
  const s = memory.setup;
  if (s.framework === null) throw new ModelInputError("framework", "the explorer evaluates a framework profile");
  const { layout } = frameworkLayout(s.framework, s.zeroStage, s.precision, s.reshardAfterForward);
  const shard = s.dp * s.cp;
  const expertShard = shard / s.ep;
  const experts = stage.expertParameterCount;
  const dense = stage.parameterCount - experts;
  const where =
    `${formatCount(stage.parameterCount)} parameters on this GPU` +
    (s.pp > 1
      ? ` (stage ${stage.stage + 1} of ${s.pp}: ${stage.layerCount} layers${stage.stage === 0 ? " + embedding" : ""}${stage.stage === s.pp - 1 ? " + head" : ""})`
      : "") +
    (s.tp > 1 ? `, matrices split ${s.tp} ways by TP` : "") +
    (experts > 0 && s.ep > 1 ? `, experts split ${s.ep} ways by EP` : "");
  /** A per-parameter store: bytes per parameter, whole or divided by the sharding group. */
  const store = (state: StateBytes, label: string): FormulaTerm[] => {
    if (state.bytes === 0) return [];
    const bytes = state.bytes * (dense / (state.sharded ? shard : 1) + experts / (state.sharded ? expertShard : 1));
    if (state.sharded && experts > 0 && expertShard !== shard)
      return [
        {
          text: `${where} × ${state.bytes} bytes (${label}), sharded: dense ÷ ${formatNumber(shard)} (d × cp), experts ÷ ${formatNumber(expertShard)} (d × cp ÷ ep)`,
          bytes,
        },
      ];
    const divisor = state.sharded ? shard : 1;
    const sharding = divisor > 1 ? ` ÷ ${formatNumber(divisor)} (sharded over d${s.cp > 1 ? " × cp" : ""})` : "";
    return [
      {
        text: `${where} × ${state.bytes} bytes (${label})${sharding}`,
        bytes,
        perParameter: { parameters: stage.parameterCount, bytesPerParameter: state.bytes, divisor },
      },
    ];
  };
  const dtype = (bytes: number) => (bytes === 4 ? "fp32" : bytes === 2 ? "bf16" : `${bytes}-byte`);
  const isGradient = (name: string) => /gradient/i.test(name);

  const parameters: FormulaTerm[] = [...store(layout.weights, `${dtype(layout.weights.bytes)} weights`)];
  const units = layout.gatheredUnits;
  if (units) {
    const perLayer = stage.layerCount > 0 ? stage.parameterCount / stage.layerCount : 0;
    const gathered =
      units.prefetchElements !== undefined
        ? {
            text: `one layer’s ${formatCount(perLayer)} parameters gathered whole and ${formatCount(units.prefetchElements)} more prefetched, × ${units.bytes} bytes (${dtype(units.bytes)})`,
            bytes: units.bytes * (perLayer + units.prefetchElements),
          }
        : {
            text: `${units.units} ${units.units === 1 ? "layer" : "layers"} of ${formatCount(perLayer)} parameters gathered whole (${units.units === 2 ? "the one computing and the one prefetched" : "the one computing"}) × ${units.bytes} bytes (${dtype(units.bytes)})`,
            bytes: units.bytes * units.units * perLayer,
          };
    if (gathered.bytes > 0) parameters.push(gathered);
    if (units.gradientBytes)
      parameters.push({
        text: `one layer’s unsharded gradient while it is reduced, ${formatCount(perLayer)} parameters × ${units.gradientBytes} bytes`,
        bytes: units.gradientBytes * perLayer,
      });
  }
  const gradients: FormulaTerm[] = [...store(layout.gradients, `${dtype(layout.gradients.bytes)} gradients`)];
  for (const extra of extrasHeld(layout, s.pp))
    (isGradient(extra.name) ? gradients : parameters).push(...store(extra, extra.name));
  for (const b of layout.fixedBuffers ?? [])
    gradients.push({
      text: `${b.count === 1 ? "one" : formatNumber(b.count)} ${b.name} of ${formatBytes(b.bytes)}`,
      bytes: b.bytes * b.count,
    });
  const optimizer: FormulaTerm[] = [
    ...store(layout.master, "fp32 master weights"),
    ...store(layout.moments, "Adam’s two fp32 moments"),
  ];

  const detail = stage.activationDetail;
  const layerBytesPerMicrobatch = stage.inFlightMicrobatches > 0 ? detail.layers / stage.inFlightMicrobatches : 0;
  const activations: FormulaTerm[] = [
    {
      text:
        `${stage.layerCount} layers × ${formatBytes(layerBytesPerMicrobatch / Math.max(1, stage.layerCount))} per layer per microbatch` +
        ` (recompute: ${s.recompute}, ${s.attention === "flash" ? "FlashAttention" : "eager attention"}, s = ${formatNumber(s.seqLength)}, b = ${s.microBatchSize}` +
        `${s.tp > 1 ? `, t = ${s.tp}${s.sequenceParallel ? " with SP" : ""}` : ""}${s.cp > 1 ? `, cp = ${s.cp}` : ""})` +
        ` × ${formatNumber(stage.inFlightMicrobatches)} microbatch${stage.inFlightMicrobatches === 1 ? "" : "es"} in flight = ${formatBytes(detail.layers)}`,
      bytes: detail.layers,
    },
  ];
  if (detail.embedding > 0)
    activations.push({ text: `embedding dropout mask ${formatBytes(detail.embedding)}`, bytes: detail.embedding });
  // The head's tensors and recomputation's workspace share memory (trainingMemory counts the larger).
  const rest = stage.activations - detail.layers - detail.embedding;
  if (rest > 0)
    activations.push({
      text:
        detail.recomputeWorkspace > 0
          ? `the larger of one layer’s recomputed tensors (${formatBytes(detail.recomputeWorkspace)}) and the final norm, LM-head input and fp32 logits (${formatBytes(detail.head)}) = ${formatBytes(rest)}`
          : `final norm, LM-head input and fp32 logits ${formatBytes(rest)}`,
      bytes: rest,
    });
  const row = (key: BreakdownRow["key"], label: string, bytes: number, terms: FormulaTerm[]): BreakdownRow => ({
    key,
    label,
    bytes,
    terms,
    formula: terms.length > 0 ? terms.map((t) => t.text).join(" + ") : "none kept on this GPU",
  });
  return [
    row("parameters", "Parameters", stage.parameters, parameters),
    row("gradients", "Gradients", stage.gradients, gradients),
    row("optimizer", "Optimizer states", stage.optimizer, optimizer),
    row("activations", "Activations", stage.activations, activations),
  ];
}

/** Short name of a GPU: "H100 SXM5" for "NVIDIA H100 SXM5 80GB". */
export function gpuShortName(name: string): string {
  return name.replace(/^NVIDIA\s+/, "").replace(/\s+\d+GB$/, "");
}

/**
 * The verdict of `bytes` per GPU against the one budget (memoryBudget: PLANNING_MEMORY_FRACTION of
 * the GPU's memory), the same rule the configuration finder and the CLI apply.
 */
export function verdictOf(bytes: number, gpu: GpuSpec, budget: MemoryBudget): Verdict {
  const fraction = bytes / gpu.hbmBytes;
  const gb = gbShown(bytes);
  if (bytes <= budget.usableBytes)
    return { kind: "fits", fraction, gb, text: `Fits: ${gb} GB per GPU, within ${budget.label}.` };
  if (bytes <= gpu.hbmBytes)
    return {
      kind: "over",
      fraction,
      gb,
      text: `Does not fit: ${gb} GB per GPU is more than ${budget.label}; the rest is for the CUDA context, NCCL buffers and fragmentation.`,
    };
  return {
    kind: "oom",
    fraction,
    gb,
    text: `Out of memory: ${gb} GB per GPU, more than the ${gpuShortName(gpu.name)}’s ${formatBytes(gpu.hbmBytes)}; the budget is ${budget.label}.`,
  };
}

/**
 * Computes the view for a state with the engine. Throws ModelInputError (field = the engine's name
 * of the input) when it rejects the combination; see {@link controlOfModelField}.
 */
export function computeMemoryView(state: MemoryExplorerState): MemoryView {
  const { arch, name, warnings } = resolveModel(state);
  const gpu = findGpu(state.gpu);
  if (!gpu) throw new ModelInputError("gpu", `unknown GPU "${state.gpu}"`);
  const evaluation = evaluateScenario(scenarioOf(state, arch));
  const memory = evaluation.memory;
  const peak = memory.stages[memory.peakStage]!;
  return {
    state,
    modelName: name,
    arch,
    totalParameters: countParameters(arch).total,
    gpu,
    evaluation,
    memory,
    budget: evaluation.budget,
    rows: breakdownRows(memory, peak),
    verdict: verdictOf(evaluation.bytesPerGpu, gpu, evaluation.budget),
    warnings: [...warnings, ...memory.warnings.filter((w) => !warnings.includes(w))],
  };
}

/**
 * The widget's title for the model now chosen: the chapter's title with its model's name replaced
 * by the current one ("Memory per GPU of Llama 3.1 70B with …" → "… of Mixtral 8x7B with …"); a
 * title that names no model is kept.
 */
export function titleFor(title: string, baseModelName: string, modelName: string): string {
  return title.includes(baseModelName) ? title.split(baseModelName).join(modelName) : title;
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

/**
 * Per-GPU memory (peak stage) against sequence length or micro-batch size, other settings fixed.
 * Each point is the engine's memory for the scenario with that value: `trainingMemory` on the
 * setup the engine used for the current state (`step.memorySetup`), with the one value changed.
 * Neither value enters a check of the step model that the memory model does not make too, so a
 * point is a gap exactly where the engine refuses the scenario (tests/figures/memory-explorer.test.ts
 * holds every point against evaluateScenario).
 */
export function memoryCurve(state: MemoryExplorerState, axis: CurveAxis, view?: MemoryView): CurvePoint[] {
  const v = view ?? computeMemoryView(state);
  const setup = v.evaluation.step.memorySetup;
  const current = axis === "seqLength" ? state.seqLength : state.microBatch;
  return curveXs(axis, current).map((x) => {
    try {
      const m = trainingMemory(v.arch, {
        ...setup,
        attention: state.attention,
        ...(axis === "seqLength" ? { seqLength: x } : { microBatchSize: x }),
      });
      const st = m.stages[m.peakStage]!;
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
    parallel.push(
      `${s.zero > 0 ? `ZeRO-${s.zero}${s.zero === 3 && !s.reshard ? " without resharding after forward" : ""}` : "plain data parallelism"} over d = ${formatNumber(s.dp)}`,
    );
  if (s.tp > 1) parallel.push(`TP t = ${s.tp}${s.sp ? " with SP" : ""}`);
  if (s.pp > 1)
    parallel.push(
      `PP p = ${s.pp} (${s.schedule === "interleaved" ? `interleaved, v = ${s.chunks}` : "1F1B"}, m = ${s.microbatches}; layers per stage ${stageLayersText(m.setup.stageLayers)})`,
    );
  if (s.cp > 1) parallel.push(`CP = ${s.cp}`);
  if (s.ep > 1) parallel.push(`EP = ${s.ep}`);
  const setup =
    `${view.modelName} (${formatCount(view.totalParameters)} parameters) with ${FRAMEWORK_LABELS[s.framework]}, s = ${formatNumber(s.seqLength)}, b = ${s.microBatch}, ` +
    `bf16 mixed precision, recomputation ${s.recompute}, ${s.attention === "flash" ? "FlashAttention" : "eager attention"}` +
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
