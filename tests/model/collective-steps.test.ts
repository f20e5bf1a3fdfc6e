import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  alphaBetaSeconds,
  busBandwidthFactor,
  ceilLog2,
  collectiveSteps,
  ModelInputError,
  scheduleIsComplete,
  STEP_COLLECTIVES,
  type StepCollective,
} from "../../src/model/index.ts";
import { assertApprox } from "../helpers/approx.ts";

test("every collective ends in the promised state for 2…16 ranks and any root", () => {
  fc.assert(
    fc.property(fc.constantFrom(...STEP_COLLECTIVES), fc.integer({ min: 2, max: 16 }), fc.nat(), (collective, n, r) => {
      const s = collectiveSteps({ collective, ranks: n, messageBytes: 1024, root: r % n });
      assert.ok(scheduleIsComplete(s), `${collective} on ${n} ranks, root ${r % n}`);
    }),
  );
});

test("ring all-reduce on 4 ranks: 6 steps, rank 0's buffer step by step (NCCL ring order)", () => {
  const s = collectiveSteps({ collective: "all-reduce", ranks: 4, messageBytes: 4e6 });
  assert.equal(s.algorithm, "ring");
  assert.equal(s.steps.length, 6);
  assert.deepEqual(
    s.steps[0]!.transfers.map((t) => [t.from, t.to, t.chunks[0], t.combine]),
    [
      [0, 1, 3, "sum"],
      [1, 2, 0, "sum"],
      [2, 3, 1, "sum"],
      [3, 0, 2, "sum"],
    ],
  );
  // After the reduce-scatter half, rank r owns the full sum of chunk r.
  const afterRs = s.steps[2]!.buffers;
  for (let r = 0; r < 4; r++) assert.deepEqual(afterRs[r]![r], { chunk: r, sources: [0, 1, 2, 3] });
  assert.deepEqual(afterRs[0]![1], { chunk: 1, sources: [0, 2, 3] });
  assert.deepEqual(s.bytesSentByRank, [6e6, 6e6, 6e6, 6e6]);
});

test("bytes each rank sends match the nccl-tests bus-bandwidth factors (ring collectives and all-to-all)", () => {
  const S = 3_000_000;
  for (let n = 2; n <= 16; n++) {
    const cases: [StepCollective, "all-reduce" | "all-gather" | "reduce-scatter" | "all-to-all"][] = [
      ["all-reduce", "all-reduce"],
      ["all-gather", "all-gather"],
      ["reduce-scatter", "reduce-scatter"],
      ["all-to-all", "all-to-all"],
    ];
    for (const [c, nccl] of cases) {
      const s = collectiveSteps({ collective: c, ranks: n, messageBytes: S });
      for (const sent of s.bytesSentByRank)
        assertApprox(sent, busBandwidthFactor(nccl, n) * S, { abs: 1e-6 }, `${c} n=${n}`);
    }
  }
});

test("step counts: ring 2(n-1) and n-1, trees ceil(log2 n), direct 1, all-to-all n-1 (power of two) or n", () => {
  for (let n = 2; n <= 16; n++) {
    const steps = (c: StepCollective) => collectiveSteps({ collective: c, ranks: n, messageBytes: 1 }).steps.length;
    assert.equal(steps("all-reduce"), 2 * (n - 1));
    assert.equal(steps("all-gather"), n - 1);
    assert.equal(steps("reduce-scatter"), n - 1);
    assert.equal(steps("broadcast"), ceilLog2(n));
    assert.equal(steps("reduce"), ceilLog2(n));
    assert.equal(steps("barrier"), ceilLog2(n));
    assert.equal(steps("gather"), 1);
    assert.equal(steps("scatter"), 1);
    assert.equal(steps("all-to-all"), 2 ** ceilLog2(n) === n ? n - 1 : n);
  }
});

test("α–β time: ring all-reduce 2(n-1)(α + S/(nβ)); binomial broadcast ceil(log2 n)(α + S/β); gather α + (n-1)S/(nβ)", () => {
  const alpha = 5e-6;
  const beta = 50e9;
  const S = 1e9;
  const n = 8;
  const close = (a: number, b: number) => assertApprox(a, b, { rel: 1e-12, abs: 1e-12 });
  close(
    alphaBetaSeconds(collectiveSteps({ collective: "all-reduce", ranks: n, messageBytes: S }), alpha, beta),
    2 * (n - 1) * (alpha + S / (n * beta)),
  );
  close(
    alphaBetaSeconds(collectiveSteps({ collective: "broadcast", ranks: n, messageBytes: S }), alpha, beta),
    3 * (alpha + S / beta),
  );
  close(
    alphaBetaSeconds(collectiveSteps({ collective: "gather", ranks: n, messageBytes: S }), alpha, beta),
    alpha + ((n - 1) * S) / (n * beta),
  );
  close(
    alphaBetaSeconds(collectiveSteps({ collective: "barrier", ranks: n, messageBytes: 0 }), alpha, beta),
    3 * alpha,
  );
});

test("bad input throws ModelInputError naming the field", () => {
  const bad: [unknown, string][] = [
    [{ collective: "all-reduce", ranks: 1, messageBytes: 1 }, "ranks"],
    [{ collective: "all-reduce", ranks: 17, messageBytes: 1 }, "ranks"],
    [{ collective: "all-reduce", ranks: 2.5, messageBytes: 1 }, "ranks"],
    [{ collective: "all-reduce", ranks: 4, messageBytes: -1 }, "messageBytes"],
    [{ collective: "all-reduce", ranks: 4, messageBytes: Infinity }, "messageBytes"],
    [{ collective: "all-reduce", ranks: 4, messageBytes: Number.NaN }, "messageBytes"],
    [{ collective: "broadcast", ranks: 4, messageBytes: 1, root: 4 }, "root"],
    [{ collective: "allreduce", ranks: 4, messageBytes: 1 }, "collective"],
  ];
  for (const [input, field] of bad) {
    assert.throws(
      () => collectiveSteps(input as never),
      (e: unknown) => e instanceof ModelInputError && e.field === field,
      JSON.stringify(input),
    );
  }
});
