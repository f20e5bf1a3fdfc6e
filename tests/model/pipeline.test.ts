import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import {
  bubbleFraction1f1b,
  bubbleFractionInterleaved,
  bubbleTimeDualPipe,
  bubbleTimeZbH1,
  inFlightMicrobatches,
  ModelInputError,
  pipelineSchedule,
  type PipelineInput,
  type PipelineResult,
} from "../../src/model/index.ts";
import { assertApprox } from "../helpers/approx.ts";

/** Checks the invariants every layout must satisfy; returns nothing, throws on a violation. */
function assertValid(result: PipelineResult, input: PipelineInput): void {
  const { stages: p, microbatches: m, chunks: v } = result;
  const byStage = Array.from({ length: p }, () => [] as PipelineResult["ops"]);
  for (const op of result.ops) {
    assert.ok(Number.isFinite(op.start) && Number.isFinite(op.end) && op.end > op.start && op.start >= 0);
    byStage[op.stage].push(op);
  }
  // Ops of one stage never overlap.
  for (const ops of byStage) {
    const sorted = [...ops].sort((a, b) => a.start - b.start);
    for (let i = 1; i < sorted.length; i++)
      assert.ok(sorted[i].start >= sorted[i - 1].end - 1e-9, "overlap on a stage");
  }
  // Index every F and B by (direction/virtual stage, microbatch).
  const forwardEnd = new Map<string, number>();
  const forwardStart = new Map<string, number>();
  const backwardEnd = new Map<string, number>();
  const backwardStart = new Map<string, number>();
  const dual = result.schedule === "dualpipe";
  // Virtual stage of (stage, chunk): interleaved c·p + i; DualPipe direction d: stage i for d = 0, p−1−i for d = 1.
  const vstage = (stage: number, chunk: number) => (dual ? (chunk === 0 ? stage : p - 1 - stage) : chunk * p + stage);
  const dirOf = (chunk: number) => (dual ? chunk : 0);
  const record = (map: Map<string, number>, stage: number, chunk: number, mb: number, time: number) => {
    const key = `${dirOf(chunk)}/${vstage(stage, chunk)}/${mb}`;
    assert.ok(!map.has(key), `duplicate op ${key}`);
    map.set(key, time);
  };
  let weightOps = 0;
  for (const op of result.ops) {
    if (op.kind === "F" || op.kind === "FB") {
      record(forwardEnd, op.stage, op.chunk, op.microbatch, op.end);
      forwardStart.set(`${dirOf(op.chunk)}/${vstage(op.stage, op.chunk)}/${op.microbatch}`, op.start);
    }
    if (op.kind === "B") {
      record(backwardEnd, op.stage, op.chunk, op.microbatch, op.end);
      backwardStart.set(`${dirOf(op.chunk)}/${vstage(op.stage, op.chunk)}/${op.microbatch}`, op.start);
    }
    if (op.kind === "FB") {
      record(backwardEnd, op.stage, op.backwardChunk!, op.backwardMicrobatch!, op.end);
      backwardStart.set(
        `${dirOf(op.backwardChunk!)}/${vstage(op.stage, op.backwardChunk!)}/${op.backwardMicrobatch}`,
        op.start,
      );
    }
    if (op.kind === "W") weightOps++;
  }
  const virtualStages = dual ? p : p * v;
  const expectedPerVirtualStage = dual ? m / 2 : m;
  const directions = dual ? [0, 1] : [0];
  assert.equal(forwardEnd.size, virtualStages * expectedPerVirtualStage * directions.length);
  assert.equal(backwardEnd.size, forwardEnd.size);
  for (const d of directions) {
    for (let k = 0; k < virtualStages; k++) {
      for (let j = 0; j < expectedPerVirtualStage; j++) {
        const mb = dual ? d * (m / 2) + j : j;
        const key = (kk: number) => `${d}/${kk}/${mb}`;
        assert.ok(forwardEnd.has(key(k)), `missing F ${key(k)}`);
        if (k > 0)
          assert.ok(forwardStart.get(key(k))! >= forwardEnd.get(key(k - 1))! - 1e-9, `F ${key(k)} before its input`);
        if (k < virtualStages - 1)
          assert.ok(
            backwardStart.get(key(k))! >= backwardEnd.get(key(k + 1))! - 1e-9,
            `B ${key(k)} before its gradient`,
          );
        else assert.ok(backwardStart.get(key(k))! >= forwardEnd.get(key(k))! - 1e-9, `B ${key(k)} before its F`);
      }
    }
  }
  if (input.schedule === "zb-h1") assert.equal(weightOps, p * m);
  // Busy and idle add up to the makespan on every stage.
  result.busyPerStage.forEach((busy, i) => assertApprox(busy + result.idlePerStage[i], result.makespan, { abs: 1e-9 }));
  assert.ok(Number.isFinite(result.bubbleFraction) && result.bubbleFraction >= 0);
}

describe("bubble fractions with uniform durations (narayanan2021efficient §2.2)", () => {
  test("AFAB and 1F1B: (p − 1)/m exactly for p = 1…8, m = 1…16", () => {
    for (const schedule of ["afab", "1f1b"] as const) {
      for (let p = 1; p <= 8; p++) {
        for (let m = 1; m <= 16; m++) {
          const r = pipelineSchedule({ schedule, stages: p, microbatches: m, forward: 1, backward: 1, weightGrad: 1 });
          assert.equal(r.bubbleFraction, bubbleFraction1f1b(p, m), `${schedule} p=${p} m=${m}`);
          assert.equal(r.bubbleFraction, (p - 1) / m);
          assert.equal(r.makespan, (m + p - 1) * 3);
          assertApprox(r.bubbleRate, (p - 1) / (m + p - 1), { abs: 1e-12 });
        }
      }
    }
  });
  test("interleaved: (p − 1)/(v·m) exactly for p = 2…8, v = 2…4, m = p…4p (multiples of p)", () => {
    for (let p = 2; p <= 8; p++) {
      for (let v = 2; v <= 4; v++) {
        for (let m = p; m <= 4 * p; m += p) {
          // Durations v, v, v make every chunk op last 1 (F) or 2 (B): exact arithmetic.
          const r = pipelineSchedule({
            schedule: "interleaved",
            stages: p,
            microbatches: m,
            chunks: v,
            forward: v,
            backward: v,
            weightGrad: v,
          });
          assert.equal(r.bubbleFraction, bubbleFractionInterleaved(p, m, v), `p=${p} v=${v} m=${m}`);
        }
      }
    }
  });
  test("peak in-flight activations: AFAB m, 1F1B min(p − i, m) (≤ p), interleaved the memory model's count; the generator and the memory model agree", () => {
    const afab = pipelineSchedule({ schedule: "afab", stages: 4, microbatches: 8 });
    assert.deepEqual(afab.peakInFlight, [8, 8, 8, 8]);
    const oneF = pipelineSchedule({ schedule: "1f1b", stages: 4, microbatches: 8 });
    assert.deepEqual(oneF.peakInFlight, [4, 3, 2, 1]);
    for (const schedule of ["afab", "1f1b"] as const) {
      for (let p = 1; p <= 8; p++) {
        for (let m = 1; m <= 12; m++) {
          const r = pipelineSchedule({ schedule, stages: p, microbatches: m });
          assert.deepEqual(
            r.peakInFlight,
            Array.from({ length: p }, (_, i) => inFlightMicrobatches(schedule, p, i, m)),
            `${schedule} p=${p} m=${m}`,
          );
        }
      }
    }
    for (const [p, v, m] of [
      [4, 2, 8],
      [4, 3, 12],
      [8, 2, 16],
      [2, 4, 4],
    ]) {
      const r = pipelineSchedule({ schedule: "interleaved", stages: p, microbatches: m, chunks: v });
      const expected = Array.from({ length: p }, (_, i) => inFlightMicrobatches("interleaved", p, i, m, v) * v);
      assert.deepEqual(r.peakInFlight, expected, `p=${p} v=${v} m=${m}`);
    }
  });
});

describe("ZB-H1 (qi2024zerobubble §2.3, Table 2)", () => {
  test("every stage idles (p − 1)(T_F + T_B − T_W) when T_W ≤ T_F and T_W ≤ T_B, over a grid", () => {
    for (const p of [2, 3, 4, 6, 8]) {
      for (const m of [p, p + 1, 2 * p, 3 * p + 1]) {
        for (const [F, B, W] of [
          [1, 1, 1],
          [2, 2, 1],
          [3, 2, 1],
          [2, 3, 2],
          [1.5, 2.5, 0.5],
          [4, 3, 3],
        ]) {
          const r = pipelineSchedule({
            schedule: "zb-h1",
            stages: p,
            microbatches: m,
            forward: F,
            backward: B,
            weightGrad: W,
          });
          const expected = bubbleTimeZbH1(p, F, B, W);
          for (const idle of r.idlePerStage)
            assertApprox(idle, expected, { abs: 1e-9 }, `p=${p} m=${m} F=${F} B=${B} W=${W}: ${idle} vs ${expected}`);
        }
      }
    }
  });
  test("with T_F = T_B = T_W the bubble is a third of 1F1B's and peak activations equal 1F1B's", () => {
    const zb = pipelineSchedule({ schedule: "zb-h1", stages: 8, microbatches: 24 });
    const oneF = pipelineSchedule({ schedule: "1f1b", stages: 8, microbatches: 24 });
    assert.equal(zb.idlePerStage[0] * 3, oneF.idlePerStage[0]);
    assert.deepEqual(zb.peakInFlight, oneF.peakInFlight);
  });
});

describe("DualPipe (deepseekai2024v3 §3.2.1; deepseek-ai/DualPipe dualpipe.py)", () => {
  test("README bubble (PP/2 − 1)(F&B + B − 3W) on the busiest rank, with F = B_input = W = 1 (full B = 2) and F&B from max(F, B) to F + B", () => {
    for (const p of [2, 4, 6, 8]) {
      for (const m of [2 * p, 2 * p + 2, 4 * p]) {
        for (const fb of [2, 2.5, 3]) {
          const r = pipelineSchedule({
            schedule: "dualpipe",
            stages: p,
            microbatches: m,
            forward: 1,
            backward: 1,
            weightGrad: 1,
            forwardBackward: fb,
          });
          assert.equal(Math.max(...r.idlePerStage), bubbleTimeDualPipe(p, fb, 2, 1), `p=${p} m=${m} fb=${fb}`);
        }
      }
    }
  });
  test("peak activations PP + 1 chunks per rank (README table), and each rank holds chunks of two stages (2× parameters)", () => {
    for (const p of [2, 4, 8]) {
      const r = pipelineSchedule({ schedule: "dualpipe", stages: p, microbatches: 4 * p });
      assert.equal(Math.max(...r.peakInFlight), p + 1);
      for (let rank = 0; rank < p; rank++) {
        const chunks = new Set(r.ops.filter((o) => o.stage === rank && o.kind === "F").map((o) => o.chunk));
        assert.deepEqual([...chunks].sort(), [0, 1]);
      }
    }
  });
  test("simplification, documented: with unequal F, B, W the reference order's bubble departs from the README expression", () => {
    const r = pipelineSchedule({
      schedule: "dualpipe",
      stages: 8,
      microbatches: 16,
      forward: 1,
      backward: 2,
      weightGrad: 1,
    });
    assert.notEqual(Math.max(...r.idlePerStage), bubbleTimeDualPipe(8, 4, 3, 1));
  });
});

describe("every layout is valid (fast-check)", () => {
  test("no overlap on a stage, every dependency respected, one F and one B per (virtual stage, microbatch)", () => {
    const arb = fc
      .record({
        schedule: fc.constantFrom("afab", "1f1b", "interleaved", "zb-h1", "dualpipe"),
        p: fc.integer({ min: 1, max: 8 }),
        mFactor: fc.integer({ min: 1, max: 4 }),
        mExtra: fc.integer({ min: 0, max: 5 }),
        v: fc.integer({ min: 2, max: 4 }),
        forward: fc.double({ min: 0.1, max: 5, noNaN: true }),
        backward: fc.double({ min: 0.1, max: 5, noNaN: true }),
        weightGrad: fc.double({ min: 0.1, max: 5, noNaN: true }),
      })
      .map((r) => {
        let p = r.p;
        let m = r.p * r.mFactor + r.mExtra;
        if (r.schedule === "interleaved") m = r.p * r.mFactor;
        if (r.schedule === "dualpipe") {
          p = 2 * Math.ceil(r.p / 2);
          m = 2 * p + 2 * r.mExtra;
        }
        const input: PipelineInput = {
          schedule: r.schedule as PipelineInput["schedule"],
          stages: p,
          microbatches: m,
          forward: r.forward,
          backward: r.backward,
          weightGrad: r.weightGrad,
        };
        if (r.schedule === "interleaved") input.chunks = r.v;
        return input;
      });
    fc.assert(
      fc.property(arb, (input) => {
        const result = pipelineSchedule(input);
        assertValid(result, input);
        // No schedule beats the ideal: makespan ≥ busy time of every stage.
        for (const busy of result.busyPerStage) assert.ok(result.makespan >= busy - 1e-9);
      }),
      { numRuns: 300 },
    );
  });
});

describe("invalid input names the field", () => {
  const check = (input: PipelineInput, field: string) =>
    assert.throws(
      () => pipelineSchedule(input),
      (e: unknown) => e instanceof ModelInputError && e.field === field,
    );
  test("unknown schedule", () => check({ schedule: "gpipe" as "afab", stages: 4, microbatches: 8 }, "schedule"));
  test("zero stages", () => check({ schedule: "1f1b", stages: 0, microbatches: 8 }, "stages"));
  test("fractional microbatches", () => check({ schedule: "1f1b", stages: 4, microbatches: 2.5 }, "microbatches"));
  test("negative forward time", () => check({ schedule: "1f1b", stages: 4, microbatches: 8, forward: -1 }, "forward"));
  test("interleaved with m not a multiple of p", () =>
    check({ schedule: "interleaved", stages: 4, microbatches: 6 }, "microbatches"));
  test("interleaved with one chunk", () =>
    check({ schedule: "interleaved", stages: 4, microbatches: 8, chunks: 1 }, "chunks"));
  test("chunks on a non-interleaved schedule", () =>
    check({ schedule: "1f1b", stages: 4, microbatches: 8, chunks: 2 }, "chunks"));
  test("DualPipe with odd stages", () => check({ schedule: "dualpipe", stages: 3, microbatches: 12 }, "stages"));
  test("DualPipe with fewer than 2p microbatches", () =>
    check({ schedule: "dualpipe", stages: 4, microbatches: 6 }, "microbatches"));
  test("ZB-H1 without a weight-gradient pass", () =>
    check({ schedule: "zb-h1", stages: 4, microbatches: 8, weightGrad: 0 }, "weightGrad"));
  test("too many stages to draw", () => check({ schedule: "1f1b", stages: 10_000, microbatches: 8 }, "stages"));
});
