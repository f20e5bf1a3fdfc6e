/**
 * The built site in a real browser (system Chromium through playwright-core), served from
 * `_site` by a loopback server. Guards against: console errors, broken requests, requests to
 * other origins, ToC links that miss their headings, citation cards that do not appear, math
 * that needs JavaScript, sideways scrolling on a 360px phone, and widgets that load before
 * they are needed. Saves screenshots of the preface to test-output/screenshots/.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { keepScreenshot } from "../helpers/screenshots.ts";
import type { BrowserContextOptions } from "playwright-core";
import { afterFrames, watchPage, settle } from "../../harness/chromium.ts";
import { axeBuilder } from "../../harness/axe.ts";
import { useSiteAndBrowser } from "../../harness/site-and-browser.ts";
import { siteDir, sitePages } from "../../harness/site-pages.ts";
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { book } from "../../src/data/book.ts";
import { chapterInfo } from "../../src/plugins/shared/chapters.ts";

const shotsDir = "test-output/screenshots";
const desktop: BrowserContextOptions = { viewport: { width: 1440, height: 900 }, reducedMotion: "reduce" };
const phone: BrowserContextOptions = {
  viewport: { width: 360, height: 740 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
  reducedMotion: "reduce",
};

const site = useSiteAndBrowser();

// Issue #54: chapter 8 said "Updated November 22" after its worked example was corrected on
// November 25. The date is the chapter file's last commit (src/plugins/site/git-dates.ts).
describe("chapter dates", () => {
  test("each chapter's Updated date is its file's last commit date (never before publication)", () => {
    const files = readdirSync("content/chapters").filter((f) => f.endsWith(".md"));
    let checked = 0;
    for (const file of files) {
      const info = chapterInfo(file);
      if (!info) continue;
      let committed: string;
      try {
        committed = execFileSync("git", ["log", "-1", "--format=%cs", "--", `content/chapters/${file}`], {
          encoding: "utf8",
        }).trim();
      } catch {
        committed = "";
      }
      const expected = committed === "" ? book.updated : committed < book.published ? book.published : committed;
      const html = readFileSync(path.join(siteDir, info.slug, "index.html"), "utf8");
      const shown = /<dt>Updated<\/dt><dd><time datetime="([\d-]+)">/.exec(html)?.[1];
      assert.equal(shown, expected, `${file}: Updated ${shown}, last commit ${committed || "(no git)"}`);
      assert.match(html, new RegExp(`<meta property="article:modified_time" content="${expected}">`));
      checked++;
    }
    assert.ok(checked >= 17, `only ${checked} chapters checked`);
  });
});

describe("every page", () => {
  test("loads without console errors, failed requests or requests to other origins", async () => {
    const pages = sitePages();
    assert.ok(pages.includes("/") && pages.includes("/preface/"), `pages found: ${pages.join(", ")}`);
    const context = await site.browser.newContext(desktop);
    for (const p of pages) {
      const page = await context.newPage();
      const problems = watchPage(page, site.server.url);
      await page.goto(site.server.url + p, { waitUntil: "load" });
      // Scroll through the page so lazily loaded widgets start too.
      await page.evaluate(async () => {
        for (let y = 0; y < document.body.scrollHeight; y += 600) {
          window.scrollTo(0, y);
          await new Promise((r) => setTimeout(r, 20));
        }
      });
      await settle(page);
      assert.deepEqual(problems, { consoleErrors: [], pageErrors: [], offOrigin: [], failed: [] }, `problems on ${p}`);
      await page.close();
    }
    await context.close();
  });

  test("does not scroll sideways on a 360px phone", async () => {
    const context = await site.browser.newContext(phone);
    const page = await context.newPage();
    for (const p of sitePages()) {
      await page.goto(site.server.url + p, { waitUntil: "load" });
      const { scrollWidth, clientWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        clientWidth: document.documentElement.clientWidth,
      }));
      assert.ok(scrollWidth <= clientWidth, `${p} is ${scrollWidth}px wide in a ${clientWidth}px viewport`);
    }
    await context.close();
  });
});

describe("the preface", () => {
  test("ToC links land on their headings", async () => {
    const context = await site.browser.newContext(desktop);
    const page = await context.newPage();
    await page.goto(site.server.url + "/preface/", { waitUntil: "load" });
    const links = await page
      .locator("details.toc .toc-list a")
      .evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).hash));
    assert.ok(links.length >= 5, `ToC has ${links.length} links`);
    for (const hash of links) {
      await page.locator(`details.toc .toc-list a[href="${hash}"]`).click();
      const id = decodeURIComponent(hash.slice(1));
      const top = await page.evaluate((i) => document.getElementById(i)!.getBoundingClientRect().top, id);
      assert.ok(top >= -1 && top < 120, `after clicking ${hash} the target is at ${top}px from the top`);
      if (hash !== "#references") {
        await page
          .waitForFunction(
            (h) => document.querySelector("details.toc a[aria-current]")?.getAttribute("href") === h,
            hash,
            { timeout: 2000 },
          )
          .catch(async () => {
            const current = await page.locator("details.toc a[aria-current]").getAttribute("href");
            assert.fail(`scroll-spy marks ${current} after a jump to ${hash}`);
          });
      }
    }
    await context.close();
  });

  test("hovering a citation shows its reference card", async () => {
    const context = await site.browser.newContext(desktop);
    const page = await context.newPage();
    await page.goto(site.server.url + "/preface/", { waitUntil: "load" });
    const cite = page.locator('a.cite[data-cite="rajbhandari2020zero"]').first();
    await cite.hover();
    const card = page.locator("#book-popover");
    await card.waitFor({ state: "visible" });
    const text = await card.innerText();
    assert.match(text, /Rajbhandari, S\./);
    assert.match(text, /ZeRO: Memory Optimizations Toward Training Trillion Parameter Models/);
    assert.match(text, /https:\/\/doi\.org\/10\.1109\/SC41405\.2020\.00024/);
    assert.equal(await cite.getAttribute("aria-describedby"), "book-popover");
    await page.keyboard.press("Escape");
    await card.waitFor({ state: "hidden" });
    // A cross-reference previews its target the same way.
    await page.locator('a.xref[href="#eq:bytes-per-param"]').first().hover();
    await card.waitFor({ state: "visible" });
    assert.ok((await card.locator(".katex").count()) > 0, "equation preview shows the typeset equation");
    await context.close();
  });

  test("math, the widget's static figure and the solutions are there with JavaScript off", async () => {
    const context = await site.browser.newContext({ ...desktop, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(site.server.url + "/preface/", { waitUntil: "load" });
    assert.ok((await page.locator(".katex").count()) > 20, "KaTeX output present");
    assert.ok((await page.locator(".katex-mathml math").count()) > 20, "MathML present for screen readers");
    // Without JavaScript the parts stay content-visibility: auto, so text off screen has no innerText, and the
    // protocol's scroll-into-view measures skipped parts wrongly: read the text content, which is what is there.
    const tag = await page.locator("#eq\\:bytes-per-param .tag").textContent();
    assert.equal(tag?.trim(), "(1)");
    const rows = await page
      .locator("[data-widget=unit-converter] tbody tr")
      .evaluateAll((trs) =>
        trs.map((tr) => Array.from((tr as HTMLTableRowElement).cells, (c) => c.textContent?.trim() ?? "").join(" ")),
      );
    assert.deepEqual(
      rows.map((r) => r.replace(/\s+/g, " ").trim()),
      ["bytes 80,000,000,000", "GB 80", "GiB 74.5058", "TB 0.08", "TiB 0.0727596"],
    );
    assert.equal(await page.locator("details.solution").getAttribute("open"), null, "solution collapsed");
    await context.close();
  });

  test("the widget loads only when scrolled near, then converts and validates input", async () => {
    const context = await site.browser.newContext(phone);
    const page = await context.newPage();
    const problems = watchPage(page, site.server.url);
    await page.goto(site.server.url + "/preface/");
    await settle(page);
    const widgetRequests = () => site.server.requests.filter((r) => r.startsWith("/assets/js/widgets/"));
    const before = widgetRequests().length;
    // The lazy loader's IntersectionObserver has reported the
    // first layout by now; give any request it made time to show.
    await afterFrames(page);
    await settle(page, 300);
    assert.equal(widgetRequests().length, before, "no widget script before scrolling");
    const root = page.locator("[data-widget=unit-converter]");
    assert.equal(await root.getAttribute("data-widget-state"), null);
    await root.scrollIntoViewIfNeeded();
    await page.waitForSelector("[data-widget=unit-converter][data-widget-state=mounted]");
    assert.ok(widgetRequests().some((r) => r === "/assets/js/widgets/unit-converter.js"));

    const input = root.locator("input[name=amount]");
    await input.fill("1");
    await root.locator("select[name=unit]").selectOption("TiB");
    assert.equal(
      (await root.locator("tbody tr").first().innerText()).replace(/\s+/g, " ").trim(),
      "bytes 1,099,511,627,776",
    );
    await input.fill("12 GB");
    assert.equal(await input.getAttribute("aria-invalid"), "true");
    const message = root.locator("[role=alert]");
    assert.match(await message.innerText(), /not a number/);
    assert.equal(
      (await root.locator("tbody tr").first().innerText()).replace(/\s+/g, " ").trim(),
      "bytes 1,099,511,627,776",
      "last good table kept",
    );
    await input.fill("1e40");
    assert.match(await message.innerText(), /at most/);
    await input.fill("2");
    assert.equal(await input.getAttribute("aria-invalid"), null);
    assert.equal(await message.innerText(), "");
    const body = await root.innerText();
    assert.doesNotMatch(body, /NaN|Infinity|undefined/);
    assert.deepEqual(problems.offOrigin, []);
    assert.deepEqual(problems.consoleErrors, []);
    await context.close();
  });

  test("footnotes: a sidenote in the margin on wide screens, a card on tap on phones", async () => {
    const wide = await site.browser.newContext(desktop);
    let page = await wide.newPage();
    await page.goto(site.server.url + "/preface/", { waitUntil: "load" });
    const sidenote = page.locator(".sidenote").first();
    assert.ok(await sidenote.isVisible(), "sidenote visible at 1440px");
    const box = (await sidenote.boundingBox())!;
    const text = (await page.locator(".chapter-body p").first().boundingBox())!;
    assert.ok(box.x >= text.x + text.width, "sidenote sits right of the text column");
    await wide.close();

    const narrow = await site.browser.newContext(phone);
    page = await narrow.newPage();
    await page.goto(site.server.url + "/preface/", { waitUntil: "load" });
    assert.equal(await page.locator(".sidenote").first().isVisible(), false, "no sidenote at 360px");
    const ref = page.locator(".footnote-ref a").first();
    await ref.scrollIntoViewIfNeeded();
    await ref.tap();
    const card = page.locator("#book-popover");
    await card.waitFor({ state: "visible" });
    assert.match(await card.innerText(), /2:4 structured sparsity/);
    assert.equal(new URL(page.url()).hash, "", "tapping opened the card instead of jumping");
    await narrow.close();
  });

  test("a solution opens from the keyboard", async () => {
    const context = await site.browser.newContext(desktop);
    const page = await context.newPage();
    await page.goto(site.server.url + "/preface/", { waitUntil: "load" });
    const summary = page.locator("details.solution > summary").first();
    await summary.focus();
    await page.keyboard.press("Enter");
    assert.equal(await page.locator("details.solution").first().getAttribute("open"), "");
    assert.ok(await page.locator("details.solution p").first().isVisible());
    await context.close();
  });

  test("no accessibility violations found by axe on the preface and the home page", async () => {
    for (const colorScheme of ["light", "dark"] as const) {
      const context = await site.browser.newContext({ ...desktop, colorScheme });
      const page = await context.newPage();
      for (const p of ["/preface/", "/"]) {
        await page.goto(site.server.url + p);
        await settle(page);
        const result = await axeBuilder(page).analyze();
        const summary = result.violations.map(
          (v) =>
            `${v.id}: ${v.nodes
              .map((n) => n.target.join(" "))
              .slice(0, 3)
              .join(", ")}`,
        );
        assert.deepEqual(summary, [], `axe on ${p} (${colorScheme})`);
      }
      await context.close();
    }
  });

  test("screenshots: desktop and phone, light and dark", async () => {
    for (const colorScheme of ["light", "dark"] as const) {
      for (const [name, options] of [
        ["desktop", desktop],
        ["phone", phone],
      ] as const) {
        const context = await site.browser.newContext({ ...options, colorScheme });
        const page = await context.newPage();
        await page.goto(site.server.url + "/preface/");
        await settle(page);
        await keepScreenshot(page, `${shotsDir}/preface-${name}-${colorScheme}.png`);
        await page.locator("#sec\\:units").scrollIntoViewIfNeeded();
        await page.evaluate(() => window.scrollBy(0, 250));
        await afterFrames(page);
        await keepScreenshot(page, `${shotsDir}/preface-${name}-${colorScheme}-units.png`);
        await page.goto(site.server.url + "/");
        await settle(page);
        await keepScreenshot(page, `${shotsDir}/home-${name}-${colorScheme}.png`);
        await context.close();
      }
    }
  });
});
