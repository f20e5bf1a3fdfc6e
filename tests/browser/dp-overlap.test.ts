/**
 * The dp-overlap widget in Chromium on the built data-parallelism chapter: it loads when scrolled
 * near, its controls redraw both timelines with the model's numbers, hostile input marks the
 * field invalid and keeps the last drawing, and the page stays clean. Screenshots (desktop,
 * phone, dark) go to test-output/screenshots/ for a human to look at.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { watchPage, settle } from "../../harness/chromium.ts";
import { keepScreenshot } from "../helpers/screenshots.ts";
import { useSiteAndBrowser } from "../../harness/site-and-browser.ts";

const shots = "test-output/screenshots";
const site = useSiteAndBrowser();

async function openWidget(page: Page): Promise<void> {
  await page.goto(`${site.server.url}/data-parallelism/`);
  const widget = page.locator('[data-widget="dp-overlap"]');
  await widget.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => {
    const input = document.querySelector<HTMLInputElement>('[data-widget="dp-overlap"] input[name=busBandwidthGBps]');
    return input !== null && !input.disabled;
  });
}

/** Screenshot of the widget's box (a clip, so a page still settling does not block it). */
async function shoot(page: Page, path: string): Promise<void> {
  const widget = page.locator('[data-widget="dp-overlap"]');
  await widget.evaluate((el) => el.scrollIntoView({ block: "start" }));
  const box = await widget.boundingBox();
  assert.ok(box, "the widget has a box");
  await keepScreenshot(page, path, { clip: box, timeout: 10_000 });
}

const readout = (page: Page) => page.locator('[data-widget="dp-overlap"] .dp-overlap-readout').textContent();
const svgText = (page: Page) => page.locator('[data-widget="dp-overlap"] svg').textContent();

describe("dp-overlap widget", () => {
  it("loads its script only when scrolled near, and the page logs no errors", async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = watchPage(page, site.server.url);
    await page.goto(`${site.server.url}/data-parallelism/`);
    await settle(page);
    assert.ok(
      !site.server.requests.some((r) => r.endsWith("/widgets/dp-overlap.js")),
      "widget script loaded before scrolling",
    );
    await openWidget(page);
    assert.ok(site.server.requests.some((r) => r.endsWith("/widgets/dp-overlap.js")));
    assert.deepEqual(problems, { consoleErrors: [], pageErrors: [], offOrigin: [], failed: [] });
    await context.close();
  });

  it("redraws with the model's numbers when the bandwidth and degree change", async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await openWidget(page);
    // Default: the chapter's example, one rank per server (timelines (a) and (b) of the figure).
    assert.match((await svgText(page)) ?? "", /step 1\.122 s, exposed 712 ms/);
    assert.match((await svgText(page)) ?? "", /step 857 ms, exposed 448 ms/);
    await page.fill('[data-widget="dp-overlap"] input[name=busBandwidthGBps]', "480");
    await page.fill('[data-widget="dp-overlap"] input[name=dp]', "8");
    // The chapter: one server with NVLink SHARP leaves 2.5 ms exposed with overlap.
    await page.waitForFunction(() =>
      document.querySelector('[data-widget="dp-overlap"] svg')?.textContent?.includes("exposed 2.5 ms"),
    );
    assert.match((await readout(page)) ?? "", /with overlap \d+ ms, 2\.5 ms waiting/);
    await page.fill('[data-widget="dp-overlap"] input[name=busBandwidthGBps]', "45");
    await page.fill('[data-widget="dp-overlap"] input[name=dp]', "64");
    await page.fill('[data-widget="dp-overlap"] input[name=bucketMebibytes]', "1");
    // DDP's whole-tensor buckets: 226 at a 1 MiB cap (not 15,317 slices), a step of 859 ms with overlap.
    await page.waitForFunction(() =>
      document.querySelector('[data-widget="dp-overlap"] svg')?.textContent?.includes("step 859 ms"),
    );
    assert.match((await readout(page)) ?? "", /in 226 buckets/);
    await page.fill('[data-widget="dp-overlap"] input[name=bucketMebibytes]', "25");
    await page.fill('[data-widget="dp-overlap"] input[name=microbatches]', "4");
    await page.uncheck('[data-widget="dp-overlap"] input[name=noSync]');
    await page.waitForFunction(() =>
      document.querySelector('[data-widget="dp-overlap"] svg')?.textContent?.includes("step 3.430 s"),
    );
    await page.check('[data-widget="dp-overlap"] input[name=noSync]');
    await page.waitForFunction(() =>
      document.querySelector('[data-widget="dp-overlap"] svg')?.textContent?.includes("step 2.087 s"),
    );
    await shoot(page, `${shots}/dp-overlap-desktop.png`);
    await context.close();
  });

  it("marks hostile input invalid with a message and keeps the last valid drawing", async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = watchPage(page, site.server.url);
    await openWidget(page);
    const before = await svgText(page);
    for (const name of ["busBandwidthGBps", "dp", "bucketMebibytes", "microbatches", "latencyMicroseconds"]) {
      for (const value of ["-5", "0", "1e40", "ten", ""]) {
        if (name === "latencyMicroseconds" && value === "0") continue; // zero per-call cost is valid
        const input = page.locator(`[data-widget="dp-overlap"] input[name=${name}]`);
        await input.fill(value);
        assert.equal(await input.getAttribute("aria-invalid"), "true", `${name} = "${value}" must be invalid`);
        const describedBy = (await input.getAttribute("aria-describedby")) ?? "";
        const message = await page.locator(`[id="${describedBy.split(" ")[0]}"]`).textContent();
        assert.ok(message && message.length > 0, `${name} = "${value}" shows a message`);
        assert.equal(await svgText(page), before, "the drawing keeps the last valid state");
        const html = await page.locator('[data-widget="dp-overlap"]').innerHTML();
        assert.ok(!/NaN|undefined|Infinity/.test(html));
      }
      await page
        .locator(`[data-widget="dp-overlap"] input[name=${name}]`)
        .fill(
          { busBandwidthGBps: "45", dp: "64", bucketMebibytes: "25", microbatches: "1", latencyMicroseconds: "50" }[
            name
          ]!,
        );
      assert.equal(
        await page.locator(`[data-widget="dp-overlap"] input[name=${name}]`).getAttribute("aria-invalid"),
        null,
      );
    }
    assert.deepEqual(problems.pageErrors, []);
    assert.deepEqual(problems.consoleErrors, []);
    await context.close();
  });

  it("is keyboard-operable and renders on a phone and in dark mode", async () => {
    const phone = await site.browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
    const page = await phone.newPage();
    await openWidget(page);
    await page.focus('[data-widget="dp-overlap"] input[name=busBandwidthGBps]');
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name);
    assert.equal(focused, "dp");
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    assert.ok(overflow <= 0, `the phone layout scrolls sideways by ${overflow}px`);
    await shoot(page, `${shots}/dp-overlap-phone.png`);
    await phone.close();
    const dark = await site.browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: "dark" });
    const darkPage = await dark.newPage();
    await openWidget(darkPage);
    await shoot(darkPage, `${shots}/dp-overlap-dark.png`);
    await dark.close();
  });

  it("the chapter page itself: desktop, phone and dark screenshots, figures loaded", async () => {
    for (const [name, options] of [
      ["desktop", { viewport: { width: 1280, height: 900 } }],
      ["phone", { viewport: { width: 390, height: 844 } }],
      ["dark", { viewport: { width: 1280, height: 900 }, colorScheme: "dark" as const }],
    ] as const) {
      const context = await site.browser.newContext(options);
      const page = await context.newPage();
      const problems = watchPage(page, site.server.url);
      await page.goto(`${site.server.url}/data-parallelism/`);
      await page.waitForLoadState("load");
      for (const img of await page.locator("article img").all()) {
        await img.scrollIntoViewIfNeeded();
        await img.evaluate((el: HTMLImageElement) =>
          el.complete ? null : new Promise((ok) => el.addEventListener("load", ok, { once: true })),
        );
      }
      await page.evaluate(() => window.scrollTo(0, 0));
      const broken = await page.evaluate(() =>
        [...document.querySelectorAll("img")]
          .filter((img) => !img.complete || img.naturalWidth === 0)
          .map((img) => img.src),
      );
      assert.deepEqual(broken, []);
      await keepScreenshot(page, `${shots}/data-parallelism-${name}.png`);
      assert.deepEqual(problems.failed, []);
      await context.close();
    }
  });
});
