/**
 * The `pipeline-explorer` figure: the timeline of a pipeline schedule from the model's generator
 * (one row per GPU, one box per operation labelled with its microbatch, idle time shaded), the
 * peak activations in flight per GPU at the end of each row, and a readout of the measured bubble
 * next to the schedule's closed form.
 *
 * Draws with d3 into the element it is given, creating nodes with `root.ownerDocument` only, so
 * the build renders the default state under linkedom (JavaScript off, print) and the browser entry
 * redraws with the same code. `setTimelineCursor` dims what has not started yet, for the widget's
 * step-through.
 */
import { select } from "d3-selection";
import { child } from "./kit/dom.ts";
import { formatNumber, formatPercent } from "./kit/format.ts";
import type { PipelineOp } from "../model/index.ts";
import {
  computePipelineView,
  parsePipelineSettings,
  scheduleNames,
  type PipelineExplorerSettings,
  type PipelineView,
} from "./pipeline-explorer-state.ts";
import { defineWidget } from "./widget.ts";
import { pipelineOpColors } from "./kit/palette.ts";

const WIDTH = 720;
const LEFT = 52;
const RIGHT = 58;
const FONT = "system-ui, -apple-system, 'Segoe UI', sans-serif";

/** Operation colors, from the palette. */
const opColors: Readonly<Record<PipelineOp["kind"], string>> = pipelineOpColors;

const kindNames: Record<PipelineOp["kind"], string> = {
  F: "forward",
  B: "backward",
  W: "weight gradient",
  FB: "overlapped forward and backward",
};

/** The label printed in a box: the microbatch counted from 1 ("forward/backward" for FB). */
export function opLabel(op: PipelineOp): string {
  if (op.kind === "FB") return `${op.microbatch + 1}/${(op.backwardMicrobatch ?? 0) + 1}`;
  return String(op.microbatch + 1);
}

const num = (x: number) => formatNumber(x);

/** What a box's tooltip says. */
function opDescription(op: PipelineOp, view: PipelineView): string {
  const s = view.state;
  const where =
    s.schedule === "interleaved"
      ? `, chunk ${op.chunk + 1} of ${s.chunks}`
      : s.schedule === "dualpipe"
        ? op.kind === "FB"
          ? `, forward of direction ${op.chunk + 1}, backward of direction ${(op.backwardChunk ?? 0) + 1}`
          : `, direction ${op.chunk + 1}`
        : "";
  const kind = op.kind === "B" && (s.schedule === "afab" || s.schedule === "1f1b" || s.schedule === "interleaved") ? "backward (input and weight gradients)" : op.kind === "B" ? "backward (input gradient)" : kindNames[op.kind];
  return `GPU ${op.stage}: ${kind} of microbatch ${opLabel(op)}${where}, time ${num(op.start)} to ${num(op.end)}`;
}

/** Row height: roomy for a few GPUs, compact for many. */
function rowHeight(stages: number): number {
  return stages <= 8 ? 26 : stages <= 16 ? 18 : 12;
}

/** Draws the timeline into `host`, replacing a previous one. */
function drawPipelineExplorer(host: Element, view: PipelineView): SVGSVGElement {
  const { result, state } = view;
  const row = rowHeight(result.stages);
  const top = 30;
  const plotW = WIDTH - LEFT - RIGHT;
  const unit = plotW / result.makespan;
  const axisY = top + result.stages * row + 4;
  const legendY = axisY + 46;
  const secondaryMark = state.schedule === "interleaved" || state.schedule === "dualpipe";
  const legendRows = state.schedule === "dualpipe" ? 2 : 1;
  const height = legendY + 10 + legendRows * 18;

  const container = select(host);
  container.selectAll("svg.px-timeline").remove();
  const svg = container
    .append("svg")
    .attr("class", "px-timeline")
    .attr("viewBox", `0 0 ${WIDTH} ${height}`)
    .attr("role", "img")
    .attr("aria-label", `Timeline of ${scheduleNames[state.schedule]}: ${result.stages} GPUs, ${result.microbatches} microbatches, bubble ${formatPercent(result.bubbleFraction)} of busy time.`)
    .attr("font-family", FONT)
    .attr("font-size", 12)
    .attr("fill", "currentColor")
    .style("width", "100%")
    .style("min-width", "600px")
    .style("height", "auto");
  const x = (t: number) => LEFT + t * unit;

  svg
    .append("text")
    .attr("class", "px-headline")
    .attr("x", LEFT)
    .attr("y", 16)
    .attr("font-weight", 600)
    .text(`Bubble ${formatPercent(result.bubbleFraction)} of busy time · step ${num(result.makespan)} time units`);
  svg.append("text").attr("x", WIDTH - 2).attr("y", 16).attr("text-anchor", "end").attr("font-size", 11).attr("fill", "var(--c-muted)").text("peak in flight");

  const labelEvery = result.stages <= 16 ? 1 : 4;
  for (let stage = 0; stage < result.stages; stage++) {
    const y = top + stage * row;
    if (stage % labelEvery === 0 || stage === result.stages - 1) {
      svg
        .append("text")
        .attr("x", LEFT - 6)
        .attr("y", y + row * 0.5 + 4)
        .attr("text-anchor", "end")
        .attr("font-size", row >= 18 ? 12 : 10)
        .text(`GPU ${stage}`);
    }
    svg
      .append("rect")
      .attr("class", "px-idle")
      .attr("x", x(0))
      .attr("y", y + 1)
      .attr("width", plotW)
      .attr("height", row - 2)
      .attr("fill", "var(--c-bubble)")
      .attr("fill-opacity", 0.3)
      .append("title")
      .text(`GPU ${stage}: idle ${num(result.idlePerStage[stage])} of ${num(result.makespan)} time units`);
    svg
      .append("text")
      .attr("class", "px-peak")
      .attr("x", WIDTH - RIGHT / 2)
      .attr("y", y + row * 0.5 + 4)
      .attr("text-anchor", "middle")
      .attr("font-size", row >= 18 ? 12 : 10)
      .attr("font-weight", result.peakInFlight[stage] === Math.max(...result.peakInFlight) ? 700 : 400)
      .text(String(result.peakInFlight[stage]));
  }

  const ops = svg.append("g").attr("class", "px-ops");
  const labelSize = row >= 18 ? 12 : 10;
  for (const op of result.ops) {
    const y = top + op.stage * row;
    const w = (op.end - op.start) * unit;
    const g = ops.append("g").attr("class", "px-op").attr("data-start", op.start).attr("data-kind", op.kind);
    g.append("rect")
      .attr("x", x(op.start) + 0.5)
      .attr("y", y + 1)
      .attr("width", Math.max(0.6, w - 1))
      .attr("height", row - 2)
      .attr("rx", 2)
      .attr("fill", opColors[op.kind])
      .append("title")
      .text(opDescription(op, view));
    const secondary = secondaryMark && op.kind !== "FB" && op.chunk > 0;
    if (secondary) {
      g.append("rect")
        .attr("class", "px-secondary")
        .attr("x", x(op.start) + 0.5)
        .attr("y", y + row - 5)
        .attr("width", Math.max(0.6, w - 1))
        .attr("height", 4)
        .attr("fill", "var(--c-text)");
    }
    const text = opLabel(op);
    if (w >= text.length * labelSize * 0.62 + 4 && row >= 12) {
      g.append("text")
        .attr("x", x(op.start) + w / 2)
        .attr("y", y + row * 0.5 + labelSize * 0.36 - (secondary ? 1.5 : 0))
        .attr("text-anchor", "middle")
        .attr("font-size", labelSize)
        .attr("fill", "var(--c-bg)")
        .attr("pointer-events", "none")
        .text(text);
    }
  }

  // time axis with about eight ticks
  svg.append("line").attr("x1", x(0)).attr("x2", x(result.makespan)).attr("y1", axisY).attr("y2", axisY).attr("stroke", "currentColor").attr("stroke-opacity", 0.5);
  const rawStep = result.makespan / 8;
  const mag = 10 ** Math.floor(Math.log10(rawStep));
  const step = [1, 2, 5, 10].map((f) => f * mag).find((s) => s >= rawStep) ?? rawStep;
  for (let t = 0; t <= result.makespan + 1e-9; t += step) {
    svg.append("text").attr("x", x(t)).attr("y", axisY + 14).attr("text-anchor", "middle").attr("font-size", 11).attr("fill", "var(--c-muted)").text(num(t));
  }
  svg.append("text").attr("x", x(result.makespan)).attr("y", axisY + 27).attr("text-anchor", "end").attr("font-size", 11).attr("fill", "var(--c-muted)").text("time (units of the durations)");

  // cursor for the step-through, hidden until used
  svg.append("line").attr("class", "px-cursor").attr("y1", top - 4).attr("y2", axisY).attr("x1", x(0)).attr("x2", x(0)).attr("stroke", "currentColor").attr("stroke-width", 2).attr("visibility", "hidden");

  // legend
  const kinds = Array.from(new Set(result.ops.map((o) => o.kind)));
  const entries: Array<{ label: string; fill: string; kind: "box" | "idle" | "bar" }> = kinds.map((k) => ({
    label: k === "B" && !kinds.includes("W") ? "backward (full)" : k === "B" ? "backward (input grad)" : k === "F" ? "forward" : k === "W" ? "weight grad" : "overlapped F&B",
    fill: opColors[k],
    kind: "box",
  }));
  if (secondaryMark) entries.push({ label: state.schedule === "interleaved" ? "chunk 2+ (bar)" : "second direction (bar)", fill: "var(--c-text)", kind: "bar" });
  entries.push({ label: "idle (bubble)", fill: "var(--c-bubble)", kind: "idle" });
  let lx = LEFT;
  let ly = legendY;
  for (const e of entries) {
    const itemWidth = 26 + e.label.length * 6.3;
    if (lx + itemWidth > WIDTH && lx > LEFT) {
      lx = LEFT;
      ly += 18;
    }
    const legendY = ly;
    if (e.kind === "bar") {
      svg.append("rect").attr("x", lx).attr("y", legendY - 10).attr("width", 12).attr("height", 12).attr("fill", opColors.F);
      svg.append("rect").attr("x", lx).attr("y", legendY - 2).attr("width", 12).attr("height", 4).attr("fill", e.fill);
    } else {
      const r = svg.append("rect").attr("x", lx).attr("y", legendY - 10).attr("width", 12).attr("height", 12).attr("fill", e.fill);
      if (e.kind === "idle") r.attr("fill-opacity", 0.3);
    }
    svg.append("text").attr("x", lx + 16).attr("y", legendY).attr("font-size", 11.5).text(e.label);
    lx += itemWidth;
  }
  return svg.node()!;
}

/**
 * Step-through: operations that start at or after `time` are dimmed and a cursor marks `time`;
 * `null` shows the whole step. Returns how many operations have started.
 */
export function setTimelineCursor(svgNode: SVGSVGElement, view: PipelineView, time: number | null): number {
  const svg = select(svgNode);
  const unit = (WIDTH - LEFT - RIGHT) / view.result.makespan;
  let started = 0;
  svg.selectAll<SVGGElement, unknown>("g.px-op").each(function () {
    const start = Number(this.getAttribute("data-start"));
    const on = time === null || start < time - 1e-9;
    if (on) started++;
    const want = on ? null : "0.18";
    if (this.getAttribute("opacity") !== want) {
      if (want === null) this.removeAttribute("opacity");
      else this.setAttribute("opacity", want);
    }
  });
  const cursor = svg.select("line.px-cursor");
  if (time === null) cursor.attr("visibility", "hidden");
  else cursor.attr("visibility", "visible").attr("x1", LEFT + time * unit).attr("x2", LEFT + time * unit);
  return started;
}

/** The readout under the chart: measured bubble against the closed form, and peaks in flight. */
function fillPipelineReadout(list: Element, view: PipelineView): void {
  const doc = list.ownerDocument;
  const { result, bubble, state } = view;
  list.textContent = "";
  const item = (label: string, text: string) => {
    const dt = doc.createElement("dt");
    dt.textContent = label;
    const dd = doc.createElement("dd");
    dd.textContent = text;
    list.append(dt, dd);
  };
  item("Bubble, measured", `${formatPercent(result.bubbleFraction)} of busy time (idle ÷ busy, summed over GPUs); ${formatPercent(result.bubbleRate)} of the step (idle ÷ total)${bubble.measured.endsWith("%") ? "" : `; ${bubble.measured}`}`);
  item("Closed form", `${bubble.closedForm}${bubble.caveat ? ` (${bubble.caveat})` : bubble.agree ? ", as measured" : ""}`);
  const unit = state.schedule === "interleaved" ? `chunk-microbatches of ${state.chunks === 1 ? "" : `1/${state.chunks} of `}a stage` : state.schedule === "dualpipe" ? "chunk-microbatches, one stage’s layers each" : "microbatches";
  item("Peak activations in flight", `${result.peakInFlight.map((v, i) => `GPU ${i}: ${v}`).join(", ")} (${unit})`);
}

/** Draws or redraws the chart and the readout into `out` (elements reused). */
export function renderPipelineOutputs(out: Element, view: PipelineView): SVGSVGElement {
  // On a phone the timeline keeps a legible size and scrolls sideways inside its own box; a hint
  // (shown on narrow screens only) and an edge shadow say so.
  const hint = child(out, "p", "widget-scroll-hint");
  hint.textContent = "The timeline is wider than the screen: scroll it sideways to see the whole step →";
  const chart = child(out, "div", "px-chart");
  chart.setAttribute("class", "px-chart widget-scroll");
  chart.setAttribute("tabindex", "0");
  chart.setAttribute("role", "group");
  chart.setAttribute("aria-label", "Pipeline timeline (scrolls sideways on narrow screens)");
  const svg = drawPipelineExplorer(chart, view);
  const readout = child(out, "dl", "px-readout");
  readout.setAttribute("style", "display:grid;grid-template-columns:fit-content(40%) 1fr;gap:0.2rem 0.8rem;font-size:0.88rem;margin:0.6rem 0 0");
  fillPipelineReadout(readout, view);
  return svg;
}

/** Static rendering: the default state, no controls. */
function renderPipelineStatic(root: Element, settings: PipelineExplorerSettings): void {
  const out = root.ownerDocument.createElement("div");
  out.setAttribute("class", "px-output");
  root.append(out);
  renderPipelineOutputs(out, computePipelineView(settings));
}

export const pipelineExplorerWidget = defineWidget<PipelineExplorerSettings>({
  description: "lays out a pipeline schedule (AFAB, 1F1B, interleaved, ZB-H1, DualPipe) per GPU with its bubble and activations in flight",
  parseSettings: parsePipelineSettings,
  renderStatic: renderPipelineStatic,
});
