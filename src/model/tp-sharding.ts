/**
 * How one transformer layer of a real model is split across a tensor-parallel group: the shape of
 * every weight and activation one GPU holds, the collective at each region boundary, and what
 * grouped-query attention does to the split when the TP degree exceeds the KV heads.
 *
 * What it is for: the tensor-parallelism chapter and its `tp-sharding` widget. The layout follows
 * Megatron-LM (shoeybi2019megatron §3): Q, K, V and the MLP's first matrices are split by columns
 * (by heads for attention), the attention output projection and the MLP's last matrix by rows, the
 * embedding and LM head by vocabulary rows. Without sequence parallelism the norm/residual regions
 * are replicated and the boundaries are the f/g operators (identity/all-reduce); with it
 * (korthikanti2023reducing §4.2.2) those regions hold s/t tokens and the boundaries become
 * all-gather and reduce-scatter along the sequence; because only the sequence shard of a
 * column-parallel input is stored, the backward pass all-gathers it once more.
 *
 * GQA rule: the query heads are dealt out in contiguous blocks of a/t; a GPU needs every KV head
 * that one of its query heads reads (query head j reads KV head ⌊j / (a/n_kv)⌋). When t divides
 * n_kv each GPU holds n_kv/t KV heads and nothing is shared; otherwise some KV heads are needed on
 * several GPUs and must be replicated there (their gradients then have to be summed over the
 * GPUs sharing them). Megatron-LM requires t to divide n_kv; inference stacks replicate.
 *
 * Covers dense models with standard attention (no MoE, no MLA); biases are not drawn.
 */
import type { ModelArchitecture } from "./architecture.ts";
import { at, ModelInputError, requireBoolean, requirePositiveInteger } from "./errors.ts";

/** How a tensor is divided over the TP group. */
export type TpSplit = "columns" | "rows" | "sequence" | "vocab" | "replicated";

/** The collective at a region boundary, in each direction. */
export type TpCollectiveKind = "none" | "all-reduce" | "all-gather" | "reduce-scatter";

/** One weight or activation of the layer as one GPU holds it. */
export interface TpTensor {
  name: string;
  kind: "weight" | "activation";
  /** Shape of the whole tensor (activations: [tokens, features] with tokens = b·s). */
  fullShape: [number, number];
  /** Shape on one GPU. */
  shardShape: [number, number];
  split: TpSplit;
}

/** One region of the layer: the operations between two collectives. */
export interface TpRegion {
  /** Short id, e.g. `attention-norm`. */
  id: string;
  title: string;
  /** Whether the region is inside a TP region (split by columns/rows) or a norm/residual region. */
  parallel: boolean;
  tensors: TpTensor[];
}

/** A collective between two regions. */
export interface TpBoundary {
  /** Region id before the boundary. */
  after: string;
  /** Megatron's name: f, g (plain TP) or the SP pair. */
  name: string;
  forward: TpCollectiveKind;
  backward: TpCollectiveKind;
  /**
   * true at the entry of a TP region under sequence parallelism: the backward pass also
   * all-gathers the stored sequence shard again for the weight gradient (overlapped in Megatron-LM).
   */
  backwardRegather?: boolean;
  /** Elements of the full tensor the collective operates on (b·s·h). */
  elements: number;
}

/** Input of {@link tpShardingLayout}. */
export interface TpShardingInput {
  /** t, the tensor-parallel degree. Integer ≥ 1 dividing the query heads and the MLP width. */
  tp: number;
  /** Sequence parallelism on. */
  sequenceParallel: boolean;
  /** s, tokens per sequence. Integer ≥ 1, divisible by t when sequence parallelism is on. */
  seqLength: number;
  /** b, sequences per microbatch. Integer ≥ 1. */
  microBatchSize: number;
}

/** Result of {@link tpShardingLayout}. */
export interface TpShardingLayout {
  input: TpShardingInput;
  /** Query heads per GPU, a/t. */
  queryHeadsPerGpu: number;
  /** KV heads the busiest GPU must hold. */
  kvHeadsPerGpu: number;
  /** Largest number of GPUs that hold a copy of one KV head (1 = no replication). */
  kvReplication: number;
  /** The regions in execution order: attention half, then MLP half. */
  regions: TpRegion[];
  /** The four boundaries of the layer. */
  boundaries: TpBoundary[];
  /** Weight elements of one layer on one GPU (norm weights included, replicated). */
  layerWeightElementsPerGpu: number;
  /** Weight elements of one layer in the whole model. */
  layerWeightElements: number;
  /** Embedding table (and untied LM head) elements on one GPU. */
  embeddingElementsPerGpu: number;
  /**
   * Elements each GPU sends per layer per microbatch for the f/g collectives or their SP
   * replacements: 8·b·s·h·(t−1)/t with or without sequence parallelism.
   */
  commElementsPerLayer: number;
  /**
   * Elements each GPU sends per layer per microbatch for SP's backward re-gather of the stored
   * sequence shards, 2·b·s·h·(t−1)/t (0 without SP); overlapped with compute in Megatron-LM. The
   * total TP traffic is commElementsPerLayer + spRegatherElementsPerLayer.
   */
  spRegatherElementsPerLayer: number;
  /** Plain-language notes: replication, padding, etc. */
  notes: string[];
}

/**
 * Elements each GPU sends per layer and microbatch for tensor parallelism: four all-reduces of
 * b·s·h elements (two forward, two backward), each 2(t−1)/t of the tensor with a ring, i.e.
 * 8·b·s·h·(t−1)/t (narayanan2021efficient §3.2). With sequence parallelism the four all-reduces
 * become four all-gathers and four reduce-scatters that send the same total
 * (korthikanti2023reducing §4.2.2), but SP also re-gathers the stored sequence shards in the
 * backward pass: see {@link tpSpRegatherElementsPerLayer} and {@link tpSpCommElementsPerLayer}.
 */
export function tpCommElementsPerLayer(
  microBatchSize: number,
  seqLength: number,
  hiddenSize: number,
  tp: number,
): number {
  requirePositiveInteger(microBatchSize, "microBatchSize");
  requirePositiveInteger(seqLength, "seqLength");
  requirePositiveInteger(hiddenSize, "hiddenSize");
  requirePositiveInteger(tp, "tp");
  return (8 * microBatchSize * seqLength * hiddenSize * (tp - 1)) / tp;
}

/**
 * Elements each GPU sends per layer and microbatch for the all-gathers that sequence parallelism
 * adds in the backward pass: 2·b·s·h·(t−1)/t. Only the sequence shard of each column-parallel input
 * (the inputs of the QKV and first MLP matmuls) is stored, so the backward pass all-gathers it again
 * to form the weight gradient. Megatron-LM issues that all-gather asynchronously and overlaps it
 * with the input-gradient matmul (megatronlm2024code, megatron/core/tensor_parallel/layers.py,
 * LinearWithGradAccumulationAndAsyncCommunication.backward).
 */
export function tpSpRegatherElementsPerLayer(
  microBatchSize: number,
  seqLength: number,
  hiddenSize: number,
  tp: number,
): number {
  return tpCommElementsPerLayer(microBatchSize, seqLength, hiddenSize, tp) / 4;
}

/**
 * Elements each GPU sends per layer and microbatch for tensor parallelism with sequence
 * parallelism: 10·b·s·h·(t−1)/t, from six all-gathers (two forward, two backward, two backward
 * re-gathers) and four reduce-scatters (two forward, two backward) of b·s·h elements, each sending
 * (t−1)/t of the tensor. Two of the ten parts are the overlapped re-gathers
 * ({@link tpSpRegatherElementsPerLayer}).
 */
export function tpSpCommElementsPerLayer(
  microBatchSize: number,
  seqLength: number,
  hiddenSize: number,
  tp: number,
): number {
  return (tpCommElementsPerLayer(microBatchSize, seqLength, hiddenSize, tp) * 10) / 8;
}

/**
 * Time of a GPT-style layer's forward TP all-reduces divided by the time of its forward FLOPs at
 * peak, (t−1)·F / (3·h·B·(1 + s/(6h))): 2 all-reduces of 2·b·s·h bytes (bf16) at 2(t−1)/t each over
 * a link of B bytes/s per direction, against 24·b·s·h²(1 + s/(6h)) / t FLOPs at F FLOP/s
 * (korthikanti2023reducing App. A, forward third of Eq. 7).
 */
export function tpCommToComputeRatio(
  tp: number,
  peakFlopsPerSecond: number,
  linkBytesPerSecond: number,
  hiddenSize: number,
  seqLength: number,
): number {
  requirePositiveInteger(tp, "tp");
  requirePositiveInteger(hiddenSize, "hiddenSize");
  requirePositiveInteger(seqLength, "seqLength");
  for (const [field, v] of [
    ["peakFlopsPerSecond", peakFlopsPerSecond],
    ["linkBytesPerSecond", linkBytesPerSecond],
  ] as const) {
    if (typeof v !== "number" || !Number.isFinite(v) || v <= 0) {
      throw new ModelInputError(field, `${field} must be a positive number (got ${String(v)})`);
    }
  }
  return ((tp - 1) * peakFlopsPerSecond) / (3 * hiddenSize * linkBytesPerSecond * (1 + seqLength / (6 * hiddenSize)));
}

/**
 * The KV heads each GPU must hold when a query heads, grouped over n_kv KV heads, are dealt out
 * in contiguous blocks of a/t (see the module comment). Requires t to divide a.
 */
export function kvHeadsByGpu(heads: number, kvHeads: number, tp: number): number[][] {
  const group = heads / kvHeads;
  const perGpu = heads / tp;
  const out: number[][] = [];
  for (let g = 0; g < tp; g++) {
    const set = new Set<number>();
    for (let j = g * perGpu; j < (g + 1) * perGpu; j++) set.add(Math.floor(j / group));
    out.push([...set]);
  }
  return out;
}

/** Checks that a TP degree fits a model's heads and MLP; returns the problem as a sentence or null. */
export function tpDegreeProblem(arch: ModelArchitecture, tp: number): string | null {
  if (arch.numHeads % tp !== 0) return `${arch.numHeads} query heads do not split ${tp} ways`;
  if (arch.intermediateSize % tp !== 0) return `the MLP width ${arch.intermediateSize} does not split ${tp} ways`;
  return null;
}

const MAX_TP = 1024;

/**
 * Lays out one layer of `arch` under tensor parallelism. Throws {@link ModelInputError} naming the
 * field: `tp` when it does not divide the heads or the MLP width, `seqLength` when sequence
 * parallelism is on and t does not divide s, `model` for MoE or MLA architectures.
 */
export function tpShardingLayout(arch: ModelArchitecture, input: TpShardingInput): TpShardingLayout {
  const t = requirePositiveInteger(input.tp, "tp");
  if (t > MAX_TP) throw new ModelInputError("tp", `tp must be at most ${MAX_TP} (got ${t})`);
  const sp = requireBoolean(input.sequenceParallel, "sequenceParallel");
  const s = requirePositiveInteger(input.seqLength, "seqLength");
  const b = requirePositiveInteger(input.microBatchSize, "microBatchSize");
  if (arch.moe || arch.mla) {
    throw new ModelInputError("model", "the layout covers dense models with standard attention (no MoE, no MLA)");
  }
  const problem = tpDegreeProblem(arch, t);
  if (problem) throw new ModelInputError("tp", `tp = ${t}: ${problem}`);
  if (sp && s % t !== 0)
    throw new ModelInputError("seqLength", `with sequence parallelism tp (${t}) must divide seqLength (${s})`);

  const h = arch.hiddenSize;
  const d = arch.headDim;
  const a = arch.numHeads;
  const nkv = arch.numKvHeads;
  const f = arch.intermediateSize;
  const n = b * s;
  const nLocal = sp ? n / t : n;
  const qPer = a / t;
  const kvSets = kvHeadsByGpu(a, nkv, t);
  const kvPer = Math.max(...kvSets.map((x) => x.length));
  const holders = new Array<number>(nkv).fill(0);
  for (const set of kvSets) for (const k of set) holders[k] = at(holders, k, "tp-sharding: holders of KV head") + 1;
  const kvReplication = Math.max(...holders);

  const normSplit: TpSplit = sp ? "sequence" : "replicated";
  const normActs = (name: string): TpTensor => ({
    name,
    kind: "activation",
    fullShape: [n, h],
    shardShape: [nLocal, h],
    split: normSplit,
  });
  const normWeight: TpTensor = {
    name: "norm weight",
    kind: "weight",
    fullShape: [1, h],
    shardShape: [1, h],
    split: "replicated",
  };
  const col = (name: string, rows: number, cols: number, localCols: number): TpTensor => ({
    name,
    kind: "weight",
    fullShape: [rows, cols],
    shardShape: [rows, localCols],
    split: "columns",
  });
  const row = (name: string, rows: number, cols: number, localRows: number): TpTensor => ({
    name,
    kind: "weight",
    fullShape: [rows, cols],
    shardShape: [localRows, cols],
    split: "rows",
  });
  const act = (name: string, cols: number, localCols: number): TpTensor => ({
    name,
    kind: "activation",
    fullShape: [n, cols],
    shardShape: [n, localCols],
    split: "columns",
  });

  const mlpFirst: TpTensor[] =
    arch.mlp === "swiglu"
      ? [
          col("gate projection", h, f, f / t),
          col("up projection", h, f, f / t),
          act("gate and up outputs", 2 * f, (2 * f) / t),
        ]
      : [col("first MLP matrix", h, f, f / t), act("activation input", f, f / t)];
  const mlpLast = arch.mlp === "swiglu" ? "down projection" : "second MLP matrix";

  const regions: TpRegion[] = [
    {
      id: "attention-norm",
      title: "Norm before attention",
      parallel: false,
      tensors: [normWeight, normActs("norm input")],
    },
    {
      id: "qkv",
      title: "Q, K, V projections (columns, by head)",
      parallel: true,
      tensors: [
        col("query projection", h, a * d, qPer * d),
        col("key projection", h, nkv * d, kvPer * d),
        col("value projection", h, nkv * d, kvPer * d),
        act("queries", a * d, qPer * d),
        act("keys and values", 2 * nkv * d, 2 * kvPer * d),
      ],
    },
    {
      id: "attention",
      title: "Attention (local heads)",
      parallel: true,
      tensors: [act("attention output", a * d, qPer * d)],
    },
    {
      id: "attention-out",
      title: "Output projection (rows)",
      parallel: true,
      tensors: [
        row("output projection", a * d, h, qPer * d),
        { name: "partial output", kind: "activation", fullShape: [n, h], shardShape: [n, h], split: "replicated" },
      ],
    },
    { id: "attention-residual", title: "Residual add", parallel: false, tensors: [normActs("residual stream")] },
    { id: "mlp-norm", title: "Norm before the MLP", parallel: false, tensors: [normWeight, normActs("norm input")] },
    {
      id: "mlp-in",
      title: arch.mlp === "swiglu" ? "Gate and up projections (columns)" : "First MLP matrix (columns)",
      parallel: true,
      tensors: mlpFirst,
    },
    {
      id: "mlp-out",
      title: arch.mlp === "swiglu" ? "Down projection (rows)" : "Second MLP matrix (rows)",
      parallel: true,
      tensors: [
        row(mlpLast, f, h, f / t),
        { name: "partial output", kind: "activation", fullShape: [n, h], shardShape: [n, h], split: "replicated" },
      ],
    },
    { id: "mlp-residual", title: "Residual add", parallel: false, tensors: [normActs("residual stream")] },
  ];

  const enter = (after: string): TpBoundary =>
    sp
      ? {
          after,
          name: "all-gather",
          forward: "all-gather",
          backward: "reduce-scatter",
          backwardRegather: true,
          elements: n * h,
        }
      : { after, name: "f", forward: "none", backward: "all-reduce", elements: n * h };
  const leave = (after: string): TpBoundary =>
    sp
      ? { after, name: "reduce-scatter", forward: "reduce-scatter", backward: "all-gather", elements: n * h }
      : { after, name: "g", forward: "all-reduce", backward: "none", elements: n * h };
  const boundaries = [enter("attention-norm"), leave("attention-out"), enter("mlp-norm"), leave("mlp-out")];

  const weights = regions.flatMap((r) => r.tensors.filter((x) => x.kind === "weight"));
  const layerWeightElementsPerGpu = weights.reduce((acc, w) => acc + w.shardShape[0] * w.shardShape[1], 0);
  // Full-model count: K and V are counted once (n_kv heads), not per replica.
  const layerWeightElements = weights.reduce((acc, w) => acc + w.fullShape[0] * w.fullShape[1], 0);
  const vocabPerGpu = Math.ceil(arch.vocabSize / t);
  const embeddingElementsPerGpu = vocabPerGpu * h * (arch.tiedEmbeddings ? 1 : 2);

  const notes: string[] = [];
  if (kvReplication > 1) {
    notes.push(
      `${nkv} KV heads for ${t} GPUs: each KV head is replicated on up to ${kvReplication} GPUs, its projections stop shrinking, and the copies' gradients must be summed.`,
    );
  }
  if (arch.vocabSize % t !== 0) {
    notes.push(`The vocabulary (${arch.vocabSize}) does not split ${t} ways; it is padded to ${vocabPerGpu * t} rows.`);
  }

  return {
    input: { tp: t, sequenceParallel: sp, seqLength: s, microBatchSize: b },
    queryHeadsPerGpu: qPer,
    kvHeadsPerGpu: kvPer,
    kvReplication,
    regions,
    boundaries,
    layerWeightElementsPerGpu,
    layerWeightElements,
    embeddingElementsPerGpu,
    commElementsPerLayer: tpCommElementsPerLayer(b, s, h, t),
    spRegatherElementsPerLayer: sp ? tpSpRegatherElementsPerLayer(b, s, h, t) : 0,
    notes,
  };
}
