/**
 * Sharing metadata: absolute URLs, and a social card (1200×630 PNG) per chapter plus one for
 * the book, shown by link previews through the Open Graph / Twitter `<meta>` in base.njk.
 *
 * Absolute URLs. `book.siteUrl` (src/data/book.ts) is where the built site's root is served; the
 * `SITE_URL` environment variable overrides it. With a path prefix (`--pathprefix=/sub/`) the
 * prefix replaces the URL's path, so `SITE_URL=https://example.org` and
 * `SITE_URL=https://example.org/sub` both give `https://example.org/sub/…`; without one, the
 * configured URL's own path is kept (the default, a GitHub Pages project URL, already has it).
 *
 * Cards. Drawn here as SVG (book title, chapter label and title, byline, a small version of the
 * cover's GPU grid) and rasterized by resvg (@resvg/resvg-js, native, no browser) with KaTeX's
 * sans-serif TTF fonts from node_modules and no system fonts, so every machine draws the same
 * pixels. A rendered card is cached (src/plugins/shared/cache.ts) under node_modules/.cache/scaling-out/cards/ by a hash of
 * its SVG, fonts and resvg version: an unchanged card costs a file copy on the next build.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { Resvg, type ResvgRenderOptions } from "@resvg/resvg-js";
import { load as loadYaml } from "js-yaml";
import { book } from "../../data/book.ts";
import { lightPalette } from "../../figures/kit/palette.ts";
import { chapterInfo, isChapterPath } from "../shared/chapters.ts";
import { normalizeFile } from "../shared/errors.ts";
import { cacheDir, readCached, writeCached } from "../shared/cache.ts";
import { escapeHtml } from "../markdown/doc-state.ts";
import type { UserConfig } from "@11ty/eleventy";

const cardWidth = 1200;
const cardHeight = 630;
/** Where the cards are served, relative to the site root. */
const cardsDir = "assets/cards";
/** The card of pages that are not chapters (home, glossary, …). */
const bookCardName = "book";

const require = createRequire(import.meta.url);

/** KaTeX's sans-serif fonts (TTF): installed with the book, the same on every machine. */
function cardFontFiles(): string[] {
  const dir = path.join(path.dirname(require.resolve("katex/package.json")), "dist", "fonts");
  return ["KaTeX_SansSerif-Regular.ttf", "KaTeX_SansSerif-Bold.ttf"].map((f) => path.join(dir, f));
}

const fontFamily = "KaTeX_SansSerif";

function resvgOptions(): ResvgRenderOptions {
  return {
    font: { loadSystemFonts: false, fontFiles: cardFontFiles(), defaultFontFamily: fontFamily },
    fitTo: { mode: "original" },
  };
}

/* ── Absolute URLs ── */

/**
 * The site URL the build uses: `SITE_URL` when set (must be an absolute http(s) URL), else the
 * configured one; without a trailing slash.
 */
export function resolveSiteUrl(configured: string, fromEnv: string | undefined): string {
  const raw = fromEnv !== undefined && fromEnv.trim() !== "" ? fromEnv.trim() : configured;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`SITE_URL "${raw}" is not an absolute URL (expected e.g. https://example.org/book)`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new Error(`SITE_URL "${raw}" must use http or https`);
  if (url.search || url.hash) throw new Error(`SITE_URL "${raw}" must not have a query or fragment`);
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

/**
 * The absolute URL of a root-relative site path ("/zero/", as Eleventy's `page.url`, without the
 * path prefix). With a path prefix other than "/", the prefix replaces the site URL's path.
 */
export function absoluteUrl(sitePath: string, siteUrl: string, pathPrefix = "/"): string {
  if (!sitePath.startsWith("/")) throw new Error(`absoluteUrl: "${sitePath}" is not a root-relative path`);
  const base = new URL(siteUrl.endsWith("/") ? siteUrl : `${siteUrl}/`);
  const prefix = pathPrefix.replace(/^\/*/, "/").replace(/\/*$/, "/");
  const basePath = prefix === "/" ? base.pathname : prefix;
  return `${base.origin}${basePath}${sitePath.slice(1)}`;
}

/** The root-relative URL of a page's card: the chapter's own, or the book's. */
export function cardPath(inputPath: string): string {
  const info = isChapterPath(inputPath) ? chapterInfo(inputPath) : undefined;
  return `/${cardsDir}/${info ? info.slug : bookCardName}.png`;
}

/* ── Drawing ── */

export interface CardText {
  /** "Chapter 3", "Appendix A", or "" (preface, or the book card). */
  label: string;
  title: string;
  /** A line under the title (the book card's subtitle), or "". */
  subtitle: string;
}

/** Width of a line of text as resvg draws it, in px (its ink box). */
function measureText(text: string, fontSizePx: number, bold: boolean): number {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="400"><text x="0" y="200" font-family="${fontFamily}" font-weight="${bold ? 700 : 400}" font-size="${fontSizePx}">${escapeHtml(text)}</text></svg>`;
  const box = new Resvg(svg, resvgOptions()).getBBox();
  return box ? box.x + box.width : 0;
}

/**
 * Greedy word wrap to `maxWidthPx` with real glyph widths. A single word wider than the line
 * stays on a line of its own (the caller shrinks the font when lines run out).
 */
export function wrapText(
  text: string,
  fontSizePx: number,
  bold: boolean,
  maxWidthPx: number,
  measure = measureText,
): string[] {
  const words = text.trim().split(/\s+/);
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && measure(candidate, fontSizePx, bold) > maxWidthPx) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** The cards use the light palette; the GPU rows take the parameter, gradient, optimizer and activation colours. */
const palette = {
  ...lightPalette,
  rows: [lightPalette.params, lightPalette.grads, lightPalette.optim, lightPalette.acts],
};

/** The cover's motif, small: four nodes of eight GPUs, a ring inside each node. */
function gpuGrid(x0: number, y0: number): string {
  const cell = 20;
  const gap = 9;
  const rowGap = 20;
  const parts: string[] = [];
  for (let r = 0; r < 4; r++) {
    const y = y0 + r * (cell + rowGap);
    const color = palette.rows[r]!;
    parts.push(
      `<line x1="${x0 + cell}" y1="${y + cell / 2}" x2="${x0 + 7 * (cell + gap)}" y2="${y + cell / 2}" stroke="${color}" stroke-width="3"/>`,
    );
    for (let c = 0; c < 8; c++) {
      const filled = (c + r) % 3 === 0;
      parts.push(
        `<rect x="${x0 + c * (cell + gap)}" y="${y}" width="${cell}" height="${cell}" rx="4" fill="${filled ? color : palette.bg}" stroke="${color}" stroke-width="2.5"/>`,
      );
    }
  }
  return parts.join("");
}

/** The card as an SVG document (1200×630). Text is wrapped with measured widths. */
export function cardSvg(card: CardText, measure = measureText): string {
  const left = 88;
  const maxWidth = cardWidth - left * 2;
  // The title: as large as fits in three lines.
  let size = card.label || card.subtitle ? 68 : 96;
  let lines = wrapText(card.title, size, true, maxWidth, measure);
  while ((lines.length > 3 || lines.some((l) => measure(l, size, true) > maxWidth)) && size > 40) {
    size -= 4;
    lines = wrapText(card.title, size, true, maxWidth, measure);
  }
  const lineHeight = Math.round(size * 1.16);
  const subtitleSize = 36;
  const subLines = card.subtitle ? wrapText(card.subtitle, subtitleSize, false, maxWidth, measure) : [];
  // Vertical layout: the block (label, title, subtitle) sits between the header and the byline.
  const labelBlock = card.label ? 58 : 0;
  const block = labelBlock + lines.length * lineHeight + subLines.length * 46 + (subLines.length ? 18 : 0);
  const top = 200 + Math.max(0, (300 - block) / 2);
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${cardWidth}" height="${cardHeight}" viewBox="0 0 ${cardWidth} ${cardHeight}">`,
  );
  out.push(`<rect width="${cardWidth}" height="${cardHeight}" fill="${palette.bg}"/>`);
  out.push(`<rect width="16" height="${cardHeight}" fill="${palette.accent}"/>`);
  // The book's card has the title below; its header says what the book is instead.
  const kicker = card.title === book.title ? "An open, interactive book" : book.title;
  out.push(
    `<text x="${left}" y="108" font-family="${fontFamily}" font-weight="700" font-size="30" letter-spacing="4" fill="${palette.accent}">${escapeHtml(kicker.toUpperCase())}</text>`,
  );
  out.push(gpuGrid(cardWidth - left - 7 * 29 - 20, 56));
  let y = top;
  if (card.label) {
    y += 34;
    out.push(
      `<text x="${left}" y="${y}" font-family="${fontFamily}" font-size="34" letter-spacing="1" fill="${palette.muted}">${escapeHtml(card.label)}</text>`,
    );
    y += 24;
  }
  for (const line of lines) {
    y += lineHeight;
    out.push(
      `<text x="${left - 3}" y="${y - Math.round(size * 0.22)}" font-family="${fontFamily}" font-weight="700" font-size="${size}" fill="${palette.text}">${escapeHtml(line)}</text>`,
    );
  }
  if (subLines.length) y += 18;
  for (const line of subLines) {
    y += 46;
    out.push(
      `<text x="${left}" y="${y - 8}" font-family="${fontFamily}" font-size="${subtitleSize}" fill="${palette.muted}">${escapeHtml(line)}</text>`,
    );
  }
  out.push(
    `<line x1="${left}" y1="536" x2="${cardWidth - left}" y2="536" stroke="${palette.border}" stroke-width="2"/>`,
  );
  out.push(
    `<text x="${left}" y="582" font-family="${fontFamily}" font-size="28" fill="${palette.muted}">${escapeHtml(book.contributors)}</text>`,
  );
  out.push(`</svg>`);
  return out.join("\n");
}

/* ── Rendering with a cache ── */

let renderer: string | undefined;
/** What else decides a card's pixels besides its SVG: the resvg version and the font files. */
function rendererId(): string {
  if (renderer === undefined) {
    const version = JSON.parse(readFileSync(require.resolve("@resvg/resvg-js/package.json"), "utf8")).version as string;
    const fonts = cardFontFiles().map(
      (f) => `${path.basename(f)} ${createHash("sha256").update(readFileSync(f)).digest("hex")}`,
    );
    renderer = [`resvg ${version}`, ...fonts].join("\n");
  }
  return renderer;
}

function cacheKey(svg: string): string {
  return createHash("sha256").update(rendererId()).update("\n").update(svg).digest("hex").slice(0, 32);
}

function defaultCacheDir(): string {
  return cacheDir("cards");
}

/** Renders (or takes from the cache) one card; writes it to `outFile`. Returns true when it rendered. */
export function writeCard(svg: string, outFile: string, dir = defaultCacheDir()): boolean {
  mkdirSync(path.dirname(outFile), { recursive: true });
  const name = `${cacheKey(svg)}.png`;
  const hit = readCached(dir, name);
  if (hit) {
    writeFileSync(outFile, hit);
    return false;
  }
  const png = new Resvg(svg, resvgOptions()).render().asPng();
  writeCached(dir, name, png);
  writeFileSync(outFile, png);
  return true;
}

/** The card text of a chapter file, from its front matter and file name. */
function chapterCard(inputPath: string): CardText {
  const text = readFileSync(inputPath, "utf8").replace(/\r\n?/g, "\n");
  const fm = /^---\n([\s\S]*?)\n---/.exec(text);
  const data = (fm ? loadYaml(fm[1]!) : {}) as { title?: unknown };
  if (typeof data.title !== "string") throw new Error(`${normalizeFile(inputPath)}: no title for the social card`);
  return { label: chapterInfo(inputPath)?.label ?? "", title: data.title, subtitle: "" };
}

export function bookCard(): CardText {
  return { label: "", title: book.title, subtitle: book.subtitle };
}

/** Writes every card: the book's and one per chapter among the built pages. */
function writeCards(
  outputDir: string,
  inputPaths: readonly string[],
  cacheDir = defaultCacheDir(),
): { written: number; rendered: number } {
  const jobs: [string, CardText][] = [[bookCardName, bookCard()]];
  for (const p of [...new Set(inputPaths)].sort()) {
    const info = isChapterPath(p) ? chapterInfo(p) : undefined;
    if (info) jobs.push([info.slug, chapterCard(p)]);
  }
  let rendered = 0;
  for (const [name, card] of jobs) {
    if (writeCard(cardSvg(card), path.join(outputDir, cardsDir, `${name}.png`), cacheDir)) rendered++;
  }
  return { written: jobs.length, rendered };
}

export function socialPlugin(eleventyConfig: UserConfig): void {
  const siteUrl = () => resolveSiteUrl(book.siteUrl, process.env.SITE_URL);
  const prefix = () => eleventyConfig.pathPrefix ?? "/";
  eleventyConfig.addFilter("absoluteUrl", (sitePath: string) => absoluteUrl(sitePath, siteUrl(), prefix()));
  eleventyConfig.addFilter("socialCard", (inputPath: string) => absoluteUrl(cardPath(inputPath), siteUrl(), prefix()));
  eleventyConfig.on("eleventy.after", ({ results, directories }) => {
    writeCards(
      directories.output,
      results.map((r) => r.inputPath),
    );
  });
}
