/**
 * Browser entry of the `memory-explorer` widget: controls for the model, batch, precision,
 * recomputation, ZeRO and parallel degrees and the GPU, redrawn with the same figure code as the
 * static build-time drawing (src/figures/memory-explorer.ts). The logic (validation, the model
 * call, URL encoding) lives in src/figures/memory-explorer/ and is unit-tested there.
 *
 * Bad input never reaches the drawing: the field gets aria-invalid="true" and a message with
 * role="alert", and the charts keep the last valid state. Settings live in the URL under this
 * widget's id; the chapter's `hide` and `lock` lists remove or disable controls.
 */
import { GPUS, MODEL_PRESETS } from "../model/index.ts";
import { renderMemoryOutputs } from "../figures/memory-explorer.ts";
import { memoryControls, type MemoryControl, type MemoryExplorerSettings, type MemoryExplorerState } from "../figures/memory-explorer/state.ts";
import { formatBytes, gpuShortName, memoryCurve, presetLabel, summarizeMemory, type CurveAxis, type MemoryView } from "../figures/memory-explorer/view.ts";
import { decodeMemoryState, encodeMemoryState } from "../figures/memory-explorer/url.ts";
import { controlValuesOf, readMemoryControls, type MemoryControlValues } from "../figures/memory-explorer/controls.ts";
import { copyLink, readUrlParam, shareLink, urlWriter } from "./runtime/url-state.ts";
import { ensureStyle, explorerControlsCss } from "./runtime/widget-style.ts";
import { clearWidget, dom } from "../figures/kit/dom.ts";
import { setStale } from "../figures/kit/field.ts";
import { formatNumber } from "../figures/kit/format.ts";

type Control = HTMLInputElement | HTMLSelectElement;

const labels: Record<MemoryControl, string> = {
  preset: "Model",
  gpu: "GPU",
  seqLength: "Sequence length s (tokens)",
  microBatch: "Micro-batch size b",
  precision: "Precision",
  fp32GradAccum: "fp32 gradient accumulation buffer",
  recompute: "Activation recomputation",
  attention: "Attention kernel",
  zero: "ZeRO stage",
  dp: "Data parallel d",
  tp: "Tensor parallel t",
  sp: "Sequence parallelism (with TP)",
  pp: "Pipeline parallel p",
  cp: "Context parallel",
  ep: "Expert parallel (MoE)",
  schedule: "Pipeline schedule",
  microbatches: "Microbatches m",
  chunks: "Chunks per GPU v",
};

const choiceLabels: Partial<Record<MemoryControl, Array<[string, string]>>> = {
  precision: [
    ["bf16", "bf16 mixed precision (Adam)"],
    ["fp32", "fp32 (Adam)"],
  ],
  recompute: [
    ["none", "none"],
    ["selective", "selective (attention scores)"],
    ["full", "full (layer inputs only)"],
  ],
  attention: [
    ["flash", "FlashAttention"],
    ["eager", "eager (stores s × s scores)"],
  ],
  zero: [
    ["0", "none"],
    ["1", "ZeRO-1 (optimizer)"],
    ["2", "ZeRO-2 (+ gradients)"],
    ["3", "ZeRO-3 (+ parameters)"],
  ],
  schedule: [
    ["1f1b", "1F1B"],
    ["interleaved", "interleaved 1F1B"],
    ["afab", "all forward, all backward"],
  ],
};

const groups: Array<[string, MemoryControl[]]> = [
  ["Model and GPU", ["preset", "gpu"]],
  ["Batch and precision", ["seqLength", "microBatch", "precision", "fp32GradAccum", "recompute", "attention"]],
  ["Parallelism", ["zero", "dp", "tp", "sp", "pp", "schedule", "microbatches", "chunks", "cp", "ep"]],
];

/** Controls that go with another one: hiding `tp` hides `sp`; hiding `pp` hides the schedule's controls. */
const companions: Partial<Record<MemoryControl, MemoryControl[]>> = {
  tp: ["sp"],
  pp: ["schedule", "microbatches", "chunks"],
};

function expand(list: readonly MemoryControl[]): Set<MemoryControl> {
  const out = new Set<MemoryControl>(list);
  for (const c of list) for (const extra of companions[c] ?? []) out.add(extra);
  return out;
}

const css = `
.mx-controls .mx-config textarea { min-height: 9rem; }
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
  const fixed = [...new Set([...hidden, ...locked])];
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

  clearWidget(root);
  const form = el("form", { class: "explorer-controls mx-controls", "aria-label": "Memory Explorer settings" });
  form.addEventListener("submit", (e) => e.preventDefault());
  const controls = {} as Record<MemoryControl, Control>;
  const fieldOf = {} as Record<MemoryControl, HTMLElement>;
  const messages = {} as Record<MemoryControl, HTMLElement>;
  const values = controlValuesOf(start);

  const textarea = el("textarea", {
    id: `${id}-config`,
    name: "config",
    rows: "8",
    spellcheck: "false",
    "aria-describedby": `${id}-preset-message`,
    placeholder: '{ "model_type": "llama", "hidden_size": 4096, … }',
  });
  textarea.value = values.configText;

  const makeControl = (name: MemoryControl): Control => {
    if (name === "fp32GradAccum" || name === "sp") {
      const box = el("input", { type: "checkbox" });
      box.checked = values[name];
      return box;
    }
    if (name === "preset" || name === "gpu" || choiceLabels[name]) {
      const select = el("select");
      const options: Array<[string, string]> =
        name === "preset"
          ? [...MODEL_PRESETS.map((p): [string, string] => [p.id, presetLabel(p.id)]), ["custom", "Paste a config.json…"]]
          : name === "gpu"
            ? GPUS.map((g): [string, string] => [g.id, `${gpuShortName(g.name)} (${formatBytes(g.hbmBytes)})`])
            : choiceLabels[name]!;
      for (const [value, text] of options) select.append(el("option", { value }, text));
      select.value = values[name];
      return select;
    }
    return el("input", { type: "text", inputmode: "numeric", autocomplete: "off", spellcheck: "false", value: values[name] });
  };

  for (const [legend, names] of groups) {
    const fieldset = el("fieldset");
    fieldset.append(el("legend", {}, legend));
    let shown = 0;
    for (const name of names) {
      const control = makeControl(name);
      control.id = `${id}-${name}`;
      control.setAttribute("name", name);
      const message = el("p", { class: "widget-message", id: `${id}-${name}-message`, role: "alert" });
      control.setAttribute("aria-describedby", message.id);
      const wrap = el("div", { class: "widget-field", "data-control": name });
      if (control instanceof HTMLInputElement && control.type === "checkbox") {
        const label = el("label", { class: "explorer-check", for: control.id });
        label.append(control, doc.createTextNode(labels[name]));
        wrap.append(label, message);
      } else {
        wrap.append(el("label", { for: control.id }, labels[name]), control, message);
      }
      if (name === "preset") {
        const configWrap = el("div", { class: "mx-config" });
        configWrap.append(el("label", { for: textarea.id }, "config.json"), textarea);
        wrap.classList.add("wide-field");
        wrap.insertBefore(configWrap, message);
      }
      if (locked.has(name)) {
        control.disabled = true;
        wrap.setAttribute("data-locked", "");
        control.title = "Fixed for this example";
        if (name === "preset") textarea.disabled = true;
      }
      if (hidden.has(name)) wrap.hidden = true;
      else shown++;
      controls[name] = control;
      fieldOf[name] = wrap;
      messages[name] = message;
      fieldset.append(wrap);
    }
    if (shown > 0) form.append(fieldset);
  }

  const actions = el("div", { class: "explorer-actions" });
  const axisSelect = el("select", { id: `${id}-axis`, name: "axis" });
  axisSelect.append(el("option", { value: "seqLength" }, "sequence length"), el("option", { value: "microBatch" }, "micro-batch size"));
  const axisLabel = el("label", { for: axisSelect.id, class: "explorer-status" }, "Curve against ");
  const copy = el("button", { type: "button", class: "explorer-button" }, "Copy link");
  const reset = el("button", { type: "button", class: "explorer-button" }, "Reset");
  const status = el("p", { class: "explorer-status", role: "status" }, linkMessage);
  const linkBox = el("input", { type: "text", class: "explorer-link", readonly: "", "aria-label": "Link to these settings" });
  linkBox.hidden = true;
  actions.append(axisLabel, axisSelect, copy, reset, status, linkBox);

  const out = el("div", { class: "mx-output" });
  const live = el("p", { class: "visually-hidden", "aria-live": "polite" });
  root.append(form, actions, out, live);

  const writeUrl = urlWriter(win, id);
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

  const syncVisibility = () => {
    const custom = controls.preset.value === "custom";
    (textarea.parentElement as HTMLElement).hidden = !custom;
    const ppText = controls.pp.value.trim();
    const pipelined = ppText !== "" && ppText !== "1";
    for (const name of ["schedule", "microbatches"] as const) fieldOf[name].hidden = hidden.has(name) || !pipelined;
    fieldOf.chunks.hidden = hidden.has("chunks") || !pipelined || controls.schedule.value !== "interleaved";
    (controls.fp32GradAccum as HTMLInputElement).disabled = locked.has("fp32GradAccum") || controls.precision.value === "fp32";
  };

  const draw = (state: MemoryExplorerState, view: MemoryView) => {
    const axis = axisSelect.value as CurveAxis;
    renderMemoryOutputs(out, view, memoryCurve(state, axis, view.arch), axis);
    live.textContent = summarizeMemory(view);
  };

  const staleNote = (shown: MemoryExplorerState, names: MemoryControl[]): string => {
    const parts = [...new Set(names)].map((n) => {
      const v = shown[n];
      const text = typeof v === "number" ? formatNumber(v) : typeof v === "boolean" ? (v ? "on" : "off") : String(v);
      return `${labels[n]} = ${text}`;
    });
    return `Showing the last valid result (${parts.join(", ")}) until the field is fixed.`;
  };

  const update = () => {
    syncVisibility();
    const result = readMemoryControls(readValues());
    for (const name of memoryControls) {
      controls[name].removeAttribute("aria-invalid");
      messages[name].textContent = "";
    }
    textarea.removeAttribute("aria-invalid");
    if (!result.ok) {
      for (const problem of result.problems) {
        const target = problem.control === "preset" && controls.preset.value === "custom" ? textarea : controls[problem.control];
        target.setAttribute("aria-invalid", "true");
        const msg = messages[problem.control];
        msg.textContent = msg.textContent ? `${msg.textContent} ${problem.message}` : problem.message;
        // A problem in a hidden control would be invisible: show it on the first visible field.
        if (fieldOf[problem.control].hidden && !hidden.has(problem.control)) fieldOf[problem.control].hidden = false;
      }
      // Keep the last valid drawing, dimmed, and say which values it shows.
      if (last) setStale(out, staleNote(last.state, result.problems.map((p) => p.control)));
      return;
    }
    setStale(out, undefined);
    last = { state: result.state, view: result.view };
    draw(result.state, result.view);
    writeUrl(encodeMemoryState(result.state, base));
  };

  for (const name of memoryControls) {
    controls[name].addEventListener("input", update);
    controls[name].addEventListener("change", update);
  }
  textarea.addEventListener("input", update);
  axisSelect.addEventListener("change", () => {
    if (last) draw(last.state, last.view);
  });
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

  update();
  if (last === null) {
    // The chapter's settings were validated at build time, so this only happens if a restored
    // link combined with them badly; fall back to the chapter's own state rather than nothing.
    showBase();
    update();
  }
}
