/**
 * Equation numbers never cover their formula (book.css, "An equation number never covers its
 * formula"). KaTeX sets a number at the right edge of the column, and on a phone most of the book's
 * numbered formulas ran under it. Every numbered display of every page is measured at 390, 768 and
 * 1280 px, and /book/ in print media at the PDF's text width (A4 less two 18 mm margins). On every one:
 * - the number is on the formula's line, at least half an em to the right of the formula;
 * - a formula with room on both sides is centered on the column, as KaTeX centers it;
 * - the display scrolls only when the formula, the gap and the number are wider than the column,
 *   and the number then ends the scrolled line.
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
  /** The formula's extent: left, right, top, bottom of its `.base` boxes together. */
  formula: [number, number, number, number];
  /** The number's glyphs: left, right, top, bottom. */
  number: [number, number, number, number];
  width: number;
  scrolls: boolean;
}

async function measure(page: Page): Promise<Numbered[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>(".math.display .katex-html > .tag")].map((tag) => {
      const html = tag.parentElement!;
      const box = html.closest<HTMLElement>(".math.display")!;
      const origin = box.getBoundingClientRect();
      const bases = [...html.querySelectorAll<HTMLElement>(":scope > .base")].map((b) => b.getBoundingClientRect());
      const glyphs = tag.lastElementChild!.getBoundingClientRect();
      return {
        id: box.id,
        em: parseFloat(getComputedStyle(html).fontSize),
        formula: [
          Math.min(...bases.map((b) => b.left)) - origin.left,
          Math.max(...bases.map((b) => b.right)) - origin.left,
          Math.min(...bases.map((b) => b.top)) - origin.top,
          Math.max(...bases.map((b) => b.bottom)) - origin.top,
        ] as [number, number, number, number],
        number: [
          glyphs.left - origin.left,
          glyphs.right - origin.left,
          glyphs.top - origin.top,
          glyphs.bottom - origin.top,
        ] as [number, number, number, number],
        width: box.clientWidth,
        scrolls: box.scrollWidth > box.clientWidth,
      };
    }),
  );
}

/** What is wrong with one numbered display, or nothing. */
function faults(d: Numbered): string[] {
  const [fl, fr, ft, fb] = d.formula;
  const [nl, nr, nt, nb] = d.number;
  const gap = 0.5 * d.em;
  const numberWidth = nr - nl;
  const out: string[] = [];
  if (nl - fr < gap - 0.5)
    out.push(`the number is ${(nl - fr).toFixed(1)} px from the formula (under ${gap.toFixed(1)})`);
  if (nt < ft - 1 || nb > fb + 1)
    out.push(
      `the number (${nt.toFixed(1)}-${nb.toFixed(1)}) is off the formula's line (${ft.toFixed(1)}-${fb.toFixed(1)})`,
    );
  const needed = fr - fl + gap + numberWidth;
  if (d.scrolls !== needed > d.width + 0.5)
    out.push(`${d.scrolls ? "scrolls" : "does not scroll"}, with ${needed.toFixed(1)} px needed in ${d.width} px`);
  if (d.scrolls && Math.abs(fl) > 0.5)
    out.push(`a scrolling formula starts at ${fl.toFixed(1)} px, not at the left edge`);
  if (!d.scrolls && nr > d.width + 0.5)
    out.push(`the number ends at ${nr.toFixed(1)} px, past the column's ${d.width}`);
  const room = (d.width - (fr - fl)) / 2;
  if (room >= gap + numberWidth + 0.5 && Math.abs((fl + fr) / 2 - d.width / 2) > 0.5)
    out.push(`off center by ${((fl + fr) / 2 - d.width / 2).toFixed(1)} px with room on both sides`);
  return out;
}

/** The pages with numbered displays, from the built HTML. */
const numberedPages = sitePages().filter(
  (p) => p !== "/book/" && readFileSync(path.join(siteDir, p, "index.html"), "utf8").includes('<span class="tag">'),
);

for (const width of [390, 768, 1280]) {
  test(`at ${width} px no equation number covers or crowds its formula`, { timeout: 180_000 }, async () => {
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
  });
}

test("in print, at the PDF's text width, no equation number covers or crowds its formula", async () => {
  const pdfTextWidth = Math.floor(((210 - 2 * 18) / 25.4) * 96); // A4 less tools/pdf.ts's margins, in CSS px
  const page = await site.browser.newPage({ viewport: { width: pdfTextWidth, height: 900 } });
  await page.emulateMedia({ media: "print", colorScheme: "light" });
  await page.goto(site.server.url + "/book/", { waitUntil: "load" });
  await page.evaluate(() => document.fonts.ready);
  const displays = await measure(page);
  await page.close();
  assert.ok(displays.length >= 80, `${displays.length} numbered equations measured`);
  assert.deepEqual(
    displays.flatMap((d) => faults(d).map((f) => `${d.id}: ${f}`)),
    [],
  );
});
