/**
 * A small, deterministic simulation of mixture-of-experts routing under expert parallelism.
 *
 * What it is for: the expert-parallelism chapter and its `moe-routing` widget show how a router's
 * top-k choices, an expert capacity and an uneven expert popularity turn into dropped tokens and
 * uneven per-GPU work. Everything here is pure and seeded, so the same input always draws the same
 * picture at build time and in the browser, and tests can pin exact counts.
 *
 * The model of the router (our simplification, stated so readers can judge it):
 * - Expert e has a popularity weight w_e = (e + 1)^(-skew). skew = 0 is a uniform router; larger
 *   values concentrate traffic on the low-numbered experts, which live on the first GPUs.
 * - Each token draws its k experts without replacement with probabilities proportional to w
 *   (the Gumbel-top-k trick: score_e = ln w_e + Gumbel noise, keep the k largest scores).
 * - Expert capacity follows Switch Transformers' definition generalised to top-k,
 *   C = ceil(capacityFactor · k · T / E) slots per expert (`capacityFactor: null` = no limit,
 *   i.e. dropless routing as in DeepSeek-V3).
 * - Slots are filled in GShard's order (Algorithm 1 of lepikhin2021gshard): every token's first
 *   choice in token order, then every token's second choice, and so on; an assignment that finds
 *   its expert full is dropped (the token skips that expert and keeps its residual path).
 * - Experts are placed in contiguous blocks: GPU g hosts experts [g·E/G, (g+1)·E/G). Tokens are
 *   split evenly across GPUs in order (token i starts on GPU floor(i·G/T)).
 */
import { at, ModelInputError } from "./errors.ts";

/** Input of {@link simulateMoeRouting}. */
export interface MoeRoutingInput {
  /** T, tokens routed in this layer across the whole expert-parallel group. Integer ≥ 1. */
  tokens: number;
  /** E, routed experts in the layer. Integer ≥ 1, divisible by `gpus`. */
  experts: number;
  /** G, the expert-parallel degree (GPUs that share the experts). Integer ≥ 1, divides `tokens`. */
  gpus: number;
  /** k, experts chosen per token. Integer, 1 ≤ k ≤ E. */
  topK: number;
  /** Capacity factor c > 0 (Switch Transformers), or `null` for no capacity limit (dropless). */
  capacityFactor: number | null;
  /** Zipf exponent of expert popularity, 0 ≤ skew ≤ 4. 0 = uniform. */
  skew: number;
  /** Seed of the pseudo-random router noise; any integer 0 ≤ seed < 2^32. */
  seed: number;
}

/**
 * Chapter 7's routing example: 512 tokens, 16 experts on 4 GPUs, top-2, capacity factor 1.25,
 * skew 0.5, seed 7. It is the moe-routing widget's default state, and the chapter's numbers about
 * the widget are computed from it (src/model/values/expert-parallelism.ts).
 */
export const MOE_ROUTING_EXAMPLE: Readonly<MoeRoutingInput> = {
  tokens: 512,
  experts: 16,
  gpus: 4,
  topK: 2,
  capacityFactor: 1.25,
  skew: 0.5,
  seed: 7,
};

/** One (token, expert) pair chosen by the router. */
export interface MoeAssignment {
  token: number;
  /** 0 for the token's first choice, 1 for its second, … */
  rank: number;
  expert: number;
  /** GPU that hosts the expert. */
  gpu: number;
  /** GPU where the token lives before dispatch. */
  sourceGpu: number;
  /** false when the expert was already full (the assignment is dropped). */
  kept: boolean;
}

/** Result of {@link simulateMoeRouting}. Counts are of (token, expert) assignments unless named otherwise. */
export interface MoeRoutingResult {
  input: MoeRoutingInput;
  /** Slots per expert, or null when routing is dropless. */
  capacityPerExpert: number | null;
  /** All T·k assignments, ordered by token then rank. */
  assignments: MoeAssignment[];
  /** Assignments the router sent to each expert (before capacity). Length E. */
  expertRequested: number[];
  /** Assignments each expert actually processes (after capacity). Length E. */
  expertKept: number[];
  /** Assignments sent to each GPU's experts (before capacity). Length G. */
  gpuRequested: number[];
  /** Assignments each GPU processes (after capacity). Length G. */
  gpuKept: number[];
  /** T·k. */
  totalAssignments: number;
  droppedAssignments: number;
  /** droppedAssignments / totalAssignments, in [0, 1]. */
  droppedFraction: number;
  /** Tokens whose every choice was dropped (they pass through the layer on the residual path only). */
  tokensFullyDropped: number;
  /** Kept assignments whose expert lives on another GPU than the token: what the dispatch all-to-all moves. */
  remoteKeptAssignments: number;
  /** Busiest GPU's kept assignments divided by the mean over GPUs (1 = perfectly balanced). */
  gpuImbalance: number;
  /** Busiest expert's requested assignments divided by the fair share T·k/E. */
  expertImbalance: number;
}

const MAX_TOKENS = 65_536;
const MAX_EXPERTS = 1_024;
const MAX_ASSIGNMENTS = 1_048_576;

function requireInteger(field: string, value: unknown, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isInteger(value)) {
    throw new ModelInputError(field, `${field} must be an integer, got ${String(value)}`);
  }
  if (value < min || value > max) {
    throw new ModelInputError(field, `${field} must be between ${min} and ${max}, got ${value}`);
  }
  return value;
}

function requireFinite(field: string, value: unknown, min: number, max: number, minExclusive = false): number {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new ModelInputError(field, `${field} must be a finite number, got ${String(value)}`);
  }
  if ((minExclusive ? value <= min : value < min) || value > max) {
    const lower = minExclusive ? `greater than ${min}` : `at least ${min}`;
    throw new ModelInputError(field, `${field} must be ${lower} and at most ${max}, got ${value}`);
  }
  return value;
}

/**
 * Checks a routing input and returns it unchanged; throws {@link ModelInputError} naming the field
 * for anything out of range (the limits keep the simulation fast enough for a widget).
 */
export function validateMoeRoutingInput(input: MoeRoutingInput): MoeRoutingInput {
  const tokens = requireInteger("tokens", input.tokens, 1, MAX_TOKENS);
  const experts = requireInteger("experts", input.experts, 1, MAX_EXPERTS);
  const gpus = requireInteger("gpus", input.gpus, 1, experts);
  const topK = requireInteger("topK", input.topK, 1, experts);
  if (experts % gpus !== 0) {
    throw new ModelInputError("gpus", `experts (${experts}) must be divisible by gpus (${gpus})`);
  }
  if (tokens % gpus !== 0) {
    throw new ModelInputError("gpus", `tokens (${tokens}) must be divisible by gpus (${gpus})`);
  }
  if (tokens * topK > MAX_ASSIGNMENTS) {
    throw new ModelInputError("tokens", `tokens × topK must be at most ${MAX_ASSIGNMENTS}, got ${tokens * topK}`);
  }
  if (input.capacityFactor !== null) {
    requireFinite("capacityFactor", input.capacityFactor, 0, 64, true);
  }
  requireFinite("skew", input.skew, 0, 4);
  requireInteger("seed", input.seed, 0, 2 ** 32 - 1);
  return input;
}

/**
 * Expert capacity in slots: ceil(c · k · T / E). Switch Transformers defines capacity as
 * (tokens per batch / number of experts) × capacity factor for k = 1 [fedus2022switch, Eq. (3)];
 * with k choices per token the router hands out k·T assignments, so the fair share is k·T/E.
 */
export function expertCapacity(tokens: number, experts: number, topK: number, capacityFactor: number): number {
  requireInteger("tokens", tokens, 1, Number.MAX_SAFE_INTEGER);
  requireInteger("experts", experts, 1, Number.MAX_SAFE_INTEGER);
  requireInteger("topK", topK, 1, experts);
  requireFinite("capacityFactor", capacityFactor, 0, 1e6, true);
  // Round the product first so that e.g. 1.25 · 2 · 4096 / 8 = 1280 exactly, not 1280.0000000000002 → 1281.
  const share = Math.round(((capacityFactor * topK * tokens) / experts) * 1e9) / 1e9;
  return Math.max(1, Math.ceil(share));
}

/** Mulberry32: a tiny, well-mixed 32-bit PRNG; returns a function yielding floats in (0, 1). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const x = (t ^ (t >>> 14)) >>> 0;
    return (x + 0.5) / 4_294_967_296;
  };
}

/** Popularity weights w_e = (e+1)^(-skew), normalised to sum to 1. */
export function expertPopularity(experts: number, skew: number): number[] {
  requireInteger("experts", experts, 1, MAX_EXPERTS);
  requireFinite("skew", skew, 0, 4);
  const raw = Array.from({ length: experts }, (_, e) => Math.pow(e + 1, -skew));
  const total = raw.reduce((s, w) => s + w, 0);
  return raw.map((w) => w / total);
}

/**
 * Routes T tokens to k of E experts each, applies the expert capacity, and counts what each GPU
 * receives. Deterministic for a given input (including `seed`).
 */
export function simulateMoeRouting(input: MoeRoutingInput): MoeRoutingResult {
  const { tokens, experts, gpus, topK, capacityFactor, skew, seed } = validateMoeRoutingInput(input);
  const logWeights = expertPopularity(experts, skew).map((w) => Math.log(w));
  const random = mulberry32(seed);
  const expertsPerGpu = experts / gpus;
  const tokensPerGpu = tokens / gpus;

  // choices[t][r] = token t's r-th choice (Gumbel-top-k, best score first): its expert, and
  // whether the expert's capacity kept it.
  const choices: { expert: number; kept: boolean }[][] = [];
  for (let t = 0; t < tokens; t++) {
    const scored = logWeights.map((w, expert) => ({ expert, score: w - Math.log(-Math.log(random())) }));
    scored.sort((a, b) => b.score - a.score || a.expert - b.expert);
    choices.push(scored.slice(0, topK).map(({ expert }) => ({ expert, kept: false })));
  }

  const capacity = capacityFactor === null ? null : expertCapacity(tokens, experts, topK, capacityFactor);
  const expertRequested = new Array<number>(experts).fill(0);
  const expertKept = new Array<number>(experts).fill(0);
  // GShard order: all first choices (token order), then all second choices, …
  for (let r = 0; r < topK; r++) {
    for (const tokenChoices of choices) {
      const choice = at(tokenChoices, r, "moe routing: choice of a token");
      const e = choice.expert;
      expertRequested[e] = at(expertRequested, e, "moe routing: requests of an expert") + 1;
      const keptSoFar = at(expertKept, e, "moe routing: kept assignments of an expert");
      if (capacity === null || keptSoFar < capacity) {
        expertKept[e] = keptSoFar + 1;
        choice.kept = true;
      }
    }
  }

  const assignments: MoeAssignment[] = [];
  const gpuRequested = new Array<number>(gpus).fill(0);
  const gpuKept = new Array<number>(gpus).fill(0);
  let droppedAssignments = 0;
  let tokensFullyDropped = 0;
  let remoteKeptAssignments = 0;
  for (const [t, tokenChoices] of choices.entries()) {
    const sourceGpu = Math.floor(t / tokensPerGpu);
    let keptAny = false;
    for (const [r, { expert, kept }] of tokenChoices.entries()) {
      const gpu = Math.floor(expert / expertsPerGpu);
      assignments.push({ token: t, rank: r, expert, gpu, sourceGpu, kept });
      gpuRequested[gpu] = at(gpuRequested, gpu, "moe routing: requests on a GPU") + 1;
      if (kept) {
        gpuKept[gpu] = at(gpuKept, gpu, "moe routing: kept assignments on a GPU") + 1;
        keptAny = true;
        if (gpu !== sourceGpu) remoteKeptAssignments += 1;
      } else {
        droppedAssignments += 1;
      }
    }
    if (!keptAny) tokensFullyDropped += 1;
  }

  const totalAssignments = tokens * topK;
  const keptTotal = totalAssignments - droppedAssignments;
  const meanGpuKept = keptTotal / gpus;
  const fairShare = totalAssignments / experts;
  return {
    input,
    capacityPerExpert: capacity,
    assignments,
    expertRequested,
    expertKept,
    gpuRequested,
    gpuKept,
    totalAssignments,
    droppedAssignments,
    droppedFraction: droppedAssignments / totalAssignments,
    tokensFullyDropped,
    remoteKeptAssignments,
    // keptTotal ≥ 1 always: the first assignment to reach any expert is kept (capacity ≥ 1).
    gpuImbalance: Math.max(...gpuKept) / meanGpuKept,
    expertImbalance: Math.max(...expertRequested) / fairShare,
  };
}

/** Input of {@link expertDispatchBytes}. */
export interface ExpertDispatchInput {
  /** Tokens that start on one GPU in this layer (b·s for one microbatch without context parallelism). */
  tokensPerGpu: number;
  /** Hidden size h: elements per token vector. */
  hidden: number;
  /** k, experts chosen per token. */
  topK: number;
  /** Expert-parallel degree: GPUs the experts are spread over. */
  epDegree: number;
  /** Bytes per element of the dispatched activations (2 for bf16, 1 for fp8). */
  bytesPerElement: number;
}

/**
 * Bytes one GPU sends in ONE dispatch all-to-all of one MoE layer, assuming the router spreads
 * assignments uniformly over the experts (so a fraction (G−1)/G of them leave the GPU):
 * tokensPerGpu · k · h · bytes · (G−1)/G. The combine all-to-all sends the same amount back, and the
 * backward pass repeats both (gradients travel the same paths), so a training step moves four times
 * this per MoE layer per microbatch. Each token copy is sent once per chosen expert, as in a plain
 * all-to-all (GShard's dispatch einsum); deduplicating copies per node, as DeepSeek-V3's kernels do,
 * sends less.
 */
export function expertDispatchBytes(input: ExpertDispatchInput): number {
  const tokensPerGpu = requireInteger("tokensPerGpu", input.tokensPerGpu, 1, Number.MAX_SAFE_INTEGER);
  const hidden = requireInteger("hidden", input.hidden, 1, Number.MAX_SAFE_INTEGER);
  const topK = requireInteger("topK", input.topK, 1, 1_024);
  const epDegree = requireInteger("epDegree", input.epDegree, 1, 1_048_576);
  const bytesPerElement = requireFinite("bytesPerElement", input.bytesPerElement, 0, 8, true);
  return (tokensPerGpu * topK * hidden * bytesPerElement * (epDegree - 1)) / epDegree;
}

/**
 * Switch Transformers' load-balancing loss without its coefficient α (fedus2022switch Eq. 4–6):
 * E · Σ_i f_i · P_i, where f_i is the fraction of tokens whose top-1 expert is i and P_i the mean
 * router probability of expert i over the batch. Equals 1 when f and P are both uniform, and also
 * whenever either one alone is uniform; some unbalanced routings give less than 1, so uniform routing
 * is not its unique minimum. Ties in a token's probabilities go to the lower expert index.
 *
 * @param probabilities One row per token: the router's softmax over the E experts (each row sums to 1).
 */
export function switchBalanceLoss(probabilities: readonly (readonly number[])[]): number {
  if (!Array.isArray(probabilities) || probabilities.length === 0) {
    throw new ModelInputError("probabilities", "probabilities must be a non-empty list of rows");
  }
  const experts = probabilities[0].length;
  if (experts < 1) throw new ModelInputError("probabilities", "each row must have at least one expert");
  const dispatched = new Array<number>(experts).fill(0);
  const meanProbability = new Array<number>(experts).fill(0);
  for (const row of probabilities) {
    if (
      !Array.isArray(row) ||
      row.length !== experts ||
      row.some((p) => typeof p !== "number" || !Number.isFinite(p) || p < 0)
    ) {
      throw new ModelInputError("probabilities", `every row must hold ${experts} non-negative finite numbers`);
    }
    const sum = row.reduce((a, b) => a + b, 0);
    if (Math.abs(sum - 1) > 1e-9) throw new ModelInputError("probabilities", `every row must sum to 1 (got ${sum})`);
    let top = 0;
    for (const [e, p] of row.entries()) if (p > at(row, top, "balance loss: top probability")) top = e;
    dispatched[top] = at(dispatched, top, "balance loss: tokens of the top expert") + 1;
    row.forEach((p, e) => (meanProbability[e] = at(meanProbability, e, "balance loss: probability sum") + p));
  }
  const tokens = probabilities.length;
  return (
    experts *
    dispatched.reduce(
      (acc, count, e) => acc + (count / tokens) * (at(meanProbability, e, "balance loss: probability sum") / tokens),
      0,
    )
  );
}
