/**
 * Published training runs with their parallel layout and measured throughput: the data set the
 * step model (src/model/step.ts) is held against in the appendix on published runs. Imports
 * nothing.
 *
 * Each run records what its source prints (the model, the GPUs, every parallel degree given, the
 * batch, the sequence length and the throughput in the source's own unit) and where (table, row,
 * section). What a source leaves out is filled in by an assumption written next to the run; the
 * validation reports the error with every assumption in place, and never tunes an assumption per
 * run. Reported throughput is converted to MFU with the book's definition (model FLOPs with
 * attention, no recomputation, over the dense bf16 peak) by src/model/validation.ts.
 *
 * Kinds of reported throughput:
 * - `megatron-tflops`: TFLOP/s per GPU counted with Megatron-LM's Eq. (3) of narayanan2021efficient,
 *   $96BsLh^2(1 + s/(6h) + V/(16Lh))$ per iteration, which includes full recomputation;
 * - `iteration-seconds`: seconds per optimizer step;
 * - `tokens-per-second-per-gpu`: tokens per second per GPU;
 * - `mfu`: MFU as the source prints it (its own FLOP count, stated in `assumptions`).
 */

/** How a source reports throughput. */
export type ReportedThroughput =
  | { kind: "megatron-tflops"; tflopsPerGpu: number }
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
  sequenceParallel: boolean;
  recompute: "none" | "selective" | "full";
  schedule: "1f1b" | "interleaved";
  chunks?: number;
  gradReduce: "fp32" | "bf16";
  stageLayers?: number[];
  rankOrder?: "tp-cp-dp-pp" | "tp-cp-pp-dp";
}

/** One published run. */
export interface PublishedRun {
  /** Kebab-case id. */
  id: string;
  /** Bibliography key of the source. */
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
  seqLength: number;
  microBatchSize: number;
  /** Sequences per optimizer step. */
  globalBatch: number;
  reported: ReportedThroughput;
  /** The throughput as printed in the source. */
  reportedText: string;
  /** Per-GPU NIC bus bandwidth when the cluster's network differs from interconnects.ts (bytes/s), with why. */
  nicBusBytesPerSecond?: number;
  /** Settings the source omits and what we assumed, with the reason. */
  assumptions: string[];
}

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

const NARAYANAN_ASSUMPTIONS = [
  "Micro-batch size 1: Table 1 does not list it",
  "Interleaved schedule with 2 chunks per stage (3 where the layers per stage are odd) wherever pp > 1: §5.1 uses the interleaved schedule, Table 1 does not give the chunk count",
  "Full recomputation, as Eq. (3) counts it; no sequence parallelism (it came a year later); plain data parallelism with fp32 gradient all-reduce",
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
      sequenceParallel: false,
      recompute: "full",
      schedule: chunks > 1 ? "interleaved" : "1f1b",
      ...(chunks > 1 ? { chunks } : {}),
      gradReduce: "fp32",
    },
    seqLength: 2048,
    microBatchSize: 1,
    globalBatch: batch,
    reported: { kind: "megatron-tflops", tflopsPerGpu: tflops },
    reportedText: `${tflops} teraFLOP/s per GPU`,
    assumptions: NARAYANAN_ASSUMPTIONS,
  }),
);

const KORTHIKANTI_ASSUMPTIONS = [
  "Plain data parallelism with fp32 gradient reduction where dp > 1 (the paper does not say)",
  "Table values read from the project's fact sheet, not from the paper's tables (our search corpus holds only the abstract, which confirms 54.2% MFU for 530B on 2,240 GPUs); each iteration time, with the configuration and batch used here, reproduces the MFU the paper prints to within 0.2 point (the 22B row's 1.10 s gives 41.65% against the printed 41.5%)",
];

const korthikanti: PublishedRun[] = [
  {
    id: "korthikanti2022-22b",
    source: "korthikanti2023reducing",
    location: "Table 3 (configuration) and Table 5 (iteration time, 'present work'), row 22B",
    model: "GPT 22B",
    config: gpt(6144, 64, 48, 51200, 2048),
    gpu: "a100-sxm-80gb",
    gpuCount: 8,
    layout: {
      tp: 8,
      pp: 1,
      cp: 1,
      ep: 1,
      dp: 1,
      zeroStage: 0,
      sequenceParallel: true,
      recompute: "selective",
      schedule: "1f1b",
      gradReduce: "fp32",
    },
    seqLength: 2048,
    microBatchSize: 4,
    globalBatch: 4,
    reported: { kind: "iteration-seconds", seconds: 1.1 },
    reportedText: "1.10 s per iteration (MFU 41.5%)",
    assumptions: KORTHIKANTI_ASSUMPTIONS,
  },
  {
    id: "korthikanti2022-175b",
    source: "korthikanti2023reducing",
    location: "Tables 3 and 5, row 175B (GPT-3)",
    model: "GPT-3 175B",
    config: gpt(12288, 96, 96, 51200, 2048),
    gpu: "a100-sxm-80gb",
    gpuCount: 64,
    layout: {
      tp: 8,
      pp: 8,
      cp: 1,
      ep: 1,
      dp: 1,
      zeroStage: 0,
      sequenceParallel: true,
      recompute: "selective",
      schedule: "interleaved",
      chunks: 3,
      gradReduce: "fp32",
    },
    seqLength: 2048,
    microBatchSize: 1,
    globalBatch: 64,
    reported: { kind: "iteration-seconds", seconds: 13.75 },
    reportedText: "13.75 s per iteration (MFU 51.4%)",
    assumptions: KORTHIKANTI_ASSUMPTIONS,
  },
  {
    id: "korthikanti2022-530b",
    source: "korthikanti2023reducing",
    location: "Tables 3 and 5, row 530B (MT-NLG)",
    model: "MT-NLG 530B",
    config: gpt(20480, 128, 105, 51200, 2048),
    gpu: "a100-sxm-80gb",
    gpuCount: 280,
    layout: {
      tp: 8,
      pp: 35,
      cp: 1,
      ep: 1,
      dp: 1,
      zeroStage: 0,
      sequenceParallel: true,
      recompute: "selective",
      schedule: "interleaved",
      chunks: 3,
      gradReduce: "fp32",
    },
    seqLength: 2048,
    microBatchSize: 1,
    globalBatch: 280,
    reported: { kind: "iteration-seconds", seconds: 37.83 },
    reportedText: "37.83 s per iteration (MFU 56.0%)",
    assumptions: KORTHIKANTI_ASSUMPTIONS,
  },
  {
    id: "korthikanti2022-1t",
    source: "korthikanti2023reducing",
    location: "Tables 3 and 5, row 1T",
    model: "GPT 1T",
    config: gpt(25600, 160, 128, 51200, 2048),
    gpu: "a100-sxm-80gb",
    gpuCount: 512,
    layout: {
      tp: 8,
      pp: 64,
      cp: 1,
      ep: 1,
      dp: 1,
      zeroStage: 0,
      sequenceParallel: true,
      recompute: "selective",
      schedule: "1f1b",
      gradReduce: "fp32",
    },
    seqLength: 2048,
    microBatchSize: 1,
    globalBatch: 512,
    reported: { kind: "iteration-seconds", seconds: 71.49 },
    reportedText: "71.49 s per iteration (MFU 56.3%)",
    assumptions: [
      ...KORTHIKANTI_ASSUMPTIONS,
      "Non-interleaved 1F1B: Table 3 gives interleaving only for 175B and 530B",
    ],
  },
  {
    id: "korthikanti2022-530b-dp8",
    source: "korthikanti2023reducing",
    location: "§6.3 (530B with 8-way data parallelism on 2,240 GPUs)",
    model: "MT-NLG 530B",
    config: gpt(20480, 128, 105, 51200, 2048),
    gpu: "a100-sxm-80gb",
    gpuCount: 2240,
    layout: {
      tp: 8,
      pp: 35,
      cp: 1,
      ep: 1,
      dp: 8,
      zeroStage: 0,
      sequenceParallel: true,
      recompute: "selective",
      schedule: "interleaved",
      chunks: 3,
      gradReduce: "fp32",
    },
    seqLength: 2048,
    microBatchSize: 1,
    globalBatch: 2240,
    reported: { kind: "iteration-seconds", seconds: 39.15 },
    reportedText: "39.15 s per iteration (MFU 54.2%)",
    assumptions: [
      ...KORTHIKANTI_ASSUMPTIONS,
      "Global batch 2,240 (280 per data-parallel replica, as in the single-replica run): the section gives the iteration time, not the batch",
    ],
  },
];

const MTNLG_ASSUMPTIONS = [
  "Micro-batch size 1 and DeepSpeed's 1F1B schedule; full recomputation; ZeRO-1 data parallelism reducing gradients in 16 bits (DeepSpeed's default for fp16/bf16 training): §2.4 gives only degrees, batch and times",
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
  layout: {
    tp: 8,
    pp: 35,
    cp: 1,
    ep: 1,
    dp,
    zeroStage: 1,
    sequenceParallel: false,
    recompute: "full",
    schedule: "1f1b",
    gradReduce: "bf16",
  },
  seqLength: 2048,
  microBatchSize: 1,
  globalBatch: 1920,
  reported: { kind: "iteration-seconds", seconds },
  reportedText: `${seconds} s per iteration (${tflops} TFLOP/s per GPU)`,
  assumptions: MTNLG_ASSUMPTIONS,
}));

const bloom: PublishedRun = {
  id: "bigscience2022-bloom-176b",
  source: "bigscience2022bloom",
  location:
    "§3.4 (throughput); layout, batch and micro-batch from the run's launch script, bigscience train/tr11-176B-ml/tr11-176B-ml.slurm",
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
    sequenceParallel: false,
    recompute: "full",
    schedule: "1f1b",
    gradReduce: "fp32",
    stageLayers: [5, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 5],
  },
  seqLength: 2048,
  microBatchSize: 2,
  globalBatch: 2048,
  reported: { kind: "megatron-tflops", tflopsPerGpu: 150 },
  reportedText: "about 150 TFLOP/s per GPU (Megatron-DeepSpeed's count, with recomputation)",
  nicBusBytesPerSecond: 5.6e9,
  assumptions: [
    "Stages hold 5, 6 × 10, 5 layers: the script partitions 'type:transformer|embedding', 72 units over 12 stages, so the end stages carry the embedding and the tied head in place of a layer",
    "DeepSpeed's bf16 optimizer (ZeRO stage 0 with its own stage-1 sharding) reducing gradients in fp32",
    "Network: 4 Omni-Path 100 Gb/s links per 8-GPU node (the paper's hardware section), 6.25 GB/s per GPU, taken at 90%",
    "The figure of 150 TFLOP/s is the rounded value BigScience quotes; the paper also quotes 156 TFLOP/s as the best measured",
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
  layout: {
    tp: 8,
    pp: 1,
    cp: 1,
    ep: 1,
    dp: 124,
    zeroStage: 3,
    sequenceParallel: false,
    recompute: "full",
    schedule: "1f1b",
    gradReduce: "fp32",
  },
  seqLength: 2048,
  microBatchSize: 8,
  globalBatch: 992,
  reported: { kind: "megatron-tflops", tflopsPerGpu: 147 },
  reportedText: "147 TFLOP/s per GPU",
  assumptions: [
    "Tensor parallelism 8 (Megatron-LM's, as §2.4 says) with FSDP over the remaining 124 ranks, full sharding, full recomputation",
    "Global batch 992 sequences of 2,048 tokens (8 per data-parallel rank, 2.03M tokens, which the paper rounds to 2M), processed as one micro-batch of 8",
    "147 TFLOP/s counted as Megatron-LM counts it (with recomputation): the paper does not define its FLOP count",
  ],
};

const llama3Stages = [7, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 7];
const LLAMA3_ASSUMPTIONS = [
  "FSDP that shards optimizer states and gradients and does not reshard parameters after the forward pass (§3.3.2), fp32 gradient reduce-scatter (§3.3.2), rank order [TP, CP, PP, DP] (§3.3.2)",
  "One layer fewer on the first and last stages (§3.3.2), so 7 + 14 × 8 + 7 = 126",
  "Interleaved schedule with 4 chunks per stage (about two layers per chunk) and micro-batch 1: the paper describes a tunable interleaved schedule and gives neither value; sequence parallelism on; no activation recomputation at 8K (§3.3.2 trains without activation checkpointing)",
  "MFU as Table 4 prints it; the paper does not say whether its FLOP count halves causal attention",
];

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
    sequenceParallel: true,
    recompute: "none" as const,
    schedule: "interleaved" as const,
    chunks: 4,
    gradReduce: "fp32" as const,
    stageLayers: llama3Stages,
    rankOrder: "tp-cp-pp-dp" as const,
  },
  seqLength: r.seq,
  microBatchSize: 1,
  globalBatch: r.batch,
  reported: { kind: "mfu" as const, mfu: r.mfu },
  reportedText: `${r.tflops} TFLOPs/GPU, ${Math.round(r.mfu * 100)}% BF16 MFU`,
  assumptions:
    r.cp > 1
      ? [
          ...LLAMA3_ASSUMPTIONS,
          "DP 8, where Table 4 prints DP 4: with TP 8, CP 16 and PP 16, DP 4 makes 8,192 GPUs and (16 sequences of 131,072 tokens per DP rank) 8.4M tokens per batch, while the row gives 16,384 GPUs and 16M tokens; DP 8 matches both",
        ]
      : LLAMA3_ASSUMPTIONS,
}));

/** MPT sizes of llm-foundry's benchmark table: [name, hidden, heads, layers]. */
const MPT = {
  "760m": [1536, 12, 24],
  "1b": [2048, 16, 24],
  "3b": [2560, 20, 32],
  "7b": [4096, 32, 32],
  "13b": [5120, 40, 40],
  "30b": [7168, 56, 48],
  "70b": [8192, 64, 80],
} satisfies Record<string, [number, number, number]>;

/** A model size of the MPT table ("760m" … "70b"): a row naming any other fails to type-check. */
type MptSize = keyof typeof MPT;

const MOSAIC_ASSUMPTIONS = [
  "MPT models as GPT-style configurations (hidden, heads and layers from llm-foundry's scripts/train/yamls/pretrain/mpt-*.yaml; vocabulary 50,368; learned positions): the table's parameter counts match within 0.05%",
  "FSDP full sharding (ZeRO-3) over all GPUs, as the table's sharding column says; activation checkpointing read as full recomputation; gradients reduced in fp32 (Composer's default mixed precision) except in PURE rows (bf16)",
  "Network: one 400 Gb/s NIC per H100; the A100 cluster's 1,600 Gb/s per node as the table's heading gives it (200 Gb/s per GPU)",
];

const mosaicRows: Array<[MptSize, number, number, string, number, number, number, number, boolean, boolean]> = [
  // [size, seq, gpus, gpu, micro-batch, grad accumulation, global batch, tokens/s/GPU, checkpointing, pure bf16]
  ["70b", 2048, 64, "h100-sxm", 8, 4, 2048, 1039, true, false],
  ["70b", 2048, 32, "h100-sxm", 2, 16, 1024, 882, true, false],
  ["30b", 2048, 32, "h100-sxm", 14, 3, 1344, 2308, true, false],
  ["30b", 2048, 8, "h100-sxm", 3, 21, 504, 2002, true, false],
  ["30b", 8192, 8, "h100-sxm", 1, 21, 168, 1384, true, false],
  ["13b", 2048, 64, "h100-sxm", 2, 1, 128, 4800, false, false],
  ["13b", 2048, 8, "h100-sxm", 2, 1, 16, 4792, false, false],
  ["13b", 4096, 8, "h100-sxm", 10, 3, 240, 4717, true, false],
  ["7b", 2048, 8, "h100-sxm", 6, 1, 48, 10643, false, false],
  ["7b", 8192, 8, "h100-sxm", 8, 2, 128, 6935, true, false],
  ["3b", 2048, 64, "h100-sxm", 6, 3, 1152, 22525, false, false],
  ["1b", 2048, 8, "h100-sxm", 14, 1, 112, 45455, false, false],
  ["760m", 2048, 8, "h100-sxm", 24, 2, 384, 63147, false, false],
  ["70b", 2048, 64, "a100-sxm-80gb", 8, 4, 2048, 410, true, true],
  ["30b", 2048, 8, "a100-sxm-80gb", 3, 21, 504, 916, true, false],
];

const mosaic: PublishedRun[] = mosaicRows.map(([size, seq, gpus, gpu, mb, , batch, tps, ckpt, pure]) => {
  const [h, a, layers] = MPT[size];
  const table = gpu === "h100-sxm" ? "H100 80GB BF16" : "A100 80GB with 1600 Gbps node-node interconnect (RoCE)";
  return {
    id: `mosaicml-mpt-${size}-${seq}-${gpus}-${gpu.startsWith("h100") ? "h100" : "a100"}`,
    source: "mosaicml2023benchmarks",
    location: `Table '${table}', row ${size} / ${seq} / ${gpus} GPUs`,
    model: `MPT-${size.toUpperCase()}`,
    config: gpt(h, a, layers, 50368, seq),
    gpu,
    gpuCount: gpus,
    layout: {
      tp: 1,
      pp: 1,
      cp: 1,
      ep: 1,
      dp: gpus,
      zeroStage: 3 as const,
      sequenceParallel: false,
      recompute: ckpt ? ("full" as const) : ("none" as const),
      schedule: "1f1b" as const,
      gradReduce: pure ? ("bf16" as const) : ("fp32" as const),
    },
    seqLength: seq,
    microBatchSize: mb,
    globalBatch: batch,
    reported: { kind: "tokens-per-second-per-gpu" as const, tokensPerSecondPerGpu: tps },
    reportedText: `${tps} tokens/s/GPU`,
    assumptions: MOSAIC_ASSUMPTIONS,
  };
});

const TORCHTITAN_ASSUMPTIONS = [
  "FSDP2 over all 64 GPUs with resharding after forward (its default) and fp32 gradient reduction (torchtitan's default reduce dtype)",
  "'Selective op' checkpointing read as selective recomputation; rows with 'selective layer' checkpointing left out (it recomputes whole layers on a subset, which the model has no setting for)",
  "Network of the A100 cluster not stated: one 200 Gb/s NIC per GPU assumed; WPS read as tokens per second per GPU (the only reading consistent with the printed MFU)",
];

const torchtitanRows: Array<[string, string, string, number, number, "none" | "selective" | "full", number, string]> = [
  // [label, model, preset, seq, local batch, recompute, WPS, location]
  ["llama3-8b", "Llama 3 8B", "llama-3.1-8b", 8192, 1, "selective", 2973, "Llama 3 table, row 8B / selective op"],
  ["llama3-70b", "Llama 3 70B", "llama-3.1-70b", 8192, 1, "full", 331, "Llama 3 table, row 70B / full"],
  ["llama2-13b-none", "Llama 2 13B", "llama-2-13b", 4096, 2, "none", 2162, "Llama 2 table, row 13B / no"],
  [
    "llama2-13b-selective",
    "Llama 2 13B",
    "llama-2-13b",
    4096,
    2,
    "selective",
    1904,
    "Llama 2 table, row 13B / selective op",
  ],
  [
    "llama2-70b-selective",
    "Llama 2 70B",
    "llama-2-70b",
    4096,
    1,
    "selective",
    355,
    "Llama 2 table, row 70B / batch 1 / selective op",
  ],
  ["llama2-70b-full", "Llama 2 70B", "llama-2-70b", 4096, 2, "full", 353, "Llama 2 table, row 70B / batch 2 / full"],
];

const torchtitan: PublishedRun[] = torchtitanRows.map(
  ([label, model, preset, seq, local, recompute, wps, location]) => ({
    id: `torchtitan-${label}`,
    source: "pytorch2024torchtitanperf",
    location,
    model,
    config: preset,
    gpu: "a100-sxm-80gb",
    gpuCount: 64,
    layout: {
      tp: 1,
      pp: 1,
      cp: 1,
      ep: 1,
      dp: 64,
      zeroStage: 3 as const,
      sequenceParallel: false,
      recompute,
      schedule: "1f1b" as const,
      gradReduce: "fp32" as const,
    },
    seqLength: seq,
    microBatchSize: local,
    globalBatch: 64 * local,
    reported: { kind: "tokens-per-second-per-gpu" as const, tokensPerSecondPerGpu: wps },
    reportedText: `${wps} WPS`,
    assumptions: TORCHTITAN_ASSUMPTIONS,
  }),
);

/** Every run the step model is validated against. */
export const PUBLISHED_RUNS: readonly PublishedRun[] = [
  ...narayanan,
  ...korthikanti,
  ...mtnlg,
  bloom,
  opt,
  ...llama3,
  ...mosaic,
  ...torchtitan,
];

/** Runs we looked at and left out, with the reason (shown in the appendix). */
export const EXCLUDED_RUNS: readonly { model: string; source: string; reason: string }[] = [
  {
    model: "DeepSeek-V3 (671B MoE, 2,048 H800)",
    source: "deepseekai2024v3",
    reason:
      "Trained in fp8 with the DualPipe schedule and a custom all-to-all overlapped with compute, none of which the step model describes; the report gives GPU hours per trillion tokens, not an MFU",
  },
  {
    model: "GPT 175B and 530B under ZeRO-3 without model parallelism (Table 2)",
    source: "narayanan2021efficient",
    reason:
      "The step model predicts no loss of throughput as GPUs are added for these layouts, while the measured throughput fell from 144 to 44 TFLOPS per GPU (175B) and from 138 to 48 (530B); whatever limited the ZeRO-3 implementation of 2021 at more than a thousand ranks is outside the model, and these would be its worst misses by far",
  },
  {
    model: "MegaScale 175B and 530B",
    source: "jiang2024megascale",
    reason:
      "Parallel attention/MLP blocks, sliding-window attention and the LAMB optimizer change the model the FLOP count assumes; we could not read the throughput table's layouts in a source we could verify",
  },
];
