/**
 * The `moe-routing` figure: per-expert bars (kept and dropped assignments against the expert
 * capacity), grouped by the GPU that hosts them, and per-GPU load bars against the mean.
 *
 * Drawn with the kit's `svg()` builder into the element it is given (never the `window`/`document` globals), so the
 * same code renders the static SVG at build time under linkedom and redraws in the browser. Every number
 * comes from `simulateMoeRouting` in src/model.
 */
import { dom } from "./kit/dom.ts";
import { scaleBand, scaleLinear } from "d3-scale";
import {
  MOE_ROUTING_EXAMPLE,
  simulateMoeRouting,
  validateMoeRoutingInput,
  type MoeRoutingInput,
  type MoeRoutingResult,
  ModelInputError,
} from "../model/index.ts";
import { WidgetSettingsError, defineWidget, settingsObject } from "./widget.ts";
import { settingsUrlCodec } from "./kit/url-codec.ts";
import { formatNumber, formatPercent } from "./kit/format.ts";

/** Widget settings: exactly the routing input of the model. */
export type MoeRoutingSettings = MoeRoutingInput;

/** Default state, used when a chapter gives no settings. */
export const moeRoutingDefaults: MoeRoutingSettings = { ...MOE_ROUTING_EXAMPLE };

/** Allowed values for the select controls (and checked when settings are parsed). */
export const moeExpertChoices = [8, 16, 32, 64] as const;
export const moeGpuChoices = [1, 2, 4, 8] as const;

const WIDTH = 720;
const HEIGHT = 400;

/** One-paragraph text summary of a routing result (also the screen-reader summary). */
export function summarizeMoeRouting(result: MoeRoutingResult): string {
  const { input, capacityPerExpert, droppedAssignments, totalAssignments, tokensFullyDropped, gpuImbalance } = result;
  const busiest = result.gpuKept.indexOf(Math.max(...result.gpuKept));
  const capacityText =
    capacityPerExpert === null
      ? "No capacity limit (dropless)."
      : `Capacity ${formatNumber(capacityPerExpert)} slots per expert.`;
  return (
    `${formatNumber(input.tokens)} tokens, top-${input.topK} of ${input.experts} experts on ${input.gpus} GPU` +
    `${input.gpus === 1 ? "" : "s"}, skew ${input.skew}. ${capacityText} ` +
    `Dropped ${formatNumber(droppedAssignments)} of ${formatNumber(totalAssignments)} assignments ` +
    `(${formatPercent(result.droppedFraction)}); ${formatNumber(tokensFullyDropped)} token` +
    `${tokensFullyDropped === 1 ? "" : "s"} lost every expert. ` +
    `Busiest GPU: GPU ${busiest} with ${formatNumber(result.gpuKept[busiest])} assignments, ` +
    `${formatNumber(gpuImbalance, { decimals: 2 })}× the mean.`
  );
}

/**
 * Draws `result` into `root`, replacing a previous drawing made by this function. Returns the SVG
 * element. `root.ownerDocument` creates every node.
 */
export function drawMoeRouting(root: Element, result: MoeRoutingResult): SVGSVGElement {
  for (const old of Array.from(root.querySelectorAll("svg.moe-routing-chart"))) old.remove();
  const b = dom(root.ownerDocument).svg;
  const withTitle = <E extends SVGElement>(e: E, title: string): E => {
    e.append(b("title", {}, title));
    return e;
  };
  const { input, expertRequested, expertKept, gpuKept, capacityPerExpert } = result;
  const expertsPerGpu = input.experts / input.gpus;

  const svg = b("svg", {
    class: "moe-routing-chart",
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    role: "img",
    "aria-label": summarizeMoeRouting(result),
    "font-family": "system-ui, -apple-system, 'Segoe UI', sans-serif",
    "font-size": 12,
    style: "max-width:100%;height:auto",
  });
  root.append(svg);

  // ---- Top panel: assignments per expert, grouped by GPU --------------------------------------
  const top = { x: 56, y: 30, w: WIDTH - 70, h: 190 };
  const yMax = Math.max(1, ...expertRequested, capacityPerExpert ?? 0);
  const y = scaleLinear()
    .domain([0, yMax * 1.08])
    .range([top.y + top.h, top.y])
    .nice();
  const groupGap = input.gpus > 1 ? 14 : 0;
  const groupWidth = (top.w - groupGap * (input.gpus - 1)) / input.gpus;
  const band = scaleBand<number>()
    .domain(Array.from({ length: expertsPerGpu }, (_, i) => i))
    .range([0, groupWidth])
    .paddingInner(expertsPerGpu > 16 ? 0.1 : 0.2)
    .paddingOuter(0.1);
  const expertX = (e: number) =>
    top.x + Math.floor(e / expertsPerGpu) * (groupWidth + groupGap) + (band(e % expertsPerGpu) ?? 0);

  svg.append(
    b(
      "text",
      { x: top.x, y: 16, fill: "currentColor", "font-weight": 600 },
      "Assignments per expert (kept and dropped)",
    ),
  );

  const yTicks = y.ticks(4);
  const grid = b("g", { class: "moe-axis" });
  svg.append(grid);
  for (const t of yTicks) {
    grid.append(
      b("line", { x1: top.x, x2: top.x + top.w, y1: y(t), y2: y(t), stroke: "currentColor", "stroke-opacity": 0.12 }),
    );
    grid.append(b("text", { x: top.x - 6, y: y(t) + 4, "text-anchor": "end", fill: "currentColor" }, formatNumber(t)));
  }

  for (let g = 0; g < input.gpus; g++) {
    const gx = top.x + g * (groupWidth + groupGap);
    svg.append(
      b("rect", {
        x: gx,
        y: top.y - 4,
        width: groupWidth,
        height: top.h + 4,
        fill: "var(--c-muted)",
        "fill-opacity": 0.06,
        rx: 4,
      }),
    );
    svg.append(
      b(
        "text",
        { x: gx + groupWidth / 2, y: top.y + top.h + 16, "text-anchor": "middle", fill: "currentColor" },
        `GPU ${g}: experts ${g * expertsPerGpu}–${(g + 1) * expertsPerGpu - 1}`,
      ),
    );
  }

  const bars = b("g", { class: "moe-expert-bars" });
  svg.append(bars);
  const bw = band.bandwidth();
  for (let e = 0; e < input.experts; e++) {
    const x = expertX(e);
    const kept = expertKept[e];
    const dropped = expertRequested[e] - kept;
    bars.append(
      withTitle(
        b("rect", { x, y: y(kept), width: bw, height: y(0) - y(kept), fill: "var(--c-params)" }),
        `expert ${e}: ${formatNumber(kept)} kept, ${formatNumber(dropped)} dropped`,
      ),
    );
    if (dropped > 0) {
      bars.append(
        b("rect", {
          x,
          y: y(kept + dropped),
          width: bw,
          height: y(kept) - y(kept + dropped),
          fill: "var(--c-grads)",
          stroke: "currentColor",
          "stroke-width": 0.8,
          "stroke-dasharray": "3 2",
        }),
      );
    }
  }

  if (capacityPerExpert !== null) {
    const cy = y(capacityPerExpert);
    svg.append(
      b("line", {
        class: "moe-capacity",
        x1: top.x,
        x2: top.x + top.w,
        y1: cy,
        y2: cy,
        stroke: "currentColor",
        "stroke-width": 1.5,
        "stroke-dasharray": "6 4",
      }),
    );
    svg.append(
      b(
        "text",
        {
          x: top.x + top.w,
          y: cy - 5,
          "text-anchor": "end",
          fill: "currentColor",
          "paint-order": "stroke",
          stroke: "var(--c-bg)",
          "stroke-width": 4,
        },
        `capacity ${formatNumber(capacityPerExpert)}`,
      ),
    );
  }

  // legend
  const legend = b("g", { transform: `translate(${WIDTH - 250}, 6)` });
  svg.append(legend);
  legend.append(b("rect", { width: 12, height: 12, fill: "var(--c-params)" }));
  legend.append(b("text", { x: 16, y: 10, fill: "currentColor" }, "kept"));
  legend.append(
    b("rect", {
      x: 60,
      width: 12,
      height: 12,
      fill: "var(--c-grads)",
      stroke: "currentColor",
      "stroke-width": 0.8,
      "stroke-dasharray": "3 2",
    }),
  );
  legend.append(b("text", { x: 76, y: 10, fill: "currentColor" }, "dropped"));
  legend.append(
    b("line", {
      x1: 140,
      x2: 166,
      y1: 6,
      y2: 6,
      stroke: "currentColor",
      "stroke-width": 1.5,
      "stroke-dasharray": "6 4",
    }),
  );
  legend.append(b("text", { x: 170, y: 10, fill: "currentColor" }, "capacity"));

  // ---- Bottom panel: kept assignments per GPU ---------------------------------------------------
  const bottom = { x: 56, y: 270, w: WIDTH - 70, rowH: Math.min(24, 110 / input.gpus) };
  svg.append(
    b(
      "text",
      { x: top.x, y: bottom.y - 12, fill: "currentColor", "font-weight": 600 },
      "Work per GPU (kept assignments) against the mean",
    ),
  );
  const meanKept = gpuKept.reduce((s, v) => s + v, 0) / input.gpus;
  const x = scaleLinear()
    .domain([0, Math.max(1, ...gpuKept) * 1.05])
    .range([bottom.x, bottom.x + bottom.w - 150]);
  for (let g = 0; g < input.gpus; g++) {
    const ry = bottom.y + g * bottom.rowH;
    svg.append(
      b(
        "text",
        { x: bottom.x - 6, y: ry + bottom.rowH * 0.68, "text-anchor": "end", fill: "currentColor" },
        `GPU ${g}`,
      ),
    );
    svg.append(
      b("rect", {
        class: "moe-gpu-bar",
        x: bottom.x,
        y: ry + 2,
        width: Math.max(0, x(gpuKept[g]) - bottom.x),
        height: bottom.rowH - 4,
        fill: "var(--c-comm)",
      }),
    );
    svg.append(
      b(
        "text",
        {
          x: x(gpuKept[g]) + 6,
          y: ry + bottom.rowH * 0.68,
          fill: "currentColor",
          "paint-order": "stroke",
          stroke: "var(--c-bg)",
          "stroke-width": 4,
        },
        `${formatNumber(gpuKept[g])} (${formatNumber(gpuKept[g] / meanKept, { decimals: 2 })}× mean)`,
      ),
    );
  }
  const mx = x(meanKept);
  svg.append(
    b("line", {
      x1: mx,
      x2: mx,
      y1: bottom.y - 2,
      y2: bottom.y + input.gpus * bottom.rowH + 2,
      stroke: "currentColor",
      "stroke-width": 1.5,
      "stroke-dasharray": "2 3",
    }),
  );
  svg.append(
    b(
      "text",
      { x: mx, y: bottom.y + input.gpus * bottom.rowH + 16, "text-anchor": "middle", fill: "currentColor" },
      `mean ${formatNumber(Math.round(meanKept * 10) / 10)}`,
    ),
  );

  return svg;
}

/** Static rendering: the chart and its summary paragraph for the given settings. */
function renderMoeRoutingStatic(root: Element, settings: MoeRoutingSettings): void {
  const result = simulateMoeRouting(settings);
  drawMoeRouting(root, result);
  root.appendChild(dom(root.ownerDocument).el("p", { class: "widget-summary" }, summarizeMoeRouting(result)));
}

const settingKeys = ["tokens", "experts", "gpus", "topK", "capacityFactor", "skew", "seed"] as const;

/**
 * Parses the YAML settings of `::: widget moe-routing`. Every key is optional (defaults above);
 * `capacityFactor: null` (or `none`) means no capacity limit. The model validates the ranges and
 * its error is re-thrown naming the setting. `experts` and `gpus` must be one of the values the
 * widget's selects offer.
 */
export function parseMoeRoutingSettings(raw: unknown): MoeRoutingSettings {
  const obj = settingsObject(raw, settingKeys);
  const cf = obj.capacityFactor;
  const settings: MoeRoutingSettings = {
    tokens: (obj.tokens ?? moeRoutingDefaults.tokens) as number,
    experts: (obj.experts ?? moeRoutingDefaults.experts) as number,
    gpus: (obj.gpus ?? moeRoutingDefaults.gpus) as number,
    topK: (obj.topK ?? moeRoutingDefaults.topK) as number,
    capacityFactor:
      cf === undefined ? moeRoutingDefaults.capacityFactor : cf === null || cf === "none" ? null : (cf as number),
    skew: (obj.skew ?? moeRoutingDefaults.skew) as number,
    seed: (obj.seed ?? moeRoutingDefaults.seed) as number,
  };
  if (!(moeExpertChoices as readonly unknown[]).includes(settings.experts)) {
    throw new WidgetSettingsError(
      "experts",
      `must be one of ${moeExpertChoices.join(", ")} (got ${JSON.stringify(settings.experts)})`,
    );
  }
  if (!(moeGpuChoices as readonly unknown[]).includes(settings.gpus)) {
    throw new WidgetSettingsError(
      "gpus",
      `must be one of ${moeGpuChoices.join(", ")} (got ${JSON.stringify(settings.gpus)})`,
    );
  }
  if (typeof settings.topK === "number" && settings.topK > 8) {
    throw new WidgetSettingsError("topK", `must be at most 8 (got ${settings.topK})`);
  }
  if (typeof settings.tokens === "number" && settings.tokens > 4096) {
    throw new WidgetSettingsError("tokens", `must be at most 4096 (got ${settings.tokens})`);
  }
  try {
    validateMoeRoutingInput(settings);
  } catch (err) {
    if (err instanceof ModelInputError) throw new WidgetSettingsError(err.field, err.message);
    throw err;
  }
  return settings;
}

export const moeRoutingWidget = defineWidget<MoeRoutingSettings>({
  description: "routes tokens to top-k experts on GPUs and shows capacity, dropped tokens and per-GPU load",
  parseSettings: parseMoeRoutingSettings,
  renderStatic: renderMoeRoutingStatic,
});

/** The widget's settings in a page link (`?<widget id>=key:value,…`), checked by the chapter's parser. */
export const moeRoutingUrlCodec = settingsUrlCodec(
  {
    tokens: "number",
    experts: "number",
    gpus: "number",
    topK: "number",
    capacityFactor: "number|none",
    skew: "number",
    seed: "number",
  },
  parseMoeRoutingSettings,
);
