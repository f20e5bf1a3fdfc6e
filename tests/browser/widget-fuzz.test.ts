/**
 * Fuzzing every widget on the built site with bad input (issue #28, "Widgets never show NaN or
 * garbage"). For each widget instance of each page, each enabled text field gets "abc", "", "-1",
 * "1e40", "0", "NaN", a huge and a fractional value, one after the other. After each value:
 *
 * - no "NaN", "Infinity" or "undefined" appears in the widget's visible text (a number format's own
 *   NaN encoding is labelled inside an element marked `data-nan-ok` and is skipped);
 * - no console error or uncaught exception;
 * - a value that is not a number at all ("abc", "NaN") is refused with a message next to the field
 *   (the element its aria-describedby names, non-empty, visible, with aria-invalid on the field);
 *   any other value (0, -1, 1e40, 2.5, "" for an optional field) is either accepted or refused the
 *   same way, never silently shown as garbage (1e40 is a fair input of the number-formats widget);
 * - the chart is not blank: the widget still holds a visible SVG or canvas with drawn content (or,
 *   for the unit converter, its table).
 *
 * Each field is reset to its first value before the next, and must then show no message.
 * The test prints one line per problem found and fails when there is any.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { afterFrames, afterPageTimers, watchPage } from "../../harness/chromium.ts";
import { useSiteAndBrowser } from "../../harness/site-and-browser.ts";
import { sitePages, siteDir } from "../../harness/site-pages.ts";
import { readFileSync } from "node:fs";
import path from "node:path";

const badValues = ["abc", "", "-1", "1e40", "0", "NaN", "99999999999999999999", "2.5", "1,024.75"];
const mustRefuse = new Set(["abc", "NaN"]);

const site = useSiteAndBrowser();

/**
 * Once a change has been drawn: config-finder redraws 150 ms after the last keystroke, so the
 * page's timers up to 150 ms run first, then a frame passes, and no widget still has a redraw
 * pending (`data-widget-busy`, src/widgets/runtime/after-paint.ts) (no fixed sleep before the checks).
 */
async function redrawn(page: Page): Promise<void> {
  await afterPageTimers(page, 150);
  await afterFrames(page, 1);
  await page.waitForFunction(() => document.querySelector("[data-widget-busy]") === null);
}

/** Pages with widgets and the ids of the widgets on each, read from the built HTML. */
function widgetPages(): { page: string; ids: string[] }[] {
  const out: { page: string; ids: string[] }[] = [];
  for (const p of sitePages()) {
    if (p === "/book/") continue;
    const html = readFileSync(path.join(siteDir, p, "index.html"), "utf8");
    const ids = Array.from(html.matchAll(/<div [^>]*\bid="(widget-[a-z0-9-]+-\d+)"/g), (m) => m[1]!);
    if (ids.length > 0) out.push({ page: p, ids });
  }
  return out;
}

interface Check {
  garbage: string[];
  message: string | null;
  invalid: boolean;
  blank: boolean;
}

/**
 * Reads the state of one field and its widget after a value was typed. Written as a string
 * because tsx would wrap named functions in a helper the page does not have.
 */
const inspectSource = `([id, i]) => {
  const root = document.getElementById(id);
  const field = root.querySelectorAll("input[type=text]")[i];
  let text = "";
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const parent = n.parentElement;
    if (!parent || parent.closest("[data-nan-ok], [hidden], script, style, title")) continue;
    const style = getComputedStyle(parent);
    if (style.display === "none" || style.visibility === "hidden") continue;
    text += " " + n.textContent;
  }
  const garbage = ["NaN", "Infinity", "undefined"].filter((w) => new RegExp("\\b" + w + "\\b").test(text));
  const msgId = (field.getAttribute("aria-describedby") || "").split(/\\s+/)[0];
  const msg = msgId ? document.getElementById(msgId) : null;
  const message = msg && msg.textContent.trim() !== "" && msg.getClientRects().length > 0 ? msg.textContent.trim() : null;
  const charts = Array.from(root.querySelectorAll("svg, canvas")).filter((c) => {
    const r = c.getBoundingClientRect();
    if (r.width < 40 || r.height < 40) return false;
    return c instanceof HTMLCanvasElement || c.querySelectorAll("rect, path, line, circle, text, polyline").length > 2;
  });
  const tables = root.querySelectorAll("table tbody tr").length;
  return { garbage, message, invalid: field.getAttribute("aria-invalid") === "true", blank: charts.length === 0 && tables === 0 };
}`;

async function inspect(page: Page, widgetId: string, fieldIndex: number): Promise<Check> {
  return page.evaluate(`(${inspectSource})(${JSON.stringify([widgetId, fieldIndex])})`) as Promise<Check>;
}

/** One page's widgets fuzzed in a context of its own: the problems found and the fields tried. */
async function fuzzPage(path: string, ids: readonly string[]): Promise<{ problems: string[]; fieldsTried: number }> {
  const problems: string[] = [];
  let fieldsTried = 0;
  const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const watched = watchPage(page, site.server.url);
  await page.goto(`${site.server.url}${path}`);
  for (const id of ids) {
    await page.locator(`#${id}`).scrollIntoViewIfNeeded();
    await page.waitForFunction((w) => document.getElementById(w)?.dataset.widgetState === "mounted", id);
    const count = await page.locator(`#${id} input[type=text]`).count();
    for (let i = 0; i < count; i++) {
      const field = page.locator(`#${id} input[type=text]`).nth(i);
      if (!(await field.isVisible()) || !(await field.isEnabled())) continue;
      fieldsTried++;
      const name = (await field.getAttribute("name")) ?? `#${i}`;
      const original = await field.inputValue();
      for (const value of badValues) {
        await field.fill(value);
        await field.press("Tab");
        await redrawn(page); // fields that redraw after a pause (150 ms) have settled
        const c = await inspect(page, id, i);
        const where = `${path} ${id} field "${name}" ← ${JSON.stringify(value)}`;
        if (c.garbage.length > 0) problems.push(`${where}: shows ${c.garbage.join(", ")}`);
        if (c.blank) problems.push(`${where}: chart is blank`);
        if (mustRefuse.has(value) && !(c.invalid && c.message))
          problems.push(`${where}: refused without a message next to the field`);
        if (c.invalid && !c.message) problems.push(`${where}: marked invalid without a visible message`);
      }
      await field.fill(original);
      await field.press("Tab");
      await redrawn(page); // fields that redraw after a pause (150 ms) have settled
      const reset = await inspect(page, id, i);
      if (reset.invalid || reset.message)
        problems.push(
          `${path} ${id} field "${name}": still shows "${reset.message}" after its first value was restored`,
        );
    }
  }
  for (const e of [...watched.consoleErrors, ...watched.pageErrors]) problems.push(`${path}: ${e}`);
  await context.close();
  return { problems, fieldsTried };
}

/**
 * Pages fuzzed at once. Most of a page's time is spent waiting for its redraws (the 150 ms pause
 * and a frame per value), so three pages in three contexts share the wait; each page is still
 * alone in its context, and the problems are reported in page order.
 */
const pagesAtOnce = 3;

describe("widget fuzzing", () => {
  it("no widget shows NaN, Infinity, undefined or a blank chart for bad input, and every refusal has a message", async () => {
    const pages = widgetPages();
    const results: { problems: string[]; fieldsTried: number }[] = new Array(pages.length);
    // The pages with the most widgets first, so that no long page is left to run alone at the end.
    const order = pages.map((_, k) => k).sort((a, b) => pages[b]!.ids.length - pages[a]!.ids.length);
    let next = 0;
    const worker = async () => {
      for (let k = order[next++]; k !== undefined; k = order[next++])
        results[k] = await fuzzPage(pages[k]!.page, pages[k]!.ids);
    };
    await Promise.all(Array.from({ length: pagesAtOnce }, worker));
    const problems = results.flatMap((r) => r.problems);
    const fieldsTried = results.reduce((n, r) => n + r.fieldsTried, 0);
    if (problems.length > 0) console.log(problems.join("\n"));
    assert.ok(fieldsTried >= 30, `only ${fieldsTried} fields were tried`);
    assert.deepEqual(problems, []);
  });
});
