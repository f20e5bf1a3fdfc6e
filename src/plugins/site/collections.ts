/**
 * Chapters: the `chapters` collection in book order (by file name), each chapter's URL
 * (`content/chapters/03-zero.md` → `/zero/`), and `chapter` data (number, label, kind) for the
 * layouts.
 */
import { chapterInfo, isChapterPath } from "../shared/chapters.ts";
import type { UserConfig } from "@11ty/eleventy";

interface PageData {
  page: { inputPath: string };
  permalink?: unknown;
}

export function collectionsPlugin(eleventyConfig: UserConfig): void {
  eleventyConfig.addCollection("chapters", (api) =>
    api.getFilteredByGlob("./content/chapters/*.md").sort((a, b) => a.page.inputPath.localeCompare(b.page.inputPath)),
  );
  eleventyConfig.addGlobalData("eleventyComputed", () => ({
    chapter: (data: PageData) => (isChapterPath(data.page.inputPath) ? chapterInfo(data.page.inputPath) : undefined),
    permalink: (data: PageData) => {
      if (!isChapterPath(data.page.inputPath)) return data.permalink;
      const info = chapterInfo(data.page.inputPath);
      if (!info) {
        throw new Error(`${data.page.inputPath}: chapter file names look like 03-slug.md or a0-slug.md`);
      }
      return `/${info.slug}/`;
    },
  }));
}
