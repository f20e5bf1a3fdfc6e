/**
 * Hooks the book's Markdown into Eleventy. The bibliography is re-read (and re-checked) at
 * the start of every build, so `npm start` picks up edits to bibliography.bib; a malformed
 * entry fails the build before any page renders.
 */
import path from "node:path";
import type MarkdownIt from "markdown-it";
import { bookMarkdownPlugin } from "./markdown.ts";
import { loadBibliography, type Bibliography } from "./bibliography.ts";

export interface MarkdownLibraryOptions {
  bibliographyFile?: string;
  assetsDir?: string;
}

export function markdownLibraryPlugin(eleventyConfig: any, options: MarkdownLibraryOptions = {}): void {
  const bibFile = options.bibliographyFile ?? "bibliography.bib";
  let bib: Bibliography | undefined;
  eleventyConfig.addWatchTarget(`./${bibFile}`);
  eleventyConfig.on("eleventy.before", () => {
    bib = loadBibliography(path.resolve(bibFile));
  });
  eleventyConfig.amendLibrary("md", (md: MarkdownIt) => {
    bookMarkdownPlugin(md, {
      assetsDir: options.assetsDir ?? "assets",
      bibliography: () => (bib ??= loadBibliography(path.resolve(bibFile))),
    });
  });
}
