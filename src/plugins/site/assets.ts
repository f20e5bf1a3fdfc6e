/**
 * Static files: everything under assets/ (images) except the book's stylesheet, which
 * src/plugins/site/bundle.ts minifies into the site, and KaTeX's stylesheet from node_modules, so that
 * no request leaves the site's origin. KaTeX's woff2 fonts are written by src/plugins/after-build/math-fonts.ts,
 * cut to the characters the book's math draws.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import type { UserConfig } from "@11ty/eleventy";
import { stylesheetSource } from "./bundle.ts";

/** Files copied from node_modules, by their path in the built site. */
const fromPackages: Readonly<Record<string, string>> = {
  "assets/katex/katex.min.css": "node_modules/katex/dist/katex.min.css",
};

/**
 * The source file (relative to the repository root) that the built site serves at `urlPath`
 * ("/assets/css/book.css"), or undefined when the path is not a copied asset. Used by the
 * critical-CSS step, which reads the stylesheets while the pages are rendered, before the copies
 * are written.
 */
export function assetSource(urlPath: string): string | undefined {
  const inSite = urlPath.replace(/^\/+/, "");
  if (fromPackages[inSite]) return fromPackages[inSite];
  if (inSite.startsWith("assets/") && !inSite.includes("..")) return path.normalize(inSite);
  return undefined;
}

export function assetsPlugin(eleventyConfig: UserConfig): void {
  // Every entry of assets/, and of the stylesheet's folder every file but the stylesheet.
  const stylesheetDir = path.dirname(stylesheetSource);
  const entries = (dir: string) => readdirSync(dir).map((name) => path.join(dir, name));
  for (const from of [...entries("assets"), ...entries(stylesheetDir)])
    if (from !== stylesheetDir && from !== stylesheetSource) eleventyConfig.addPassthroughCopy({ [from]: from });
  for (const [to, from] of Object.entries(fromPackages)) eleventyConfig.addPassthroughCopy({ [from]: to });
  eleventyConfig.addWatchTarget("./assets/");
}
