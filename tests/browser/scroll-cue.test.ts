/**
 * A formula, code block or table wider than the column scrolls in its own box, and on screen a
 * shadow at an edge says the box goes on past that edge (book.css, "A formula, code block or table
 * wider than the column"). The test hides each box's content (`visibility: hidden`, which keeps the
 * layout and so the scroll width) and reads the pixels of the box's own background at its left and
 * right edges, against its middle, which no cover or shadow reaches: at the start only the right
 * edge stands out (darker in the light theme, lighter in the dark one), at the end only the left,
 * and a box that fits shows neither. A numbered formula's
 * number sticks to the right edge over the right shadow, and casts its own shadow on its left
 * while the formula scrolls: the column just left of the number's box is read instead of the
 * right edge (the number's digits hidden too, its box shown). A formula linked to (`:target`) has
 * a background of its own, which the covers must match. In light and in dark themes, on a phone,
 * where the wide boxes are.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { afterFrames } from "../../harness/chromium.ts";
import { useSiteAndBrowser } from "../../harness/site-and-browser.ts";

const site = useSiteAndBrowser();

/** Pages whose text holds, at 390 px, each kind of wide box and a numbered formula that fits. */
const pages = ["/one-gpu/", "/data-parallelism/", "/typical-scales/"];
const kinds = { formula: ".math.display", code: "pre", table: ".table-scroll" } as const;

interface Columns {
  /** 1 px inside the left edge. */
  left: number;
  middle: number;
  /** 1 px inside the right edge, or for a numbered formula 1 px left of the number's box. */
  right: number;
}

/**
 * The mean luminance (0-255) of three pixel columns of a screenshot, read by a canvas in `blank`
 * (a page with no content security policy, which would refuse the `data:` URL).
 */
async function columns(blank: Page, png: Buffer, xs: [number, number, number]): Promise<Columns> {
  return blank.evaluate(
    async ([b64, at]) => {
      // No named functions in here: tsx would wrap them in a helper the page does not have.
      const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${b64}`)).blob());
      const ctx = new OffscreenCanvas(bitmap.width, bitmap.height).getContext("2d")!;
      ctx.drawImage(bitmap, 0, 0);
      const { data, width, height } = ctx.getImageData(0, 0, bitmap.width, bitmap.height);
      // Rows away from the top and bottom edges, where a rounded corner (a code block's) cuts in.
      const top = Math.min(8, Math.floor(height / 4));
      const [left, middle, right] = at.map((x) => {
        let sum = 0;
        for (let y = top; y < height - top; y++) {
          const i = (y * width + Math.round(x)) * 4;
          sum += 0.2126 * data[i]! + 0.7152 * data[i + 1]! + 0.0722 * data[i + 2]!;
        }
        return sum / (height - 2 * top);
      });
      return { left: left!, middle: middle!, right: right! };
    },
    [png.toString("base64"), xs] as const,
  );
}

/** Box `index` scrolled to its start or its end, as painted, its content hidden. */
async function shot(page: Page, blank: Page, index: number, to: "start" | "end"): Promise<Columns> {
  const geometry = await page.evaluate(
    ([i, end]) => {
      const el = document.querySelectorAll<HTMLElement>("[data-cue-test]")[i]!;
      el.scrollLeft = end ? el.scrollWidth : 0;
      const rect = el.getBoundingClientRect();
      const tag = el.querySelector(".tag")?.getBoundingClientRect();
      return { x: rect.x, y: rect.y, width: rect.width, height: rect.height, tagLeft: tag ? tag.left - rect.x : null };
    },
    [index, to === "end"] as const,
  );
  await afterFrames(page);
  const { tagLeft, ...clip } = geometry;
  // Not `animations: "disabled"`: that would finish the number's scroll-driven animation, and its shadow with it.
  const png = await page.screenshot({ clip });
  return columns(blank, png, [1, clip.width / 2, tagLeft === null ? clip.width - 2 : tagLeft - 1]);
}

// Of 255. In the dark theme the "shadow" is a light glow (a dark one showed about 8.6 below the
// near-black background, which readers did not see, issue #54), so what counts is how far the
// edge stands from the middle, either way.
const visible = 15;
const same = 2;
const stands = (edge: number, middle: number) => Math.abs(edge - middle) > visible;

for (const colorScheme of ["light", "dark"] as const) {
  test(`a box that scrolls sideways shows a shadow at each edge it continues past (390 px, ${colorScheme})`, async () => {
    const context = await site.browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme });
    const seen = new Set<string>();
    try {
      const page = await context.newPage();
      const blank = await context.newPage();
      for (const path of pages) {
        await page.goto(site.server.url + path, { waitUntil: "load" });
        // The first wide box of each kind; for formulas, the first wide one with and without a
        // number, and the first numbered one that fits. These pages' wide formulas are all
        // numbered, so a plain one is made from the first: a copy without its number (and ids).
        const picked = await page.evaluate((selectors) => {
          for (const [kind, selector] of Object.entries(selectors)) {
            const boxes = Array.from(document.querySelectorAll<HTMLElement>(`.chapter-body ${selector}`)).filter(
              (el) => el.getBoundingClientRect().width > 200,
            );
            const wide = boxes.filter((el) => el.scrollWidth > el.clientWidth + 40);
            const numbered = wide.find((el) => el.querySelector(".tag"));
            const plain = wide.find((el) => !el.querySelector(".tag"));
            if (plain) plain.dataset.cueTest = `${kind} scrolls`;
            if (kind === "formula" && numbered) {
              numbered.dataset.cueTest = "numbered-formula scrolls";
              if (!plain) {
                const copy = numbered.cloneNode(true) as HTMLElement;
                copy.querySelector(".tag")?.remove();
                for (const el of [copy, ...copy.querySelectorAll("[id]")]) el.removeAttribute("id");
                copy.dataset.cueTest = `${kind} scrolls`;
                numbered.after(copy);
              }
            }
            const fits = boxes.find((el) => el.querySelector(".tag") && el.scrollWidth <= el.clientWidth);
            if (kind === "formula" && fits) fits.dataset.cueTest = "numbered-formula fits";
          }
          const style = document.createElement("style");
          style.textContent =
            "[data-cue-test] * { visibility: hidden !important; } [data-cue-test] .tag { visibility: visible !important; }";
          document.head.append(style);
          // In document order, as shot() finds them.
          return Array.from(document.querySelectorAll<HTMLElement>("[data-cue-test]"), (el) => el.dataset.cueTest!);
        }, kinds);
        const check = async (i: number, what: string) => {
          const where = `${path} ${what} (${colorScheme})`;
          await page.evaluate((n) => {
            document.querySelectorAll<HTMLElement>("[data-cue-test]")[n]!.scrollIntoView({ block: "center" });
          }, i);
          const start = await shot(page, blank, i, "start");
          const show = (c: Columns) =>
            JSON.stringify(c, (_, v: unknown) => (typeof v === "number" ? Math.round(v) : v));
          assert.ok(
            Math.abs(start.left - start.middle) <= same,
            `${where}: a shadow at the left at the start: ${show(start)}`,
          );
          if (what.endsWith("fits")) {
            assert.ok(Math.abs(start.right - start.middle) <= same, `${where}: a shadow at the right: ${show(start)}`);
          } else {
            assert.ok(
              stands(start.right, start.middle),
              `${where}: no shadow at the right at the start: ${show(start)}`,
            );
            const end = await shot(page, blank, i, "end");
            assert.ok(stands(end.left, end.middle), `${where}: no shadow at the left at the end: ${show(end)}`);
            assert.ok(
              Math.abs(end.right - end.middle) <= same,
              `${where}: a shadow at the right at the end: ${show(end)}`,
            );
          }
          seen.add(what);
        };
        for (const [i, what] of picked.entries()) await check(i, what);
        // A formula linked to (`:target`) takes its own background; the covers must follow it.
        const linked = picked.indexOf("numbered-formula scrolls");
        const id = await page.evaluate((n) => document.querySelectorAll("[data-cue-test]")[n]?.id ?? "", linked);
        if (id) {
          await page.evaluate((hash) => (location.hash = hash), id);
          await check(linked, "numbered-formula scrolls, linked");
        }
      }
    } finally {
      await context.close();
    }
    // Without boxes to look at, the test would prove nothing.
    const expected = [
      ...Object.keys(kinds).map((k) => `${k} scrolls`),
      "numbered-formula scrolls",
      "numbered-formula scrolls, linked",
      "numbered-formula fits",
    ];
    for (const what of expected) assert.ok(seen.has(what), `no ${what.replace(" ", " that ")} on ${pages.join(", ")}`);
  });
}
