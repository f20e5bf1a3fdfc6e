/**
 * Build timings for `npm run bench`.
 *
 * - Cold build: `npm run build`'s command in a child process, output into a fresh empty
 *   folder (SITE_DIR), wall-clock from spawn to exit. Includes Node and tsx start-up, loading
 *   the config, esbuild bundling every widget, KaTeX, citations and the post-build checks.
 *   Timed twice: with the build's disk cache as it is, and with an empty one.
 * - Incremental rebuild: the book is copied into a temporary folder (content/, assets/,
 *   bibliography.bib, .eleventy.ts; src/ and node_modules/ are symlinked, so nobody's working
 *   tree is touched), Eleventy runs there in watch mode with `--incremental`, and after the
 *   first build one chapter gets a new sentence appended. Reported: the wall-clock time from
 *   writing the file to Eleventy's "Wrote … files" line (includes the file watcher's delay),
 *   and the time Eleventy itself reports for that rebuild. Repeated `rounds` times (a different
 *   sentence each time); the median is reported.
 */
import { spawn } from "node:child_process";
import { appendFileSync, cpSync, existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const repo = path.resolve(".");
const eleventyArgs = ["--import", "tsx", "node_modules/@11ty/eleventy/cmd.cjs", "--config=.eleventy.ts"];

export interface ColdBuild {
  seconds: number;
  siteDir: string;
}

/**
 * Builds the repository into a fresh folder; returns the wall-clock seconds and the folder
 * (caller removes it). The build's disk cache (src/plugins/shared/cache.ts: social cards, formatted
 * references) is used as it is, unless `emptyCache`: then the build gets an empty cache folder
 * of its own, as on a fresh clone (`npm ci` empties node_modules/.cache too).
 */
export async function coldBuild(emptyCache = false): Promise<ColdBuild> {
  const siteDir = mkdtempSync(path.join(os.tmpdir(), "bench-site-"));
  const cacheDir = emptyCache ? mkdtempSync(path.join(os.tmpdir(), "bench-cache-")) : undefined;
  const env = { ...process.env, SITE_DIR: siteDir, ...(cacheDir ? { BOOK_CACHE_DIR: cacheDir } : {}) };
  const t0 = performance.now();
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [...eleventyArgs, "--quiet"], { cwd: repo, env, stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (d) => (err += d));
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`build failed (${code}):\n${err}`))));
  });
  const seconds = (performance.now() - t0) / 1000;
  if (cacheDir) rmSync(cacheDir, { recursive: true, force: true });
  return { seconds, siteDir };
}

export interface IncrementalBuild {
  /** Median wall-clock seconds from writing the chapter to "Wrote … files". */
  seconds: number;
  /** Median of Eleventy's own figure for the rebuild ("… in X seconds"). */
  eleventySeconds: number;
  rounds: number;
  chapter: string;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Times rebuilds after editing one chapter, in watch + incremental mode, in a temporary copy of the book. */
export async function incrementalBuild(rounds = 3): Promise<IncrementalBuild> {
  const root = mkdtempSync(path.join(os.tmpdir(), "bench-incr-"));
  try {
    for (const name of ["content", "assets"]) cpSync(path.join(repo, name), path.join(root, name), { recursive: true });
    for (const name of ["bibliography.bib", ".eleventy.ts", "package.json"]) cpSync(path.join(repo, name), path.join(root, name));
    for (const name of ["src", "node_modules"]) symlinkSync(path.join(repo, name), path.join(root, name));
    const chapters = readdirSync(path.join(root, "content/chapters")).filter((f) => /^\d\d-.*\.md$/.test(f)).sort();
    const chapter = chapters.includes("03-data-parallelism.md") ? "03-data-parallelism.md" : chapters[0]!;
    const chapterFile = path.join(root, "content/chapters", chapter);
    if (!existsSync(chapterFile)) throw new Error("no chapter to edit");

    const child = spawn(process.execPath, [...eleventyArgs, "--watch", "--incremental"], {
      cwd: root,
      env: { ...process.env, SITE_DIR: "_site" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    const waiters: Array<{ from: number; resolve: (line: string) => void }> = [];
    const onData = (d: Buffer) => {
      out += d.toString();
      for (const w of [...waiters]) {
        const m = /Wrote \d+ files?[^\n]* in ([\d.]+) seconds/.exec(out.slice(w.from));
        if (m) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(m[1]!);
        }
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    const nextWrite = (timeoutMs = 120_000) =>
      new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no rebuild within ${timeoutMs} ms:\n${out.slice(-2000)}`)), timeoutMs);
        waiters.push({ from: out.length, resolve: (s) => (clearTimeout(timer), resolve(s)) });
      });
    try {
      await nextWrite(); // the first, full build
      await new Promise((r) => setTimeout(r, 1000)); // let the watcher settle
      const walls: number[] = [];
      const own: number[] = [];
      for (let i = 0; i < rounds; i++) {
        const done = nextWrite();
        const t0 = performance.now();
        appendFileSync(chapterFile, `\nA sentence added by the benchmark, round ${i + 1}.\n`);
        const seconds = await done;
        walls.push((performance.now() - t0) / 1000);
        own.push(Number(seconds));
        await new Promise((r) => setTimeout(r, 500));
      }
      return { seconds: median(walls), eleventySeconds: median(own), rounds, chapter };
    } finally {
      child.kill("SIGTERM");
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
