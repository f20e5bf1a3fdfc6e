/**
 * The collectives widget in Chromium on the built collectives appendix: lazy loading, stepping
 * with buttons and arrow keys against the model's schedule, hostile input (field marked invalid,
 * drawing kept), a clean console. Screenshots (desktop, phone dark) go to test-output/screenshots/.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { keepScreenshot } from "../helpers/screenshots.ts";
import type { Page } from "playwright-core";
import { watchPage, settle } from "../../harness/chromium.ts";
import { useSiteAndBrowser } from "../../harness/site-and-browser.ts";
import { collectiveSteps } from "../../src/model/index.ts";
import { summarizeCollectives } from "../../src/figures/collectives-state.ts";

const shots = "test-output/screenshots";
const w = '[data-widget="collectives"]';
const site = useSiteAndBrowser();

async function open(page: Page): Promise<void> {
  await page.goto(`${site.server.url}/collectives/`);
  await page.locator(w).scrollIntoViewIfNeeded();
  await page.waitForFunction(
    (sel) => !document.querySelector<HTMLInputElement>(`${sel} input[name=ranks]`)?.disabled,
    w,
  );
}
const readout = (page: Page) => page.locator(`${w} .coll-readout`).textContent();

describe("collectives widget", () => {
  it("loads lazily, steps through the ring all-reduce as the model schedules it, and logs nothing", async () => {
    const page = await site.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems = watchPage(page, site.server.url);
    await page.goto(`${site.server.url}/collectives/`);
    await settle(page);
    assert.ok(!site.server.requests.some((r) => r.endsWith("/widgets/collectives.js")), "loaded before scrolling");
    await open(page);
    await page.fill(`${w} input[name=ranks]`, "6");
    const schedule = collectiveSteps({ collective: "all-reduce", ranks: 6, messageBytes: 64e6 });
    for (let step = 2; step <= schedule.steps.length; step++) {
      await page.click(`${w} button[name=next]`);
      assert.equal(
        await readout(page),
        summarizeCollectives({ collective: "all-reduce", ranks: 6, messageMB: 64, step }),
      );
      assert.equal(await page.locator(`${w} .coll-transfers li`).count(), schedule.steps[step - 1]!.transfers.length);
    }
    assert.equal(await page.locator(`${w} button[name=next]`).isDisabled(), true, "next disabled on the last step");
    await page.focus(`${w} button[name=prev]`);
    await page.keyboard.press("ArrowLeft");
    assert.match((await readout(page))!, new RegExp(`Step ${schedule.steps.length - 1} of ${schedule.steps.length}`));
    await page.selectOption(`${w} select[name=collective]`, "all-to-all");
    assert.match((await readout(page))!, /^All-to-all on 6 GPUs, pairwise exchange, 6 steps\. Step 1 of 6/);
    assert.deepEqual(problems, { consoleErrors: [], pageErrors: [], offOrigin: [], failed: [] });
    await page.close();
  });

  it("hostile input marks the field and keeps the last drawing", async () => {
    const page = await site.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await open(page);
    const before = await page.locator(`${w} svg`).innerHTML();
    for (const bad of ["-1", "0", "1e40", "eight", ""]) {
      await page.fill(`${w} input[name=ranks]`, bad);
      assert.equal(await page.getAttribute(`${w} input[name=ranks]`, "aria-invalid"), "true", bad);
      assert.match(
        (await page
          .locator(`#${await page.getAttribute(`${w} input[name=ranks]`, "aria-describedby")}`)
          .textContent())!,
        /from 2 to 16/,
      );
      assert.equal(await page.locator(`${w} svg`).innerHTML(), before, bad);
    }
    await page.fill(`${w} input[name=ranks]`, "4");
    assert.equal(await page.getAttribute(`${w} input[name=ranks]`, "aria-invalid"), null);
    for (const bad of ["-5", "0", "1e40", "lots"]) {
      await page.fill(`${w} input[name=messageMB]`, bad);
      assert.equal(await page.getAttribute(`${w} input[name=messageMB]`, "aria-invalid"), "true", bad);
    }
    assert.doesNotMatch(await page.locator(w).innerText(), /NaN|undefined|Infinity/);
    await page.close();
  });

  it("screenshots: desktop and phone (dark)", async () => {
    for (const [name, width, scheme] of [
      ["desktop", 1280, "light"],
      ["phone-dark", 390, "dark"],
    ] as const) {
      const page = await site.browser.newPage({ viewport: { width, height: 900 }, colorScheme: scheme });
      await open(page);
      await page.click(`${w} button[name=next]`);
      const box = await page.locator(w).boundingBox();
      assert.ok(box);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px`);
      await keepScreenshot(page.locator(w), `${shots}/collectives-${name}.png`);
      await page.close();
    }
  });
});
