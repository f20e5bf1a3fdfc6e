/**
 * `npm run bench:widgets` (and part of `npm run bench`): how long every widget takes to redraw
 * after an input change, in Chromium on the built site, and how many bytes (gzip) each widget's
 * bundle costs to load. It prints numbers; it is not a timed test and never fails on a slow
 * machine. Needs `npm run build` (or SITE_DIR pointing at a built site).
 *
 * A redraw is measured from dispatching the control's `input` or `change` event to the end of the
 * forced style and layout that follows, inside the page with performance.now(). A widget that
 * redraws after the edit has painted (src/widgets/runtime/after-paint.ts) is timed as the edit's
 * handler plus the deferred work (its `widget-drawn` event says how long that took), without the
 * frame between them. How long an edit takes to reach the screen is measured by
 * `npm run bench:interactions` (tools/bench/interactions.ts). The budget is one frame, 16 ms, for typical settings; the "large" rows show
 * where it stops holding. Every widget on the site gets a row: the scenarios below name a
 * typical control for each; a widget without one is measured on its first select (or first
 * numeric text field) and marked "auto".
 */
import { readdirSync, existsSync } from "node:fs";
import { pathToFileURL } from "node:url";
import type { Browser } from "playwright-core";
import { launchChromium } from "../../harness/chromium.ts";
import { startSiteServer } from "../../harness/site-server.ts";
import { mountAllWidgets, sitePages } from "../../harness/site-pages.ts";
import { bundleGzipBytes, type BundleBytes } from "../../harness/bytes.ts";
import { scenarios, type Scenario } from "../../harness/widget-scenarios.ts";

const RUNS = 60;

function quantile(sorted: number[], q: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i];
}

export interface RedrawRow {
  name: string;
  widget: string;
  auto: boolean;
  medianMs: number;
  p95Ms: number;
  runs: number;
}

export interface BundleRow extends BundleBytes {
  widget: string;
}

/** gzip bytes per widget bundle in `<siteDir>/assets/js/widgets`. */
export function widgetBundleBytes(siteDir: string): BundleRow[] {
  const dir = `${siteDir}/assets/js/widgets`;
  if (!existsSync(dir)) throw new Error(`${dir} not found: run "npm run build" first`);
  return readdirSync(dir)
    .filter((f) => f.endsWith(".js"))
    .sort()
    .map((f) => ({ widget: f.replace(/\.js$/, ""), ...bundleGzipBytes(dir, f) }));
}

/** A scenario for each widget on the site that has none: its first select, else its first numeric text field. */
async function autoScenarios(browser: Browser, origin: string, siteDir: string, covered: Set<string>): Promise<Scenario[]> {
  const found: Scenario[] = [];
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  for (const p of sitePages(siteDir)) {
    await page.goto(origin + p, { waitUntil: "load" });
    await mountAllWidgets(page);
    // Plain JavaScript source: tsx would wrap named functions in a helper the page does not have.
    const picks: Array<{ id: string; name: string; control: string; values: [string, string]; event: "input" | "change" } | null> =
      await page.evaluate(`Array.from(document.querySelectorAll("[data-widget]")).map((w) => {
        const sel = Array.from(w.querySelectorAll("select[name]")).find((s) => s.options.length > 1);
        if (sel) return { id: w.id, name: w.dataset.widget, control: sel.name, values: [sel.options[0].value, sel.options[1].value], event: "change" };
        const text = Array.from(w.querySelectorAll("input[name]")).find((i) => (i.type === "text" || i.type === "number") && /^[0-9]+$/.test(i.value));
        if (text) return { id: w.id, name: w.dataset.widget, control: text.name, values: [text.value, String(Number(text.value) + 1)], event: "input" };
        return null;
      })`);
    for (const pick of picks) {
      if (!pick || covered.has(pick.name)) continue;
      covered.add(pick.name);
      found.push({ name: `${pick.name}, ${p} (auto: ${pick.control})`, page: p.replace(/^\/|\/$/g, ""), widget: pick.id, control: pick.control, values: pick.values, event: pick.event });
    }
  }
  await context.close();
  return found;
}

/** Redraw times for every scenario, plus an automatic one for every widget the list misses. */
export async function measureRedraws(siteDir: string, log: (line: string) => void = () => {}): Promise<RedrawRow[]> {
  const server = await startSiteServer(siteDir);
  const browser = await launchChromium();
  const rows: RedrawRow[] = [];
  try {
    const onSite = new Set(widgetBundleBytes(siteDir).map((b) => b.widget));
    const covered = new Set(scenarios.map((s) => s.widget.replace(/^widget-|-\d+$/g, "")));
    const all = [...scenarios.map((s) => ({ ...s, auto: false })), ...(await autoScenarios(browser, server.url, siteDir, covered)).map((s) => ({ ...s, auto: true }))];
    for (const s of all) {
      const widgetName = s.widget.replace(/^widget-|-\d+$/g, "");
      if (!onSite.has(widgetName)) continue;
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const res = await page.goto(`${server.url}/${s.page}/`);
      if (!res?.ok() || (await page.locator(`#${s.widget}`).count()) === 0) {
        log(`  ${s.name}: skipped (no #${s.widget} on /${s.page}/)`);
        await context.close();
        continue;
      }
      await page.locator(`#${s.widget}`).scrollIntoViewIfNeeded();
      await page.waitForFunction((id) => document.getElementById(id)?.dataset.widgetState === "mounted", s.widget);
      const args = JSON.stringify({ id: s.widget, control: s.control, values: s.values, setup: s.setup ?? [], runs: RUNS, event: s.event ?? "input" });
      const times: number[] = await page.evaluate(`(async () => {
        const a = ${args};
        const root = document.getElementById(a.id);
        function set(name, value, type) {
          const el = root.querySelector("[name=" + name + "]");
          el.value = value;
          el.dispatchEvent(new Event(type, { bubbles: true }));
        }
        for (const [name, value] of a.setup) set(name, value, "input");
        const out = [];
        for (let i = 0; i < a.runs + 5; i++) {
          const t0 = performance.now();
          set(a.control, a.values[i % 2], a.event);
          let dt = performance.now() - t0;
          if (root.hasAttribute("data-widget-busy")) {
            // A widget that redraws after the edit has painted (src/widgets/runtime/after-paint.ts):
            // the edit's own time plus the deferred work's, not the wait for the frame between them.
            dt += await new Promise((resolve) =>
              root.addEventListener("widget-drawn", (e) => resolve(e.detail.ms), { once: true }));
          }
          const t1 = performance.now();
          root.getBoundingClientRect();
          void document.body.offsetHeight;
          dt += performance.now() - t1;
          if (i >= 5) out.push(dt); // the first runs warm up the JIT
        }
        const invalid = root.querySelectorAll("[aria-invalid=true]").length;
        if (invalid > 0) throw new Error(a.id + ": " + invalid + " field(s) invalid during the benchmark");
        return out;
      })()`);
      times.sort((x, y) => x - y);
      const row: RedrawRow = { name: s.name, widget: widgetName, auto: s.auto, medianMs: round(quantile(times, 0.5)), p95Ms: round(quantile(times, 0.95)), runs: times.length };
      rows.push(row);
      log(`  ${s.name.padEnd(68)} median ${row.medianMs.toFixed(2).padStart(6)} ms   p95 ${row.p95Ms.toFixed(2).padStart(6)} ms${row.p95Ms > 16 ? "   (over one frame)" : ""}`);
      await context.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return rows;
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const siteDir = process.env.SITE_DIR ?? "_site";
  console.log("Bundle per widget (entry + the chunks it imports; gzip -9 of each file, summed):");
  for (const b of widgetBundleBytes(siteDir)) {
    console.log(`  ${b.widget.padEnd(24)} ${(b.gzip / 1024).toFixed(1).padStart(6)} KiB gzip  (${(b.raw / 1024).toFixed(1)} KiB raw, ${b.files} files)`);
  }
  console.log(`\nRedraw after one input change, ${RUNS} runs each (Chromium, this machine):`);
  await measureRedraws(siteDir, (l) => console.log(l));
}
