/**
 * Static files: everything under assets/ (CSS, images), and KaTeX's stylesheet and woff2
 * fonts from node_modules, so that no request leaves the site's origin.
 */
import path from "node:path";
import type { UserConfig } from "@11ty/eleventy";

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
  eleventyConfig.addPassthroughCopy({ assets: "assets" });
  for (const [to, from] of Object.entries(fromPackages)) eleventyConfig.addPassthroughCopy({ [from]: to });
  eleventyConfig.addPassthroughCopy({ "node_modules/katex/dist/fonts/*.woff2": "assets/katex/fonts" });
  eleventyConfig.addWatchTarget("./assets/");
}
