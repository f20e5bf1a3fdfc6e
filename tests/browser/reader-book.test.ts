/**
 * The single-page edition /book/ (src/plugins/markdown/book-edition.ts, content/book.njk): every chapter
 * in book order (the same list the build uses: content/chapters/ sorted by file name), ids
 * unique on the page, every internal link resolves, a cross-chapter reference lands inside
 * /book/, widgets stay static, solutions collapsed on screen and shown in print, and search
 * does not index the page.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { load as loadYaml } from "js-yaml";
import { axeBuilder } from "../../harness/axe.ts";
import type { Page } from "playwright-core";
import { watchPage, type PageProblems } from "../../harness/chromium.ts";
import { useSiteAndBrowser } from "../../harness/site-and-browser.ts";
import { chapterInfo } from "../../src/plugins/shared/chapters.ts";

let page: Page;
let problems: PageProblems;
const site = useSiteAndBrowser(async () => {
  const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: "reduce" });
  page = await context.newPage();
  problems = watchPage(page, site.server.url);
  await page.goto(`${site.server.url}/book/`, { waitUntil: "load" });
});

/** Chapters in book order, as the `chapters` collection orders them (file name). */
function bookChapters(): { slug: string; title: string }[] {
  return readdirSync("content/chapters")
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => {
      const info = chapterInfo(f);
      assert.ok(info, f);
      const front = /^---\n([\s\S]*?)\n---/.exec(readFileSync(`content/chapters/${f}`, "utf8"))![1]!;
      return { slug: info.slug, title: (loadYaml(front) as { title: string }).title };
    });
}

test("/book/ holds every chapter, in book order, with its title", async () => {
  const expected = bookChapters();
  assert.ok(expected.length >= 17, `only ${expected.length} chapters found`);
  const found = await page.$$eval("article.edition-chapter", (els) =>
    els.map((a) => ({ slug: a.id, title: a.querySelector(".edition-chapter-title")?.textContent?.trim() ?? "" })),
  );
  assert.deepEqual(found, expected);
  const toc = await page.$$eval(".edition-toc > li > a", (as) => as.map((a) => a.getAttribute("href")));
  assert.deepEqual(
    toc,
    expected.map((c) => `#${c.slug}`),
  );
  assert.equal(await page.locator("h1").count(), 1);
  assert.deepEqual(problems, { consoleErrors: [], pageErrors: [], offOrigin: [], failed: [] });
});

test("ids are unique and every internal link resolves", async () => {
  const { ids, dupes, hashes, paths } = await page.evaluate(() => {
    const all = Array.from(document.querySelectorAll("[id]"), (e) => e.id);
    const seen = new Set<string>();
    const dupes = all.filter((id) => (seen.has(id) ? true : (seen.add(id), false)));
    const hashes = new Set<string>();
    const paths = new Set<string>();
    for (const a of document.querySelectorAll<HTMLAnchorElement>("a[href]")) {
      const url = new URL(a.href);
      if (url.origin !== location.origin) continue;
      if (url.pathname === location.pathname) hashes.add(decodeURIComponent(url.hash.slice(1)));
      else paths.add(url.pathname);
    }
    return { ids: all.length, dupes, hashes: [...hashes], paths: [...paths] };
  });
  assert.ok(ids > 500, `only ${ids} ids`);
  assert.deepEqual(dupes, []);
  const missing = await page.evaluate((hs) => hs.filter((h) => h !== "" && !document.getElementById(h)), hashes);
  assert.deepEqual(missing, [], "in-page links without a target");
  assert.ok(hashes.length > 400, `only ${hashes.length} distinct in-page links`);
  const broken: string[] = [];
  for (const p of paths) {
    const res = await page.request.get(site.server.url + p);
    if (!res.ok()) broken.push(`${p} ${res.status()}`);
  }
  assert.deepEqual(broken, [], "links to other pages or files");
  // Only the chapter pages themselves ("Online, with live widgets") may link out to a chapter.
  const chapterLinks = await page.$$eval(".chapter-body a[href], .appendix a[href]", (as) =>
    as
      .map((a) => a.getAttribute("href")!)
      .filter((h) => /^\/[a-z0-9-]+\/(#.*)?$/.test(h) && !/^\/(glossary|reading-list|search|changelog)\//.test(h)),
  );
  assert.deepEqual(chapterLinks, [], "chapter links left pointing outside /book/");
});

test("a cross-chapter reference resolves inside /book/", async () => {
  // content/chapters/06-pipeline-parallelism.md links [...](/expert-parallelism/#sec:ep-volume).
  const link = page.locator('#pipeline-parallelism a[href="#expert-parallelism--sec:ep-volume"]').first();
  assert.equal(await link.count(), 1);
  await link.click();
  await page.waitForFunction(() => location.hash === "#expert-parallelism--sec:ep-volume");
  const target = await page.evaluate(() => {
    const el = document.getElementById("expert-parallelism--sec:ep-volume")!;
    return { tag: el.tagName, chapter: el.closest("article")?.id, top: el.getBoundingClientRect().top };
  });
  assert.equal(target.tag, "H4"); // a ### subsection: h4 on /book/
  assert.equal(target.chapter, "expert-parallelism");
  assert.ok(target.top >= -2 && target.top < 300, `target at ${target.top}px after the jump`);
});

test("widgets are static figures; solutions collapsed on screen, shown in print; not indexed", async () => {
  assert.equal(await page.locator("[data-widget]").count(), 0, "no widget for the lazy loader");
  assert.ok((await page.locator("[data-widget-static] svg").count()) >= 15);
  assert.equal(await page.locator("[data-pagefind-body]").count(), 0);
  const solutions = page.locator("details.solution");
  assert.ok((await solutions.count()) >= 50);
  assert.equal(await page.locator("details.solution[open]").count(), 0);
  const firstAnswer = solutions.first().locator("p").first();
  assert.equal(await firstAnswer.isVisible(), false);
  await page.emulateMedia({ media: "print" });
  assert.equal(await firstAnswer.isVisible(), true, "solution text visible in print");
  assert.equal(await page.locator(".site-header").isVisible(), false);
  assert.equal(await page.locator(".widget-controls").first().isVisible(), false);
  await page.emulateMedia({ media: "screen" });
});

test("the page's own parts (cover, contents, a chapter) pass axe in both themes", async () => {
  // The chapters' markup is checked on the chapter pages (tests/browser/a11y.test.ts); here the
  // parts /book/ adds, and one whole chapter as it sits in the page. axe over the whole page
  // (about 77,000 elements) takes minutes, so the other chapters are removed first (this is the
  // file's last test).
  await page.evaluate(() => {
    for (const a of document.querySelectorAll("article.edition-chapter:not(#preface)")) a.remove();
  });
  for (const theme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await page.evaluate((t) => document.documentElement.setAttribute("data-theme", t), theme);
    const result = await axeBuilder(page).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    assert.deepEqual(
      result.violations.map(
        (v) =>
          `${theme} ${v.id}: ${v.nodes
            .slice(0, 3)
            .map((n) => n.target.join(" "))
            .join(", ")}`,
      ),
      [],
    );
  }
});
