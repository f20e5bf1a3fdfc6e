/**
 * Row format of the per-run table of the appendix on published runs
 * (content/chapters/a2-typical-scales.md): shared by its test, which recomputes every row, and by
 * whoever regenerates the table.
 */
import { runArchitecture, stepShares, type RunEvaluation } from "../../src/model/index.ts";
import { formatInteger, formatNumber } from "../../src/figures/kit/format.ts";

/** A fraction as a percentage with one decimal, kept: 0.56 → "56.0%". */
export const pct1 = (x: number): string => `${formatNumber(x * 100, { decimals: 1 })}%`;

/** A fraction as a whole percentage: 0.564 → "56%". */
export const pct0 = (x: number): string => `${formatNumber(x * 100, { decimals: 0 })}%`;

const RECOMPUTE = { none: "", selective: ", selective recompute", full: ", full recompute" } as const;

/** "TP 8 · PP 8 (v 2) · DP 24 (ZeRO-0), full recompute" */
export function layoutLabel(e: RunEvaluation): string {
  const l = e.run.layout;
  const parts: string[] = [];
  if (l.tp > 1) parts.push(`TP ${l.tp}`);
  if (l.cp > 1) parts.push(`CP ${l.cp}`);
  if (l.pp > 1) parts.push(`PP ${l.pp}${l.schedule === "interleaved" ? ` (v ${l.chunks ?? 2})` : ""}`);
  const shard =
    l.zeroStage === 3 ? (l.reshardAfterForward === false ? "FSDP, no reshard" : "ZeRO-3") : `ZeRO-${l.zeroStage}`;
  parts.push(`DP ${formatInteger(l.dp)} (${shard})`);
  return parts.join(" · ") + RECOMPUTE[l.recompute];
}

/** "full", or "flash" for a kernel that skips the masked half, with " · TP overlap" where the run overlaps TP communication. */
export function softwareLabel(e: RunEvaluation): string {
  const sw = e.run.software;
  const attention = sw.attentionKernel.value === "full" ? "full" : "flash";
  return `${attention}${sw.tpCommOverlap.value ? " · TP overlap" : ""}`;
}

/** The run's model as the table names it: "Llama 3.1 405B", or "Llama 3.1 405B proxy, 7 layers" for a proxy (published-runs.ts `proxy`). */
export function modelLabel(e: RunEvaluation): string {
  return e.run.proxy === undefined
    ? e.run.model
    : `${e.run.model} proxy, ${formatInteger(runArchitecture(e.run).numLayers)} layers`;
}

/** Signed relative error with one decimal: "+27.4%", "−5.3%". */
export function signedPct(x: number): string {
  return `${x > 0 ? "+" : x < 0 ? "−" : ""}${pct1(Math.abs(x))}`;
}

/**
 * One table row: run and source, GPUs, tokens, layout, attention kernel, reported MFU, predicted MFU,
 * error in sample, error held out, and the model's step by part in percent of the reported step.
 */
export function runRow(e: RunEvaluation, held: RunEvaluation): string {
  const gpu = e.generation === "ampere" ? "A100" : "H100";
  const p = stepShares(e);
  const parts = [p.compute, p.recompute, p.bubble, p.tp, p.cp, p.dp, p.other].map(pct0).join(" | ");
  return `| ${modelLabel(e)} [@${e.run.source}] | ${formatInteger(e.run.gpuCount)} ${gpu} | ${formatInteger(e.run.seqLength)} | ${layoutLabel(e)} | ${softwareLabel(e)} | ${pct1(e.reportedMfu)} | ${pct1(e.predictedMfu)} | ${signedPct(e.relativeError)} | ${signedPct(held.relativeError)} | ${parts} |`;
}
