/** The interaction benchmark's pure parts (tools/bench/interactions.ts): the keys it types, and its summary. */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  editKeys,
  entriesByKey,
  eventTimingFloorMs,
  keySample,
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

test("entriesByKey charges an entry to the key pressed before its event, however late it arrived", () => {
  const e = (name: string, start: number) => ({ name, id: name === "input" ? 0 : 7, start, duration: 24, processing: 2 });
  // Keys pressed at 100, 400 and 700 ms; the first key's keyup is listed last, as a late delivery would.
  const entries = [e("keydown", 101), e("input", 102), e("keydown", 405), e("keyup", 720), e("keyup", 180), e("focus", 50)];
  const byKey = entriesByKey([100, 400, 700], entries);
  assert.deepEqual(
    byKey.map((k) => k.map((x) => `${x.name}@${x.start}`)),
    [["keydown@101", "input@102", "keyup@180"], ["keydown@405"], ["keyup@720"]],
  );
  assert.deepEqual(entriesByKey([], entries), [], "no key, no entries charged");
});

test("keySample: the longest entry that ended before the next key; one ended only by a later key's paint is left out", () => {
  const e = (name: string, start: number, duration: number, id = 9) => ({ name, id, start, duration, processing: 3 });
  const edit = { control: "tp", key: "ControlOrMeta+A" };
  // Painted at 1,040 and 1,056 ms; the next key at 1,400 ms.
  assert.deepEqual(keySample(edit, [e("keydown", 1000, 40), e("input", 1002, 30, 0), e("keyup", 1008, 48)], 1400), {
    ...edit,
    ms: 48,
    handlerMs: 3,
    reported: true,
  });
  // The bare Control keydown's entry ran on to the next key's paint at 1,436 ms; the keyup painted at 1,024.
  assert.deepEqual(keySample(edit, [e("keydown", 1000, 436), e("keyup", 1008, 16)], 1400), {
    ...edit,
    ms: 16,
    handlerMs: 3,
    reported: true,
    endedByLaterPaint: true,
  });
  // With no other entry the key counts as the floor.
  assert.equal(keySample(edit, [e("keydown", 1000, 436)], 1400).ms, eventTimingFloorMs);
  // A slow key that did paint before the next one keeps its duration.
  assert.equal(keySample(edit, [e("keydown", 1000, 380)], 1400).ms, 380);
  assert.deepEqual(keySample(edit, [], 1400), { ...edit, ms: eventTimingFloorMs, handlerMs: 0, reported: false });
});
