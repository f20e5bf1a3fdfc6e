/**
 * One description of a training job, and the one engine that evaluates it. Every tool that reports
 * memory, communication or step time for a layout (the chapters' value modules, the widgets, the
 * configuration search and `npm run model`) builds a {@link Scenario} and calls
 * {@link evaluateScenario}, so one layout shows one number everywhere.
 *
 * A scenario names:
 * - the model (a preset id from src/data/models.ts or a Hugging Face config object);
 * - the cluster: the GPU type and count, and optionally the shape the GPU system's record in
 *   src/data/interconnects.ts does not fix (GPUs per server, NVLink domain, NICs per server);
 *   bandwidths always follow from where a group's ranks sit (placement.ts), never typed in;
 * - the framework profile (src/data/frameworks.ts), which fixes the defaults of gradient-reduction
 *   dtype, TP and DP overlap and the memory layout of the model states;
 * - the layout: parallel degrees, ZeRO stage and resharding, sequence parallelism, the pipeline
 *   schedule, and overrides of the profile's defaults;
 * - the batch (sequence length, microbatch, global batch) and the recomputation policy.
 *
 * The engine returns the step model's result (stepTime, step.ts), the memory of every pipeline
 * stage under the same setup (trainingMemory, memory.ts), and the one usable-memory budget every
 * tool that says "fits" applies ({@link memoryBudget}).
 */
import { parseModelConfig, type ModelArchitecture } from "./architecture.ts";
import type { Recompute } from "./activations.ts";
import { ModelInputError, requirePositiveInteger } from "./errors.ts";
import { isArchitecture } from "./parameters.ts";
import { trainingMemory, type TrainingMemory, type ZeroStage } from "./memory.ts";
import { stepTime, type GradReduce, type RankOrder, type StepResult, type StepSchedule } from "./step.ts";
import { clusterShape, type ClusterOverrides, type ClusterShape } from "./placement.ts";
import { findModelPreset, MODEL_PRESETS } from "../data/models.ts";
import { findGpu, type GpuSpec } from "../data/gpus.ts";
import { findInterconnect } from "../data/interconnects.ts";
import { FRAMEWORK_IDS, findFrameworkProfile, type FrameworkId } from "../data/frameworks.ts";

/**
 * The share of a GPU's memory that the book plans the counted tensors (weights, gradients,
 * optimizer states, activations) to fill: chapter 2's rule of thumb, which leaves the rest for the
 * CUDA context, NCCL buffers, allocator fragmentation and temporaries. The one budget behind every
 * "fits" in the book: the configuration finder, the memory explorers, the CLI and the chapters.
 */
export const PLANNING_MEMORY_FRACTION = 0.9;

/** The usable-memory budget of one GPU. */
export interface MemoryBudget {
  /** The GPU's memory, bytes. */
  hbmBytes: number;
  /** {@link PLANNING_MEMORY_FRACTION}. */
  fraction: number;
  /** hbmBytes × fraction: what the counted tensors may fill. */
  usableBytes: number;
  /** One line for a reader, e.g. "72.0 GB usable of 80 GB (90%)". */
  label: string;
}

/** The budget of a GPU (see {@link PLANNING_MEMORY_FRACTION}). */
export function memoryBudget(gpu: GpuSpec): MemoryBudget {
  const usableBytes = gpu.hbmBytes * PLANNING_MEMORY_FRACTION;
  return {
    hbmBytes: gpu.hbmBytes,
    fraction: PLANNING_MEMORY_FRACTION,
    usableBytes,
    label: `${(usableBytes / 1e9).toFixed(1)} GB usable of ${Math.round(gpu.hbmBytes / 1e9)} GB (${Math.round(PLANNING_MEMORY_FRACTION * 100)}%)`,
  };
}

/** The parallel layout of a scenario; degrees default to 1, dp to what the GPU count leaves. */
export interface ScenarioLayout {
  tp?: number;
  pp?: number;
  cp?: number;
  ep?: number;
  dp?: number;
  /** Default: {@link defaultZeroStage} (0 for Megatron-LM and DDP, 3 for FSDP2, 1 for DeepSpeed). */
  zeroStage?: ZeroStage;
  /** ZeRO-3 only (default true). */
  reshardAfterForward?: boolean;
  hsdp?: boolean;
  /** Default: on when tp > 1. */
  sequenceParallel?: boolean;
  schedule?: StepSchedule;
  chunks?: number;
  stageLayers?: number[];
  rankOrder?: RankOrder;
  /** Override the profile's default. */
  tpCommOverlap?: boolean;
  /** Override the profile's default. */
  overlapGradReduce?: boolean;
  /** Override the profile's default. */
  gradReduce?: GradReduce;
}

/** A training job. */
export interface Scenario {
  /** A preset id from src/data/models.ts, a Hugging Face config object, or a parsed architecture. */
  model: string | ModelArchitecture | Readonly<Record<string, unknown>>;
  cluster: { gpu: string; gpuCount: number } & ClusterOverrides;
  framework: FrameworkId;
  layout?: ScenarioLayout;
  batch: { seqLength: number; microBatchSize: number; globalBatch: number };
  /** Default "none". */
  recompute?: Recompute;
  /** "flash" skips the masked half of causal attention (default); "eager" computes the whole matrix. */
  attention?: "flash" | "eager";
}

/** What the engine returns for a scenario. */
export interface Evaluation {
  architecture: ModelArchitecture;
  gpu: GpuSpec;
  cluster: ClusterShape;
  framework: FrameworkId;
  step: StepResult;
  /** Memory of every pipeline stage, under the setup the step model used. */
  memory: TrainingMemory;
  /** Peak bytes per GPU (the peak stage's total). */
  bytesPerGpu: number;
  budget: MemoryBudget;
  /** bytesPerGpu ≤ budget.usableBytes. */
  fits: boolean;
}

function resolveModel(model: Scenario["model"]): ModelArchitecture {
  if (typeof model === "string") {
    const preset = findModelPreset(model);
    if (!preset)
      throw new ModelInputError(
        "model",
        `unknown model "${model}" (presets: ${MODEL_PRESETS.map((p) => p.id).join(", ")}); give a config.json instead`,
      );
    return parseModelConfig(preset.config).architecture;
  }
  return isArchitecture(model) ? model : parseModelConfig(model).architecture;
}

/**
 * A framework's ZeRO stage when the scenario names none: FSDP2's full shard (3), otherwise the lowest
 * stage the framework runs (FSDP2's mode 2 is its full shard without resharding after the forward pass).
 */
export function defaultZeroStage(framework: FrameworkId): ZeroStage {
  const profile = findFrameworkProfile(framework);
  if (!profile) throw new ModelInputError("framework", `unknown framework "${String(framework)}"`);
  if (framework === "fsdp2") return 3;
  const stages = Object.keys(profile.layouts)
    .map(Number)
    .sort((a, b) => a - b);
  return (stages[0] ?? 0) as ZeroStage;
}

/**
 * Evaluates a scenario: step time, memory of every stage, the budget and the verdict. Throws a
 * ModelInputError whose field names the input at fault (one sentence) for a scenario that does
 * not describe a run: degrees that do not multiply to the GPU count, a group larger than the
 * cluster, an unknown model, GPU or framework, a ZeRO stage the framework does not run.
 */
export function evaluateScenario(scenario: Scenario): Evaluation {
  if (!FRAMEWORK_IDS.includes(scenario.framework))
    throw new ModelInputError(
      "framework",
      `unknown framework "${String(scenario.framework)}" (frameworks: ${FRAMEWORK_IDS.join(", ")})`,
    );
  const architecture = resolveModel(scenario.model);
  const gpu = findGpu(scenario.cluster.gpu);
  if (!gpu) throw new ModelInputError("gpu", `unknown GPU "${scenario.cluster.gpu}"`);
  const net = findInterconnect(gpu.id);
  if (!net) throw new ModelInputError("gpu", `no measured bandwidths for GPU "${gpu.id}"`);
  const { gpu: _gpu, gpuCount: _count, ...overrides } = scenario.cluster;
  const cluster = clusterShape(net, overrides);
  const gpuCount = requirePositiveInteger(scenario.cluster.gpuCount, "gpuCount");
  const layout = scenario.layout ?? {};
  const tp = layout.tp ?? 1;
  if (typeof tp === "number" && tp > cluster.nvlinkDomain)
    throw new ModelInputError(
      "tp",
      `tp (${tp}) is larger than one NVLink domain (${cluster.nvlinkDomain} GPUs): tensor parallelism stays inside a domain`,
    );
  const zeroStage = layout.zeroStage ?? defaultZeroStage(scenario.framework);
  const step = stepTime({
    config: architecture,
    gpu,
    gpuCount,
    tp: layout.tp,
    pp: layout.pp,
    cp: layout.cp,
    ep: layout.ep,
    dp: layout.dp,
    zeroStage,
    reshardAfterForward: layout.reshardAfterForward,
    hsdp: layout.hsdp,
    sequenceParallel: layout.sequenceParallel,
    recompute: scenario.recompute,
    seqLength: scenario.batch.seqLength,
    microBatchSize: scenario.batch.microBatchSize,
    globalBatch: scenario.batch.globalBatch,
    schedule: layout.schedule,
    chunks: layout.chunks,
    stageLayers: layout.stageLayers,
    rankOrder: layout.rankOrder,
    gradReduce: layout.gradReduce,
    tpCommOverlap: layout.tpCommOverlap,
    overlapGradReduce: layout.overlapGradReduce,
    causalAttention: (scenario.attention ?? "flash") === "flash",
    cluster: overrides,
    framework: scenario.framework,
    includeMemory: false,
  });
  const memory = trainingMemory(architecture, { ...step.memorySetup, attention: scenario.attention ?? "flash" });
  const budget = memoryBudget(gpu);
  const bytesPerGpu = memory.perGpu.total;
  return {
    architecture,
    gpu,
    cluster,
    framework: scenario.framework,
    step,
    memory,
    bytesPerGpu,
    budget,
    fits: bytesPerGpu <= budget.usableBytes,
  };
}
