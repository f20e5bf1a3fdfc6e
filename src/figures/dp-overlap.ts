/**
 * Drawing code for data-parallel step timelines and the DP scaling chart.
 *
 * What it is for: the data-parallelism chapter's static figures (rendered at build time under
 * linkedom) and the `dp-overlap` widget (rendered in the browser) draw with the same functions,
 * so the picture a reader sees with JavaScript off is the picture the widget draws. Every number
 * comes from `src/model/dp-overlap.ts`; this file only places boxes and labels. It never touches
 * the `window`/`document` globals: it draws into the element it is given.
 */
import { scaleLinear, scaleLog, select } from "d3";
import {
  allReduceSeconds,
  bucketCount,
  dataParallelScaling,
  dataParallelTimeline,
  findGpu,
  findModelPreset,
  modelFlopsPerToken,
  ModelInputError,
  type DpScalingPoint,
  type DpTimeline,
  type DpTimelineInput,
} from "../model/index.ts";
import { WidgetSettingsError, defineWidget, settingsObject } from "./widget.ts";
import { dom, figureSvg } from "./kit/dom.ts";
import { colorWithFallback, type PaletteName } from "./kit/palette.ts";
import { readNumber } from "./kit/field.ts";
import { formatNumber } from "./kit/format.ts";


/** One labelled row pair (compute + communication) of a timeline figure. */
export interface DpTimelinePanel {
  /** Short label drawn above the panel, e.g. "(a) No overlap". */
  label: string;
  timeline: DpTimeline;
}

/** Options of {@link drawDpTimelines}. */
export interface DpTimelineDrawOptions {
  /** Accessible title of the SVG. */
  title: string;
  /** Accessible description of the SVG (what it shows, in words). */
  description: string;
  /** Width of the drawing in SVG user units (default 760). */
  width?: number;
  /** Right end of the time axis in seconds; defaults to the longest step of the panels. */
  maxSeconds?: number;
  /** Prefix for element ids, so several figures can share a page. */
  idPrefix?: string;
}

/**
 * Formats seconds the way the chapter prints them: "3.0 ms" below 100 ms, "852 ms" below 1 s,
 * "1.196 s" below 100 s, "123.4 s" above.
 */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return "–";
  const ms = seconds * 1000;
  if (ms < 100) return `${formatNumber(ms, { decimals: 1 })} ms`;
  if (ms < 999.5) return `${formatNumber(ms, { decimals: 0 })} ms`;
  return `${formatNumber(seconds, { decimals: seconds < 100 ? 3 : 1 })} s`;
}

/**
 * The chapter's estimate of the exposed tail (eq:exposed in 03-data-parallelism.md):
 * max(t_AR / min(n_b, L), t_AR − t_b + t_b / L), with t_AR the whole gradient's all-reduce
 * including the per-call cost of every bucket. It spreads the buckets evenly over the layers;
 * the timeline rounds each bucket up to the layer that completes it, so the two differ a little.
 */
export function exposedEstimateSeconds(input: DpTimelineInput): number {
  const buckets = bucketCount(input.gradientBytes, input.bucketBytes);
  const tAR = allReduceSeconds(input.gradientBytes, input.dp, input.busBandwidthBytesPerSecond, 0) + buckets * input.collectiveLatencySeconds;
  const tb = input.backwardSeconds;
  return Math.max(tAR / Math.min(buckets, input.layers), tAR - tb + tb / input.layers);
}

interface Run {
  start: number;
  end: number;
}

/** Merges back-to-back communication segments into runs (hundreds of buckets draw as a few boxes). */
export function mergeRuns(segments: { startSeconds: number; endSeconds: number }[], gapSeconds: number): Run[] {
  const runs: Run[] = [];
  for (const s of segments) {
    const last = runs[runs.length - 1];
    if (last && s.startSeconds - last.end <= gapSeconds) last.end = Math.max(last.end, s.endSeconds);
    else runs.push({ start: s.startSeconds, end: s.endSeconds });
  }
  return runs;
}

const v = (name: PaletteName) => colorWithFallback(name);
/** CSS of the chart; the fallbacks serve the copies in assets/img, which pages load with <img>. */
const STYLE = `
.dp-t{font:12px system-ui,-apple-system,'Segoe UI',sans-serif;fill:${v("text")}}
.dp-m{fill:${v("muted")}}
.dp-h{font-weight:600;font-size:13px}
.dp-f{fill:${v("acts")}}
.dp-b{fill:${v("grads")}}
.dp-c{fill:${v("comm")}}
.dp-x{fill:none;stroke:${v("comm")};stroke-width:1.5;stroke-dasharray:3 2}
.dp-ax{stroke:${v("muted")};stroke-width:1}
.dp-grid{stroke:${v("muted")};stroke-opacity:.25}
.dp-ideal{fill:none;stroke:${v("muted")};stroke-width:1.5;stroke-dasharray:6 4}
.dp-line{fill:none;stroke:${v("comm")};stroke-width:2.5}
.dp-dot{fill:${v("comm")}}
@media (prefers-color-scheme:dark){.dp-t{fill:${colorWithFallback("text", "dark")}}.dp-m{fill:${colorWithFallback("muted", "dark")}}}
`;

function createSvg(root: Element, width: number, height: number, title: string, description: string, idPrefix: string) {
  const doc = root.ownerDocument;
  const svg = figureSvg(doc, { idPrefix, width, height, title, desc: description, attrs: { width, height } });
  svg.append(dom(doc).svg("style", {}, STYLE));
  root.append(svg);
  return select(svg);
}

function niceStepSeconds(maxSeconds: number, ticks: number): number {
  const raw = maxSeconds / ticks;
  const pow = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * pow >= raw) return m * pow;
  return 10 * pow;
}

/**
 * Draws one or more timelines, each a compute row (forward, backward) above a communication row
 * (all-reduces, back-to-back buckets merged), on one shared time axis, with the step time and the
 * exposed communication printed at the right.
 */
export function drawDpTimelines(root: Element, panels: DpTimelinePanel[], options: DpTimelineDrawOptions): void {
  if (panels.length === 0) throw new ModelInputError("panels", "at least one timeline panel is needed");
  const width = options.width ?? 760;
  const idPrefix = options.idPrefix ?? "dp-timeline";
  const left = width < 480 ? 74 : 92;
  const right = 16;
  const laneHeight = 20;
  const panelHeight = 22 + 2 * laneHeight + 10;
  const top = 8;
  const axisHeight = 34;
  const legend: [string, string][] = [["dp-f", "forward"], ["dp-b", "backward"], ["dp-c", "all-reduce (buckets)"], ["dp-x", "compute waiting"]];
  const legendPositions: { x: number; row: number }[] = [];
  let lx = left;
  let row = 0;
  for (const [, text] of legend) {
    const itemWidth = 30 + text.length * 6.6;
    if (lx + itemWidth > width && lx > left) {
      row += 1;
      lx = left;
    }
    legendPositions.push({ x: lx, row });
    lx += itemWidth;
  }
  const legendHeight = 22 + 18 * row;
  const height = top + panels.length * panelHeight + axisHeight + legendHeight;
  const maxSeconds = options.maxSeconds ?? Math.max(...panels.map((p) => p.timeline.stepSeconds));
  const x = scaleLinear().domain([0, maxSeconds]).range([left, width - right]);
  const svg = createSvg(root, width, height, options.title, options.description, idPrefix);
  const g = svg.append("g").attr("class", "dp-t");
  const step = niceStepSeconds(maxSeconds, Math.max(3, Math.min(6, Math.floor((width - left - right) / 90))));
  const axisY = top + panels.length * panelHeight + 4;
  for (let v = 0; v <= maxSeconds + 1e-12; v += step) {
    g.append("line").attr("class", "dp-grid").attr("x1", x(v)).attr("x2", x(v)).attr("y1", top).attr("y2", axisY);
    g.append("text").attr("class", "dp-m").attr("x", x(v)).attr("y", axisY + 14).attr("text-anchor", "middle")
      .text(maxSeconds < 1 ? `${Math.round(v * 1000)} ms` : `${+v.toFixed(2)} s`);
  }
  g.append("line").attr("class", "dp-ax").attr("x1", left).attr("x2", width - right).attr("y1", axisY).attr("y2", axisY);
  g.append("text").attr("class", "dp-m").attr("x", (left + width - right) / 2).attr("y", axisY + 29)
    .attr("text-anchor", "middle").text("time since the step began");
  const pxPerSecond = (width - right - left) / maxSeconds;
  panels.forEach((panel, i) => {
    const y0 = top + i * panelHeight;
    const tl = panel.timeline;
    g.append("text").attr("class", "dp-h").attr("x", 0).attr("y", y0 + 14).text(panel.label);
    g.append("text").attr("class", "dp-m").attr("x", width - right).attr("y", y0 + 14).attr("text-anchor", "end")
      .text(`step ${formatDuration(tl.stepSeconds)}, exposed ${formatDuration(tl.exposedCommSeconds)}`);
    const computeY = y0 + 20;
    const commY = computeY + laneHeight;
    g.append("text").attr("class", "dp-m").attr("x", 0).attr("y", computeY + 14).text("compute");
    g.append("text").attr("class", "dp-m").attr("x", 0).attr("y", commY + 14).text("all-reduce");
    for (const s of tl.segments.filter((seg) => seg.lane === "compute")) {
      g.append("rect").attr("class", s.kind === "forward" ? "dp-f" : "dp-b")
        .attr("x", x(s.startSeconds)).attr("y", computeY + 2)
        .attr("width", Math.max(0.5, x(s.endSeconds) - x(s.startSeconds) - 0.5)).attr("height", laneHeight - 4)
        .append("title").text(`${s.kind} of microbatch ${s.microbatch + 1}: ${formatDuration(s.endSeconds - s.startSeconds)}`);
    }
    const comm = tl.segments.filter((seg) => seg.lane === "comm");
    for (const run of mergeRuns(comm, 0.75 / pxPerSecond)) {
      g.append("rect").attr("class", "dp-c").attr("x", x(run.start)).attr("y", commY + 2)
        .attr("width", Math.max(0.75, x(run.end) - x(run.start))).attr("height", laneHeight - 4)
        .append("title").text(`all-reduce busy from ${formatDuration(run.start)} to ${formatDuration(run.end)}`);
    }
    // Compute waiting for communication: gaps between compute boxes, and the end of the step.
    const computeSegments = tl.segments.filter((seg) => seg.lane === "compute");
    const waits: Run[] = [];
    let cursor = 0;
    for (const seg of computeSegments) {
      if (seg.startSeconds - cursor > 1e-12) waits.push({ start: cursor, end: seg.startSeconds });
      cursor = seg.endSeconds;
    }
    if (tl.stepSeconds - cursor > 1e-12) waits.push({ start: cursor, end: tl.stepSeconds });
    for (const w of waits) {
      if (x(w.end) - x(w.start) < 2) continue;
      g.append("rect").attr("class", "dp-x").attr("x", x(w.start)).attr("y", computeY + 2)
        .attr("width", x(w.end) - x(w.start)).attr("height", laneHeight - 4)
        .append("title").text(`compute waits ${formatDuration(w.end - w.start)} for communication`);
    }
  });
  const legendTop = axisY + axisHeight + 10;
  legend.forEach(([cls, text], i) => {
    const { x: px, row: r } = legendPositions[i];
    const ly = legendTop + 18 * r;
    g.append("rect").attr("class", cls).attr("x", px).attr("y", ly - 10).attr("width", 14).attr("height", 10);
    g.append("text").attr("class", "dp-m").attr("x", px + 19).attr("y", ly).text(text);
  });
}

/** Options of {@link drawDpScaling}. */
export interface DpScalingDrawOptions {
  title: string;
  description: string;
  width?: number;
  idPrefix?: string;
}

/** Log–log chart of modeled tokens per second against GPUs, with the ideal line and efficiencies. */
export function drawDpScaling(root: Element, points: DpScalingPoint[], options: DpScalingDrawOptions): void {
  if (points.length < 2) throw new ModelInputError("points", "at least two scaling points are needed");
  const width = options.width ?? 760;
  const height = 380;
  const idPrefix = options.idPrefix ?? "dp-scaling";
  const m = { left: 78, right: 24, top: 16, bottom: 70 };
  const dps = points.map((p) => p.dp);
  const yMin = Math.min(...points.map((p) => p.tokensPerSecond));
  const yMax = Math.max(...points.map((p) => p.idealTokensPerSecond));
  const x = scaleLog().base(2).domain([Math.min(...dps), Math.max(...dps)]).range([m.left, width - m.right]);
  const y = scaleLog().domain([yMin / 1.5, yMax * 1.5]).range([height - m.bottom, m.top]);
  const svg = createSvg(root, width, height, options.title, options.description, idPrefix);
  const g = svg.append("g").attr("class", "dp-t");
  for (const d of dps) {
    g.append("line").attr("class", "dp-grid").attr("x1", x(d)).attr("x2", x(d)).attr("y1", m.top).attr("y2", height - m.bottom);
    g.append("text").attr("class", "dp-m").attr("x", x(d)).attr("y", height - m.bottom + 16).attr("text-anchor", "middle").text(String(d));
  }
  const [y0, y1] = y.domain();
  for (let e = Math.ceil(Math.log10(y0)); e <= Math.floor(Math.log10(y1)); e++) {
    const v = 10 ** e;
    g.append("line").attr("class", "dp-grid").attr("x1", m.left).attr("x2", width - m.right).attr("y1", y(v)).attr("y2", y(v));
    const label = v >= 1e6 ? `${v / 1e6}M` : v >= 1e3 ? `${v / 1e3}k` : String(v);
    g.append("text").attr("class", "dp-m").attr("x", m.left - 8).attr("y", y(v) + 4).attr("text-anchor", "end").text(label);
  }
  g.append("line").attr("class", "dp-ax").attr("x1", m.left).attr("x2", width - m.right).attr("y1", height - m.bottom).attr("y2", height - m.bottom);
  g.append("line").attr("class", "dp-ax").attr("x1", m.left).attr("x2", m.left).attr("y1", m.top).attr("y2", height - m.bottom);
  g.append("text").attr("class", "dp-m").attr("x", (m.left + width - m.right) / 2).attr("y", height - m.bottom + 36)
    .attr("text-anchor", "middle").text("GPUs (data-parallel degree d)");
  g.append("text").attr("class", "dp-m").attr("transform", `translate(16 ${(m.top + height - m.bottom) / 2}) rotate(-90)`)
    .attr("text-anchor", "middle").text("tokens per second");
  const path = (key: "tokensPerSecond" | "idealTokensPerSecond") =>
    points.map((p, i) => `${i === 0 ? "M" : "L"}${x(p.dp).toFixed(1)},${y(p[key]).toFixed(1)}`).join("");
  g.append("path").attr("class", "dp-ideal").attr("d", path("idealTokensPerSecond"));
  g.append("path").attr("class", "dp-line").attr("d", path("tokensPerSecond"));
  for (const p of points) {
    g.append("circle").attr("class", "dp-dot").attr("cx", x(p.dp)).attr("cy", y(p.tokensPerSecond)).attr("r", 4)
      .append("title").text(`d = ${p.dp}, m = ${p.microbatches}: ${(p.tokensPerSecond / 1e6).toFixed(3)}M tokens/s, ${(100 * p.efficiency).toFixed(1)}% of ideal`);
    if (p.dp >= 16) {
      g.append("text").attr("class", "dp-m").attr("x", x(p.dp)).attr("y", y(p.tokensPerSecond) + 18).attr("text-anchor", "middle")
        .text(`${(100 * p.efficiency).toFixed(0)}%`);
    }
  }
  const ly = height - 12;
  g.append("line").attr("class", "dp-ideal").attr("x1", m.left).attr("x2", m.left + 28).attr("y1", ly - 4).attr("y2", ly - 4);
  g.append("text").attr("class", "dp-m").attr("x", m.left + 34).attr("y", ly).text("ideal (d × one GPU)");
  g.append("line").attr("class", "dp-line").attr("x1", m.left + 200).attr("x2", m.left + 228).attr("y1", ly - 4).attr("y2", ly - 4);
  g.append("text").attr("class", "dp-m").attr("x", m.left + 234).attr("y", ly).text("modeled, % = efficiency");
}

/** Settings of the `dp-overlap` widget (and of its static rendering). */
export interface DpOverlapSettings {
  /** Parameters of the model whose bf16 gradients are reduced. */
  parameters: number;
  /** Layers of the model. */
  layers: number;
  /** Forward + backward time of one microbatch, in milliseconds. */
  microbatchMilliseconds: number;
  /** Data-parallel degree d. */
  dp: number;
  /** Bucket capacity in MiB. */
  bucketMebibytes: number;
  /** Bus bandwidth in GB/s (10^9 bytes per second). */
  busBandwidthGBps: number;
  /** Fixed cost per collective in microseconds. */
  latencyMicroseconds: number;
  /** Microbatches per optimizer step. */
  microbatches: number;
  /** Use no_sync for all but the last microbatch. */
  noSync: boolean;
}

/**
 * The widget's default state: Llama 3.1 8B (8,030,261,248 parameters, 32 layers), one microbatch of
 * 4096 tokens at 40% of an H100 SXM's 989.4 TFLOPS dense bf16 peak (modelFlopsPerToken · 4096 /
 * (0.4 · peak), about 533 ms), 64 replicas at 50 GB/s, DDP's 25 MiB buckets, α = 50 µs: the
 * chapter's timelines (a) and (b), to the millisecond.
 */
export const defaultDpOverlapSettings: DpOverlapSettings = (() => {
  const preset = findModelPreset("llama-3.1-8b");
  const gpu = findGpu("h100-sxm");
  if (!preset || !gpu) throw new ModelInputError("preset", "the Llama 3.1 8B preset or the H100 SXM spec is missing");
  const microbatchSeconds = (modelFlopsPerToken(preset.config, 4096).total * 4096) / (0.4 * gpu.bf16FlopsPerSecond);
  return {
    parameters: preset.publishedTotal,
    layers: Number(preset.config.num_hidden_layers),
    microbatchMilliseconds: microbatchSeconds * 1000,
    dp: 64,
    bucketMebibytes: 25,
    busBandwidthGBps: 50,
    latencyMicroseconds: 50,
    microbatches: 1,
    noSync: true,
  };
})();

/** Bounds for each numeric setting: [min, max, integer?]. */
export const dpOverlapBounds: Record<Exclude<keyof DpOverlapSettings, "noSync">, [number, number, boolean]> = {
  parameters: [1e6, 2e12, true],
  layers: [1, 1000, true],
  microbatchMilliseconds: [0.1, 1e6, false],
  dp: [1, 100_000, true],
  bucketMebibytes: [0.25, 100_000, false],
  busBandwidthGBps: [0.1, 10_000, false],
  latencyMicroseconds: [0, 100_000, false],
  microbatches: [1, 64, true],
};

/** Checks one numeric setting; returns the problem in words, or null when it is valid. */
export function dpOverlapSettingProblem(key: keyof typeof dpOverlapBounds, value: unknown): string | null {
  const [min, max, integer] = dpOverlapBounds[key];
  if (typeof value !== "number" || !Number.isFinite(value)) return "Enter a number.";
  if (integer && !Number.isInteger(value)) return "Enter a whole number.";
  if (value < min || value > max) return `Enter a value between ${min} and ${max}.`;
  return null;
}

/** Parses raw YAML settings of `::: widget dp-overlap`; throws ModelInputError naming the field. */
export function parseDpOverlapSettings(raw: unknown): DpOverlapSettings {
  const settings: DpOverlapSettings = { ...defaultDpOverlapSettings };
  if (raw === undefined || raw === null) return settings;
  if (typeof raw !== "object" || Array.isArray(raw)) throw new ModelInputError("settings", "dp-overlap settings must be a mapping");
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (key === "noSync") {
      if (typeof value !== "boolean") throw new ModelInputError("noSync", "noSync must be true or false");
      settings.noSync = value;
    } else if (key in dpOverlapBounds) {
      const k = key as keyof typeof dpOverlapBounds;
      const problem = dpOverlapSettingProblem(k, value);
      if (problem) throw new ModelInputError(k, `${k}: ${problem}`);
      settings[k] = value as number;
    } else {
      throw new ModelInputError(key, `unknown dp-overlap setting "${key}"`);
    }
  }
  dpOverlapInputs(settings);
  return settings;
}

/** The two model inputs the widget draws: the same step without and with overlap. */
export function dpOverlapInputs(s: DpOverlapSettings): { serial: DpTimelineInput; overlapped: DpTimelineInput } {
  const seconds = s.microbatchMilliseconds / 1000;
  const overlapped: DpTimelineInput = {
    gradientBytes: 2 * s.parameters,
    layers: s.layers,
    forwardSeconds: seconds / 3,
    backwardSeconds: (2 * seconds) / 3,
    microbatches: s.microbatches,
    dp: s.dp,
    bucketBytes: s.bucketMebibytes * 2 ** 20,
    busBandwidthBytesPerSecond: s.busBandwidthGBps * 1e9,
    collectiveLatencySeconds: s.latencyMicroseconds * 1e-6,
    overlap: true,
    noSync: s.noSync,
  };
  // Validates (throws ModelInputError naming the field) before anything is drawn.
  bucketCount(overlapped.gradientBytes, overlapped.bucketBytes);
  dataParallelTimeline(overlapped);
  return { serial: { ...overlapped, overlap: false }, overlapped };
}

/** Text summary of a widget state, for the visually hidden live region and the static figure. */
export function summarizeDpOverlap(s: DpOverlapSettings): string {
  const { serial, overlapped } = dpOverlapInputs(s);
  const a = dataParallelTimeline(serial);
  const b = dataParallelTimeline(overlapped);
  const ar = allReduceSeconds(serial.gradientBytes, s.dp, serial.busBandwidthBytesPerSecond, 0);
  return (
    `${(serial.gradientBytes / 1e9).toFixed(2)} GB of gradients in ${b.bucketsPerSync} buckets; ` +
    `one all-reduce moves them in ${formatDuration(ar)} plus ${formatDuration(b.bucketsPerSync * serial.collectiveLatencySeconds)} of per-call cost. ` +
    `Without overlap the step takes ${formatDuration(a.stepSeconds)}, ${formatDuration(a.exposedCommSeconds)} of it waiting; ` +
    `with overlap ${formatDuration(b.stepSeconds)}, ${formatDuration(b.exposedCommSeconds)} waiting` +
    (s.dp > 1 && s.microbatches === 1
      ? ` (the chapter’s exposed-time equation estimates ${formatDuration(exposedEstimateSeconds(overlapped))}: it spreads the buckets evenly over the layers, while the timeline waits for the layer that completes each bucket).`
      : ".")
  );
}

/** Draws the widget's figure: the same step without and with overlap, on one time axis. */
export function renderDpOverlap(root: Element, s: DpOverlapSettings, idPrefix = "dp-overlap", width = 640): void {
  const { serial, overlapped } = dpOverlapInputs(s);
  const a = dataParallelTimeline(serial);
  const b = dataParallelTimeline(overlapped);
  drawDpTimelines(
    root,
    [
      { label: "Without overlap", timeline: a },
      { label: "With overlap", timeline: b },
    ],
    {
      title: "One data-parallel step, without and with overlap",
      description: summarizeDpOverlap(s),
      idPrefix,
      width: Math.max(340, Math.min(760, Math.round(width))),
    },
  );
}

/** Assumptions shared by the chapter's figures (stated in the chapter's captions and text). */
export const chapterAssumptions = {
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
  return { preset, flopsPerToken, effectiveFlopsPerSecond, microbatchSeconds, layers, gradientBytes: 2 * preset.publishedTotal };
}

/** The four timelines of the chapter's figure: no overlap, overlap, m = 4 synchronizing each time, m = 4 with no_sync. */
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
    { label: "(c) m = 4, sync each", timeline: dataParallelTimeline({ ...common, overlap: true, microbatches: 4, noSync: false }) },
    { label: "(d) m = 4, no_sync", timeline: dataParallelTimeline({ ...common, overlap: true, microbatches: 4, noSync: true }) },
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
  const out: Record<string, string> = {};
  const a = doc.createElement("div");
  drawDpTimelines(a, chapterTimelinePanels(), {
    title: "One data-parallel step of Llama 3.1 8B on 64 replicas, four ways",
    description:
      "Four timelines on one time axis, each with a compute row (forward and backward passes) and an all-reduce row. " +
      "(a) Without overlap the all-reduce starts after the backward pass. (b) With overlap most of it runs under the backward pass. " +
      "(c) With four microbatches that each synchronize, the wait is paid four times. (d) With no_sync only the last microbatch communicates.",
    idPrefix: "dp-timelines",
  });
  out["timelines.svg"] = a.innerHTML;
  const b = doc.createElement("div");
  drawDpScaling(b, chapterScalingPoints(), {
    title: "Modeled data-parallel throughput of Llama 3.1 8B at a fixed 4M-token batch",
    description:
      "Tokens per second against GPUs on log-log axes. The ideal line doubles with the GPUs; the modeled line follows it and bends below it as the microbatches per replica fall to one.",
    idPrefix: "dp-scaling",
  });
  out["scaling.svg"] = b.innerHTML;
  return out;
}

/** Controls of the widget, in display order: setting key, label, unit hint. */
export const dpOverlapControls: readonly { key: "busBandwidthGBps" | "bucketMebibytes" | "dp" | "microbatches" | "latencyMicroseconds"; label: string }[] = [
  { key: "busBandwidthGBps", label: "Bus bandwidth, GB/s" },
  { key: "dp", label: "Replicas d" },
  { key: "bucketMebibytes", label: "Bucket size, MiB" },
  { key: "microbatches", label: "Microbatches m" },
  { key: "latencyMicroseconds", label: "Cost per call α, µs" },
];

/**
 * Checks the widget's typed control values against `previous`; returns the new settings or a
 * message per field at fault. Pure, so tests drive it without a browser.
 */
export function validateDpOverlapControls(
  raw: Partial<Record<(typeof dpOverlapControls)[number]["key"], string>>,
  noSync: boolean,
  previous: DpOverlapSettings,
): { ok: true; settings: DpOverlapSettings } | { ok: false; errors: Partial<Record<string, string>> } {
  const next: DpOverlapSettings = { ...previous, noSync };
  const errors: Partial<Record<string, string>> = {};
  for (const { key } of dpOverlapControls) {
    const text = raw[key];
    if (text === undefined) continue;
    const value = readNumber(text);
    const problem = value === null ? (text.trim() === "" ? "Enter a number." : `"${text.trim()}" is not a number.`) : dpOverlapSettingProblem(key, value);
    if (problem) errors[key] = problem;
    else next[key] = value as number;
  }
  if (Object.keys(errors).length === 0) {
    try {
      dpOverlapInputs(next);
    } catch (e) {
      if (e instanceof ModelInputError) {
        errors[e.field === "bucketBytes" ? "bucketMebibytes" : e.field] = "These settings give too many buckets; use larger buckets.";
      } else throw e;
    }
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, settings: next };
}

function parseWidgetSettings(raw: unknown): DpOverlapSettings {
  const obj = settingsObject(raw, [...Object.keys(dpOverlapBounds), "noSync"]);
  try {
    return parseDpOverlapSettings(obj);
  } catch (e) {
    if (e instanceof ModelInputError) throw new WidgetSettingsError(e.field, e.message);
    throw e;
  }
}

/** Draws the widget's controls (disabled until the script loads), figure and readout. */
export function renderDpOverlapStatic(root: Element, settings: DpOverlapSettings): void {
  const doc = root.ownerDocument;
  const idBase = root.getAttribute("id") ?? "dp-overlap";
  const { el } = dom(doc);
  const box = el("div", { class: "dp-overlap" });
  const controls = el("div", { class: "widget-controls" });
  for (const c of dpOverlapControls) {
    const field = el("div", { class: "widget-field" });
    const id = `${idBase}-${c.key}`;
    field.append(
      el("label", { for: id }, c.label),
      el("input", {
        id,
        name: c.key,
        type: "text",
        inputmode: "decimal",
        autocomplete: "off",
        spellcheck: "false",
        size: "7",
        value: String(settings[c.key]),
        "aria-describedby": `${id}-message`,
        disabled: "",
      }),
      el("p", { class: "widget-message", id: `${id}-message`, role: "alert" }),
    );
    controls.append(field);
  }
  const syncField = el("div", { class: "widget-field" });
  const syncLabel = el("label", {});
  const checkbox = el("input", { id: `${idBase}-noSync`, name: "noSync", type: "checkbox", disabled: "" });
  if (settings.noSync) checkbox.setAttribute("checked", "");
  syncLabel.append(checkbox, doc.createTextNode(" no_sync until the last microbatch"));
  syncField.append(syncLabel);
  controls.append(syncField);
  const figure = el("div", { class: "dp-overlap-figure" });
  renderDpOverlap(figure, settings, `${idBase}-svg`);
  const readout = el("p", { class: "dp-overlap-readout" }, summarizeDpOverlap(settings));
  const live = el("p", { class: "visually-hidden", "aria-live": "polite" });
  const note = el("p");
  const small = el(
    "small",
    {},
    `Model: ${(2 * settings.parameters / 1e9).toFixed(2)} GB of bf16 gradients from ${settings.layers} equal layers, ` +
      `${formatDuration(settings.microbatchMilliseconds / 1000)} of compute per microbatch (a third forward, two thirds backward); ` +
      "ring all-reduce time α + 2(d − 1)/d · S / bandwidth per bucket, one bucket at a time. " +
      "Bandwidth: 50 GB/s is one 400 Gb/s NIC per GPU across servers, 450 GB/s is NVLink inside an H100 server.",
  );
  note.append(small);
  box.append(controls, figure, readout, note, live);
  root.append(box);
}

/** The `dp-overlap` widget: a DP step's compute and all-reduce timelines without and with overlap. */
export const dpOverlapWidget = defineWidget<DpOverlapSettings>({
  description: "draws one data-parallel step’s backward pass, gradient buckets and all-reduces without and with overlap",
  parseSettings: parseWidgetSettings,
  renderStatic: renderDpOverlapStatic,
});
