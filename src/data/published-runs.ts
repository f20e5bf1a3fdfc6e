/**
 * Published training runs with their parallel layout, their software and their measured
 * throughput: the data set the step model (src/model/step.ts) is held against in the appendix on
 * published runs. Imports only other src/data files.
 *
 * Each run records what its source prints (the model, the GPUs, every parallel degree given, the
 * batch, the sequence length and the throughput in the source's own unit) and where (table, row,
 * section, commit). What a source leaves out is filled in by an assumption written next to the run;
 * the validation reports the error with every assumption in place, and never tunes an assumption
 * per run. Reported throughput is converted to MFU with the book's definition (model FLOPs with
 * attention counted whole, no recomputation, over the dense bf16 peak) by src/model/validation.ts.
 *
 * Which rows are in is decided per source by the rule in {@link RUN_SOURCES} (`inclusion`): every
 * row of the named tables that gives the fields the model needs, and a stated reason for every row
 * left out. The rule was fixed before the model's errors were looked at and is never bent to drop
 * a row the model misses.
 *
 * **Precision.** Every run says whether its linear layers' matmuls ran in bf16 or fp8 (`precision`).
 * {@link PUBLISHED_RUNS} holds the bf16 runs, on which the book's two kernel efficiencies are fitted;
 * {@link PUBLISHED_FP8_RUNS} holds the fp8 rows of the same sources (MosaicML's fp8 table,
 * torchtitan's Float8 rows, NeMo's fp8 tables), each with its fp8 recipe ({@link Fp8Recipe}: the
 * library, the scaling, the layers in fp8, whether the head is, and the peak the source's own MFU
 * divides by, which is fp8's for MosaicML, NeMo and torchtitan's 405B table). They fit one more
 * constant, the fp8 linear layers' efficiency, and are reported as their own group.
 *
 * **Software.** Every run carries the software it ran ({@link RunSoftware}): the framework profile
 * (src/data/frameworks.ts) and vintage, the attention kernel, tensor-parallel communication overlap,
 * sequence parallelism, data-parallel overlap, the recomputation policy as that framework defines
 * it and the gradient-reduction precision, each with its source or marked `assumed:` with the
 * reason. The step model reads the ones it has inputs for (attention kernel, sequence parallelism,
 * recomputation, gradient precision); the others are recorded for when it does.
 *
 * Kinds of reported throughput:
 * - `megatron-tflops`: TFLOP/s per GPU counted with Megatron-LM's Eq. (3) of narayanan2021efficient,
 *   $96BsLh^2(1 + s/(6h) + V/(16Lh))$ per iteration, which includes full recomputation;
 * - `megatron-core-tflops`: TFLOP/s per GPU counted with Megatron-Core r0.8.0's
 *   `num_floating_point_operations` (megatron/training/training.py L73-108), model FLOPs without
 *   recomputation;
 * - `iteration-seconds`: seconds per optimizer step;
 * - `tokens-per-second-per-gpu`: tokens per second per GPU;
 * - `mfu`: MFU as the source prints it (its own FLOP count, stated in `assumptions`).
 */
import type { FrameworkId } from "./frameworks.ts";

/** How a source reports throughput. */
export type ReportedThroughput =
  | { kind: "megatron-tflops"; tflopsPerGpu: number }
  | { kind: "megatron-core-tflops"; tflopsPerGpu: number }
  | { kind: "iteration-seconds"; seconds: number }
  | { kind: "tokens-per-second-per-gpu"; tokensPerSecondPerGpu: number }
  | { kind: "mfu"; mfu: number };

/** Parallel layout of a run, in the step model's terms. */
export interface RunLayout {
  tp: number;
  pp: number;
  cp: number;
  ep: number;
  dp: number;
  zeroStage: 0 | 1 | 2 | 3;
  reshardAfterForward?: boolean;
  /**
   * Recomputation in the step model's terms: "selective" is Megatron-LM's (the attention core),
   * "full" repeats each layer's forward pass. The framework's own policy is
   * `software.recomputePolicy`; where the two differ, `software.recomputeApproximate` says how.
   */
  recompute: "none" | "selective" | "full";
  schedule: "1f1b" | "interleaved";
  chunks?: number;
  stageLayers?: number[];
  rankOrder?: "tp-cp-dp-pp" | "tp-cp-pp-dp";
}

/** A value and where it comes from; a source that starts with "assumed:" marks an assumption and gives its reason. */
export interface Sourced<T> {
  value: T;
  source: string;
}

/** The prefix that marks a {@link Sourced} value as assumed rather than read from a source. */
export const ASSUMED = "assumed: ";

/** True when `field` was assumed, not read from a source. */
export function isAssumed(field: Sourced<unknown>): boolean {
  return field.source.startsWith(ASSUMED);
}

/** The software a run ran: what the step model needs to know beyond the layout. */
export interface RunSoftware {
  /** The nearest framework profile of src/data/frameworks.ts. */
  framework: FrameworkId;
  /** The software as the source names it, with its version or date (the vintage). */
  name: string;
  /** "full": the whole score matrix is computed and masked; "causal-skip": a FlashAttention-class kernel skips the masked half. */
  attentionKernel: Sourced<"full" | "causal-skip">;
  /** Tensor-parallel collectives overlapped with the GEMMs. */
  tpCommOverlap: Sourced<boolean>;
  /** Sequence parallelism (the step model reads it). */
  sequenceParallel: Sourced<boolean>;
  /** Data-parallel gradient reduction overlapped with the backward pass. */
  dpOverlap: Sourced<boolean>;
  /** Recomputation policy as the framework defines it. */
  recomputePolicy: Sourced<string>;
  /** Where `layout.recompute` only approximates `recomputePolicy`: how they differ. */
  recomputeApproximate?: string;
  /** Precision of the data-parallel gradient reduction (the step model reads it). */
  gradPrecision: Sourced<"fp32" | "bf16">;
  /** torch.compile on (the step model has no input for it). */
  compiled?: Sourced<boolean>;
}

/**
 * How an fp8 run used fp8, as its source states it (or `assumed:` with the reason where it does not).
 */
export interface Fp8Recipe {
  /** The library that casts to fp8 (Transformer Engine, torchao) and its version where given. */
  library: Sourced<string>;
  /** The scaling recipe: delayed (amax history) or dynamic, per tensor or per row, and the formats. */
  scaling: Sourced<string>;
  /** Which layers' matmuls run in fp8. */
  layers: Sourced<string>;
  /** Whether the LM head's matmul runs in fp8 (the step model prices it in bf16 in every case). */
  headInFp8: Sourced<boolean>;
  /**
   * The peak the source divides by when it prints an MFU for this run: "fp8" (the dense fp8 peak),
   * "bf16", or "none" (no MFU printed). The validation never uses the printed MFU: it converts the
   * throughput to the book's MFU, against the dense bf16 peak.
   */
  sourceMfuPeak: Sourced<"fp8" | "bf16" | "none">;
}

/** One published run. */
export interface PublishedRun {
  /** Kebab-case id. */
  id: string;
  /** Key of the source in {@link RUN_SOURCES} (and in bibliography.bib). */
  source: string;
  /** Table, row, section or page in the source. */
  location: string;
  /** Model as the source names it. */
  model: string;
  /** A preset id from models.ts or an HF-style config object. */
  config: string | Readonly<Record<string, unknown>>;
  /** GPU id from gpus.ts. */
  gpu: string;
  gpuCount: number;
  layout: RunLayout;
  software: RunSoftware;
  seqLength: number;
  microBatchSize: number;
  /** Sequences per optimizer step. */
  globalBatch: number;
  reported: ReportedThroughput;
  /** The throughput as printed in the source. */
  reportedText: string;
  /** Parameter count as the source prints it, where it prints one (checked against the config). */
  publishedParameters?: number;
  /** Per-GPU NIC bus bandwidth when the cluster's network differs from interconnects.ts (bytes/s), with why. */
  nicBusBytesPerSecond?: number;
  /** Settings the source omits and what we assumed, with the reason. */
  assumptions: string[];
  /**
   * The precision of the linear layers' matmuls: "bf16" (every run of {@link PUBLISHED_RUNS}) or
   * "fp8" (the runs of {@link PUBLISHED_FP8_RUNS}, which also carry {@link PublishedRun.fp8}).
   */
  precision: "bf16" | "fp8";
  /** For an fp8 run: its recipe and the source's MFU convention, each with its source. */
  fp8?: Fp8Recipe;
  /**
   * Where the run trains a cut-down stand-in for `model` (fewer layers than the released model; its
   * `config` holds the stand-in's), where the source says so. The appendix marks such a row as a
   * proxy with its layer count.
   */
  proxy?: string;
}

/** A source of runs and the rule that decides which of its rows are in. */
export interface RunSource {
  /** Bibliography key. */
  key: string;
  /** Short name for tables. */
  name: string;
  /** Which tables, which rows, and why any are out: one sentence. */
  inclusion: string;
  /** For a source with fp8 rows: which of them are in {@link PUBLISHED_FP8_RUNS}, and why any are out. */
  fp8Inclusion?: string;
}

/** Every source of runs with its inclusion rule (the appendix prints them). */
export const RUN_SOURCES: readonly RunSource[] = [
  {
    key: "narayanan2021efficient",
    name: "Megatron-LM weak scaling (2021)",
    inclusion:
      "Every row of Table 1 (GPT 1.7B to 1T on A100); Table 2's ZeRO-3 rows are out because the step model cannot describe what limited that implementation (see the runs left out)",
  },
  {
    key: "korthikanti2023reducing",
    name: "Selective recomputation (2022)",
    inclusion:
      "Every 'present work' row of Table 5 with its configuration from Table 3, and the 2,240-GPU run of §6.3; Table 5's baseline rows (full recomputation, no sequence parallelism) are out because we could read only the fact sheet's copy of the present-work rows, not the paper's tables",
  },
  {
    key: "smith2022megatronturing",
    name: "MT-NLG (2022)",
    inclusion: "The three rows of §2.4 (2,240, 2,800 and 3,360 A100s), all it gives",
  },
  {
    key: "bigscience2022bloom",
    name: "BLOOM (2022)",
    inclusion:
      "The throughput the final 384-GPU run logged at the end of its first epoch (BigScience's train/tr11-176B-ml/README.md), not the higher best figures of the benchmarks run before training, which were measured on trial shapes of the model (chronicles-prequel.md in the same folder)",
  },
  {
    key: "zhang2022opt",
    name: "OPT (2022)",
    inclusion: "The one throughput §2.4 gives for the 992-GPU run",
  },
  {
    key: "grattafiori2024llama3",
    name: "Llama 3 (2024)",
    inclusion: "The three rows of Table 4, all it gives",
  },
  {
    key: "mosaicml2023benchmarks",
    name: "MosaicML MPT benchmarks (2023-24)",
    inclusion:
      "Every row of the four bf16 tables of scripts/train/benchmarking/README.md (H100 at scale, H100, A100 80GB, A100 40GB); the seven rows of its fp8 table are in the fp8 group",
    fp8Inclusion: "Every row of its fp8 table (MPT 1B and 3B on one H100 server)",
  },
  {
    key: "pytorch2024torchtitanperf",
    name: "torchtitan (2024)",
    inclusion:
      "Every row of the Llama 2 and Llama 3 tables of docs/performance.md (64 A100) and the bf16 row of its Llama 3.1 405B table (128 H100), except the two 'selective layer' rows (the step model has no input for recomputing a subset of layers); its two Float8 rows are in the fp8 group",
    fp8Inclusion:
      "The two Float8 rows of the Llama 3.1 405B table of docs/performance.md (Float8, and Float8 with asynchronous TP)",
  },
  {
    key: "pytorch2024torchtitanh100",
    name: "torchtitan H100 benchmarks (2024)",
    inclusion:
      "The four bf16 rows of Tables 1 and 3 of benchmarks/llama3_h100_202412_torchtitan.md (FSDP, with and without torch.compile, on 8 and 128 H100); every other row uses Float8 and is in the fp8 group or left out there",
    fp8Inclusion:
      "Every Float8 row of Tables 1 to 4 (Llama 3.1 8B with FSDP, alone and with CP on long sequences; Llama 3.1 70B with FSDP and TP); the six rows of Tables 5 and 6 (405B with pipeline parallelism) are out because the source gives neither how the model's layers split over its pipeline stages nor the chunks of its interleaved schedule",
  },
  {
    key: "megatronlm2024weakscaling",
    name: "Megatron-Core weak scaling (2024)",
    inclusion:
      "Every row of the README's model table (GPT 1.7B to 462B on 48 to 6,144 H100); the strong-scaling results are a plot without printed numbers, so they are out",
  },
  {
    key: "nvidia2024dgxcbenchmarking",
    name: "NVIDIA DGX Cloud benchmarking 24.11.1",
    inclusion:
      "Every bf16 column of the NeMo pre-training tables (Nemotron-4 15B and 340B, Llama 3.1 8B, 70B and 405B with its proxies, GPT-3 175B), with their fp8 tables in the fp8 group; the JAX recipes MaxText and PaXML (no framework profile), Grok-1 (a mixture-of-experts family the model does not read) and the LoRA fine-tuning recipes (they train adapters, not the model) are out",
    fp8Inclusion:
      "Every column of the fp8 tables of the same six NeMo recipes (Nemotron-4 15B and 340B, Llama 3.1 8B, 70B and 405B with its proxies, GPT-3 175B)",
  },
];

/** A GPT-3-style configuration (Megatron-LM's GPT: LayerNorm, GeLU MLP of width 4h, learned positions, tied head). */
function gpt(h: number, a: number, layers: number, vocab: number, seq: number): Readonly<Record<string, unknown>> {
  return {
    model_type: "gpt2",
    n_embd: h,
    n_head: a,
    n_layer: layers,
    vocab_size: vocab,
    n_positions: seq,
    n_inner: null,
    tie_word_embeddings: true,
    attn_pdrop: 0,
    resid_pdrop: 0,
    embd_pdrop: 0,
  };
}

const s = <T>(value: T, source: string): Sourced<T> => ({ value, source });
const assumed = <T>(value: T, reason: string): Sourced<T> => ({ value, source: `${ASSUMED}${reason}` });

// ---- Megatron-LM of 2021-22 (narayanan2021efficient, korthikanti2023reducing) -------------------

const MEGATRON_2021_ATTENTION = s<"full" | "causal-skip">(
  "full",
  "NVIDIA/Megatron-LM v2.6 (Aug 2021), megatron/model/transformer.py L264-L295: the scores are one torch.baddbmm over every query-key pair, masked afterwards by the fused softmax; FlashAttention enters the repository only in commit d693034 (Dec 2022)",
);

function megatron2021Software(sp: boolean, recompute: string): RunSoftware {
  return {
    framework: "megatron",
    name: "Megatron-LM (2021-22)",
    attentionKernel: MEGATRON_2021_ATTENTION,
    tpCommOverlap: s(
      false,
      "Megatron-LM of 2021-22 has no TP communication overlap (added with Transformer Engine's userbuffers in 2023)",
    ),
    sequenceParallel: sp
      ? s(true, "korthikanti2023reducing §4.2.2 (sequence parallelism is this paper's contribution)")
      : s(false, "sequence parallelism was introduced a year later (korthikanti2023reducing)"),
    dpOverlap: assumed(
      false,
      "Megatron-LM of 2021 all-reduces gradients after the backward pass; the paper does not describe an overlap",
    ),
    recomputePolicy: s(
      recompute,
      recompute === "full"
        ? "narayanan2021efficient §3.5 and Eq. (3): every layer's activations recomputed"
        : "korthikanti2023reducing §5: recompute the attention core (QKᵀ, softmax, dropout, AV)",
    ),
    gradPrecision: assumed(
      "fp32",
      "Megatron-LM's default: gradients accumulated and all-reduced in fp32 (the papers do not say)",
    ),
  };
}

const NARAYANAN_ASSUMPTIONS = [
  "Micro-batch size 1: Table 1 does not list it",
  "Interleaved schedule with 2 chunks per stage (3 where the layers per stage are odd) wherever pp > 1: §5.1 uses the interleaved schedule, Table 1 does not give the chunk count",
];

const narayananRows: Array<[string, number, number, number, number, number, number, number, number, number]> = [
  // [size, heads, hidden, layers, tp, pp, gpus, batch, TFLOP/s per GPU, chunks]
  ["1.7B", 24, 2304, 24, 1, 1, 32, 512, 137, 1],
  ["3.6B", 32, 3072, 30, 2, 1, 64, 512, 138, 1],
  ["7.5B", 32, 4096, 36, 4, 1, 128, 512, 142, 1],
  ["18.4B", 48, 6144, 40, 8, 1, 256, 1024, 135, 1],
  ["39.1B", 64, 8192, 48, 8, 2, 512, 1536, 138, 2],
  ["76.1B", 80, 10240, 60, 8, 4, 1024, 1792, 140, 3],
  ["145.6B", 96, 12288, 80, 8, 8, 1536, 2304, 148, 2],
  ["310.1B", 128, 16384, 96, 8, 16, 1920, 2160, 155, 2],
  ["529.6B", 128, 20480, 105, 8, 35, 2520, 2520, 163, 3],
  ["1008B", 160, 25600, 128, 8, 64, 3072, 3072, 163, 2],
];

const narayanan: PublishedRun[] = narayananRows.map(
  ([size, heads, hidden, layers, tp, pp, gpus, batch, tflops, chunks]) => ({
    id: `narayanan2021-${size.toLowerCase().replace(".", "-")}`,
    source: "narayanan2021efficient",
    location: `Table 1, row ${size}`,
    model: `GPT ${size}`,
    config: gpt(hidden, heads, layers, 51200, 2048),
    gpu: "a100-sxm-80gb",
    gpuCount: gpus,
    layout: {
      tp,
      pp,
      cp: 1,
      ep: 1,
      dp: gpus / (tp * pp),
      zeroStage: 0,
      recompute: "full",
      schedule: chunks > 1 ? "interleaved" : "1f1b",
      ...(chunks > 1 ? { chunks } : {}),
    },
    software: megatron2021Software(false, "full"),
    seqLength: 2048,
    microBatchSize: 1,
    globalBatch: batch,
    reported: { kind: "megatron-tflops", tflopsPerGpu: tflops },
    reportedText: `${tflops} teraFLOP/s per GPU`,
    precision: "bf16",
    assumptions: NARAYANAN_ASSUMPTIONS,
  }),
);

const KORTHIKANTI_ASSUMPTIONS = [
  "Plain data parallelism where dp > 1 (the paper does not say)",
  "Table values read from the project's fact sheet, not from the paper's tables (our search corpus holds only the abstract, which confirms 54.2% MFU for 530B on 2,240 GPUs); each iteration time, with the configuration and batch used here, reproduces the MFU the paper prints to within 0.2 point (the 22B row's 1.10 s gives 41.65% against the printed 41.5%)",
];

function korthikantiRun(
  id: string,
  location: string,
  model: string,
  dims: [number, number, number],
  gpus: number,
  tpPpDp: [number, number, number],
  schedule: { schedule: "1f1b" | "interleaved"; chunks?: number },
  micro: number,
  batch: number,
  seconds: number,
  mfu: string,
  extra: string[] = [],
): PublishedRun {
  const [h, a, L] = dims;
  const [tp, pp, dp] = tpPpDp;
  return {
    id,
    source: "korthikanti2023reducing",
    location,
    model,
    config: gpt(h, a, L, 51200, 2048),
    gpu: "a100-sxm-80gb",
    gpuCount: gpus,
    layout: { tp, pp, cp: 1, ep: 1, dp, zeroStage: 0, recompute: "selective", ...schedule },
    software: megatron2021Software(true, "selective"),
    seqLength: 2048,
    microBatchSize: micro,
    globalBatch: batch,
    reported: { kind: "iteration-seconds", seconds },
    reportedText: `${seconds} s per iteration (MFU ${mfu})`,
    precision: "bf16",
    assumptions: [...KORTHIKANTI_ASSUMPTIONS, ...extra],
  };
}

const korthikanti: PublishedRun[] = [
  korthikantiRun(
    "korthikanti2022-22b",
    "Table 3 (configuration) and Table 5 (iteration time, 'present work'), row 22B",
    "GPT 22B",
    [6144, 64, 48],
    8,
    [8, 1, 1],
    { schedule: "1f1b" },
    4,
    4,
    1.1,
    "41.5%",
  ),
  korthikantiRun(
    "korthikanti2022-175b",
    "Tables 3 and 5, row 175B (GPT-3)",
    "GPT-3 175B",
    [12288, 96, 96],
    64,
    [8, 8, 1],
    { schedule: "interleaved", chunks: 3 },
    1,
    64,
    13.75,
    "51.4%",
  ),
  korthikantiRun(
    "korthikanti2022-530b",
    "Tables 3 and 5, row 530B (MT-NLG)",
    "MT-NLG 530B",
    [20480, 128, 105],
    280,
    [8, 35, 1],
    { schedule: "interleaved", chunks: 3 },
    1,
    280,
    37.83,
    "56.0%",
  ),
  korthikantiRun(
    "korthikanti2022-1t",
    "Tables 3 and 5, row 1T",
    "GPT 1T",
    [25600, 160, 128],
    512,
    [8, 64, 1],
    { schedule: "1f1b" },
    1,
    512,
    71.49,
    "56.3%",
    ["Non-interleaved 1F1B: Table 3 gives interleaving only for 175B and 530B"],
  ),
  korthikantiRun(
    "korthikanti2022-530b-dp8",
    "§6.3 (530B with 8-way data parallelism on 2,240 GPUs)",
    "MT-NLG 530B",
    [20480, 128, 105],
    2240,
    [8, 35, 8],
    { schedule: "interleaved", chunks: 3 },
    1,
    2240,
    39.15,
    "54.2%",
    [
      "Global batch 2,240 (280 per data-parallel replica, as in the single-replica run): the section gives the iteration time, not the batch",
    ],
  ),
];

// ---- MT-NLG, BLOOM, OPT (2021-22) --------------------------------------------------------------

const MTNLG_ASSUMPTIONS = [
  "Micro-batch size 1 and DeepSpeed's 1F1B schedule; full recomputation; ZeRO-1 data parallelism: §2.4 gives only degrees, batch and times",
  "Numbers read from a copy of §2.4 (llm-analysis' MT-NLG example, which quotes it); the paper's PDF was not in our search corpus. The copy calls the GPUs 40GB A100s; Selene's DGX A100 nodes hold 80GB A100s, which we use. Each iteration time reproduces the printed TFLOP/s with Eq. (3) of narayanan2021efficient to within 1%",
];

/** MT-NLG rows of §2.4: [GPUs, data-parallel degree, seconds per iteration, TFLOP/s per GPU]. */
const mtnlgRows: Array<[number, number, number, number]> = [
  [2240, 8, 60.1, 126],
  [2800, 10, 50.2, 121],
  [3360, 12, 44.4, 113],
];

const mtnlg: PublishedRun[] = mtnlgRows.map(([gpus, dp, seconds, tflops]) => ({
  id: `smith2022-530b-${gpus}`,
  source: "smith2022megatronturing",
  location: `§2.4 (${gpus / 8} DGX A100 nodes, batch 1920)`,
  model: "MT-NLG 530B",
  config: gpt(20480, 128, 105, 51200, 2048),
  gpu: "a100-sxm-80gb",
  gpuCount: gpus,
  layout: { tp: 8, pp: 35, cp: 1, ep: 1, dp, zeroStage: 1, recompute: "full", schedule: "1f1b" },
  software: {
    framework: "deepspeed",
    name: "Megatron-DeepSpeed (2021)",
    attentionKernel: MEGATRON_2021_ATTENTION,
    tpCommOverlap: s(false, "Megatron-LM's tensor parallelism of 2021 has no communication overlap"),
    sequenceParallel: s(false, "sequence parallelism came a year later (korthikanti2023reducing)"),
    dpOverlap: assumed(false, "§2.4 does not describe an overlap"),
    recomputePolicy: assumed(
      "full (activation checkpointing of every layer)",
      "§2.4 does not say; the 530B model does not fit in memory without it",
    ),
    gradPrecision: assumed("bf16", "DeepSpeed reduces gradients in the training dtype by default; §2.4 does not say"),
  },
  seqLength: 2048,
  microBatchSize: 1,
  globalBatch: 1920,
  reported: { kind: "iteration-seconds", seconds },
  reportedText: `${seconds} s per iteration (${tflops} TFLOP/s per GPU)`,
  precision: "bf16",
  assumptions: MTNLG_ASSUMPTIONS,
}));

const bloom: PublishedRun = {
  id: "bigscience2022-bloom-176b",
  source: "bigscience2022bloom",
  location:
    "throughput from the run's log in bigscience train/tr11-176B-ml/README.md at 39ed811 (\"Important checkpoints\": TFLOPs: 149.77 at iteration 85,376, the end of the first epoch); layout, batch and micro-batch from the run's launch script, bigscience train/tr11-176B-ml/tr11-176B-ml.slurm",
  model: "BLOOM 176B",
  config: gpt(14336, 112, 70, 250880, 2048),
  gpu: "a100-sxm-80gb",
  gpuCount: 384,
  layout: {
    tp: 4,
    pp: 12,
    cp: 1,
    ep: 1,
    dp: 8,
    zeroStage: 1,
    recompute: "full",
    schedule: "1f1b",
    stageLayers: [5, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 5],
  },
  software: {
    framework: "deepspeed",
    name: "Megatron-DeepSpeed, BigScience fork (2022)",
    attentionKernel: assumed(
      "full",
      "the BigScience fork of Megatron-DeepSpeed computes attention with Megatron's baddbmm and fused masked softmax (with ALiBi added to the scores); BLOOM's training (March-July 2022) predates FlashAttention's release",
    ),
    tpCommOverlap: s(false, "Megatron-LM's tensor parallelism of 2022 has no communication overlap"),
    sequenceParallel: s(false, "not in the BigScience fork (tr11-176B-ml.slurm sets no such flag)"),
    dpOverlap: assumed(false, "the paper does not describe an overlap"),
    recomputePolicy: s("full (--checkpoint-activations)", "tr11-176B-ml.slurm: --checkpoint-activations"),
    gradPrecision: assumed("fp32", "DeepSpeed's bf16 optimizer keeps and reduces gradients in fp32"),
  },
  seqLength: 2048,
  microBatchSize: 2,
  globalBatch: 2048,
  reported: { kind: "megatron-tflops", tflopsPerGpu: 150 },
  reportedText: "about 150 TFLOP/s per GPU (Megatron-DeepSpeed's count, with recomputation)",
  nicBusBytesPerSecond: 5.6e9,
  precision: "bf16",
  assumptions: [
    "Stages hold 5, 6 × 10, 5 layers: the script partitions 'type:transformer|embedding', 72 units over 12 stages, so the end stages carry the embedding and the tied head in place of a layer",
    "DeepSpeed's bf16 optimizer (ZeRO stage 0 with its own stage-1 sharding)",
    "Network: 4 Omni-Path 100 Gb/s links per 8-GPU node (the paper's hardware section), 6.25 GB/s per GPU, taken at 90%",
    "150 TFLOP/s is the run's logged 149.77 rounded (the README's own plan also uses ~150); 156 TFLOP/s, which reading notes of the paper's §3.4.2 quote as its fastest configuration (the paper's text was not reached), matches the best benchmarks in train/tr11-176B-ml/chronicles-prequel.md (156.46 and 156.92 TFLOPs on 48 nodes at DP 8, TP 4, PP 12, micro-batch 2, for 182B trial shapes of 84 and 78 layers), not the run",
  ],
};

const opt: PublishedRun = {
  id: "zhang2022-opt-175b",
  source: "zhang2022opt",
  location: "§2.4 (992 80GB A100 GPUs, 147 TFLOP/s per GPU); Table 1 (batch 2M tokens)",
  model: "OPT-175B",
  config: gpt(12288, 96, 96, 50272, 2048),
  gpu: "a100-sxm-80gb",
  gpuCount: 992,
  layout: { tp: 8, pp: 1, cp: 1, ep: 1, dp: 124, zeroStage: 3, recompute: "full", schedule: "1f1b" },
  software: {
    framework: "fsdp2",
    name: "Metaseq with FairScale FSDP and Megatron-LM tensor parallelism (2021-22); FSDP2's profile is the nearest",
    attentionKernel: assumed(
      "full",
      "training ran from October 2021 to January 2022, before FlashAttention (May 2022)",
    ),
    tpCommOverlap: s(false, "Megatron-LM's tensor parallelism of 2021 has no communication overlap"),
    sequenceParallel: s(false, "sequence parallelism came later (korthikanti2023reducing)"),
    dpOverlap: assumed(true, "FairScale FSDP overlaps its reduce-scatters with the backward pass by design"),
    recomputePolicy: assumed(
      "full (activation checkpointing)",
      "§2.4 does not say; the layout does not fit without it",
    ),
    gradPrecision: assumed("fp32", "§2.4 does not say"),
  },
  seqLength: 2048,
  microBatchSize: 8,
  globalBatch: 992,
  reported: { kind: "megatron-tflops", tflopsPerGpu: 147 },
  reportedText: "147 TFLOP/s per GPU",
  precision: "bf16",
  assumptions: [
    "Tensor parallelism 8 (Megatron-LM's, as §2.4 says) with FSDP over the remaining 124 ranks, full sharding",
    "Global batch 992 sequences of 2,048 tokens (8 per data-parallel rank, 2.03M tokens, which the paper rounds to 2M), processed as one micro-batch of 8",
    "147 TFLOP/s counted as Megatron-LM counts it (with recomputation): the paper does not define its FLOP count",
  ],
};

// ---- Llama 3 (2024) -----------------------------------------------------------------------------

const llama3Stages = [7, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 7];
const LLAMA3_ASSUMPTIONS = [
  "FSDP that shards optimizer states and gradients and does not reshard parameters after the forward pass (§3.3.2), rank order [TP, CP, PP, DP] (§3.3.2)",
  "One layer fewer on the first and last stages (§3.3.2), so 7 + 14 × 8 + 7 = 126",
  "Interleaved schedule with 4 chunks per stage (about two layers per chunk) and micro-batch 1: the paper describes a tunable interleaved schedule and gives neither value",
  "MFU as Table 4 prints it; the paper does not say whether its FLOP count halves causal attention",
];

const LLAMA3_SOFTWARE: RunSoftware = {
  framework: "fsdp2",
  name: "Meta's 4D-parallel training stack (2024), FSDP for data parallelism",
  attentionKernel: assumed(
    "causal-skip",
    "§3.3 does not name its attention kernel; a 2024 H100 stack runs a FlashAttention-class kernel",
  ),
  tpCommOverlap: assumed(false, "§3.3.2 does not describe one"),
  sequenceParallel: assumed(true, "§3.3.2 does not say; tensor parallelism of 2024 runs with it"),
  dpOverlap: s(true, "§3.3.2: FSDP's communication overlapped with compute"),
  recomputePolicy: s("none at 8K (trains without activation checkpointing)", "grattafiori2024llama3 §3.3.2"),
  gradPrecision: s("fp32", "§3.3.2: gradients reduce-scattered in fp32"),
};

const llama3: PublishedRun[] = [
  { gpus: 8192, cp: 1, dp: 64, seq: 8192, batch: 2048, mfu: 0.43, tflops: 430, row: "first row (8,192 GPUs)" },
  { gpus: 16384, cp: 1, dp: 128, seq: 8192, batch: 2048, mfu: 0.41, tflops: 400, row: "second row (16,384 GPUs)" },
  {
    gpus: 16384,
    cp: 16,
    dp: 8,
    seq: 131072,
    batch: 128,
    mfu: 0.38,
    tflops: 380,
    row: "third row (16,384 GPUs, 131,072 tokens; the table prints DP 4)",
  },
].map((r) => ({
  id: `grattafiori2024-405b-${r.gpus}-${r.seq}`,
  source: "grattafiori2024llama3",
  location: `Table 4, ${r.row}`,
  model: "Llama 3 405B",
  config: "llama-3.1-405b",
  gpu: "h100-sxm",
  gpuCount: r.gpus,
  layout: {
    tp: 8,
    pp: 16,
    cp: r.cp,
    ep: 1,
    dp: r.dp,
    zeroStage: 3 as const,
    reshardAfterForward: false,
    recompute: "none" as const,
    schedule: "interleaved" as const,
    chunks: 4,
    stageLayers: llama3Stages,
    rankOrder: "tp-cp-pp-dp" as const,
  },
  software: LLAMA3_SOFTWARE,
  seqLength: r.seq,
  microBatchSize: 1,
  globalBatch: r.batch,
  reported: { kind: "mfu" as const, mfu: r.mfu },
  reportedText: `${r.tflops} TFLOPs/GPU, ${Math.round(r.mfu * 100)}% BF16 MFU`,
  precision: "bf16",
  assumptions:
    r.cp > 1
      ? [
          ...LLAMA3_ASSUMPTIONS,
          "DP 8, as Table 4 of arXiv v3 prints it, where v1 prints DP 4: with TP 8, CP 16 and PP 16, DP 4 makes 8,192 GPUs and (16 sequences of 131,072 tokens per DP rank) 8.4M tokens per batch, while the row gives 16,384 GPUs and 16M tokens; DP 8 matches both",
        ]
      : LLAMA3_ASSUMPTIONS,
}));

// ---- MosaicML (llm-foundry scripts/train/benchmarking/README.md) --------------------------------

/** MPT sizes of llm-foundry's benchmark tables: [hidden, heads, layers] from scripts/train/yamls/pretrain/mpt-*.yaml. */
const MPT = {
  "125m": [768, 12, 12],
  "350m": [1024, 16, 24],
  "760m": [1536, 12, 24],
  "1b": [2048, 16, 24],
  "3b": [2560, 20, 32],
  "7b": [4096, 32, 32],
  "13b": [5120, 40, 40],
  "30b": [7168, 56, 48],
  "70b": [8192, 64, 80],
} satisfies Record<string, [number, number, number]>;

/** A model size of the MPT tables: a row naming any other fails to type-check. */
type MptSize = keyof typeof MPT;

/** The four bf16 tables, by heading. */
const MOSAIC_TABLES = {
  "h100-large": { heading: "H100 80GB BF16 (Large Scale, >= 128 GPUs)", gpu: "h100-sxm" },
  h100: { heading: "H100 80GB BF16", gpu: "h100-sxm" },
  "a100-80": { heading: "A100 80GB with 1600 Gbps node-node interconnect (RoCE)", gpu: "a100-sxm-80gb" },
  "a100-40": { heading: "A100 40GB with 1600 Gbps node-node interconnect (RoCE)", gpu: "a100-sxm-40gb" },
} as const;

const MOSAIC_COMMIT = "495218376830947dce625efabc4d86be7c47cc45";

const MOSAIC_ASSUMPTIONS = [
  "MPT models as GPT-style configurations: hidden size, heads and layers from llm-foundry's scripts/train/yamls/pretrain/mpt-*.yaml (commit 5e85bd6), vocabulary 50,368, learned positions as long as the sequence, biases, tied head; each row's NumParams column equals this configuration's exact parameter count",
  "Network: one 400 Gb/s NIC per H100 (the H100 tables do not say); the A100 clusters' 1,600 Gb/s per node as the tables' headings give it (200 Gb/s per GPU, the default)",
  "Micro-batch × gradient accumulation × GPUs = global batch in every row, so the model's microbatches per step are the table's GradAccum",
];

/**
 * Rows of the bf16 tables, in the README's order: [table, size, seq, GPUs, micro-batch, grad
 * accumulation, global batch, tokens/s/GPU, MFU as printed, sharding, activation checkpointing,
 * FSDP mixed-precision mode, NumParams].
 */
const mosaicRows: Array<
  [
    keyof typeof MOSAIC_TABLES,
    MptSize,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    "FULL_SHARD" | "SHARD_GRAD_OP",
    boolean,
    "DEFAULT" | "PURE",
    number,
  ]
> = [
  ["h100-large", "70b", 2048, 512, 8, 1, 4096, 1007, 41.25, "FULL_SHARD", true, "DEFAULT", 64862437376],
  ["h100-large", "70b", 2048, 256, 8, 1, 2048, 1035, 42.42, "FULL_SHARD", true, "DEFAULT", 64862437376],
  ["h100-large", "70b", 2048, 128, 8, 1, 1024, 1058, 43.36, "FULL_SHARD", true, "DEFAULT", 64862437376],
  ["h100-large", "30b", 2048, 512, 8, 1, 4096, 2115, 40.27, "FULL_SHARD", true, "DEFAULT", 29975214080],
  ["h100-large", "30b", 2048, 256, 8, 1, 2048, 2148, 40.89, "FULL_SHARD", true, "DEFAULT", 29975214080],
  ["h100-large", "30b", 2048, 128, 8, 1, 1024, 2199, 41.85, "FULL_SHARD", true, "DEFAULT", 29975214080],
  ["h100-large", "13b", 2048, 512, 16, 1, 8192, 4952, 41.12, "FULL_SHARD", true, "DEFAULT", 12853954560],
  ["h100-large", "13b", 2048, 256, 16, 1, 4096, 4989, 41.42, "FULL_SHARD", true, "DEFAULT", 12853954560],
  ["h100-large", "13b", 2048, 128, 16, 1, 2048, 5080, 42.18, "FULL_SHARD", true, "DEFAULT", 12853954560],
  ["h100-large", "7b", 2048, 512, 6, 1, 3072, 9670, 42.2, "FULL_SHARD", false, "DEFAULT", 6658859008],
  ["h100-large", "7b", 2048, 256, 6, 1, 1536, 10119, 44.15, "FULL_SHARD", false, "DEFAULT", 6658859008],
  ["h100-large", "7b", 2048, 128, 6, 1, 768, 10475, 45.71, "FULL_SHARD", false, "DEFAULT", 6658859008],
  ["h100-large", "3b", 2048, 512, 8, 1, 4096, 21664, 39.24, "SHARD_GRAD_OP", false, "DEFAULT", 2651837440],
  ["h100-large", "3b", 2048, 256, 8, 1, 2048, 22772, 41.25, "SHARD_GRAD_OP", false, "DEFAULT", 2651837440],
  ["h100-large", "3b", 2048, 128, 8, 1, 1024, 23422, 42.43, "SHARD_GRAD_OP", false, "DEFAULT", 2651837440],
  ["h100-large", "1b", 2048, 512, 12, 1, 6144, 39837, 36.65, "SHARD_GRAD_OP", false, "DEFAULT", 1315950592],
  ["h100-large", "1b", 2048, 256, 12, 1, 3072, 42555, 39.15, "SHARD_GRAD_OP", false, "DEFAULT", 1315950592],
  ["h100-large", "1b", 2048, 128, 12, 1, 1536, 44123, 40.6, "SHARD_GRAD_OP", false, "DEFAULT", 1315950592],
  ["h100", "70b", 2048, 64, 8, 4, 2048, 1039, 42.57, "FULL_SHARD", true, "DEFAULT", 64862437376],
  ["h100", "70b", 2048, 32, 2, 16, 1024, 882, 36.15, "FULL_SHARD", true, "DEFAULT", 64862437376],
  ["h100", "30b", 8192, 8, 1, 21, 168, 1384, 29.92, "FULL_SHARD", true, "DEFAULT", 30019254272],
  ["h100", "30b", 4096, 8, 1, 21, 168, 1802, 35.86, "FULL_SHARD", true, "DEFAULT", 29989894144],
  ["h100", "30b", 2048, 32, 14, 3, 1344, 2308, 43.92, "FULL_SHARD", true, "DEFAULT", 29975214080],
  ["h100", "30b", 2048, 16, 10, 3, 480, 2263, 43.07, "FULL_SHARD", true, "DEFAULT", 29975214080],
  ["h100", "30b", 2048, 8, 3, 21, 504, 2002, 38.11, "FULL_SHARD", true, "DEFAULT", 29975214080],
  ["h100", "30b", 1024, 8, 6, 21, 1008, 2084, 38.76, "FULL_SHARD", true, "DEFAULT", 29967874048],
  ["h100", "13b", 32768, 8, 1, 3, 24, 1976, 31.68, "FULL_SHARD", true, "DEFAULT", 13011240960],
  ["h100", "13b", 16384, 8, 3, 3, 72, 2985, 35.55, "FULL_SHARD", true, "DEFAULT", 12927354880],
  ["h100", "13b", 4096, 8, 10, 3, 240, 4717, 41.6, "FULL_SHARD", true, "DEFAULT", 12864440320],
  ["h100", "13b", 2048, 64, 2, 1, 128, 4800, 39.86, "FULL_SHARD", false, "DEFAULT", 12853954560],
  ["h100", "13b", 2048, 32, 2, 1, 64, 4811, 39.95, "FULL_SHARD", false, "DEFAULT", 12853954560],
  ["h100", "13b", 2048, 16, 2, 1, 32, 4767, 39.58, "FULL_SHARD", false, "DEFAULT", 12853954560],
  ["h100", "13b", 2048, 8, 2, 1, 16, 4792, 39.79, "FULL_SHARD", false, "DEFAULT", 12853954560],
  ["h100", "13b", 1024, 8, 40, 3, 960, 5502, 44.27, "FULL_SHARD", true, "DEFAULT", 12848711680],
  ["h100", "7b", 65536, 8, 1, 2, 16, 1956, 28.59, "FULL_SHARD", true, "DEFAULT", 6918905856],
  ["h100", "7b", 32768, 8, 2, 2, 32, 3318, 30.94, "FULL_SHARD", true, "DEFAULT", 6784688128],
  ["h100", "7b", 8192, 8, 8, 2, 128, 6935, 37.14, "FULL_SHARD", true, "DEFAULT", 6684024832],
  ["h100", "7b", 4096, 8, 16, 2, 256, 8611, 40.42, "FULL_SHARD", true, "DEFAULT", 6667247616],
  ["h100", "7b", 2048, 8, 6, 1, 48, 10643, 46.44, "FULL_SHARD", false, "DEFAULT", 6658859008],
  ["h100", "7b", 1024, 8, 64, 2, 1024, 10203, 42.83, "FULL_SHARD", true, "DEFAULT", 6654664704],
  ["h100", "3b", 65536, 8, 1, 2, 16, 3262, 26.81, "FULL_SHARD", true, "DEFAULT", 2814366720],
  ["h100", "3b", 32768, 8, 3, 6, 144, 5873, 28.84, "FULL_SHARD", true, "DEFAULT", 2730480640],
  ["h100", "3b", 16384, 8, 1, 6, 48, 11152, 36.34, "FULL_SHARD", false, "DEFAULT", 2688537600],
  ["h100", "3b", 8192, 8, 3, 6, 144, 16578, 40.31, "FULL_SHARD", false, "DEFAULT", 2667566080],
  ["h100", "3b", 4096, 8, 5, 6, 240, 20964, 42.31, "FULL_SHARD", false, "DEFAULT", 2657080320],
  ["h100", "3b", 2048, 64, 6, 3, 1152, 22525, 40.8, "FULL_SHARD", false, "DEFAULT", 2651837440],
  ["h100", "3b", 2048, 32, 6, 3, 576, 23021, 41.7, "FULL_SHARD", false, "DEFAULT", 2651837440],
  ["h100", "3b", 2048, 16, 10, 3, 480, 24142, 43.73, "FULL_SHARD", false, "DEFAULT", 2651837440],
  ["h100", "3b", 1024, 8, 20, 6, 960, 27046, 46.2, "FULL_SHARD", false, "DEFAULT", 2649216000],
  ["h100", "3b", 512, 8, 40, 6, 1920, 27965, 46.32, "FULL_SHARD", false, "DEFAULT", 2647905280],
  ["h100", "1b", 65536, 8, 1, 2, 16, 5506, 26.34, "FULL_SHARD", true, "DEFAULT", 1445974016],
  ["h100", "1b", 32768, 8, 1, 4, 32, 12025, 33.54, "FULL_SHARD", false, "DEFAULT", 1378865152],
  ["h100", "1b", 16384, 8, 2, 4, 64, 19649, 35.22, "FULL_SHARD", false, "DEFAULT", 1345310720],
  ["h100", "1b", 8192, 8, 3, 4, 96, 29157, 37.73, "FULL_SHARD", false, "DEFAULT", 1328533504],
  ["h100", "1b", 4096, 8, 7, 4, 224, 38535, 40.26, "FULL_SHARD", false, "DEFAULT", 1320144896],
  ["h100", "1b", 2048, 64, 20, 1, 1280, 44402, 40.85, "FULL_SHARD", false, "DEFAULT", 1315950592],
  ["h100", "1b", 2048, 32, 20, 1, 640, 45130, 41.52, "FULL_SHARD", false, "DEFAULT", 1315950592],
  ["h100", "1b", 2048, 16, 20, 1, 320, 46037, 42.36, "FULL_SHARD", false, "DEFAULT", 1315950592],
  ["h100", "1b", 2048, 8, 14, 1, 112, 45455, 41.82, "FULL_SHARD", false, "DEFAULT", 1315950592],
  ["h100", "1b", 1024, 8, 18, 4, 576, 48910, 41.95, "FULL_SHARD", false, "DEFAULT", 1313853440],
  ["h100", "1b", 512, 8, 56, 4, 1792, 52275, 43.21, "FULL_SHARD", false, "DEFAULT", 1312804864],
  ["h100", "760m", 32768, 8, 1, 2, 16, 16291, 31.84, "FULL_SHARD", false, "DEFAULT", 807656448],
  ["h100", "760m", 16384, 8, 3, 2, 48, 27815, 33.57, "FULL_SHARD", false, "DEFAULT", 782490624],
  ["h100", "760m", 8192, 8, 6, 2, 96, 41825, 34.84, "FULL_SHARD", false, "DEFAULT", 769907712],
  ["h100", "760m", 4096, 8, 12, 2, 192, 55459, 35.83, "FULL_SHARD", false, "DEFAULT", 763616256],
  ["h100", "760m", 2048, 32, 24, 1, 768, 67971, 37.57, "FULL_SHARD", false, "DEFAULT", 760470528],
  ["h100", "760m", 2048, 16, 24, 1, 384, 68551, 37.89, "FULL_SHARD", false, "DEFAULT", 760470528],
  ["h100", "760m", 2048, 8, 24, 2, 384, 63147, 34.9, "FULL_SHARD", false, "DEFAULT", 760470528],
  ["h100", "760m", 1024, 8, 48, 2, 768, 78581, 39.76, "FULL_SHARD", false, "DEFAULT", 758897664],
  ["h100", "760m", 512, 8, 96, 2, 1536, 83749, 40.42, "FULL_SHARD", false, "DEFAULT", 758111232],
  ["a100-80", "70b", 2048, 64, 8, 4, 2048, 410, 53.33, "FULL_SHARD", true, "PURE", 64862437376],
  ["a100-80", "70b", 2048, 32, 2, 16, 1024, 373, 48.56, "FULL_SHARD", true, "PURE", 64862437376],
  ["a100-80", "30b", 8192, 8, 1, 21, 168, 574, 39.38, "FULL_SHARD", true, "DEFAULT", 30019254272],
  ["a100-80", "30b", 4096, 8, 1, 21, 168, 814, 51.37, "FULL_SHARD", true, "DEFAULT", 29989894144],
  ["a100-80", "30b", 2048, 8, 3, 21, 504, 916, 55.3, "FULL_SHARD", true, "DEFAULT", 29975214080],
  ["a100-80", "30b", 1024, 8, 6, 21, 1008, 946, 55.82, "FULL_SHARD", true, "DEFAULT", 29967874048],
  ["a100-80", "30b", 512, 8, 12, 21, 2016, 967, 56.4, "FULL_SHARD", true, "DEFAULT", 29964204032],
  ["a100-80", "13b", 32768, 8, 1, 3, 24, 1016, 51.69, "FULL_SHARD", true, "DEFAULT", 13011240960],
  ["a100-80", "13b", 16384, 8, 3, 3, 72, 1431, 54.07, "FULL_SHARD", true, "DEFAULT", 12927354880],
  ["a100-80", "13b", 8192, 8, 5, 3, 120, 1795, 56.07, "FULL_SHARD", true, "DEFAULT", 12885411840],
  ["a100-80", "13b", 4096, 8, 10, 3, 240, 2060, 57.62, "FULL_SHARD", true, "DEFAULT", 12864440320],
  ["a100-80", "13b", 2048, 8, 2, 3, 48, 2262, 59.57, "FULL_SHARD", false, "DEFAULT", 12853954560],
  ["a100-80", "13b", 1024, 8, 40, 3, 960, 2330, 59.48, "FULL_SHARD", true, "DEFAULT", 12848711680],
  ["a100-80", "7b", 65536, 8, 1, 2, 16, 1013, 46.97, "FULL_SHARD", true, "DEFAULT", 6918905856],
  ["a100-80", "7b", 32768, 8, 2, 2, 32, 1672, 49.46, "FULL_SHARD", true, "DEFAULT", 6784688128],
  ["a100-80", "7b", 16384, 8, 4, 2, 64, 2453, 51.96, "FULL_SHARD", true, "DEFAULT", 6717579264],
  ["a100-80", "7b", 8192, 8, 8, 2, 128, 3206, 54.47, "FULL_SHARD", true, "DEFAULT", 6684024832],
  ["a100-80", "7b", 4096, 8, 16, 2, 256, 3684, 54.84, "FULL_SHARD", true, "DEFAULT", 6667247616],
  ["a100-80", "7b", 2048, 8, 6, 2, 96, 4641, 64.23, "FULL_SHARD", false, "DEFAULT", 6658859008],
  ["a100-80", "7b", 1024, 8, 64, 2, 1024, 4357, 58.01, "FULL_SHARD", true, "DEFAULT", 6654664704],
  ["a100-80", "3b", 65536, 8, 1, 2, 16, 1767, 46.05, "FULL_SHARD", true, "DEFAULT", 2814366720],
  ["a100-80", "3b", 32768, 8, 3, 6, 144, 3029, 47.18, "FULL_SHARD", true, "DEFAULT", 2730480640],
  ["a100-80", "3b", 16384, 8, 1, 6, 48, 5529, 57.13, "FULL_SHARD", false, "DEFAULT", 2688537600],
  ["a100-80", "3b", 8192, 8, 3, 6, 144, 7695, 59.34, "FULL_SHARD", false, "DEFAULT", 2667566080],
  ["a100-80", "3b", 4096, 8, 5, 6, 240, 9457, 60.53, "FULL_SHARD", false, "DEFAULT", 2657080320],
  ["a100-80", "3b", 2048, 8, 10, 2, 160, 10811, 62.11, "FULL_SHARD", false, "DEFAULT", 2651837440],
  ["a100-80", "3b", 1024, 8, 20, 6, 960, 11580, 62.73, "FULL_SHARD", false, "DEFAULT", 2649216000],
  ["a100-80", "3b", 512, 8, 40, 6, 1920, 12127, 63.71, "FULL_SHARD", false, "DEFAULT", 2647905280],
  ["a100-80", "1b", 65536, 8, 1, 2, 16, 3044, 46.18, "FULL_SHARD", true, "DEFAULT", 1445974016],
  ["a100-80", "1b", 32768, 8, 1, 4, 32, 6275, 55.52, "FULL_SHARD", false, "DEFAULT", 1378865152],
  ["a100-80", "1b", 16384, 8, 2, 4, 64, 9956, 56.6, "FULL_SHARD", false, "DEFAULT", 1345310720],
  ["a100-80", "1b", 8192, 8, 3, 4, 96, 13814, 56.69, "FULL_SHARD", false, "DEFAULT", 1328533504],
  ["a100-80", "1b", 4096, 8, 7, 4, 224, 17807, 59.0, "FULL_SHARD", false, "DEFAULT", 1320144896],
  ["a100-80", "1b", 2048, 8, 14, 4, 448, 20513, 59.86, "FULL_SHARD", false, "DEFAULT", 1315950592],
  ["a100-80", "1b", 1024, 8, 18, 4, 576, 22112, 60.15, "FULL_SHARD", false, "DEFAULT", 1313853440],
  ["a100-80", "1b", 512, 8, 56, 4, 1792, 23148, 60.68, "FULL_SHARD", false, "DEFAULT", 1312804864],
  ["a100-80", "760m", 65536, 8, 1, 2, 16, 4143, 45.34, "FULL_SHARD", true, "DEFAULT", 857988096],
  ["a100-80", "760m", 32768, 8, 1, 2, 16, 8802, 54.57, "FULL_SHARD", false, "DEFAULT", 807656448],
  ["a100-80", "760m", 16384, 8, 3, 2, 48, 14274, 54.64, "FULL_SHARD", false, "DEFAULT", 782490624],
  ["a100-80", "760m", 8192, 8, 6, 2, 96, 20933, 55.31, "FULL_SHARD", false, "DEFAULT", 769907712],
  ["a100-80", "760m", 4096, 8, 12, 2, 192, 27351, 56.05, "FULL_SHARD", false, "DEFAULT", 763616256],
  ["a100-80", "760m", 2048, 8, 24, 2, 384, 32434, 56.85, "FULL_SHARD", false, "DEFAULT", 760470528],
  ["a100-80", "760m", 1024, 8, 48, 2, 768, 29765, 47.76, "FULL_SHARD", false, "DEFAULT", 758897664],
  ["a100-80", "760m", 512, 8, 96, 2, 1536, 29446, 45.07, "FULL_SHARD", false, "DEFAULT", 758111232],
  ["a100-80", "350m", 65536, 8, 1, 2, 16, 7524, 52.7, "FULL_SHARD", false, "DEFAULT", 420997120],
  ["a100-80", "350m", 32768, 8, 2, 2, 32, 13652, 52.46, "FULL_SHARD", false, "DEFAULT", 387442688],
  ["a100-80", "350m", 16384, 8, 4, 2, 64, 23559, 53.28, "FULL_SHARD", false, "DEFAULT", 370665472],
  ["a100-80", "350m", 8192, 8, 8, 2, 128, 36569, 53.8, "FULL_SHARD", false, "DEFAULT", 362276864],
  ["a100-80", "350m", 4096, 8, 16, 2, 256, 49555, 53.31, "FULL_SHARD", false, "DEFAULT", 358082560],
  ["a100-80", "350m", 2048, 8, 32, 2, 512, 58782, 51.62, "FULL_SHARD", false, "DEFAULT", 355985408],
  ["a100-80", "350m", 1024, 8, 64, 2, 1024, 64813, 50.51, "FULL_SHARD", false, "DEFAULT", 354936832],
  ["a100-80", "350m", 512, 8, 128, 2, 2048, 69330, 50.61, "FULL_SHARD", false, "DEFAULT", 354412544],
  ["a100-80", "125m", 65536, 8, 1, 2, 16, 20368, 54.13, "FULL_SHARD", false, "DEFAULT", 174070272],
  ["a100-80", "125m", 32768, 8, 2, 2, 32, 36407, 52.71, "FULL_SHARD", false, "DEFAULT", 148904448],
  ["a100-80", "125m", 16384, 8, 4, 2, 64, 60040, 50.61, "FULL_SHARD", false, "DEFAULT", 136321536],
  ["a100-80", "125m", 8192, 8, 8, 2, 128, 90392, 48.85, "FULL_SHARD", false, "DEFAULT", 130030080],
  ["a100-80", "125m", 4096, 8, 16, 2, 256, 118396, 46.08, "FULL_SHARD", false, "DEFAULT", 126884352],
  ["a100-80", "125m", 2048, 8, 40, 2, 640, 142830, 44.79, "FULL_SHARD", false, "DEFAULT", 125311488],
  ["a100-80", "125m", 2048, 8, 32, 2, 512, 141737, 44.45, "FULL_SHARD", false, "DEFAULT", 125311488],
  ["a100-80", "125m", 1024, 8, 64, 2, 1024, 156468, 43.15, "FULL_SHARD", false, "DEFAULT", 124525056],
  ["a100-80", "125m", 512, 8, 128, 2, 2048, 165681, 42.56, "FULL_SHARD", false, "DEFAULT", 124131840],
  ["a100-40", "70b", 2048, 128, 4, 1, 512, 376, 48.91, "FULL_SHARD", true, "PURE", 64862437376],
  ["a100-40", "70b", 2048, 64, 2, 1, 128, 276, 35.87, "FULL_SHARD", true, "PURE", 64862437376],
  ["a100-40", "30b", 2048, 128, 6, 1, 768, 865, 52.25, "FULL_SHARD", true, "PURE", 29975214080],
  ["a100-40", "30b", 2048, 32, 4, 1, 128, 857, 51.74, "FULL_SHARD", true, "PURE", 29975214080],
  ["a100-40", "13b", 8192, 8, 1, 16, 128, 1407, 43.95, "FULL_SHARD", true, "PURE", 12885411840],
  ["a100-40", "13b", 4096, 8, 2, 16, 256, 1603, 44.85, "FULL_SHARD", true, "PURE", 12864440320],
  ["a100-40", "13b", 2048, 128, 16, 1, 2048, 1972, 51.93, "FULL_SHARD", true, "PURE", 12853954560],
  ["a100-40", "13b", 2048, 64, 16, 1, 1024, 1976, 52.04, "FULL_SHARD", true, "PURE", 12853954560],
  ["a100-40", "13b", 2048, 32, 14, 1, 448, 1998, 52.62, "FULL_SHARD", true, "PURE", 12853954560],
  ["a100-40", "13b", 2048, 16, 10, 1, 160, 1993, 52.5, "FULL_SHARD", true, "PURE", 12853954560],
  ["a100-40", "13b", 2048, 8, 4, 16, 512, 1668, 43.94, "FULL_SHARD", true, "PURE", 12853954560],
  ["a100-40", "13b", 1024, 8, 8, 16, 1024, 1727, 44.07, "FULL_SHARD", true, "PURE", 12848711680],
  ["a100-40", "13b", 512, 8, 16, 16, 2048, 1763, 44.28, "FULL_SHARD", true, "PURE", 12846090240],
  ["a100-40", "7b", 16384, 8, 1, 4, 32, 2249, 47.65, "FULL_SHARD", true, "PURE", 6717579264],
  ["a100-40", "7b", 8192, 8, 3, 4, 96, 2887, 49.04, "FULL_SHARD", true, "PURE", 6684024832],
  ["a100-40", "7b", 4096, 8, 6, 4, 192, 3366, 50.11, "FULL_SHARD", true, "PURE", 6667247616],
  ["a100-40", "7b", 2048, 128, 18, 1, 2304, 3623, 50.14, "FULL_SHARD", true, "PURE", 6658859008],
  ["a100-40", "7b", 2048, 64, 18, 1, 1152, 3665, 50.73, "FULL_SHARD", true, "PURE", 6658859008],
  ["a100-40", "7b", 2048, 32, 18, 1, 576, 3725, 51.55, "FULL_SHARD", true, "PURE", 6658859008],
  ["a100-40", "7b", 2048, 16, 16, 1, 256, 3645, 50.44, "FULL_SHARD", true, "PURE", 6658859008],
  ["a100-40", "7b", 2048, 8, 12, 4, 384, 3679, 50.92, "FULL_SHARD", true, "PURE", 6658859008],
  ["a100-40", "7b", 1024, 8, 24, 4, 768, 3854, 51.31, "FULL_SHARD", true, "PURE", 6654664704],
  ["a100-40", "7b", 512, 8, 48, 4, 1536, 3895, 50.85, "FULL_SHARD", true, "PURE", 6652567552],
  ["a100-40", "3b", 32768, 8, 1, 4, 32, 2955, 46.03, "FULL_SHARD", true, "PURE", 2730480640],
  ["a100-40", "3b", 16384, 8, 2, 8, 128, 4465, 46.14, "FULL_SHARD", true, "PURE", 2688537600],
  ["a100-40", "3b", 8192, 8, 1, 8, 64, 7149, 55.13, "FULL_SHARD", false, "PURE", 2667566080],
  ["a100-40", "3b", 4096, 8, 2, 8, 128, 8777, 56.18, "FULL_SHARD", false, "PURE", 2657080320],
  ["a100-40", "3b", 2048, 128, 6, 1, 768, 9538, 54.8, "FULL_SHARD", false, "PURE", 2651837440],
  ["a100-40", "3b", 2048, 64, 6, 1, 384, 9736, 55.94, "FULL_SHARD", false, "PURE", 2651837440],
  ["a100-40", "3b", 2048, 32, 6, 1, 192, 9914, 56.96, "FULL_SHARD", false, "PURE", 2651837440],
  ["a100-40", "3b", 2048, 16, 5, 1, 80, 9750, 56.02, "FULL_SHARD", false, "PURE", 2651837440],
  ["a100-40", "3b", 2048, 8, 5, 8, 320, 10065, 57.82, "FULL_SHARD", false, "PURE", 2651837440],
  ["a100-40", "3b", 1024, 8, 10, 8, 640, 10731, 58.14, "FULL_SHARD", false, "PURE", 2649216000],
  ["a100-40", "3b", 512, 8, 20, 8, 1280, 11324, 59.49, "FULL_SHARD", false, "PURE", 2647905280],
  ["a100-40", "1b", 32768, 8, 1, 4, 32, 5095, 45.07, "FULL_SHARD", true, "PURE", 1378865152],
  ["a100-40", "1b", 16384, 8, 1, 8, 64, 9715, 55.23, "FULL_SHARD", false, "PURE", 1345310720],
  ["a100-40", "1b", 8192, 8, 2, 8, 128, 13474, 55.29, "FULL_SHARD", false, "PURE", 1328533504],
  ["a100-40", "1b", 4096, 8, 4, 8, 256, 16856, 55.85, "FULL_SHARD", false, "PURE", 1320144896],
  ["a100-40", "1b", 2048, 128, 10, 1, 1280, 18647, 54.41, "FULL_SHARD", false, "PURE", 1315950592],
  ["a100-40", "1b", 2048, 64, 10, 1, 640, 19001, 55.44, "FULL_SHARD", false, "PURE", 1315950592],
  ["a100-40", "1b", 2048, 32, 10, 1, 320, 15555, 45.39, "FULL_SHARD", false, "PURE", 1315950592],
  ["a100-40", "1b", 2048, 16, 8, 1, 128, 19085, 55.69, "FULL_SHARD", false, "PURE", 1315950592],
  ["a100-40", "1b", 2048, 8, 8, 8, 512, 19271, 56.23, "FULL_SHARD", false, "PURE", 1315950592],
  ["a100-40", "1b", 1024, 8, 16, 8, 1024, 20959, 57.02, "FULL_SHARD", false, "PURE", 1313853440],
  ["a100-40", "1b", 512, 8, 32, 8, 2048, 21782, 57.1, "FULL_SHARD", false, "PURE", 1312804864],
  ["a100-40", "760m", 32768, 8, 1, 4, 32, 7183, 44.53, "FULL_SHARD", true, "PURE", 807656448],
  ["a100-40", "760m", 16384, 8, 1, 4, 32, 13914, 53.26, "FULL_SHARD", false, "PURE", 782490624],
  ["a100-40", "760m", 8192, 8, 3, 4, 96, 20106, 53.12, "FULL_SHARD", false, "PURE", 769907712],
  ["a100-40", "760m", 4096, 8, 6, 4, 192, 25863, 53.0, "FULL_SHARD", false, "PURE", 763616256],
  ["a100-40", "760m", 2048, 128, 12, 1, 1536, 28940, 50.73, "FULL_SHARD", false, "PURE", 760470528],
  ["a100-40", "760m", 2048, 64, 12, 1, 768, 29344, 51.44, "FULL_SHARD", false, "PURE", 760470528],
  ["a100-40", "760m", 2048, 32, 12, 1, 384, 29648, 51.97, "FULL_SHARD", false, "PURE", 760470528],
  ["a100-40", "760m", 2048, 16, 12, 1, 192, 29607, 51.9, "FULL_SHARD", false, "PURE", 760470528],
  ["a100-40", "760m", 2048, 8, 12, 4, 384, 30173, 52.89, "FULL_SHARD", false, "PURE", 760470528],
  ["a100-40", "760m", 1024, 8, 24, 4, 768, 33422, 53.63, "FULL_SHARD", false, "PURE", 758897664],
  ["a100-40", "760m", 512, 8, 48, 4, 1536, 34938, 53.47, "FULL_SHARD", false, "PURE", 758111232],
  ["a100-40", "350m", 32768, 8, 1, 4, 32, 13416, 51.55, "FULL_SHARD", false, "PURE", 387442688],
  ["a100-40", "350m", 16384, 8, 2, 4, 64, 22896, 51.78, "FULL_SHARD", false, "PURE", 370665472],
  ["a100-40", "350m", 8192, 8, 4, 4, 128, 34933, 51.39, "FULL_SHARD", false, "PURE", 362276864],
  ["a100-40", "350m", 4096, 8, 8, 4, 256, 46833, 50.38, "FULL_SHARD", false, "PURE", 358082560],
  ["a100-40", "350m", 2048, 128, 18, 1, 2304, 51934, 45.61, "FULL_SHARD", false, "PURE", 355985408],
  ["a100-40", "350m", 2048, 64, 18, 1, 1152, 52689, 46.27, "FULL_SHARD", false, "PURE", 355985408],
  ["a100-40", "350m", 2048, 32, 18, 1, 576, 53811, 47.26, "FULL_SHARD", false, "PURE", 355985408],
  ["a100-40", "350m", 2048, 16, 18, 1, 288, 55413, 48.66, "FULL_SHARD", false, "PURE", 355985408],
  ["a100-40", "350m", 2048, 8, 16, 4, 512, 55995, 49.17, "FULL_SHARD", false, "PURE", 355985408],
  ["a100-40", "350m", 1024, 8, 32, 4, 1024, 62523, 48.73, "FULL_SHARD", false, "PURE", 354936832],
  ["a100-40", "350m", 512, 8, 64, 4, 2048, 66284, 48.39, "FULL_SHARD", false, "PURE", 354412544],
  ["a100-40", "125m", 32768, 8, 1, 4, 32, 32651, 47.27, "FULL_SHARD", false, "PURE", 148904448],
  ["a100-40", "125m", 16384, 8, 2, 3, 48, 55484, 46.77, "FULL_SHARD", false, "PURE", 136321536],
  ["a100-40", "125m", 8192, 8, 5, 3, 120, 86858, 46.94, "FULL_SHARD", false, "PURE", 130030080],
  ["a100-40", "125m", 4096, 8, 13, 3, 312, 115162, 44.82, "FULL_SHARD", false, "PURE", 126884352],
  ["a100-40", "125m", 2048, 128, 26, 1, 3328, 123936, 38.86, "FULL_SHARD", false, "PURE", 125311488],
  ["a100-40", "125m", 2048, 64, 26, 1, 1664, 125234, 39.27, "FULL_SHARD", false, "PURE", 125311488],
  ["a100-40", "125m", 2048, 32, 26, 1, 832, 127122, 39.86, "FULL_SHARD", false, "PURE", 125311488],
  ["a100-40", "125m", 2048, 16, 26, 1, 416, 130535, 40.93, "FULL_SHARD", false, "PURE", 125311488],
  ["a100-40", "125m", 2048, 8, 26, 3, 624, 136334, 42.75, "FULL_SHARD", false, "PURE", 125311488],
  ["a100-40", "125m", 1024, 8, 52, 3, 1248, 148289, 40.89, "FULL_SHARD", false, "PURE", 124525056],
  ["a100-40", "125m", 512, 8, 104, 3, 2496, 156735, 40.26, "FULL_SHARD", false, "PURE", 124131840],
];

function mosaicSoftware(ckpt: boolean, mode: "DEFAULT" | "PURE", sharding: string): RunSoftware {
  return {
    framework: "fsdp2",
    name: "Composer with PyTorch FSDP (FSDP1, llm-foundry v0.0.4 sweep on PyTorch 2.1); FSDP2's profile is the nearest",
    attentionKernel: s(
      "causal-skip",
      "llm-foundry commit 5e85bd6: scripts/train/benchmarking/submit_benchmarks.py L144 sets attn_impl 'triton', and llmfoundry/models/layers/flash_attn_triton.py L129 (forward) and L302 (backward) stop the key loop at the diagonal when causal",
    ),
    tpCommOverlap: s(false, "no tensor parallelism"),
    sequenceParallel: s(false, "no tensor parallelism"),
    dpOverlap: s(true, `PyTorch FSDP (${sharding}) overlaps its gathers and reduce-scatters with compute by design`),
    recomputePolicy: s(
      ckpt ? "full (FSDP activation checkpointing of every block)" : "none",
      "the table's 'Activation Checkpointing' column",
    ),
    gradPrecision:
      mode === "PURE"
        ? s("bf16", "the table's MP Mode PURE: Composer's get_mixed_precision reduces in the training dtype")
        : assumed(
            "fp32",
            "MP Mode DEFAULT: Composer's get_mixed_precision reduces in fp32 in the versions we read and in bf16 in older ones; the Composer version of the sweep is not stated",
          ),
  };
}

/** One row of an MPT table, in the columns of {@link mosaicRows} (its first names the table). */
type MosaicRow = (typeof mosaicRows)[number];

function mosaicRun(
  tableId: string,
  table: { heading: string; gpu: string },
  row: MosaicRow,
  precision: "bf16" | "fp8",
): PublishedRun {
  const [, size, seq, gpus, mb, , batch, tps, mfu, sharding, ckpt, mode, params] = row;
  const [h, a, layers] = MPT[size];
  return {
    id: `mosaicml-${tableId}-mpt-${size}-${seq}-${gpus}-mb${mb}`,
    source: "mosaicml2023benchmarks",
    location: `scripts/train/benchmarking/README.md at ${MOSAIC_COMMIT.slice(0, 9)}, table '${table.heading}', row ${size} / ${seq} / ${gpus} GPUs / micro-batch ${mb}`,
    model: `MPT-${size.toUpperCase()}`,
    config: gpt(h, a, layers, 50368, seq),
    gpu: table.gpu,
    gpuCount: gpus,
    layout: {
      tp: 1,
      pp: 1,
      cp: 1,
      ep: 1,
      dp: gpus,
      zeroStage: sharding === "FULL_SHARD" ? 3 : 2,
      recompute: ckpt ? "full" : "none",
      schedule: "1f1b",
    },
    software: mosaicSoftware(ckpt, mode, sharding),
    seqLength: seq,
    microBatchSize: mb,
    globalBatch: batch,
    reported: { kind: "tokens-per-second-per-gpu", tokensPerSecondPerGpu: tps },
    reportedText: `${tps} tokens/s/GPU (MFU ${mfu}% as MosaicML counts it${precision === "fp8" ? ", against the fp8 peak" : ""})`,
    publishedParameters: params,
    precision,
    ...(precision === "fp8" ? { fp8: MOSAIC_FP8 } : {}),
    assumptions: MOSAIC_ASSUMPTIONS,
  };
}

const mosaic: PublishedRun[] = mosaicRows.map((row) => mosaicRun(row[0], MOSAIC_TABLES[row[0]], row, "bf16"));

const MOSAIC_FP8_COMMIT = MOSAIC_COMMIT.slice(0, 7);

/** How MosaicML's fp8 table used fp8. */
const MOSAIC_FP8: Fp8Recipe = {
  library: s(
    "Transformer Engine v0.10",
    `llm-foundry scripts/train/benchmarking/submit_benchmarks.py L412-L417 at ${MOSAIC_FP8_COMMIT} (the fp8 runs on H100 install TransformerEngine@v0.10)`,
  ),
  scaling: s(
    "delayed scaling per tensor: HYBRID format (E4M3 forward, E5M2 for gradients), amax history of 16 steps reduced with max",
    "Composer's default for precision amp_fp8 (mosaicml/composer composer/core/precision.py L73-L78 at 915fab7, August 2023, the file's last change before the table's first commit b2a43a1 of October 2023); the table does not name the Composer version of its sweep",
  ),
  layers: s(
    "the attention block's Wqkv and out_proj and the MLP's up_proj and down_proj (te.Linear); attention's score and value matmuls stay in the (bf16) attention kernel",
    `submit_benchmarks.py L469-L470 at ${MOSAIC_FP8_COMMIT} sets fc_type 'te' for fp8 on H100; at 5e85bd6 llmfoundry/models/layers/fc.py L12 maps 'te' to te.Linear, which attention.py L559 and L586 and ffn.py L103 and L109 build those layers from`,
  ),
  headInFp8: s(
    false,
    "the MPT head is the tied embedding: llmfoundry/models/mpt/modeling_mpt.py L799 at 5e85bd6 computes the logits with self.transformer.wte(out, True), not a te.Linear",
  ),
  sourceMfuPeak: s(
    "fp8",
    `collect_results.py L116-L117 at ${MOSAIC_FP8_COMMIT} takes the peak for the run's precision from Composer's GPU_AVAILABLE_FLOPS, whose H100 SXM 'amp_fp8' entry is 3.958e15 / 2 (composer/callbacks/speed_monitor.py L32 at 122b805, the Composer of July 2023); the table's MFU column is its Model TFLOP column over 1,979 TFLOP/s (3b at 2,048 tokens: 548 / 1,979 = 27.7%)`,
  ),
};

/** The seven rows of the table 'H100 80GB FP8', in the README's order (columns as {@link mosaicRows}). */
const mosaicFp8Rows: MosaicRow[] = [
  ["h100", "3b", 32768, 8, 3, 6, 144, 5856, 14.38, "FULL_SHARD", true, "DEFAULT", 2730480640],
  ["h100", "3b", 8192, 8, 3, 6, 144, 19146, 23.28, "FULL_SHARD", false, "DEFAULT", 2667566080],
  ["h100", "3b", 2048, 8, 10, 6, 480, 30586, 27.7, "FULL_SHARD", false, "DEFAULT", 2651837440],
  ["h100", "3b", 512, 8, 40, 6, 1920, 36527, 30.25, "FULL_SHARD", false, "DEFAULT", 2647905280],
  ["h100", "1b", 32768, 8, 1, 4, 32, 12580, 17.55, "FULL_SHARD", false, "DEFAULT", 1378865152],
  ["h100", "1b", 8192, 8, 2, 4, 64, 32010, 20.71, "FULL_SHARD", false, "DEFAULT", 1328533504],
  ["h100", "1b", 512, 8, 56, 4, 1792, 70315, 29.06, "FULL_SHARD", false, "DEFAULT", 1312804864],
];

const mosaicFp8: PublishedRun[] = mosaicFp8Rows.map((row) =>
  mosaicRun("h100-fp8", { heading: "H100 80GB FP8", gpu: "h100-sxm" }, row, "fp8"),
);

// ---- torchtitan ---------------------------------------------------------------------------------

const TT_FSDP_2024 = {
  attentionKernel: s<"full" | "causal-skip">(
    "causal-skip",
    "pytorch/torchtitan 1ea476e, torchtitan/models/llama/model.py L204: F.scaled_dot_product_attention(is_causal=True), whose flash backend skips the masked blocks",
  ),
  dpOverlap: s(true, "FSDP2 prefetches its all-gathers and overlaps its reduce-scatters with compute by design"),
  gradPrecision: s<"fp32" | "bf16">(
    "fp32",
    "pytorch/torchtitan 1ea476e, torchtitan/parallelisms/parallelize_llama.py L220-L221: MixedPrecisionPolicy(param_dtype=bf16, reduce_dtype=fp32)",
  ),
};

const TT_OP_SAC =
  "selective op: saves every matmul output except every second one and the attention output, recomputes the rest (pytorch/torchtitan 1ea476e, torchtitan/parallelisms/parallelize_llama.py L36-L57)";
const TT_OP_SAC_APPROX =
  "the model's 'selective' repeats only the attention core (Megatron-LM's policy); torchtitan's op policy repeats every second matmul of each layer instead and no attention, so the model under-counts its cost";

function torchtitanSoftware(recompute: "none" | "selective" | "full", tp: boolean, note = ""): RunSoftware {
  return {
    framework: "fsdp2",
    name: `torchtitan with FSDP2 (2024)${note}`,
    ...TT_FSDP_2024,
    tpCommOverlap: tp
      ? s(false, "the 405B table's first row lists no optimizations (asynchronous TP is the third row's)")
      : s(false, "no tensor parallelism"),
    sequenceParallel: tp
      ? s(
          true,
          "torchtitan's TP plan shards the norms with SequenceParallel (parallelize_llama.py L172-L200 at 1ea476e)",
        )
      : s(false, "no tensor parallelism"),
    recomputePolicy:
      recompute === "selective"
        ? s(TT_OP_SAC, "the table's 'Activation checkpointing' column")
        : s(recompute === "full" ? "full (every block)" : "none", "the table's 'Activation checkpointing' column"),
    ...(recompute === "selective" ? { recomputeApproximate: TT_OP_SAC_APPROX } : {}),
  };
}

const TORCHTITAN_ASSUMPTIONS = [
  "FSDP2 over all data-parallel ranks with resharding after forward (parallelize_llama.py L232 at 1ea476e reshards every block but the last)",
  "Network of the A100 cluster not stated: one 200 Gb/s NIC per GPU assumed; WPS read as tokens per second per GPU (the only reading consistent with the printed MFU)",
];

const torchtitanRows: Array<[string, string, string, number, number, "none" | "selective" | "full", number, string]> = [
  // [label, model, preset, seq, local batch, recompute, WPS, location]
  [
    "llama3-8b",
    "Llama 3 8B",
    "llama-3.1-8b",
    8192,
    1,
    "selective",
    2973,
    "Llama 3 table, row 8B / selective op (MFU 58.2%)",
  ],
  ["llama3-70b", "Llama 3 70B", "llama-3.1-70b", 8192, 1, "full", 331, "Llama 3 table, row 70B / full (MFU 51.7%)"],
  ["llama2-13b-none", "Llama 2 13B", "llama-2-13b", 4096, 2, "none", 2162, "Llama 2 table, row 13B / no (MFU 61.1%)"],
  [
    "llama2-13b-selective",
    "Llama 2 13B",
    "llama-2-13b",
    4096,
    2,
    "selective",
    1904,
    "Llama 2 table, row 13B / selective op (MFU 53.8%)",
  ],
  [
    "llama2-70b-selective",
    "Llama 2 70B",
    "llama-2-70b",
    4096,
    1,
    "selective",
    355,
    "Llama 2 table, row 70B / batch 1 / selective op (MFU 50.8%)",
  ],
  [
    "llama2-70b-full",
    "Llama 2 70B",
    "llama-2-70b",
    4096,
    2,
    "full",
    353,
    "Llama 2 table, row 70B / batch 2 / full (MFU 50.5%)",
  ],
];

const TT_PERF_AT = "docs/performance.md at 3faaa1a";

const torchtitanA100: PublishedRun[] = torchtitanRows.map(
  ([label, model, preset, seq, local, recompute, wps, location]) => ({
    id: `torchtitan-${label}`,
    source: "pytorch2024torchtitanperf",
    location: `${TT_PERF_AT}, ${location}`,
    model,
    config: preset,
    gpu: "a100-sxm-80gb",
    gpuCount: 64,
    layout: { tp: 1, pp: 1, cp: 1, ep: 1, dp: 64, zeroStage: 3 as const, recompute, schedule: "1f1b" as const },
    software: torchtitanSoftware(recompute, false),
    seqLength: seq,
    microBatchSize: local,
    globalBatch: 64 * local,
    reported: { kind: "tokens-per-second-per-gpu" as const, tokensPerSecondPerGpu: wps },
    reportedText: `${wps} WPS`,
    precision: "bf16",
    assumptions: TORCHTITAN_ASSUMPTIONS,
  }),
);

const H100_500W =
  "The GPUs are H100s with 96GB of HBM2e at a 500 W power limit (the source's hardware section), not the 700 W H100 SXM of gpus.ts; the source says their peak lies between the SXM's and the NVL's and is not known to it, so the SXM's peak is used on both sides, as the source does";

const torchtitan405b: PublishedRun = {
  id: "torchtitan-llama3-405b-128-h100",
  source: "pytorch2024torchtitanperf",
  location: `${TT_PERF_AT}, Llama 3.1 table, row 405B / batch 2 / full / no optimizations (MFU 29.0%)`,
  model: "Llama 3.1 405B",
  config: "llama-3.1-405b",
  gpu: "h100-sxm",
  gpuCount: 128,
  layout: { tp: 8, pp: 1, cp: 1, ep: 1, dp: 16, zeroStage: 3, recompute: "full", schedule: "1f1b" },
  software: torchtitanSoftware("full", true),
  seqLength: 8192,
  microBatchSize: 2,
  globalBatch: 32,
  reported: { kind: "tokens-per-second-per-gpu", tokensPerSecondPerGpu: 109 },
  reportedText: "109 WPS (MFU 29.0%)",
  precision: "bf16",
  assumptions: [
    "FSDP 16 × TP 8 with local batch 2 (global batch 32), as the text under the table says; sequence length 8,192 from train_configs/llama3_405b.toml L30 at 3faaa1a",
    H100_500W,
    "The row as first published (docs/performance.md L11 at 9515a14, PR #554) read 118 WPS at 37.1% MFU; PR #556 (3faaa1a), whose message says only that the H100 peak was updated, changed it to 109 WPS at 29.0% and kept the Float8 rows' 177 and 185 WPS, rescaling only their MFU (27.77% to 23.46%, 29.03% to 24.52%), so the Float8 rows were not re-run beside the new bf16 row: their gain over it is 177/109 = 1.62 here and 177/118 = 1.50 at the first publication",
  ],
};

const TT_H100_AT = "benchmarks/llama3_h100_202412_torchtitan.md at 820504e";

function torchtitanH100Software(compiled: boolean): RunSoftware {
  return {
    framework: "fsdp2",
    name: "torchtitan 9dec370 with FSDP2 (December 2024)",
    attentionKernel: s(
      "causal-skip",
      "pytorch/torchtitan 9dec370, torchtitan/models/llama/model.py L209: F.scaled_dot_product_attention(is_causal=True)",
    ),
    tpCommOverlap: s(false, "no tensor parallelism"),
    sequenceParallel: s(false, "no tensor parallelism"),
    dpOverlap: s(true, "FSDP2 prefetches its all-gathers and overlaps its reduce-scatters with compute by design"),
    recomputePolicy: s(
      "selective op: saves every matmul output except every second one and the attention output (torchtitan/parallelisms/parallelize_llama.py L214-L258 at 9dec370)",
      "the table's caption ('Selective activation checkpointing') and train_configs/llama3_8b.toml L54-L55 at 9dec370 (mode 'selective', option 'op')",
    ),
    recomputeApproximate: TT_OP_SAC_APPROX,
    gradPrecision: s(
      "fp32",
      "torchtitan/config_manager.py L389-L392 at 9dec370: mixed_precision_reduce defaults to float32",
    ),
    compiled: s(compiled, "the table's 'Techniques' column"),
  };
}

const torchtitanH100: PublishedRun[] = (
  [
    [8, 16, false, 5762, "Table 1, row FSDP"],
    [8, 16, true, 6667, "Table 1, row FSDP + torch.compile"],
    [128, 256, false, 5605, "Table 3, row FSDP"],
    [128, 256, true, 6514, "Table 3, row FSDP + torch.compile"],
  ] as Array<[number, number, boolean, number, string]>
).map(([gpus, batch, compiled, tps, row]) => ({
  id: `torchtitan-h100-llama31-8b-${gpus}${compiled ? "-compile" : ""}`,
  source: "pytorch2024torchtitanh100",
  location: `${TT_H100_AT}, ${row}`,
  model: "Llama 3.1 8B",
  config: "llama-3.1-8b",
  gpu: "h100-sxm",
  gpuCount: gpus,
  layout: { tp: 1, pp: 1, cp: 1, ep: 1, dp: gpus, zeroStage: 3, recompute: "selective", schedule: "1f1b" },
  software: torchtitanH100Software(compiled),
  seqLength: 8192,
  microBatchSize: 2,
  globalBatch: batch,
  reported: { kind: "tokens-per-second-per-gpu", tokensPerSecondPerGpu: tps },
  reportedText: `${tps.toLocaleString("en-US")} TPS/GPU`,
  precision: "bf16",
  assumptions: [
    "Sequence length 8,192: the tables do not give it; train_configs/llama3_8b.toml L30 at 9dec370 (the torchtitan commit the benchmark names) sets it",
    "FSDP2 resharding after forward (parallelize_llama.py L333 at 9dec370 reshards every block but the last)",
    H100_500W,
  ],
}));

// ---- torchtitan, Float8 rows ---------------------------------------------------------------------

/** torchtitan's Float8: torchao's Float8Linear in place of every nn.Linear but the output layer. */
function torchtitanFloat8(
  commit: string,
  lines: { filter: string; scaling: string; docstring: string },
  mfu: Sourced<"fp8" | "bf16" | "none">,
): Fp8Recipe {
  return {
    library: s("torchao float8 (Float8Linear)", `pytorch/torchtitan ${commit}, torchtitan/float8.py L44`),
    scaling: assumed(
      "dynamic scaling per tensor for inputs, weights and output gradients (E4M3 forward, E5M2 for gradients)",
      `the table does not list its float8 settings; torchtitan ${commit}'s defaults are dynamic for all three (torchtitan/config_manager.py ${lines.scaling}), and torchtitan/float8.py ${lines.docstring} says only dynamic tensor scaling is supported`,
    ),
    layers: s(
      "every nn.Linear of the transformer blocks (attention's wq, wk, wv, wo and the MLP's w1, w2, w3); attention's score and value matmuls stay in the bf16 fused attention",
      `torchtitan ${commit}, torchtitan/float8.py ${lines.filter} (convert_to_float8_training with module_filter_fn fqn != 'output')`,
    ),
    headInFp8: s(false, `torchtitan ${commit}, torchtitan/float8.py ${lines.filter}: the output layer is left out`),
    sourceMfuPeak: mfu,
  };
}

const torchtitan405bFloat8: PublishedRun[] = (
  [
    ["float8", 177, "23.46%", false, "row 405B / batch 2 / full / Float8"],
    ["float8-asynctp", 185, "24.52%", true, "row 405B / batch 2 / full / Float8 + Async TP"],
  ] as Array<[string, number, string, boolean, string]>
).map(([label, wps, mfu, asyncTp, row]) => ({
  ...torchtitan405b,
  id: `torchtitan-llama3-405b-128-h100-${label}`,
  location: `${TT_PERF_AT}, Llama 3.1 table, ${row} (MFU ${mfu})`,
  software: {
    ...torchtitanSoftware("full", true, ", Float8"),
    tpCommOverlap: asyncTp
      ? s(
          true,
          "the table's 'Optimizations' column: Async TP overlaps the tensor-parallel collectives with the matmuls",
        )
      : s(false, "the table's 'Optimizations' column lists Float8 only"),
  },
  reported: { kind: "tokens-per-second-per-gpu" as const, tokensPerSecondPerGpu: wps },
  reportedText: `${wps} WPS (MFU ${mfu}, against the fp8 peak)`,
  precision: "fp8" as const,
  fp8: torchtitanFloat8(
    "3faaa1a",
    { filter: "L95-L102", scaling: "L472-L489", docstring: "L89" },
    s(
      "fp8",
      "the printed MFU is against a peak twice the bf16 one: 177 WPS at 23.46% and the bf16 row's 109 WPS at 29.0% give peaks in the ratio 2.0, although train.py L74 and L347 and torchtitan/utils.py L138-L163 at 3faaa1a divide by the bf16 peak (989 TFLOP/s); footnote [^2] (L59) says Float8 leaves attention's matmuls in bf16",
    ),
  ),
  assumptions: [
    ...torchtitan405b.assumptions,
    "Float8 settings from train_configs/llama3_405b.toml L56-L59 at 3faaa1a (float8 linear, FSDP float8 all-gather, precomputed dynamic scales); the table does not give each row's settings, and the step model prices FSDP's all-gathers in bf16 in every case",
  ],
}));

const TT_FLOAT8_H100 = torchtitanFloat8(
  "9dec370",
  { filter: "L93-L100", scaling: "L552-L569", docstring: "L87" },
  s(
    "none",
    `${TT_H100_AT}, L21: no MFU for Float8 rows, because bf16 and fp8 tensor cores both run and 'the definition of MFU under such scenario is not well-defined'`,
  ),
);

function torchtitanH100Float8(
  id: string,
  row: string,
  config: string,
  model: string,
  gpus: number,
  layout: RunLayout,
  seq: number,
  micro: number,
  tps: number,
  asyncTp: boolean,
  extra: string[],
): PublishedRun {
  const { recomputeApproximate, ...base } = torchtitanH100Software(true);
  return {
    id: `torchtitan-h100-${id}`,
    source: "pytorch2024torchtitanh100",
    location: `${TT_H100_AT}, ${row}`,
    model,
    config,
    gpu: "h100-sxm",
    gpuCount: gpus,
    layout,
    software: {
      ...base,
      name: "torchtitan 9dec370 with FSDP2, torch.compile and Float8 (December 2024)",
      tpCommOverlap:
        layout.tp > 1
          ? s(asyncTp, asyncTp ? "the table's 'AsyncTP' row" : "the table's '2D' row (no AsyncTP)")
          : s(false, "no tensor parallelism"),
      sequenceParallel:
        layout.tp > 1
          ? s(true, "torchtitan's TP plan shards the norms with SequenceParallel (parallelize_llama.py at 9dec370)")
          : s(false, "no tensor parallelism"),
      ...(layout.recompute === "full"
        ? { recomputePolicy: s("full (every block)", "the table's caption ('Full activation checkpointing')") }
        : { recomputeApproximate }),
      compiled: s(true, "the table's caption or 'Techniques' column (torch.compile)"),
    },
    seqLength: seq,
    microBatchSize: micro,
    globalBatch: layout.dp * micro,
    reported: { kind: "tokens-per-second-per-gpu", tokensPerSecondPerGpu: tps },
    reportedText: `${tps.toLocaleString("en-US")} TPS/GPU`,
    precision: "fp8",
    fp8: TT_FLOAT8_H100,
    assumptions: [...extra, H100_500W],
  };
}

const TT_SEQ_8B =
  "Sequence length 8,192: the table does not give it; train_configs/llama3_8b.toml L30 at 9dec370 sets it";
const TT_RESHARD =
  "FSDP2 resharding after forward (parallelize_llama.py L333 at 9dec370 reshards every block but the last)";

const fsdpOnly = (dp: number, recompute: "selective" | "full", cp = 1): RunLayout => ({
  tp: 1,
  pp: 1,
  cp,
  ep: 1,
  dp,
  zeroStage: 3,
  recompute,
  schedule: "1f1b",
});

const torchtitanH100Float8Runs: PublishedRun[] = [
  torchtitanH100Float8(
    "llama31-8b-8-compile-float8",
    "Table 1, row FSDP + torch.compile + Float8",
    "llama-3.1-8b",
    "Llama 3.1 8B",
    8,
    fsdpOnly(8, "selective"),
    8192,
    2,
    8532,
    false,
    [TT_SEQ_8B, TT_RESHARD],
  ),
  torchtitanH100Float8(
    "llama31-8b-128-compile-float8",
    "Table 3, row FSDP + torch.compile + Float8",
    "llama-3.1-8b",
    "Llama 3.1 8B",
    128,
    fsdpOnly(128, "selective"),
    8192,
    2,
    8380,
    false,
    [TT_SEQ_8B, TT_RESHARD],
  ),
  ...(
    [
      [8, 1, 32768, 3890],
      [4, 2, 65536, 2540],
      [2, 4, 131072, 1071],
      [1, 8, 262144, 548],
    ] as Array<[number, number, number, number]>
  ).map(([fsdp, cp, seq, tps]) =>
    torchtitanH100Float8(
      `llama31-8b-fsdp${fsdp}-cp${cp}-float8`,
      `Table 2, row FSDP ${fsdp}, CP ${cp} (sequence length ${seq.toLocaleString("en-US")})`,
      "llama-3.1-8b",
      "Llama 3.1 8B",
      8,
      fsdpOnly(fsdp, "full", cp),
      seq,
      1,
      tps,
      false,
      [
        "Global batch = FSDP degree × local batch 1: the table gives the local batch only",
        "Context parallelism priced as the step model's all-gather of K and V; torch's context parallel of December 2024 passes K and V around a ring, which the model does not describe",
        TT_RESHARD,
      ],
    ),
  ),
  ...(
    [
      [false, 829, "Table 4, row 2D"],
      [true, 876, "Table 4, row 2D + AsyncTP"],
    ] as Array<[boolean, number, string]>
  ).map(([asyncTp, tps, row]) =>
    torchtitanH100Float8(
      `llama31-70b-256${asyncTp ? "-asynctp" : ""}-float8`,
      row,
      "llama-3.1-70b",
      "Llama 3.1 70B",
      256,
      { tp: 8, pp: 1, cp: 1, ep: 1, dp: 32, zeroStage: 3, recompute: "full", schedule: "1f1b" },
      8192,
      16,
      tps,
      asyncTp,
      [
        "Sequence length 8,192: the table does not give it; train_configs/llama3_70b.toml L30 at 9dec370 sets it",
        "Local batch 16 run as one micro-batch: torchtitan 9dec370 has no gradient accumulation",
        TT_RESHARD,
      ],
    ),
  ),
];

// ---- Megatron-Core weak scaling (NVIDIA/Megatron-LM README, images/model_table.png) -------------

const weakScalingRows: Array<[string, number, number, number, number, number, number, number, number, number]> = [
  // [size, heads, hidden, layers, tp, pp, dp, gpus, batch, TFLOP/s per GPU] (the table's MFU column rounds these)
  ["1.7B", 16, 2048, 24, 1, 1, 48, 48, 192, 408.8],
  ["7.1B", 32, 4096, 30, 2, 1, 48, 96, 192, 465.9],
  ["16B", 48, 6144, 32, 4, 1, 48, 192, 192, 489.1],
  ["32B", 56, 7168, 48, 8, 1, 48, 384, 192, 459.6],
  ["70B", 64, 8192, 84, 8, 2, 48, 768, 384, 419.7],
  ["119B", 80, 10240, 92, 8, 4, 48, 1536, 768, 420.5],
  ["177B", 96, 12288, 96, 8, 6, 48, 2304, 1152, 432.8],
  ["314B", 128, 16384, 96, 8, 8, 48, 3072, 1536, 474.4],
  ["462B", 144, 18432, 112, 8, 16, 48, 6144, 3072, 459.9],
];

const README_AT =
  "NVIDIA/Megatron-LM README.md at d98e8a6 ('Performance Benchmarking'; images/model_table.png, added in f2e5db4, July 2024)";

const weakScaling: PublishedRun[] = weakScalingRows.map(([size, heads, h, L, tp, pp, dp, gpus, batch, tflops]) => ({
  id: `megatron2024-weak-${size.toLowerCase().replace(".", "-")}`,
  source: "megatronlm2024weakscaling",
  location: `${README_AT}, model table, row ${size}`,
  model: `GPT ${size}`,
  config: { ...gpt(h, heads, L, 131072, 4096), tie_word_embeddings: false },
  gpu: "h100-sxm",
  gpuCount: gpus,
  layout: { tp, pp, cp: 1, ep: 1, dp, zeroStage: 1, recompute: "none", schedule: "1f1b" },
  software: {
    framework: "megatron",
    name: "Megatron-Core r0.8.0 (2024; the strong-scaling plot's legend names the version)",
    attentionKernel: assumed(
      "causal-skip",
      "Megatron-Core of 2024 runs Transformer Engine's fused (flash) attention; the README does not name the kernel",
    ),
    tpCommOverlap: s(tp > 1, tp > 1 ? "README: '--tp-comm-overlap'" : "no tensor parallelism"),
    sequenceParallel:
      tp > 1
        ? s(true, "README's --tp-comm-overlap requires --sequence-parallel in Megatron-LM")
        : s(false, "no tensor parallelism"),
    dpOverlap: s(true, "README: '--overlap-grad-reduce', '--overlap-param-gather'"),
    recomputePolicy: assumed("none", "the README does not say"),
    gradPrecision: assumed("fp32", "Megatron-LM's default (the README does not say)"),
  },
  seqLength: 4096,
  microBatchSize: 1,
  globalBatch: batch,
  reported: { kind: "megatron-core-tflops" as const, tflopsPerGpu: tflops },
  reportedText: `${tflops} TFLOP/s per GPU`,
  precision: "bf16",
  assumptions: [
    "GPT-style model (LayerNorm, GeLU MLP of width 4h) with the README's vocabulary of 131,072 and an untied output layer (the printed sizes, 1.7B and 7.1B, match only an untied head); the README gives hidden size, heads and layers only",
    "Micro-batch 1 and the non-interleaved 1F1B schedule: the README gives neither (112, 92 and 84 layers do not split evenly into interleaved chunks on 16, 4 and 2 stages)",
    "Distributed optimizer (ZeRO-1), which --overlap-param-gather requires",
  ],
}));

// ---- NVIDIA DGX Cloud benchmarking recipes 24.11.1 (NeMo, H100 bf16) ----------------------------

const DGXC_AT = "NVIDIA/dgxc-benchmarking v24.11.1 (commit 35a9aec)";

function nemotronConfig(
  h: number,
  ffn: number,
  L: number,
  heads: number,
  kv: number,
): Readonly<Record<string, unknown>> {
  return {
    model_type: "nemotron",
    hidden_size: h,
    intermediate_size: ffn,
    num_hidden_layers: L,
    num_attention_heads: heads,
    num_key_value_heads: kv,
    hidden_act: "relu2",
    vocab_size: 256000,
    max_position_embeddings: 4096,
    partial_rotary_factor: 0.5,
    tie_word_embeddings: false,
    attention_bias: false,
    mlp_bias: false,
  };
}

function llamaConfig(layers: number, kv: number): Readonly<Record<string, unknown>> {
  return {
    model_type: "llama",
    hidden_size: 16384,
    intermediate_size: 53248,
    num_hidden_layers: layers,
    num_attention_heads: 128,
    num_key_value_heads: kv,
    vocab_size: 128256,
    max_position_embeddings: 131072,
    tie_word_embeddings: false,
  };
}

interface DgxcRecipe {
  key: string;
  model: string;
  readme: string;
  yaml: string;
  container: string;
  seq: number;
  tp: number;
  cp: number;
  micro: number;
  /** Stage count per column. */
  pp: number[];
  /** Interleaved chunks per column (1: not interleaved). */
  vp: number[];
  gpus: number[];
  batch: number[];
  seconds: number[];
  config: (column: number) => string | Readonly<Record<string, unknown>>;
  flashAttention: string | null;
  tpOverlap: [boolean, string];
  sp: [boolean, string];
  recompute: ["none" | "selective", string];
  gradSync: string;
  overlap: string;
  extra?: string[];
  /** Columns that run a proxy with fewer layers than the released model, and where the source says so. */
  proxy?: { columns: number[]; source: string };
  /** The fp8 table of the same README: its heading, its step times per column (same columns as bf16). */
  fp8: {
    readme: string;
    seconds: number[];
    /** Where the recipe turns fp8 on and sets its scaling (the yaml's fp8_* lines and the launch script's overrides). */
    switches: string;
    /** Where the README gives the peaks its MFU divides by. */
    peakLine: string;
    /** Assumptions of the fp8 columns only. */
    extra?: string[];
  };
}

const DGXC_RECIPES: DgxcRecipe[] = [
  {
    key: "nemotron4-15b",
    model: "Nemotron-4 15B",
    readme: "nemotron/README_15b.md, table 'Nemotron4 15b 24.11 BF16 (TP=4, PP=1, MBS=4, GA=4)'",
    yaml: "nemotron/nemotron4-15b-synth.yaml",
    container: "NeMo 24.09",
    seq: 4096,
    tp: 4,
    cp: 1,
    micro: 4,
    pp: [1, 1, 1, 1, 1, 1, 1, 1],
    vp: [1, 1, 1, 1, 1, 1, 1, 1],
    gpus: [16, 32, 64, 128, 256, 512, 1024, 2048],
    batch: [64, 128, 256, 512, 1024, 2048, 4096, 8192],
    seconds: [2.83, 2.86, 2.86, 2.89, 2.88, 2.92, 2.92, 2.96],
    config: () => nemotronConfig(6144, 24576, 32, 48, 8),
    flashAttention: null,
    tpOverlap: [true, "L167: ub_tp_comm_overlap: True"],
    sp: [true, "L139: sequence_parallel: true"],
    recompute: ["none", "L134-L136: activations_checkpoint_granularity and method null"],
    gradSync: "L193: grad_sync_dtype: bf16",
    overlap: "L179-L180: overlap_grad_sync and overlap_param_sync true",
    fp8: {
      readme: "nemotron/README_15b.md, table 'Nemotron4 15b 24.11 FP8 (TP=4, PP=1, MBS=4, GA=4)'",
      seconds: [2.08, 2.07, 2.09, 2.08, 2.1, 2.12, 2.12, 2.18],
      switches:
        "nemotron/configure.sh L92, L102 and L104 (model.fp8, model.fp8_hybrid=True, +model.fp8_params from DTYPE) and nemotron/nemotron4-15b-synth.yaml L160-L165 (fp8_margin 0, fp8_interval 1, fp8_amax_history_len 1024, fp8_amax_compute_algo max)",
      peakLine: "nemotron/README_15b.md L41",
    },
  },
  {
    key: "nemotron4-340b",
    model: "Nemotron-4 340B",
    readme: "nemotron/README_340b.md, table 'Nemotron4 340b 24.11 BF16 (TP=8, PP=8, MBS=1, GA=16, VP=12)'",
    yaml: "nemotron/nemotron4-340b-synth.yaml",
    container: "NeMo 24.09",
    seq: 4096,
    tp: 8,
    cp: 1,
    micro: 1,
    pp: [8, 8, 8, 8, 8],
    vp: [12, 12, 12, 12, 12],
    gpus: [128, 256, 512, 1024, 2048],
    batch: [32, 64, 128, 256, 512],
    seconds: [4.61, 4.67, 4.7, 4.73, 4.84],
    config: () => nemotronConfig(18432, 73728, 96, 96, 8),
    flashAttention: null,
    tpOverlap: [
      true,
      "L172 sets ub_tp_comm_overlap: False, but nemotron/configure.sh L97 overrides it with model.ub_tp_comm_overlap=True for every Nemotron run, bf16 and fp8 alike",
    ],
    sp: [true, "L143: sequence_parallel: true"],
    recompute: [
      "selective",
      "L138: activations_checkpoint_granularity: selective (NeMo's selective is Megatron-LM's: the attention core)",
    ],
    gradSync: "L185: grad_sync_dtype: bf16",
    overlap: "L187-L188: overlap_grad_sync and overlap_param_sync true",
    fp8: {
      readme: "nemotron/README_340b.md, table 'Nemotron4 340b 24.11 FP8 (TP=8, PP=8, MBS=1, GA=16, VP=12)'",
      seconds: [3.16, 3.21, 3.26, 3.34, 3.49],
      switches:
        "nemotron/configure.sh L92, L102 and L104 (model.fp8, model.fp8_hybrid=True, +model.fp8_params from DTYPE) and nemotron/nemotron4-340b-synth.yaml L165-L170 (fp8_margin 0, fp8_interval 1, fp8_amax_history_len 1024, fp8_amax_compute_algo max)",
      peakLine: "nemotron/README_340b.md L39",
    },
  },
  {
    key: "llama31-8b",
    model: "Llama 3.1 8B",
    readme: "llama3.1/README_8b.md, table 'Llama 3.1 8b 24.09 BF16 (TP=1, PP=1, CP=2, MBS=1, GA=32)'",
    yaml: "llama3.1/llama3.1_8b.yaml",
    container: "NeMo 24.09",
    seq: 8192,
    tp: 1,
    cp: 2,
    micro: 1,
    pp: [1, 1, 1, 1, 1],
    vp: [1, 1, 1, 1, 1],
    gpus: [8, 16, 32, 64, 128],
    batch: [128, 256, 512, 1024, 2048],
    seconds: [12.91, 13.0, 13.05, 13.08, 13.1],
    config: () => "llama-3.1-8b",
    flashAttention: "L128: use_flash_attention: true",
    tpOverlap: [false, "L127: ub_tp_comm_overlap: false"],
    sp: [false, "L117: sequence_parallel: false"],
    recompute: ["none", "L112-L114: activations_checkpoint_granularity and method null"],
    gradSync: "L157: grad_sync_dtype: bf16",
    overlap: "L148-L149: overlap_grad_sync and overlap_param_sync true",
    fp8: {
      readme: "llama3.1/README_8b.md, table 'Llama 3.1 8b 24.09 FP8 (TP=1, PP=1, CP=2, MBS=1, GA=32)'",
      seconds: [9.67, 9.73, 9.75, 9.8, 9.82],
      switches:
        "llama3.1/configure.sh L114-L116 (model.fp8, model.fp8_hybrid, +model.fp8_params from DTYPE) and llama3.1/llama3.1_8b.yaml L123-L126 (fp8_margin 0, fp8_interval 1, fp8_amax_history_len 1024, fp8_amax_compute_algo max)",
      peakLine: "llama3.1/README_8b.md L39",
    },
  },
  {
    key: "llama31-70b",
    model: "Llama 3.1 70B",
    readme: "llama3.1/README_70b.md, table 'Llama 3.1 70b 24.09 BF16 (TP=4, PP=4, CP=2, VP=5, MBS=1, GA=64)'",
    yaml: "llama3.1/llama3.1_70b.yaml",
    container: "NeMo 24.09",
    seq: 8192,
    tp: 4,
    cp: 2,
    micro: 1,
    pp: [4, 4, 4, 4, 4, 4],
    vp: [5, 5, 5, 5, 5, 5],
    gpus: [64, 128, 256, 512, 1024, 2048],
    batch: [128, 256, 512, 1024, 2048, 4096],
    seconds: [14.72, 14.73, 14.8, 14.89, 14.92, 14.98],
    config: () => "llama-3.1-70b",
    flashAttention: "L130: use_flash_attention: true",
    tpOverlap: [true, "L129: ub_tp_comm_overlap: true"],
    sp: [true, "L117: sequence_parallel: true"],
    recompute: ["none", "L112-L114: activations_checkpoint_granularity and method null"],
    gradSync: "L161: grad_sync_dtype: bf16",
    overlap: "L152-L153: overlap_grad_sync and overlap_param_sync true",
    fp8: {
      readme: "llama3.1/README_70b.md, table 'Llama 3.1 70b 24.09 FP8 (TP=4, PP=4, CP=2, VP=5, MBS=1, GA=64)'",
      seconds: [11.01, 10.93, 11.16, 11.18, 11.28, 11.39],
      switches:
        "llama3.1/configure.sh L114-L116 (model.fp8, model.fp8_hybrid, +model.fp8_params from DTYPE) and llama3.1/llama3.1_70b.yaml L125-L128 (fp8_margin 0, fp8_interval 1, fp8_amax_history_len 1024, fp8_amax_compute_algo max)",
      peakLine: "llama3.1/README_70b.md L39",
    },
  },
  {
    key: "llama31-405b",
    model: "Llama 3.1 405B",
    readme:
      "llama3.1/README_405b.md, table 'Llama 3.1 405b 24.09 BF16 (TP=8, PP=9, CP=2, VP=7, MBS=1, GA=63)', whose columns give layers, GBS, PP and VP",
    yaml: "llama3.1/llama3.1_405b.yaml",
    container: "NeMo 24.09",
    seq: 8192,
    tp: 8,
    cp: 2,
    micro: 1,
    pp: [1, 3, 3, 9, 9, 9],
    vp: [1, 7, 7, 7, 7, 7],
    gpus: [32, 96, 192, 576, 1152, 2304],
    batch: [126, 126, 252, 252, 504, 1008],
    seconds: [8.85, 8.75, 16.93, 17.2, 17.52, 17.62],
    config: (c) => llamaConfig([7, 21, 42, 126, 126, 126][c] ?? 126, 16),
    flashAttention: "L136: use_flash_attention: true",
    tpOverlap: [true, "L135: ub_tp_comm_overlap: true"],
    sp: [true, "L123: sequence_parallel: true"],
    recompute: ["none", "L118-L120: activations_checkpoint_granularity and method null"],
    gradSync: "L164: grad_sync_dtype: bf16",
    overlap: "L155-L156: overlap_grad_sync and overlap_param_sync true",
    fp8: {
      readme:
        "llama3.1/README_405b.md, table 'Llama 3.1 405b 24.09 FP8 (TP=8, PP=9, CP=2, VP=7, MBS=1, GA=63)', whose columns give layers, GBS, PP and VP",
      seconds: [5.8, 5.71, 11.0, 11.24, 11.31, 12.35],
      switches:
        "llama3.1/configure.sh L114-L116 (model.fp8, model.fp8_hybrid, +model.fp8_params from DTYPE) and llama3.1/llama3.1_405b.yaml L131-L134 (fp8_margin 0, fp8_interval 1, fp8_amax_history_len 1024, fp8_amax_compute_algo max)",
      peakLine: "llama3.1/README_405b.md L40",
      extra: [
        "llama3.1/configure.sh L84-L85 set model.ub_tp_comm_overlap_cfg.proj_fprop.fp8_buf and fc2_fprop.fp8_buf to $FP8_ENABLED, so in fp8 two of the TP-overlap buffers (the attention output's and FC2's forward) move fp8; the step model prices every collective in bf16",
      ],
    },
    extra: [
      "The recipe's model has 16 query groups (llama3.1_405b.yaml L64: num_query_groups: 16), not the released model's 8; the configuration follows the recipe",
      "The 32-, 96- and 192-GPU columns are the recipe's proxies with 7, 21 and 42 layers (the table's 'Layers' row); the 96-GPU column's step time prints as '8.7  5', read as 8.75 s (its throughput, 117,965 tokens/s, is 126 × 8,192 / 8.75)",
    ],
    proxy: {
      columns: [0, 1, 2],
      source: "llama3.1/README_405b.md, the table's 'Layers' row (7, 21 and 42 layers for 32, 96 and 192 GPUs)",
    },
  },
  {
    key: "gpt3-175b",
    model: "GPT-3 175B",
    readme: "nemo_megatron/README_175b.md, table 'NeMo Megatron 24.11 BF16 (TP=4,PP=8, MBS=1, VP=12, SEQ=2048)'",
    yaml: "nemo_megatron/gpt3_175b_hydra.yaml",
    container: "NeMo 24.05",
    seq: 2048,
    tp: 4,
    cp: 1,
    micro: 1,
    pp: [8, 8, 8, 8, 8],
    vp: [12, 12, 12, 12, 12],
    gpus: [128, 256, 512, 1024, 2048],
    batch: [256, 512, 1024, 2048, 4096],
    seconds: [8.91, 8.95, 9.09, 9.01, 9.02],
    config: () => gpt(12288, 96, 96, 50257, 2048),
    flashAttention: null,
    tpOverlap: [true, "L119: ub_tp_comm_overlap: true"],
    sp: [true, "L90: sequence_parallel: true"],
    recompute: ["none", "L85-L87: activations_checkpoint_granularity and method null"],
    gradSync: "L155: grad_sync_dtype: bf16",
    overlap: "L141-L142: overlap_grad_sync and overlap_param_sync true",
    fp8: {
      readme: "nemo_megatron/README_175b.md, table 'NeMo Megatron 24.11 FP8 (TP=4,PP=8, MBS=1, VP=12, SEQ=2048)'",
      seconds: [5.92, 5.96, 6.44, 6.72, 6.24],
      switches:
        "nemo_megatron/launch.sh L67 (model.fp8 from DTYPE) and nemo_megatron/gpt3_175b_hydra.yaml L111-L118 (fp8_hybrid true, fp8_margin 0, fp8_interval 1, fp8_amax_history_len 1024, fp8_amax_compute_algo max, fp8_wgrad true) and L221 (fp8_params true)",
      peakLine: "nemo_megatron/README_175b.md L32",
    },
    extra: [
      "GPT-2's vocabulary of 50,257 (the recipe's GPT2BPETokenizer); Megatron-LM pads it to a multiple of 512, which adds 0.1% to the FLOPs and is left out",
    ],
  },
];

/** One column of a DGX Cloud recipe's bf16 or fp8 table as a run. */
function dgxcRun(r: DgxcRecipe, gpus: number, c: number, precision: "bf16" | "fp8"): PublishedRun {
  const pp = r.pp[c] ?? 1;
  const vp = r.vp[c] ?? 1;
  const batch = r.batch[c] ?? 0;
  const seconds = (precision === "fp8" ? r.fp8.seconds[c] : r.seconds[c]) ?? 0;
  const dp = gpus / (r.tp * r.cp * pp);
  return {
    id: precision === "fp8" ? `dgxc-${r.key}-fp8-${gpus}` : `dgxc-${r.key}-${gpus}`,
    source: "nvidia2024dgxcbenchmarking",
    location: `${DGXC_AT}, ${precision === "fp8" ? r.fp8.readme : r.readme}, column ${gpus}x H100`,
    model: r.model,
    config: r.config(c),
    gpu: "h100-sxm",
    gpuCount: gpus,
    layout: {
      tp: r.tp,
      pp,
      cp: r.cp,
      ep: 1,
      dp,
      zeroStage: 1,
      recompute: r.recompute[0],
      schedule: vp > 1 ? "interleaved" : "1f1b",
      ...(vp > 1 ? { chunks: vp } : {}),
    },
    software: {
      framework: "megatron",
      name: `${r.container} (Megatron-Core with Transformer Engine), NeMo Launcher recipe ${r.yaml}`,
      attentionKernel:
        r.flashAttention !== null
          ? s("causal-skip", `${DGXC_AT}, ${r.yaml} ${r.flashAttention}`)
          : assumed(
              "causal-skip",
              "Transformer Engine's fused attention of 2024 (cuDNN flash attention); the recipe does not name the kernel",
            ),
      tpCommOverlap: s(r.tpOverlap[0], `${r.yaml} ${r.tpOverlap[1]}`),
      sequenceParallel: s(r.sp[0], `${r.yaml} ${r.sp[1]}`),
      dpOverlap: s(true, `${r.yaml} ${r.overlap}`),
      recomputePolicy: s(r.recompute[0], `${r.yaml} ${r.recompute[1]}`),
      gradPrecision: s("bf16", `${r.yaml} ${r.gradSync}`),
    },
    seqLength: r.seq,
    microBatchSize: r.micro,
    globalBatch: batch,
    reported: { kind: "iteration-seconds", seconds },
    reportedText: `${seconds} s per step`,
    precision,
    ...(precision === "fp8" ? { fp8: dgxcFp8Recipe(r) } : {}),
    assumptions: [
      "Optimizer distributed_fused_adam (the recipe's optim.name) read as ZeRO-1: it shards optimizer states and reduces gradients once per step",
      "Network of NVIDIA's EOS cluster: 8 × 400 Gb/s compute links per DGX H100 (the repository's README), the default",
      ...(r.extra ?? []),
      ...(precision === "fp8"
        ? [
            "fp8_params: the recipe keeps the weights in fp8 (its +model.fp8_params or fp8_params), so the distributed optimizer's parameter all-gather could move 1 byte per parameter; the step model prices every collective in bf16",
            ...(r.fp8.extra ?? []),
          ]
        : []),
    ],
    ...(r.proxy?.columns.includes(c) ? { proxy: `${DGXC_AT}, ${r.proxy.source}` } : {}),
  };
}

/** The fp8 recipe of a DGX Cloud NeMo recipe's fp8 table. */
function dgxcFp8Recipe(r: DgxcRecipe): Fp8Recipe {
  return {
    library: s("Transformer Engine", `${DGXC_AT}, ${r.yaml}: transformer_engine true; ${r.container} container`),
    scaling: s(
      "delayed scaling per tensor: HYBRID format (E4M3 forward, E5M2 for gradients), amax history of 1,024 steps reduced with max, scale updated every step, margin 0",
      `${DGXC_AT}, ${r.fp8.switches}`,
    ),
    layers: assumed(
      "the linear layers of Transformer Engine's transformer layer (QKV, attention output, MLP); attention's score and value matmuls in bf16",
      "the recipes switch fp8 on without listing the layers (the Nemotron yamls comment 'enables fp8 in TransformerLayer forward'); in NVIDIA/Megatron-LM core_r0.9.0, which we take to be the Megatron-Core of these containers without having checked the containers, megatron/core/models/gpt/gpt_layer_specs.py L75-L77 and L150-L151 build QKV, the attention output, FC1 and FC2 from Transformer Engine linear modules, with TEDotProductAttention for the attention core",
    ),
    headInFp8: assumed(
      false,
      "the recipes do not say whether the output layer runs in fp8; in NVIDIA/Megatron-LM core_r0.9.0 (taken, unchecked, to be these containers' Megatron-Core) megatron/core/models/gpt/gpt_model.py L140 builds it as tensor_parallel.ColumnParallelLinear, a plain PyTorch GEMM that Transformer Engine's fp8_autocast does not reach; the step model prices the head in bf16 for every run",
    ),
    sourceMfuPeak: s(
      "fp8",
      `${DGXC_AT}, ${r.fp8.peakLine}: 'The peak theoretical throughput for H100 FP8 is 1979 TFLOPS and for H100 BF16 is 989 TFLOPS'; each fp8 table's MFU is against 1,979 TFLOP/s (Llama 3.1 8B on 8 GPUs: the bf16 table's 59.37% × 12.91 s / 9.67 s / 2 = 39.63%, as printed)`,
    ),
  };
}

const dgxc: PublishedRun[] = DGXC_RECIPES.flatMap((r) => r.gpus.map((gpus, c) => dgxcRun(r, gpus, c, "bf16")));

/** Every run the step model is validated against. */
export const PUBLISHED_RUNS: readonly PublishedRun[] = [
  ...narayanan,
  ...korthikanti,
  ...mtnlg,
  bloom,
  opt,
  ...llama3,
  ...mosaic,
  ...torchtitanA100,
  torchtitan405b,
  ...torchtitanH100,
  ...weakScaling,
  ...dgxc,
];

/**
 * Every fp8 run: the linear layers' matmuls in fp8, the rest in bf16. They are held apart from
 * {@link PUBLISHED_RUNS} (the bf16 runs the book's two kernel-efficiency constants are fitted on) and
 * fit the step model's fp8 efficiency (validation.ts, the fp8 group).
 */
export const PUBLISHED_FP8_RUNS: readonly PublishedRun[] = [
  ...mosaicFp8,
  ...torchtitan405bFloat8,
  ...torchtitanH100Float8Runs,
  ...DGXC_RECIPES.flatMap((r) => r.gpus.map((gpus, c) => dgxcRun(r, gpus, c, "fp8"))),
];

/** Runs we looked at and left out, with the reason (shown in the appendix). */
export const EXCLUDED_RUNS: readonly { model: string; source: string; reason: string }[] = [
  {
    model: "DeepSeek-V3 (671B MoE, 2,048 H800)",
    source: "deepseekai2024v3",
    reason:
      "Trained with the DualPipe schedule and a custom all-to-all overlapped with compute, neither of which the step model describes; the report gives GPU hours per trillion tokens, not an MFU",
  },
  {
    model: "GPT 175B and 530B under ZeRO-3 without model parallelism (Table 2)",
    source: "narayanan2021efficient",
    reason:
      "The step model predicts no loss of throughput as GPUs are added for these layouts, while the measured throughput fell from 144 to 44 TFLOPS per GPU (175B) and from 138 to 48 TFLOPS (530B); whatever limited the ZeRO-3 implementation of 2021 at more than a thousand ranks is outside the model, and these would be its worst misses by far",
  },
  {
    model: "MegaScale 175B and 530B",
    source: "jiang2024megascale",
    reason:
      "Parallel attention/MLP blocks, sliding-window attention and the LAMB optimizer change the model the FLOP count assumes; we could not read the throughput table's layouts in a source we could verify",
  },
  {
    model: "NeMo and Megatron-Bridge performance summaries (H100, B200, GB200)",
    source: "nvidia2025megatronbridgeperf",
    reason:
      "Every dense-model row is fp8 and was not read row by row for the fp8 group, which holds NVIDIA's fp8 H100 measurements of the same NeMo recipes from the DGX Cloud benchmarking tables; the bf16 rows are mixture-of-experts models (GPT-OSS 120B, Qwen3, DeepSeek-V3) whose families the model does not read, or GB200 and GB300 systems that the book's GPU data does not hold. The bf16 H100 measurements of the same NeMo recipes are in the data through NVIDIA's DGX Cloud benchmarking tables",
  },
  {
    model: "GB200 rows of later DGX Cloud benchmarking releases (Llama 3.1 405B, Nemotron-4 340B)",
    source: "nvidia2024dgxcbenchmarking",
    reason:
      "The book's GPU data has no GB200 record (its NVLink domain of 72 GPUs and its peak differ from the B200's); no source we read gives a bf16 B200 row for a model family the model reads, so Blackwell is not validated",
  },
];
