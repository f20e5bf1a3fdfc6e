/**
 * tp-sharding: settings validation, the control parser on hostile input, the summary against the
 * model, and the static drawing under linkedom (what readers see without JavaScript).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseHTML } from "linkedom";
import { drawTpSharding, tpShardingWidget } from "../../src/figures/tp-sharding.ts";
import {
  summarizeTpSharding,
  tpShardingDefaults,
  tpShardingModels,
  validateTpShardingControls,
} from "../../src/figures/tp-sharding-state.ts";
import { WidgetSettingsError } from "../../src/figures/widget.ts";
import { findModelPreset, layerActivations, parseModelConfig, tpShardingLayout } from "../../src/model/index.ts";
import { formatBytes } from "../../src/figures/kit/format.ts";

test("parseSettings applies the defaults and rejects unknown keys and bad values, naming the field", () => {
  assert.deepEqual(tpShardingWidget.parseSettings({}), tpShardingDefaults);
  assert.deepEqual(tpShardingWidget.parseSettings({ model: "llama-3.1-8b", tp: 4, sp: false }), {
    ...tpShardingDefaults,
    model: "llama-3.1-8b",
    tp: 4,
    sp: false,
  });
  const bad: [unknown, string][] = [
    [{ colour: "red" }, "colour"],
    [{ model: "mixtral-8x7b" }, "model"],
    [{ model: "deepseek-v3" }, "model"],
    [{ tp: 0 }, "tp"],
    [{ tp: 2.5 }, "tp"],
    [{ tp: "8" }, "tp"],
    [{ model: "qwen2.5-7b", tp: 8 }, "tp"],
    [{ sp: "yes" }, "sp"],
    [{ seq: 8191 }, "seq"],
    [{ microBatch: -1 }, "microBatch"],
  ];
  for (const [raw, field] of bad) {
    assert.throws(
      () => tpShardingWidget.parseSettings(raw),
      (e: unknown) => e instanceof WidgetSettingsError && e.field === field,
      JSON.stringify(raw),
    );
  }
});

test("the model list holds the dense presets only", () => {
  const ids = tpShardingModels().map((m) => m.id);
  assert.ok(ids.includes("llama-3.1-70b") && ids.includes("gpt2-xl") && ids.includes("qwen2.5-7b"));
  assert.ok(!ids.includes("mixtral-8x7b") && !ids.includes("deepseek-v3"));
});

test("validateTpShardingControls never throws and names the field for hostile input", () => {
  const good = { model: "llama-3.1-70b", tp: "8", seq: "8192", microBatch: "1" };
  assert.deepEqual(validateTpShardingControls(good, true), { ok: true, settings: tpShardingDefaults });
  assert.deepEqual(validateTpShardingControls({ ...good, seq: "8,192" }, true), {
    ok: true,
    settings: tpShardingDefaults,
  });
  for (const [field, value] of [
    ["tp", "-3"],
    ["tp", "0"],
    ["tp", "1e40"],
    ["tp", "eight"],
    ["tp", ""],
    ["tp", "4.5"],
    ["tp", "99999999999999999999"],
    ["seq", "0"],
    ["seq", "1e9"],
    ["microBatch", "NaN"],
    ["microBatch", "Infinity"],
    ["model", "gpt-5"],
  ] as const) {
    const r = validateTpShardingControls({ ...good, [field]: value }, true);
    assert.equal(r.ok, false, `${field} = ${value}`);
    if (!r.ok) assert.ok((r.errors[field] ?? "").length > 0, `${field} = ${value}`);
  }
  const qwen = validateTpShardingControls({ ...good, model: "qwen2.5-7b" }, false);
  assert.deepEqual(qwen, { ok: false, errors: { tp: "28 query heads do not split 8 ways." } });
  const spOdd = validateTpShardingControls({ ...good, seq: "8190" }, true);
  assert.equal(spOdd.ok, false);
  if (!spOdd.ok) assert.match(spOdd.errors.seq ?? "", /must divide by t = 8/);
});

test("the summary prints the model's numbers", () => {
  const arch = parseModelConfig(findModelPreset("llama-3.1-70b")!.config).architecture;
  const layout = tpShardingLayout(arch, { tp: 8, sequenceParallel: true, seqLength: 8192, microBatchSize: 1 });
  const acts = layerActivations(arch, { seqLength: 8192, microBatchSize: 1, tp: 8, sequenceParallel: true }).totalBytes;
  const text = summarizeTpSharding(tpShardingDefaults);
  assert.ok(text.includes("Each GPU holds 8 of 64 query heads and 1 of 8 KV heads."));
  assert.ok(
    text.includes(
      `${(layout.layerWeightElementsPerGpu / 1e6).toFixed(2)} M of ${(layout.layerWeightElements / 1e6).toFixed(2)} M elements`,
    ),
  );
  assert.ok(text.includes(formatBytes(acts)), text);
  assert.ok(text.includes("469,762,048 elements (940 MB in bf16)"));
  assert.match(summarizeTpSharding({ ...tpShardingDefaults, tp: 1 }), /no tensor-parallel traffic/);
  const t16 = summarizeTpSharding({ ...tpShardingDefaults, tp: 16 });
  assert.match(t16, /Each GPU holds 4 of 64 query heads and 1 of 8 KV heads\./);
  assert.match(t16, /gives no total for t = 16/);
  assert.match(t16, /replicated on up to 2 GPUs/);
});

test("static render under linkedom: disabled controls, an SVG with title, desc, 9 regions and 4 collectives", () => {
  const { document } = parseHTML(
    "<!doctype html><html><body><div id='w' data-widget='tp-sharding'></div></body></html>",
  );
  const root = document.getElementById("w")!;
  tpShardingWidget.renderStatic(root, tpShardingDefaults);
  const svg = root.querySelector("svg.tp-sharding-chart")!;
  assert.ok(svg);
  assert.match(svg.querySelector("title")!.textContent!, /One layer of Llama 3.1 70B split over 8 GPUs/);
  assert.equal(svg.querySelectorAll(".tps-region").length, 9);
  const bands = [...svg.querySelectorAll(".tps-comm-text")].map((t) => t.textContent);
  assert.deepEqual(bands, [
    "forward all-gather, backward reduce-scatter, on 67.1 M elements",
    "forward reduce-scatter, backward all-gather, on 67.1 M elements",
    "forward all-gather, backward reduce-scatter, on 67.1 M elements",
    "forward reduce-scatter, backward all-gather, on 67.1 M elements",
  ]);
  for (const input of root.querySelectorAll("input, select")) assert.ok(input.hasAttribute("disabled"));
  assert.doesNotMatch(root.innerHTML, /NaN|Infinity|undefined/);
  assert.ok(root.querySelector("[aria-live=polite]"));
  // Redrawing replaces the chart instead of stacking a second one.
  drawTpSharding(root.querySelector(".tp-sharding-figure")!, { ...tpShardingDefaults, sp: false });
  assert.equal(root.querySelectorAll("svg.tp-sharding-chart").length, 1);
  assert.match(root.querySelector(".tps-comm-text")!.textContent!, /^f: forward nothing, backward all-reduce/);
});
