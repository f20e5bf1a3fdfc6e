/**
 * The data-parallelism chapter's two code-drawn figures (assets/img/data-parallelism/, written by
 * tools/figures/data-parallelism.ts): the chapter's stated assumptions, the model's timelines and
 * scaling points for them, and their serialization with dp-timelines.ts.
 */
import {
  dataParallelScaling,
  dataParallelTimeline,
  findGpu,
  findModelPreset,
  modelFlopsPerToken,
  ModelInputError,
  type DpScalingPoint,
  type DpTimelineInput,
} from "../model/index.ts";
import { drawDpScaling, drawDpTimelines, type DpTimelinePanel } from "./dp-timelines.ts";
import { dom } from "./kit/dom.ts";

/** Assumptions shared by the chapter's figures (stated in the chapter's captions and text). */
const chapterAssumptions = {
  preset: "llama-3.1-8b",
  gpu: "h100-sxm",
  mfu: 0.4,
  sequenceTokens: 4096,
  dp: 64,
  busBandwidthBytesPerSecond: 50e9,
  bucketBytes: 25 * 2 ** 20,
  collectiveLatencySeconds: 50e-6,
  globalBatchSequences: 1024,
} as const;

function chapterBasics() {
  const preset = findModelPreset(chapterAssumptions.preset);
  const gpu = findGpu(chapterAssumptions.gpu);
  if (!preset || !gpu) throw new ModelInputError("preset", "the chapter’s model or GPU preset is missing");
  const flopsPerToken = modelFlopsPerToken(preset.config, chapterAssumptions.sequenceTokens).total;
  const effectiveFlopsPerSecond = chapterAssumptions.mfu * gpu.bf16FlopsPerSecond;
  const microbatchSeconds = (flopsPerToken * chapterAssumptions.sequenceTokens) / effectiveFlopsPerSecond;
  const layers = Number(preset.config.num_hidden_layers);
  return {
    preset,
    flopsPerToken,
    effectiveFlopsPerSecond,
    microbatchSeconds,
    layers,
    gradientBytes: 2 * preset.publishedTotal,
  };
}

/**
 * The four timelines of the chapter's figure: no overlap, overlap, m = 4 synchronizing each time, m = 4 with no_sync.
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
    bucketBytes: chapterAssumptions.bucketBytes,
    busBandwidthBytesPerSecond: chapterAssumptions.busBandwidthBytesPerSecond,
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

/** The points of the chapter's scaling figure: d = 1 … 1024 at a fixed batch of 1024 sequences. */
export function chapterScalingPoints(): DpScalingPoint[] {
  const b = chapterBasics();
  return dataParallelScaling({
    globalBatchSequences: chapterAssumptions.globalBatchSequences,
    microBatchSequences: 1,
    sequenceTokens: chapterAssumptions.sequenceTokens,
    trainingFlopsPerToken: b.flopsPerToken,
    effectiveFlopsPerSecond: b.effectiveFlopsPerSecond,
    dpDegrees: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024],
    gradientBytes: b.gradientBytes,
    layers: b.layers,
    bucketBytes: chapterAssumptions.bucketBytes,
    busBandwidthBytesPerSecond: chapterAssumptions.busBandwidthBytesPerSecond,
    collectiveLatencySeconds: chapterAssumptions.collectiveLatencySeconds,
  });
}

/** Serializes the chapter's two code-drawn figures: file name → SVG text. */
export function renderChapterFigures(doc: Document): Record<string, string> {
  const { el } = dom(doc);
  const out: Record<string, string> = {};
  const a = el("div");
  drawDpTimelines(a, chapterTimelinePanels(), {
    title: "One data-parallel step of Llama 3.1 8B on 64 replicas, four ways",
    description:
      "Four timelines on one time axis, each with a compute row (forward and backward passes) and an all-reduce row. " +
      "(a) Without overlap the all-reduce starts after the backward pass. (b) With overlap most of it runs under the backward pass. " +
      "(c) With four microbatches that each synchronize, the wait is paid four times. (d) With no_sync only the last microbatch communicates.",
    idPrefix: "dp-timelines",
  });
  out["timelines.svg"] = a.innerHTML;
  const b = el("div");
  drawDpScaling(b, chapterScalingPoints(), {
    title: "Modeled data-parallel throughput of Llama 3.1 8B at a fixed 4M-token batch",
    description:
      "Tokens per second against GPUs on log-log axes. The ideal line doubles with the GPUs; the modeled line follows it and bends below it as the microbatches per replica fall to one.",
    idPrefix: "dp-scaling",
  });
  out["scaling.svg"] = b.innerHTML;
  return out;
}
