/**
 * The `ring-attention` widget: the causal score matrix of one sequence cut into 2c × 2c tiles, with
 * the step of the ring at which each tile is computed, the tiles of the current step highlighted,
 * which K/V block each GPU holds, and each GPU's work so far against its total.
 *
 * All bookkeeping comes from `planRingAttention` in src/model/ring-attention.ts; this file only
 * draws. It draws into the element it is given (never the `window`/`document` globals), so the
 * build renders the static SVG under linkedom and the browser redraws with the same code.
 *
 * Settings (YAML inside `::: widget ring-attention`), all optional:
 *   gpus: 4                 # c, GPUs in the ring (1–16)
 *   sharding: contiguous    # contiguous or zigzag
 *   causal: true            # causal mask
 *   step: all               # the step shown: a number 0 … c−1, or "all"
 */
import { planRingAttention, type CpSharding, type RingAttentionPlan } from "../model/index.ts";
import { WidgetSettingsError, defineWidget, settingsObject } from "./widget.ts";
import { settingsUrlCodec } from "./kit/url-codec.ts";
import { dom, figureSvg } from "./kit/dom.ts";
import { numberField, selectField } from "./kit/field.ts";
import { formatNumber, formatPercent } from "./kit/format.ts";

export interface RingAttentionSettings {
  gpus: number;
  sharding: CpSharding;
  causal: boolean;
  /** Step shown, or null for all steps. */
  step: number | null;
}

export const ringAttentionDefaults: RingAttentionSettings = {
  gpus: 4,
  sharding: "contiguous",
  causal: true,
  step: null,
};
const RING_MAX_GPUS = 16;

/** The step index of every tile (row = query chunk, column = key chunk); -1 for masked tiles. */
export function tileSteps(plan: RingAttentionPlan): number[][] {
  const n = plan.chunks;
  const out = Array.from({ length: n }, () => new Array<number>(n).fill(-1));
  for (const s of plan.steps)
    for (const g of s.gpus) for (const t of g.tiles) if (t.kind !== "masked") out[t.queryChunk][t.keyChunk] = s.step;
  return out;
}

/** Work of each GPU up to and including `step` (all steps when null). */
export function workSoFar(plan: RingAttentionPlan, step: number | null): number[] {
  const last = step === null ? plan.steps.length - 1 : step;
  const done = new Array<number>(plan.input.gpus).fill(0);
  for (const s of plan.steps.slice(0, last + 1)) for (const g of s.gpus) done[g.gpu] += g.work;
  return done;
}

/** Work in tiles: whole tiles exactly, a fraction with one decimal ("2.5"). */
const fmtWork = (x: number) => formatNumber(x, { decimals: Number.isInteger(x) ? 0 : 1 });

/** Text summary of the state (readout and screen-reader summary). */
export function summarizeRingAttention(s: RingAttentionSettings): string {
  const plan = planRingAttention({ gpus: s.gpus, sharding: s.sharding, causal: s.causal });
  const head =
    `${s.gpus} GPU${s.gpus === 1 ? "" : "s"}, ${s.sharding === "zigzag" ? "zig-zag" : "contiguous"} sharding, ` +
    `${s.causal ? "causal mask" : "no mask"}.`;
  const totals = `Work per GPU in tiles: ${plan.workPerGpu.map((w, i) => `GPU ${i} ${fmtWork(w)}`).join(", ")}.`;
  const path =
    `Critical path ${fmtWork(plan.criticalPathWork)} tiles against ${fmtWork(plan.idealWork)} for a balanced ring ` +
    `(${formatPercent(plan.efficiency)} efficient).`;
  if (s.step === null) return `${head} ${totals} ${path}`;
  const st = plan.steps[s.step];
  const holds = st.gpus
    .map((g) => `GPU ${g.gpu} holds K/V of GPU ${g.kvFrom} and computes ${fmtWork(g.work)} tiles`)
    .join("; ");
  return `${head} Step ${s.step} of ${plan.steps.length - 1}: ${holds}. This step lasts ${fmtWork(st.maxWork)} tiles. ${path}`;
}

const WIDTH = 660;
const M = 300;
const X0 = 48;
const Y0 = 58;

/** Draws the plan into `root`, replacing an earlier drawing. */
export function drawRingAttention(root: Element, s: RingAttentionSettings, idPrefix = "ring-attention"): SVGSVGElement {
  const plan = planRingAttention({ gpus: s.gpus, sharding: s.sharding, causal: s.causal });
  const steps = tileSteps(plan);
  const n = plan.chunks;
  const tile = M / n;
  const current = s.step;
  const height = Y0 + M + 40;

  const S = dom(root.ownerDocument).svg;
  for (const old of Array.from(root.querySelectorAll("svg.ring-attention-chart"))) old.remove();
  const svg = figureSvg(root.ownerDocument, {
    idPrefix,
    width: WIDTH,
    height,
    title: `Ring attention tiles on ${s.gpus} GPUs`,
    desc: summarizeRingAttention(s),
    attrs: {
      class: "ring-attention-chart",
      "font-family": "system-ui, -apple-system, 'Segoe UI', sans-serif",
      "font-size": 12,
      style: "max-width: 100%; height: auto;",
    },
  });
  root.append(svg);

  svg.append(S("text", { x: X0, y: 16, class: "ra-title" }, "Score matrix: queries (rows) × keys (columns)"));
  svg.append(
    S(
      "text",
      { x: X0, y: 32, class: "ra-muted" },
      current === null
        ? "Number in a tile: the step that computes it"
        : `Highlighted: tiles computed in step ${current}`,
    ),
  );

  // Owner bands: the GPU owning each key chunk (top) and query chunk (left).
  const labelEvery = n > 16 ? 2 : 1;
  for (let k = 0; k < n; k++) {
    const owner = plan.chunkOwner[k];
    svg.append(S("rect", { x: X0 + k * tile, y: Y0 - 14, width: tile - 1, height: 12, class: "ra-band" }));
    if (k % labelEvery === 0) {
      svg.append(
        S(
          "text",
          { x: X0 + k * tile + tile / 2, y: Y0 - 4, "text-anchor": "middle", class: "ra-band-text" },
          String(owner),
        ),
      );
    }
    svg.append(S("rect", { x: X0 - 16, y: Y0 + k * tile, width: 12, height: tile - 1, class: "ra-band" }));
    if (k % labelEvery === 0) {
      svg.append(
        S(
          "text",
          { x: X0 - 10, y: Y0 + k * tile + tile / 2 + 4, "text-anchor": "middle", class: "ra-band-text" },
          String(owner),
        ),
      );
    }
  }
  svg.append(S("text", { x: X0 - 20, y: Y0 - 4, "text-anchor": "end", class: "ra-muted" }, "GPU"));

  const fontSize = Math.min(12, tile * 0.55);
  for (let q = 0; q < n; q++) {
    for (let k = 0; k < n; k++) {
      const st = steps[q][k];
      const x = X0 + k * tile;
      const y = Y0 + q * tile;
      if (st < 0) {
        svg.append(S("rect", { x, y, width: tile - 1, height: tile - 1, class: "ra-masked" }));
        continue;
      }
      const state = current === null ? "all" : st === current ? "now" : st < current ? "done" : "todo";
      const cls = `ra-tile ra-${state}`;
      if (s.causal && q === k) {
        svg.append(S("path", { d: `M${x} ${y} L${x} ${y + tile - 1} L${x + tile - 1} ${y + tile - 1} Z`, class: cls }));
      } else {
        svg.append(S("rect", { x, y, width: tile - 1, height: tile - 1, class: cls }));
      }
      if (fontSize >= 6 && (state === "all" || state === "now")) {
        const tx = s.causal && q === k ? x + tile * 0.3 : x + tile / 2;
        const ty = s.causal && q === k ? y + tile * 0.78 : y + tile / 2 + fontSize / 3;
        svg.append(
          S(
            "text",
            { x: tx, y: ty, "text-anchor": "middle", "font-size": fontSize, class: "ra-tile-text" },
            String(st),
          ),
        );
      }
    }
  }

  // Right panel: work per GPU.
  const px = X0 + M + 36;
  const pw = WIDTH - px - 12;
  const done = workSoFar(plan, current);
  const maxWork = Math.max(...plan.workPerGpu);
  svg.append(S("text", { x: px, y: 16, class: "ra-title" }, "Work per GPU (tiles)"));
  svg.append(S("text", { x: px, y: 32, class: "ra-muted" }, current === null ? "all steps" : `after step ${current}`));
  const rowH = Math.min(22, (M - 60) / s.gpus);
  const barX = px + 44;
  const barW = pw - 44 - 40;
  for (let i = 0; i < s.gpus; i++) {
    const y = Y0 + i * rowH;
    svg.append(S("text", { x: px, y: y + rowH * 0.7, class: "ra-muted" }, `GPU ${i}`));
    svg.append(
      S("rect", {
        x: barX,
        y: y + 2,
        width: (barW * plan.workPerGpu[i]) / maxWork,
        height: Math.max(2, rowH - 5),
        class: "ra-total",
      }),
    );
    svg.append(
      S("rect", {
        x: barX,
        y: y + 2,
        width: (barW * done[i]) / maxWork,
        height: Math.max(2, rowH - 5),
        class: "ra-done-bar",
      }),
    );
    svg.append(S("text", { x: barX + barW + 4, y: y + rowH * 0.7, class: "ra-muted" }, fmtWork(done[i])));
  }
  const lastStep = current === null ? plan.steps.length - 1 : current;
  const pathSoFar = plan.steps.slice(0, lastStep + 1).reduce((a, st) => a + st.maxWork, 0);
  const infoY = Y0 + s.gpus * rowH + 24;
  const lines =
    current === null
      ? [
          `Critical path: ${fmtWork(plan.criticalPathWork)} tiles`,
          `Balanced ring: ${fmtWork(plan.idealWork)} tiles`,
          `Efficiency: ${formatPercent(plan.efficiency)}`,
        ]
      : [
          `Step ${current} of ${plan.steps.length - 1}`,
          `GPU i holds the K/V of GPU (i − ${current}) mod ${s.gpus}`,
          `This step lasts ${fmtWork(plan.steps[current].maxWork)} tiles (busiest GPU)`,
          `Elapsed: ${fmtWork(pathSoFar)} of ${fmtWork(plan.criticalPathWork)} tiles`,
        ];
  lines.forEach((line, j) =>
    svg.append(S("text", { x: px, y: infoY + j * 18, class: j === 0 ? "ra-title" : "ra-muted" }, line)),
  );

  svg.append(
    S(
      "style",
      {},
      [
        "text{fill:var(--c-text)}",
        ".ra-title{font-weight:600}",
        ".ra-muted{fill:var(--c-muted)}",
        ".ra-band{fill:var(--c-surface-2)}",
        ".ra-band-text{fill:var(--c-text);font-size:10px}",
        ".ra-masked{fill:none;stroke:var(--c-border);stroke-width:0.5}",
        ".ra-all,.ra-now{fill:var(--c-accent)}",
        ".ra-done{fill:var(--c-accent);fill-opacity:.35}",
        ".ra-todo{fill:none;stroke:var(--c-accent);stroke-opacity:.5;stroke-width:1}",
        ".ra-tile-text{fill:var(--c-bg);font-weight:600}",
        ".ra-total{fill:none;stroke:var(--c-muted);stroke-width:1}",
        ".ra-done-bar{fill:var(--c-comm)}",
      ].join("\n"),
    ),
  );
  return svg;
}

function parseSettings(raw: unknown): RingAttentionSettings {
  const obj = settingsObject(raw, ["gpus", "sharding", "causal", "step"]);
  const s: RingAttentionSettings = { ...ringAttentionDefaults };
  if (obj.gpus !== undefined) {
    if (typeof obj.gpus !== "number" || !Number.isInteger(obj.gpus) || obj.gpus < 1 || obj.gpus > RING_MAX_GPUS) {
      throw new WidgetSettingsError(
        "gpus",
        `must be an integer from 1 to ${RING_MAX_GPUS} (got ${JSON.stringify(obj.gpus)})`,
      );
    }
    s.gpus = obj.gpus;
  }
  if (obj.sharding !== undefined) {
    if (obj.sharding !== "contiguous" && obj.sharding !== "zigzag") {
      throw new WidgetSettingsError("sharding", `must be contiguous or zigzag (got ${JSON.stringify(obj.sharding)})`);
    }
    s.sharding = obj.sharding;
  }
  if (obj.causal !== undefined) {
    if (typeof obj.causal !== "boolean")
      throw new WidgetSettingsError("causal", `must be true or false (got ${JSON.stringify(obj.causal)})`);
    s.causal = obj.causal;
  }
  if (obj.step !== undefined && obj.step !== "all") {
    if (typeof obj.step !== "number" || !Number.isInteger(obj.step) || obj.step < 0 || obj.step >= s.gpus) {
      throw new WidgetSettingsError(
        "step",
        `must be "all" or an integer from 0 to ${s.gpus - 1} (got ${JSON.stringify(obj.step)})`,
      );
    }
    s.step = obj.step;
  }
  return s;
}

export type RingValidation = { ok: true; gpus: number } | { ok: false; message: string };

/** Reads the GPU count a reader typed; never throws. */
export function validateRingGpus(text: string): RingValidation {
  const cleaned = text.trim();
  if (cleaned === "") return { ok: false, message: "Enter the number of GPUs, for example 4." };
  // A negative number or zero is a whole number all the same: say what is wrong with it.
  if (/^[-−]\s*\d+(\.\d+)?$/.test(cleaned) || /^0+(\.0+)?$/.test(cleaned))
    return { ok: false, message: `The number of GPUs must be positive: choose from 1 to ${RING_MAX_GPUS}.` };
  if (!/^\d+$/.test(cleaned))
    return { ok: false, message: "The number of GPUs must be a whole number, for example 4." };
  const v = Number(cleaned);
  if (!Number.isSafeInteger(v) || v < 1 || v > RING_MAX_GPUS)
    return { ok: false, message: `Choose from 1 to ${RING_MAX_GPUS} GPUs.` };
  return { ok: true, gpus: v };
}

function renderStatic(root: Element, settings: RingAttentionSettings): void {
  const doc = root.ownerDocument;
  const idBase = root.getAttribute("id") ?? "ring-attention";
  const { el } = dom(doc);
  const box = el("div", { class: "ring-attention" });
  const controls = el("div", { class: "widget-controls" });

  const gpuField = numberField(doc, { idBase, name: "gpus", label: "GPUs c", value: settings.gpus, size: 4 });
  const shardField = selectField(doc, {
    idBase,
    name: "sharding",
    label: "Sharding",
    options: [
      ["contiguous", "contiguous"],
      ["zigzag", "zig-zag"],
    ],
    value: settings.sharding,
  });
  const causalField = el("div", { class: "widget-field widget-check" });
  const causal = el("input", { id: `${idBase}-causal`, name: "causal", type: "checkbox", disabled: "" });
  if (settings.causal) causal.setAttribute("checked", "");
  causalField.append(el("label", { for: `${idBase}-causal` }, "Causal mask"), causal);

  const stepField = el("div", { class: "widget-field" });
  const stepValue = settings.step === null ? settings.gpus : settings.step;
  stepField.append(
    el("label", { for: `${idBase}-step` }, "Step"),
    el("input", {
      id: `${idBase}-step`,
      name: "step",
      type: "range",
      min: "0",
      max: String(settings.gpus),
      step: "1",
      value: String(stepValue),
      "aria-valuetext": settings.step === null ? "all steps" : `step ${settings.step}`,
      disabled: "",
    }),
  );
  const buttons = el("div", { class: "widget-field ring-attention-buttons" });
  buttons.append(
    el("button", { type: "button", name: "prev", disabled: "" }, "Previous step"),
    el("button", { type: "button", name: "next", disabled: "" }, "Next step"),
    el("button", { type: "button", name: "play", disabled: "" }, "Play"),
  );
  controls.append(gpuField, shardField, causalField, stepField, buttons);

  const figure = el("div", { class: "ring-attention-figure" });
  drawRingAttention(figure, settings, `${idBase}-svg`);
  const readout = el("p", { class: "ring-attention-readout" }, summarizeRingAttention(settings));
  const live = el("p", { class: "visually-hidden", "aria-live": "polite" });
  box.append(controls, figure, readout, live);
  root.append(box);
}

export const ringAttentionWidget = defineWidget<RingAttentionSettings>({
  description: "steps through ring attention: which K/V block each GPU holds and which score tiles it computes",
  parseSettings,
  renderStatic,
});

/** The widget's settings in a page link (`?<widget id>=key:value,…`), checked by the chapter's parser. */
export const ringAttentionUrlCodec = settingsUrlCodec(
  { gpus: "number", sharding: "choice", causal: "boolean", step: "number|all" },
  parseSettings,
);
