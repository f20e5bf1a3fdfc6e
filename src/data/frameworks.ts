/**
 * Framework profiles: what each training framework does by default, each default with its source
 * (a file and line at a named version, or a documentation page). The step and memory models read
 * a profile instead of assuming one framework's behavior everywhere. Imports nothing.
 *
 * Bytes per parameter are counted per model state. `sharded: true` means the state is divided over
 * the sharding group (the data-parallel × context-parallel ranks, or the expert-data-parallel
 * ranks for expert weights); `false` means every rank of the group holds it whole. A state a layout
 * does not keep has 0 bytes.
 */

/** The frameworks the book models. */
export type FrameworkId = "megatron" | "ddp" | "fsdp2" | "deepspeed";

/** Every framework id, in the order the CLI and the widgets list them. */
export const FRAMEWORK_IDS: readonly FrameworkId[] = ["megatron", "ddp", "fsdp2", "deepspeed"];

/** A value and where it comes from: "NVIDIA/Megatron-LM core_r0.12.0, megatron/training/arguments.py L1234: ...". */
export interface Cited<T> {
  value: T;
  /** Repository at a named version, file and line (or a documentation URL), and what it says, in our words. */
  source: string;
}

/** Bytes per parameter of one model state and whether the sharding group divides it. */
export interface StateBytes {
  bytes: number;
  sharded: boolean;
}

/** The model states one layout keeps, bytes per parameter. */
export interface StateLayout {
  /** The weights the forward and backward passes read (bf16, or fp32 where autocast casts per op). */
  weights: StateBytes;
  /** Gradient storage, including an fp32 accumulation buffer that replaces or joins the bf16 gradients. */
  gradients: StateBytes;
  /** fp32 master weights (0 bytes where `weights` are already fp32). */
  master: StateBytes;
  /** Adam's two moments. */
  moments: StateBytes;
  /**
   * Weights gathered whole for the units in flight (ZeRO-3 / FSDP): bytes per parameter of one
   * gathered unit, and how many units are held at once (the one computing and the one prefetched).
   * Absent where weights are never gathered.
   */
  gatheredUnits?: { bytes: number; units: number };
  source: string;
}

/** How a framework shards: the ZeRO stage it calls by which name. */
export type ShardingMode = 0 | 1 | 2 | 3;

/** One framework's defaults. */
export interface FrameworkProfile {
  id: FrameworkId;
  name: string;
  /** The version whose source the citations read (tag or commit). */
  version: string;
  /** Sharding modes the framework runs, each with its state layout under bf16 mixed precision. */
  layouts: Partial<Record<ShardingMode, Cited<StateLayout>>>;
  /** Data type of the data-parallel gradient reduction by default. */
  gradientReduceDtype: Cited<"fp32" | "bf16">;
  /** Whether a bf16 (or compressed) gradient reduction can be switched on, and how. */
  bf16ReduceOption: Cited<string>;
  /** Whether gradient reduction overlaps the backward pass by default. */
  overlapGradReduce: Cited<boolean>;
  /** Whether tensor-parallel communication overlaps the GEMMs by default (false where the framework has no TP). */
  tpCommOverlap: Cited<boolean>;
  /** Whether the framework runs tensor parallelism with sequence parallelism, and how it is switched on. */
  sequenceParallel: Cited<string>;
  /** What "selective" recomputation means in this framework. */
  selectiveRecompute: Cited<string>;
  /** ZeRO-3 / FSDP only: whether gathered weights are freed after the forward pass by default. */
  reshardAfterForward?: Cited<boolean>;
  /** Collectives per unit for sharded weights: the unit a framework gathers and reduces at once. */
  shardingUnit?: Cited<string>;
  /** Gradient bucket size for the DP reduction, bytes (or parameters × bytes), where the framework buckets. */
  bucketBytes?: Cited<number>;
}

const whole = (bytes: number): StateBytes => ({ bytes, sharded: false });
const shard = (bytes: number): StateBytes => ({ bytes, sharded: true });
const UNVERIFIED = "UNVERIFIED: provisional value, to be checked against the framework's source";

/** One profile per framework (bf16 mixed precision with Adam). */
export const FRAMEWORK_PROFILES: readonly FrameworkProfile[] = [
  {
    id: "megatron",
    name: "Megatron-LM (Megatron-Core)",
    version: UNVERIFIED,
    layouts: {
      0: {
        value: { weights: whole(2), gradients: whole(4), master: whole(4), moments: whole(8), source: UNVERIFIED },
        source: UNVERIFIED,
      },
      1: {
        value: { weights: whole(2), gradients: whole(4), master: shard(4), moments: shard(8), source: UNVERIFIED },
        source: UNVERIFIED,
      },
    },
    gradientReduceDtype: { value: "fp32", source: UNVERIFIED },
    bf16ReduceOption: { value: "--grad-reduce-in-bf16", source: UNVERIFIED },
    overlapGradReduce: { value: false, source: UNVERIFIED },
    tpCommOverlap: { value: false, source: UNVERIFIED },
    sequenceParallel: { value: "--sequence-parallel", source: UNVERIFIED },
    selectiveRecompute: { value: "core attention", source: UNVERIFIED },
  },
  {
    id: "ddp",
    name: "PyTorch DDP with autocast",
    version: UNVERIFIED,
    layouts: {
      0: {
        value: { weights: whole(4), gradients: whole(4), master: whole(0), moments: whole(8), source: UNVERIFIED },
        source: UNVERIFIED,
      },
    },
    gradientReduceDtype: { value: "fp32", source: UNVERIFIED },
    bf16ReduceOption: { value: "register_comm_hook(bf16_compress_hook)", source: UNVERIFIED },
    overlapGradReduce: { value: true, source: UNVERIFIED },
    tpCommOverlap: { value: false, source: UNVERIFIED },
    sequenceParallel: { value: "none", source: UNVERIFIED },
    selectiveRecompute: { value: "none", source: UNVERIFIED },
    bucketBytes: { value: 25 * 2 ** 20, source: UNVERIFIED },
  },
  {
    id: "fsdp2",
    name: "PyTorch FSDP2 (torchtitan)",
    version: UNVERIFIED,
    layouts: {
      3: {
        value: {
          weights: shard(0),
          gradients: shard(4),
          master: shard(4),
          moments: shard(8),
          gatheredUnits: { bytes: 2, units: 2 },
          source: UNVERIFIED,
        },
        source: UNVERIFIED,
      },
    },
    gradientReduceDtype: { value: "fp32", source: UNVERIFIED },
    bf16ReduceOption: { value: "MixedPrecisionPolicy(reduce_dtype=torch.bfloat16)", source: UNVERIFIED },
    overlapGradReduce: { value: true, source: UNVERIFIED },
    tpCommOverlap: { value: false, source: UNVERIFIED },
    sequenceParallel: { value: "SequenceParallel in the TP plan", source: UNVERIFIED },
    selectiveRecompute: { value: "op-level selective activation checkpointing", source: UNVERIFIED },
    reshardAfterForward: { value: true, source: UNVERIFIED },
    shardingUnit: { value: "one transformer block", source: UNVERIFIED },
  },
  {
    id: "deepspeed",
    name: "DeepSpeed ZeRO",
    version: UNVERIFIED,
    layouts: {
      1: {
        value: { weights: whole(2), gradients: whole(2), master: shard(4), moments: shard(8), source: UNVERIFIED },
        source: UNVERIFIED,
      },
      2: {
        value: { weights: whole(2), gradients: shard(4), master: shard(4), moments: shard(8), source: UNVERIFIED },
        source: UNVERIFIED,
      },
      3: {
        value: {
          weights: shard(2),
          gradients: shard(4),
          master: shard(4),
          moments: shard(8),
          gatheredUnits: { bytes: 2, units: 2 },
          source: UNVERIFIED,
        },
        source: UNVERIFIED,
      },
    },
    gradientReduceDtype: { value: "bf16", source: UNVERIFIED },
    bf16ReduceOption: { value: "communication_data_type", source: UNVERIFIED },
    overlapGradReduce: { value: false, source: UNVERIFIED },
    tpCommOverlap: { value: false, source: UNVERIFIED },
    sequenceParallel: { value: "none", source: UNVERIFIED },
    selectiveRecompute: { value: "none", source: UNVERIFIED },
    reshardAfterForward: { value: true, source: UNVERIFIED },
    shardingUnit: { value: "one submodule", source: UNVERIFIED },
  },
];

/** The profile of a framework id; undefined when there is none. */
export function findFrameworkProfile(id: string): FrameworkProfile | undefined {
  return FRAMEWORK_PROFILES.find((p) => p.id === id);
}
