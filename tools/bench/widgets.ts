/**
 * `npm run bench:widgets`: how long the explorer widgets take to redraw after an input change, in
 * Chromium on the built site, and how many bytes (gzip) each widget's bundle costs to load. It
 * prints numbers; it is not a timed test and never fails on a slow machine. Needs `npm run build`.
 *
 * A redraw is measured from dispatching the control's `input` event (the widget's handler
 * validates, calls the model and redraws synchronously) to the end of the forced style and layout
 * that follows, inside the page with performance.now(). The budget is one frame, 16 ms, for
 * typical settings; the "large" rows show where it stops holding.
 */
import { readFileSync, readdirSync, existsSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { launchChromium } from "../../tests/helpers/chromium.ts";
import { startSiteServer } from "../../tests/helpers/site-server.ts";

interface Scenario {
  name: string;
  page: string;
  /** The widget element's id. */
  widget: string;
  /** Control name and the two values it alternates between. */
  control: string;
  values: [string, string];
  /** Controls set once before measuring. */
  setup?: Array<[string, string]>;
}

const scenarios: Scenario[] = [
  { name: "memory-explorer, chapter 4 (70B, t = 8, d = 8)", page: "tensor-parallelism", widget: "widget-memory-explorer-1", control: "dp", values: ["8", "16"] },
  { name: "memory-explorer, chapter 2 (1B, one GPU)", page: "one-gpu", widget: "widget-memory-explorer-1", control: "microBatch", values: ["4", "2"] },
  {
    name: "memory-explorer, large (405B, p = 2, ZeRO-1 over d)",
    page: "data-parallelism",
    widget: "widget-memory-explorer-1",
    control: "dp",
    values: ["8", "16"],
    setup: [["preset", "llama-3.1-405b"], ["pp", "2"]],
  },
  { name: "pipeline-explorer, interleaved p = 4, m = 16, v = 2", page: "pipeline-parallelism", widget: "widget-pipeline-explorer-3", control: "microbatches", values: ["16", "12"] },
  { name: "pipeline-explorer, DualPipe p = 4, m = 12", page: "pipeline-parallelism", widget: "widget-pipeline-explorer-5", control: "microbatches", values: ["12", "16"] },
  {
    name: "pipeline-explorer, large 1F1B p = 16, m = 64",
    page: "pipeline-parallelism",
    widget: "widget-pipeline-explorer-2",
    control: "microbatches",
    values: ["64", "60"],
    setup: [["stages", "16"]],
  },
];

const RUNS = 60;

function quantile(sorted: number[], q: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i];
}

/** gzip bytes of a widget entry and every chunk it imports, each file compressed on its own (as served). */
function bundleGzipBytes(dir: string, entry: string): { files: number; gzip: number; raw: number } {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*"(\.\/[^"]+\.js)"/g)) visit(path.resolve(path.dirname(file), m[1]));
  };
  visit(path.join(dir, entry));
  let gzip = 0;
  let raw = 0;
  for (const f of seen) {
    const buf = readFileSync(f);
    raw += buf.length;
    gzip += gzipSync(buf, { level: 9 }).length;
  }
  return { files: seen.size, gzip, raw };
}

const widgetsDir = `${process.env.SITE_DIR ?? "_site"}/assets/js/widgets`;
if (!existsSync(widgetsDir)) {
  console.error(`${widgetsDir} not found: run "npm run build" first`);
  process.exit(1);
}

console.log("Bundle per widget (entry + the chunks it imports; gzip -9 of each file, summed):");
for (const file of readdirSync(widgetsDir).filter((f) => f.endsWith(".js")).sort()) {
  const { files, gzip, raw } = bundleGzipBytes(widgetsDir, file);
  console.log(`  ${file.padEnd(24)} ${(gzip / 1024).toFixed(1).padStart(6)} KiB gzip  (${(raw / 1024).toFixed(1)} KiB raw, ${files} files)`);
}

const server = await startSiteServer();
const browser = await launchChromium();
console.log(`\nRedraw after one input change, ${RUNS} runs each (Chromium, this machine):`);
try {
  for (const s of scenarios) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/${s.page}/`);
    await page.locator(`#${s.widget}`).scrollIntoViewIfNeeded();
    await page.waitForFunction((id) => document.querySelector(`#${id} form`) !== null, s.widget);
    // Plain JavaScript source: tsx would wrap named functions in a helper the page does not have.
    const args = JSON.stringify({ id: s.widget, control: s.control, values: s.values, setup: s.setup ?? [], runs: RUNS });
    const times: number[] = await page.evaluate(`(() => {
      const a = ${args};
      const root = document.getElementById(a.id);
      function set(name, value) {
        const el = root.querySelector("[name=" + name + "]");
        el.value = value;
        el.dispatchEvent(new Event("input", { bubbles: true }));
      }
      for (const [name, value] of a.setup) set(name, value);
      const out = [];
      for (let i = 0; i < a.runs + 5; i++) {
        const t0 = performance.now();
        set(a.control, a.values[i % 2]);
        root.getBoundingClientRect();
        void document.body.offsetHeight;
        const dt = performance.now() - t0;
        if (i >= 5) out.push(dt); // the first runs warm up the JIT
      }
      const invalid = root.querySelectorAll("[aria-invalid=true]").length;
      if (invalid > 0) throw new Error(a.id + ": " + invalid + " field(s) invalid during the benchmark");
      return out;
    })()`);
    times.sort((a, b) => a - b);
    const median = quantile(times, 0.5);
    const p95 = quantile(times, 0.95);
    console.log(`  ${s.name.padEnd(68)} median ${median.toFixed(1).padStart(6)} ms   p95 ${p95.toFixed(1).padStart(6)} ms${p95 > 16 ? "   (over one frame)" : ""}`);
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
