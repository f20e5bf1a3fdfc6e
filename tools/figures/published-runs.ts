/**
 * Writes the two figures of the appendix on published runs (content/chapters/a2-typical-scales.md)
 * from the step model's validation:
 *   assets/img/published-runs/mfu-scatter.svg     held-out predicted MFU against reported MFU
 *   assets/img/published-runs/step-breakdown.svg  each run's predicted step by part, over its reported step
 *
 * Run `node --import tsx tools/figures/published-runs.ts` after changing the model or the data set;
 * tests/figures/published-runs-figure.test.ts fails when a committed file differs from what this
 * script would write. Each point and bar carries a <title> naming the run (a tooltip where the SVG
 * is opened on its own).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  evaluateInSample,
  leaveOneSourceOut,
  RUN_SOURCES,
  runArchitecture,
  stepShares,
  summarizeErrors,
  type RunEvaluation,
} from "../../src/model/index.ts";
import { formatPercent } from "../../src/figures/kit/format.ts";
import { darkPalette as dark, lightPalette as light } from "../../src/figures/kit/palette.ts";

const r2 = (v: number) => Math.round(v * 100) / 100;
const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
/** The run's model as the tooltips name it: a proxy (published-runs.ts `proxy`) with its layer count. */
const modelName = (e: RunEvaluation) =>
  e.run.proxy === undefined ? e.run.model : `${e.run.model} proxy, ${runArchitecture(e.run).numLayers} layers`;
const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif";

// ---- Scatter: held-out predicted MFU against reported MFU ----------------------------------------

const W = 640;
const H = 480;
const M = { left: 64, right: 20, top: 20, bottom: 56 };
const LO = 0.1;
const HI = 1.1;

const x = (v: number) => M.left + ((v - LO) / (HI - LO)) * (W - M.left - M.right);
const y = (v: number) => H - M.bottom - ((v - LO) / (HI - LO)) * (H - M.top - M.bottom);

function point(e: RunEvaluation): string {
  const cx = r2(x(e.reportedMfu));
  const cy = r2(y(Math.min(HI, e.predictedMfu)));
  const label = `${modelName(e)}, ${e.run.gpuCount} GPUs, ${e.run.seqLength} tokens (${e.run.source}): reported ${formatPercent(e.reportedMfu)}, predicted held out ${formatPercent(e.predictedMfu)}`;
  const shape =
    e.generation === "ampere"
      ? `<circle class="a100" cx="${cx}" cy="${cy}" r="3.5"/>`
      : `<rect class="h100" x="${r2(cx - 3.5)}" y="${r2(cy - 3.5)}" width="7" height="7"/>`;
  return `    <g><title>${esc(label)}</title>${shape}</g>`;
}

/** The scatter's SVG text: every run predicted with the efficiencies fitted without its source. */
export function renderPublishedRunsFigure(evaluations: RunEvaluation[] = leaveOneSourceOut()): string {
  const s = summarizeErrors(evaluations);
  const ticks = [0.2, 0.4, 0.6, 0.8, 1.0];
  const grid = ticks
    .map(
      (t) =>
        `    <line class="grid" x1="${r2(x(t))}" y1="${r2(y(LO))}" x2="${r2(x(t))}" y2="${r2(y(HI))}"/><line class="grid" x1="${r2(x(LO))}" y1="${r2(y(t))}" x2="${r2(x(HI))}" y2="${r2(y(t))}"/>\n` +
        `    <text class="tick" x="${r2(x(t))}" y="${r2(y(LO) + 18)}" text-anchor="middle">${formatPercent(t, 0)}</text><text class="tick" x="${r2(x(LO) - 8)}" y="${r2(y(t) + 4)}" text-anchor="end">${formatPercent(t, 0)}</text>`,
    )
    .join("\n");
  const band = `    <clipPath id="mfu-scatter-plot"><rect x="${r2(x(LO))}" y="${r2(y(HI))}" width="${r2(x(HI) - x(LO))}" height="${r2(y(LO) - y(HI))}"/></clipPath>
    <polygon class="band" clip-path="url(#mfu-scatter-plot)" points="${[
      [LO, LO * 0.85],
      [HI, HI * 0.85],
      [HI, HI],
      [HI / 1.15, HI],
      [LO, LO * 1.15],
    ]
      .map(([a, b]) => `${r2(x(a ?? 0))},${r2(y(b ?? 0))}`)
      .join(" ")}"/>`;
  const desc =
    `Scatter plot of ${s.count} published training runs, each predicted with kernel efficiencies fitted on the other sources' runs. ` +
    `The horizontal axis is the MFU each run reported, converted to the book's definition; the vertical axis is the held-out prediction, both from 10% to 110%. ` +
    `Circles are A100 runs, squares H100 runs. A shaded band marks plus or minus 15% around the diagonal; the median absolute error is ${formatPercent(s.median)} ` +
    `and the worst ${formatPercent(s.worst)}. The points far above the diagonal are small models at long sequences and PyTorch FSDP runs on H100; the points below it are NVIDIA's own H100 recipes.`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="mfu-scatter-title mfu-scatter-desc" font-family="${FONT}">
  <title id="mfu-scatter-title">Held-out predicted against reported MFU for ${s.count} published training runs</title>
  <desc id="mfu-scatter-desc">${esc(desc)}</desc>
  <style>
    .grid { stroke: #d5d8de; stroke-width: 1; } .axis { stroke: ${light.muted}; stroke-width: 1.2; }
    .diag { stroke: ${light.text}; stroke-width: 1.2; } .band { fill: ${light.bubble}; fill-opacity: 0.18; }
    .a100 { fill: ${light.params}; fill-opacity: 0.7; } .h100 { fill: ${light.grads}; fill-opacity: 0.7; }
    .tick { fill: ${light.muted}; font-size: 12px; } .label { fill: ${light.text}; font-size: 13px; }
    @media (prefers-color-scheme: dark) {
      .grid { stroke: #3a3f47; } .axis { stroke: ${dark.muted}; } .diag { stroke: ${dark.text}; } .band { fill: ${dark.muted}; }
      .a100 { fill: ${dark.params}; } .h100 { fill: ${dark.grads}; } .tick { fill: ${dark.muted}; } .label { fill: ${dark.text}; }
    }
  </style>
${grid}
${band}
    <line class="diag" x1="${r2(x(LO))}" y1="${r2(y(LO))}" x2="${r2(x(HI))}" y2="${r2(y(HI))}"/>
    <line class="axis" x1="${r2(x(LO))}" y1="${r2(y(LO))}" x2="${r2(x(HI))}" y2="${r2(y(LO))}"/>
    <line class="axis" x1="${r2(x(LO))}" y1="${r2(y(LO))}" x2="${r2(x(LO))}" y2="${r2(y(HI))}"/>
    <text class="label" x="${r2((x(LO) + x(HI)) / 2)}" y="${H - 14}" text-anchor="middle">reported MFU (book's definition)</text>
    <text class="label" x="16" y="${r2((y(LO) + y(HI)) / 2)}" text-anchor="middle" transform="rotate(-90 16 ${r2((y(LO) + y(HI)) / 2)})">predicted MFU, source held out</text>
    <circle class="a100" cx="${M.left + 16}" cy="${M.top + 12}" r="3.5"/><text class="tick" x="${M.left + 28}" y="${M.top + 16}">A100</text>
    <rect class="h100" x="${M.left + 12.5}" y="${M.top + 28.5}" width="7" height="7"/><text class="tick" x="${M.left + 28}" y="${M.top + 36}">H100</text>
    <rect class="band" x="${M.left + 11.5}" y="${M.top + 47.5}" width="9" height="9"/><text class="tick" x="${M.left + 28}" y="${M.top + 56}">within ±15%</text>
${evaluations.map(point).join("\n")}
</svg>
`;
}

// ---- Breakdown: each run's predicted step by part, over its reported step time ------------------

const PARTS = [
  ["compute", "compute", light.params, dark.params],
  ["recompute", "recomputation", light.acts, dark.acts],
  ["bubble", "pipeline bubble", light.bubble, dark.bubble],
  ["tp", "TP", light.grads, dark.grads],
  ["cp", "CP", light.warning, dark.warning],
  ["dp", "DP and sharding", light.comm, dark.comm],
  ["other", "PP sends, EP, optimizer", light.optim, dark.optim],
] as const;

const BW = 820;
const BAR = 4;
const GAP = 1;
const BM = { left: 300, right: 24, top: 56, bottom: 48 };
const XMAX = 1.6;

/** The breakdown's SVG text: one bar per run, grouped by source, in units of the reported step time. */
export function renderStepBreakdownFigure(evaluations: RunEvaluation[] = evaluateInSample()): string {
  const groups = RUN_SOURCES.map((s) => ({
    source: s,
    runs: evaluations.filter((e) => e.run.source === s.key),
  })).filter((g) => g.runs.length > 0);
  const bx = (v: number) => BM.left + (Math.min(v, XMAX) / XMAX) * (BW - BM.left - BM.right);
  let top = BM.top;
  const rows: string[] = [];
  for (const g of groups) {
    const height = g.runs.length * (BAR + GAP);
    rows.push(
      `  <text class="src" x="${BM.left - 8}" y="${r2(top + Math.min(height, 24) / 2 + 4)}" text-anchor="end">${esc(g.source.name)} (${g.runs.length})</text>`,
    );
    for (const e of g.runs) {
      const parts = stepShares(e);
      let acc = 0;
      const segs = PARTS.map(([key]) => {
        const w = parts[key];
        const seg =
          w > 0
            ? `<rect class="p-${key}" x="${r2(bx(acc))}" y="${r2(top)}" width="${r2(Math.max(0, bx(acc + w) - bx(acc)))}" height="${BAR}"/>`
            : "";
        acc += w;
        return seg;
      }).join("");
      const label = `${modelName(e)}, ${e.run.gpuCount} GPUs, ${e.run.seqLength} tokens (${e.run.source}): predicted step ${formatPercent(acc)} of the reported one`;
      rows.push(`  <g><title>${esc(label)}</title>${segs}</g>`);
      top += BAR + GAP;
    }
    top += 8;
    rows.push(`  <line class="sep" x1="${BM.left}" y1="${r2(top - 4)}" x2="${BW - BM.right}" y2="${r2(top - 4)}"/>`);
  }
  const H2 = Math.ceil(top + BM.bottom);
  const ticks = [0, 0.5, 1, 1.5]
    .map(
      (t) =>
        `  <line class="${t === 1 ? "one" : "grid"}" x1="${r2(bx(t))}" y1="${BM.top - 6}" x2="${r2(bx(t))}" y2="${r2(top)}"/><text class="tick" x="${r2(bx(t))}" y="${r2(top + 16)}" text-anchor="middle">${t === 0 ? "0" : `${t}×`}</text>`,
    )
    .join("\n");
  const legend = PARTS.map(
    ([key, name], i) =>
      `  <rect class="p-${key}" x="${BM.left + (i % 4) * 125}" y="${8 + Math.floor(i / 4) * 18}" width="10" height="10"/><text class="tick" x="${BM.left + (i % 4) * 125 + 14}" y="${17 + Math.floor(i / 4) * 18}">${name}</text>`,
  ).join("\n");
  const style = PARTS.map(([key, , l]) => `.p-${key} { fill: ${l}; }`).join(" ");
  const styleDark = PARTS.map(([key, , , d]) => `.p-${key} { fill: ${d}; }`).join(" ");
  const desc =
    `Horizontal stacked bars, one per published run (${evaluations.length} runs), grouped by source. Each bar is the step model's predicted step time, split into compute, recomputation, ` +
    `pipeline bubble, tensor-parallel, context-parallel and data-parallel communication and the rest, in units of the step time the run reported; a vertical line marks 1, the reported step. ` +
    `A bar that ends left of the line is a run the model over-predicts, one that ends right of it a run it under-predicts. Compute dominates almost every bar; ` +
    `the shortest bars are MosaicML's small models at long sequences and torchtitan's H100 runs.`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${BW} ${H2}" role="img" aria-labelledby="step-breakdown-title step-breakdown-desc" font-family="${FONT}">
  <title id="step-breakdown-title">The step model's predicted step by part for each of ${evaluations.length} published runs, over the reported step time</title>
  <desc id="step-breakdown-desc">${esc(desc)}</desc>
  <style>
    .grid { stroke: #d5d8de; stroke-width: 1; } .one { stroke: ${light.text}; stroke-width: 1.4; } .sep { stroke: #e5e7eb; stroke-width: 1; }
    .tick { fill: ${light.muted}; font-size: 11px; } .src { fill: ${light.text}; font-size: 11px; } ${style}
    @media (prefers-color-scheme: dark) {
      .grid { stroke: #3a3f47; } .one { stroke: ${dark.text}; } .sep { stroke: #2a2e35; } .tick { fill: ${dark.muted}; } .src { fill: ${dark.text}; } ${styleDark}
    }
  </style>
${legend}
${ticks}
${rows.join("\n")}
  <text class="tick" x="${r2((BM.left + BW - BM.right) / 2)}" y="${H2 - 12}" text-anchor="middle">predicted step time ÷ reported step time</text>
</svg>
`;
}

export const outputFile = path.resolve("assets/img/published-runs/mfu-scatter.svg");
export const breakdownFile = path.resolve("assets/img/published-runs/step-breakdown.svg");

if (import.meta.url === `file://${process.argv[1]}`) {
  mkdirSync(path.dirname(outputFile), { recursive: true });
  writeFileSync(outputFile, renderPublishedRunsFigure());
  writeFileSync(breakdownFile, renderStepBreakdownFigure());
  console.log(`wrote ${path.relative(process.cwd(), outputFile)} and ${path.relative(process.cwd(), breakdownFile)}`);
}
