/**
 * Sharing and metadata on the built site (SITE_DIR): build-time highlighting and copy buttons
 * (src/plugins/markdown/highlight.ts, src/widgets/runtime/code-copy.ts), Open Graph/Twitter meta and social
 * cards (src/plugins/site/social.ts), sitemap.xml (src/plugins/after-build/sitemap.ts), the changelog's Atom feed
 * (src/plugins/site/feed.ts), and every widget's "Copy link" (issue #52). One browser launch; the file
 * checks read the built files directly.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { DOMParser, parseHTML } from "linkedom";
import { watchPage } from "../../harness/chromium.ts";
import { useSiteAndBrowser } from "../../harness/site-and-browser.ts";
import { siteDir, sitePages } from "../../harness/site-pages.ts";
import { book } from "../../src/data/book.ts";
import { absoluteUrl, resolveSiteUrl } from "../../src/plugins/site/social.ts";
import { widgetRegistry } from "../../src/figures/index.ts";

const site = useSiteAndBrowser();

/** The absolute URL of the site root this build was made for (no path prefix in SITE_DIR builds). */
const base = absoluteUrl("/", resolveSiteUrl(book.siteUrl, process.env.SITE_URL));
const pages = sitePages();
const html = (p: string) => readFileSync(path.join(siteDir, p, "index.html"), "utf8");
const meta = (doc: Document, key: string) =>
  doc.querySelector(`meta[property="${key}"], meta[name="${key}"]`)?.getAttribute("content") ?? undefined;

/** The ```cuda block of chapter 9 as written in the Markdown. */
function cudaSource(): string {
  const md = readFileSync("content/chapters/09-gpu-kernels.md", "utf8");
  const m = /^```cuda\n([\s\S]*?)\n```$/m.exec(md);
  assert.ok(m, "chapter 9 has a ```cuda block");
  return m[1]!;
}

test("every page has Open Graph and Twitter meta; og:image is a 1200×630 PNG in the site", () => {
  assert.ok(pages.length >= 20, `${pages.length} pages`);
  for (const p of pages) {
    const { document } = parseHTML(html(p));
    const description = document.querySelector('meta[name="description"]')?.getAttribute("content");
    assert.ok(description && description.length > 20, `${p}: description`);
    assert.ok(meta(document, "og:title"), `${p}: og:title`);
    assert.equal(meta(document, "og:description"), description, `${p}: og:description`);
    assert.equal(meta(document, "og:url"), base + p.slice(1), `${p}: og:url`);
    assert.equal(meta(document, "twitter:card"), "summary_large_image", `${p}: twitter:card`);
    const image = meta(document, "og:image")!;
    assert.equal(meta(document, "twitter:image"), image, `${p}: twitter:image`);
    assert.ok(image.startsWith(`${base}assets/cards/`) && image.endsWith(".png"), `${p}: og:image ${image}`);
    const png = readFileSync(path.join(siteDir, image.slice(base.length)));
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], `${p}: PNG signature`);
    assert.equal(png.toString("ascii", 12, 16), "IHDR");
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [1200, 630], `${p}: card size`);
    const isChapter = document.querySelector("body.chapter-page") !== null;
    // "Cite this book" names the chapter's address on the published site.
    const bibtex = document.querySelector("pre.bibtex")?.textContent ?? "";
    if (isChapter)
      assert.match(
        bibtex,
        new RegExp(`^  url += \\{${(base + p.slice(1)).replace(/[.?]/g, "\\$&")}\\},$`, "m"),
        `${p}: BibTeX url`,
      );
    assert.equal(meta(document, "og:type"), isChapter ? "article" : p === "/" ? "book" : "website", `${p}: og:type`);
    // A chapter shares its own card; other pages the book's.
    assert.equal(
      image.slice(base.length),
      isChapter ? `assets/cards/${p.replace(/\//g, "")}.png` : "assets/cards/book.png",
      `${p}: card`,
    );
    const feedLink = document.querySelector('link[rel="alternate"][type="application/atom+xml"]');
    assert.equal(feedLink?.getAttribute("href"), "/changelog.xml", `${p}: feed link`);
    assert.ok(document.querySelector('.site-footer a[href="/changelog/"]'), `${p}: footer link to the changelog`);
  }
  const { document } = parseHTML(html("/data-parallelism/"));
  assert.equal(meta(document, "og:title"), "Chapter 3: Data parallelism and ZeRO");
});

test("sitemap.xml lists every built page exactly once, by absolute URL; robots.txt names it", () => {
  const doc = new DOMParser().parseFromString(
    readFileSync(path.join(siteDir, "sitemap.xml"), "utf8"),
    "text/xml",
  ) as unknown as Document;
  assert.equal(doc.documentElement.getAttribute("xmlns"), "http://www.sitemaps.org/schemas/sitemap/0.9");
  const urls = Array.from(doc.querySelectorAll("url"));
  const locs = urls.map((u) => u.querySelector("loc")!.textContent!);
  assert.deepEqual(
    locs,
    pages.map((p) => base + p.slice(1)),
  );
  for (const u of urls) assert.match(u.querySelector("lastmod")!.textContent!, /^20\d\d-\d\d-\d\d$/);
  assert.match(
    readFileSync(path.join(siteDir, "robots.txt"), "utf8"),
    new RegExp(`^Sitemap: ${base}sitemap.xml$`, "m"),
  );
});

test("the Atom feed parses and its entries are the changelog page's dated sections", () => {
  const xml = readFileSync(path.join(siteDir, "changelog.xml"), "utf8");
  assert.ok(xml.startsWith('<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom"'));
  const doc = new DOMParser().parseFromString(xml, "text/xml") as unknown as Document;
  const entries = Array.from(doc.querySelectorAll("entry")).map((e) => ({
    title: e.querySelector("title")!.textContent,
    href: e.querySelector("link")!.getAttribute("href"),
    updated: e.querySelector("updated")!.textContent,
  }));
  const { document } = parseHTML(html("/changelog/"));
  const sections = Array.from(document.querySelectorAll(".chapter-body h2[id]")).map((h) => ({
    title: h.textContent!.trim(),
    href: `${base}changelog/#${h.id}`,
    updated: `${h.id}T00:00:00Z`,
  }));
  assert.ok(sections.length >= 2);
  assert.deepEqual(entries, sections);
  assert.ok(document.querySelector('.title-block a[href="/changelog.xml"]'), "the changelog page links its feed");
});

test("code is highlighted at build time; Copy code copies the block's text and says so; no button without JS", async () => {
  // Named `built`, not `document`: the page functions below run in the browser and read its `document`.
  const built = parseHTML(html("/gpu-kernels/")).document;
  const cuda = built.querySelector(".code-block > pre > code.language-cuda");
  assert.ok(cuda, "the CUDA block is wrapped and labelled");
  assert.ok(cuda.querySelectorAll("span.hljs-type, span.hljs-keyword").length >= 5, "token spans");
  assert.ok(built.querySelectorAll(".code-block code.language-python span.hljs-keyword").length >= 2);

  const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: site.server.url });
  const page = await context.newPage();
  const problems = watchPage(page, site.server.url);
  await page.goto(`${site.server.url}/gpu-kernels/`);
  const block = page.locator(".code-block").filter({ has: page.locator("code.language-cuda") });
  const button = block.getByRole("button", { name: "Copy code" });
  await button.scrollIntoViewIfNeeded();
  // Colors come from the theme: a keyword is not drawn in the text color.
  const colors = await block.evaluate((el) => {
    const kw = el.querySelector(".hljs-type")!;
    return [getComputedStyle(kw).color, getComputedStyle(el.querySelector("code")!).color];
  });
  assert.notEqual(colors[0], colors[1]);
  await button.focus();
  await page.keyboard.press("Enter");
  // The button says "Copied" (for 2 s) and the live region announces it.
  await page.waitForFunction(
    () =>
      document.querySelector('.code-copy-status[role="status"]')?.textContent === "Copied" &&
      document.querySelector('.code-copy[data-state="copied"] .code-copy-text')?.textContent === "Copied",
  );
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), cudaSource());
  // Every fenced block and the BibTeX citation get a button.
  assert.equal(await page.locator(".code-block > .code-copy").count(), await page.locator(".code-block").count());
  assert.ok((await page.locator("pre.bibtex").locator("xpath=..").locator(".code-copy").count()) === 1);
  assert.deepEqual(problems, { consoleErrors: [], pageErrors: [], offOrigin: [], failed: [] });
  await context.close();

  const noJs = await site.browser.newContext({ javaScriptEnabled: false });
  const plain = await noJs.newPage();
  await plain.goto(`${site.server.url}/gpu-kernels/`);
  assert.ok((await plain.locator(".code-block .hljs-type").count()) > 0, "highlighting needs no script");
  assert.equal(await plain.locator("button.code-copy").count(), 0);
  await noJs.close();
});

/**
 * Issue #52: every widget has a "Copy link" (the explorers' own, or runtime/url-state.ts's
 * widgetLink for the rest). For each widget, at desktop and phone widths: change one setting, copy
 * the link, open it in a fresh page, and find the setting restored, the same result drawn (the
 * widget's polite live summary) and the widget scrolled into view.
 */
interface LinkCase {
  widget: string;
  page: string;
  /** The control changed, its new value, and the `key:value` the link must carry. */
  control: string;
  value: string;
  param: string;
  select?: boolean;
}

const linkCases: LinkCase[] = [
  { widget: "unit-converter", page: "preface", control: "amount", value: "81", param: "value:81" },
  { widget: "activation-curve", page: "one-gpu", control: "microBatch", value: "2", param: "microBatch:2" },
  { widget: "dp-overlap", page: "data-parallelism", control: "dp", value: "128", param: "dp:128" },
  { widget: "tp-sharding", page: "tensor-parallelism", control: "seq", value: "16384", param: "seq:16384" },
  { widget: "ring-attention", page: "context-parallelism", control: "gpus", value: "8", param: "gpus:8" },
  { widget: "moe-routing", page: "expert-parallelism", control: "tokens", value: "1024", param: "tokens:1024" },
  { widget: "roofline", page: "gpu-kernels", control: "seq", value: "8192", param: "seq:8192" },
  { widget: "coalescing", page: "gpu-kernels", control: "stride", value: "2", param: "stride:2" },
  { widget: "number-formats", page: "mixed-precision", control: "value", value: "3.5", param: "value:3.5" },
  { widget: "collectives", page: "collectives", control: "ranks", value: "8", param: "ranks:8" },
  { widget: "overlap-calculator", page: "overlap-math", control: "tp", value: "8", param: "tp:8" },
  {
    widget: "pipeline-explorer",
    page: "pipeline-parallelism",
    control: "microbatches",
    value: "12",
    param: "microbatches:12",
  },
  { widget: "memory-explorer", page: "one-gpu", control: "microBatch", value: "2", param: "microBatch:2" },
];

const linkViewports = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
];

for (const viewport of linkViewports) {
  test(`every widget's Copy link restores its setting and opens scrolled to it (${viewport.name})`, async () => {
    for (const c of linkCases) {
      const id = `widget-${c.widget}-1`;
      const sel = `#${id}`;
      const context = await site.browser.newContext({ viewport });
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: site.server.url });
      const page = await context.newPage();
      const problems = watchPage(page, site.server.url);
      await page.goto(`${site.server.url}/${c.page}/`);
      await page.locator(sel).evaluate((el) => el.scrollIntoView({ block: "start" }));
      await page.waitForFunction((s) => document.querySelector<HTMLElement>(s)?.dataset.widgetState === "mounted", sel);
      const control = page.locator(`${sel} [name="${c.control}"]`).first();
      if (c.select) await control.selectOption(c.value);
      else await control.fill(c.value);
      await page.waitForFunction(
        ([key, param]) => new URL(location.href).searchParams.get(key)?.split(",").includes(param) ?? false,
        [id, c.param] as const,
      );
      await page.waitForFunction((s) => !document.querySelector<HTMLElement>(s)?.hasAttribute("data-widget-busy"), sel);
      const summary = await page.locator(`${sel} [aria-live]`).first().textContent();
      assert.ok(summary, `${c.widget}: a summary after the edit`);
      await page.locator(`${sel} button`, { hasText: "Copy link" }).click();
      await page.waitForFunction((s) => document.querySelector(`${s} [role=status]`)?.textContent !== "", sel);
      const copied = new URL(await page.evaluate(() => navigator.clipboard.readText()));
      assert.equal(copied.hash, `#${id}`, `${c.widget}: the link names the widget`);
      assert.ok(copied.searchParams.get(id)?.split(",").includes(c.param), `${c.widget}: ${copied.href}`);
      assert.deepEqual(problems, { consoleErrors: [], pageErrors: [], offOrigin: [], failed: [] }, c.widget);
      await context.close();

      // A fresh page (no shared history or storage) opened at the copied link.
      const fresh = await site.browser.newContext({ viewport });
      const opened = await fresh.newPage();
      const freshProblems = watchPage(opened, site.server.url);
      await opened.goto(copied.href);
      await opened.waitForFunction(
        (s) => document.querySelector<HTMLElement>(s)?.dataset.widgetState === "mounted",
        sel,
      );
      await opened.waitForFunction(
        ([s, summaryText]) => document.querySelector(`${s} [aria-live]`)?.textContent === summaryText,
        [sel, summary] as const,
      );
      assert.equal(await opened.locator(`${sel} [name="${c.control}"]`).first().inputValue(), c.value, c.widget);
      const status = (await opened.locator(`${sel} [role=status]`).first().textContent()) ?? "";
      assert.ok(!status.includes("not used"), `${c.widget}: ${status}`);
      // Scrolled to the widget: its top in the upper half of the screen, its box on screen.
      await opened.waitForFunction(
        (s) => {
          const r = document.querySelector(s)!.getBoundingClientRect();
          return r.top >= -2 && r.top < window.innerHeight / 2;
        },
        sel,
        { timeout: 5000 },
      );
      const below = await opened.evaluate(
        (s) => document.querySelector(s)!.getBoundingClientRect().top + window.scrollY > window.innerHeight,
        sel,
      );
      if (below) assert.ok((await opened.evaluate(() => window.scrollY)) > 0, `${c.widget}: the page scrolled`);
      assert.deepEqual(freshProblems, { consoleErrors: [], pageErrors: [], offOrigin: [], failed: [] }, c.widget);
      await fresh.close();
    }
    // Every widget kind in the registry but the configuration finder (its own tests) is here.
    assert.deepEqual(
      linkCases.map((c) => c.widget).sort(),
      Object.keys(widgetRegistry)
        .filter((w) => w !== "config-finder")
        .sort(),
    );
  });
}
