/**
 * From a configuration-finder row to a run: the launch configuration of a ranked layout
 * ({@link RankedConfig}, src/model/config-search.ts) for Megatron-LM (command-line flags), torchtitan
 * (TOML), PyTorch FSDP2 (a DeviceMesh and `fully_shard` snippet) and DeepSpeed (JSON). Every flag and
 * key written here is one of the names vendored from that framework's source at a named version
 * (src/data/launch-flags.ts); tests/model/launch.test.ts holds each text against those lists.
 *
 * The texts state the parallel layout, the batch, the sequence length, the model's shape, the
 * recomputation and the precision the row was evaluated with, and the framework defaults the
 * evaluation assumed (src/data/frameworks.ts): nothing overlapped in Megatron-LM, FSDP2 resharding
 * after forward only without a pipeline, DeepSpeed overlapping its reduction only under ZeRO-3. Data,
 * tokenizer, optimizer and schedule settings are the reader's. Where a framework cannot run the row as
 * evaluated, its entry is a refusal: one sentence naming why, never a text that runs something else.
 */
import { isArchitecture } from "./parameters.ts";
import { parseModelConfig, type ModelArchitecture } from "./architecture.ts";
import { ModelInputError, requirePositiveInteger } from "./errors.ts";
import type { RankedConfig } from "./config-search.ts";
import { defaultReshardAfterForward } from "./memory.ts";
import { findFrameworkProfile } from "../data/frameworks.ts";
import {
  MEGATRON_FLAGS,
  TORCHTITAN_KEYS,
  TORCHTITAN_LLAMA3_FLAVORS,
  DEEPSPEED_KEYS,
  FSDP2_NAMES,
  type LaunchFramework,
} from "../data/launch-flags.ts";

/** The fields of a ranked row a launch configuration reads. */
export type LaunchRow = Pick<
  RankedConfig,
  | "dp"
  | "tp"
  | "pp"
  | "cp"
  | "ep"
  | "zeroStage"
  | "recompute"
  | "framework"
  | "microBatchSize"
  | "microbatches"
  | "stageLayers"
>;

/** Compute precision of the run: bf16 mixed precision, or fp8 matmuls on top of it. */
export type LaunchPrecision = "bf16" | "fp8";

/** What a launch configuration is written from: a row and the scenario the finder searched. */
export interface LaunchInput {
  row: LaunchRow;
  /** HF config object or parsed architecture. */
  config: unknown;
  seqLength: number;
  /** Global batch in sequences per optimizer step. */
  globalBatch: number;
  gpuCount: number;
  /** Default "bf16". */
  precision?: LaunchPrecision;
}

/** A launch text, or why the framework cannot run the row. */
export type LaunchConfig =
  | {
      framework: LaunchFramework;
      ok: true;
      /** The text to copy (flags, TOML, Python or JSON). */
      text: string;
      /** Sentences on what the text assumes or leaves to the reader. */
      notes: string[];
    }
  | { framework: LaunchFramework; ok: false; reason: string };

/** The frameworks in the order the finder shows them. */
export const LAUNCH_FRAMEWORKS: readonly LaunchFramework[] = ["megatron", "torchtitan", "fsdp2", "deepspeed"];

/** Names the finder prints for each launch text. */
export const LAUNCH_LABELS: Readonly<Record<LaunchFramework, string>> = {
  megatron: `Megatron-LM ${MEGATRON_FLAGS.version} flags`,
  torchtitan: `torchtitan ${TORCHTITAN_KEYS.version} TOML`,
  fsdp2: "PyTorch FSDP2 snippet",
  deepspeed: `DeepSpeed ${DEEPSPEED_KEYS.version} JSON`,
};

interface Checked {
  row: LaunchRow;
  arch: ModelArchitecture;
  seqLength: number;
  globalBatch: number;
  gpuCount: number;
  precision: LaunchPrecision;
}

/** RoPE's base and scaling as a Hugging Face config states them (none for a parsed architecture). */
function ropeOf(config: unknown): { theta?: number; scaling?: string } {
  if (isArchitecture(config) || config === null || typeof config !== "object") return {};
  const raw = config as Record<string, unknown>;
  const theta = typeof raw["rope_theta"] === "number" && raw["rope_theta"] > 0 ? raw["rope_theta"] : undefined;
  const scaling = raw["rope_scaling"];
  const kind =
    scaling !== null && typeof scaling === "object"
      ? String(
          (scaling as Record<string, unknown>)["rope_type"] ?? (scaling as Record<string, unknown>)["type"] ?? "set",
        )
      : undefined;
  return { theta, scaling: kind };
}

/** Checks that the row is a layout of this scenario; throws ModelInputError naming the field otherwise. */
function check(input: LaunchInput): Checked {
  const arch: ModelArchitecture = isArchitecture(input.config)
    ? input.config
    : parseModelConfig(input.config).architecture;
  const seqLength = requirePositiveInteger(input.seqLength, "seqLength");
  const globalBatch = requirePositiveInteger(input.globalBatch, "globalBatch");
  const gpuCount = requirePositiveInteger(input.gpuCount, "gpuCount");
  const r = input.row;
  for (const key of ["dp", "tp", "pp", "cp", "ep", "microBatchSize", "microbatches"] as const)
    requirePositiveInteger(r[key], key);
  if (r.dp * r.tp * r.pp * r.cp !== gpuCount)
    throw new ModelInputError(
      "gpuCount",
      `DP × TP × PP × CP = ${r.dp * r.tp * r.pp * r.cp} is not the GPU count (${gpuCount})`,
    );
  if (r.dp * r.microBatchSize * r.microbatches !== globalBatch)
    throw new ModelInputError(
      "globalBatch",
      `DP × b × m = ${r.dp * r.microBatchSize * r.microbatches} is not the global batch (${globalBatch})`,
    );
  if (r.stageLayers.length !== r.pp || r.stageLayers.reduce((a, b) => a + b, 0) !== arch.numLayers)
    throw new ModelInputError(
      "stageLayers",
      `the stage split must have ${r.pp} stages summing to ${arch.numLayers} layers`,
    );
  const precision = input.precision ?? "bf16";
  if (precision !== "bf16" && precision !== "fp8")
    throw new ModelInputError("precision", 'precision must be "bf16" or "fp8"');
  return { row: r, arch, seqLength, globalBatch, gpuCount, precision };
}

const refuse = (framework: LaunchFramework, reason: string): LaunchConfig => ({ framework, ok: false, reason });

/** The even split the frameworks use when nothing is said: the first stages take one extra layer. */
function evenSplit(layers: number, pp: number): number[] {
  return Array.from({ length: pp }, (_, i) => Math.floor(layers / pp) + (i < layers % pp ? 1 : 0));
}

const sameSplit = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Megatron-LM's command-line flags for the row (pretrain_gpt.py at core_v0.19.0). Refuses ZeRO-2 and
 * ZeRO-3: Megatron-LM's distributed optimizer is ZeRO-1, and its separate Megatron-FSDP path is not
 * what the book's memory model evaluates.
 */
export function megatronLaunch(input: LaunchInput): LaunchConfig {
  const { row: r, arch, seqLength, globalBatch, precision } = check(input);
  if (r.zeroStage >= 2)
    return refuse(
      "megatron",
      `Megatron-LM shards optimizer states only (--use-distributed-optimizer, ZeRO-1); ZeRO-${r.zeroStage} would need its separate Megatron-FSDP path, which the book does not model, so this row's memory would not hold there.`,
    );
  const profile = findFrameworkProfile("megatron");
  const flags: [string, string?][] = [];
  const add = (flag: string, value?: string | number) =>
    flags.push(value === undefined ? [flag] : [flag, String(value)]);
  add("--tensor-model-parallel-size", r.tp);
  add("--pipeline-model-parallel-size", r.pp);
  add("--context-parallel-size", r.cp);
  if (r.ep > 1) add("--expert-model-parallel-size", r.ep);
  if (r.tp > 1) add("--sequence-parallel");
  if (r.zeroStage === 1) add("--use-distributed-optimizer");
  if (profile?.overlapGradReduce.value) add("--overlap-grad-reduce");
  add("--micro-batch-size", r.microBatchSize);
  add("--global-batch-size", globalBatch);
  add("--seq-length", seqLength);
  add("--max-position-embeddings", Math.max(arch.maxPositions, seqLength));
  add("--num-layers", arch.numLayers);
  add("--hidden-size", arch.hiddenSize);
  add("--ffn-hidden-size", arch.intermediateSize);
  add("--num-attention-heads", arch.numHeads);
  if (arch.numKvHeads !== arch.numHeads) {
    add("--group-query-attention");
    add("--num-query-groups", arch.numKvHeads);
  }
  if (!arch.mla && arch.headDim * arch.numHeads !== arch.hiddenSize) add("--kv-channels", arch.headDim);
  if (arch.mla) {
    add("--multi-latent-attention");
    if (arch.mla.qLoraRank > 0) add("--q-lora-rank", arch.mla.qLoraRank);
    add("--kv-lora-rank", arch.mla.kvLoraRank);
    add("--qk-head-dim", arch.mla.qkNopeHeadDim);
    add("--qk-pos-emb-head-dim", arch.mla.qkRopeHeadDim);
    add("--v-head-dim", arch.mla.vHeadDim);
  }
  if (arch.mlp === "swiglu") add("--swiglu");
  add("--normalization", arch.norm === "rmsnorm" ? "RMSNorm" : "LayerNorm");
  add("--position-embedding-type", arch.learnedPositions ? "learned_absolute" : "rope");
  // RoPE's base is the config's rope_theta (Megatron-LM's own default is 10,000; Llama 3's is 500,000).
  const rope = ropeOf(input.config);
  if (!arch.learnedPositions && rope.theta !== undefined) add("--rotary-base", rope.theta);
  if (!arch.tiedEmbeddings) add("--untie-embeddings-and-output-weights");
  if (!arch.qkvBias && !arch.outputBias && !arch.mlpBias) add("--disable-bias-linear");
  else if (arch.qkvBias && !arch.outputBias && !arch.mlpBias) {
    add("--disable-bias-linear");
    add("--add-qkv-bias");
  }
  if (arch.moe) {
    add("--num-experts", arch.moe.routedExperts);
    add("--moe-router-topk", arch.moe.expertsPerToken);
    add("--moe-ffn-hidden-size", arch.moe.expertIntermediateSize);
    if (arch.moe.sharedExperts > 0)
      add("--moe-shared-expert-intermediate-size", arch.moe.sharedExperts * arch.moe.expertIntermediateSize);
  }
  if (r.recompute === "selective") add("--recompute-granularity", "selective");
  if (r.recompute === "full") {
    add("--recompute-granularity", "full");
    add("--recompute-method", "uniform");
    add("--recompute-num-layers", 1);
  }
  // The stage split: nothing for an even split, first and last stage sizes when the middle stages
  // are equal, the layout string otherwise (E embedding, t transformer layer, L loss, | stage).
  const even = arch.numLayers % r.pp === 0 && sameSplit(r.stageLayers, evenSplit(arch.numLayers, r.pp));
  if (r.pp > 1 && !even) {
    const middle = r.stageLayers.slice(1, -1);
    if (middle.every((n) => n === middle[0])) {
      add("--decoder-first-pipeline-num-layers", r.stageLayers[0]);
      add("--decoder-last-pipeline-num-layers", r.stageLayers[r.pp - 1]);
    } else {
      const stages = r.stageLayers.map((n, i) => `${i === 0 ? "E" : ""}t*${n}${i === r.pp - 1 ? "L" : ""}`);
      add("--pipeline-model-parallel-layout", `"${stages.join("|")}"`);
    }
  }
  if (!arch.dropout) {
    add("--attention-dropout", "0.0");
    add("--hidden-dropout", "0.0");
  }
  add("--bf16");
  if (precision === "fp8") add("--fp8-format", "hybrid");
  const notes = [
    "Add your data, tokenizer, optimizer and learning-rate flags; the tokenizer sets the vocabulary size (" +
      `${arch.vocabSize.toLocaleString("en-US")} in this model).`,
    "Nothing overlaps, as Megatron-LM's defaults have it and as the row was modeled; NVIDIA's Megatron-Bridge recipes add --overlap-grad-reduce, --overlap-param-gather and --tp-comm-overlap.",
  ];
  if (arch.moe && (arch.moe.firstDenseLayers > 0 || arch.moe.layerFrequency > 1))
    notes.push("The model mixes dense and MoE layers: set --moe-layer-freq to its pattern.");
  if (!arch.learnedPositions && rope.theta === undefined)
    notes.push(
      "The config gives no rope_theta: set --rotary-base to the model's RoPE base (Megatron-LM's default is 10,000).",
    );
  if (rope.scaling)
    notes.push(
      `The config scales RoPE (rope_scaling: ${rope.scaling}); these flags do not: check how your Megatron-LM version applies that scheme before loading the released weights.`,
    );
  if (seqLength > arch.maxPositions)
    notes.push(
      `The sequence (${seqLength}) is longer than the model's position range (${arch.maxPositions}): --max-position-embeddings follows the sequence.`,
    );
  if (precision === "fp8")
    notes.push(
      "fp8 runs through Transformer Engine (--transformer-impl transformer_engine, the default) with its default recipe, delayed scaling.",
    );
  const text = [
    `# Megatron-LM ${MEGATRON_FLAGS.version}: flags for pretrain_gpt.py (layout, batch and model shape)`,
    ...flags.map(
      ([flag, value], i) => `${flag}${value === undefined ? "" : ` ${value}`}${i < flags.length - 1 ? " \\" : ""}`,
    ),
  ].join("\n");
  return { framework: "megatron", ok: true, text, notes };
}

/** The llama3 flavor of torchtitan v0.2.2 with this shape, if any. */
function titanFlavor(arch: ModelArchitecture): string | undefined {
  return TORCHTITAN_LLAMA3_FLAVORS.find(
    (f) =>
      f.hiddenSize === arch.hiddenSize &&
      f.numLayers === arch.numLayers &&
      f.numHeads === arch.numHeads &&
      f.numKvHeads === arch.numKvHeads &&
      !arch.moe &&
      !arch.mla,
  )?.flavor;
}

const tomlString = (s: string) => JSON.stringify(s);

/**
 * torchtitan's TOML job configuration for the row (v0.2.2). ZeRO-3 is FSDP (resharding after forward
 * under torchtitan's "default" policy: only without a pipeline), ZeRO-2 is FSDP that keeps the
 * gathered weights ("never"), ZeRO-0 is torchtitan's DDP, which it runs only as the sole
 * parallelism; ZeRO-1 has no torchtitan counterpart.
 */
export function torchtitanLaunch(input: LaunchInput): LaunchConfig {
  const { row: r, arch, seqLength, globalBatch, precision } = check(input);
  if (r.zeroStage === 1)
    return refuse(
      "torchtitan",
      "torchtitan has no optimizer-only sharding (ZeRO-1): its FSDP shards weights and gradients too, and its DDP shards nothing.",
    );
  if (r.zeroStage === 0 && r.tp * r.pp * r.cp * r.ep > 1)
    return refuse(
      "torchtitan",
      "torchtitan v0.2.2 runs unsharded data parallelism (DDP) only when it is the sole parallelism (torchtitan/models/llama3/infra/parallelize.py L148-151); with TP, PP, CP or EP it shards with FSDP instead.",
    );
  const flavor = titanFlavor(arch);
  const lines: string[] = [`# torchtitan ${TORCHTITAN_KEYS.version} job configuration (layout, batch and model)`];
  const section = (name: string) => lines.push("", `[${name}]`);
  const key = (k: string, v: string | number | boolean | readonly string[]) =>
    lines.push(
      `${k} = ${typeof v === "string" ? tomlString(v) : Array.isArray(v) ? `[${v.map(tomlString).join(", ")}]` : String(v)}`,
    );
  const notes: string[] = [];
  section("model");
  if (flavor) {
    key("name", "llama3");
    key("flavor", flavor);
  } else {
    lines.push(
      `# No llama3 flavor of torchtitan ${TORCHTITAN_KEYS.version} has this shape (h ${arch.hiddenSize}, L ${arch.numLayers}, ${arch.numHeads} heads, ${arch.numKvHeads} KV heads${arch.moe ? ", MoE" : ""}): register one and name it here.`,
    );
    notes.push(
      "The model section needs a registered model and flavor of this shape: torchtitan defines architectures in code.",
    );
  }
  if (precision === "fp8") key("converters", ["quantize.linear.float8"]);
  section("training");
  key("local_batch_size", r.microBatchSize * (r.pp > 1 ? r.microbatches : 1));
  key("global_batch_size", globalBatch);
  key("seq_len", seqLength);
  key("mixed_precision_param", "bfloat16");
  key("mixed_precision_reduce", "float32");
  section("parallelism");
  key("data_parallel_replicate_degree", r.zeroStage === 0 ? r.dp : 1);
  key("data_parallel_shard_degree", r.zeroStage === 0 ? 1 : r.dp);
  if (r.zeroStage >= 2) key("fsdp_reshard_after_forward", r.zeroStage === 2 ? "never" : "default");
  key("tensor_parallel_degree", r.tp);
  key("context_parallel_degree", r.cp);
  key("pipeline_parallel_degree", r.pp);
  if (r.ep > 1) {
    key("expert_parallel_degree", r.ep);
    key("expert_tensor_parallel_degree", r.tp);
  }
  if (r.pp > 1) {
    key("pipeline_parallel_schedule", "1F1B");
    key("pipeline_parallel_microbatch_size", r.microBatchSize);
    // The row's split, named module by module (torchtitan's weights would give another split).
    let next = 0;
    const parts = r.stageLayers.map((n, i) => {
      const names: string[] = [];
      if (i === 0) names.push("tok_embeddings");
      for (let k = 0; k < n; k++) names.push(`layers.${next++}`);
      if (i === r.pp - 1) names.push("norm", "output");
      return `  [${names.map(tomlString).join(", ")}],`;
    });
    lines.push("module_fqns_per_model_part = [", ...parts, "]");
  }
  section("activation_checkpoint");
  key("mode", r.recompute === "full" ? "full" : "none");
  if (precision === "fp8") {
    section("quantize.linear.float8");
    key("enable_fsdp_float8_all_gather", r.zeroStage >= 2);
    // The LM head stays bf16, as the step model prices it and as the fp8 runs it was fitted on did:
    // the default filter converts every nn.Linear, "output" included (filter_fqns matches substrings).
    key("filter_fqns", ["output"]);
  }
  const text = lines.join("\n");
  if (r.recompute === "selective")
    notes.push(
      'The row\'s selective recomputation is the attention core, which a FlashAttention backward pass recomputes anyway; torchtitan\'s mode "selective" checkpoints whole blocks or chosen ops instead, so the mode is "none".',
    );
  if (r.pp > 1)
    notes.push(
      `local_batch_size is one data-parallel rank's ${r.microbatches} microbatches of ${r.microBatchSize}; the pipeline splits it, so there is no gradient accumulation on top.`,
    );
  else if (r.microbatches > 1)
    notes.push(`torchtitan accumulates ${r.microbatches} microbatches: global_batch_size / (local_batch_size × DP).`);
  if (precision === "fp8")
    notes.push(
      "fp8 needs torchao installed (tensorwise scaling by default); torchtitan's float8 guide pairs it with [compile] enable = true.",
      'filter_fqns = ["output"] keeps the LM head in bf16, as the prediction prices it.',
    );
  if (precision === "fp8" && r.zeroStage >= 2)
    notes.push(
      "The float8 all-gather sends FSDP's weights in fp8; the prediction prices every collective at bf16 bytes, so it counts about twice the bytes this all-gather sends.",
    );
  return { framework: "torchtitan", ok: true, text, notes };
}

/**
 * A PyTorch FSDP2 snippet for the row: the DeviceMesh of its degrees and `fully_shard` on every
 * transformer block, with reshard_after_forward as the FSDP2 profile evaluates it. A snippet, not a
 * script: the TP plan, context parallelism and pipeline stages are named, not written.
 */
export function fsdp2Launch(input: LaunchInput): LaunchConfig {
  const { row: r, precision } = check(input);
  if (r.zeroStage < 2)
    return refuse(
      "fsdp2",
      `fully_shard always shards weights and gradients, so it runs ZeRO-2 or ZeRO-3; this ZeRO-${r.zeroStage} row keeps whole replicas (DDP or Megatron-LM's optimizer).`,
    );
  if (r.ep > 1)
    return refuse(
      "fsdp2",
      "Expert parallelism needs its own mesh for the expert weights, which a snippet of the dense mesh does not show: use the torchtitan configuration.",
    );
  const reshard = r.zeroStage === 3 ? defaultReshardAfterForward("fsdp2", r.pp) : false;
  const shardDims = r.cp > 1 ? "dp_cp" : "dp";
  const lines = [
    `# PyTorch FSDP2 snippet for DP ${r.dp} × CP ${r.cp} × TP ${r.tp} × PP ${r.pp} (ZeRO-${r.zeroStage}): a sketch, not a full script.`,
    "import torch",
    "from torch.distributed.device_mesh import init_device_mesh",
    "from torch.distributed.fsdp import fully_shard, MixedPrecisionPolicy",
    "",
    "# Rank order pp, dp, cp, tp (TP fastest, inside a server).",
    `mesh = init_device_mesh("cuda", (${r.pp}, ${r.dp}, ${r.cp}, ${r.tp}), mesh_dim_names=("pp", "dp", "cp", "tp"))`,
  ];
  if (r.cp > 1)
    lines.push(
      "# FSDP shards over DP × CP: the same ranks as dims dp and cp together, as one dimension.",
      `shard_mesh = init_device_mesh("cuda", (${r.pp}, ${r.dp * r.cp}, ${r.tp}), mesh_dim_names=("pp", "${shardDims}", "tp"))["${shardDims}"]`,
    );
  else lines.push(`shard_mesh = mesh["dp"]`);
  lines.push(
    "policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)",
    "",
    "# model: this rank's pipeline stage, fp32 parameters.",
  );
  if (r.tp > 1) lines.push(`# First: the TP plan with sequence parallelism over mesh["tp"] (parallelize_module).`);
  if (r.cp > 1) lines.push(`# Context parallelism over mesh["cp"] splits each sequence across ${r.cp} ranks.`);
  if (r.recompute === "full")
    lines.push("# Full recomputation: wrap each block in activation checkpointing before sharding it.");
  lines.push(
    "for block in model.layers:",
    `    fully_shard(block, mesh=shard_mesh, reshard_after_forward=${reshard ? "True" : "False"}, mp_policy=policy)`,
    "fully_shard(model, mesh=shard_mesh, mp_policy=policy)",
  );
  if (r.pp > 1)
    lines.push(
      `# Pipeline: ${r.pp} stages over mesh["pp"], 1F1B with ${r.microbatches} microbatches of ${r.microBatchSize}.`,
    );
  const notes = [
    reshard
      ? "Each block frees its gathered weights after its forward pass and gathers them again for the backward pass (ZeRO-3)."
      : r.zeroStage === 3
        ? "Under a pipeline the blocks keep their gathered weights from forward to backward (torchtitan's default), as the row was modeled."
        : "The blocks keep their gathered weights from forward to backward (ZeRO-2 for the weights).",
  ];
  if (precision === "fp8")
    notes.push(
      "fp8 matmuls come from torchao's float8 training, applied to the model before fully_shard (not shown), with a module filter that leaves the output layer (the LM head) in bf16, as the prediction prices it.",
    );
  return { framework: "fsdp2", ok: true, text: lines.join("\n"), notes };
}

/**
 * DeepSpeed's JSON configuration for the row (v0.16.4), where plain DeepSpeed runs the layout: no TP,
 * CP or EP, and no pipeline under ZeRO-2 or ZeRO-3 (its pipeline engine refuses them), bf16 only.
 */
export function deepspeedLaunch(input: LaunchInput): LaunchConfig {
  const { row: r, globalBatch, precision } = check(input);
  if (r.tp > 1 || r.cp > 1 || r.ep > 1) {
    const dims = [r.tp > 1 ? "TP" : "", r.cp > 1 ? "CP" : "", r.ep > 1 ? "EP" : ""].filter(Boolean);
    const what = dims.length > 1 ? `${dims.slice(0, -1).join(", ")} and ${dims[dims.length - 1]}` : dims[0];
    return refuse(
      "deepspeed",
      `Plain DeepSpeed runs data and pipeline parallelism with ZeRO; this row's ${what} would need Megatron-DeepSpeed or DeepSpeed's separate sequence and expert modules, which the book does not model.`,
    );
  }
  if (r.pp > 1 && r.zeroStage >= 2)
    return refuse(
      "deepspeed",
      `DeepSpeed's pipeline engine refuses ZeRO-${r.zeroStage}; it runs a pipeline with ZeRO-0 or ZeRO-1 only.`,
    );
  if (precision === "fp8")
    return refuse(
      "deepspeed",
      "DeepSpeed's JSON has no fp8 training switch: fp8 matmuls come from Transformer Engine in the model code.",
    );
  const profile = findFrameworkProfile("deepspeed");
  const overlap = profile?.overlapGradReduceByMode?.[r.zeroStage]?.value ?? profile?.overlapGradReduce.value ?? false;
  const config = {
    train_batch_size: globalBatch,
    train_micro_batch_size_per_gpu: r.microBatchSize,
    gradient_accumulation_steps: r.microbatches,
    bf16: { enabled: true },
    zero_optimization: {
      stage: r.zeroStage,
      overlap_comm: overlap,
      reduce_bucket_size: 500_000_000,
    },
  };
  const notes = [
    "train_batch_size = train_micro_batch_size_per_gpu × gradient_accumulation_steps × the data-parallel size, which DeepSpeed checks.",
    "overlap_comm and reduce_bucket_size are DeepSpeed's defaults for this stage, written out because the row was modeled with them.",
  ];
  if (r.pp > 1)
    notes.push(
      `The pipeline degree is set in code: PipelineModule(..., num_stages=${r.pp}) with the row's layers per stage.`,
    );
  if (r.recompute !== "none")
    notes.push(
      r.recompute === "full"
        ? "Recomputation is applied in the model code (deepspeed.checkpointing.checkpoint around each block)."
        : "The row's selective recomputation (the attention core) is what a FlashAttention backward pass does anyway.",
    );
  return { framework: "deepspeed", ok: true, text: JSON.stringify(config, null, 2), notes };
}

/** Every framework's launch configuration for the row, in {@link LAUNCH_FRAMEWORKS} order. */
export function launchConfigs(input: LaunchInput): LaunchConfig[] {
  check(input);
  return [megatronLaunch(input), torchtitanLaunch(input), fsdp2Launch(input), deepspeedLaunch(input)];
}

/** The vendored names of a framework, for tests and the CLI. */
export function vendoredNames(framework: LaunchFramework): ReadonlySet<string> {
  const list = { megatron: MEGATRON_FLAGS, torchtitan: TORCHTITAN_KEYS, fsdp2: FSDP2_NAMES, deepspeed: DEEPSPEED_KEYS }[
    framework
  ];
  return new Set(Object.keys(list.names));
}
