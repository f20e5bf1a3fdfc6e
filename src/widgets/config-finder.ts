/**
 * Browser entry of the `config-finder` widget: enables the controls drawn at build time and reruns
 * the search (src/model/config-search.ts) when one changes. A bad value marks its field invalid
 * with a message (role="alert") and the chart, table and text keep the last valid state. Nothing
 * animates, so prefers-reduced-motion needs no case.
 */
import {
  configFinderBounds,
  configFinderProblem,
  drawConfigBars,
  explainConfigFinder,
  fillConfigTable,
  runConfigFinder,
  type ConfigFinderSettings,
} from "../figures/config-finder.ts";
import { ModelInputError } from "../model/index.ts";
import { checkNumberField, setFieldProblem } from "../figures/kit/field.ts";

type NumericKey = keyof typeof configFinderBounds;

export function mount(root: HTMLElement, settings: ConfigFinderSettings): void {
  const figure = root.querySelector<HTMLElement>(".config-finder-figure");
  const readout = root.querySelector<HTMLElement>(".config-finder-readout");
  const table = root.querySelector<HTMLTableElement>(".config-finder-table");
  const live = root.querySelector<HTMLElement>("[aria-live]");
  const model = root.querySelector<HTMLSelectElement>("select[name=model]");
  const gpu = root.querySelector<HTMLSelectElement>("select[name=gpu]");
  if (!figure || !readout || !table || !model || !gpu) throw new Error("config-finder: static markup missing");
  const inputs = new Map<NumericKey, HTMLInputElement>();
  for (const key of Object.keys(configFinderBounds) as NumericKey[]) {
    const input = root.querySelector<HTMLInputElement>(`input[name=${key}]`);
    if (!input) throw new Error(`config-finder: control ${key} missing`);
    input.disabled = false;
    inputs.set(key, input);
  }
  model.disabled = false;
  gpu.disabled = false;
  const idBase = root.getAttribute("id") ?? "config-finder";
  let last = settings;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const draw = (s: ConfigFinderSettings) => {
    const result = runConfigFinder(s);
    figure.textContent = "";
    drawConfigBars(figure, result, { idPrefix: `${idBase}-svg`, width: figure.clientWidth || 640 });
    fillConfigTable(table, result);
    const text = explainConfigFinder(s, result);
    readout.textContent = text;
    if (live) live.textContent = text;
  };

  const update = () => {
    const next: ConfigFinderSettings = { ...last, model: model.value, gpu: gpu.value };
    let ok = true;
    for (const [key, input] of inputs) {
      const text = input.value;
      const read = checkNumberField(text, (value) => configFinderProblem(key, value));
      setFieldProblem(input, read.ok ? undefined : read.message);
      if (read.ok) next[key] = read.value;
      else ok = false;
    }
    if (!ok) return;
    try {
      draw(next);
      last = next;
    } catch (e) {
      if (!(e instanceof ModelInputError)) throw e;
      const input = inputs.get(e.field as NumericKey) ?? inputs.get("gpuCount");
      if (input) setFieldProblem(input, e.message);
    }
  };
  const schedule = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(update, 150);
  };
  for (const input of inputs.values()) input.addEventListener("input", schedule);
  model.addEventListener("change", update);
  gpu.addEventListener("change", update);
  const width = figure.clientWidth;
  if (width > 0 && Math.abs(width - 640) > 40) draw(last);
}
