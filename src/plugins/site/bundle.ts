/**
 * Browser code: esbuild bundles, before every build (so `npm start` rebuilds them too; a
 * rebuild skips them when none of their source files changed since the last bundling),
 * - `src/widgets/runtime/book.ts` → `/assets/js/book.js` (on every page: lazy widget loader,
 *   ToC scroll-spy and drawer, citation/cross-reference/footnote previews, theme button),
 * - `src/widgets/runtime/theme.ts` → `/assets/js/theme.js` (classic script in `<head>`),
 * - every `src/widgets/<name>.ts` → `/assets/js/widgets/<name>.js` (ESM, code splitting, so
 *   d3 or Plotly chunks are shared and loaded only when a widget needs them),
 * - every `src/widgets/workers/<name>.ts` → `/assets/js/workers/<name>.js` (a classic script, one
 *   file: a Worker a widget starts for work that would block the page, e.g. the configuration
 *   finder's search), and
 * - `assets/css/book.css` → `/assets/css/book.css`, minified (7.3 KB gzip instead of 14.0 KB:
 *   every page loads it) with a source map. The critical-CSS step reads the source, not this
 *   copy (src/plugins/site/critical-css.ts).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build, transform, type Metafile } from "esbuild";
import type { UserConfig } from "@11ty/eleventy";

/** The book's stylesheet: its source, and its path in the built site, where it is minified. */
export const stylesheetSource = "assets/css/book.css";

export function widgetEntryNames(widgetsDir = "src/widgets"): string[] {
  return readdirSync(widgetsDir)
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))
    .map((f) => f.replace(/\.ts$/, ""))
    .sort();
}

/**
 * Writes the book's stylesheet minified into the site, with a source map beside it that names
 * the source by its file name (resolved next to the map, where the site serves the stylesheet)
 * and carries its text. No CSS target: esbuild then rewrites no syntax; it drops comments and
 * whitespace and shortens what it can without changing the meaning (colors, zeros).
 */
export async function minifyStylesheet(cwd: string, out: string): Promise<void> {
  const name = path.basename(stylesheetSource);
  const result = await transform(readFileSync(path.join(cwd, stylesheetSource), "utf8"), {
    loader: "css",
    minify: true,
    sourcemap: "external",
    sourcefile: name,
    logLevel: "warning",
  });
  const target = path.join(out, stylesheetSource);
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, `${result.code}/*# sourceMappingURL=${name}.map */\n`);
  writeFileSync(`${target}.map`, result.map);
}

/** Bundles the browser code into `outputDir`; returns every source file that went into it (absolute paths). */
async function bundleBrowserCode(outputDir: string): Promise<string[]> {
  const cwd = process.cwd();
  const out = path.resolve(cwd, outputDir);
  const common = {
    absWorkingDir: cwd,
    metafile: true,
    bundle: true,
    format: "esm" as const,
    minify: true,
    target: "es2020",
    sourcemap: false,
    logLevel: "warning" as const,
    // Keep third-party license notices (Plotly's MIT header, d3's ISC notices) at the end of each file:
    // the licenses require the notice to travel with the code.
    legalComments: "eof" as const,
  };
  const results = await Promise.all([
    build({
      ...common,
      entryPoints: [path.join(cwd, "src/widgets/runtime/book.ts")],
      outfile: path.join(out, "assets/js/book.js"),
    }),
    // theme.js is a classic blocking script in <head> (sets data-theme before the first paint).
    build({
      ...common,
      format: "iife",
      entryPoints: [path.join(cwd, "src/widgets/runtime/theme.ts")],
      outfile: path.join(out, "assets/js/theme.js"),
    }),
    build({
      ...common,
      format: "iife",
      entryPoints: widgetEntryNames(path.join(cwd, "src/widgets/workers")).map((n) =>
        path.join(cwd, `src/widgets/workers/${n}.ts`),
      ),
      outdir: path.join(out, "assets/js/workers"),
    }),
    build({
      ...common,
      entryPoints: widgetEntryNames(path.join(cwd, "src/widgets")).map((n) => path.join(cwd, `src/widgets/${n}.ts`)),
      outdir: path.join(out, "assets/js/widgets"),
      splitting: true,
      chunkNames: "chunks/[name]-[hash]",
    }),
  ]);
  await minifyStylesheet(cwd, out);
  const inputs = new Set<string>([path.resolve(cwd, stylesheetSource)]);
  for (const r of results)
    for (const f of Object.keys((r.metafile as Metafile).inputs)) inputs.add(path.resolve(cwd, f));
  return [...inputs].sort();
}

/** What the last bundling read and wrote, to skip the next one when nothing it depends on changed. */
interface LastBundle {
  outputDir: string;
  entries: string;
  /** Source file → its modification time when the bundle was made. */
  inputs: Map<string, number>;
}

function mtime(file: string): number | undefined {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

/** True when `last` still describes the bundles in `outputDir`: same widgets, no source touched, outputs in place. */
export function bundleIsCurrent(last: LastBundle | undefined, outputDir: string): boolean {
  if (!last || last.outputDir !== path.resolve(outputDir)) return false;
  if (last.entries !== widgetEntryNames(path.resolve("src/widgets")).join(",")) return false;
  if (
    !existsSync(path.join(last.outputDir, "assets/js/book.js")) ||
    !existsSync(path.join(last.outputDir, stylesheetSource)) ||
    !existsSync(path.join(last.outputDir, "assets/js/widgets"))
  )
    return false;
  for (const [file, time] of last.inputs) if (mtime(file) !== time) return false;
  return true;
}

export function bundlePlugin(eleventyConfig: UserConfig): void {
  eleventyConfig.addWatchTarget("./src/widgets/");
  eleventyConfig.addWatchTarget("./src/figures/");
  // A rebuild in watch mode after a chapter edit skips the bundling (about 0.5 s, mostly
  // Plotly) when no file that went into the last bundles has changed since.
  let last: LastBundle | undefined;
  eleventyConfig.on("eleventy.before", async ({ directories }) => {
    if (bundleIsCurrent(last, directories.output)) return;
    const entries = widgetEntryNames(path.resolve("src/widgets")).join(",");
    const started = Date.now();
    const inputs = await bundleBrowserCode(directories.output);
    const times = new Map<string, number>();
    for (const f of inputs) {
      const t = mtime(f);
      // A file saved while esbuild ran may have been read before the save: bundle again next time.
      if (t !== undefined) times.set(f, t > started - 1000 ? -1 : t);
    }
    last = { outputDir: path.resolve(directories.output), entries, inputs: times };
  });
}
