/**
 * Skipping the browser bundles on a rebuild (src/plugins/site/bundle.ts): they count as current only
 * for the same output folder and widget list, with the outputs in place and no source file
 * touched since they were made (the minified stylesheet among the outputs).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  bundleIsCurrent,
  minifyStylesheet,
  stylesheetSource,
  widgetEntryNames,
} from "../../src/plugins/site/bundle.ts";

test("bundles are current until a source changes, the outputs go, or the widget list changes", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "bundle-"));
  try {
    const out = path.join(dir, "site");
    mkdirSync(path.join(out, "assets/js/widgets"), { recursive: true });
    writeFileSync(path.join(out, "assets/js/book.js"), "");
    mkdirSync(path.join(out, path.dirname(stylesheetSource)), { recursive: true });
    writeFileSync(path.join(out, stylesheetSource), "");
    const source = path.join(dir, "widget.ts");
    writeFileSync(source, "export {};");
    const last = () => ({
      outputDir: out,
      entries: widgetEntryNames("src/widgets").join(","),
      inputs: new Map([[source, statSync(source).mtimeMs]]),
    });

    assert.equal(bundleIsCurrent(undefined, out), false, "never bundled");
    const made = last();
    assert.equal(bundleIsCurrent(made, out), true);
    assert.equal(bundleIsCurrent(made, path.join(dir, "elsewhere")), false, "another output folder");
    assert.equal(bundleIsCurrent({ ...made, entries: "only-one" }, out), false, "a widget added or removed");
    assert.equal(bundleIsCurrent({ ...made, inputs: new Map([[source, -1]]) }, out), false, "saved while bundling");

    const later = new Date(Date.now() + 5000);
    utimesSync(source, later, later);
    assert.equal(bundleIsCurrent(made, out), false, "a source edited");

    const fresh = last();
    rmSync(path.join(out, "assets/js/book.js"));
    assert.equal(bundleIsCurrent(fresh, out), false, "output removed");
    writeFileSync(path.join(out, "assets/js/book.js"), "");
    assert.equal(bundleIsCurrent(fresh, out), true);
    rmSync(path.join(out, stylesheetSource));
    assert.equal(bundleIsCurrent(fresh, out), false, "minified stylesheet removed");
    writeFileSync(path.join(out, stylesheetSource), "");
    rmSync(source);
    assert.equal(bundleIsCurrent(fresh, out), false, "a source deleted");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the stylesheet goes to the site minified, with a source map that holds the source", async () => {
  const out = mkdtempSync(path.join(os.tmpdir(), "stylesheet-"));
  try {
    await minifyStylesheet(process.cwd(), out);
    const source = readFileSync(stylesheetSource, "utf8");
    const css = readFileSync(path.join(out, stylesheetSource), "utf8");
    const map = JSON.parse(readFileSync(path.join(out, `${stylesheetSource}.map`), "utf8")) as {
      sources: string[];
      sourcesContent: string[];
    };
    assert.ok(css.length < source.length * 0.7, `minified ${css.length} bytes from ${source.length}`);
    assert.deepEqual(
      [...css.matchAll(/\/\*[^]*?\*\//g)].map((m) => m[0]),
      ["/*# sourceMappingURL=book.css.map */"],
      "the only comment left is the source map's",
    );
    // Spot checks of rules that the first paint, the themes and print depend on.
    for (const selector of [
      ".theme-js:not(.parts-rendered) .chapter-page .appendix",
      "[data-theme=dark]",
      "@media print",
    ])
      assert.ok(css.includes(selector), `${selector} kept`);
    assert.deepEqual(map.sources, ["book.css"], "the source named next to the map, not by a path of this machine");
    assert.deepEqual(map.sourcesContent, [source]);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
