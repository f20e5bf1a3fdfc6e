/**
 * overlap-calculator: for one training step, every transfer the step model schedules (the
 * data-parallel and ZeRO collectives, the tensor-parallel collectives of one layer, the pipeline
 * send), its time per call next to the compute it could hide behind, their ratio, and what stays
 * exposed per step under the chosen framework's defaults, all from the engine (evaluateScenario):
 * the GPU generation's kernel efficiency, each group's bandwidth from where its ranks sit. The
 * settings, validation, rows and summary are in src/figures/overlap-calculator-state.ts; this file
 * draws the bars and the table and builds the static widget.
 *
 * Settings (YAML inside `::: widget overlap-calculator`), all optional:
 *   model: llama-3.1-8b   gpu: h100-sxm   framework: fsdp2   tp: 1   pp: 1   dp: 64   cp: 1
 *   zeroStage: 3   microBatchSize: 1   seqLength: 4096   microbatches: 1
 * A `zeroStage` without `framework` takes the framework the configuration search pairs with it.
 */
import { GPUS, MODEL_PRESETS } from "../model/index.ts";
import { WidgetSettingsError, defineWidget } from "./widget.ts";
import { dom, figureSvg } from "./kit/dom.ts";
import { numberField, selectField } from "./kit/field.ts";
import { formatSeconds } from "./kit/format.ts";
import { frameworkOptions } from "./kit/scenario.ts";
import {
  computeOverlap,
  formatRatio,
  overlapIntegerFields,
  overlapLines,
  overlapNote,
  parseOverlapSettings,
  rowVerdict,
  type OverlapCalculatorSettings,
  type OverlapRow,
} from "./overlap-calculator-state.ts";

/** `text` broken at spaces into lines of at most `max` characters. */
function wrap(text: string, max: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > max) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  if (line !== "") lines.push(line);
  return lines;
}

/** Horizontal bars: per transfer, its window (compute that could hide it) over its time per call, on one scale per row. */
export function renderOverlapChart(container: Element, rows: readonly OverlapRow[], svgId: string, width = 640): void {
  const doc = container.ownerDocument;
  const left = 10;
  const lineH = 15;
  const maxChars = Math.max(20, Math.floor((width - 2 * left) / 6.6));
  const labels = rows.map((r) =>
    wrap(
      `${r.label}: ${r.ratio === null ? "no window, exposed" : `R ${formatRatio(r.ratio)}, ${rowVerdict(r)}`}`,
      maxChars,
    ),
  );
  const rowHeights = labels.map((l) => 40 + l.length * lineH);
  const height = Math.max(40, rowHeights.reduce((a, h) => a + h, 0) + 6);
  const { svg: mk } = dom(doc);
  container.textContent = "";
  const svg = figureSvg(doc, {
    width,
    height,
    idPrefix: svgId,
    title: rows.length ? overlapLines(rows).join(" ") : "No communication: every degree is 1.",
    attrs: { width: "100%", class: "ovl-svg" },
  });
  svg.append(
    mk("style", {}, ".ovl-svg text{font:12px system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;fill:var(--c-text)}"),
  );
  if (rows.length === 0) {
    svg.append(mk("text", { x: left, y: 24 }, "No communication: every degree is 1."));
  }
  const barMax = width - left - 10;
  let y = 6;
  rows.forEach((r, i) => {
    const scale = barMax / Math.max(r.commSeconds, r.windowSeconds);
    const hides = r.ratio !== null && r.ratio < 1;
    const lines = labels[i]!;
    lines.forEach((line, k) => svg.append(mk("text", { x: left, y: y + 10 + k * lineH }, line)));
    const top = y + (lines.length - 1) * lineH;
    if (r.windowSeconds > 0)
      svg.append(
        mk("rect", {
          x: left,
          y: top + 16,
          width: Math.max(1, r.windowSeconds * scale),
          height: 12,
          fill: "var(--c-params)",
          rx: 2,
        }),
      );
    svg.append(
      mk("rect", {
        x: left,
        y: top + 31,
        width: Math.max(1, r.commSeconds * scale),
        height: 12,
        fill: hides ? "var(--c-comm)" : "var(--c-grads)",
        rx: 2,
      }),
    );
    y += rowHeights[i]!;
  });
  container.append(svg);
}

/** Fills the table body: one row per transfer. */
export function fillOverlapTable(tbody: Element, rows: readonly OverlapRow[]): void {
  const { el } = dom(tbody.ownerDocument);
  tbody.textContent = "";
  if (rows.length === 0) {
    const tr = el("tr");
    tr.append(el("td", { colspan: 6 }, "No communication: every degree is 1."));
    tbody.append(tr);
    return;
  }
  for (const r of rows) {
    const time = (x: number) => formatSeconds(x).replace(" ", "\u00a0");
    const cells = [
      time(r.commSeconds),
      r.windowSeconds > 0 ? time(r.windowSeconds) : "none",
      r.ratio === null ? "–" : formatRatio(r.ratio),
      time(r.exposedSeconds),
      rowVerdict(r),
    ];
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
  const select = (name: string, label: string, options: readonly (readonly [string, string])[], value: string) =>
    selectField(doc, { idBase, name, label, options, value, message: true });
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
    select("framework", "Framework", frameworkOptions, s.framework),
    select(
      "zeroStage",
      "ZeRO stage",
      [
        ["0", "0 (plain DP)"],
        ["1", "1"],
        ["2", "2"],
        ["3", "3 (FSDP)"],
      ],
      String(s.zeroStage),
    ),
  );
  for (const f of overlapIntegerFields) {
    controls.append(numberField(doc, { idBase, name: f.key, label: f.label, value: s[f.key], size: 6 }));
  }
  const chart = el("div", { class: "ovl-figure" });
  renderOverlapChart(chart, r.rows, `${idBase}-svg`);
  const legend = el(
    "p",
    { class: "ovl-legend" },
    "Blue: the compute a transfer could hide behind (its window). Teal or orange: the transfer's time per call (teal when it fits in the window, orange when it does not).",
  );
  const table = el("table", { class: "ovl-table" });
  table.append(el("caption", {}, "Each transfer against the compute that could hide it"));
  const thead = el("thead");
  const hr = el("tr");
  for (const h of ["Transfer", "Per call", "Window", "R", "Exposed per step", "Verdict"])
    hr.append(el("th", { scope: "col" }, h));
  thead.append(hr);
  const tbody = el("tbody");
  fillOverlapTable(tbody, r.rows);
  table.append(thead, tbody);
  const note = el("p", { class: "ovl-note" }, overlapNote(r));
  const live = el("p", { class: "visually-hidden", "aria-live": "polite" });
  const scroll = el("div", { class: "table-scroll" });
  scroll.append(table);
  const output = el("div", { class: "ovl-output" });
  output.append(chart, legend, scroll, note);
  box.append(controls, output, live);
  root.append(box);
}

export const overlapCalculatorWidget = defineWidget<OverlapCalculatorSettings>({
  description:
    "every transfer of a training step against the compute that could hide it, and what the framework leaves exposed, from the step model",
  parseSettings: parseOverlapSettings,
  renderStatic,
});
