/**
 * Pipeline schedules laid out in time: every forward (F), backward (B), weight-gradient (W) and,
 * for DualPipe, overlapped forward-and-backward (FB) operation of every stage, with its start and
 * end. Used by the pipeline chapter's figures and tests; it guards against quoting a bubble
 * formula for a schedule whose order of operations does not actually achieve it.
 *
 * ## How the layout is computed
 *
 * Each schedule is a fixed per-stage order of operations (the order the reference implementation
 * issues them in). A list scheduler then starts each operation as soon as its stage is free and
 * its dependencies have finished: F of a microbatch on (virtual) stage $k$ after its F on stage $k-1$;
 * B on stage $k$ after B on stage $k+1$ (after its own F on the last stage); W after its B.
 * Communication takes no time. So ops of one stage never overlap and every dependency holds by
 * construction; the tests check both anyway.
 *
 * ## Durations
 *
 * `forward` ($T_F$), `backward` ($T_B$, gradient with respect to the input only) and `weightGrad`
 * ($T_W$) are per microbatch for one stage's share of the layers. Schedules that do not split the
 * backward (AFAB, 1F1B, interleaved) run one B op of the full backward, $T_B + T_W$. With $v$
 * interleaved chunks each chunk op takes $1/v$ of the stage's time. DualPipe's durations are per
 * chunk (one stage's layers; each DualPipe rank holds two such chunks, one per direction) and
 * its FB op lasts `forwardBackward` (default $T_F + T_B + T_W$, i.e. no compute speed-up from the
 * overlap, which only hides communication).
 *
 * ## Bubble conventions
 *
 * `bubbleFraction` = total idle time / total busy time over all stages, within the makespan (the
 * book's convention, narayanan2021efficient §2.2: $(p-1)/m$ for AFAB and 1F1B with uniform
 * durations, $(p-1)/(vm)$ interleaved). `bubbleRate` = idle / (idle + busy), the other convention,
 * $(p-1)/(m+p-1)$ for 1F1B.
 *
 * ## Schedules
 *
 * - `afab` (huang2019gpipe): all forwards, then all backwards.
 * - `1f1b` (narayanan2021efficient §2.2.1): stage $i$ runs $\min(p-i-1, m)$ warm-up forwards, then
 *   alternates one forward and one backward, then drains the remaining backwards.
 * - `interleaved` (narayanan2021efficient §2.2.2): $v$ chunks per stage in Megatron-LM's order;
 *   needs $m$ to be a multiple of $p$.
 * - `zb-h1` (qi2024zerobubble §2.3): 1F1B's order of F and B with the backward split into B and W;
 *   stage $i$ (0-based) postpones up to $i$ weight-gradient ops, which fill the cooldown. Peak memory
 *   stays at 1F1B's; the bubble is $(p-1)(T_F + T_B - T_W)$ when $T_W \le T_F$ and $T_W \le T_B$
 *   (tested over a grid).
 * - `dualpipe` (deepseekai2024v3 §3.2.1): the order of DualPipe's reference implementation
 *   (`deepseek-ai/DualPipe`, `dualpipe.py`, steps 1–8), bidirectional: half the microbatches enter at
 *   rank 0, half at rank $p-1$; rank $r$ holds stage $r$ of the first direction and stage $p-1-r$
 *   of the second (2× parameters). Needs even $p$ and even $m \ge 2p$. Communication/computation
 *   overlap inside an FB op is not modelled (comm time is zero here).
 */
import {
  at,
  ModelInputError,
  requireNonNegativeNumber,
  requireOneOf,
  requirePositiveInteger,
  requirePositiveNumber,
} from "./errors.ts";

/** Pipeline schedules the generator lays out. */
export type PipelineSchedule = "afab" | "1f1b" | "interleaved" | "zb-h1" | "dualpipe";

/** Every schedule name, for option parsers. */
export const PIPELINE_SCHEDULES: readonly PipelineSchedule[] = ["afab", "1f1b", "interleaved", "zb-h1", "dualpipe"];

/**
 * Operation kind: forward, backward (full, or input-gradient when
 * W is split), weight gradient, overlapped forward+backward.
 */
export type PipelineOpKind = "F" | "B" | "W" | "FB";

/** One operation on one stage. Times are in the unit of the input durations. */
export interface PipelineOp {
  /** Stage (GPU rank in the pipeline), 0 first. */
  stage: number;
  kind: PipelineOpKind;
  /** Microbatch (for FB: of the forward part). DualPipe numbers the second direction's microbatches m/2 … m−1. */
  microbatch: number;
  /** Model chunk on this stage: interleaved 0…v−1; DualPipe 0 = first-direction stage, 1 = second; else 0. */
  chunk: number;
  start: number;
  end: number;
  /** FB only: microbatch of the backward part. */
  backwardMicrobatch?: number;
  /** FB only: chunk of the backward part. */
  backwardChunk?: number;
}

/** Input of {@link pipelineSchedule}. */
export interface PipelineInput {
  schedule: PipelineSchedule;
  /** Pipeline stages $p$. */
  stages: number;
  /** Microbatches per step $m$ (DualPipe: total over both directions). */
  microbatches: number;
  /** Chunks per stage $v$ (interleaved only; default 2). */
  chunks?: number;
  /** $T_F$ (default 1). */
  forward?: number;
  /** $T_B$, input-gradient part (default 1). */
  backward?: number;
  /** $T_W$, weight-gradient part (default 1). */
  weightGrad?: number;
  /** DualPipe only: duration of an overlapped forward+backward op (default forward + backward + weightGrad). */
  forwardBackward?: number;
}

/** Result of {@link pipelineSchedule}. */
export interface PipelineResult {
  schedule: PipelineSchedule;
  stages: number;
  microbatches: number;
  chunks: number;
  /** Every operation, sorted by stage then start time. */
  ops: PipelineOp[];
  /** End of the last operation. */
  makespan: number;
  /** Busy time per stage. */
  busyPerStage: number[];
  /** Idle time per stage within the makespan. */
  idlePerStage: number[];
  /** Σ idle / Σ busy (the book's bubble fraction). */
  bubbleFraction: number;
  /** Σ idle / (Σ idle + Σ busy). */
  bubbleRate: number;
  /**
   * Peak count of (microbatch, chunk) activations alive per stage:
   * from the start of F to the end of the B that consumes them.
   */
  peakInFlight: number[];
}

/** Upper bounds that keep a layout drawable and the CLI output bounded. */
export const PIPELINE_LIMITS = { stages: 256, microbatches: 4096, ops: 2_000_000 } as const;

interface PlannedOp {
  kind: PipelineOpKind;
  microbatch: number;
  chunk: number;
  duration: number;
  /** Keys of ops that must finish first. */
  deps: string[];
  key: string;
  /** Keys of the activations this op creates (F) or frees (B). */
  creates?: string;
  frees?: string;
  backwardMicrobatch?: number;
  backwardChunk?: number;
}

const fKey = (vstage: number, mb: number) => `F:${vstage}:${mb}`;
const bKey = (vstage: number, mb: number) => `B:${vstage}:${mb}`;

/** Validates input and applies defaults. */
function resolve(input: PipelineInput) {
  const schedule = requireOneOf(input.schedule, PIPELINE_SCHEDULES, "schedule");
  const p = requirePositiveInteger(input.stages, "stages");
  const m = requirePositiveInteger(input.microbatches, "microbatches");
  if (p > PIPELINE_LIMITS.stages)
    throw new ModelInputError("stages", `stages must be at most ${PIPELINE_LIMITS.stages} (got ${p})`);
  if (m > PIPELINE_LIMITS.microbatches) {
    throw new ModelInputError(
      "microbatches",
      `microbatches must be at most ${PIPELINE_LIMITS.microbatches} (got ${m})`,
    );
  }
  const v = schedule === "interleaved" ? requirePositiveInteger(input.chunks ?? 2, "chunks") : 1;
  if (schedule !== "interleaved" && input.chunks !== undefined && input.chunks !== 1) {
    requirePositiveInteger(input.chunks, "chunks");
    throw new ModelInputError(
      "chunks",
      `chunks applies to the interleaved schedule only (got ${input.chunks} with ${schedule})`,
    );
  }
  const forward = requirePositiveNumber(input.forward ?? 1, "forward");
  const backward = requirePositiveNumber(input.backward ?? 1, "backward");
  const weightGrad = requireNonNegativeNumber(input.weightGrad ?? 1, "weightGrad");
  const forwardBackward = requirePositiveNumber(
    input.forwardBackward ?? forward + backward + weightGrad,
    "forwardBackward",
  );
  if (schedule === "interleaved") {
    if (v < 2) throw new ModelInputError("chunks", `the interleaved schedule needs at least 2 chunks (got ${v})`);
    if (m % p !== 0) {
      throw new ModelInputError(
        "microbatches",
        `the interleaved schedule needs microbatches (${m}) to be a multiple of stages (${p})`,
      );
    }
  }
  if (schedule === "zb-h1" && weightGrad === 0) {
    throw new ModelInputError("weightGrad", "zb-h1 splits the backward pass: weightGrad must be positive");
  }
  if (schedule === "dualpipe") {
    if (p % 2 !== 0) throw new ModelInputError("stages", `dualpipe needs an even number of stages (got ${p})`);
    if (m % 2 !== 0 || m < 2 * p) {
      throw new ModelInputError(
        "microbatches",
        `dualpipe needs an even number of microbatches of at least 2 × stages = ${2 * p} (got ${m})`,
      );
    }
    if (weightGrad === 0)
      throw new ModelInputError("weightGrad", "dualpipe splits the backward pass: weightGrad must be positive");
  }
  if (p * m * v * 3 > PIPELINE_LIMITS.ops) {
    throw new ModelInputError(
      "microbatches",
      `stages × microbatches × chunks is too large to lay out (limit ${PIPELINE_LIMITS.ops / 3} ops)`,
    );
  }
  return { schedule, p, m, v, forward, backward, weightGrad, forwardBackward };
}

type Resolved = ReturnType<typeof resolve>;

/**
 * Checks an input as {@link pipelineSchedule} does, without laying the schedule out (cheap: no
 * operations are built). Throws the same `ModelInputError`s; a widget calls it while the reader
 * types and leaves the layout for later.
 */
export function checkPipelineInput(input: PipelineInput): void {
  resolve(input);
}

/** Standard dependencies for a (virtual) stage `vs` of `vTotal`, microbatch `mb`. */
function forwardDeps(vs: number, mb: number): string[] {
  return vs > 0 ? [fKey(vs - 1, mb)] : [];
}
function backwardDeps(vs: number, vTotal: number, mb: number): string[] {
  return vs < vTotal - 1 ? [bKey(vs + 1, mb)] : [fKey(vs, mb)];
}

function planAfab(r: Resolved): PlannedOp[][] {
  const plans: PlannedOp[][] = [];
  for (let i = 0; i < r.p; i++) {
    const ops: PlannedOp[] = [];
    for (let j = 0; j < r.m; j++) ops.push(fOp(j, 0, r.forward, i));
    for (let j = 0; j < r.m; j++) ops.push(bOp(j, 0, r.backward + r.weightGrad, i, r.p));
    plans.push(ops);
  }
  return plans;
}

/** An op of microbatch `mb` and chunk `chunk` that waits for `deps` and is known as `key`. */
function plannedOp(
  kind: PipelineOpKind,
  mb: number,
  chunk: number,
  duration: number,
  deps: string[],
  key: string,
): PlannedOp {
  return { kind, microbatch: mb, chunk, duration, deps, key };
}

/** The forward op on virtual stage `vs`: it creates the microbatch's activations of that chunk. */
function fOp(mb: number, chunk: number, duration: number, vs: number): PlannedOp {
  return { ...plannedOp("F", mb, chunk, duration, forwardDeps(vs, mb), fKey(vs, mb)), creates: `${mb}:${chunk}` };
}

/** The backward op on virtual stage `vs` of `vTotal`: it frees what the forward op created. */
function bOp(mb: number, chunk: number, duration: number, vs: number, vTotal: number): PlannedOp {
  return {
    ...plannedOp("B", mb, chunk, duration, backwardDeps(vs, vTotal, mb), bKey(vs, mb)),
    frees: `${mb}:${chunk}`,
  };
}

/** The weight-gradient op that zero-bubble schedules split off the backward op on stage `vs`. */
function wOp(mb: number, chunk: number, duration: number, vs: number): PlannedOp {
  return plannedOp("W", mb, chunk, duration, [bKey(vs, mb)], `W:${vs}:${mb}`);
}

function plan1f1b(r: Resolved, splitW: boolean): PlannedOp[][] {
  const plans: PlannedOp[][] = [];
  const bDuration = splitW ? r.backward : r.backward + r.weightGrad;
  for (let i = 0; i < r.p; i++) {
    const ops: PlannedOp[] = [];
    const warmup = Math.min(r.p - i - 1, r.m);
    const remaining = r.m - warmup;
    // ZB-H1: stage i may hold up to i weight-gradient ops back (qi2024zerobubble §2.3).
    const maxDeferred = splitW ? i : 0;
    let bDone = 0;
    let wDone = 0;
    const afterB = () => {
      bDone++;
      if (splitW) {
        while (bDone - wDone > maxDeferred) {
          ops.push(wOp(wDone, 0, r.weightGrad, i));
          wDone++;
        }
      }
    };
    for (let j = 0; j < warmup; j++) ops.push(fOp(j, 0, r.forward, i));
    for (let j = 0; j < remaining; j++) {
      ops.push(fOp(warmup + j, 0, r.forward, i));
      ops.push(bOp(j, 0, bDuration, i, r.p));
      afterB();
    }
    for (let j = 0; j < warmup; j++) {
      ops.push(bOp(remaining + j, 0, bDuration, i, r.p));
      afterB();
    }
    if (splitW) {
      while (wDone < r.m) {
        ops.push(wOp(wDone, 0, r.weightGrad, i));
        wDone++;
      }
    }
    plans.push(ops);
  }
  return plans;
}

/** Megatron-LM's interleaved 1F1B order (narayanan2021efficient §2.2.2). */
function planInterleaved(r: Resolved): PlannedOp[][] {
  const { p, m, v } = r;
  const total = m * v;
  const fDur = r.forward / v;
  const bDur = (r.backward + r.weightGrad) / v;
  // k-th forward (or backward) op of a stage: which chunk and which microbatch.
  const chunkOf = (k: number, forward: boolean) => {
    const c = Math.floor((k % (p * v)) / p);
    return forward ? c : v - 1 - c;
  };
  const microbatchOf = (k: number) => Math.floor(k / (p * v)) * p + (k % p);
  const plans: PlannedOp[][] = [];
  for (let i = 0; i < p; i++) {
    const ops: PlannedOp[] = [];
    const warmup = m === p ? total : Math.min((p - i - 1) * 2 + (v - 1) * p, total);
    const remaining = total - warmup;
    const forwardAt = (k: number) => {
      const c = chunkOf(k, true);
      const mb = microbatchOf(k);
      ops.push(fOp(mb, c, fDur, c * p + i));
    };
    const backwardAt = (k: number) => {
      const c = chunkOf(k, false);
      const mb = microbatchOf(k);
      ops.push(bOp(mb, c, bDur, c * p + i, p * v));
    };
    for (let k = 0; k < warmup; k++) forwardAt(k);
    for (let k = 0; k < remaining; k++) {
      forwardAt(warmup + k);
      backwardAt(k);
    }
    for (let k = remaining; k < total; k++) backwardAt(k);
    plans.push(ops);
  }
  return plans;
}

/**
 * A DualPipe rank's phase, 0 or 1: the direction it runs (the phase itself on the first half of
 * the ranks, the other one on the second half).
 */
type Phase = 0 | 1;

/** DualPipe's order, transcribed from the reference implementation's eight steps. */
function planDualPipe(r: Resolved): PlannedOp[][] {
  const { p, m } = r;
  const half = p / 2;
  const halfChunks = m / 2;
  const plans: PlannedOp[][] = [];
  // Direction d of rank r uses the stage index k(d, r): r for direction 0, p-1-r for direction 1.
  // Virtual-stage keys are per direction: `${d}/${k}`. Microbatches of direction 1 are numbered m/2 + j.
  const stageOf = (d: number, rank: number) => (d === 0 ? rank : p - 1 - rank);
  const fk = (d: number, k: number, j: number) => `F:${d}/${k}:${j}`;
  const bk = (d: number, k: number, j: number) => `B:${d}/${k}:${j}`;
  for (let rank = 0; rank < p; rank++) {
    const secondHalf = rank >= half ? 1 : 0;
    const halfRank = Math.min(rank, p - 1 - rank);
    const isMiddle = halfRank === half - 1;
    const nextF: [number, number] = [0, 0];
    const nextB: [number, number] = [0, 0];
    const pendingW: { d: number; j: number }[] = [];
    const ops: PlannedOp[] = [];
    const dirOf = (phase: Phase) => phase ^ secondHalf;
    const mbNumber = (d: number, j: number) => d * halfChunks + j;
    const fPart = (phase: Phase) => {
      const d = dirOf(phase);
      const k = stageOf(d, rank);
      const j = nextF[phase]++;
      return { d, k, j, deps: k > 0 ? [fk(d, k - 1, j)] : [], key: fk(d, k, j) };
    };
    const bPart = (phase: Phase) => {
      const d = dirOf(phase);
      const k = stageOf(d, rank);
      const j = nextB[phase]++;
      return { d, k, j, deps: k < p - 1 ? [bk(d, k + 1, j)] : [fk(d, k, j)], key: bk(d, k, j) };
    };
    const forward = (phase: Phase) => {
      const f = fPart(phase);
      ops.push({
        kind: "F",
        microbatch: mbNumber(f.d, f.j),
        chunk: f.d,
        duration: r.forward,
        deps: f.deps,
        key: f.key,
        creates: `${mbNumber(f.d, f.j)}:${f.d}`,
      });
    };
    const backward = (phase: Phase, zb: boolean) => {
      const b = bPart(phase);
      ops.push({
        kind: "B",
        microbatch: mbNumber(b.d, b.j),
        chunk: b.d,
        duration: zb ? r.backward : r.backward + r.weightGrad,
        deps: b.deps,
        key: b.key,
        frees: `${mbNumber(b.d, b.j)}:${b.d}`,
      });
      if (zb) pendingW.push({ d: b.d, j: b.j });
    };
    const weight = () => {
      const w = pendingW.shift();
      if (!w) throw new Error("DualPipe plan: weight step with an empty queue");
      const k = stageOf(w.d, rank);
      ops.push({
        kind: "W",
        microbatch: mbNumber(w.d, w.j),
        chunk: w.d,
        duration: r.weightGrad,
        deps: [bk(w.d, k, w.j)],
        key: `W:${w.d}/${k}:${w.j}`,
      });
    };
    const forwardBackward = (fPhase: Phase, bPhase: Phase) => {
      const f = fPart(fPhase);
      const b = bPart(bPhase);
      ops.push({
        kind: "FB",
        microbatch: mbNumber(f.d, f.j),
        chunk: f.d,
        backwardMicrobatch: mbNumber(b.d, b.j),
        backwardChunk: b.d,
        duration: r.forwardBackward,
        deps: [...f.deps, ...b.deps],
        key: `${f.key}|${b.key}`,
        creates: `${mbNumber(f.d, f.j)}:${f.d}`,
        frees: `${mbNumber(b.d, b.j)}:${b.d}`,
      });
    };
    // Step 1: nF0
    for (let i = 0; i < (half - halfRank - 1) * 2; i++) forward(0);
    // Step 2: nF0F1
    for (let i = 0; i < halfRank + 1; i++) {
      forward(0);
      forward(1);
    }
    // Step 3: nB1W1F1 (zero bubble)
    for (let i = 0; i < half - halfRank - 1; i++) {
      backward(1, true);
      weight();
      forward(1);
    }
    // Step 4 (main): nF0B1F1B0
    const step4 = halfChunks - p + halfRank + 1;
    for (let i = 0; i < step4; i++) {
      if (i === 0 && isMiddle) {
        forward(0);
        backward(1, false);
      } else {
        forwardBackward(0, 1);
      }
      forwardBackward(1, 0);
    }
    // Step 5: nB1F1B0
    for (let i = 0; i < half - halfRank - 1; i++) {
      backward(1, false);
      forwardBackward(1, 0);
    }
    // Step 6: nB1B0 (the second half of these use zero bubble)
    const step6 = halfRank + 1;
    let zb = false;
    for (let i = 0; i < step6; i++) {
      if (i === Math.floor(step6 / 2) && halfRank % 2 === 1) zb = true;
      backward(1, zb);
      if (i === Math.floor(step6 / 2) && halfRank % 2 === 0) zb = true;
      backward(0, zb);
    }
    // Step 7: nWB0 (zero bubble)
    for (let i = 0; i < half - halfRank - 1; i++) {
      weight();
      backward(0, true);
    }
    // Step 8: nW
    for (let i = 0; i < halfRank + 1; i++) weight();
    if (pendingW.length !== 0) throw new Error("DualPipe plan: weight-gradient queue not empty at the end");
    plans.push(ops);
  }
  return plans;
}

/** Runs the list scheduler over per-stage orders. */
function layOut(plans: PlannedOp[][]): { ops: PipelineOp[]; peakInFlight: number[] } {
  const endOf = new Map<string, number>();
  // FB ops register both of their parts' keys.
  // One lane per stage: its planned ops, how many are laid out, when it is next free, the ops laid out.
  const lanes = plans.map((ops) => ({ ops, position: 0, free: 0, laid: [] as PipelineOp[] }));
  let remaining = plans.reduce((acc, ops) => acc + ops.length, 0);
  while (remaining > 0) {
    let progressed = false;
    for (const [stage, lane] of lanes.entries()) {
      while (lane.position < lane.ops.length) {
        const op = at(lane.ops, lane.position, "pipeline layout: next planned op of the stage");
        let ready = true;
        let depEnd = 0;
        for (const dep of op.deps) {
          const end = endOf.get(dep);
          if (end === undefined) {
            ready = false;
            break;
          }
          if (end > depEnd) depEnd = end;
        }
        if (!ready) break;
        const start = Math.max(lane.free, depEnd);
        const end = start + op.duration;
        for (const key of op.key.split("|")) endOf.set(key, end);
        lane.free = end;
        const out: PipelineOp = { stage, kind: op.kind, microbatch: op.microbatch, chunk: op.chunk, start, end };
        if (op.kind === "FB") {
          out.backwardMicrobatch = op.backwardMicrobatch;
          out.backwardChunk = op.backwardChunk;
        }
        lane.laid.push(out);
        lane.position++;
        remaining--;
        progressed = true;
      }
    }
    if (!progressed) throw new Error("pipeline layout deadlocked: the schedule's order has a cycle");
  }
  // Peak in-flight activations per stage: +1 when F (or FB's forward part) starts, −1 when the
  // consuming B (or FB's backward part) ends. Process frees before creations at equal times.
  const peakInFlight = lanes.map(({ ops, laid }) => {
    const events: { time: number; delta: number }[] = [];
    ops.forEach((op, index) => {
      const placed = at(laid, index, "pipeline layout: laid-out op");
      if (op.creates) events.push({ time: placed.start, delta: 1 });
      if (op.frees) events.push({ time: placed.end, delta: -1 });
    });
    events.sort((a, b) => a.time - b.time || a.delta - b.delta);
    let current = 0;
    let peak = 0;
    for (const e of events) {
      current += e.delta;
      if (current > peak) peak = current;
    }
    return peak;
  });
  return { ops: lanes.flatMap((lane) => lane.laid), peakInFlight };
}

/**
 * Lays out `input.schedule` in time and reports its bubble, makespan and peak in-flight
 * activations. Throws `ModelInputError` for invalid input (non-positive sizes, interleaved with
 * $m$ not a multiple of $p$, DualPipe with odd $p$ or $m < 2p$, …).
 */
export function pipelineSchedule(input: PipelineInput): PipelineResult {
  const r = resolve(input);
  let plans: PlannedOp[][];
  switch (r.schedule) {
    case "afab":
      plans = planAfab(r);
      break;
    case "1f1b":
      plans = plan1f1b(r, false);
      break;
    case "zb-h1":
      plans = plan1f1b(r, true);
      break;
    case "interleaved":
      plans = planInterleaved(r);
      break;
    case "dualpipe":
      plans = planDualPipe(r);
      break;
  }
  const { ops, peakInFlight } = layOut(plans);
  const makespan = ops.reduce((acc, op) => Math.max(acc, op.end), 0);
  if (!Number.isFinite(makespan))
    throw new ModelInputError("forward", "the durations are too large: the makespan is not a finite number");
  const busyPerStage = plans.map((stageOps) => stageOps.reduce((acc, op) => acc + op.duration, 0));
  const idlePerStage = busyPerStage.map((busy) => makespan - busy);
  const busy = busyPerStage.reduce((a, b) => a + b, 0);
  const idle = idlePerStage.reduce((a, b) => a + b, 0);
  return {
    schedule: r.schedule,
    stages: r.p,
    microbatches: r.m,
    chunks: r.v,
    ops,
    makespan,
    busyPerStage,
    idlePerStage,
    bubbleFraction: idle / busy,
    bubbleRate: idle / (idle + busy),
    peakInFlight,
  };
}

/** Closed form: bubble fraction (idle / ideal busy) of AFAB and 1F1B, $(p-1)/m$ (narayanan2021efficient §2.2.1). */
export function bubbleFraction1f1b(stages: number, microbatches: number): number {
  requirePositiveInteger(stages, "stages");
  requirePositiveInteger(microbatches, "microbatches");
  return (stages - 1) / microbatches;
}

/** Closed form: interleaved bubble fraction $(p-1)/(vm)$ (narayanan2021efficient §2.2.2). */
export function bubbleFractionInterleaved(stages: number, microbatches: number, chunks: number): number {
  requirePositiveInteger(stages, "stages");
  requirePositiveInteger(microbatches, "microbatches");
  requirePositiveInteger(chunks, "chunks");
  return (stages - 1) / (chunks * microbatches);
}

/** Closed form: ZB-H1 bubble time per stage $(p-1)(T_F + T_B - T_W)$ (qi2024zerobubble Table 2). */
export function bubbleTimeZbH1(stages: number, forward: number, backward: number, weightGrad: number): number {
  requirePositiveInteger(stages, "stages");
  return (stages - 1) * (forward + backward - weightGrad);
}

/**
 * Closed form: DualPipe bubble time $(p/2-1)(T_{F\&B} + T_B - 3T_W)$
 * as printed in the DualPipe README, with $T_B$ the full backward.
 */
export function bubbleTimeDualPipe(
  stages: number,
  forwardBackward: number,
  fullBackward: number,
  weightGrad: number,
): number {
  requirePositiveInteger(stages, "stages");
  return (stages / 2 - 1) * (forwardBackward + fullBackward - 3 * weightGrad);
}
