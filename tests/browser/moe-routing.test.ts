/**
 * The moe-routing widget in Chromium on the built expert-parallelism chapter: it loads when
 * scrolled near, its controls redraw with the model's numbers, hostile input marks the field
 * invalid and keeps the last drawing, and the page stays clean. Screenshots (desktop, phone,
 * dark) go to test-output/screenshots/ for a human to look at.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { keepScreenshot } from "../helpers/screenshots.ts";
import { widgetIdle } from "../helpers/widget-idle.ts";
import type { Page } from "playwright-core";
import { watchPage, settle } from "../../harness/chromium.ts";
import { useSiteAndBrowser } from "../../harness/site-and-browser.ts";

const shots = "test-output/screenshots";
const sel = '[data-widget="moe-routing"]';
const site = useSiteAndBrowser();

async function openWidget(page: Page): Promise<void> {
  await page.goto(`${site.server.url}/expert-parallelism/`);
  await page.locator(sel).scrollIntoViewIfNeeded();
  await page.waitForFunction((s) => document.querySelector(`${s} input[name=tokens]`) !== null, sel);
}

// The widget redraws after an edit has painted: read it once the redraw has run.
const summary = async (page: Page) => {
  await widgetIdle(page, sel);
  return page.locator(`${sel} p.widget-summary`).textContent();
};
const svgText = async (page: Page) => {
  await widgetIdle(page, sel);
  return page.locator(`${sel} svg`).textContent();
};

describe("moe-routing widget", () => {
  it("shows the model's default state without JavaScript", async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${site.server.url}/expert-parallelism/`);
    const text = (await page.locator(sel).textContent()) ?? "";
    assert.match(text, /Dropped 125 of 1,024 assignments \(12\.2%\)/);
    assert.match(text, /capacity 80/);
    await context.close();
  });

  it("loads its script only when scrolled near, and the page logs no errors", async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = watchPage(page, site.server.url);
    await page.goto(`${site.server.url}/expert-parallelism/`);
    await settle(page);
    assert.ok(
      !site.server.requests.some((r) => r.endsWith("/widgets/moe-routing.js")),
      "widget script loaded before scrolling",
    );
    await openWidget(page);
    assert.ok(site.server.requests.some((r) => r.endsWith("/widgets/moe-routing.js")));
    assert.deepEqual(problems, { consoleErrors: [], pageErrors: [], offOrigin: [], failed: [] });
    await context.close();
  });

  it("redraws with the model's numbers when the controls change", async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await openWidget(page);
    assert.match((await summary(page)) ?? "", /Dropped 125 of 1,024 assignments \(12\.2%\)/);
    // skew 0: the chapter says the drops vanish at the same capacity factor
    await page.locator(`${sel} input[name=skew]`).fill("0");
    await page.waitForFunction(
      (s) => document.querySelector(`${s} p.widget-summary`)?.textContent?.includes("Dropped 0 of 1,024"),
      sel,
    );
    // the numbers of tests/model/moe-routing.test.ts: skew 1, c = 1, 16 experts on 4 GPUs
    await page.locator(`${sel} input[name=skew]`).fill("1");
    await page.fill(`${sel} input[name=capacityFactor]`, "1");
    await page.waitForFunction(
      (s) => document.querySelector(`${s} p.widget-summary`)?.textContent?.includes("Dropped 379 of 1,024"),
      sel,
    );
    assert.match((await svgText(page)) ?? "", /capacity 64/);
    // dropless: GPU 0 carries 635 of 1,024
    await page.check(`${sel} input[type=checkbox]`);
    await page.waitForFunction(
      (s) => document.querySelector(`${s} p.widget-summary`)?.textContent?.includes("No capacity limit"),
      sel,
    );
    assert.match((await summary(page)) ?? "", /GPU 0 with 635 assignments, 2\.48× the mean/);
    assert.ok(await page.locator(`${sel} input[name=capacityFactor]`).isDisabled());
    await page.uncheck(`${sel} input[type=checkbox]`);
    await page.selectOption(`${sel} select[name=experts]`, "64");
    await page.selectOption(`${sel} select[name=gpus]`, "8");
    await page.fill(`${sel} input[name=topK]`, "8");
    await page.waitForFunction(
      (s) => document.querySelector(`${s} p.widget-summary`)?.textContent?.includes("top-8 of 64 experts on 8 GPUs"),
      sel,
    );
    assert.ok(!/NaN|undefined|Infinity/.test((await page.locator(sel).innerHTML()) ?? ""));
    await context.close();
  });

  it("marks hostile input invalid, says why, and keeps the last drawing", async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = watchPage(page, site.server.url);
    await openWidget(page);
    const before = await svgText(page);
    for (const [name, value] of [
      ["tokens", "-5"],
      ["tokens", "0"],
      ["tokens", "1e40"],
      ["tokens", "many"],
      ["tokens", ""],
      ["tokens", "513"],
      ["topK", "0"],
      ["topK", "9"],
      ["capacityFactor", "0"],
      ["capacityFactor", "1e40"],
      ["capacityFactor", "lots"],
      ["seed", "-1"],
      ["seed", "1.5"],
    ] as const) {
      const input = page.locator(`${sel} input[name=${name}]`);
      await input.fill(value);
      assert.equal(await input.getAttribute("aria-invalid"), "true", `${name}=${JSON.stringify(value)}`);
      const message = page.locator(`${sel} #${await input.getAttribute("aria-describedby")}`);
      assert.equal(await message.getAttribute("role"), "alert");
      assert.ok(((await message.textContent()) ?? "").length > 10, `${name} has a message`);
      assert.equal(await svgText(page), before, `${name}=${value} keeps the last chart`);
      await input.fill(name === "tokens" ? "512" : name === "topK" ? "2" : name === "capacityFactor" ? "1.25" : "7");
      assert.equal(await input.getAttribute("aria-invalid"), null);
    }
    assert.ok(!/NaN|undefined|Infinity/.test((await page.locator(sel).innerHTML()) ?? ""));
    assert.deepEqual(problems.pageErrors, []);
    await context.close();
  });

  it("is operable from the keyboard and has a polite live summary", async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await openWidget(page);
    await page.focus(`${sel} input[name=skew]`);
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction(
      (s) => document.querySelector(`${s} p[aria-live=polite]`)?.textContent?.includes("skew 0.55"),
      sel,
    );
    await page.focus(`${sel} select[name=gpus]`);
    await page.keyboard.press("ArrowDown");
    await page.waitForFunction(
      (s) => document.querySelector(`${s} p[aria-live=polite]`)?.textContent?.includes("on 8 GPUs"),
      sel,
    );
    await context.close();
  });

  it("takes screenshots: desktop, phone, dark", async () => {
    for (const [name, options] of [
      ["desktop", { viewport: { width: 1280, height: 900 } }],
      ["phone", { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 }],
      ["dark", { viewport: { width: 1280, height: 900 }, colorScheme: "dark" as const }],
    ] as const) {
      const context = await site.browser.newContext(options);
      const page = await context.newPage();
      await openWidget(page);
      await keepScreenshot(page.locator(sel), `${shots}/moe-routing-${name}.png`);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      assert.ok(overflow <= 0, `${name}: page scrolls sideways by ${overflow}px`);
      await context.close();
    }
  });
});
