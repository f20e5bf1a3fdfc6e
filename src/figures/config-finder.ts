/**
 * The `config-finder` widget: for a model, a GPU type, a framework, a GPU count, a sequence length
 * and a global batch, enumerate parallel configurations with `searchConfigurations` (src/model),
 * and show the fastest ones as stacked step-time bars (compute, bubble, exposed communication), a
 * table whose rows each open the memory explorer in the same state, and a sentence explaining the
 * top choice (with the step model's out-of-sample error on published runs of its layout class, and
 * the time to train a token count), or, when nothing fits, the cause and the nearest batch and GPU
 * count that work; and what it makes of a layout the reader names. The settings (with constraints,
 * cluster shape and a pasted config.json), the search and the diagnosis are
 * ./config-finder-state.ts (the Worker runs them); the
 * same code draws the build-time SVG and the browser's redraws and never touches the
 * `window`/`document` globals.
 */
import {
  findGpu,
  findModelPreset,
  CONFIG_SEARCH_EXCLUSIONS,
  defaultReshardAfterForward,
  evenStageLayers,
  launchConfigs,
  parseModelConfig,
  trainingMemory,
  LAUNCH_FRAMEWORKS,
  LAUNCH_LABELS,
  ModelInputError,
  FP8_KERNEL_EFFICIENCY,
  FP8_MEMORY_NOTE,
  gpuGeneration,
  type ConfigSearchResult,
  type LaunchConfig,
  type MemoryBreakdown,
  type ModelArchitecture,
  type RankedConfig,
} from "../model/index.ts";
import { defineWidget } from "./widget.ts";
import { dom, figureSvg, tableHead, type Attrs } from "./kit/dom.ts";
import { numberField, selectField } from "./kit/field.ts";
import { formatInteger, formatNumber, formatPercent, formatSeconds } from "./kit/format.ts";
import { legendLayout } from "./kit/legend.ts";
import {
  FRAMEWORK_LABELS,
  FRAMEWORK_SHORT,
  budgetLabel,
  efficiencyLabel,
  gbAttribute,
  gbShown,
} from "./kit/scenario.ts";
import { encodeMemoryStateFull } from "./memory-explorer/url.ts";
import { stageLayersText } from "./memory-explorer/view.ts";
import type { MemoryExplorerState } from "./memory-explorer/state.ts";
import {
  configFinderFrameworks,
  configFinderGpus,
  configFinderModelOptions,
  configFinderPrecisionOptions,
  configFinderZeroOptions,
  daysText,
  diagnoseConfigFinder,
  diagnosisText,
  errorBandText,
  finderArchitecture,
  finderCluster,
  finderErrorBands,
  gpuHoursText,
  NAMED_LAYOUT_DEFAULTS,
  namedVerdict,
  parseConfigFinderSettings,
  runConfigFinder,
  timeToTrain,
  tokensText,
  type ConfigFinderDiagnosis,
  type ConfigFinderSettings,
  type FinderErrorBands,
  type NamedVerdict,
  type OptionalKey,
  type ShownResult,
} from "./config-finder-state.ts";

export {
  configFinderBounds,
  configFinderDefaults,
  configFinderProblem,
  runConfigFinder,
  type ConfigFinderSettings,
} from "./config-finder-state.ts";

const RECOMPUTE_LABEL = { none: "no recompute", selective: "selective recompute", full: "full recompute" } as const;

/** Short label of a configuration, e.g. "DP 4 · TP 8 · PP 8 · CP 1 · ZeRO-1 (Megatron-LM) · b 1 · m 16 · no recompute". */
export function configLabel(c: RankedConfig): string {
  const ep = c.ep > 1 ? ` · EP ${c.ep}` : "";
  return `DP ${c.dp} · TP ${c.tp} · PP ${c.pp} · CP ${c.cp}${ep} · ZeRO-${c.zeroStage} (${FRAMEWORK_LABELS[c.framework]}) · b ${c.microBatchSize} · m ${c.microbatches} · ${RECOMPUTE_LABEL[c.recompute]}`;
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

/** The model's name for the settings: the preset's, or "the pasted config (…)". */
export function finderModelName(s: ConfigFinderSettings): string {
  if (s.model === "custom") {
    const type = s.config && typeof s.config["model_type"] === "string" ? ` (${s.config["model_type"]})` : "";
    return `the pasted config.json${type}`;
  }
  return findModelPreset(s.model)?.name ?? s.model;
}

/** Whether the settings' model has experts (for its layout class). */
function isMoe(s: ConfigFinderSettings): boolean {
  try {
    return parseModelConfig(finderArchitecture(s)).architecture.moe !== undefined;
  } catch {
    return false;
  }
}

/** The time-to-train sentence for the top row, or "" when no token count is set. */
export function timeToTrainText(s: ConfigFinderSettings, c: RankedConfig): string {
  if (s.tokens === null) return "";
  const t = timeToTrain(c, s.tokens, s.gpuCount);
  return `Training on ${tokensText(s.tokens)} tokens at this rate takes ${daysText(t.days)} of wall-clock time, ${gpuHoursText(t.gpuHours)}.`;
}

/** Per-row time to train, for the note under the table: "" when no token count is set or nothing fits. */
export function rowsTimeToTrainText(s: ConfigFinderSettings, r: ConfigSearchResult, count = 5): string {
  if (s.tokens === null || r.ranked.length === 0) return "";
  const rows = r.ranked.slice(0, count).map((c, i) => {
    const t = timeToTrain(c, s.tokens!, s.gpuCount);
    return `#${i + 1} ${daysText(t.days)} (${gpuHoursText(t.gpuHours)})`;
  });
  return `Time to train ${tokensText(s.tokens)} tokens (tokens ÷ the row's tokens per second, no restarts or failures): ${rows.join("; ")}.`;
}

/** Sentences explaining the result: the top choice and why, and what was ruled out; or, when nothing fits, why. */
export function explainConfigFinder(
  s: ConfigFinderSettings,
  r: ShownResult,
  diagnosis: ConfigFinderDiagnosis | null = null,
  bands: FinderErrorBands | null = null,
): string {
  const name = finderModelName(s);
  const gpu = findGpu(s.gpu);
  const budget = gpu ? budgetLabel(gpu) : `${gbShown(r.memoryLimitBytes)} GB usable`;
  const tried = `${formatInteger(r.configsTried)} configurations tried: ${formatInteger(r.ruledOutBatch)} cannot split the batch of ${formatInteger(s.globalBatch)} sequences into at least p microbatches per replica, ${formatInteger(r.ruledOutMemory)} need more than ${budget} per GPU.`;
  const top = r.ranked[0];
  if (!top) {
    const d = diagnosis ?? diagnoseConfigFinder(s, r);
    return `Nothing fits: ${name} on ${formatInteger(s.gpuCount)} GPU${s.gpuCount === 1 ? "" : "s"}. ${diagnosisText(d)} ${tried}`;
  }
  const comm =
    top.exposedSeconds.tp +
    top.exposedSeconds.cp +
    top.exposedSeconds.ep +
    top.exposedSeconds.pp +
    top.exposedSeconds.dp;
  const parts = configFinderParts
    .filter((p) => p.key !== "compute" && p.key !== "bubble" && partSeconds(top, p.key) > 0)
    .map((p) => `${p.label} ${seconds(partSeconds(top, p.key))}`);
  const band = bands ? `${errorBandText(bands, top, isMoe(s), s.precision)} ` : "";
  const train = timeToTrainText(s, top);
  return (
    `Fastest under this model: ${configLabel(top)}. ` +
    `One step of ${formatInteger(s.globalBatch * s.seqLength)} tokens takes ${seconds(top.stepSeconds)}: ` +
    `${seconds(top.computeSeconds)} of compute, ${seconds(top.bubbleSeconds)} of pipeline bubble ((p − 1)/m = ${formatNumber((top.pp - 1) / top.microbatches, { decimals: 3 })}), ` +
    `${seconds(comm)} of exposed communication${parts.length > 0 ? ` (${parts.join(", ")})` : ""}; ` +
    `MFU ${formatPercent(top.mfu)}${s.precision === "fp8" ? " (against the dense bf16 peak, as in bf16)" : ""}, ${gbShown(top.memoryBytes)} GB per GPU, within ${budget}. ` +
    band +
    (train ? `${train} ` : "") +
    `${formatInteger(r.fitting ?? r.ranked.length)} configurations fit. ${tried}`
  );
}

/** Draws the stacked step-time bars of the `count` fastest configurations into `root`. */
export function drawConfigBars(
  root: Element,
  r: ConfigSearchResult,
  options: { idPrefix: string; gpu: string; width?: number; count?: number },
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
    text(0, top + 20, "No configuration fits: see the explanation below.");
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
      : `Step time, same scale for every bar; compute at ${efficiencyLabel(options.gpu, true)}; only exposed communication drawn.`,
    { "font-size": "11", opacity: "0.75" },
  );
  root.append(svg);
}

/** The table's columns: header, the label a narrow screen prints before each value, and the value. */
const tableColumns: ReadonlyArray<{ head: string; label: string; value: (c: RankedConfig, i: number) => string }> = [
  { head: "#", label: "#", value: (_c, i) => String(i + 1) },
  { head: "DP", label: "DP", value: (c) => String(c.dp) },
  { head: "TP", label: "TP", value: (c) => String(c.tp) },
  { head: "PP", label: "PP", value: (c) => String(c.pp) },
  { head: "CP", label: "CP", value: (c) => String(c.cp) },
  { head: "EP", label: "EP", value: (c) => String(c.ep) },
  { head: "ZeRO", label: "ZeRO", value: (c) => `${c.zeroStage}\u00a0${FRAMEWORK_SHORT[c.framework]}` },
  { head: "b", label: "b", value: (c) => String(c.microBatchSize) },
  { head: "m", label: "m", value: (c) => String(c.microbatches) },
  { head: "Recomp.", label: "recompute", value: (c) => c.recompute },
  { head: "GB/GPU", label: "GB/GPU", value: (c) => gbShown(c.memoryBytes) },
  { head: "Step", label: "step", value: (c) => seconds(c.stepSeconds).replace(" ", "\u00a0") },
  { head: "MFU", label: "MFU", value: (c) => formatPercent(c.mfu) },
];

/**
 * The explorer's name of a row's stage split: `trimmed` when the row ranks the split with one layer
 * fewer on each end stage, `even` otherwise (the search tries only these two).
 */
export function splitOf(c: Pick<RankedConfig, "pp" | "stageLayers">): MemoryExplorerState["split"] {
  const even = evenStageLayers(
    c.stageLayers.reduce((a, x) => a + x, 0),
    c.pp,
  );
  return c.pp > 1 && c.stageLayers.some((n, i) => n !== even[i]) ? "trimmed" : "even";
}

/** The memory explorer's state for a result row: the same scenario and stage split, so the same GB per GPU. */
export function explorerStateOf(s: ConfigFinderSettings, c: RankedConfig): MemoryExplorerState {
  return {
    preset: s.model,
    config: s.model === "custom" ? s.config : null,
    gpu: s.gpu,
    framework: c.framework,
    seqLength: s.seqLength,
    microBatch: c.microBatchSize,
    recompute: c.recompute,
    attention: "flash",
    zero: c.zeroStage,
    // The row was evaluated with its framework's default (FSDP2 keeps gathered weights under a pipeline).
    reshard: defaultReshardAfterForward(c.framework, c.pp),
    dp: c.dp,
    tp: c.tp,
    sp: c.tp > 1,
    pp: c.pp,
    split: splitOf(c),
    schedule: "1f1b",
    microbatches: c.microbatches,
    chunks: 2,
    cp: c.cp,
    ep: c.ep,
  };
}

/** The chapter page whose memory explorer a result row opens, and that explorer's element id. */
export const MEMORY_EXPLORER_PAGE = "tensor-parallelism";
export const MEMORY_EXPLORER_ID = "widget-memory-explorer-1";

/** The link, relative to the finder's page, to the memory explorer in a row's state. */
export function explorerLinkOf(s: ConfigFinderSettings, c: RankedConfig): string {
  return `../${MEMORY_EXPLORER_PAGE}/?${MEMORY_EXPLORER_ID}=${encodeMemoryStateFull(explorerStateOf(s, c))}#${MEMORY_EXPLORER_ID}`;
}

/** The architecture the finder searched for these settings (the preset's or the pasted config), or null when it does not parse. */
function rowArchitecture(s: ConfigFinderSettings): ModelArchitecture | null {
  try {
    return parseModelConfig(finderArchitecture(s)).architecture;
  } catch (e) {
    if (e instanceof ModelInputError) return null;
    throw e;
  }
}

/**
 * A row's memory per GPU by category: the search's own call, trainingMemory with the row's setup
 * and its ranked stage split (src/model/config-search.ts prices each split so), so its total is the
 * row's GB per GPU.
 */
export function rowMemoryBreakdown(arch: ModelArchitecture, s: ConfigFinderSettings, c: RankedConfig): MemoryBreakdown {
  return trainingMemory(arch, {
    seqLength: s.seqLength,
    tp: c.tp,
    sequenceParallel: c.tp > 1,
    pp: c.pp,
    cp: c.cp,
    dp: c.dp,
    ep: c.ep,
    microBatchSize: c.microBatchSize,
    zeroStage: c.zeroStage,
    recompute: c.recompute,
    microbatches: c.microbatches,
    framework: c.framework,
    stageLayers: c.stageLayers,
  }).perGpu;
}

/** A row's launch configurations for these settings, or null when the row is not one of their layouts. */
export function rowLaunchConfigs(s: ConfigFinderSettings, c: RankedConfig): LaunchConfig[] | null {
  const arch = rowArchitecture(s);
  if (!arch) return null;
  try {
    return launchConfigs({
      row: c,
      config: arch,
      seqLength: s.seqLength,
      globalBatch: s.globalBatch,
      gpuCount: s.gpuCount,
      precision: s.precision,
    });
  } catch (e) {
    if (e instanceof ModelInputError) return null;
    throw e;
  }
}

/**
 * The disclosure under a row: its memory per GPU by category and its step time by part (the same
 * engine results the row shows), then its launch configuration for each framework in a
 * `pre[data-launch]` (or the sentence saying why the framework cannot run it).
 */
function fillRowDetails(box: Element, s: ConfigFinderSettings, c: RankedConfig, rank: number): void {
  const doc = box.ownerDocument;
  const { el } = dom(doc);
  const arch = rowArchitecture(s);
  const gb = (bytes: number) => `${gbShown(bytes)} GB`;
  const list = (title: string, items: readonly (readonly [string, string])[]) => {
    const wrap = el("div", { class: "config-finder-parts" });
    wrap.append(el("h4", {}, title));
    const dl = el("dl");
    for (const [k, v] of items) dl.append(el("dt", {}, k), el("dd", {}, v));
    wrap.append(dl);
    return wrap;
  };
  const parts = el("div", { class: "config-finder-breakdown" });
  if (arch) {
    const m = rowMemoryBreakdown(arch, s, c);
    parts.append(
      list("Memory per GPU (peak stage)", [
        ["weights", gb(m.parameters)],
        ["gradients", gb(m.gradients)],
        ["optimizer states", gb(m.optimizer)],
        ["activations", gb(m.activations)],
        ["total", gb(m.total)],
        ...(c.pp > 1 ? [["layers per stage", stageLayersText(c.stageLayers)] as const] : []),
      ]),
    );
  }
  const comm = configFinderParts.filter((p) => p.key !== "compute" && p.key !== "bubble");
  parts.append(
    list("Time per step (slowest stage)", [
      ["compute", seconds(c.computeSeconds - c.recomputeSeconds)],
      ["recomputation", seconds(c.recomputeSeconds)],
      ["pipeline bubble", seconds(c.bubbleSeconds)],
      ...comm.map((p) => [`exposed ${p.label}`, seconds(partSeconds(c, p.key))] as const),
      ["step", seconds(c.stepSeconds)],
      ["MFU", formatPercent(c.mfu)],
    ]),
  );
  box.append(parts);
  const configs = rowLaunchConfigs(s, c);
  if (!configs) {
    box.append(el("p", {}, "No launch configuration: the row is not a layout of these settings."));
    return;
  }
  for (const framework of LAUNCH_FRAMEWORKS) {
    const l = configs.find((x) => x.framework === framework);
    if (!l) continue;
    const section = el("div", { class: "config-finder-launch" });
    section.append(el("h4", {}, LAUNCH_LABELS[framework]));
    if (l.ok) {
      const block = el("div", { class: "code-block" });
      const pre = el("pre", {
        "data-launch": framework,
        tabindex: "0",
        "aria-label": `${LAUNCH_LABELS[framework]} for configuration ${rank}`,
      });
      pre.append(el("code", {}, l.text));
      block.append(pre);
      section.append(block);
      for (const note of l.notes) section.append(el("p", { class: "config-finder-launch-note" }, note));
    } else section.append(el("p", { "data-launch-refused": framework }, l.reason));
    box.append(section);
  }
}

/**
 * Fills the table with the `count` fastest configurations: one `tr[data-layout]` per row carrying
 * its degrees, ZeRO stage, GB per GPU (as shown), layers per stage and step seconds, and a link that opens the
 * memory explorer in the row's state; under each, a `tr.config-finder-detail` whose disclosure holds
 * the row's memory and time breakdown and its launch configurations.
 */
export function fillConfigTable(table: Element, s: ConfigFinderSettings, r: ConfigSearchResult, count = 5): void {
  const doc = table.ownerDocument;
  const { el } = dom(doc);
  // A redraw keeps open the disclosures of the rows that stay (the same layout).
  const open = new Set(
    [...table.querySelectorAll("tr[data-detail-of] details[open]")].map((d) =>
      d.closest("tr")?.getAttribute("data-detail-of"),
    ),
  );
  table.textContent = "";
  const caption = el(
    "caption",
    {},
    r.ranked.length > 0 ? "Fastest configurations that fit (modeled)" : "No configuration fits these settings",
  );
  const head = tableHead(doc, [...tableColumns.map((c) => c.head), "Memory"]);
  const body = el("tbody");
  r.ranked.slice(0, count).forEach((c, i) => {
    const layout = `dp${c.dp}-tp${c.tp}-pp${c.pp}-cp${c.cp}-ep${c.ep}-zero${c.zeroStage}`;
    const tr = el("tr", {
      "data-layout": layout,
      "data-dp": c.dp,
      "data-tp": c.tp,
      "data-pp": c.pp,
      "data-cp": c.cp,
      "data-ep": c.ep,
      "data-zero": c.zeroStage,
      "data-framework": c.framework,
      "data-gb-per-gpu": gbAttribute(c.memoryBytes),
      "data-stage-layers": c.stageLayers.join(","),
      "data-step-seconds": String(c.stepSeconds),
    });
    tr.append(...tableColumns.map((col) => el("td", { "data-label": col.label }, col.value(c, i))));
    const link = el(
      "a",
      {
        href: explorerLinkOf(s, c),
        "data-open-in": "memory-explorer",
        "aria-label": `Open configuration ${i + 1} in the memory explorer`,
      },
      "open",
    );
    const cell = el("td", { "data-label": "memory" });
    cell.append(link);
    tr.append(cell);
    const detail = el("tr", { class: "config-finder-detail", "data-detail-of": layout });
    const detailCell = el("td", { colspan: tableColumns.length + 1 });
    const details = el("details", open.has(layout) ? { open: "" } : {});
    details.append(el("summary", {}, `Configuration ${i + 1}: breakdown and launch configuration`));
    const content = el("div", { class: "config-finder-detail-body" });
    fillRowDetails(content, s, c, i + 1);
    details.append(content);
    detailCell.append(details);
    detail.append(detailCell);
    body.append(tr, detail);
  });
  table.append(caption, head, body);
}

/** The cluster in words: "8 GPUs per server (one NVLink domain), 8 NICs per server at 45 GB/s of bus bandwidth each (the H100 SXM system's record)". */
export function clusterText(s: ConfigFinderSettings): string {
  const c = finderCluster(s);
  const own = s.gpusPerServer !== null || s.nicsPerServer !== null || s.nicGBps !== null;
  const gpu = findGpu(s.gpu);
  return (
    `${formatInteger(c.gpusPerServer)} GPUs per server (one NVLink domain), ${formatInteger(c.nicsPerServer)} NICs per server at ` +
    `${formatNumber(c.nicBusBytesPerSecond / 1e9, { significant: 3 })} GB/s of bus bandwidth each (${own ? "your values over " : ""}the ${gpu?.name ?? s.gpu} system's record)`
  );
}

/** The model note under the table: the engine's assumptions for these settings, with the numbers it uses. */
export function configFinderNote(s: ConfigFinderSettings): string {
  const gpu = findGpu(s.gpu);
  const frameworks =
    s.framework === "auto"
      ? "each ZeRO stage under the framework the search pairs it with (Megatron-LM for ZeRO-0 and ZeRO-1, DeepSpeed for ZeRO-2, PyTorch FSDP2 for ZeRO-3)"
      : `${FRAMEWORK_LABELS[s.framework]} with the ZeRO stages it runs`;
  return (
    "Model: the step model of chapter 8 and appendix C, the engine every widget uses: " +
    `compute at ${efficiencyLabel(s.gpu)}, one kernel efficiency per GPU generation; ` +
    (s.precision === "fp8" ? `${fp8Text(s.gpu)}; ` : "") +
    "recomputation; " +
    "the slowest pipeline stage (end stages trimmed) and its bubble; exposed TP, CP, PP and EP traffic and the sharding windows of DP and ZeRO, " +
    "each group at the bus bandwidth NCCL measures for where its ranks sit (one NVLink server, or across servers on their NICs); " +
    `cluster: ${clusterText(s)}; ` +
    `${frameworks}, with its state layout and overlap defaults. A configuration fits when its peak stage needs at most ${gpu ? budgetLabel(gpu) : "the usable memory"}. ` +
    CONFIG_SEARCH_EXCLUSIONS
  );
}

/**
 * The fp8 part of the note: the linear layers at their fitted share of the dense fp8 peak, the rest
 * in bf16, memory priced as bf16, MFU against the bf16 peak.
 */
export function fp8Text(gpuId: string): string {
  const gpu = findGpu(gpuId);
  if (!gpu || gpu.fp8FlopsPerSecond === null) return `fp8: ${gpu?.name ?? gpuId} has no fp8 tensor cores`;
  const eta8 = FP8_KERNEL_EFFICIENCY[gpuGeneration(gpuId)];
  return (
    `fp8: the linear layers' matmuls at ${eta8 === null ? "no fitted share" : `${Math.round(eta8 * 100)}%`} of the dense fp8 peak (${formatInteger(gpu.fp8FlopsPerSecond / 1e12)} TFLOP/s), ` +
    `attention's matmuls and the LM head in bf16; ${FP8_MEMORY_NOTE.replace(/^fp8: /, "")}; MFU still against the dense bf16 peak`
  );
}

/** The planner's extra outputs: the error bands (read from the markup) and the named layout's verdict. */
export interface FinderExtras {
  bands?: FinderErrorBands | null;
  named?: NamedVerdict | null;
}

/** Shows the named layout's verdict in its paragraph (empty and hidden when no layout is named). */
export function showNamedVerdict(el: Element, v: NamedVerdict | null): void {
  el.textContent = v ? v.text : "";
  if (v) {
    el.setAttribute("data-named-status", v.status);
    if (v.rank !== null) el.setAttribute("data-named-rank", String(v.rank));
    else el.removeAttribute("data-named-rank");
    el.removeAttribute("hidden");
  } else {
    el.removeAttribute("data-named-status");
    el.removeAttribute("data-named-rank");
    el.setAttribute("hidden", "");
  }
}

/** Draws the result: bars, explanation, table and note (the static build and every redraw). */
export function drawConfigFinderResult(
  parts: { figure: Element; readout: Element; table: Element; note: Element; named?: Element; train?: Element },
  s: ConfigFinderSettings,
  result: ConfigSearchResult,
  diagnosis: ConfigFinderDiagnosis | null,
  options: { idPrefix: string; width?: number },
  extras: FinderExtras = {},
): string {
  parts.figure.textContent = "";
  drawConfigBars(parts.figure, result, { idPrefix: options.idPrefix, gpu: s.gpu, width: options.width });
  const text = explainConfigFinder(s, result, diagnosis, extras.bands ?? null);
  parts.readout.textContent = text;
  fillConfigTable(parts.table, s, result);
  parts.note.textContent = configFinderNote(s);
  if (parts.named) showNamedVerdict(parts.named, extras.named ?? null);
  if (parts.train) {
    parts.train.textContent = rowsTimeToTrainText(s, result);
    if (parts.train.textContent === "") parts.train.setAttribute("hidden", "");
    else parts.train.removeAttribute("hidden");
  }
  return text;
}

/** The optional numeric fields: label, and the placeholder (what empty means, from the engine). */
function optionalFields(s: ConfigFinderSettings): { key: OptionalKey; label: string; placeholder: string }[] {
  const c = finderCluster({ ...s, gpusPerServer: null, nicsPerServer: null, nicGBps: null });
  return [
    { key: "maxTp", label: "Largest TP", placeholder: `${c.nvlinkDomain}` },
    { key: "maxPp", label: "Largest PP", placeholder: "any" },
    { key: "maxCp", label: "Largest CP (1: no CP)", placeholder: "any" },
    { key: "maxEp", label: "Largest EP", placeholder: "any" },
    { key: "gpusPerServer", label: "GPUs per server (NVLink domain)", placeholder: `${c.gpusPerServer}` },
    { key: "nicsPerServer", label: "NICs per server", placeholder: `${c.nicsPerServer}` },
    {
      key: "nicGBps",
      label: "Bus bandwidth per NIC, GB/s",
      placeholder: formatNumber(c.nicBusBytesPerSecond / 1e9, { significant: 3 }),
    },
  ];
}

/** The text an optional field shows for a value. */
export function optionalFieldValue(key: OptionalKey, v: number | null): string {
  if (v === null) return "";
  return key === "tokens" ? tokensText(v) : String(v);
}

/** Whether the settings leave the constraints and cluster at their defaults (the disclosure starts closed). */
export function plannerDefaults(s: ConfigFinderSettings): boolean {
  return (
    s.maxTp === null &&
    s.maxPp === null &&
    s.maxCp === null &&
    s.maxEp === null &&
    s.maxZero === 3 &&
    s.gpusPerServer === null &&
    s.nicsPerServer === null &&
    s.nicGBps === null
  );
}

/** Draws the widget's controls (disabled until the script loads), chart, table and explanation. */
function renderConfigFinderStatic(root: Element, s: ConfigFinderSettings): void {
  const doc = root.ownerDocument;
  const idBase = root.getAttribute("id") ?? "config-finder";
  const { el } = dom(doc);
  const box = el("div", { class: "config-finder" });
  const bands = finderErrorBands();
  // Computed once here, at build time, from the engine; the browser reads it back (readErrorBands).
  box.setAttribute("data-error-bands", JSON.stringify(bands));
  const controls = el("div", { class: "widget-controls" });
  const select = (
    parent: Element,
    key: "model" | "gpu" | "framework" | "precision" | "maxZero",
    label: string,
    options: readonly (readonly [string, string])[],
  ) => parent.append(selectField(doc, { idBase, name: key, label, options, value: String(s[key]), message: true }));
  select(controls, "model", "Model", configFinderModelOptions);
  select(
    controls,
    "gpu",
    "GPU",
    configFinderGpus.map((o) => [o.id, o.name] as const),
  );
  select(controls, "framework", "Framework", configFinderFrameworks);
  select(controls, "precision", "Precision", configFinderPrecisionOptions);
  for (const [key, label] of [
    ["gpuCount", "GPUs"],
    ["seqLength", "Sequence length s"],
    ["globalBatch", "Global batch, sequences"],
  ] as const) {
    controls.append(numberField(doc, { idBase, name: key, label, value: s[key], size: 8 }));
  }
  // The pasted config.json, shown when the model select says "custom".
  const configField = el("div", { class: "config-finder-config" });
  const configId = `${idBase}-config`;
  const textarea = el("textarea", {
    id: configId,
    name: "config",
    rows: "6",
    spellcheck: "false",
    disabled: true,
    "aria-describedby": `${configId}-message`,
    placeholder: '{ "model_type": "llama", "hidden_size": 4096, … }',
  });
  textarea.textContent = s.config ? JSON.stringify(s.config, null, 1) : "";
  configField.append(
    el("label", { for: configId }, "config.json (Hugging Face)"),
    textarea,
    el("p", { class: "widget-message", id: `${configId}-message`, role: "alert" }),
  );
  if (s.model !== "custom") configField.setAttribute("hidden", "");
  controls.append(configField);
  // Constraints and cluster shape, in a disclosure.
  const more = el("details", { class: "config-finder-more" });
  if (!plannerDefaults(s)) more.setAttribute("open", "");
  more.append(el("summary", {}, "Constraints and cluster"));
  const moreControls = el("div", { class: "widget-controls" });
  for (const f of optionalFields(s)) {
    const field = numberField(doc, {
      idBase,
      name: f.key,
      label: f.label,
      value: optionalFieldValue(f.key, s[f.key]),
      size: 6,
      inputmode: f.key === "nicGBps" ? "decimal" : "numeric",
    });
    field.querySelector("input")?.setAttribute("placeholder", f.placeholder);
    moreControls.append(field);
    if (f.key === "maxEp") select(moreControls, "maxZero", "Largest ZeRO stage", configFinderZeroOptions);
  }
  more.append(moreControls);
  controls.append(more);
  // Tokens to train and a named layout.
  const tokens = numberField(doc, {
    idBase,
    name: "tokens",
    label: "Tokens to train",
    value: optionalFieldValue("tokens", s.tokens),
    size: 8,
    inputmode: "decimal",
  });
  tokens.querySelector("input")?.setAttribute("placeholder", "e.g. 15T");
  controls.append(tokens);
  const layoutField = numberField(doc, {
    idBase,
    name: "layout",
    label: "Evaluate a layout",
    value: s.layout,
    size: 36,
    inputmode: "decimal",
  });
  layoutField.classList.add("wide-field");
  const layoutInput = layoutField.querySelector("input");
  layoutInput?.removeAttribute("inputmode");
  layoutInput?.setAttribute("placeholder", "e.g. DP 8 TP 8 PP 4 ZeRO 1 b 1 selective");
  layoutInput?.setAttribute("title", NAMED_LAYOUT_DEFAULTS);
  controls.append(layoutField);

  const result = runConfigFinder(s);
  const output = el("div", { class: "config-finder-output" });
  const figure = el("div", { class: "config-finder-figure" });
  const readout = el("p", { class: "config-finder-readout" });
  const named = el("p", { class: "config-finder-named", hidden: true });
  const scroll = el("div", { class: "table-scroll config-finder-scroll" });
  const table = el("table", { class: "config-finder-table" });
  scroll.append(table);
  const train = el("p", { class: "config-finder-train", hidden: true });
  const note = el("small", { class: "config-finder-note" });
  const noteP = el("p");
  noteP.append(note);
  const diagnosis = result.ranked.length === 0 ? diagnoseConfigFinder(s, result) : null;
  drawConfigFinderResult(
    { figure, readout, table, note, named, train },
    s,
    result,
    diagnosis,
    { idPrefix: `${idBase}-svg` },
    { bands, named: namedVerdict(s, result.ranked) },
  );
  output.append(figure, readout, named, scroll, train, noteP);
  const live = el("p", { class: "visually-hidden", "aria-live": "polite" });
  box.append(controls, output, live);
  root.append(box);
}

/** The `config-finder` widget. */
export const configFinderWidget = defineWidget<ConfigFinderSettings>({
  description:
    "enumerates DP/TP/PP/CP/EP/ZeRO/recomputation/micro-batch configurations under a framework profile, constraints and a cluster shape, rules out those that do not fit the usable memory, ranks the rest by the step model, and ranks a layout the reader names",
  parseSettings: parseConfigFinderSettings,
  renderStatic: renderConfigFinderStatic,
});
