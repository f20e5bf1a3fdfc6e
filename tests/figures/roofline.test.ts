import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { parseHTML } from "linkedom";
import { rooflineWidget } from "../../src/figures/roofline.ts";
import {
  formatIntensity,
  readRooflineControls,
  rooflineView,
  summarizeRoofline,
} from "../../src/figures/roofline-state.ts";
import { WidgetSettingsError } from "../../src/figures/widget.ts";
import { findGpu, matmulCost, ridgePointFlopsPerByte } from "../../src/model/index.ts";
import { assertApprox } from "../helpers/approx.ts";

function newRoot(): Element {
  const { document } = parseHTML(
    '<!doctype html><html><body><div id="widget-roofline-1" data-widget="roofline"></div></body></html>',
  );
  return document.getElementById("widget-roofline-1") as unknown as Element;
}

describe("roofline settings", () => {
  it("defaults to the H100 SXM in bf16 with 8,192 tokens and N = 4096", () => {
    assert.deepEqual(rooflineWidget.parseSettings({}), { gpu: "h100-sxm", precision: "bf16", tokens: 8192, seq: 4096 });
  });
  it("rejects unknown GPUs, fp8 on an A100, bad counts and unknown keys", () => {
    assert.throws(() => rooflineWidget.parseSettings({ gpu: "v100" }), WidgetSettingsError);
    assert.throws(() => rooflineWidget.parseSettings({ gpu: "a100-sxm-80gb", precision: "fp8" }), WidgetSettingsError);
    assert.throws(() => rooflineWidget.parseSettings({ tokens: 0 }), WidgetSettingsError);
    assert.throws(() => rooflineWidget.parseSettings({ seq: 1.5 }), WidgetSettingsError);
    assert.throws(() => rooflineWidget.parseSettings({ colour: "red" }), WidgetSettingsError);
  });
});

describe("roofline view", () => {
  it("places the operations by the model's intensities", () => {
    const v = rooflineView({ gpu: "h100-sxm", precision: "bf16", tokens: 8192, seq: 4096 });
    const h100 = findGpu("h100-sxm")!;
    assert.equal(v.ridgeFlopsPerByte, ridgePointFlopsPerByte(h100.bf16FlopsPerSecond, h100.hbmBytesPerSecond));
    const byId = Object.fromEntries(v.points.map((p) => [p.id, p]));
    assert.equal(byId.matmul!.cost.intensityFlopsPerByte, matmulCost(8192, 14336, 4096).intensityFlopsPerByte);
    assert.equal(byId.matmul!.bound, "compute");
    assert.equal(byId.add!.bound, "memory");
    assert.equal(byId["attn-std"]!.bound, "memory");
    assert.equal(byId["attn-fused"]!.cost.intensityFlopsPerByte, 2048);
    assert.equal(formatIntensity(byId.matmul!.cost.intensityFlopsPerByte), "2,294");
    assert.match(summarizeRoofline(v), /ridge at 295 FLOP\/byte/);
  });
  it("fp8 halves the bytes and doubles the peak", () => {
    const bf = rooflineView({ gpu: "h100-sxm", precision: "bf16", tokens: 16, seq: 4096 });
    const f8 = rooflineView({ gpu: "h100-sxm", precision: "fp8", tokens: 16, seq: 4096 });
    assert.equal(f8.peakFlopsPerSecond, findGpu("h100-sxm")!.fp8FlopsPerSecond);
    assertApprox(f8.points[0]!.cost.intensityFlopsPerByte, 2 * bf.points[0]!.cost.intensityFlopsPerByte, { abs: 1e-9 });
  });
});

describe("roofline controls", () => {
  it("accepts separators and rejects hostile input without throwing", () => {
    const ok = readRooflineControls({ gpu: "a100-sxm-80gb", precision: "bf16", tokens: "8,192", seq: "2048" });
    assert.deepEqual(ok, { ok: true, settings: { gpu: "a100-sxm-80gb", precision: "bf16", tokens: 8192, seq: 2048 } });
    for (const bad of ["", "-5", "0", "1e40", "abc", "3.5", "99999999"]) {
      const r = readRooflineControls({ gpu: "h100-sxm", precision: "bf16", tokens: bad, seq: "4096" });
      assert.equal(r.ok, false, bad);
      if (!r.ok) assert.ok(r.errors.tokens && r.errors.tokens.length > 0);
    }
    const fp8 = readRooflineControls({ gpu: "a100-sxm-80gb", precision: "fp8", tokens: "16", seq: "16" });
    assert.equal(fp8.ok, false);
  });
  it("reads numbers like every other widget: thin-space separators, and the kit's wording", () => {
    const ok = readRooflineControls({ gpu: "h100-sxm", precision: "bf16", tokens: "8\u2009192", seq: "4\u202f096" });
    assert.deepEqual(ok, { ok: true, settings: { gpu: "h100-sxm", precision: "bf16", tokens: 8192, seq: 4096 } });
    const bad = readRooflineControls({ gpu: "h100-sxm", precision: "bf16", tokens: "−5", seq: "4096" });
    assert.deepEqual(bad, {
      ok: false,
      errors: { tokens: "Enter a whole number from 1 to 1,048,576, for example 4096." },
    });
  });
});

describe("roofline static render", () => {
  it("draws disabled labelled controls, an SVG with title and desc, six points and a legend", () => {
    const root = newRoot();
    rooflineWidget.renderStatic(root, rooflineWidget.parseSettings({}));
    const html = root.innerHTML;
    assert.equal(root.querySelectorAll("select[disabled]").length, 2);
    assert.equal(root.querySelectorAll("input[disabled]").length, 2);
    for (const input of root.querySelectorAll("input, select")) {
      assert.ok(
        root.querySelector(`label[for="${input.getAttribute("id")}"]`),
        `label for ${input.getAttribute("id")}`,
      );
    }
    assert.equal(root.querySelectorAll(".roofline-point").length, 6);
    assert.equal(root.querySelectorAll(".roofline-legend li").length, 6);
    assert.match(
      html,
      /<title id="widget-roofline-1-svg-title">Roofline of the NVIDIA H100 SXM5 80GB in bf16<\/title>/,
    );
    assert.match(html, /ridge 295 FLOP\/byte, peak 989\.4 TFLOPS/);
    assert.ok(!/NaN|Infinity|undefined/.test(html));
    assert.ok(root.querySelector("[aria-live=polite]"));
  });
});
