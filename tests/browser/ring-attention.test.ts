/**
 * The ring-attention widget in Chromium: it mounts when scrolled near, steps through the ring,
 * prints the tile counts of the model (closed forms: 4c−2 against 2c for contiguous causal
 * sharding, 2c for zig-zag), rejects hostile GPU counts next to the field while keeping the last
 * drawing, and looks right on desktop, phone and in dark mode (screenshots in test-output/screenshots/).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { watchPage } from "../../harness/chromium.ts";
import { keepScreenshot } from "../helpers/screenshots.ts";
import { widgetIdle } from "../helpers/widget-idle.ts";
import { useSiteAndBrowser } from "../../harness/site-and-browser.ts";
import { formatPercent } from "../../src/figures/kit/format.ts";

const site = useSiteAndBrowser();
const shots = "test-output/screenshots";
const W = '[data-widget="ring-attention"]';

async function openWidget(page: Page): Promise<void> {
  await page.goto(`${site.server.url}/context-parallelism/`);
  await page.locator(W).scrollIntoViewIfNeeded();
  await page.waitForFunction((sel) => {
    const input = document.querySelector<HTMLInputElement>(`${sel} input[name=gpus]`);
    return input !== null && !input.disabled;
  }, W);
}

async function shoot(page: Page, path: string): Promise<void> {
  await widgetIdle(page, W);
  const widget = page.locator(W);
  await widget.evaluate((el) => el.scrollIntoView({ block: "start" }));
  const box = await widget.boundingBox();
  assert.ok(box, "the widget has a box");
  await keepScreenshot(page, path, { clip: box, timeout: 10_000 });
}

// The widget redraws after an edit has painted: read it once the redraw has run.
const readout = async (page: Page) => {
  await widgetIdle(page, W);
  return page.locator(`${W} .ring-attention-readout`).innerText();
};
const svgDesc = async (page: Page) => {
  await widgetIdle(page, W);
  return page.locator(`${W} svg desc`).textContent();
};
const pct = (x: number) => formatPercent(x);

test("default: 4 GPUs, contiguous, causal: critical path 4c−2 = 14 tiles against 2c = 8", async () => {
  const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = watchPage(page, site.server.url);
  await openWidget(page);
  const c = 4;
  assert.ok(
    (await readout(page)).includes(
      `Critical path ${4 * c - 2} tiles against ${2 * c} for a balanced ring (${pct((2 * c) / (4 * c - 2))} efficient)`,
    ),
  );
  // GPU i does 4i + 2 tiles in total.
  assert.ok((await readout(page)).includes("GPU 0 2, GPU 1 6, GPU 2 10, GPU 3 14"));
  await shoot(page, `${shots}/ring-attention-desktop.png`);
  assert.deepEqual(problems.pageErrors, []);
  assert.deepEqual(problems.consoleErrors, []);
  assert.deepEqual(problems.offOrigin, []);
  await context.close();
});

test("stepping: Next shows step 0, then step 1 where GPU i holds the K/V of GPU i−1", async () => {
  const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await openWidget(page);
  await page.click(`${W} button[name=next]`);
  assert.match(await readout(page), /Step 0 of 3: GPU 0 holds K\/V of GPU 0 and computes 2 tiles/);
  await page.click(`${W} button[name=next]`);
  const text = await readout(page);
  assert.match(
    text,
    /Step 1 of 3: GPU 0 holds K\/V of GPU 3 and computes 0 tiles; GPU 1 holds K\/V of GPU 0 and computes 4 tiles/,
  );
  assert.match(text, /This step lasts 4 tiles/);
  assert.equal(await page.locator(`${W} input[name=step]`).inputValue(), "1");
  await page.keyboard.press("Tab");
  await context.close();
});

test("zig-zag balances every step; 8 GPUs contiguous is c/(2c−1) efficient", async () => {
  const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await openWidget(page);
  await page.selectOption(`${W} select[name=sharding]`, "zigzag");
  assert.ok((await readout(page)).includes("Critical path 8 tiles against 8 for a balanced ring (100% efficient)"));
  await page.fill(`${W} input[name=gpus]`, "8");
  await page.selectOption(`${W} select[name=sharding]`, "contiguous");
  assert.ok(
    (await readout(page)).includes(`Critical path 30 tiles against 16 for a balanced ring (${pct(8 / 15)} efficient)`),
  );
  await page.locator(`${W} input[name=causal]`).uncheck();
  assert.ok((await readout(page)).includes("Critical path 32 tiles against 32 for a balanced ring (100% efficient)"));
  await context.close();
});

test("hostile GPU counts are rejected next to the field and the drawing keeps its last valid state", async () => {
  const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = watchPage(page, site.server.url);
  await openWidget(page);
  const input = page.locator(`${W} input[name=gpus]`);
  const before = await svgDesc(page);
  for (const bad of ["-3", "0", "1e40", "four", "", "17", "2.5", "99999999999999999999"]) {
    await input.fill(bad);
    assert.equal(await input.getAttribute("aria-invalid"), "true", JSON.stringify(bad));
    assert.ok((await page.locator("#" + (await input.getAttribute("aria-describedby"))).innerText()).length > 0);
    assert.equal(await svgDesc(page), before);
  }
  // Each message says what is wrong: -4 is a whole number, but not a positive one.
  const message = async (value: string) => {
    await input.fill(value);
    return page.locator("#" + (await input.getAttribute("aria-describedby"))).innerText();
  };
  assert.equal(await message("-4"), "The number of GPUs must be positive: choose from 1 to 16.");
  assert.equal(await message("0"), "The number of GPUs must be positive: choose from 1 to 16.");
  assert.match(await message("2.5"), /must be a whole number/);
  await input.fill("6");
  assert.equal(await input.getAttribute("aria-invalid"), null);
  assert.doesNotMatch(await page.locator(W).innerText(), /NaN|Infinity|undefined/);
  assert.deepEqual(problems.pageErrors, []);
  await context.close();
});

test("reduced motion hides Play; phone and dark screenshots", async () => {
  const reduced = await site.browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: "reduce" });
  const rp = await reduced.newPage();
  await openWidget(rp);
  assert.equal(await rp.locator(`${W} button[name=play]`).isHidden(), true);
  await reduced.close();
  for (const [name, options] of [
    ["ring-attention-phone", { viewport: { width: 390, height: 844 } }],
    ["ring-attention-dark", { viewport: { width: 1280, height: 900 }, colorScheme: "dark" as const }],
  ] as const) {
    const context = await site.browser.newContext(options);
    const page = await context.newPage();
    await openWidget(page);
    await page.fill(`${W} input[name=gpus]`, "8");
    await page.selectOption(`${W} select[name=sharding]`, "zigzag");
    await page.click(`${W} button[name=next]`);
    await page.click(`${W} button[name=next]`);
    await widgetIdle(page, W);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= options.viewport.width, `${name}: page scrolls sideways (${width}px)`);
    await shoot(page, `${shots}/${name}.png`);
    await context.close();
  }
});
