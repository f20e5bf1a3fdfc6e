/**
 * `npm run bench:paint-trace -- /one-gpu/ [--runs N] [--fonts] [--selectors]`: where a page's time
 * goes before its first and its largest contentful paint, from Chromium's performance trace, for
 * the page and its bare twin (paint.ts), on an existing build (SITE_DIR or _site), CPU 4× slower,
 * 1280×900 and 390×844. Steadier than paint times on a busy machine: these are work done, not
 * waiting.
 *
 * - Always: the main thread's ParseHTML, EvaluateScript, UpdateLayoutTree (style recalculation)
 *   and Layout events that end before the firstContentfulPaint mark, and before the last
 *   largestContentfulPaint::Candidate; medians over the runs. Only the light trace categories are
 *   on: the heavy `disabled-by-default-devtools.timeline` slows layout in the trace far more for
 *   the twin (hundreds of plain boxes) than for the page, which made the two look alike.
 * - `--fonts`: a second set of loads, traced with the `fonts` category too, counts the font
 *   lookups before the largest paint: family matches (`onMatchFamilyStyle`) and, on Linux, the
 *   render style of each typeface at each size (`GetWebFontRenderStyleForStrike`), each a
 *   synchronous call to the browser process from a renderer whose caches are cold. The families
 *   matched are listed (a miss in a font stack costs a match too).
 * - `--decode`: a third set of loads, traced with the `blink` category too, sums the time spent
 *   decoding the page's bytes into text (`TextResourceDecoder::Decode`) before the first and the
 *   largest paint. A page with bytes outside ASCII decodes more slowly, which is why the build
 *   writes pages in ASCII (src/plugins/site/ascii-html.ts; docs/performance-log.md, thirteenth look).
 * - `--selectors`: one load of the page at full speed with Chromium's selector statistics (the
 *   trace category DevTools' "selector stats" uses): the selectors that took the most time over
 *   the whole load. A selector whose last step names no class, attribute, id or element type is
 *   tried on every element ("attempts" near the element count).
 */
import os from "node:os";
import { launchChromium } from "../../harness/chromium.ts";
import { siteDir } from "../../harness/site-pages.ts";
import { median, viewports, writeBareTwins, BARE_PREFIX, type Viewport } from "./paint.ts";
import { serveCompressed } from "./serve.ts";
import { rmSync } from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";

const kinds = ["ParseHTML", "EvaluateScript", "UpdateLayoutTree", "Layout"] as const;
type Kind = (typeof kinds)[number];
type Sums = Record<Kind, number>;

interface SelectorTiming {
  selector: string;
  "elapsed (us)": number;
  match_attempts: number;
  match_count: number;
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { family_name?: string; selector_stats?: { selector_timings?: SelectorTiming[] } };
}

interface Load {
  events: TraceEvent[];
  /** The page's renderer process: the one that reported the first contentful paint. */
  pid: number;
  /** Trace timestamps (µs) of navigation start, the first contentful paint and the last LCP candidate. */
  navTs: number;
  fcpTs: number;
  lcpTs: number;
}

/** One cold load of `url`, traced with `categories`; undefined when it painted nothing. */
async function tracedLoad(
  browser: Browser,
  url: string,
  viewport: Viewport,
  categories: string[],
  slowdown = 4,
): Promise<Load | undefined> {
  const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: slowdown });
    await browser.startTracing(page, { categories });
    await page.goto(url, { waitUntil: "load", timeout: 300_000 });
    await page.waitForTimeout(300);
    const events = (JSON.parse((await browser.stopTracing()).toString("utf8")) as { traceEvents: TraceEvent[] }).traceEvents;
    const fcp = events.find((e) => e.name === "firstContentfulPaint");
    if (!fcp) return undefined;
    const nav = events.find((e) => e.name === "navigationStart" && e.pid === fcp.pid);
    const lcp = events.filter((e) => e.name === "largestContentfulPaint::Candidate" && e.pid === fcp.pid).at(-1);
    if (!nav) return undefined;
    return { events, pid: fcp.pid, navTs: nav.ts, fcpTs: fcp.ts, lcpTs: lcp?.ts ?? fcp.ts };
  } finally {
    await context.close();
  }
}

const LIGHT = ["devtools.timeline", "blink.user_timing", "loading"];

/** Main-thread work by kind that ends before `until` (µs). */
function workBefore(load: Load, until: number): Sums {
  const sums: Sums = { ParseHTML: 0, EvaluateScript: 0, UpdateLayoutTree: 0, Layout: 0 };
  for (const e of load.events) {
    if (e.ph !== "X" || e.pid !== load.pid || !(kinds as readonly string[]).includes(e.name)) continue;
    if (e.ts + (e.dur ?? 0) > until) continue;
    sums[e.name as Kind] += (e.dur ?? 0) / 1000;
  }
  return sums;
}

/** Time (ms) spent decoding the page's bytes that ends before `until` (µs). */
function decodeBefore(load: Load, until: number): number {
  let sum = 0;
  for (const e of load.events) {
    if (e.ph !== "X" || e.pid !== load.pid || e.name !== "TextResourceDecoder::Decode") continue;
    if (e.ts + (e.dur ?? 0) <= until) sum += (e.dur ?? 0) / 1000;
  }
  return sum;
}

interface FontLookups {
  matches: number;
  matchMs: number;
  strikes: number;
  strikeMs: number;
  families: Set<string>;
}

function fontLookups(load: Load): FontLookups {
  const out: FontLookups = { matches: 0, matchMs: 0, strikes: 0, strikeMs: 0, families: new Set() };
  for (const e of load.events) {
    if (e.ph !== "X" || e.pid !== load.pid || e.ts > load.lcpTs) continue;
    if (e.name.endsWith("::onMatchFamilyStyle")) {
      out.matches++;
      out.matchMs += (e.dur ?? 0) / 1000;
      if (e.args?.family_name !== undefined) out.families.add(e.args.family_name || "(empty)");
    } else if (e.name.endsWith("::GetWebFontRenderStyleForStrike")) {
      out.strikes++;
      out.strikeMs += (e.dur ?? 0) / 1000;
    }
  }
  return out;
}

function selectorStats(load: Load): { totalMs: number; top: SelectorTiming[] } {
  const bySelector = new Map<string, SelectorTiming>();
  for (const e of load.events) {
    for (const t of e.args?.selector_stats?.selector_timings ?? []) {
      const sum = bySelector.get(t.selector) ?? { selector: t.selector, "elapsed (us)": 0, match_attempts: 0, match_count: 0 };
      sum["elapsed (us)"] += t["elapsed (us)"];
      sum.match_attempts += t.match_attempts;
      sum.match_count += t.match_count;
      bySelector.set(t.selector, sum);
    }
  }
  const all = [...bySelector.values()].sort((a, b) => b["elapsed (us)"] - a["elapsed (us)"]);
  return { totalMs: all.reduce((s, t) => s + t["elapsed (us)"], 0) / 1000, top: all.slice(0, 8) };
}

const args = process.argv.slice(2);
const runsAt = args.indexOf("--runs");
const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 3;
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a whole number ≥ 1, got ${args[runsAt + 1]}`);
const withFonts = args.includes("--fonts");
const withSelectors = args.includes("--selectors");
const withDecode = args.includes("--decode");
const pages = args.filter((a, i) => a.startsWith("/") && args[i - 1] !== "--runs");
if (pages.length === 0) pages.push("/one-gpu/");
console.log(
  `load average ${os.loadavg()[0]!.toFixed(2)}; median of ${runs}; ms of main-thread work before FCP | before LCP, CPU 4× slower`,
);
const twins = writeBareTwins(siteDir, pages);
const server = await serveCompressed(siteDir);
const browser = await launchChromium();
const ms = (xs: number[]) => median(xs).toFixed(0).padStart(4);
try {
  for (const viewport of viewports) {
    for (const p of pages) {
      for (const [label, url] of [["page", p], ["bare", twins.get(p)!]] as const) {
        const loads: Load[] = [];
        for (let i = 0; i < runs; i++) {
          const load = await tracedLoad(browser, server.url + url, viewport, LIGHT);
          if (load) loads.push(load);
        }
        if (loads.length === 0) {
          console.log(`  ${viewport.name.padEnd(7)} ${p.padEnd(24)} ${label}  no paint traced`);
          continue;
        }
        const atFcp = loads.map((l) => workBefore(l, l.fcpTs));
        const atLcp = loads.map((l) => workBefore(l, l.lcpTs));
        const col = (k: Kind) => `${ms(atFcp.map((s) => s[k]))} |${ms(atLcp.map((s) => s[k]))}`;
        console.log(
          `  ${viewport.name.padEnd(7)} ${p.padEnd(24)} ${label}  FCP ${ms(loads.map((l) => (l.fcpTs - l.navTs) / 1000))}  LCP ${ms(loads.map((l) => (l.lcpTs - l.navTs) / 1000))}` +
            `  parse ${col("ParseHTML")}  script ${col("EvaluateScript")}  style ${col("UpdateLayoutTree")}  layout ${col("Layout")}`,
        );
        if (withFonts) {
          const fonts: FontLookups[] = [];
          for (let i = 0; i < runs; i++) {
            const load = await tracedLoad(browser, server.url + url, viewport, [...LIGHT, "fonts"]);
            if (load) fonts.push(fontLookups(load));
          }
          if (fonts.length) {
            const families = [...new Set(fonts.flatMap((f) => [...f.families]))].join(", ");
            console.log(
              `${" ".repeat(44)}font lookups before LCP: ${ms(fonts.map((f) => f.matches))} family matches (${ms(fonts.map((f) => f.matchMs))} ms),` +
                ` ${ms(fonts.map((f) => f.strikes))} render styles (${ms(fonts.map((f) => f.strikeMs))} ms); families: ${families}`,
            );
          }
        }
        if (withDecode) {
          const decodes: Load[] = [];
          for (let i = 0; i < runs; i++) {
            const load = await tracedLoad(browser, server.url + url, viewport, [...LIGHT, "blink"]);
            if (load) decodes.push(load);
          }
          if (decodes.length) {
            console.log(
              `${" ".repeat(44)}decoding the page's bytes: ${ms(decodes.map((l) => decodeBefore(l, l.fcpTs)))} |${ms(decodes.map((l) => decodeBefore(l, l.lcpTs)))} ms`,
            );
          }
        }
      }
      if (withSelectors) {
        const load = await tracedLoad(
          browser,
          server.url + p,
          viewport,
          [...LIGHT, "disabled-by-default-blink.debug"],
          1,
        );
        if (load) {
          const { totalMs, top } = selectorStats(load);
          console.log(`${" ".repeat(44)}selector time over the load, CPU at full speed: ${totalMs.toFixed(1)} ms; the most:`);
          for (const t of top)
            console.log(
              `${" ".repeat(46)}${(t["elapsed (us)"] / 1000).toFixed(2).padStart(6)} ms  ${String(t.match_attempts).padStart(6)} tried  ${String(t.match_count).padStart(6)} matched  ${t.selector.slice(0, 110)}`,
            );
        }
      }
    }
  }
} finally {
  await browser.close();
  await server.close();
  rmSync(path.join(siteDir, BARE_PREFIX), { recursive: true, force: true });
}
