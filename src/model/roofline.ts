/**
 * The roofline model and the FLOPs and HBM bytes of the operations a transformer runs, for the
 * GPU-kernels chapter and its `roofline` widget.
 *
 * Roofline (williams2009roofline): a kernel that performs F floating-point operations and moves Q
 * bytes between DRAM (here HBM) and the chip has arithmetic intensity I = F / Q (FLOP/byte), and
 * can run no faster than min(P, I · B), where P is the peak compute rate and B the memory
 * bandwidth. The ridge point I* = P / B separates memory-bound kernels (I < I*) from compute-bound
 * ones.
 *
 * Byte counts are *compulsory* HBM traffic: every input read once, every output written once,
 * nothing re-read (ideal caching). FLOP counts use the conventions stated on each function. All
 * functions are pure and validate their inputs with {@link ModelInputError}.
 */
import { at, ModelInputError, requirePositiveInteger } from "./errors.ts";

/** FLOPs, bytes and intensity of one kernel. */
export interface KernelCost {
  /** Floating-point operations (a multiply-add counts as 2). */
  flops: number;
  /** Bytes moved between HBM and the chip (compulsory traffic). */
  hbmBytes: number;
  /** flops / hbmBytes, FLOP per byte. */
  intensityFlopsPerByte: number;
}

function requirePositive(value: unknown, field: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new ModelInputError(field, `${field} must be a positive finite number (got ${String(value)})`);
  }
  return value;
}

function requireNonNegative(value: unknown, field: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new ModelInputError(field, `${field} must be a finite number ≥ 0 (got ${String(value)})`);
  }
  return value;
}

function cost(flops: number, hbmBytes: number): KernelCost {
  return { flops, hbmBytes, intensityFlopsPerByte: flops / hbmBytes };
}

/**
 * Ridge point I* = P / B in FLOP/byte: the intensity at which a kernel stops being limited by
 * memory bandwidth. Eq. (1) of the chapter; williams2009roofline.
 */
export function ridgePointFlopsPerByte(peakFlopsPerSecond: number, memoryBytesPerSecond: number): number {
  requirePositive(peakFlopsPerSecond, "peakFlopsPerSecond");
  requirePositive(memoryBytesPerSecond, "memoryBytesPerSecond");
  return peakFlopsPerSecond / memoryBytesPerSecond;
}

/**
 * Attainable rate min(P, I · B) in FLOP/s for a kernel of intensity I (williams2009roofline).
 */
export function attainableFlopsPerSecond(
  intensityFlopsPerByte: number,
  peakFlopsPerSecond: number,
  memoryBytesPerSecond: number,
): number {
  requirePositive(intensityFlopsPerByte, "intensityFlopsPerByte");
  requirePositive(peakFlopsPerSecond, "peakFlopsPerSecond");
  requirePositive(memoryBytesPerSecond, "memoryBytesPerSecond");
  return Math.min(peakFlopsPerSecond, intensityFlopsPerByte * memoryBytesPerSecond);
}

/** Lower bound on a kernel's time: max(F / P, Q / B), seconds. */
export function rooflineSeconds(kernel: KernelCost, peakFlopsPerSecond: number, memoryBytesPerSecond: number): number {
  requirePositive(peakFlopsPerSecond, "peakFlopsPerSecond");
  requirePositive(memoryBytesPerSecond, "memoryBytesPerSecond");
  return Math.max(kernel.flops / peakFlopsPerSecond, kernel.hbmBytes / memoryBytesPerSecond);
}

/**
 * C = A · B with A of shape m × k and B of shape k × n: 2mnk FLOPs; reads A and B, writes C,
 * (mk + kn + mn) elements of `bytesPerElement` each.
 */
export function matmulCost(m: number, n: number, k: number, bytesPerElement = 2): KernelCost {
  requirePositiveInteger(m, "m");
  requirePositiveInteger(n, "n");
  requirePositiveInteger(k, "k");
  requirePositive(bytesPerElement, "bytesPerElement");
  return cost(2 * m * n * k, (m * k + k * n + m * n) * bytesPerElement);
}

/**
 * An elementwise kernel over `elements` positions that reads `inputs` tensors, writes `outputs`
 * tensors and performs `flopsPerElement` operations per position.
 */
export function elementwiseCost(
  elements: number,
  inputs: number,
  outputs: number,
  flopsPerElement: number,
  bytesPerElement = 2,
): KernelCost {
  requirePositiveInteger(elements, "elements");
  requirePositiveInteger(inputs, "inputs");
  requirePositiveInteger(outputs, "outputs");
  requirePositive(flopsPerElement, "flopsPerElement");
  requirePositive(bytesPerElement, "bytesPerElement");
  return cost(elements * flopsPerElement, elements * (inputs + outputs) * bytesPerElement);
}

/**
 * Row-wise softmax over a rows × cols matrix, read once and written once. FLOPs counted as 5 per
 * element (max, subtract, exponential, sum, divide), the book's convention.
 */
export function softmaxCost(rows: number, cols: number, bytesPerElement = 2): KernelCost {
  requirePositiveInteger(rows, "rows");
  requirePositiveInteger(cols, "cols");
  return elementwiseCost(rows * cols, 1, 1, 5, bytesPerElement);
}

/**
 * RMSNorm over `tokens` rows of width h: reads x and the h-vector of weights, writes y.
 * FLOPs counted as 4 per element (square, sum, scale by the reciprocal root, multiply by weight).
 */
export function rmsNormCost(tokens: number, hidden: number, bytesPerElement = 2): KernelCost {
  requirePositiveInteger(tokens, "tokens");
  requirePositiveInteger(hidden, "hidden");
  requirePositive(bytesPerElement, "bytesPerElement");
  return cost(4 * tokens * hidden, (2 * tokens * hidden + hidden) * bytesPerElement);
}

/** Shape of one attention call: `heads` independent (query length = key length = `seq`) heads of width `headDim`. */
export interface AttentionShape {
  /** Batch × heads: how many independent N × N score matrices. */
  heads: number;
  /** Sequence length N. */
  seq: number;
  /** Head dimension d. */
  headDim: number;
  bytesPerElement?: number;
}

function attentionShape(s: AttentionShape): { heads: number; n: number; d: number; e: number } {
  return {
    heads: requirePositiveInteger(s.heads, "heads"),
    n: requirePositiveInteger(s.seq, "seq"),
    d: requirePositiveInteger(s.headDim, "headDim"),
    e: requirePositive(s.bytesPerElement ?? 2, "bytesPerElement"),
  };
}

/** Attention matmul FLOPs without masking: S = QKᵀ and O = PV, 2 · 2N²d per head. */
export function attentionMatmulFlops(shape: AttentionShape): number {
  const { heads, n, d } = attentionShape(shape);
  return heads * 4 * n * n * d;
}

/**
 * Standard (unfused) attention as Algorithm 0 of dao2022flashattention: read Q, K, write S; read
 * S, write P; read P and V, write O. HBM traffic (4Nd + 4N²) elements per head.
 */
export function standardAttentionCost(shape: AttentionShape): KernelCost {
  const { heads, n, d, e } = attentionShape(shape);
  return cost(attentionMatmulFlops(shape), heads * (4 * n * d + 4 * n * n) * e);
}

/**
 * Fused (FlashAttention-style) attention, compulsory traffic: Q, K, V read once, O written once,
 * 4Nd elements per head; the N × N scores never reach HBM (dao2022flashattention). Ignores the
 * N-element softmax statistics and any re-reading of K and V that the caches do not absorb.
 */
export function fusedAttentionCost(shape: AttentionShape): KernelCost {
  const { heads, n, d, e } = attentionShape(shape);
  return cost(attentionMatmulFlops(shape), heads * 4 * n * d * e);
}

/**
 * HBM elements per head that a fused attention kernel moves when K and V are re-read from HBM once
 * per query tile of `queryTileRows` rows (no help from L2): Q and O once, K and V ⌈N / Br⌉ times.
 */
export function tiledAttentionHbmElements(seq: number, headDim: number, queryTileRows: number): number {
  const n = requirePositiveInteger(seq, "seq");
  const d = requirePositiveInteger(headDim, "headDim");
  const br = requirePositiveInteger(queryTileRows, "queryTileRows");
  return 2 * n * d + 2 * n * d * Math.ceil(n / br);
}

/** One step of an elementwise chain: named input tensors to one named output tensor. */
export interface ElementwiseStep {
  inputs: readonly string[];
  output: string;
}

/** HBM traffic of an elementwise chain run as separate kernels vs as one fused kernel. */
export interface FusionTraffic {
  /** Tensor passes (reads + writes) when every step is its own kernel. */
  unfusedPasses: number;
  /** Tensor passes when the chain is one kernel: external inputs read once, final outputs written once. */
  fusedPasses: number;
  unfusedBytes: number;
  fusedBytes: number;
}

/**
 * Compares running an elementwise chain step by step (each step reads its inputs from HBM and
 * writes its output back) with one fused kernel (reads each tensor that no step produces once,
 * writes only the tensors in `keep`, default: the last step's output). Every tensor holds
 * `elements` values of `bytesPerElement` bytes.
 */
export function elementwiseFusionTraffic(
  steps: readonly ElementwiseStep[],
  elements: number,
  bytesPerElement = 2,
  keep?: readonly string[],
): FusionTraffic {
  if (!Array.isArray(steps) || steps.length === 0) throw new ModelInputError("steps", "steps must be a non-empty list");
  requirePositiveInteger(elements, "elements");
  requirePositive(bytesPerElement, "bytesPerElement");
  const produced = new Set<string>();
  const external = new Set<string>();
  let unfusedPasses = 0;
  for (const step of steps) {
    if (step.inputs.length === 0) throw new ModelInputError("steps", "every step needs at least one input");
    for (const name of step.inputs) if (!produced.has(name)) external.add(name);
    unfusedPasses += step.inputs.length + 1;
    produced.add(step.output);
  }
  const kept = keep ?? [at(steps, steps.length - 1, "fusion: last step").output];
  for (const name of kept) {
    if (!produced.has(name)) throw new ModelInputError("keep", `${name} is not produced by any step`);
  }
  const fusedPasses = external.size + new Set(kept).size;
  return {
    unfusedPasses,
    fusedPasses,
    unfusedBytes: unfusedPasses * elements * bytesPerElement,
    fusedBytes: fusedPasses * elements * bytesPerElement,
  };
}

/** Result of {@link memoryTransactions}: how many 32-byte sectors one warp-wide load touches. */
export interface WarpAccess {
  /** Distinct 32-byte sectors touched. */
  sectors: number;
  /** Bytes the threads asked for. */
  requestedBytes: number;
  /** Bytes the memory system moves (sectors × 32). */
  movedBytes: number;
  /** requestedBytes / movedBytes, in (0, 1]. */
  efficiency: number;
  /** Sector index (address ÷ 32) each thread's element falls in. */
  threadSectors: number[];
}

/** Size of the unit global memory is fetched in on NVIDIA GPUs (CUDA C++ Best Practices Guide). */
export const SECTOR_BYTES = 32;

/**
 * The 32-byte sectors one warp touches when thread i loads the element at index
 * `offsetElements + i · strideElements` of an array of `elementBytes`-byte elements (base aligned to
 * a sector). Coalesced access is stride 1: 32 threads × 4 B = 128 B = 4 sectors.
 */
export function memoryTransactions(
  strideElements: number,
  elementBytes = 4,
  offsetElements = 0,
  threads = 32,
): WarpAccess {
  requirePositiveInteger(strideElements, "strideElements");
  requirePositiveInteger(elementBytes, "elementBytes");
  requireNonNegative(offsetElements, "offsetElements");
  if (!Number.isInteger(offsetElements))
    throw new ModelInputError("offsetElements", "offsetElements must be an integer");
  requirePositiveInteger(threads, "threads");
  const threadSectors: number[] = [];
  const sectors = new Set<number>();
  for (let i = 0; i < threads; i++) {
    const first = (offsetElements + i * strideElements) * elementBytes;
    const last = first + elementBytes - 1;
    const a = Math.floor(first / SECTOR_BYTES);
    const b = Math.floor(last / SECTOR_BYTES);
    threadSectors.push(a);
    for (let s = a; s <= b; s++) sectors.add(s);
  }
  const requestedBytes = threads * elementBytes;
  const movedBytes = sectors.size * SECTOR_BYTES;
  return { sectors: sectors.size, requestedBytes, movedBytes, efficiency: requestedBytes / movedBytes, threadSectors };
}
