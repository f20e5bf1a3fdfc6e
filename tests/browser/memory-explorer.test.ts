/**
 * The memory-explorer widget in Chromium on the built chapters 2 (one GPU), 3 (ZeRO) and 4 (TP):
 * the static figure without JavaScript, lazy loading, every control redrawing with the model's
 * numbers (the expected strings are recomputed from the model in
 * tests/figures/memory-explorer.test.ts), hostile input in every field, settings in the URL,
 * keyboard use, and screenshots (light, dark, phone) in test-output/screenshots/.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { keepScreenshot } from "../helpers/screenshots.ts";
import type { BrowserContextOptions, Page } from "playwright-core";
import { watchPage, settle } from "../../harness/chromium.ts";
import { useSiteAndBrowser } from "../../harness/site-and-browser.ts";

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

describe("memory-explorer widget", () => {
  it("shows each chapter's default state without JavaScript", async () => {
    const context = await site.browser.newContext({ ...desktop, javaScriptEnabled: false });
    const page = await context.newPage();
    for (const [slug, text] of [
      ["one-gpu", "Fits: 48.2 GB of 80 GB (60%)."],
      ["data-parallelism", "Fits: 64.6 GB of 80 GB (81%)."],
      ["tensor-parallelism", "Out of memory: 109.4 GB needed, the H100 SXM5 has 80 GB."],
    ]) {
      await page.goto(`${site.server.url}/${slug}/`);
      assert.equal(await page.locator(`${sel} p.mx-verdict`).textContent(), text, slug);
      assert.equal(await page.locator(`${sel} svg.mx-bars rect.mx-seg`).count(), 4);
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

  it("chapter 2: parallelism controls are hidden, and every other control redraws with the model's numbers", async () => {
    const page = await open("one-gpu");
    assert.equal(await verdict(page), "Fits: 48.2 GB of 80 GB (60%).");
    for (const hidden of ["dp", "tp", "pp", "cp", "ep", "zero", "sp"])
      assert.equal(await control(page, hidden).isVisible(), false, hidden);
    const steps: Array<[() => Promise<unknown>, string]> = [
      [() => control(page, "microBatch").fill("1"), "Fits: 26.9 GB of 80 GB (34%)."],
      [() => control(page, "microBatch").fill("4"), "Fits: 48.2 GB of 80 GB (60%)."],
      [() => control(page, "recompute").selectOption("full"), "Fits: 29.4 GB of 80 GB (37%)."],
      [() => control(page, "recompute").selectOption("none"), "Fits: 48.2 GB of 80 GB (60%)."],
      [
        () => control(page, "attention").selectOption("eager"),
        "Out of memory: 118.5 GB needed, the H100 SXM5 has 80 GB.",
      ],
      [() => control(page, "attention").selectOption("flash"), "Fits: 48.2 GB of 80 GB (60%)."],
      [() => control(page, "fp32GradAccum").check(), "Fits: 53.1 GB of 80 GB (66%)."],
      [() => control(page, "fp32GradAccum").uncheck(), "Fits: 48.2 GB of 80 GB (60%)."],
      [() => control(page, "precision").selectOption("fp32"), "Fits: 68.2 GB of 80 GB (85%)."],
      [() => control(page, "precision").selectOption("bf16"), "Fits: 48.2 GB of 80 GB (60%)."],
      [
        () => control(page, "seqLength").fill("8192"),
        "Fits only just: 76.6 GB of 80 GB (96%), little room for the CUDA context and fragmentation.",
      ],
      [() => control(page, "seqLength").fill("4096"), "Fits: 48.2 GB of 80 GB (60%)."],
      [
        () => control(page, "gpu").selectOption("a100-sxm-40gb"),
        "Out of memory: 48.2 GB needed, the A100 SXM4 has 40 GB.",
      ],
      [() => control(page, "gpu").selectOption("h100-sxm"), "Fits: 48.2 GB of 80 GB (60%)."],
      [
        () => control(page, "preset").selectOption("llama-3.2-3b"),
        "Out of memory: 101.3 GB needed, the H100 SXM5 has 80 GB.",
      ],
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
    // The curve marks the current point with the same total.
    assert.equal(await page.locator(`${sel} svg.mx-curve text.mx-current-label`).textContent(), "101.3 GB");
    await page.locator(`${sel} select[name=axis]`).selectOption("microBatch");
    await page.waitForFunction(
      (s) => document.querySelector(`${s} svg.mx-curve`)?.textContent?.includes("micro-batch size b"),
      sel,
    );
    assert.ok(!/NaN|undefined|Infinity/.test(await page.locator(sel).innerHTML()));
    await page.context().close();
  });

  it("chapter 3 and 4: ZeRO stage, data-parallel degree and sequence parallelism", async () => {
    const dp = await open("data-parallelism");
    await control(dp, "zero").selectOption("3");
    await waitVerdict(dp, "Fits: 36.5 GB of 80 GB (46%).");
    await control(dp, "dp").fill("16");
    await waitVerdict(dp, "Fits: 28.5 GB of 80 GB (36%).");
    await dp.context().close();
    const tp = await open("tensor-parallelism");
    assert.equal(await verdict(tp), "Out of memory: 109.4 GB needed, the H100 SXM5 has 80 GB.");
    for (const hidden of ["pp", "schedule", "microbatches", "chunks", "cp", "ep"])
      assert.equal(await control(tp, hidden).isVisible(), false, hidden);
    for (const shown of ["zero", "dp", "tp", "sp", "seqLength"])
      assert.equal(await control(tp, shown).isVisible(), true, shown);
    await control(tp, "sp").check();
    await waitVerdict(tp, "Fits: 71.6 GB of 80 GB (89%).");
    await control(tp, "tp").fill("3");
    assert.equal(await control(tp, "tp").getAttribute("aria-invalid"), "true");
    assert.match(
      (await tp.locator(`${sel} #widget-memory-explorer-1-tp-message`).textContent()) ?? "",
      /tp \(3\) must divide the number of attention heads \(64\)/,
    );
    assert.equal(await verdict(tp), "Fits: 71.6 GB of 80 GB (89%).");
    await tp.context().close();
  });

  it("marks hostile input invalid, says why, and keeps the last drawing", async () => {
    const page = await open("tensor-parallelism");
    const problems = watchPage(page, site.server.url);
    const before = await bars(page);
    const fields = ["seqLength", "microBatch", "dp", "tp", "pp", "cp", "ep"];
    await page.locator(`${sel} [data-control=pp]`).evaluate((e) => ((e as HTMLElement).hidden = false));
    await page.locator(`${sel} [data-control=cp]`).evaluate((e) => ((e as HTMLElement).hidden = false));
    await page.locator(`${sel} [data-control=ep]`).evaluate((e) => ((e as HTMLElement).hidden = false));
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
    await page.waitForFunction(() => location.search.includes("widget-memory-explorer-1="));
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
    assert.equal(await verdict(restored), "Fits: 22.2 GB of 80 GB (28%).");
    await restored.locator(`${sel} button`, { hasText: "Reset" }).click();
    await waitVerdict(restored, "Fits: 48.2 GB of 80 GB (60%).");
    await restored.context().close();

    // Hidden controls cannot be set from a link; bad values reject the link.
    const hiddenTry = await open("one-gpu", desktop, "?widget-memory-explorer-1=dp:64,zero:3");
    assert.equal(await verdict(hiddenTry), "Fits: 48.2 GB of 80 GB (60%).");
    await hiddenTry.context().close();
    for (const bad of ["microBatch:0", "microBatch:1e40", "preset:llama-9", "seqLength:abc", "nonsense:1"]) {
      const page2 = await open("one-gpu", desktop, `?widget-memory-explorer-1=${bad}`);
      assert.equal(await verdict(page2), "Fits: 48.2 GB of 80 GB (60%).", bad);
      assert.match(
        (await page2.locator(`${sel} [role=status]`).textContent()) ?? "",
        /^The settings in this page’s link were not used/,
        bad,
      );
      await page2.context().close();
    }
  });

  it("is operable from the keyboard, with labelled controls and a polite live summary", async () => {
    const page = await open("one-gpu");
    for (const name of ["preset", "gpu", "seqLength", "microBatch", "precision", "recompute", "attention"]) {
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
