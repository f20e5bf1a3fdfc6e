/**
 * Computed values of the chapter "data-parallelism" for its prose and its answer boxes:
 * `{=ch3.name}` prints one (see ../exercise-values.ts for the conventions: the value in its unit,
 * how it prints, and a comment that says which model function or stated input it comes from). Pure.
 *
 * Nothing here types in a bandwidth or an efficiency. The compute rate is the book's fitted kernel
 * efficiency for Hopper (step.ts's KERNEL_EFFICIENCY) times the H100 SXM's dense bf16 peak; every
 * bus bandwidth and per-step latency comes from placement.ts's groupLink for the H100 cluster,
 * for one of the chapter's two layouts of a data-parallel group:
 * - all eight GPUs of each server (stride 1): the ring leaves each server on its eight NICs;
 * - one rank per server (stride = GPUs per server): it leaves on one NIC.
 * PCIe comes from the GPU's record (gpus.ts), one direction.
 *
 * The chapter's stated inputs: Llama 3.1 8B, s = 4096, b = 1, bf16 gradients on the wire, d = 64,
 * DDP's 25 MiB buckets, α = 50 µs per bucket's all-reduce in the timelines, a global batch of 1024
 * sequences. Imports the model's modules directly, not ../index.ts: index.ts re-exports
 * exercise-values.ts, which runs this function while it loads.
 */
import { parseModelConfig } from "../architecture.ts";
import { modelFlopsPerToken } from "../compute.ts";
import type { Collective } from "../communication.ts";
import {
  allReduceSeconds,
  dataParallelScaling,
  ddpModelBucketCount,
  dataParallelTimeline,
  offloadHidingTokens,
  ringAllReduceBytesPerGpu,
  zero3HidingTokens,
  zero3LargestDegree,
  type DpTimelineInput,
} from "../dp-overlap.ts";
import { modelStateBytes, trainingMemory, type ZeroStage } from "../memory.ts";
import { bytesPerValue } from "../number-formats.ts";
import { countParameters, layerParameters } from "../parameters.ts";
import { clusterShape, groupLink, ringSteps } from "../placement.ts";
import { gpuGeneration, KERNEL_EFFICIENCY } from "../step.ts";
import { d0, d1, d2, d3, gpu, interconnect, preset, v, type PutValue } from "./put.ts";
import { fact } from "./facts.ts";

const GB = 1e9;
const MB = 1e6;
const MiB = 2 ** 20;

/**
 * The chapter's setting. The figures (dp-chapter-figures.ts, dp-overlap.ts) and the chapter's test
 * derive the same numbers through src/model/index.ts, and the test checks that they agree.
 */
function dataParallelismSetting() {
  const h100 = gpu("h100-sxm");
  const cluster = clusterShape(h100.id);
  const efficiency = KERNEL_EFFICIENCY[gpuGeneration(h100.id)];
  /** Strides of the chapter's two layouts of a data-parallel group. */
  const layouts = { allEight: 1, onePerServer: cluster.gpusPerServer } as const;
  return {
    gpu: h100,
    cluster,
    efficiency,
    /** Sustained FLOP/s of one GPU. */
    flopsPerSecond: efficiency * h100.bf16FlopsPerSecond,
    layouts,
    /** The group's link (placement.ts) for `ranks` ranks in a layout. */
    link: (collective: Collective, ranks: number, stride: number) => groupLink(cluster, collective, { ranks, stride }),
  };
}

export function dataParallelismValues(put: PutValue): void {
  const setting = dataParallelismSetting();
  const { cluster, link, layouts } = setting;
  const h100 = setting.gpu;
  const F = setting.flopsPerSecond;
  const ALL = layouts.allEight;
  const ONE = layouts.onePerServer;
  const arBus = (ranks: number, stride: number) => link("all-reduce", ranks, stride).busBytesPerSecond;
  const preset8 = preset("llama-3.1-8b");
  const preset70 = preset("llama-3.1-70b");
  const psi8 = countParameters(preset8.config).total;
  const psi70 = countParameters(preset70.config).total;
  const arch8 = parseModelConfig(preset8.config).architecture;
  const grad8 = 2 * psi8;
  const flops8 = modelFlopsPerToken(preset8.config, 4096).total * 4096;
  const mb8 = flops8 / F;

  // Meta's GPU hours for Llama 3.1 8B (meta2024llama31card, a recorded fact) on one GPU, in years.
  put("ch3.gpuYears8b", v((fact("llama31card.gpuHours8b").value * 1e6) / (24 * 365.25), "years", d0));
  put("ch3.layers8b", v(arch8.numLayers, "layers", d0));
  put("ch3.hidden8b", v(arch8.hiddenSize, "", d0));
  put("ch3.psi8Billions", v(psi8 / 1e9, "billion", d0));
  put("ch3.grad8bGB", v(grad8 / GB, "GB", d2));
  put("ch3.states8bGB", v(modelStateBytes(psi8).total / GB, "GB", d1));

  // The bus bandwidths of @sec:allreduce-cost (placement.ts).
  put("ch3.nicBusGBps", v(cluster.nicBusBytesPerSecond / GB, "GB/s", d0));
  put(
    "ch3.nicLineSharePct",
    v((100 * cluster.nicBusBytesPerSecond) / interconnect(h100.id).nicLineBytesPerSecond, "%", d0),
  );
  put("ch3.allEightGBps", v(arBus(64, ALL) / GB, "GB/s", d0));
  // How much shorter the book's eight-NIC times are than they would be at the measured 320 GB/s
  // across four H100 servers (nccl2024issue1221): time scales as 1 / bus bandwidth.
  put(
    "ch3.allEightVsMeasuredPct",
    v(100 * (1 - (fact("ncclIssue1221.busBwFourServers").value * GB) / arBus(64, ALL)), "%", d0),
  );
  put("ch3.oneServerGBps", v(arBus(8, ALL) / GB, "GB/s", d0));
  put("ch3.onePerServerGBps", v(arBus(64, ONE) / GB, "GB/s", d0));
  put("ch3.ringGBps", v(link("all-gather", 8, ALL).busBytesPerSecond / GB, "GB/s", d0));
  put("ch3.hopLatencyUs", v(link("all-reduce", 64, ALL).hopLatencySeconds * 1e6, "µs", d0));
  const ringLatency = (ranks: number) =>
    ringSteps("all-reduce", ranks) * link("all-reduce", ranks, ALL).hopLatencySeconds;
  put("ch3.ringLatency64Ms", v(ringLatency(64) * 1000, "ms", d1));
  put("ch3.ringLatency1024Ms", v(ringLatency(1024) * 1000, "ms", d1));

  // @tbl:ar-times: ring all-reduce of the bf16 gradients, α = 0, both layouts.
  const ar = (ranks: number, stride: number) => allReduceSeconds(grad8, ranks, arBus(ranks, stride));
  for (const d of [8, 64, 1024]) {
    put(`ch3.ar${d}AllMs`, v(ar(d, ALL) * 1000, "ms", d1));
    put(`ch3.ar${d}OneMs`, v(ar(d, ONE) * 1000, "ms", d1));
  }
  put("ch3.ar64to1024Pct", v(100 * (ar(1024, ALL) / ar(64, ALL) - 1), "%", d1));

  // One microbatch of 4096 tokens: its FLOPs (mantissa of the power of ten the text prints), its time.
  put("ch3.etaPct", v(100 * setting.efficiency, "%", d0));
  put("ch3.fTflops", v(F / 1e12, "TFLOPS", d1));
  put("ch3.mb8FlopsMantissa", v(flops8 / 10 ** Math.floor(Math.log10(flops8)), "", d2));
  put("ch3.mb8Ms", v(mb8 * 1000, "ms", d0));
  put("ch3.bwd8Ms", v(((2 * mb8) / 3) * 1000, "ms", d0));
  put("ch3.ar64AllOfBwdPct", v((100 * ar(64, ALL)) / ((2 * mb8) / 3), "%", d0));
  put("ch3.ar64AllOfStepPct", v((100 * ar(64, ALL)) / mb8, "%", d0));
  put("ch3.ar64OneOverBwd", v(ar(64, ONE) / ((2 * mb8) / 3), "", d1));
  // DDP's buckets: whole fp32 gradient tensors (autocast keeps the parameters, hence the gradients, in
  // fp32; a bf16 compression hook casts each bucket after it is filled), 1 MiB first bucket (dp-overlap.ts).
  const FP32 = bytesPerValue("fp32");
  const buckets8 = ddpModelBucketCount(arch8, 25 * MiB, FP32);
  const buckets8At1MiB = ddpModelBucketCount(arch8, MiB, FP32);
  put("ch3.buckets25MiB", v(buckets8, "buckets", d0));
  put("ch3.tensors8b", v(arch8.numLayers * 9 + 3, "tensors", d0));
  put("ch3.bytesOver25MiBBuckets", v(Math.ceil(grad8 / (25 * MiB)), "buckets", d0));

  // @fig:dp-timelines: one rank per server (the same inputs as dp-chapter-figures.ts chapterTimelinePanels).
  const common: DpTimelineInput = {
    gradientBytes: grad8,
    layers: arch8.numLayers,
    forwardSeconds: mb8 / 3,
    backwardSeconds: (2 * mb8) / 3,
    microbatches: 1,
    dp: 64,
    // The timeline splits the gradients evenly into DDP's real number of buckets (its whole-tensor
    // buckets differ in size; the count sets the per-call cost).
    bucketBytes: grad8 / buckets8,
    busBandwidthBytesPerSecond: arBus(64, ONE),
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
  // The same four steps with all eight GPUs of each server in the ring.
  const allEight = { ...common, busBandwidthBytesPerSecond: arBus(64, ALL) };
  put("ch3.tlAllCommMs", v(dataParallelTimeline(allEight).commSeconds * 1000, "ms", d0));
  put(
    "ch3.tlAllExposedMs",
    v(dataParallelTimeline({ ...allEight, overlap: true }).exposedCommSeconds * 1000, "ms", d1),
  );
  put(
    "ch3.tlAllSyncExposedMs",
    v(
      dataParallelTimeline({ ...allEight, overlap: true, microbatches: 4, noSync: false }).exposedCommSeconds * 1000,
      "ms",
      d1,
    ),
  );
  // The widget with d = 8 inside one server (NVLink SHARP): the exposed tail.
  put(
    "ch3.nvlinkTailMs",
    v(
      dataParallelTimeline({ ...common, overlap: true, dp: 8, busBandwidthBytesPerSecond: arBus(8, ALL) })
        .exposedCommSeconds * 1000,
      "ms",
      d1,
    ),
  );
  // Exercise "Too many buckets": timeline (b) with 1 MiB buckets.
  put(
    "ch3.tl1MiBStepSeconds",
    v(dataParallelTimeline({ ...common, overlap: true, bucketBytes: grad8 / buckets8At1MiB }).stepSeconds, "s", d3),
  );
  put("ch3.buckets1MiB", v(buckets8At1MiB, "buckets", d0));
  // The count a byte-slicing bucketer would make (⌈bytes / 1 MiB⌉ of bf16 gradients): the trap in the exercise.
  put("ch3.buckets1MiBSliced", v(Math.ceil(grad8 / MiB), "buckets", d0));
  put("ch3.bucketLatencySeconds", v(buckets8At1MiB * 50e-6, "s", d3));
  put("ch3.bucketLatency25Ms", v(buckets8 * 50e-6 * 1000, "ms", d1));

  // @fig:dp-scaling: a fixed batch of 1024 sequences, both layouts (as dp-chapter-figures.ts chapterScalingPoints).
  const scaling = (stride: number, ringAlpha = false) =>
    [64, 256, 1024].flatMap((dp) =>
      dataParallelScaling({
        globalBatchSequences: 1024,
        microBatchSequences: 1,
        sequenceTokens: 4096,
        trainingFlopsPerToken: modelFlopsPerToken(preset8.config, 4096).total,
        effectiveFlopsPerSecond: F,
        dpDegrees: [dp],
        gradientBytes: grad8,
        layers: arch8.numLayers,
        bucketBytes: grad8 / buckets8,
        busBandwidthBytesPerSecond: arBus(dp, stride),
        // The chapter's 50 µs per call, or a ring's own latency at this degree (2(d − 1) steps).
        collectiveLatencySeconds: ringAlpha ? ringLatency(dp) : 50e-6,
      }),
    );
  const at = (points: ReturnType<typeof scaling>, dp: number) => {
    const p = points.find((x) => x.dp === dp);
    if (!p) throw new Error(`data-parallelism values: no scaling point at d = ${dp}`);
    return p;
  };
  const all = scaling(ALL);
  const one = scaling(ONE);
  put("ch3.eff1024AllPct", v(100 * at(all, 1024).efficiency, "%", d1));
  put("ch3.tokens1024AllMillions", v(at(all, 1024).tokensPerSecond / 1e6, "M tokens/s", d2));
  // M2: the same layout with each call paying the ring's latency instead of 50 µs.
  const allRing = scaling(ALL, true);
  put("ch3.eff64AllRingPct", v(100 * at(allRing, 64).efficiency, "%", d1));
  put("ch3.eff256AllRingPct", v(100 * at(allRing, 256).efficiency, "%", d1));
  put("ch3.eff1024AllRingPct", v(100 * at(allRing, 1024).efficiency, "%", d1));
  put("ch3.eff64Pct", v(100 * at(one, 64).efficiency, "%", d1));
  put("ch3.eff256Pct", v(100 * at(one, 256).efficiency, "%", d1));
  put("ch3.eff1024Pct", v(100 * at(one, 1024).efficiency, "%", d1));
  put("ch3.eff1024PctRounded", v(100 * at(one, 1024).efficiency, "%", d0)); // the figure's alt text
  put("ch3.tokens1024Millions", v(at(one, 1024).tokensPerSecond / 1e6, "M tokens/s", d2));
  put("ch3.wait1024Pct", v((100 * at(one, 1024).exposedCommSeconds) / at(one, 1024).stepSeconds, "%", d0));
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
  // The same fits under the framework profiles (frameworks.ts): d = 8, s = 4096, b = 1, with activations.
  const fw = (framework: "ddp" | "megatron" | "deepspeed", zeroStage: ZeroStage) =>
    trainingMemory(preset8.config, { seqLength: 4096, microBatchSize: 1, dp: 8, zeroStage, framework }).perGpu;
  const ddpMem = fw("ddp", 0);
  const ddpStates = ddpMem.parameters + ddpMem.gradients + ddpMem.optimizer;
  put("ch3.ddpStatesGB", v(ddpStates / GB, "GB", d1));
  put("ch3.ddpBytesPerParam", v(ddpStates / psi8, "bytes", d0));
  put("ch3.megatronZ1TotalGB", v(fw("megatron", 1).total / GB, "GB", d1));
  put("ch3.deepspeedZ1TotalGB", v(fw("deepspeed", 1).total / GB, "GB", d1));
  put("ch3.hbmGB", v(h100.hbmBytes / GB, "GB", d0));
  const dpBytes = ringAllReduceBytesPerGpu(grad8, 64);
  put("ch3.dpVolumeGB", v(dpBytes / GB, "GB", d1));
  put("ch3.zero3VolumeGB", v((1.5 * dpBytes) / GB, "GB", d1));
  put("ch3.zero3VolumeFactor", v(3 / 2, "", d1)); // V3 / V_DP = 3Ψ / 2Ψ

  // ZeRO-3 prefetch and the tokens that hide the all-gathers (@eq:zero3-tokens), with each layer's
  // all-gather paying the ring's per-step latency (placement.ts).
  const layer = layerParameters(arch8, 0).total;
  put("ch3.layer8bParams", v(layer, "parameters", d0));
  put("ch3.layer8bMB", v((2 * layer) / MB, "MB", d1));
  const gather = (ranks: number, stride: number) => link("all-gather", ranks, stride);
  const hide = (ranks: number, stride: number, withLatency = true) =>
    zero3HidingTokens(
      F,
      gather(ranks, stride).busBytesPerSecond,
      ranks,
      withLatency ? { stepSeconds: gather(ranks, stride).hopLatencySeconds, layerParameters: layer } : undefined,
    );
  put("ch3.zero3Bf16Tokens", v(hide(64, ALL), "tokens", d0));
  put("ch3.zero3AllBandwidthTokens", v(hide(64, ALL, false), "tokens", d0));
  put("ch3.zero3AllLatencyTokens", v(hide(64, ALL) - hide(64, ALL, false), "tokens", d0));
  put("ch3.zero3OneTokens", v(hide(64, ONE), "tokens", d0));
  put("ch3.zero3NvlinkTokens", v(hide(8, ALL), "tokens", d0));
  // fp32 gradient reduction (the exercise): the backward's bandwidth term grows by 6P/4P.
  put("ch3.zero3Fp32Factor", v(6 / 4, "", d1));
  put("ch3.zero3Fp32Tokens", v(1.5 * hide(64, ALL, false) + (hide(64, ALL) - hide(64, ALL, false)), "tokens", d0));
  // The largest degree that still hides at a 4M-token batch (2^22, as in @sec:batch), one microbatch per GPU.
  const largest = (stride: number, withLatency: boolean) =>
    zero3LargestDegree(4 * 2 ** 20, F, (ranks) => gather(ranks, stride), withLatency ? layer : null);
  put("ch3.zero3MaxGpus", v(largest(ALL, true), "GPUs", { significant: 2 }));
  put("ch3.zero3MaxGpusBandwidthOnly", v(largest(ALL, false), "GPUs", { significant: 2 }));
  put("ch3.zero3MaxGpusOne", v(largest(ONE, true), "GPUs", { significant: 2 }));

  // Narayanan et al.'s ZeRO-3 runs (Table 2): GPT-3 175B (h = 12,288, 96 heads, 96 layers, s = 2,048,
  // §5.2, §5.3.2) on DGX A100 servers with eight 200 Gb/s NICs each (§5), at 1,536 GPUs.
  const a100 = gpu("a100-sxm-80gb");
  const a100Cluster = clusterShape(a100.id);
  const gpt3 = parseModelConfig({
    model_type: "gpt2",
    n_embd: 12288,
    n_head: 96,
    n_layer: 96,
    vocab_size: 51200,
    n_positions: 2048,
    n_inner: null,
    tie_word_embeddings: true,
  }).architecture;
  const gpt3Layer = layerParameters(gpt3, 0).total;
  const Fa100 = KERNEL_EFFICIENCY[gpuGeneration(a100.id)] * a100.bf16FlopsPerSecond;
  const gatherA100 = groupLink(a100Cluster, "all-gather", { ranks: 1536, stride: 1 });
  put("ch3.narEtaPct", v(100 * KERNEL_EFFICIENCY[gpuGeneration(a100.id)], "%", d0));
  put("ch3.narBusGBps", v(gatherA100.busBytesPerSecond / GB, "GB/s", d0));
  put(
    "ch3.narTokens1536",
    v(
      zero3HidingTokens(Fa100, gatherA100.busBytesPerSecond, 1536, {
        stepSeconds: gatherA100.hopLatencySeconds,
        layerParameters: gpt3Layer,
      }),
      "tokens",
      d0,
    ),
  );

  // Offloading over PCIe (one direction): ZeRO-Offload's design sends 16-bit gradients (2Ψ),
  // DeepSpeed's ZeRO-1/2 offload fp32 ones (4Ψ); both hide only behind the last backward pass.
  const pcie = h100.pcieBytesPerSecond / 2;
  put("ch3.pcieOneWayGBps", v(pcie / GB, "GB/s", d0));
  put("ch3.offloadTokens", v(offloadHidingTokens(F, pcie), "tokens", d0));
  put("ch3.offloadFp32Tokens", v(offloadHidingTokens(F, pcie, 4), "tokens", d0));
  // How far under one (two) 4096-token sequences each bound sits: the same margin for both.
  put("ch3.offloadMarginPct", v(100 * (1 - offloadHidingTokens(F, pcie) / 4096), "%", d1));
  put("ch3.offloadTransferMs", v(((2 * psi8) / pcie) * 1000, "ms", d0));
  put("ch3.offloadFp32TransferMs", v(((4 * psi8) / pcie) * 1000, "ms", d0));
  put("ch3.offloadCpuGB", v((12 * psi8) / GB, "GB", d1));
  put("ch3.offloadCpu16GB", v((14 * psi8) / GB, "GB", d1));
  put("ch3.offloadAllStatesGB", v((16 * psi8) / GB, "GB", d1));
  // With gradient accumulation DeepSpeed's ZeRO-1/2 offload also keeps a CPU buffer per owned parameter in
  // the parameter's data type (bf16) to accumulate into (deepspeed2025stage12, v0.16.4 stage_1_and_2.py
  // L1202-1205 and L1232-1233; L185: its device is the CPU under offload): 2Ψ more on one GPU.
  put("ch3.offloadAccumStatesGB", v((18 * psi8) / GB, "GB", d1));
  put("ch3.grad8bFp32GB", v((4 * psi8) / GB, "GB", d1));
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

  // Exercise "The 70B all-reduce": 64 replicas in both layouts, the timeline with 70B's gradients
  // and 80 layers, 25 MiB buckets, α = 50 µs, no_sync; exposed under 5% of the step.
  const grad70 = 2 * psi70;
  const mb70 = (modelFlopsPerToken(preset70.config, 4096).total * 4096) / F;
  const arch70 = parseModelConfig(preset70.config).architecture;
  const buckets70 = ddpModelBucketCount(arch70, 25 * MiB, FP32);
  const input70 = (stride: number): DpTimelineInput => ({
    ...common,
    bucketBytes: grad70 / buckets70,
    overlap: true,
    gradientBytes: grad70,
    layers: parseModelConfig(preset70.config).architecture.numLayers,
    forwardSeconds: mb70 / 3,
    backwardSeconds: (2 * mb70) / 3,
    busBandwidthBytesPerSecond: arBus(64, stride),
  });
  put("ch3.layers70", v(input70(ONE).layers, "layers", d0));
  put("ch3.grad70GB", v(grad70 / GB, "GB", d1));
  put("ch3.mb70Seconds", v(mb70, "s", d3));
  put("ch3.bwd70Seconds", v((2 * mb70) / 3, "s", d3));
  put("ch3.allReduce70Seconds", v(allReduceSeconds(grad70, 64, arBus(64, ALL)), "s", d3));
  put("ch3.allReduce70OneSeconds", v(allReduceSeconds(grad70, 64, arBus(64, ONE)), "s", d3));
  put("ch3.ar70OneOverBwd", v(allReduceSeconds(grad70, 64, arBus(64, ONE)) / ((2 * mb70) / 3), "", d1));
  put("ch3.ar70AllOfBwdPct", v((100 * allReduceSeconds(grad70, 64, arBus(64, ALL))) / ((2 * mb70) / 3), "%", d0));
  put("ch3.allReduce70OneHalfSeconds", v(allReduceSeconds(grad70, 64, arBus(64, ONE)) / 2, "s", d3));
  put("ch3.exposed70AllMs", v(dataParallelTimeline(input70(ALL)).exposedCommSeconds * 1000, "ms", d0));
  const exposed70 = dataParallelTimeline(input70(ONE)).exposedCommSeconds;
  put("ch3.exposed70Seconds", v(exposed70, "s", d3));
  put("ch3.buckets70", v(buckets70, "buckets", d0));
  put("ch3.bucketCost70Seconds", v(buckets70 * 50e-6, "s", d3));
  // exposed / (mb·m + exposed) < 0.05 ⇔ m > 19·exposed/mb
  put("ch3.microbatches70Bound", v((19 * exposed70) / mb70, "microbatches", d2));
  const m70 = Math.ceil((19 * exposed70) / mb70);
  put("ch3.microbatches70", v(m70, "microbatches", d0));
  put("ch3.microbatches70Floor", v(Math.floor((19 * exposed70) / mb70), "microbatches", d0));
  put("ch3.batch70Sequences", v(m70 * 64, "sequences", d0));
  const step70 = dataParallelTimeline({ ...input70(ONE), microbatches: m70 });
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
