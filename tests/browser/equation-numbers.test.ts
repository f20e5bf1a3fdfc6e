/**
 * Equation numbers never cover a formula that fits, and stay in view beside one that does not
 * (book.css, "An equation number never covers a formula that fits"). KaTeX sets a number at the right
 * edge of the column, and at 390 px 31 of the book's 83 numbered formulas ran under it. Every numbered
 * display of every page is measured at 390, 768 and 1280 px, and /book/ in print media at the PDF's
 * text width (A4 less two 18 mm margins). On every one:
 * - the number is on the formula's baseline, at least half an em to the right of the formula, and
 *   ends its row;
 * - a formula with room on both sides is centered on the column, as KaTeX centers it, and one short of
 *   room sits exactly half an em from its number;
 * - the display scrolls only when the formula, the gap and the number are wider than the column, and a
 *   scrolling formula starts at the column's left edge; in print no display overflows.
 * A scrolling display is measured scrolled to its end, where its number is in its place in the row. At
 * rest, its number must be in view at the display's right edge, drawn over the formula, on the
 * display's background (book.css, "the number of a formula too wide for the column stays in view").
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { useSiteAndBrowser } from "../../harness/site-and-browser.ts";
import { siteDir, sitePages } from "../../harness/site-pages.ts";

const site = useSiteAndBrowser();

/** Geometry of one numbered display, in CSS px, relative to its `.math.display` box. */
interface Numbered {
  id: string;
  em: number;
  /** The formula's left and right: its `.base` boxes together. */
  formula: [number, number];
  /** The baselines of the formula's pieces and of the number, from their struts (see `measure`). */
  baselines: number[];
  numberBaseline: number;
  /** The number's glyphs: left and right. */
  number: [number, number];
  /** Right edge of the row that holds the formula and its number. */
  rowRight: number;
  width: number;
  scrolls: boolean;
  /** Only for a display that scrolls, measured at rest (not scrolled). */
  atRest?: {
    /** The number's glyphs: left and right, in the display's visible box. */
    number: [number, number];
    /** What is drawn at the middle of the number and in the gap just before it (is it the number's box?). */
    numberOnTop: boolean;
    gapOnTop: boolean;
    /** The number's computed background image and color, and the color behind the display: the
     * background of the display or of its nearest ancestor that has one. */
    backgroundImage: string;
    backgroundColor: string;
    displayColor: string;
  };
}

async function measure(page: Page): Promise<Numbered[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>(".math.display .katex-html > .tag")]
      .filter((tag) => tag.getClientRects().length > 0)
      .map((tag) => {
        const html = tag.parentElement!;
        const box = html.closest<HTMLElement>(".math.display")!;
        const scrolls = box.scrollWidth > box.clientWidth;
        let atRest;
        if (scrolls) {
          box.scrollIntoView({ block: "center" });
          box.scrollLeft = 0;
          const view = box.getBoundingClientRect();
          const glyphs = tag.lastElementChild!.getBoundingClientRect();
          const y = (glyphs.top + glyphs.bottom) / 2;
          const em = parseFloat(getComputedStyle(html).fontSize);
          let displayColor: string | undefined;
          for (let e: HTMLElement | null = box; e && !displayColor; e = e.parentElement) {
            const c = getComputedStyle(e).backgroundColor;
            // Transparent: alpha 0 (in forced colors the color part is the system's Canvas).
            if (!/^rgba\(.*, 0\)$/.test(c)) displayColor = c;
          }
          if (!displayColor) throw new Error(`#${box.id}: nothing behind the display has a background`);
          atRest = {
            number: [glyphs.left - view.left, glyphs.right - view.left] as [number, number],
            numberOnTop: tag.contains(document.elementFromPoint((glyphs.left + glyphs.right) / 2, y)),
            gapOnTop: tag.contains(document.elementFromPoint(glyphs.left - 0.1 * em, y)),
            backgroundImage: getComputedStyle(tag).backgroundImage,
            backgroundColor: getComputedStyle(tag).backgroundColor,
            displayColor,
          };
          // Scrolled to its end, the number is in its place in the row: measure there.
          box.scrollLeft = box.scrollWidth;
        }
        // Positions are taken in the display's content, so that they do not depend on the scroll.
        const rect = box.getBoundingClientRect();
        const origin = { top: rect.top, left: rect.left - box.scrollLeft, width: rect.width };
        const bases = [...html.querySelectorAll<HTMLElement>(":scope > .base")].map((b) => b.getBoundingClientRect());
        // KaTeX opens every piece, and the number, with a strut: an empty inline-block as tall as the
        // piece, whose vertical-align is minus its depth, so its bottom plus that vertical-align is the
        // baseline. (An inline callback: a named function here would not survive the transpiler.)
        const lines = [...html.querySelectorAll<HTMLElement>(":scope > .base > .strut, :scope > .tag > .strut")].map(
          (strut) =>
            strut.getBoundingClientRect().bottom +
            (parseFloat(getComputedStyle(strut).verticalAlign) || 0) -
            origin.top,
        );
        const glyphs = tag.lastElementChild!.getBoundingClientRect();
        return {
          id: box.id,
          em: parseFloat(getComputedStyle(html).fontSize),
          formula: [
            Math.min(...bases.map((b) => b.left)) - origin.left,
            Math.max(...bases.map((b) => b.right)) - origin.left,
          ] as [number, number],
          baselines: lines.slice(0, -1),
          numberBaseline: lines.at(-1)!,
          number: [glyphs.left - origin.left, glyphs.right - origin.left] as [number, number],
          rowRight: html.getBoundingClientRect().right - origin.left,
          width: origin.width,
          scrolls,
          ...(atRest && { atRest }),
        };
      }),
  );
}

/** What is wrong with one numbered display, or nothing. In print nothing may overflow (print has no scrolling). */
function faults(d: Numbered, print = false): string[] {
  const [fl, fr] = d.formula;
  const [nl, nr] = d.number;
  const gap = 0.5 * d.em;
  const numberWidth = nr - nl;
  const out: string[] = [];
  const px = (x: number) => x.toFixed(1);
  if (nl - fr < gap - 0.5) out.push(`the number is ${px(nl - fr)} px from the formula (under ${px(gap)})`);
  const off = d.baselines.filter((b) => Math.abs(b - d.numberBaseline) > 0.5);
  if (d.baselines.length === 0 || off.length > 0)
    out.push(
      `the number's baseline (${px(d.numberBaseline)}) is not the formula's (${d.baselines.map(px).join(", ")})`,
    );
  if (Math.abs(nr - d.rowRight) > 0.5 || d.rowRight < d.width - 0.5)
    out.push(`the number ends at ${px(nr)} px, not at the right of its row (${px(d.rowRight)}, column ${px(d.width)})`);
  const needed = fr - fl + gap + numberWidth;
  if (print && d.scrolls) out.push(`overflows the printed column: ${px(needed)} px needed in ${px(d.width)}`);
  if (Math.abs(needed - d.width) > 1 && d.scrolls !== needed > d.width)
    out.push(`${d.scrolls ? "scrolls" : "does not scroll"}, with ${px(needed)} px needed in ${px(d.width)} px`);
  if (d.scrolls && Math.abs(fl) > 0.5) out.push(`a scrolling formula starts at ${px(fl)} px, not at the left edge`);
  const room = (d.width - (fr - fl)) / 2;
  if (room >= gap + numberWidth + 0.5 && Math.abs((fl + fr) / 2 - d.width / 2) > 0.5)
    out.push(`off center by ${px((fl + fr) / 2 - d.width / 2)} px with room on both sides`);
  if (room < gap + numberWidth - 0.5 && Math.abs(nl - fr - gap) > 0.5)
    out.push(`short of room, but ${px(nl - fr)} px from its number instead of ${px(gap)}`);
  const r = d.atRest;
  if (d.scrolls && !print && !r) out.push("scrolls, but was not measured at rest");
  if (r) {
    if (r.number[0] < -0.5 || Math.abs(r.number[1] - d.width) > 0.5)
      out.push(
        `at rest, the number is at ${px(r.number[0])}-${px(r.number[1])} px, not in view at the right edge (${px(d.width)})`,
      );
    if (!r.numberOnTop) out.push("at rest, the formula is drawn over the number");
    if (!r.gapOnTop) out.push("at rest, the formula is drawn over the gap before the number");
    // The color fades in over the gap's start (a gradient from transparent), or, where forced colors
    // drop the image, is a plain color; either way it ends in the color behind the display.
    const fade = /^linear-gradient\(to right, rgba\(0, 0, 0, 0\), (rgb\([^)]*\)) [\d.]+px\)$/.exec(r.backgroundImage);
    const painted = fade ? fade[1] : r.backgroundImage === "none" ? r.backgroundColor : r.backgroundImage;
    if (painted !== r.displayColor)
      out.push(
        `at rest, the number's background (${r.backgroundImage}, ${r.backgroundColor}) is not the color behind the display (${r.displayColor})`,
      );
  }
  return out;
}

/** The pages with numbered displays, from the built HTML. */
const numberedPages = sitePages().filter(
  (p) => p !== "/book/" && readFileSync(path.join(siteDir, p, "index.html"), "utf8").includes('<span class="tag">'),
);

for (const width of [390, 768, 1280]) {
  test(
    `at ${width} px every equation number sits beside its formula and stays in view`,
    { timeout: 180_000 },
    async () => {
      assert.ok(numberedPages.length >= 10, `${numberedPages.length} pages with numbered equations`);
      const context = await site.browser.newContext({ viewport: { width, height: 844 } });
      const page = await context.newPage();
      const problems: string[] = [];
      let count = 0;
      for (const urlPath of numberedPages) {
        await page.goto(site.server.url + urlPath, { waitUntil: "load" });
        await page.evaluate(() => document.fonts.ready);
        const displays = await measure(page);
        count += displays.length;
        for (const d of displays) for (const f of faults(d)) problems.push(`${urlPath}#${d.id}: ${f}`);
      }
      await context.close();
      assert.ok(count >= 80, `${count} numbered equations measured`);
      assert.deepEqual(problems, []);
    },
  );
}

test("at 390 px a scrolling display's number is drawn on the color behind it, in every theme", async () => {
  const ways = [
    { name: "light", colorScheme: "light" },
    { name: "dark", colorScheme: "dark" },
    { name: "a stored dark choice on a light system", colorScheme: "light", stored: "dark" },
    { name: "forced colors", colorScheme: "light", forcedColors: "active" },
  ] as const;
  const problems: string[] = [];
  for (const way of ways) {
    const context = await site.browser.newContext({
      viewport: { width: 390, height: 844 },
      colorScheme: way.colorScheme,
      forcedColors: "forcedColors" in way ? way.forcedColors : "none",
    });
    if ("stored" in way)
      await context.addInitScript((theme) => localStorage.setItem("scaling-out-theme", theme), way.stored);
    const page = await context.newPage();
    await page.goto(site.server.url + "/one-gpu/", { waitUntil: "load" });
    await page.evaluate(() => document.fonts.ready);
    const all = await measure(page);
    const id = all.find((d) => d.scrolls)?.id;
    assert.ok(id, "a numbered display that scrolls at 390 px on /one-gpu/");
    // The same display when a link targets it, which highlights it.
    await page.evaluate((target) => {
      location.hash = target;
    }, id);
    const targeted = (await measure(page)).find((d) => d.id === id)!;
    const pageColor = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await context.close();
    if (way.name !== "forced colors" && targeted.atRest?.displayColor === pageColor)
      problems.push(`${way.name}: #${id} is not highlighted when targeted`);
    for (const d of [...all, { ...targeted, id: `${id} (targeted)` }])
      for (const f of faults(d)) problems.push(`${way.name}: #${d.id}: ${f}`);
  }
  assert.deepEqual(problems, []);
});

test("in print, at the PDF's text width, every equation number sits beside its formula", async () => {
  const pdfTextWidth = Math.floor(((210 - 2 * 18) / 25.4) * 96); // A4 less tools/pdf.ts's margins, in CSS px
  const page = await site.browser.newPage({ viewport: { width: pdfTextWidth, height: 900 } });
  await page.emulateMedia({ media: "print", colorScheme: "light" });
  await page.goto(site.server.url + "/book/", { waitUntil: "load" });
  await page.evaluate(() => document.fonts.ready);
  const displays = await measure(page);
  await page.close();
  assert.ok(displays.length >= 80, `${displays.length} numbered equations measured`);
  assert.deepEqual(
    displays.flatMap((d) => faults(d, true).map((f) => `${d.id}: ${f}`)),
    [],
  );
});
