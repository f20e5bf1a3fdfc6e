/**
 * The site serves book.css minified by esbuild (src/plugins/site/bundle.ts). Minifying must not change
 * what any element looks like: with the served sheet and with the source sheet in its place, every
 * element and its `::before`, `::after` and `::marker` have the same computed style, property by
 * property, on the preface (math, tables, figures, callouts, an aside, a widget's static drawing)
 * and on the home page, at 1280 × 900 and 390 × 844, light and dark, and in print. A change of
 * esbuild that rewrote a rule's meaning would fail here. Widget bundles are blocked in both loads,
 * so that a widget drawn in one and not yet in the other cannot differ. Each style is hashed in
 * the page (FNV-1a over the sorted declarations) so that the preface's 1,300 elements travel as
 * short strings; on a difference the test names the element and the hash's input length. A custom
 * property's value is compared as tokens with a decimal's leading zero dropped (esbuild's 0.8rem is
 * .8rem there); what it changes is compared in the properties that use it. A pseudo-element that
 * makes no box (a `::before` or `::after` whose content is none, a `::marker` outside a list item)
 * is compared by what decides that alone, its content and its element's display: reading its
 * other 400-odd properties made the test take 140 s instead of 30 s (docs/ci-time.md). Changing a
 * property of a drawn `::before`, its content, or a property of an element fails it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { stylesheetSource } from "../../src/plugins/site/bundle.ts";
import { useSiteAndBrowser } from "../../harness/site-and-browser.ts";

const site = useSiteAndBrowser();
const source = readFileSync(stylesheetSource, "utf8");

interface Setting {
  viewport: { width: number; height: number };
  colorScheme: "light" | "dark";
  print: boolean;
}

const settings: Setting[] = [
  { viewport: { width: 1280, height: 900 }, colorScheme: "light", print: false },
  { viewport: { width: 1280, height: 900 }, colorScheme: "dark", print: false },
  { viewport: { width: 390, height: 844 }, colorScheme: "light", print: false },
  { viewport: { width: 390, height: 844 }, colorScheme: "dark", print: false },
  { viewport: { width: 1280, height: 900 }, colorScheme: "light", print: true },
];

/** One line per element and pseudo-element: its index, tag, and a hash of its computed style. */
async function computedStyles(urlPath: string, setting: Setting, withSource: boolean): Promise<string[]> {
  const context = await site.browser.newContext({ viewport: setting.viewport, colorScheme: setting.colorScheme });
  try {
    await context.route("**/assets/js/widgets/**", (route) => route.abort());
    if (withSource)
      await context.route(`**/${stylesheetSource}`, (route) =>
        route.fulfill({ body: source, contentType: "text/css; charset=utf-8" }),
      );
    const page = await context.newPage();
    await page.goto(site.server.url + urlPath, { waitUntil: "load" });
    // book.js ends the first-paint window at the load (`parts-rendered`); wait for it in both.
    await page.waitForFunction(() => document.documentElement.classList.contains("parts-rendered"));
    if (setting.print) await page.emulateMedia({ media: "print" });
    return await page.evaluate(() => {
      const lines: string[] = [];
      document.querySelectorAll("*").forEach((el, i) => {
        const listItem = getComputedStyle(el).display.includes("list-item");
        for (const pseudo of [null, "::before", "::after", "::marker"]) {
          const style = getComputedStyle(el, pseudo);
          // A ::before or ::after whose content is none makes no box, nor does a ::marker outside
          // a list item: what decides that (content, the element's display) is compared instead
          // of the rest of a style nothing draws.
          if (pseudo === "::marker" ? !listItem : pseudo !== null && /^(none|normal)$/.test(style.content)) {
            lines.push(
              `${i}${pseudo} <${el.tagName.toLowerCase()}> no box ${pseudo === "::marker" ? "" : style.content}`,
            );
            continue;
          }
          const declarations: string[] = [];
          for (let k = 0; k < style.length; k++) {
            const name = style.item(k);
            const value = style.getPropertyValue(name);
            // A custom property computes to its tokens as written, and esbuild writes 0.8rem as .8rem:
            // the same number, and the properties that use it are compared as computed.
            declarations.push(
              `${name}:${name.startsWith("--") ? value.replace(/(^|[^\d.])0\.(\d)/g, "$1.$2") : value}`,
            );
          }
          const text = declarations.sort().join(";");
          let hash = 2166136261;
          for (let c = 0; c < text.length; c++) hash = Math.imul(hash ^ text.charCodeAt(c), 16777619);
          lines.push(`${i}${pseudo ?? ""} <${el.tagName.toLowerCase()}> ${(hash >>> 0).toString(16)} ${text.length}`);
        }
      });
      return lines;
    });
  } finally {
    await context.close();
  }
}

test("the minified stylesheet gives every element the computed style of the source sheet", async () => {
  const differences: string[] = [];
  for (const urlPath of ["/preface/", "/"])
    for (const setting of settings) {
      const name = `${urlPath} ${setting.viewport.width}px ${setting.colorScheme}${setting.print ? " print" : ""}`;
      const fromSource = await computedStyles(urlPath, setting, true);
      const served = await computedStyles(urlPath, setting, false);
      assert.ok(served.length >= 4 * 200, `${name}: only ${served.length / 4} elements read`);
      if (served.length !== fromSource.length) {
        differences.push(`${name}: ${served.length} elements served, ${fromSource.length} with the source sheet`);
        continue;
      }
      const differing = served.filter((line, i) => line !== fromSource[i]);
      if (differing.length > 0)
        differences.push(
          `${name}: ${differing.length} differ, first ${differing[0]} (source: ${fromSource[served.indexOf(differing[0]!)]})`,
        );
    }
  assert.deepEqual(differences, []);
});
