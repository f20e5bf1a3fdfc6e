/**
 * Keeping one's place (issue #28, reader's trial): the scroll-spy marks the section being read,
 * not the one before it; exercises are listed in the page's table of contents; the reading
 * progress bar, "Resume where you left off" and the contents page's read marks
 * (src/widgets/runtime/reading.ts); and every code block of /profiling/ copies its code.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { afterFrames, watchPage } from "../../harness/chromium.ts";
import { useSiteAndBrowser } from "../../harness/site-and-browser.ts";

const site = useSiteAndBrowser();

const desktop = { viewport: { width: 1280, height: 900 }, reducedMotion: "reduce" as const };

async function currentTocHash(page: Page): Promise<string> {
  // The scroll event fires in the next frame; book.js updates the ToC in the frame after that.
  await afterFrames(page, 3);
  return page.evaluate(() => document.querySelector<HTMLAnchorElement>(".toc-nav a[aria-current]")?.hash ?? "");
}

/** Scrolls so that the heading's top sits at `fraction` of the viewport height. */
async function placeHeading(page: Page, id: string, fraction: number): Promise<void> {
  await page.evaluate(
    ({ id, fraction }) => {
      const h = document.getElementById(id)!;
      window.scrollTo(0, window.scrollY + h.getBoundingClientRect().top - window.innerHeight * fraction);
    },
    { id, fraction },
  );
}

test("the scroll-spy marks the section in the upper part of the screen, and the last one at the end of the page", async () => {
  const context = await site.browser.newContext(desktop);
  const page = await context.newPage();
  await page.goto(site.server.url + "/data-parallelism/");
  // Headings followed by at least half a screen of text before the next heading.
  const ids = await page.evaluate(() => {
    const hs = Array.from(
      document.querySelectorAll<HTMLElement>(
        ".chapter-body > :is(h2, h3)[id], .chapter-body > .part > :is(h2, h3)[id]",
      ),
    );
    return hs
      .filter(
        (h, i) =>
          i > 0 &&
          i < hs.length - 3 &&
          hs[i + 1]!.getBoundingClientRect().top - h.getBoundingClientRect().top > window.innerHeight * 0.5,
      )
      .map((h) => h.id);
  });
  assert.ok(ids.length >= 3, ids.join(" "));
  for (const id of ids.slice(0, 3)) {
    await page.locator(`.toc-nav a[href="#${id}"]`).first().click();
    assert.equal(await currentTocHash(page), `#${id}`, "after a ToC jump");
    // Reading the first lines of a section whose heading is a third of the way down.
    await placeHeading(page, id, 0.33);
    assert.equal(await currentTocHash(page), `#${id}`, "heading a third of the way down: its section is being read");
  }
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  // Exercises are followed too: the last exercise is the last entry of the page's ToC.
  const last = await page.evaluate(
    () =>
      Array.from(
        document.querySelectorAll(
          ".chapter-body > :is(h2, h3, section.exercise)[id], .chapter-body > .part > :is(h2, h3, section.exercise)[id]",
        ),
      ).pop()!.id,
  );
  assert.equal(await currentTocHash(page), `#${last}`, "end of the page");
  await context.close();
});

test("exercise titles are listed in the page's table of contents, and a jump to one marks it", async () => {
  const context = await site.browser.newContext(desktop);
  const page = await context.newPage();
  await page.goto(site.server.url + "/one-gpu/");
  // Ids come from the titles (src/plugins/markdown/containers.ts).
  const entry = page.locator('.toc-nav a[href="#exercise-estimate-can-you-fine-tune-llama-2-7b-on-one-gpu"]');
  assert.match((await entry.textContent()) ?? "", /^Exercise 1: Estimate: can you fine-tune Llama 2 7B/);
  assert.equal(
    await page.locator('.toc-nav a[href^="#exercise-"]').count(),
    await page.locator("section.exercise").count(),
  );
  const second = `#${await page.locator("section.exercise").nth(1).getAttribute("id")}`;
  await page.locator(`.toc-nav a[href="${second}"]`).click();
  assert.equal(await currentTocHash(page), second);
  await context.close();
});

test("reading progress bar, resume where you left off, and read marks on the contents page", async () => {
  const context = await site.browser.newContext(desktop);
  const page = await context.newPage();
  const problems = watchPage(page, site.server.url);
  await page.goto(site.server.url + "/data-parallelism/");
  const fill = page.locator(".reading-progress span");
  assert.equal(await page.locator(".reading-progress").getAttribute("aria-hidden"), "true");
  await placeHeading(page, "sec:overlap", 0.1);
  const reading = await currentTocHash(page);
  const scale = await fill.evaluate((el) => new DOMMatrix(getComputedStyle(el).transform).a);
  assert.ok(scale > 0.05 && scale < 0.95, `progress ${scale}`);

  await page.goto(site.server.url + "/data-parallelism/");
  const resume = page.locator(".resume-reading a");
  assert.equal(await resume.getAttribute("href"), reading, "the section the ToC marked");
  assert.match((await resume.textContent()) ?? "", /^Resume where you left off: 3\.3/);
  await page.goto("about:blank");
  await page.goto(site.server.url + "/data-parallelism/#sec:replicas");
  assert.equal(await page.locator(".resume-reading").count(), 0, "no offer when the link names a section");

  // Read to the end of another chapter.
  await page.goto(site.server.url + "/preface/");
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await afterFrames(page, 3); // the scroll event, then reading.ts's update in the next frame

  await page.goto(site.server.url + "/");
  const marks = await page.locator(".book-toc-read").allTextContents();
  assert.deepEqual(marks.sort(), ["In progress", "Read"]);
  const cont = page.locator(".resume-reading a");
  assert.match((await cont.textContent()) ?? "", /^Continue reading: Preface/);
  assert.deepEqual(problems.pageErrors, []);
  await context.close();
});

test("every code block of /profiling/ has a Copy button that copies its code", async () => {
  const context = await site.browser.newContext(desktop);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: site.server.url });
  const page = await context.newPage();
  await page.goto(site.server.url + "/profiling/");
  const blocks = page.locator(".code-block");
  const n = await blocks.count();
  assert.equal(n, 5, "four code blocks and the BibTeX");
  for (let i = 0; i < n; i++) {
    const block = blocks.nth(i);
    const button = block.locator("button.code-copy");
    await button.scrollIntoViewIfNeeded();
    await button.click();
    await page.waitForFunction((b) => b?.getAttribute("data-state") === "copied", await button.elementHandle());
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    const code = await block
      .locator("pre")
      .evaluate((pre) => (pre.querySelector("code") ?? pre).textContent!.replace(/\n$/, ""));
    assert.equal(copied, code, `block ${i + 1}`);
  }
  await context.close();
});
