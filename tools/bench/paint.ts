/**
 * Paint time against the physical limit. For each page, a "bare twin" is written beside it: the
 * same HTML with every <link>, <script> and <style> element removed (no stylesheet, font or script
 * can be fetched), which is the fastest this content can paint. Both are loaded in the same run,
 * alternately, in a fresh browser context each time (cold cache, as a first visit), with Chromium's
 * CPU throttled 4× (Emulation.setCPUThrottlingRate), over a loopback server that gzips text like a
 * static host. First contentful paint and largest contentful paint are read from the page's own
 * PerformanceObserver entries once the load event has fired and the page has been idle for a
 * moment. The report gives the median of the runs and the ratio page / twin. The browser comes from
 * harness/chromium.ts, which switches off Chromium's address-bar popup: in headless Chromium 156
 * every fresh context loaded it in a renderer of its own, about 0.7 s of CPU in the first second,
 * during the very load being measured.
 *
 * Budget (issue: "paint as fast as the bare text"): every chapter page within 1.5× of its twin, the
 * single-page edition /book/ within 2×. Nothing fails on times: the numbers are machine- and
 * load-dependent; the ratios are what to compare, and only within one run.
 *
 * The twin is cut from the source with htmlparser2's source offsets (no regular expression over
 * HTML): every element named link, script or style is removed with its content.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { quantileSorted } from "d3-array";
import { randomInt, randomLcg } from "d3-random";
import { Parser } from "htmlparser2";
import type { Browser } from "playwright-core";

export const BARE_PREFIX = "__bare__";
const REMOVED = new Set(["link", "script", "style"]);

/** The page's HTML with every link, script and style element cut out (source offsets). */
export function bareTwin(html: string): string {
  const cuts: Array<[number, number]> = [];
  const open: number[] = [];
  const parser = new Parser(
    {
      onopentag(name) {
        if (REMOVED.has(name)) open.push(parser.startIndex);
      },
      onclosetag(name) {
        if (!REMOVED.has(name)) return;
        const start = open.pop();
        if (start === undefined) return;
        // A void <link> is closed (implied) at the end of its own tag; script and style at </…>.
        cuts.push([start, parser.endIndex + 1]);
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  // Keep the outermost cuts only (a <style> inside a removed <script> is gone with it).
  cuts.sort((a, b) => a[0] - b[0]);
  let out = "";
  let at = 0;
  for (const [start, end] of cuts) {
    if (start < at) continue;
    out += html.slice(at, start);
    at = end;
  }
  return out + html.slice(at);
}

/** Writes `<root>/__bare__/<page>/index.html` for each page; returns the twins' URL paths. */
export function writeBareTwins(root: string, pages: string[]): Map<string, string> {
  rmSync(path.join(root, BARE_PREFIX), { recursive: true, force: true });
  const twins = new Map<string, string>();
  for (const p of pages) {
    const html = readFileSync(path.join(root, p, "index.html"), "utf8");
    const twinPath = `/${BARE_PREFIX}${p}`;
    mkdirSync(path.join(root, twinPath), { recursive: true });
    writeFileSync(path.join(root, twinPath, "index.html"), bareTwin(html));
    twins.set(p, twinPath);
  }
  return twins;
}

export interface Viewport {
  name: string;
  width: number;
  height: number;
}

export const viewports: Viewport[] = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
];

export interface PaintSample {
  fcpMs: number;
  lcpMs: number;
}

/** One cold load of `url` with the CPU throttled `slowdown`×; FCP and LCP in milliseconds. */
async function measurePaint(browser: Browser, url: string, viewport: Viewport, slowdown = 4): Promise<PaintSample> {
  const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: slowdown });
    // /book/ (about 77,000 elements) takes tens of seconds to load at 4× on a busy machine.
    await page.goto(url, { waitUntil: "load", timeout: 300_000 });
    return await page.evaluate(
      () =>
        new Promise<{ fcpMs: number; lcpMs: number }>((resolve) => {
          let lcp = 0;
          new PerformanceObserver((list) => {
            for (const e of list.getEntries()) lcp = Math.max(lcp, e.startTime);
          }).observe({ type: "largest-contentful-paint", buffered: true });
          // Let late paints (a web font swapping in) register before reading.
          setTimeout(() => {
            const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN;
            resolve({ fcpMs: fcp, lcpMs: lcp || fcp });
          }, 300);
        }),
    );
  } finally {
    await context.close();
  }
}

/**
 * CPU time the whole machine has spent busy, in ms, summed over cores from Node's `os.cpus()`
 * (user, nice, sys and irq; idle is not busy).
 */
export function busyMs(cpus: Array<{ times: { user: number; nice: number; sys: number; irq: number } }> = os.cpus()): number {
  return cpus.reduce((sum, { times }) => sum + times.user + times.nice + times.sys + times.irq, 0);
}

/**
 * Waits until the machine is quiet: two 200 ms windows in a row with at most 40 ms of busy CPU
 * time over all cores, so a load does not share the CPU with whatever the previous load left
 * running. Gives up after `maxMs`. Returns the time waited in ms.
 */
export async function waitForQuietCpu(maxMs = 5000): Promise<number> {
  const start = Date.now();
  let quiet = 0;
  while (Date.now() - start < maxMs && quiet < 2) {
    const before = busyMs();
    await new Promise((resolve) => setTimeout(resolve, 200));
    quiet = busyMs() - before <= 40 ? quiet + 1 : 0;
  }
  return Date.now() - start;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * How far a ratio of medians could move with other loads like these: a percentile bootstrap.
 * Each draw resamples the page's loads and the twin's loads with replacement, each set on its
 * own, and takes the ratio of their medians; the interval holds the central `level` of the
 * draws. A fixed seed makes the same samples give the same interval. It measures the spread
 * within one run only: a change in the machine that lasts the whole run moves every load alike
 * and widens nothing (docs/performance-log.md, "Paint"). With few loads it is too narrow (one load of
 * each gives the ratio itself): it cannot show spread the loads did not happen to see.
 */
export function ratioInterval(
  page: number[],
  twin: number[],
  { level = 0.9, draws = 2000, seed = 0.25 }: { level?: number; draws?: number; seed?: number } = {},
): [number, number] {
  if (page.length === 0 || twin.length === 0) throw new Error("ratioInterval needs at least one load of each");
  if (!(level > 0 && level < 1)) throw new Error(`level must be between 0 and 1, got ${level}`);
  const index = randomInt.source(randomLcg(seed));
  const fromPage = index(0, page.length);
  const fromTwin = index(0, twin.length);
  const resample = (xs: number[], next: () => number) => median(Array.from(xs, () => xs[next()]!));
  const ratios = Array.from({ length: draws }, () => resample(page, fromPage) / resample(twin, fromTwin));
  ratios.sort((a, b) => a - b);
  const tail = (1 - level) / 2;
  const at = (q: number) => Math.round(quantileSorted(ratios, q)! * 100) / 100;
  return [at(tail), at(1 - tail)];
}

export interface PaintRow {
  page: string;
  viewport: string;
  fcpMs: number;
  lcpMs: number;
  bareFcpMs: number;
  bareLcpMs: number;
  fcpRatio: number;
  lcpRatio: number;
  /** 90% bootstrap intervals of the two ratios (ratioInterval): the spread of this run's loads. */
  fcpInterval: [number, number];
  lcpInterval: [number, number];
  /** The ratio this page must stay under: 2 for /book/, 1.5 for every other page. */
  budget: number;
  /**
   * Every load behind the medians, in round order: a page's and its twin's first paints spread
   * widely from load to load (docs/performance-log.md, "Paint"), so the medians can move between runs.
   */
  samples: { page: PaintSample[]; twin: PaintSample[]; baseline?: PaintSample[]; baselineTwin?: PaintSample[] };
  /**
   * The same page from the baseline build (`--baseline`), loaded in the same rounds, against the
   * baseline's own twin (its content may differ from this build's: an older commit).
   */
  baseline?: { fcpMs: number; lcpMs: number; bareFcpMs: number; bareLcpMs: number; fcpRatio: number; lcpRatio: number };
}

/** Medians of one kind of load pooled over rows, and their ratio. */
export interface PooledPaint {
  fcpMs: number;
  bareFcpMs: number;
  fcpRatio: number;
  lcpMs: number;
  bareLcpMs: number;
  lcpRatio: number;
}

/**
 * The chapter rows' loads pooled: the median of every page load against the median of every twin
 * load (and the same for the baseline build, when it was loaded), over all chapter pages and widths
 * (not /book/, whose budget differs). A row's verdict rests on 5-9 loads of its page and as many of
 * its twin, and moves between runs mostly with the twin's median (docs/performance-log.md, "Paint",
 * seventeenth look); pooled, a run's hundreds of loads say whether the pages paint like their
 * twins as a whole. It is reported beside the rows, not instead of them: the budget is per row.
 */
export function pooledRatios(rows: PaintRow[]): { rows: number; current: PooledPaint; baseline?: PooledPaint } {
  const chapters = rows.filter((r) => r.page !== "/book/");
  if (chapters.length === 0) throw new Error("pooledRatios needs at least one chapter row");
  const pool = (page: PaintSample[], twin: PaintSample[]): PooledPaint => {
    const [fcpMs, bareFcpMs, lcpMs, bareLcpMs] = [
      median(page.map((x) => x.fcpMs)),
      median(twin.map((x) => x.fcpMs)),
      median(page.map((x) => x.lcpMs)),
      median(twin.map((x) => x.lcpMs)),
    ];
    const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
    return { fcpMs, bareFcpMs, fcpRatio: ratio(fcpMs, bareFcpMs), lcpMs, bareLcpMs, lcpRatio: ratio(lcpMs, bareLcpMs) };
  };
  const current = pool(
    chapters.flatMap((r) => r.samples.page),
    chapters.flatMap((r) => r.samples.twin),
  );
  const baselinePages = chapters.flatMap((r) => r.samples.baseline ?? []);
  const baselineTwins = chapters.flatMap((r) => r.samples.baselineTwin ?? []);
  const baseline = baselinePages.length && baselineTwins.length ? pool(baselinePages, baselineTwins) : undefined;
  return { rows: chapters.length, current, ...(baseline ? { baseline } : {}) };
}

export function paintBudget(page: string): number {
  return page === "/book/" ? 2 : 1.5;
}

/** Another build of the site, in folder `root`, served at `origin`, to measure beside the current one. */
export interface BaselineSite {
  origin: string;
  root: string;
}

const ratio = (ms: number, bareMs: number) => Math.round((ms / bareMs) * 100) / 100;
const medianMs = (samples: PaintSample[], key: keyof PaintSample) => Math.round(median(samples.map((s) => s[key])));

/** One row from its samples: medians, ratios (each build against its own twin), budget. */
function paintRow(page: string, viewport: Viewport, samples: Record<PaintLoadKind, PaintSample[]>): PaintRow {
  const { page: full, twin: bare, baseline: before, baselineTwin: beforeBare } = samples;
  const fcpMs = medianMs(full, "fcpMs");
  const lcpMs = medianMs(full, "lcpMs");
  const bareFcpMs = medianMs(bare, "fcpMs");
  const bareLcpMs = medianMs(bare, "lcpMs");
  const row: PaintRow = {
    page,
    viewport: viewport.name,
    fcpMs,
    lcpMs,
    bareFcpMs,
    bareLcpMs,
    fcpRatio: ratio(fcpMs, bareFcpMs),
    lcpRatio: ratio(lcpMs, bareLcpMs),
    fcpInterval: ratioInterval(
      full.map((s) => s.fcpMs),
      bare.map((s) => s.fcpMs),
    ),
    lcpInterval: ratioInterval(
      full.map((s) => s.lcpMs),
      bare.map((s) => s.lcpMs),
    ),
    budget: paintBudget(page),
    samples: { page: full, twin: bare },
  };
  if (before.length > 0) {
    const baseFcpMs = medianMs(before, "fcpMs");
    const baseLcpMs = medianMs(before, "lcpMs");
    const baseBareFcpMs = medianMs(beforeBare, "fcpMs");
    const baseBareLcpMs = medianMs(beforeBare, "lcpMs");
    row.samples.baseline = before;
    row.samples.baselineTwin = beforeBare;
    row.baseline = {
      fcpMs: baseFcpMs,
      lcpMs: baseLcpMs,
      bareFcpMs: baseBareFcpMs,
      bareLcpMs: baseBareLcpMs,
      fcpRatio: ratio(baseFcpMs, baseBareFcpMs),
      lcpRatio: ratio(baseLcpMs, baseBareLcpMs),
    };
  }
  return row;
}

/** What `measurePaints` measures, where, and how. */
export interface PaintRunOptions {
  browser: Browser;
  /** Where the site is served, and the folder it is served from (the twins are written there). */
  origin: string;
  root: string;
  /** Site paths, such as "/one-gpu/". */
  pages: string[];
  /** Rounds of loads per page and viewport (default 5). */
  runs?: number;
  log?: (line: string) => void;
  /** Another build, measured in the same rounds against its own twins. */
  baseline?: BaselineSite;
  /** Wait for a quiet machine before each load (waitForQuietCpu). */
  settle?: boolean;
  /** The order of the loads (paintSchedule); "by-row" by default. */
  order?: PaintOrder;
}

/** Which of a row's pages one load fetches. */
export type PaintLoadKind = "baseline" | "baselineTwin" | "page" | "twin";

/** One load of a paint run: the row (viewport and page), the round, and which page of the row. */
export interface PaintLoad {
  viewport: Viewport;
  page: string;
  round: number;
  kind: PaintLoadKind;
}

/**
 * "by-row": every round of one row, then the next row, as in the paint tables of
 * docs/performance-log.md. "interleaved": round after round, each round visiting every row, so that
 * a change in the machine that lasts a few minutes falls on every row alike, not on the rows
 * measured while it lasted (docs/performance-log.md, "sixth look", saw one such change in a by-row run).
 */
export type PaintOrder = "by-row" | "interleaved";

/**
 * The loads of a paint run in the order they are made. Within a row's round: the baseline's page
 * and its twin (where `hasBaseline(page)`), then the page and its twin.
 */
export function paintSchedule(
  rowViewports: readonly Viewport[],
  pages: readonly string[],
  runs: number,
  hasBaseline: (page: string) => boolean,
  order: PaintOrder,
): PaintLoad[] {
  const rowRound = (viewport: Viewport, page: string, round: number): PaintLoad[] => {
    const kinds: PaintLoadKind[] = hasBaseline(page) ? ["baseline", "baselineTwin", "page", "twin"] : ["page", "twin"];
    return kinds.map((kind) => ({ viewport, page, round, kind }));
  };
  const rows = rowViewports.flatMap((viewport) => pages.map((page) => ({ viewport, page })));
  const rounds = Array.from({ length: runs }, (_, round) => round);
  return order === "by-row"
    ? rows.flatMap(({ viewport, page }) => rounds.flatMap((round) => rowRound(viewport, page, round)))
    : rounds.flatMap((round) => rows.flatMap(({ viewport, page }) => rowRound(viewport, page, round)));
}

/**
 * Measures every page at every viewport, `runs` rounds of loads, each round the page, its twin
 * and (with `baseline`) the baseline build's page and its twin, in the order `order` gives
 * (paintSchedule), and returns one row per page and viewport with the medians and ratios, each
 * build against its own twin (the same HTML when the baseline is a copy of this build). A page the
 * baseline lacks gets no baseline. A row is logged as soon as its last load is done.
 */
export async function measurePaints({
  browser,
  origin,
  root,
  pages,
  runs = 5,
  log = () => {},
  baseline,
  settle = false,
  order = "by-row",
}: PaintRunOptions): Promise<PaintRow[]> {
  const load = async (url: string, viewport: Viewport) => {
    if (settle) await waitForQuietCpu();
    return measurePaint(browser, url, viewport);
  };
  const twins = writeBareTwins(root, pages);
  const baselinePages = baseline ? pages.filter((p) => existsSync(path.join(baseline.root, p, "index.html"))) : [];
  const baselineTwins = baseline ? writeBareTwins(baseline.root, baselinePages) : new Map<string, string>();
  const cell = (ms: number, bareMs: number, [lo, hi]: [number, number]) =>
    `${String(ms).padStart(5)} / ${String(bareMs).padStart(5)} ms = ${ratio(ms, bareMs).toFixed(2)}× (${lo.toFixed(2)}-${hi.toFixed(2)})`;
  const schedule = paintSchedule(viewports, pages, runs, (p) => baselineTwins.has(p), order);
  const key = (viewport: Viewport, page: string) => `${viewport.name} ${page}`;
  const samples = new Map<string, Record<PaintLoadKind, PaintSample[]>>();
  const lastLoad = new Map<string, number>();
  schedule.forEach((l, i) => lastLoad.set(key(l.viewport, l.page), i));
  const url = (l: PaintLoad) => {
    switch (l.kind) {
      case "baseline":
        return baseline!.origin + l.page;
      case "baselineTwin":
        return baseline!.origin + baselineTwins.get(l.page)!;
      case "page":
        return origin + l.page;
      case "twin":
        return origin + twins.get(l.page)!;
    }
  };
  const byKey = new Map<string, PaintRow>();
  try {
    for (const [i, l] of schedule.entries()) {
      const k = key(l.viewport, l.page);
      const row = samples.get(k) ?? { baseline: [], baselineTwin: [], page: [], twin: [] };
      samples.set(k, row);
      row[l.kind].push(await load(url(l), l.viewport));
      if (order === "interleaved" && i + 1 < schedule.length && schedule[i + 1]!.round !== l.round) {
        log(`  round ${l.round + 1} of ${runs} done`);
      }
      if (lastLoad.get(k) !== i) continue;
      const done = paintRow(l.page, l.viewport, row);
      byKey.set(k, done);
      const flag = Math.max(done.fcpRatio, done.lcpRatio) > done.budget ? "  over budget" : "";
      const was = done.baseline
        ? `   (baseline FCP ${done.baseline.fcpRatio.toFixed(2)}×, LCP ${done.baseline.lcpRatio.toFixed(2)}×)`
        : "";
      log(
        `  ${l.viewport.name.padEnd(7)} ${l.page.padEnd(28)} FCP ${cell(done.fcpMs, done.bareFcpMs, done.fcpInterval)}   LCP ${cell(done.lcpMs, done.bareLcpMs, done.lcpInterval)}${flag}${was}`,
      );
    }
  } finally {
    rmSync(path.join(root, BARE_PREFIX), { recursive: true, force: true });
    if (baseline) rmSync(path.join(baseline.root, BARE_PREFIX), { recursive: true, force: true });
  }
  return viewports.flatMap((viewport) => pages.map((p) => byKey.get(key(viewport, p))!));
}
