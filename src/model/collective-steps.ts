/**
 * Step-by-step schedules of the collective operations, for teaching: which chunk each rank sends
 * to which rank at each step, what every rank's buffer holds afterwards, and the bytes moved.
 *
 * Every rank's buffer is cut into $n$ chunks of $S/n$ bytes, where $S$ is the message size in
 * the nccl-tests convention (nvidia2024nccltests, doc/PERFORMANCE.md): the buffer of all-reduce,
 * broadcast and reduce; the *total* (all ranks') data of all-gather, reduce-scatter, gather and
 * scatter; one rank's whole send buffer for all-to-all. A slot holds a {@link Piece}: which chunk
 * it is and whose contributions it contains.
 *
 * Algorithms (thakur2005optimization §3–4; patarasuk2009bandwidth for the ring all-reduce):
 * - all-reduce: ring, a reduce-scatter then an all-gather, $2(n-1)$ steps of $S/n$ bytes;
 * - reduce-scatter, all-gather: ring, $n-1$ steps of $S/n$ bytes; rank $r$ ends owning chunk $r$;
 * - broadcast, reduce: binomial tree, $\lceil \log_2 n \rceil$ steps of $S$ bytes;
 * - gather, scatter: direct to or from the root, one step in which the root's link carries $(n-1)S/n$;
 * - all-to-all: pairwise exchange; each step pairs ranks that swap one $S/n$ chunk: partner
 *   $r \oplus k$ when $n$ is a power of two ($n-1$ steps), else $k-r \bmod n$ ($n$ steps);
 * - barrier: dissemination, $\lceil \log_2 n \rceil$ steps of empty messages to rank $r + 2^k$.
 *
 * Step time in the α–β model: $\alpha + B_{\max}/\beta$, where $B_{\max}$ is the most bytes one rank
 * sends or receives in that step (each rank has one full-duplex link).
 */
import {
  at,
  ModelInputError,
  ModelInvariantError,
  requireNonNegativeNumber,
  requireOneOf,
  requirePositiveInteger,
  requirePositiveNumber,
} from "./errors.ts";

/** Collectives the step generator knows. */
export type StepCollective =
  | "broadcast"
  | "reduce"
  | "all-reduce"
  | "gather"
  | "scatter"
  | "all-gather"
  | "reduce-scatter"
  | "all-to-all"
  | "barrier";

/** Every collective of {@link collectiveSteps}, in the order the book introduces them. */
export const STEP_COLLECTIVES: readonly StepCollective[] = [
  "broadcast",
  "reduce",
  "all-reduce",
  "gather",
  "scatter",
  "all-gather",
  "reduce-scatter",
  "all-to-all",
  "barrier",
];

/** Algorithm used for each collective. */
export type StepAlgorithm = "ring" | "binomial tree" | "direct" | "pairwise exchange" | "dissemination";

/** Largest rank count the step generator accepts (the drawing shows every rank). */
export const MAX_STEP_RANKS = 16;

/**
 * What one buffer slot holds: chunk `chunk` (0…n−1) of the data, summed over (or, for a copy,
 * coming from) the ranks in `sources` (sorted ascending). For all-to-all, `chunk` is the
 * destination rank and `sources` the rank the data came from.
 */
export interface Piece {
  chunk: number;
  sources: number[];
}

/** One message of one step. */
export interface Transfer {
  from: number;
  to: number;
  /** Slots sent (and the slots they land in). */
  chunks: number[];
  /** Bytes on the wire. */
  bytes: number;
  /** `sum`: the receiver adds the data into its slot; `copy`: it overwrites (or fills) the slot. */
  combine: "sum" | "copy";
}

/** One step: the messages sent at the same time and every buffer after they arrive. */
export interface CollectiveStep {
  transfers: Transfer[];
  /** `buffers[rank][slot]` after this step; `null` is an empty slot. */
  buffers: (Piece | null)[][];
  /** Most bytes one rank sends or receives in this step (what the α–β model charges). */
  maxLinkBytes: number;
}

/** The whole schedule. */
export interface CollectiveSchedule {
  collective: StepCollective;
  algorithm: StepAlgorithm;
  ranks: number;
  root: number;
  messageBytes: number;
  /** $S/n$. */
  chunkBytes: number;
  /** Buffers before the first step. */
  initial: (Piece | null)[][];
  steps: CollectiveStep[];
  /** Bytes each rank sends over the whole collective. */
  bytesSentByRank: number[];
  /** Sum of {@link CollectiveStep.maxLinkBytes} over the steps: the β term's bytes. */
  criticalPathBytes: number;
}

/** Inputs of {@link collectiveSteps}. */
export interface CollectiveStepsInput {
  collective: StepCollective;
  /** Ranks $n$, 2 … {@link MAX_STEP_RANKS}. */
  ranks: number;
  /** Message size $S$ in bytes (nccl-tests convention, see the module comment). */
  messageBytes: number;
  /** Root of broadcast, reduce, gather and scatter (default 0). */
  root?: number;
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const union = (a: number[], b: number[]) => [...new Set([...a, ...b])].sort((x, y) => x - y);
const clone = (buffers: (Piece | null)[][]) =>
  buffers.map((row) => row.map((p) => (p ? { chunk: p.chunk, sources: [...p.sources] } : null)));

/** Ceil(log2 n) for n ≥ 1. */
export function ceilLog2(n: number): number {
  let k = 0;
  while (2 ** k < n) k++;
  return k;
}

function initialBuffers(c: StepCollective, n: number, root: number): (Piece | null)[][] {
  return range(n).map((r) =>
    range(n).map((j): Piece | null => {
      switch (c) {
        case "broadcast":
        case "scatter":
          return r === root ? { chunk: j, sources: [root] } : null;
        case "gather":
        case "all-gather":
          return j === r ? { chunk: j, sources: [r] } : null;
        case "barrier":
          // Slot 0 holds which ranks this rank knows to have arrived.
          return j === 0 ? { chunk: 0, sources: [r] } : null;
        default:
          // reduce, all-reduce, reduce-scatter: every rank has its own full input;
          // all-to-all: slot j holds what rank r has for rank j.
          return { chunk: j, sources: [r] };
      }
    }),
  );
}

/** Ring transfers, rank r → r+1, one chunk each. */
function ringStep(
  n: number,
  chunkOf: (rank: number) => number,
  chunkBytes: number,
  combine: "sum" | "copy",
): Transfer[] {
  return range(n).map((r) => ({ from: r, to: (r + 1) % n, chunks: [chunkOf(r)], bytes: chunkBytes, combine }));
}

function plan(
  c: StepCollective,
  n: number,
  root: number,
  S: number,
): { algorithm: StepAlgorithm; steps: Transfer[][] } {
  const chunk = S / n;
  const mod = (x: number) => ((x % n) + n) % n;
  const all = range(n);
  const abs = (rr: number) => mod(rr + root);
  const steps: Transfer[][] = [];
  switch (c) {
    case "reduce-scatter":
    case "all-reduce": {
      // Step k: rank r sends chunk r-k-1, so rank r ends owning the full sum of chunk r.
      for (let k = 0; k < n - 1; k++) steps.push(ringStep(n, (r) => mod(r - k - 1), chunk, "sum"));
      if (c === "all-reduce") for (let k = 0; k < n - 1; k++) steps.push(ringStep(n, (r) => mod(r - k), chunk, "copy"));
      return { algorithm: "ring", steps };
    }
    case "all-gather": {
      for (let k = 0; k < n - 1; k++) steps.push(ringStep(n, (r) => mod(r - k), chunk, "copy"));
      return { algorithm: "ring", steps };
    }
    case "broadcast": {
      for (let k = 0; k < ceilLog2(n); k++) {
        const step: Transfer[] = [];
        for (let rr = 0; rr < 2 ** k; rr++)
          if (rr + 2 ** k < n)
            step.push({ from: abs(rr), to: abs(rr + 2 ** k), chunks: all, bytes: S, combine: "copy" });
        steps.push(step);
      }
      return { algorithm: "binomial tree", steps };
    }
    case "reduce": {
      for (let k = ceilLog2(n) - 1; k >= 0; k--) {
        const step: Transfer[] = [];
        for (let rr = 2 ** k; rr < Math.min(2 ** (k + 1), n); rr++)
          step.push({ from: abs(rr), to: abs(rr - 2 ** k), chunks: all, bytes: S, combine: "sum" });
        steps.push(step);
      }
      return { algorithm: "binomial tree", steps };
    }
    case "gather":
      steps.push(
        all
          .filter((r) => r !== root)
          .map((r) => ({ from: r, to: root, chunks: [r], bytes: chunk, combine: "copy" as const })),
      );
      return { algorithm: "direct", steps };
    case "scatter":
      steps.push(
        all
          .filter((r) => r !== root)
          .map((r) => ({ from: root, to: r, chunks: [r], bytes: chunk, combine: "copy" as const })),
      );
      return { algorithm: "direct", steps };
    case "all-to-all": {
      // Each step pairs ranks that swap one chunk: partner r XOR k when n is a power of two
      // (n-1 steps), else partner k-r mod n (n steps; a rank paired with itself idles).
      const powerOfTwo = 2 ** ceilLog2(n) === n;
      for (let k = powerOfTwo ? 1 : 0; k < n; k++) {
        const partner = (r: number) => (powerOfTwo ? r ^ k : mod(k - r));
        steps.push(
          all
            .filter((r) => partner(r) !== r)
            .map((r) => ({ from: r, to: partner(r), chunks: [partner(r)], bytes: chunk, combine: "copy" as const })),
        );
      }
      return { algorithm: "pairwise exchange", steps };
    }
    case "barrier": {
      for (let k = 0; k < ceilLog2(n); k++)
        steps.push(all.map((r) => ({ from: r, to: mod(r + 2 ** k), chunks: [0], bytes: 0, combine: "sum" as const })));
      return { algorithm: "dissemination", steps };
    }
  }
  // Unreachable: requireOneOf rejects other names.
  throw new ModelInputError("collective", `unknown collective ${String(c)}`);
}

/** Applies one step's transfers to a copy of `before` (all sends read the state before the step). */
function apply(c: StepCollective, before: (Piece | null)[][], transfers: Transfer[]): (Piece | null)[][] {
  const after = clone(before);
  for (const t of transfers) {
    const senderBuffer = at(before, t.from, "collective steps: buffer of the sending rank");
    const receiverBuffer = at(after, t.to, "collective steps: buffer of the receiving rank");
    for (const slot of t.chunks) {
      const sent = at(senderBuffer, slot, "collective steps: slot the rank sends");
      if (sent === null) {
        throw new ModelInvariantError(`collective steps: rank ${t.from} sends slot ${slot}, which it does not hold`);
      }
      if (c === "all-to-all") {
        // A swap: the receiver files data from rank `from` in slot `from`, the slot it sends in the same step.
        receiverBuffer[t.from] = { chunk: sent.chunk, sources: [...sent.sources] };
        continue;
      }
      const mine = at(receiverBuffer, slot, "collective steps: slot the rank receives");
      receiverBuffer[slot] =
        t.combine === "sum" && mine
          ? { chunk: mine.chunk, sources: union(mine.sources, sent.sources) }
          : { chunk: sent.chunk, sources: [...sent.sources] };
    }
  }
  return after;
}

/**
 * The step-by-step schedule of `collective` on `ranks` ranks for a message of `messageBytes`
 * bytes (algorithms and conventions in the module comment). Throws ModelInputError on bad input.
 */
export function collectiveSteps(input: CollectiveStepsInput): CollectiveSchedule {
  const c = requireOneOf(input.collective, STEP_COLLECTIVES, "collective");
  const n = requirePositiveInteger(input.ranks, "ranks");
  if (n < 2 || n > MAX_STEP_RANKS)
    throw new ModelInputError("ranks", `ranks must be between 2 and ${MAX_STEP_RANKS} (got ${n})`);
  const S =
    c === "barrier"
      ? requireNonNegativeNumber(input.messageBytes ?? 0, "messageBytes")
      : requirePositiveNumber(input.messageBytes, "messageBytes");
  if (!Number.isFinite(S)) throw new ModelInputError("messageBytes", "messageBytes must be finite");
  const root = input.root === undefined ? 0 : requireNonNegativeNumber(input.root, "root");
  if (!Number.isInteger(root) || root >= n)
    throw new ModelInputError("root", `root must be a rank from 0 to ${n - 1} (got ${root})`);
  const messageBytes = c === "barrier" ? 0 : S;
  const { algorithm, steps: planned } = plan(c, n, root, messageBytes);
  const initial = initialBuffers(c, n, root);
  const bytesSentByRank = new Array<number>(n).fill(0);
  let buffers = initial;
  const steps: CollectiveStep[] = planned.map((transfers) => {
    buffers = apply(c, buffers, transfers);
    const sent = new Array<number>(n).fill(0);
    const received = new Array<number>(n).fill(0);
    for (const t of transfers) {
      sent[t.from] = at(sent, t.from, "collective steps: bytes the rank sends") + t.bytes;
      received[t.to] = at(received, t.to, "collective steps: bytes the rank receives") + t.bytes;
      bytesSentByRank[t.from] = at(bytesSentByRank, t.from, "collective steps: bytes the rank sends in all") + t.bytes;
    }
    const maxLinkBytes = Math.max(...sent, ...received);
    return { transfers, buffers, maxLinkBytes };
  });
  const criticalPathBytes = steps.reduce((acc, s) => acc + s.maxLinkBytes, 0);
  return {
    collective: c,
    algorithm,
    ranks: n,
    root,
    messageBytes,
    chunkBytes: messageBytes / n,
    initial,
    steps,
    bytesSentByRank,
    criticalPathBytes,
  };
}

/**
 * Time of a schedule in the α–β model: every step costs α (latency, seconds) plus its busiest
 * link's bytes over β (bytes per second): $T = k\alpha + \sum_{\text{steps}} B_{\max}/\beta$.
 */
export function alphaBetaSeconds(schedule: CollectiveSchedule, alphaSeconds: number, bytesPerSecond: number): number {
  const alpha = requireNonNegativeNumber(alphaSeconds, "alphaSeconds");
  const beta = requirePositiveNumber(bytesPerSecond, "bytesPerSecond");
  return schedule.steps.length * alpha + schedule.criticalPathBytes / beta;
}

/** True when every rank's buffer matches what the collective promises (used by tests and the widget's summary). */
export function scheduleIsComplete(schedule: CollectiveSchedule): boolean {
  const n = schedule.ranks;
  const final = schedule.steps.at(-1)?.buffers ?? schedule.initial;
  const everyone = range(n);
  const is = (p: Piece | null, chunk: number, sources: number[]) =>
    p !== null &&
    p.chunk === chunk &&
    p.sources.length === sources.length &&
    p.sources.every((s, i) => s === sources[i]);
  return final.every((row, r) =>
    row.every((p, j) => {
      switch (schedule.collective) {
        case "all-reduce":
          return is(p, j, everyone);
        case "reduce-scatter":
          return j !== r || is(p, j, everyone);
        case "all-gather":
          return is(p, j, [j]);
        case "broadcast":
          return is(p, j, [schedule.root]);
        case "reduce":
          return r !== schedule.root || is(p, j, everyone);
        case "gather":
          return r !== schedule.root || is(p, j, [j]);
        case "scatter":
          return j !== r || is(p, j, [schedule.root]);
        case "all-to-all":
          return is(p, r, [j]);
        case "barrier":
          return j !== 0 || is(p, 0, everyone);
      }
    }),
  );
}
