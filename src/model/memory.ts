/**
 * Training memory per GPU: model states (parameters, gradients, optimizer states) under ZeRO and
 * tensor/pipeline/context/expert parallelism, plus activations under a pipeline schedule and a
 * recomputation policy. Everything is in bytes.
 *
 * ## Model states (rajbhandari2020zero §3.1, §5)
 *
 * Bytes per parameter, stated exactly:
 * - `bf16` mixed precision: bf16 weights 2 + bf16 gradients 2 + optimizer 12 (fp32 master weights 4,
 *   Adam first moment 4, second moment 4) = 16, the paper's $2\Psi + 2\Psi + K\Psi$ with $K = 12$.
 * - `fp32`: weights 4 + gradients 4 + optimizer 8 (Adam moments) = 16; there is no master copy.
 * - `fp32GradAccum` (bf16 only): an fp32 gradient buffer, counted under gradients. By default it is kept
 *   alongside the bf16 gradients, +4 bytes (20 in total, the layout of Megatron-LM's fp16 path in its
 *   distributed-optimizer table); with `fp32GradBuffer: "replace"` ({@link modelStateBytes} only) it
 *   replaces them, 4 bytes instead of 2 (18 in total: Megatron-LM's bf16 `main_grad`, into which each
 *   bf16 gradient is added and then freed). With `fp32` precision it changes nothing.
 *
 * With a framework profile (`framework`, src/data/frameworks.ts) the profile's state layout for the
 * ZeRO stage replaces these generic bytes: each store (weights, gradients, master weights, moments
 * and the profile's further stores such as DDP's bucket copy of the gradients or DeepSpeed's
 * reduction bucket) is held whole or divided by the sharding group, and ZeRO-3's gathered units
 * (one layer each: the one computing and the one prefetched, with its unsharded gradient while it is
 * reduced) are counted under parameters. Stores that exist only during the optimizer step are
 * counted as if held at the peak, an upper bound.
 *
 * ZeRO over the sharding group of $N_d$ ranks (ZeRO §5): stage 1 ($P_{os}$) divides the optimizer
 * states by $N_d$, stage 2 ($P_{os+g}$) also the gradients, stage 3 ($P_{os+g+p}$) also the
 * parameters. For $\Psi = 7.5$B and $N_d = 64$ that is 120, 31.4, 16.6 and 1.9 GB.
 * The sharding group is DP × CP ranks (context-parallel ranks hold the same weights, as in
 * Megatron-LM's distributed optimizer); expert weights are sharded over DP × CP / EP.
 *
 * Parameters per GPU: tensor parallelism divides every attention and MLP matrix (and the
 * column-parallel biases) by $t$; norms, output-projection and second-MLP biases, routers and
 * GPT-2's position table are replicated; the embedding and LM head are vocabulary-parallel
 * ($V h / t$; Megatron-LM's vocabulary padding is ignored). For MLA every projection is divided by
 * $t$ (an approximation). Pipeline parallelism gives stage $i$ a contiguous block of $L_i$ layers:
 * `stageLayers` when given (first to last: $p$ positive counts summing to $L$, as the step model
 * takes them, e.g. one layer fewer on each end stage), otherwise an even split in which the first
 * $L \bmod p$ stages take one extra layer when $p$ does not divide $L$. Every per-stage number
 * follows the stage's own $L_i$: its layers' parameters, gradients and optimizer states, and its
 * activations per in-flight microbatch. The first stage also holds the embedding, the last the
 * final norm and LM head (a tied head is a second copy there when $p > 1$), whatever their $L_i$.
 * Expert parallelism gives each GPU $E/e$ of every MoE layer's routed experts.
 *
 * ## Activations
 *
 * Per layer from {@link layerActivations}; a stage keeps them for the microbatches it has in flight
 * at its peak (Narayanan et al. §2.2; Korthikanti et al. §4.2.3):
 * - `afab` (GPipe): all $m$ microbatches.
 * - `1f1b`: $\min(p - i, m)$ on stage $i$ (the first stage holds $p$: $p L_0$ layers' worth, $L$ with an
 *   even split).
 * - `interleaved` with $v$ chunks: $\min(2(p-i-1) + (v-1)p + 1, vm)$ chunk-microbatches of $L/(pv)$
 *   layers each (Megatron-LM's warm-up count plus one); on the first stage that is
 *   $L(1 + (p-1)/(pv))$ layers' worth, Korthikanti et al.'s interleaving factor. With `stageLayers`
 *   (each $L_i \ge v$) stage $i$'s $L_i$ layers form $v$ chunks as even as the count allows (the
 *   first $L_i \bmod v$ take one more), model chunk $c$ of every stage before chunk $c + 1$ of any,
 *   and each in-flight chunk-microbatch is counted at the stage's mean chunk, $L_i/v$ layers: exact
 *   when the chunks are equal, the model's assumption when they are not.
 * The first stage also keeps GPT-2's embedding dropout mask; the last stage keeps the final norm
 * input, the LM-head input and the fp32 logits ($4 s b V / t$ bytes) for its in-flight microbatches
 * ($m$ under AFAB, 1 otherwise). Under recomputation one layer's recomputed activations
 * (one microbatch) are added as a working set; on the last stage that working set and one
 * microbatch's head tensors are not held at once (the head's backward frees them before the last
 * layer is recomputed), so the larger of the two counts. Not counted: CUDA context, allocator
 * fragmentation, communication buffers, ZeRO-3 gather buffers and other temporaries.
 */
import { parseModelConfig, type ModelArchitecture } from "./architecture.ts";
import {
  layerActivations,
  storedLayerBytes,
  type AttentionKernel,
  type LayerActivations,
  type Recompute,
} from "./activations.ts";
import {
  at,
  ModelInputError,
  requireBoolean,
  requireNonNegativeInteger,
  requireNonNegativeNumber,
  requireOneOf,
  requirePositiveInteger,
} from "./errors.ts";
import { countParameters, isArchitecture, layerParameters } from "./parameters.ts";
import {
  findFrameworkProfile,
  type FrameworkId,
  type ExtraState,
  type StateBytes,
  type StateLayout,
} from "../data/frameworks.ts";

/** Training precision: fp32 throughout, or bf16 mixed precision with fp32 master weights. */
export type Precision = "fp32" | "bf16";

/** ZeRO stage: 0 (plain data parallelism), 1 (optimizer), 2 (+ gradients), 3 (+ parameters). */
export type ZeroStage = 0 | 1 | 2 | 3;

/** Pipeline schedules the memory model knows the in-flight counts of. */
export type MemorySchedule = "afab" | "1f1b" | "interleaved";

/** Bytes per parameter of each model state, before any sharding. */
export interface BytesPerParameter {
  parameters: number;
  gradients: number;
  optimizer: number;
}

/**
 * Where an fp32 gradient buffer sits relative to the bf16 gradients: `"alongside"` keeps both
 * (2 + 4 bytes per parameter), `"replace"` keeps only the fp32 buffer (4 bytes; Megatron-LM's
 * `main_grad` with bf16 parameters).
 */
export type Fp32GradBuffer = "alongside" | "replace";

/** Model-state bytes per GPU. */
export interface ModelStateBytes {
  parameters: number;
  gradients: number;
  optimizer: number;
  total: number;
}

/** Options of {@link modelStateBytes}. */
export interface ModelStateOptions {
  /** Default `"bf16"`. */
  precision?: Precision;
  /** fp32 gradient-accumulation buffer (default false). */
  fp32GradAccum?: boolean;
  /**
   * With `fp32GradAccum`: whether the fp32 buffer sits alongside
   * the bf16 gradients or replaces them (default `"alongside"`).
   */
  fp32GradBuffer?: Fp32GradBuffer;
  /** Default 0. */
  zeroStage?: ZeroStage;
  /** Sharding group size $N_d$ (default 1). */
  dp?: number;
}

/** Bytes per parameter for `precision` (see the module comment). */
export function bytesPerParameter(
  precision: Precision,
  fp32GradAccum = false,
  fp32GradBuffer: Fp32GradBuffer = "alongside",
): BytesPerParameter {
  if (precision === "fp32") return { parameters: 4, gradients: 4, optimizer: 8 };
  if (!fp32GradAccum) return { parameters: 2, gradients: 2, optimizer: 12 };
  return { parameters: 2, gradients: fp32GradBuffer === "replace" ? 4 : 2 + 4, optimizer: 12 };
}

/**
 * Model-state bytes per GPU for `parameterCount` parameters under ZeRO (rajbhandari2020zero §5):
 * $(2 + 2 + K)\Psi$ baseline, $4\Psi + K\Psi/N_d$, $2\Psi + (2+K)\Psi/N_d$, $(2+2+K)\Psi/N_d$.
 */
export function modelStateBytes(parameterCount: number, options: ModelStateOptions = {}): ModelStateBytes {
  requireNonNegativeNumber(parameterCount, "parameterCount");
  const precision = requireOneOf(options.precision ?? "bf16", ["fp32", "bf16"] as const, "precision");
  const zeroStage = requireOneOf(options.zeroStage ?? 0, [0, 1, 2, 3] as const, "zeroStage");
  const dp = requirePositiveInteger(options.dp ?? 1, "dp");
  const fp32GradAccum = requireBoolean(options.fp32GradAccum ?? false, "fp32GradAccum");
  const fp32GradBuffer = requireOneOf(
    options.fp32GradBuffer ?? "alongside",
    ["alongside", "replace"] as const,
    "fp32GradBuffer",
  );
  const per = bytesPerParameter(precision, fp32GradAccum, fp32GradBuffer);
  const parameters = (parameterCount * per.parameters) / (zeroStage >= 3 ? dp : 1);
  const gradients = (parameterCount * per.gradients) / (zeroStage >= 2 ? dp : 1);
  const optimizer = (parameterCount * per.optimizer) / (zeroStage >= 1 ? dp : 1);
  return { parameters, gradients, optimizer, total: parameters + gradients + optimizer };
}

/** A training configuration. Degrees default to 1; see each field for other defaults. */
export interface TrainingSetup {
  /** Sequence length $s$ (default 4096). */
  seqLength?: number;
  /** Micro-batch size $b$ (default 1). */
  microBatchSize?: number;
  /** Data-parallel degree $d$. */
  dp?: number;
  /** Tensor-parallel degree $t$. */
  tp?: number;
  /** Sequence parallelism (needs nothing else; default false). */
  sequenceParallel?: boolean;
  /** Pipeline-parallel degree $p$. */
  pp?: number;
  /** Context-parallel degree. */
  cp?: number;
  /** Expert-parallel degree (MoE only; must divide the expert count and DP × CP). */
  ep?: number;
  /** ZeRO stage (default 0). */
  zeroStage?: ZeroStage;
  /** Activation recomputation (default `"none"`). */
  recompute?: Recompute;
  /** Default `"bf16"`. */
  precision?: Precision;
  /** fp32 gradient-accumulation buffer (default false). */
  fp32GradAccum?: boolean;
  /** Pipeline schedule (default `"1f1b"`). */
  schedule?: MemorySchedule;
  /** Microbatches per step $m$ (default $p$). */
  microbatches?: number;
  /** Model chunks per stage $v$ for `interleaved` (default 2). */
  virtualStages?: number;
  /**
   * Layers per pipeline stage, first to last: $p$ positive integers summing to the layers, each at
   * least $v$ under `interleaved` (default: the even split, the first $L \bmod p$ stages taking one more).
   */
  stageLayers?: number[];
  /** Attention kernel (default `"flash"`). */
  attention?: AttentionKernel;
  /** Override the architecture's dropout setting. */
  dropout?: boolean;
  /**
   * A framework profile (src/data/frameworks.ts): its state layout for `zeroStage` replaces the
   * generic bytes per parameter (`precision` must then be bf16, and `fp32GradAccum` is ignored), and
   * its gathered-unit buffers are counted. Default: none (the generic ZeRO formulas).
   */
  framework?: FrameworkId;
  /** ZeRO-3 with a framework profile: free gathered weights after the forward pass (default true). */
  reshardAfterForward?: boolean;
}

/** {@link TrainingSetup} with every default applied. */
export interface ResolvedTrainingSetup {
  seqLength: number;
  microBatchSize: number;
  dp: number;
  tp: number;
  sequenceParallel: boolean;
  pp: number;
  cp: number;
  ep: number;
  zeroStage: ZeroStage;
  recompute: Recompute;
  precision: Precision;
  fp32GradAccum: boolean;
  schedule: MemorySchedule;
  microbatches: number;
  virtualStages: number;
  /** Layers per pipeline stage, first to last (the given split or the default one). */
  stageLayers: number[];
  attention: AttentionKernel;
  dropout: boolean;
  framework: FrameworkId | null;
  reshardAfterForward: boolean;
}

/** Bytes per GPU by category. */
export interface MemoryBreakdown {
  parameters: number;
  gradients: number;
  optimizer: number;
  activations: number;
  total: number;
}

/** Activation bytes of one stage, by origin. */
export interface StageActivationDetail {
  /** Transformer layers' saved tensors for all in-flight microbatches. */
  layers: number;
  /** First stage: embedding dropout mask (GPT-2). */
  embedding: number;
  /** Last stage: final norm input, LM-head input and fp32 logits. */
  head: number;
  /**
   * Working set of one layer's recomputed activations (recomputation only). On the last stage it
   * shares its memory with one microbatch's `head` tensors, freed first: the stage's activations
   * count the larger of the two, so they are not the sum of this detail.
   */
  recomputeWorkspace: number;
}

/** Memory of one pipeline stage (every GPU of the stage holds the same). */
export interface StageMemory extends MemoryBreakdown {
  /** Stage index, 0 first. */
  stage: number;
  /** Transformer layers held by this stage. */
  layerCount: number;
  /** Parameters held by one GPU of this stage (after TP and EP split, before ZeRO). */
  parameterCount: number;
  /** Of which routed-expert parameters. */
  expertParameterCount: number;
  /**
   * Microbatches whose activations the stage holds at its peak,
   * in whole-stage units (interleaved: chunk-microbatches / v).
   */
  inFlightMicrobatches: number;
  activationDetail: StageActivationDetail;
}

/** Result of {@link trainingMemory}. */
export interface TrainingMemory {
  /** The stage with the largest total: what a GPU must fit. */
  perGpu: MemoryBreakdown;
  /** Index of that stage. */
  peakStage: number;
  stages: StageMemory[];
  /** Activations of the first layer (per microbatch, per GPU). */
  layer: LayerActivations;
  setup: ResolvedTrainingSetup;
  /** GPUs in the job: dp × tp × pp × cp. */
  gpuCount: number;
  warnings: string[];
}

function resolveArchitecture(config: unknown): { arch: ModelArchitecture; warnings: string[] } {
  if (isArchitecture(config)) return { arch: config, warnings: [] };
  const parsed = parseModelConfig(config);
  return { arch: parsed.architecture, warnings: parsed.warnings };
}

/** Validates a setup against an architecture and applies defaults. Throws `ModelInputError`. */
export function resolveTrainingSetup(arch: ModelArchitecture, setup: TrainingSetup): ResolvedTrainingSetup {
  const seqLength = requirePositiveInteger(setup.seqLength ?? 4096, "seqLength");
  const microBatchSize = requirePositiveInteger(setup.microBatchSize ?? 1, "microBatchSize");
  const dp = requirePositiveInteger(setup.dp ?? 1, "dp");
  const tp = requirePositiveInteger(setup.tp ?? 1, "tp");
  const pp = requirePositiveInteger(setup.pp ?? 1, "pp");
  const cp = requirePositiveInteger(setup.cp ?? 1, "cp");
  const ep = requirePositiveInteger(setup.ep ?? 1, "ep");
  const sequenceParallel = requireBoolean(setup.sequenceParallel ?? false, "sequenceParallel");
  const zeroStage = requireOneOf(setup.zeroStage ?? 0, [0, 1, 2, 3] as const, "zeroStage");
  const recompute = requireOneOf(setup.recompute ?? "none", ["none", "selective", "full"] as const, "recompute");
  const precision = requireOneOf(setup.precision ?? "bf16", ["fp32", "bf16"] as const, "precision");
  const fp32GradAccum = requireBoolean(setup.fp32GradAccum ?? false, "fp32GradAccum");
  const schedule = requireOneOf(setup.schedule ?? "1f1b", ["afab", "1f1b", "interleaved"] as const, "schedule");
  const microbatches = requirePositiveInteger(setup.microbatches ?? pp, "microbatches");
  const virtualStages =
    schedule === "interleaved" ? requirePositiveInteger(setup.virtualStages ?? 2, "virtualStages") : 1;
  const attention = requireOneOf(setup.attention ?? "flash", ["flash", "eager"] as const, "attention");
  const dropout = requireBoolean(setup.dropout ?? arch.dropout, "dropout");
  const reshardAfterForward = requireBoolean(
    setup.reshardAfterForward ?? defaultReshardAfterForward(setup.framework, pp),
    "reshardAfterForward",
  );
  const framework =
    setup.framework === undefined
      ? null
      : frameworkLayout(setup.framework, zeroStage, precision, reshardAfterForward).id;

  const a = arch.numHeads;
  if (a % tp !== 0) {
    throw new ModelInputError("tp", `tp (${tp}) must divide the number of attention heads (${a})`);
  }
  if (arch.numKvHeads % tp !== 0) {
    throw new ModelInputError("tp", `tp (${tp}) must divide the number of key/value heads (${arch.numKvHeads})`);
  }
  if (!arch.moe || arch.moe.firstDenseLayers > 0) {
    if (arch.intermediateSize % tp !== 0) {
      throw new ModelInputError("tp", `tp (${tp}) must divide the MLP width (${arch.intermediateSize})`);
    }
  }
  if (arch.moe && arch.moe.expertIntermediateSize % tp !== 0) {
    throw new ModelInputError("tp", `tp (${tp}) must divide the expert MLP width (${arch.moe.expertIntermediateSize})`);
  }
  if (seqLength % cp !== 0) {
    throw new ModelInputError("cp", `cp (${cp}) must divide the sequence length (${seqLength})`);
  }
  if (sequenceParallel && (seqLength / cp) % tp !== 0) {
    throw new ModelInputError(
      "tp",
      `with sequence parallelism, tp (${tp}) must divide the per-GPU sequence length (${seqLength / cp})`,
    );
  }
  if (pp > arch.numLayers) {
    throw new ModelInputError("pp", `pp (${pp}) exceeds the number of layers (${arch.numLayers})`);
  }
  if (ep > 1) {
    if (!arch.moe) throw new ModelInputError("ep", `ep (${ep}) > 1 needs a mixture-of-experts model`);
    if (arch.moe.routedExperts % ep !== 0) {
      throw new ModelInputError("ep", `ep (${ep}) must divide the number of experts (${arch.moe.routedExperts})`);
    }
    if ((dp * cp) % ep !== 0) {
      throw new ModelInputError(
        "ep",
        `ep (${ep}) must divide dp × cp (${dp * cp}): expert-parallel ranks are data-parallel ranks`,
      );
    }
  }
  if (schedule === "interleaved") {
    if (virtualStages < 2) {
      throw new ModelInputError(
        "virtualStages",
        `the interleaved schedule needs at least 2 chunks per stage (got ${virtualStages})`,
      );
    }
    if (setup.stageLayers === undefined && arch.numLayers % (pp * virtualStages) !== 0) {
      throw new ModelInputError(
        "virtualStages",
        `pp × chunks (${pp} × ${virtualStages}) must divide the number of layers (${arch.numLayers}) for the interleaved schedule`,
      );
    }
    if (microbatches % pp !== 0) {
      throw new ModelInputError(
        "microbatches",
        `the interleaved schedule needs microbatches (${microbatches}) to be a multiple of pp (${pp})`,
      );
    }
  }
  const stageLayers =
    setup.stageLayers === undefined
      ? evenStageLayers(arch.numLayers, pp)
      : checkStageLayers(setup.stageLayers, arch.numLayers, pp, virtualStages);
  return {
    seqLength,
    microBatchSize,
    dp,
    tp,
    sequenceParallel,
    pp,
    cp,
    ep,
    zeroStage,
    recompute,
    precision,
    fp32GradAccum,
    schedule,
    microbatches,
    virtualStages,
    stageLayers,
    attention,
    dropout,
    framework,
    reshardAfterForward,
  };
}

/**
 * Whether ZeRO-3 frees gathered weights after the forward pass when the caller does not say: FSDP2
 * as torchtitan applies it keeps them when pipeline parallelism is on (src/data/frameworks.ts,
 * `reshardAfterForward`); every other case frees them.
 */
export function defaultReshardAfterForward(framework: FrameworkId | null | undefined, pp: number): boolean {
  return !(framework === "fsdp2" && pp > 1);
}

/**
 * The profile layout that describes `zeroStage`: FSDP2's full shard without resharding after the
 * forward pass keeps its weights whole from forward to backward, which its profile records as mode 2.
 */
export function layoutMode(framework: FrameworkId, zeroStage: ZeroStage, reshardAfterForward: boolean): ZeroStage {
  return framework === "fsdp2" && zeroStage === 3 && !reshardAfterForward ? 2 : zeroStage;
}

/**
 * The state layout a framework keeps under `zeroStage`. Throws a ModelInputError naming the field
 * when the framework is unknown, does not run that stage, or the precision is not bf16.
 */
export function frameworkLayout(
  framework: string,
  zeroStage: ZeroStage,
  precision: Precision = "bf16",
  reshardAfterForward = true,
): { id: FrameworkId; layout: StateLayout } {
  const profile = findFrameworkProfile(framework);
  if (!profile) throw new ModelInputError("framework", `unknown framework "${framework}"`);
  if (precision !== "bf16")
    throw new ModelInputError("precision", `the framework profiles describe bf16 mixed precision (got ${precision})`);
  const layout = profile.layouts[layoutMode(profile.id, zeroStage, reshardAfterForward)];
  if (!layout) {
    const stages = Object.keys(profile.layouts).join(", ");
    throw new ModelInputError(
      "zeroStage",
      `${profile.name} does not run ZeRO stage ${zeroStage} (it runs stage ${stages})`,
    );
  }
  return { id: profile.id, layout: layout.value };
}

/**
 * The further stores a layout keeps at pipeline degree `pp`: all of them under a pipeline, and
 * without one those not marked `pipelineOnly` (FSDP2's accumulated unsharded gradients exist only
 * where torch's pipeline stages turn gradient sync off until the last microbatch).
 */
export function extrasHeld(layout: StateLayout, pp: number): readonly ExtraState[] {
  return (layout.extra ?? []).filter((e) => pp > 1 || !e.pipelineOnly);
}

/**
 * The default split of `numLayers` layers over `pp` stages: as even as the count allows, the first
 * `numLayers mod pp` stages taking one more layer.
 */
export function evenStageLayers(numLayers: number, pp: number): number[] {
  requirePositiveInteger(numLayers, "numLayers");
  requirePositiveInteger(pp, "pp");
  return Array.from({ length: pp }, (_, i) => Math.floor(numLayers / pp) + (i < numLayers % pp ? 1 : 0));
}

/**
 * Checks a stage split as the step model does: `pp` positive integers summing to `numLayers`, each
 * at least `virtualStages` (the interleaved schedule's chunks). Throws a ModelInputError naming
 * `stageLayers`; returns a copy.
 */
export function checkStageLayers(stageLayers: unknown, numLayers: number, pp: number, virtualStages = 1): number[] {
  if (!Array.isArray(stageLayers) || stageLayers.length !== pp)
    throw new ModelInputError("stageLayers", `stageLayers must list ${pp} stage sizes, one per pipeline stage`);
  const out = stageLayers.map((n) => requirePositiveInteger(n, "stageLayers"));
  const sum = out.reduce((a, x) => a + x, 0);
  if (sum !== numLayers)
    throw new ModelInputError("stageLayers", `stageLayers sum to ${sum}, not the number of layers (${numLayers})`);
  if (virtualStages > 1 && out.some((n) => n < virtualStages))
    throw new ModelInputError(
      "stageLayers",
      `every stage needs at least ${virtualStages} layers for ${virtualStages} chunks`,
    );
  return out;
}

/**
 * Layer indices held by stage `stage`: of `stageLayers` when given (checked with
 * {@link checkStageLayers}), else of the default split (see the module comment for both).
 */
export function stageLayerIndices(
  numLayers: number,
  pp: number,
  stage: number,
  virtualStages = 1,
  stageLayers?: readonly number[],
): number[] {
  requirePositiveInteger(numLayers, "numLayers");
  requirePositiveInteger(pp, "pp");
  requireNonNegativeInteger(stage, "stage");
  requirePositiveInteger(virtualStages, "virtualStages");
  if (stage >= pp) throw new ModelInputError("stage", `stage (${stage}) must be below pp (${pp})`);
  if (stageLayers !== undefined)
    return splitLayerIndices(checkStageLayers(stageLayers, numLayers, pp, virtualStages), stage, virtualStages);
  if (pp * virtualStages > numLayers || (virtualStages > 1 && numLayers % (pp * virtualStages) !== 0)) {
    throw new ModelInputError(
      "pp",
      `pp × chunks (${pp} × ${virtualStages}) must not exceed, and with chunks must divide, the layers (${numLayers})`,
    );
  }
  const out: number[] = [];
  if (virtualStages > 1) {
    const perChunk = numLayers / (pp * virtualStages);
    for (let c = 0; c < virtualStages; c++) {
      const first = (c * pp + stage) * perChunk;
      for (let k = 0; k < perChunk; k++) out.push(first + k);
    }
    return out;
  }
  const base = Math.floor(numLayers / pp);
  const extra = numLayers % pp;
  const first = stage * base + Math.min(stage, extra);
  const count = base + (stage < extra ? 1 : 0);
  for (let k = 0; k < count; k++) out.push(first + k);
  return out;
}

/**
 * Layer indices of `stage` under a checked split: a contiguous block, or with `virtualStages` > 1
 * its chunks (each stage's layers in `v` chunks as even as they go, the first `L_i mod v` one
 * larger), model chunk `c` of every stage placed before chunk `c + 1` of any.
 */
function splitLayerIndices(stageLayers: readonly number[], stage: number, virtualStages: number): number[] {
  const v = virtualStages;
  const chunkSize = (i: number, c: number) => Math.floor(stageLayers[i]! / v) + (c < stageLayers[i]! % v ? 1 : 0);
  const out: number[] = [];
  let next = 0;
  for (let c = 0; c < v; c++) {
    for (let i = 0; i < stageLayers.length; i++) {
      const size = chunkSize(i, c);
      if (i === stage) for (let k = 0; k < size; k++) out.push(next + k);
      next += size;
    }
  }
  return out;
}

/**
 * Microbatches whose activations stage `stage` holds at its peak, in units of the whole stage's
 * layers (Narayanan et al. §2.2; Korthikanti et al. §4.2.3). See the module comment.
 */
export function inFlightMicrobatches(
  schedule: MemorySchedule,
  pp: number,
  stage: number,
  microbatches: number,
  virtualStages = 1,
): number {
  requireOneOf(schedule, ["afab", "1f1b", "interleaved"] as const, "schedule");
  requirePositiveInteger(pp, "pp");
  requireNonNegativeInteger(stage, "stage");
  requirePositiveInteger(microbatches, "microbatches");
  requirePositiveInteger(virtualStages, "virtualStages");
  if (stage >= pp) throw new ModelInputError("stage", `stage (${stage}) must be below pp (${pp})`);
  if (schedule === "afab") return microbatches;
  if (schedule === "1f1b") return Math.min(pp - stage, microbatches);
  const chunks = Math.min(2 * (pp - stage - 1) + (virtualStages - 1) * pp + 1, microbatches * virtualStages);
  return chunks / virtualStages;
}

/**
 * Training memory per GPU for a model (HF config object or parsed architecture) under `setup`.
 * Throws `ModelInputError` naming the field for invalid input. See the module comment for what
 * is counted.
 */
export function trainingMemory(config: unknown, setup: TrainingSetup = {}): TrainingMemory {
  const { arch, warnings } = resolveArchitecture(config);
  const s = resolveTrainingSetup(arch, setup);
  if (s.zeroStage >= 2 && s.pp > 1) {
    warnings.push(
      "DeepSpeed does not combine ZeRO-2/3 with pipeline parallelism; the sharding formula is applied anyway",
    );
  }
  if (s.fp32GradAccum && s.precision === "fp32") {
    warnings.push("fp32GradAccum has no effect with fp32 precision: gradients are already fp32");
  }
  const params = countParameters(arch);
  const h = arch.hiddenSize;
  const t = s.tp;
  const bytesPerValue = s.precision === "fp32" ? 4 : 2;
  const actOptions = {
    seqLength: s.seqLength,
    microBatchSize: s.microBatchSize,
    tp: t,
    sequenceParallel: s.sequenceParallel,
    cp: s.cp,
    attention: s.attention,
    dropout: s.dropout,
    bytesPerValue,
  };
  const layerCache = new Map<string, LayerActivations>();
  const layerActs = (index: number): LayerActivations => {
    // Dense and MoE layers differ; cache by kind.
    const key = arch.moe ? String(layerParameters(arch, index).routedExperts > 0) : "dense";
    let cached = layerCache.get(key);
    if (!cached) {
      cached = layerActivations(arch, actOptions, index);
      layerCache.set(key, cached);
    }
    return cached;
  };

  const denseShard = s.dp * s.cp;
  const expertShard = (s.dp * s.cp) / s.ep;
  const per = bytesPerParameter(s.precision, s.fp32GradAccum);
  const layout =
    s.framework === null ? null : frameworkLayout(s.framework, s.zeroStage, s.precision, s.reshardAfterForward).layout;
  const tokens = (s.seqLength * s.microBatchSize) / s.cp;
  const seqDivisor = s.sequenceParallel ? t : 1;

  const stages: StageMemory[] = [];
  for (let stage = 0; stage < s.pp; stage++) {
    const indices = splitLayerIndices(s.stageLayers, stage, s.virtualStages);
    let dense = 0;
    let experts = 0;
    let layerBytes = 0;
    let workspace = 0;
    for (const index of indices) {
      const lp = layerParameters(arch, index);
      // Row-parallel output biases (attention output, second MLP linear) are replicated; the rest of
      // attention and the dense MLP is split by t.
      const attentionOutputBias = arch.outputBias ? h : 0;
      const mlpOutputBias = arch.mlpBias && lp.denseMlp > 0 ? h : 0;
      dense += (lp.attention - attentionOutputBias) / t + attentionOutputBias;
      dense += (lp.denseMlp - mlpOutputBias) / t + mlpOutputBias;
      dense += lp.norms + lp.router + lp.sharedExperts / t;
      experts += lp.routedExperts / s.ep / t;
      const acts = layerActs(index);
      layerBytes += storedLayerBytes(acts, s.recompute);
      if (s.recompute !== "none")
        workspace = Math.max(workspace, acts.totalBytes - storedLayerBytes(acts, s.recompute));
    }
    const first = stage === 0;
    const last = stage === s.pp - 1;
    if (first) {
      dense += params.breakdown.embedding / t + params.breakdown.positionEmbedding;
    }
    if (last) {
      dense += arch.norm === "layernorm" ? 2 * h : h;
      dense += arch.tiedEmbeddings ? (s.pp > 1 ? params.breakdown.embedding / t : 0) : params.breakdown.head / t;
    }
    const inFlight = inFlightMicrobatches(s.schedule, s.pp, stage, s.microbatches, s.virtualStages);
    const layersActivation = layerBytes * inFlight;
    const embeddingActivation = first && s.dropout ? ((tokens * h) / seqDivisor) * inFlight : 0;
    const headInFlight = s.schedule === "afab" ? s.microbatches : 1;
    const headPerMicrobatch = last
      ? (tokens * h * bytesPerValue) / seqDivisor + // final norm input
        (tokens * h * bytesPerValue) / seqDivisor + // LM-head input (Korthikanti §4.3: 2sbh/t each in 16 bit)
        (4 * tokens * arch.vocabSize) / t // fp32 logits
      : 0;
    const headActivation = headInFlight * headPerMicrobatch;
    // Recomputation's workspace (one layer's recomputed tensors) and one microbatch's LM-head
    // tensors are never held together: backward runs the head's backward first and frees its
    // tensors before it recomputes the last layer. So the peak holds the larger of the two beside
    // the stored tensors, not their sum (measured with the companion: companion/measurements.json,
    // the `--recompute full` layouts).
    const activations =
      layersActivation +
      embeddingActivation +
      (headActivation - headPerMicrobatch) +
      Math.max(headPerMicrobatch, workspace);

    let parameters: number;
    let gradients: number;
    let optimizer: number;
    if (layout) {
      // A framework's own layout: each state whole or divided by its sharding group.
      const held = (state: StateBytes) =>
        state.bytes * (dense / (state.sharded ? denseShard : 1) + experts / (state.sharded ? expertShard : 1));
      // Weights gathered whole for the units in flight (one unit is one layer here): the unit
      // computing and the one prefetched, or a unit plus a prefetch counted in elements; while a
      // unit's gradient is reduced, its unsharded gradient too.
      const units = layout.gatheredUnits;
      const unitParameters = indices.length > 0 ? (dense + experts) / indices.length : 0;
      const gathered = units
        ? units.bytes *
            (units.prefetchElements !== undefined
              ? unitParameters + units.prefetchElements
              : units.units * unitParameters) +
          (units.gradientBytes ?? 0) * unitParameters
        : 0;
      // Further stores: those alive during the forward and backward passes sit beside the
      // activations at the peak. Those made only for the optimizer step exist after the
      // activations are freed; they are counted as if held at the peak too, an upper bound.
      let extraWeights = 0;
      let extraGradients = 0;
      for (const extra of extrasHeld(layout, s.pp)) {
        const bytes = held(extra);
        if (/gradient/i.test(extra.name)) extraGradients += bytes;
        else extraWeights += bytes;
      }
      const buffers = (layout.fixedBuffers ?? []).reduce((acc, b) => acc + b.bytes * b.count, 0);
      parameters = held(layout.weights) + gathered + extraWeights;
      gradients = held(layout.gradients) + extraGradients + buffers;
      optimizer = held(layout.master) + held(layout.moments);
    } else {
      parameters =
        (dense * per.parameters) / (s.zeroStage >= 3 ? denseShard : 1) +
        (experts * per.parameters) / (s.zeroStage >= 3 ? expertShard : 1);
      gradients =
        (dense * per.gradients) / (s.zeroStage >= 2 ? denseShard : 1) +
        (experts * per.gradients) / (s.zeroStage >= 2 ? expertShard : 1);
      optimizer =
        (dense * per.optimizer) / (s.zeroStage >= 1 ? denseShard : 1) +
        (experts * per.optimizer) / (s.zeroStage >= 1 ? expertShard : 1);
    }
    stages.push({
      stage,
      layerCount: indices.length,
      parameterCount: dense + experts,
      expertParameterCount: experts,
      inFlightMicrobatches: inFlight,
      parameters,
      gradients,
      optimizer,
      activations,
      total: parameters + gradients + optimizer + activations,
      activationDetail: {
        layers: layersActivation,
        embedding: embeddingActivation,
        head: headActivation,
        recomputeWorkspace: workspace,
      },
    });
  }
  let peak = at(stages, 0, "memory: first pipeline stage");
  for (const st of stages) if (st.total > peak.total) peak = st;
  for (const st of stages) {
    for (const key of ["parameters", "gradients", "optimizer", "activations", "total"] as const) {
      if (!Number.isFinite(st[key]))
        throw new ModelInputError("setup", `memory of stage ${st.stage} is not finite; check the inputs`);
    }
  }
  return {
    perGpu: {
      parameters: peak.parameters,
      gradients: peak.gradients,
      optimizer: peak.optimizer,
      activations: peak.activations,
      total: peak.total,
    },
    peakStage: peak.stage,
    stages,
    layer: layerActs(0),
    setup: s,
    gpuCount: s.dp * s.tp * s.pp * s.cp,
    warnings: [...params.warnings.filter((w) => !warnings.includes(w)), ...warnings],
  };
}
