/**
 * The link codecs of the widgets without an explorer form (issue #52: a copy link on every
 * widget): every state the chapter's parser accepts survives encode → decode unchanged, a link
 * equal to the page's settings is empty, and a bad link is refused with a message naming the
 * setting, never an exception. The codec itself is src/figures/kit/url-codec.ts
 * (settingsUrlCodec); the browser side is src/widgets/runtime/url-state.ts (widgetLink).
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { decodeUrlState, encodeUrlState, type UrlCodec } from "../../src/figures/kit/url-codec.ts";
import { widgetRegistry } from "../../src/figures/index.ts";
import { activationCurveUrlCodec } from "../../src/figures/activation-curve-state.ts";
import { coalescingUrlCodec } from "../../src/figures/coalescing.ts";
import { collectivesUrlCodec } from "../../src/figures/collectives-state.ts";
import { dpOverlapUrlCodec } from "../../src/figures/dp-overlap.ts";
import { moeRoutingUrlCodec } from "../../src/figures/moe-routing.ts";
import { numberFormatsUrlCodec, type NumberFormatsSettings } from "../../src/figures/number-formats/settings.ts";
import { overlapUrlCodec } from "../../src/figures/overlap-calculator-state.ts";
import { ringAttentionUrlCodec } from "../../src/figures/ring-attention.ts";
import { rooflineUrlCodec } from "../../src/figures/roofline-state.ts";
import { tpShardingUrlCodec } from "../../src/figures/tp-sharding-state.ts";
import { unitConverterUrlCodec } from "../../src/figures/unit-converter.ts";
import { MODEL_PRESETS, STEP_COLLECTIVES } from "../../src/model/index.ts";
import { GPUS } from "../../src/data/gpus.ts";
import { FRAMEWORK_IDS } from "../../src/data/frameworks.ts";
import { numberFormatIds } from "../../src/data/number-formats.ts";
import { byteUnits } from "../../src/figures/unit-converter.ts";

interface Case {
  widget: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  codec: UrlCodec<any, any>;
  /** Candidate states (filtered to those the codec's check, the chapter's parser, accepts). */
  states: fc.Arbitrary<Record<string, unknown>>;
  /** Links the widget must refuse, each with the setting its message names. */
  bad: [string, string][];
}

const int = (min: number, max: number) => fc.integer({ min, max });
const modelIds = MODEL_PRESETS.map((p) => p.id);
const gpuIds = GPUS.map((g) => g.id);

const cases: Case[] = [
  {
    widget: "activation-curve",
    codec: activationCurveUrlCodec,
    states: fc.record({
      model: fc.constantFrom(...modelIds),
      attention: fc.constantFrom("eager", "flash"),
      microBatch: int(1, 64),
    }),
    bad: [
      ["microBatch:0", "microBatch"],
      ["model:llama-9", "model"],
      ["attention:sdpa", "attention"],
    ],
  },
  {
    widget: "coalescing",
    codec: coalescingUrlCodec,
    states: fc.record({ stride: int(1, 64), elementBytes: fc.constantFrom(1, 2, 4, 8), offset: int(0, 63) }),
    bad: [
      ["stride:65", "stride"],
      ["elementBytes:3", "elementBytes"],
      ["offset:-1", "offset"],
    ],
  },
  {
    widget: "collectives",
    codec: collectivesUrlCodec,
    states: fc.record({
      collective: fc.constantFrom(...STEP_COLLECTIVES),
      ranks: int(2, 16),
      messageMB: fc.double({ min: 0.001, max: 1e6, noNaN: true }),
      step: int(0, 40),
    }),
    bad: [
      ["ranks:1", "ranks"],
      ["messageMB:0", "messageMB"],
      ["step:999", "step"],
      ["collective:gossip", "collective"],
    ],
  },
  {
    widget: "dp-overlap",
    codec: dpOverlapUrlCodec,
    states: fc.record({
      busBandwidthGBps: fc.double({ min: 1, max: 1000, noNaN: true }),
      dp: int(1, 4096),
      bucketMebibytes: fc.double({ min: 1, max: 1000, noNaN: true }),
      microbatches: int(1, 64),
      latencyMicroseconds: fc.double({ min: 0, max: 1000, noNaN: true }),
      noSync: fc.boolean(),
    }),
    bad: [
      ["dp:0", "dp"],
      ["noSync:yes", "noSync"],
      ["busBandwidthGBps:Infinity", "busBandwidthGBps"],
    ],
  },
  {
    widget: "moe-routing",
    codec: moeRoutingUrlCodec,
    states: fc.record({
      tokens: fc.constantFrom(64, 128, 256, 512, 1024, 4096),
      experts: fc.constantFrom(8, 16, 32, 64),
      gpus: fc.constantFrom(1, 2, 4, 8),
      topK: int(1, 8),
      capacityFactor: fc.option(fc.double({ min: 0.05, max: 16, noNaN: true }), { nil: null }),
      skew: fc.double({ min: 0, max: 2, noNaN: true }),
      seed: int(0, 2 ** 31),
    }),
    bad: [
      ["experts:12", "experts"],
      ["topK:9", "topK"],
      ["capacityFactor:auto", "capacityFactor"],
    ],
  },
  {
    widget: "number-formats",
    codec: numberFormatsUrlCodec,
    states: fc.record({
      value: fc.double({ min: -1e300, max: 1e300, noNaN: true }),
      focus: fc.constantFrom(...numberFormatIds),
      saturate: fc.boolean(),
    }),
    bad: [
      ["value:1e400", "value"],
      ["value:NaN", "value"],
      ["focus:fp4", "focus"],
    ],
  },
  {
    widget: "overlap-calculator",
    codec: overlapUrlCodec,
    states: fc.record({
      model: fc.constantFrom(...modelIds),
      gpu: fc.constantFrom(...gpuIds),
      framework: fc.constantFrom(...FRAMEWORK_IDS),
      zeroStage: fc.constantFrom(0, 1, 2, 3),
      tp: fc.constantFrom(1, 2, 4, 8),
      pp: fc.constantFrom(1, 2, 4),
      dp: fc.constantFrom(1, 8, 64),
      cp: fc.constantFrom(1, 2),
      microBatchSize: int(1, 4),
      seqLength: fc.constantFrom(2048, 4096, 8192),
      microbatches: int(1, 16),
    }),
    bad: [
      ["tp:0", "tp"],
      ["framework:jax", "framework"],
      ["zeroStage:4", "zeroStage"],
    ],
  },
  {
    widget: "ring-attention",
    codec: ringAttentionUrlCodec,
    states: fc.record({
      gpus: int(1, 16),
      sharding: fc.constantFrom("contiguous", "zigzag"),
      causal: fc.boolean(),
      step: fc.option(int(0, 15), { nil: null }),
    }),
    bad: [
      ["gpus:-4", "gpus"],
      ["gpus:17", "gpus"],
      ["step:4", "step"],
      ["causal:true", "causal"],
    ],
  },
  {
    widget: "roofline",
    codec: rooflineUrlCodec,
    states: fc.record({
      gpu: fc.constantFrom(...gpuIds),
      precision: fc.constantFrom("bf16", "fp8"),
      tokens: int(1, 1_048_576),
      seq: int(1, 1_048_576),
    }),
    bad: [
      ["tokens:0", "tokens"],
      ["gpu:tpu-v5", "gpu"],
      ["precision:fp4", "precision"],
      ["gpu:a100-sxm-80gb,precision:fp8", "precision"],
    ],
  },
  {
    widget: "tp-sharding",
    codec: tpShardingUrlCodec,
    states: fc.record({
      model: fc.constantFrom("llama-3.1-8b", "llama-3.1-70b", "llama-3.2-1b"),
      tp: fc.constantFrom(1, 2, 4, 8),
      sp: fc.boolean(),
      seq: fc.constantFrom(1024, 4096, 8192, 16384),
      microBatch: int(1, 8),
    }),
    bad: [
      ["tp:0", "tp"],
      ["sp:2", "sp"],
      ["model:mixtral", "model"],
    ],
  },
  {
    widget: "unit-converter",
    codec: unitConverterUrlCodec,
    states: fc.record({ value: fc.double({ min: 0, max: 1e15, noNaN: true }), unit: fc.constantFrom(...byteUnits) }),
    bad: [
      ["value:-1", "value"],
      ["unit:PB", "unit"],
      ["value:1e40,unit:TiB", "value"],
    ],
  },
];

/** The page's settings: what the chapter's parser gives for no YAML. */
const pageSettings = (widget: string) => widgetRegistry[widget]!.parseSettings({}) as Record<string, unknown>;

/** Whether the chapter's parser (the codec's check) accepts a state. */
function accepted(codec: UrlCodec<unknown, string>, state: unknown): boolean {
  try {
    codec.check(state);
    return true;
  } catch {
    return false;
  }
}

describe("widget links: encode → decode", () => {
  test("a signed zero keeps its sign through a link (the number-formats widget shows it)", () => {
    const base = pageSettings("number-formats") as unknown as NumberFormatsSettings;
    const text = encodeUrlState(numberFormatsUrlCodec, { ...base, value: -0 }, base);
    assert.equal(text, "value:-0");
    const back = decodeUrlState(numberFormatsUrlCodec, text, base);
    assert.ok(back.ok && Object.is(back.state.value, -0), JSON.stringify(back));
  });

  test("every widget in the registry has a link codec here or an explorer of its own", () => {
    const own = ["memory-explorer", "pipeline-explorer", "config-finder"];
    assert.deepEqual(
      Object.keys(widgetRegistry)
        .filter((w) => !own.includes(w))
        .sort(),
      cases.map((c) => c.widget).sort(),
    );
  });

  for (const c of cases) {
    test(`${c.widget}: a state the chapter's parser accepts comes back unchanged`, () => {
      const base = pageSettings(c.widget);
      assert.equal(encodeUrlState(c.codec, base, base), "", "the page's own settings make an empty link");
      // Over the page's settings (keys outside the link, such as the GPU of activation-curve, stay).
      const states = c.states.map((s) => ({ ...base, ...s })).filter((s) => accepted(c.codec, s));
      fc.assert(
        fc.property(states, (state) => {
          const text = encodeUrlState(c.codec, state, base);
          assert.ok(text.length <= c.codec.maxLength, text);
          const back = decodeUrlState(c.codec, text, base);
          assert.ok(back.ok, `${text}: ${back.ok ? "" : back.message}`);
          assert.deepEqual(back.state, state);
        }),
        { numRuns: 60 },
      );
    });

    test(`${c.widget}: a bad link is refused with a message naming the setting`, () => {
      const base = pageSettings(c.widget);
      for (const [text, key] of c.bad) {
        const r = decodeUrlState(c.codec, text, base);
        assert.equal(r.ok, false, text);
        if (!r.ok) {
          assert.match(r.message, /^The settings in this page’s link were not used: setting "/, text);
          assert.ok(r.message.includes(`"${key}"`), `${text}: ${r.message}`);
        }
      }
      const unknown = decodeUrlState(c.codec, "nonsense:1", base);
      assert.equal(unknown.ok, false);
    });

    test(`${c.widget}: any link text is read without an exception and never shows NaN`, () => {
      const base = pageSettings(c.widget);
      const part = fc.tuple(fc.constantFrom(...c.codec.keys, "x"), fc.string({ maxLength: 12 }));
      fc.assert(
        fc.property(fc.array(part, { maxLength: 4 }), (parts) => {
          const text = parts.map(([k, v]) => `${k}:${v}`).join(",");
          const r = decodeUrlState(c.codec, text, base);
          if (r.ok) assert.ok(accepted(c.codec, r.state), text);
          else assert.ok(!/\b(NaN|Infinity|undefined)\b/.test(r.message), r.message);
        }),
        { numRuns: 80 },
      );
    });
  }
});
