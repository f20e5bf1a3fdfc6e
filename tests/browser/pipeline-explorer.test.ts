/**
 * The pipeline-explorer widgets in Chromium on the built pipeline chapter (five instances, one per
 * schedule): static figures without JavaScript, lazy loading, every control redrawing with the
 * model's layout (expected strings from tests/figures/pipeline-explorer.test.ts and
 * tests/model/pipeline.test.ts), hostile input, per-instance URL state, the step-through with and
 * without reduced motion, keyboard use, and screenshots (light, dark, phone).
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { keepScreenshot } from "../helpers/screenshots.ts";
import { widgetIdle } from "../helpers/widget-idle.ts";
import type { BrowserContextOptions, Page } from "playwright-core";
import { watchPage, settle } from "../../harness/chromium.ts";
import { useSiteAndBrowser } from "../../harness/site-and-browser.ts";

const shots = "test-output/screenshots";
const desktop: BrowserContextOptions = { viewport: { width: 1280, height: 900 } };
const w = (n: number) => `#widget-pipeline-explorer-${n}`;
const site = useSiteAndBrowser();

async function open(n: number, options: BrowserContextOptions = desktop, query = ""): Promise<Page> {
  const context = await site.browser.newContext(options);
  const page = await context.newPage();
  await page.goto(`${site.server.url}/pipeline-parallelism/${query}`);
  await page.locator(w(n)).scrollIntoViewIfNeeded();
  await page.waitForFunction((s) => document.querySelector(`${s} form`) !== null, w(n));
  return page;
}

// Each widget redraws after an edit has painted: read it once the redraw has run.
const readout = async (page: Page, n: number) => {
  await widgetIdle(page, w(n));
  return page.locator(`${w(n)} dl.px-readout`).textContent();
};
/** Waits until the last edit has been drawn (typing is debounced) and the readout says `part`. */
const waitReadout = (page: Page, n: number, part: string) =>
  page.waitForFunction(
    ([s, t]) =>
      !document.querySelector(s)?.hasAttribute("data-widget-busy") &&
      document.querySelector(`${s} dl.px-readout`)?.textContent?.includes(t),
    [w(n), part] as const,
  );
const field = (page: Page, n: number, name: string) => page.locator(`${w(n)} [name=${name}]`);

describe("pipeline-explorer widget", () => {
  it("shows every schedule's default state without JavaScript", async () => {
    const context = await site.browser.newContext({ ...desktop, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${site.server.url}/pipeline-parallelism/`);
    const expected = [
      "(p − 1)/m = 3/16 = 18.8%, as measured",
      "(p − 1)/m = 3/16 = 18.8%, as measured",
      "(p − 1)/(v·m) = 3/32 = 9.4%, as measured",
      "idle per GPU (p − 1)(T_F + T_B − T_W) = 3, as measured",
      "idle per GPU (p/2 − 1)(F&B + B − 3W) = 2, with B the full backward, as measured",
    ];
    for (let n = 1; n <= 5; n++) {
      assert.ok(((await readout(page, n)) ?? "").includes(expected[n - 1]), `widget ${n}`);
      assert.ok((await page.locator(`${w(n)} g.px-op`).count()) > 0);
    }
    assert.match((await readout(page, 1)) ?? "", /GPU 0: 16, GPU 1: 16, GPU 2: 16, GPU 3: 16 \(microbatches\)/);
    assert.match((await readout(page, 2)) ?? "", /GPU 0: 4, GPU 1: 3, GPU 2: 2, GPU 3: 1 \(microbatches\)/);
    assert.ok(!/NaN|undefined|Infinity/.test(await page.locator("main").innerHTML()));
    await context.close();
  });

  it("loads its script only when scrolled near, once for all five, and the page logs no errors", async () => {
    const context = await site.browser.newContext(desktop);
    const page = await context.newPage();
    const problems = watchPage(page, site.server.url);
    const before = site.server.requests.length;
    await page.goto(`${site.server.url}/pipeline-parallelism/`);
    await settle(page);
    assert.ok(
      !site.server.requests.slice(before).some((r) => r.endsWith("/widgets/pipeline-explorer.js")),
      "loaded before scrolling",
    );
    for (let n = 1; n <= 5; n++) {
      await page.locator(w(n)).scrollIntoViewIfNeeded();
      await page.waitForFunction((s) => document.querySelector(`${s} form`) !== null, w(n));
    }
    assert.equal(
      site.server.requests.slice(before).filter((r) => r.endsWith("/widgets/pipeline-explorer.js")).length,
      1,
    );
    assert.deepEqual(problems, { consoleErrors: [], pageErrors: [], offOrigin: [], failed: [] });
    await context.close();
  });

  it("redraws with the model's layout as each control changes", async () => {
    const page = await open(2);
    await field(page, 2, "microbatches").fill("8");
    await waitReadout(page, 2, "(p − 1)/m = 3/8 = 37.5%");
    assert.equal(await page.locator(`${w(2)} g.px-op`).count(), 64);
    assert.equal(await field(page, 2, "chunks").isVisible(), false);
    await field(page, 2, "schedule").selectOption("afab");
    await waitReadout(page, 2, "GPU 0: 8, GPU 1: 8, GPU 2: 8, GPU 3: 8");
    await field(page, 2, "schedule").selectOption("interleaved");
    assert.equal(await field(page, 2, "chunks").isVisible(), true);
    await waitReadout(page, 2, "(p − 1)/(v·m) = 3/16 = 18.8%");
    await field(page, 2, "chunks").fill("4");
    await waitReadout(page, 2, "(p − 1)/(v·m) = 3/32 = 9.4%");
    await field(page, 2, "schedule").selectOption("zb-h1");
    await waitReadout(page, 2, "(p − 1)(T_F + T_B − T_W) = 3");
    await field(page, 2, "weightGrad").fill("2");
    await waitReadout(page, 2, "the closed form assumes T_W ≤ T_F and T_W ≤ T_B");
    await field(page, 2, "weightGrad").fill("1");
    await field(page, 2, "schedule").selectOption("dualpipe");
    assert.equal(await field(page, 2, "forwardBackward").isVisible(), true);
    await waitReadout(page, 2, "(p/2 − 1)(F&B + B − 3W) = 2");
    await field(page, 2, "forwardBackward").fill("2.5");
    await waitReadout(page, 2, "= 1.5, with B the full backward, as measured");
    await field(page, 2, "stages").fill("2");
    await field(page, 2, "schedule").selectOption("1f1b");
    await field(page, 2, "forward").fill("2");
    await waitReadout(page, 2, "(p − 1)/m = 1/8 = 12.5%");
    assert.match((await page.locator(`${w(2)} text.px-headline`).textContent()) ?? "", /step 36 time units/);
    assert.ok(!/NaN|undefined|Infinity/.test(await page.locator(w(2)).innerHTML()));
    await page.context().close();
  });

  it("counts T_W in an unsplit schedule's backward only where the reader sees it", async () => {
    const page = await open(3);
    // Interleaved 1F1B runs T_B + T_W as one backward box: the T_W field is shown and says so.
    const weightGrad = field(page, 3, "weightGrad");
    assert.equal(await weightGrad.isVisible(), true);
    const hint = page.locator(`${w(3)} #widget-pipeline-explorer-3-weightGrad-hint`);
    assert.equal(await hint.textContent(), "Part of each backward box here: a backward takes T_B + T_W.");
    const live = page.locator(`${w(3)} [aria-live="polite"]`);
    const headline = () => page.locator(`${w(3)} text.px-headline`).textContent();
    await page.waitForFunction((s) => document.querySelector(`${s} [aria-live]`)?.textContent !== "", w(3));
    assert.match((await live.textContent()) ?? "", /backward 2 \(T_B 1 \+ T_W 1\)/);
    const before = await headline();
    await weightGrad.fill("2");
    await page.waitForFunction(
      (s) => document.querySelector(`${s} [aria-live]`)?.textContent?.includes("backward 3 (T_B 1 + T_W 2)"),
      w(3),
    );
    assert.notEqual(await headline(), before, "the step grows with T_W");
    // In ZB-H1, W is a box of its own, and the hint says that instead.
    await field(page, 3, "schedule").selectOption("zb-h1");
    assert.equal(await weightGrad.isVisible(), true);
    assert.equal(await hint.textContent(), "Its own box, run where a GPU would otherwise idle.");
    await page.context().close();
  });

  it("marks hostile input invalid, says why, and keeps the last timeline", async () => {
    const page = await open(3);
    const problems = watchPage(page, site.server.url);
    const before = await page.locator(`${w(3)} svg`).innerHTML();
    for (const name of ["stages", "microbatches", "chunks", "forward", "backward", "weightGrad"]) {
      const input = field(page, 3, name);
      const good = await input.inputValue();
      for (const value of ["-5", "0", "1e40", "lots", "", "NaN", "2.5"]) {
        if (name === "weightGrad" && value === "0") continue;
        if (["forward", "backward", "weightGrad"].includes(name) && value === "2.5") continue;
        await input.fill(value);
        assert.equal(await input.getAttribute("aria-invalid"), "true", `${name}=${JSON.stringify(value)}`);
        const message = page.locator(`${w(3)} #widget-pipeline-explorer-3-${name}-message`);
        assert.equal(await message.getAttribute("role"), "alert");
        assert.ok(((await message.textContent()) ?? "").length > 15);
        assert.equal(await page.locator(`${w(3)} svg`).innerHTML(), before, `${name}=${value}`);
      }
      await input.fill(good);
      assert.equal(await input.getAttribute("aria-invalid"), null);
    }
    const zb = await open(4);
    const weightGrad = field(zb, 4, "weightGrad");
    for (const value of ["-5", "1e40", "lots", "", "NaN"]) {
      await weightGrad.fill(value);
      assert.equal(await weightGrad.getAttribute("aria-invalid"), "true", `weightGrad=${JSON.stringify(value)}`);
      assert.ok(
        ((await zb.locator(`${w(4)} #widget-pipeline-explorer-4-weightGrad-message`).textContent()) ?? "").length > 15,
      );
    }
    await zb.context().close();
    // Combinations the model refuses name the field to change.
    await field(page, 3, "microbatches").fill("6");
    assert.match(
      (await page.locator(`${w(3)} #widget-pipeline-explorer-3-microbatches-message`).textContent()) ?? "",
      /multiple of stages/,
    );
    await field(page, 3, "microbatches").fill("16");
    await field(page, 3, "schedule").selectOption("dualpipe");
    await field(page, 3, "stages").fill("3");
    assert.match(
      (await page.locator(`${w(3)} #widget-pipeline-explorer-3-stages-message`).textContent()) ?? "",
      /even number of stages/,
    );
    await field(page, 3, "stages").fill("32");
    await field(page, 3, "microbatches").fill("256");
    assert.match(
      (await page.locator(`${w(3)} #widget-pipeline-explorer-3-microbatches-message`).textContent()) ?? "",
      /at most 4,096/,
    );
    assert.deepEqual(problems.pageErrors, []);
    await page.context().close();
  });

  it("keeps each instance's settings in its own URL parameter", async () => {
    const page = await open(1);
    await field(page, 1, "microbatches").fill("8");
    await page.locator(w(3)).scrollIntoViewIfNeeded();
    await page.waitForFunction((s) => document.querySelector(`${s} form`) !== null, w(3));
    await field(page, 3, "chunks").fill("4");
    await page.waitForFunction(
      () =>
        location.search.includes("widget-pipeline-explorer-1=") &&
        location.search.includes("widget-pipeline-explorer-3="),
    );
    const url = new URL(page.url());
    assert.equal(url.searchParams.get("widget-pipeline-explorer-1"), "microbatches:8");
    assert.equal(url.searchParams.get("widget-pipeline-explorer-3"), "chunks:4");
    await page.context().close();
    const restored = await open(3, desktop, url.search);
    assert.equal(await field(restored, 3, "chunks").inputValue(), "4");
    await waitReadout(restored, 3, "3/64 = 4.7%");
    await restored.locator(w(1)).scrollIntoViewIfNeeded();
    await restored.waitForFunction((s) => document.querySelector(`${s} form`) !== null, w(1));
    assert.equal(await field(restored, 1, "microbatches").inputValue(), "8");
    await restored.locator(w(2)).scrollIntoViewIfNeeded();
    await restored.waitForFunction((s) => document.querySelector(`${s} form`) !== null, w(2));
    assert.equal(await field(restored, 2, "microbatches").inputValue(), "16");
    await restored.context().close();
    const bad = await open(4, desktop, "?widget-pipeline-explorer-4=stages:0");
    assert.match(
      (await bad.locator(`${w(4)} [role=status]`).textContent()) ?? "",
      /^The settings in this page’s link were not used/,
    );
    assert.equal(await field(bad, 4, "stages").inputValue(), "4");
    await bad.context().close();
  });

  it("steps through the schedule by hand, plays when motion is allowed, and never plays under reduced motion", async () => {
    const page = await open(2, { ...desktop, reducedMotion: "no-preference" });
    // The cursor moves after the click has painted: read the status once it has.
    const statusLocator = page.locator(`${w(2)} #widget-pipeline-explorer-2-step-status`);
    const status = {
      textContent: async () => {
        await widgetIdle(page, w(2));
        return statusLocator.textContent();
      },
    };
    assert.equal(await status.textContent(), "whole step shown");
    await page.locator(`${w(2)} button`, { hasText: "Step ▶" }).click();
    assert.equal(await status.textContent(), "time 0 of 57: 0 of 128 operations started");
    await page.locator(`${w(2)} button`, { hasText: "Step ▶" }).click();
    assert.equal(await status.textContent(), "time 1 of 57: 1 of 128 operations started");
    await page.locator(`${w(2)} button`, { hasText: "Step ▶" }).click();
    assert.equal(await status.textContent(), "time 2 of 57: 3 of 128 operations started");
    assert.equal(await page.locator(`${w(2)} g.px-op[opacity="0.18"]`).count(), 125);
    await page.locator(`${w(2)} button`, { hasText: "◀ Step back" }).click();
    assert.equal(await status.textContent(), "time 1 of 57: 1 of 128 operations started");
    await page.locator(`${w(2)} button`, { hasText: "Show all" }).click();
    assert.equal(await status.textContent(), "whole step shown");
    const play = page.locator(`${w(2)} button`, { hasText: "Play" });
    assert.equal(await play.isDisabled(), false);
    await play.click();
    await page.waitForFunction(
      (s) =>
        /^time [1-9]/.test(document.querySelector(`${s} #widget-pipeline-explorer-2-step-status`)?.textContent ?? ""),
      w(2),
    );
    await page.locator(`${w(2)} button[aria-pressed=true]`).click();
    assert.equal(await page.locator(`${w(2)} button[aria-pressed=true]`).count(), 0);
    await page.context().close();

    const calm = await open(2, { ...desktop, reducedMotion: "reduce" });
    assert.equal(await calm.locator(`${w(2)} button`, { hasText: "Play" }).isDisabled(), true);
    assert.ok(await calm.locator(`${w(2)} .explorer-hint`, { hasText: "reduced motion" }).isVisible());
    await calm.locator(`${w(2)} button`, { hasText: "Step ▶" }).click();
    await calm.locator(`${w(2)} button`, { hasText: "Step ▶" }).click();
    await widgetIdle(calm, w(2));
    assert.equal(
      await calm.locator(`${w(2)} #widget-pipeline-explorer-2-step-status`).textContent(),
      "time 1 of 57: 1 of 128 operations started",
    );
    await calm.context().close();
  });

  it("is operable from the keyboard, with labelled controls and a polite live summary", async () => {
    const page = await open(2);
    for (const name of ["schedule", "stages", "microbatches", "forward", "backward", "weightGrad"]) {
      const id = await field(page, 2, name).getAttribute("id");
      assert.equal(await page.locator(`${w(2)} label[for="${id}"]`).count(), 1, name);
    }
    await field(page, 2, "schedule").focus();
    await page.keyboard.press("ArrowUp");
    await page.waitForFunction(
      (s) => document.querySelector(`${s} p[aria-live=polite]`)?.textContent?.startsWith("All forward, all backward"),
      w(2),
    );
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => (document.activeElement as HTMLElement).getAttribute("name")), "stages");
    await page.locator(`${w(2)} #widget-pipeline-explorer-2-time`).focus();
    await page.keyboard.press("Home");
    await widgetIdle(page, w(2));
    assert.match(
      (await page.locator(`${w(2)} #widget-pipeline-explorer-2-step-status`).textContent()) ?? "",
      /^time 0 of/,
    );
    await page.context().close();
  });

  it("takes screenshots: desktop, phone and dark, without sideways scrolling", async () => {
    // Tall viewports: see tests/browser/memory-explorer.test.ts on element screenshots.
    for (const n of [3, 5]) {
      for (const [name, options] of [
        ["desktop", { viewport: { width: 1280, height: 1600 } }],
        ["phone", { viewport: { width: 390, height: 2400 }, deviceScaleFactor: 2 }],
        ["dark", { viewport: { width: 1280, height: 1600 }, colorScheme: "dark" as const }],
      ] as const) {
        const page = await open(n, options);
        await keepScreenshot(page.locator(w(n)), `${shots}/pipeline-explorer-${n}-${name}.png`);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        assert.ok(overflow <= 0, `${name}: page scrolls sideways by ${overflow}px`);
        await page.context().close();
      }
    }
  });
});
