/**
 * overlap-calculator: per scheme (DP gradient reduction, ZeRO-3 parameter gather, TP all-reduces,
 * PP send), the communication time next to the compute time that could hide it, from
 * src/model's overlapRatios. Assumptions (shown under the chart): 40% of the GPU's dense bf16
 * peak, 50 GB/s bus bandwidth for the data-parallel group and between pipeline stages, and half
 * the GPU's NVLink figure (one direction) for the tensor-parallel group.
 *
 * Settings (YAML inside `::: widget overlap-calculator`), all optional:
 *   model: llama-3.1-8b   gpu: h100-sxm   tp: 1   pp: 1   dp: 64   zeroStage: 3
 *   microBatchSize: 1     seqLength: 4096
 */
import {
  findGpu,
  findModelPreset,
  GPUS,
  MODEL_PRESETS,
  ModelInputError,
  overlapRatios,
  type OverlapRatio,
  type OverlapRatios,
  type ZeroStage,
} from "../model/index.ts";
import { WidgetSettingsError, defineWidget, settingsObject } from "./widget.ts";
import { dom, figureSvg } from "./kit/dom.ts";
import { parseNumberField } from "./kit/field.ts";
import { formatNumber, formatSeconds } from "./kit/format.ts";

export interface OverlapCalculatorSettings {
  model: string;
  gpu: string;
  tp: number;
  pp: number;
  dp: number;
  zeroStage: ZeroStage;
  microBatchSize: number;
  seqLength: number;
}

const OVERLAP_MFU = 0.4;
const DP_BUS_BYTES_PER_SECOND = 50e9;
const PP_BYTES_PER_SECOND = 50e9;

export const defaultOverlapSettings: OverlapCalculatorSettings = {
  model: "llama-3.1-8b",
  gpu: "h100-sxm",
  tp: 1,
  pp: 1,
  dp: 64,
  zeroStage: 3,
  microBatchSize: 1,
  seqLength: 4096,
};

/** Integer fields and their limits. */
export const overlapIntegerFields = [
  { key: "tp", label: "TP degree t", min: 1, max: 64 },
  { key: "pp", label: "PP degree p", min: 1, max: 128 },
  { key: "dp", label: "DP degree d", min: 1, max: 65536 },
  { key: "microBatchSize", label: "Microbatch b", min: 1, max: 1024 },
  { key: "seqLength", label: "Sequence s", min: 1, max: 1048576 },
] as const;
type IntKey = (typeof overlapIntegerFields)[number]["key"];

export type OverlapResult = { ok: true; ratios: OverlapRatios } | { ok: false; field: string; message: string };

/** The model's ratios for a settings object; a model input error becomes a message naming the field. */
export function computeOverlap(s: OverlapCalculatorSettings): OverlapResult {
  const preset = findModelPreset(s.model);
  const gpu = findGpu(s.gpu);
  if (!preset) return { ok: false, field: "model", message: `Unknown model ${s.model}.` };
  if (!gpu) return { ok: false, field: "gpu", message: `Unknown GPU ${s.gpu}.` };
  try {
    const ratios = overlapRatios(preset.config, {
      setup: {
        tp: s.tp,
        pp: s.pp,
        dp: s.dp,
        zeroStage: s.zeroStage,
        microBatchSize: s.microBatchSize,
        seqLength: s.seqLength,
        microbatches: Math.max(1, 2 * s.pp),
        sequenceParallel: s.tp > 1,
      },
      peakFlopsPerSecond: gpu.bf16FlopsPerSecond,
      mfu: OVERLAP_MFU,
      bandwidths: {
        dpBusBytesPerSecond: DP_BUS_BYTES_PER_SECOND,
        tpBusBytesPerSecond: gpu.nvlinkBytesPerSecond / 2,
        ppBytesPerSecond: PP_BYTES_PER_SECOND,
      },
    });
    for (const r of [ratios.dp, ratios.zero3, ratios.tp, ratios.pp]) {
      if (r && !(Number.isFinite(r.ratio) && Number.isFinite(r.commSeconds) && Number.isFinite(r.computeSeconds))) {
        return { ok: false, field: "seqLength", message: "These inputs give no finite time; use smaller values." };
      }
    }
    return { ok: true, ratios };
  } catch (e) {
    if (e instanceof ModelInputError) {
      const map: Record<string, string> = {
        tp: "tp",
        pp: "pp",
        dp: "dp",
        seqLength: "seqLength",
        microBatchSize: "microBatchSize",
      };
      return { ok: false, field: map[e.field] ?? "tp", message: e.message };
    }
    throw e;
  }
}

function parseSettings(raw: unknown): OverlapCalculatorSettings {
  const obj = settingsObject(raw, ["model", "gpu", "tp", "pp", "dp", "zeroStage", "microBatchSize", "seqLength"]);
  const s: OverlapCalculatorSettings = { ...defaultOverlapSettings };
  if (obj.model !== undefined) {
    if (typeof obj.model !== "string" || !findModelPreset(obj.model))
      throw new WidgetSettingsError("model", `must be a model preset id (got ${JSON.stringify(obj.model)})`);
    s.model = obj.model;
  }
  if (obj.gpu !== undefined) {
    if (typeof obj.gpu !== "string" || !findGpu(obj.gpu))
      throw new WidgetSettingsError("gpu", `must be a GPU id (got ${JSON.stringify(obj.gpu)})`);
    s.gpu = obj.gpu;
  }
  for (const f of overlapIntegerFields) {
    const v = obj[f.key];
    if (v === undefined) continue;
    if (typeof v !== "number" || !Number.isInteger(v) || v < f.min || v > f.max) {
      throw new WidgetSettingsError(
        f.key,
        `must be a whole number from ${f.min} to ${f.max} (got ${JSON.stringify(v)})`,
      );
    }
    s[f.key] = v;
  }
  if (obj.zeroStage !== undefined) {
    if (obj.zeroStage !== 0 && obj.zeroStage !== 1 && obj.zeroStage !== 2 && obj.zeroStage !== 3)
      throw new WidgetSettingsError("zeroStage", `must be 0, 1, 2 or 3 (got ${JSON.stringify(obj.zeroStage)})`);
    s.zeroStage = obj.zeroStage;
  }
  const r = computeOverlap(s);
  if (!r.ok) throw new WidgetSettingsError(r.field, r.message);
  return s;
}

export type ControlResult =
  | { ok: true; settings: OverlapCalculatorSettings; ratios: OverlapRatios }
  | { ok: false; errors: Record<string, string> };

/** Validates the typed fields; never throws. */
export function validateOverlapControls(raw: Record<string, string>): ControlResult {
  const errors: Record<string, string> = {};
  const s: OverlapCalculatorSettings = { ...defaultOverlapSettings };
  s.model = findModelPreset(raw.model ?? "") ? raw.model! : defaultOverlapSettings.model;
  s.gpu = findGpu(raw.gpu ?? "") ? raw.gpu! : defaultOverlapSettings.gpu;
  const z = Number(raw.zeroStage);
  s.zeroStage = (z === 0 || z === 1 || z === 2 || z === 3 ? z : 0) as ZeroStage;
  for (const f of overlapIntegerFields) {
    const r = parseNumberField(raw[f.key] ?? "", { integer: true, min: f.min, max: f.max });
    if (r.ok) s[f.key as IntKey] = r.value;
    else errors[f.key] = r.message;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const r = computeOverlap(s);
  if (!r.ok) return { ok: false, errors: { [r.field]: r.message } };
  return { ok: true, settings: s, ratios: r.ratios };
}

const rows: { key: keyof OverlapRatios; label: string }[] = [
  { key: "dp", label: "DP gradient reduction" },
  { key: "zero3", label: "ZeRO-3 layer gather" },
  { key: "tp", label: "TP all-reduces (one layer)" },
  { key: "pp", label: "PP activation send" },
];

/** Durations in the book's format (three significant digits: "632 ms", "168 µs", "1.5 s"). */
export { formatSeconds };

/** "1.90", "0.0035". */
export function formatRatio(r: number): string {
  return r >= 0.1 ? formatNumber(r, { decimals: 2 }) : formatNumber(r, { significant: 2 });
}

/** One line per active scheme. */
function overlapLines(ratios: OverlapRatios): string[] {
  return rows
    .filter((r) => ratios[r.key])
    .map((r) => {
      const v = ratios[r.key] as OverlapRatio;
      return `${r.label}: ${formatSeconds(v.commSeconds)} of communication against ${formatSeconds(v.computeSeconds)} of compute, ratio ${formatRatio(v.ratio)} (${v.ratio < 1 ? "can hide" : "exposed"}).`;
    });
}

export function summarizeOverlap(s: OverlapCalculatorSettings, ratios: OverlapRatios): string {
  const lines = overlapLines(ratios);
  const name = findModelPreset(s.model)?.name ?? s.model;
  const head = `${name}, t = ${s.tp}, p = ${s.pp}, d = ${s.dp}, ZeRO-${s.zeroStage}, ${s.microBatchSize * s.seqLength} tokens per microbatch.`;
  return lines.length === 0 ? `${head} No communication: every degree is 1.` : `${head} ${lines.join(" ")}`;
}

/** Horizontal bars: communication and compute time per active scheme, on a shared log-free linear scale per row. */
export function renderOverlapChart(container: Element, ratios: OverlapRatios, svgId: string, width = 640): void {
  const doc = container.ownerDocument;
  const active = rows.filter((r) => ratios[r.key]);
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
  for (const r of rows) {
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
  const selectField = (name: string, label: string, options: [string, string][], value: string) => {
    const f = el("div", { class: "widget-field" });
    const sel = el("select", { id: `${idBase}-${name}`, name, disabled: "" });
    for (const [v, text] of options) {
      const o = el("option", { value: v }, text);
      if (v === value) o.setAttribute("selected", "");
      sel.append(o);
    }
    f.append(el("label", { for: `${idBase}-${name}` }, label), sel);
    return f;
  };
  controls.append(
    selectField(
      "model",
      "Model",
      MODEL_PRESETS.map((p) => [p.id, p.name]),
      s.model,
    ),
    selectField(
      "gpu",
      "GPU",
      GPUS.map((g) => [g.id, g.name]),
      s.gpu,
    ),
    selectField(
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
    const field = el("div", { class: "widget-field" });
    field.append(
      el("label", { for: `${idBase}-${f.key}` }, f.label),
      el("input", {
        id: `${idBase}-${f.key}`,
        name: f.key,
        type: "text",
        inputmode: "numeric",
        autocomplete: "off",
        spellcheck: "false",
        size: "6",
        value: String(s[f.key]),
        "aria-describedby": `${idBase}-${f.key}-message`,
        disabled: "",
      }),
      el("p", { class: "widget-message", id: `${idBase}-${f.key}-message`, role: "alert" }),
    );
    controls.append(field);
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
  parseSettings,
  renderStatic,
});
