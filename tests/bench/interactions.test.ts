/** The interaction benchmark's pure parts (tools/bench/interactions.ts): the keys it types, and its summary. */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  editKeys,
  eventTimingFloorMs,
  median,
  nextNumber,
  summarizeInteractions,
  type InteractionSample,
} from "../../tools/bench/interactions.ts";

test("nextNumber: one more for a whole number, double for a decimal, nothing for other text", () => {
  assert.equal(nextNumber("4"), "5");
  assert.equal(nextNumber(" 16 "), "17");
  assert.equal(nextNumber("0.5"), "1");
  assert.equal(nextNumber("2.25"), "4.5");
  assert.equal(nextNumber("0.1"), "0.2");
  for (const other of ["", "llama-3.1-8b", "-3", "1e3", "T_F + T_B"]) assert.equal(nextNumber(other), undefined, other);
});

test("editKeys types the new value one key at a time and the old one back; selects, sliders, boxes twice", () => {
  assert.deepEqual(editKeys("text", "16"), ["ControlOrMeta+A", "1", "7", "ControlOrMeta+A", "1", "6"]);
  assert.deepEqual(editKeys("select", "afab"), ["ArrowDown", "ArrowUp"]);
  assert.deepEqual(editKeys("range", "3"), ["ArrowRight", "ArrowLeft"]);
  assert.deepEqual(editKeys("checkbox", "on"), ["Space", "Space"]);
  assert.equal(editKeys("text", ""), undefined, "an empty optional field is not edited");
});

test("summarizeInteractions: median of all keys, worst as the median of each pass's worst, max with its place", () => {
  const s = (control: string, key: string, ms: number): InteractionSample => ({
    control,
    key,
    ms,
    handlerMs: ms / 4,
    reported: ms > eventTimingFloorMs,
  });
  const row = summarizeInteractions({ build: "current", page: "/p/", widget: "w", id: "widget-w-1" }, [
    [s("a", "1", 16), s("a", "2", 40), s("b", "ArrowDown", 120)],
    [s("a", "1", 16), s("a", "2", 48), s("b", "ArrowDown", 80)],
    [s("a", "1", 24), s("a", "2", 32), s("b", "ArrowDown", 300)],
  ]);
  assert.equal(row.interactions, 9);
  assert.equal(row.medianMs, 40);
  assert.equal(row.worstMs, 120, "one pass's 300 ms hiccup does not make the row");
  assert.equal(row.maxMs, 300);
  assert.equal(row.maxAt, "b ArrowDown");
  assert.equal(row.worstHandlerMs, 30, "handlers: median of 30, 20 and 75");
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2, "the lower middle of an even count");
});
