/**
 * `npm run bench:interactions`: how long each widget takes to answer a reader who types, measured
 * the way the browser reports responsiveness (issue #54): the Event Timing API's duration, from
 * the key press to the next paint after its handlers ran (what Interaction to Next Paint is made
 * of), in Chromium on the built site with the CPU 4× slower (DevTools' CPU throttling). Goal:
 * every edit of every widget under 100 ms. It prints numbers and never fails on slow ones.
 *
 * For every widget on the site (each instance, on its page), after it has mounted and the page is
 * quiet, every enabled control the reader can change is edited with the keyboard, as a reader does:
 * - a text or number field holding a number: select all (Ctrl+A), type a new value one key at a
 *   time (the number plus one, or doubled for a decimal), then select all and type the old one back;
 * - a select: ArrowDown, then ArrowUp; a slider: ArrowRight, then ArrowLeft; a checkbox: Space twice.
 * Each key press is one interaction: the benchmark waits until the page has painted and been idle
 * for a moment (`settleMs`, 250 ms by default, then an idle callback) before the next, so work a
 * widget defers past the paint (a debounced redraw, a worker) is not charged to the next key. The
 * duration of an interaction is the longest Event Timing entry carrying its interactionId (keydown
 * and keyup share one; entries are matched to keys by their timestamps, `entriesByKey`); Chromium
 * reports entries of 16 ms or more (the API's floor), so a key with no entry took under 16 ms and
 * counts as 16 ms in the medians (an upper bound). An entry that Chromium ended only with the next
 * key's paint is left out (`keySample`), and the row says for how many keys.
 *
 * A row per widget instance: how many interactions, their median, and the worst one (with the
 * control and key), over `--reps N` passes (default 2): "worst" is the median over the passes of
 * each pass's worst interaction, so one hiccup of a busy machine does not make the row, and "max"
 * is the worst of all. "handlers" is the same median of each pass's longest event-handler run
 * (processingStart to processingEnd of any of a key's events): the widget's own synchronous work,
 * which on a shared machine says more than the paint time around it. With `--baseline DIR` (another build, e.g. of an earlier commit) every page
 * is measured on both builds in alternation, in the same run, so a before/after comparison sees the
 * same machine load. `--pages /a/,/b/` limits the pages; `--widgets name,name` the widgets;
 * `--out FILE` writes the rows as JSON (default bench/interactions.json). Needs `npm run build`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "../../harness/chromium.ts";
import { startSiteServer, type SiteServer } from "../../harness/site-server.ts";
import { sitePages } from "../../harness/site-pages.ts";

/** The goal of issue #54: every edit's input-to-next-paint under this many milliseconds at 4×. */
export const interactionGoalMs = 100;
/** Chromium reports Event Timing entries from this duration up (the API's smallest threshold). */
export const eventTimingFloorMs = 16;

/** One control of a widget and the key presses that edit it and put it back. */
export interface ControlEdit {
  /** The control's name attribute (or its id). */
  control: string;
  kind: "text" | "select" | "range" | "checkbox";
  /** Key presses in order, as Playwright names them ("Control+A", "5", "ArrowDown"). */
  keys: string[];
}

/** One measured key press. */
export interface InteractionSample {
  control: string;
  key: string;
  /** Longest Event Timing entry of the interaction; `eventTimingFloorMs` when none was reported. */
  ms: number;
  /**
   * Longest time the page's handlers ran for one of its events (processingEnd − processingStart,
   * the `input` event's included): the part of `ms` that the widget's own code costs, which a
   * busy machine inflates less than the wait for the paint. 0 when no entry was reported.
   */
  handlerMs: number;
  /** False when Chromium reported no entry (the interaction took less than the floor). */
  reported: boolean;
  /**
   * True when an entry of the key was ended only by the paint of a later key, and so left out of
   * `ms` (see {@link keySample}).
   */
  endedByLaterPaint?: boolean;
}

export interface InteractionRow {
  build: string;
  page: string;
  widget: string;
  /** The widget instance's element id. */
  id: string;
  interactions: number;
  medianMs: number;
  /** Median over the passes of each pass's worst interaction. */
  worstMs: number;
  /** Worst interaction of all passes, and where it happened. */
  maxMs: number;
  maxAt: string;
  /** Median over the passes of each pass's longest handler time. */
  worstHandlerMs: number;
  /** Keys with an entry ended only by a later key's paint (`InteractionSample.endedByLaterPaint`). */
  endedByLaterPaint: number;
}

/**
 * The new text to type into a numeric field holding `value`, or undefined when the field does not
 * hold a plain number (a name, an empty optional field): a whole number gets one more, a decimal
 * is doubled (printed without a trailing ".0").
 */
export function nextNumber(value: string): string | undefined {
  const v = value.trim();
  if (!/^\d+(\.\d+)?$/.test(v)) return undefined;
  if (/^\d+$/.test(v)) return String(Number(v) + 1);
  return String(Number((Number(v) * 2).toPrecision(12)));
}

/** The key presses that edit a control of `kind` holding `value` and then restore it. */
export function editKeys(kind: ControlEdit["kind"], value: string): string[] | undefined {
  switch (kind) {
    case "select":
      return ["ArrowDown", "ArrowUp"];
    case "range":
      return ["ArrowRight", "ArrowLeft"];
    case "checkbox":
      return ["Space", "Space"];
    case "text": {
      const next = nextNumber(value);
      if (next === undefined) return undefined;
      return ["ControlOrMeta+A", ...next.split(""), "ControlOrMeta+A", ...value.trim().split("")];
    }
  }
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i]!;
}

/** The median of `values` (the lower middle one for an even count, as the other benches do). */
export function median(values: readonly number[]): number {
  return quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}

/** A row from the samples of every pass (`passes[i]` holds pass i's samples, in order). */
export function summarizeInteractions(
  meta: Pick<InteractionRow, "build" | "page" | "widget" | "id">,
  passes: readonly (readonly InteractionSample[])[],
): InteractionRow {
  const all = passes.flat();
  let max: InteractionSample | undefined;
  for (const s of all) if (!max || s.ms > max.ms) max = s;
  const worstPerPass = passes.filter((p) => p.length > 0).map((p) => Math.max(...p.map((s) => s.ms)));
  return {
    ...meta,
    interactions: all.length,
    medianMs: median(all.map((s) => s.ms)),
    worstMs: median(worstPerPass),
    maxMs: max?.ms ?? NaN,
    maxAt: max ? `${max.control} ${max.key}` : "",
    worstHandlerMs: median(
      passes.filter((p) => p.length > 0).map((p) => Math.max(...p.map((s) => s.handlerMs))),
    ),
    endedByLaterPaint: all.filter((s) => s.endedByLaterPaint).length,
  };
}

/** Records every Event Timing entry of the page in `window.__eventTimings` (an init script). */
const recorder = `(() => {
  window.__eventTimings = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        window.__eventTimings.push({
          name: e.name,
          id: e.interactionId || 0,
          start: e.startTime,
          duration: e.duration,
          processing: e.processingEnd - e.processingStart,
        });
      }
    }).observe({ type: "event", durationThreshold: ${eventTimingFloorMs}, buffered: true });
  } catch (err) {
    window.__eventTimingsError = String(err);
  }
})()`;

/** Waits until the page has painted, then `ms`, then an idle moment (at most 2 s more). */
export async function settle(page: Page, ms: number): Promise<void> {
  await page.evaluate(
    `new Promise((resolve) => requestAnimationFrame(() => setTimeout(() => {
      if (window.requestIdleCallback) requestIdleCallback(() => resolve(), { timeout: 2000 });
      else resolve();
    }, ${ms})))`,
  );
}

/** The controls of the widget `#id` that a reader can edit, with their keys (buttons are left out). */
export async function controlsOf(page: Page, id: string): Promise<ControlEdit[]> {
  // Plain JavaScript source: tsx would wrap named functions in a helper the page does not have.
  const found: Array<{ control: string; kind: ControlEdit["kind"]; value: string }> = await page.evaluate(`(() => {
    const root = document.getElementById(${JSON.stringify(id)});
    const out = [];
    for (const el of root.querySelectorAll("input, select")) {
      if (el.disabled || el.getClientRects().length === 0 || el.closest("[hidden], [inert]")) continue;
      const type = el.tagName === "SELECT" ? "select" : el.type;
      const kind = type === "select" ? "select" : type === "range" ? "range" : type === "checkbox" ? "checkbox"
        : type === "text" || type === "number" || type === "" ? "text" : null;
      if (!kind) continue;
      if (kind === "select" && el.options.length < 2) continue;
      out.push({ control: el.name || el.id, kind, value: el.value });
    }
    return out;
  })()`);
  const edits: ControlEdit[] = [];
  for (const c of found) {
    const keys = editKeys(c.kind, c.value);
    if (keys) edits.push({ control: c.control, kind: c.kind, keys });
  }
  return edits;
}

/** An Event Timing entry as the recorder keeps it. */
export interface TimingEntry {
  name: string;
  /** interactionId; 0 for events that are not part of an interaction (`input`). */
  id: number;
  /** The event's timestamp, on the page's performance.now() clock. */
  start: number;
  duration: number;
  processing: number;
}

/**
 * Each key's Event Timing entries: those whose event happened from the moment just before the key
 * was pressed (`pressedAt`, the page's clock) to the moment before the next key. The browser hands
 * entries to the observer when it gets to it, under a slowed CPU sometimes after the benchmark has
 * moved on to the next key, so entries are matched by their timestamps, never by when they arrived.
 */
export function entriesByKey(pressedAt: readonly number[], entries: readonly TimingEntry[]): TimingEntry[][] {
  return pressedAt.map((t, i) => {
    const next = pressedAt[i + 1] ?? Infinity;
    return entries.filter((e) => e.start >= t && e.start < next);
  });
}

/**
 * One key's sample from its Event Timing entries (`entriesByKey`) and the moment the next key was
 * pressed (or the pass ended). The duration is the longest entry of the interaction, as
 * Interaction to Next Paint takes it, leaving out an entry that ended only after the next key was
 * pressed. An entry ends at the first paint presented after its handlers; for an event that changed
 * nothing on the screen, Chromium can leave it open until a later paint, here the next key's, which
 * the benchmark presses only after the page has painted and sat idle: such an entry measures the
 * benchmark's pause, not the widget. Seen on select-all in the fields of a `<details>` in headless
 * Chromium: the bare Control keydown's entry ran 340-380 ms, to the next key's paint, while the
 * same key's keyup, after the selection, was painted within 16 ms. A key that lost an entry so is
 * marked `endedByLaterPaint`, and the rows count them.
 */
export function keySample(
  edit: { control: string; key: string },
  entries: readonly TimingEntry[],
  nextPressAt: number,
): InteractionSample {
  const mine = entries.filter((e) => e.id > 0);
  const painted = mine.filter((e) => e.start + e.duration <= nextPressAt);
  const ms = painted.length > 0 ? Math.max(...painted.map((e) => e.duration)) : eventTimingFloorMs;
  // The `input` event carries no interactionId; its handlers are this key's all the same.
  const handlerMs = Math.max(0, ...entries.map((e) => e.processing));
  const late = painted.length < mine.length;
  return { ...edit, ms, handlerMs, reported: mine.length > 0, ...(late ? { endedByLaterPaint: true } : {}) };
}

/** Every interaction of one pass over the widget `#id`: each control edited and put back. */
async function passOverWidget(page: Page, id: string, settleMs: number): Promise<InteractionSample[]> {
  const pressed: Array<{ control: string; key: string; at: number }> = [];
  await page.evaluate("window.__eventTimings.length = 0");
  for (const edit of await controlsOf(page, id)) {
    const selector = `#${id} [name="${edit.control}"], #${id} #${edit.control}`;
    const control = page.locator(selector).first();
    if ((await control.count()) === 0 || !(await control.isEnabled())) continue;
    await control.focus();
    await settle(page, settleMs);
    for (const key of edit.keys) {
      // The control can lose focus (a field that a schedule hides); put it back without a key.
      if (!(await control.evaluate((el) => el === document.activeElement).catch(() => false))) {
        if (!(await control.isVisible())) break;
        await control.focus();
        await settle(page, settleMs);
      }
      const at: number = await page.evaluate("performance.now()");
      await page.keyboard.press(key);
      pressed.push({ control: edit.control, key, at });
      await settle(page, settleMs);
    }
  }
  const end: number = await page.evaluate("performance.now()");
  const entries: TimingEntry[] = await page.evaluate("window.__eventTimings.splice(0)");
  const byKey = entriesByKey(
    pressed.map((p) => p.at),
    entries,
  );
  return pressed.map((p, i) => keySample({ control: p.control, key: p.key }, byKey[i]!, pressed[i + 1]?.at ?? end));
}

export interface InteractionOptions {
  builds: Array<{ label: string; dir: string }>;
  pages?: string[];
  widgets?: string[];
  reps?: number;
  settleMs?: number;
  cpuSlowdown?: number;
  log?: (line: string) => void;
}

async function openPage(browser: Browser, server: SiteServer, p: string, slowdown: number) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(recorder);
  const page = await context.newPage();
  await page.goto(server.url + p, { waitUntil: "load" });
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: slowdown });
  return { context, page };
}

/** Rows for every widget instance of every page, per build. */
export async function measureInteractions(opts: InteractionOptions): Promise<InteractionRow[]> {
  const reps = opts.reps ?? 2;
  const settleMs = opts.settleMs ?? 250;
  const slowdown = opts.cpuSlowdown ?? 4;
  const log = opts.log ?? (() => {});
  const servers = await Promise.all(opts.builds.map((b) => startSiteServer(b.dir)));
  const browser = await launchChromium();
  const rows: InteractionRow[] = [];
  try {
    const pages = opts.pages ?? sitePages(opts.builds[0]!.dir).filter((p) => p !== "/book/");
    for (const p of pages) {
      for (const [b, build] of opts.builds.entries()) {
        const { context, page } = await openPage(browser, servers[b]!, p, slowdown);
        const widgets: Array<{ id: string; name: string }> = await page.evaluate(
          `Array.from(document.querySelectorAll("[data-widget]")).map((w) => ({ id: w.id, name: w.dataset.widget }))`,
        );
        for (const w of widgets) {
          if (opts.widgets && !opts.widgets.includes(w.name)) continue;
          const root = page.locator(`#${w.id}`);
          await root.scrollIntoViewIfNeeded();
          await page.waitForFunction(
            (id) => document.getElementById(id)?.dataset.widgetState === "mounted",
            w.id,
            { timeout: 60_000 },
          );
          await settle(page, 1000);
          const passes: InteractionSample[][] = [];
          for (let r = 0; r < reps; r++) passes.push(await passOverWidget(page, w.id, settleMs));
          const row = summarizeInteractions({ build: build.label, page: p, widget: w.name, id: w.id }, passes);
          rows.push(row);
          log(formatRow(row));
        }
        await context.close();
      }
    }
  } finally {
    await browser.close();
    await Promise.all(servers.map((s) => s.close()));
  }
  return rows;
}

export function formatRow(r: InteractionRow): string {
  const ms = (x: number) => `${Math.round(x)}`.padStart(4);
  const over = r.worstMs >= interactionGoalMs ? "  over 100 ms" : "";
  const nothing = r.endedByLaterPaint > 0 ? `  ${r.endedByLaterPaint} with an entry ended by a later paint` : "";
  return `  ${r.build.padEnd(9)} ${`${r.page} ${r.id}`.padEnd(56)} ${String(r.interactions).padStart(4)} keys  median ${ms(r.medianMs)} ms  worst ${ms(r.worstMs)} ms  max ${ms(r.maxMs)} ms (${r.maxAt})  handlers ${ms(r.worstHandlerMs)} ms${nothing}${over}`;
}

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const siteDir = process.env.SITE_DIR ?? "_site";
  const baseline = option("--baseline");
  const builds = [...(baseline ? [{ label: "baseline", dir: baseline }] : []), { label: "current", dir: siteDir }];
  const reps = Number(option("--reps") ?? 2);
  if (!Number.isInteger(reps) || reps < 1) throw new Error(`--reps must be a whole number ≥ 1, got ${option("--reps")}`);
  const out = option("--out") ?? "bench/interactions.json";
  const load = os.loadavg()[0]!;
  console.log(
    `Interaction to next paint per widget, CPU 4× slower, ${reps} passes, load average ${load.toFixed(2)} on ${os.cpus().length} CPUs`,
  );
  const rows = await measureInteractions({
    builds,
    pages: option("--pages")?.split(","),
    widgets: option("--widgets")?.split(","),
    reps,
    log: (l) => console.log(l),
  });
  const over = rows.filter((r) => r.build === "current" && r.worstMs >= interactionGoalMs);
  console.log(
    `\n${over.length} of ${rows.filter((r) => r.build === "current").length} widgets at or over ${interactionGoalMs} ms (worst, median of passes): ${over.map((r) => r.id).join(", ") || "none"}`,
  );
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(
    out,
    JSON.stringify({ date: new Date().toISOString(), loadAverage: load, cpus: os.cpus().length, reps, rows }, null, 2) +
      "\n",
  );
}
