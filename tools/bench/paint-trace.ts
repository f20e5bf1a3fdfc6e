/**
 * `npm run bench:paint-trace -- /one-gpu/ [--runs N]`: where a page's time goes before its first
 * contentful paint, from Chromium's performance trace, for the page and its bare twin (paint.ts), on
 * an existing build (SITE_DIR or _site), CPU 4× slower, 1280×900 and 390×844. For each it sums the
 * durations of the main thread's ParseHTML, EvaluateScript, UpdateLayoutTree (style recalculation)
 * and Layout events that end before the firstContentfulPaint mark, and prints medians over the runs.
 * Steadier than paint times on a busy machine: these are work done, not waiting.
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
type Sums = Record<(typeof kinds)[number], number> & { fcp: number };

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
}

async function trace(browser: Browser, url: string, viewport: Viewport): Promise<Sums> {
  const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    await browser.startTracing(page, { categories: ["devtools.timeline", "blink.user_timing", "loading"] });
    await page.goto(url, { waitUntil: "load", timeout: 300_000 });
    await page.waitForTimeout(300);
    const events = (JSON.parse((await browser.stopTracing()).toString("utf8")) as { traceEvents: TraceEvent[] }).traceEvents;
    const fcp = events.find((e) => e.name === "firstContentfulPaint");
    const sums = { ParseHTML: 0, EvaluateScript: 0, UpdateLayoutTree: 0, Layout: 0, fcp: Number.NaN } as Sums;
    if (!fcp) return sums;
    const nav = events.find((e) => e.name === "navigationStart" && e.pid === fcp.pid);
    sums.fcp = nav ? (fcp.ts - nav.ts) / 1000 : Number.NaN;
    for (const e of events) {
      if (e.ph !== "X" || e.pid !== fcp.pid || !(kinds as readonly string[]).includes(e.name)) continue;
      if (e.ts + (e.dur ?? 0) > fcp.ts) continue;
      sums[e.name as (typeof kinds)[number]] += (e.dur ?? 0) / 1000;
    }
    return sums;
  } finally {
    await context.close();
  }
}

const args = process.argv.slice(2);
const runsAt = args.indexOf("--runs");
const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 3;
const pages = args.filter((a, i) => a.startsWith("/") && args[i - 1] !== "--runs");
if (pages.length === 0) pages.push("/one-gpu/");
console.log(`load average ${os.loadavg()[0]!.toFixed(2)}; median of ${runs}; ms of main-thread work before FCP, CPU 4× slower`);
const twins = writeBareTwins(siteDir, pages);
const server = await serveCompressed(siteDir);
const browser = await launchChromium();
try {
  for (const viewport of viewports) {
    for (const p of pages) {
      for (const [label, url] of [["page", p], ["bare", twins.get(p)!]] as const) {
        const samples: Sums[] = [];
        for (let i = 0; i < runs; i++) samples.push(await trace(browser, server.url + url, viewport));
        const m = (k: keyof Sums) => median(samples.map((s) => s[k])).toFixed(0).padStart(5);
        console.log(`  ${viewport.name.padEnd(7)} ${p.padEnd(24)} ${label}  FCP ${m("fcp")}  parse ${m("ParseHTML")}  script ${m("EvaluateScript")}  style ${m("UpdateLayoutTree")}  layout ${m("Layout")}`);
      }
    }
  }
} finally {
  await browser.close();
  await server.close();
  rmSync(path.join(siteDir, BARE_PREFIX), { recursive: true, force: true });
}
