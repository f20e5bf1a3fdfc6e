/**
 * The `tp-sharding` widget: one transformer layer of a real model under tensor parallelism, region
 * by region, with the share of every weight and activation that one GPU holds, the shapes, and the
 * collective at each boundary (f/g, or all-gather/reduce-scatter with sequence parallelism).
 *
 * Every number comes from `tpShardingLayout` and `layerActivations` in src/model; this file only
 * validates what the reader typed, places rows and bars, and writes text. It draws into the element
 * it is given (never the `window`/`document` globals), so the build renders the same SVG under
 * linkedom that the browser redraws.
 *
 * Settings (YAML inside `::: widget tp-sharding`), all optional:
 *   model: llama-3.1-70b   # a dense preset id from src/data/models.ts
 *   tp: 8                  # tensor-parallel degree
 *   sp: true               # sequence parallelism
 *   seq: 8192              # tokens per sequence
 *   microBatch: 1          # sequences per microbatch
 */
import {
  MODEL_PRESETS,
  ModelInputError,
  findModelPreset,
  layerActivations,
  parseModelConfig,
  tpShardingLayout,
  type ModelArchitecture,
  type TpShardingLayout,
  type TpTensor,
} from "../model/index.ts";
import { WidgetSettingsError, defineWidget, settingsObject } from "./widget.ts";
import { dom } from "./kit/dom.ts";
import { numberField } from "./kit/field.ts";
import { formatBytes, formatInteger, formatNumber } from "./kit/format.ts";

/** Settings of the widget (and its state). */
export interface TpShardingSettings {
  model: string;
  tp: number;
  sp: boolean;
  seq: number;
  microBatch: number;
}

export const tpShardingDefaults: TpShardingSettings = { model: "llama-3.1-70b", tp: 8, sp: true, seq: 8192, microBatch: 1 };

/** Upper bounds of the number fields (the model accepts more; the drawing stays readable). */
const tpShardingLimits = { tp: 1024, seq: 16_777_216, microBatch: 1024 } as const;

/** Presets the layout supports: dense models with standard attention. */
export function tpShardingModels(): { id: string; name: string }[] {
  return MODEL_PRESETS.filter((p) => {
    const arch = parseModelConfig(p.config).architecture;
    return !arch.moe && !arch.mla;
  }).map((p) => ({ id: p.id, name: p.name }));
}

function archOf(id: string): ModelArchitecture {
  const preset = findModelPreset(id);
  if (!preset) throw new ModelInputError("model", `unknown model "${id}"`);
  return parseModelConfig(preset.config).architecture;
}

/** The layout for settings that have been validated. */
function tpShardingState(s: TpShardingSettings): { arch: ModelArchitecture; layout: TpShardingLayout; activationBytes: number | null } {
  const arch = archOf(s.model);
  const layout = tpShardingLayout(arch, { tp: s.tp, sequenceParallel: s.sp, seqLength: s.seq, microBatchSize: s.microBatch });
  // The activation model splits K and V by t, so it only accepts degrees that divide the KV heads;
  // with replicated KV heads the widget shows the layout and leaves the activation total out.
  let activationBytes: number | null = null;
  if (arch.numKvHeads % s.tp === 0) {
    activationBytes = layerActivations(arch, {
      seqLength: s.seq,
      microBatchSize: s.microBatch,
      tp: s.tp,
      sequenceParallel: s.sp,
    }).totalBytes;
  }
  return { arch, layout, activationBytes };
}

type FieldKey = "model" | "tp" | "seq" | "microBatch";
export type TpShardingValidation = { ok: true; settings: TpShardingSettings } | { ok: false; errors: Partial<Record<FieldKey, string>> };

function readInteger(text: string, label: string, max: number): { value?: number; error?: string } {
  const cleaned = text.trim().replace(/(?<=\d)[,_ ](?=\d)/g, "");
  if (cleaned === "") return { error: `Enter ${label}.` };
  if (!/^\d+$/.test(cleaned)) return { error: `${label[0].toUpperCase()}${label.slice(1)} must be a whole number, for example 8.` };
  const value = Number(cleaned);
  if (!Number.isSafeInteger(value) || value < 1) return { error: `${label[0].toUpperCase()}${label.slice(1)} must be at least 1.` };
  if (value > max) return { error: `${label[0].toUpperCase()}${label.slice(1)} must be at most ${formatInteger(max)}.` };
  return { value };
}

/**
 * Validates the raw control values. Never throws: a problem is a message keyed by the field to mark.
 */
export function validateTpShardingControls(raw: { model: string; tp: string; seq: string; microBatch: string }, sp: boolean): TpShardingValidation {
  const errors: Partial<Record<FieldKey, string>> = {};
  if (!tpShardingModels().some((m) => m.id === raw.model)) errors.model = "Choose one of the listed models.";
  const tp = readInteger(raw.tp, "the TP degree", tpShardingLimits.tp);
  const seq = readInteger(raw.seq, "the sequence length", tpShardingLimits.seq);
  const mb = readInteger(raw.microBatch, "the microbatch size", tpShardingLimits.microBatch);
  if (tp.error) errors.tp = tp.error;
  if (seq.error) errors.seq = seq.error;
  if (mb.error) errors.microBatch = mb.error;
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const settings: TpShardingSettings = { model: raw.model, tp: tp.value!, sp, seq: seq.value!, microBatch: mb.value! };
  try {
    tpShardingState(settings);
  } catch (e) {
    if (e instanceof ModelInputError) {
      const field: FieldKey = e.field === "seqLength" ? "seq" : e.field === "model" ? "model" : "tp";
      const message = e.field === "seqLength" ? `With sequence parallelism the sequence length must divide by t = ${settings.tp}.` : capitalize(e.message.replace(/^tp = \d+: /, "")) + ".";
      return { ok: false, errors: { [field]: message } };
    }
    throw e;
  }
  return { ok: true, settings };
}

function capitalize(s: string): string {
  return s.length ? s[0].toUpperCase() + s.slice(1) : s;
}

const fmt = (x: number) => formatInteger(x);
const shape = (s: [number, number]) => `${fmt(s[0])} × ${fmt(s[1])}`;


/** "106.95 M" style element counts. */
function millions(x: number): string {
  return `${formatNumber(x / 1e6, { decimals: 2 })} M`;
}

const splitWords: Record<TpTensor["split"], string> = {
  columns: "by columns",
  rows: "by rows",
  sequence: "by sequence",
  vocab: "by vocabulary",
  replicated: "copy on every GPU",
};

/** The text summary (readout and screen-reader summary). */
export function summarizeTpSharding(s: TpShardingSettings): string {
  const { arch, layout, activationBytes } = tpShardingState(s);
  const name = findModelPreset(s.model)?.name ?? s.model;
  const parts = [
    `${name}, t = ${s.tp}, sequence parallelism ${s.sp ? "on" : "off"}, ${fmt(s.microBatch)} × ${fmt(s.seq)} tokens.`,
    `Each GPU holds ${layout.queryHeadsPerGpu} of ${arch.numHeads} query heads and ${layout.kvHeadsPerGpu} of ${arch.numKvHeads} KV heads.`,
    `One layer’s weights per GPU: ${millions(layout.layerWeightElementsPerGpu)} of ${millions(layout.layerWeightElements)} elements.`,
    activationBytes === null
      ? `Stored activations: the book’s activation model assumes whole KV heads per GPU, so it gives no total for t = ${s.tp}.`
      : `Stored activations per layer per GPU: ${formatBytes(activationBytes)} (bf16, FlashAttention).`,
    s.tp === 1
      ? "With t = 1 there is no tensor-parallel traffic."
      : `TP traffic per layer per microbatch: ${fmt(layout.commElementsPerLayer)} elements (${formatBytes(layout.commElementsPerLayer * 2)} in bf16) sent by each GPU.`,
    ...layout.notes,
  ];
  return parts.join(" ");
}

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
  const svg = b("svg", { class: "tp-sharding-chart", viewBox: `0 0 ${WIDTH} ${height}`, role: "img", "aria-labelledby": `${idPrefix}-title ${idPrefix}-desc`, "font-family": "system-ui, -apple-system, 'Segoe UI', sans-serif", "font-size": 12, style: "max-width:100%;height:auto" });
  root.append(svg);
  svg.append(b("title", { id: `${idPrefix}-title` }, `One layer of ${name} split over ${s.tp} GPU${s.tp === 1 ? "" : "s"}`));
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
  svg.append(b("text", { x: 8, y: 34, class: "tps-muted" }, `${arch.numHeads} query heads, ${arch.numKvHeads} KV heads, h = ${fmt(arch.hiddenSize)}, MLP width ${fmt(arch.intermediateSize)}; shapes are rows × columns per GPU.`));

  let y = 52;
  for (const region of layout.regions) {
    const g = b("g", { class: region.parallel ? "tps-region tps-parallel" : "tps-region tps-plain" });
    svg.append(g);
    g.append(b("rect", { x: 2, y: y - 2, width: WIDTH - 4, height: 22 + region.tensors.length * ROW + 2, rx: 4, class: region.parallel ? "tps-bg-parallel" : "tps-bg-plain" }));
    g.append(b("text", { x: 8, y: y + 13, class: "tps-title" }, region.title));
    y += 22;
    for (const tensor of region.tensors) {
      const full = tensor.fullShape[0] * tensor.fullShape[1];
      const mine = tensor.shardShape[0] * tensor.shardShape[1];
      const share = Math.min(1, mine / full);
      g.append(b("text", { x: 16, y: y + 11 }, tensor.name));
      g.append(b("rect", { x: BAR_X, y: y + 2, width: BAR_W, height: 11, class: "tps-full" }));
      g.append(b("rect", { x: BAR_X, y: y + 2, width: Math.max(1, BAR_W * share), height: 11, class: tensor.kind === "weight" ? "tps-weight" : "tps-act" }));
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

  svg.append(b("style", {}, [
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
    ].join("\n")));
  return svg;
}

function parseSettings(raw: unknown): TpShardingSettings {
  const obj = settingsObject(raw, ["model", "tp", "sp", "seq", "microBatch"]);
  const s: TpShardingSettings = { ...tpShardingDefaults };
  if (obj.model !== undefined) {
    if (typeof obj.model !== "string" || !tpShardingModels().some((m) => m.id === obj.model)) {
      throw new WidgetSettingsError("model", `must be a dense preset id (${tpShardingModels().map((m) => m.id).join(", ")})`);
    }
    s.model = obj.model;
  }
  for (const key of ["tp", "seq", "microBatch"] as const) {
    const v = obj[key];
    if (v === undefined) continue;
    if (typeof v !== "number" || !Number.isInteger(v) || v < 1 || v > tpShardingLimits[key]) {
      throw new WidgetSettingsError(key, `must be an integer from 1 to ${tpShardingLimits[key]} (got ${JSON.stringify(v)})`);
    }
    s[key] = v;
  }
  if (obj.sp !== undefined) {
    if (typeof obj.sp !== "boolean") throw new WidgetSettingsError("sp", `must be true or false (got ${JSON.stringify(obj.sp)})`);
    s.sp = obj.sp;
  }
  try {
    tpShardingState(s);
  } catch (e) {
    if (e instanceof ModelInputError) throw new WidgetSettingsError(e.field === "seqLength" ? "seq" : e.field, e.message);
    throw e;
  }
  return s;
}

/** Builds the controls (disabled until the script mounts), the figure and the readout. */
function renderStatic(root: Element, settings: TpShardingSettings): void {
  const doc = root.ownerDocument;
  const idBase = root.getAttribute("id") ?? "tp-sharding";
  const { el } = dom(doc);
  const box = el("div", { class: "tp-sharding" });
  const controls = el("div", { class: "widget-controls" });

  const modelField = el("div", { class: "widget-field" });
  const modelSelect = el("select", { id: `${idBase}-model`, name: "model", disabled: "", "aria-describedby": `${idBase}-model-message` });
  for (const m of tpShardingModels()) {
    const o = el("option", { value: m.id }, m.name);
    if (m.id === settings.model) o.setAttribute("selected", "");
    modelSelect.append(o);
  }
  modelField.append(el("label", { for: `${idBase}-model` }, "Model"), modelSelect, el("p", { class: "widget-message", id: `${idBase}-model-message`, role: "alert" }));
  controls.append(modelField);

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
  parseSettings,
  renderStatic,
});
