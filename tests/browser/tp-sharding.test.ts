/**
 * The tp-sharding widget in Chromium: it mounts when scrolled near, redraws from the controls,
 * prints the numbers the model gives (recomputed here from the preset configs in src/data), rejects
 * hostile input next to the field while keeping the last drawing, and looks right on desktop,
 * phone and in dark mode (screenshots in test-output/screenshots/).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { findModelPreset } from "../../src/data/models.ts";
import { watchPage } from "../../harness/chromium.ts";
import { keepScreenshot } from "../helpers/screenshots.ts";
import { useSiteAndBrowser } from "../../harness/site-and-browser.ts";

const site = useSiteAndBrowser();
const shots = "test-output/screenshots";

async function openWidget(page: Page): Promise<void> {
  await page.goto(`${site.server.url}/tensor-parallelism/`);
  const widget = page.locator('[data-widget="tp-sharding"]');
  await widget.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => {
    const input = document.querySelector<HTMLInputElement>('[data-widget="tp-sharding"] input[name=tp]');
    return input !== null && !input.disabled;
  });
}

/** Screenshot of the widget's box (a clip, so a page still settling does not block it). */
async function shoot(page: Page, path: string): Promise<void> {
  const widget = page.locator('[data-widget="tp-sharding"]');
  await widget.evaluate((el) => el.scrollIntoView({ block: "start" }));
  const box = await widget.boundingBox();
  assert.ok(box, "the widget has a box");
  await keepScreenshot(page, path, { clip: box, timeout: 10_000 });
}

const readout = (page: Page) => page.locator('[data-widget="tp-sharding"] .tp-sharding-readout').innerText();
/** Waits until the readout matches (the redraw follows the input event; this guards against a slow frame). */
async function waitForReadout(page: Page, pattern: RegExp): Promise<string> {
  await page.waitForFunction(
    ([source, flags]) =>
      new RegExp(source, flags).test(
        document.querySelector('[data-widget="tp-sharding"] .tp-sharding-readout')?.textContent ?? "",
      ),
    [pattern.source, pattern.flags] as const,
    { timeout: 5000 },
  );
  return readout(page);
}
const svgDesc = (page: Page) => page.locator('[data-widget="tp-sharding"] svg desc').textContent();

/** Once the widget has drawn the last edit: it redraws after the edit has painted (runtime/after-paint.ts). */
const drawn = (page: Page) =>
  page.waitForFunction(() => document.querySelector('[data-widget="tp-sharding"][data-widget-busy]') === null);

test("default state prints the model's head split and TP traffic for Llama 3.1 70B, t = 8", async () => {
  const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = watchPage(page, site.server.url);
  await openWidget(page);
  const cfg = findModelPreset("llama-3.1-70b")!.config as Record<string, number>;
  const heads = cfg.num_attention_heads;
  const kv = cfg.num_key_value_heads;
  const h = cfg.hidden_size;
  const text = await readout(page);
  assert.match(text, new RegExp(`Each GPU holds ${heads / 8} of ${heads} query heads and ${kv / 8} of ${kv} KV heads`));
  const elements = (8 * 1 * 8192 * h * 7) / 8;
  assert.ok(text.includes(`${elements.toLocaleString("en-US")} elements`), text);
  await shoot(page, `${shots}/tp-sharding-desktop.png`);
  assert.deepEqual(problems.pageErrors, []);
  assert.deepEqual(problems.consoleErrors, []);
  assert.deepEqual(problems.offOrigin, []);
  await context.close();
});

test("t = 16 replicates the 8 KV heads; SP off turns the boundaries into f and g", async () => {
  const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await openWidget(page);
  await page.fill('[data-widget="tp-sharding"] input[name=tp]', "16");
  assert.match(await waitForReadout(page, /t = 16/), /replicated on up to 2 GPUs/);
  await page.locator('[data-widget="tp-sharding"] input[name=sp]').uncheck();
  await drawn(page);
  const labels = await page.locator('[data-widget="tp-sharding"] .tps-comm-text').allTextContents();
  assert.equal(labels.length, 4);
  assert.match(labels[0], /^f: forward nothing, backward all-reduce/);
  assert.match(labels[1], /^g: forward all-reduce, backward nothing/);
  await context.close();
});

test("Qwen2.5-7B at t = 8 is rejected next to the field and the drawing keeps its last valid state", async () => {
  const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await openWidget(page);
  await page.fill('[data-widget="tp-sharding"] input[name=tp]', "4");
  await page.selectOption('[data-widget="tp-sharding"] select[name=model]', "qwen2.5-7b");
  await drawn(page);
  const before = await svgDesc(page);
  assert.match(before ?? "", /Qwen2\.5 7B, t = 4/);
  await page.fill('[data-widget="tp-sharding"] input[name=tp]', "8");
  const tp = page.locator('[data-widget="tp-sharding"] input[name=tp]');
  assert.equal(await tp.getAttribute("aria-invalid"), "true");
  assert.equal(
    await page.locator("#" + (await tp.getAttribute("aria-describedby"))).innerText(),
    "28 query heads do not split 8 ways.",
  );
  assert.equal(await svgDesc(page), before);
  await context.close();
});

test("hostile input never reaches the drawing: negative, 0, 1e40, text, empty, huge", async () => {
  const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = watchPage(page, site.server.url);
  await openWidget(page);
  const before = await svgDesc(page);
  for (const name of ["tp", "seq", "microBatch"]) {
    const input = page.locator(`[data-widget="tp-sharding"] input[name=${name}]`);
    for (const bad of ["-3", "0", "1e40", "eight", "", "99999999999999999999", "4.5"]) {
      await input.fill(bad);
      assert.equal(await input.getAttribute("aria-invalid"), "true", `${name} = ${JSON.stringify(bad)}`);
      const message = await page.locator("#" + (await input.getAttribute("aria-describedby"))).innerText();
      assert.ok(message.length > 0, `message for ${name} = ${JSON.stringify(bad)}`);
      assert.equal(await svgDesc(page), before);
    }
    await input.fill(name === "tp" ? "8" : name === "seq" ? "8192" : "1");
    assert.equal(await input.getAttribute("aria-invalid"), null);
  }
  const all = await page.locator('[data-widget="tp-sharding"]').innerText();
  assert.doesNotMatch(all, /NaN|Infinity|undefined/);
  assert.deepEqual(problems.pageErrors, []);
  await context.close();
});

test("phone and dark screenshots", async () => {
  for (const [name, options] of [
    ["tp-sharding-phone", { viewport: { width: 390, height: 844 } }],
    ["tp-sharding-dark", { viewport: { width: 1280, height: 900 }, colorScheme: "dark" as const }],
  ] as const) {
    const context = await site.browser.newContext(options);
    const page = await context.newPage();
    await openWidget(page);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= options.viewport.width, `${name}: page scrolls sideways (${width}px)`);
    await shoot(page, `${shots}/${name}.png`);
    await context.close();
  }
});
