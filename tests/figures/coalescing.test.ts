import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { parseHTML } from "linkedom";
import { coalescingWidget, readCoalescingControls, summarizeCoalescing } from "../../src/figures/coalescing.ts";
import { WidgetSettingsError } from "../../src/figures/widget.ts";
import { memoryTransactions } from "../../src/model/index.ts";

function newRoot(): Element {
  const { document } = parseHTML(
    '<!doctype html><html><body><div id="widget-coalescing-1" data-widget="coalescing"></div></body></html>',
  );
  return document.getElementById("widget-coalescing-1") as unknown as Element;
}

describe("coalescing widget", () => {
  it("parses settings and rejects bad ones", () => {
    assert.deepEqual(coalescingWidget.parseSettings({}), { stride: 1, elementBytes: 4, offset: 0 });
    assert.throws(() => coalescingWidget.parseSettings({ stride: 0 }), WidgetSettingsError);
    assert.throws(() => coalescingWidget.parseSettings({ stride: 65 }), WidgetSettingsError);
    assert.throws(() => coalescingWidget.parseSettings({ elementBytes: 3 }), WidgetSettingsError);
    assert.throws(() => coalescingWidget.parseSettings({ offset: -1 }), WidgetSettingsError);
  });
  it("reads controls without throwing", () => {
    assert.deepEqual(readCoalescingControls({ stride: "8", elementBytes: "2", offset: "1" }), {
      ok: true,
      settings: { stride: 8, elementBytes: 2, offset: 1 },
    });
    for (const bad of ["", "-1", "0", "1e40", "text", "2.5", "65"]) {
      const r = readCoalescingControls({ stride: bad, elementBytes: "4", offset: "0" });
      assert.equal(r.ok, false, bad);
    }
  });
  it("draws one sector box per touched sector and states the model's numbers", () => {
    for (const [stride, sectors] of [
      [1, 4],
      [2, 8],
      [8, 32],
    ] as const) {
      const root = newRoot();
      const settings = coalescingWidget.parseSettings({ stride });
      coalescingWidget.renderStatic(root, settings);
      const a = memoryTransactions(stride);
      assert.equal(a.sectors, sectors);
      assert.equal(root.querySelector(".coalescing-readout")!.textContent, summarizeCoalescing(settings, a));
      assert.match(root.querySelector("svg desc")!.textContent!, new RegExp(`touches ${sectors} sectors`));
      assert.equal(root.querySelectorAll("svg line").length, 32);
      assert.ok(!/NaN|Infinity|undefined/.test(root.innerHTML));
    }
    const root = newRoot();
    coalescingWidget.renderStatic(root, { stride: 1, elementBytes: 4, offset: 1 });
    assert.match(
      root.querySelector(".coalescing-readout")!.textContent!,
      /touches 5 sectors of 32 bytes, 160 bytes moved, 80% of them used/,
    );
  });
});
