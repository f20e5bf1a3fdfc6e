/**
 * Lighthouse (12.x, the last line that runs on Node 20) for `npm run bench`: performance and
 * accessibility scores, largest contentful paint and total blocking time, for a few pages in
 * the mobile (default) and desktop presets. Runs the Lighthouse CLI in a child process against
 * the system Chromium (`CHROME_PATH`, default /usr/bin/chromium) and the gzip server in
 * serve.ts. Lighthouse's default throttling is simulated (Lantern), so LCP and TBT are
 * estimates for a slow 4G phone (mobile) or a fast desktop connection, computed from this
 * machine's trace; scores vary by a point or two between runs.
 *
 * Lighthouse is not in package.json: it is large (about 90 packages), only this benchmark uses
 * it, and the default install stays lean. Install it when you want these numbers:
 * `npm install --no-save lighthouse@12`; without it, `npm run bench` skips this part and says so.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

export interface LighthouseRow {
  page: string;
  preset: "mobile" | "desktop";
  performance: number;
  accessibility: number;
  lcpMs: number;
  tbtMs: number;
  clsScore: number;
}

const cli = "node_modules/lighthouse/cli/index.js";

/** Whether Lighthouse is installed (see the file comment). */
export function lighthouseInstalled(): boolean {
  return existsSync(cli);
}

const chromeFlags = "--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync";

export async function runLighthouse(origin: string, page: string, preset: "mobile" | "desktop"): Promise<LighthouseRow> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "bench-lh-"));
  const out = path.join(dir, "lh.json");
  try {
    const args = [
      cli,
      origin + page,
      "--quiet",
      "--output=json",
      `--output-path=${out}`,
      "--only-categories=performance,accessibility",
      `--chrome-flags=${chromeFlags}`,
      ...(preset === "desktop" ? ["--preset=desktop"] : []),
    ];
    await promisify(execFile)(process.execPath, args, {
      env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" },
      maxBuffer: 64 * 1024 * 1024,
      timeout: 180_000,
    });
    const lhr = JSON.parse(readFileSync(out, "utf8"));
    if (lhr.runtimeError) throw new Error(`Lighthouse on ${page}: ${lhr.runtimeError.message}`);
    return {
      page,
      preset,
      performance: Math.round(lhr.categories.performance.score * 100),
      accessibility: Math.round(lhr.categories.accessibility.score * 100),
      lcpMs: Math.round(lhr.audits["largest-contentful-paint"].numericValue),
      tbtMs: Math.round(lhr.audits["total-blocking-time"].numericValue),
      clsScore: Math.round(lhr.audits["cumulative-layout-shift"].numericValue * 1000) / 1000,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
