/**
 * Glossary: makes `glossary` (src/data/glossary.ts, alphabetical) available to templates for
 * the /glossary/ page (content/glossary.njk). Each term's `see` links are plain site links, so
 * the build's link checker (site-checks.ts) fails on one that does not resolve.
 */
import { glossaryAlphabetical } from "../../data/glossary.ts";
import type { UserConfig } from "@11ty/eleventy";

export function glossaryPlugin(eleventyConfig: UserConfig): void {
  eleventyConfig.addGlobalData("glossary", glossaryAlphabetical());
  eleventyConfig.addFilter("glossarySeeLabel", glossarySeeLabel);
}

interface ChapterItem {
  url: string;
  data: { title: string; chapter?: { label?: string } };
}

/** "/data-parallelism/#sec:zero" → "Chapter 3: Data parallelism and ZeRO" (the link's chapter). */
export function glossarySeeLabel(href: string, chapters: readonly ChapterItem[]): string {
  const pagePath = href.split("#")[0];
  const item = chapters.find((c) => c.url === pagePath);
  if (!item) throw new Error(`glossary: "${href}" is not a chapter of the book`);
  const label = item.data.chapter?.label;
  return label ? `${label}: ${item.data.title}` : item.data.title;
}
