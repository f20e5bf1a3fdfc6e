/**
 * The number-formats drawing: one SVG with a row of bits per format (sign, exponent and mantissa
 * coloured, the stored value, error, gap and status beside them), every format's range on a
 * logarithmic line with |x| marked, and the focus format's representable values around |x| on a
 * linear strip. Below 600 CSS px the rows stack their text under the bits.
 *
 * Draws with the kit's `svg()` builder on the element it is given (its ownerDocument), never
 * window/document, so it runs at build time under linkedom and in the browser.
 */
import { numberFormat, valuesPerBinade } from "../../model/index.ts";
import { dom, setAttrs } from "../kit/dom.ts";
import { formatInteger } from "../kit/format.ts";
import { color } from "../kit/palette.ts";
import { formatValue, powerOfTenLabel, powerOfTwoLabel } from "./text.ts";
import type { NumberFormatsView } from "./view.ts";

/** Layout switch: below this width (CSS px) the rows stack value text under the bits. */
const narrowWidth = 600;

/** What each colour marks in this figure, from the book's palette. */
const colors = {
  sign: color.grads,
  exponent: color.params,
  mantissa: color.optim,
  text: color.text,
  muted: color.muted,
  grid: color.border,
  bg: color.bg,
  warn: color.invalid,
  marker: color.grads,
};

/** Appends a `<text>` to `g` and returns it. */
function text(
  g: Element,
  x: number,
  y: number,
  content: string,
  opts: { size?: number; weight?: string; fill?: string; anchor?: string } = {},
): SVGTextElement {
  const t = dom(g.ownerDocument).svg(
    "text",
    {
      x,
      y,
      "font-size": opts.size ?? 12,
      "font-weight": opts.weight ?? "normal",
      "text-anchor": opts.anchor ?? "start",
      style: `fill:${opts.fill ?? colors.text}`,
    },
    content,
  );
  g.append(t);
  return t;
}

/**
 * Draws the view into `root` (replacing any previous drawing) as one SVG of the given width in CSS
 * pixels. Uses only `root.ownerDocument`.
 */
export function drawNumberFormats(root: Element, view: NumberFormatsView, width = 720): SVGSVGElement {
  const doc = root.ownerDocument;
  for (const old of Array.from(root.querySelectorAll("svg.nf-figure"))) old.remove();
  const b = dom(doc).svg;
  const narrow = width < narrowWidth;
  const pad = 8;

  const svg = b("svg", {
    class: "nf-figure",
    style: "max-width:100%;height:auto",
    role: "img",
    "font-family": "system-ui, -apple-system, 'Segoe UI', sans-serif",
    "aria-label": `How ${formatValue(view.value, 12)} is stored in six floating-point formats: bits, stored value, error and range.`,
  });
  root.append(svg);

  let y = 18;
  text(svg, pad, y, `x = ${formatValue(view.value, 12)}`, { size: 15, weight: "600" });
  const legend = [
    ["sign", colors.sign],
    ["exponent", colors.exponent],
    ["mantissa", colors.mantissa],
  ] as const;
  let lx = narrow ? pad : width - 250;
  const ly = narrow ? y + 20 : y - 10;
  for (const [name, fill] of legend) {
    svg.append(b("rect", { x: lx, y: ly, width: 11, height: 11, style: `fill:${fill}` }));
    text(svg, lx + 15, ly + 10, name, { size: 11, fill: colors.muted });
    lx += 22 + name.length * 6.6;
  }
  y = narrow ? y + 44 : y + 20;

  // --- bits rows
  const labelW = narrow ? 0 : 74;
  const cellW = narrow
    ? Math.max(6, Math.floor((width - 2 * pad) / 32))
    : Math.min(13, Math.floor((width - labelW - 230) / 32));
  const cellH = narrow ? 16 : 18;
  const rowH = narrow ? 64 : 38;
  const bitsX = pad + labelW;
  const textX = narrow ? pad : bitsX + 32 * cellW + 12;
  for (const row of view.rows) {
    const g = b("g", { class: "nf-row", "data-format": row.id, transform: `translate(0,${y})` });
    svg.append(g);
    const bitsY = narrow ? 22 : 0;
    if (narrow) {
      text(g, pad, 13, row.label, { size: 13, weight: "600" });
      text(g, pad + 78, 13, `${row.relation} ${row.storedText}`, { size: 13 }).setAttribute("class", "nf-stored");
    } else {
      text(g, pad, 13, row.label, { size: 13, weight: "600" });
    }
    const bits = [
      ...row.fields.sign.split("").map((b) => [b, colors.sign] as const),
      ...row.fields.exponent.split("").map((b) => [b, colors.exponent] as const),
      ...row.fields.mantissa.split("").map((b) => [b, colors.mantissa] as const),
    ];
    bits.forEach(([bit, fill], i) => {
      g.append(
        b("rect", {
          x: bitsX + i * cellW,
          y: bitsY,
          width: cellW - 1,
          height: cellH,
          rx: 1.5,
          style: `fill:${fill};fill-opacity:${bit === "1" ? 1 : 0.22}`,
        }),
      );
      if (cellW >= 9) {
        text(g, bitsX + i * cellW + (cellW - 1) / 2, bitsY + cellH - 4.5, bit, {
          size: Math.min(11, cellW - 2),
          anchor: "middle",
          fill: bit === "1" ? colors.bg : colors.text,
        }).setAttribute("font-family", "ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace");
      }
    });
    for (let i = 0; i < row.paddingBits; i++) {
      g.append(
        b("rect", {
          x: bitsX + (bits.length + i) * cellW + 0.5,
          y: bitsY + 0.5,
          width: cellW - 2,
          height: cellH - 1,
          style: `fill:none;stroke:${colors.muted};stroke-dasharray:2 2`,
        }),
      );
    }
    const detail = `${row.errorText === "exact" ? "exact" : `error ${row.errorText}`} · gap ${row.gapText}${row.status ? ` · ${row.status}` : ""}`;
    if (narrow) {
      text(g, pad, bitsY + cellH + 15, detail, {
        size: 11.5,
        fill: row.status.startsWith("overflow") || row.status.startsWith("underflow") ? colors.warn : colors.muted,
      }).setAttribute("class", "nf-detail");
    } else {
      text(g, textX, 12, `${row.relation} ${row.storedText}`, { size: 13 }).setAttribute("class", "nf-stored");
      text(g, textX, 27, detail, {
        size: 11,
        fill: row.status.startsWith("overflow") || row.status.startsWith("underflow") ? colors.warn : colors.muted,
      }).setAttribute("class", "nf-detail");
    }
    y += rowH;
  }

  // --- range on a log10 axis
  y += 14;
  text(svg, pad, y, narrow ? "Range of each format (log scale)" : "Range of each format (logarithmic: powers of ten)", {
    size: 12.5,
    weight: "600",
  });
  y += 26;
  const axisFrom = -46;
  const axisTo = 40;
  const rangeLabelW = narrow ? 56 : 74;
  const ax0 = pad + rangeLabelW;
  const ax1 = width - pad - 4;
  const sx = (l: number) =>
    ax0 + ((Math.min(Math.max(l, axisFrom), axisTo) - axisFrom) / (axisTo - axisFrom)) * (ax1 - ax0);
  const barH = 10;
  const barGap = 16;
  const rangeTop = y;
  for (const row of view.rows) {
    const g = b("g", { class: "nf-range", "data-format": row.id, transform: `translate(0,${y})` });
    svg.append(g);
    text(g, pad, barH, row.label, { size: 11 });
    g.append(
      b("rect", { x: ax0, y: 0, width: ax1 - ax0, height: barH, style: `fill:${colors.grid};fill-opacity:${0.35}` }),
    );
    const subFrom = numberFormat(row.id).subnormalsSpecified ? row.log10MinSubnormal : row.log10MinNormal;
    g.append(
      b("rect", {
        class: "nf-subnormal",
        x: sx(subFrom),
        y: 0,
        width: Math.max(1, sx(row.log10MinNormal) - sx(subFrom)),
        height: barH,
        style: `fill:${colors.exponent};fill-opacity:${0.35}`,
      }),
    );
    g.append(
      b("rect", {
        class: "nf-normal",
        x: sx(row.log10MinNormal),
        y: 0,
        width: Math.max(1, sx(row.log10Max) - sx(row.log10MinNormal)),
        height: barH,
        style: `fill:${colors.exponent}`,
      }),
    );
    y += barGap;
  }
  const rangeBottom = y - barGap + barH;
  // ticks
  for (let e = -40; e <= 40; e += narrow ? 20 : 10) {
    const x = sx(e);
    svg.append(
      b("line", {
        x1: x,
        x2: x,
        y1: rangeTop - 2,
        y2: rangeBottom + 3,
        style: `stroke:${colors.muted};stroke-width:${0.5};stroke-opacity:${0.6}`,
      }),
    );
    text(svg, x, rangeBottom + 15, powerOfTenLabel(e), { size: 10.5, anchor: "middle", fill: colors.muted });
  }
  if (view.log10Value !== null) {
    const x = sx(view.log10Value);
    svg.append(
      b("line", {
        class: "nf-marker",
        x1: x,
        x2: x,
        y1: rangeTop - 6,
        y2: rangeBottom + 3,
        style: `stroke:${colors.marker};stroke-width:${2}`,
      }),
    );
    text(svg, x, rangeTop - 9, "|x|", { size: 11, anchor: "middle", fill: colors.marker, weight: "600" });
  }
  y = rangeBottom + 34;
  if (narrow) {
    text(svg, pad, y, "faint: subnormal · solid: normal", { size: 10.5, fill: colors.muted });
    y += 14;
    text(svg, pad, y, "grey track: overflow or underflow", { size: 10.5, fill: colors.muted });
  } else {
    text(svg, ax0, y, "faint: subnormal · solid: normal · grey track: overflow or underflow", {
      size: 10.5,
      fill: colors.muted,
    });
  }

  // --- spacing strip for the focus format
  y += 26;
  const s = view.strip;
  text(svg, pad, y, `Representable ${s.label} values near |x|`, { size: 12.5, weight: "600" });
  y += 30;
  const lx0 = pad + 6;
  const lx1 = width - pad - 6;
  const lin = (v: number) => lx0 + ((Math.min(Math.max(v, s.from), s.to) - s.from) / (s.to - s.from)) * (lx1 - lx0);
  svg.append(b("line", { x1: lx0, x2: lx1, y1: y, y2: y, style: `stroke:${colors.muted}` }));
  if (s.to > s.maxFinite) {
    svg.append(
      b("rect", {
        class: "nf-overflow",
        x: lin(s.maxFinite),
        y: y - 12,
        width: Math.max(0, lx1 - lin(s.maxFinite)),
        height: 24,
        style: `fill:${colors.warn};fill-opacity:${0.15}`,
      }),
    );
  }
  if (s.dense) {
    svg.append(
      b("rect", {
        class: "nf-dense",
        x: lx0,
        y: y - 8,
        width: Math.max(0, lin(Math.min(s.to, s.maxFinite)) - lx0),
        height: 16,
        style: `fill:${colors.mantissa};fill-opacity:${0.5}`,
      }),
    );
  } else {
    for (const t of s.ticks) {
      svg.append(
        b("line", {
          class: "nf-tick",
          x1: lin(t),
          x2: lin(t),
          y1: y - 8,
          y2: y + 8,
          style: `stroke:${colors.mantissa};stroke-width:${1.5}`,
        }),
      );
    }
  }
  for (const p of s.binadeEdges) {
    const exp = Math.round(Math.log2(p));
    text(svg, lin(p), y + 24, powerOfTwoLabel(exp), { size: 10.5, anchor: "middle", fill: colors.muted });
    svg.append(b("line", { x1: lin(p), x2: lin(p), y1: y + 8, y2: y + 13, style: `stroke:${colors.muted}` }));
  }
  text(svg, lx0, y + 24, formatValue(s.from, 4), { size: 10.5, anchor: "start", fill: colors.muted });
  text(svg, lx1, y + 24, formatValue(s.to, 4), { size: 10.5, anchor: "end", fill: colors.muted });
  // input (triangle above) and stored value (dot on the line)
  const ix = lin(s.input);
  svg.append(b("path", { class: "nf-input", d: `M${ix},${y - 10} l-5,-8 h10 z`, style: `fill:${colors.marker}` }));
  if (s.stored !== null) {
    svg.append(
      b("circle", {
        class: "nf-stored-dot",
        cx: lin(s.stored),
        cy: y,
        r: 4.5,
        style: `fill:${colors.bg};stroke:${colors.marker};stroke-width:${2}`,
      }),
    );
  }
  y += 44;
  const perBinade = valuesPerBinade(s.id);
  const noteLines = s.dense
    ? [`${s.label} has ${formatInteger(perBinade)} values per power of two here:`, "too dense to draw one by one."]
    : [
        `${s.count} values shown; the gap doubles at each power of two.`,
        `▼ your number, ○ the value ${s.label} stores.`,
      ];
  if (narrow) {
    const note = text(svg, pad, y, "", { size: 11, fill: colors.muted });
    note.setAttribute("class", "nf-strip-note");
    noteLines.forEach((line, i) => note.append(b("tspan", { x: pad, dy: i === 0 ? 0 : 14 }, line)));
    y += 14 * (noteLines.length - 1) + 10;
  } else {
    text(svg, pad, y, noteLines.join(" "), { size: 11, fill: colors.muted }).setAttribute("class", "nf-strip-note");
    y += 10;
  }

  setAttrs(svg, { viewBox: `0 0 ${width} ${y}`, width, height: y });
  return svg;
}
