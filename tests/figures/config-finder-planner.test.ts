/**
 * The configuration finder as a planner (issue #52): constraints, cluster shape, a pasted
 * config.json, tokens to train, the out-of-sample error band and a named layout's rank. Each input's
 * parsing and validation, its place in the link, and its effect on the search, checked against the
 * engine (src/model).
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { parseHTML } from "linkedom";
import {
  configFinderWidget,
  explainConfigFinder,
  explorerLinkOf,
  explorerStateOf,
  MEMORY_EXPLORER_ID,
  rowsTimeToTrainText,
} from "../../src/figures/config-finder.ts";
import { decodeMemoryState } from "../../src/figures/memory-explorer/url.ts";
import { memoryDefaults } from "../../src/figures/memory-explorer/state.ts";
import { computeMemoryView } from "../../src/figures/memory-explorer/view.ts";
import {
  clusterOverridesOf,
  compactModelConfig,
  configFinderDefaults,
  configFinderOptionalProblem,
  configLinkProblem,
  controlOfSearchField,
  decodeConfigFinderState,
  diagnoseConfigFinder,
  diagnosisText,
  encodeConfigFinderState,
  ENGINE_CONFIG_KEYS,
  errorBandText,
  finderErrorBands,
  namedVerdict,
  parseConfigFinderSettings,
  parseNamedLayout,
  readConfigText,
  readErrorBands,
  readOptionalText,
  runConfigFinder,
  runConfigFinderJob,
  timeToTrain,
  tokensText,
  type ConfigFinderSettings,
} from "../../src/figures/config-finder-state.ts";
import { WidgetSettingsError } from "../../src/figures/widget.ts";
import {
  clusterShape,
  findModelPreset,
  MODEL_PRESETS,
  parseModelConfig,
  validationReport,
  type RankedConfig,
} from "../../src/model/index.ts";

const newDocument = () => parseHTML("<!doctype html><html><body></body></html>").document as unknown as Document;
/** A smaller case than the chapter's, so each search is quick. */
const small: ConfigFinderSettings = {
  ...configFinderDefaults,
  model: "llama-3.1-8b",
  gpuCount: 64,
  seqLength: 4096,
  globalBatch: 256,
};
const smallResult = runConfigFinder(small);

describe("constraints", () => {
  it("each limit is checked with a sentence naming its field; empty means no limit", () => {
    assert.equal(configFinderOptionalProblem("maxTp", null), undefined);
    assert.equal(configFinderOptionalProblem("maxTp", 4), undefined);
    assert.match(
      configFinderOptionalProblem("maxTp", 0)!,
      /^Largest TP: enter a whole number from 1 to 16,384, or leave it empty/,
    );
    assert.match(configFinderOptionalProblem("maxCp", 2.5)!, /^Largest CP: /);
    assert.match(configFinderOptionalProblem("maxPp", NaN)!, /^Largest PP: /);
    assert.equal(readOptionalText("maxEp", ""), null);
    assert.ok(Number.isNaN(readOptionalText("maxEp", "abc")));
    assert.throws(() => parseConfigFinderSettings({ maxTp: 0 }), WidgetSettingsError);
    assert.throws(() => parseConfigFinderSettings({ maxZero: 4 }), WidgetSettingsError);
  });

  it("the search honours every limit, and a tighter limit changes the rows", () => {
    const s = { ...small, maxTp: 2, maxPp: 2, maxCp: 1, maxZero: 1 as const };
    const r = runConfigFinder(s);
    assert.ok(r.ranked.length > 0);
    for (const c of r.ranked) {
      assert.ok(c.tp <= 2 && c.pp <= 2 && c.cp === 1 && c.zeroStage <= 1, JSON.stringify(c));
    }
    assert.ok(r.ranked.length < smallResult.ranked.length);
    // The unconstrained top row is outside these limits, so the top row changes.
    const top = smallResult.ranked[0]!;
    const inside = top.tp <= 2 && top.pp <= 2 && top.cp === 1 && top.zeroStage <= 1;
    assert.equal(inside, false, "pick limits that exclude the unconstrained winner");
    assert.notDeepEqual(r.ranked[0], top);
  });

  it("the diagnosis names the constraint that rules everything out", () => {
    const s = { ...configFinderDefaults, maxTp: 1, maxPp: 1, maxZero: 0 as const };
    const r = runConfigFinder(s);
    assert.equal(r.ranked.length, 0);
    const d = diagnoseConfigFinder(s, r);
    assert.ok(d.constraints && d.constraints.length > 0);
    assert.match(d.cause, /^Your constraints? rules? everything out/);
    assert.ok(["maxTp", "maxPp", "maxZero"].includes(d.field));
    assert.match(d.hint, /^Nothing fits with (TP at most 1|PP at most 1|ZeRO at most stage 0); /);
    // Lifting a named constraint alone does let configurations fit.
    for (const key of d.constraints!) {
      const lifted = { ...s, [key]: key === "maxZero" ? 3 : null };
      assert.ok(runConfigFinder(lifted, 1).ranked.length > 0, key);
    }
    assert.equal(diagnosisText(d), d.cause);
  });
});

describe("cluster shape", () => {
  it("passes the overrides the CLI's step flags pass, and the engine prices groups with them", () => {
    assert.deepEqual(clusterOverridesOf(small), {});
    const s = { ...small, gpusPerServer: 4, nicsPerServer: 2, nicGBps: 10 };
    const overrides = clusterOverridesOf(s);
    assert.deepEqual(overrides, {
      gpusPerServer: 4,
      nvlinkDomain: 4,
      nicsPerServer: 2,
      nicBusBytesPerSecond: 10e9,
    });
    const shape = clusterShape("h100-sxm", overrides);
    assert.equal(shape.nvlinkDomain, 4);
    const r = runConfigFinder(s);
    // TP stays inside the smaller NVLink domain by default, and the slower network slows the winner.
    for (const c of r.ranked) assert.ok(c.tp <= 4);
    assert.ok(r.ranked[0]!.stepSeconds > smallResult.ranked[0]!.stepSeconds);
    assert.match(configOfMessage(s, "nicGBps", -1), /^Bandwidth per NIC: /);
  });
  it("maps the engine's cluster fields to their inputs", () => {
    assert.equal(controlOfSearchField("nvlinkDomain"), "gpusPerServer");
    assert.equal(controlOfSearchField("nicBusBytesPerSecond"), "nicGBps");
    assert.equal(controlOfSearchField("nicsPerServer"), "nicsPerServer");
    assert.equal(controlOfSearchField("hidden_size"), "config");
  });
});

function configOfMessage(_s: ConfigFinderSettings, key: "nicGBps", value: number): string {
  return configFinderOptionalProblem(key, value) ?? "";
}

describe("a pasted config.json", () => {
  const llama = findModelPreset("llama-3.1-8b")!.config;
  it("names invalid JSON and a missing field", () => {
    const bad = readConfigText("{ not json");
    assert.equal(bad.ok, false);
    if (!bad.ok) assert.match(bad.message, /^config\.json is not valid JSON: /);
    const { hidden_size: _drop, ...missing } = llama as Record<string, unknown>;
    const r = readConfigText(JSON.stringify(missing));
    assert.equal(r.ok, false);
    if (!r.ok) assert.match(r.message, /hidden_size/);
    assert.equal(readConfigText("").ok, false);
  });
  it("a custom model ranks as its preset does, and the memory explorer link carries it", () => {
    const text = JSON.stringify({ ...llama, architectures: ["LlamaForCausalLM"], torch_dtype: "bfloat16" });
    const read = readConfigText(text);
    assert.ok(read.ok);
    if (!read.ok) return;
    assert.equal("architectures" in read.config, false, "cut to the keys the engine reads");
    const s = { ...small, model: "custom", config: read.config };
    const r = runConfigFinder(s);
    assert.deepEqual(r.ranked[0], smallResult.ranked[0]);
    assert.deepEqual(explorerStateOf(s, r.ranked[0]!).config, read.config);
    assert.equal(explorerStateOf(small, r.ranked[0]!).config, null);
    // The row's link opens the memory explorer on the pasted config, with the same GB per GPU.
    const url = new URL(explorerLinkOf(s, r.ranked[0]!), "https://book.invalid/five-d-parallelism/");
    const decoded = decodeMemoryState(url.searchParams.get(MEMORY_EXPLORER_ID)!, memoryDefaults);
    assert.ok(decoded.ok);
    if (decoded.ok) {
      assert.equal(decoded.state.preset, "custom");
      assert.equal(computeMemoryView(decoded.state).evaluation.bytesPerGpu, r.ranked[0]!.memoryBytes);
    }
    assert.throws(() => parseConfigFinderSettings({ model: "custom" }), WidgetSettingsError);
  });
  it("the link carries the engine's keys compactly, and says when a config is too long", () => {
    const s = parseConfigFinderSettings({ ...small, model: "custom", config: llama });
    const text = encodeConfigFinderState(s, configFinderDefaults);
    assert.match(text, /^model:custom,.*,config:[A-Za-z0-9_-]+$/);
    assert.ok(text.length < 700, `${text.length} characters`);
    const back = decodeConfigFinderState(text, configFinderDefaults);
    assert.ok(back.ok);
    if (back.ok) assert.deepEqual(back.state, s);
    assert.equal(configLinkProblem(s), undefined);
    const long = { ...s, config: { ...s.config!, model_type: "x".repeat(2000) } };
    assert.match(configLinkProblem(long)!, /^The pasted config\.json is too long for a link/);
    assert.doesNotMatch(encodeConfigFinderState(long, configFinderDefaults), /config:|model:/);
    assert.equal(decodeConfigFinderState("model:custom", configFinderDefaults).ok, false);
    assert.equal(decodeConfigFinderState("model:custom,config:!!", configFinderDefaults).ok, false);
  });
  it("ENGINE_CONFIG_KEYS lists every key parseModelConfig reads, and every preset cut to them parses the same", () => {
    const source = readFileSync("src/model/architecture.ts", "utf8");
    const read = new Set(
      [...source.matchAll(/config\["([a-z_0-9]+)"\]|\(config, "([a-z_0-9]+)"/g)].map((m) => m[1] ?? m[2]!),
    );
    assert.ok(read.size > 20);
    assert.deepEqual(
      [...read].filter((k) => !(ENGINE_CONFIG_KEYS as readonly string[]).includes(k)),
      [],
    );
    for (const p of MODEL_PRESETS) {
      assert.deepEqual(
        parseModelConfig(compactModelConfig(p.config as Record<string, unknown>)),
        parseModelConfig(p.config),
        p.id,
      );
    }
  });
});

describe("time to train", () => {
  it("reads token counts with suffixes and names bad ones", () => {
    assert.equal(readOptionalText("tokens", "15T"), 15e12);
    assert.equal(readOptionalText("tokens", "2.5 B"), 2.5e9);
    assert.equal(readOptionalText("tokens", "1.5e13"), 1.5e13);
    assert.ok(Number.isNaN(readOptionalText("tokens", "lots")));
    assert.match(configFinderOptionalProblem("tokens", 10)!, /^Tokens to train: /);
    assert.equal(tokensText(15e12), "15T");
    assert.equal(tokensText(2.5e9), "2.5B");
    assert.equal(decodeConfigFinderState("tokens:15T", configFinderDefaults).ok, true);
  });
  it("days and GPU-hours are tokens over the row's tokens per second", () => {
    const top = smallResult.ranked[0]!;
    const t = timeToTrain(top, 15e12, 64);
    assert.equal(t.seconds, 15e12 / top.tokensPerSecond);
    assert.equal(t.days, t.seconds / 86400);
    assert.equal(t.gpuHours, (t.seconds * 64) / 3600);
    const s = { ...small, tokens: 15e12 };
    const text = explainConfigFinder(s, smallResult);
    assert.ok(text.includes("Training on 15T tokens at this rate takes "), text);
    assert.ok(!explainConfigFinder(small, smallResult).includes("Training on"));
    const rows = rowsTimeToTrainText(s, smallResult);
    assert.match(rows, /^Time to train 15T tokens .*#1 .* days .*#5 /);
    assert.equal(rowsTimeToTrainText(small, smallResult), "");
  });
});

describe("the error band", () => {
  const bands = finderErrorBands();
  it("is the validation's leave-one-source-out error, overall and by layout class", () => {
    const report = validationReport();
    assert.equal(bands.overall.median, report.leaveOneSourceOut.median);
    assert.equal(bands.overall.worst, report.leaveOneSourceOut.worst);
    for (const l of report.byLayout) {
      if (l.leaveOneSourceOut) assert.equal(bands.byLayout[l.layout]?.median, l.leaveOneSourceOut.median);
      else assert.equal(bands.byLayout[l.layout], undefined);
    }
  });
  it("is worded per layout class beside the top row, and read back from the markup", () => {
    const top = smallResult.ranked[0]!;
    const text = errorBandText(bands, top, false);
    assert.match(
      text,
      /^Published runs of this layout class \((DP\/FSDP only|TP\+DP|TP\+PP\+DP|with CP), \d+ runs?\) were off by a median of \d+% in MFU when predicted out of sample \(\d+% at worst\)/,
    );
    assert.match(errorBandText(bands, top, true), /^No published run of this layout class \(MoE\)/);
    assert.ok(explainConfigFinder(small, smallResult, null, bands).includes(text));
    assert.deepEqual(readErrorBands(JSON.stringify(bands)), bands);
    for (const bad of [
      null,
      "",
      "{",
      '{"overall":{"runs":1}}',
      '{"overall":{"runs":1,"median":0.1,"worst":0.2},"byLayout":{"X":{}}}',
    ])
      assert.equal(readErrorBands(bad), null, String(bad));
    const doc = newDocument();
    const root = doc.createElement("div");
    configFinderWidget.renderStatic(root, small);
    assert.deepEqual(readErrorBands(root.querySelector(".config-finder")!.getAttribute("data-error-bands")), bands);
    assert.ok(root.querySelector(".config-finder-readout")!.textContent!.includes(text));
  });
});

describe("a named layout", () => {
  it("reads the table's words, short forms and defaults, and names what it does not understand", () => {
    const a = parseNamedLayout("DP 4 · TP 8 · PP 8 · CP 1 · ZeRO-1 (Megatron-LM) · b 2 · m 16 · selective recompute");
    assert.ok(a.ok);
    if (a.ok) {
      assert.deepEqual(a.layout, {
        dp: 4,
        tp: 8,
        pp: 8,
        cp: 1,
        ep: 1,
        zeroStage: 1,
        microBatchSize: 2,
        recompute: "selective",
        framework: "megatron",
      });
      assert.equal(a.microbatches, 16);
    }
    const b = parseNamedLayout("tp=4 pp2 z3 full");
    assert.ok(b.ok);
    if (b.ok)
      assert.deepEqual(b.layout, { tp: 4, pp: 2, cp: 1, ep: 1, zeroStage: 3, microBatchSize: 1, recompute: "full" });
    for (const [bad, pattern] of [
      ["TP 8 banana", /"banana" is not understood/],
      ["TP 8 TP 4", /TP is given twice/],
      ["ZeRO 5", /ZeRO is 0, 1, 2 or 3/],
      ["TP 0", /TP must be at least 1/],
      ["(jax) TP 2", /unknown framework "jax"/],
      ["selective full", /one recomputation/],
    ] as const) {
      const r = parseNamedLayout(bad);
      assert.equal(r.ok, false, bad);
      if (!r.ok) assert.match(r.message, pattern, bad);
    }
    assert.throws(() => parseConfigFinderSettings({ layout: "TP 8 banana" }), WidgetSettingsError);
  });

  it("the winner's own layout ranks first; another ranks where its step time puts it, with the part that makes it lose", () => {
    const top = smallResult.ranked[0]!;
    const label = (c: typeof top) =>
      `DP ${c.dp} TP ${c.tp} PP ${c.pp} CP ${c.cp} EP ${c.ep} ZeRO ${c.zeroStage} b ${c.microBatchSize} ${c.recompute}`;
    const first = namedVerdict({ ...small, layout: `${label(top)} (${top.framework})` }, smallResult.ranked)!;
    assert.equal(first.status, "ranked");
    assert.equal(first.rank, 1);
    assert.equal(first.config!.stepSeconds, top.stepSeconds);
    const other = smallResult.ranked[40]!;
    const v = namedVerdict({ ...small, layout: `${label(other)} (${other.framework})` }, smallResult.ranked)!;
    assert.equal(v.config!.stepSeconds, other.stepSeconds);
    assert.equal(v.rank, 1 + smallResult.ranked.filter((c) => c.stepSeconds < other.stepSeconds).length);
    assert.match(
      v.text,
      /: rank \d+ of [\d,]+, .* mostly because its (compute|pipeline bubble|exposed \S+ communication)/,
    );
  });

  it("says why a layout does not run or does not fit", () => {
    const cases: [string, RegExp][] = [
      ["TP 3", /TP × PP × CP = 3 does not divide the 64 GPUs/],
      ["TP 16 DP 4", /TP 16 does not divide the model's 32 attention heads/],
      ["EP 2", /EP 2 needs a mixture-of-experts model/],
      ["PP 4 b 8", /fewer than the 4 pipeline stages|does not split into microbatches/],
    ];
    for (const [layout, pattern] of cases) {
      const v = namedVerdict({ ...small, layout }, smallResult.ranked)!;
      assert.equal(v.status, "invalid", layout);
      assert.match(v.text, pattern, layout);
    }
    const big = { ...configFinderDefaults, gpuCount: 64, layout: "TP 1 ZeRO 0 b 8" };
    const v = namedVerdict(big, runConfigFinder(big, 1).ranked)!;
    assert.equal(v.status, "no-fit");
    assert.match(v.text, /needs [\d,.]+ GB per GPU, over 72\.0 GB usable/);
    assert.equal(namedVerdict(small, smallResult.ranked), null);
  });

  it("the worker's reply carries the verdict, and the link keeps the layout", () => {
    const reply = runConfigFinderJob({ id: 1, settings: { ...small, layout: "TP 2 PP 2 ZeRO 1" } });
    assert.ok(reply.ok);
    if (reply.ok) {
      assert.equal(reply.named?.status, "ranked");
      assert.ok(reply.result.ranked.length <= 6);
    }
    const s = parseConfigFinderSettings({ ...small, layout: "TP 2 PP 2 ZeRO 1 selective", maxCp: 1, tokens: 15e12 });
    const text = encodeConfigFinderState(s, configFinderDefaults);
    assert.match(text, /maxCp:1,tokens:15T,layout:tp2-pp2-cp1-ep1-zero1-b1-selective$/);
    const back = decodeConfigFinderState(text, configFinderDefaults);
    assert.ok(back.ok);
    if (back.ok) {
      assert.equal(back.state.maxCp, 1);
      assert.equal(back.state.tokens, 15e12);
      const again = parseNamedLayout(back.state.layout);
      const orig = parseNamedLayout(s.layout);
      assert.ok(again.ok && orig.ok);
      if (again.ok && orig.ok) assert.deepEqual(again.layout, orig.layout);
    }
  });
});

describe("precision", () => {
  it("is bf16 by default, fp8 on request, in the settings, the link and the search", () => {
    assert.equal(configFinderDefaults.precision, "bf16");
    const fp8 = parseConfigFinderSettings({ ...small, precision: "fp8" });
    assert.equal(fp8.precision, "fp8");
    assert.throws(() => parseConfigFinderSettings({ precision: "fp16" }), WidgetSettingsError);
    const text = encodeConfigFinderState(fp8, configFinderDefaults);
    assert.match(text, /(^|,)precision:fp8(,|$)/);
    const back = decodeConfigFinderState(text, configFinderDefaults);
    assert.ok(back.ok);
    if (back.ok) assert.deepEqual(back.state, fp8);
    assert.doesNotMatch(encodeConfigFinderState(small, configFinderDefaults), /precision/);
    assert.equal(decodeConfigFinderState("precision:fp16", configFinderDefaults).ok, false);
    // The search runs the linear layers in fp8: the same layouts fit (memory is priced as bf16), the top one steps faster.
    const r = runConfigFinder(fp8);
    assert.equal(r.ranked.length, smallResult.ranked.length);
    assert.ok(r.ranked[0]!.stepSeconds < smallResult.ranked[0]!.stepSeconds);
    assert.equal(r.ranked[0]!.memoryBytes, smallResult.ranked.find((c) => sameLayout(c, r.ranked[0]!))!.memoryBytes);
  });
  it("fp8 on an A100 is refused, naming the precision control; bf16 there is fine", () => {
    const a100 = { ...small, gpu: "a100-sxm-80gb", precision: "fp8" as const };
    const reply = runConfigFinderJob({ id: 7, settings: a100 });
    assert.equal(reply.ok, false);
    if (!reply.ok) {
      assert.equal(reply.field, "precision");
      assert.equal(controlOfSearchField(reply.field), "precision");
      assert.match(reply.message, /A100.*no fp8 tensor cores/);
    }
    assert.equal(runConfigFinderJob({ id: 8, settings: { ...a100, precision: "bf16" } }).ok, true);
  });
  it("the fp8 rows carry the fp8 group's out-of-sample band and say which peak their MFU is against", () => {
    const bands = finderErrorBands();
    const report = validationReport();
    assert.ok(bands.fp8 && report.fp8);
    assert.equal(bands.fp8.median, report.fp8.leaveOneSourceOut.median);
    assert.equal(bands.fp8.worst, report.fp8.leaveOneSourceOut.worst);
    assert.equal(bands.fp8.runs, report.fp8.runs);
    const fp8 = parseConfigFinderSettings({ ...small, precision: "fp8" });
    const r = runConfigFinder(fp8);
    const text = errorBandText(bands, r.ranked[0]!, false, "fp8");
    assert.match(
      text,
      /^Published fp8 runs \(\d+ runs from \d+ sources, every layout class\) were off by a median of \d+% in MFU when predicted out of sample \(\d+% at worst\)/,
    );
    assert.notEqual(text, errorBandText(bands, r.ranked[0]!, false));
    const explained = explainConfigFinder(fp8, r, null, bands);
    assert.ok(explained.includes(text));
    assert.match(explained, /MFU [\d.]+% \(against the dense bf16 peak, as in bf16\)/);
    assert.deepEqual(readErrorBands(JSON.stringify(bands)), bands);
    assert.equal(readErrorBands(JSON.stringify({ ...bands, fp8: { runs: 1 } })), null);
    // The widget draws a precision select with both options.
    const doc = newDocument();
    const root = doc.createElement("div");
    configFinderWidget.renderStatic(root, fp8);
    const select = root.querySelector("select[name=precision]")!;
    assert.deepEqual(
      [...select.querySelectorAll("option")].map((o) => o.getAttribute("value")),
      ["bf16", "fp8"],
    );
    assert.match(
      root.querySelector(".config-finder-note")!.textContent!,
      /fp8: the linear layers' matmuls at \d+% of the dense fp8 peak/,
    );
  });
});

function sameLayout(a: RankedConfig, b: RankedConfig): boolean {
  return (
    a.dp === b.dp &&
    a.tp === b.tp &&
    a.pp === b.pp &&
    a.cp === b.cp &&
    a.ep === b.ep &&
    a.zeroStage === b.zeroStage &&
    a.recompute === b.recompute &&
    a.microBatchSize === b.microBatchSize &&
    a.framework === b.framework
  );
}
