import { test } from "node:test";
import assert from "node:assert/strict";
import { legendLayout } from "../../src/figures/kit/legend.ts";

const place = (widths: number[], right: number) =>
  legendLayout(widths, { left: 10, right, top: 100, lineHeight: 18, widthOf: (w) => w }).map(({ x, y, line }) => ({
    x,
    y,
    line,
  }));

test("legendLayout places items left to right and wraps the one that would pass the right edge", () => {
  assert.deepEqual(place([40, 40, 40], 100), [
    { x: 10, y: 100, line: 0 },
    { x: 50, y: 100, line: 0 },
    { x: 10, y: 118, line: 1 },
  ]);
});

test("legendLayout keeps an item wider than the line on its own line, never after an empty one", () => {
  assert.deepEqual(place([200, 30], 100), [
    { x: 10, y: 100, line: 0 },
    { x: 10, y: 118, line: 1 },
  ]);
  assert.deepEqual(place([], 100), []);
});
