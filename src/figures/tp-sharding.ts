/**
 * The `tp-sharding` widget: one transformer layer of a real model under tensor parallelism, region
 * by region, with the share of every weight and activation that one GPU holds, the shapes, and the
 * collective at each boundary (f/g, or all-gather/reduce-scatter with sequence parallelism).
 *
 * Every number comes from `tpShardingLayout` and `layerActivations` in src/model, through
 * src/figures/tp-sharding-state.ts (settings, validation, layout, summary); this file only places
 * rows and bars, writes their text and builds the static widget. It draws into the element it is
 * given (never the `window`/`document` globals), so the build renders the same SVG under linkedom
 * that the browser redraws.
 *
 * Settings (YAML inside `::: widget tp-sharding`), all optional:
 *   model: llama-3.1-70b   # a dense preset id from src/data/models.ts
 *   tp: 8                  # tensor-parallel degree
 *   sp: true               # sequence parallelism
 *   seq: 8192              # tokens per sequence
 *   microBatch: 1          # sequences per microbatch
 */
import { findModelPreset, type TpTensor } from "../model/index.ts";
import { defineWidget } from "./widget.ts";
import { dom } from "./kit/dom.ts";
import { numberField, selectField } from "./kit/field.ts";
import { formatInteger, formatNumber } from "./kit/format.ts";
import {
  parseTpShardingSettings,
  summarizeTpSharding,
  tpShardingModels,
  tpShardingState,
  type TpShardingSettings,
} from "./tp-sharding-state.ts";

const shape = (s: [number, number]) => `${formatInteger(s[0])} × ${formatInteger(s[1])}`;

const splitWords: Record<TpTensor["split"], string> = {
  columns: "by columns",
  rows: "by rows",
  sequence: "by sequence",
  vocab: "by vocabulary",
  replicated: "copy on every GPU",
};

const WIDTH = 680;
const ROW = 17;
const BAR_X = 196;
const BAR_W = 96;
const TEXT_X = 302;

/** Draws the layer layout into `root`, replacing an earlier drawing. Returns the SVG. */
export function drawTpSharding(root: Element, s: TpShardingSettings, idPrefix = "tp-sharding"): SVGSVGElement {
  const { arch, layout } = tpShardingState(s);
  for (const old of Array.from(root.querySelectorAll("svg.tp-sharding-chart"))) old.remove();
  const b = dom(root.ownerDocument).svg;

  // Height: title rows, one row per tensor, a band per boundary.
  const boundaryAfter = new Map(layout.boundaries.map((bd) => [bd.after, bd]));
  let height = 44;
  for (const r of layout.regions) {
    height += 22 + r.tensors.length * ROW + 6;
    if (boundaryAfter.has(r.id)) height += 30;
  }
  height += 8;

  const name = findModelPreset(s.model)?.name ?? s.model;
  const svg = b("svg", {
    class: "tp-sharding-chart",
    viewBox: `0 0 ${WIDTH} ${height}`,
    role: "img",
    "aria-labelledby": `${idPrefix}-title ${idPrefix}-desc`,
    "font-family": "system-ui, -apple-system, 'Segoe UI', sans-serif",
    "font-size": 12,
    style: "max-width:100%;height:auto",
  });
  root.append(svg);
  svg.append(
    b("title", { id: `${idPrefix}-title` }, `One layer of ${name} split over ${s.tp} GPU${s.tp === 1 ? "" : "s"}`),
  );
  svg.append(b("desc", { id: `${idPrefix}-desc` }, summarizeTpSharding(s)));

  // Legend.
  const legend = b("g", { transform: "translate(8,14)" });
  svg.append(legend);
  legend.append(b("rect", { width: 12, height: 12, y: -10, class: "tps-weight" }));
  legend.append(b("text", { x: 17 }, "weight held by GPU 0"));
  legend.append(b("rect", { x: 160, width: 12, height: 12, y: -10, class: "tps-act" }));
  legend.append(b("text", { x: 177 }, "activation stored by GPU 0"));
  legend.append(b("rect", { x: 350, width: 12, height: 12, y: -10, class: "tps-full" }));
  legend.append(b("text", { x: 367 }, "whole tensor (bar = 100%)"));
  svg.append(
    b(
      "text",
      { x: 8, y: 34, class: "tps-muted" },
      `${arch.numHeads} query heads, ${arch.numKvHeads} KV heads, h = ${formatInteger(arch.hiddenSize)}, MLP width ${formatInteger(arch.intermediateSize)}; shapes are rows × columns per GPU.`,
    ),
  );

  let y = 52;
  for (const region of layout.regions) {
    const g = b("g", { class: region.parallel ? "tps-region tps-parallel" : "tps-region tps-plain" });
    svg.append(g);
    g.append(
      b("rect", {
        x: 2,
        y: y - 2,
        width: WIDTH - 4,
        height: 22 + region.tensors.length * ROW + 2,
        rx: 4,
        class: region.parallel ? "tps-bg-parallel" : "tps-bg-plain",
      }),
    );
    g.append(b("text", { x: 8, y: y + 13, class: "tps-title" }, region.title));
    y += 22;
    for (const tensor of region.tensors) {
      const full = tensor.fullShape[0] * tensor.fullShape[1];
      const mine = tensor.shardShape[0] * tensor.shardShape[1];
      const share = Math.min(1, mine / full);
      g.append(b("text", { x: 16, y: y + 11 }, tensor.name));
      g.append(b("rect", { x: BAR_X, y: y + 2, width: BAR_W, height: 11, class: "tps-full" }));
      g.append(
        b("rect", {
          x: BAR_X,
          y: y + 2,
          width: Math.max(1, BAR_W * share),
          height: 11,
          class: tensor.kind === "weight" ? "tps-weight" : "tps-act",
        }),
      );
      const detail =
        tensor.split === "replicated"
          ? `${shape(tensor.shardShape)}, ${splitWords.replicated}`
          : `${shape(tensor.shardShape)} of ${shape(tensor.fullShape)}, ${splitWords[tensor.split]}`;
      g.append(b("text", { x: TEXT_X, y: y + 11, class: "tps-detail" }, detail));
      y += ROW;
    }
    y += 6;
    const boundary = boundaryAfter.get(region.id);
    if (boundary) {
      const band = b("g", { class: "tps-boundary" });
      svg.append(band);
      band.append(b("rect", { x: 40, y, width: WIDTH - 80, height: 22, rx: 11, class: "tps-comm" }));
      const fwd = boundary.forward === "none" ? "nothing" : boundary.forward;
      const bwd = boundary.backward === "none" ? "nothing" : boundary.backward;
      const label =
        s.tp === 1
          ? `${boundary.name}: no communication with t = 1`
          : `${s.sp ? "" : `${boundary.name}: `}forward ${fwd}, backward ${bwd}, on ${formatNumber(boundary.elements / 1e6, { decimals: 1 })} M elements`;
      band.append(b("text", { x: WIDTH / 2, y: y + 15, "text-anchor": "middle", class: "tps-comm-text" }, label));
      y += 30;
    }
  }

  svg.append(
    b(
      "style",
      {},
      [
        "text{fill:var(--c-text)}",
        ".tps-muted,.tps-detail{fill:var(--c-muted)}",
        ".tps-title{font-weight:600}",
        ".tps-weight{fill:var(--c-params)}",
        ".tps-act{fill:var(--c-acts)}",
        ".tps-full{fill:none;stroke:var(--c-muted);stroke-width:1}",
        ".tps-bg-parallel{fill:var(--c-accent-soft)}",
        ".tps-bg-plain{fill:var(--c-surface-2)}",
        ".tps-comm{fill:var(--c-comm)}",
        ".tps-comm-text{fill:var(--c-bg);font-weight:600}",
      ].join("\n"),
    ),
  );
  return svg;
}

/** Builds the controls (disabled until the script mounts), the figure and the readout. */
function renderStatic(root: Element, settings: TpShardingSettings): void {
  const doc = root.ownerDocument;
  const idBase = root.getAttribute("id") ?? "tp-sharding";
  const { el } = dom(doc);
  const box = el("div", { class: "tp-sharding" });
  const controls = el("div", { class: "widget-controls" });

  controls.append(
    selectField(doc, {
      idBase,
      name: "model",
      label: "Model",
      options: tpShardingModels().map((m) => [m.id, m.name] as const),
      value: settings.model,
      message: true,
    }),
  );

  const addField = (key: "tp" | "seq" | "microBatch", label: string, value: number) => {
    controls.append(numberField(doc, { idBase, name: key, label, value, size: 8 }));
  };
  addField("tp", "TP degree t", settings.tp);
  addField("seq", "Sequence length s", settings.seq);
  addField("microBatch", "Microbatch b", settings.microBatch);

  const spField = el("div", { class: "widget-field widget-check" });
  const spInput = el("input", { id: `${idBase}-sp`, name: "sp", type: "checkbox", disabled: "" });
  if (settings.sp) spInput.setAttribute("checked", "");
  spField.append(el("label", { for: `${idBase}-sp` }, "Sequence parallelism"), spInput);
  controls.append(spField);

  const figure = el("div", { class: "tp-sharding-figure" });
  drawTpSharding(figure, settings, `${idBase}-svg`);
  const readout = el("p", { class: "tp-sharding-readout" }, summarizeTpSharding(settings));
  const live = el("p", { class: "visually-hidden", "aria-live": "polite" });
  box.append(controls, figure, readout, live);
  root.append(box);
}

export const tpShardingWidget = defineWidget<TpShardingSettings>({
  description: "shows how each weight and activation of one transformer layer is split over a tensor-parallel group",
  parseSettings: parseTpShardingSettings,
  renderStatic,
});
