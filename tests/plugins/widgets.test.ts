/**
 * The widget registry and the browser entries stay in step: every name in
 * src/figures/index.ts has src/widgets/<name>.ts exporting `mount`, and every browser entry
 * is registered. Every registered widget renders its default state at build time.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { widgetRegistry } from "../../src/figures/index.ts";
import { widgetEntryNames } from "../../src/plugins/bundle.ts";
import { renderWidgetHtml } from "../../src/plugins/widgets.ts";
import { parseHTML } from "linkedom";

test("every registered widget has a browser entry and every browser entry is registered", () => {
  assert.deepEqual(Object.keys(widgetRegistry).sort(), widgetEntryNames());
});

test("every browser entry exports mount(root, settings)", () => {
  for (const name of widgetEntryNames()) {
    const src = readFileSync(`src/widgets/${name}.ts`, "utf8");
    assert.match(
      src,
      /export (async )?function mount\(/,
      `src/widgets/${name}.ts must export function mount(root, settings)`,
    );
  }
});

test("every registered widget renders a static figure from empty settings", () => {
  for (const [name, def] of Object.entries(widgetRegistry)) {
    const html = renderWidgetHtml(def, name, `widget-${name}-1`, def.parseSettings({}));
    assert.ok(html.includes(`data-widget="${name}"`), name);
    assert.doesNotMatch(html, /\bundefined\b/, `${name} static render`);
    // No drawn number may be NaN or Infinity (a label may mention them in words).
    const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
    for (const el of document.querySelectorAll("*")) {
      for (const node of el.childNodes) {
        if (node.nodeType === 3)
          assert.doesNotMatch(
            node.textContent!.trim(),
            /^(-|−)?(NaN|Infinity)\b/,
            `${name}: a text node reads "${node.textContent}"`,
          );
      }
    }
  }
});
