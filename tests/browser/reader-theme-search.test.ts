/**
 * Reader features in a real browser: the theme button (label, persistence across pages, no
 * flash: the stored theme is on <html> before book.js runs), and search (the header box,
 * `/` to focus it, Pagefind hits that name the chapter and the section). Saves screenshots
 * to test-output/screenshots/reader-*.png.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { keepScreenshot } from "../helpers/screenshots.ts";
import { watchPage } from "../../harness/chromium.ts";
import { useSiteAndBrowser } from "../../harness/site-and-browser.ts";

const shotsDir = "test-output/screenshots";
const site = useSiteAndBrowser();

describe("theme button", () => {
  test("names the theme it switches to, follows the system until pressed, and the choice persists", async () => {
    const context = await site.browser.newContext({
      viewport: { width: 1280, height: 900 },
      colorScheme: "dark",
      reducedMotion: "reduce",
    });
    const page = await context.newPage();
    const problems = watchPage(page, site.server.url);
    await page.goto(`${site.server.url}/one-gpu/`);
    const button = page.locator("button.theme-toggle");
    await page.waitForFunction(() => document.querySelector<HTMLElement>("button.theme-toggle")?.dataset.themeChoice);
    assert.equal(await button.getAttribute("aria-label"), "Theme: follow the system (now dark). Switch to light");
    assert.equal(await page.evaluate(() => document.documentElement.getAttribute("data-theme")), null);
    const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.equal(await bg(), "rgb(20, 22, 26)");
    await button.click();
    assert.equal(await page.evaluate(() => document.documentElement.getAttribute("data-theme")), "light");
    assert.equal(await button.getAttribute("aria-label"), "Theme: light. Switch to dark");
    assert.equal(await bg(), "rgb(255, 255, 255)");

    // Next page: the choice is applied by the blocking theme.js in <head>, before book.js (a
    // module, deferred) runs; check it at the first moment scripts can see the document.
    await page.addInitScript(() => {
      document.addEventListener("readystatechange", () => {
        if (document.readyState === "interactive") {
          (window as unknown as { themeAtParse: string | null }).themeAtParse =
            document.documentElement.getAttribute("data-theme");
        }
      });
    });
    await page.goto(`${site.server.url}/data-parallelism/`);
    assert.equal(
      await page.evaluate(() => (window as unknown as { themeAtParse: string | null }).themeAtParse),
      "light",
    );
    assert.equal(await button.getAttribute("aria-label"), "Theme: light. Switch to dark");
    assert.equal(await bg(), "rgb(255, 255, 255)");
    await button.press("Enter");
    assert.equal(await page.evaluate(() => localStorage.getItem("scaling-out-theme")), "dark");
    assert.equal(await button.getAttribute("aria-label"), "Theme: dark. Switch to follow the system (now dark)");
    assert.deepEqual(problems, { consoleErrors: [], pageErrors: [], offOrigin: [], failed: [] });
    await context.close();
  });

  test("cycles light → dark → system, and the system choice follows prefers-color-scheme", async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: "dark" });
    const page = await context.newPage();
    await page.goto(`${site.server.url}/preface/`);
    const button = page.locator("button.theme-toggle");
    await page.waitForFunction(() => document.querySelector<HTMLElement>("button.theme-toggle")?.dataset.themeChoice);
    const state = () =>
      page.evaluate(() => ({
        theme: document.documentElement.getAttribute("data-theme"),
        stored: localStorage.getItem("scaling-out-theme"),
        choice: document.querySelector<HTMLElement>("button.theme-toggle")?.dataset.themeChoice,
        bg: getComputedStyle(document.body).backgroundColor,
      }));
    const dark = "rgb(20, 22, 26)";
    const light = "rgb(255, 255, 255)";
    await button.click();
    assert.deepEqual(await state(), { theme: "light", stored: "light", choice: "light", bg: light });
    await button.click();
    assert.deepEqual(await state(), { theme: "dark", stored: "dark", choice: "dark", bg: dark });
    // A fixed dark theme stays dark when the system turns light.
    await page.emulateMedia({ colorScheme: "light" });
    assert.equal((await state()).bg, dark);
    await page.emulateMedia({ colorScheme: "dark" });
    await button.click();
    assert.deepEqual(await state(), { theme: null, stored: null, choice: "system", bg: dark });
    // Back to the system: the page now follows prefers-color-scheme, on this page and the next.
    await page.emulateMedia({ colorScheme: "light" });
    assert.equal((await state()).bg, light);
    assert.equal(await button.getAttribute("aria-label"), "Theme: follow the system (now light). Switch to dark");
    await page.goto(`${site.server.url}/one-gpu/`);
    assert.deepEqual(
      { ...(await state()), choice: undefined },
      { theme: null, stored: null, choice: undefined, bg: light },
    );
    await page.emulateMedia({ colorScheme: "dark" });
    assert.equal((await state()).bg, dark);
    // The icon shows the choice: half filled for the system, no fill for light, filled for dark.
    const iconFill = () =>
      page.evaluate(() => {
        const svg = document.querySelector("button.theme-toggle svg")!;
        return {
          half: getComputedStyle(svg.querySelector("path")!).display !== "none",
          full: getComputedStyle(svg.querySelector("circle")!).fill !== "none",
        };
      });
    await page.waitForFunction(() => document.querySelector<HTMLElement>("button.theme-toggle")?.dataset.themeChoice);
    assert.deepEqual(await iconFill(), { half: true, full: false });
    await button.click(); // system (dark) → light
    assert.deepEqual(await iconFill(), { half: false, full: false });
    await button.click(); // → dark
    assert.deepEqual(await iconFill(), { half: true, full: true });
    await context.close();
  });

  test("is hidden with JavaScript off (it could not work), and the page still follows the system", async () => {
    const context = await site.browser.newContext({ javaScriptEnabled: false, colorScheme: "dark" });
    const page = await context.newPage();
    await page.goto(`${site.server.url}/one-gpu/`);
    assert.equal(await page.locator("button.theme-toggle").isVisible(), false);
    assert.equal(await page.locator(".site-search").isVisible(), false);
    assert.equal(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), "rgb(20, 22, 26)");
    await context.close();
  });
});

describe("search", () => {
  for (const [name, viewport] of [
    ["desktop", { width: 1280, height: 900 }],
    ["phone", { width: 390, height: 844 }],
  ] as const) {
    test(`${name}: "/" focuses the header box; a known phrase finds its chapter and section`, async () => {
      const context = await site.browser.newContext({ viewport, reducedMotion: "reduce" });
      const page = await context.newPage();
      const problems = watchPage(page, site.server.url);
      await page.goto(`${site.server.url}/preface/`);
      // book.js sets up its keys after the first paint (it marks <html> with "js" when it has).
      await page.waitForFunction(() => document.documentElement.classList.contains("js"));
      await page.keyboard.press("/");
      assert.equal(await page.evaluate(() => document.activeElement?.id), "site-search-q");
      await page.keyboard.type("gradient accumulation");
      await page.keyboard.press("Enter");
      await page.waitForURL(/\/search\/\?q=gradient\+accumulation$/);
      // Pagefind's UI adds each hit's element first and fills in its title and sub-results when that
      // hit's data has loaded, so wait for the chapter's title itself, not for the first hit.
      const chapterHit = page.locator(".pagefind-ui__result-title a", { hasText: "Training on one GPU" }).first();
      await chapterHit.waitFor({ timeout: 15_000 }).catch(() => undefined);
      const titles = await page.locator(".pagefind-ui__result-title a").allTextContents();
      assert.ok(
        titles.some((t) => /Training on one GPU/.test(t)),
        `chapter among the hits: ${titles.join(" | ")}`,
      );
      await page
        .locator(".pagefind-ui__result-nested .pagefind-ui__result-link[href^='/one-gpu/#sec:']")
        .first()
        .waitFor({ timeout: 15_000 })
        .catch(() => undefined);
      const subLinks = await page
        .locator(".pagefind-ui__result-nested .pagefind-ui__result-link")
        .evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).getAttribute("href") ?? ""));
      assert.ok(
        subLinks.some((h) => /^\/one-gpu\/#sec:/.test(h)),
        `a section of the chapter among the sub-results: ${subLinks.join(" ")}`,
      );
      // Nothing from math (MathML copies), navigation or the ToC is in the excerpts.
      const excerpts = (await page.locator(".pagefind-ui__result-excerpt").allTextContents()).join(" ");
      assert.doesNotMatch(excerpts, /On this page|Skip to the text/);
      await keepScreenshot(page, `${shotsDir}/reader-search-${name}.png`);
      assert.deepEqual(problems, { consoleErrors: [], pageErrors: [], offOrigin: [], failed: [] });
      await context.close();
    });
  }
});

describe("search index", () => {
  test("titles carry the chapter number, glossary terms are found, formulas read as text", async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${site.server.url}/search/`);
    // Pagefind's own API, as its UI uses it: the top hits with their titles, excerpts and sub-results.
    const search = (q: string) =>
      page.evaluate(async (query) => {
        const url = "/pagefind/pagefind.js";
        const pf = (await import(url)) as {
          search(q: string): Promise<{ results: Array<{ data(): Promise<Record<string, unknown>> }> }>;
        };
        const r = await pf.search(query);
        const out = [];
        for (const hit of r.results.slice(0, 5)) {
          const d = (await hit.data()) as {
            url: string;
            meta: { title: string };
            excerpt: string;
            sub_results: Array<{ url: string; title: string; excerpt: string }>;
          };
          out.push({ url: d.url, title: d.meta.title, excerpt: d.excerpt, subs: d.sub_results });
        }
        return out;
      }, q);
    const ridge = await search("ridge point");
    assert.equal(ridge[0]?.url, "/gpu-kernels/");
    assert.equal(ridge[0]?.title, "Chapter 9 · Inside the GPU");
    // The roofline's formula reads I* = P/B in the snippet, not KaTeX's flattened drawing "I∗=BP".
    const snippets = ridge[0]!.subs.map((s) => s.excerpt.replace(/<\/?mark>/g, "")).join(" | ");
    assert.match(snippets, /I\* = P\/B/, snippets);
    assert.doesNotMatch(snippets, /I∗=BP/);
    const units = (await search("GiB")).flatMap((h) => [h.excerpt, ...h.subs.map((s) => s.excerpt)]).join(" ");
    assert.doesNotMatch(units, /\b230 bytes/, "2^30 is not printed as 230");
    // A glossary term is a sub-result that opens the glossary at the term.
    const glossary = (await search("all-to-all")).find((h) => h.url === "/glossary/");
    assert.ok(glossary, "the glossary is indexed");
    assert.equal(glossary.title, "Glossary");
    assert.ok(
      glossary.subs.some((s) => s.url === "/glossary/#term-all-to-all" && s.title === "All-to-all"),
      JSON.stringify(glossary.subs.map((s) => s.url)),
    );
    // The byline is not text to search.
    const byline = await search("contributors published");
    assert.ok(!byline.some((h) => /Authors\s*The Scaling Out contributors/.test(h.excerpt)));
    await context.close();
  });
});

describe("edit and report links", () => {
  test("every chapter links to its source file and to a prefilled issue", async () => {
    const context = await site.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${site.server.url}/one-gpu/`);
    const edit = await page.locator(".page-actions a", { hasText: "Edit this page" }).getAttribute("href");
    assert.match(edit ?? "", /^https:\/\/github\.com\/[^/]+\/[^/]+\/edit\/main\/content\/chapters\/02-one-gpu\.md$/);
    const report = new URL(
      (await page.locator(".page-actions a", { hasText: "Report an error" }).getAttribute("href")) ?? "",
    );
    assert.equal(report.pathname.endsWith("/issues/new"), true);
    assert.equal(report.searchParams.get("title"), "Error in “Training on one GPU”");
    assert.match(report.searchParams.get("body") ?? "", /^Page: \/one-gpu\/\n/);
    await context.close();
  });
});
