/**
 * The activation-curve widget in Chromium on the built single-GPU chapter: the static chart is
 * there without JavaScript, the script loads when scrolled near, the controls redraw with the
 * model's numbers, hostile micro-batch input marks the field invalid and keeps the last chart, the
 * controls work from the keyboard, and the page stays clean. Screenshots (desktop, phone, dark)
 * go to test-output/screenshots/ for a human to look at.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { findModelPreset, trainingMemory } from "../../src/model/index.ts";
import { watchPage, settle } from "../../harness/chromium.ts";
import { keepScreenshot } from "../helpers/screenshots.ts";
import { useSiteAndBrowser } from "../../harness/site-and-browser.ts";

const shots = "test-output/screenshots";
const sel = '[data-widget="activation-curve"]';
const site = useSiteAndBrowser();

/** The widget's number format: up to three significant digits, in GB (10^9 B). */
const gb = (bytes: number) => `${Number((bytes / 1e9).toPrecision(3))} GB`;
const activations = (
  model: string,
  microBatchSize: number,
  recompute: "none" | "selective" | "full",
  attention: "eager" | "flash",
) =>
  trainingMemory(findModelPreset(model)!.config, { seqLength: 4096, microBatchSize, recompute, attention }).perGpu
    .activations;

async function openWidget(page: Page): Promise<void> {
  await page.goto(`${site.server.url}/one-gpu/`);
  await page.locator(sel).scrollIntoViewIfNeeded();
  await page.waitForFunction(
    (s) => !document.querySelector(`${s} input[name=microBatch]`)?.hasAttribute("disabled"),
    sel,
  );
}

const summary = async (page: Page) => (await page.locator(`${sel} p.ac-summary`).textContent()) ?? "";
const live = async (page: Page) => (await page.locator(`${sel} [aria-live=polite]`).textContent()) ?? "";

describe("activation-curve widget", () => {
  it("shows the default chart and the model's numbers without JavaScript", async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${site.server.url}/one-gpu/`);
    assert.equal(await page.locator(`${sel} svg .ac-series`).count(), 3);
    const text = await summary(page);
    assert.ok(text.includes(`no recomputation ${gb(activations("llama-3.1-8b", 1, "none", "eager"))}`), text);
    assert.ok(text.includes(`full ${gb(activations("llama-3.1-8b", 1, "full", "eager"))}`), text);
    await context.close();
  });

  it("loads its script only when scrolled near, and the page logs no errors", async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = watchPage(page, site.server.url);
    await page.goto(`${site.server.url}/one-gpu/`);
    await settle(page);
    assert.ok(
      !site.server.requests.some((r) => r.endsWith("/widgets/activation-curve.js")),
      "widget script loaded before scrolling",
    );
    await openWidget(page);
    assert.ok(site.server.requests.some((r) => r.endsWith("/widgets/activation-curve.js")));
    await keepScreenshot(page, `${shots}/activation-curve-page-desktop.png`);
    await keepScreenshot(page.locator(sel), `${shots}/activation-curve-desktop.png`);
    assert.deepEqual(problems, { consoleErrors: [], pageErrors: [], offOrigin: [], failed: [] });
    await context.close();
  });

  it("redraws with the model's numbers when the model, attention and micro-batch change", async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await openWidget(page);
    await page.selectOption(`${sel} select[name=model]`, "llama-3.2-1b");
    await page.selectOption(`${sel} select[name=attention]`, "flash");
    await page.fill(`${sel} input[name=microBatch]`, "4");
    const expected = `no recomputation ${gb(activations("llama-3.2-1b", 4, "none", "flash"))}`;
    await page.waitForFunction(([s, e]) => document.querySelector(`${s} p.ac-summary`)?.textContent?.includes(e), [
      sel,
      expected,
    ] as const);
    const text = await summary(page);
    assert.ok(text.startsWith("Llama 3.2 1B, FlashAttention, micro-batch 4:"), text);
    assert.ok(text.includes(`selective ${gb(activations("llama-3.2-1b", 4, "selective", "flash"))}`), text);
    assert.ok(text.includes(`full ${gb(activations("llama-3.2-1b", 4, "full", "flash"))}`), text);
    assert.equal(await live(page), text, "screen readers hear the new state");
    // The chapter's running example: 28.4 GB of activations at b = 4 (the timeline figure).
    assert.ok(text.includes("no recomputation 28.4 GB"), text);
    await context.close();
  });

  it("marks hostile micro-batch input invalid, explains it, and keeps the last chart", async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = watchPage(page, site.server.url);
    await openWidget(page);
    await page.fill(`${sel} input[name=microBatch]`, "2");
    const good = `no recomputation ${gb(activations("llama-3.1-8b", 2, "none", "eager"))}`;
    await page.waitForFunction(([s, e]) => document.querySelector(`${s} p.ac-summary`)?.textContent?.includes(e), [
      sel,
      good,
    ] as const);
    const before = await summary(page);
    const chartBefore = await page.locator(`${sel} .ac-chart-box`).innerHTML();
    const input = page.locator(`${sel} input[name=microBatch]`);
    for (const bad of ["-3", "0", "1e40", "abc", "", "2.5", "99999"]) {
      await input.fill(bad);
      assert.equal(await input.getAttribute("aria-invalid"), "true", `aria-invalid for ${JSON.stringify(bad)}`);
      const message =
        (await page.locator(`${sel} #${await input.getAttribute("aria-describedby")}`).textContent()) ?? "";
      assert.ok(message.length > 10, `a message for ${JSON.stringify(bad)}`);
      assert.equal(await summary(page), before, "the summary keeps the last valid state");
      assert.equal(
        await page.locator(`${sel} .ac-chart-box`).innerHTML(),
        chartBefore,
        "the chart keeps the last valid state",
      );
    }
    const widgetText = (await page.locator(sel).textContent()) ?? "";
    assert.doesNotMatch(widgetText, /NaN|undefined|Infinity/);
    await keepScreenshot(page.locator(sel), `${shots}/activation-curve-invalid.png`);
    await input.fill("1");
    assert.equal(await input.getAttribute("aria-invalid"), null);
    assert.deepEqual(problems.pageErrors, []);
    await context.close();
  });

  it("works from the keyboard", async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await openWidget(page);
    await page.focus(`${sel} select[name=attention]`);
    await page.keyboard.press("ArrowDown"); // eager → FlashAttention
    await page.waitForFunction(
      (s) => document.querySelector(`${s} p.ac-summary`)?.textContent?.includes("FlashAttention"),
      sel,
    );
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name), "microBatch");
    await page.keyboard.press("Control+A");
    await page.keyboard.type("3");
    await page.waitForFunction(
      (s) => document.querySelector(`${s} p.ac-summary`)?.textContent?.includes("micro-batch 3"),
      sel,
    );
    assert.ok(
      (await summary(page)).includes(`no recomputation ${gb(activations("llama-3.1-8b", 3, "none", "flash"))}`),
    );
    await context.close();
  });

  it("fits a phone without sideways scrolling and reads in dark mode", async () => {
    const context = await site.browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: "dark" });
    const page = await context.newPage();
    await openWidget(page);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px`);
    await page.waitForFunction(
      (s) => (document.querySelector(`${s} .ac-chart-box svg`)?.getAttribute("viewBox") ?? "").split(" ")[2] !== "640",
      sel,
    );
    // A page screenshot (not an element one): the widget is taller than the phone's viewport.
    await page.locator(`${sel} .ac-chart-box`).scrollIntoViewIfNeeded();
    await keepScreenshot(page, `${shots}/activation-curve-phone-dark.png`);
    await context.close();
  });
});
