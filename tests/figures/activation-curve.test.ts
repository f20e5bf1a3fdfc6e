/**
 * activation-curve: settings validation, the curves against trainingMemory, the micro-batch
 * parser on hostile input, and the static drawing under linkedom (what readers see without
 * JavaScript).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseHTML } from "linkedom";
import { activationCurveWidget, drawActivationChart, powerOfTenLabel } from "../../src/figures/activation-curve.ts";
import {
  activationCurves,
  curveSummary,
  formatMemory,
  longestFitting,
  parseMicroBatch,
} from "../../src/figures/activation-curve-state.ts";
import { WidgetSettingsError } from "../../src/figures/widget.ts";
import { findModelPreset, layerActivations, parseModelConfig, trainingMemory } from "../../src/model/index.ts";
import { assertApprox } from "../helpers/approx.ts";

const defaults = activationCurveWidget.parseSettings({});

test("parseSettings applies the defaults and rejects unknown keys and bad values, naming the field", () => {
  assert.deepEqual(defaults, { model: "llama-3.1-8b", attention: "eager", microBatch: 1, gpu: "h100-sxm" });
  assert.deepEqual(activationCurveWidget.parseSettings({ model: "gpt2-xl", attention: "flash", microBatch: 8 }), {
    model: "gpt2-xl",
    attention: "flash",
    microBatch: 8,
    gpu: "h100-sxm",
  });
  const field = (raw: unknown) => {
    try {
      activationCurveWidget.parseSettings(raw);
    } catch (e) {
      assert.ok(e instanceof WidgetSettingsError);
      return e.field;
    }
    return "(accepted)";
  };
  assert.equal(field({ model: "llama-9" }), "model");
  assert.equal(field({ attention: "sdpa" }), "attention");
  assert.equal(field({ microBatch: 0 }), "microBatch");
  assert.equal(field({ microBatch: 1.5 }), "microBatch");
  assert.equal(field({ microBatch: 1e40 }), "microBatch");
  assert.equal(field({ microBatch: "4" }), "microBatch");
  assert.equal(field({ gpu: "tpu" }), "gpu");
  assert.equal(field({ colour: "red" }), "colour");
});

test("every point is trainingMemory's activation bytes for that sequence length and recomputation", () => {
  const curves = activationCurves(defaults);
  assert.deepEqual(curves.seqLengths, [256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072]);
  const config = findModelPreset("llama-3.1-8b")!.config;
  curves.seqLengths.forEach((s, i) => {
    for (const recompute of ["none", "selective", "full"] as const) {
      const expected = trainingMemory(config, { seqLength: s, microBatchSize: 1, recompute, attention: "eager" }).perGpu
        .activations;
      assert.equal(curves.bytes[recompute][i], expected, `${recompute} at s = ${s}`);
    }
  });
  // Eager attention: the no-recomputation curve is above the selective one, which is above full.
  curves.seqLengths.forEach((_, i) => {
    assert.ok(curves.bytes.none[i]! > curves.bytes.selective[i]!);
    assert.ok(curves.bytes.selective[i]! > curves.bytes.full[i]!);
  });
});

test("with FlashAttention, no recomputation and selective recomputation coincide (the score matrices are never stored)", () => {
  const curves = activationCurves({ ...defaults, attention: "flash" });
  assert.deepEqual(curves.bytes.none, curves.bytes.selective);
});

test("the sequence axis stops at the model's position limit (GPT-2: 1,024 tokens)", () => {
  const curves = activationCurves({ ...defaults, model: "gpt2-xl" });
  assert.deepEqual(curves.seqLengths, [256, 512, 1024]);
  // And GPT-2's eager layer is Korthikanti's sbh(34 + 5as/h).
  const arch = parseModelConfig(findModelPreset("gpt2-xl")!.config).architecture;
  assert.equal(
    layerActivations(arch, { seqLength: 1024, microBatchSize: 1, attention: "eager" }).totalBytes,
    1024 * 1600 * (34 + 80),
  );
});

test("the micro-batch scales the activations linearly", () => {
  const one = activationCurves(defaults);
  const four = activationCurves({ ...defaults, microBatch: 4 });
  one.bytes.selective.forEach((b, i) => assertApprox(four.bytes.selective[i]!, 4 * b, { abs: 1e-6 * b }));
});

test("parseMicroBatch accepts whole numbers 1 to 1024 and explains everything else, never NaN", () => {
  assert.deepEqual(parseMicroBatch(" 8 "), { ok: true, value: 8 });
  assert.deepEqual(parseMicroBatch("1024"), { ok: true, value: 1024 });
  for (const bad of ["", "0", "-3", "1e40", "1e3", "2.5", "abc", "NaN", "Infinity", "1025", "99999999999999999999"]) {
    const r = parseMicroBatch(bad);
    assert.equal(r.ok, false, `rejects ${JSON.stringify(bad)}`);
    if (!r.ok)
      assert.ok(r.message.length > 10 && !/undefined/.test(r.message) && (bad === "NaN" || !/NaN/.test(r.message)));
  }
});

test("formatting: three significant digits, no trailing zeros; power-of-ten axis labels", () => {
  assert.equal(formatMemory(80e9), "80 GB");
  assert.equal(formatMemory(54_822_000_000), "54.8 GB");
  assert.equal(formatMemory(4.85e9), "4.85 GB");
  assert.equal(formatMemory(2.2e12), "2.2 TB");
  assert.equal(formatMemory(250e6), "250 MB");
  assert.deepEqual([1e8, 1e9, 1e10, 1e12, 1e13].map(powerOfTenLabel), ["100 MB", "1 GB", "10 GB", "1 TB", "10 TB"]);
});

test("summary: the default state prints the chapter's numbers for Llama 3.1 8B at 4,096 tokens and the longest fitting sequences", () => {
  const curves = activationCurves(defaults);
  const text = curveSummary(curves);
  const at4k = (r: "none" | "selective" | "full") => formatMemory(curves.bytes[r][curves.seqLengths.indexOf(4096)]!);
  assert.equal(
    text,
    `Llama 3.1 8B, eager attention, micro-batch 1: activations at 4,096 tokens are no recomputation ${at4k("none")}, ` +
      `selective ${at4k("selective")}, full ${at4k("full")}. Longest sequence drawn whose activations alone fit in 80 GB: ` +
      `no recomputation ${longestFitting(curves, "none")!.toLocaleString("en-US")} tokens, selective ${longestFitting(curves, "selective")!.toLocaleString("en-US")} tokens, full ${longestFitting(curves, "full")!.toLocaleString("en-US")} tokens.`,
  );
  assert.equal(at4k("none"), "56.4 GB"); // the eager column of the chapter's preset table
});

test("static render: disabled labelled controls, a chart with three series, the GPU line and the summary; no NaN", () => {
  const { document } = parseHTML(
    '<!doctype html><html><body><div id="w" data-widget="activation-curve"></div></body></html>',
  );
  const root = document.getElementById("w")!;
  activationCurveWidget.renderStatic(root, defaults);
  const html = root.innerHTML;
  assert.doesNotMatch(html, /NaN|undefined|Infinity/);
  for (const name of ["model", "attention", "microBatch"]) {
    const control = root.querySelector(`[name=${name}]`)!;
    assert.ok(control, name);
    assert.ok(control.hasAttribute("disabled"), `${name} disabled until the script loads`);
    assert.ok(root.querySelector(`label[for="${control.getAttribute("id")}"]`), `${name} has a label`);
  }
  assert.equal(root.querySelector("input[name=microBatch]")!.getAttribute("aria-describedby"), "w-microBatch-message");
  assert.equal(root.querySelector("#w-microBatch-message")!.getAttribute("role"), "alert");
  assert.equal(root.querySelectorAll(".ac-series").length, 3);
  assert.equal(root.querySelectorAll(".ac-series circle").length, 30);
  assert.match(html, /GPU: 80 GB/);
  assert.ok(root.querySelector("[aria-live=polite]"));
  assert.equal(root.querySelector(".ac-summary")!.textContent, curveSummary(activationCurves(defaults)));
  assert.equal(root.querySelectorAll("select[name=model] option").length, 16);
  assert.equal(root.querySelector("select[name=model] option[selected]")!.getAttribute("value"), "llama-3.1-8b");
});

test("compact layout below 480 px puts the labels in a legend and keeps every series", () => {
  const { document } = parseHTML('<!doctype html><html><body><div id="c"></div></body></html>');
  const box = document.getElementById("c")!;
  drawActivationChart(box, activationCurves(defaults), 340);
  assert.equal(box.querySelector("svg")!.getAttribute("viewBox"), "0 0 340 340");
  assert.equal(box.querySelectorAll(".ac-series line").length, 3, "legend swatches");
  assert.equal(box.querySelectorAll(".ac-series circle").length, 30);
});
