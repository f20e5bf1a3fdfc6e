/**
 * The roofline and coalescing widgets in Chromium on the built GPU-kernels chapter: both load
 * when scrolled near and the page stays clean; the coalescing widget's controls redraw with the
 * model's numbers, hostile input marks the field invalid and keeps the last drawing, and it works
 * from the keyboard. The roofline's Plotly chart has its own file, roofline.test.ts.
 * Screenshots (desktop, phone, dark) go to test-output/screenshots/.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { watchPage, settle } from "../../harness/chromium.ts";
import { keepScreenshot } from "../helpers/screenshots.ts";
import { useSiteAndBrowser } from "../../harness/site-and-browser.ts";
import { memoryTransactions } from "../../src/model/index.ts";

const shots = "test-output/screenshots";
const site = useSiteAndBrowser();

async function openWidget(page: Page, name: string, control: string): Promise<void> {
  if (!page.url().endsWith("/gpu-kernels/")) await page.goto(`${site.server.url}/gpu-kernels/`);
  await page.locator(`[data-widget="${name}"]`).evaluate((el) => el.scrollIntoView({ block: "start" }));
  await page.waitForFunction(
    ([n, c]) => {
      const el = document.querySelector<HTMLInputElement>(`[data-widget="${n}"] [name=${c}]`);
      return el !== null && !el.disabled;
    },
    [name, control] as const,
  );
}

async function shoot(page: Page, name: string, path: string): Promise<void> {
  const widget = page.locator(`[data-widget="${name}"]`);
  await widget.evaluate((el) => el.scrollIntoView({ block: "start", behavior: "instant" }));
  const box = await widget.boundingBox();
  assert.ok(box);
  const viewport = page.viewportSize()!;
  const clip = {
    x: Math.max(0, box.x),
    y: Math.max(0, box.y),
    width: Math.min(box.width, viewport.width),
    height: Math.min(box.height, viewport.height - Math.max(0, box.y)),
  };
  await keepScreenshot(page, path, { clip, timeout: 10_000 });
}

describe("GPU-kernels chapter widgets", () => {
  it("load lazily and the page logs no errors", async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = watchPage(page, site.server.url);
    await page.goto(`${site.server.url}/gpu-kernels/`);
    await settle(page);
    assert.ok(
      !site.server.requests.some((r) => r.endsWith("/widgets/roofline.js")),
      "roofline script loaded before scrolling",
    );
    await openWidget(page, "roofline", "tokens");
    await openWidget(page, "coalescing", "stride");
    assert.ok(site.server.requests.some((r) => r.endsWith("/widgets/roofline.js")));
    assert.ok(site.server.requests.some((r) => r.endsWith("/widgets/coalescing.js")));
    assert.deepEqual(problems, { consoleErrors: [], pageErrors: [], offOrigin: [], failed: [] });
    await context.close();
  });

  it("hostile input marks fields invalid with a message and keeps the last drawing", async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = watchPage(page, site.server.url);
    // The roofline's own checks (Plotly chart, bad input, themes) are in tests/browser/roofline.test.ts.
    for (const [name, fields, good] of [["coalescing", ["stride", "offset"], { stride: "1", offset: "0" }]] as const) {
      await openWidget(page, name, fields[0]);
      const svg = page.locator(`[data-widget="${name}"] svg`).first();
      for (const field of fields) {
        const before = await svg.innerHTML();
        for (const value of ["-5", "0", "1e40", "text", ""]) {
          if (field === "offset" && value === "0") continue; // offset 0 is valid
          const input = page.locator(`[data-widget="${name}"] input[name=${field}]`);
          await input.fill(value);
          assert.equal(await input.getAttribute("aria-invalid"), "true", `${name}.${field} = "${value}"`);
          const id = ((await input.getAttribute("aria-describedby")) ?? "").split(" ")[0];
          const message = page.locator(`[id="${id}"]`);
          assert.equal(await message.getAttribute("role"), "alert");
          assert.ok(((await message.textContent()) ?? "").length > 0);
          assert.equal(await svg.innerHTML(), before, "the drawing keeps the last valid state");
          assert.ok(!/NaN|undefined|Infinity/.test(await page.locator(`[data-widget="${name}"]`).innerHTML()));
        }
        await page
          .locator(`[data-widget="${name}"] input[name=${field}]`)
          .fill((good as Record<string, string>)[field]!);
        assert.equal(
          await page.locator(`[data-widget="${name}"] input[name=${field}]`).getAttribute("aria-invalid"),
          null,
        );
      }
    }
    assert.deepEqual(problems.pageErrors, []);
    assert.deepEqual(problems.consoleErrors, []);
    await context.close();
  });

  it("coalescing: keyboard edits redraw the sectors from the model", async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await openWidget(page, "coalescing", "stride");
    await page.focus('[data-widget="coalescing"] input[name=stride]');
    await page.keyboard.press("Control+A");
    await page.keyboard.type("8");
    const a = memoryTransactions(8);
    await page.waitForFunction(
      (n) =>
        document
          .querySelector('[data-widget="coalescing"] .coalescing-readout')
          ?.textContent?.includes(`touches ${n} sectors`),
      a.sectors,
    );
    assert.match(
      (await page.locator('[data-widget="coalescing"] [aria-live]').textContent()) ?? "",
      /1,024 bytes moved, 12\.5% of them used/,
    );
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => (document.activeElement as HTMLSelectElement | null)?.name), "elementBytes");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Control+A");
    await page.keyboard.type("1");
    const b = memoryTransactions(8, 4, 1);
    await page.waitForFunction(
      (n) =>
        document
          .querySelector('[data-widget="coalescing"] .coalescing-readout')
          ?.textContent?.includes(`offset 1: the warp asks for 128 bytes and touches ${n} sectors`),
      b.sectors,
    );
    await shoot(page, "coalescing", `${shots}/coalescing-desktop.png`);
    await context.close();
  });

  it("renders on a phone without sideways scrolling, and in dark mode", async () => {
    const phone = await site.browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
    const page = await phone.newPage();
    await openWidget(page, "coalescing", "stride");
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    assert.ok(overflow <= 0, `the phone layout scrolls sideways by ${overflow}px`);
    await shoot(page, "coalescing", `${shots}/coalescing-phone.png`);
    await phone.close();
    const dark = await site.browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: "dark" });
    const darkPage = await dark.newPage();
    await openWidget(darkPage, "coalescing", "stride");
    await shoot(darkPage, "coalescing", `${shots}/coalescing-dark.png`);
    await dark.close();
  });
});
