/**
 * `npm run bench:paint`: paint time of built pages against their bare twins (method in paint.ts),
 * on an existing build (SITE_DIR or _site). Options: `--runs N` (default 5), `--pages /a/,/b/`
 * (default: every chapter page and /book/), `--out FILE` (JSON report, default
 * bench/paint.json), `--baseline DIR` (another build, e.g. of an earlier commit: its pages and
 * their own twins are loaded in the same rounds, so its ratios hold even where its text differs).
 * `--settle`: each load waits until the machine is quiet (paint.ts, waitForQuietCpu); by default a
 * load follows the previous one at once, as in the paint tables of docs/performance-log.md (one
 * comparison there says what settling changes). `--interleave`: each round visits every page and
 * viewport, instead of all rounds of one row before the next (paint.ts, paintSchedule). Prints one
 * line per page and viewport, each ratio with its 90% bootstrap interval (paint.ts, ratioInterval),
 * then which rows are over budget and which verdicts the interval says the spread could turn, and
 * the chapter rows' loads pooled (paint.ts, pooledRatios); never fails on times.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { launchChromium } from "../../harness/chromium.ts";
import { siteDir, sitePages } from "../../harness/site-pages.ts";
import { measurePaints, pooledRatios } from "./paint.ts";
import { serveCompressed } from "./serve.ts";

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const runs = Number(option("--runs") ?? 5);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a whole number ≥ 1, got ${option("--runs")}`);
const chapterPages = (root: string) => {
  const chapters = new Set(
    sitePages(root).filter((p) => !["/", "/search/", "/glossary/", "/reading-list/", "/changelog/", "/book/"].includes(p)),
  );
  return [...chapters, "/book/"];
};
const pages = option("--pages")?.split(",") ?? chapterPages(siteDir);
const out = option("--out") ?? "bench/paint.json";
const baselineDir = option("--baseline");
const settle = process.argv.includes("--settle");
const order = process.argv.includes("--interleave") ? "interleaved" : "by-row";

console.log(
  `load average ${os.loadavg()[0]!.toFixed(2)} on ${os.cpus().length} CPUs; ${runs} runs per page and twin, CPU 4× slower${settle ? ", each load on a quiet machine" : ""}${order === "interleaved" ? ", rounds over every row" : ""}`,
);
const server = await serveCompressed(siteDir);
const baselineServer = baselineDir ? await serveCompressed(baselineDir) : undefined;
const browser = await launchChromium();
try {
  const baseline = baselineServer && baselineDir ? { origin: baselineServer.url, root: path.resolve(baselineDir) } : undefined;
  const rows = await measurePaints({
    browser,
    origin: server.url,
    root: siteDir,
    pages,
    runs,
    log: (l) => console.log(l),
    baseline,
    settle,
    order,
  });
  const over = rows.filter((r) => Math.max(r.fcpRatio, r.lcpRatio) > r.budget);
  console.log(over.length ? `${over.length} of ${rows.length} rows over budget` : `all ${rows.length} rows within budget`);
  // The 90% intervals say which verdicts this run's spread could turn (paint.ts, ratioInterval).
  // A bootstrap cannot show spread that a handful of loads did not happen to see.
  if (runs >= 5) {
    const surelyOver = over.filter((r) => Math.max(r.fcpInterval[0], r.lcpInterval[0]) > r.budget);
    const couldBeOver = rows.filter((r) => !over.includes(r) && Math.max(r.fcpInterval[1], r.lcpInterval[1]) > r.budget);
    const names = (rs: typeof rows) => rs.map((r) => `${r.page} ${r.viewport}`).join(", ") || "none";
    console.log(`over even at the low end of its 90% interval: ${names(surelyOver)}`);
    console.log(`within, but over at the high end of its 90% interval: ${names(couldBeOver)}`);
  } else {
    console.log("with fewer than 5 loads a row, the intervals are too narrow to judge a verdict by");
  }
  // Every chapter row's loads pooled (paint.ts, pooledRatios): steadier than any one row's verdict.
  const pooled = rows.some((r) => r.page !== "/book/") ? pooledRatios(rows) : undefined;
  if (pooled) {
    const line = (p: typeof pooled.current) =>
      `FCP ${p.fcpMs} / ${p.bareFcpMs} ms = ${p.fcpRatio.toFixed(2)}×, LCP ${p.lcpMs} / ${p.bareLcpMs} ms = ${p.lcpRatio.toFixed(2)}×`;
    console.log(`pooled over the ${pooled.rows} chapter rows' loads: ${line(pooled.current)}`);
    if (pooled.baseline) console.log(`  baseline, pooled the same way: ${line(pooled.baseline)}`);
  }
  mkdirSync(path.dirname(out), { recursive: true });
  const report = { date: new Date().toISOString(), loadAverage: os.loadavg()[0], runs, settle, order, baselineDir, pooled, rows };
  writeFileSync(out, JSON.stringify(report, null, 2) + "\n");
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
  await server.close();
  await baselineServer?.close();
}
