/**
 * The interaction trace's analysis (tools/bench/interaction-trace.ts), on a small hand-written
 * trace: one key press whose handlers force a layout, a frame whose pre-paint dominates, and a
 * timer that runs between the commit and the screen.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { breakDownInteraction, type TraceEvent } from "../../tools/bench/interaction-trace.ts";

const MAIN = { pid: 1, tid: 1 };
const x = (name: string, ms: number, durMs: number, extra: Partial<TraceEvent> = {}): TraceEvent => ({
  name,
  ph: "X",
  ts: 1_000_000 + ms * 1000,
  dur: durMs * 1000,
  ...MAIN,
  ...extra,
});

/** A key at t = 0 (performance time 1,000 ms) painted at 120 ms. */
function trace(): TraceEvent[] {
  return [
    { name: "thread_name", ph: "M", ts: 0, pid: 1, tid: 1, args: { name: "CrRendererMain" } },
    { name: "thread_name", ph: "M", ts: 0, pid: 1, tid: 2, args: { name: "Compositor" } },
    {
      name: "EventTiming",
      ph: "b",
      ts: 1_000_000,
      ...MAIN,
      args: {
        data: { interactionId: 5, type: "keydown", timeStamp: 1000, duration: 120, processingStart: 1002, processingEnd: 1020 },
      },
    },
    {
      name: "EventTiming",
      ph: "b",
      ts: 1_114_000,
      ...MAIN,
      args: {
        data: { interactionId: 5, type: "keyup", timeStamp: 1114, duration: 6, processingStart: 1114.5, processingEnd: 1105 },
      },
    },
    // The key's task: its handler forced a layout of 5 ms.
    x("ThreadControllerImpl::RunTask", 1, 20),
    x("EventDispatch", 2, 18, { args: { data: { type: "keydown" } } }),
    x("Layout", 10, 5, { args: { beginData: { dirtyObjects: 3, totalObjects: 100 } } }),
    // The frame: 80 ms of wall time, pre-paint 50 ms of which 40 on the CPU (the thread waited 10).
    x("ThreadControllerImpl::RunTask", 21, 80),
    x("ProxyMain::BeginMainFrame", 21, 80),
    x("PrePaint", 22, 50, { tdur: 40_000 }),
    x("Paint", 72, 20),
    x("Commit", 95, 5),
    // A deferred redraw that starts before the key reaches the screen.
    x("ThreadControllerImpl::RunTask", 103, 10),
    x("TimerFire", 103, 10),
    // The keyup, after the frame.
    x("ThreadControllerImpl::RunTask", 114.2, 1),
    x("EventDispatch", 114.5, 0.5, { args: { data: { type: "keyup" } } }),
    { name: "Raster", ph: "X", ts: 1_050_000, dur: 10_000, pid: 1, tid: 2 },
  ];
}

test("breakDownInteraction splits a key's time: delay, handlers with forced layout, the frame's steps, the wait", () => {
  const b = breakDownInteraction(trace());
  assert.ok(b);
  assert.equal(b.interactionId, 5);
  assert.equal(b.duration, 120);
  assert.equal(b.delay, 2);
  assert.equal(b.handlers, 18, "the keyup's handler, after the frame, is not the key's");
  assert.equal(b.forced, 5);
  assert.equal(b.frame.total, 80);
  assert.equal(b.frame.prePaint, 40, "CPU time where the trace has it");
  assert.equal(b.frame.paint, 20);
  assert.equal(b.frame.commit, 5);
  assert.equal(b.frame.layoutTotal, 0, "the only layout ran in the handler, not in the frame");
  assert.equal(b.present, 20, "from the end of the commit (100 ms) to the paint (120 ms)");
  assert.equal(b.landedBeforePaint, true);
  assert.deepEqual(
    b.during.map((t) => t.name),
    ["timer", "event keyup"],
  );
  assert.equal(b.otherThreads.Compositor, 10);
  assert.equal(b.frameTop[0]?.name, "PrePaint");
});

test("breakDownInteraction: no Event Timing entry, no breakdown; a later redraw is not charged to the key", () => {
  assert.equal(
    breakDownInteraction(trace().filter((e) => e.name !== "EventTiming")),
    undefined,
  );
  const later = trace().map((e) => (e.name === "TimerFire" || (e.name === "ThreadControllerImpl::RunTask" && e.ts === 1_103_000) ? { ...e, ts: e.ts + 30_000 } : e));
  const b = breakDownInteraction(later);
  assert.equal(b?.landedBeforePaint, false);
});

test("breakDownInteraction leaves out an earlier key's entry that this key's paint ended", () => {
  // The previous key, pressed at 600 ms, drew nothing: its entry of 520 ms ends with this key's paint.
  const earlier: TraceEvent = {
    name: "EventTiming",
    ph: "b",
    ts: 600_000,
    ...MAIN,
    args: { data: { interactionId: 4, type: "keydown", timeStamp: 600, duration: 520, processingStart: 601, processingEnd: 602 } },
  };
  assert.equal(breakDownInteraction([...trace(), earlier])?.duration, 520, "without a bound, the slowest entry");
  const b = breakDownInteraction([...trace(), earlier], undefined, 990);
  assert.equal(b?.interactionId, 5);
  assert.equal(b?.duration, 120);
});
