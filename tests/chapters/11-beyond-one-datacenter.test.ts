/**
 * Numbers chapter 11 (beyond one datacenter) computes, recomputed from src/model. Figures from the
 * DiLoCo, OpenDiLoCo and Streaming DiLoCo papers carry citations instead.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { assertMentions, readChapter } from "../helpers/chapter-text.ts";
import {
  collectiveSeconds,
  countParameters,
  evaluateScenario,
  findGpu,
  findModelPreset,
  searchConfigurations,
} from "../../src/model/index.ts";
import { assertApprox } from "../helpers/approx.ts";

const text = readChapter("11-beyond-one-datacenter");
const config = findModelPreset("llama-3.1-70b")!.config;
const n = countParameters(config).total;
const bytes = 2 * n;
const link = 12.5e9;
const sync = collectiveSeconds({
  collective: "all-reduce",
  messageBytes: bytes,
  ranks: 2,
  busBandwidthBytesPerSecond: link,
});
const top = searchConfigurations({
  config,
  gpu: findGpu("h100-sxm")!,
  gpuCount: 256,
  seqLength: 8192,
  globalBatchSequences: 512,
}).ranked[0];
const step = top.stepSeconds;

test("the step is chapter 8's top configuration, evaluated by the engine with its framework", () => {
  const e = evaluateScenario({
    model: "llama-3.1-70b",
    cluster: { gpu: "h100-sxm", gpuCount: 256 },
    framework: top.framework,
    layout: {
      tp: top.tp,
      pp: top.pp,
      cp: top.cp,
      ep: top.ep,
      dp: top.dp,
      zeroStage: top.zeroStage,
      stageLayers: top.stageLayers,
    },
    batch: { seqLength: 8192, microBatchSize: top.microBatchSize, globalBatch: 512 },
    recompute: top.recompute,
  });
  assertApprox(e.step.stepSeconds, step, { rel: 1e-12 });
  assert.ok(
    !/18\.24|18\.56|9\{,\}120|9\{,\}280|10\{,\}944|11\{,\}136/.test(text),
    "no hand-typed step or round from an older model",
  );
});

test("synchronous all-reduce across two sites", () => {
  assertMentions(text, `those gradients are\n${(bytes / 1e9).toFixed(1)} GB`, "gradient bytes");
  assert.equal(sync, bytes / link);
  assertMentions(text, `\\approx ${sync.toFixed(2)}\\ \\text{s}`, "sync time");
  assertMentions(text, `about ${step.toFixed(2)} s`, "step time from chapter 8's search");
  // The share is taken of the printed step (rounded to 10 ms), as ch11.syncOverheadShare does.
  assertMentions(
    text,
    `add ${((100 * sync) / Number(step.toFixed(2))).toFixed(1)}% to every step`,
    "overhead per step",
  );
});

/** The chapter prints the step rounded to 10 ms and the exercises work from the printed value. */
const printedStep = Number(step.toFixed(2));

test("DiLoCo round with H = 500", () => {
  const round = 500 * printedStep;
  assertMentions(text, `${((100 * sync) / round).toFixed(3)}% of the\nround`, "overhead per round");
  assertMentions(text, `about ${(bytes / round / 1e6).toFixed(1)} MB/s`, "hiding bandwidth");
  assertMentions(
    text,
    `$500 \\times ${printedStep} = ${round.toLocaleString("en-US").replace(",", "{,}")}$ s`,
    "round length",
  );
  assertMentions(
    text,
    `\\approx ${(bytes / round / 1e6).toFixed(1)}$ MB/s, or about ${((8 * bytes) / round / 1e9).toFixed(3)} Gb/s`,
    "exercise 1",
  );
  assertMentions(
    text,
    `(${(bytes / 1e9).toFixed(1)} GB of fp16 outer gradient, 500 inner steps of ${printedStep} s each)`,
    "exercise 1 givens",
  );
  const headroom = link / (bytes / round);
  const floor = Math.floor(headroom / 100) * 100;
  assert.ok(floor >= 100, `the link is idle almost all the time: ${headroom}`);
  assertMentions(text, `more than\n${floor} times faster`, "link headroom");
});

test("fragments and 4-bit quantization", () => {
  assertMentions(
    text,
    `from ${(bytes / 1e9).toFixed(1)} GB to ${(bytes / 10 / 1e9).toFixed(1)} GB with ten fragments`,
    "fragments",
  );
  assertMentions(text, `shrinks to ${((n * 0.5) / 1e9).toFixed(1)} GB`, "4-bit");
});

test("exercise 3: a slower site", () => {
  const a = 500 * printedStep;
  const b = 500 * printedStep * 1.2;
  assertMentions(
    text,
    `= ${Math.round(b).toLocaleString("en-US").replace(",", "{,}")}$ s, site A ${Math.round(a).toLocaleString("en-US")} s`,
    "round lengths",
  );
  assertMentions(
    text,
    `idles $${Math.round(b - a)
      .toLocaleString("en-US")
      .replace(
        ",",
        "{,}",
      )} / ${Math.round(b).toLocaleString("en-US").replace(",", "{,}")} = ${((100 * (b - a)) / b).toFixed(1)}\\%$`,
    "idle fraction",
  );
  assertMentions(text, `Site A takes ${printedStep} s per inner step`, "exercise 3 givens");
  assertApprox(600 * printedStep, b, { abs: 1e-9 });
});

test("INTELLECT-1: H and int8 against fp32 data parallelism", () => {
  // H = 100 inner steps and 1 byte instead of 4 per value (cited inputs): the report's 400x.
  const h = 100;
  assert.equal(h * (4 / 1), 400);
  assertMentions(text, `$${h} \\times 4 = 400$`, "bandwidth reduction");
  // 10 billion parameters at one byte each.
  assertMentions(text, `about ${(10e9 * 1) / 1e9} GB (ten billion one-byte values)`, "outer gradient size");
});
