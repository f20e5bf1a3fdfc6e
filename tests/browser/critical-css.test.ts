/**
 * The first screen painted with a page's inline critical CSS alone looks exactly like the same
 * screen with the full stylesheets (src/plugins/site/critical-css.ts). The first load blocks every
 * `.css` request, which is what a reader sees until the sheets at the end of `<body>` arrive;
 * the second lets them load. book.js is blocked in both, as it has not run at the first paint;
 * theme.js runs (it sets `theme-js` and a stored theme before the body is parsed). Every page of
 * the site in the light theme, at 1280 × 900 and 390 × 844; the dark theme at both sizes, a
 * stored choice of dark on a light system, and JavaScript off on a sample of each kind of page
 * (`variantSample`: 9 of the 23). What those settings change is not the page's own content: the
 * dark theme is custom properties on :root, a stored theme is theme.js's `data-theme`, and
 * without JavaScript the `js` class is missing from the header and the layout every page of a
 * kind shares. A rule the inline CSS lacks for them shows on every page of that kind (built
 * without the `data-theme` rule, this test failed on all of them: docs/performance-log.md,
 * "Safeguards"), so a sample finds it in less than half the loads. With JavaScript on, the full
 * load is also shot a second time without the marks on the blocks that the first paint may skip
 * (`data-skippable`: book.css skips those off screen until the load, on the screens estimated
 * unable to show the text before them): skipping them must not change a pixel of the first screen
 * either. On a difference the screenshots are written to test-output/critical-css/.
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
  /** Every page (the light theme at both sizes), or the sample of each kind of page. */
  pages: "all" | "sample";
  viewport: { width: number; height: number };
  colorScheme: "light" | "dark";
  javaScriptEnabled: boolean;
  /** A theme the reader chose earlier (localStorage), which theme.js puts on <html data-theme>. */
  storedTheme?: "light" | "dark";
}

/**
 * The pages the dark, stored-theme and no-JavaScript settings load: every page that is not a
 * chapter (home, /book/, glossary, search, reading list, changelog: each has its own layout), and
 * one chapter of each kind (the unnumbered preface, a numbered chapter, an appendix).
 */
function variantSample(pages: readonly string[]): string[] {
  const chapters = ["/preface/", "/one-gpu/", "/collectives/"];
  const nonChapters = ["/", "/book/", "/changelog/", "/glossary/", "/reading-list/", "/search/"];
  return pages.filter((p) => chapters.includes(p) || nonChapters.includes(p));
}

const settings: Setting[] = [
  {
    name: "desktop-light",
    pages: "all",
    viewport: { width: 1280, height: 900 },
    colorScheme: "light",
    javaScriptEnabled: true,
  },
  {
    name: "desktop-dark",
    pages: "sample",
    viewport: { width: 1280, height: 900 },
    colorScheme: "dark",
    javaScriptEnabled: true,
  },
  {
    name: "phone-light",
    pages: "all",
    viewport: { width: 390, height: 844 },
    colorScheme: "light",
    javaScriptEnabled: true,
  },
  {
    name: "phone-dark",
    pages: "sample",
    viewport: { width: 390, height: 844 },
    colorScheme: "dark",
    javaScriptEnabled: true,
  },
  {
    name: "desktop-chosen-dark",
    pages: "sample",
    viewport: { width: 1280, height: 900 },
    colorScheme: "light",
    javaScriptEnabled: true,
    storedTheme: "dark",
  },
  {
    name: "desktop-nojs",
    pages: "sample",
    viewport: { width: 1280, height: 900 },
    colorScheme: "light",
    javaScriptEnabled: false,
  },
];

/**
 * A screenshot of the first screen, with or without the page's stylesheets; with `unmarked` (and
 * JavaScript on), a second one after the marks `data-skippable` are taken off the page.
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
        document.querySelectorAll("[data-skippable]").forEach((block) => block.removeAttribute("data-skippable")),
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
    test(`${setting.name}, ${setting.pages === "all" ? "every page" : "each kind of page"}`, async () => {
      const scratch = await site.browser.newPage();
      const failures: string[] = [];
      const pages = setting.pages === "all" ? sitePages() : variantSample(sitePages());
      if (setting.pages === "sample") assert.equal(pages.length, 9, `the sample is in the site: ${pages.join(" ")}`);
      try {
        for (const pagePath of pages) {
          const url = `${site.server.url}${pagePath}`;
          const [critical] = await firstScreen(site.browser, url, setting, false);
          const [full, unmarked] = await firstScreen(site.browser, url, setting, true, true);
          const stem = path.join(outDir, `${setting.name}${pagePath.replace(/\/+/g, "-")}`.replace(/-$/, ""));
          const pairs: Array<[string, Buffer | undefined, string]> = [
            ["critical", critical, "inline rules alone against the full sheets"],
            ["unmarked", unmarked, "skippable blocks skipped and not"],
          ];
          for (const [name, shot, what] of pairs) {
            // The same pixels encode to the same PNG bytes: only a pair that differs is decoded.
            if (!shot || !full || shot.equals(full)) continue;
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

/**
 * The screens at the edge of each rule that skips marked blocks (book.css, "Blocks below the first
 * screen"; SKIP_AFTER in src/plugins/site/critical-css.ts), the widest text column, and the two sizes the
 * paint benchmark loads: on none of them may a block that the screen skips start above the bottom
 * of the first screen, nor a chapter's end matter (book.css: the appendix, the chapter links and
 * the site footer, skipped until the load). The pixel comparison above sees only 1280 × 900 and
 * 390 × 844; this checks where the rules' estimates are tightest. book.js is blocked, as at the
 * first paint (it ends the skipping at the load).
 */
describe("critical CSS: no block that a screen may skip starts on its first screen", () => {
  const screens = [
    { width: 1280, height: 1440 }, // "3000" on every screen not below: about 1,440 px tall
    { width: 991, height: 960 }, // "3000" where the text column is widest (62rem less a pixel)
    { width: 1280, height: 960 }, // "2500": at least 62rem wide, up to 60rem tall
    { width: 1280, height: 912 }, // "1650" on wide screens: at least 62rem wide, up to 57rem tall
    { width: 992, height: 912 }, // the same where its text column is widest (62rem: 43rem, against 41.5rem at 80rem)
    { width: 480, height: 1024 }, // "1650": up to 30rem wide and 64rem tall
    { width: 1280, height: 900 },
    { width: 390, height: 844 },
  ];
  // Each page is loaded once and the window resized through the screens: the rules are media
  // queries on the window's size, which the browser applies again on a resize as on a load.
  test(`every page at ${screens.map((v) => `${v.width} × ${v.height}`).join(", ")}`, async () => {
    const context = await site.browser.newContext({ viewport: screens[0]!, reducedMotion: "reduce" });
    const found: string[] = [];
    let measured = 0;
    try {
      await context.route(/\/assets\/js\/book\.js$/, (route) => route.abort());
      const page = await context.newPage();
      for (const pagePath of sitePages()) {
        await page.setViewportSize(screens[0]!);
        await page.goto(`${site.server.url}${pagePath}`, { waitUntil: "load" });
        for (const viewport of screens) {
          await page.setViewportSize(viewport);
          await settle(page);
          // A block inside a part that is itself skipped (off screen) has no box to measure.
          const onScreen = await page.evaluate(() =>
            [...document.querySelectorAll("[data-skippable], .chapter-page :is(.appendix, .prev-next, .site-footer)")]
              .filter((block) => getComputedStyle(block).contentVisibility === "auto")
              .filter((block) => block.checkVisibility({ contentVisibilityAuto: true }))
              .map((block) => ({ block, top: block.getBoundingClientRect().top + scrollY }))
              .filter(({ top }) => top < innerHeight)
              .map(
                ({ block, top }) =>
                  `<${block.tagName.toLowerCase()} ${block.hasAttribute("data-skippable") ? `data-skippable="${block.getAttribute("data-skippable")}"` : `class="${block.className}"`}> at y ${Math.round(top)}`,
              ),
          );
          const size = await page.evaluate(() => `${innerWidth} × ${innerHeight}`);
          assert.equal(size, `${viewport.width} × ${viewport.height}`, `${pagePath}: the window was not resized`);
          measured++;
          for (const block of onScreen) found.push(`${pagePath} at ${size}: ${block}`);
        }
      }
    } finally {
      await context.close();
    }
    assert.equal(measured, screens.length * sitePages().length);
    assert.deepEqual(found, []);
  });
});

/**
 * A chapter's end matter (book.css: the appendix, the chapter links and the site footer) is
 * skipped from the first paint on, so its rules must be among the inline ones: the first screen
 * never holds it, and Beasties keeps only what the first screen uses unless a rule is marked
 * `beasties:include`. With every stylesheet and book.js blocked, as at the first paint, each
 * chapter's end matter must be `content-visibility: auto` and not rendered, and the appendix must
 * have the placeholder height of the screen's width (62rem and wider, or narrower).
 */
for (const { viewport, appendixHeight } of [
  { viewport: { width: 1280, height: 900 }, appendixHeight: "auto 1350px" },
  { viewport: { width: 390, height: 844 }, appendixHeight: "auto 2450px" },
]) {
  test(`critical CSS: the inline rules alone skip a chapter's end matter, ${viewport.width} × ${viewport.height}`, async () => {
    const context = await site.browser.newContext({ viewport });
    const wrong: string[] = [];
    let chapters = 0;
    try {
      await context.route(/(\/assets\/js\/book\.js|\.css)$/, (route) => route.abort());
      const page = await context.newPage();
      for (const pagePath of sitePages()) {
        await page.goto(`${site.server.url}${pagePath}`, { waitUntil: "load" });
        const found = await page.evaluate((height) => {
          if (!document.body.classList.contains("chapter-page")) return undefined;
          const problems = [".appendix", ".prev-next", "body > .site-footer"].map((selector) => {
            const block = document.querySelector(selector);
            if (!block) return `${selector}: missing`;
            // A skipped block's own box is there; what it holds is not rendered.
            const inside = block.firstElementChild;
            const skipped =
              getComputedStyle(block).contentVisibility === "auto" &&
              inside !== null &&
              !inside.checkVisibility({ contentVisibilityAuto: true });
            return skipped
              ? ""
              : `${selector}: rendered (content-visibility ${getComputedStyle(block).contentVisibility})`;
          });
          const estimate = getComputedStyle(document.querySelector(".appendix")!).containIntrinsicBlockSize;
          if (estimate !== height) problems.push(`.appendix: placeholder ${estimate}, not ${height}`);
          return problems;
        }, appendixHeight);
        if (found === undefined) continue;
        chapters++;
        wrong.push(...found.filter(Boolean).map((f) => `${pagePath} ${f}`));
      }
    } finally {
      await context.close();
    }
    assert.ok(chapters >= 17, `only ${chapters} chapter pages found`);
    assert.deepEqual(wrong, []);
  });
}
