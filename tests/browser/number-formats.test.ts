/**
 * The number-formats widget in Chromium on the built mixed-precision chapter: the static drawing is
 * there without JavaScript, the script loads only when scrolled near, typing and dragging redraw with
 * the model's encodings, hostile input marks the field invalid and keeps the last drawing, the phone
 * layout does not scroll sideways. Screenshots (desktop, phone, dark) go to test-output/screenshots/.
 *
 * Expected values are the published format limits (OCP FP8, IEEE 754; facts sheet G) and encodings
 * checked independently in tests/model/number-formats.test.ts.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { keepScreenshot } from "../helpers/screenshots.ts";
import type { Page } from "playwright-core";
import { afterFrames, watchPage, settle } from "../../harness/chromium.ts";
import { useSiteAndBrowser } from "../../harness/site-and-browser.ts";

const shots = "test-output/screenshots";
const sel = '[data-widget="number-formats"]';
const chapter = "/mixed-precision/";
const site = useSiteAndBrowser();

async function openWidget(page: Page): Promise<void> {
  await page.goto(`${site.server.url}${chapter}`);
  await page.locator(sel).scrollIntoViewIfNeeded();
  await page.waitForFunction(
    (s) => document.querySelector<HTMLInputElement>(`${s} input[name=value]`)?.disabled === false,
    sel,
  );
}

/** The stored-value text of one format's row, e.g. "≈ 0.0999756". */
const stored = (page: Page, format: string) =>
  page.locator(`${sel} g.nf-row[data-format="${format}"] text.nf-stored`).textContent();
const detail = (page: Page, format: string) =>
  page.locator(`${sel} g.nf-row[data-format="${format}"] text.nf-detail`).textContent();
const waitStored = (page: Page, format: string, expected: string) =>
  page.waitForFunction(
    ([s, f, e]) => document.querySelector(`${s} g.nf-row[data-format="${f}"] text.nf-stored`)?.textContent === e,
    [sel, format, expected] as const,
  );

describe("number-formats widget", () => {
  it("shows 0.1 in every format without JavaScript", async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${site.server.url}${chapter}`);
    assert.equal(await stored(page, "fp16"), "≈ 0.0999756");
    assert.equal(await stored(page, "bf16"), "≈ 0.1001");
    assert.equal(await stored(page, "fp8-e4m3"), "≈ 0.1016");
    assert.equal(await page.locator(`${sel} g.nf-row`).count(), 6);
    assert.ok(await page.locator(`${sel} input[name=value]`).isDisabled());
    await context.close();
  });

  it("loads its script only when scrolled near, and the page logs no errors", async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = watchPage(page, site.server.url);
    const before = site.server.requests.length;
    await page.goto(`${site.server.url}${chapter}`);
    await settle(page);
    assert.ok(
      !site.server.requests.slice(before).some((r) => r.endsWith("/widgets/number-formats.js")),
      "widget script loaded before scrolling",
    );
    await openWidget(page);
    assert.ok(site.server.requests.some((r) => r.endsWith("/widgets/number-formats.js")));
    assert.deepEqual(problems, { consoleErrors: [], pageErrors: [], offOrigin: [], failed: [] });
    await context.close();
  });

  it("redraws with the model's encodings as the reader types", async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await openWidget(page);
    await page.fill(`${sel} input[name=value]`, "70000");
    await waitStored(page, "bf16", "≈ 70,144");
    assert.equal(await stored(page, "fp16"), "→ +∞");
    assert.equal(await stored(page, "fp8-e4m3"), "→ NaN");
    assert.match((await detail(page, "fp8-e4m3")) ?? "", /overflow → NaN \(no ∞\)/);
    // saturation clamps to the largest finite values: 448 (E4M3), 57,344 (E5M2), 65,504 (fp16)
    await page.check(`${sel} input[name=saturate]`);
    await waitStored(page, "fp8-e4m3", "≈ 448");
    assert.equal(await stored(page, "fp8-e5m2"), "≈ 57,344");
    assert.equal(await stored(page, "fp16"), "≈ 65,504");
    // 1e-5: E4M3 flushes to zero, E5M2 lands on its smallest subnormal 2^-16
    await page.fill(`${sel} input[name=value]`, "1e-5");
    await waitStored(page, "fp8-e4m3", "≈ 0");
    assert.equal(await stored(page, "fp8-e5m2"), "≈ 1.53×10⁻⁵");
    assert.match((await detail(page, "fp16")) ?? "", /subnormal/);
    // the screen-reader summary follows
    assert.match(
      (await page.locator(`${sel} [aria-live]`).textContent()) ?? "",
      /fp8 E4M3 stores 0 with relative error 100%/,
    );
    await context.close();
  });

  it("the slider is keyboard-operable and drives the number", async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await openWidget(page);
    await page.focus(`${sel} input[name=magnitude]`);
    await page.keyboard.press("End"); // 10^6
    await waitStored(page, "fp32", "= 1×10⁶");
    assert.equal(await page.inputValue(`${sel} input[name=value]`), "1000000");
    assert.equal(await stored(page, "fp16"), "→ +∞");
    await page.keyboard.press("Home"); // 10^-12
    await waitStored(page, "fp8-e5m2", "≈ 0");
    assert.equal(await page.inputValue(`${sel} input[name=value]`), "1e-12");
    await context.close();
  });

  it("the spacing strip follows the chosen format", async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await openWidget(page);
    const note = () => page.locator(`${sel} text.nf-strip-note`).textContent();
    assert.match((await note()) ?? "", /^17 values shown/);
    assert.equal(await page.locator(`${sel} line.nf-tick`).count(), 17);
    await page.selectOption(`${sel} select[name=focus]`, "fp16");
    await page.waitForFunction(
      (s) => document.querySelector(`${s} text.nf-strip-note`)?.textContent?.startsWith("fp16 has 1,024 values"),
      sel,
    );
    await page.selectOption(`${sel} select[name=focus]`, "fp8-e5m2");
    await page.waitForFunction((s) => document.querySelectorAll(`${s} line.nf-tick`).length === 9, sel);
    await context.close();
  });

  it("hostile input marks the field invalid and keeps the last drawing", async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = watchPage(page, site.server.url);
    await openWidget(page);
    await page.fill(`${sel} input[name=value]`, "300");
    await waitStored(page, "fp8-e4m3", "≈ 288");
    const drawing = await page.locator(`${sel} svg.nf-figure`).innerHTML();
    for (const bad of ["", "abc", "-", "1e400", "12..5", "NaN"]) {
      await page.fill(`${sel} input[name=value]`, bad);
      assert.equal(await page.getAttribute(`${sel} input[name=value]`, "aria-invalid"), "true", bad);
      const message = page.locator(`${sel} [role=alert]`);
      assert.ok(((await message.textContent()) ?? "").length > 10, `message for "${bad}"`);
      assert.equal(await page.locator(`${sel} svg.nf-figure`).innerHTML(), drawing, `drawing kept for "${bad}"`);
    }
    // extreme but valid: negative, zero and 1e40 redraw without NaN coordinates or "undefined"
    for (const [good, fp32] of [
      ["-448", "= −448"],
      ["0", "= 0"],
      ["1e40", "→ +∞"],
    ] as const) {
      await page.fill(`${sel} input[name=value]`, good);
      await waitStored(page, "fp32", fp32);
      assert.equal(await page.getAttribute(`${sel} input[name=value]`, "aria-invalid"), null);
      const svg = await page.locator(`${sel} svg.nf-figure`).innerHTML();
      assert.ok(!/undefined|NaN"|="NaN|Infinity/.test(svg), `clean drawing for ${good}`);
    }
    assert.deepEqual(problems.pageErrors, []);
    assert.deepEqual(problems.consoleErrors, []);
    await context.close();
  });

  it("fits a phone and renders in dark mode (screenshots)", async () => {
    for (const [name, viewport, colorScheme] of [
      ["desktop", { width: 1280, height: 900 }, "light"],
      // Tall enough that the element needs no scrolling for its screenshot.
      ["phone", { width: 390, height: 1400 }, "light"],
      ["dark", { width: 1280, height: 900 }, "dark"],
    ] as const) {
      const context = await site.browser.newContext({ viewport, colorScheme });
      const page = await context.newPage();
      await openWidget(page);
      await afterFrames(page);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      assert.ok(overflow <= 0, `${name}: page scrolls sideways by ${overflow}px`);
      await keepScreenshot(page.locator(sel), `${shots}/number-formats-${name}.png`);
      await context.close();
    }
  });
});
