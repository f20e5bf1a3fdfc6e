/**
 * overlap-calculator: per scheme (DP gradient reduction, ZeRO-3 parameter gather, TP all-reduces,
 * PP send), the communication time next to the compute time that could hide it, from
 * src/model's overlapRatios. Assumptions (shown under the chart): 40% of the GPU's dense bf16
 * peak, 50 GB/s bus bandwidth for the data-parallel group and between pipeline stages, and half
 * the GPU's NVLink figure (one direction) for the tensor-parallel group. The settings, validation,
 * times and summary are in src/figures/overlap-calculator-state.ts; this file draws the bars and
 * the table and builds the static widget.
 *
 * Settings (YAML inside `::: widget overlap-calculator`), all optional:
 *   model: llama-3.1-8b   gpu: h100-sxm   tp: 1   pp: 1   dp: 64   zeroStage: 3
 *   microBatchSize: 1     seqLength: 4096
 */
import { GPUS, MODEL_PRESETS, type OverlapRatio, type OverlapRatios } from "../model/index.ts";
import { WidgetSettingsError, defineWidget } from "./widget.ts";
import { dom, figureSvg } from "./kit/dom.ts";
import { numberField, selectField } from "./kit/field.ts";
import { formatSeconds } from "./kit/format.ts";
import {
  DP_BUS_BYTES_PER_SECOND,
  OVERLAP_MFU,
  computeOverlap,
  formatRatio,
  overlapIntegerFields,
  overlapLines,
  overlapRows,
  parseOverlapSettings,
  type OverlapCalculatorSettings,
} from "./overlap-calculator-state.ts";

/** Horizontal bars: communication and compute time per active scheme, on a shared log-free linear scale per row. */
export function renderOverlapChart(container: Element, ratios: OverlapRatios, svgId: string, width = 640): void {
  const doc = container.ownerDocument;
  const active = overlapRows.filter((r) => ratios[r.key]);
  const rowH = 54;
  const left = 10;
  const height = Math.max(40, active.length * rowH + 10);
  const { svg: mk } = dom(doc);
  container.textContent = "";
  const svg = figureSvg(doc, {
    width,
    height,
    idPrefix: svgId,
    title: active.length ? overlapLines(ratios).join(" ") : "No communication: every degree is 1.",
    attrs: { width, height, class: "ovl-svg" },
  });
  svg.append(
    mk("style", {}, ".ovl-svg text{font:12px system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;fill:var(--c-text)}"),
  );
  if (active.length === 0) {
    svg.append(mk("text", { x: left, y: 24 }, "No communication: every degree is 1."));
  }
  const barMax = width - left - 10;
  active.forEach((r, i) => {
    const v = ratios[r.key] as OverlapRatio;
    const scale = barMax / Math.max(v.commSeconds, v.computeSeconds);
    const y = i * rowH + 6;
    svg.append(
      mk(
        "text",
        { x: left, y: y + 10 },
        `${r.label}: ratio ${formatRatio(v.ratio)}, ${v.ratio < 1 ? "can hide" : "exposed"}`,
      ),
    );
    svg.append(
      mk("rect", {
        x: left,
        y: y + 16,
        width: Math.max(1, v.computeSeconds * scale),
        height: 12,
        fill: "var(--c-params)",
        rx: 2,
      }),
    );
    svg.append(
      mk("rect", {
        x: left,
        y: y + 31,
        width: Math.max(1, v.commSeconds * scale),
        height: 12,
        fill: v.ratio < 1 ? "var(--c-comm)" : "var(--c-grads)",
        rx: 2,
      }),
    );
  });
  container.append(svg);
}

/** Fills the table body of results. */
export function fillOverlapTable(tbody: Element, ratios: OverlapRatios): void {
  const { el } = dom(tbody.ownerDocument);
  tbody.textContent = "";
  for (const r of overlapRows) {
    const v = ratios[r.key];
    const cells = v
      ? [
          formatSeconds(v.commSeconds),
          formatSeconds(v.computeSeconds),
          formatRatio(v.ratio),
          v.ratio < 1 ? "can hide" : "exposed",
        ]
      : ["not used", "", "", ""];
    const tr = el("tr");
    tr.append(el("th", { scope: "row" }, r.label), ...cells.map((c) => el("td", {}, c)));
    tbody.append(tr);
  }
}

function renderStatic(root: Element, s: OverlapCalculatorSettings): void {
  const doc = root.ownerDocument;
  const idBase = root.getAttribute("id") ?? "overlap-calculator";
  const { el } = dom(doc);
  const r = computeOverlap(s);
  if (!r.ok) throw new WidgetSettingsError(r.field, r.message);
  const box = el("div", { class: "overlap-calculator" });
  const controls = el("div", { class: "widget-controls" });
  const select = (name: string, label: string, options: (readonly [string, string])[], value: string) =>
    selectField(doc, { idBase, name, label, options, value });
  controls.append(
    select(
      "model",
      "Model",
      MODEL_PRESETS.map((p) => [p.id, p.name]),
      s.model,
    ),
    select(
      "gpu",
      "GPU",
      GPUS.map((g) => [g.id, g.name]),
      s.gpu,
    ),
    select(
      "zeroStage",
      "ZeRO stage",
      [
        ["0", "0 (plain DP)"],
        ["1", "1"],
        ["2", "2"],
        ["3", "3"],
      ],
      String(s.zeroStage),
    ),
  );
  for (const f of overlapIntegerFields) {
    controls.append(numberField(doc, { idBase, name: f.key, label: f.label, value: s[f.key], size: 6 }));
  }
  const chart = el("div", { class: "ovl-figure" });
  renderOverlapChart(chart, r.ratios, `${idBase}-svg`);
  const legend = el(
    "p",
    { class: "ovl-legend" },
    "Blue: compute time that could hide the communication. Teal or orange: communication time (teal when it fits, orange when it does not).",
  );
  const table = el("table", { class: "ovl-table" });
  table.append(el("caption", {}, "Communication against the compute that could hide it"));
  const thead = el("thead");
  const hr = el("tr");
  for (const h of ["Scheme", "Comm.", "Compute", "Ratio", "Verdict"]) hr.append(el("th", { scope: "col" }, h));
  thead.append(hr);
  const tbody = el("tbody");
  fillOverlapTable(tbody, r.ratios);
  table.append(thead, tbody);
  const note = el(
    "p",
    { class: "ovl-note" },
    `Assumes ${OVERLAP_MFU * 100}% of the GPU’s dense bf16 peak, ${DP_BUS_BYTES_PER_SECOND / 1e9} GB/s for data-parallel and pipeline traffic, half the GPU’s NVLink figure (one direction) for tensor parallelism, and sequence parallelism whenever t > 1.`,
  );
  const live = el("p", { class: "visually-hidden", "aria-live": "polite" });
  const scroll = el("div", { class: "table-scroll" });
  scroll.append(table);
  box.append(controls, chart, legend, scroll, note, live);
  root.append(box);
}

export const overlapCalculatorWidget = defineWidget<OverlapCalculatorSettings>({
  description: "communication time against the compute that could hide it, for DP, ZeRO-3, TP and PP",
  parseSettings: parseOverlapSettings,
  renderStatic,
});
