/**
 * First-use glossary marks (src/plugins/markdown/glossary-marks.ts, CSS in book.css "Glossary marks") in
 * a real browser: Tab to each marked term of a chapter and its definition shows, below the
 * line and inside the viewport at 360 and 1280 px; hover shows it too; Escape hides it; on a
 * touch screen the first tap shows it and the second follows the link; its
 * text is the glossary's definition and it is the link's accessible description; print hides
 * it. Then, over the built HTML: every chapter has marks, none sits in a heading, code, math, a
 * link, a figure, a table or a widget, /book/ marks each chapter the same way, and Pagefind's
 * index holds no definition. Saves screenshots to test-output/screenshots/reader-glossary-*.png.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { parseHTML } from "linkedom";
import type { Page } from "playwright-core";
import { glossary } from "../../src/data/glossary.ts";
import { chapterInfo } from "../../src/plugins/shared/chapters.ts";
import { watchPage } from "../../harness/chromium.ts";
import { keepScreenshot } from "../helpers/screenshots.ts";
import { siteDir } from "../../harness/site-pages.ts";
import { useSiteAndBrowser } from "../../harness/site-and-browser.ts";

const shotsDir = "test-output/screenshots";
const definitions = new Map(glossary.map((e) => [e.id, e.definition]));
const chapterSlugs = readdirSync("content/chapters")
  .map((f) => chapterInfo(f)?.slug)
  .filter((s): s is string => Boolean(s));
const site = useSiteAndBrowser();

interface DefState {
  visibility: string;
  opacity: string;
  left: number;
  right: number;
  top: number;
  text: string;
  linkBottom: number;
  linkRight: number;
  viewport: number;
}

/** The tooltip of mark `i` (computed style, box) and its link's box. */
function defState(page: Page, i: number): Promise<DefState> {
  return page.evaluate((k) => {
    const link = document.querySelectorAll<HTMLAnchorElement>("a.gloss")[k]!;
    const def = document.getElementById(link.getAttribute("aria-describedby")!)!;
    const s = getComputedStyle(def);
    const r = def.getBoundingClientRect();
    const l = link.getBoundingClientRect();
    return {
      visibility: s.visibility,
      opacity: s.opacity,
      left: r.left,
      right: r.right,
      top: r.top,
      text: def.textContent ?? "",
      linkBottom: l.bottom,
      linkRight: l.right,
      viewport: document.documentElement.clientWidth,
    };
  }, i);
}

function assertShownBelow(st: DefState, what: string): void {
  assert.equal(st.visibility, "visible", `${what}: visible`);
  assert.equal(st.opacity, "1", `${what}: opaque`);
  assert.ok(st.left >= 0 && st.right <= st.viewport, `${what}: ${st.left}–${st.right} inside 0–${st.viewport}`);
  assert.ok(
    st.top >= st.linkBottom - 1 && st.top <= st.linkBottom + 24,
    `${what}: top ${st.top} just below the line (${st.linkBottom})`,
  );
}

test("Tab to each marked term shows its definition below the line, inside the viewport; hover shows it; print hides it", async () => {
  for (const width of [360, 1280]) {
    const context = await site.browser.newContext({ viewport: { width, height: 800 }, reducedMotion: "reduce" });
    const page = await context.newPage();
    const problems = watchPage(page, site.server.url);
    await page.goto(`${site.server.url}/data-parallelism/`);
    // Marks in solutions are reachable once the solution is open.
    await page.evaluate(() => document.querySelectorAll("details").forEach((d) => (d.open = true)));
    const links = page.locator("a.gloss");
    const n = await links.count();
    assert.ok(n >= 10, `${n} marks on /data-parallelism/`);
    // A screenshot of the fourth mark focused, before the loop opens
    // the ToC drawer (Shift+Tab from the first mark lands in it).
    await links.nth(3).focus();
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Tab");
    await keepScreenshot(page, `${shotsDir}/reader-glossary-focus-${width}.png`);
    // Every mark at phone width, where room is tight; the first few on a desktop screen.
    for (let i = 0; i < (width === 360 ? n : 6); i++) {
      const link = links.nth(i);
      const id = /#term-(.+)$/.exec((await link.getAttribute("href")) ?? "")?.[1] ?? "";
      // Hidden until focused (a definition stays 0.3 s after focus or pointer leaves).
      await page.waitForFunction(
        (k) => {
          const a = document.querySelectorAll("a.gloss")[k]!;
          return (
            getComputedStyle(document.getElementById(a.getAttribute("aria-describedby")!)!).visibility === "hidden"
          );
        },
        i,
        { timeout: 2000 },
      );
      assert.equal((await defState(page, i)).text, definitions.get(id), `${id}: the glossary's definition`);
      // Reach the link with the keyboard: focus it, step back, Tab forward.
      await link.focus();
      await page.keyboard.press("Shift+Tab");
      await page.keyboard.press("Tab");
      assert.equal(
        await page.evaluate(() => document.activeElement?.getAttribute("href")),
        await link.getAttribute("href"),
        `${id}: focused by Tab`,
      );
      assertShownBelow(await defState(page, i), `${width}px, ${id} focused`);
    }
    await page.keyboard.press("Shift+Tab"); // focus leaves the last mark
    // The rightmost mark, hovered: shown (clamped inside the text column), then hidden when the pointer leaves.
    const rightmost = await page.evaluate(() => {
      const all = [...document.querySelectorAll("a.gloss")].map((a) => a.getBoundingClientRect().right);
      return all.indexOf(Math.max(...all));
    });
    await links.nth(rightmost).scrollIntoViewIfNeeded();
    await links.nth(rightmost).hover();
    assertShownBelow(await defState(page, rightmost), `${width}px, mark ${rightmost} hovered`);
    await page.mouse.move(1, 1);
    await page.waitForFunction((k) => {
      const link = document.querySelectorAll("a.gloss")[k]!;
      return getComputedStyle(document.getElementById(link.getAttribute("aria-describedby")!)!).visibility === "hidden";
    }, rightmost);
    await page.emulateMedia({ media: "print" });
    assert.equal(
      await page
        .locator(".gloss-def")
        .first()
        .evaluate((el) => getComputedStyle(el).display),
      "none",
    );
    assert.deepEqual(problems, { consoleErrors: [], pageErrors: [], offOrigin: [], failed: [] });
    await context.close();
  }
});

test("Escape hides a definition shown by focus or hover; it shows again when focus or pointer moves on", async () => {
  const context = await site.browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: "reduce" });
  const page = await context.newPage();
  const problems = watchPage(page, site.server.url);
  await page.goto(`${site.server.url}/data-parallelism/`);
  const links = page.locator("a.gloss");
  const visibility = async (i: number) => (await defState(page, i)).visibility;
  // Focus: shown, Escape hides it and the focus stays; Tab to the next mark shows that one.
  await links.nth(1).focus();
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Tab");
  assert.equal(await visibility(1), "visible");
  await page.keyboard.press("Escape");
  assert.equal(await visibility(1), "hidden", "hidden after Escape");
  assert.equal(
    await page.evaluate(() => document.activeElement?.classList.contains("gloss")),
    true,
    "focus stays on the mark",
  );
  await links.nth(2).focus();
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Tab");
  assert.equal(await visibility(2), "visible", "the next mark shows its definition");
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  // Hover: shown, Escape hides it with the pointer still on the term; leaving and coming back shows it.
  await links.nth(0).scrollIntoViewIfNeeded();
  await page.mouse.move(1, 1);
  await links.nth(0).hover();
  assert.equal(await visibility(0), "visible");
  await page.keyboard.press("Escape");
  assert.equal(await visibility(0), "hidden", "hidden after Escape, pointer still over the term");
  await page.mouse.move(1, 1);
  await links.nth(0).hover();
  assert.equal(await visibility(0), "visible", "shown again after the pointer left and came back");
  assert.deepEqual(problems, { consoleErrors: [], pageErrors: [], offOrigin: [], failed: [] });
  await context.close();
});

test("on a touch screen the first tap shows the definition, a tap elsewhere hides it, a second tap follows the link", async () => {
  const context = await site.browser.newContext({
    viewport: { width: 360, height: 740 },
    isMobile: true,
    hasTouch: true,
    reducedMotion: "reduce",
  });
  const page = await context.newPage();
  const problems = watchPage(page, site.server.url);
  await page.goto(`${site.server.url}/data-parallelism/`);
  assert.equal(
    await page.evaluate(() => matchMedia("(hover: hover)").matches),
    false,
    "the emulated phone has no hover",
  );
  const links = page.locator("a.gloss");
  const href = (await links.nth(1).getAttribute("href")) ?? "";
  await links.nth(1).scrollIntoViewIfNeeded();
  await links.nth(1).tap();
  assert.equal(new URL(page.url()).pathname, "/data-parallelism/", "the first tap stays on the page");
  assertShownBelow(await defState(page, 1), "tapped mark");
  await keepScreenshot(page, `${shotsDir}/reader-glossary-tap-360.png`);
  // A tap on plain text elsewhere closes it.
  await page
    .locator(".chapter-body > p")
    .first()
    .tap({ position: { x: 5, y: 5 } });
  await page.waitForFunction(() => {
    const a = document.querySelectorAll("a.gloss")[1]!;
    return getComputedStyle(document.getElementById(a.getAttribute("aria-describedby")!)!).visibility === "hidden";
  });
  // Tap, tap: the second follows the link.
  await links.nth(1).tap();
  await Promise.all([page.waitForURL((u) => u.pathname === "/glossary/"), links.nth(1).tap()]);
  assert.equal(new URL(page.url()).hash, new URL(href, site.server.url).hash);
  assert.deepEqual(problems, { consoleErrors: [], pageErrors: [], offOrigin: [], failed: [] });
  await context.close();
});

test("the definition is the link's accessible description", async () => {
  const context = await site.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${site.server.url}/pipeline-parallelism/`);
  const cdp = await context.newCDPSession(page);
  const { root } = await cdp.send("DOM.getDocument", { depth: 0 });
  const { nodeId } = await cdp.send("DOM.querySelector", { nodeId: root.nodeId, selector: "a.gloss" });
  const { nodes } = await cdp.send("Accessibility.getPartialAXTree", { nodeId, fetchRelatives: false });
  const href = (await page.locator("a.gloss").first().getAttribute("href")) ?? "";
  const id = /#term-(.+)$/.exec(href)?.[1] ?? "";
  const node = nodes[0] as { role?: { value?: string }; description?: { value?: string } };
  assert.equal(node.role?.value, "link");
  assert.equal(node.description?.value, definitions.get(id));
  await context.close();
});

test("built HTML: every chapter has marks, one per term, only in running text, with unique ids; /book/ has the same", () => {
  const forbidden =
    "h1, h2, h3, h4, h5, h6, code, pre, .katex, .math, figure, figcaption, table, [data-widget], summary, nav, .callout-title, .exercise-title, .aside, .sidenote";
  const markedOnPage = new Map<string, string[]>();
  for (const slug of chapterSlugs) {
    const { document } = parseHTML(readFileSync(path.join(siteDir, slug, "index.html"), "utf8"));
    const terms = [...document.querySelectorAll(".gloss-term")];
    assert.ok(terms.length >= 5, `/${slug}/: ${terms.length} marks`);
    const seen = new Set<string>();
    for (const t of terms) {
      const link = t.querySelector("a.gloss")!;
      const def = t.querySelector(".gloss-def")!;
      const id = /#term-(.+)$/.exec(link.getAttribute("href") ?? "")?.[1] ?? "";
      assert.ok(!seen.has(id), `/${slug}/: ${id} marked twice`);
      seen.add(id);
      assert.equal(def.textContent, definitions.get(id), `/${slug}/: ${id} definition`);
      assert.equal(link.getAttribute("aria-describedby"), def.getAttribute("id"));
      assert.equal(def.getAttribute("id"), `gloss-${slug}-${id}`);
      assert.ok(def.hasAttribute("data-pagefind-ignore"), `/${slug}/: ${id} hidden from search`);
      assert.ok(t.parentElement?.closest(".chapter-body"), `/${slug}/: ${id} in the chapter body`);
      assert.ok(t.parentElement?.closest("p, li"), `/${slug}/: ${id} in a paragraph or list item`);
      assert.equal(
        t.parentElement?.closest(forbidden) ?? null,
        null,
        `/${slug}/: ${id} inside ${t.parentElement?.closest(forbidden)?.tagName}`,
      );
      assert.equal(t.parentElement?.closest("a") ?? null, null, `/${slug}/: ${id} inside a link`);
    }
    const ids = [...document.querySelectorAll("[id]")].map((e) => e.getAttribute("id"));
    assert.equal(new Set(ids).size, ids.length, `/${slug}/: ids unique`);
    markedOnPage.set(slug, [...seen]);
  }
  // /book/ marks each chapter as its own page does, with the tooltip ids prefixed like every id there.
  const book = parseHTML(readFileSync(path.join(siteDir, "book", "index.html"), "utf8")).document;
  for (const slug of chapterSlugs) {
    const article = book.getElementById(slug);
    assert.ok(article, `/book/ has the chapter ${slug}`);
    const links = [...article.querySelectorAll(".chapter-body a.gloss")];
    assert.deepEqual(
      links.map((a) => /#term-(.+)$/.exec(a.getAttribute("href") ?? "")?.[1]),
      markedOnPage.get(slug),
      `/book/#${slug}: the chapter page's marks`,
    );
    for (const a of links) {
      const def = book.getElementById(a.getAttribute("aria-describedby") ?? "");
      assert.ok(
        def?.classList.contains("gloss-def") && def.id.startsWith(`${slug}--gloss-${slug}-`),
        `/book/#${slug}: ${a.getAttribute("href")} tooltip`,
      );
    }
  }
  // The hover definitions are hidden from search: no Pagefind fragment (the indexed text of a page) but the
  // glossary's own, which is indexed on purpose with each term a sub-result, holds one.
  const fragmentsDir = path.join(siteDir, "pagefind", "fragment");
  const fragments = readdirSync(fragmentsDir).map((f) =>
    gunzipSync(readFileSync(path.join(fragmentsDir, f))).toString("utf8"),
  );
  assert.ok(
    fragments.some((f) => f.includes('"url":"/data-parallelism/"')),
    "the chapters are indexed",
  );
  for (const e of glossary) {
    const leak = fragments.find((f) => f.includes(e.definition.slice(0, 48)) && !f.includes('"url":"/glossary/"'));
    assert.equal(leak && /"url":"([^"]+)"/.exec(leak)?.[1], undefined, `${e.id}: definition indexed`);
    assert.ok(
      fragments.some((f) => f.includes('"url":"/glossary/"') && f.includes(e.definition.slice(0, 48))),
      `${e.id}: the glossary page indexes its definition`,
    );
  }
  for (const page of ["index.html", "glossary/index.html", "reading-list/index.html", "search/index.html"]) {
    assert.doesNotMatch(
      readFileSync(path.join(siteDir, page), "utf8"),
      /class="gloss(-term|-def)?"/,
      `${page} has no marks`,
    );
  }
});
