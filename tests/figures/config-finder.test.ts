import { readNumber } from "../../src/figures/kit/field.ts";
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { parseHTML } from "linkedom";
import {
  compactConfigLabel,
  configFinderDefaults,
  configFinderProblem,
  configFinderWidget,
  configLabel,
  drawConfigBars,
  explainConfigFinder,
  runConfigFinder,
} from "../../src/figures/config-finder.ts";
import { WidgetSettingsError } from "../../src/figures/widget.ts";
import { findGpu, findModelPreset, searchConfigurations } from "../../src/model/index.ts";

const newDocument = () => parseHTML("<!doctype html><html><body></body></html>").document as unknown as Document;

describe("config-finder settings", () => {
  it("defaults to the chapter's case and accepts valid overrides", () => {
    assert.deepEqual(configFinderWidget.parseSettings({}), configFinderDefaults);
    assert.deepEqual(configFinderWidget.parseSettings({ model: "mixtral-8x7b", gpuCount: 128 }), {
      ...configFinderDefaults,
      model: "mixtral-8x7b",
      gpuCount: 128,
    });
  });
  it("rejects unknown models and GPUs, DeepSeek-V3, bad numbers and unknown keys", () => {
    for (const raw of [
      { model: "gpt-5" },
      { model: "deepseek-v3" },
      { gpu: "tpu" },
      { gpuCount: 0 },
      { gpuCount: 2.5 },
      { seqLength: 1e40 },
      { globalBatch: "8" },
      { tp: 8 },
    ]) {
      assert.throws(() => configFinderWidget.parseSettings(raw), WidgetSettingsError, JSON.stringify(raw));
    }
  });
  it("reads typed integers and names problems", () => {
    assert.equal(readNumber("1,024"), 1024);
    assert.equal(readNumber("abc"), null);
    assert.equal(readNumber(""), null);
    assert.equal(configFinderProblem("gpuCount", -8), "Enter a whole number from 1 to 16,384.");
    assert.equal(configFinderProblem("gpuCount", 2.5), "Enter a whole number.");
    assert.equal(configFinderProblem("seqLength", 8192), undefined);
  });
});

describe("config-finder drawing", () => {
  const result = runConfigFinder(configFinderDefaults);
  const expected = searchConfigurations({
    config: findModelPreset("llama-3.1-70b")!.config,
    gpu: findGpu("h100-sxm")!,
    gpuCount: 256,
    seqLength: 8192,
    globalBatchSequences: 512,
  });

  it("runs the model's search", () => {
    assert.equal(result.ranked.length, expected.ranked.length);
    assert.deepEqual(result.ranked[0], expected.ranked[0]);
  });

  it("labels configurations", () => {
    const top = result.ranked[0];
    assert.equal(configLabel(top), "DP 64 · TP 1 · PP 1 · CP 4 · ZeRO-3 · b 1 · m 8 · no recompute");
    assert.equal(compactConfigLabel(top), "DP64 TP1 PP1 CP4 Z3 b1 m8 none");
  });

  it("explains the top choice with the model's numbers", () => {
    const text = explainConfigFinder(configFinderDefaults, result);
    assert.match(text, /^Fastest under this model: DP 64 · TP 1 · PP 1 · CP 4 · ZeRO-3/);
    assert.match(text, /takes 18\.56 s: 18\.15 s of compute, 0 s of pipeline bubble \(\(p − 1\)\/m = 0\.000\)/);
    assert.match(
      text,
      /MFU 43\.7%, 51\.6 GB per GPU of 72 GB usable\. 2,400 configurations fit\. 5,976 configurations tried: 336 cannot split/,
    );
    const none = explainConfigFinder(
      { ...configFinderDefaults, gpuCount: 1 },
      runConfigFinder({ ...configFinderDefaults, gpuCount: 1 }),
    );
    assert.match(none, /^Nothing fits: Llama 3\.1 70B on 1 GPUs\./);
  });

  it("draws six stacked bars with an accessible title and description, wide and narrow", () => {
    for (const width of [640, 330]) {
      const doc = newDocument();
      const root = doc.createElement("div");
      drawConfigBars(root, result, { idPrefix: "t", width });
      const svg = root.querySelector("svg")!;
      assert.equal(svg.getAttribute("viewBox"), `0 0 ${width} ${width < 560 ? 318 : 300}`);
      assert.equal(svg.getAttribute("aria-labelledby"), "t-title t-desc");
      assert.match(
        root.querySelector("desc")!.textContent!,
        /^1\. DP 64 · TP 1 · PP 1 · CP 4 · ZeRO-3 · b 1 · m 8 · no recompute: 18\.56 s per step, of which 18\.15 s compute\./,
      );
      const labels = [...root.querySelectorAll("text")].map((t) => t.textContent);
      assert.ok(
        labels.includes(width < 560 ? "1. DP64 TP1 PP1 CP4 Z3 b1 m8 none" : `1. ${configLabel(result.ranked[0])}`),
      );
      assert.ok(!svg.outerHTML.includes("NaN") && !svg.outerHTML.includes("undefined"));
    }
  });

  it("renders the static widget: disabled controls, chart, explanation and table", () => {
    const doc = newDocument();
    const root = doc.createElement("div");
    root.setAttribute("id", "widget-config-finder-1");
    configFinderWidget.renderStatic(root, configFinderDefaults);
    assert.equal(root.querySelectorAll("select[disabled]").length, 2);
    assert.equal(root.querySelectorAll("input[disabled]").length, 3);
    for (const input of root.querySelectorAll("input")) {
      const message = root.querySelector(`#${input.getAttribute("aria-describedby")}`);
      assert.equal(message?.getAttribute("role"), "alert");
      assert.ok(root.querySelector(`label[for="${input.id}"]`));
    }
    assert.equal(root.querySelectorAll("tbody tr").length, 5);
    assert.equal(root.querySelector("tbody tr td:nth-child(12)")!.textContent, "18.56\u00a0s");
    // MFU through the kit's formatPercent: one decimal, a trailing ".0" dropped, as in the explanation.
    for (const td of root.querySelectorAll("tbody tr td:nth-child(13)")) {
      assert.match(td.textContent!, /^\d+(\.[1-9])?%$/);
    }
    assert.ok(root.querySelector(".config-finder-readout")!.textContent!.startsWith("Fastest under this model"));
    assert.ok(root.querySelector("[aria-live=polite]"));
  });
});
