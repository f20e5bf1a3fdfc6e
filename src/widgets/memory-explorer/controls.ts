/**
 * The Memory Explorer's form: a label for every control, the choices of each select, the three
 * groups (model and GPU, batch and precision, parallelism), which controls hide or lock together,
 * and the markup: one fieldset per group that has a visible control, each control with its label
 * and its role="alert" message, the pasted config.json under the model select. The entry
 * (src/widgets/memory-explorer.ts) reads the controls and shows the problems.
 */
import { GPUS, MODEL_PRESETS, type ZeroStage } from "../../model/index.ts";
import type { MemoryControl } from "../../figures/memory-explorer/state.ts";
import { formatBytes, gpuShortName, presetLabel } from "../../figures/memory-explorer/view.ts";
import type { MemoryControlValues } from "../../figures/memory-explorer/controls.ts";
import { dom } from "../../figures/kit/dom.ts";
import { FRAMEWORK_LABELS, frameworkOptions, frameworkStages, isFrameworkId } from "../../figures/kit/scenario.ts";

export type Control = HTMLInputElement | HTMLSelectElement;

/** The label of each control (the stale note names controls by it too). */
export const labels: Record<MemoryControl, string> = {
  preset: "Model",
  gpu: "GPU",
  framework: "Framework",
  seqLength: "Sequence length s (tokens)",
  microBatch: "Micro-batch size b",
  recompute: "Activation recomputation",
  attention: "Attention kernel",
  zero: "ZeRO stage",
  reshard: "Free gathered weights after forward (reshard)",
  dp: "Data parallel d",
  tp: "Tensor parallel t",
  sp: "Sequence parallelism (with TP)",
  pp: "Pipeline parallel p",
  split: "Stage split",
  schedule: "Pipeline schedule",
  microbatches: "Microbatches m",
  chunks: "Chunks per GPU v",
  cp: "Context parallel",
  ep: "Expert parallel (MoE)",
};

const choiceLabels: Partial<Record<MemoryControl, Array<[string, string]>>> = {
  framework: frameworkOptions.map(([id, name]) => [id, name]),
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
    ["3", "ZeRO-3 / FSDP (+ parameters)"],
  ],
  schedule: [
    ["1f1b", "1F1B"],
    ["interleaved", "interleaved 1F1B"],
  ],
  split: [
    // Short enough for the select at phone width; the layers per stage are printed beside it.
    ["even", "even, extra layers first"],
    ["trimmed", "end stages one layer short"],
  ],
};

const groups: Array<[string, MemoryControl[]]> = [
  ["Model, GPU and framework", ["preset", "gpu", "framework"]],
  ["Batch", ["seqLength", "microBatch", "recompute", "attention"]],
  [
    "Parallelism",
    ["zero", "reshard", "dp", "tp", "sp", "pp", "split", "schedule", "microbatches", "chunks", "cp", "ep"],
  ],
];

/** Controls that go with another one: hiding `tp` hides `sp`; hiding `pp` hides the split and the schedule's controls. */
const companions: Partial<Record<MemoryControl, MemoryControl[]>> = {
  zero: ["reshard"],
  tp: ["sp"],
  pp: ["split", "schedule", "microbatches", "chunks"],
};

/** The controls of a `hide` or `lock` list with their companions. */
export function expand(list: readonly MemoryControl[]): Set<MemoryControl> {
  const out = new Set<MemoryControl>(list);
  for (const c of list) for (const extra of companions[c] ?? []) out.add(extra);
  return out;
}

/**
 * Marks the ZeRO stages the framework does not run as unavailable in the ZeRO select (they stay
 * listed, named as such, so a reader sees why).
 */
export function syncZeroOptions(select: HTMLSelectElement, framework: string): void {
  const runs = isFrameworkId(framework) ? frameworkStages(framework) : [];
  const name = isFrameworkId(framework) ? FRAMEWORK_LABELS[framework] : framework;
  for (const option of Array.from(select.options)) {
    const base = choiceLabels.zero!.find(([v]) => v === option.value)?.[1] ?? option.text;
    const ok = runs.includes(Number(option.value) as ZeroStage);
    option.disabled = !ok;
    option.text = ok ? base : `${base}: not in ${name}`;
  }
}

export interface MemoryForm {
  form: HTMLFormElement;
  controls: Record<MemoryControl, Control>;
  /** The `.widget-field` wrapper of each control (hidden with it). */
  fieldOf: Record<MemoryControl, HTMLElement>;
  /** The role="alert" message of each control. */
  messages: Record<MemoryControl, HTMLElement>;
  /** The pasted config.json, shown when the model select says "custom". */
  textarea: HTMLTextAreaElement;
  /** The "More settings" disclosure holding the controls the chapter hides (null when it hides none). */
  more: HTMLDetailsElement | null;
  /** Beside the stage-split select: the layers per stage the drawing uses. */
  splitLayers: HTMLElement;
}

/**
 * Builds the form showing `values`; controls in `hidden` go into a closed "More settings"
 * disclosure at the end of the form (grouped as in the form), those in `locked` are disabled.
 * Element ids start with `id`.
 */
export function memoryForm(
  doc: Document,
  id: string,
  values: MemoryControlValues,
  hidden: ReadonlySet<MemoryControl>,
  locked: ReadonlySet<MemoryControl>,
): MemoryForm {
  const { el } = dom(doc);
  const form = el("form", { class: "explorer-controls mx-controls", "aria-label": "Memory Explorer settings" });
  form.addEventListener("submit", (e) => e.preventDefault());
  const controls = {} as Record<MemoryControl, Control>;
  const fieldOf = {} as Record<MemoryControl, HTMLElement>;
  const messages = {} as Record<MemoryControl, HTMLElement>;

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
    if (name === "reshard" || name === "sp") {
      const box = el("input", { type: "checkbox" });
      box.checked = values[name];
      return box;
    }
    if (name === "preset" || name === "gpu" || choiceLabels[name]) {
      const select = el("select");
      const options: Array<[string, string]> =
        name === "preset"
          ? [
              ...MODEL_PRESETS.map((p): [string, string] => [p.id, presetLabel(p.id)]),
              ["custom", "Paste a config.json…"],
            ]
          : name === "gpu"
            ? GPUS.map((g): [string, string] => [g.id, `${gpuShortName(g.name)} (${formatBytes(g.hbmBytes)})`])
            : choiceLabels[name]!;
      for (const [value, text] of options) select.append(el("option", { value }, text));
      select.value = values[name];
      return select;
    }
    return el("input", {
      type: "text",
      inputmode: "numeric",
      autocomplete: "off",
      spellcheck: "false",
      value: values[name],
    });
  };

  const splitLayers = el("p", { class: "mx-split-layers", id: `${id}-split-layers` });
  const more = hidden.size > 0 ? el("details", { class: "mx-more" }) : null;
  if (more) more.append(el("summary", {}, "More settings"));
  for (const [legend, names] of groups) {
    const shownSet = el("fieldset");
    shownSet.append(el("legend", {}, legend));
    const moreSet = el("fieldset");
    moreSet.append(el("legend", {}, legend));
    for (const name of names) {
      const control = makeControl(name);
      control.id = `${id}-${name}`;
      control.setAttribute("name", name);
      const message = el("p", { class: "widget-message", id: `${id}-${name}-message`, role: "alert" });
      control.setAttribute("aria-describedby", name === "split" ? `${message.id} ${splitLayers.id}` : message.id);
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
      if (name === "split") wrap.insertBefore(splitLayers, message);
      if (name === "zero") syncZeroOptions(control as HTMLSelectElement, values.framework);
      if (locked.has(name)) {
        control.disabled = true;
        wrap.setAttribute("data-locked", "");
        control.title = "Fixed for this example";
        if (name === "preset") textarea.disabled = true;
      }
      controls[name] = control;
      fieldOf[name] = wrap;
      messages[name] = message;
      (hidden.has(name) ? moreSet : shownSet).append(wrap);
    }
    if (shownSet.children.length > 1) form.append(shownSet);
    if (more && moreSet.children.length > 1) more.append(moreSet);
  }
  if (more) form.append(more);
  return { form, controls, fieldOf, messages, textarea, more, splitLayers };
}
