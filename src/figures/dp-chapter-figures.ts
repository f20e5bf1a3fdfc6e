/**
 * The data-parallelism chapter's two code-drawn figures (assets/img/data-parallelism/, written by
 * tools/figures/data-parallelism.ts): the chapter's stated assumptions, the model's timelines and
 * scaling points for them, and their serialization with dp-timelines.ts.
 */
import {
  clusterShape,
  dataParallelScaling,
  dataParallelTimeline,
  ddpModelBucketCount,
  findGpu,
  findModelPreset,
  gpuGeneration,
  groupLink,
  KERNEL_EFFICIENCY,
  modelFlopsPerToken,
  ModelInputError,
  parseModelConfig,
  type DpScalingPoint,
  type DpTimelineInput,
} from "../model/index.ts";
import { drawDpScaling, drawDpTimelines, type DpTimelinePanel } from "./dp-timelines.ts";
import { dom } from "./kit/dom.ts";

/**
 * Assumptions shared by the chapter's figures (stated in the chapter's captions and text). The
 * compute rate is the book's kernel efficiency for the GPU's generation (step.ts) times its dense
 * bf16 peak; bus bandwidths come from placement.ts for the chapter's two layouts of the group.
 */
const chapterAssumptions = {
  preset: "llama-3.1-8b",
  gpu: "h100-sxm",
  sequenceTokens: 4096,
  dp: 64,
  /** DDP's bucket_cap_mb (25 MiB), applied to whole fp32 gradient tensors (dp-overlap.ts ddpModelBucketCount). */
  bucketCapBytes: 25 * 2 ** 20,
  collectiveLatencySeconds: 50e-6,
  globalBatchSequences: 1024,
} as const;

/** The chapter's two layouts of a data-parallel group: all eight GPUs of each server, or one rank per server. */
export type ChapterLayout = "all-eight" | "one-per-server";

/** Bus bandwidth of the chapter's gradient all-reduce over `ranks` replicas in a layout (placement.ts). */
export function chapterBusBandwidth(layout: ChapterLayout, ranks: number = chapterAssumptions.dp): number {
  const cluster = clusterShape(chapterAssumptions.gpu);
  const stride = layout === "all-eight" ? 1 : cluster.gpusPerServer;
  return groupLink(cluster, "all-reduce", { ranks, stride }).busBytesPerSecond;
}

function chapterBasics() {
  const preset = findModelPreset(chapterAssumptions.preset);
  const gpu = findGpu(chapterAssumptions.gpu);
  if (!preset || !gpu) throw new ModelInputError("preset", "the chapter’s model or GPU preset is missing");
  const flopsPerToken = modelFlopsPerToken(preset.config, chapterAssumptions.sequenceTokens).total;
  const effectiveFlopsPerSecond = KERNEL_EFFICIENCY[gpuGeneration(gpu.id)] * gpu.bf16FlopsPerSecond;
  const microbatchSeconds = (flopsPerToken * chapterAssumptions.sequenceTokens) / effectiveFlopsPerSecond;
  const layers = Number(preset.config.num_hidden_layers);
  const gradientBytes = 2 * preset.publishedTotal;
  // The timelines split the bf16 gradients evenly into DDP's real number of buckets.
  const buckets = ddpModelBucketCount(
    parseModelConfig(preset.config).architecture,
    chapterAssumptions.bucketCapBytes,
    4,
  );
  return {
    bucketBytes: gradientBytes / buckets,
    preset,
    flopsPerToken,
    effectiveFlopsPerSecond,
    microbatchSeconds,
    layers,
    gradientBytes,
  };
}

/**
 * The four timelines of the chapter's figure, one rank per server: no overlap, overlap, m = 4
 * synchronizing each time, m = 4 with no_sync.
 */
export function chapterTimelinePanels(): DpTimelinePanel[] {
  const b = chapterBasics();
  const common: DpTimelineInput = {
    gradientBytes: b.gradientBytes,
    layers: b.layers,
    forwardSeconds: b.microbatchSeconds / 3,
    backwardSeconds: (2 * b.microbatchSeconds) / 3,
    microbatches: 1,
    dp: chapterAssumptions.dp,
    bucketBytes: b.bucketBytes,
    busBandwidthBytesPerSecond: chapterBusBandwidth("one-per-server"),
    collectiveLatencySeconds: chapterAssumptions.collectiveLatencySeconds,
    overlap: false,
    noSync: true,
  };
  return [
    { label: "(a) No overlap", timeline: dataParallelTimeline(common) },
    { label: "(b) Overlap", timeline: dataParallelTimeline({ ...common, overlap: true }) },
    {
      label: "(c) m = 4, sync each",
      timeline: dataParallelTimeline({ ...common, overlap: true, microbatches: 4, noSync: false }),
    },
    {
      label: "(d) m = 4, no_sync",
      timeline: dataParallelTimeline({ ...common, overlap: true, microbatches: 4, noSync: true }),
    },
  ];
}

/** The points of the chapter's scaling figure in a layout: d = 1 … 1024 at a fixed batch of 1024 sequences. */
export function chapterScalingPoints(layout: ChapterLayout): DpScalingPoint[] {
  const b = chapterBasics();
  // One degree at a time: the group's bus bandwidth depends on how many servers it spans.
  return [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024].map((dp) => {
    const [point] = dataParallelScaling({
      globalBatchSequences: chapterAssumptions.globalBatchSequences,
      microBatchSequences: 1,
      sequenceTokens: chapterAssumptions.sequenceTokens,
      trainingFlopsPerToken: b.flopsPerToken,
      effectiveFlopsPerSecond: b.effectiveFlopsPerSecond,
      dpDegrees: [dp],
      gradientBytes: b.gradientBytes,
      layers: b.layers,
      bucketBytes: b.bucketBytes,
      busBandwidthBytesPerSecond: chapterBusBandwidth(layout, Math.max(2, dp)),
      collectiveLatencySeconds: chapterAssumptions.collectiveLatencySeconds,
    });
    if (!point) throw new ModelInputError("dpDegrees", `no scaling point at d = ${dp}`);
    return point;
  });
}

/** Serializes the chapter's two code-drawn figures: file name → SVG text. */
export function renderChapterFigures(doc: Document): Record<string, string> {
  const { el } = dom(doc);
  const out: Record<string, string> = {};
  const a = el("div");
  drawDpTimelines(a, chapterTimelinePanels(), {
    title: "One data-parallel step of Llama 3.1 8B on 64 replicas, one per server, four ways",
    description:
      "Four timelines on one time axis, each with a compute row (forward and backward passes) and an all-reduce row. " +
      "(a) Without overlap the all-reduce starts after the backward pass. (b) With overlap the buckets start during the backward pass, which hides part of the all-reduce (the whole backward pass, over a third of it here). " +
      "(c) With four microbatches that each synchronize, the wait is paid four times. (d) With no_sync only the last microbatch communicates.",
    idPrefix: "dp-timelines",
  });
  out["timelines.svg"] = a.innerHTML;
  const b = el("div");
  drawDpScaling(
    b,
    [
      { label: "all eight GPUs of each server", points: chapterScalingPoints("all-eight") },
      { label: "one rank per server", points: chapterScalingPoints("one-per-server") },
    ],
    {
      title: "Modeled data-parallel throughput of Llama 3.1 8B at a fixed 4M-token batch, two layouts",
      description:
        "Tokens per second against GPUs on log-log axes. The ideal line doubles with the GPUs. With all eight GPUs of each server in the ring the modeled line stays on it; with one rank per server it bends below it as the microbatches per replica fall to one.",
      idPrefix: "dp-scaling",
    },
  );
  out["scaling.svg"] = b.innerHTML;
  return out;
}
