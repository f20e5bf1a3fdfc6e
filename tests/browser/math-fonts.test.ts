/**
 * The site serves KaTeX's faces cut to the characters its math draws (src/plugins/after-build/math-fonts.ts).
 * Cutting must not change a pixel: every distinct formula of the built site (inline and display,
 * from every page) is set on one test page with katex.min.css, and the page is drawn twice, with the
 * faces the site serves and with KaTeX's full faces routed in their place, at 1280 px wide, light,
 * and the two drawings must be identical, band by band. A character missing from a cut face would
 * be drawn in a fallback font and differ here. Both loads wait for every face they use, and the
 * full faces must all have come from node_modules.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DomUtils, parseDocument } from "htmlparser2";
import type { Element } from "domhandler";
import { useSiteAndBrowser } from "../../harness/site-and-browser.ts";
import { siteDir, sitePages } from "../../harness/site-pages.ts";
import { katexFontSource } from "../../src/plugins/after-build/math-fonts.ts";

const site = useSiteAndBrowser();
const testPath = "/__math-fonts-test__/";
const bandHeight = 4000;

const hasClass = (el: Element, name: string) => (el.attribs.class ?? "").split(/\s+/).includes(name);

/** Every distinct formula of the built site: a display formula with its wrapper, an inline one alone. */
function siteFormulas(): { display: string[]; inline: string[] } {
  const display = new Set<string>();
  const inline = new Set<string>();
  for (const urlPath of sitePages()) {
    const file = path.join(siteDir, urlPath, "index.html");
    const doc = parseDocument(readFileSync(file, "utf8"));
    for (const el of DomUtils.findAll((e) => hasClass(e, "katex-display"), doc.children))
      display.add(DomUtils.getOuterHTML(el));
    for (const el of DomUtils.findAll((e) => hasClass(e, "katex"), doc.children)) {
      const parent = el.parent as Element | null;
      if (!(parent && "attribs" in parent && hasClass(parent, "katex-display"))) inline.add(DomUtils.getOuterHTML(el));
    }
  }
  return { display: [...display], inline: [...inline] };
}

test(
  "the cut faces draw every formula of the site exactly as KaTeX's full faces do",
  { timeout: 300_000 },
  async () => {
    const { display, inline } = siteFormulas();
    assert.ok(
      display.length > 50 && inline.length > 500,
      `${display.length} display, ${inline.length} inline formulas`,
    );
    const html =
      `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
      `<link rel="stylesheet" href="/assets/katex/katex.min.css">` +
      `<style>body{margin:8px;width:1264px;font-size:17px;line-height:1.6;background:#fff;color:#000}` +
      `.inline>span{margin-right:1.5em}</style></head><body>` +
      `<div class="display">${display.join("\n")}</div><p class="inline">${inline.map((f) => `<span>${f}</span>`).join(" ")}</p>` +
      `</body></html>`;

    const draw = async (fullFaces: boolean): Promise<Buffer[]> => {
      const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: "light" });
      try {
        await context.route(`**${testPath}`, (route) =>
          route.fulfill({ body: html, contentType: "text/html; charset=utf-8" }),
        );
        const routed = new Set<string>();
        if (fullFaces)
          await context.route("**/assets/katex/fonts/*.woff2", (route) => {
            const name = path.basename(new URL(route.request().url()).pathname);
            routed.add(name);
            return route.fulfill({ body: readFileSync(path.join(katexFontSource, name)), contentType: "font/woff2" });
          });
        const page = await context.newPage();
        await page.goto(site.server.url + testPath, { waitUntil: "load" });
        const faces = await page.evaluate(async () => {
          await document.fonts.ready;
          return [...document.fonts].map((f) => `${f.family} ${f.style} ${f.weight}: ${f.status}`);
        });
        const used = faces.filter((f) => !f.endsWith("unloaded"));
        assert.ok(used.length >= 4, `faces used: ${used.join(", ")}`);
        // The full faces came from node_modules, every face in use (not the site's cut ones again).
        if (fullFaces) assert.equal(routed.size, used.length, `routed: ${[...routed].join(", ")}`);
        assert.deepEqual(
          used.filter((f) => !f.endsWith("loaded")),
          [],
          "every face the formulas use has loaded",
        );
        // Two frames after the faces arrived, so that the layout they cause is drawn.
        await page.evaluate(
          () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
        );
        const height = await page.evaluate(() => document.documentElement.scrollHeight);
        const bands: Buffer[] = [];
        for (let y = 0; y < height; y += bandHeight)
          bands.push(
            await page.screenshot({
              fullPage: true,
              clip: { x: 0, y, width: 1280, height: Math.min(bandHeight, height - y) },
              animations: "disabled",
            }),
          );
        return bands;
      } finally {
        await context.close();
      }
    };

    // A band that differs is drawn again, both ways, from fresh pages; only a band that differs
    // both times fails. In 1 of 4 runs, one glyph of an equation number "(2)" was drawn a fraction
    // of a pixel apart, once (not traced to its cause); a missing character differs every time.
    const compare = async (bands?: number[]) => {
      const cut = await draw(false);
      const full = await draw(true);
      assert.equal(cut.length, full.length, "the page is as tall with either set of faces");
      const differing = (bands ?? cut.map((_, i) => i)).filter((i) => !cut[i]!.equals(full[i]!));
      return { cut, full, differing };
    };
    const first = await compare();
    if (first.differing.length === 0) return;
    const { cut, full, differing } = await compare(first.differing);
    if (differing.length) {
      const dir = mkdtempSync(path.join(os.tmpdir(), "math-fonts-"));
      for (const i of differing) {
        writeFileSync(path.join(dir, `band-${i}-cut.png`), cut[i]!);
        writeFileSync(path.join(dir, `band-${i}-full.png`), full[i]!);
      }
      assert.fail(
        `bands ${differing.join(", ")} (of ${cut.length}, ${bandHeight} px each) differ, twice; PNGs in ${dir}`,
      );
    }
  },
);
