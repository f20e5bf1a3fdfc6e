/**
 * Skipping the browser bundles on a rebuild (src/plugins/bundle.ts): they count as current only
 * for the same output folder and widget list, with the outputs in place and no source file
 * touched since they were made.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { bundleIsCurrent, widgetEntryNames } from "../../src/plugins/bundle.ts";

test("bundles are current until a source changes, the outputs go, or the widget list changes", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "bundle-"));
  try {
    const out = path.join(dir, "site");
    mkdirSync(path.join(out, "assets/js/widgets"), { recursive: true });
    writeFileSync(path.join(out, "assets/js/book.js"), "");
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
    rmSync(source);
    assert.equal(bundleIsCurrent(fresh, out), false, "a source deleted");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
