import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { parseHTML } from "linkedom";
import {
  defaultDpOverlapSettings,
  dpOverlapBuckets,
  dpOverlapWidget,
  parseDpOverlapSettings,
  presetMicrobatchMilliseconds,
  summarizeDpOverlap,
  validateDpOverlapControls,
} from "../../src/figures/dp-overlap.ts";
import { chapterTimelinePanels, renderChapterFigures } from "../../src/figures/dp-chapter-figures.ts";
import { mergeRuns } from "../../src/figures/dp-timelines.ts";
import { formatDuration } from "../../src/figures/kit/format.ts";
import { WidgetSettingsError } from "../../src/figures/widget.ts";
import {
  clusterShape,
  dataParallelTimeline,
  ddpModelBucketCount,
  exerciseValue,
  findGpu,
  findModelPreset,
  groupLink,
  KERNEL_EFFICIENCY,
  modelFlopsPerToken,
  parseModelConfig,
} from "../../src/model/index.ts";

function newDocument(): Document {
  return parseHTML("<!doctype html><html><body></body></html>").document as unknown as Document;
}

describe("the chapter's code-drawn figures", () => {
  it("assets/img/data-parallelism/{timelines,scaling}.svg are what tools/figures/data-parallelism.ts writes now", () => {
    const figures = renderChapterFigures(newDocument());
    for (const [name, svg] of Object.entries(figures)) {
      const committed = readFileSync(`assets/img/data-parallelism/${name}`, "utf8");
      assert.equal(committed, `${svg}\n`, `${name} is stale: run node --import tsx tools/figures/data-parallelism.ts`);
    }
  });

  it("the timelines figure prints each panel's step and exposed time, and no NaN or undefined", () => {
    const svg = renderChapterFigures(newDocument())["timelines.svg"];
    for (const panel of chapterTimelinePanels()) {
      const t = panel.timeline;
      assert.ok(svg.includes(`step ${formatDuration(t.stepSeconds)}, exposed ${formatDuration(t.exposedCommSeconds)}`));
    }
    assert.ok(svg.includes('<title id="dp-timelines-title">'));
    assert.ok(!/NaN|undefined|Infinity/.test(svg));
    assert.ok(!/NaN|undefined|Infinity/.test(renderChapterFigures(newDocument())["scaling.svg"]));
  });
});

describe("formatDuration and mergeRuns", () => {
  it("formats the way the chapter prints times", () => {
    assert.equal(formatDuration(0.003004), "3.0 ms");
    assert.equal(formatDuration(0.85173), "852 ms");
    assert.equal(formatDuration(0.9996), "1.000 s");
    assert.equal(formatDuration(1.19566), "1.196 s");
    assert.equal(formatDuration(123.45), "123.5 s");
    assert.throws(() => formatDuration(Number.NaN), RangeError);
  });
  it("merges back-to-back buckets into one run and keeps gaps", () => {
    const runs = mergeRuns(
      [
        { startSeconds: 0, endSeconds: 1 },
        { startSeconds: 1, endSeconds: 2 },
        { startSeconds: 3, endSeconds: 4 },
      ],
      0.01,
    );
    assert.deepEqual(runs, [
      { start: 0, end: 2 },
      { start: 3, end: 4 },
    ]);
  });
});

describe("dp-overlap widget settings", () => {
  it("defaults to the chapter's example: Llama 3.1 8B at Hopper's kernel efficiency, 64 replicas one per server", () => {
    const preset = findModelPreset("llama-3.1-8b");
    const gpu = findGpu("h100-sxm");
    assert.ok(preset && gpu);
    assert.equal(defaultDpOverlapSettings.model, preset.id);
    const ms =
      (modelFlopsPerToken(preset.config, 4096).total * 4096 * 1000) /
      (KERNEL_EFFICIENCY.hopper * gpu.bf16FlopsPerSecond);
    assert.equal(defaultDpOverlapSettings.microbatchMilliseconds, ms);
    const cluster = clusterShape("h100-sxm");
    const onePerServer = groupLink(cluster, "all-reduce", { ranks: 64, stride: cluster.gpusPerServer });
    assert.equal(defaultDpOverlapSettings.busBandwidthGBps * 1e9, onePerServer.busBytesPerSecond);
    assert.deepEqual(dpOverlapWidget.parseSettings({}), defaultDpOverlapSettings);
  });

  it("accepts chapter YAML and rejects unknown keys and bad values with the field named", () => {
    assert.equal(parseDpOverlapSettings({ dp: 8, busBandwidthGBps: 450 }).dp, 8);
    const bad: [Record<string, unknown>, string][] = [
      [{ bandwidth: 4 }, "bandwidth"],
      [{ dp: 0 }, "dp"],
      [{ dp: 2.5 }, "dp"],
      [{ busBandwidthGBps: "fast" }, "busBandwidthGBps"],
      [{ bucketMebibytes: -1 }, "bucketMebibytes"],
      [{ microbatches: 1e40 }, "microbatches"],
      [{ noSync: "yes" }, "noSync"],
    ];
    for (const [raw, field] of bad) {
      assert.throws(
        () => dpOverlapWidget.parseSettings(raw),
        (e) => e instanceof WidgetSettingsError && e.field === field,
        `expected a WidgetSettingsError on ${field}`,
      );
    }
  });

  it("validates typed control values, keeping the previous state on hostile input", () => {
    const prev = defaultDpOverlapSettings;
    const ok = validateDpOverlapControls({ busBandwidthGBps: "450", dp: "8" }, true, prev);
    assert.ok(ok.ok && ok.settings.busBandwidthGBps === 450 && ok.settings.dp === 8);
    for (const text of ["-1", "0", "1e40", "abc", "", "NaN", "Infinity"]) {
      const r = validateDpOverlapControls({ busBandwidthGBps: text }, true, prev);
      assert.ok(!r.ok, `"${text}" must be rejected`);
      if (!r.ok) assert.ok(typeof r.errors.busBandwidthGBps === "string" && r.errors.busBandwidthGBps.length > 0);
    }
    // DDP never splits a tensor, so the smallest cap gives one bucket per tensor (the norms ride along), not
    // gradient bytes / 0.25 MiB.
    const smallest = validateDpOverlapControls({ bucketMebibytes: "0.25" }, true, prev);
    assert.ok(smallest.ok && dpOverlapBuckets(smallest.settings) === dpOverlapBuckets({ ...prev, bucketMebibytes: 1 }));
    const comma = validateDpOverlapControls({ dp: "1,024" }, true, prev);
    assert.ok(comma.ok && comma.settings.dp === 1024);
  });
});

describe("dp-overlap static render (linkedom)", () => {
  it("draws disabled, labelled controls, two timelines and a summary that match the model", () => {
    const doc = newDocument();
    const root = doc.createElement("div");
    root.setAttribute("id", "w1");
    doc.body.append(root);
    dpOverlapWidget.renderStatic(root, defaultDpOverlapSettings);
    const inputs = [...root.querySelectorAll("input")];
    assert.equal(inputs.length, 6);
    for (const input of inputs) {
      assert.ok(input.hasAttribute("disabled"));
      // Labelled by a <label for> or by the <label> that wraps it.
      const label = root.querySelector(`label[for="${input.getAttribute("id")}"]`) ?? input.closest("label");
      assert.ok(label && label.textContent!.length > 0, `input ${input.getAttribute("name")} has a label`);
    }
    assert.equal(root.querySelectorAll("[role=alert]").length, 5);
    assert.ok(root.querySelector("[aria-live=polite]"));
    assert.equal(root.querySelectorAll("svg").length, 1);
    const html = root.innerHTML;
    assert.ok(!/NaN|undefined|Infinity/.test(html));
    const preset = findModelPreset("llama-3.1-8b");
    assert.ok(preset);
    const buckets = ddpModelBucketCount(parseModelConfig(preset.config).architecture, 25 * 2 ** 20, 4);
    const serial = dataParallelTimeline({
      gradientBytes: 2 * preset.publishedTotal,
      layers: 32,
      forwardSeconds: defaultDpOverlapSettings.microbatchMilliseconds / 3000,
      backwardSeconds: defaultDpOverlapSettings.microbatchMilliseconds / 1500,
      microbatches: 1,
      dp: 64,
      bucketBytes: (2 * preset.publishedTotal) / buckets,
      busBandwidthBytesPerSecond: defaultDpOverlapSettings.busBandwidthGBps * 1e9,
      collectiveLatencySeconds: 50e-6,
      overlap: false,
      noSync: true,
    });
    assert.ok(html.includes(`step ${formatDuration(serial.stepSeconds)}`));
    assert.ok(root.querySelector(".dp-overlap-readout")!.textContent === summarizeDpOverlap(defaultDpOverlapSettings));
    assert.ok(summarizeDpOverlap(defaultDpOverlapSettings).startsWith(`16.06 GB of gradients in ${buckets} buckets`));
  });
});

describe("dp-overlap and the chapter: one bucket count", () => {
  const chapter = (name: string) => {
    const value = exerciseValue(name);
    assert.ok(value, `${name} is defined`);
    return value.value;
  };

  it("makes DDP's whole-tensor bucket count, the one the chapter prints, at 25 MiB and at 1 MiB", () => {
    assert.equal(dpOverlapBuckets(defaultDpOverlapSettings), chapter("ch3.buckets25MiB"));
    assert.equal(dpOverlapBuckets({ ...defaultDpOverlapSettings, bucketMebibytes: 1 }), chapter("ch3.buckets1MiB"));
    assert.match(summarizeDpOverlap(defaultDpOverlapSettings), new RegExp(`in ${chapter("ch3.buckets25MiB")} buckets`));
    // Not the byte-sliced count the chapter warns about.
    assert.notEqual(
      dpOverlapBuckets({ ...defaultDpOverlapSettings, bucketMebibytes: 1 }),
      chapter("ch3.buckets1MiBSliced"),
    );
  });

  it("draws the chapter's timelines (a) and (b) and the 1 MiB exercise's step from its default state", () => {
    const doc = newDocument();
    const root = doc.createElement("div");
    doc.body.append(root);
    dpOverlapWidget.renderStatic(root, defaultDpOverlapSettings);
    const html = root.innerHTML;
    assert.ok(html.includes(`step ${formatDuration(chapter("ch3.tlNoOverlapStepSeconds"))}`));
    assert.ok(html.includes(`step ${formatDuration(chapter("ch3.tlOverlapStepMs") / 1000)}`));
    assert.ok(html.includes(`exposed ${formatDuration(chapter("ch3.tlExposedMs") / 1000)}`));
    const oneMiB = doc.createElement("div");
    doc.body.append(oneMiB);
    dpOverlapWidget.renderStatic(oneMiB, { ...defaultDpOverlapSettings, bucketMebibytes: 1 });
    assert.ok(oneMiB.innerHTML.includes(`step ${formatDuration(chapter("ch3.tl1MiBStepSeconds"))}`));
  });

  it("takes a dense model preset by id, with its own microbatch time, and refuses others naming the field", () => {
    const gpt2 = parseDpOverlapSettings({ model: "gpt2" });
    assert.equal(gpt2.microbatchMilliseconds, presetMicrobatchMilliseconds("gpt2"));
    assert.ok(summarizeDpOverlap(gpt2).startsWith("0.25 GB of gradients"));
    assert.equal(parseDpOverlapSettings({ model: "gpt2", microbatchMilliseconds: 5 }).microbatchMilliseconds, 5);
    for (const model of ["mixtral-8x7b", "deepseek-v3", "no-such-model", 7]) {
      assert.throws(
        () => dpOverlapWidget.parseSettings({ model }),
        (e) => e instanceof WidgetSettingsError && e.field === "model",
        `model ${String(model)} must be refused`,
      );
    }
  });
});
