import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { parseHTML } from "linkedom";
import { pipelineSchedule } from "../../src/model/index.ts";
import {
  checkPipelineControls,
  computePipelineView,
  decodePipelineState,
  encodePipelineState,
  parsePipelineSettings,
  pipelineControlValuesOf,
  pipelineControls,
  layOutPipeline,
  pipelineDefaults,
  readPipelineControls,
  summarizePipeline,
  type PipelineExplorerState,
} from "../../src/figures/pipeline-explorer-state.ts";
import { opLabel, pipelineExplorerWidget, setTimelineCursor } from "../../src/figures/pipeline-explorer.ts";
import { WidgetSettingsError } from "../../src/figures/widget.ts";
import { eventTimes } from "../../src/widgets/pipeline-explorer.ts";

const state = (over: Partial<PipelineExplorerState>): PipelineExplorerState => ({ ...pipelineDefaults, ...over });

function render(raw: unknown) {
  const { document } = parseHTML("<!doctype html><html><body><div id=root></div></body></html>");
  const root = document.getElementById("root")!;
  pipelineExplorerWidget.renderStatic(root, pipelineExplorerWidget.parseSettings(raw));
  return root;
}

describe("pipeline-explorer: the model's layout and the closed forms", () => {
  test("AFAB and 1F1B, p = 4, m = 8: measured 37.5% = (p − 1)/m; peaks in flight 8 on every GPU against 4, 3, 2, 1", () => {
    const afab = computePipelineView(state({ schedule: "afab" }));
    assert.equal(afab.bubble.closedForm, "(p − 1)/m = 3/8 = 37.5%");
    assert.equal(afab.bubble.measured, "37.5%");
    assert.ok(afab.bubble.agree);
    assert.deepEqual(afab.result.peakInFlight, [8, 8, 8, 8]);
    const oneF = computePipelineView(state({}));
    assert.deepEqual(oneF.result.peakInFlight, [4, 3, 2, 1]);
    assert.deepEqual(
      oneF.result,
      pipelineSchedule({ schedule: "1f1b", stages: 4, microbatches: 8, forward: 1, backward: 1, weightGrad: 1 }),
    );
  });

  test("interleaved, p = 4, m = 16, v = 2 (chapter 6): 3/32 = 9.4%, as measured", () => {
    const v = computePipelineView(state({ schedule: "interleaved", microbatches: 16, chunks: 2 }));
    assert.equal(v.bubble.closedForm, "(p − 1)/(v·m) = 3/32 = 9.4%");
    assert.ok(v.bubble.agree);
  });

  test("ZB-H1 with equal durations idles (p − 1)(T_F + T_B − T_W) = 3 per GPU; with T_W > T_F the closed form carries a caveat", () => {
    const v = computePipelineView(state({ schedule: "zb-h1", microbatches: 12 }));
    assert.equal(v.bubble.closedForm, "idle per GPU (p − 1)(T_F + T_B − T_W) = 3");
    assert.equal(v.bubble.measured, "3 on the most idle GPU");
    assert.ok(v.bubble.agree);
    assert.equal(v.bubble.caveat, null);
    const w = computePipelineView(state({ schedule: "zb-h1", weightGrad: 2 }));
    assert.equal(w.bubble.caveat, "the closed form assumes T_W ≤ T_F and T_W ≤ T_B");
  });

  test("DualPipe, p = 4, m = 12: idle 2 = (p/2 − 1)(F&B + B − 3W) with F&B = 3, B = 2, W = 1; F&B = 2.5 gives 1.5; peak p + 1 = 5", () => {
    const v = computePipelineView(state({ schedule: "dualpipe", microbatches: 12 }));
    assert.equal(v.bubble.closedForm, "idle per GPU (p/2 − 1)(F&B + B − 3W) = 2, with B the full backward");
    assert.ok(v.bubble.agree);
    assert.deepEqual(v.result.peakInFlight, [5, 5, 5, 5]);
    const fb = computePipelineView(state({ schedule: "dualpipe", microbatches: 12, forwardBackward: 2.5 }));
    assert.equal(fb.bubble.measured, "1.5 on the most idle GPU");
    assert.ok(fb.bubble.agree);
    const uneven = computePipelineView(state({ schedule: "dualpipe", microbatches: 8, backward: 2 }));
    assert.match(uneven.bubble.caveat ?? "", /T_F = T_B = T_W/);
  });

  test("the summary states the schedule, the measured and closed-form bubble and the peaks", () => {
    assert.equal(
      summarizePipeline(computePipelineView(state({}))),
      "1F1B (PipeDream-Flush) on 4 GPUs with 8 microbatches (durations: forward 1, backward 2 (T_B 1 + T_W 1)). Step time 33. " +
        "Bubble measured from the timeline: 37.5% of busy time (27.3% of the step). Closed form: (p − 1)/m = 3/8 = 37.5%. " +
        "Peak activations in flight per GPU, in microbatches: 4, 3, 2, 1.",
    );
  });
});

describe("pipeline-explorer: settings, URL and controls", () => {
  test("bad settings fail the build naming the field", () => {
    const cases: Array<[unknown, string]> = [
      [{ schedule: "gpipe" }, "schedule"],
      [{ stages: 0 }, "stages"],
      [{ stages: 33 }, "stages"],
      [{ microbatches: 2.5 }, "microbatches"],
      [{ forward: 0 }, "forward"],
      [{ backward: -1 }, "backward"],
      [{ weightGrad: 1e40 }, "weightGrad"],
      [{ forwardBackward: "fast" }, "forwardBackward"],
      [{ schedule: "interleaved", microbatches: 6 }, "microbatches"],
      [{ schedule: "dualpipe", stages: 3, microbatches: 12 }, "stages"],
      [{ schedule: "dualpipe", microbatches: 6 }, "microbatches"],
      [{ schedule: "zb-h1", weightGrad: 0 }, "weightGrad"],
      [{ stages: 32, microbatches: 256 }, "microbatches"],
      [{ hide: ["colour"] }, "hide"],
      [{ speed: 2 }, "speed"],
    ];
    for (const [raw, field] of cases) {
      assert.throws(
        () => parsePipelineSettings(raw),
        (e: unknown) => e instanceof WidgetSettingsError && e.field === field,
        JSON.stringify(raw),
      );
    }
    assert.deepEqual(parsePipelineSettings({ schedule: "dualpipe", microbatches: 12, lock: ["schedule"] }).lock, [
      "schedule",
    ]);
  });

  test("URL: differences only, restored exactly; every bad value rejects the link", () => {
    const base = state({ schedule: "afab", microbatches: 16 });
    const s = state({ schedule: "dualpipe", microbatches: 12, forwardBackward: 2.5 });
    const text = encodePipelineState(s, base);
    assert.equal(text, "schedule:dualpipe,microbatches:12,forwardBackward:2.5");
    assert.deepEqual(decodePipelineState(text, base), { ok: true, state: s, ignored: [] });
    for (const bad of [
      "stages:0",
      "stages:1e40",
      "stages:x",
      "schedule:gpipe",
      "schedule:interleaved,microbatches:6",
      "speed:2",
      "forward:-1",
    ]) {
      assert.equal(decodePipelineState(bad, base).ok, false, bad);
    }
    const fixed = decodePipelineState("schedule:1f1b,stages:8", base, ["schedule"]);
    assert.ok(fixed.ok && fixed.state.schedule === "afab" && fixed.state.stages === 8);
  });

  test("hostile text in every field is a message on that field", () => {
    for (const name of pipelineControls) {
      for (const value of ["-5", "0", "1e40", "lots", "", "NaN"]) {
        if (name === "forwardBackward" && value === "") continue; // empty means F + B + W
        if (name === "weightGrad" && value === "0") continue; // 0 is valid for unsplit schedules
        const schedule = name === "chunks" ? "interleaved" : name === "forwardBackward" ? "dualpipe" : "1f1b";
        const values = {
          ...pipelineControlValuesOf(state({ schedule, microbatches: schedule === "dualpipe" ? 8 : 8 })),
          [name]: value,
        };
        const r = readPipelineControls(values);
        assert.equal(r.ok, false, `${name}=${value}`);
        assert.equal(r.problems[0].control, name, `${name}=${value}`);
      }
    }
  });

  test("a bad value in a control the schedule ignores is flagged but does not block the drawing", () => {
    const r = readPipelineControls({ ...pipelineControlValuesOf(state({})), chunks: "lots" });
    assert.ok(r.ok);
    assert.deepEqual(
      r.problems.map((p) => p.control),
      ["chunks"],
    );
  });

  test("fuzz: any text in any field gives a finite layout or named problems", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...pipelineControls),
        fc.oneof(fc.string(), fc.double().map(String), fc.integer({ min: -5, max: 300 }).map(String)),
        fc.constantFrom("afab", "1f1b", "interleaved", "zb-h1", "dualpipe"),
        (field, value, schedule) => {
          const r = readPipelineControls({
            ...pipelineControlValuesOf(state({ schedule, microbatches: 8 })),
            [field]: value,
          });
          if (r.ok) {
            assert.ok(Number.isFinite(r.view.result.makespan) && Number.isFinite(r.view.result.bubbleFraction));
            assert.ok(!/NaN|undefined|Infinity/.test(summarizePipeline(r.view)));
          } else {
            assert.ok(r.problems.length > 0);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  test("the check run on every key (no layout) refuses exactly what the layout refuses, with the same problems", () => {
    // The widget shows checkPipelineControls' messages with the edit and lays out later; a
    // combination only the layout refused would show its message a frame late.
    fc.assert(
      fc.property(
        fc.constantFrom("afab", "1f1b", "interleaved", "zb-h1", "dualpipe"),
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 0, max: 6 }),
        fc.constantFrom("0", "1", "2", "0.5", "100", "1e300"),
        (schedule, stages, microbatches, chunks, weightGrad) => {
          const values = {
            ...pipelineControlValuesOf(state({ schedule })),
            stages: String(stages),
            microbatches: String(microbatches),
            chunks: String(chunks),
            weightGrad,
          };
          const checked = checkPipelineControls(values);
          const full = readPipelineControls(values);
          assert.equal(checked.ok, full.ok, JSON.stringify(values));
          assert.deepEqual(checked.problems, full.problems);
        },
      ),
      { numRuns: 300 },
    );
    // The durations are capped (at 100), so the layout's own refusal, a step of infinite length,
    // cannot happen from the form: layOutPipeline accepts every state the check accepts.
    const longest = { ...pipelineControlValuesOf(state({ schedule: "dualpipe", stages: 32, microbatches: 128 })) };
    const checked = checkPipelineControls({ ...longest, forward: "100", backward: "100", weightGrad: "100" });
    assert.ok(checked.ok);
    assert.equal(layOutPipeline(checked.state, checked.problems).ok, true);
  });
});

describe("pipeline-explorer: static drawing and step-through", () => {
  test("one box per operation labelled with its microbatch, one idle row and one peak per GPU", () => {
    const root = render({ schedule: "1f1b" });
    const view = computePipelineView(state({}));
    const ops = root.querySelectorAll("g.px-op");
    assert.equal(ops.length, view.result.ops.length);
    assert.equal(ops.length, 64);
    assert.equal(root.querySelectorAll("rect.px-idle").length, 4);
    assert.deepEqual(
      Array.from(root.querySelectorAll("text.px-peak")).map((t) => t.textContent),
      ["4", "3", "2", "1"],
    );
    const first = ops[0];
    assert.equal(first.querySelector("text")!.textContent, opLabel(view.result.ops[0]));
    assert.match(first.querySelector("title")!.textContent!, /^GPU 0: forward of microbatch 1, time 0 to 1$/);
    assert.match(
      root.querySelector("text.px-headline")!.textContent!,
      /^Bubble 37\.5% of busy time · step 33 time units$/,
    );
    assert.match(
      root.querySelector("dl.px-readout")!.textContent!,
      /Peak activations in flightGPU 0: 4, GPU 1: 3, GPU 2: 2, GPU 3: 1 \(microbatches\)/,
    );
    assert.ok(!/NaN|undefined|Infinity/.test(root.innerHTML));
  });

  test("DualPipe boxes: FB boxes say both microbatches; second-direction boxes carry a bar", () => {
    const root = render({ schedule: "dualpipe", microbatches: 12 });
    const fb = Array.from(root.querySelectorAll('g.px-op[data-kind="FB"]'));
    assert.ok(fb.length > 0);
    assert.match(fb[0].querySelector("title")!.textContent!, /overlapped forward and backward of microbatch \d+\/\d+/);
    assert.ok(root.querySelectorAll("rect.px-secondary").length > 0);
  });

  test("the cursor dims operations that have not started and counts those that have", () => {
    const root = render({ schedule: "1f1b" });
    const view = computePipelineView(state({}));
    const svg = root.querySelector("svg") as unknown as SVGSVGElement;
    assert.equal(setTimelineCursor(svg, view, 1), 1);
    assert.equal(setTimelineCursor(svg, view, 2), 3);
    assert.equal(root.querySelectorAll('g.px-op[opacity="0.18"]').length, 61);
    assert.equal(setTimelineCursor(svg, view, null), 64);
    const times = eventTimes(view);
    assert.equal(times[0], 0);
    assert.equal(times[times.length - 1], view.result.makespan);
  });
});
