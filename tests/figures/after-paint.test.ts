/**
 * src/widgets/runtime/after-paint.ts: a widget's redraw runs after the edit has painted (after the
 * frame that carries it and the next one, whose callbacks come once the first has been rastered),
 * once per burst of edits (last one wins per kind), with the root marked busy until then. Driven here with a
 * fake window whose frames and timers the test runs by hand.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { afterPaint } from "../../src/widgets/runtime/after-paint.ts";

function fakeRoot() {
  const frames: Array<() => void> = [];
  const timers: Array<{ at: number; fn: () => void }> = [];
  let now = 0;
  const win = {
    requestAnimationFrame: (fn: () => void) => frames.push(fn),
    setTimeout: (fn: () => void, ms: number) => timers.push({ at: now + ms, fn }),
    performance: { now: () => now },
  };
  const events: number[] = [];
  const root = {
    ownerDocument: { defaultView: win },
    dataset: {} as Record<string, string>,
    dispatchEvent: (e: CustomEvent<{ ms: number }>) => events.push(e.detail.ms),
  } as unknown as HTMLElement;
  /** One frame (its callbacks, unless `noFrame`), then the timers due by `ms` later. */
  const frame = (ms = 0, noFrame = false) => {
    if (!noFrame) for (const fn of frames.splice(0)) fn();
    now += ms;
    const due = timers.filter((t) => t.at <= now);
    for (const t of due) timers.splice(timers.indexOf(t), 1);
    for (const t of due.sort((a, b) => a.at - b.at)) t.fn();
  };
  return { root, frame, events };
}

test("the work waits for the second frame after the edit, marks the root busy, and runs once for a burst", () => {
  const { root, frame, events } = fakeRoot();
  const later = afterPaint(root);
  const ran: string[] = [];
  later(() => ran.push("draw 1"));
  later(() => ran.push("draw 2"));
  assert.deepEqual(ran, [], "nothing runs inside the edit's own task");
  assert.equal(root.dataset.widgetBusy, "");
  frame(0);
  assert.deepEqual(ran, [], "not after the first frame: that frame carries the edit to the screen");
  assert.equal(root.dataset.widgetBusy, "");
  frame(0);
  assert.deepEqual(ran, ["draw 2"], "the last edit of the burst wins");
  assert.equal(root.dataset.widgetBusy, undefined);
  assert.equal(events.length, 1);
  frame(1200);
  assert.deepEqual(ran, ["draw 2"], "the 1 s backstop does not run it again");
});

test("kinds are kept apart: a cursor move does not drop a pending redraw, and they run in order", () => {
  const { root, frame } = fakeRoot();
  const later = afterPaint(root);
  const ran: string[] = [];
  later(() => ran.push("draw"));
  later(() => ran.push("cursor 1"), "cursor");
  later(() => ran.push("cursor 2"), "cursor");
  frame(0);
  frame(0);
  assert.deepEqual(ran, ["draw", "cursor 2"]);
});

test("without frames (a hidden tab) the backstop timer runs the work", () => {
  const { root, frame } = fakeRoot();
  const later = afterPaint(root);
  let ran = 0;
  later(() => ran++);
  frame(999, true);
  assert.equal(ran, 0, "not before 1 s");
  frame(1, true);
  assert.equal(ran, 1);
  assert.equal(root.dataset.widgetBusy, undefined);
});

test("with a delay, typing is debounced: the work runs once, after the last key's delay and a frame", () => {
  const { root, frame, events } = fakeRoot();
  const later = afterPaint(root);
  const ran: string[] = [];
  later(() => ran.push("1"), "draw", 150);
  frame(100);
  later(() => ran.push("12"), "draw", 150);
  frame(100);
  assert.deepEqual(ran, [], "100 ms after the second key: still typing");
  assert.equal(root.dataset.widgetBusy, "", "busy while the redraw waits");
  frame(60);
  assert.deepEqual(ran, [], "the delay is over, but the work waits for the next frames");
  frame(0);
  assert.deepEqual(ran, [], "one frame is not enough");
  frame(0);
  assert.deepEqual(ran, ["12"], "one run, with the last value");
  assert.equal(events.length, 1);
  assert.equal(root.dataset.widgetBusy, undefined);
  frame(500);
  assert.deepEqual(ran, ["12"], "no second run from the first key's timers");
});
