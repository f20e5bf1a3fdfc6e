import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  expertCapacity,
  expertDispatchBytes,
  expertPopularity,
  simulateMoeRouting,
  type MoeRoutingInput,
} from "../../src/model/moe-routing.ts";
import { ModelInputError } from "../../src/model/errors.ts";
import { assertApprox } from "../helpers/approx.ts";

const base: MoeRoutingInput = {
  tokens: 512,
  experts: 16,
  gpus: 4,
  topK: 2,
  capacityFactor: 1.25,
  skew: 0.5,
  seed: 7,
};

test("expertCapacity() is Switch Transformers' (tokens/experts) × capacity factor for k = 1 (fedus2022switch)", () => {
  assert.equal(expertCapacity(4096, 64, 1, 1.0), 64);
  assert.equal(expertCapacity(4096, 64, 1, 1.25), 80);
  // top-k counts assignments: k·T/E fair share, no floating-point creep above an exact product
  assert.equal(expertCapacity(4096, 8, 2, 1.25), 1280);
  assert.equal(expertCapacity(8192, 64, 2, 1.25), 320);
  // rounds up and never gives zero slots
  assert.equal(expertCapacity(10, 4, 1, 1.0), 3);
  assert.equal(expertCapacity(1, 64, 1, 0.01), 1);
});

test("expertPopularity() is uniform at skew 0 and Zipf-like above", () => {
  assert.deepEqual(expertPopularity(4, 0), [0.25, 0.25, 0.25, 0.25]);
  const p = expertPopularity(3, 1);
  const z = 1 + 1 / 2 + 1 / 3;
  assertApprox(p[0], 1 / z, { abs: 1e-15 });
  assertApprox(p[2], 1 / 3 / z, { abs: 1e-15 });
});

test("simulateMoeRouting() is deterministic for a seed and pins the chapter's default state", () => {
  const a = simulateMoeRouting(base);
  const b = simulateMoeRouting({ ...base });
  assert.deepEqual(a.assignments, b.assignments);
  assert.equal(a.capacityPerExpert, 80);
  assert.equal(a.totalAssignments, 1024);
  assert.equal(a.droppedAssignments, 125);
  assert.equal(a.tokensFullyDropped, 0);
  assert.deepEqual(a.gpuKept, [316, 238, 185, 160]);
  const other = simulateMoeRouting({ ...base, seed: 8 });
  assert.notDeepEqual(other.assignments, a.assignments);
});

test("simulateMoeRouting() never drops with no capacity limit, and counts are consistent", () => {
  const r = simulateMoeRouting({ ...base, capacityFactor: null });
  assert.equal(r.capacityPerExpert, null);
  assert.equal(r.droppedAssignments, 0);
  assert.deepEqual(r.expertKept, r.expertRequested);
  assert.equal(
    r.gpuKept.reduce((s, x) => s + x, 0),
    1024,
  );
});

test("each token picks k distinct experts, first choices fill buffers before second choices (GShard Algorithm 1)", () => {
  const r = simulateMoeRouting({ ...base, skew: 1.5, capacityFactor: 1 });
  for (let t = 0; t < base.tokens; t++) {
    const mine = r.assignments.filter((a) => a.token === t);
    assert.equal(new Set(mine.map((a) => a.expert)).size, base.topK);
  }
  // For every expert that dropped a first choice, no second choice was kept there.
  for (let e = 0; e < base.experts; e++) {
    const droppedFirst = r.assignments.some((a) => a.expert === e && a.rank === 0 && !a.kept);
    const keptSecond = r.assignments.some((a) => a.expert === e && a.rank === 1 && a.kept);
    assert.ok(!(droppedFirst && keptSecond), `expert ${e} kept a second choice after dropping a first choice`);
  }
});

test("property: counts are conserved, never exceed capacity, never NaN", () => {
  fc.assert(
    fc.property(
      fc.record({
        tokensPerGpu: fc.integer({ min: 1, max: 64 }),
        gpus: fc.constantFrom(1, 2, 4, 8),
        expertsPerGpu: fc.integer({ min: 1, max: 4 }),
        k: fc.integer({ min: 1, max: 4 }),
        cf: fc.option(fc.double({ min: 0.1, max: 4, noNaN: true }), { nil: null }),
        skew: fc.double({ min: 0, max: 4, noNaN: true }),
        seed: fc.integer({ min: 0, max: 2 ** 32 - 1 }),
      }),
      ({ tokensPerGpu, gpus, expertsPerGpu, k, cf, skew, seed }) => {
        const experts = gpus * expertsPerGpu;
        const topK = Math.min(k, experts);
        const r = simulateMoeRouting({
          tokens: tokensPerGpu * gpus,
          experts,
          gpus,
          topK,
          capacityFactor: cf,
          skew,
          seed,
        });
        const kept = r.expertKept.reduce((s, x) => s + x, 0);
        assert.equal(kept + r.droppedAssignments, r.totalAssignments);
        assert.equal(
          r.gpuKept.reduce((s, x) => s + x, 0),
          kept,
        );
        if (r.capacityPerExpert !== null) for (const x of r.expertKept) assert.ok(x <= r.capacityPerExpert);
        for (const v of [r.droppedFraction, r.gpuImbalance, r.expertImbalance]) assert.ok(Number.isFinite(v));
        assert.ok(r.gpuImbalance >= 1 - 1e-12);
      },
    ),
    { numRuns: 150 },
  );
});

test("simulateMoeRouting() rejects bad input with a ModelInputError naming the field", () => {
  const cases: Array<[Partial<MoeRoutingInput>, string]> = [
    [{ tokens: 0 }, "tokens"],
    [{ tokens: 1.5 }, "tokens"],
    [{ experts: -4 }, "experts"],
    [{ gpus: 3 }, "gpus"],
    [{ topK: 17 }, "topK"],
    [{ capacityFactor: 0 }, "capacityFactor"],
    [{ capacityFactor: Number.NaN }, "capacityFactor"],
    [{ capacityFactor: 1e40 }, "capacityFactor"],
    [{ skew: -1 }, "skew"],
    [{ skew: Infinity }, "skew"],
    [{ seed: -1 }, "seed"],
    [{ tokens: "512" as unknown as number }, "tokens"],
  ];
  for (const [patch, field] of cases) {
    assert.throws(
      () => simulateMoeRouting({ ...base, ...patch }),
      (err: unknown) => err instanceof ModelInputError && err.field === field,
      JSON.stringify(patch),
    );
  }
});

test("expertDispatchBytes() is T·k·h·β·(G−1)/G", () => {
  assert.equal(
    expertDispatchBytes({ tokensPerGpu: 4096, hidden: 4096, topK: 2, epDegree: 8, bytesPerElement: 2 }),
    58_720_256,
  );
  assert.equal(
    expertDispatchBytes({ tokensPerGpu: 4096, hidden: 7168, topK: 8, epDegree: 64, bytesPerElement: 1 }),
    231_211_008,
  );
  assert.equal(expertDispatchBytes({ tokensPerGpu: 10, hidden: 10, topK: 1, epDegree: 1, bytesPerElement: 2 }), 0);
  assert.throws(
    () => expertDispatchBytes({ tokensPerGpu: 0, hidden: 1, topK: 1, epDegree: 1, bytesPerElement: 2 }),
    ModelInputError,
  );
});

test("switchBalanceLoss: 1 at uniform routing and whenever f is uniform, below 1 for some unbalanced routings (fedus2022switch Eq. 4)", async () => {
  const { switchBalanceLoss } = await import("../../src/model/moe-routing.ts");
  const third = 1 / 3;
  // Uniform probabilities: every token goes to expert 0 (ties), f = (1, 0, 0), and the loss is still 1.
  assertApprox(
    switchBalanceLoss([
      [third, third, third],
      [third, third, third],
      [third, third, third],
    ]),
    1,
    { abs: 1e-12 },
  );
  assertApprox(
    switchBalanceLoss([
      [0.5, 0.25, 0.25],
      [0.2, 0.6, 0.2],
      [0.1, 0.1, 0.8],
    ]),
    1,
    { abs: 1e-12 },
  );
  assertApprox(
    switchBalanceLoss([
      [0.9, 0.05, 0.05],
      [0.05, 0.9, 0.05],
      [0.05, 0.05, 0.9],
    ]),
    1,
    { abs: 1e-12 },
  );
  const unbalanced = switchBalanceLoss([
    [0.34, 0.33, 0.33],
    [0.34, 0.33, 0.33],
    [0, 0.51, 0.49],
  ]);
  assert.ok(unbalanced < 1);
  assert.equal(unbalanced.toFixed(2), "0.84");
  assert.throws(
    () => switchBalanceLoss([[0.5, 0.4]]),
    (e: unknown) => e instanceof ModelInputError && e.field === "probabilities",
  );
  assert.throws(
    () => switchBalanceLoss([]),
    (e: unknown) => e instanceof ModelInputError && e.field === "probabilities",
  );
});
