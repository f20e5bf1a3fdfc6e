/**
 * What the layouts need beyond the rendered Markdown: the book metadata (`book`), the split
 * of a chapter's HTML into body / references / footnotes, the generated table of contents
 * (read from the rendered headings with a real HTML parser), reading time, dates and the
 * "Cite this book" BibTeX.
 */
import { parseHTML } from "linkedom";
import { book, type BookMetadata } from "../data/book.ts";
import { escapeHtml } from "./doc-state.ts";
import { coverArtSvg } from "./cover.ts";

export interface TocEntry {
  id: string;
  number: string;
  /** Heading content as HTML (may contain math), without the section number. */
  html: string;
  children: TocEntry[];
}

export interface ChapterParts {
  body: string;
  references: string;
  footnotes: string;
  toc: TocEntry[];
  words: number;
}

const partsCache = new Map<string, ChapterParts>();

/** Splits a chapter's HTML (as produced by our Markdown) for the layout. */
export function chapterParts(html: string): ChapterParts {
  const hit = partsCache.get(html);
  if (hit) return hit;
  const { document } = parseHTML(`<!doctype html><html><body><div id="root">${html}</div></body></html>`);
  const root = document.getElementById("root")!;
  const take = (selector: string): string => {
    const el = root.querySelector(`:scope > ${selector}`);
    if (!el) return "";
    el.remove();
    return el.outerHTML;
  };
  const references = take("section.references");
  const footnotes = take("section.footnotes");
  const toc: TocEntry[] = [];
  for (const h of root.querySelectorAll(":scope > h2, :scope > h3")) {
    const clone = h.cloneNode(true) as Element;
    clone.querySelector(".secnum")?.remove();
    // Footnote markers and sidenotes do not belong in the ToC.
    for (const extra of clone.querySelectorAll(".footnote-ref, .sidenote")) extra.remove();
    const entry: TocEntry = {
      id: h.getAttribute("id") ?? "",
      number: h.getAttribute("data-number") ?? "",
      html: clone.innerHTML.trim(),
      children: [],
    };
    if (h.tagName === "H3" && toc.length > 0) toc[toc.length - 1]!.children.push(entry);
    else toc.push(entry);
  }
  const body = root.innerHTML;
  // Count prose words, not TeX: KaTeX's MathML annotation repeats every formula.
  for (const a of root.querySelectorAll("annotation, .katex-html")) a.remove();
  const words = (root.textContent ?? "").split(/\s+/).filter((w) => /[A-Za-z0-9]/.test(w)).length;
  const parts: ChapterParts = { body, references, footnotes, toc, words };
  partsCache.set(html, parts);
  if (partsCache.size > 200) partsCache.delete(partsCache.keys().next().value!);
  return parts;
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
  eleventyConfig.addFilter("chapterParts", (html: string) => chapterParts(html ?? ""));
  eleventyConfig.addFilter("readingMinutes", readingMinutes);
  eleventyConfig.addFilter("formatDate", formatDate);
  eleventyConfig.addFilter("citeBibtex", (meta: BookMetadata, url: string, title?: string) => citeBibtex(meta, url, title));
  eleventyConfig.addShortcode("coverArt", coverArtSvg);
  eleventyConfig.addFilter("escapeHtml", (s: unknown) => escapeHtml(String(s ?? "")));
}
