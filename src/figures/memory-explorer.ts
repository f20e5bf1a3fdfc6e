/**
 * The `memory-explorer` figure: a stacked bar of memory per GPU (one bar per pipeline stage) by
 * category against the chosen GPU's capacity, a curve of per-GPU memory against sequence length
 * or micro-batch size with the current point marked, the fit verdict, a text summary and a table
 * of the formula behind each number.
 *
 * Draws with the kit's `svg()` builder into the element it is given (`root.ownerDocument` only), so
 * the build renders the default state under linkedom (JavaScript off, print) and the browser entry
 * (src/widgets/memory-explorer.ts) redraws with the same code. Every number comes from
 * src/model through the view model in memory-explorer/view.ts. The two charts are memory-explorer-charts.ts; this
 * file lays out the outputs around them (verdict, notes, summary, formula table) and defines the
 * widget's static rendering.
 */
import { child, dom, tableHead } from "./kit/dom.ts";
import { drawMemoryBars, drawMemoryCurve } from "./memory-explorer-charts.ts";
import {
  computeMemoryView,
  formatBytes,
  layoutName,
  memoryCurve,
  summarizeMemory,
  type CurveAxis,
  type CurvePoint,
  type MemoryView,
} from "./memory-explorer/view.ts";
import type { MemoryExplorerSettings } from "./memory-explorer/state.ts";
import { parseMemorySettings } from "./memory-explorer/settings.ts";
import { defineWidget } from "./widget.ts";
import { gbAttribute } from "./kit/scenario.ts";

/** The formula table: each number of the fullest GPU, and how it is computed. */
function fillFormulaTable(table: Element, view: MemoryView): void {
  const { el } = dom(table.ownerDocument);
  table.textContent = "";
  const caption = el(
    "caption",
    {},
    view.memory.stages.length > 1
      ? `How each number of stage ${view.memory.peakStage + 1} (the fullest GPU) is computed (state layout: ${layoutName(view.memory)})`
      : `How each number is computed (state layout: ${layoutName(view.memory)})`,
  );
  const thead = tableHead(table.ownerDocument, ["Category", "Per GPU", "Formula"]);
  const tbody = el("tbody");
  const row = (label: string, bytes: number, formula: string) => {
    const tr = el("tr");
    tr.append(
      el("th", { scope: "row" }, label),
      el("td", { style: "white-space:nowrap" }, formatBytes(bytes)),
      // A framework's store may name an option (gradient_as_bucket_view=False): let it break on a phone.
      el("td", { style: "overflow-wrap:anywhere" }, formula),
    );
    tbody.append(tr);
  };
  for (const r of view.rows) row(r.label, r.bytes, r.formula);
  row(
    "Total",
    view.memory.perGpu.total,
    `Compared with ${view.budget.label}. Not counted: CUDA context, allocator fragmentation, communication buffers, other temporaries.`,
  );
  table.append(caption, thead, tbody);
}

/**
 * Draws or redraws every output of the widget inside `out`: verdict, the two charts, the summary
 * and the formula table. Elements are reused between calls.
 */
export function renderMemoryOutputs(out: Element, view: MemoryView, curve: CurvePoint[], axis: CurveAxis): void {
  const verdict = child(out, "p", "mx-verdict");
  verdict.setAttribute("data-verdict", view.verdict.kind);
  // GB per GPU as the verdict prints it: what the configuration finder's rows carry too.
  verdict.setAttribute("data-total-gb", gbAttribute(view.evaluation.bytesPerGpu));
  const edge =
    view.verdict.kind === "fits"
      ? "var(--c-optim)"
      : view.verdict.kind === "over"
        ? "var(--c-warning)"
        : "var(--c-invalid)";
  verdict.setAttribute(
    "style",
    `font-weight:600;margin:0 0 0.7rem;padding:0.35rem 0.7rem;border-left:4px solid ${edge};background:var(--c-bg);border-radius:0 4px 4px 0`,
  );
  verdict.textContent = view.verdict.text;
  const charts = child(out, "div", "mx-charts");
  charts.setAttribute("style", "display:flex;flex-wrap:wrap;gap:0.5rem 1rem;justify-content:space-between");
  const barsHost = child(charts, "div", "mx-bars-host");
  barsHost.setAttribute("style", "flex:1 1 17rem;min-width:0");
  const curveHost = child(charts, "div", "mx-curve-host");
  curveHost.setAttribute("style", "flex:1 1 17rem;min-width:0");
  drawMemoryBars(barsHost, view);
  drawMemoryCurve(curveHost, view, curve, axis);
  const warnings = child(out, "ul", "mx-warnings");
  warnings.textContent = "";
  for (const w of view.warnings) {
    warnings.append(dom(out.ownerDocument).el("li", {}, `Note: ${w}.`));
  }
  const summary = child(out, "p", "widget-summary");
  summary.setAttribute("style", "font-size:0.9rem;margin:0.8rem 0 0");
  summary.textContent = summarizeMemory(view);
  const details = child(out, "details", "mx-formulas", "explorer-details");
  const summaryEl = child(details, "summary", "mx-formulas-summary");
  summaryEl.textContent = "Formulas behind each number";
  fillFormulaTable(child(details, "table", "mx-formula-table", "explorer-table"), view);
}

/** Static rendering: the default state, with no controls (JavaScript off, print, PDF). */
function renderMemoryStatic(root: Element, settings: MemoryExplorerSettings): void {
  const view = computeMemoryView(settings);
  const out = dom(root.ownerDocument).el("div", { class: "mx-output" });
  root.append(out);
  renderMemoryOutputs(out, view, memoryCurve(settings, "seqLength", view), "seqLength");
}

export const memoryExplorerWidget = defineWidget<MemoryExplorerSettings>({
  description:
    "memory per GPU (parameters, gradients, optimizer states, activations) for a model, batch, framework profile and parallel layout, against a GPU's usable memory",
  parseSettings: parseMemorySettings,
  renderStatic: renderMemoryStatic,
});
