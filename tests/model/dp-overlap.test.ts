import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  allReduceSeconds,
  bucketCount,
  ddpBucketCount,
  ddpModelBucketCount,
  denseParameterTensors,
  dataParallelScaling,
  dataParallelTimeline,
  offloadHidingTokens,
  ringAllReduceBytesPerGpu,
  zero3HidingTokens,
  zero3LargestDegree,
  type DpTimelineInput,
} from "../../src/model/dp-overlap.ts";
import { ModelInputError } from "../../src/model/errors.ts";
import { parseModelConfig } from "../../src/model/architecture.ts";
import { findModelPreset } from "../../src/data/models.ts";
import { assertApprox } from "../helpers/approx.ts";

const MiB = 2 ** 20;

/** Within `rel` of `expected`, or of 1 when |expected| < 1. */
function close(actual: number, expected: number, rel = 1e-12): void {
  assertApprox(actual, expected, { rel, abs: rel });
}

const base: DpTimelineInput = {
  gradientBytes: 3.2e9,
  layers: 32,
  forwardSeconds: 0.1,
  backwardSeconds: 0.2,
  microbatches: 1,
  dp: 16,
  bucketBytes: 1e8,
  busBandwidthBytesPerSecond: 50e9,
  collectiveLatencySeconds: 0,
  overlap: true,
  noSync: true,
};

describe("ring all-reduce (nvidia2024nccltests PERFORMANCE.md)", () => {
  it("moves 2(n−1)/n of the buffer through each GPU", () => {
    assert.equal(ringAllReduceBytesPerGpu(1000, 4), 1500);
    assert.equal(ringAllReduceBytesPerGpu(1000, 1), 0);
    close(ringAllReduceBytesPerGpu(1024, 1024), 2046);
  });

  it("inverts the nccl-tests definition busbw = (S/t)·2(n−1)/n", () => {
    const bytes = 16_060_522_496;
    for (const n of [2, 8, 64, 1024]) {
      const t = allReduceSeconds(bytes, n, 50e9);
      close((bytes / t) * ((2 * (n - 1)) / n), 50e9);
    }
  });

  it("adds the fixed per-call cost and is zero for one GPU", () => {
    close(allReduceSeconds(1e9, 8, 100e9, 1e-3), 1e-3 + (2 * 7 * 1e9) / (8 * 100e9));
    assert.equal(allReduceSeconds(1e9, 1, 100e9, 1e-3), 0);
  });

  it("rejects bad inputs with the field named", () => {
    assert.throws(
      () => allReduceSeconds(1e9, 0, 1e9),
      (e) => e instanceof ModelInputError && e.field === "gpus",
    );
    assert.throws(
      () => allReduceSeconds(1e9, 8, -1),
      (e) => e instanceof ModelInputError && e.field === "busBandwidthBytesPerSecond",
    );
    assert.throws(
      () => allReduceSeconds(-5, 8, 1e9),
      (e) => e instanceof ModelInputError && e.field === "bytes",
    );
  });
});

describe("bucketCount", () => {
  it("packs Llama 3.1 8B's bf16 gradients into 613 buckets of DDP's default 25 MiB (li2020pytorch)", () => {
    assert.equal(bucketCount(2 * 8_030_261_248, 25 * MiB), 613);
  });
  it("does not add a bucket for an exact multiple", () => {
    assert.equal(bucketCount(100 * MiB, 25 * MiB), 4);
  });
});

describe("dataParallelTimeline", () => {
  it("without overlap, the step is compute plus every all-reduce", () => {
    const t = dataParallelTimeline({ ...base, overlap: false });
    const ar = allReduceSeconds(1e8, 16, 50e9) * 32;
    close(t.commSeconds, ar);
    close(t.stepSeconds, 0.3 + ar);
    close(t.exposedCommSeconds, ar);
    assert.equal(t.bucketsPerSync, 32);
    assert.equal(t.syncs, 1);
  });

  it("with overlap and slow communication, the exposed time is t_AR − t_b + t_b/L (the chapter's exposed-time equation)", () => {
    // One bucket per layer, no per-call cost: buckets queue back to back from the first layer's end.
    const t = dataParallelTimeline({ ...base, busBandwidthBytesPerSecond: 10e9 });
    const tAR = allReduceSeconds(3.2e9, 16, 10e9);
    assert.ok(tAR > 0.2);
    close(t.exposedCommSeconds, tAR - 0.2 + 0.2 / 32, 1e-9);
  });

  it("with overlap and fast communication, only the last layer's reduction is exposed", () => {
    const t = dataParallelTimeline({ ...base, busBandwidthBytesPerSecond: 5e12 });
    const tAR = allReduceSeconds(3.2e9, 16, 5e12);
    close(t.exposedCommSeconds, tAR / 32, 1e-9);
  });

  it("with no_sync only the last microbatch communicates; without it every microbatch does", () => {
    const a = dataParallelTimeline({ ...base, microbatches: 4, noSync: true });
    const b = dataParallelTimeline({ ...base, microbatches: 4, noSync: false });
    assert.equal(a.syncs, 1);
    assert.equal(b.syncs, 4);
    close(a.bytesSentPerGpu, ringAllReduceBytesPerGpu(3.2e9, 16));
    close(b.bytesSentPerGpu, 4 * ringAllReduceBytesPerGpu(3.2e9, 16));
    close(b.exposedCommSeconds, 4 * a.exposedCommSeconds, 1e-9);
    assert.equal(a.segments.filter((s) => s.lane === "comm" && s.microbatch !== 3).length, 0);
  });

  it("draws nothing on the communication lane for d = 1", () => {
    const t = dataParallelTimeline({ ...base, dp: 1, microbatches: 3 });
    assert.equal(t.segments.filter((s) => s.lane === "comm").length, 0);
    close(t.stepSeconds, 0.9);
    assert.equal(t.exposedCommSeconds, 0);
  });

  it("rejects hostile input with the field named", () => {
    const cases: [Partial<DpTimelineInput>, string][] = [
      [{ gradientBytes: 0 }, "gradientBytes"],
      [{ layers: 2.5 }, "layers"],
      [{ backwardSeconds: Number.NaN }, "backwardSeconds"],
      [{ microbatches: 0 }, "microbatches"],
      [{ dp: -4 }, "dp"],
      [{ bucketBytes: Number.POSITIVE_INFINITY }, "bucketBytes"],
      [{ bucketBytes: 1 }, "bucketBytes"],
      [{ busBandwidthBytesPerSecond: 0 }, "busBandwidthBytesPerSecond"],
      [{ collectiveLatencySeconds: -1 }, "collectiveLatencySeconds"],
      [{ overlap: "yes" as unknown as boolean }, "overlap"],
    ];
    for (const [patch, field] of cases) {
      assert.throws(
        () => dataParallelTimeline({ ...base, ...patch }),
        (e) => e instanceof ModelInputError && e.field === field,
        `expected a ModelInputError on ${field}`,
      );
    }
  });

  it("is a valid schedule for any input (property)", () => {
    fc.assert(
      fc.property(
        fc.record({
          gradientBytes: fc.double({ min: 1e6, max: 1e12, noNaN: true }),
          layers: fc.integer({ min: 1, max: 128 }),
          forwardSeconds: fc.double({ min: 0, max: 10, noNaN: true }),
          backwardSeconds: fc.double({ min: 1e-4, max: 10, noNaN: true }),
          microbatches: fc.integer({ min: 1, max: 8 }),
          dp: fc.integer({ min: 1, max: 4096 }),
          bucketBytes: fc.double({ min: 1e8, max: 1e12, noNaN: true }),
          busBandwidthBytesPerSecond: fc.double({ min: 1e9, max: 1e13, noNaN: true }),
          collectiveLatencySeconds: fc.double({ min: 0, max: 1e-3, noNaN: true }),
          overlap: fc.boolean(),
          noSync: fc.boolean(),
        }),
        (input) => {
          const t = dataParallelTimeline(input);
          for (const v of [t.stepSeconds, t.computeSeconds, t.commSeconds, t.exposedCommSeconds]) {
            assert.ok(Number.isFinite(v) && v >= 0);
          }
          assert.ok(t.stepSeconds >= t.computeSeconds - 1e-9);
          assert.ok(t.stepSeconds <= t.computeSeconds + t.commSeconds + 1e-9);
          const comm = t.segments.filter((s) => s.lane === "comm");
          const compute = t.segments.filter((s) => s.lane === "compute");
          for (let i = 1; i < comm.length; i++) assert.ok(comm[i].startSeconds >= comm[i - 1].endSeconds - 1e-12);
          for (let i = 1; i < compute.length; i++)
            assert.ok(compute[i].startSeconds >= compute[i - 1].endSeconds - 1e-12);
          for (const s of comm) assert.ok(s.startSeconds >= s.readySeconds - 1e-12);
          const bytes = comm.reduce((sum, s) => sum + s.bytes, 0);
          if (input.dp > 1) assertApprox(bytes, t.syncs * input.gradientBytes, { abs: 1e-6 * input.gradientBytes });
          const overlapped = dataParallelTimeline({ ...input, overlap: true });
          const serial = dataParallelTimeline({ ...input, overlap: false });
          assert.ok(overlapped.stepSeconds <= serial.stepSeconds + 1e-9);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("dataParallelScaling", () => {
  const input = {
    globalBatchSequences: 64,
    microBatchSequences: 1,
    sequenceTokens: 1024,
    trainingFlopsPerToken: 6e9,
    effectiveFlopsPerSecond: 4e14,
    dpDegrees: [1, 4, 16, 64],
    gradientBytes: 2e9,
    layers: 16,
    bucketBytes: 25 * MiB,
    busBandwidthBytesPerSecond: 50e9,
    collectiveLatencySeconds: 0,
  };

  it("is ideal on one GPU and never better than ideal", () => {
    const points = dataParallelScaling(input);
    close(points[0].efficiency, 1, 1e-12);
    for (const p of points) assert.ok(p.efficiency <= 1 && p.efficiency > 0);
    assert.deepEqual(
      points.map((p) => p.microbatches),
      [64, 16, 4, 1],
    );
    // Efficiency falls as m shrinks at a fixed global batch.
    for (let i = 1; i < points.length; i++) assert.ok(points[i].efficiency < points[i - 1].efficiency);
  });

  it("rejects a degree that does not divide the batch", () => {
    assert.throws(
      () => dataParallelScaling({ ...input, dpDegrees: [3] }),
      (e) => e instanceof ModelInputError && e.field === "dpDegrees",
    );
  });
});

describe("hiding bounds", () => {
  it("ZeRO-3 needs (d−1)/d · F/B tokens per microbatch", () => {
    close(zero3HidingTokens(395.76e12, 50e9, 64), (63 / 64) * 7915.2);
    assert.equal(zero3HidingTokens(1e12, 1e9, 1), 0);
  });
  it("ZeRO-3's latency term adds (d−1)·α·F/(2P): one ring step per rank, which a small layer hides with more tokens", () => {
    const bw = zero3HidingTokens(400e12, 360e9, 64);
    close(
      zero3HidingTokens(400e12, 360e9, 64, { stepSeconds: 8e-6, layerParameters: 2e8 }),
      bw + (63 * 8e-6 * 400e12) / 4e8,
    );
    close(zero3HidingTokens(400e12, 360e9, 64, { stepSeconds: 0, layerParameters: 2e8 }), bw);
    assert.throws(
      () => zero3HidingTokens(400e12, 360e9, 64, { stepSeconds: 8e-6, layerParameters: 0 }),
      (e) => e instanceof ModelInputError && e.field === "layerParameters",
    );
  });
  it("the largest ZeRO-3 degree: tokens per GPU B/d still cover the threshold at d, not at d + 1", () => {
    const link = () => ({ busBytesPerSecond: 360e9, hopLatencySeconds: 8e-6 });
    const need = (d: number) => zero3HidingTokens(400e12, 360e9, d, { stepSeconds: 8e-6, layerParameters: 2e8 });
    const d = zero3LargestDegree(2 ** 22, 400e12, link, 2e8);
    assert.ok(2 ** 22 / d >= need(d) && 2 ** 22 / (d + 1) < need(d + 1), `d = ${d}`);
    // Without the latency term only the bandwidth limits: d ≈ B·busbw/F + 1.
    const bwOnly = zero3LargestDegree(2 ** 22, 400e12, link, null);
    assert.ok(bwOnly > d && Math.abs(bwOnly - ((2 ** 22 * 360e9) / 400e12 + 1)) < 1, `d = ${bwOnly}`);
  });
  it("ZeRO-Offload's gradient transfer hides behind one backward pass (4Ψ FLOPs per token) with g·F/(4·B_PCIe) tokens per microbatch", () => {
    close(offloadHidingTokens(395.76e12, 64e9), 3091.875);
    close(offloadHidingTokens(395.76e12, 64e9, 4), 2 * 3091.875);
    assert.throws(
      () => offloadHidingTokens(395.76e12, 64e9, 0),
      (e) => e instanceof ModelInputError && e.field === "gradientBytesPerParameter",
    );
  });
});

describe("ddpBucketCount (DDP's whole-tensor buckets)", () => {
  it("never splits a tensor and caps the first bucket at 1 MiB", () => {
    // 0.5 MiB + 0.75 MiB reach the 1 MiB first cap; 30 MiB alone exceeds 25 MiB; 10 + 10 + 10 reach it; 1 left over.
    assert.equal(
      ddpBucketCount(
        [0.5, 0.75, 30, 10, 10, 10, 1].map((x) => x * MiB),
        25 * MiB,
      ),
      4,
    );
    assert.equal(ddpBucketCount([100 * MiB, 100 * MiB], 25 * MiB), 2);
    assert.throws(() => ddpBucketCount([], 25 * MiB), ModelInputError);
  });
  it("Llama 3.1 8B: 194 buckets of fp32 tensors at 25 MiB, 226 at 1 MiB, 162 in bf16", () => {
    const arch = parseModelConfig(findModelPreset("llama-3.1-8b")!.config).architecture;
    assert.equal(denseParameterTensors(arch).length, 291);
    assert.equal(
      denseParameterTensors(arch).reduce((a, b) => a + b, 0),
      8_030_261_248,
    );
    assert.equal(ddpModelBucketCount(arch, 25 * MiB, 4), 194);
    assert.equal(ddpModelBucketCount(arch, MiB, 4), 226);
    assert.equal(ddpModelBucketCount(arch, 25 * MiB, 2), 162);
  });
});
