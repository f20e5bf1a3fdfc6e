/**
 * The first screen painted with a page's inline critical CSS alone looks exactly like the same
 * screen with the full stylesheets (src/plugins/critical-css.ts). The first load blocks every
 * `.css` request, which is what a reader sees until the sheets at the end of `<body>` arrive;
 * the second lets them load. book.js is blocked in both, as it has not run at the first paint;
 * theme.js runs (it sets `theme-js` and a stored theme before the body is parsed). Every page of
 * the site, light and dark, at 1280 × 900 and 390 × 844, with a stored choice of dark on a light
 * system, and with JavaScript off. With JavaScript on, the full load is also shot a second time
 * without the marks on the blocks after the first screen (`data-after-first-screen`: book.css
 * skips those off screen until the load): skipping them must not change a pixel of the first
 * screen either. On a difference the screenshots are written to
 * test-output/critical-css/.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { sitePages } from "../../harness/site-pages.ts";
import { useSiteAndBrowser } from "../../harness/site-and-browser.ts";

const site = useSiteAndBrowser();
const outDir = "test-output/critical-css";

interface Setting {
  name: string;
  viewport: { width: number; height: number };
  colorScheme: "light" | "dark";
  javaScriptEnabled: boolean;
  /** A theme the reader chose earlier (localStorage), which theme.js puts on <html data-theme>. */
  storedTheme?: "light" | "dark";
}

const settings: Setting[] = [
  { name: "desktop-light", viewport: { width: 1280, height: 900 }, colorScheme: "light", javaScriptEnabled: true },
  { name: "desktop-dark", viewport: { width: 1280, height: 900 }, colorScheme: "dark", javaScriptEnabled: true },
  { name: "phone-light", viewport: { width: 390, height: 844 }, colorScheme: "light", javaScriptEnabled: true },
  { name: "phone-dark", viewport: { width: 390, height: 844 }, colorScheme: "dark", javaScriptEnabled: true },
  {
    name: "desktop-chosen-dark",
    viewport: { width: 1280, height: 900 },
    colorScheme: "light",
    javaScriptEnabled: true,
    storedTheme: "dark",
  },
  { name: "desktop-nojs", viewport: { width: 1280, height: 900 }, colorScheme: "light", javaScriptEnabled: false },
];

/**
 * A screenshot of the first screen, with or without the page's stylesheets; with `unmarked` (and
 * JavaScript on), a second one after the marks `data-after-first-screen` are taken off the page.
 */
async function firstScreen(
  browser: Browser,
  url: string,
  setting: Setting,
  sheets: boolean,
  unmarked = false,
): Promise<Buffer[]> {
  const context = await browser.newContext({
    viewport: setting.viewport,
    colorScheme: setting.colorScheme,
    javaScriptEnabled: setting.javaScriptEnabled,
    reducedMotion: "reduce",
  });
  try {
    const stored = setting.storedTheme;
    if (stored) await context.addInitScript((theme) => localStorage.setItem("scaling-out-theme", theme), stored);
    await context.route(/\/assets\/js\/book\.js$/, (route) => route.abort());
    if (!sheets) await context.route(/\.css$/, (route) => route.abort());
    const page = await context.newPage();
    await page.goto(url, { waitUntil: "load" });
    // With JavaScript off neither promises nor frames run in the page: the load event, which
    // waits for the fonts that layout asked for, is what there is.
    if (setting.javaScriptEnabled) {
      await page.evaluate(() => document.fonts.ready.then(() => undefined));
      await settle(page);
    }
    const shots = [await page.screenshot({ animations: "disabled" })];
    if (unmarked && setting.javaScriptEnabled) {
      await page.evaluate(() =>
        document
          .querySelectorAll("[data-after-first-screen]")
          .forEach((block) => block.removeAttribute("data-after-first-screen")),
      );
      await settle(page);
      shots.push(await page.screenshot({ animations: "disabled" }));
    }
    return shots;
  } finally {
    await context.close();
  }
}

/** Two frames after the fonts, so the screenshot shows the laid-out page. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
}

/** Pixels that differ between two PNGs of the same size, counted by a canvas in `page`. */
async function differingPixels(page: Page, a: Buffer, b: Buffer): Promise<{ count: number; box: string }> {
  return page.evaluate(
    async (pngs) => {
      // No named functions in here: tsx would wrap them in a helper the page does not have.
      const [x, y] = await Promise.all(
        pngs.map(async (b64) => {
          const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${b64}`)).blob());
          const ctx = new OffscreenCanvas(bitmap.width, bitmap.height).getContext("2d")!;
          ctx.drawImage(bitmap, 0, 0);
          return ctx.getImageData(0, 0, bitmap.width, bitmap.height);
        }),
      );
      if (!x || !y || x.width !== y.width || x.height !== y.height) return { count: -1, box: "sizes differ" };
      let count = 0;
      let [x0, y0, x1, y1] = [Infinity, Infinity, -1, -1];
      for (let i = 0; i < x.data.length; i += 4) {
        if (x.data[i] !== y.data[i] || x.data[i + 1] !== y.data[i + 1] || x.data[i + 2] !== y.data[i + 2]) {
          count++;
          const px = (i / 4) % x.width;
          const py = Math.floor(i / 4 / x.width);
          [x0, y0, x1, y1] = [Math.min(x0, px), Math.min(y0, py), Math.max(x1, px), Math.max(y1, py)];
        }
      }
      return { count, box: count ? `x ${x0}-${x1}, y ${y0}-${y1}` : "" };
    },
    [a.toString("base64"), b.toString("base64")],
  );
}

describe("critical CSS: the first screen looks the same before and after the stylesheets load", () => {
  for (const setting of settings) {
    test(setting.name, async () => {
      const scratch = await site.browser.newPage();
      const failures: string[] = [];
      try {
        for (const pagePath of sitePages()) {
          const url = `${site.server.url}${pagePath}`;
          const [critical] = await firstScreen(site.browser, url, setting, false);
          const [full, unmarked] = await firstScreen(site.browser, url, setting, true, true);
          const stem = path.join(outDir, `${setting.name}${pagePath.replace(/\/+/g, "-")}`.replace(/-$/, ""));
          const pairs: Array<[string, Buffer | undefined, string]> = [
            ["critical", critical, "inline rules alone against the full sheets"],
            ["unmarked", unmarked, "blocks after the first screen skipped and not"],
          ];
          for (const [name, shot, what] of pairs) {
            if (!shot || !full) continue;
            const diff = await differingPixels(scratch, shot, full);
            if (diff.count === 0) continue;
            mkdirSync(outDir, { recursive: true });
            writeFileSync(`${stem}-${name}.png`, shot);
            writeFileSync(`${stem}-full.png`, full);
            failures.push(`${pagePath}, ${what}: ${diff.count} pixels differ (${diff.box}); see ${stem}-*.png`);
          }
        }
      } finally {
        await scratch.close();
      }
      assert.deepEqual(failures, []);
    });
  }
});
