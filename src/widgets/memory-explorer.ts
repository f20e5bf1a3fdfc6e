/**
 * Browser entry of the `memory-explorer` widget: controls for the model, batch, precision,
 * recomputation, ZeRO and parallel degrees and the GPU, redrawn with the same figure code as the
 * static build-time drawing (src/figures/memory-explorer.ts). The logic (validation, the model
 * call, URL encoding) lives in src/figures/memory-explorer/
 * (state, view, settings, url, controls) and is unit-tested there.
 *
 * Bad input never reaches the drawing: the field gets aria-invalid="true" and a message with
 * role="alert", and the charts keep the last valid state, dimmed. Settings live in the URL under
 * this widget's id, every control's (those under "More settings" too); the chapter's `hide` list
 * moves controls into the "More settings" disclosure, its `lock` list disables them. The title
 * follows the chosen model. The form itself (labels, choices, groups, markup) is
 * ./memory-explorer/controls.ts.
 *
 * An edit is checked at once, the model's verdict on the combination included (cheap), so every
 * message shows with the key; the redraw follows after the edit has painted
 * (runtime/after-paint.ts), for keys typed into a field after a pause (issue #54).
 */
import { renderMemoryOutputs } from "../figures/memory-explorer.ts";
import {
  memoryControls,
  type MemoryControl,
  type MemoryExplorerSettings,
  type MemoryExplorerState,
} from "../figures/memory-explorer/state.ts";
import {
  memoryCurve,
  resolveModel,
  stageLayersText,
  summarizeMemory,
  titleFor,
  type CurveAxis,
  type MemoryView,
} from "../figures/memory-explorer/view.ts";
import { decodeMemoryState, encodeMemoryState } from "../figures/memory-explorer/url.ts";
import { controlValuesOf, readMemoryControls, type MemoryControlValues } from "../figures/memory-explorer/controls.ts";
import { copyLink, linkActions, readUrlParam, shareLink, urlWriter } from "./runtime/url-state.ts";
import { ensureStyle, explorerControlsCss } from "./runtime/widget-style.ts";
import { clearWidget, dom } from "../figures/kit/dom.ts";
import { setStale, showControlProblems } from "../figures/kit/field.ts";
import { formatNumber } from "../figures/kit/format.ts";
import { expand, labels, memoryForm, syncZeroOptions } from "./memory-explorer/controls.ts";
import { afterPaint, typingPauseMs } from "./runtime/after-paint.ts";

/**
 * Keeps the control the reader is editing where it was on the screen. An edit can show or clear a
 * message or a field above that control (a refusal that stays at the framework select while the
 * reader types into "Pipeline parallel p", a model field's message), which would push the field
 * down under the caret, now and then below the fold. Call before changing the form; the function
 * returned scrolls the page by however far the focused control moved, so the content above it
 * moves instead (what CSS scroll anchoring does for content above the viewport). Its one read of the layout is the layout the
 * edit's frame needs anyway.
 */
function holdFocusedControl(root: HTMLElement): () => void {
  const doc = root.ownerDocument;
  const focused = doc.activeElement;
  if (!(focused instanceof HTMLElement) || !root.contains(focused)) return () => {};
  const top = focused.getBoundingClientRect().top;
  return () => {
    const moved = focused.getBoundingClientRect().top - top;
    if (Math.abs(moved) >= 1) doc.defaultView?.scrollBy({ top: moved, behavior: "instant" });
  };
}

const css = `
.mx-controls .mx-config textarea { min-height: 9rem; }
.mx-controls details.mx-more { margin: 0 0 0.6rem; }
.mx-controls .mx-split-layers { margin: 0.2rem 0 0; font-size: 0.85rem; }
.mx-controls details.mx-more > summary { cursor: pointer; font-weight: 600; font-size: 0.9rem; color: var(--c-accent); margin-bottom: 0.5rem; }
`;

export function mount(root: HTMLElement, settings: MemoryExplorerSettings): void {
  const doc = root.ownerDocument;
  const win = doc.defaultView!;
  ensureStyle(doc, "explorer-controls-style", explorerControlsCss);
  ensureStyle(doc, "memory-explorer-style", css);
  const id = root.id || "widget-memory-explorer";
  const { el } = dom(doc);

  const hidden = expand(settings.hide);
  const locked = expand(settings.lock);
  // Controls under "More settings" are the reader's to change, from the form and from a link.
  const fixed = [...locked];
  const base: MemoryExplorerState = { ...settings };
  delete (base as Partial<MemoryExplorerSettings>).hide;
  delete (base as Partial<MemoryExplorerSettings>).lock;

  // Restore from the URL (validated), else the chapter's settings.
  let start = base;
  let linkMessage = "";
  const fromUrl = readUrlParam(win, id);
  if (fromUrl !== null) {
    const decoded = decodeMemoryState(fromUrl, base, fixed);
    if (decoded.ok) start = decoded.state;
    else linkMessage = decoded.message;
  }

  const titleEl = root.querySelector<HTMLElement>(":scope > .widget-title");
  const baseTitle = titleEl?.textContent ?? "";
  const titleName = (state: MemoryExplorerState, name: string) => (state.preset === "custom" ? "a pasted model" : name);
  let baseModelName = "";
  try {
    baseModelName = titleName(base, resolveModel(base).name);
  } catch {
    baseModelName = "";
  }

  clearWidget(root);
  const { form, controls, fieldOf, messages, textarea, more, splitLayers } = memoryForm(
    doc,
    id,
    controlValuesOf(start),
    hidden,
    locked,
  );
  // A link that changes a control under "More settings" opens it, so the reader sees the value.
  if (more && [...hidden].some((name) => start[name] !== base[name])) more.open = true;

  const actions = el("div", { class: "explorer-actions" });
  const axisSelect = el("select", { id: `${id}-axis`, name: "axis" });
  axisSelect.append(
    el("option", { value: "seqLength" }, "sequence length"),
    el("option", { value: "microBatch" }, "micro-batch size"),
  );
  const axisLabel = el("label", { for: axisSelect.id, class: "explorer-status" }, "Curve against ");
  const { copy, reset, status, linkBox } = linkActions(doc, linkMessage);
  actions.append(axisLabel, axisSelect, copy, reset, status, linkBox);

  const out = el("div", { class: "mx-output" });
  const live = el("p", { class: "visually-hidden", "aria-live": "polite" });
  root.append(form, actions, out, live);

  const writeUrl = urlWriter(win, id);
  const later = afterPaint(root);
  let last: { state: MemoryExplorerState; view: MemoryView } | null = null;

  const readValues = (): MemoryControlValues => {
    const v = {} as Record<string, unknown>;
    for (const name of memoryControls) {
      const c = controls[name];
      v[name] = c instanceof HTMLInputElement && c.type === "checkbox" ? c.checked : c.value;
    }
    v.configText = textarea.value;
    return v as MemoryControlValues;
  };

  let zeroOptionsFor: string | undefined;
  const syncVisibility = () => {
    const custom = controls.preset.value === "custom";
    (textarea.parentElement as HTMLElement).hidden = !custom;
    const ppText = controls.pp.value.trim();
    const pipelined = ppText !== "" && ppText !== "1";
    for (const name of ["split", "schedule", "microbatches"] as const) fieldOf[name].hidden = !pipelined;
    fieldOf.chunks.hidden = !pipelined || controls.schedule.value !== "interleaved";
    fieldOf.reshard.hidden = controls.zero.value !== "3";
    // The ZeRO select's options change with the framework only (rewriting them relays the form out).
    if (controls.framework.value !== zeroOptionsFor) {
      zeroOptionsFor = controls.framework.value;
      syncZeroOptions(controls.zero as HTMLSelectElement, zeroOptionsFor);
    }
  };

  const draw = (state: MemoryExplorerState, view: MemoryView) => {
    if (titleEl && baseModelName !== "")
      titleEl.textContent = titleFor(baseTitle, baseModelName, titleName(state, view.modelName));
    const axis = axisSelect.value as CurveAxis;
    splitLayers.textContent = `Layers per stage: ${stageLayersText(view.memory.setup.stageLayers)}`;
    renderMemoryOutputs(out, view, memoryCurve(state, axis, view), axis);
    live.textContent = summarizeMemory(view);
  };

  /** A control's value as the form shows it: a select's by its option ("PyTorch DDP", not "ddp"). */
  const shownText = (name: MemoryControl, value: unknown): string => {
    if (typeof value === "number") return formatNumber(value);
    if (typeof value === "boolean") return value ? "on" : "off";
    const c = controls[name];
    const option = c instanceof HTMLSelectElement ? [...c.options].find((o) => o.value === String(value)) : undefined;
    return option?.textContent ?? String(value);
  };
  const staleNote = (shown: MemoryExplorerState, names: MemoryControl[]): string => {
    const parts = [...new Set(names)].map((n) => `${labels[n]} = ${shownText(n, shown[n])}`);
    return `Showing the last valid result (${parts.join(", ")}) until the field is fixed.`;
  };

  /**
   * The drawing of the last valid state: the charts, the formula table, the title and the live
   * summary (its model call, `computeMemoryView`, already ran in the check). It runs after the
   * edit has painted (`later`), so a key shows within a frame and the redraw follows.
   */
  const drawLast = () => {
    if (!last) return;
    // Typing a value and then the old one back leaves nothing to redraw.
    const shown = JSON.stringify([last.state, axisSelect.value]);
    if (shown !== drawn) {
      draw(last.state, last.view);
      drawn = shown;
    }
    // An edit that arrived meanwhile and failed its check dimmed the drawing; keep that.
    if (staleText === undefined) setStale(out, undefined);
  };
  let staleText: string | undefined;
  let drawn = "";

  /** The controls' values as one string, and the last values `update` answered. */
  const valuesKey = () => JSON.stringify(readValues());
  let answered = "";

  /**
   * Where the framework's refusal of the combination is shown. The model files it under the
   * framework ("PyTorch DDP replicates the whole model: it runs no tensor, pipeline, …"), but a
   * refusal that an edit of another control brought on is that edit's: its message goes beside the
   * control being edited, where the reader is looking (on a phone the framework select is a screen
   * or more above "More settings"). It stays there until the combination is accepted.
   */
  let refusalAt: MemoryControl | undefined;
  /** The control whose edit `update` is answering; undefined on mount and reset. */
  let edited: MemoryControl | undefined;
  const placeRefusal = (problems: readonly { control: MemoryControl; message: string }[]) => {
    if (!problems.some((p) => p.control === "framework")) {
      refusalAt = undefined;
      return problems;
    }
    refusalAt ??= edited ?? "framework";
    const at = refusalAt;
    return problems.map((p) => (p.control === "framework" ? { ...p, control: at } : p));
  };

  /**
   * Checks the edit at once: the fields, and the model's verdict on the combination (a refusal is
   * a message on the control at fault, shown with the edit). The redraw follows the edit's paint,
   * after `delayMs` without another edit (typing), or at once (`now`) when mounting.
   */
  const update = (now = false, delayMs = 0) => {
    answered = valuesKey();
    const steady = holdFocusedControl(root);
    syncVisibility();
    const result = readMemoryControls(readValues());
    textarea.removeAttribute("aria-invalid");
    // A bad custom config is marked on the textarea, not on the model menu.
    const targetOf = (control: MemoryControl) =>
      control === "preset" && controls.preset.value === "custom" ? textarea : controls[control];
    const problems = placeRefusal(result.ok ? [] : result.problems);
    showControlProblems(
      { controls, messages, fields: fieldOf, hidden: new Set<MemoryControl>() },
      memoryControls,
      problems,
      targetOf,
    );
    // A problem in a control under "More settings" opens it: the message is next to the field.
    if (more && problems.some((p) => more.contains(controls[p.control]))) more.open = true;
    steady();
    if (!result.ok) {
      // Keep the last valid drawing, dimmed, and say which values it shows.
      const bad = problems.map((p) => p.control);
      if (last) {
        staleText = staleNote(last.state, bad);
        setStale(out, staleText);
      }
      return;
    }
    staleText = undefined;
    last = { state: result.state, view: result.view };
    writeUrl(encodeMemoryState(result.state, base));
    if (now) drawLast();
    else later(drawLast, "draw", delayMs);
  };

  // A select or checkbox fires "input" and then "change" for one edit: answer the values once.
  // Keys typed into a text field redraw after a pause, so typing "4096" draws once.
  const onEdit = (delayMs: number, control: MemoryControl) => {
    if (valuesKey() === answered) return;
    edited = control;
    try {
      update(false, delayMs);
    } finally {
      edited = undefined;
    }
  };
  for (const name of memoryControls) {
    const typed =
      controls[name] instanceof HTMLInputElement && (controls[name] as HTMLInputElement).type !== "checkbox";
    controls[name].addEventListener("input", () => onEdit(typed ? typingPauseMs : 0, name));
    controls[name].addEventListener("change", () => onEdit(0, name));
  }
  textarea.addEventListener("input", () => onEdit(typingPauseMs, "preset"));
  axisSelect.addEventListener("change", () => later(drawLast));
  copy.addEventListener("click", async () => {
    const state = last?.state ?? base;
    status.textContent = await copyLink(win, shareLink(win, id, encodeMemoryState(state, base)), linkBox);
  });
  const showBase = () => {
    const v = controlValuesOf(base);
    for (const name of memoryControls) {
      const c = controls[name];
      if (c instanceof HTMLInputElement && c.type === "checkbox") c.checked = v[name] as boolean;
      else c.value = v[name] as string;
    }
    textarea.value = v.configText;
  };
  reset.addEventListener("click", () => {
    showBase();
    status.textContent = "Back to this example’s settings.";
    update();
  });

  update(true);
  if (last === null) {
    // The chapter's settings were validated at build time, so this only happens if a restored
    // link combined with them badly; fall back to the chapter's own state rather than nothing.
    showBase();
    update(true);
  }
}
