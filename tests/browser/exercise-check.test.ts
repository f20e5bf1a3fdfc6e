/**
 * Self-checked exercises on the built site, driven through their public contract only (the
 * markup of src/plugins/markdown/exercise-check.ts, issue #28): a checkable exercise's `section.exercise`
 * holds a `form.exercise-check` whose inputs carry `data-answer` and `data-tolerance`; after a
 * check the form's `data-state` is correct, close, wrong or invalid and its live region says so
 * in words; a solved exercise is correct again after a reload. Desktop and 390 px, light and
 * dark, axe clean with the boxes open; without JavaScript the box stays hidden. With SCREENSHOTS=1,
 * screenshots go to test-output/screenshots/exercise-check-*.png (for a person; nothing compares them).
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { BrowserContextOptions, Locator, Page } from "playwright-core";
import { axeBuilder } from "../../harness/axe.ts";
import { settle, watchPage } from "../../harness/chromium.ts";
import { useSiteAndBrowser } from "../../harness/site-and-browser.ts";
import { keepScreenshot } from "../helpers/screenshots.ts";

const site = useSiteAndBrowser();
const shots = "test-output/screenshots";

const desktop: BrowserContextOptions = { viewport: { width: 1280, height: 900 } };
const phone: BrowserContextOptions = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** The sample: one-input and several-input exercises from four chapters. */
const sample = ["/one-gpu/", "/data-parallelism/", "/pipeline-parallelism/", "/collectives/"];

/** A number printed without rounding trouble, in the input's unit, scaled by `factor`. */
async function answerOf(input: Locator, factor = 1): Promise<string> {
  const answer = Number(await input.getAttribute("data-answer"));
  return String(answer * factor);
}

async function checkAll(_page: Page, form: Locator, values: (input: Locator) => Promise<string>): Promise<string> {
  const inputs = form.locator("input[data-answer]");
  const n = await inputs.count();
  for (let i = 0; i < n; i++) await inputs.nth(i).fill(await values(inputs.nth(i)));
  await inputs.nth(n - 1).press("Enter");
  return (await form.getAttribute("data-state")) ?? "";
}

async function themed(options: BrowserContextOptions, theme: "light" | "dark") {
  // The theme follows prefers-color-scheme when the reader has not chosen one.
  return site.browser.newContext({ ...options, colorScheme: theme });
}

for (const [name, options] of [
  ["desktop", desktop],
  ["phone", phone],
] as const) {
  for (const theme of ["light", "dark"] as const) {
    describe(`${name}, ${theme}`, () => {
      test("each sampled box goes through invalid, wrong, close and correct, and stays correct after a reload", async () => {
        const context = await themed(options, theme);
        const page = await context.newPage();
        const problems = watchPage(page, site.server.url);
        for (const url of sample) {
          await page.goto(site.server.url + url);
          const forms = page.locator("section.exercise form.exercise-check");
          const count = await forms.count();
          assert.ok(count >= 1, `${url}: no checkable exercise`);
          const form = forms.first();
          await form.scrollIntoViewIfNeeded();
          assert.equal(await form.isVisible(), true, `${url}: the box is revealed with JavaScript`);
          const status = form.locator("[role=status], [aria-live]").first();

          assert.equal(await checkAll(page, form, async () => "abc"), "invalid", url);
          assert.match((await status.textContent()) ?? "", /number/i);
          await form.locator("input").first().fill("");
          await form.locator("button[type=submit]").click();
          assert.equal(await form.getAttribute("data-state"), "invalid", `${url}: empty`);

          assert.equal(await checkAll(page, form, (i) => answerOf(i, 1.5)), "wrong", url);
          assert.match((await status.textContent()) ?? "", /not quite/i);

          // Three tolerances off: close (each input has its own data-tolerance).
          const closeBy = async (i: Locator) => {
            const tolerance = Number(await i.getAttribute("data-tolerance"));
            assert.ok(tolerance > 0 && tolerance < 0.5, `${url}: data-tolerance ${tolerance}`);
            return answerOf(i, 1 + 3 * tolerance);
          };
          assert.equal(await checkAll(page, form, closeBy), "close", url);
          assert.match((await status.textContent()) ?? "", /rounding or units/i);

          // Several inputs: correct only when all are.
          const inputs = form.locator("input[data-answer]");
          if ((await inputs.count()) > 1) {
            await inputs.first().fill(await answerOf(inputs.first()));
            await inputs.last().fill(await answerOf(inputs.last(), 1.5));
            await inputs.last().press("Enter");
            assert.notEqual(await form.getAttribute("data-state"), "correct", `${url}: one of two wrong`);
          }

          assert.equal(await checkAll(page, form, (i) => answerOf(i)), "correct", url);
          assert.match((await status.textContent()) ?? "", /correct/i);
          const heading = page.locator(".exercise-progress").first();
          assert.match((await heading.textContent()) ?? "", new RegExp(`1 of ${count} checkable exercises solved`));

          await page.reload();
          const again = page.locator("section.exercise form.exercise-check").first();
          assert.equal(await again.getAttribute("data-state"), "correct", `${url}: solved after a reload`);
        }
        if (name === "desktop" && theme === "light") {
          // The contents page counts the solved exercises of the chapters opened.
          await page.goto(site.server.url + "/");
          const marks = await page.locator(".book-toc-exercises").allTextContents();
          assert.equal(marks.length, sample.length, marks.join(" | "));
        }
        assert.deepEqual(problems.consoleErrors, []);
        assert.deepEqual(problems.pageErrors, []);
        await context.close();
      });

      test("a hint names a known mistake; units, separators and a leading ~ are read", async () => {
        const context = await themed(options, theme);
        const page = await context.newPage();
        await page.goto(site.server.url + "/one-gpu/");
        const form = page.locator("section.exercise form.exercise-check").first();
        const [states, buffer] = [form.locator("input").nth(0), form.locator("input").nth(1)];
        await buffer.fill("134.8 GB");
        await states.fill("134.8");
        await states.press("Enter");
        assert.equal(await form.getAttribute("data-state"), "wrong");
        assert.match((await form.locator("[role=status]").textContent()) ?? "", /accumulation buffer/);
        for (const typed of ["107.8", "107.8 GB", "108 GB", "1.078e11 B", "~107,815 MB", "100.4 GiB"]) {
          await states.fill(typed);
          await states.press("Enter");
          assert.equal(await form.getAttribute("data-state"), "correct", typed);
        }
        await states.fill("107.8 s");
        await states.press("Enter");
        assert.equal(await form.getAttribute("data-state"), "invalid", "a duration for a size");
        await form.scrollIntoViewIfNeeded();
        await keepScreenshot(page.locator("section.exercise").first(), `${shots}/exercise-check-${name}-${theme}.png`);
        await context.close();
      });

      test("axe finds nothing on a chapter with its boxes open and checked", async () => {
        const context = await themed(options, theme);
        const page = await context.newPage();
        await page.goto(site.server.url + "/data-parallelism/");
        await settle(page);
        const forms = page.locator("form.exercise-check");
        await checkAll(page, forms.nth(0), async () => "1");
        await checkAll(page, forms.nth(1), async () => "x");
        const result = await axeBuilder(page)
          .include("section.exercise")
          .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
          .analyze();
        assert.deepEqual(
          result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
          [],
        );
        await context.close();
      });
    });
  }
}

test("without JavaScript the box stays in its template and the solution reads as before", async () => {
  const context = await site.browser.newContext({ ...desktop, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(site.server.url + "/one-gpu/");
  // No form control in the document (the template's content is inert), and none shown.
  assert.equal(await page.locator("section.exercise form.exercise-check").count(), 0);
  assert.equal(await page.locator("section.exercise input").count(), 0);
  assert.ok((await page.locator("section.exercise > template.exercise-check-template").count()) >= 1);
  assert.equal(await page.locator("section.exercise details.solution").first().isVisible(), true);
  await context.close();
});

test("Reset clears a chapter's solved exercises", async () => {
  const context = await site.browser.newContext(desktop);
  const page = await context.newPage();
  await page.goto(site.server.url + "/collectives/");
  const form = page.locator("form.exercise-check").first();
  await checkAll(page, form, (i) => answerOf(i));
  assert.equal(await form.getAttribute("data-state"), "correct");
  await page.locator(".exercise-progress-reset").click();
  assert.equal(await form.getAttribute("data-state"), null);
  await page.reload();
  assert.equal(await page.locator("form.exercise-check").first().getAttribute("data-state"), null);
  assert.match((await page.locator(".exercise-progress").textContent()) ?? "", /^0 of/);
  await context.close();
});

test("on /book/ no form control is in a skipped chapter after DOMContentLoaded, and a chapter's boxes appear once it is near", async () => {
  const context = await site.browser.newContext(phone);
  const page = await context.newPage();
  const problems = watchPage(page, site.server.url);
  // A listener on window runs after book.js's, which are on document, and just before Chromium
  // measures the page's form controls (docs/performance-log.md, "Paint", sixteenth look). A field
  // that a content-visibility: auto block is skipping makes it lay that block out. (Buttons do
  // not: code-copy.ts adds one to every code block before this runs, and the traces show no layout
  // for them.)
  await page.addInitScript(`window.addEventListener("DOMContentLoaded", () => {
    window.__skippedControls = [...document.querySelectorAll("input, select, textarea")]
      .filter((el) => el.checkVisibility() && !el.checkVisibility({ contentVisibilityAuto: true }))
      .map((el) => el.id || el.outerHTML.slice(0, 80));
  });`);
  await page.goto(site.server.url + "/book/", { waitUntil: "load" });
  assert.deepEqual(await page.evaluate("window.__skippedControls"), []);
  // The first exercise of the last chapter.
  const lastId = await page.locator('section.exercise[id^="overlap-math--"]').first().getAttribute("id");
  const last = page.locator(`[id="${lastId}"]`);
  assert.equal(await last.locator("form.exercise-check").count(), 0, "not put in place before its chapter is near");
  assert.equal(await last.locator("template.exercise-check-template").count(), 1);
  await last.evaluate((el) => el.scrollIntoView());
  await page.waitForFunction((id) => document.querySelector(`[id="${id}"] form.exercise-check:not([hidden])`), lastId);
  const form = last.locator("form.exercise-check");
  await form.locator("input").first().fill("abc");
  await form.locator("button[type=submit]").click();
  assert.equal(await form.getAttribute("data-state"), "invalid");
  assert.deepEqual(problems.consoleErrors, []);
  assert.deepEqual(problems.pageErrors, []);
  await context.close();
});

test("answers saved under an exercise's old positional key come back under its stable id, once", async () => {
  const context = await site.browser.newContext(desktop);
  const page = await context.newPage();
  await page.goto(site.server.url + "/one-gpu/");
  // The second box: the first would pass with a key that never moved.
  const form = page.locator("section.exercise form.exercise-check").nth(1);
  const key = (await form.getAttribute("data-exercise-key"))!;
  const legacy = (await form.getAttribute("data-exercise-legacy-key"))!;
  assert.match(legacy, /^one-gpu\/exercise-\d+$/);
  assert.notEqual(key, legacy);
  const inputs = form.locator("input[data-answer]");
  const answers: string[] = [];
  for (let i = 0; i < (await inputs.count()); i++) answers.push(await answerOf(inputs.nth(i)));
  // Progress as an earlier edition of the book saved it.
  await page.evaluate(
    ([legacyKey, saved]) =>
      localStorage.setItem(
        "scaling-out:exercises",
        JSON.stringify({ solved: { [legacyKey as string]: saved }, totals: { "one-gpu": 1 } }),
      ),
    [legacy, answers] as const,
  );
  await page.reload();
  const again = page.locator(`form.exercise-check[data-exercise-key="${key}"]`);
  await again.scrollIntoViewIfNeeded();
  assert.equal(await again.getAttribute("data-state"), "correct", "restored under the stable key");
  const stored = JSON.parse((await page.evaluate(() => localStorage.getItem("scaling-out:exercises")))!) as {
    solved: Record<string, string[]>;
    migrated: string[];
  };
  assert.deepEqual(stored.solved, { [key]: answers });
  assert.deepEqual(stored.migrated, ["one-gpu"]);
  await context.close();
});
