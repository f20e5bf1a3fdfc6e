/**
 * `npm run bench:interaction-trace -- --page /pipeline-parallelism/ --widget widget-pipeline-explorer-2`:
 * where the time of each key press goes, from Chromium's performance trace (issue #54). It edits
 * the widget's controls with the same keys as `npm run bench:interactions` (interactions.ts), at
 * the same CPU slowdown (4×), and traces each key on its own. For each key it prints the Event
 * Timing duration (key press to the next paint) and splits it on the renderer's main thread:
 *
 *   delay     the key's timestamp to the start of its first handler (input delay)
 *   handlers  the event handlers (keydown, keypress, input, change, keyup), with the style
 *             recalculation and layout they forced (`forced`)
 *   before    main-thread tasks between the handlers and the frame (a timer, a deferred redraw
 *             that landed before the paint, a GC), named
 *   frame     the frame that paints the key: animation-frame callbacks (rAF), style (elements
 *             recalculated), layout (dirty of total layout objects), ResizeObserver and
 *             IntersectionObserver, pre-paint, paint, layerize and commit
 *   present   from the end of the commit to the paint on the screen (raster and compositing on
 *             other threads, which share the cores with the main thread); main-thread tasks that
 *             ran meanwhile are named, as is the CPU time of the other threads in the window
 *
 * and the change of the widget's height in that frame (a ResizeObserver on its root): a widget
 * that grows or shrinks moves everything below it, which the browser then pre-paints and paints
 * again. The handlers, the frame and its steps are the main thread's CPU time (the trace's thread
 * durations), which a busy machine inflates far less than the wall-clock duration and the wait for
 * the screen; the trace itself adds some overhead, so compare traced numbers with traced numbers.
 *
 * Options: `--controls a,b` (only those controls), `--reps N` (passes, default 1), `--over MS`
 * (print only keys at least that slow; the summary covers all), `--detail` (each main-thread task
 * in the window), `--invalidations` (what invalidated style and layout, from the heavy
 * invalidation-tracking category: slower), `--save DIR` (the raw trace of each printed key, to
 * open in DevTools' Performance panel), `--css RULES` (a style sheet added to the page after the
 * load: to try a remedy without a build), `--baseline DIR` (trace an older build too, page by page
 * in alternation). An existing build: `SITE_DIR` or `_site`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "../../harness/chromium.ts";
import { startSiteServer, type SiteServer } from "../../harness/site-server.ts";
import { controlsOf, median, settle } from "./interactions.ts";

export interface TraceEvent {
  name: string;
  cat?: string;
  ph: string;
  ts: number;
  dur?: number;
  /** Thread (CPU) duration, µs, where the trace records it. */
  tdur?: number;
  pid: number;
  tid: number;
  id?: string;
  args?: Record<string, unknown> & {
    name?: string;
    elementCount?: number;
    data?: Record<string, unknown>;
    beginData?: Record<string, unknown>;
  };
}

/** A main-thread task (or a frame's step) in the window of a key. */
export interface TraceTask {
  /** Start, from the key's timestamp (ms). */
  at: number;
  ms: number;
  name: string;
}

/** Where the time of one key press went (ms unless named otherwise). */
export interface InteractionBreakdown {
  interactionId: number;
  /** Event Timing: the longest entry of the interaction (key press to the next paint). */
  duration: number;
  delay: number;
  handlers: number;
  /** Style and layout forced inside the handlers. */
  forced: number;
  /** Tasks between the handlers and the frame that painted the key. */
  before: TraceTask[];
  frame: {
    total: number;
    raf: number;
    style: number;
    styleElements: number;
    layout: number;
    layoutDirty: number;
    layoutTotal: number;
    observers: number;
    prePaint: number;
    paint: number;
    layerize: number;
    commit: number;
  };
  /** From the end of the commit to the end of the interaction. */
  present: number;
  /** Main-thread tasks while waiting for the presentation. */
  during: TraceTask[];
  /**
   * Whether a timer's task ran on the main thread between the key's commit and its presentation
   * (or a task that sent `widget-drawn`, runtime/after-paint.ts): work the page deferred, a
   * redraw, that started before the key was on the screen.
   */
  landedBeforePaint: boolean;
  /** Garbage collection on the main thread anywhere in the window. */
  gc: number;
  /** CPU time of the renderer's and the GPU process's other threads in the window, by thread name. */
  otherThreads: Record<string, number>;
  /** Every top-level main-thread task in the window (for `--detail`). */
  tasks: TraceTask[];
  /** The main thread's self time by trace event name in the frame and in the handlers' forced work (top 8). */
  frameTop: TraceTask[];
  forcedTop: TraceTask[];
  /** What invalidated style or layout (invalidation tracking only): "reason: node" with counts. */
  invalidations: string[];
}

interface Span {
  e: TraceEvent;
  start: number;
  end: number;
  depth: number;
  parent: Span | undefined;
}

const num = (v: unknown): number => (typeof v === "number" ? v : 0);

/** Complete ("X") events of one thread nested into spans (start and end in trace µs). */
function spansOf(events: readonly TraceEvent[], pid: number, tid: number): Span[] {
  const xs = events
    .filter((e) => e.ph === "X" && e.pid === pid && e.tid === tid)
    .sort((a, b) => a.ts - b.ts || num(b.dur) - num(a.dur));
  const out: Span[] = [];
  const stack: Span[] = [];
  for (const e of xs) {
    const start = e.ts;
    const end = e.ts + num(e.dur);
    while (stack.length > 0 && stack.at(-1)!.end <= start) stack.pop();
    const span: Span = { e, start, end, depth: stack.length, parent: stack.at(-1) };
    out.push(span);
    stack.push(span);
  }
  return out;
}

/**
 * The main thread's CPU time of a span (µs): the trace's thread duration where it has one, else its
 * wall time. On a loaded machine the wall time of a step includes the time the thread waited for a
 * core; the CPU time does not, so the work columns stay comparable between runs.
 */
function cpu(span: Span): number {
  return typeof span.e.tdur === "number" ? span.e.tdur : span.end - span.start;
}

function within(span: Span, ancestor: Span): boolean {
  for (let p = span.parent; p; p = p.parent) if (p === ancestor) return true;
  return false;
}

/** The name of a task, from what it ran (a handler, a timer, a frame, an input event). */
function taskName(task: Span, spans: readonly Span[]): string {
  const inner = spans.filter((s) => within(s, task));
  const named = (n: string) => inner.find((s) => s.e.name === n);
  const frame = named("ProxyMain::BeginMainFrame");
  if (frame) return "frame";
  const dispatch = named("EventDispatch");
  if (dispatch) return `event ${String(dispatch.e.args?.data?.type ?? "")}`.trim();
  const timer = named("TimerFire");
  if (timer) return "timer";
  const idle = named("FireIdleCallback");
  if (idle) return "idle callback";
  const gc = inner.find((s) => /GC/.test(s.e.name));
  if (gc) return gc.e.name;
  if (named("FunctionCall")) return "script";
  return inner.find((s) => s.depth === task.depth + 2)?.e.name ?? task.e.name;
}

/** Self time (ms) by event name over `spans` and everything nested in them, the largest first. */
function selfTimes(roots: readonly Span[], all: readonly Span[], top = 8): TraceTask[] {
  const inside = all.filter((s) => roots.includes(s) || roots.some((r) => within(s, r)));
  const self = new Map<Span, number>(inside.map((s) => [s, cpu(s)]));
  for (const s of inside) if (s.parent && self.has(s.parent)) self.set(s.parent, self.get(s.parent)! - cpu(s));
  const byName = new Map<string, number>();
  for (const [s, us] of self) byName.set(s.e.name, (byName.get(s.e.name) ?? 0) + Math.max(0, us));
  return [...byName]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, us]) => ({ at: 0, ms: us / 1000, name }));
}

const OBSERVERS = new Set(["IntersectionObserverController::computeIntersections", "LocalFrameView::NotifyResizeObservers"]);

/**
 * Splits the interaction `interactionId` (the slowest one in the trace when undefined) on the
 * renderer's main thread; undefined when the trace holds no Event Timing entry for it. Entries of
 * events before `notBefore` (the page's clock, ms) are left out: an earlier key's entry that only
 * this key's paint ended is written into this key's trace (interactions.ts, keySample).
 */
export function breakDownInteraction(
  events: readonly TraceEvent[],
  interactionId?: number,
  notBefore = -Infinity,
): InteractionBreakdown | undefined {
  const timings = events.filter(
    (e) =>
      e.name === "EventTiming" &&
      e.ph === "b" &&
      num(e.args?.data?.interactionId) > 0 &&
      num(e.args?.data?.timeStamp) >= notBefore,
  );
  if (timings.length === 0) return undefined;
  const id =
    interactionId ??
    num(timings.reduce((a, b) => (num(b.args?.data?.duration) > num(a.args?.data?.duration) ? b : a)).args?.data?.interactionId);
  const mine = timings.filter((e) => num(e.args?.data?.interactionId) === id);
  if (mine.length === 0) return undefined;
  const first = mine.reduce((a, b) => (num(b.args?.data?.timeStamp) < num(a.args?.data?.timeStamp) ? b : a));
  const { pid, tid } = first;
  // Event Timing's times are the page's performance.now(); its trace event starts at the timestamp.
  const offset = first.ts - num(first.args?.data?.timeStamp) * 1000;
  const t0 = first.ts;
  const t1 = Math.max(...mine.map((e) => offset + (num(e.args?.data?.timeStamp) + num(e.args?.data?.duration)) * 1000));
  const duration = (t1 - t0) / 1000;
  const processingStart = Math.min(...mine.map((e) => offset + num(e.args?.data?.processingStart) * 1000));
  // The key's own events (keydown, keypress: the input and change events run inside them); the
  // keyup usually comes after the frame that painted the key.
  const pressEntries = mine.filter((e) => e.args?.data?.type !== "keyup");
  const processingEnd = Math.max(
    ...(pressEntries.length ? pressEntries : mine).map((e) => offset + num(e.args?.data?.processingEnd) * 1000),
  );
  const ms = (us: number) => us / 1000;
  const at = (us: number) => ms(us - t0);

  const spans = spansOf(events, pid, tid);
  const inWindow = spans.filter((s) => s.end > t0 && s.start < t1);
  const tasks = inWindow.filter((s) => s.depth === 0 && s.end - s.start >= 50);
  const handlerSpans = inWindow.filter(
    (s) =>
      s.e.name === "EventDispatch" &&
      s.start <= processingEnd &&
      !inWindow.some((o) => o.e.name === "EventDispatch" && within(s, o)),
  );
  const handlers = ms(handlerSpans.reduce((sum, s) => sum + cpu(s), 0));
  const forcedSpans = inWindow.filter(
    (s) =>
      (s.e.name === "UpdateLayoutTree" || s.e.name === "Layout") &&
      handlerSpans.some((h) => within(s, h)) &&
      !inWindow.some((o) => (o.e.name === "UpdateLayoutTree" || o.e.name === "Layout") && within(s, o)),
  );
  const forced = ms(forcedSpans.reduce((sum, s) => sum + cpu(s), 0));
  const handlersEnd = Math.max(processingStart, ...handlerSpans.map((s) => s.end));

  // The frame that painted the key: the first BeginMainFrame that starts after the handlers.
  const frameSpan = inWindow.find((s) => s.e.name === "ProxyMain::BeginMainFrame" && s.start >= handlersEnd - 1);
  const frameTask = frameSpan ? (function top(s: Span): Span {
    return s.parent ? top(s.parent) : s;
  })(frameSpan) : undefined;
  const inFrame = frameSpan ? inWindow.filter((s) => within(s, frameSpan)) : [];
  const sum = (pred: (s: Span) => boolean) =>
    ms(inFrame.filter((s) => pred(s) && !inFrame.some((o) => pred(o) && within(s, o))).reduce((a, s) => a + cpu(s), 0));
  const styles = inFrame.filter((s) => s.e.name === "UpdateLayoutTree");
  const layouts = inFrame.filter((s) => s.e.name === "Layout");
  const commitSpan = inFrame.find((s) => s.e.name === "Commit") ?? inWindow.find((s) => s.e.name === "Commit" && frameSpan && s.start >= frameSpan.start);
  const frameEnd = frameSpan ? frameSpan.end : handlersEnd;
  const commitEnd = commitSpan ? commitSpan.end : frameEnd;
  const frame = {
    total: frameSpan ? ms(cpu(frameSpan)) : 0,
    raf: sum((s) => s.e.name === "FireAnimationFrame"),
    style: sum((s) => s.e.name === "UpdateLayoutTree"),
    styleElements: styles.reduce((a, s) => a + num(s.e.args?.elementCount), 0),
    layout: sum((s) => s.e.name === "Layout"),
    layoutDirty: layouts.reduce((a, s) => a + num(s.e.args?.beginData?.dirtyObjects), 0),
    layoutTotal: Math.max(0, ...layouts.map((s) => num(s.e.args?.beginData?.totalObjects))),
    observers: sum((s) => OBSERVERS.has(s.e.name)),
    prePaint: sum((s) => s.e.name === "PrePaint"),
    paint: sum((s) => s.e.name === "Paint"),
    layerize: sum((s) => s.e.name === "Layerize"),
    commit: sum((s) => s.e.name === "Commit"),
  };
  const named = (s: Span): TraceTask => ({ at: at(s.start), ms: ms(cpu(s)), name: taskName(s, inWindow) });
  const handlerTasks = new Set(handlerSpans.map((h) => (function top(s: Span): Span {
    return s.parent ? top(s.parent) : s;
  })(h)));
  const before = tasks.filter((s) => s.start >= handlersEnd - 1 && (!frameTask || s.end <= frameTask.start) && !handlerTasks.has(s)).map(named);
  const during = tasks.filter((s) => s.start >= commitEnd && s !== frameTask).map(named);
  const gcSpans = inWindow.filter((s) => /^(MinorGC|MajorGC|V8\.GC_.*|BlinkGC\..*)$/.test(s.e.name));
  const gc = ms(
    gcSpans
      .filter((s) => !gcSpans.some((o) => within(s, o)))
      .reduce((a, s) => a + Math.min(s.end, t1) - Math.max(s.start, t0), 0),
  );

  // Other threads: top-level complete events, clipped to the window, by thread name.
  const threadNames = new Map<string, string>();
  for (const e of events) if (e.ph === "M" && e.name === "thread_name") threadNames.set(`${e.pid}:${e.tid}`, String(e.args?.name));
  const otherThreads: Record<string, number> = {};
  const byThread = new Map<string, TraceEvent[]>();
  for (const e of events) {
    if (e.ph !== "X" || (e.pid === pid && e.tid === tid)) continue;
    const key = `${e.pid}:${e.tid}`;
    if (!byThread.has(key)) byThread.set(key, []);
    byThread.get(key)!.push(e);
  }
  for (const [key, list] of byThread) {
    const [p, t] = key.split(":").map(Number) as [number, number];
    const busy = spansOf(list, p, t)
      .filter((s) => s.depth === 0)
      .reduce((a, s) => a + Math.max(0, Math.min(s.end, t1) - Math.max(s.start, t0)), 0);
    if (busy < 500) continue;
    const name = (threadNames.get(key) ?? "thread").replace(/\d+$/, "");
    otherThreads[name] = (otherThreads[name] ?? 0) + ms(busy);
  }

  const counts = new Map<string, number>();
  for (const e of events) {
    if (e.ts < t0 - 200_000 || e.ts > t1) continue;
    if (e.name !== "StyleRecalcInvalidationTracking" && e.name !== "LayoutInvalidationTracking") continue;
    const d = e.args?.data ?? {};
    const what = `${e.name === "LayoutInvalidationTracking" ? "layout" : "style"}: ${String(d.reason ?? "")} ${String(d.nodeName ?? "")}`.trim();
    counts.set(what, (counts.get(what) ?? 0) + 1);
  }
  const invalidations = [...counts].sort((a, b) => b[1] - a[1]).map(([w, n]) => `${n}× ${w}`);

  return {
    interactionId: id,
    duration,
    delay: Math.max(0, ms(processingStart - t0)),
    handlers,
    forced,
    before,
    frame,
    present: ms(Math.max(0, t1 - commitEnd)),
    during,
    landedBeforePaint: during.some((t) => t.name === "timer" || t.name === "event widget-drawn"),
    gc,
    otherThreads,
    tasks: tasks.map(named),
    frameTop: frameSpan ? selfTimes([frameSpan], inWindow) : [],
    forcedTop: selfTimes(forcedSpans, inWindow),
    invalidations,
  };
}

const f0 = (x: number) => x.toFixed(0);
const f1 = (x: number) => x.toFixed(1);
const taskList = (ts: readonly TraceTask[]) => ts.map((t) => `${t.name} ${f1(t.ms)} ms at +${f0(t.at)}`).join(", ");

/** One line (two with tasks) per key. */
export function formatBreakdown(b: InteractionBreakdown, heightChange: number | undefined): string {
  const fr = b.frame;
  const lines = [
    `${f0(b.duration).padStart(4)} ms to the paint; delay ${f1(b.delay)} (wall); CPU: handlers ${f1(b.handlers)} (forced style+layout ${f1(b.forced)}),` +
      ` before the frame ${f1(b.before.reduce((a, t) => a + t.ms, 0))},` +
      ` frame ${f1(fr.total)} (rAF ${f1(fr.raf)}, style ${f1(fr.style)} for ${fr.styleElements} el, layout ${f1(fr.layout)} for ${fr.layoutDirty}/${fr.layoutTotal} obj,` +
      ` observers ${f1(fr.observers)}, pre-paint ${f1(fr.prePaint)}, paint ${f1(fr.paint)}, layerize ${f1(fr.layerize)}, commit ${f1(fr.commit)})` +
      `; commit to the screen ${f1(b.present)} (wall); GC ${f1(b.gc)}; height ${heightChange === undefined ? "?" : `${heightChange >= 0 ? "+" : ""}${f0(heightChange)} px`}`,
  ];
  if (b.before.length) lines.push(`        before the frame: ${taskList(b.before)}`);
  if (b.during.length) lines.push(`        waiting for the screen: ${taskList(b.during)}`);
  const others = Object.entries(b.otherThreads)
    .sort((a, c) => c[1] - a[1])
    .slice(0, 4)
    .map(([n, v]) => `${n} ${f0(v)}`);
  if (others.length) lines.push(`        other threads (ms of CPU in the window): ${others.join(", ")}`);
  return lines.join("\n");
}

const BASE_CATEGORIES = ["devtools.timeline", "toplevel", "blink", "benchmark", "v8", "disabled-by-default-v8.gc"];
const INVALIDATION_CATEGORIES = ["disabled-by-default-devtools.timeline.invalidationTracking"];

/** Watches the widget's root height: each frame where it changes appends [performance.now(), height]. */
const heightWatcher = (id: string) => `(() => {
  const root = document.getElementById(${JSON.stringify(id)});
  window.__heights = [[performance.now(), root.getBoundingClientRect().height]];
  new ResizeObserver((entries) => {
    for (const e of entries) window.__heights.push([performance.now(), e.borderBoxSize?.[0]?.blockSize ?? e.contentRect.height]);
  }).observe(root);
})()`;

export interface TracedKey {
  build: string;
  widget: string;
  control: string;
  key: string;
  breakdown: InteractionBreakdown;
  heightChange: number | undefined;
  /** The raw trace (kept only when asked to save). */
  trace?: Buffer;
}

interface TraceOptions {
  page: string;
  widget: string;
  controls?: string[];
  reps: number;
  settleMs: number;
  slowdown: number;
  invalidations: boolean;
  keep: boolean;
  /** A style sheet added to the page after the load (for trying a remedy without a build). */
  css?: string;
}

async function traceWidget(browser: Browser, server: SiteServer, build: string, o: TraceOptions): Promise<TracedKey[]> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const out: TracedKey[] = [];
  try {
    const page: Page = await context.newPage();
    await page.goto(server.url + o.page, { waitUntil: "load" });
    if (o.css) await page.addStyleTag({ content: o.css });
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: o.slowdown });
    const ids: string[] = await page.evaluate(
      `Array.from(document.querySelectorAll("[data-widget]")).map((w) => w.id).filter((id) => id === ${JSON.stringify(o.widget)} || id.startsWith("widget-" + ${JSON.stringify(o.widget)} + "-"))`,
    );
    if (ids.length === 0) throw new Error(`--widget: no widget "${o.widget}" on ${o.page}`);
    const categories = [...BASE_CATEGORIES, ...(o.invalidations ? INVALIDATION_CATEGORIES : [])];
    for (const id of ids) {
      await page.locator(`#${id}`).scrollIntoViewIfNeeded();
      await page.waitForFunction((i) => document.getElementById(i)?.dataset.widgetState === "mounted", id, {
        timeout: 60_000,
      });
      await settle(page, 1000);
      await page.evaluate(heightWatcher(id));
      for (let r = 0; r < o.reps; r++) {
        for (const edit of await controlsOf(page, id)) {
          if (o.controls && !o.controls.includes(edit.control)) continue;
          const control = page.locator(`#${id} [name="${edit.control}"], #${id} #${edit.control}`).first();
          if ((await control.count()) === 0 || !(await control.isEnabled())) continue;
          await control.focus();
          await settle(page, o.settleMs);
          for (const key of edit.keys) {
            if (!(await control.evaluate((el) => el === document.activeElement).catch(() => false))) {
              if (!(await control.isVisible())) break;
              await control.focus();
              await settle(page, o.settleMs);
            }
            const heightBefore: number = await page.evaluate("window.__heights.at(-1)[1]");
            const pressedAt: number = await page.evaluate("performance.now()");
            await browser.startTracing(page, { categories });
            await page.keyboard.press(key);
            await settle(page, o.settleMs);
            const trace = await browser.stopTracing();
            const events = (JSON.parse(trace.toString("utf8")) as { traceEvents: TraceEvent[] }).traceEvents;
            const breakdown = breakDownInteraction(events, undefined, pressedAt);
            if (!breakdown) continue;
            // The first height the observer saw after the key (in the key's frame, if it changed there).
            const heights: Array<[number, number]> = await page.evaluate("window.__heights");
            const after = heights.find(([t]) => t > pressedAt);
            // (The key's timestamp comes a little after pressedAt: the window is generous by that much.)
            const heightChange = after && after[0] <= pressedAt + breakdown.duration + 50 ? after[1] - heightBefore : 0;
            out.push({
              build,
              widget: id,
              control: edit.control,
              key,
              breakdown,
              heightChange,
              ...(o.keep ? { trace } : {}),
            });
          }
        }
      }
    }
  } finally {
    await context.close();
  }
  return out;
}

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const page = option("--page") ?? "/pipeline-parallelism/";
  const widget = option("--widget");
  if (!widget) throw new Error("--widget: name a widget id (widget-pipeline-explorer-2) or a widget name (pipeline-explorer)");
  const reps = Number(option("--reps") ?? 1);
  if (!Number.isInteger(reps) || reps < 1) throw new Error(`--reps must be a whole number ≥ 1, got ${option("--reps")}`);
  const over = Number(option("--over") ?? 0);
  if (!Number.isFinite(over)) throw new Error(`--over must be a number of milliseconds, got ${option("--over")}`);
  const saveDir = option("--save");
  const baseline = option("--baseline");
  const builds = [...(baseline ? [{ label: "baseline", dir: baseline }] : []), { label: "current", dir: process.env.SITE_DIR ?? "_site" }];
  const detail = process.argv.includes("--detail");
  console.log(
    `Key presses traced on ${page} ${widget}, CPU 4× slower, ${reps} pass(es), load average ${os.loadavg()[0]!.toFixed(2)} on ${os.cpus().length} CPUs`,
  );
  const servers = await Promise.all(builds.map((b) => startSiteServer(b.dir)));
  const browser = await launchChromium();
  const all: TracedKey[] = [];
  try {
    for (const [i, b] of builds.entries()) {
      const keys = await traceWidget(browser, servers[i]!, b.label, {
        page,
        widget,
        controls: option("--controls")?.split(","),
        reps,
        settleMs: 250,
        slowdown: 4,
        invalidations: process.argv.includes("--invalidations"),
        keep: saveDir !== undefined,
        css: option("--css"),
      });
      for (const [n, k] of keys.entries()) {
        if (k.breakdown.duration < over) continue;
        console.log(`${k.build} ${k.widget} ${k.control} ${k.key}: ${formatBreakdown(k.breakdown, k.heightChange)}`);
        if (detail) {
          const self = (ts: readonly TraceTask[]) => ts.map((t) => `${t.name} ${f1(t.ms)}`).join(", ");
          console.log(`        tasks: ${taskList(k.breakdown.tasks)}`);
          console.log(`        the frame's self time by event: ${self(k.breakdown.frameTop)}`);
          if (k.breakdown.forcedTop.length) console.log(`        forced style+layout by event: ${self(k.breakdown.forcedTop)}`);
        }
        for (const inv of k.breakdown.invalidations.slice(0, 8)) console.log(`        ${inv}`);
        if (saveDir && k.trace) {
          mkdirSync(saveDir, { recursive: true });
          const file = path.join(saveDir, `${k.build}-${k.widget}-${n}-${k.control}-${k.key.replace(/\W+/g, "")}.json`);
          writeFileSync(file, k.trace);
        }
      }
      all.push(...keys);
    }
  } finally {
    await browser.close();
    await Promise.all(servers.map((s) => s.close()));
  }
  for (const b of builds) {
    const mine = all.filter((k) => k.build === b.label);
    if (mine.length === 0) continue;
    const m = (pick: (k: TracedKey) => number) => f1(median(mine.map(pick)));
    const moved = mine.filter((k) => (k.heightChange ?? 0) !== 0);
    const mx = (pick: (k: TracedKey) => number) => f1(Math.max(...mine.map(pick)));
    console.log(
      `\n${b.label}: ${mine.length} keys; median | max: duration ${m((k) => k.breakdown.duration)} | ${mx((k) => k.breakdown.duration)} ms,` +
        ` handlers ${m((k) => k.breakdown.handlers)} | ${mx((k) => k.breakdown.handlers)},` +
        ` frame ${m((k) => k.breakdown.frame.total)} | ${mx((k) => k.breakdown.frame.total)},` +
        ` pre-paint ${m((k) => k.breakdown.frame.prePaint)} | ${mx((k) => k.breakdown.frame.prePaint)},` +
        ` paint ${m((k) => k.breakdown.frame.paint)} | ${mx((k) => k.breakdown.frame.paint)},` +
        ` to the screen ${m((k) => k.breakdown.present)} | ${mx((k) => k.breakdown.present)};` +
        ` ${moved.length} keys changed the widget's height in their frame;` +
        ` on ${mine.filter((k) => k.breakdown.landedBeforePaint).length} a timer (deferred work) ran before the key reached the screen`,
    );
  }
}
