/**
 * `npm run bench`: measures the book and records it.
 *
 * 1. Cold build of the repository into a fresh folder, and incremental rebuilds after editing one
 *    chapter (method in build-times.ts).
 * 2. On that fresh build: each page's initial load in bytes (HTML + CSS + fonts used + book.js,
 *    gzip; widget bundles and images apart; method in bytes.ts), and each widget bundle's bytes.
 * 3. Redraw time after an input change for every widget (median and p95; widgets.ts).
 * 4. Lighthouse performance and accessibility scores, LCP and TBT, for the home page and three
 *    chapters, mobile and desktop presets (lighthouse.ts).
 * 5. With --paint: first and largest contentful paint of every chapter page and /book/ against its
 *    bare twin (no link, script or style), CPU 4× slower, at 1280×900 and 390×844, as ratios
 *    (paint.ts; budget 1.5×, /book/ 2×, reported, never enforced). About 10-20 minutes.
 *
 * Writes bench/report.json (everything, latest run) and appends one line to bench/history.jsonl
 * (the headline numbers, with the commit), which is committed so regressions show in review.
 * Prints a summary. Never fails on slow numbers: the byte budgets are enforced by
 * tests/browser/budgets.test.ts instead.
 *
 * Options: --no-lighthouse, --no-redraw (quicker runs), --no-history (do not append a line),
 * --paint (add step 5), --paint-runs N (loads per page and twin, default 5).
 */
import { execFileSync } from "node:child_process";
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { launchChromium, chromiumPath } from "../../harness/chromium.ts";
import { sitePages } from "../../harness/site-pages.ts";
import { measureInitialLoad, type InitialLoad } from "../../harness/bytes.ts";
import { coldBuild, incrementalBuild } from "./build-times.ts";
import { measureRedraws, widgetBundleBytes, type RedrawRow } from "./widgets.ts";
import { lighthouseInstalled, runLighthouse, type LighthouseRow } from "./lighthouse.ts";
import { serveCompressed } from "./serve.ts";
import { measurePaints, type PaintRow } from "./paint.ts";

const args = new Set(process.argv.slice(2));
const lighthousePages = ["/", "/one-gpu/", "/data-parallelism/", "/pipeline-parallelism/"];

function git(...a: string[]): string {
  try {
    return execFileSync("git", a, { encoding: "utf8" }).trim();
  } catch {
    return "";
  }
}

const kb = (b: number) => `${(b / 1000).toFixed(1)} KB`;

// Other work on the machine slows every number here; record how busy it was (1-minute load average).
const loadAtStart = os.loadavg()[0]!;
console.log(`load average ${loadAtStart.toFixed(2)} on ${os.cpus().length} CPUs`);
console.log("cold build, empty cache…");
const coldEmpty = await coldBuild(true);
rmSync(coldEmpty.siteDir, { recursive: true, force: true });
console.log(`  ${coldEmpty.seconds.toFixed(2)} s`);
console.log("cold build (cache as it is: cards, references)…");
const cold = await coldBuild();
console.log(`  ${cold.seconds.toFixed(2)} s`);
console.log("incremental rebuild (watch --incremental, one chapter edited)…");
const incremental = await incrementalBuild(3);
console.log(`  ${incremental.seconds.toFixed(2)} s wall (Eleventy reports ${incremental.eleventySeconds.toFixed(2)} s), ${incremental.chapter}`);

try {
  const server = await serveCompressed(cold.siteDir);
  const browser = await launchChromium();
  const pages: Array<Omit<InitialLoad, "files">> = [];
  try {
    console.log("initial load per page (gzip; budget 150 KB):");
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    for (const p of sitePages(cold.siteDir)) {
      const page = await context.newPage();
      const { files: _files, ...load } = await measureInitialLoad(page, server.url, cold.siteDir, p);
      pages.push(load);
      console.log(
        `  ${p.padEnd(26)} ${kb(load.total).padStart(9)}  (html ${kb(load.html)}, css ${kb(load.css)}, js ${kb(load.js)}, fonts ${kb(load.fonts)}; images ${kb(load.images)}; widget files before scroll ${load.widgetPaths.length})`,
      );
      await page.close();
    }
    await context.close();
  } finally {
    await browser.close();
  }

  const widgets = widgetBundleBytes(cold.siteDir);
  console.log("widget bundles (gzip):");
  for (const w of widgets) console.log(`  ${w.widget.padEnd(20)} ${kb(w.gzip).padStart(9)}  (${w.files} files)`);

  let redraws: RedrawRow[] = [];
  if (!args.has("--no-redraw")) {
    console.log("widget redraw after one input change (median, p95):");
    redraws = await measureRedraws(cold.siteDir, (l) => console.log(l));
  }

  const lighthouse: LighthouseRow[] = [];
  if (!args.has("--no-lighthouse") && !lighthouseInstalled()) {
    console.log("Lighthouse: skipped, not installed (bench-only, not in package.json): npm install --no-save lighthouse@12");
  } else if (!args.has("--no-lighthouse")) {
    console.log("Lighthouse (performance, accessibility, LCP, TBT):");
    for (const p of lighthousePages) {
      for (const preset of ["mobile", "desktop"] as const) {
        const row = await runLighthouse(server.url, p, preset);
        lighthouse.push(row);
        console.log(`  ${p.padEnd(24)} ${preset.padEnd(8)} perf ${row.performance}  a11y ${row.accessibility}  LCP ${row.lcpMs} ms  TBT ${row.tbtMs} ms  CLS ${row.clsScore}`);
      }
    }
  }
  let paint: PaintRow[] = [];
  if (args.has("--paint")) {
    const i = process.argv.indexOf("--paint-runs");
    const runs = i >= 0 ? Number(process.argv[i + 1]) : 5;
    const skip = new Set(["/", "/search/", "/glossary/", "/reading-list/", "/changelog/", "/book/"]);
    const paintPages = [...sitePages(cold.siteDir).filter((p) => !skip.has(p)), "/book/"];
    console.log(`paint against the bare twin (FCP, LCP; median of ${runs}; CPU 4× slower):`);
    const paintBrowser = await launchChromium();
    try {
      paint = await measurePaints({
        browser: paintBrowser,
        origin: server.url,
        root: cold.siteDir,
        pages: paintPages,
        runs,
        log: (l) => console.log(l),
      });
    } finally {
      await paintBrowser.close();
    }
  }
  await server.close();

  const commit = git("rev-parse", "--short", "HEAD");
  const dirty = git("status", "--porcelain", "--untracked-files=no") !== "";
  const report = {
    date: new Date().toISOString(),
    commit: dirty ? `${commit}+dirty` : commit,
    machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? "", node: process.version, chromium: chromiumPath, loadAverage: round(loadAtStart) },
    build: {
      coldSeconds: round(cold.seconds),
      coldEmptyCacheSeconds: round(coldEmpty.seconds),
      incrementalSeconds: round(incremental.seconds),
      incrementalEleventySeconds: incremental.eleventySeconds,
      incrementalChapter: incremental.chapter,
      incrementalRounds: incremental.rounds,
    },
    pages,
    widgets,
    redraws,
    lighthouse,
    paint,
  };
  mkdirSync("bench", { recursive: true });
  writeFileSync("bench/report.json", JSON.stringify(report, null, 2) + "\n");
  if (!args.has("--no-history")) {
    const line = {
      date: report.date,
      commit: report.commit,
      loadAverage: report.machine.loadAverage,
      coldSeconds: report.build.coldSeconds,
      coldEmptyCacheSeconds: report.build.coldEmptyCacheSeconds,
      incrementalSeconds: report.build.incrementalSeconds,
      pageBytes: Object.fromEntries(pages.map((p) => [p.page, p.total])),
      widgetBytes: Object.fromEntries(widgets.map((w) => [w.widget, w.gzip])),
      redrawMs: Object.fromEntries(redraws.map((r) => [r.name, [r.medianMs, r.p95Ms]])),
      lighthouse: Object.fromEntries(lighthouse.map((l) => [`${l.page} ${l.preset}`, [l.performance, l.accessibility, l.lcpMs, l.tbtMs, l.clsScore]])),
      paintRatios: Object.fromEntries(paint.map((r) => [`${r.page} ${r.viewport}`, [r.fcpRatio, r.lcpRatio]])),
    };
    appendFileSync("bench/history.jsonl", JSON.stringify(line) + "\n");
  }
  console.log("wrote bench/report.json" + (args.has("--no-history") ? "" : " and appended bench/history.jsonl"));
} finally {
  rmSync(cold.siteDir, { recursive: true, force: true });
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}
