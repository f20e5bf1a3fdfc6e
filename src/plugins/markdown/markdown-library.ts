/**
 * Hooks the book's Markdown into Eleventy. The bibliography is re-read (and re-checked) at
 * the start of every build, so `npm start` picks up edits to bibliography.bib; a malformed
 * entry fails the build before any page renders.
 *
 * Chapters are rendered by the layouts, once per edition (src/plugins/markdown/edition.ts): the chapter
 * layout calls `renderChapter` on the page's Markdown (content/chapters/ has the engine "html",
 * so Eleventy passes the Markdown through untouched), /book/ calls `bookEdition` on the
 * collection.
 */
import path from "node:path";
import type MarkdownIt from "markdown-it";
import type { UserConfig } from "@11ty/eleventy";
import { bookMarkdownPlugin } from "./markdown.ts";
import { loadBibliography, type Bibliography } from "./bibliography.ts";
import { renderChapter } from "./chapter-render.ts";
import { bookEdition, type ChapterItem } from "./book-edition.ts";
import { chapterInfo } from "../shared/chapters.ts";
import { pageEdition } from "./edition.ts";

export interface MarkdownLibraryOptions {
  bibliographyFile?: string;
  assetsDir?: string;
}

/** The watch target for the bibliography: every file of its folder with its extension ("./*.bib"). */
function bibWatchGlob(bibFile: string): string {
  const dir = path.posix.dirname(bibFile.replace(/\\/g, "/"));
  return `./${dir === "." ? "" : `${dir}/`}*${path.extname(bibFile)}`;
}

export function markdownLibraryPlugin(eleventyConfig: UserConfig, options: MarkdownLibraryOptions = {}): void {
  const bibFile = options.bibliographyFile ?? "bibliography.bib";
  let bib: Bibliography | undefined;
  let library: MarkdownIt | undefined;
  const md = (): MarkdownIt => {
    if (!library) throw new Error("book markdown: the library is not set up yet");
    return library;
  };
  // A glob, not the path: chokidar watches a literal path as that one file and goes quiet for good once
  // it is unlinked (as `git checkout` replaces it); for a glob it watches the folder and sees it return.
  eleventyConfig.addWatchTarget(bibWatchGlob(bibFile));
  eleventyConfig.on("eleventy.before", () => {
    bib = loadBibliography(path.resolve(bibFile));
  });
  eleventyConfig.amendLibrary("md", (lib: MarkdownIt) => {
    library = lib;
    bookMarkdownPlugin(lib, {
      assetsDir: options.assetsDir ?? "assets",
      bibliography: () => (bib ??= loadBibliography(path.resolve(bibFile))),
    });
  });
  eleventyConfig.addFilter("renderChapter", (markdown: string, page: { inputPath: string; url: string }) => {
    const info = chapterInfo(page.inputPath);
    if (!info) throw new Error(`renderChapter: ${page.inputPath} is not a chapter file`);
    return renderChapter(md(), markdown ?? "", {
      page: { inputPath: page.inputPath, url: page.url },
      edition: pageEdition(info.slug),
    });
  });
  eleventyConfig.addFilter("bookEdition", (chapters: readonly ChapterItem[]) => bookEdition(md(), chapters));
}
