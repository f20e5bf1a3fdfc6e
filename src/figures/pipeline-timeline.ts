/**
 * Static timeline of a pipeline schedule: one row per stage (GPU), one box per operation from the
 * model's schedule generator (`pipelineSchedule` in src/model/pipeline.ts), idle time shaded. Used
 * by tools/figures/pipeline-parallelism.ts to write the pipeline chapter's figures; draws with the
 * kit's `svg()` builder on `root.ownerDocument` only, so it runs under linkedom.
 *
 * Several figures share one time scale (`unitWidth`, pixels per unit of time) so that readers can
 * compare makespans across figures by eye.
 */
import type { PipelineOp, PipelineResult } from "../model/index.ts";
import { createStaticSvg } from "./static-figure-style.ts";
import { formatNumber, formatPercent } from "./kit/format.ts";
import { pipelineOpColors } from "./kit/palette.ts";
import { dom } from "./kit/dom.ts";
import { legendLayout } from "./kit/legend.ts";
import { opLabel } from "./pipeline-explorer.ts";

/** What to draw and how. */
export interface PipelineTimelineInput {
  /** File-unique id prefix for the `<title>`/`<desc>` ids. */
  id: string;
  title: string;
  desc: string;
  result: PipelineResult;
  /** Pixels per unit of time. */
  unitWidth: number;
  /** Width of the whole figure in pixels. */
  width: number;
}

const ROW = 26;
const LEFT = 56;
const TOP = 26;

const fills: Readonly<Record<PipelineOp["kind"], string>> = pipelineOpColors;

const kindNames: Record<PipelineOp["kind"], string> = {
  F: "forward",
  B: "backward",
  W: "weight gradient",
  FB: "forward + backward overlapped",
};

const legendNames: Record<PipelineOp["kind"], string> = {
  F: "forward (F)",
  B: "backward (B)",
  W: "weight grad (W)",
  FB: "overlapped F+B",
};

/** Draws the timeline into `root` and returns the `<svg>`. */
export function drawPipelineTimeline(root: Element, input: PipelineTimelineInput): SVGSVGElement {
  const { result, unitWidth, width } = input;
  const legendY = TOP + result.stages * ROW + 30;
  const height = legendY + 40; // room for a legend wrapped onto two lines
  const svg = createStaticSvg(root, { id: input.id, width, height, title: input.title, desc: input.desc });
  const b = dom(root.ownerDocument).svg;
  const x = (t: number) => LEFT + t * unitWidth;
  const twoDirections = result.schedule === "dualpipe";
  const chunked = result.schedule === "interleaved";

  svg.append(
    b(
      "text",
      { x: LEFT, y: 16 },
      `bubble: ${formatPercent(result.bubbleFraction)} of busy time · step: ${formatNumber(result.makespan, { decimals: 2, trim: true })} units`,
    ),
  );

  for (let stage = 0; stage < result.stages; stage++) {
    const y = TOP + stage * ROW;
    svg.append(b("text", { x: 4, y: y + ROW * 0.65 }, `GPU ${stage}`));
    // the whole step as idle background; operations paint over it
    svg.append(
      b("rect", {
        x: x(0),
        y: y + 2,
        width: result.makespan * unitWidth,
        height: ROW - 4,
        fill: "var(--c-bubble)",
        "fill-opacity": 0.28,
      }),
    );
  }

  for (const op of result.ops) {
    const y = TOP + op.stage * ROW;
    const w = (op.end - op.start) * unitWidth;
    const secondary = (chunked && op.chunk > 0) || (twoDirections && op.chunk === 1 && op.kind !== "FB");
    const rect = b("rect", {
      x: x(op.start) + 0.5,
      y: y + 2,
      width: Math.max(0.5, w - 1),
      height: ROW - 4,
      rx: 2,
      fill: fills[op.kind],
      ...(secondary ? { "fill-opacity": 0.6, stroke: "currentColor", "stroke-width": 0.8 } : {}),
    });
    rect.append(
      b(
        "title",
        {},
        `GPU ${op.stage}: ${kindNames[op.kind]} of microbatch ${opLabel(op)}${chunked ? `, chunk ${op.chunk}` : ""}, t = ${op.start}–${op.end}`,
      ),
    );
    svg.append(rect);
    if (w >= 14) {
      svg.append(
        b(
          "text",
          {
            class: "seg-label",
            x: x(op.start) + w / 2,
            y: y + ROW * 0.65,
            "text-anchor": "middle",
            "font-size": w >= 22 ? 12 : 10,
          },
          opLabel(op),
        ),
      );
    }
  }

  // time axis: a tick every 4 units
  const axisY = TOP + result.stages * ROW + 4;
  svg.append(
    b("line", {
      class: "ref-line",
      x1: x(0),
      x2: x(result.makespan),
      y1: axisY,
      y2: axisY,
      "stroke-dasharray": "none",
    }),
  );
  for (let t = 0; t <= result.makespan + 1e-9; t += 4) {
    svg.append(
      b("text", { class: "muted", x: x(t), y: axisY + 14, "text-anchor": "middle", "font-size": 11 }, String(t)),
    );
  }

  // legend, wrapped onto a second line when it would overflow
  const kinds = Array.from(new Set(result.ops.map((o) => o.kind)));
  const entries: Array<{ label: string; fill: string; secondary?: boolean; idle?: boolean }> = kinds.map((kind) => ({
    label: kind === "B" && !kinds.includes("W") ? "backward (full)" : legendNames[kind],
    fill: fills[kind],
  }));
  if (chunked || twoDirections) {
    entries.push({ label: chunked ? "second chunk" : "second direction", fill: fills.F, secondary: true });
  }
  entries.push({ label: "idle", fill: "var(--c-bubble)", idle: true });
  const slots = legendLayout(entries, {
    left: LEFT,
    right: width,
    top: legendY,
    lineHeight: 18,
    widthOf: (entry) => 28 + entry.label.length * 7,
  });
  for (const { item: entry, x: lx, y: ly } of slots) {
    svg.append(
      b("rect", {
        x: lx,
        y: ly,
        width: 12,
        height: 12,
        fill: entry.fill,
        ...(entry.secondary ? { "fill-opacity": 0.6, stroke: "currentColor", "stroke-width": 0.8 } : {}),
        ...(entry.idle ? { "fill-opacity": 0.28 } : {}),
      }),
      b("text", { x: lx + 16, y: ly + 11 }, entry.label),
    );
  }
  return svg;
}
