/**
 * Search: after every build, Pagefind indexes the built pages into `<output>/pagefind/` (its
 * Node API, no separate CLI step; in watch mode without holding up the reload). Only chapter
 * bodies are indexed: the chapter layout marks `<article data-pagefind-body>`, so the home
 * page, reading list and search page stay out, and the selectors below drop what a reader
 * would not search for (KaTeX's MathML copy of every formula, widget drawings, the reference
 * list). Headings with ids become Pagefind sub-results, so a hit names the chapter and the
 * section.
 *
 * The browser side is Pagefind's own Default UI (`/pagefind/pagefind-ui.js`, written by this
 * step) on the /search/ page: it is maintained upstream, keyboard- and screen-reader-tested,
 * shows sub-results (sections) and excerpts, and finds its index relative to its own URL, so
 * it works offline and under a path prefix. It needs `'wasm-unsafe-eval'` in script-src.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as pagefind from "pagefind";
import type { UserConfig } from "@11ty/eleventy";

/** What Pagefind leaves out of the index inside a chapter body. */
const searchExcludeSelectors: readonly string[] = [
  ".katex-mathml",
  "annotation",
  "[data-widget]",
  ".references-list",
  ".footnote-backref",
  "nav",
];

/** One file of the index as Pagefind hands it over (`getFiles()`): a path inside `pagefind/`. */
export interface SearchFile {
  readonly path: string;
  readonly content: Uint8Array;
}

/**
 * Replaces `<outputDir>/pagefind/` with `files`. The index and fragment files are named by a
 * hash of their content, so without the clearing every build that changed a chapter left its
 * old ones beside the new (Eleventy does not empty its output folder), and a deploy of `_site/`
 * carried them along. Synchronous from the removal to the last write: in watch mode the dev
 * server shares this process, so no request is answered from a half-written folder.
 */
export function writeSearchFiles(outputDir: string, files: readonly SearchFile[]): void {
  const root = path.join(outputDir, "pagefind");
  rmSync(root, { recursive: true, force: true });
  for (const file of files) {
    const target = path.join(root, file.path);
    if (!target.startsWith(root + path.sep)) throw new Error(`pagefind: file outside pagefind/: ${file.path}`);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, file.content);
  }
}

async function buildSearchIndex(outputDir: string): Promise<number> {
  const { index, errors } = await pagefind.createIndex({
    excludeSelectors: [...searchExcludeSelectors],
    forceLanguage: "en",
  });
  if (!index) throw new Error(`pagefind: ${errors.join("; ")}`);
  try {
    const added = await index.addDirectory({ path: outputDir });
    if (added.errors.length) throw new Error(`pagefind: ${added.errors.join("; ")}`);
    // The files are taken from Pagefind in memory and written here, not with its writeFiles():
    // one build wrote pagefind/pagefind.js cut off at 45,056 of its 45,555 bytes (a multiple of
    // 4,096; tests/site/reproducible.test.ts caught it), most likely because close() below kills
    // the backend process while it was still writing after writeFiles() had answered.
    // writeFileSync has written every byte when it returns.
    const built = await index.getFiles();
    if (built.errors.length) throw new Error(`pagefind: ${built.errors.join("; ")}`);
    writeSearchFiles(outputDir, built.files);
    return added.page_count;
  } finally {
    await pagefind.close();
  }
}

export function searchPlugin(eleventyConfig: UserConfig): void {
  // While `npm start` watches, the index is rebuilt in the background: the browser reloads the
  // edited page without waiting about half a second for Pagefind, and search catches up a moment
  // later. Runs are queued, never overlapped. A one-off build waits for the index.
  let queue: Promise<unknown> = Promise.resolve();
  eleventyConfig.on("eleventy.after", async ({ directories, runMode }) => {
    if (runMode !== "watch" && runMode !== "serve") {
      await buildSearchIndex(directories.output);
      return;
    }
    queue = queue
      .then(() => buildSearchIndex(directories.output))
      .catch((err: unknown) => console.error(`[book] search index: ${String(err)}`));
  });
}
