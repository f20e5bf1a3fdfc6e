import { test } from "node:test";
import assert from "node:assert/strict";
import { parseHTML } from "linkedom";
import { simulateMoeRouting } from "../../src/model/index.ts";
import {
  drawMoeRouting,
  moeRoutingDefaults,
  moeRoutingWidget,
  parseMoeRoutingSettings,
  summarizeMoeRouting,
} from "../../src/figures/moe-routing.ts";
import { WidgetSettingsError } from "../../src/figures/widget.ts";
import { validateControls } from "../../src/widgets/moe-routing.ts";

function render(settings = moeRoutingDefaults) {
  const { document } = parseHTML("<!doctype html><html><body><div id=root></div></body></html>");
  const root = document.getElementById("root")!;
  moeRoutingWidget.renderStatic(root, settings);
  return root;
}

test("static render: one kept bar per expert, dropped bars where the model drops, capacity line, summary", () => {
  const root = render();
  const r = simulateMoeRouting(moeRoutingDefaults);
  const bars = root.querySelectorAll(".moe-expert-bars rect");
  const withDrops = r.expertKept.filter((k, e) => r.expertRequested[e] > k).length;
  assert.equal(bars.length, moeRoutingDefaults.experts + withDrops);
  assert.equal(root.querySelectorAll("line.moe-capacity").length, 1);
  assert.ok(root.textContent!.includes(`capacity ${r.capacityPerExpert}`));
  assert.equal(root.querySelectorAll("rect.moe-gpu-bar").length, 4);
  const summary = root.querySelector("p.widget-summary")!.textContent!;
  assert.equal(summary, summarizeMoeRouting(r));
  assert.ok(summary.includes("Dropped 125 of 1,024 assignments (12.2%)"), summary);
  assert.ok(!/NaN|undefined|Infinity/.test(root.innerHTML));
});

test("dropless render has no capacity line and says so", () => {
  const root = render({ ...moeRoutingDefaults, capacityFactor: null });
  assert.equal(root.querySelectorAll("line.moe-capacity").length, 0);
  assert.ok(root.textContent!.includes("No capacity limit (dropless)."));
  assert.ok(root.textContent!.includes("Dropped 0 of 1,024"));
});

test("redrawing replaces the previous chart instead of stacking a second one", () => {
  const { document } = parseHTML("<!doctype html><html><body><div id=root></div></body></html>");
  const root = document.getElementById("root")!;
  drawMoeRouting(root, simulateMoeRouting(moeRoutingDefaults));
  drawMoeRouting(root, simulateMoeRouting({ ...moeRoutingDefaults, skew: 1 }));
  assert.equal(root.querySelectorAll("svg.moe-routing-chart").length, 1);
});

test("parseSettings: defaults, null capacity, and errors naming the field", () => {
  assert.deepEqual(parseMoeRoutingSettings({}), moeRoutingDefaults);
  assert.deepEqual(parseMoeRoutingSettings(undefined), moeRoutingDefaults);
  assert.equal(parseMoeRoutingSettings({ capacityFactor: null }).capacityFactor, null);
  assert.equal(parseMoeRoutingSettings({ capacityFactor: "none" }).capacityFactor, null);
  const bad: Array<[Record<string, unknown>, string]> = [
    [{ colour: 1 }, "colour"],
    [{ experts: 12 }, "experts"],
    [{ gpus: 3 }, "gpus"],
    [{ topK: 9 }, "topK"],
    [{ topK: 0 }, "topK"],
    [{ tokens: 5000 }, "tokens"],
    [{ tokens: 514 }, "gpus"],
    [{ capacityFactor: -1 }, "capacityFactor"],
    [{ skew: "high" }, "skew"],
    [{ seed: 1.5 }, "seed"],
  ];
  for (const [raw, field] of bad) {
    assert.throws(
      () => parseMoeRoutingSettings(raw),
      (e: unknown) => e instanceof WidgetSettingsError && e.field === field,
      JSON.stringify(raw),
    );
  }
});

test("validateControls: hostile input is rejected per field, never reaches the model", () => {
  const good = { tokens: "512", experts: "16", gpus: "4", topK: "2", capacityFactor: "1.25", skew: "0.5", seed: "7" };
  const ok = validateControls(good, false);
  assert.ok(ok.ok);
  if (ok.ok) assert.deepEqual(ok.settings, moeRoutingDefaults);
  const dropless = validateControls({ ...good, capacityFactor: "garbage" }, true);
  assert.ok(dropless.ok && dropless.settings.capacityFactor === null);
  for (const [field, value] of [
    ["tokens", "-5"],
    ["tokens", "0"],
    ["tokens", "1e40"],
    ["tokens", "abc"],
    ["tokens", ""],
    ["tokens", "510"],
    ["topK", "9"],
    ["topK", "1.5"],
    ["capacityFactor", "0"],
    ["capacityFactor", "1e40"],
    ["capacityFactor", ""],
    ["skew", "-1"],
    ["seed", "-1"],
    ["seed", "NaN"],
  ] as const) {
    const r = validateControls({ ...good, [field]: value }, false);
    assert.ok(!r.ok, `${field}=${value}`);
    if (!r.ok) assert.ok(r.errors[field], `${field}=${value} names ${field}`);
  }
  const commas = validateControls({ ...good, tokens: "1,024" }, false);
  assert.ok(commas.ok && commas.settings.tokens === 1024);
});
