/**
 * Which tiles of the attention score matrix each GPU computes, step by step, in ring attention.
 *
 * What it is for: the context-parallelism chapter and its `ring-attention` widget show how a
 * causal mask makes contiguous sequence sharding unbalanced, and how zig-zag sharding (the
 * 2·CP-chunk split that Llama 3 describes, grattafiori2024llama3 §3.3.2) fixes it. Everything is
 * exact integer bookkeeping, so tests can pin the counts and the widget draws the same numbers.
 *
 * The model (liu2023ring): c GPUs form a ring. The sequence is cut into 2c equal chunks; each GPU
 * owns two of them (its queries, keys and values). At step j = 0 … c−1, GPU i holds the K/V of GPU
 * (i − j) mod c and computes the score tiles between its own query chunks and those key chunks,
 * while it forwards the K/V block to GPU i + 1 (c − 1 transfers in all; the last step sends nothing).
 *
 * Sharding:
 * - `contiguous`: GPU i owns chunks 2i and 2i + 1 (the sequence cut into c consecutive pieces).
 * - `zigzag`: GPU i owns chunks i and 2c − 1 − i (one from each end).
 *
 * Work unit: one tile of (s/2c) × (s/2c) query–key pairs. Under a causal mask a tile strictly below
 * the diagonal is `full` (work 1), a tile on the diagonal is `diagonal` (work ½: a kernel computes
 * its lower triangle; exactly n(n+1)/2 of n² pairs, which is ½ for large n), and a tile above the
 * diagonal is `masked` (work 0, skipped). Without a causal mask every tile is `full`.
 *
 * A step lasts as long as its busiest GPU (every GPU must receive the next block before it can go
 * on), so the critical path is the sum over steps of the per-step maximum work.
 */
import { at, ModelInputError } from "./errors.ts";

/** How the sequence chunks are assigned to the GPUs of the ring. */
export type CpSharding = "contiguous" | "zigzag";

/** The kind of one score tile under the mask. */
export type RingTileKind = "full" | "diagonal" | "masked";

/** Input of {@link planRingAttention}. */
export interface RingAttentionInput {
  /** c, the context-parallel degree (GPUs in the ring). Integer, 1 ≤ c ≤ 64. */
  gpus: number;
  /** Chunk assignment. */
  sharding: CpSharding;
  /** Causal (decoder) mask on or off. */
  causal: boolean;
}

/** One tile of the 2c × 2c grid of (s/2c)-sized blocks of the score matrix. */
export interface RingTile {
  /** Query chunk index, 0 … 2c − 1 (row of the score matrix). */
  queryChunk: number;
  /** Key chunk index, 0 … 2c − 1 (column). */
  keyChunk: number;
  kind: RingTileKind;
  /** 1 for full, 0.5 for diagonal, 0 for masked. */
  work: number;
}

/** What one GPU does in one step. */
export interface RingGpuStep {
  gpu: number;
  /** The GPU whose K/V block this GPU holds during the step. */
  kvFrom: number;
  /** Key chunks held (the two chunks owned by `kvFrom`). */
  keyChunks: [number, number];
  /** The four tiles (own query chunks × held key chunks), including masked ones. */
  tiles: RingTile[];
  /** Sum of the tiles' work. */
  work: number;
  /** true when the GPU forwards its K/V block to the next GPU during this step. */
  sends: boolean;
}

/** One step of the ring: every GPU computes, and (except in the last step) passes its K/V on. */
export interface RingStep {
  step: number;
  gpus: RingGpuStep[];
  /** Work of the busiest GPU in this step: the step's length in tile units. */
  maxWork: number;
}

/** Result of {@link planRingAttention}. */
export interface RingAttentionPlan {
  input: RingAttentionInput;
  /** 2c: the number of sequence chunks. */
  chunks: number;
  /** chunkOwner[k] = GPU that owns chunk k. */
  chunkOwner: number[];
  /** ownedChunks[i] = the two chunks of GPU i, in sequence order. */
  ownedChunks: [number, number][];
  steps: RingStep[];
  /** Total work of each GPU over all steps, in tile units. */
  workPerGpu: number[];
  /** Sum of all GPUs' work: (2c)²/2 causal, (2c)² otherwise. */
  totalWork: number;
  /** Sum over steps of the busiest GPU's work: the length of the attention phase in tile units. */
  criticalPathWork: number;
  /** totalWork / c: the critical path of a perfectly balanced ring. */
  idealWork: number;
  /** idealWork / criticalPathWork, in (0, 1]. */
  efficiency: number;
  /** max over GPUs of total work ÷ min over GPUs of total work (≥ 1). */
  imbalance: number;
}

const MAX_GPUS = 64;

function checkInput(input: RingAttentionInput): void {
  const { gpus, sharding, causal } = input;
  if (typeof gpus !== "number" || !Number.isInteger(gpus)) {
    throw new ModelInputError("gpus", `gpus must be an integer, got ${String(gpus)}`);
  }
  if (gpus < 1 || gpus > MAX_GPUS) {
    throw new ModelInputError("gpus", `gpus must be between 1 and ${MAX_GPUS}, got ${gpus}`);
  }
  if (sharding !== "contiguous" && sharding !== "zigzag") {
    throw new ModelInputError("sharding", `sharding must be "contiguous" or "zigzag", got ${String(sharding)}`);
  }
  if (typeof causal !== "boolean") {
    throw new ModelInputError("causal", `causal must be true or false, got ${String(causal)}`);
  }
}

/** The two chunks (of 2c) owned by GPU `gpu` under `sharding`, in sequence order. */
export function ownedChunks(gpus: number, sharding: CpSharding, gpu: number): [number, number] {
  if (sharding === "contiguous") return [2 * gpu, 2 * gpu + 1];
  return [gpu, 2 * gpus - 1 - gpu];
}

/** Kind of the tile (query chunk q, key chunk k) under the mask. */
export function tileKind(queryChunk: number, keyChunk: number, causal: boolean): RingTileKind {
  if (!causal || keyChunk < queryChunk) return "full";
  return keyChunk === queryChunk ? "diagonal" : "masked";
}

const WORK: Record<RingTileKind, number> = { full: 1, diagonal: 0.5, masked: 0 };

/**
 * Lays out ring attention for c GPUs: per step, which K/V block each GPU holds, which score tiles it
 * computes, and the resulting work balance. Throws {@link ModelInputError} naming the field for bad input.
 */
export function planRingAttention(input: RingAttentionInput): RingAttentionPlan {
  checkInput(input);
  const { gpus: c, sharding, causal } = input;
  const owned: [number, number][] = [];
  for (let i = 0; i < c; i++) owned.push(ownedChunks(c, sharding, i));
  const chunkOwner = new Array<number>(2 * c).fill(0);
  owned.forEach(([a, b], i) => {
    chunkOwner[a] = i;
    chunkOwner[b] = i;
  });

  const steps: RingStep[] = [];
  const workPerGpu = new Array<number>(c).fill(0);
  for (let j = 0; j < c; j++) {
    const perGpu: RingGpuStep[] = [];
    for (const [i, queryChunks] of owned.entries()) {
      const kvFrom = (((i - j) % c) + c) % c;
      const keyChunks = at(owned, kvFrom, "ring attention: chunks of the GPU the KV comes from");
      const tiles: RingTile[] = [];
      for (const q of queryChunks) {
        for (const k of keyChunks) {
          const kind = tileKind(q, k, causal);
          tiles.push({ queryChunk: q, keyChunk: k, kind, work: WORK[kind] });
        }
      }
      const work = tiles.reduce((sum, t) => sum + t.work, 0);
      workPerGpu[i] = at(workPerGpu, i, "ring attention: work per GPU") + work;
      perGpu.push({ gpu: i, kvFrom, keyChunks: [keyChunks[0], keyChunks[1]], tiles, work, sends: j < c - 1 });
    }
    steps.push({ step: j, gpus: perGpu, maxWork: Math.max(...perGpu.map((g) => g.work)) });
  }

  const totalWork = workPerGpu.reduce((a, b) => a + b, 0);
  const criticalPathWork = steps.reduce((a, s) => a + s.maxWork, 0);
  const idealWork = totalWork / c;
  return {
    input: { gpus: c, sharding, causal },
    chunks: 2 * c,
    chunkOwner,
    ownedChunks: owned,
    steps,
    workPerGpu,
    totalWork,
    criticalPathWork,
    idealWork,
    efficiency: idealWork / criticalPathWork,
    imbalance: Math.max(...workPerGpu) / Math.min(...workPerGpu),
  };
}

/** Input of the ring-attention cost helpers. All sizes are per micro-batch and per layer. */
export interface RingAttentionCostInput {
  /** s, tokens in the full sequence. Integer ≥ 1, divisible by 2c. */
  seqLength: number;
  /** b, sequences in the micro-batch. Integer ≥ 1. */
  microBatch: number;
  /** c, the context-parallel degree. Integer ≥ 1. */
  cp: number;
  /** Query heads. */
  heads: number;
  /** Key/value heads (GQA); equal to `heads` for multi-head attention. */
  kvHeads: number;
  /** Head dimension d. */
  headDim: number;
  /** Bytes per activation element (2 for bf16). */
  bytesPerElement: number;
}

function checkCost(input: RingAttentionCostInput): void {
  const fields: (keyof RingAttentionCostInput)[] = [
    "seqLength",
    "microBatch",
    "cp",
    "heads",
    "kvHeads",
    "headDim",
    "bytesPerElement",
  ];
  for (const f of fields) {
    const v = input[f];
    if (typeof v !== "number" || !Number.isInteger(v) || v < 1) {
      throw new ModelInputError(f, `${f} must be a positive integer, got ${String(v)}`);
    }
  }
  if (input.kvHeads > input.heads || input.heads % input.kvHeads !== 0) {
    throw new ModelInputError("kvHeads", `kvHeads (${input.kvHeads}) must divide heads (${input.heads})`);
  }
  if (input.seqLength % (2 * input.cp) !== 0) {
    throw new ModelInputError(
      "seqLength",
      `seqLength (${input.seqLength}) must be divisible by 2·cp (${2 * input.cp})`,
    );
  }
}

/**
 * Bytes of one K/V block passed to the next GPU in one ring step: K and V for s/c tokens,
 * 2·b·(s/c)·n_kv·d elements (liu2023ring §3, "both key and value blocks").
 */
export function ringKvBlockBytes(input: RingAttentionCostInput): number {
  checkCost(input);
  const { seqLength, microBatch, cp, kvHeads, headDim, bytesPerElement } = input;
  return 2 * microBatch * (seqLength / cp) * kvHeads * headDim * bytesPerElement;
}

/** Bytes each GPU sends in one layer's forward ring pass: (c − 1) K/V blocks. */
export function ringForwardBytesPerLayer(input: RingAttentionCostInput): number {
  return (input.cp - 1) * ringKvBlockBytes(input);
}

/**
 * Bytes each GPU sends in one layer's forward pass under DeepSpeed-Ulysses (jacobs2023ulysses):
 * an all-to-all of Q, K and V before attention and one of the output after it. Each GPU keeps
 * 1/c of its local b·(s/c)·(2·n_h + 2·n_kv)·d elements and sends the rest.
 *
 * This counts each KV head once, which is only possible when c divides n_kv. When c > n_kv every
 * GPU still needs a whole KV head for its queries, the KV heads must be replicated, and the true
 * volume is {@link ulyssesReplicatedForwardBytesPerLayer}; this function then gives a lower bound.
 */
export function ulyssesForwardBytesPerLayer(input: RingAttentionCostInput): number {
  checkCost(input);
  const { seqLength, microBatch, cp, heads, kvHeads, headDim, bytesPerElement } = input;
  const localElements = microBatch * (seqLength / cp) * (2 * heads + 2 * kvHeads) * headDim;
  return (localElements * (cp - 1) * bytesPerElement) / cp;
}

/**
 * Smallest number of tokens per GPU (s/c) at which one ring step's attention compute hides the
 * K/V transfer, for a full (non-causal) tile. A step computes 4·b·(s/c)²·n_h·d FLOPs (QKᵀ and PV)
 * and sends 2·b·(s/c)·n_kv·d elements, so overlap needs
 *   s/c ≥ (F / B) · (n_kv / n_h) · (bytes per element / 2),
 * which is Liu et al.'s block size ≥ F/B (liu2023ring §3) for multi-head attention in 16-bit.
 * Under a causal mask with zig-zag sharding each step does half a full tile, which doubles the bound.
 *
 * @param peakFlopsPerSecond F, the GPU's dense peak for the attention matmuls.
 * @param linkBytesPerSecond B, the bandwidth of the ring link, one direction.
 */
export function ringOverlapMinTokensPerGpu(
  peakFlopsPerSecond: number,
  linkBytesPerSecond: number,
  heads: number,
  kvHeads: number,
  bytesPerElement: number,
  causal: boolean,
): number {
  const named: [string, number][] = [
    ["peakFlopsPerSecond", peakFlopsPerSecond],
    ["linkBytesPerSecond", linkBytesPerSecond],
    ["heads", heads],
    ["kvHeads", kvHeads],
    ["bytesPerElement", bytesPerElement],
  ];
  for (const [f, v] of named) {
    if (typeof v !== "number" || !Number.isFinite(v) || v <= 0) {
      throw new ModelInputError(f, `${f} must be a positive number, got ${String(v)}`);
    }
  }
  const full = (peakFlopsPerSecond / linkBytesPerSecond) * (kvHeads / heads) * (bytesPerElement / 2);
  return causal ? 2 * full : full;
}

/**
 * Query and KV heads that one GPU of a context-parallel group works on when tensor parallelism of
 * degree t runs inside each CP rank (grattafiori2024llama3 §3.3.2 runs TP 8 inside CP 16): a/t query
 * heads and n_kv/t KV heads when t divides n_kv, or one KV head replicated t/n_kv times when n_kv
 * divides t (the same rule as the TP layout in tp-sharding.ts). Pass the result's `heads` and
 * `kvHeads` to the cost helpers above to get per-GPU bytes under TP × CP.
 */
export function headsPerTensorParallelRank(
  heads: number,
  kvHeads: number,
  tp: number,
): { heads: number; kvHeads: number; kvReplication: number } {
  const named: [string, number][] = [
    ["heads", heads],
    ["kvHeads", kvHeads],
    ["tp", tp],
  ];
  for (const [f, v] of named) {
    if (typeof v !== "number" || !Number.isInteger(v) || v < 1) {
      throw new ModelInputError(f, `${f} must be a positive integer, got ${String(v)}`);
    }
  }
  if (heads % kvHeads !== 0) throw new ModelInputError("kvHeads", `kvHeads (${kvHeads}) must divide heads (${heads})`);
  if (heads % tp !== 0) throw new ModelInputError("tp", `tp (${tp}) must divide the query heads (${heads})`);
  if (kvHeads % tp === 0) return { heads: heads / tp, kvHeads: kvHeads / tp, kvReplication: 1 };
  if (tp % kvHeads === 0) return { heads: heads / tp, kvHeads: 1, kvReplication: tp / kvHeads };
  throw new ModelInputError("tp", `tp (${tp}) must divide the KV heads (${kvHeads}) or be a multiple of them`);
}

/**
 * Why DeepSpeed-Ulysses cannot split these heads over c GPUs with whole heads per GPU, as a
 * sentence, or null when it can without replication: c must divide the query heads
 * (jacobs2023ulysses §3.1), and each GPU needs whole KV heads, so c must also divide n_kv. When c is
 * a multiple of n_kv the split still works if every KV head is replicated c/n_kv times, which the
 * sentence says; {@link ulyssesReplicatedForwardBytesPerLayer} prices that case.
 */
export function ulyssesHeadProblem(input: RingAttentionCostInput): string | null {
  checkCost(input);
  const { cp, heads, kvHeads } = input;
  if (heads % cp !== 0) return `${heads} query heads do not split ${cp} ways`;
  if (kvHeads % cp === 0) return null;
  if (cp % kvHeads === 0) {
    return `${kvHeads} KV head${kvHeads === 1 ? "" : "s"} for ${cp} GPUs: each must be replicated ${cp / kvHeads} times`;
  }
  return `${kvHeads} KV heads do not split ${cp} ways`;
}

/**
 * Bytes each GPU sends in one layer's forward pass under DeepSpeed-Ulysses when the KV heads are
 * replicated as needed: K and V then travel as max(n_kv, c) heads, so the local data is
 * b·(s/c)·(2·n_h + 2·max(n_kv, c))·d elements, of which (c − 1)/c leave the GPU. Equal to
 * {@link ulyssesForwardBytesPerLayer} when c divides n_kv. Throws {@link ModelInputError} (field
 * `cp`) when c does not divide the query heads or is neither a divisor nor a multiple of n_kv.
 */
export function ulyssesReplicatedForwardBytesPerLayer(input: RingAttentionCostInput): number {
  const problem = ulyssesHeadProblem(input);
  if (problem !== null && !/replicated/.test(problem)) throw new ModelInputError("cp", `cp = ${input.cp}: ${problem}`);
  const { seqLength, microBatch, cp, heads, kvHeads, headDim, bytesPerElement } = input;
  const kvMoved = Math.max(kvHeads, cp);
  const localElements = microBatch * (seqLength / cp) * (2 * heads + 2 * kvMoved) * headDim;
  return (localElements * (cp - 1) * bytesPerElement) / cp;
}
