/**
 * What the layouts need beyond the rendered Markdown: the book metadata (`book`), the split
 * of a chapter's HTML into body / references / footnotes, the generated table of contents
 * (recorded from the markdown-it tokens by summary.ts), reading time, dates and the
 * "Cite this book" BibTeX.
 */
import { book, type BookMetadata } from "../data/book.ts";
import { escapeHtml } from "./doc-state.ts";
import { normalizeFile } from "./errors.ts";
import { footnotesMarker, pageSummary, referencesMarker, type TocEntry } from "./summary.ts";
import { coverArtSvg } from "./cover.ts";

export interface ChapterParts {
  body: string;
  references: string;
  footnotes: string;
  toc: TocEntry[];
  words: number;
}

/**
 * Splits a chapter's HTML for the layout: the body, and the footnotes and references that
 * our renderer appends after its marker comments; plus the ToC and word count recorded
 * while the Markdown was parsed.
 */
export function chapterParts(html: string, inputPath: string): ChapterParts {
  const cut = (marker: string): string => {
    const i = html.indexOf(marker);
    if (i < 0) return "";
    const rest = html.slice(i + marker.length);
    html = html.slice(0, i);
    return rest.trim();
  };
  // References come after footnotes; cut from the end.
  const references = cut(referencesMarker);
  const footnotes = cut(footnotesMarker);
  const summary = pageSummary(normalizeFile(inputPath));
  return { body: html, references, footnotes, toc: summary?.toc ?? [], words: summary?.words ?? 0 };
}

/** Minutes at 230 words per minute, at least 1. */
export function readingMinutes(words: number): number {
  return Math.max(1, Math.round(words / 230));
}

/** "2026-11-22" → "November 22, 2026". */
export function formatDate(iso: string): string {
  const d = new Date(`${iso}T00:00:00Z`);
  return d.toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
}

/** BibTeX for citing the book (or one chapter of it). */
export function citeBibtex(meta: BookMetadata, siteUrl: string, chapterTitle?: string): string {
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

export function layoutHelpersPlugin(eleventyConfig: any): void {
  eleventyConfig.addGlobalData("book", book);
  eleventyConfig.addFilter("chapterParts", (html: string, inputPath: string) => chapterParts(html ?? "", inputPath));
  eleventyConfig.addFilter("readingMinutes", readingMinutes);
  eleventyConfig.addFilter("formatDate", formatDate);
  eleventyConfig.addFilter("citeBibtex", (meta: BookMetadata, url: string, title?: string) => citeBibtex(meta, url, title));
  eleventyConfig.addShortcode("coverArt", coverArtSvg);
  eleventyConfig.addFilter("escapeHtml", (s: unknown) => escapeHtml(String(s ?? "")));
}
