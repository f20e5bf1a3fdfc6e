/**
 * Computed values of the chapter "data-parallelism" for its prose: `{=ch3.name}` prints one (see
 * ../exercise-values.ts for the conventions: the value in its unit, how it prints, and a comment
 * that says which model function or stated input it comes from). Pure.
 *
 * The chapter's stated assumptions: Llama 3.1 8B, s = 4096, b = 1, bf16 gradients, an H100 SXM
 * at 40% of its dense bf16 peak, 50 GB/s bus bandwidth across servers and 450 GB/s (NVLink, one
 * direction) inside one, d = 64, DDP's 25 MiB buckets, α = 50 µs per collective, a global batch
 * of 1024 sequences. Imports the model's modules directly, not ../index.ts: index.ts re-exports
 * exercise-values.ts, which runs this function while it loads.
 */
import { parseModelConfig } from "../architecture.ts";
import { modelFlopsPerToken } from "../compute.ts";
import {
  allReduceSeconds,
  bucketCount,
  dataParallelScaling,
  dataParallelTimeline,
  offloadHidingTokens,
  ringAllReduceBytesPerGpu,
  zero3HidingTokens,
  type DpTimelineInput,
} from "../dp-overlap.ts";
import { modelStateBytes, trainingMemory, type ZeroStage } from "../memory.ts";
import { bytesPerValue } from "../number-formats.ts";
import { countParameters, layerParameters } from "../parameters.ts";
import { d0, d1, d2, d3, gpu, preset, v, type PutValue } from "./put.ts";

const GB = 1e9;
const MB = 1e6;
const MiB = 2 ** 20;

export function dataParallelismValues(put: PutValue): void {
  const preset8 = preset("llama-3.1-8b");
  const preset70 = preset("llama-3.1-70b");
  const h100 = gpu("h100-sxm");
  const psi8 = countParameters(preset8.config).total;
  const psi70 = countParameters(preset70.config).total;
  const arch8 = parseModelConfig(preset8.config).architecture;
  const grad8 = 2 * psi8;
  const F = 0.4 * h100.bf16FlopsPerSecond; // 40% of the dense bf16 peak (stated)
  const ib = 50 * GB; // across servers (stated)
  const nvlinkOneWay = h100.nvlinkBytesPerSecond / 2;
  const flops8 = modelFlopsPerToken(preset8.config, 4096).total * 4096;
  const mb8 = flops8 / F;

  // Meta's 1.46 million GPU hours (meta2024llama31card) on one GPU, in years.
  put("ch3.gpuYears8b", v(1.46e6 / (24 * 365.25), "years", d0));
  put("ch3.layers8b", v(arch8.numLayers, "layers", d0));
  put("ch3.hidden8b", v(arch8.hiddenSize, "", d0));
  put("ch3.psi8Billions", v(psi8 / 1e9, "billion", d0));
  put("ch3.grad8bGB", v(grad8 / GB, "GB", d2));
  put("ch3.states8bGB", v(modelStateBytes(psi8).total / GB, "GB", d1));

  // @tbl:ar-times: ring all-reduce of the bf16 gradients, α = 0, at the line rates.
  put("ch3.ar8NvlinkMs", v(allReduceSeconds(grad8, 8, nvlinkOneWay) * 1000, "ms", d1));
  put("ch3.ar8IbMs", v(allReduceSeconds(grad8, 8, ib) * 1000, "ms", d1));
  put("ch3.ar64IbMs", v(allReduceSeconds(grad8, 64, ib) * 1000, "ms", d1));
  put("ch3.ar1024IbMs", v(allReduceSeconds(grad8, 1024, ib) * 1000, "ms", d1));
  put("ch3.ar64to1024Pct", v(100 * (allReduceSeconds(grad8, 1024, ib) / allReduceSeconds(grad8, 64, ib) - 1), "%", d1));

  // One microbatch of 4096 tokens: its FLOPs (mantissa of the power of ten the text prints), its time.
  put("ch3.mb8FlopsMantissa", v(flops8 / 10 ** Math.floor(Math.log10(flops8)), "", d2));
  put("ch3.mb8Ms", v(mb8 * 1000, "ms", d0));
  put("ch3.bwd8Ms", v(((2 * mb8) / 3) * 1000, "ms", d0));
  put("ch3.buckets25MiB", v(bucketCount(grad8, 25 * MiB), "buckets", d0));

  // @fig:dp-timelines (the same inputs as src/figures/dp-overlap.ts chapterTimelinePanels).
  const common: DpTimelineInput = {
    gradientBytes: grad8,
    layers: arch8.numLayers,
    forwardSeconds: mb8 / 3,
    backwardSeconds: (2 * mb8) / 3,
    microbatches: 1,
    dp: 64,
    bucketBytes: 25 * MiB,
    busBandwidthBytesPerSecond: ib,
    collectiveLatencySeconds: 50e-6,
    overlap: false,
    noSync: true,
  };
  const a = dataParallelTimeline(common);
  const b = dataParallelTimeline({ ...common, overlap: true });
  const c = dataParallelTimeline({ ...common, overlap: true, microbatches: 4, noSync: false });
  const d = dataParallelTimeline({ ...common, overlap: true, microbatches: 4, noSync: true });
  put("ch3.tlCommMs", v(a.commSeconds * 1000, "ms", d0));
  put("ch3.tlNoOverlapStepSeconds", v(a.stepSeconds, "s", d3));
  put("ch3.tlOverlapStepMs", v(b.stepSeconds * 1000, "ms", d0));
  put("ch3.tlOverlapStepSeconds", v(b.stepSeconds, "s", d3));
  put("ch3.tlExposedMs", v(b.exposedCommSeconds * 1000, "ms", d0));
  put("ch3.tlSyncStepSeconds", v(c.stepSeconds, "s", d3));
  put("ch3.tlSyncComputeSeconds", v(c.computeSeconds, "s", d3));
  put("ch3.tlNoSyncStepSeconds", v(d.stepSeconds, "s", d3));
  put("ch3.tlNoSyncExposedMs", v(d.exposedCommSeconds * 1000, "ms", d0));
  // The widget at 450 GB/s and d = 8 (one server over NVLink): the exposed tail.
  put(
    "ch3.nvlinkTailMs",
    v(
      dataParallelTimeline({ ...common, overlap: true, dp: 8, busBandwidthBytesPerSecond: nvlinkOneWay })
        .exposedCommSeconds * 1000,
      "ms",
      d1,
    ),
  );
  // Exercise "Too many buckets": timeline (b) with 1 MiB buckets.
  put(
    "ch3.tl1MiBStepSeconds",
    v(dataParallelTimeline({ ...common, overlap: true, bucketBytes: MiB }).stepSeconds, "s", d3),
  );

  // @fig:dp-scaling: a fixed batch of 1024 sequences (as src/figures/dp-overlap.ts chapterScalingPoints).
  const points = dataParallelScaling({
    globalBatchSequences: 1024,
    microBatchSequences: 1,
    sequenceTokens: 4096,
    trainingFlopsPerToken: modelFlopsPerToken(preset8.config, 4096).total,
    effectiveFlopsPerSecond: F,
    dpDegrees: [64, 256, 1024],
    gradientBytes: grad8,
    layers: arch8.numLayers,
    bucketBytes: 25 * MiB,
    busBandwidthBytesPerSecond: ib,
    collectiveLatencySeconds: 50e-6,
  });
  const at = (dp: number) => {
    const p = points.find((x) => x.dp === dp);
    if (!p) throw new Error(`data-parallelism values: no scaling point at d = ${dp}`);
    return p;
  };
  put("ch3.eff64Pct", v(100 * at(64).efficiency, "%", d1));
  put("ch3.eff256Pct", v(100 * at(256).efficiency, "%", d1));
  put("ch3.eff1024Pct", v(100 * at(1024).efficiency, "%", d1));
  put("ch3.eff1024PctRounded", v(100 * at(1024).efficiency, "%", d0)); // the figure's alt text
  put("ch3.tokens1024Millions", v(at(1024).tokensPerSecond / 1e6, "M tokens/s", d2));
  put("ch3.wait1024Pct", v((100 * at(1024).exposedCommSeconds) / at(1024).stepSeconds, "%", d0));
  // Microbatches per replica at the fixed batch: m = B/(b·d), B = 1024 sequences, b = 1 (stated).
  put("ch3.m64", v(1024 / (1 * 64), "microbatches", d0));
  put("ch3.m256", v(1024 / (1 * 256), "microbatches", d0));
  put("ch3.m1024", v(1024 / (1 * 1024), "microbatches", d0));
  // At least one sequence per replica: d ≤ B/b with B = 1024 sequences, b = 1 (stated).
  put("ch3.maxReplicas", v(1024 / 1, "replicas", d0));

  // ZeRO: memory (@eq:zero-memory, @tbl:zero-memory) and communication (@eq:zero-volume).
  // Plain DP's 16Ψ against ZeRO-1's 4Ψ and ZeRO-2's 2Ψ as d grows.
  put("ch3.zero1Reduction", v(16 / 4, "", d0));
  put("ch3.zero2Reduction", v(16 / 2, "", d0));
  const stages: ZeroStage[] = [0, 1, 2, 3];
  for (const dp of [8, 64]) {
    for (const z of stages)
      put(`ch3.zeroMem.d${dp}.z${z}`, v(modelStateBytes(psi8, { zeroStage: z, dp }).total / GB, "GB", d1));
  }
  put("ch3.zero1FreeGB", v((h100.hbmBytes - modelStateBytes(psi8, { zeroStage: 1, dp: 8 }).total) / GB, "GB", d0));
  const dpBytes = ringAllReduceBytesPerGpu(grad8, 64);
  put("ch3.dpVolumeGB", v(dpBytes / GB, "GB", d1));
  put("ch3.zero3VolumeGB", v((1.5 * dpBytes) / GB, "GB", d1));
  put("ch3.zero3VolumeFactor", v(3 / 2, "", d1)); // V3 / V_DP = 3Ψ / 2Ψ
  // ZeRO-3 prefetch and the tokens that hide the all-gathers (@eq:zero3-tokens).
  const layer = layerParameters(arch8, 0).total;
  put("ch3.layer8bParams", v(layer, "parameters", d0));
  put("ch3.layer8bMB", v((2 * layer) / MB, "MB", d1));
  put("ch3.f40Tflops", v(F / 1e12, "TFLOPS", d1));
  put("ch3.zero3NvlinkTokens", v(zero3HidingTokens(F, nvlinkOneWay, 8), "tokens", d0));
  // Beyond d ≈ B_tok·B_bus/F the gathers no longer hide: a 4M-token batch (2^22, as in @sec:batch).
  put("ch3.zero3MaxGpus", v((4 * 2 ** 20) / (F / ib), "GPUs", { significant: 2 }));
  // fp32 gradient reduction: 6P bytes against bf16's 4P per backward pass (the exercise).
  put("ch3.zero3Fp32Factor", v(6 / 4, "", d1));

  // Offloading over PCIe (one direction) and the CPU memory it needs.
  put("ch3.offloadTokens", v(offloadHidingTokens(F, h100.pcieBytesPerSecond / 2), "tokens", d0));
  put("ch3.offloadCpu16GB", v((14 * psi8) / GB, "GB", d1));
  put("ch3.bf16Bits", v(8 * bytesPerValue("bf16"), "bits", d0));
  // Activations per GPU at b = 1, s = 4096, FlashAttention, no recomputation: the same at any d.
  put(
    "ch3.activations8bGB",
    v(
      trainingMemory(preset8.config, { seqLength: 4096, microBatchSize: 1, dp: 8, zeroStage: 1 }).perGpu.activations /
        GB,
      "GB",
      d1,
    ),
  );

  // Exercise "The 70B all-reduce": the timeline with 70B's gradients and 80 layers.
  const grad70 = 2 * psi70;
  const mb70 = (modelFlopsPerToken(preset70.config, 4096).total * 4096) / F;
  const input70: DpTimelineInput = {
    ...common,
    overlap: true,
    gradientBytes: grad70,
    layers: parseModelConfig(preset70.config).architecture.numLayers,
    forwardSeconds: mb70 / 3,
    backwardSeconds: (2 * mb70) / 3,
  };
  put("ch3.layers70", v(input70.layers, "layers", d0));
  put("ch3.mb70Seconds", v(mb70, "s", d3));
  const exposed70 = dataParallelTimeline(input70).exposedCommSeconds;
  const buckets70 = bucketCount(grad70, 25 * MiB);
  put("ch3.exposed70Seconds", v(exposed70, "s", d3));
  put("ch3.buckets70", v(buckets70, "buckets", d0));
  put("ch3.bucketCost70Seconds", v(buckets70 * 50e-6, "s", d3));
  put("ch3.microbatches70Bound", v((19 * exposed70) / mb70, "microbatches", d2));
  const m70 = Math.ceil((19 * exposed70) / mb70);
  const step70 = dataParallelTimeline({ ...input70, microbatches: m70 });
  put("ch3.step70Seconds", v(step70.stepSeconds, "s", d2));
  put("ch3.exposed70Pct", v((100 * step70.exposedCommSeconds) / step70.stepSeconds, "%", d2));

  // Exercise "Fitting a batch on 96 GPUs": 2^21 tokens of 8192-token sequences, d = 96, b = 1 (stated).
  const seqs = 2 ** 21 / 8192;
  put("ch3.seqs2M", v(seqs, "sequences", d0));
  put("ch3.gpusM4", v(seqs / 4, "GPUs", d0));
  put("ch3.idleM4", v(96 - seqs / 4, "GPUs", d0));
  put("ch3.seqsM3", v(3 * 96, "sequences", d0));
  put("ch3.tokensM3", v(3 * 96 * 8192, "tokens", d0));
  put("ch3.largerM3Pct", v(100 * ((3 * 96) / seqs - 1), "%", d1));
  put("ch3.seqsM2", v(2 * 96, "sequences", d0));
  put("ch3.tokensM2", v(2 * 96 * 8192, "tokens", d0));
  put("ch3.oddFactor96", v(96 / 2 ** 5, "", d0)); // 96 = 2^5 · 3

  // Exercise "Which ZeRO stage fits a 70B model?": a 60 GB budget (stated).
  put("ch3.zero1Floor70GB", v((4 * psi70) / GB, "GB", d1));
  put("ch3.grad70GB", v(grad70 / GB, "GB", d1));
  const minDegree = Math.ceil((16 * psi70) / (60 * GB));
  put("ch3.zero3MinDegree70", v(minDegree, "GPUs", d0));
  put("ch3.zero3At19GB", v(modelStateBytes(psi70, { zeroStage: 3, dp: minDegree }).total / GB, "GB", d1));
  put("ch3.zero3ServerDegree70", v(Math.ceil(minDegree / 8) * 8, "GPUs", d0));
  put(
    "ch3.zero3At24GB",
    v(modelStateBytes(psi70, { zeroStage: 3, dp: Math.ceil(minDegree / 8) * 8 }).total / GB, "GB", d1),
  );
  put("ch3.zero3At32GB", v(modelStateBytes(psi70, { zeroStage: 3, dp: 32 }).total / GB, "GB", d1));
}
