/**
 * The config-finder widget in Chromium on the built 5D-parallelism chapter: it loads when scrolled
 * near, reruns the search in a Worker when a control changes (drawn numbers checked against
 * src/model), keeps the inputs' names and its settings in the URL, dims the last result while a
 * field is invalid, explains why nothing fits (248 GPUs and a batch of 512), opens a row in the
 * memory explorer with the same GB per GPU, fits 1280 and 390 px without hiding a column, and
 * leaves the page clean; the planner's inputs (issue #52): a constraint changes the rows, an
 * invalid config.json is named beside its box and dims the results, and a named layout's rank
 * appears, at 1280 and 390 px; fp8 gives the step model's fp8 rows and band, and fp8 on an A100 names
 * the precision select and dims the result. Screenshots (desktop, phone, light and dark) go to
 * test-output/screenshots/.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { watchPage, settle } from "../../harness/chromium.ts";
import { keepScreenshot } from "../helpers/screenshots.ts";
import { useSiteAndBrowser } from "../../harness/site-and-browser.ts";
import { findGpu, findModelPreset, searchConfigurations } from "../../src/model/index.ts";
import {
  compactModelConfig,
  configFinderDefaults,
  errorBandText,
  finderErrorBands,
  namedVerdict,
  runConfigFinder,
} from "../../src/figures/config-finder-state.ts";

const shots = "test-output/screenshots";
const sel = '[data-widget="config-finder"]';
const site = useSiteAndBrowser();

async function openWidget(page: Page, query = ""): Promise<void> {
  await page.goto(`${site.server.url}/five-d-parallelism/${query}`);
  await page.locator(sel).scrollIntoViewIfNeeded();
  await page.waitForFunction((s) => {
    const input = document.querySelector<HTMLInputElement>(`${s} input[name=gpuCount]`);
    return input !== null && !input.disabled;
  }, sel);
}

async function shoot(page: Page, path: string): Promise<void> {
  const widget = page.locator(sel);
  await widget.evaluate((el) => el.scrollIntoView({ block: "start" }));
  const box = await widget.boundingBox();
  assert.ok(box);
  await keepScreenshot(page, path, { clip: box, timeout: 10_000 });
}

const readout = async (page: Page) => (await page.locator(`${sel} .config-finder-readout`).textContent()) ?? "";
const firstRow = async (page: Page) => (await page.locator(`${sel} tbody tr`).first().textContent()) ?? "";
const settled = (page: Page) =>
  page.waitForFunction((s) => document.querySelector(`${s} .config-finder-output.widget-stale`) === null, sel);

describe("config-finder widget", () => {
  it("loads lazily, searches in a Worker, and the page logs no errors", async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = watchPage(page, site.server.url);
    await page.goto(`${site.server.url}/five-d-parallelism/`);
    await settle(page);
    assert.ok(!site.server.requests.some((r) => r.endsWith("/widgets/config-finder.js")), "loaded before scrolling");
    await openWidget(page);
    assert.ok(site.server.requests.some((r) => r.endsWith("/widgets/config-finder.js")));
    await page.fill(`${sel} input[name=gpuCount]`, "128");
    await settled(page);
    assert.ok(
      site.server.requests.some((r) => r.endsWith("/workers/config-search.js")),
      "the search ran in the worker",
    );
    await shoot(page, `${shots}/config-finder-desktop.png`);
    assert.deepEqual(problems, { consoleErrors: [], pageErrors: [], offOrigin: [], failed: [] });
    await context.close();
  });

  it("reruns the search with the model's numbers when controls change, and keeps them in the URL", async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await openWidget(page);
    assert.match(await readout(page), /^Fastest under this model: /);
    const expected = searchConfigurations({
      config: findModelPreset("llama-3.1-8b")!.config,
      gpu: findGpu("a100-sxm-80gb")!,
      gpuCount: 64,
      seqLength: 4096,
      globalBatchSequences: 256,
      framework: "deepspeed",
    });
    const top = expected.ranked[0]!;
    await page.selectOption(`${sel} select[name=model]`, "llama-3.1-8b");
    await page.selectOption(`${sel} select[name=gpu]`, "a100-sxm-80gb");
    await page.selectOption(`${sel} select[name=framework]`, "deepspeed");
    await page.fill(`${sel} input[name=gpuCount]`, "64");
    await page.fill(`${sel} input[name=seqLength]`, "4096");
    await page.fill(`${sel} input[name=globalBatch]`, "256");
    await page.waitForFunction(
      (s) => document.querySelector(`${s} .config-finder-readout`)?.textContent?.includes("1,048,576 tokens"),
      sel,
    );
    await settled(page);
    const row = page.locator(`${sel} tbody tr[data-layout]`).first();
    for (const [attr, value] of [
      ["data-dp", top.dp],
      ["data-tp", top.tp],
      ["data-pp", top.pp],
      ["data-cp", top.cp],
      ["data-ep", top.ep],
      ["data-zero", top.zeroStage],
      ["data-gb-per-gpu", (top.memoryBytes / 1e9).toFixed(1)],
      ["data-step-seconds", top.stepSeconds],
    ] as const)
      assert.equal(await row.getAttribute(attr), String(value), attr);
    assert.ok((await firstRow(page)).includes("DeepSpeed"));
    assert.match(
      await readout(page),
      new RegExp(`${expected.configsTried.toLocaleString("en-US")} configurations tried`),
    );
    assert.match(await readout(page), /within 72\.0 GB usable of 80 GB \(90%\)/);
    await page.waitForFunction(() => location.search.includes("widget-config-finder-1="));
    const state = new URL(page.url()).searchParams.get("widget-config-finder-1")!;
    assert.equal(
      state,
      "model:llama-3.1-8b,gpu:a100-sxm-80gb,framework:deepspeed,gpuCount:64,seqLength:4096,globalBatch:256",
    );
    await context.close();

    // The link restores the same search.
    const again = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const restored = await again.newPage();
    await openWidget(restored, `?widget-config-finder-1=${state}`);
    await settled(restored);
    assert.equal(await restored.locator(`${sel} input[name=gpuCount]`).inputValue(), "64");
    assert.equal(
      await restored.locator(`${sel} tbody tr[data-layout]`).first().getAttribute("data-step-seconds"),
      String(top.stepSeconds),
    );
    await again.close();
  });

  it("precision fp8: the rows are the step model's fp8 rows with the fp8 band; on an A100 the select says why and the result dims", async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await openWidget(page);
    const fp8 = { ...configFinderDefaults, precision: "fp8" as const };
    const expected = runConfigFinder(fp8);
    const top = expected.ranked[0]!;
    await page.selectOption(`${sel} select[name=precision]`, "fp8");
    await page.waitForFunction(
      (s) =>
        document.querySelector(`${s} .config-finder-readout`)?.textContent?.includes("against the dense bf16 peak"),
      sel,
    );
    await settled(page);
    const row = page.locator(`${sel} tbody tr[data-layout]`).first();
    assert.equal(await row.getAttribute("data-step-seconds"), String(top.stepSeconds));
    assert.equal(await row.getAttribute("data-gb-per-gpu"), (top.memoryBytes / 1e9).toFixed(1));
    assert.ok((await readout(page)).includes(errorBandText(finderErrorBands(), top, false, "fp8")));
    assert.match(
      (await page.locator(`${sel} .config-finder-note`).textContent()) ?? "",
      /fp8: the linear layers' matmuls/,
    );
    await page.waitForFunction(() => location.search.includes("precision:fp8"));
    // fp8 on an A100: one sentence beside the precision select, the last result dimmed and kept.
    const before = await readout(page);
    await page.selectOption(`${sel} select[name=gpu]`, "a100-sxm-80gb");
    const precision = page.locator(`${sel} select[name=precision]`);
    await page.waitForFunction(
      (s) => document.querySelector(`${s} select[name=precision]`)?.getAttribute("aria-invalid") === "true",
      sel,
    );
    const message = await page.locator(`#${await precision.getAttribute("aria-describedby")}`).textContent();
    assert.match(message ?? "", /A100.*no fp8 tensor cores/);
    assert.equal(await page.locator(`${sel} .config-finder-output.widget-stale`).count(), 1, "dimmed");
    assert.equal(await readout(page), before);
    // Back to bf16: the message goes and the A100's rows are drawn.
    await page.selectOption(`${sel} select[name=precision]`, "bf16");
    await settled(page);
    assert.equal(await precision.getAttribute("aria-invalid"), null);
    const a100 = runConfigFinder({ ...configFinderDefaults, gpu: "a100-sxm-80gb" });
    if (a100.ranked[0])
      assert.equal(
        await page.locator(`${sel} tbody tr[data-layout]`).first().getAttribute("data-step-seconds"),
        String(a100.ranked[0].stepSeconds),
      );
    await context.close();
  });

  it("248 GPUs and 512 sequences: names the cause and the nearest batch and GPU counts that work", async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await openWidget(page);
    await page.fill(`${sel} input[name=gpuCount]`, "248");
    await page.waitForFunction(
      (s) => document.querySelector(`${s} .config-finder-readout`)?.textContent?.startsWith("Nothing fits"),
      sel,
    );
    const text = await readout(page);
    assert.match(text, /248 GPUs do not divide the global batch of 512 sequences: .*factor 31/);
    assert.match(text, /Nearest settings that fit: a global batch of 496 or 527 sequences, or 128 or 256 GPUs\./);
    assert.equal(await page.locator(`${sel} tbody tr`).count(), 0);
    await context.close();
  });

  it("marks hostile input invalid, dims the last result and keeps it", async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await openWidget(page);
    const before = await readout(page);
    for (const [name, value] of [
      ["gpuCount", "-8"],
      ["gpuCount", "0"],
      ["gpuCount", "1e40"],
      ["seqLength", "abc"],
      ["globalBatch", ""],
      ["gpuCount", "2.5"],
    ]) {
      const input = page.locator(`${sel} input[name=${name}]`);
      await input.fill(value);
      await page.waitForFunction(
        ([s, n]) => document.querySelector(`${s} input[name=${n}]`)?.getAttribute("aria-invalid") === "true",
        [sel, name],
      );
      const message = await page.locator(`#${await input.getAttribute("aria-describedby")}`).textContent();
      assert.ok(message && message.length > 5, `message for ${name}=${value}`);
      assert.equal(await readout(page), before);
      assert.equal(await page.locator(`${sel} .config-finder-output.widget-stale`).count(), 1, "dimmed");
      const svg = (await page.locator(`${sel} .config-finder-figure svg`).textContent()) ?? "";
      assert.doesNotMatch(svg + before, /NaN|Infinity|undefined/);
      await input.fill(name === "gpuCount" ? "256" : name === "seqLength" ? "8192" : "512");
      await page.waitForFunction(
        ([s, n]) => document.querySelector(`${s} input[name=${n}]`)?.getAttribute("aria-invalid") === null,
        [sel, name],
      );
    }
    await settled(page);
    assert.equal(await readout(page), before);
    // A GPU count with nothing that fits explains why instead of drawing bars.
    await page.fill(`${sel} input[name=gpuCount]`, "1");
    await page.waitForFunction(
      (s) => document.querySelector(`${s} .config-finder-readout`)?.textContent?.startsWith("Nothing fits"),
      sel,
    );
    await context.close();
  });

  it("each row opens the memory explorer in the same state: the same GB per GPU, a trimmed stage split included", async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await openWidget(page);
    const rows = page.locator(`${sel} tbody tr[data-layout]`);
    assert.equal(await rows.count(), 5);
    for (const i of [0, 4]) {
      const row = rows.nth(i);
      const gb = await row.getAttribute("data-gb-per-gpu");
      const href = await row.locator('a[data-open-in="memory-explorer"]').getAttribute("href");
      assert.ok(href && gb);
      const explorer = await context.newPage();
      await explorer.goto(new URL(href, page.url()).href);
      await explorer.waitForFunction(() => document.querySelector('[data-widget="memory-explorer"] form') !== null);
      const verdict = explorer.locator('[data-widget="memory-explorer"] [data-verdict]');
      assert.equal(await verdict.getAttribute("data-total-gb"), gb, href);
      assert.ok(((await verdict.textContent()) ?? "").includes(`${gb} GB per GPU`));
      await explorer.close();
    }
    // Without CP and above ZeRO-1 the fastest row trims a layer off each end stage (19/21/21/19):
    // with 20 layers per stage its first stage would not fit. The link carries the split, so the
    // explorer prices the same layers per stage and shows the row's GB; the even split shows more.
    await openWidget(page, "?widget-config-finder-1=maxCp:1,maxZero:1");
    await settled(page);
    const trimmed = rows.first();
    assert.equal(await trimmed.getAttribute("data-stage-layers"), "19,21,21,19");
    const gb = await trimmed.getAttribute("data-gb-per-gpu");
    const href = await trimmed.locator('a[data-open-in="memory-explorer"]').getAttribute("href");
    assert.ok(href && gb && /(^|[,=])split:trimmed(,|&|#|$)/.test(decodeURIComponent(href)), href ?? "");
    const explorer = await context.newPage();
    await explorer.goto(new URL(href, page.url()).href);
    await explorer.waitForFunction(() => document.querySelector('[data-widget="memory-explorer"] form') !== null);
    const widget = explorer.locator('[data-widget="memory-explorer"]');
    assert.equal(await widget.locator("[data-verdict]").getAttribute("data-total-gb"), gb, href);
    assert.equal(await widget.locator("[name=split]").inputValue(), "trimmed");
    assert.equal(await widget.locator(".mx-split-layers").textContent(), "Layers per stage: 19, 21, 21, 19");
    await widget.locator("[name=split]").selectOption("even");
    await explorer.waitForFunction(
      (g) =>
        document.querySelector('[data-widget="memory-explorer"] [data-verdict]')?.getAttribute("data-total-gb") !== g,
      gb,
    );
    const evenGb = Number(await widget.locator("[data-verdict]").getAttribute("data-total-gb"));
    assert.ok(evenGb > Number(gb), `the even split needs more: ${evenGb} against ${gb}`);
    assert.equal(await widget.locator("[data-verdict]").getAttribute("data-verdict"), "over");
    await explorer.close();
    await context.close();
  });

  it("a row's disclosure shows its breakdown and launch texts with the row's degrees, at desktop and phone widths", async () => {
    for (const [width, height, name] of [
      [1280, 900, "desktop"],
      [390, 844, "phone"],
    ] as const) {
      const context = await site.browser.newContext({
        viewport: { width, height },
        deviceScaleFactor: width < 500 ? 2 : 1,
      });
      const page = await context.newPage();
      const problems = watchPage(page, site.server.url);
      await openWidget(page);
      await settled(page);
      const row = page.locator(`${sel} tbody tr[data-layout]`).first();
      const before = await row.getAttribute("data-layout");
      const detail = page.locator(`${sel} tbody tr.config-finder-detail`).first();
      assert.equal(await detail.locator("details").getAttribute("open"), null, "closed until asked");
      await detail.locator("summary").click();
      assert.equal(await detail.locator("pre[data-launch]").first().isVisible(), true);
      if (width < 500) {
        // The widget redraws at the phone's width once its worker answers: the open row stays open.
        await page.waitForFunction(
          (s) =>
            Number(document.querySelector(`${s} .config-finder-figure svg`)?.getAttribute("viewBox")?.split(" ")[2]) <
            560,
          sel,
        );
        assert.equal(await row.getAttribute("data-layout"), before);
        assert.equal(await detail.locator("details").getAttribute("open"), "", "still open after the redraw");
      }
      const attr = async (a: string) => Number(await row.getAttribute(a));
      const [dp, tp, pp, cp] = await Promise.all(["data-dp", "data-tp", "data-pp", "data-cp"].map(attr));
      const texts = new Map<string, string>();
      for (const framework of ["megatron", "torchtitan", "fsdp2", "deepspeed"]) {
        const pre = detail.locator(`pre[data-launch="${framework}"]`);
        const refused = detail.locator(`[data-launch-refused="${framework}"]`);
        const n = (await pre.count()) + (await refused.count());
        assert.equal(n, 1, `${framework}: a text or a refusal`);
        if ((await pre.count()) === 1) texts.set(framework, (await pre.textContent()) ?? "");
        else assert.ok(((await refused.textContent()) ?? "").length > 30, `${framework} says why`);
      }
      // The default case's top row is FSDP2 (ZeRO-3): torchtitan and the FSDP2 snippet carry its degrees.
      const titan = texts.get("torchtitan");
      assert.ok(titan, "torchtitan text");
      assert.match(titan, new RegExp(`data_parallel_shard_degree = ${dp}\\n`));
      assert.match(titan, new RegExp(`tensor_parallel_degree = ${tp}\\n`));
      assert.match(titan, new RegExp(`context_parallel_degree = ${cp}\\n`));
      assert.match(titan, new RegExp(`pipeline_parallel_degree = ${pp}\\n`));
      const fsdp = texts.get("fsdp2");
      assert.ok(fsdp && fsdp.includes(`(${pp}, ${dp}, ${cp}, ${tp}), mesh_dim_names=("pp", "dp", "cp", "tp")`));
      // Each text has its copy button; the page does not scroll sideways, a long line scrolls in its box.
      assert.equal(await detail.locator(".code-block .code-copy").count(), texts.size);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${name}: page overflows by ${overflow}px`);
      const table = page.locator(`${sel} .config-finder-table`);
      const scroll = page.locator(`${sel} .config-finder-scroll`);
      if (width >= 1280) {
        const [tw, bw] = await Promise.all([
          table.evaluate((t) => t.scrollWidth),
          scroll.evaluate((b) => b.clientWidth),
        ]);
        assert.ok(tw <= bw, `${name}: the open row widens the table to ${tw}px in ${bw}px`);
      }
      await detail.evaluate((el) => el.scrollIntoView({ block: "start" }));
      const box = await detail.boundingBox();
      assert.ok(box);
      await keepScreenshot(page, `${shots}/config-finder-row-${name}.png`, {
        clip: { x: 0, y: box.y, width, height: Math.min(box.height, 1400) },
        timeout: 10_000,
      });
      assert.deepEqual(problems, { consoleErrors: [], pageErrors: [], offOrigin: [], failed: [] });
      await context.close();
    }
  });

  it("shows every column at 1280 px, fits a phone, and dark mode", async () => {
    const wide = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const widePage = await wide.newPage();
    await openWidget(widePage);
    const table = widePage.locator(`${sel} .config-finder-table`);
    const scroll = widePage.locator(`${sel} .config-finder-scroll`);
    const [tableWidth, boxWidth] = await Promise.all([
      table.evaluate((t) => t.scrollWidth),
      scroll.evaluate((b) => b.clientWidth),
    ]);
    assert.ok(tableWidth <= boxWidth, `table ${tableWidth}px in a ${boxWidth}px box: a column is scrolled out of view`);
    for (const head of ["Step", "MFU", "GB/GPU"])
      assert.equal(await widePage.locator(`${sel} thead th`, { hasText: head }).first().isVisible(), true, head);
    await wide.close();
    const phone = await site.browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
    const page = await phone.newPage();
    await openWidget(page);
    // The build drew the bars 640 px wide; the widget redraws them at the phone's width once its worker answers.
    await page.waitForFunction(
      (s) =>
        Number(document.querySelector(`${s} .config-finder-figure svg`)?.getAttribute("viewBox")?.split(" ")[2]) < 560,
      sel,
    );
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `page overflows by ${overflow}px`);
    const cell = page.locator(`${sel} tbody tr`).first().locator("td").nth(11);
    assert.equal(await cell.isVisible(), true, "the step time is readable on a phone");
    const box = await cell.boundingBox();
    assert.ok(box && box.x + box.width <= 390, "the step time is inside the screen");
    await shoot(page, `${shots}/config-finder-phone.png`);
    await phone.close();
    const dark = await site.browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: "dark" });
    const darkPage = await dark.newPage();
    await openWidget(darkPage);
    await shoot(darkPage, `${shots}/config-finder-dark.png`);
    await dark.close();
  });

  for (const [label, viewport] of [
    ["desktop", { width: 1280, height: 900 }],
    ["phone", { width: 390, height: 844 }],
  ] as const) {
    it(`the planner at ${label} width: a constraint changes the rows, a bad config.json dims the result, a named layout ranks`, async () => {
      const context = await site.browser.newContext({ viewport, deviceScaleFactor: label === "phone" ? 2 : 1 });
      const page = await context.newPage();
      const problems = watchPage(page, site.server.url);
      await openWidget(page);
      await settled(page);
      const firstTp = await page.locator(`${sel} tbody tr[data-layout]`).first().getAttribute("data-tp");
      // A constraint: TP at most 1 and no CP.
      const expected = runConfigFinder({ ...configFinderDefaults, maxTp: 1, maxCp: 1 });
      assert.ok(expected.ranked.length > 0);
      await page.locator(`${sel} details.config-finder-more summary`).click();
      await page.fill(`${sel} input[name=maxTp]`, "1");
      await page.fill(`${sel} input[name=maxCp]`, "1");
      await page.waitForFunction(
        ([s, step]) => document.querySelector(`${s} tbody tr[data-layout]`)?.getAttribute("data-step-seconds") === step,
        [sel, String(expected.ranked[0]!.stepSeconds)] as const,
      );
      await settled(page);
      const rows = page.locator(`${sel} tbody tr[data-layout]`);
      for (let i = 0; i < (await rows.count()); i++) {
        assert.equal(await rows.nth(i).getAttribute("data-tp"), "1");
        assert.equal(await rows.nth(i).getAttribute("data-cp"), "1");
      }
      assert.notEqual(firstTp, null);
      await page.waitForFunction(() => location.search.includes("maxTp:1,maxCp:1"));
      // An invalid constraint is named beside its field and dims the result.
      await page.fill(`${sel} input[name=maxPp]`, "0");
      const ppMessage = page.locator(
        `#${await page.locator(`${sel} input[name=maxPp]`).getAttribute("aria-describedby")}`,
      );
      assert.match((await ppMessage.textContent()) ?? "", /^Largest PP: /);
      assert.equal(await page.locator(`${sel} .config-finder-output.widget-stale`).count(), 1);
      await page.fill(`${sel} input[name=maxPp]`, "");
      await settled(page);
      // A named layout: its rank appears.
      const row = expected.ranked[7]!;
      const layout = `DP ${row.dp} TP ${row.tp} PP ${row.pp} CP ${row.cp} ZeRO ${row.zeroStage} b ${row.microBatchSize} ${row.recompute}`;
      const verdict = namedVerdict({ ...configFinderDefaults, maxTp: 1, maxCp: 1, layout }, expected.ranked)!;
      assert.equal(verdict.status, "ranked");
      await page.fill(`${sel} input[name=layout]`, layout);
      await page.waitForFunction(
        ([s, rank]) => document.querySelector(`${s} .config-finder-named`)?.getAttribute("data-named-rank") === rank,
        [sel, String(verdict.rank)] as const,
      );
      assert.equal(await page.locator(`${sel} .config-finder-named`).textContent(), verdict.text);
      // Tokens to train: days in the explanation and per row.
      await page.fill(`${sel} input[name=tokens]`, "15T");
      await page.waitForFunction(
        (s) => document.querySelector(`${s} .config-finder-readout`)?.textContent?.includes("Training on 15T tokens"),
        sel,
      );
      assert.match(
        (await page.locator(`${sel} .config-finder-train`).textContent()) ?? "",
        /^Time to train 15T tokens/,
      );
      assert.ok((await readout(page)).includes(errorBandText(finderErrorBands(), expected.ranked[0]!, false)));
      await settled(page);
      await shoot(page, `${shots}/config-finder-planner-${label}.png`);
      await keepScreenshot(
        page.locator(`${sel} .config-finder-output`),
        `${shots}/config-finder-planner-output-${label}.png`,
      );
      // A custom model with a config.json that is not JSON: named beside the box, results dimmed.
      await page.selectOption(`${sel} select[name=model]`, "custom");
      const box = page.locator(`${sel} textarea[name=config]`);
      assert.equal(await box.isVisible(), true);
      await box.fill('{ "hidden_size": 4096, ');
      await page.waitForFunction(
        (s) => document.querySelector(`${s} textarea[name=config]`)?.getAttribute("aria-invalid") === "true",
        sel,
      );
      const message = page.locator(`#${await box.getAttribute("aria-describedby")}`);
      assert.match((await message.textContent()) ?? "", /^config\.json is not valid JSON: /);
      assert.equal(await page.locator(`${sel} .config-finder-output.widget-stale`).count(), 1, "dimmed");
      // A config that lacks a field names it.
      const llama = { ...findModelPreset("llama-3.1-8b")!.config } as Record<string, unknown>;
      delete llama["num_attention_heads"];
      await box.fill(JSON.stringify(llama, null, 1));
      await page.waitForFunction((s) => {
        const t = document.querySelector(`${s} textarea[name=config]`);
        const id = t?.getAttribute("aria-describedby");
        return id ? document.getElementById(id)?.textContent?.includes("num_attention_heads") : false;
      }, sel);
      assert.equal(await page.locator(`${sel} .config-finder-output.widget-stale`).count(), 1, "still dimmed");
      await keepScreenshot(
        page.locator(`${sel} .config-finder-config`),
        `${shots}/config-finder-config-error-${label}.png`,
      );
      await keepScreenshot(
        page.locator(`${sel} .config-finder-output`),
        `${shots}/config-finder-config-stale-${label}.png`,
      );
      // The whole config: the search runs on it, as on the preset.
      const custom = runConfigFinder({
        ...configFinderDefaults,
        model: "custom",
        config: compactModelConfig(findModelPreset("llama-3.1-8b")!.config as Record<string, unknown>),
        maxTp: 1,
        maxCp: 1,
      });
      await box.fill(JSON.stringify(findModelPreset("llama-3.1-8b")!.config, null, 1));
      await page.waitForFunction(
        ([s, step]) => document.querySelector(`${s} tbody tr[data-layout]`)?.getAttribute("data-step-seconds") === step,
        [sel, String(custom.ranked[0]!.stepSeconds)] as const,
      );
      await settled(page);
      assert.equal(await box.getAttribute("aria-invalid"), null);
      if (label === "phone") {
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 0, `page overflows by ${overflow}px`);
      }
      assert.deepEqual(problems, { consoleErrors: [], pageErrors: [], offOrigin: [], failed: [] });
      await context.close();
    });
  }

  it("the planner in dark mode", async () => {
    const dark = await site.browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: "dark" });
    const page = await dark.newPage();
    const row = runConfigFinder({ ...configFinderDefaults, maxCp: 1 }).ranked[7]!;
    const layout = `dp${row.dp}-tp${row.tp}-pp${row.pp}-cp1-ep1-zero${row.zeroStage}-b${row.microBatchSize}-${row.recompute}`;
    await openWidget(page, `?widget-config-finder-1=maxCp:1,tokens:15T,layout:${layout}`);
    await settled(page);
    await page.waitForFunction(
      (s) => document.querySelector(`${s} .config-finder-named[data-named-rank]`) !== null,
      sel,
    );
    assert.equal(await page.locator(`${sel} details.config-finder-more`).getAttribute("open"), "");
    await shoot(page, `${shots}/config-finder-planner-dark.png`);
    await keepScreenshot(
      page.locator(`${sel} .config-finder-output`),
      `${shots}/config-finder-planner-output-dark.png`,
    );
    await dark.close();
  });
});
