/**
 * Framework profiles: what each training framework does by default, each default with its source
 * (a file and line at a named version, or a documentation page). The step and memory models read
 * a profile instead of assuming one framework's behavior everywhere. Imports nothing.
 *
 * Bytes per parameter are counted per model state. `sharded: true` means the state is divided over
 * the sharding group (the data-parallel × context-parallel ranks, or the expert-data-parallel
 * ranks for expert weights); `false` means every rank of the group holds it whole. A state a layout
 * does not keep has 0 bytes. Every layout assumes bf16 mixed precision and Adam.
 *
 * What each profile assumes, in our words:
 *
 * - megatron: Megatron-Core as Megatron-LM's training script drives it with `--bf16` (NVIDIA/Megatron-LM
 *   at core_v0.19.0). Weights live in one contiguous bf16 buffer and gradients in one contiguous fp32
 *   buffer ("main grads"), so reduction and accumulation run in fp32 unless `--grad-reduce-in-bf16`.
 *   ZeRO-0 is the plain mixed-precision optimizer (fp32 master copy and moments on every rank, 18 bytes
 *   per parameter); ZeRO-1 is `--use-distributed-optimizer`, which reduce-scatters the gradients but
 *   keeps the whole fp32 gradient buffer, so only master weights and moments shrink (6 + 12/d). Nothing
 *   overlaps by default: not the gradient reduction, not the parameter all-gather, not tensor-parallel
 *   communication; NVIDIA's dense-model performance recipes in Megatron-Bridge (Llama 3 70B, GPT-3 175B on
 *   H100) switch all three on, while its DeepSeek-V3 H100 recipe leaves TP overlap off. Megatron-LM has no
 *   ZeRO-2 or ZeRO-3 in this sense (its separate Megatron-FSDP path is not modeled here).
 * - ddp: PyTorch DistributedDataParallel around a model kept in fp32 with `torch.autocast` to bf16
 *   (read at v1.13.1, whose Python sources we read as Debian 12 ships them, python3-torch
 *   1.13.1+dfsg-4; newer releases were not checked). Gradients are fp32 because the
 *   parameters are, so the all-reduce is fp32; it runs in 25 MiB buckets during the backward pass on
 *   every microbatch outside `no_sync()`. By default the buckets are a second copy of the gradients
 *   (`gradient_as_bucket_view=False`), so the gradient memory is twice the gradients, and autocast keeps
 *   a bf16 copy of each weight from the forward pass until the backward pass has used it.
 * - fsdp2: PyTorch FSDP2 (`fully_shard`) as torchtitan v0.2.2 applies it: one unit per transformer
 *   block, fp32 sharded parameters that are also the optimizer's master weights, bf16 all-gathers and
 *   an fp32 reduce-scatter on every microbatch, overlapped with compute; unsharded weights are freed
 *   after each block's forward pass unless pipeline parallelism is on (then they stay, which is ZeRO-2
 *   for the weights: layout 2). Torchtitan's default recomputation is "selective" in its layer sense
 *   (every second block fully checkpointed); its op-level option keeps the matmul and attention outputs.
 * - deepspeed: DeepSpeed ZeRO at v0.16.4 with `bf16.enabled`. Under ZeRO the gradients accumulate and
 *   are reduced in bf16 by default (the data type of the communication follows the model), in buckets
 *   of 5e8 elements; only ZeRO-3 overlaps its reduction by default (`overlap_comm`). ZeRO-1 reduces once
 *   per accumulation window with an all-reduce, ZeRO-2 on every microbatch with an all-reduce of which
 *   each rank keeps its slice, ZeRO-3 on every microbatch with a reduce-scatter. With the optimizer
 *   offloaded, every stage casts each gradient partition to fp32 on the GPU before its device-to-host copy
 *   at the end of the window, and ZeRO-2 and ZeRO-3 with accumulation also move bf16 gradients between
 *   GPU and host on every microbatch.
 */

/** The frameworks the book models. */
export type FrameworkId = "megatron" | "ddp" | "fsdp2" | "deepspeed";

/** Every framework id, in the order the CLI and the widgets list them. */
export const FRAMEWORK_IDS: readonly FrameworkId[] = ["megatron", "ddp", "fsdp2", "deepspeed"];

/** A value and where it comes from: "NVIDIA/Megatron-LM@core_v0.19.0, megatron/training/arguments.py L1181: ...". */
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

/**
 * When in a training step a store exists: the whole time; from the forward pass until the backward
 * pass has used it; only while the backward passes run (it is made for the reduction and freed at the
 * optimizer step); or only during the optimizer step.
 */
export type StoreLifetime = "always" | "forward-backward" | "backward" | "optimizer-step";

/** A further per-parameter store a layout keeps beside the four main states. */
export interface ExtraState extends StateBytes {
  /** What it holds, in our words. */
  name: string;
  during: StoreLifetime;
  /** Kept only under pipeline parallelism (pp > 1): without a pipeline the framework does not make it. */
  pipelineOnly?: boolean;
}

/** A buffer whose size does not scale with the parameter count (a reduction bucket). */
export interface FixedBuffer {
  name: string;
  /** Bytes of one buffer. */
  bytes: number;
  /** How many are held at once. */
  count: number;
  during: StoreLifetime;
}

/** The model states one layout keeps, bytes per parameter. */
export interface StateLayout {
  /** The weights the framework stores (bf16, or fp32 where autocast or FSDP's policy casts to bf16 on the fly). */
  weights: StateBytes;
  /** Gradient storage, including an fp32 accumulation buffer that replaces or joins the bf16 gradients. */
  gradients: StateBytes;
  /** fp32 master weights (0 bytes where `weights` are already fp32). */
  master: StateBytes;
  /** Adam's two moments. */
  moments: StateBytes;
  /**
   * Further stores beside the four above (a second copy of the gradients in reduction buckets, a
   * sharded gradient partition, an fp32 gradient made for the optimizer step), each with when it exists.
   */
  extra?: readonly ExtraState[];
  /**
   * Weights gathered whole for the units in flight (ZeRO-3 / FSDP): bytes per parameter of one
   * gathered unit, and how many units are held at once (the one computing and the one prefetched).
   * `gradientBytes`: bytes per parameter of a unit's unsharded gradient while it is reduced.
   * `prefetchElements`: where the framework prefetches by element count instead of by unit, that count.
   * Absent where weights are never gathered.
   */
  gatheredUnits?: { bytes: number; units: number; gradientBytes?: number; prefetchElements?: number };
  /** Buffers of a fixed size whatever the model (DeepSpeed's reduction buckets). */
  fixedBuffers?: readonly FixedBuffer[];
  source: string;
}

/** How a framework shards: the ZeRO stage it calls by which name. */
export type ShardingMode = 0 | 1 | 2 | 3;

/** What the framework does with gradients when the optimizer runs on the host (CPU offload). */
export interface OffloadPath {
  /** Data type of the device-to-host gradient copy at the end of an accumulation window (the cast happens on the GPU). */
  boundaryCopyDtype: "fp32" | "bf16";
  /** Data type of the gradient copies between device and host on every microbatch; null where there are none. */
  microbatchCopyDtype: "fp32" | "bf16" | null;
}

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
  /** Whether gradient reduction overlaps the backward pass by default (where modes differ: the lowest mode's value; see `overlapGradReduceByMode`). */
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
  /**
   * Where the framework sizes its buckets in elements: max(`min`, `perDataParallelRank` × data-parallel
   * size) elements of the reduction's data type.
   */
  bucketElements?: Cited<{ min: number; perDataParallelRank: number }>;
  /** Data type gradients accumulate in across the microbatches of one step. */
  gradAccumDtype?: Cited<"fp32" | "bf16">;
  /** Per sharding mode, where it differs from `overlapGradReduce`: whether the reduction overlaps the backward pass. */
  overlapGradReduceByMode?: Partial<Record<ShardingMode, Cited<boolean>>>;
  /** Per sharding mode: the collective that reduces gradients. */
  gradReduceCollective?: Partial<Record<ShardingMode, Cited<"all-reduce" | "reduce-scatter">>>;
  /** Per sharding mode: whether gradients are reduced on every microbatch (true) or once per step (false). */
  gradReduceEveryMicrobatch?: Partial<Record<ShardingMode, Cited<boolean>>>;
  /** Per sharding mode: the gradient path when the optimizer is offloaded to the host. */
  offload?: Partial<Record<ShardingMode, Cited<OffloadPath>>>;
  /** Whether the vendor's performance recipes for large dense models (named in the source) turn TP communication overlap on. */
  tpCommOverlapInRecipes?: Cited<boolean>;
}

const whole = (bytes: number): StateBytes => ({ bytes, sharded: false });
const shard = (bytes: number): StateBytes => ({ bytes, sharded: true });

// The versions the sources below read.
const MEGATRON = "NVIDIA/Megatron-LM@core_v0.19.0";
const BRIDGE = "NVIDIA-NeMo/Megatron-Bridge@v0.6.0";
const TORCH = "pytorch/pytorch@v1.13.1";
const TITAN = "pytorch/torchtitan@v0.2.2";
const FSDP_FULLY_SHARD = "pytorch/pytorch@1d2fbd40143b39ea06145b8865f79d0605325d9f";
const FSDP_API = "pytorch/pytorch@05f814fecfca7d2a17f28cbe7e1cb2d8d4c13230";
const FSDP_COLLECTIVES = "pytorch/pytorch@8fc2039decebd92b15b38296df8bf9aa13275be0";
const FSDP_PREFETCH_COMMIT = "https://github.com/pytorch/pytorch/commit/f2805a0408cfeb01c4d77a960dd4ca8e9a49db49";
const DEEPSPEED = "microsoft/DeepSpeed@v0.16.4";
const PIPELINING_STAGE =
  "https://github.com/pytorch/pytorch/blob/0138610331c90b8053a0bfc6df0175b200a1cad2/torch/distributed/pipelining/stage.py";

// Sources several fields share.
const MEGATRON_FP32_GRADS =
  `${MEGATRON}, megatron/training/arguments.py L1181-1194: with --bf16, accumulate_allreduce_grads_in_fp32 is ` +
  `set to True unless --grad-reduce-in-bf16 is given; megatron/training/training.py L1988: that flag becomes ` +
  `DistributedDataParallelConfig.grad_reduce_in_fp32; megatron/core/distributed/param_and_grad_buffer.py L917: ` +
  `the gradient buffer's data type is fp32 when grad_reduce_in_fp32, else the parameter's`;
const MEGATRON_REDUCE_ONCE =
  `${MEGATRON}, megatron/core/pipeline_parallel/schedules.py L787: all microbatches but the last run inside ` +
  `no_sync_func; L839: finalize_model_grads_func then finishes the gradient reduction, once per step`;
const DEEPSPEED_BF16_COMM =
  `${DEEPSPEED}, deepspeed/runtime/engine.py L939-949: communication_data_type, when the config leaves it ` +
  `unset, is bf16 whenever bf16 is enabled; deepspeed/runtime/zero/stage_1_and_2.py L1490-1503 and ` +
  `deepspeed/runtime/zero/stage3.py L1376-1377: buckets are cast to that type before the collective`;
const DEEPSPEED_BF16_ACCUM =
  `${DEEPSPEED}, deepspeed/runtime/engine.py L1017-1021: when data_types.grad_accum_dtype is unset, gradients ` +
  `accumulate in fp32 only for bf16 without ZeRO; with ZeRO they accumulate in the model's data type, bf16`;
const DEEPSPEED_OVERLAP =
  `${DEEPSPEED}, deepspeed/runtime/zero/config.py L134 and L351-353: overlap_comm left unset becomes True ` +
  `for stage 3 only`;
const FSDP2_RESHARD_DOC =
  `${FSDP_FULLY_SHARD}, torch/distributed/fsdp/_fully_shard/_fully_shard.py L90: reshard_after_forward ` +
  `defaults to None; L146-153: True frees the unsharded parameters after forward and all-gathers them ` +
  `again in backward, False keeps them until backward, None means True for every module but the root`;

/** One profile per framework (bf16 mixed precision with Adam). */
export const FRAMEWORK_PROFILES: readonly FrameworkProfile[] = [
  {
    id: "megatron",
    name: "Megatron-LM (Megatron-Core)",
    version: "NVIDIA/Megatron-LM core_v0.19.0 (recipes: NVIDIA-NeMo/Megatron-Bridge v0.6.0)",
    layouts: {
      0: {
        value: {
          weights: whole(2),
          gradients: whole(4),
          master: whole(4),
          moments: whole(8),
          source:
            `${MEGATRON}, docs/user-guide/features/dist_optimizer.md L19: bf16 parameters with fp32 gradients ` +
            `take 18 bytes per parameter without the distributed optimizer; megatron/core/optimizer/optimizer.py ` +
            `L964 and L1012: Float16OptimizerWithFloat16Params keeps an fp32 clone of every bf16 parameter`,
        },
        source:
          `${MEGATRON}, megatron/core/distributed/distributed_data_parallel_config.py L29: ` +
          `use_distributed_optimizer defaults to False, so ZeRO-0 is the default`,
      },
      1: {
        value: {
          weights: whole(2),
          gradients: whole(4),
          master: shard(4),
          moments: shard(8),
          source:
            `${MEGATRON}, docs/user-guide/features/dist_optimizer.md L19: 6 + 12/d bytes per parameter with the ` +
            `distributed optimizer for bf16 parameters and fp32 gradients; L22: parameters and main gradients ` +
            `sit in contiguous buffers; L38-44: the reduce-scatter leaves the whole fp32 gradient buffer in ` +
            `place, of which each rank's 1/d is reduced; megatron/core/optimizer/distrib_optimizer.py L445: ` +
            `each rank makes an fp32 main copy of its own shard only`,
        },
        source:
          `${MEGATRON}, megatron/training/arguments.py L2997: --use-distributed-optimizer; ` +
          `megatron/core/distributed/param_and_grad_buffer.py L704-716: with it, each bucket's gradients are ` +
          `reduce-scattered instead of all-reduced, yet the gradient buffer itself stays whole`,
      },
    },
    gradientReduceDtype: { value: "fp32", source: MEGATRON_FP32_GRADS },
    bf16ReduceOption: {
      value: "--grad-reduce-in-bf16 (the gradient buffer then also becomes bf16, 2 bytes per parameter)",
      source:
        `${MEGATRON}, megatron/training/arguments.py L2905: --grad-reduce-in-bf16; L1190-1191: it turns fp32 ` +
        `accumulation off; megatron/core/distributed/param_and_grad_buffer.py L917: the buffer then takes the ` +
        `parameter's data type`,
    },
    overlapGradReduce: {
      value: false,
      source:
        `${MEGATRON}, megatron/training/arguments.py L2968: --overlap-grad-reduce is off unless given; ` +
        `megatron/core/distributed/distributed_data_parallel_config.py L18: overlap_grad_reduce defaults to False`,
    },
    tpCommOverlap: {
      value: false,
      source:
        `${MEGATRON}, megatron/core/model_parallel_config.py L265: tp_comm_overlap (--tp-comm-overlap, Transformer ` +
        `Engine userbuffers) defaults to False; megatron/training/arguments.py L1401-1402: it requires ` +
        `sequence parallelism`,
    },
    tpCommOverlapInRecipes: {
      value: true,
      source:
        `${BRIDGE}, src/megatron/bridge/recipes/llama/h100/llama3.py L717-799: the Llama 3 70B H100 pretraining ` +
        `recipe sets sequence_parallel (L740), overlap_grad_reduce and overlap_param_gather (L786-787), the ` +
        `distributed optimizer (L789), fp32 gradient reduction (L791) and tp_comm_overlap=True with a ` +
        `userbuffers config (L796-799); src/megatron/bridge/recipes/gpt/h100/gpt3_175b.py L116 also sets ` +
        `tp_comm_overlap=True, while src/megatron/bridge/recipes/deepseek/h100/deepseek_v3.py L213 sets it False`,
    },
    sequenceParallel: {
      value: "off by default; --sequence-parallel switches it on (ignored when TP = 1)",
      source:
        `${MEGATRON}, megatron/core/model_parallel_config.py L94: sequence_parallel defaults to False; ` +
        `megatron/training/arguments.py L1393-1399: it is switched off when the TP size is 1`,
    },
    selectiveRecompute: {
      value:
        "off by default; --recompute-granularity selective recomputes the modules in --recompute-modules, " +
        'default ["core_attn"] (the attention core: softmax(QK^T)V)',
      source:
        `${MEGATRON}, megatron/core/transformer/transformer_config.py L518: recompute_granularity defaults to ` +
        `None (nothing recomputed); L546-560: recompute_modules lists core_attn, moe_act, layernorm, ` +
        `mla_up_proj, mlp, moe, shared_experts, gdn_norm_out; L1763-1764: an unset list becomes ["core_attn"]`,
    },
    bucketElements: {
      value: { min: 40_000_000, perDataParallelRank: 1_000_000 },
      source:
        `${MEGATRON}, megatron/core/distributed/distributed_data_parallel.py L68-69: buckets hold ` +
        `max(40,000,000, 1,000,000 × DP size) parameters (of fp32 gradients by default); L71-72: without ` +
        `--overlap-grad-reduce there is one bucket for the whole buffer`,
    },
    gradAccumDtype: { value: "fp32", source: MEGATRON_FP32_GRADS },
    gradReduceCollective: {
      0: {
        value: "all-reduce",
        source: `${MEGATRON}, megatron/core/distributed/param_and_grad_buffer.py L724: without the distributed optimizer each bucket is all-reduced`,
      },
      1: {
        value: "reduce-scatter",
        source: `${MEGATRON}, megatron/core/distributed/param_and_grad_buffer.py L704-716: with the distributed optimizer each bucket is reduce-scattered`,
      },
    },
    gradReduceEveryMicrobatch: {
      0: { value: false, source: MEGATRON_REDUCE_ONCE },
      1: { value: false, source: MEGATRON_REDUCE_ONCE },
    },
  },
  {
    id: "ddp",
    name: "PyTorch DDP with autocast",
    version: "pytorch/pytorch v1.13.1 (Python sources as Debian 12's python3-torch 1.13.1+dfsg-4 ships them)",
    layouts: {
      0: {
        value: {
          weights: whole(4),
          gradients: whole(4),
          master: whole(0),
          moments: whole(8),
          extra: [
            {
              name: "DDP's reduction buckets, a second copy of every fp32 gradient (gradient_as_bucket_view=False)",
              ...whole(4),
              during: "always",
            },
            {
              name: "bf16 copies of the weights that autocast makes in the forward pass and the backward pass reads",
              ...whole(2),
              during: "forward-backward",
            },
          ],
          source:
            `${TORCH}, torch/nn/parallel/distributed.py L543: gradient_as_bucket_view defaults to False; ` +
            `L476-481: setting it True saves memory equal to the whole gradient size, because the gradients ` +
            `then live in the buckets instead of beside them; torch/amp/autocast_mode.py L177-178: autocast ` +
            `caches its casts of the weights by default, and L270-271 clears the cache only when the outermost ` +
            `autocast region exits; that each copy then lives until the backward pass is our reading (every ` +
            `linear layer saves its bf16 weight to compute its input's gradient)`,
        },
        source:
          `${TORCH}, torch/nn/parallel/distributed.py L532-545: DDP replicates the whole module on every rank; ` +
          `weights, gradients and Adam's moments are fp32 because the module's parameters are (autocast casts ` +
          `per op and leaves the parameters alone)`,
      },
    },
    gradientReduceDtype: {
      value: "fp32",
      source:
        `${TORCH}, torch/distributed/algorithms/ddp_comm_hooks/default_hooks.py L24-40: allreduce_hook, which ` +
        `its docstring says gives the same result as DDP without a hook, all-reduces the bucket as it is, in ` +
        `the gradients' own data type (fp32 under autocast); torch/nn/parallel/distributed.py L297-300: DDP ` +
        `reduces parameters of mixed data types (fp16 and fp32) without casting them`,
    },
    bf16ReduceOption: {
      value: "model.register_comm_hook(None, bf16_compress_hook)",
      source:
        `${TORCH}, torch/distributed/algorithms/ddp_comm_hooks/default_hooks.py L76-96: bf16_compress_hook casts ` +
        `each bucket to bf16, all-reduces it and casts the result back to the bucket's data type; ` +
        `torch/nn/parallel/distributed.py L1380: register_comm_hook`,
    },
    overlapGradReduce: {
      value: true,
      source:
        `${TORCH}, torch/nn/parallel/distributed.py L460-464: gradients are bucketed so that each bucket's ` +
        `all-reduce can start during the backward pass`,
    },
    tpCommOverlap: {
      value: false,
      source: `${TORCH}, torch/nn/parallel/distributed.py L532-545: DDP's constructor has no tensor parallelism`,
    },
    sequenceParallel: {
      value: "none",
      source: `${TORCH}, torch/nn/parallel/distributed.py L532-545: DDP's constructor has no tensor or sequence parallelism`,
    },
    selectiveRecompute: {
      value: "none: DDP has no recomputation policy; the model applies torch.utils.checkpoint itself",
      source: `${TORCH}, torch/nn/parallel/distributed.py L532-545: DDP's constructor has no recomputation option`,
    },
    bucketBytes: {
      value: 25 * 2 ** 20,
      source:
        `${TORCH}, torch/nn/parallel/distributed.py L540: bucket_cap_mb defaults to 25; L646: the cap is ` +
        `bucket_cap_mb × 1024 × 1024 bytes (25 MiB)`,
    },
    gradAccumDtype: {
      value: "fp32",
      source: `${TORCH}, torch/nn/parallel/distributed.py L946-949: inside no_sync() gradients accumulate in the parameters' .grad, fp32 here`,
    },
    gradReduceCollective: {
      0: {
        value: "all-reduce",
        source: `${TORCH}, torch/distributed/algorithms/ddp_comm_hooks/default_hooks.py L24-40: the hook that matches DDP's default is one all-reduce per bucket`,
      },
    },
    gradReduceEveryMicrobatch: {
      0: {
        value: true,
        source:
          `${TORCH}, torch/nn/parallel/distributed.py L946-949: every backward pass reduces unless it runs inside ` +
          `no_sync(), which accumulation loops must enter themselves`,
      },
    },
  },
  {
    id: "fsdp2",
    name: "PyTorch FSDP2 (torchtitan)",
    version:
      "pytorch/torchtitan v0.2.2 on PyTorch FSDP2 (fully_shard) read at the pytorch/pytorch commits each source names",
    layouts: {
      2: {
        value: {
          weights: shard(4),
          gradients: shard(4),
          master: shard(0),
          moments: shard(8),
          extra: [
            {
              name: "bf16 unsharded weights of every block, kept from its forward pass until its backward pass",
              ...whole(2),
              during: "forward-backward",
            },
            {
              name: "unsharded fp32 gradients of the stage, accumulated over the microbatches until the one reduction",
              ...whole(4),
              during: "backward",
              // Without a pipeline, torchtitan leaves gradient sync on: each microbatch's unsharded
              // gradients are reduce-scattered and freed, one unit at a time (the gathered unit's gradient).
              pipelineOnly: true,
            },
          ],
          gatheredUnits: { bytes: 2, units: 0, gradientBytes: 6 },
          source:
            `${FSDP2_RESHARD_DOC}; ${TITAN}, torchtitan/models/llama3/infra/parallelize.py L319-327: ` +
            `--parallelism.fsdp_reshard_after_forward never, or pipeline parallelism under the default policy, ` +
            `passes reshard_after_forward=False, so the weights behave as under ZeRO-2 (the kept copies are the ` +
            `gathered units, so no further unit is counted; gradients are still reduced one unit at a time); ` +
            `pytorch/pytorch@010ae4a89516fa3be548ab16dff711414ec12d0b, ` +
            `torch/distributed/fsdp/_fully_shard/_fsdp_param.py, FSDPParam.to_accumulated_grad_if_needed: while ` +
            `gradient sync is off, a unit's bf16 unsharded gradient is cast to the policy's reduce_dtype (fp32) and ` +
            `the later microbatches are added to that copy, so the accumulated unsharded gradients are fp32`,
        },
        source:
          `${TITAN}, torchtitan/models/llama3/infra/parallelize.py L324-327: the default policy keeps unsharded ` +
          `weights after forward whenever pipeline parallelism is on`,
      },
      3: {
        value: {
          weights: shard(4),
          gradients: shard(4),
          master: shard(0),
          moments: shard(8),
          gatheredUnits: { bytes: 2, units: 2, gradientBytes: 6 },
          source:
            `${TITAN}, torchtitan/config/job_config.py L275: parameters are fp32 (training.dtype); L282: the ` +
            `all-gathered copies are bf16 (mixed_precision_param); ${FSDP_API}, ` +
            `torch/distributed/fsdp/_fully_shard/_fsdp_api.py L22-25 and L31-32: the fp32 sharded parameters ` +
            `serve the optimizer step, so no separate master copy exists; ${FSDP_COLLECTIVES}, ` +
            `torch/distributed/fsdp/_fully_shard/_fsdp_collectives.py L516-525: a unit's bf16 unsharded gradients ` +
            `are copied into an fp32 reduce-scatter input before they are freed (2 + 4 bytes per parameter of ` +
            `the unit), L593: the reduced shard is cast back to the parameters' fp32; ${FSDP_PREFETCH_COMMIT} ` +
            `(PR 128884): in forward FSDP2 lets two all-gather outputs be alive at once, and in backward it ` +
            `prefetches the next unit explicitly`,
        },
        source:
          `${TITAN}, torchtitan/models/llama3/infra/parallelize.py L313-357: every transformer block is ` +
          `wrapped with fully_shard under MixedPrecisionPolicy(bf16 parameters, fp32 reduction)`,
      },
    },
    gradientReduceDtype: {
      value: "fp32",
      source:
        `${TITAN}, torchtitan/config/job_config.py L290: mixed_precision_reduce is float32; ` +
        `torchtitan/models/llama3/infra/parallelize.py L134-135 and L313: it becomes the policy's reduce_dtype`,
    },
    bf16ReduceOption: {
      value:
        "MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.bfloat16) in fully_shard; " +
        "torchtitan's training.mixed_precision_reduce accepts only float32",
      source:
        `${FSDP_API}, torch/distributed/fsdp/_fully_shard/_fsdp_api.py L34-41 and L50-51: reduce_dtype sets the ` +
        `reduction's data type, and when it is None with a param_dtype set the reduction runs in the compute ` +
        `data type; ${TITAN}, torchtitan/config/job_config.py L290: its only allowed value is float32`,
    },
    overlapGradReduce: {
      value: true,
      source:
        `${FSDP_FULLY_SHARD}, torch/distributed/fsdp/_fully_shard/_fully_shard.py L125-129: each fully_shard ` +
        `group reduce-scatters its gradients in one collective, and splitting the model into groups is what ` +
        `lets communication overlap computation; ${FSDP_COLLECTIVES}, ` +
        `torch/distributed/fsdp/_fully_shard/_fsdp_collectives.py L530-543: the reduce-scatter runs on its own stream`,
    },
    tpCommOverlap: {
      value: false,
      source:
        `${TITAN}, torchtitan/config/job_config.py L357: enable_async_tensor_parallel defaults to False; ` +
        `torchtitan/distributed/tensor_parallel.py L16-25: async TP also needs torch.compile of the model`,
    },
    sequenceParallel: {
      value: "always with TP: the TP plan shards the norms over the sequence (SequenceParallel); TP is off by default",
      source:
        `${TITAN}, torchtitan/models/llama3/infra/parallelize.py L181, L219 and L233: the final norm and each ` +
        `block's attention and feed-forward norms use SequenceParallel; torchtitan/config/job_config.py L351: ` +
        `tensor_parallel_degree defaults to 1`,
    },
    selectiveRecompute: {
      value:
        'default mode "selective" with option "2": every second transformer block is fully checkpointed; ' +
        'option "op" checkpoints each block but saves the outputs of the attention kernels, of every other ' +
        "matmul, of reduce-scatters and of max, and recomputes the rest",
      source:
        `${TITAN}, torchtitan/config/job_config.py L652 and L655: activation_checkpoint.mode defaults to ` +
        `selective with selective_ac_option "2"; torchtitan/distributed/activation_checkpoint.py L39-40: an ` +
        `integer option checkpoints every n-th block; L114-116: the op option saves the ops in the save list ` +
        `except every second mm; torchtitan/models/llama3/infra/parallelize.py L36-50: the save list; ` +
        `torchtitan/models/llama3/train_configs/llama3_8b.toml L58-59 uses "op", and the 70B and 405B ` +
        `configs use full checkpointing`,
    },
    reshardAfterForward: {
      value: true,
      source:
        `${TITAN}, torchtitan/config/job_config.py L336: fsdp_reshard_after_forward defaults to "default"; ` +
        `torchtitan/models/llama3/infra/parallelize.py L324-327: "default" means True without pipeline ` +
        `parallelism; L350-355: the final norm and output layer are not resharded; ${FSDP2_RESHARD_DOC}`,
    },
    shardingUnit: {
      value: "one transformer block (plus the embedding, the final norm with the output layer, and the root)",
      source:
        `${TITAN}, torchtitan/models/llama3/infra/parallelize.py L335-357: fully_shard is applied to the ` +
        `embedding, to each transformer block, to the final norm and output together, and to the whole model; ` +
        `${FSDP_FULLY_SHARD}, torch/distributed/fsdp/_fully_shard/_fully_shard.py L125-127: each group is ` +
        `all-gathered and reduce-scattered in one collective`,
    },
    gradAccumDtype: {
      value: "fp32",
      source:
        `${FSDP_COLLECTIVES}, torch/distributed/fsdp/_fully_shard/_fsdp_collectives.py L593: the reduced shard ` +
        `is cast to the parameters' data type (fp32); L607 and L625: later microbatches add into the sharded .grad`,
    },
    gradReduceCollective: {
      2: {
        value: "reduce-scatter",
        source: `${FSDP_COLLECTIVES}, torch/distributed/fsdp/_fully_shard/_fsdp_collectives.py L538-543: gradients are reduce-scattered`,
      },
      3: {
        value: "reduce-scatter",
        source: `${FSDP_COLLECTIVES}, torch/distributed/fsdp/_fully_shard/_fsdp_collectives.py L538-543: gradients are reduce-scattered`,
      },
    },
    gradReduceEveryMicrobatch: {
      2: {
        value: false,
        source:
          `${PIPELINING_STAGE}, _PipelineStageBase.backward_maybe_with_nosync: ` +
          `under a pipeline schedule (which is when torchtitan keeps weights unsharded after forward) an FSDP ` +
          `stage's backward runs with set_reshard_after_backward(False) and set_requires_gradient_sync(False); ` +
          `_post_backward turns both back on after the last microbatch, so the stage's gradients are ` +
          `reduce-scattered once per step and its weights gathered once`,
      },
      3: {
        value: true,
        source: `${TITAN}, torchtitan/train.py L577-589: each microbatch runs forward and backward, and nothing in the loop turns FSDP's gradient sync off`,
      },
    },
  },
  {
    id: "deepspeed",
    name: "DeepSpeed ZeRO",
    version: "microsoft/DeepSpeed v0.16.4",
    layouts: {
      1: {
        value: {
          weights: whole(2),
          gradients: whole(2),
          master: shard(4),
          moments: shard(8),
          extra: [
            { name: "fp32 gradient partition made for the optimizer step", ...shard(4), during: "optimizer-step" },
          ],
          fixedBuffers: [{ name: "reduction bucket (5e8 bf16 elements)", bytes: 1e9, count: 1, during: "backward" }],
          source:
            `${DEEPSPEED_BF16_ACCUM}; ${DEEPSPEED}, deepspeed/runtime/zero/stage_1_and_2.py L400-401: the fp32 ` +
            `master partition is a clone of this rank's bf16 partition; L961-963: at the reduction each bf16 ` +
            `gradient moves into the bucket, and L1414-1416 with L1352-1361: only this rank's slice is then kept, ` +
            `in a bf16 partition buffer, so the whole bf16 gradients become 2/d bytes; L1891-1897: the fp32 ` +
            `gradient partition is made at the step; L2048-2060: each backward allocates one reduction bucket of ` +
            `reduce_bucket_size bf16 elements (two with overlap_comm)`,
        },
        source:
          `${DEEPSPEED}, deepspeed/runtime/zero/config.py L91-96: stage defaults to 0 (ZeRO off), stage 1 shards ` +
          `the optimizer state; deepspeed/runtime/engine.py L2055-2059: stage 1 reduces only at the end of an ` +
          `accumulation window, so the whole bf16 gradients accumulate until then`,
      },
      2: {
        value: {
          weights: whole(2),
          gradients: shard(2),
          master: shard(4),
          moments: shard(8),
          extra: [
            { name: "fp32 gradient partition made for the optimizer step", ...shard(4), during: "optimizer-step" },
          ],
          fixedBuffers: [{ name: "reduction bucket (5e8 bf16 elements)", bytes: 1e9, count: 1, during: "backward" }],
          source:
            `${DEEPSPEED_BF16_ACCUM}; ${DEEPSPEED}, deepspeed/runtime/zero/stage_1_and_2.py L1401-1413: once a ` +
            `bucket is reduced, gradients outside this rank's partition are freed and its own are copied into ` +
            `the bf16 partition buffer (L1352-1361); L1891-1897: the fp32 gradient partition is made at the ` +
            `step; L2048-2060: the bf16 reduction bucket`,
        },
        source: `${DEEPSPEED}, deepspeed/runtime/engine.py L1666: stage 2 passes partition_grads to the ZeRO optimizer`,
      },
      3: {
        value: {
          weights: shard(2),
          gradients: shard(2),
          master: shard(4),
          moments: shard(8),
          extra: [
            {
              name: "fp32 gradient of one optimizer sub-group (at most sub_group_size = 1e9 elements) at the step",
              ...shard(4),
              during: "optimizer-step",
            },
          ],
          gatheredUnits: { bytes: 2, units: 1, gradientBytes: 2, prefetchElements: 5e7 },
          fixedBuffers: [{ name: "reduction bucket (5e8 bf16 elements)", bytes: 1e9, count: 1, during: "always" }],
          source:
            `${DEEPSPEED}, deepspeed/runtime/zero/partition_parameters.py L1609: each parameter's partition keeps ` +
            `the parameter's data type, bf16; deepspeed/runtime/zero/stage3.py L547-548: the gradient partitions ` +
            `live in one buffer of the accumulation data type, bf16 by default; L903-906: fp32 master partitions; ` +
            `L1898-1899: the fp32 gradient is made one sub-group at a time; L538-540: the bf16 reduction bucket ` +
            `is allocated once; deepspeed/runtime/zero/config.py L208: up to 5e7 elements are prefetched; ` +
            `L214: parameters under 1e5 elements are never partitioned; L168: sub_group_size 1e9`,
        },
        source: `${DEEPSPEED}, deepspeed/runtime/zero/config.py L91-96: stage 3 partitions the parameters as well`,
      },
    },
    gradientReduceDtype: { value: "bf16", source: DEEPSPEED_BF16_COMM },
    bf16ReduceOption: {
      value: 'bf16 is already the default; "communication_data_type": "fp32" reduces in fp32',
      source:
        `${DEEPSPEED}, deepspeed/runtime/config.py L252-266: communication_data_type accepts fp32, fp16 or bf16 ` +
        `and defaults to unset; ${DEEPSPEED_BF16_COMM}`,
    },
    overlapGradReduce: { value: false, source: DEEPSPEED_OVERLAP },
    overlapGradReduceByMode: {
      1: { value: false, source: DEEPSPEED_OVERLAP },
      2: { value: false, source: DEEPSPEED_OVERLAP },
      3: { value: true, source: DEEPSPEED_OVERLAP },
    },
    tpCommOverlap: {
      value: false,
      source:
        `${DEEPSPEED}, deepspeed/runtime/tensor_parallel/config.py L45: training tensor parallelism (AutoTP) is ` +
        `off by default (autotp_size 0)`,
    },
    sequenceParallel: {
      value:
        "none in Megatron's sense; DeepSpeed's sequence parallelism is Ulysses (all-to-all over attention heads), " +
        "which the model wraps around its attention",
      source:
        `${DEEPSPEED}, deepspeed/sequence/layer.py L311: DistributedAttention redistributes the sequence with ` +
        `all-to-all around a local attention module`,
    },
    selectiveRecompute: {
      value: "none: the model chooses what to checkpoint; DeepSpeed's checkpointing options have no selective mode",
      source:
        `${DEEPSPEED}, deepspeed/runtime/activation_checkpointing/config.py L28-53: the options are partitioning, ` +
        `the number of checkpoints, contiguous memory, synchronization, profiling and CPU checkpointing`,
    },
    reshardAfterForward: {
      value: true,
      source:
        `${DEEPSPEED}, deepspeed/runtime/zero/partitioned_param_coordinator.py L524-555: after a submodule runs, ` +
        `its gathered parameters are released unless they are persistent (under 1e5 elements) or reappear ` +
        `within the next max_reuse_distance elements of the recorded module order, which keeps the last ` +
        `blocks of the forward pass gathered for the backward pass that follows; deepspeed/runtime/zero/config.py ` +
        `L237: max_reuse_distance defaults to 1e9 elements; partitioned_param_coordinator.py L380-382: prefetching ` +
        `stops at max_live_parameters (1e9, config.py L231) gathered elements`,
    },
    shardingUnit: {
      value: "one submodule's own parameters, with up to 5e7 elements prefetched ahead",
      source:
        `${DEEPSPEED}, deepspeed/runtime/zero/config.py L208: prefetch_bucket_size 5e7 elements; L214: ` +
        `parameters under param_persistence_threshold (1e5 elements) stay whole on every rank`,
    },
    bucketBytes: {
      value: 1e9,
      source:
        `${DEEPSPEED}, deepspeed/runtime/zero/config.py L109: reduce_bucket_size is 5e8 elements; ` +
        `deepspeed/runtime/zero/stage_1_and_2.py L2050-2051: the bucket holds bf16, 2 bytes each`,
    },
    bucketElements: {
      value: { min: 5e8, perDataParallelRank: 0 },
      source: `${DEEPSPEED}, deepspeed/runtime/zero/config.py L109: reduce_bucket_size defaults to 5e8 elements`,
    },
    gradAccumDtype: { value: "bf16", source: DEEPSPEED_BF16_ACCUM },
    gradReduceCollective: {
      1: {
        value: "all-reduce",
        source:
          `${DEEPSPEED}, deepspeed/runtime/zero/config.py L115: use_multi_rank_bucket_allreduce defaults to True; ` +
          `deepspeed/runtime/zero/stage_1_and_2.py L1136-1141 and L1011-1021: each bucket is all-reduced and ` +
          `every rank keeps the slice it owns`,
      },
      2: {
        value: "all-reduce",
        source:
          `${DEEPSPEED}, deepspeed/runtime/zero/config.py L115: use_multi_rank_bucket_allreduce defaults to True; ` +
          `deepspeed/runtime/zero/stage_1_and_2.py L1136-1141 and L1011-1021: each bucket is all-reduced and ` +
          `every rank keeps the slice it owns`,
      },
      3: {
        value: "reduce-scatter",
        source: `${DEEPSPEED}, deepspeed/runtime/zero/stage3.py L1391: gradients are reduce-scattered`,
      },
    },
    gradReduceEveryMicrobatch: {
      1: {
        value: false,
        source: `${DEEPSPEED}, deepspeed/runtime/engine.py L2055-2059: stage 1 reduces only at the end of an accumulation window`,
      },
      2: {
        value: true,
        source:
          `${DEEPSPEED}, deepspeed/runtime/engine.py L2051-2053: stage 2 and above reduce on every microbatch; ` +
          `deepspeed/runtime/zero/stage_1_and_2.py L1425-1426`,
      },
      3: {
        value: true,
        source:
          `${DEEPSPEED}, deepspeed/runtime/zero/stage3.py L1481-1487: each microbatch's reduced partition is ` +
          `copied into, then added to, the gradient partition buffer`,
      },
    },
    offload: {
      1: {
        value: { boundaryCopyDtype: "fp32", microbatchCopyDtype: null },
        source:
          `${DEEPSPEED}, deepspeed/runtime/zero/stage_1_and_2.py L1268-1284: ` +
          `async_inplace_copy_grad_to_fp32_buffer_from_gpu casts the partition's gradient to fp32 on the GPU ` +
          `(L1280-1281) and then copies it to the host fp32 buffer (L1283); stage 1 reduces, and so copies, ` +
          `only at the end of the window (deepspeed/runtime/engine.py L2055-2059)`,
      },
      2: {
        value: { boundaryCopyDtype: "fp32", microbatchCopyDtype: "bf16" },
        source:
          `${DEEPSPEED}, deepspeed/runtime/zero/stage_1_and_2.py L1329-1340: copy_grads_in_partition calls ` +
          `async_accumulate_grad_in_cpu_via_gpu on every microbatch when accumulating, and ` +
          `async_inplace_copy_grad_to_fp32_buffer_from_gpu at the end of the window; L1193-1238: the first ` +
          `microbatch copies the gradient to a host buffer of the model's data type, later ones copy it back ` +
          `and add; L1280-1283: the final copy is cast to fp32 on the GPU before it leaves`,
      },
      3: {
        value: { boundaryCopyDtype: "fp32", microbatchCopyDtype: "bf16" },
        source:
          `${DEEPSPEED}, deepspeed/runtime/zero/stage3.py L1488-1493: with the gradient partitions on the host, ` +
          `each microbatch copies them to the GPU, adds and copies them back; L1512-1515: at the end of the ` +
          `window the partition is cast to fp32 before it is copied into the host fp32 gradient`,
      },
    },
  },
];

/** The profile of a framework id; undefined when there is none. */
export function findFrameworkProfile(id: string): FrameworkProfile | undefined {
  return FRAMEWORK_PROFILES.find((p) => p.id === id);
}
