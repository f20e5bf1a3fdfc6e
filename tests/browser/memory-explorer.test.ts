/**
 * The memory-explorer widget in Chromium on the built chapters 2 (one GPU), 3 (ZeRO) and 4 (TP):
 * the static figure without JavaScript, lazy loading, every control redrawing with the engine's
 * numbers (the expected verdicts are computed here with the same view the widget uses), the
 * controls a chapter hides under "More settings", the framework select, the title following the
 * model, hostile input in every field, settings in the URL (hidden controls included), keyboard
 * use, and screenshots (light, dark, phone) in test-output/screenshots/.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { keepScreenshot } from "../helpers/screenshots.ts";
import type { BrowserContextOptions, Page } from "playwright-core";
import { watchPage, settle } from "../../harness/chromium.ts";
import { useSiteAndBrowser } from "../../harness/site-and-browser.ts";
import { parseMemorySettings } from "../../src/figures/memory-explorer/settings.ts";
import { computeMemoryView, formatBytes } from "../../src/figures/memory-explorer/view.ts";
import { widgetSettings } from "../helpers/chapter-text.ts";

const shots = "test-output/screenshots";
const sel = '[data-widget="memory-explorer"]';
const desktop: BrowserContextOptions = { viewport: { width: 1280, height: 900 } };
const site = useSiteAndBrowser();

async function open(slug: string, options: BrowserContextOptions = desktop, query = ""): Promise<Page> {
  const context = await site.browser.newContext(options);
  const page = await context.newPage();
  await page.goto(`${site.server.url}/${slug}/${query}`);
  await page.locator(sel).scrollIntoViewIfNeeded();
  await page.waitForFunction((s) => document.querySelector(`${s} form`) !== null, sel);
  return page;
}

const verdict = (page: Page) => page.locator(`${sel} p.mx-verdict`).textContent();
const bars = (page: Page) => page.locator(`${sel} svg.mx-bars`).innerHTML();
const waitVerdict = (page: Page, text: string) =>
  page.waitForFunction(([s, t]) => document.querySelector(`${s} p.mx-verdict`)?.textContent === t, [
    sel,
    text,
  ] as const);
const control = (page: Page, name: string) => page.locator(`${sel} [name=${name}]`);
/** The verdict the engine gives for chapter settings (the expected strings come from the model). */
const expect = (settings: Record<string, unknown>) => computeMemoryView(parseMemorySettings(settings)).verdict.text;
// Each chapter's explorer settings, read from its Markdown (hide/lock stripped: they do not change the numbers).
const chapterState = (slug: string) => {
  const { hide: _hide, lock: _lock, ...state } = widgetSettings(slug, "memory-explorer");
  return state;
};
const ch2 = chapterState("02-one-gpu");
const ch3 = chapterState("03-data-parallelism");
const ch4 = chapterState("04-tensor-parallelism");
const openMore = (page: Page) =>
  page.locator(`${sel} details.mx-more`).evaluate((d) => ((d as HTMLDetailsElement).open = true));

describe("memory-explorer widget", () => {
  it("shows each chapter's default state without JavaScript, with GB per GPU on the verdict", async () => {
    const context = await site.browser.newContext({ ...desktop, javaScriptEnabled: false });
    const page = await context.newPage();
    for (const [slug, settings] of [
      ["one-gpu", ch2],
      ["data-parallelism", ch3],
      ["tensor-parallelism", ch4],
    ] as const) {
      await page.goto(`${site.server.url}/${slug}/`);
      assert.equal(await page.locator(`${sel} p.mx-verdict`).textContent(), expect(settings), slug);
      const gb = computeMemoryView(parseMemorySettings(settings)).verdict.gb;
      assert.equal(await page.locator(`${sel} [data-verdict]`).getAttribute("data-total-gb"), gb, slug);
      // Four segments per bar, one bar per pipeline stage (chapter 4's explorer starts with p = 4).
      const stages = typeof settings.pp === "number" ? settings.pp : 1;
      assert.equal(await page.locator(`${sel} svg.mx-bars rect.mx-seg`).count(), 4 * stages, slug);
      assert.equal(await page.locator(`${sel} table.mx-formula-table tbody tr`).count(), 5);
      assert.ok(!/NaN|undefined|Infinity/.test(await page.locator(sel).innerHTML()));
    }
    await context.close();
  });

  it("loads its script only when scrolled near, and the page logs no errors", async () => {
    const context = await site.browser.newContext(desktop);
    const page = await context.newPage();
    const problems = watchPage(page, site.server.url);
    await page.goto(`${site.server.url}/tensor-parallelism/`);
    await settle(page);
    assert.ok(!site.server.requests.some((r) => r.endsWith("/widgets/memory-explorer.js")), "loaded before scrolling");
    await page.locator(sel).scrollIntoViewIfNeeded();
    await page.waitForFunction((s) => document.querySelector(`${s} form`) !== null, sel);
    assert.ok(site.server.requests.some((r) => r.endsWith("/widgets/memory-explorer.js")));
    assert.ok(!site.server.requests.some((r) => /plotly/i.test(r)), "no Plotly");
    assert.deepEqual(problems, { consoleErrors: [], pageErrors: [], offOrigin: [], failed: [] });
    await context.close();
  });

  it("chapter 2: parallelism controls wait under More settings, and every control redraws with the engine's numbers", async () => {
    const page = await open("one-gpu");
    assert.equal(await verdict(page), expect(ch2));
    for (const hidden of ["dp", "tp", "pp", "cp", "ep", "zero", "sp"])
      assert.equal(await control(page, hidden).isVisible(), false, hidden);
    const steps: Array<[() => Promise<unknown>, string]> = [
      [() => control(page, "microBatch").fill("1"), expect({ ...ch2, microBatch: 1 })],
      [() => control(page, "microBatch").fill("4"), expect(ch2)],
      [() => control(page, "recompute").selectOption("full"), expect({ ...ch2, recompute: "full" })],
      [() => control(page, "recompute").selectOption("none"), expect(ch2)],
      [() => control(page, "attention").selectOption("eager"), expect({ ...ch2, attention: "eager" })],
      [() => control(page, "attention").selectOption("flash"), expect(ch2)],
      [() => control(page, "framework").selectOption("megatron"), expect({ ...ch2, framework: "megatron" })],
      [() => control(page, "framework").selectOption("ddp"), expect(ch2)],
      [() => control(page, "seqLength").fill("8192"), expect({ ...ch2, seqLength: 8192 })],
      [() => control(page, "seqLength").fill("4096"), expect(ch2)],
      [() => control(page, "gpu").selectOption("a100-sxm-40gb"), expect({ ...ch2, gpu: "a100-sxm-40gb" })],
      [() => control(page, "gpu").selectOption("h100-sxm"), expect(ch2)],
      [() => control(page, "preset").selectOption("llama-3.2-3b"), expect({ ...ch2, preset: "llama-3.2-3b" })],
    ];
    for (const [act, text] of steps) {
      await act();
      await waitVerdict(page, text);
    }
    // The preset list shows published sizes.
    assert.match(
      (await control(page, "preset").locator("option[value='llama-3.1-405b']").textContent()) ?? "",
      /Llama 3\.1 405B \(406B\)/,
    );
    // The curve marks the current point with the same total; the title follows the model.
    assert.equal(
      await page.locator(`${sel} svg.mx-curve text.mx-current-label`).textContent(),
      formatBytes(computeMemoryView(parseMemorySettings({ ...ch2, preset: "llama-3.2-3b" })).evaluation.bytesPerGpu),
    );
    assert.equal(await page.locator(`${sel} .widget-title`).textContent(), "Memory of one GPU training Llama 3.2 3B");
    // Under More settings: the parallel degrees, and ZeRO stages the framework does not run are unavailable.
    await openMore(page);
    assert.equal(await control(page, "dp").isVisible(), true);
    assert.equal(await control(page, "zero").locator("option[value='3']").isDisabled(), true);
    await control(page, "framework").selectOption("fsdp2");
    assert.equal(await control(page, "zero").getAttribute("aria-invalid"), "true");
    await control(page, "zero").selectOption("3");
    await control(page, "dp").fill("8");
    await waitVerdict(page, expect({ ...ch2, preset: "llama-3.2-3b", framework: "fsdp2", zero: 3, dp: 8 }));
    await page.locator(`${sel} select[name=axis]`).selectOption("microBatch");
    await page.waitForFunction(
      (s) => document.querySelector(`${s} svg.mx-curve`)?.textContent?.includes("micro-batch size b"),
      sel,
    );
    assert.ok(!/NaN|undefined|Infinity/.test(await page.locator(sel).innerHTML()));
    await page.context().close();
  });

  it("chapter 3 and 4: ZeRO stage, data-parallel degree and sequence parallelism; the title follows the model", async () => {
    const dp = await open("data-parallelism");
    await control(dp, "zero").selectOption("3");
    await waitVerdict(dp, expect({ ...ch3, zero: 3 }));
    await control(dp, "dp").fill("16");
    await waitVerdict(dp, expect({ ...ch3, zero: 3, dp: 16 }));
    await dp.context().close();
    const tp = await open("tensor-parallelism");
    assert.equal(await verdict(tp), expect(ch4));
    for (const hidden of ["cp", "ep"]) assert.equal(await control(tp, hidden).isVisible(), false, hidden);
    for (const shown of ["zero", "dp", "tp", "sp", "pp", "microbatches", "seqLength", "framework"])
      assert.equal(await control(tp, shown).isVisible(), true, shown);
    await control(tp, "sp").check();
    await waitVerdict(tp, expect({ ...ch4, sp: true }));
    await control(tp, "tp").fill("3");
    assert.equal(await control(tp, "tp").getAttribute("aria-invalid"), "true");
    assert.match(
      (await tp.locator(`${sel} #widget-memory-explorer-1-tp-message`).textContent()) ?? "",
      /tp \(3\) must divide the number of attention heads \(64\)/,
    );
    assert.equal(await verdict(tp), expect({ ...ch4, sp: true }));
    assert.equal(await tp.locator(`${sel} .mx-output.widget-stale`).count(), 1, "the last drawing is dimmed");
    await control(tp, "tp").fill("16");
    assert.match(
      (await tp.locator(`${sel} #widget-memory-explorer-1-tp-message`).textContent()) ?? "",
      /larger than one NVLink domain/,
    );
    await control(tp, "tp").fill("8");
    await control(tp, "preset").selectOption("mixtral-8x7b");
    await tp.waitForFunction(
      (s) =>
        document.querySelector(`${s} .widget-title`)?.textContent ===
        "Memory per GPU of Mixtral 8x7B with tensor parallelism",
      sel,
    );
    await tp.context().close();
  });

  it("marks hostile input invalid, says why, and keeps the last drawing", async () => {
    const page = await open("tensor-parallelism");
    const problems = watchPage(page, site.server.url);
    const before = await bars(page);
    const fields = ["seqLength", "microBatch", "dp", "tp", "pp", "cp", "ep"];
    await openMore(page);
    for (const name of fields) {
      const input = control(page, name);
      const good = await input.inputValue();
      for (const value of ["-5", "0", "1e40", "lots", "", "2.5", "Infinity"]) {
        await input.fill(value);
        assert.equal(await input.getAttribute("aria-invalid"), "true", `${name}=${JSON.stringify(value)}`);
        const message = page.locator(`${sel} #${(await input.getAttribute("aria-describedby"))!.split(" ")[0]}`);
        assert.equal(await message.getAttribute("role"), "alert");
        assert.ok(((await message.textContent()) ?? "").length > 15, `${name}=${value} has a message`);
        assert.equal(await bars(page), before, `${name}=${value} keeps the last chart`);
      }
      await input.fill(good);
      assert.equal(await input.getAttribute("aria-invalid"), null, name);
    }
    // A pasted config: malformed, not an object, missing sizes, then a real one.
    await control(page, "preset").selectOption("custom");
    const box = page.locator(`${sel} textarea[name=config]`);
    for (const text of ['{"hidden_size": 4096', "[1, 2, 3]", '{"model_type": "llama"}', ""]) {
      await box.fill(text);
      assert.equal(await box.getAttribute("aria-invalid"), "true", text);
      assert.ok(
        ((await page.locator(`${sel} #widget-memory-explorer-1-preset-message`).textContent()) ?? "").length > 10,
      );
      assert.equal(await bars(page), before);
    }
    await box.fill(
      JSON.stringify({
        model_type: "gpt2",
        n_embd: 1024,
        n_head: 16,
        n_layer: 24,
        vocab_size: 50257,
        n_positions: 1024,
      }),
    );
    await page.waitForFunction(
      (s) =>
        document.querySelector(`${s} p.widget-summary`)?.textContent?.startsWith("pasted config (355M parameters)"),
      sel,
    );
    assert.ok(!/NaN|undefined|Infinity/.test(await page.locator(sel).innerHTML()));
    assert.deepEqual(problems.pageErrors, []);
    await page.context().close();
  });

  it("keeps its settings in the URL: a link restores them, a bad link is refused with a message", async () => {
    const page = await open("one-gpu");
    await control(page, "microBatch").fill("1");
    await control(page, "recompute").selectOption("full");
    // The link follows each edit: wait for the second one's.
    await page.waitForFunction(
      () => new URLSearchParams(location.search).get("widget-memory-explorer-1") === "microBatch:1,recompute:full",
    );
    const url = new URL(page.url());
    assert.equal(url.searchParams.get("widget-memory-explorer-1"), "microBatch:1,recompute:full");
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: site.server.url });
    await page.locator(`${sel} button`, { hasText: "Copy link" }).click();
    await page.waitForFunction((s) => document.querySelector(`${s} [role=status]`)?.textContent !== "", sel);
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(new URL(copied).searchParams.get("widget-memory-explorer-1"), "microBatch:1,recompute:full");
    await page.context().close();

    const restored = await open("one-gpu", desktop, "?widget-memory-explorer-1=microBatch:1,recompute:full");
    assert.equal(await control(restored, "microBatch").inputValue(), "1");
    assert.equal(await control(restored, "recompute").inputValue(), "full");
    assert.equal(await verdict(restored), expect({ ...ch2, microBatch: 1, recompute: "full" }));
    await restored.locator(`${sel} button`, { hasText: "Reset" }).click();
    await waitVerdict(restored, expect(ch2));
    await restored.context().close();

    // Controls under More settings are set from a link too, and the disclosure opens to show them.
    const hiddenSet = await open("one-gpu", desktop, "?widget-memory-explorer-1=framework:fsdp2,zero:3,dp:64");
    assert.equal(await verdict(hiddenSet), expect({ ...ch2, framework: "fsdp2", zero: 3, dp: 64 }));
    assert.equal(await control(hiddenSet, "dp").isVisible(), true);
    assert.equal(await control(hiddenSet, "dp").inputValue(), "64");
    await hiddenSet.context().close();
    for (const bad of [
      "microBatch:0",
      "microBatch:1e40",
      "preset:llama-9",
      "seqLength:abc",
      "nonsense:1",
      "zero:3",
      "framework:jax",
    ]) {
      const page2 = await open("one-gpu", desktop, `?widget-memory-explorer-1=${bad}`);
      assert.equal(await verdict(page2), expect(ch2), bad);
      assert.match(
        (await page2.locator(`${sel} [role=status]`).textContent()) ?? "",
        /^The settings in this page’s link were not used/,
        bad,
      );
      await page2.context().close();
    }
  });

  it("answers a key at once and redraws after it; a refusal the edit brings on shows beside the field, which stays in place", async () => {
    const page = await open("one-gpu");
    await openMore(page);
    // Keys typed one at a time: the drawing follows once the typing pauses.
    const seq = control(page, "seqLength");
    await seq.focus();
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.type("8192");
    await page.waitForFunction((s) => document.querySelector(s)?.hasAttribute("data-widget-busy") === false, sel);
    assert.equal(await verdict(page), expect({ ...ch2, seqLength: 8192 }));
    // PyTorch DDP runs no pipeline: typing p = 2 shows the framework's refusal beside the field being
    // typed into (the framework select is far above it on a phone), the field stays where it was, and
    // the dimmed drawing says which value it still shows, by the select's label or the field's value.
    const pp = control(page, "pp");
    await pp.focus();
    const top = () => pp.evaluate((el) => el.getBoundingClientRect().top);
    const before = await top();
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.type("2");
    assert.equal(await pp.getAttribute("aria-invalid"), "true");
    assert.equal(await control(page, "framework").getAttribute("aria-invalid"), null);
    assert.match(
      (await page.locator(`${sel} #widget-memory-explorer-1-pp-message`).textContent()) ?? "",
      /PyTorch DDP replicates the whole model: it runs no tensor, pipeline/,
    );
    assert.equal(await page.locator(`${sel} #widget-memory-explorer-1-framework-message`).textContent(), "");
    assert.equal(
      await page.locator(`${sel} .widget-stale-note`).textContent(),
      "Showing the last valid result (Pipeline parallel p = 1) until the field is fixed.",
    );
    assert.ok(Math.abs((await top()) - before) < 1, `the field moved from ${before} to ${await top()}`);
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.type("1");
    assert.equal(await pp.getAttribute("aria-invalid"), null);
    assert.equal(await page.locator(`${sel} #widget-memory-explorer-1-pp-message`).textContent(), "");
    assert.ok(Math.abs((await top()) - before) < 1, "the field stays when the message goes");
    // Choosing the framework that refuses the parallel degrees already set keeps the message at the framework.
    await control(page, "framework").selectOption("megatron");
    await pp.fill("2");
    await pp.dispatchEvent("input");
    await control(page, "framework").selectOption("ddp");
    assert.equal(await control(page, "framework").getAttribute("aria-invalid"), "true");
    assert.match(
      (await page.locator(`${sel} #widget-memory-explorer-1-framework-message`).textContent()) ?? "",
      /PyTorch DDP replicates the whole model/,
    );
    assert.equal(
      await page.locator(`${sel} .widget-stale-note`).textContent(),
      "Showing the last valid result (Framework = Megatron-LM) until the field is fixed.",
    );
    await control(page, "framework").selectOption("megatron");
    await pp.fill("1");
    await pp.dispatchEvent("input");
    await control(page, "framework").selectOption("ddp");
    await waitVerdict(page, expect({ ...ch2, seqLength: 8192 }));
    await page.context().close();
  });

  it("takes the stage split beside PP: a link sets it, the layers per stage it uses are shown, a split the layers do not allow is flagged beside it", async () => {
    const split = (page: Page) => page.locator(`${sel} .mx-split-layers`).textContent();
    const page = await open("tensor-parallelism", desktop, "?widget-memory-explorer-1=split:trimmed");
    assert.equal(await control(page, "split").inputValue(), "trimmed");
    assert.equal(await control(page, "split").isVisible(), true, "shown with PP in chapter 4");
    assert.equal(await split(page), "Layers per stage: 19, 21, 21, 19");
    const trimmed = computeMemoryView(parseMemorySettings({ ...ch4, split: "trimmed" }));
    assert.equal(await verdict(page), trimmed.verdict.text);
    assert.equal(await page.locator(`${sel} [data-verdict]`).getAttribute("data-total-gb"), trimmed.verdict.gb);
    assert.notEqual(trimmed.verdict.gb, computeMemoryView(parseMemorySettings(ch4)).verdict.gb);
    // 80 layers over 2 stages leave nothing to move: the model's message beside the split.
    await control(page, "pp").fill("2");
    await page.waitForFunction(
      (s) => document.querySelector(`${s} [name=split]`)?.getAttribute("aria-invalid") === "true",
      sel,
    );
    assert.match(
      (await page.locator(`${sel} #widget-memory-explorer-1-split-message`).textContent()) ?? "",
      /80 layers do not split over 2 stages with 1 removed from each end/,
    );
    assert.equal(await verdict(page), trimmed.verdict.text, "the last valid drawing stays");
    await control(page, "split").selectOption("even");
    await waitVerdict(page, expect({ ...ch4, pp: 2 }));
    assert.equal(await control(page, "split").getAttribute("aria-invalid"), null);
    assert.equal(await split(page), "Layers per stage: 40, 40");
    await page.context().close();
    // Where the chapter hides PP, the split is under "More settings" with it.
    const one = await open("one-gpu");
    assert.equal(await one.locator(`${sel} details.mx-more [name=split]`).count(), 1);
    assert.equal(await one.locator(`${sel} details.mx-more [name=pp]`).count(), 1);
    await one.context().close();
  });

  it("is operable from the keyboard, with labelled controls and a polite live summary", async () => {
    const page = await open("one-gpu");
    for (const name of ["preset", "gpu", "framework", "seqLength", "microBatch", "recompute", "attention"]) {
      const id = await control(page, name).getAttribute("id");
      assert.equal(await page.locator(`${sel} label[for="${id}"]`).count(), 1, `${name} has a label`);
    }
    await control(page, "recompute").focus();
    await page.keyboard.press("ArrowDown");
    await page.waitForFunction(
      (s) => document.querySelector(`${s} p[aria-live=polite]`)?.textContent?.includes("recomputation selective"),
      sel,
    );
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => (document.activeElement as HTMLElement).getAttribute("name")), "attention");
    await page.context().close();
  });

  it("takes screenshots: desktop, phone and dark, without sideways scrolling", async () => {
    for (const [slug, tag] of [
      ["one-gpu", "ch2"],
      ["tensor-parallelism", "ch4"],
    ]) {
      // Viewports tall enough for the whole widget: an element screenshot taller than the viewport
      // makes Playwright capture beyond the viewport, which sets book.js's narrow-screen ToC
      // listener toggling without end in headless Chromium.
      for (const [name, options] of [
        ["desktop", { viewport: { width: 1280, height: 2400 } }],
        ["phone", { viewport: { width: 390, height: 3400 }, deviceScaleFactor: 2 }],
        ["dark", { viewport: { width: 1280, height: 2400 }, colorScheme: "dark" as const }],
      ] as const) {
        const page = await open(slug, options);
        await page.locator(`${sel} details.mx-formulas`).evaluate((d) => ((d as HTMLDetailsElement).open = true));
        await openMore(page);
        await keepScreenshot(page.locator(sel), `${shots}/memory-explorer-${tag}-${name}.png`);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        assert.ok(overflow <= 0, `${slug} ${name}: page scrolls sideways by ${overflow}px`);
        await page.context().close();
      }
    }
  });
});
