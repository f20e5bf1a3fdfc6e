/** The approximate-equality helper (tests/helpers/approx.ts): tolerances, and a message with both values. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { assertApprox } from "./approx.ts";

test("passes within the relative or the absolute tolerance", () => {
  assertApprox(1 + 1e-13, 1);
  assertApprox(101, 100, { rel: 0.01 });
  assertApprox(0.0004, 0, { abs: 1e-3 });
  assertApprox(Infinity, Infinity);
});

test("a failure prints both values, the difference and the tolerance", () => {
  assert.throws(
    () => assertApprox(1.02, 1, { rel: 0.01 }, "MFU"),
    /^AssertionError.*MFU: expected 1, got 1\.02 \(difference 0\.02\d*, allowed 0\.01\)/,
  );
  assert.throws(() => assertApprox(NaN, 1), /expected 1, got NaN/);
});
