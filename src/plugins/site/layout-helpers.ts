/**
 * What the layouts need beyond the rendered Markdown: the book metadata (`book`), reading
 * time, dates (a chapter's "Updated" date is its file's last commit: `updatedDate`, git-dates.ts)
 * and the "Cite this book" BibTeX. (A chapter's body, footnotes, references and
 * table of contents come from its render: src/plugins/markdown/chapter-render.ts.)
 */
import { book, type BookMetadata } from "../../data/book.ts";
import { escapeHtml } from "../markdown/doc-state.ts";
import { coverArtSvg } from "./cover.ts";
import { normalizeFile } from "../shared/errors.ts";
import { gitLastModified, pageUpdated } from "./git-dates.ts";
import { widgetSkipTargets } from "../markdown/widgets.ts";
import type { UserConfig } from "@11ty/eleventy";

/** Minutes at 230 words per minute, at least 1. */
function readingMinutes(words: number): number {
  return Math.max(1, Math.round(words / 230));
}

/** "2026-11-22" → "November 22, 2026". */
function formatDate(iso: string): string {
  const d = new Date(`${iso}T00:00:00Z`);
  return d.toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
}

/** BibTeX for citing the book (or one chapter of it). */
function citeBibtex(meta: BookMetadata, siteUrl: string, chapterTitle?: string): string {
  const year = meta.published.slice(0, 4);
  const lines = [
    `@book{scalingout${year},`,
    `  title     = {${meta.title}: ${meta.subtitle}},`,
    `  author    = {{${meta.contributors}}},`,
    `  year      = {${year}},`,
    `  url       = {${siteUrl}},`,
  ];
  if (chapterTitle) lines.push(`  note      = {Chapter: ${chapterTitle}},`);
  lines.push(`  license   = {${meta.license.text.name}}`, `}`);
  return lines.join("\n");
}

export function layoutHelpersPlugin(eleventyConfig: UserConfig): void {
  eleventyConfig.addGlobalData("book", book);
  // One `git log` per build (again on each rebuild in watch mode, after a commit).
  let dates: Map<string, string> | undefined;
  eleventyConfig.on("eleventy.before", () => {
    dates = undefined;
  });
  eleventyConfig.addFilter("updatedDate", (inputPath: string) => {
    dates ??= gitLastModified();
    return pageUpdated(normalizeFile(inputPath), dates, book.published, book.updated);
  });
  eleventyConfig.addFilter("readingMinutes", readingMinutes);
  eleventyConfig.addFilter("formatDate", formatDate);
  eleventyConfig.addFilter("citeBibtex", (meta: BookMetadata, url: string, title?: string) =>
    citeBibtex(meta, url, title),
  );
  eleventyConfig.addFilter("widgetSkipTargets", (html: unknown) => widgetSkipTargets(String(html ?? "")));
  eleventyConfig.addShortcode("coverArt", coverArtSvg);
  eleventyConfig.addFilter("escapeHtml", (s: unknown) => escapeHtml(String(s ?? "")));
}
