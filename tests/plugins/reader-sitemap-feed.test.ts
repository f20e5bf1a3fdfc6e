/** sitemap.xml, robots.txt (src/plugins/after-build/sitemap.ts) and the changelog's Atom feed (src/plugins/site/feed.ts). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { DOMParser } from "linkedom";
import { robotsTxt, sitemapXml } from "../../src/plugins/after-build/sitemap.ts";
import { atomFeed, entryHtml, entryId, parseChangelog } from "../../src/plugins/site/feed.ts";
import { isBookError } from "../../src/plugins/shared/errors.ts";

const site = "https://example.org/book";

test("the sitemap lists pages sorted, absolute, with their dates; the prefix replaces the site path", () => {
  const xml = sitemapXml(
    [
      { url: "/zero/", lastmod: "2026-11-23" },
      { url: "/", lastmod: "2026-11-22" },
    ],
    site,
  );
  assert.equal(
    xml,
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
      "  <url><loc>https://example.org/book/</loc><lastmod>2026-11-22</lastmod></url>\n" +
      "  <url><loc>https://example.org/book/zero/</loc><lastmod>2026-11-23</lastmod></url>\n</urlset>\n",
  );
  assert.match(
    sitemapXml([{ url: "/a&b/", lastmod: "2026-11-22" }], "https://example.org", "/sub/"),
    /<loc>https:\/\/example.org\/sub\/a&amp;b\/<\/loc>/,
  );
  assert.throws(
    () =>
      sitemapXml(
        [
          { url: "/a/", lastmod: "2026-11-22" },
          { url: "/a/", lastmod: "2026-11-22" },
        ],
        site,
      ),
    /listed twice/,
  );
  assert.throws(() => sitemapXml([{ url: "/a/", lastmod: "yesterday" }], site), /bad lastmod/);
  assert.equal(robotsTxt(site), "User-agent: *\nAllow: /\n\nSitemap: https://example.org/book/sitemap.xml\n");
});

const changelog = `---
title: Changelog
description: x.
---

Intro, not an entry.

## November 23, 2026 {#2026-11-23}

- **Search:** see [the glossary](/glossary/) & more.

## November 22, 2026 {#2026-11-22}

First day.
`;

test("the changelog's dated sections are the entries, newest first", () => {
  const entries = parseChangelog(changelog);
  assert.deepEqual(
    entries.map((e) => [e.date, e.title, e.line]),
    [
      ["2026-11-23", "November 23, 2026", 8],
      ["2026-11-22", "November 22, 2026", 12],
    ],
  );
  assert.equal(entries[1]!.markdown, "First day.");
  assert.equal(
    entryHtml(entries[0]!, site),
    '<ul>\n<li><strong>Search:</strong> see <a href="https://example.org/book/glossary/">the glossary</a> &amp; more.</li>\n</ul>',
  );
});

test("undated or misordered headings fail with the line", () => {
  assert.throws(
    () => parseChangelog("## Today\n"),
    (e: unknown) => isBookError(e) && e.line === 1 && /look like/.test(e.message),
  );
  assert.throws(
    () => parseChangelog("## A {#2026-11-22}\n\n## B {#2026-11-23}\n"),
    (e: unknown) => isBookError(e) && e.line === 3 && /newest first/.test(e.message),
  );
  assert.throws(() => parseChangelog("## A {#2026-11-22}\n\n## B {#2026-11-22}\n"), /each date once/);
});

test("the Atom feed parses as XML and has the elements RFC 4287 requires", () => {
  const xml = atomFeed(parseChangelog(changelog), site, "/");
  const doc = new DOMParser().parseFromString(xml, "text/xml") as unknown as Document;
  const feed = doc.documentElement;
  assert.equal(feed.tagName, "feed");
  assert.equal(feed.getAttribute("xmlns"), "http://www.w3.org/2005/Atom");
  const child = (el: Element, name: string) => Array.from(el.children).filter((c) => c.tagName === name);
  for (const name of ["id", "title", "updated", "author"]) assert.equal(child(feed, name).length, 1, name);
  assert.equal(child(feed, "updated")[0]!.textContent, "2026-11-23T00:00:00Z");
  assert.equal(
    child(feed, "link")
      .find((l) => l.getAttribute("rel") === "self")!
      .getAttribute("href"),
    "https://example.org/book/changelog.xml",
  );
  const entries = child(feed, "entry");
  assert.equal(entries.length, 2);
  assert.deepEqual(
    entries.map((e) => [
      child(e, "title")[0]!.textContent,
      child(e, "id")[0]!.textContent,
      child(e, "updated")[0]!.textContent,
      child(e, "link")[0]!.getAttribute("href"),
    ]),
    [
      [
        "November 23, 2026",
        entryId("2026-11-23"),
        "2026-11-23T00:00:00Z",
        "https://example.org/book/changelog/#2026-11-23",
      ],
      [
        "November 22, 2026",
        entryId("2026-11-22"),
        "2026-11-22T00:00:00Z",
        "https://example.org/book/changelog/#2026-11-22",
      ],
    ],
  );
  assert.equal(entryId("2026-11-23"), "tag:github.com,2026-11-22:scaling-out-book/scaling-out/changelog/2026-11-23");
  // Entry HTML travels escaped, and unescapes to the rendered Markdown.
  assert.match(child(entries[0]!, "content")[0]!.textContent!, /^<ul>\n<li><strong>Search:<\/strong>/);
});

test("the book's own changelog parses, newest first, and ends on the first day of the history", () => {
  const entries = parseChangelog(readFileSync("content/changelog.md", "utf8"));
  assert.ok(entries.length >= 2);
  assert.equal(entries.at(-1)!.date, "2026-11-22");
  for (const e of entries) assert.ok(e.markdown.length > 0, e.date);
});
