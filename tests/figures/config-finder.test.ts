import { readNumber } from "../../src/figures/kit/field.ts";
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { parseHTML } from "linkedom";
import {
  compactConfigLabel,
  configFinderDefaults,
  configFinderNote,
  configFinderProblem,
  configFinderWidget,
  configLabel,
  drawConfigBars,
  explainConfigFinder,
  explorerLinkOf,
  explorerStateOf,
  MEMORY_EXPLORER_ID,
  rowLaunchConfigs,
  rowMemoryBreakdown,
  runConfigFinder,
} from "../../src/figures/config-finder.ts";
import {
  controlOfSearchField,
  decodeConfigFinderState,
  diagnoseConfigFinder,
  encodeConfigFinderState,
  runConfigFinderJob,
} from "../../src/figures/config-finder-state.ts";
import { WidgetSettingsError } from "../../src/figures/widget.ts";
import { decodeMemoryState } from "../../src/figures/memory-explorer/url.ts";
import { memoryDefaults } from "../../src/figures/memory-explorer/state.ts";
import { computeMemoryView } from "../../src/figures/memory-explorer/view.ts";
import {
  KERNEL_EFFICIENCY,
  findGpu,
  findModelPreset,
  parseModelConfig,
  searchConfigurations,
} from "../../src/model/index.ts";

const newDocument = () => parseHTML("<!doctype html><html><body></body></html>").document as unknown as Document;

describe("config-finder settings", () => {
  it("defaults to the chapter's case and accepts valid overrides", () => {
    assert.deepEqual(configFinderWidget.parseSettings({}), configFinderDefaults);
    assert.equal(configFinderDefaults.framework, "auto");
    assert.deepEqual(configFinderWidget.parseSettings({ model: "mixtral-8x7b", gpuCount: 128, framework: "fsdp2" }), {
      ...configFinderDefaults,
      model: "mixtral-8x7b",
      gpuCount: 128,
      framework: "fsdp2",
    });
  });
  it("rejects unknown models, GPUs and frameworks, DeepSeek-V3, bad numbers and unknown keys", () => {
    for (const raw of [
      { model: "gpt-5" },
      { model: "deepseek-v3" },
      { gpu: "tpu" },
      { framework: "jax" },
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
  it("keeps its settings in a link: only what differs, every value checked", () => {
    const s = { ...configFinderDefaults, gpuCount: 248, framework: "megatron" as const };
    const text = encodeConfigFinderState(s, configFinderDefaults);
    assert.equal(text, "framework:megatron,gpuCount:248");
    const back = decodeConfigFinderState(text, configFinderDefaults);
    assert.ok(back.ok);
    if (back.ok) assert.deepEqual(back.state, s);
    for (const bad of ["gpuCount:0", "framework:jax", "model:gpt-5", "seqLength:abc", "tp:8"]) {
      const r = decodeConfigFinderState(bad, configFinderDefaults);
      assert.equal(r.ok, false, bad);
      if (!r.ok) assert.match(r.message, /^The settings in this page’s link were not used/);
    }
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

  it("labels configurations with their framework", () => {
    const top = result.ranked[0];
    const t = expected.ranked[0];
    const names = { megatron: "Megatron-LM", ddp: "PyTorch DDP", fsdp2: "PyTorch FSDP2", deepspeed: "DeepSpeed" };
    const rec = t.recompute === "none" ? "no recompute" : `${t.recompute} recompute`;
    assert.equal(
      configLabel(top),
      `DP ${t.dp} · TP ${t.tp} · PP ${t.pp} · CP ${t.cp} · ZeRO-${t.zeroStage} (${names[t.framework]}) · b ${t.microBatchSize} · m ${t.microbatches} · ${rec}`,
    );
    assert.equal(
      compactConfigLabel(top),
      `DP${t.dp} TP${t.tp} PP${t.pp} CP${t.cp} Z${t.zeroStage} b${t.microBatchSize} m${t.microbatches} ${t.recompute}`,
    );
  });

  it("explains the top choice with the model's numbers and the one budget", () => {
    const top = result.ranked[0];
    const text = explainConfigFinder(configFinderDefaults, result);
    assert.ok(text.startsWith(`Fastest under this model: ${configLabel(top)}.`), text);
    assert.ok(text.includes(`${(top.memoryBytes / 1e9).toFixed(1)} GB per GPU, within 72.0 GB usable of 80 GB (90%).`));
    assert.ok(text.includes(`${result.ranked.length.toLocaleString("en-US")} configurations fit.`));
    const none = explainConfigFinder(
      { ...configFinderDefaults, gpuCount: 1 },
      runConfigFinder({ ...configFinderDefaults, gpuCount: 1 }),
    );
    assert.match(
      none,
      /^Nothing fits: Llama 3\.1 70B on 1 GPU\. Every layout that splits the batch needs more than the usable memory/,
    );
  });

  it("prints the kernel efficiency the step model uses, not a number of its own", () => {
    const doc = newDocument();
    const root = doc.createElement("div");
    drawConfigBars(root, result, { idPrefix: "t", gpu: "h100-sxm", width: 640 });
    const caption = [...root.querySelectorAll("text")].map((t) => t.textContent).join(" ");
    assert.ok(caption.includes(`compute at ${Math.round(KERNEL_EFFICIENCY.hopper * 100)}% of peak (Hopper)`), caption);
    assert.ok(!caption.includes("60%"));
    assert.match(
      configFinderNote({ ...configFinderDefaults, gpu: "a100-sxm-80gb" }),
      new RegExp(`${Math.round(KERNEL_EFFICIENCY.ampere * 100)}% of the dense bf16 peak \\(Ampere\\)`),
    );
    assert.match(configFinderNote(configFinderDefaults), /at most 72\.0 GB usable of 80 GB \(90%\)/);
  });

  it("draws six stacked bars with an accessible title and description, wide and narrow", () => {
    for (const width of [640, 330]) {
      const doc = newDocument();
      const root = doc.createElement("div");
      drawConfigBars(root, result, { idPrefix: "t", gpu: "h100-sxm", width });
      const svg = root.querySelector("svg")!;
      assert.equal(svg.getAttribute("viewBox"), `0 0 ${width} ${width < 560 ? 318 : 300}`);
      assert.equal(svg.getAttribute("aria-labelledby"), "t-title t-desc");
      const desc = root.querySelector("desc")!.textContent!;
      assert.ok(desc.startsWith(`1. ${configLabel(result.ranked[0])}: `), desc);
      assert.match(desc, /^1\. [^:]+: \d+\.\d+ s per step/);
      const labels = [...root.querySelectorAll("text")].map((t) => t.textContent);
      assert.ok(
        labels.includes(
          width < 560 ? `1. ${compactConfigLabel(result.ranked[0])}` : `1. ${configLabel(result.ranked[0])}`,
        ),
      );
      assert.ok(!svg.outerHTML.includes("NaN") && !svg.outerHTML.includes("undefined"));
    }
  });

  it("renders the static widget: disabled controls, chart, explanation and a table of rows carrying their layout", () => {
    const doc = newDocument();
    const root = doc.createElement("div");
    root.setAttribute("id", "widget-config-finder-1");
    configFinderWidget.renderStatic(root, configFinderDefaults);
    // Model, GPU, framework, precision and largest ZeRO stage; three numbers, seven constraint and
    // cluster fields, tokens to train and a named layout; the config.json box.
    assert.equal(root.querySelectorAll("select[disabled]").length, 5);
    assert.equal(root.querySelectorAll("input[disabled]").length, 12);
    assert.equal(root.querySelectorAll("textarea[disabled]").length, 1);
    for (const name of ["gpuCount", "seqLength", "globalBatch"]) assert.ok(root.querySelector(`input[name=${name}]`));
    for (const control of root.querySelectorAll("input, select, textarea")) {
      const message = root.querySelector(`#${control.getAttribute("aria-describedby")}`);
      assert.equal(message?.getAttribute("role"), "alert");
      assert.ok(root.querySelector(`label[for="${control.id}"]`));
    }
    const rows = root.querySelectorAll("tbody tr[data-layout]");
    assert.equal(rows.length, 5);
    rows.forEach((tr, i) => {
      const c = result.ranked[i];
      assert.equal(tr.getAttribute("data-dp"), String(c.dp));
      assert.equal(tr.getAttribute("data-tp"), String(c.tp));
      assert.equal(tr.getAttribute("data-pp"), String(c.pp));
      assert.equal(tr.getAttribute("data-cp"), String(c.cp));
      assert.equal(tr.getAttribute("data-ep"), String(c.ep));
      assert.equal(tr.getAttribute("data-zero"), String(c.zeroStage));
      assert.equal(tr.getAttribute("data-gb-per-gpu"), (c.memoryBytes / 1e9).toFixed(1));
      assert.equal(Number(tr.getAttribute("data-step-seconds")), c.stepSeconds);
      // The GB/GPU cell shows the same number.
      assert.equal(tr.querySelector("td:nth-child(11)")!.textContent, (c.memoryBytes / 1e9).toFixed(1));
      const link = tr.querySelector('a[data-open-in="memory-explorer"]')!;
      assert.equal(link.getAttribute("href"), explorerLinkOf(configFinderDefaults, c));
    });
    assert.match(root.querySelector("tbody tr td:nth-child(12)")!.textContent!, /^\d+\.\d+\u00a0s$/);
    for (const td of root.querySelectorAll("tbody tr td:nth-child(13)")) {
      assert.match(td.textContent!, /^\d+(\.[1-9])?%$/);
    }
    assert.ok(root.querySelector(".config-finder-readout")!.textContent!.startsWith("Fastest under this model"));
    assert.ok(root.querySelector("[aria-live=polite]"));
  });

  it("each row has a disclosure with its breakdown (the search's own memory) and launch texts of its degrees", () => {
    const doc = newDocument();
    const root = doc.createElement("div");
    configFinderWidget.renderStatic(root, configFinderDefaults);
    const rows = [...root.querySelectorAll("tbody tr[data-layout]")];
    const arch = parseModelConfig(findModelPreset("llama-3.1-70b")!.config).architecture;
    assert.equal(rows.length, 5);
    rows.forEach((tr, i) => {
      const c = result.ranked[i];
      const detail = tr.nextElementSibling!;
      assert.equal(detail.getAttribute("data-detail-of"), tr.getAttribute("data-layout"));
      assert.ok(detail.querySelector("details > summary"));
      // The memory breakdown is the search's call: its total is the row's bytes.
      const m = rowMemoryBreakdown(arch, configFinderDefaults, c);
      assert.equal(m.total, c.memoryBytes);
      const dd = [...detail.querySelectorAll(".config-finder-parts dd")].map((d) => d.textContent);
      assert.ok(dd.includes(`${(c.memoryBytes / 1e9).toFixed(1)} GB`), "total shown");
      const configs = rowLaunchConfigs(configFinderDefaults, c)!;
      for (const l of configs) {
        const pre = detail.querySelector(`pre[data-launch="${l.framework}"]`);
        const refused = detail.querySelector(`[data-launch-refused="${l.framework}"]`);
        if (l.ok) assert.equal(pre?.textContent, l.text);
        else assert.equal(refused?.textContent, l.reason);
      }
      const torchtitan = detail.querySelector('pre[data-launch="torchtitan"]')?.textContent;
      if (torchtitan) {
        assert.match(torchtitan, new RegExp(`tensor_parallel_degree = ${c.tp}\\b`));
        assert.match(torchtitan, new RegExp(`context_parallel_degree = ${c.cp}\\b`));
        assert.match(torchtitan, new RegExp(`pipeline_parallel_degree = ${c.pp}\\b`));
      }
      const megatron = detail.querySelector('pre[data-launch="megatron"]')?.textContent;
      if (megatron) assert.match(megatron, new RegExp(`--tensor-model-parallel-size ${c.tp} `));
    });
    // Both kinds appear among the top rows of the default case: texts and refusals.
    assert.ok(root.querySelector("pre[data-launch]"));
    assert.ok(root.querySelector("[data-launch-refused]"));
  });

  it("each row's link opens the memory explorer in the same scenario: the same GB per GPU", () => {
    for (const s of [
      configFinderDefaults,
      { ...configFinderDefaults, model: "mixtral-8x7b", gpuCount: 64, seqLength: 4096, globalBatch: 256 },
    ]) {
      const r = runConfigFinder(s);
      for (const c of r.ranked.slice(0, 5)) {
        const href = explorerLinkOf(s, c);
        const url = new URL(href, "https://book.invalid/five-d-parallelism/");
        assert.equal(url.pathname, "/tensor-parallelism/");
        assert.equal(url.hash, `#${MEMORY_EXPLORER_ID}`);
        const decoded = decodeMemoryState(url.searchParams.get(MEMORY_EXPLORER_ID)!, memoryDefaults);
        assert.ok(decoded.ok, href);
        if (!decoded.ok) continue;
        assert.deepEqual(decoded.state, explorerStateOf(s, c));
        const view = computeMemoryView(decoded.state);
        assert.equal(view.evaluation.bytesPerGpu, c.memoryBytes);
        assert.equal(view.verdict.gb, (c.memoryBytes / 1e9).toFixed(1));
      }
    }
  });
});

describe("config-finder diagnosis", () => {
  it("248 GPUs and 512 sequences: names the factor 31 and suggests 496 (and the nearest GPU counts)", () => {
    const s = { ...configFinderDefaults, gpuCount: 248 };
    const r = runConfigFinder(s);
    assert.equal(r.ranked.length, 0);
    const d = diagnoseConfigFinder(s, r);
    assert.match(d.cause, /^248 GPUs do not divide the global batch of 512 sequences: .*factor 31 \(248 = 8 × 31/);
    assert.ok(d.batches.includes(496), JSON.stringify(d));
    assert.deepEqual(d.gpuCounts, [128, 256]);
    assert.equal(d.field, "gpuCount");
    assert.equal(d.hint, "248 GPUs do not divide a batch of 512; 128 or 256 GPUs do.");
    const ddp = { ...configFinderDefaults, framework: "ddp" as const };
    const dd = diagnoseConfigFinder(ddp, runConfigFinder(ddp));
    assert.equal(dd.field, "framework");
    assert.match(dd.hint, /^Nothing fits under PyTorch DDP here; Auto finds configurations that do\.$/);
    assert.match(dd.cause, /PyTorch DDP keeps the whole model/);
    for (const batch of d.batches) assert.ok(runConfigFinder({ ...s, globalBatch: batch }, 1).ranked.length > 0);
    const text = explainConfigFinder(s, r, d);
    assert.match(text, /Nearest settings that fit: a global batch of 496 or 527 sequences, or 128 or 256 GPUs\./);
  });
  it("the worker's job answers with the result or names the field the model rejects", () => {
    const ok = runConfigFinderJob({ id: 7, settings: { ...configFinderDefaults, gpuCount: 248 } });
    assert.ok(ok.ok);
    if (ok.ok) {
      assert.equal(ok.id, 7);
      assert.ok(ok.diagnosis);
    }
    const bad = runConfigFinderJob({ id: 8, settings: { ...configFinderDefaults, gpuCount: 2_000_000 } });
    assert.equal(bad.ok, false);
    if (!bad.ok) assert.equal(controlOfSearchField(bad.field), "gpuCount");
    assert.equal(controlOfSearchField("globalBatchSequences"), "globalBatch");
  });
});
