/**
 * The widget registry and the browser entries stay in step: every name in
 * src/figures/index.ts has src/widgets/<name>.ts exporting `mount`, and every browser entry
 * is registered. Every registered widget renders its default state at build time.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { widgetRegistry } from "../../src/figures/index.ts";
import { widgetEntryNames } from "../../src/plugins/site/bundle.ts";
import { renderWidgetHtml } from "../../src/plugins/markdown/widgets.ts";
import { parseHTML } from "linkedom";
import { bookEdition } from "../../src/plugins/markdown/edition.ts";

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

test("on /book/ every widget's fields are text: no form control, the value each control shows, no button", () => {
  const env = { edition: bookEdition("sample", new Set(["sample"]), "Chapter 1") };
  let fields = 0;
  for (const [name, def] of Object.entries(widgetRegistry)) {
    const settings = def.parseSettings({});
    const page = parseHTML(
      `<!doctype html><html><body>${renderWidgetHtml(def, name, `widget-${name}-1`, settings)}</body></html>`,
    );
    const book = parseHTML(
      `<!doctype html><html><body>${renderWidgetHtml(def, name, `widget-${name}-1`, settings, env)}</body></html>`,
    );
    assert.equal(book.document.querySelector("input, select, textarea, button, label"), null, name);
    assert.equal(book.document.querySelector(".widget-message"), null, `${name}: no message element`);
    // No id is left referenced that the transform took away, and no field is left empty.
    const ids = new Set([...book.document.querySelectorAll("[id]")].map((el) => el.id));
    for (const el of book.document.querySelectorAll("[for], [aria-describedby], [aria-labelledby], [aria-controls]"))
      for (const attr of ["for", "aria-describedby", "aria-labelledby", "aria-controls"])
        for (const ref of el.getAttribute(attr)?.split(/\s+/).filter(Boolean) ?? [])
          assert.ok(ids.has(ref), `${name}: ${attr}="${ref}" names no element`);
    for (const field of book.document.querySelectorAll(".widget-field"))
      assert.ok(field.textContent?.trim(), `${name}: an empty field`);
    // Every control of the page's drawing but a button has its text, under the same (prefixed) id.
    for (const control of page.document.querySelectorAll("input, select, textarea")) {
      const text = book.document.getElementById(`sample--${control.id}`);
      assert.equal(text?.className, "widget-static-value", `${name}: ${control.id}`);
      const expected =
        control.localName === "select"
          ? (control.querySelector("option[selected]") ?? control.querySelector("option"))!.textContent!.trim()
          : ["checkbox", "radio"].includes(control.getAttribute("type") ?? "")
            ? control.hasAttribute("checked")
              ? "on"
              : "off"
            : control.getAttribute("type") === "range"
              ? (control.getAttribute("aria-valuetext") ?? control.getAttribute("value") ?? "")
              : (control.getAttribute("value") ?? "");
      assert.equal(text!.textContent, expected, `${name}: ${control.id}`);
      fields++;
    }
  }
  assert.ok(fields >= 20, `only ${fields} fields seen`);
});
