/**
 * Static figure for the single-GPU chapter: bytes of model state per parameter under the usual
 * precision layouts, one horizontal stacked bar per layout. The numbers come from the caller
 * (tools/figures/one-gpu.ts takes them from src/model); this file only draws.
 */
import { scaleLinear } from "d3-scale";
import { select } from "d3-selection";
import { axisBottom } from "d3-axis";
import { createStaticSvg } from "./static-figure-style.ts";

/** What a segment of a bar holds; also its CSS class. */
export type StateKind = "params" | "grads" | "master" | "optim" | "accum";

export interface BytesSegment {
  kind: StateKind;
  /** Short label drawn inside the segment when it is wide enough, e.g. "weights". */
  label: string;
  bytesPerParameter: number;
}

export interface BytesLayout {
  /** Row label, e.g. "bf16 mixed precision". */
  label: string;
  segments: BytesSegment[];
}

const width = 720;
const rowHeight = 46;
const left = 210;
const right = 60;
const top = 44;

/** Draws the bars into `root` and returns the `<svg>`. */
export function drawBytesPerParameter(root: Element, layouts: readonly BytesLayout[]): SVGSVGElement {
  const height = top + layouts.length * rowHeight + 44;
  const totals = layouts.map((l) => l.segments.reduce((sum, s) => sum + s.bytesPerParameter, 0));
  const maxTotal = Math.max(...totals);
  const svg = createStaticSvg(root, {
    id: "bpp",
    width,
    height,
    title: "Bytes of model state per parameter",
    desc: layouts
      .map(
        (l, i) =>
          `${l.label}: ${l.segments.map((s) => `${s.label} ${s.bytesPerParameter}`).join(", ")}; ${totals[i]} bytes in total.`,
      )
      .join(" "),
  });
  const x = scaleLinear()
    .domain([0, Math.ceil(maxTotal / 4) * 4])
    .range([left, width - right]);
  const g = select(svg);
  g.append("g")
    .attr("class", "axis")
    .attr("transform", `translate(0,${top + layouts.length * rowHeight + 4})`)
    .call(axisBottom(x).ticks(Math.ceil(maxTotal / 4)).tickSizeOuter(0));
  g.append("text")
    .attr("class", "muted")
    .attr("x", (left + width - right) / 2)
    .attr("y", height - 6)
    .attr("text-anchor", "middle")
    .text("bytes per parameter");
  // Legend: one entry per kind of state, in order of first appearance.
  const seen = new Map<StateKind, string>();
  for (const l of layouts) for (const seg of l.segments) if (!seen.has(seg.kind)) seen.set(seg.kind, seg.label);
  const legend = g.append("g").attr("aria-hidden", "true");
  let lx = 20;
  for (const [kind, label] of seen) {
    legend.append("rect").attr("class", kind).attr("x", lx).attr("y", 8).attr("width", 12).attr("height", 12);
    legend.append("text").attr("x", lx + 17).attr("y", 19).text(label);
    lx += 36 + label.length * 7.4;
  }
  layouts.forEach((layout, i) => {
    const y = top + i * rowHeight;
    const row = g.append("g").attr("aria-hidden", "true");
    row.append("text").attr("x", left - 10).attr("y", y + 25).attr("text-anchor", "end").text(layout.label);
    let offset = 0;
    for (const seg of layout.segments) {
      const x0 = x(offset);
      const x1 = x(offset + seg.bytesPerParameter);
      row.append("rect")
        .attr("class", seg.kind)
        .attr("x", x0)
        .attr("y", y + 4)
        .attr("width", Math.max(0, x1 - x0 - 1))
        .attr("height", rowHeight - 14);
      if (x1 - x0 > 18) {
        row.append("text")
          .attr("class", seg.kind === "master" || seg.kind === "accum" ? "seg-label on-light" : "seg-label")
          .attr("x", (x0 + x1) / 2)
          .attr("y", y + 24)
          .attr("text-anchor", "middle")
          .text(String(seg.bytesPerParameter));
      }
      offset += seg.bytesPerParameter;
    }
    row.append("text")
      .attr("x", x(offset) + 8)
      .attr("y", y + 24)
      .attr("font-weight", "600")
      .text(`${totals[i]} B`);
  });
  return svg;
}
