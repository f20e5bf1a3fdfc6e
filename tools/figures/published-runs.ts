/**
 * Writes the predicted-against-reported scatter of the appendix on published runs
 * (content/chapters/a2-typical-scales.md) from the step model's validation:
 *   assets/img/published-runs/mfu-scatter.svg
 *
 * Run `node --import tsx tools/figures/published-runs.ts` after changing the model or the data set;
 * tests/figures/published-runs-figure.test.ts fails when the committed file differs from what this
 * script would write. Each point carries a <title> naming the run (a tooltip where the SVG is
 * opened on its own).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { evaluateRuns, summarizeErrors, type RunEvaluation } from "../../src/model/index.ts";
import { formatPercent } from "../../src/figures/kit/format.ts";
import { darkPalette as dark, lightPalette as light } from "../../src/figures/kit/palette.ts";

const W = 640;
const H = 460;
const M = { left: 64, right: 20, top: 20, bottom: 56 };
const LO = 0.2;
const HI = 0.65;

const x = (v: number) => M.left + ((v - LO) / (HI - LO)) * (W - M.left - M.right);
const y = (v: number) => H - M.bottom - ((v - LO) / (HI - LO)) * (H - M.top - M.bottom);
const r2 = (v: number) => Math.round(v * 100) / 100;
const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function point(e: RunEvaluation): string {
  const cx = r2(x(e.reportedMfu));
  const cy = r2(y(e.predictedMfu));
  const label = `${e.run.model}, ${e.run.gpuCount} GPUs (${e.run.source}): reported ${formatPercent(e.reportedMfu)}, predicted ${formatPercent(e.predictedMfu)}`;
  const shape =
    e.generation === "ampere"
      ? `<circle class="a100" cx="${cx}" cy="${cy}" r="4.5"/>`
      : `<rect class="h100" x="${r2(cx - 4.5)}" y="${r2(cy - 4.5)}" width="9" height="9"/>`;
  return `    <g><title>${esc(label)}</title>${shape}</g>`;
}

/** The SVG text. */
export function renderPublishedRunsFigure(evaluations: RunEvaluation[] = evaluateRuns()): string {
  const s = summarizeErrors(evaluations);
  const ticks = [0.2, 0.3, 0.4, 0.5, 0.6];
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
      .map(([a, b]) => `${r2(x(a))},${r2(y(b))}`)
      .join(" ")}"/>`;
  const desc =
    `Scatter plot of ${s.count} published training runs. The horizontal axis is the MFU each run reported, converted to the book's definition; ` +
    `the vertical axis is the step model's prediction, both from 20% to 65%. Circles are A100 runs, squares H100 runs. ` +
    `Most points lie inside a shaded band of plus or minus 15% around the diagonal; the median absolute error is ${formatPercent(s.medianAbsoluteError)} ` +
    `and the worst ${formatPercent(s.worstAbsoluteError)}. Small models sit above the diagonal and the largest Megatron-LM runs below it.`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="mfu-scatter-title mfu-scatter-desc" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif">
  <title id="mfu-scatter-title">Predicted against reported MFU for ${s.count} published training runs</title>
  <desc id="mfu-scatter-desc">${esc(desc)}</desc>
  <style>
    .grid { stroke: #d5d8de; stroke-width: 1; } .axis { stroke: ${light.muted}; stroke-width: 1.2; }
    .diag { stroke: ${light.text}; stroke-width: 1.2; } .band { fill: ${light.bubble}; fill-opacity: 0.18; }
    .a100 { fill: ${light.params}; fill-opacity: 0.85; } .h100 { fill: ${light.grads}; fill-opacity: 0.85; }
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
    <text class="label" x="16" y="${r2((y(LO) + y(HI)) / 2)}" text-anchor="middle" transform="rotate(-90 16 ${r2((y(LO) + y(HI)) / 2)})">predicted MFU</text>
    <circle class="a100" cx="${M.left + 16}" cy="${M.top + 12}" r="4.5"/><text class="tick" x="${M.left + 28}" y="${M.top + 16}">A100</text>
    <rect class="h100" x="${M.left + 11.5}" y="${M.top + 27.5}" width="9" height="9"/><text class="tick" x="${M.left + 28}" y="${M.top + 36}">H100</text>
    <rect class="band" x="${M.left + 11.5}" y="${M.top + 47.5}" width="9" height="9"/><text class="tick" x="${M.left + 28}" y="${M.top + 56}">within ±15%</text>
${evaluations.map(point).join("\n")}
</svg>
`;
}

export const outputFile = path.resolve("assets/img/published-runs/mfu-scatter.svg");

if (import.meta.url === `file://${process.argv[1]}`) {
  mkdirSync(path.dirname(outputFile), { recursive: true });
  writeFileSync(outputFile, renderPublishedRunsFigure());
  console.log(`wrote ${path.relative(process.cwd(), outputFile)}`);
}
