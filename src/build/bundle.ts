/**
 * Browser code: esbuild bundles, before every build (so `npm start` rebuilds them too),
 * - `src/widgets/runtime/book.ts` → `/assets/js/book.js` (on every page: lazy widget loader,
 *   ToC scroll-spy and drawer, citation/cross-reference/footnote previews, theme button),
 * - `src/widgets/runtime/theme.ts` → `/assets/js/theme.js` (classic script in `<head>`), and
 * - every `src/widgets/<name>.ts` → `/assets/js/widgets/<name>.js` (ESM, code splitting, so
 *   d3 or Plotly chunks are shared and loaded only when a widget needs them).
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";

export interface BundleOptions {
  outputDir: string;
}

export function widgetEntryNames(widgetsDir = "src/widgets"): string[] {
  return readdirSync(widgetsDir)
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))
    .map((f) => f.replace(/\.ts$/, ""))
    .sort();
}

export async function bundleBrowserCode(outputDir: string): Promise<void> {
  const cwd = process.cwd();
  const out = path.resolve(cwd, outputDir);
  const common = {
    absWorkingDir: cwd,
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
  await Promise.all([
    build({ ...common, entryPoints: [path.join(cwd, "src/widgets/runtime/book.ts")], outfile: path.join(out, "assets/js/book.js") }),
    // theme.js is a classic blocking script in <head> (sets data-theme before the first paint).
    build({ ...common, format: "iife", entryPoints: [path.join(cwd, "src/widgets/runtime/theme.ts")], outfile: path.join(out, "assets/js/theme.js") }),
    build({
      ...common,
      entryPoints: widgetEntryNames(path.join(cwd, "src/widgets")).map((n) => path.join(cwd, `src/widgets/${n}.ts`)),
      outdir: path.join(out, "assets/js/widgets"),
      splitting: true,
      chunkNames: "chunks/[name]-[hash]",
    }),
  ]);
}

export function bundlePlugin(eleventyConfig: any): void {
  eleventyConfig.addWatchTarget("./src/widgets/");
  eleventyConfig.addWatchTarget("./src/figures/");
  eleventyConfig.on("eleventy.before", async ({ directories }: { directories: { output: string } }) => {
    await bundleBrowserCode(directories.output);
  });
}
