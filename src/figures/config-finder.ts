/**
 * The `config-finder` widget: for a model, a GPU type, a GPU count, a sequence length and a
 * global batch, enumerate parallel configurations with `searchConfigurations` (src/model), and
 * show the fastest ones as stacked step-time bars (compute, bubble, exposed communication), a
 * table, and a sentence explaining the top choice. The same code draws the build-time SVG and the
 * browser's redraws; it never touches the `window`/`document` globals.
 */
import {
  findGpu,
  findModelPreset,
  GPUS,
  MODEL_PRESETS,
  ModelInputError,
  searchConfigurations,
  CONFIG_SEARCH_EXCLUSIONS,
  type ConfigSearchResult,
  type RankedConfig,
} from "../model/index.ts";
import { WidgetSettingsError, defineWidget, settingsObject } from "./widget.ts";
import { dom, figureSvg, tableHead, type Attrs } from "./kit/dom.ts";
import { numberField, selectField } from "./kit/field.ts";
import { formatBytes, formatInteger, formatNumber, formatPercent, formatSeconds } from "./kit/format.ts";
import { legendLayout } from "./kit/legend.ts";

/** Settings of the widget (JSON-safe). */
export interface ConfigFinderSettings {
  /** Model preset id (src/data/models.ts). */
  model: string;
  /** GPU id (src/data/gpus.ts). */
  gpu: string;
  gpuCount: number;
  seqLength: number;
  /** Global batch in sequences. */
  globalBatch: number;
}

/** Presets the widget offers: every preset except DeepSeek-V3, whose search is too slow to rerun on each keystroke. */
const configFinderModels = MODEL_PRESETS.filter((p) => p.id !== "deepseek-v3").map((p) => ({ id: p.id, name: p.name }));
/** GPUs the widget offers. */
const configFinderGpus = GPUS.map((g) => ({ id: g.id, name: g.name }));

/** Bounds of the numeric settings (inclusive, integers). */
export const configFinderBounds = {
  gpuCount: { min: 1, max: 16384 },
  seqLength: { min: 128, max: 131072 },
  globalBatch: { min: 1, max: 65536 },
} as const;

type NumericKey = keyof typeof configFinderBounds;

/** The chapter's default case. */
export const configFinderDefaults: ConfigFinderSettings = {
  model: "llama-3.1-70b",
  gpu: "h100-sxm",
  gpuCount: 256,
  seqLength: 8192,
  globalBatch: 512,
};

/** A problem with one numeric value, or undefined. */
export function configFinderProblem(key: NumericKey, value: number): string | undefined {
  const { min, max } = configFinderBounds[key];
  if (!Number.isFinite(value)) return "Enter a number.";
  if (!Number.isInteger(value)) return "Enter a whole number.";
  if (value < min || value > max) return `Enter a whole number from ${formatInteger(min)} to ${formatInteger(max)}.`;
  return undefined;
}

function parseSettings(raw: unknown): ConfigFinderSettings {
  const obj = settingsObject(raw, ["model", "gpu", "gpuCount", "seqLength", "globalBatch"]);
  const out: ConfigFinderSettings = { ...configFinderDefaults };
  if (obj.model !== undefined) {
    if (typeof obj.model !== "string" || !configFinderModels.some((m) => m.id === obj.model)) {
      throw new WidgetSettingsError("model", `must be one of ${configFinderModels.map((m) => m.id).join(", ")}`);
    }
    out.model = obj.model;
  }
  if (obj.gpu !== undefined) {
    if (typeof obj.gpu !== "string" || !findGpu(obj.gpu))
      throw new WidgetSettingsError("gpu", `must be one of ${configFinderGpus.map((g) => g.id).join(", ")}`);
    out.gpu = obj.gpu;
  }
  for (const key of Object.keys(configFinderBounds) as NumericKey[]) {
    const v = obj[key];
    if (v === undefined) continue;
    const problem = typeof v === "number" ? configFinderProblem(key, v) : "must be a number";
    if (problem) throw new WidgetSettingsError(key, problem);
    out[key] = v as number;
  }
  return out;
}

/** Runs the search for the settings (throws ModelInputError for inputs the model rejects). */
export function runConfigFinder(s: ConfigFinderSettings): ConfigSearchResult {
  const preset = findModelPreset(s.model);
  const gpu = findGpu(s.gpu);
  if (!preset) throw new ModelInputError("model", `unknown model ${s.model}`);
  if (!gpu) throw new ModelInputError("gpu", `unknown GPU ${s.gpu}`);
  return searchConfigurations({
    config: preset.config,
    gpu,
    gpuCount: s.gpuCount,
    seqLength: s.seqLength,
    globalBatchSequences: s.globalBatch,
  });
}

const RECOMPUTE_LABEL = { none: "no recompute", selective: "selective recompute", full: "full recompute" } as const;

/** Short label of a configuration, e.g. "DP 4 · TP 8 · PP 8 · CP 1 · ZeRO-1 · b 1 · m 16 · no recompute". */
export function configLabel(c: RankedConfig): string {
  const ep = c.ep > 1 ? ` · EP ${c.ep}` : "";
  return `DP ${c.dp} · TP ${c.tp} · PP ${c.pp} · CP ${c.cp}${ep} · ZeRO-${c.zeroStage} · b ${c.microBatchSize} · m ${c.microbatches} · ${RECOMPUTE_LABEL[c.recompute]}`;
}

/** Compact label for narrow drawings, e.g. "DP4 TP8 PP8 CP1 Z1 b1 m16 none". */
export function compactConfigLabel(c: RankedConfig): string {
  const ep = c.ep > 1 ? ` EP${c.ep}` : "";
  return `DP${c.dp} TP${c.tp} PP${c.pp} CP${c.cp}${ep} Z${c.zeroStage} b${c.microBatchSize} m${c.microbatches} ${c.recompute}`;
}

/** Step times with four significant digits ("18.24 s"), so that neighbouring ranks stay apart. */
const seconds = (x: number): string => formatSeconds(x, { significant: 4 });

/** The step-time parts drawn, in order: key, label, CSS color variable with fallback. */
const configFinderParts = [
  { key: "compute", label: "compute", color: "var(--c-params)" },
  { key: "bubble", label: "bubble", color: "var(--c-bubble)" },
  { key: "tp", label: "TP", color: "var(--c-comm)" },
  { key: "cp", label: "CP", color: "var(--c-acts)" },
  { key: "ep", label: "EP", color: "var(--c-optim)" },
  { key: "pp", label: "PP", color: "var(--c-muted)" },
  { key: "dp", label: "DP/ZeRO", color: "var(--c-warning)" },
] as const;

function partSeconds(c: RankedConfig, key: (typeof configFinderParts)[number]["key"]): number {
  if (key === "compute") return c.computeSeconds;
  if (key === "bubble") return c.bubbleSeconds;
  return c.exposedSeconds[key];
}

/** Sentences explaining the result: the top choice and why, and what was ruled out. */
export function explainConfigFinder(s: ConfigFinderSettings, r: ConfigSearchResult): string {
  const preset = findModelPreset(s.model);
  const name = preset ? preset.name : s.model;
  const usable = formatBytes(r.memoryLimitBytes, "GB", { decimals: 0 });
  const tried = `${formatInteger(r.configsTried)} configurations tried: ${formatInteger(r.ruledOutBatch)} cannot split the batch of ${formatInteger(s.globalBatch)} sequences into at least p microbatches per replica, ${formatInteger(r.ruledOutMemory)} need more than ${usable} per GPU.`;
  const top = r.ranked[0];
  if (!top)
    return `Nothing fits: ${name} on ${formatInteger(s.gpuCount)} GPUs. ${tried} Add GPUs, change the batch, or pick a GPU with more memory.`;
  const comm =
    top.exposedSeconds.tp +
    top.exposedSeconds.cp +
    top.exposedSeconds.ep +
    top.exposedSeconds.pp +
    top.exposedSeconds.dp;
  const parts = configFinderParts
    .filter((p) => p.key !== "compute" && p.key !== "bubble" && partSeconds(top, p.key) > 0)
    .map((p) => `${p.label} ${seconds(partSeconds(top, p.key))}`);
  return (
    `Fastest under this model: ${configLabel(top)}. ` +
    `One step of ${formatInteger(s.globalBatch * s.seqLength)} tokens takes ${seconds(top.stepSeconds)}: ` +
    `${seconds(top.computeSeconds)} of compute, ${seconds(top.bubbleSeconds)} of pipeline bubble ((p − 1)/m = ${formatNumber((top.pp - 1) / top.microbatches, { decimals: 3 })}), ` +
    `${seconds(comm)} of exposed communication${parts.length > 0 ? ` (${parts.join(", ")})` : ""}; ` +
    `MFU ${formatPercent(top.mfu)}, ${formatBytes(top.memoryBytes, "GB")} per GPU of ${usable} usable. ` +
    `${formatInteger(r.ranked.length)} configurations fit. ${tried}`
  );
}

/** Draws the stacked step-time bars of the `count` fastest configurations into `root`. */
export function drawConfigBars(
  root: Element,
  r: ConfigSearchResult,
  options: { idPrefix: string; width?: number; count?: number },
): void {
  const doc = root.ownerDocument;
  const width = Math.max(300, Math.min(900, Math.round(options.width ?? 640)));
  const rows = r.ranked.slice(0, options.count ?? 6);
  const narrow = width < 560;
  const rowHeight = 40;
  const top = narrow ? 52 : 34;
  const height = top + Math.max(1, rows.length) * rowHeight + 26;
  const { svg: mk } = dom(doc);
  const svg = figureSvg(doc, {
    idPrefix: options.idPrefix,
    width,
    height,
    title: "Modeled step time of the fastest configurations that fit",
    desc:
      rows.length === 0
        ? "No configuration fits, so no bars are drawn."
        : rows
            .map(
              (c, i) =>
                `${i + 1}. ${configLabel(c)}: ${seconds(c.stepSeconds)} per step, of which ${seconds(c.computeSeconds)} compute.`,
            )
            .join(" "),
    attrs: { width: "100%", "font-family": "system-ui, -apple-system, 'Segoe UI', sans-serif", "font-size": 12 },
  });
  const text = (x: number, y: number, content: string, attrs: Attrs = {}) => {
    svg.append(mk("text", { x, y, fill: "currentColor", ...attrs }, content));
  };
  // Legend.
  const slots = legendLayout(configFinderParts, {
    left: 0,
    right: width,
    top: 6,
    lineHeight: 18,
    widthOf: (p) => 14 + p.label.length * 7 + 12,
  });
  for (const { item: p, x: lx, y: ly } of slots) {
    svg.append(mk("rect", { x: lx, y: ly, width: 10, height: 10, fill: p.color }));
    text(lx + 14, ly + 9, p.label);
  }
  if (rows.length === 0) {
    text(0, top + 20, "No configuration fits in memory with this batch.");
  }
  const maxSeconds = Math.max(...rows.map((c) => c.stepSeconds), 1e-9);
  const barWidth = width - 70;
  rows.forEach((c, i) => {
    const y = top + i * rowHeight;
    text(0, y + 10, `${i + 1}. ${narrow ? compactConfigLabel(c) : configLabel(c)}`);
    let x = 0;
    for (const p of configFinderParts) {
      const w = (partSeconds(c, p.key) / maxSeconds) * barWidth;
      if (w <= 0) continue;
      svg.append(
        mk("rect", { x: x.toFixed(2), y: y + 15, width: Math.max(w, 0.5).toFixed(2), height: 14, fill: p.color }),
      );
      x += w;
    }
    text(x + 6, y + 26, seconds(c.stepSeconds));
  });
  text(
    0,
    height - 6,
    narrow
      ? "Step time, same scale for every bar."
      : "Step time (same scale for every bar); compute at 60% of peak, only exposed communication drawn.",
    { "font-size": "11", opacity: "0.75" },
  );
  root.append(svg);
}

/** Fills a table body with the `count` fastest configurations. */
export function fillConfigTable(table: Element, r: ConfigSearchResult, count = 5): void {
  const doc = table.ownerDocument;
  const { el } = dom(doc);
  table.textContent = "";
  const caption = el("caption", {}, "Fastest configurations that fit (modeled)");
  const head = tableHead(doc, [
    "#",
    "DP",
    "TP",
    "PP",
    "CP",
    "EP",
    "ZeRO",
    "b",
    "m",
    "Recompute",
    "GB/GPU",
    "Step",
    "MFU",
  ]);
  const body = el("tbody");
  r.ranked.slice(0, count).forEach((c, i) => {
    const cells = [
      i + 1,
      c.dp,
      c.tp,
      c.pp,
      c.cp,
      c.ep,
      c.zeroStage,
      c.microBatchSize,
      c.microbatches,
      c.recompute,
      formatNumber(c.memoryBytes / 1e9, { decimals: 1 }),
      seconds(c.stepSeconds).replace(" ", "\u00a0"),
      formatPercent(c.mfu),
    ];
    const tr = el("tr");
    tr.append(...cells.map((v) => el("td", {}, String(v))));
    body.append(tr);
  });
  table.append(caption, head, body);
}

/** Draws the widget's controls (disabled until the script loads), chart, table and explanation. */
function renderConfigFinderStatic(root: Element, s: ConfigFinderSettings): void {
  const doc = root.ownerDocument;
  const idBase = root.getAttribute("id") ?? "config-finder";
  const { el } = dom(doc);
  const box = el("div", { class: "config-finder" });
  const controls = el("div", { class: "widget-controls" });
  const select = (key: "model" | "gpu", label: string, options: { id: string; name: string }[]) =>
    controls.append(
      selectField(doc, {
        idBase,
        name: key,
        label,
        options: options.map((o) => [o.id, o.name] as const),
        value: s[key],
      }),
    );
  select("model", "Model", configFinderModels);
  select("gpu", "GPU", configFinderGpus);
  for (const [key, label] of [
    ["gpuCount", "GPUs"],
    ["seqLength", "Sequence length s"],
    ["globalBatch", "Global batch, sequences"],
  ] as const) {
    controls.append(numberField(doc, { idBase, name: key, label, value: s[key], size: 8 }));
  }
  const result = runConfigFinder(s);
  const figure = el("div", { class: "config-finder-figure" });
  drawConfigBars(figure, result, { idPrefix: `${idBase}-svg` });
  const explanation = el("p", { class: "config-finder-readout" }, explainConfigFinder(s, result));
  const scroll = el("div", { class: "table-scroll" });
  const table = el("table", { class: "config-finder-table" });
  fillConfigTable(table, result);
  scroll.append(table);
  const note = el("p");
  note.append(
    el(
      "small",
      {},
      "Model: the step model of chapter 8 and appendix C: compute at one kernel efficiency per GPU generation, recomputation, " +
        "the slowest pipeline stage (end stages trimmed) and its bubble, exposed TP, CP, PP and EP traffic and the sharding windows of DP and ZeRO " +
        "at NCCL's measured bus bandwidths; a configuration fits when its peak stage needs at most 90% of HBM. " +
        CONFIG_SEARCH_EXCLUSIONS,
    ),
  );
  const live = el("p", { class: "visually-hidden", "aria-live": "polite" });
  box.append(controls, figure, explanation, scroll, note, live);
  root.append(box);
}

/** The `config-finder` widget. */
export const configFinderWidget = defineWidget<ConfigFinderSettings>({
  description:
    "enumerates DP/TP/PP/CP/EP/ZeRO/recomputation/micro-batch configurations, rules out those that do not fit, ranks the rest by a stated step-time model",
  parseSettings,
  renderStatic: renderConfigFinderStatic,
});
