/**
 * sitemap.xml and robots.txt, written after every build. The sitemap lists every built HTML
 * page once, by absolute URL (src/plugins/site/social.ts: `book.siteUrl` or `SITE_URL`, with the path
 * prefix), sorted, with `<lastmod>`: the date of the last commit that touched the page's source
 * file (one `git log` over content/, git-dates.ts), or the book's `updated` date for a file git does not know
 * (new, or no repository). Never the clock, so two builds of the same tree are identical.
 *
 * robots.txt allows everything and names the sitemap. Crawlers read robots.txt only at a host's
 * root, so under a path prefix it is written but has no effect (the sitemap still works when
 * submitted directly).
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { book } from "../../data/book.ts";
import { normalizeFile } from "../shared/errors.ts";
import { gitLastModified } from "../site/git-dates.ts";
import { absoluteUrl, resolveSiteUrl } from "../site/social.ts";
import type { UserConfig } from "@11ty/eleventy";

export interface SitemapPage {
  /** Eleventy's page URL, root-relative without the path prefix ("/zero/"). */
  url: string;
  /** YYYY-MM-DD. */
  lastmod: string;
}

function escapeXml(s: string): string {
  return s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/** The sitemap document (sitemaps.org protocol 0.9), pages sorted by URL; a URL listed twice is an error. */
export function sitemapXml(pages: readonly SitemapPage[], siteUrl: string, pathPrefix = "/"): string {
  const sorted = [...pages].sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]!.url === sorted[i - 1]!.url) throw new Error(`sitemap: ${sorted[i]!.url} is listed twice`);
  }
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
  ];
  for (const p of sorted) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(p.lastmod)) throw new Error(`sitemap: bad lastmod "${p.lastmod}" for ${p.url}`);
    lines.push(
      `  <url><loc>${escapeXml(absoluteUrl(p.url, siteUrl, pathPrefix))}</loc><lastmod>${p.lastmod}</lastmod></url>`,
    );
  }
  lines.push("</urlset>", "");
  return lines.join("\n");
}

export function robotsTxt(siteUrl: string, pathPrefix = "/"): string {
  return `User-agent: *\nAllow: /\n\nSitemap: ${absoluteUrl("/sitemap.xml", siteUrl, pathPrefix)}\n`;
}

export function sitemapPlugin(eleventyConfig: UserConfig): void {
  eleventyConfig.on("eleventy.after", ({ results, directories }) => {
    const siteUrl = resolveSiteUrl(book.siteUrl, process.env.SITE_URL);
    const prefix = eleventyConfig.pathPrefix ?? "/";
    const dates = gitLastModified();
    const pages: SitemapPage[] = results
      .filter((r) => typeof r.outputPath === "string" && r.outputPath.endsWith(".html") && typeof r.url === "string")
      .map((r) => ({ url: r.url, lastmod: dates.get(normalizeFile(r.inputPath)) ?? book.updated }));
    writeFileSync(path.join(directories.output, "sitemap.xml"), sitemapXml(pages, siteUrl, prefix));
    writeFileSync(path.join(directories.output, "robots.txt"), robotsTxt(siteUrl, prefix));
  });
}
