/**
 * Browser entry of the `overlap-calculator` widget: enables the controls the build drew and
 * recomputes the chart and table from src/model on every change. A bad value marks its field
 * invalid (role="alert"); the chart keeps the last valid state. Nothing animates.
 */
import { fillOverlapTable, renderOverlapChart } from "../figures/overlap-calculator.ts";
import {
  overlapIntegerFields,
  summarizeOverlap,
  validateOverlapControls,
  type OverlapCalculatorSettings,
} from "../figures/overlap-calculator-state.ts";
import { setFieldProblem } from "../figures/kit/field.ts";

export function mount(root: HTMLElement, _settings: OverlapCalculatorSettings): void {
  const chart = root.querySelector<HTMLElement>(".ovl-figure");
  const tbody = root.querySelector<HTMLElement>(".ovl-table tbody");
  const live = root.querySelector<HTMLElement>("[aria-live]");
  if (!chart || !tbody) throw new Error("overlap-calculator: static markup missing");
  const idBase = root.getAttribute("id") ?? "overlap-calculator";
  const selects = ["model", "gpu", "zeroStage"].map((n) => root.querySelector<HTMLSelectElement>(`select[name=${n}]`));
  const inputs = overlapIntegerFields.map((f) => root.querySelector<HTMLInputElement>(`input[name=${f.key}]`));
  const fields = [...selects, ...inputs];
  if (fields.some((f) => !f)) throw new Error("overlap-calculator: control missing");
  const update = () => {
    const raw: Record<string, string> = {};
    for (const f of fields) raw[f!.name] = f!.value;
    const result = validateOverlapControls(raw);
    for (const input of inputs) setFieldProblem(input!, result.ok ? undefined : result.errors[input!.name]);
    if (!result.ok) {
      // Problems from the model (e.g. "heads must divide by tp") may name a field that is not a text input.
      const other = Object.keys(result.errors).find((k) => !inputs.some((i) => i!.name === k));
      if (other) setFieldProblem(inputs[0]!, result.errors[other]);
      return;
    }
    renderOverlapChart(chart, result.ratios, `${idBase}-svg`, Math.max(300, chart.clientWidth || 640));
    fillOverlapTable(tbody, result.ratios);
    if (live) live.textContent = summarizeOverlap(result.settings, result.ratios);
  };
  for (const f of fields) {
    f!.disabled = false;
    f!.addEventListener(f instanceof HTMLSelectElement ? "change" : "input", update);
  }
}
