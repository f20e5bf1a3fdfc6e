/**
 * Drawing code for data-parallel step timelines and the DP scaling chart.
 *
 * What it is for: the data-parallelism chapter's static figures (rendered at build time under
 * linkedom, see dp-overlap.ts) and the `dp-overlap` widget (rendered in the browser) draw with the
 * same functions, so the picture a reader sees with JavaScript off is the picture the widget draws.
 * Every number comes from `src/model/dp-overlap.ts`; this file only places boxes and labels. It
 * never touches the `window`/`document` globals: it draws into the element it is given.
 */
import { scaleLinear, scaleLog } from "d3-scale";
import {
  allReduceSeconds,
  bucketCount,
  ModelInputError,
  type DpScalingPoint,
  type DpTimeline,
  type DpTimelineInput,
} from "../model/index.ts";
import { dom, figureSvg } from "./kit/dom.ts";
import { colorWithFallback, type PaletteName } from "./kit/palette.ts";
import { formatDuration, formatInteger, formatNumber, formatPercent } from "./kit/format.ts";
import { legendLayout } from "./kit/legend.ts";

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
 * The chapter's estimate of the exposed tail (eq:exposed in 03-data-parallelism.md):
 * max(t_AR / min(n_b, L), t_AR − t_b + t_b / L), with t_AR the whole gradient's all-reduce
 * including the per-call cost of every bucket. It spreads the buckets evenly over the layers;
 * the timeline rounds each bucket up to the layer that completes it, so the two differ a little.
 */
export function exposedEstimateSeconds(input: DpTimelineInput): number {
  const buckets = bucketCount(input.gradientBytes, input.bucketBytes);
  const tAR =
    allReduceSeconds(input.gradientBytes, input.dp, input.busBandwidthBytesPerSecond, 0) +
    buckets * input.collectiveLatencySeconds;
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
.dp-line-alt{stroke-dasharray:7 4;stroke-width:2}
.dp-dot{fill:${v("comm")}}
@media (prefers-color-scheme:dark){.dp-t{fill:${colorWithFallback("text", "dark")}}.dp-m{fill:${colorWithFallback("muted", "dark")}}}
`;

function createSvg(root: Element, width: number, height: number, title: string, description: string, idPrefix: string) {
  const doc = root.ownerDocument;
  const svg = figureSvg(doc, { idPrefix, width, height, title, desc: description, attrs: { width, height } });
  svg.append(dom(doc).svg("style", {}, STYLE));
  root.append(svg);
  return svg;
}

/** `e` with a `<title>` child (its tooltip). */
function withTitle<E extends SVGElement>(e: E, title: string): E {
  e.append(dom(e.ownerDocument).svg("title", {}, title));
  return e;
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
  const legend: [string, string][] = [
    ["dp-f", "forward"],
    ["dp-b", "backward"],
    ["dp-c", "all-reduce (buckets)"],
    ["dp-x", "compute waiting"],
  ];
  const legendSlots = legendLayout(legend, {
    left,
    right: width,
    top: 0,
    lineHeight: 18,
    widthOf: ([, text]) => 30 + text.length * 6.6,
  });
  const legendHeight = 22 + 18 * (legendSlots.at(-1)?.line ?? 0);
  const height = top + panels.length * panelHeight + axisHeight + legendHeight;
  const maxSeconds = options.maxSeconds ?? Math.max(...panels.map((p) => p.timeline.stepSeconds));
  const x = scaleLinear()
    .domain([0, maxSeconds])
    .range([left, width - right]);
  const b = dom(root.ownerDocument).svg;
  const svg = createSvg(root, width, height, options.title, options.description, idPrefix);
  const g = b("g", { class: "dp-t" });
  svg.append(g);
  const step = niceStepSeconds(maxSeconds, Math.max(3, Math.min(6, Math.floor((width - left - right) / 90))));
  const axisY = top + panels.length * panelHeight + 4;
  for (let v = 0; v <= maxSeconds + 1e-12; v += step) {
    g.append(b("line", { class: "dp-grid", x1: x(v), x2: x(v), y1: top, y2: axisY }));
    g.append(
      b(
        "text",
        { class: "dp-m", x: x(v), y: axisY + 14, "text-anchor": "middle" },
        maxSeconds < 1 ? `${formatInteger(v * 1000)} ms` : `${formatNumber(v, { decimals: 2, trim: true })} s`,
      ),
    );
  }
  g.append(b("line", { class: "dp-ax", x1: left, x2: width - right, y1: axisY, y2: axisY }));
  g.append(
    b(
      "text",
      { class: "dp-m", x: (left + width - right) / 2, y: axisY + 29, "text-anchor": "middle" },
      "time since the step began",
    ),
  );
  const pxPerSecond = (width - right - left) / maxSeconds;
  panels.forEach((panel, i) => {
    const y0 = top + i * panelHeight;
    const tl = panel.timeline;
    g.append(b("text", { class: "dp-h", x: 0, y: y0 + 14 }, panel.label));
    g.append(
      b(
        "text",
        { class: "dp-m", x: width - right, y: y0 + 14, "text-anchor": "end" },
        `step ${formatDuration(tl.stepSeconds)}, exposed ${formatDuration(tl.exposedCommSeconds)}`,
      ),
    );
    const computeY = y0 + 20;
    const commY = computeY + laneHeight;
    g.append(b("text", { class: "dp-m", x: 0, y: computeY + 14 }, "compute"));
    g.append(b("text", { class: "dp-m", x: 0, y: commY + 14 }, "all-reduce"));
    for (const s of tl.segments.filter((seg) => seg.lane === "compute")) {
      g.append(
        withTitle(
          b("rect", {
            class: s.kind === "forward" ? "dp-f" : "dp-b",
            x: x(s.startSeconds),
            y: computeY + 2,
            width: Math.max(0.5, x(s.endSeconds) - x(s.startSeconds) - 0.5),
            height: laneHeight - 4,
          }),
          `${s.kind} of microbatch ${s.microbatch + 1}: ${formatDuration(s.endSeconds - s.startSeconds)}`,
        ),
      );
    }
    const comm = tl.segments.filter((seg) => seg.lane === "comm");
    for (const run of mergeRuns(comm, 0.75 / pxPerSecond)) {
      g.append(
        withTitle(
          b("rect", {
            class: "dp-c",
            x: x(run.start),
            y: commY + 2,
            width: Math.max(0.75, x(run.end) - x(run.start)),
            height: laneHeight - 4,
          }),
          `all-reduce busy from ${formatDuration(run.start)} to ${formatDuration(run.end)}`,
        ),
      );
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
      g.append(
        withTitle(
          b("rect", {
            class: "dp-x",
            x: x(w.start),
            y: computeY + 2,
            width: x(w.end) - x(w.start),
            height: laneHeight - 4,
          }),
          `compute waits ${formatDuration(w.end - w.start)} for communication`,
        ),
      );
    }
  });
  const legendTop = axisY + axisHeight + 10;
  for (const { item, x: px, y } of legendSlots) {
    const [cls, text] = item;
    const ly = legendTop + y;
    g.append(b("rect", { class: cls, x: px, y: ly - 10, width: 14, height: 10 }));
    g.append(b("text", { class: "dp-m", x: px + 19, y: ly }, text));
  }
}

/** Options of {@link drawDpScaling}. */
export interface DpScalingDrawOptions {
  title: string;
  description: string;
  width?: number;
  idPrefix?: string;
}

/** One modeled line of {@link drawDpScaling}: its points and a short label for the legend. */
export interface DpScalingSeries {
  label: string;
  points: DpScalingPoint[];
}

/**
 * Log–log chart of modeled tokens per second against GPUs, with the ideal line (from the first
 * series; every series shares the compute rate, so their ideals coincide) and each modeled line
 * with its efficiencies. The first series is drawn solid, the others dashed, each labelled with
 * its efficiency from 16 GPUs on (above the line for the first, below it for the others).
 */
export function drawDpScaling(root: Element, series: DpScalingSeries[], options: DpScalingDrawOptions): void {
  const first = series[0];
  if (!first || series.some((s) => s.points.length < 2))
    throw new ModelInputError("points", "at least one series of two or more scaling points is needed");
  const width = options.width ?? 760;
  const idPrefix = options.idPrefix ?? "dp-scaling";
  // Legend: the ideal, then one entry per series, in rows that fit the width; the chart grows to hold them.
  const legendLeft = 78;
  const items: [string, string][] = [
    ["dp-ideal", "ideal (d × one GPU)"],
    ...series.map((s, k): [string, string] => [
      k === 0 ? "dp-line" : "dp-line dp-line-alt",
      `${s.label} (% = efficiency)`,
    ]),
  ];
  const slots = legendLayout(items, {
    left: legendLeft,
    right: width - 24,
    top: 0,
    lineHeight: 16,
    widthOf: ([, text]) => 44 + text.length * 6.6,
  });
  const legendLines = (slots.at(-1)?.line ?? 0) + 1;
  const m = { left: legendLeft, right: 24, top: 16, bottom: 58 + 16 * legendLines };
  const height = 310 + m.bottom;
  const dps = first.points.map((p) => p.dp);
  const all = series.flatMap((s) => s.points);
  const yMin = Math.min(...all.map((p) => p.tokensPerSecond));
  const yMax = Math.max(...all.map((p) => p.idealTokensPerSecond));
  const x = scaleLog()
    .base(2)
    .domain([Math.min(...dps), Math.max(...dps)])
    .range([m.left, width - m.right]);
  const y = scaleLog()
    .domain([yMin / 1.5, yMax * 1.5])
    .range([height - m.bottom, m.top]);
  const b = dom(root.ownerDocument).svg;
  const svg = createSvg(root, width, height, options.title, options.description, idPrefix);
  const g = b("g", { class: "dp-t" });
  svg.append(g);
  for (const d of dps) {
    g.append(b("line", { class: "dp-grid", x1: x(d), x2: x(d), y1: m.top, y2: height - m.bottom }));
    g.append(b("text", { class: "dp-m", x: x(d), y: height - m.bottom + 16, "text-anchor": "middle" }, String(d)));
  }
  const [y0, y1] = y.domain();
  for (let e = Math.ceil(Math.log10(y0)); e <= Math.floor(Math.log10(y1)); e++) {
    const v = 10 ** e;
    g.append(b("line", { class: "dp-grid", x1: m.left, x2: width - m.right, y1: y(v), y2: y(v) }));
    const label = v >= 1e6 ? `${v / 1e6}M` : v >= 1e3 ? `${v / 1e3}k` : String(v);
    g.append(b("text", { class: "dp-m", x: m.left - 8, y: y(v) + 4, "text-anchor": "end" }, label));
  }
  g.append(
    b("line", { class: "dp-ax", x1: m.left, x2: width - m.right, y1: height - m.bottom, y2: height - m.bottom }),
  );
  g.append(b("line", { class: "dp-ax", x1: m.left, x2: m.left, y1: m.top, y2: height - m.bottom }));
  g.append(
    b(
      "text",
      { class: "dp-m", x: (m.left + width - m.right) / 2, y: height - m.bottom + 36, "text-anchor": "middle" },
      "GPUs (data-parallel degree d)",
    ),
  );
  g.append(
    b(
      "text",
      {
        class: "dp-m",
        transform: `translate(16 ${(m.top + height - m.bottom) / 2}) rotate(-90)`,
        "text-anchor": "middle",
      },
      "tokens per second",
    ),
  );
  const path = (points: DpScalingPoint[], key: "tokensPerSecond" | "idealTokensPerSecond") =>
    points.map((p, i) => `${i === 0 ? "M" : "L"}${x(p.dp).toFixed(1)},${y(p[key]).toFixed(1)}`).join("");
  g.append(b("path", { class: "dp-ideal", d: path(first.points, "idealTokensPerSecond") }));
  series.forEach((s, k) => {
    const cls = k === 0 ? "dp-line" : "dp-line dp-line-alt";
    g.append(b("path", { class: cls, d: path(s.points, "tokensPerSecond") }));
    for (const p of s.points) {
      g.append(
        withTitle(
          b("circle", { class: "dp-dot", cx: x(p.dp), cy: y(p.tokensPerSecond), r: k === 0 ? 4 : 3.5 }),
          `${s.label}, d = ${p.dp}, m = ${p.microbatches}: ${formatNumber(p.tokensPerSecond / 1e6, { decimals: 3 })}M tokens/s, ${formatPercent(p.efficiency)} of ideal`,
        ),
      );
      if (p.dp >= 16) {
        g.append(
          b(
            "text",
            { class: "dp-m", x: x(p.dp), y: y(p.tokensPerSecond) + (k === 0 ? -10 : 18), "text-anchor": "middle" },
            formatPercent(p.efficiency, 0),
          ),
        );
      }
    }
  });
  const legendTop = height - m.bottom + 58;
  for (const { item, x: px, y: py } of slots) {
    const [cls, text] = item;
    const ly = legendTop + py;
    g.append(b("line", { class: cls, x1: px, x2: px + 28, y1: ly - 4, y2: ly - 4 }));
    g.append(b("text", { class: "dp-m", x: px + 34, y: ly }, text));
  }
}
