import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  CUSTOM_OP_KINDS,
  MAX_FLOPS_PER_ELEMENT,
  placeCustomOp,
  readCustomOp,
} from "../../src/figures/roofline-custom-ops.ts";
import { rooflineChartLabel, rooflinePlot, type RooflineTheme } from "../../src/figures/roofline-plotly.ts";
import { ROOFLINE_MAX_TOKENS, rooflineView } from "../../src/figures/roofline-state.ts";
import {
  attainableFlopsPerSecond,
  elementwiseCost,
  findGpu,
  fusedAttentionCost,
  matmulCost,
  ridgePointFlopsPerByte,
  standardAttentionCost,
} from "../../src/model/index.ts";

const theme: RooflineTheme = {
  text: "#111111",
  muted: "#555555",
  border: "#dddddd",
  surface: "#f5f6f8",
  bg: "#ffffff",
  fontFamily: "system-ui",
  palette: {
    "--c-params": "#2563c9",
    "--c-grads": "#c2410c",
    "--c-acts": "#8a3ab0",
    "--c-optim": "#2f7d3b",
    "--c-comm": "#0a7a8c",
    "--c-accent": "#0a5fc2",
  },
};
const h100 = findGpu("h100-sxm")!;
const h100View = rooflineView({ gpu: "h100-sxm", precision: "bf16", tokens: 8192, seq: 4096 });

describe("reading an added operation", () => {
  it("accepts whole numbers with separators for every kind", () => {
    assert.deepEqual(readCustomOp("matmul", { m: "4,096", n: "4096", k: "4_096" }), {
      ok: true,
      op: { kind: "matmul", values: { m: 4096, n: 4096, k: 4096 } },
    });
    assert.deepEqual(readCustomOp("elementwise", { rows: "8192", width: "4096", flops: "8" }), {
      ok: true,
      op: { kind: "elementwise", values: { rows: 8192, width: 4096, flops: 8 } },
    });
    assert.deepEqual(readCustomOp("attn-fused", { heads: "32", seq: "8192", headDim: "128" }), {
      ok: true,
      op: { kind: "attn-fused", values: { heads: 32, seq: 8192, headDim: 128 } },
    });
  });
  it("refuses zero, negative, NaN, exponents, decimals, empty and absurd sizes with a message per field", () => {
    for (const bad of [
      "0",
      "-4",
      "NaN",
      "1e40",
      "3.5",
      "",
      "  ",
      "Infinity",
      String(ROOFLINE_MAX_TOKENS + 1),
      "0x10",
    ]) {
      const r = readCustomOp("matmul", { m: bad, n: "4096", k: "4096" });
      assert.equal(r.ok, false, bad);
      if (!r.ok) {
        assert.deepEqual(Object.keys(r.errors), ["m"], bad);
        assert.ok(r.errors.m!.length > 10);
      }
    }
    const flops = readCustomOp("elementwise", { rows: "1", width: "1", flops: String(MAX_FLOPS_PER_ELEMENT + 1) });
    assert.equal(flops.ok, false);
    assert.deepEqual(readCustomOp("convolution", {}), {
      ok: false,
      errors: { kind: "Pick an operation from the list." },
    });
  });
});

describe("placing an added operation", () => {
  it("a 4096 × 4096 × 4096 bf16 matmul on the H100 SXM sits at the model's intensity and rate", () => {
    const r = readCustomOp("matmul", { m: "4096", n: "4096", k: "4096" });
    assert.ok(r.ok);
    const p = placeCustomOp(r.op, h100View, 0);
    const cost = matmulCost(4096, 4096, 4096, 2);
    assert.deepEqual(p.cost, cost);
    assert.equal(Math.round(p.cost.intensityFlopsPerByte), 1365);
    assert.equal(
      p.attainableFlopsPerSecond,
      attainableFlopsPerSecond(cost.intensityFlopsPerByte, h100.bf16FlopsPerSecond, h100.hbmBytesPerSecond),
    );
    assert.equal(p.bound, "compute");
    assert.equal(p.label, "matmul 4,096×4,096×4,096");
  });
  it("uses the view's precision and the model's cost for each kind", () => {
    const fp8 = rooflineView({ gpu: "h100-sxm", precision: "fp8", tokens: 8192, seq: 4096 });
    const ew = placeCustomOp({ kind: "elementwise", values: { rows: 8192, width: 4096, flops: 8 } }, fp8, 1);
    assert.deepEqual(ew.cost, elementwiseCost(8192 * 4096, 1, 1, 8, 1));
    assert.equal(ew.bound, "memory");
    const shape = { heads: 32, seq: 8192, headDim: 128, bytesPerElement: 2 };
    assert.deepEqual(placeCustomOp({ kind: "attn-fused", values: shape }, h100View, 2).cost, fusedAttentionCost(shape));
    assert.deepEqual(
      placeCustomOp({ kind: "attn-std", values: shape }, h100View, 3).cost,
      standardAttentionCost(shape),
    );
  });
  it("every accepted input of every kind gives finite numbers on every GPU", () => {
    const gpus = ["h100-sxm", "a100-sxm-80gb"];
    fc.assert(
      fc.property(
        fc.constantFrom(...CUSTOM_OP_KINDS),
        fc.tuple(
          fc.integer({ min: 1, max: ROOFLINE_MAX_TOKENS }),
          fc.integer({ min: 1, max: ROOFLINE_MAX_TOKENS }),
          fc.integer({ min: 1, max: ROOFLINE_MAX_TOKENS }),
        ),
        fc.constantFrom(...gpus),
        (info, nums, gpu) => {
          const raw: Record<string, string> = {};
          info.fields.forEach((f, i) => (raw[f.key] = String(Math.min(nums[i]!, f.max))));
          const r = readCustomOp(info.kind, raw);
          assert.ok(r.ok);
          const view = rooflineView({ gpu, precision: "bf16", tokens: 8192, seq: 4096 });
          const p = placeCustomOp(r.op, view, 0);
          const plot = rooflinePlot(view, [p], theme, { widthPx: 640, coarsePointer: false, pan: false });
          for (const t of plot.data)
            for (const v of [...t.x, ...t.y])
              assert.ok(Number.isFinite(v) && v > 0, `${info.kind} ${JSON.stringify(raw)}: ${v}`);
          for (const v of [...plot.xRangeLog10, ...plot.yRangeLog10]) assert.ok(Number.isFinite(v));
          assert.ok(
            plot.xRangeLog10[0] < Math.log10(p.cost.intensityFlopsPerByte) &&
              Math.log10(p.cost.intensityFlopsPerByte) < plot.xRangeLog10[1],
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("the Plotly figure", () => {
  it("has the roof, the ridge and one trace per operation, in TFLOPS, with hover numbers", () => {
    const added = placeCustomOp({ kind: "matmul", values: { m: 4096, n: 4096, k: 4096 } }, h100View, 0);
    const plot = rooflinePlot(h100View, [added], theme, { widthPx: 640, coarsePointer: false, pan: false });
    assert.equal(plot.data.length, 3 + 6 + 1);
    const ridge = ridgePointFlopsPerByte(h100.bf16FlopsPerSecond, h100.hbmBytesPerSecond);
    const [roof, guide, ridgePoint] = plot.data;
    assert.equal(roof!.x[1], ridge);
    assert.deepEqual(roof!.y.slice(1), [h100.bf16FlopsPerSecond / 1e12, h100.bf16FlopsPerSecond / 1e12]);
    assert.equal(
      roof!.y[0],
      attainableFlopsPerSecond(roof!.x[0]!, h100.bf16FlopsPerSecond, h100.hbmBytesPerSecond) / 1e12,
    );
    assert.deepEqual(guide!.x, [ridge, ridge]);
    assert.deepEqual(ridgePoint!.text, ["ridge 295"]);
    const last = plot.data[plot.data.length - 1]!;
    assert.equal(last.name, "matmul 4,096×4,096×4,096");
    assert.deepEqual(last.customdata, [["matmul 4,096×4,096×4,096", "1,365", "989.4", "compute", "custom-0"]]);
    assert.match(last.hovertemplate!, /FLOP\/byte/);
    assert.equal(plot.data[3]!.marker!.color, theme.palette["--c-params"]);
    assert.equal(plot.layout.xaxis!.type, "log");
    assert.equal(plot.layout.yaxis!.type, "log");
    assert.equal(plot.layout.paper_bgcolor, theme.surface);
    assert.equal(plot.layout.showlegend, true);
    assert.equal(plot.layout.dragmode, "zoom");
  });
  it("drops Plotly's legend on a phone and does not capture drags on touch unless pan is on", () => {
    const narrow = rooflinePlot(h100View, [], theme, { widthPx: 340, coarsePointer: true, pan: false });
    assert.equal(narrow.layout.showlegend, false);
    assert.equal(narrow.layout.dragmode, false);
    assert.equal(
      rooflinePlot(h100View, [], theme, { widthPx: 340, coarsePointer: true, pan: true }).layout.dragmode,
      "pan",
    );
  });
  it("labels the chart with every point's numbers", () => {
    const label = rooflineChartLabel(h100View, []);
    assert.match(
      label,
      /^Roofline chart of the NVIDIA H100 SXM5 80GB in bf16, log-log axes: ridge at 295 FLOP\/byte, peak 989\.4 TFLOPS\./,
    );
    assert.match(label, /attention, fused \(N = 4096\): 2,048 FLOP\/byte, compute-bound, 989\.4 TFLOPS\.$/);
  });
});
