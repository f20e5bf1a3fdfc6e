/**
 * Static figure for the single-GPU chapter: bytes of model state per parameter under the usual
 * precision layouts, one horizontal stacked bar per layout. The numbers come from the caller
 * (tools/figures/one-gpu.ts takes them from src/model); this file only draws, with the kit's `svg()`
 * builder. The axis is d3-axis, which draws into a d3 selection, so d3-selection stays for that call.
 */
import { scaleLinear } from "d3-scale";
import { select } from "d3-selection";
import { axisBottom } from "d3-axis";
import { createStaticSvg } from "./static-figure-style.ts";
import { dom } from "./kit/dom.ts";

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
  const b = dom(root.ownerDocument).svg;
  // d3-axis draws the ticks and needs a d3 selection: the one place this file uses d3-selection.
  const axis = b("g", { class: "axis", transform: `translate(0,${top + layouts.length * rowHeight + 4})` });
  svg.append(axis);
  select(axis).call(
    axisBottom(x)
      .ticks(Math.ceil(maxTotal / 4))
      .tickSizeOuter(0),
  );
  svg.append(
    b(
      "text",
      { class: "muted", x: (left + width - right) / 2, y: height - 6, "text-anchor": "middle" },
      "bytes per parameter",
    ),
  );
  // Legend: one entry per kind of state, in order of first appearance.
  const seen = new Map<StateKind, string>();
  for (const l of layouts) for (const seg of l.segments) if (!seen.has(seg.kind)) seen.set(seg.kind, seg.label);
  const legend = b("g", { "aria-hidden": "true" });
  svg.append(legend);
  let lx = 20;
  for (const [kind, label] of seen) {
    legend.append(b("rect", { class: kind, x: lx, y: 8, width: 12, height: 12 }));
    legend.append(b("text", { x: lx + 17, y: 19 }, label));
    lx += 36 + label.length * 7.4;
  }
  layouts.forEach((layout, i) => {
    const y = top + i * rowHeight;
    const row = b("g", { "aria-hidden": "true" });
    svg.append(row);
    row.append(b("text", { x: left - 10, y: y + 25, "text-anchor": "end" }, layout.label));
    let offset = 0;
    for (const seg of layout.segments) {
      const x0 = x(offset);
      const x1 = x(offset + seg.bytesPerParameter);
      row.append(
        b("rect", { class: seg.kind, x: x0, y: y + 4, width: Math.max(0, x1 - x0 - 1), height: rowHeight - 14 }),
      );
      if (x1 - x0 > 18) {
        row.append(
          b(
            "text",
            {
              class: seg.kind === "master" || seg.kind === "accum" ? "seg-label on-light" : "seg-label",
              x: (x0 + x1) / 2,
              y: y + 24,
              "text-anchor": "middle",
            },
            String(seg.bytesPerParameter),
          ),
        );
      }
      offset += seg.bytesPerParameter;
    }
    row.append(b("text", { x: x(offset) + 8, y: y + 24, "font-weight": "600" }, `${totals[i]} B`));
  });
  return svg;
}
