/**
 * The roofline widget in Chromium on the built GPU-kernels chapter, with Plotly:
 * - neither the widget nor Plotly loads before the reader scrolls near it; after scrolling,
 *   Plotly's chunk is fetched and a Plotly graph replaces the static SVG; nothing is fetched
 *   from another origin; no console error;
 * - the graph holds the roof, the ridge and one trace per operation, with the model's numbers;
 *   a 4096 × 4096 × 4096 bf16 matmul added from the form lands where src/model puts it, and
 *   hovering it shows those numbers;
 * - changing the GPU moves the ridge point; bad input shows a message and keeps the last chart;
 * - the dark theme re-colors the chart; phone width fits without sideways scrolling.
 * Screenshots: test-output/screenshots/roofline-{desktop,hover,dark,phone,phone-dark}.png.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { watchPage } from "../../harness/chromium.ts";
import { keepScreenshot } from "../helpers/screenshots.ts";
import { useSiteAndBrowser } from "../../harness/site-and-browser.ts";
import { attainableFlopsPerSecond, findGpu, matmulCost, ridgePointFlopsPerByte } from "../../src/model/index.ts";

const shots = "test-output/screenshots";
const W = '[data-widget="roofline"]';
const site = useSiteAndBrowser();

interface Trace {
  name: string;
  x: number[];
  y: number[];
  customdata?: unknown[][];
}

/** Scrolls to the widget and waits for the Plotly graph; returns ms from the scroll to the drawn chart. */
async function openChart(page: Page): Promise<number> {
  if (!page.url().endsWith("/gpu-kernels/")) await page.goto(`${site.server.url}/gpu-kernels/`, { waitUntil: "load" });
  const t0 = await page.evaluate(() => performance.now());
  await page.locator(W).evaluate((el) => el.scrollIntoView({ block: "start", behavior: "instant" }));
  await page.waitForFunction((w) => (document.querySelector(w) as HTMLElement | null)?.dataset.chart === "plotly", W, {
    timeout: 15_000,
  });
  return (await page.evaluate(() => performance.now())) - t0;
}

async function traces(page: Page): Promise<Trace[]> {
  return page.evaluate((w) => {
    const gd = document.querySelector(`${w} .js-plotly-plot`) as unknown as { data: Trace[] };
    return JSON.parse(JSON.stringify(gd.data)) as Trace[];
  }, W);
}

/** Waits until Plotly has redrawn: a trace named `name` exists, or trace `index` starts at x. */
async function waitTraces(page: Page, want: { name: string } | { index: number; x: number }): Promise<void> {
  await page.waitForFunction(
    ([w, q]) => {
      const gd = document.querySelector(`${w} .js-plotly-plot`) as unknown as { data?: Trace[] } | null;
      if (!gd?.data) return false;
      if ("name" in q) return gd.data.some((t) => t.name === q.name);
      return gd.data[q.index]?.x[0] === q.x;
    },
    [W, want] as const,
    { timeout: 10_000 },
  );
}

async function shoot(page: Page, path: string): Promise<void> {
  const widget = page.locator(W);
  await widget.evaluate((el) => el.scrollIntoView({ block: "start", behavior: "instant" }));
  const box = await widget.boundingBox();
  assert.ok(box);
  const vp = page.viewportSize()!;
  await keepScreenshot(page, path, {
    clip: {
      x: Math.max(0, box.x),
      y: Math.max(0, box.y),
      width: Math.min(box.width, vp.width),
      height: Math.min(box.height, vp.height - Math.max(0, box.y)),
    },
    timeout: 10_000,
  });
}

const h100 = findGpu("h100-sxm")!;
const a100 = findGpu("a100-sxm-80gb")!;

describe("roofline widget with Plotly", () => {
  it("loads Plotly only when scrolled near, draws the model's roofline and points, hovers, follows GPU, bad input and theme", async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: "light" });
    const page = await context.newPage();
    const problems = watchPage(page, site.server.url);
    await page.goto(`${site.server.url}/gpu-kernels/`, { waitUntil: "load" });
    assert.ok(
      !site.server.requests.some((r) => /plotly/i.test(r) || r.endsWith("/widgets/roofline.js")),
      "roofline or Plotly loaded before scrolling",
    );
    const ms = await openChart(page);
    console.log(
      `roofline: scroll to Plotly chart ${Math.round(ms)} ms (mount to chart ${await page.locator(W).getAttribute("data-chart-ms")} ms)`,
    );
    assert.ok(
      site.server.requests.some((r) => /\/assets\/js\/widgets\/chunks\/plotly[^/]*\.js$/.test(r)),
      "Plotly chunk requested after scrolling",
    );

    // The graph replaced the static SVG and describes itself.
    const plot = page.locator(`${W} .js-plotly-plot`);
    assert.equal(await plot.count(), 1);
    assert.equal(await page.locator(`${W} svg.roofline-svg`).count(), 0);
    assert.equal(await plot.getAttribute("role"), "img");
    assert.match(
      (await plot.getAttribute("aria-label")) ?? "",
      /^Roofline chart of the NVIDIA H100 SXM5 80GB in bf16, log-log axes: ridge at 295 FLOP\/byte, peak 989\.4 TFLOPS\. MLP matmul 8192×4096×14336: 2,294 FLOP\/byte, compute-bound, 989\.4 TFLOPS; /,
    );

    // One roof, the ridge guide and point, six operations, with the model's numbers.
    let data = await traces(page);
    assert.deepEqual(
      data.map((t) => t.name),
      [
        "roofline: NVIDIA H100 SXM5 80GB, bf16",
        "ridge guide",
        "ridge point",
        "MLP matmul",
        "residual add",
        "softmax",
        "RMSNorm",
        "attention, scores in HBM",
        "attention, fused",
      ],
    );
    const ridgeH100 = ridgePointFlopsPerByte(h100.bf16FlopsPerSecond, h100.hbmBytesPerSecond);
    assert.equal(data[2]!.x[0], ridgeH100);
    assert.equal(data[2]!.y[0], h100.bf16FlopsPerSecond / 1e12);
    assert.deepEqual(data[0]!.y.slice(1), [h100.bf16FlopsPerSecond / 1e12, h100.bf16FlopsPerSecond / 1e12]);
    const mlp = matmulCost(8192, 14336, 4096);
    assert.equal(data[3]!.x[0], mlp.intensityFlopsPerByte);

    // Add a 4096³ bf16 matmul from the form: it lands at the model's intensity and rate.
    assert.equal(await page.locator(`${W} input[name=op-a]`).isVisible(), false, "the form starts closed");
    await page.click(`${W} details.roofline-add-details > summary`);
    await page.selectOption(`${W} select[name=op-kind]`, "matmul");
    for (const f of ["a", "b", "c"]) await page.fill(`${W} input[name=op-${f}]`, "4096");
    await page.click(`${W} .roofline-add button`);
    const cube = matmulCost(4096, 4096, 4096, 2);
    const cubeRate = attainableFlopsPerSecond(
      cube.intensityFlopsPerByte,
      h100.bf16FlopsPerSecond,
      h100.hbmBytesPerSecond,
    );
    await waitTraces(page, { name: "matmul 4,096×4,096×4,096" });
    data = await traces(page);
    const added = data.find((t) => t.name === "matmul 4,096×4,096×4,096")!;
    assert.equal(added.x[0], cube.intensityFlopsPerByte);
    assert.equal(added.y[0], cubeRate / 1e12);
    assert.deepEqual(added.customdata![0], ["matmul 4,096×4,096×4,096", "1,365", "989.4", "compute", "custom-0"]);
    assert.match(
      (await page.locator(`${W} .roofline-legend`).textContent()) ?? "",
      /matmul 4,096×4,096×4,096: 1,365 FLOP\/byte, compute-bound, 989\.4 TFLOPS/,
    );
    assert.match(
      (await page.locator(`${W} [aria-live]`).textContent()) ?? "",
      /^Added matmul 4,096×4,096×4,096: 1,365 FLOP\/byte/,
    );

    // Hover the added point (the last trace): Plotly's label shows the same numbers.
    const point = page.locator(`${W} .scatterlayer .trace`).last().locator("path.point");
    const pb = await point.boundingBox();
    assert.ok(pb, "the added point is drawn");
    await page.mouse.move(pb.x + pb.width / 2, pb.y + pb.height / 2);
    await page.waitForFunction((w) => document.querySelector(`${w} .hoverlayer .hovertext`) !== null, W);
    const hover = (await page.locator(`${W} .hoverlayer .hovertext`).textContent()) ?? "";
    assert.match(hover, /matmul 4,096×4,096×4,096/);
    assert.match(hover, /arithmetic intensity 1,365 FLOP\/byte/);
    assert.match(hover, /attainable 989\.4 TFLOPS/);
    assert.match(hover, /compute-bound/);
    await shoot(page, `${shots}/roofline-hover.png`);
    await page.mouse.move(5, 5);

    // A matmul with 16 rows on the H100 is memory-bound; the hover template says so.
    await page.fill(`${W} input[name=tokens]`, "16");
    const thin = matmulCost(16, 14336, 4096);
    await waitTraces(page, { index: 3, x: thin.intensityFlopsPerByte });
    data = await traces(page);
    assert.equal(
      data[3]!.y[0],
      attainableFlopsPerSecond(thin.intensityFlopsPerByte, h100.bf16FlopsPerSecond, h100.hbmBytesPerSecond) / 1e12,
    );
    assert.deepEqual(data[3]!.customdata![0]!.slice(1, 4), ["15.9", "53.3", "memory"]);

    // Changing the GPU moves the ridge point to the model's value.
    await page.selectOption(`${W} select[name=gpu]`, "a100-sxm-80gb");
    const ridgeA100 = ridgePointFlopsPerByte(a100.bf16FlopsPerSecond, a100.hbmBytesPerSecond);
    await waitTraces(page, { index: 2, x: ridgeA100 });
    assert.notEqual(ridgeA100, ridgeH100);
    data = await traces(page);
    assert.equal(data[2]!.y[0], a100.bf16FlopsPerSecond / 1e12);
    assert.equal(
      data.find((t) => t.name.startsWith("matmul 4,096"))!.y[0],
      attainableFlopsPerSecond(cube.intensityFlopsPerByte, a100.bf16FlopsPerSecond, a100.hbmBytesPerSecond) / 1e12,
    );
    assert.match(
      (await page.locator(`${W} [aria-live]`).textContent()) ?? "",
      /NVIDIA A100 SXM4 80GB, bf16: ridge at 153 FLOP\/byte/,
    );

    // Bad input: a message next to the field, the chart keeps its last good state, never NaN.
    const frozen = JSON.stringify(await traces(page));
    for (const [field, values] of [
      ["input[name=tokens]", ["-5", "0", "1e40", "NaN", "abc", ""]],
      ["input[name=seq]", ["0", "-1", "99999999999"]],
      ["input[name=op-a]", ["0", "-3", "NaN", "1e9"]],
    ] as const) {
      for (const value of values) {
        const input = page.locator(`${W} ${field}`);
        await input.fill(value);
        if (field.includes("op-")) await page.click(`${W} .roofline-add button`);
        assert.equal(await input.getAttribute("aria-invalid"), "true", `${field} = "${value}"`);
        const id = ((await input.getAttribute("aria-describedby")) ?? "").split(" ")[0];
        assert.ok(
          ((await page.locator(`[id="${id}"]`).textContent()) ?? "").length > 0,
          `${field} = "${value}": message shown`,
        );
        assert.equal(JSON.stringify(await traces(page)), frozen, `${field} = "${value}": chart unchanged`);
        assert.ok(
          !/NaN|Infinity|undefined/.test((await page.locator(W).textContent()) ?? ""),
          `${field} = "${value}": no NaN`,
        );
      }
    }
    await page.fill(`${W} input[name=tokens]`, "8192");
    await page.fill(`${W} input[name=seq]`, "4096");
    await page.fill(`${W} input[name=op-a]`, "4096");
    // fp8 on an A100 is refused, the chart stays.
    await page.selectOption(`${W} select[name=precision]`, "fp8");
    assert.equal(await page.locator(`${W} select[name=precision]`).getAttribute("aria-invalid"), "true");
    await page.selectOption(`${W} select[name=gpu]`, "h100-sxm");
    await waitTraces(page, { name: "roofline: NVIDIA H100 SXM5 80GB, fp8" });
    await page.selectOption(`${W} select[name=precision]`, "bf16");
    await waitTraces(page, { index: 2, x: ridgeH100 });
    await shoot(page, `${shots}/roofline-desktop.png`);

    // Dark theme (as the header's toggle sets it): background and text colors change.
    const colors = () =>
      page.evaluate((w) => {
        const gd = document.querySelector(`${w} .js-plotly-plot`) as unknown as {
          _fullLayout: { paper_bgcolor: string; font: { color: string } };
        };
        return { bg: gd._fullLayout.paper_bgcolor, text: gd._fullLayout.font.color };
      }, W);
    const light = await colors();
    await page.evaluate(() => document.documentElement.setAttribute("data-theme", "dark"));
    await page.waitForFunction(
      ([w, bg]) =>
        (document.querySelector(`${w} .js-plotly-plot`) as unknown as { _fullLayout: { paper_bgcolor: string } })
          ._fullLayout.paper_bgcolor !== bg,
      [W, light.bg] as const,
    );
    const dark = await colors();
    assert.notEqual(dark.bg, light.bg);
    assert.notEqual(dark.text, light.text);
    const cssDark = await page.evaluate(
      (w) => getComputedStyle(document.querySelector(w)!).getPropertyValue("--c-surface").trim(),
      W,
    );
    assert.equal(dark.bg.toLowerCase(), cssDark.toLowerCase());
    await shoot(page, `${shots}/roofline-dark.png`);

    assert.deepEqual(problems, { consoleErrors: [], pageErrors: [], offOrigin: [], failed: [] });
    await context.close();
  });

  it("fits a phone screen, light and dark", async () => {
    for (const scheme of ["light", "dark"] as const) {
      const phone = await site.browser.newContext({
        viewport: { width: 390, height: 844 },
        deviceScaleFactor: 2,
        colorScheme: scheme,
        hasTouch: true,
        isMobile: true,
      });
      const page = await phone.newPage();
      const problems = watchPage(page, site.server.url);
      await openChart(page);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      assert.ok(overflow <= 0, `the phone layout scrolls sideways by ${overflow}px`);
      const fit = await page.evaluate((w) => {
        const root = document.querySelector(w)!.getBoundingClientRect();
        const svg = document.querySelector(`${w} .js-plotly-plot .main-svg`)!.getBoundingClientRect();
        return { root: root.right, svg: svg.right, width: svg.width };
      }, W);
      assert.ok(
        fit.svg <= fit.root + 0.5 && fit.width > 250,
        `chart ${fit.width}px wide ends at ${fit.svg}, widget at ${fit.root}`,
      );
      await shoot(page, `${shots}/roofline-phone${scheme === "dark" ? "-dark" : ""}.png`);
      assert.deepEqual(problems, { consoleErrors: [], pageErrors: [], offOrigin: [], failed: [] });
      await phone.close();
    }
  });
});
