/**
 * The `pipeline-explorer` figure: the timeline of a pipeline schedule from the model's generator
 * (one row per GPU, one box per operation labelled with its microbatch, idle time shaded), the
 * peak activations in flight per GPU at the end of each row, and a readout of the measured bubble
 * next to the schedule's closed form.
 *
 * Draws with the kit's `svg()` builder into the element it is given (`root.ownerDocument` only), so
 * the build renders the default state under linkedom (JavaScript off, print) and the browser entry
 * redraws with the same code. `setTimelineCursor` dims what has not started yet, for the widget's
 * step-through.
 */
import { child, dom, setAttrs } from "./kit/dom.ts";
import { formatNumber, formatPercent } from "./kit/format.ts";
import { legendLayout } from "./kit/legend.ts";
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
  const kind =
    op.kind === "B" && (s.schedule === "afab" || s.schedule === "1f1b" || s.schedule === "interleaved")
      ? "backward (input and weight gradients)"
      : op.kind === "B"
        ? "backward (input gradient)"
        : kindNames[op.kind];
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

  for (const old of Array.from(host.querySelectorAll("svg.px-timeline"))) old.remove();
  const b = dom(host.ownerDocument).svg;
  const svg = b("svg", {
    class: "px-timeline",
    viewBox: `0 0 ${WIDTH} ${height}`,
    role: "img",
    "aria-label": `Timeline of ${scheduleNames[state.schedule]}: ${result.stages} GPUs, ${result.microbatches} microbatches, bubble ${formatPercent(result.bubbleFraction)} of busy time.`,
    "font-family": FONT,
    "font-size": 12,
    fill: "currentColor",
    style: "width:100%;min-width:600px;height:auto",
  });
  host.append(svg);
  const x = (t: number) => LEFT + t * unit;

  svg.append(
    b(
      "text",
      { class: "px-headline", x: LEFT, y: 16, "font-weight": 600 },
      `Bubble ${formatPercent(result.bubbleFraction)} of busy time · step ${num(result.makespan)} time units`,
    ),
    b("text", { x: WIDTH - 2, y: 16, "text-anchor": "end", "font-size": 11, fill: "var(--c-muted)" }, "peak in flight"),
  );

  const labelEvery = result.stages <= 16 ? 1 : 4;
  for (let stage = 0; stage < result.stages; stage++) {
    const y = top + stage * row;
    if (stage % labelEvery === 0 || stage === result.stages - 1) {
      svg.append(
        b(
          "text",
          { x: LEFT - 6, y: y + row * 0.5 + 4, "text-anchor": "end", "font-size": row >= 18 ? 12 : 10 },
          `GPU ${stage}`,
        ),
      );
    }
    const idle = b("rect", {
      class: "px-idle",
      x: x(0),
      y: y + 1,
      width: plotW,
      height: row - 2,
      fill: "var(--c-bubble)",
      "fill-opacity": 0.3,
    });
    idle.append(
      b("title", {}, `GPU ${stage}: idle ${num(result.idlePerStage[stage])} of ${num(result.makespan)} time units`),
    );
    svg.append(
      idle,
      b(
        "text",
        {
          class: "px-peak",
          x: WIDTH - RIGHT / 2,
          y: y + row * 0.5 + 4,
          "text-anchor": "middle",
          "font-size": row >= 18 ? 12 : 10,
          "font-weight": result.peakInFlight[stage] === Math.max(...result.peakInFlight) ? 700 : 400,
        },
        String(result.peakInFlight[stage]),
      ),
    );
  }

  const ops = b("g", { class: "px-ops" });
  svg.append(ops);
  const labelSize = row >= 18 ? 12 : 10;
  for (const op of result.ops) {
    const y = top + op.stage * row;
    const w = (op.end - op.start) * unit;
    const g = b("g", { class: "px-op", "data-start": op.start, "data-kind": op.kind });
    ops.append(g);
    const box = b("rect", {
      x: x(op.start) + 0.5,
      y: y + 1,
      width: Math.max(0.6, w - 1),
      height: row - 2,
      rx: 2,
      fill: opColors[op.kind],
    });
    box.append(b("title", {}, opDescription(op, view)));
    g.append(box);
    const secondary = secondaryMark && op.kind !== "FB" && op.chunk > 0;
    if (secondary) {
      g.append(
        b("rect", {
          class: "px-secondary",
          x: x(op.start) + 0.5,
          y: y + row - 5,
          width: Math.max(0.6, w - 1),
          height: 4,
          fill: "var(--c-text)",
        }),
      );
    }
    const text = opLabel(op);
    if (w >= text.length * labelSize * 0.62 + 4 && row >= 12) {
      g.append(
        b(
          "text",
          {
            x: x(op.start) + w / 2,
            y: y + row * 0.5 + labelSize * 0.36 - (secondary ? 1.5 : 0),
            "text-anchor": "middle",
            "font-size": labelSize,
            fill: "var(--c-bg)",
            "pointer-events": "none",
          },
          text,
        ),
      );
    }
  }

  // time axis with about eight ticks
  svg.append(
    b("line", {
      x1: x(0),
      x2: x(result.makespan),
      y1: axisY,
      y2: axisY,
      stroke: "currentColor",
      "stroke-opacity": 0.5,
    }),
  );
  const rawStep = result.makespan / 8;
  const mag = 10 ** Math.floor(Math.log10(rawStep));
  const step = [1, 2, 5, 10].map((f) => f * mag).find((s) => s >= rawStep) ?? rawStep;
  for (let t = 0; t <= result.makespan + 1e-9; t += step) {
    svg.append(
      b("text", { x: x(t), y: axisY + 14, "text-anchor": "middle", "font-size": 11, fill: "var(--c-muted)" }, num(t)),
    );
  }
  svg.append(
    b(
      "text",
      { x: x(result.makespan), y: axisY + 27, "text-anchor": "end", "font-size": 11, fill: "var(--c-muted)" },
      "time (units of the durations)",
    ),
  );

  // cursor for the step-through, hidden until used
  svg.append(
    b("line", {
      class: "px-cursor",
      y1: top - 4,
      y2: axisY,
      x1: x(0),
      x2: x(0),
      stroke: "currentColor",
      "stroke-width": 2,
      visibility: "hidden",
    }),
  );

  // legend
  const kinds = Array.from(new Set(result.ops.map((o) => o.kind)));
  const entries: Array<{ label: string; fill: string; kind: "box" | "idle" | "bar" }> = kinds.map((k) => ({
    label:
      k === "B" && !kinds.includes("W")
        ? "backward (full)"
        : k === "B"
          ? "backward (input grad)"
          : k === "F"
            ? "forward"
            : k === "W"
              ? "weight grad"
              : "overlapped F&B",
    fill: opColors[k],
    kind: "box",
  }));
  if (secondaryMark)
    entries.push({
      label: state.schedule === "interleaved" ? "chunk 2+ (bar)" : "second direction (bar)",
      fill: "var(--c-text)",
      kind: "bar",
    });
  entries.push({ label: "idle (bubble)", fill: "var(--c-bubble)", kind: "idle" });
  const slots = legendLayout(entries, {
    left: LEFT,
    right: WIDTH,
    top: legendY,
    lineHeight: 18,
    widthOf: (e) => 26 + e.label.length * 6.3,
  });
  for (const { item: e, x: lx, y: ly } of slots) {
    if (e.kind === "bar") {
      svg.append(
        b("rect", { x: lx, y: ly - 10, width: 12, height: 12, fill: opColors.F }),
        b("rect", { x: lx, y: ly - 2, width: 12, height: 4, fill: e.fill }),
      );
    } else {
      svg.append(
        b("rect", {
          x: lx,
          y: ly - 10,
          width: 12,
          height: 12,
          fill: e.fill,
          "fill-opacity": e.kind === "idle" ? 0.3 : null,
        }),
      );
    }
    svg.append(b("text", { x: lx + 16, y: ly, "font-size": 11.5 }, e.label));
  }
  return svg;
}

/**
 * Step-through: operations that start at or after `time` are dimmed and a cursor marks `time`;
 * `null` shows the whole step. Returns how many operations have started.
 */
export function setTimelineCursor(svgNode: SVGSVGElement, view: PipelineView, time: number | null): number {
  const unit = (WIDTH - LEFT - RIGHT) / view.result.makespan;
  let started = 0;
  for (const op of Array.from(svgNode.querySelectorAll("g.px-op"))) {
    const start = Number(op.getAttribute("data-start"));
    const on = time === null || start < time - 1e-9;
    if (on) started++;
    const want = on ? null : "0.18";
    if (op.getAttribute("opacity") !== want) {
      if (want === null) op.removeAttribute("opacity");
      else op.setAttribute("opacity", want);
    }
  }
  const cursor = svgNode.querySelector("line.px-cursor");
  if (cursor) {
    if (time === null) cursor.setAttribute("visibility", "hidden");
    else setAttrs(cursor, { visibility: "visible", x1: LEFT + time * unit, x2: LEFT + time * unit });
  }
  return started;
}

/** The readout under the chart: measured bubble against the closed form, and peaks in flight. */
function fillPipelineReadout(list: Element, view: PipelineView): void {
  const { el } = dom(list.ownerDocument);
  const { result, bubble, state } = view;
  list.textContent = "";
  const item = (label: string, text: string) => list.append(el("dt", {}, label), el("dd", {}, text));
  item(
    "Bubble, measured",
    `${formatPercent(result.bubbleFraction)} of busy time (idle ÷ busy, summed over GPUs); ${formatPercent(result.bubbleRate)} of the step (idle ÷ total)${bubble.measured.endsWith("%") ? "" : `; ${bubble.measured}`}`,
  );
  item(
    "Closed form",
    `${bubble.closedForm}${bubble.caveat ? ` (${bubble.caveat})` : bubble.agree ? ", as measured" : ""}`,
  );
  const unit =
    state.schedule === "interleaved"
      ? `chunk-microbatches of ${state.chunks === 1 ? "" : `1/${state.chunks} of `}a stage`
      : state.schedule === "dualpipe"
        ? "chunk-microbatches, one stage’s layers each"
        : "microbatches";
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
  readout.setAttribute(
    "style",
    "display:grid;grid-template-columns:fit-content(40%) 1fr;gap:0.2rem 0.8rem;font-size:0.88rem;margin:0.6rem 0 0",
  );
  fillPipelineReadout(readout, view);
  return svg;
}

/** Static rendering: the default state, no controls. */
function renderPipelineStatic(root: Element, settings: PipelineExplorerSettings): void {
  const out = dom(root.ownerDocument).el("div", { class: "px-output" });
  root.append(out);
  renderPipelineOutputs(out, computePipelineView(settings));
}

export const pipelineExplorerWidget = defineWidget<PipelineExplorerSettings>({
  description:
    "lays out a pipeline schedule (AFAB, 1F1B, interleaved, ZB-H1, DualPipe) per GPU with its bubble and activations in flight",
  parseSettings: parsePipelineSettings,
  renderStatic: renderPipelineStatic,
});
