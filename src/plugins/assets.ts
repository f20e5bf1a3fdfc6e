/**
 * Static files: everything under assets/ (CSS, images), and KaTeX's stylesheet and woff2
 * fonts from node_modules, so that no request leaves the site's origin.
 */
import type { UserConfig } from "@11ty/eleventy";

export function assetsPlugin(eleventyConfig: UserConfig): void {
  eleventyConfig.addPassthroughCopy({ assets: "assets" });
  eleventyConfig.addPassthroughCopy({ "node_modules/katex/dist/katex.min.css": "assets/katex/katex.min.css" });
  eleventyConfig.addPassthroughCopy({ "node_modules/katex/dist/fonts/*.woff2": "assets/katex/fonts" });
  eleventyConfig.addWatchTarget("./assets/");
}
