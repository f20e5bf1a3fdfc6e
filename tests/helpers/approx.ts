/**
 * The one approximate-equality assertion of the tests (d3-shape's `assertInDelta`, with both
 * values in the message): `actual` must be within `rel` of `expected` relative to its size, or
 * within `abs`, whichever allows more. A failure prints both numbers, their difference and the
 * tolerance, so a near miss can be told from a wrong formula without rerunning.
 */
import assert from "node:assert/strict";

export interface Tolerance {
  /** Relative tolerance (of |expected|); default 1e-12. */
  rel?: number;
  /** Absolute tolerance; default 0. */
  abs?: number;
}

/** Asserts |actual − expected| ≤ max(rel·|expected|, abs). */
export function assertApprox(actual: number, expected: number, tolerance: Tolerance = {}, message?: string): void {
  const { rel = 1e-12, abs = 0 } = tolerance;
  const allowed = Math.max(rel * Math.abs(expected), abs);
  const diff = Math.abs(actual - expected);
  if (Number.isFinite(actual) && Number.isFinite(expected) && diff <= allowed) return;
  if (actual === expected) return; // equal infinities
  const what = message ? `${message}: ` : "";
  assert.fail(`${what}expected ${expected}, got ${actual} (difference ${diff}, allowed ${allowed})`);
}
