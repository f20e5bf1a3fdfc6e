/**
 * The changelog's Atom feed, `/changelog.xml`. Its entries are the dated `##` sections of
 * content/changelog.md, which must look like
 *
 *   ## November 23, 2026 {#2026-11-23}
 *
 * (the heading text is the entry title; the id is the ISO date, newest first). Each section's
 * Markdown becomes the entry's HTML content, with root-relative links made absolute. Times are
 * the date at 00:00 UTC: the feed depends only on the file, never on the clock.
 *
 * The feed is an Eleventy virtual template (not a file written after the build), so it is part
 * of the build's results and the link checker sees it; the `<link rel="alternate">` in every
 * page's head and the changelog page point at it. Entry ids are tag URIs built from the
 * repository, so they stay the same wherever the site is deployed.
 */
import { readFileSync } from "node:fs";
import MarkdownIt from "markdown-it";
import { book } from "../../data/book.ts";
import { BookError } from "../shared/errors.ts";
import { absoluteUrl, resolveSiteUrl } from "./social.ts";
import type { UserConfig } from "@11ty/eleventy";

export const changelogFile = "content/changelog.md";
const changelogUrl = "/changelog/";
const feedUrl = "/changelog.xml";

export interface ChangelogEntry {
  /** ISO date, also the heading's id. */
  date: string;
  /** The heading text, e.g. "November 23, 2026". */
  title: string;
  /** The section's Markdown. */
  markdown: string;
  /** 1-based line of the heading in the file. */
  line: number;
}

const headingRe = /^##\s+(.+?)\s+\{#(\d{4}-\d{2}-\d{2})\}\s*$/;

/** The dated sections of the changelog, in file order; fails on a `##` heading without a date id or out of order. */
export function parseChangelog(text: string, file = changelogFile): ChangelogEntry[] {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const entries: ChangelogEntry[] = [];
  let current: ChangelogEntry | undefined;
  const body: string[] = [];
  const close = () => {
    if (current) current.markdown = body.join("\n").trim();
    body.length = 0;
  };
  let inFence = false;
  lines.forEach((line, i) => {
    if (/^(```|~~~)/.test(line)) inFence = !inFence;
    if (!inFence && /^##\s/.test(line)) {
      const m = headingRe.exec(line);
      if (!m) throw new BookError(file, i + 1, `changelog headings look like "## November 23, 2026 {#2026-11-23}"`);
      const date = m[2]!;
      if (Number.isNaN(Date.parse(`${date}T00:00:00Z`))) throw new BookError(file, i + 1, `"${date}" is not a date`);
      if (current && date >= current.date) {
        throw new BookError(
          file,
          i + 1,
          `changelog entries go newest first, each date once ("${date}" after "${current.date}")`,
        );
      }
      close();
      current = { date, title: m[1]!, markdown: "", line: i + 1 };
      entries.push(current);
    } else if (current) {
      body.push(line);
    }
  });
  close();
  return entries;
}

function escapeXml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

const entryMarkdown = new MarkdownIt({ html: false, typographer: true, linkify: false });

interface EntryEnv {
  siteUrl: string;
  pathPrefix: string;
}

/** Root-relative link targets become absolute (feed readers have no base); the renderer escapes them as usual. */
entryMarkdown.core.ruler.push("feed_absolute_links", (state) => {
  const { siteUrl, pathPrefix } = state.env as EntryEnv;
  for (const block of state.tokens) {
    for (const token of block.children ?? []) {
      const href = token.type === "link_open" ? token.attrGet("href") : null;
      if (href?.startsWith("/")) token.attrSet("href", absoluteUrl(href, siteUrl, pathPrefix));
    }
  }
});

/** The entry's HTML, with root-relative `href`s made absolute. */
export function entryHtml(entry: ChangelogEntry, siteUrl: string, pathPrefix = "/"): string {
  const env: EntryEnv = { siteUrl, pathPrefix };
  return entryMarkdown.render(entry.markdown, env).trim();
}

/**
 * Stable ids: tag URIs (RFC 4151) from the repository's host and path, e.g.
 * "tag:github.com,2026-11-22:scaling-out-book/scaling-out/changelog"
 * for the feed and ".../changelog/2026-11-23" for an entry.
 */
function feedId(repositoryUrl = book.repositoryUrl): string {
  const repo = new URL(repositoryUrl);
  return `tag:${repo.hostname},${book.published}:${repo.pathname.replace(/^\/|\/$/g, "")}/changelog`;
}

export function entryId(date: string, repositoryUrl = book.repositoryUrl): string {
  return `${feedId(repositoryUrl)}/${date}`;
}

/** The Atom 1.0 document (RFC 4287) for the entries. */
export function atomFeed(entries: readonly ChangelogEntry[], siteUrl: string, pathPrefix = "/"): string {
  if (entries.length === 0)
    throw new BookError(changelogFile, undefined, "the changelog has no dated entries for the feed");
  const abs = (p: string) => escapeXml(absoluteUrl(p, siteUrl, pathPrefix));
  const time = (date: string) => `${date}T00:00:00Z`;
  const newest = entries
    .map((e) => e.date)
    .sort()
    .at(-1)!;
  const out = [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${escapeXml(book.language)}">`,
    `  <title>${escapeXml(book.title)}: changelog</title>`,
    `  <subtitle>${escapeXml(`Changes to ${book.title}: ${book.subtitle}, day by day.`)}</subtitle>`,
    `  <id>${escapeXml(feedId())}</id>`,
    `  <link rel="self" type="application/atom+xml" href="${abs(feedUrl)}"/>`,
    `  <link rel="alternate" type="text/html" href="${abs(changelogUrl)}"/>`,
    `  <updated>${time(newest)}</updated>`,
    `  <author><name>${escapeXml(book.contributors)}</name></author>`,
    `  <rights>Text: ${escapeXml(book.license.text.name)}</rights>`,
  ];
  for (const e of entries) {
    out.push(
      "  <entry>",
      `    <title>${escapeXml(e.title)}</title>`,
      `    <id>${escapeXml(entryId(e.date))}</id>`,
      `    <link rel="alternate" type="text/html" href="${abs(`${changelogUrl}#${e.date}`)}"/>`,
      `    <updated>${time(e.date)}</updated>`,
      `    <content type="html">${escapeXml(entryHtml(e, siteUrl, pathPrefix))}</content>`,
      "  </entry>",
    );
  }
  out.push("</feed>", "");
  return out.join("\n");
}

export function feedPlugin(eleventyConfig: UserConfig): void {
  eleventyConfig.addWatchTarget(`./${changelogFile}`);
  eleventyConfig.addShortcode("changelogAtomFeed", () => {
    const entries = parseChangelog(readFileSync(changelogFile, "utf8"));
    return atomFeed(entries, resolveSiteUrl(book.siteUrl, process.env.SITE_URL), eleventyConfig.pathPrefix ?? "/");
  });
  eleventyConfig.addTemplate("changelog-feed.njk", "{% changelogAtomFeed %}", {
    permalink: feedUrl,
    eleventyExcludeFromCollections: true,
  });
}
