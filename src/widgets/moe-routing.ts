/**
 * Browser entry of the `moe-routing` widget: controls for the routing simulation of
 * src/model/moe-routing.ts, redrawn with the same figure code as the static build-time SVG.
 *
 * Bad input never reaches the model: the field gets aria-invalid="true" and a message with
 * role="alert", and the chart keeps the last valid state. A good edit is simulated and drawn once
 * it has painted (runtime/after-paint.ts). There is no animation, so
 * prefers-reduced-motion needs no special case. The settings live in the URL under this widget's
 * id; "Copy link" shares them (runtime/url-state.ts).
 */
import { simulateMoeRouting, type MoeRoutingResult } from "../model/index.ts";
import {
  drawMoeRouting,
  moeExpertChoices,
  moeGpuChoices,
  summarizeMoeRouting,
  type MoeRoutingSettings,
  moeRoutingUrlCodec,
} from "../figures/moe-routing.ts";
import { clearWidget, dom } from "../figures/kit/dom.ts";
import { readNumber } from "../figures/kit/field.ts";
import { afterPaint } from "./runtime/after-paint.ts";
import { widgetLink } from "./runtime/url-state.ts";

type FieldName = "tokens" | "experts" | "gpus" | "topK" | "capacityFactor" | "skew" | "seed";

interface Field {
  input: HTMLInputElement | HTMLSelectElement;
  message: HTMLElement;
}

/**
 * Checks the raw control values; returns the settings, or the messages of the fields at fault.
 * Pure (no DOM), so tests can drive it directly.
 */
export function validateControls(
  raw: Record<FieldName, string>,
  dropless: boolean,
): { ok: true; settings: MoeRoutingSettings } | { ok: false; errors: Partial<Record<FieldName, string>> } {
  const errors: Partial<Record<FieldName, string>> = {};
  const int = (name: FieldName, min: number, max: number, hint: string): number => {
    const v = readNumber(raw[name]);
    if (v === null || !Number.isInteger(v) || v < min || v > max) {
      errors[name] = `Enter a whole number from ${min} to ${max}${hint}.`;
      return Number.NaN;
    }
    return v;
  };
  const experts = int("experts", 8, 64, "");
  const gpus = int("gpus", 1, 8, "");
  const tokens = int("tokens", 16, 4096, ", for example 512");
  const topK = int("topK", 1, 8, "");
  const seed = int("seed", 0, 4_294_967_295, "");
  let capacityFactor: number | null = null;
  if (!dropless) {
    const c = readNumber(raw.capacityFactor);
    if (c === null || c < 0.05 || c > 16)
      errors.capacityFactor = "Enter a capacity factor from 0.05 to 16, for example 1.25.";
    else capacityFactor = c;
  }
  const skew = readNumber(raw.skew);
  if (skew === null || skew < 0 || skew > 2) errors.skew = "Enter a skew from 0 to 2.";
  if (errors.tokens === undefined && errors.gpus === undefined && tokens % gpus !== 0) {
    errors.tokens = `The number of tokens must be a multiple of the number of GPUs (${gpus}).`;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, settings: { tokens, experts, gpus, topK, capacityFactor, skew: skew as number, seed } };
}

export function mount(root: HTMLElement, settings: MoeRoutingSettings): void {
  const doc = root.ownerDocument;
  const idBase = root.id || `moe-routing-${Math.random().toString(36).slice(2, 8)}`;
  const { el } = dom(doc);

  clearWidget(root);
  const controls = el("div", { class: "widget-controls" });
  const fields = {} as Record<FieldName, Field>;

  const addField = (
    name: FieldName,
    label: string,
    input: HTMLInputElement | HTMLSelectElement,
    after?: HTMLElement,
  ) => {
    const wrap = el("div", { class: "widget-field" });
    input.id = `${idBase}-${name}`;
    input.setAttribute("name", name);
    const message = el("p", { class: "widget-message", id: `${idBase}-${name}-message`, role: "alert" });
    input.setAttribute("aria-describedby", message.id);
    wrap.append(el("label", { for: input.id }, label), input);
    if (after) wrap.append(after);
    wrap.append(message);
    controls.append(wrap);
    fields[name] = { input, message };
  };
  const textInput = (value: string, inputmode = "numeric") =>
    el("input", { type: "text", inputmode, autocomplete: "off", spellcheck: "false", value });
  const selectOf = (choices: readonly number[], value: number) => {
    const s = el("select");
    for (const c of choices) {
      const o = el("option", { value: String(c) }, String(c));
      if (c === value) o.setAttribute("selected", "");
      s.append(o);
    }
    return s;
  };

  addField("tokens", "Tokens in the batch", textInput(String(settings.tokens)));
  addField("experts", "Experts", selectOf(moeExpertChoices, settings.experts));
  addField("gpus", "GPUs (EP degree)", selectOf(moeGpuChoices, settings.gpus));
  addField("topK", "Experts per token (k)", textInput(String(settings.topK)));
  const droplessBox = el("input", { type: "checkbox", id: `${idBase}-dropless` });
  if (settings.capacityFactor === null) droplessBox.checked = true;
  const droplessLabel = el("label", { class: "widget-check", for: droplessBox.id });
  droplessLabel.append(droplessBox, doc.createTextNode(" no capacity limit (dropless)"));
  addField(
    "capacityFactor",
    "Capacity factor",
    textInput(String(settings.capacityFactor ?? 1.25), "decimal"),
    droplessLabel,
  );
  const skewInput = el("input", { type: "range", min: "0", max: "2", step: "0.05", value: String(settings.skew) });
  const skewOut = el("output", { for: `${idBase}-skew` }, String(settings.skew));
  addField("skew", "Router skew", skewInput, skewOut);
  addField("seed", "Random seed", textInput(String(settings.seed)));

  const chart = el("div", { class: "moe-routing-figure" });
  const summary = el("p", { class: "widget-summary" });
  const live = el("p", { class: "visually-hidden", "aria-live": "polite" });
  root.append(controls, chart, summary, live);
  const link = widgetLink(root, moeRoutingUrlCodec, settings, () => apply(settings));

  let last: MoeRoutingResult | null = null;
  const later = afterPaint(root);
  /** Checks the fields at once; simulates and redraws after the edit has painted, or at once (`now`). */
  const update = (now = false) => {
    const raw = {} as Record<FieldName, string>;
    for (const name of Object.keys(fields) as FieldName[]) raw[name] = fields[name].input.value;
    fields.capacityFactor.input.disabled = droplessBox.checked;
    skewOut.textContent = raw.skew;
    const checked = validateControls(raw, droplessBox.checked);
    for (const name of Object.keys(fields) as FieldName[]) {
      const msg = checked.ok ? undefined : checked.errors[name];
      if (msg) fields[name].input.setAttribute("aria-invalid", "true");
      else fields[name].input.removeAttribute("aria-invalid");
      fields[name].message.textContent = msg ?? "";
    }
    if (!checked.ok) return; // keep the last valid chart
    link.show(checked.settings);
    const draw = () => {
      last = simulateMoeRouting(checked.settings);
      drawMoeRouting(chart, last);
      const text = summarizeMoeRouting(last);
      summary.textContent = text;
      live.textContent = text;
    };
    if (now) draw();
    else later(draw);
  };
  for (const { input } of Object.values(fields)) {
    input.addEventListener("input", () => update());
    input.addEventListener("change", () => update());
  }
  droplessBox.addEventListener("change", () => update());
  const apply = (s: MoeRoutingSettings) => {
    const values: Record<FieldName, number> = { ...s, capacityFactor: s.capacityFactor ?? 1.25 };
    for (const name of Object.keys(fields) as FieldName[]) fields[name].input.value = String(values[name]);
    droplessBox.checked = s.capacityFactor === null;
    update();
  };
  update(true);
  if (link.restored) apply(link.restored);
  if (last === null) {
    // Settings came from the page and were validated at build time, so this cannot happen;
    // draw the defaults rather than nothing if it ever does.
    drawMoeRouting(
      chart,
      simulateMoeRouting({ tokens: 512, experts: 16, gpus: 4, topK: 2, capacityFactor: 1.25, skew: 0.5, seed: 7 }),
    );
  }
}
