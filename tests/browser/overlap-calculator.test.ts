/**
 * The overlap-calculator widget in Chromium on the built overlap appendix: lazy loading, every
 * row against the engine's transfers (computeOverlap over evaluateScenario), the framework select,
 * hostile input and impossible layouts (field marked invalid with one sentence, table kept,
 * dimmed), a clean console, no sideways scrolling on a phone. Screenshots go to test-output/screenshots/.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { keepScreenshot } from "../helpers/screenshots.ts";
import type { Page } from "playwright-core";
import { watchPage, settle } from "../../harness/chromium.ts";
import { useSiteAndBrowser } from "../../harness/site-and-browser.ts";
import {
  computeOverlap,
  defaultOverlapSettings,
  formatRatio,
  rowVerdict,
} from "../../src/figures/overlap-calculator-state.ts";
import { formatSeconds } from "../../src/figures/kit/format.ts";

const shots = "test-output/screenshots";
const w = '[data-widget="overlap-calculator"]';
const site = useSiteAndBrowser();

async function open(page: Page): Promise<void> {
  await page.goto(`${site.server.url}/overlap-math/`);
  await page.locator(w).scrollIntoViewIfNeeded();
  await page.waitForFunction((sel) => !document.querySelector<HTMLInputElement>(`${sel} input[name=tp]`)?.disabled, w);
}
const row = (page: Page, i: number) => page.locator(`${w} .ovl-table tbody tr`).nth(i).locator("td").allTextContents();

describe("overlap-calculator widget", () => {
  it("loads lazily and shows the model's numbers as the controls change", async () => {
    const page = await site.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems = watchPage(page, site.server.url);
    await page.goto(`${site.server.url}/overlap-math/`);
    await settle(page);
    assert.ok(
      !site.server.requests.some((r) => r.endsWith("/widgets/overlap-calculator.js")),
      "loaded before scrolling",
    );
    await open(page);
    await page.fill(`${w} input[name=tp]`, "8");
    await page.fill(`${w} input[name=dp]`, "8");
    await page.fill(`${w} input[name=seqLength]`, "8192");
    await page.selectOption(`${w} select[name=model]`, "llama-3.1-70b");
    const r = computeOverlap({ ...defaultOverlapSettings, model: "llama-3.1-70b", tp: 8, dp: 8, seqLength: 8192 });
    assert.ok(r.ok);
    const time = (x: number) => formatSeconds(x).replace(" ", "\u00a0");
    const expected = r.rows.map((x) => [
      x.label,
      time(x.commSeconds),
      x.windowSeconds > 0 ? time(x.windowSeconds) : "none",
      x.ratio === null ? "–" : formatRatio(x.ratio),
      time(x.exposedSeconds),
      rowVerdict(x),
    ]);
    await page.waitForFunction(([sel, n]) => document.querySelectorAll(`${sel} .ovl-table tbody tr`).length === n, [
      w,
      expected.length,
    ] as const);
    for (const [i, cells] of expected.entries()) {
      assert.equal(await page.locator(`${w} .ovl-table tbody tr`).nth(i).locator("th").textContent(), cells[0]);
      assert.deepEqual(await row(page, i), cells.slice(1));
    }
    // Megatron-LM does not run ZeRO-3: the message sits at the ZeRO select and the table stays.
    const before = await page.locator(`${w} .ovl-table tbody`).innerHTML();
    await page.selectOption(`${w} select[name=framework]`, "megatron");
    assert.equal(await page.getAttribute(`${w} select[name=zeroStage]`, "aria-invalid"), "true");
    assert.match(
      (await page
        .locator(`#${await page.getAttribute(`${w} select[name=zeroStage]`, "aria-describedby")}`)
        .textContent())!,
      /does not run ZeRO stage 3/,
    );
    assert.equal(await page.locator(`${w} .ovl-table tbody`).innerHTML(), before);
    assert.ok(await page.locator(`${w} .ovl-output.widget-stale`).count());
    await page.selectOption(`${w} select[name=zeroStage]`, "1");
    assert.equal(await page.getAttribute(`${w} select[name=zeroStage]`, "aria-invalid"), null);
    assert.equal(await page.locator(`${w} .ovl-output.widget-stale`).count(), 0);
    assert.deepEqual(problems, { consoleErrors: [], pageErrors: [], offOrigin: [], failed: [] });
    await page.close();
  });

  it("hostile input marks the field and keeps the table", async () => {
    const page = await site.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await open(page);
    const before = await page.locator(`${w} .ovl-table tbody`).innerHTML();
    for (const bad of ["-1", "0", "1e40", "abc", "", "2.5"]) {
      await page.fill(`${w} input[name=dp]`, bad);
      assert.equal(await page.getAttribute(`${w} input[name=dp]`, "aria-invalid"), "true", bad);
      assert.equal(await page.locator(`${w} .ovl-table tbody`).innerHTML(), before, bad);
    }
    await page.fill(`${w} input[name=dp]`, "64");
    await page.fill(`${w} input[name=tp]`, "5");
    assert.equal(await page.getAttribute(`${w} input[name=tp]`, "aria-invalid"), "true");
    assert.match(
      (await page.locator(`#${await page.getAttribute(`${w} input[name=tp]`, "aria-describedby")}`).textContent())!,
      /divide/,
    );
    assert.doesNotMatch(await page.locator(w).innerText(), /NaN|undefined|Infinity/);
    await page.close();
  });

  it("screenshots: desktop and phone (dark), no sideways scrolling", async () => {
    for (const [name, width, scheme] of [
      ["desktop", 1280, "light"],
      ["phone-dark", 390, "dark"],
    ] as const) {
      const page = await site.browser.newPage({ viewport: { width, height: 900 }, colorScheme: scheme });
      await open(page);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px`);
      await keepScreenshot(page.locator(w), `${shots}/overlap-calculator-${name}.png`);
      await page.close();
    }
  });
});
