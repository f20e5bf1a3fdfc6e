/**
 * Regression: an element screenshot taller than the viewport (the whole chapter's <main>)
 * used to hang. Chromium lays the page out at a 1×1 viewport while capturing; the chapter
 * reflowed one character per line (hundreds of thousands of pixels tall), book.js re-measured
 * every scroll box and flipped the ToC drawer on the media change, and the capture never saw
 * a stable element. Fixed by a minimum body width (book.css) and by book.js ignoring such
 * transient viewports. Each capture must now finish well inside the time limit.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { afterPageTimers } from "../../harness/chromium.ts";
import { useSiteAndBrowser } from "../../harness/site-and-browser.ts";

const site = useSiteAndBrowser();

for (const width of [390, 1280]) {
  test(`element screenshot of a whole chapter at ${width}px finishes and leaves the ToC as it was`, async () => {
    const context = await site.browser.newContext({ viewport: { width, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${site.server.url}/data-parallelism/`);
    const tocOpen = () => page.evaluate(() => document.querySelector<HTMLDetailsElement>("details.toc")?.open);
    const before = await tocOpen();
    assert.equal(before, width >= 1280);
    const png = await page.locator("main").screenshot({ timeout: 10_000 }); // ~2 s with the fix, ~27 s without;
    assert.ok(png.length > 10_000, "a real image came back");
    await afterPageTimers(page, 150); // book.js's settle delay after the screenshot's viewport changes has run
    assert.equal(await tocOpen(), before);
    assert.equal(await page.evaluate(() => window.innerWidth), width);
    await context.close();
  });
}
