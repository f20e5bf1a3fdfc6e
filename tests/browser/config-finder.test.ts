/**
 * The config-finder widget in Chromium on the built 5D-parallelism chapter: it loads when scrolled
 * near, reruns the search when a control changes (drawn numbers checked against src/model), marks
 * hostile input invalid while keeping the last result, and leaves the page clean. Screenshots
 * (desktop, phone, dark) go to test-output/screenshots/.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { watchPage, settle } from "../../harness/chromium.ts";
import { keepScreenshot } from "../helpers/screenshots.ts";
import { useSiteAndBrowser } from "../../harness/site-and-browser.ts";
import { findGpu, findModelPreset, searchConfigurations } from "../../src/model/index.ts";

const shots = "test-output/screenshots";
const sel = '[data-widget="config-finder"]';
const site = useSiteAndBrowser();

async function openWidget(page: Page): Promise<void> {
  await page.goto(`${site.server.url}/five-d-parallelism/`);
  await page.locator(sel).scrollIntoViewIfNeeded();
  await page.waitForFunction((s) => {
    const input = document.querySelector<HTMLInputElement>(`${s} input[name=gpuCount]`);
    return input !== null && !input.disabled;
  }, sel);
}

async function shoot(page: Page, path: string): Promise<void> {
  const widget = page.locator(sel);
  await widget.evaluate((el) => el.scrollIntoView({ block: "start" }));
  const box = await widget.boundingBox();
  assert.ok(box);
  await keepScreenshot(page, path, { clip: box, timeout: 10_000 });
}

const readout = async (page: Page) => (await page.locator(`${sel} .config-finder-readout`).textContent()) ?? "";
const firstRow = async (page: Page) => (await page.locator(`${sel} tbody tr`).first().textContent()) ?? "";

describe("config-finder widget", () => {
  it("loads lazily and the page logs no errors", async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = watchPage(page, site.server.url);
    await page.goto(`${site.server.url}/five-d-parallelism/`);
    await settle(page);
    assert.ok(!site.server.requests.some((r) => r.endsWith("/widgets/config-finder.js")), "loaded before scrolling");
    await openWidget(page);
    assert.ok(site.server.requests.some((r) => r.endsWith("/widgets/config-finder.js")));
    await shoot(page, `${shots}/config-finder-desktop.png`);
    assert.deepEqual(problems, { consoleErrors: [], pageErrors: [], offOrigin: [], failed: [] });
    await context.close();
  });

  it("reruns the search with the model's numbers when controls change", async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await openWidget(page);
    assert.match(await readout(page), /Fastest under this model: DP 64 · TP 1 · PP 1 · CP 4 · ZeRO-3 · b 1 · m 8/);
    assert.match(await readout(page), /18\.24 s/);
    const expected = searchConfigurations({
      config: findModelPreset("llama-3.1-8b")!.config,
      gpu: findGpu("a100-sxm-80gb")!,
      gpuCount: 64,
      seqLength: 4096,
      globalBatchSequences: 256,
    });
    const top = expected.ranked[0];
    await page.selectOption(`${sel} select[name=model]`, "llama-3.1-8b");
    await page.selectOption(`${sel} select[name=gpu]`, "a100-sxm-80gb");
    await page.fill(`${sel} input[name=gpuCount]`, "64");
    await page.fill(`${sel} input[name=seqLength]`, "4096");
    await page.fill(`${sel} input[name=globalBatch]`, "256");
    await page.waitForFunction(
      (s) => document.querySelector(`${s} .config-finder-readout`)?.textContent?.includes("1,048,576 tokens"),
      sel,
    );
    const row = await firstRow(page);
    assert.ok(
      row.startsWith(
        `1${top.dp}${top.tp}${top.pp}${top.cp}${top.ep}${top.zeroStage}${top.microBatchSize}${top.microbatches}${top.recompute}`,
      ),
      row,
    );
    assert.match(
      await readout(page),
      new RegExp(`${expected.configsTried.toLocaleString("en-US")} configurations tried`),
    );
    await context.close();
  });

  it("marks hostile input invalid and keeps the last result", async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await openWidget(page);
    const before = await readout(page);
    for (const [name, value] of [
      ["gpuCount", "-8"],
      ["gpuCount", "0"],
      ["gpuCount", "1e40"],
      ["seqLength", "abc"],
      ["globalBatch", ""],
      ["gpuCount", "2.5"],
    ]) {
      const input = page.locator(`${sel} input[name=${name}]`);
      await input.fill(value);
      await page.waitForFunction(
        ([s, n]) => document.querySelector(`${s} input[name=${n}]`)?.getAttribute("aria-invalid") === "true",
        [sel, name],
      );
      const message = await page.locator(`#${await input.getAttribute("aria-describedby")}`).textContent();
      assert.ok(message && message.length > 5, `message for ${name}=${value}`);
      assert.equal(await readout(page), before);
      const svg = (await page.locator(`${sel} svg`).textContent()) ?? "";
      assert.doesNotMatch(svg + before, /NaN|Infinity|undefined/);
      await input.fill(name === "gpuCount" ? "256" : name === "seqLength" ? "8192" : "512");
      await page.waitForFunction(
        ([s, n]) => document.querySelector(`${s} input[name=${n}]`)?.getAttribute("aria-invalid") === null,
        [sel, name],
      );
    }
    // A GPU count with nothing that fits explains why instead of drawing bars.
    await page.fill(`${sel} input[name=gpuCount]`, "1");
    await page.waitForFunction(
      (s) => document.querySelector(`${s} .config-finder-readout`)?.textContent?.startsWith("Nothing fits"),
      sel,
    );
    await context.close();
  });

  it("fits a phone and dark mode", async () => {
    const phone = await site.browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
    const page = await phone.newPage();
    await openWidget(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `page overflows by ${overflow}px`);
    await shoot(page, `${shots}/config-finder-phone.png`);
    await phone.close();
    const dark = await site.browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: "dark" });
    const darkPage = await dark.newPage();
    await openWidget(darkPage);
    await shoot(darkPage, `${shots}/config-finder-dark.png`);
    await dark.close();
  });
});
