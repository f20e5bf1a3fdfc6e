/**
 * Byte budgets (issue #15). No timing assertions here: times vary by machine and are recorded
 * by `npm run bench` instead (docs/performance.md).
 * - Every page's initial load, before any widget (HTML + CSS + the fonts the text uses +
 *   book.js and what it imports, gzip; harness/bytes.ts), is at most 150 KB (150,000 bytes).
 * - Widget bundles load lazily: before the reader scrolls, the only widget files fetched belong
 *   to widgets that start within the lazy loader's 600px margin below the first screen.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { useSiteAndBrowser } from "../../harness/site-and-browser.ts";
import { siteDir, sitePages } from "../../harness/site-pages.ts";
import { measureInitialLoad } from "../../harness/bytes.ts";

const budgetBytes = 150_000;
/**
 * Pages with their own budget. /book/ is the single-page edition: every chapter at once, chosen
 * by a reader who wants the whole book (485,226 bytes measured in November 2026, 372,569 of it
 * HTML); its own budget still fails if it grows by a third.
 */
const pageBudgetBytes: Readonly<Record<string, number>> = { "/book/": 650_000 };
const viewport = { width: 1280, height: 900 };
/** The lazy loader's IntersectionObserver rootMargin (src/widgets/runtime/widget-loader.ts). */
const loaderMarginPx = 600;

const site = useSiteAndBrowser();

test("every page's initial load is at most 150 KB gzip, and widgets wait until they are near", async () => {
  const context = await site.browser.newContext({ viewport });
  const over: string[] = [];
  const early: string[] = [];
  let farWidgets = 0;
  for (const p of sitePages()) {
    const page = await context.newPage();
    const load = await measureInitialLoad(page, site.server.url, siteDir, p);
    assert.ok(
      load.html > 0 && load.css > 0 && load.js > 0,
      `${p}: HTML, CSS and book.js counted (${JSON.stringify(load)})`,
    );
    if (load.total > (pageBudgetBytes[p] ?? budgetBytes)) {
      const biggest = [...load.files]
        .sort((a, b) => b.bytes - a.bytes)
        .slice(0, 4)
        .map((f) => `${f.path} ${f.bytes}`);
      over.push(
        `${p}: ${load.total} bytes (html ${load.html}, css ${load.css}, js ${load.js}, fonts ${load.fonts}); largest: ${biggest.join(", ")}`,
      );
    }
    // Widgets the loader may start without scrolling: those whose top is within the first screen plus its margin.
    const widgets = await page.evaluate(
      ([h, margin]) =>
        Array.from(document.querySelectorAll<HTMLElement>("[data-widget]")).map((el) => ({
          name: el.dataset.widget ?? "",
          near: el.getBoundingClientRect().top < h + margin,
        })),
      [viewport.height, loaderMarginPx] as const,
    );
    const allowed = new Set(widgets.filter((w) => w.near).map((w) => w.name));
    farWidgets += widgets.filter((w) => !w.near).length;
    const entries = load.widgetPaths.filter((w) => !w.startsWith("/assets/js/widgets/chunks/"));
    for (const entry of entries) {
      const name = entry.replace(/^\/assets\/js\/widgets\/|\.js$/g, "");
      if (!allowed.has(name)) early.push(`${p}: ${entry} fetched before scrolling`);
    }
    if (allowed.size === 0 && load.widgetPaths.length > 0)
      early.push(`${p}: ${load.widgetPaths.join(", ")} fetched with no widget near`);
    assert.ok(!load.files.some((f) => /plotly/i.test(f.path)), `${p}: Plotly is part of the initial load`);
    await page.close();
  }
  await context.close();
  assert.deepEqual(over, [], `pages over the ${budgetBytes}-byte budget`);
  assert.deepEqual(early, [], "widget bundles loaded eagerly");
  assert.ok(farWidgets >= 5, `the lazy-loading check saw only ${farWidgets} widgets below the first screen`);
});

test("Plotly is fetched on /gpu-kernels/ once the reader scrolls to the roofline, not before", async () => {
  const context = await site.browser.newContext({ viewport });
  const page = await context.newPage();
  const plotly = () => site.server.requests.filter((r) => /\/assets\/js\/widgets\/chunks\/plotly[^/]*\.js$/.test(r));
  const before = plotly().length;
  await page.goto(`${site.server.url}/gpu-kernels/`, { waitUntil: "load" });
  assert.equal(plotly().length, before, "Plotly requested before scrolling");
  await page.locator('[data-widget="roofline"]').evaluate((el) => el.scrollIntoView({ block: "start" }));
  await page.waitForFunction(
    () => document.querySelector('[data-widget="roofline"] .js-plotly-plot') !== null,
    undefined,
    { timeout: 15_000 },
  );
  assert.equal(plotly().length, before + 1, "Plotly requested once after scrolling to the roofline");
  await context.close();
});
