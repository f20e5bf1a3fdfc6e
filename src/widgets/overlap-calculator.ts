/**
 * Browser entry of the `overlap-calculator` widget: enables the controls the build drew and
 * recomputes the chart, table and note with the engine (src/figures/overlap-calculator-state.ts) on
 * every change. A bad value, or a combination the engine rejects (a layout the framework cannot
 * run, degrees that do not divide the model), marks the field it names (role="alert") with one
 * sentence; the chart keeps the last valid state, dimmed. Nothing animates. The settings live in the
 * URL under this widget's id; "Copy link" shares them (runtime/url-state.ts).
 */
import { fillOverlapTable, renderOverlapChart } from "../figures/overlap-calculator.ts";
import {
  overlapIntegerFields,
  overlapNote,
  summarizeOverlap,
  validateOverlapControls,
  type OverlapCalculatorSettings,
  overlapUrlCodec,
} from "../figures/overlap-calculator-state.ts";
import { setFieldProblem, setStale } from "../figures/kit/field.ts";
import { widgetLink } from "./runtime/url-state.ts";

export function mount(root: HTMLElement, settings: OverlapCalculatorSettings): void {
  const chart = root.querySelector<HTMLElement>(".ovl-figure");
  const tbody = root.querySelector<HTMLElement>(".ovl-table tbody");
  const note = root.querySelector<HTMLElement>(".ovl-note");
  const output = root.querySelector<HTMLElement>(".ovl-output");
  const live = root.querySelector<HTMLElement>("[aria-live]");
  if (!chart || !tbody || !note || !output) throw new Error("overlap-calculator: static markup missing");
  const idBase = root.getAttribute("id") ?? "overlap-calculator";
  const selects = ["model", "gpu", "framework", "zeroStage"].map((n) =>
    root.querySelector<HTMLSelectElement>(`select[name=${n}]`),
  );
  const inputs = overlapIntegerFields.map((f) => root.querySelector<HTMLInputElement>(`input[name=${f.key}]`));
  const fields = [...selects, ...inputs];
  if (fields.some((f) => !f)) throw new Error("overlap-calculator: control missing");
  const link = widgetLink(root, overlapUrlCodec, settings, () => apply(settings));
  const update = () => {
    const raw: Record<string, string> = {};
    for (const f of fields) raw[f!.name] = f!.value;
    const result = validateOverlapControls(raw);
    for (const f of fields) setFieldProblem(f!, result.ok ? undefined : result.errors[f!.name]);
    if (!result.ok) {
      setStale(output, "Showing the last valid result until the field is fixed.");
      return;
    }
    setStale(output, undefined);
    renderOverlapChart(chart, result.rows, `${idBase}-svg`, Math.max(300, chart.clientWidth || 640));
    fillOverlapTable(tbody, result.rows);
    note.textContent = overlapNote(result);
    if (live) live.textContent = summarizeOverlap(result);
    link.show(result.settings);
  };
  const apply = (s: OverlapCalculatorSettings) => {
    for (const f of fields) f!.value = String(s[f!.name as keyof OverlapCalculatorSettings]);
    update();
  };
  for (const f of fields) {
    f!.disabled = false;
    f!.addEventListener(f instanceof HTMLSelectElement ? "change" : "input", update);
  }
  // The build drew the chart 640 px wide; redraw at the real width when it differs.
  if (link.restored) apply(link.restored);
  else if (chart.clientWidth > 0 && Math.abs(chart.clientWidth - 640) > 40) update();
}
