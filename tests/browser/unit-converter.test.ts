/**
 * The unit-converter widget (CONTRIBUTING.md's example to copy) in Chromium on the built preface:
 * it loads only when scrolled near, the static table is the default's, typing an amount or picking
 * a unit refills the table with src/figures/unit-converter.ts's numbers and updates the live
 * sentence, bad input marks the field with a message and keeps the last table, and the controls
 * work from the keyboard. A screenshot (desktop) goes to test-output/screenshots/.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { watchPage, settle } from "../../harness/chromium.ts";
import { useSiteAndBrowser } from "../../harness/site-and-browser.ts";
import { keepScreenshot } from "../helpers/screenshots.ts";
import { byteUnits, convertBytes, formatAmount, formatBytes, summary } from "../../src/figures/unit-converter.ts";

const shots = "test-output/screenshots";
const w = '[data-widget="unit-converter"]';
const site = useSiteAndBrowser();

/** The table as the widget's own code fills it for an amount. */
function expectedRows(value: number, unit: (typeof byteUnits)[number]): string[][] {
  const rows = convertBytes(value, unit);
  return byteUnits.map((u) => [u, u === "bytes" ? formatBytes(rows[u]) : formatAmount(rows[u])]);
}

const tableRows = (page: Page) =>
  page
    .locator(`${w} table.uc-table tbody tr`)
    .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("th, td")].map((cell) => cell.textContent ?? "")));

async function open(page: Page): Promise<void> {
  await page.goto(`${site.server.url}/preface/`);
  await page.locator(w).scrollIntoViewIfNeeded();
  await page.waitForFunction(
    (sel) => !document.querySelector<HTMLInputElement>(`${sel} input[name=amount]`)?.disabled,
    w,
  );
}

describe("unit-converter widget", () => {
  it("loads lazily, converts what is typed and picked, and logs nothing", async () => {
    const page = await site.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems = watchPage(page, site.server.url);
    await page.goto(`${site.server.url}/preface/`);
    await settle(page);
    assert.ok(!site.server.requests.some((r) => r.endsWith("/widgets/unit-converter.js")), "loaded before scrolling");
    assert.deepEqual(await tableRows(page), expectedRows(80, "GB"), "the static table is the chapter's default");
    await open(page);
    await page.fill(`${w} input[name=amount]`, "1,500");
    assert.deepEqual(await tableRows(page), expectedRows(1500, "GB"));
    await page.selectOption(`${w} select[name=unit]`, "TiB");
    assert.deepEqual(await tableRows(page), expectedRows(1500, "TiB"));
    assert.equal(await page.locator(`${w} tr.uc-current th`).textContent(), "TiB", "the chosen unit's row is marked");
    assert.equal(await page.locator(`${w} [aria-live]`).textContent(), summary(1500, "TiB"));
    assert.deepEqual(problems, { consoleErrors: [], pageErrors: [], offOrigin: [], failed: [] });
    await page.close();
  });

  it("bad input marks the field with a message and keeps the last table", async () => {
    const page = await site.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await open(page);
    await page.fill(`${w} input[name=amount]`, "96");
    const good = await tableRows(page);
    for (const [bad, message] of [
      ["", /Enter an amount/],
      ["eighty", /is not a number/],
      ["-5", /is not a number/],
      ["1e40", /Enter at most/],
    ] as const) {
      await page.fill(`${w} input[name=amount]`, bad);
      const input = page.locator(`${w} input[name=amount]`);
      assert.equal(await input.getAttribute("aria-invalid"), "true", bad);
      const describedBy = await input.getAttribute("aria-describedby");
      assert.match((await page.locator(`#${describedBy}`).textContent())!, message, bad);
      assert.deepEqual(await tableRows(page), good, `"${bad}" keeps the last table`);
    }
    await page.fill(`${w} input[name=amount]`, "2");
    assert.equal(await page.getAttribute(`${w} input[name=amount]`, "aria-invalid"), null, "a good value clears it");
    assert.doesNotMatch(await page.locator(w).innerText(), /NaN|undefined|Infinity/);
    await page.close();
  });

  it("works from the keyboard", async () => {
    const page = await site.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await open(page);
    await page.focus(`${w} input[name=amount]`);
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.type("3");
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("name")), "unit");
    await page.keyboard.press("ArrowDown"); // GB → GiB
    assert.deepEqual(await tableRows(page), expectedRows(3, "GiB"));
    await keepScreenshot(page.locator(w), `${shots}/unit-converter-desktop.png`);
    await page.close();
  });
});
