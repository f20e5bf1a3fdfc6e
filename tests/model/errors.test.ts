import { test } from "node:test";
import assert from "node:assert/strict";
import { at, ModelInputError, ModelInvariantError } from "../../src/model/errors.ts";

test("at returns the item at an index inside the array, typed arrays included", () => {
  assert.equal(at([10, 20, 30], 0, "first"), 10);
  assert.equal(at([10, 20, 30], 2, "last"), 30);
  assert.equal(at(new Float64Array([0.5, 1.5]), 1, "typed"), 1.5);
});

test("at throws a ModelInvariantError naming what it read, never a ModelInputError", () => {
  for (const index of [-1, 3, 1.5, Number.NaN]) {
    assert.throws(
      () => at([10, 20, 30], index, "pipeline stage"),
      (error: unknown) =>
        error instanceof ModelInvariantError &&
        !(error instanceof ModelInputError) &&
        error.message === `pipeline stage: index ${index} is out of range (length 3)`,
    );
  }
  assert.throws(() => at([], 0, "empty"), ModelInvariantError);
});
