/**
 * The Memory Explorer's chapter settings: the YAML written inside `::: widget memory-explorer`,
 * read field by field with the shared parser, and the whole combination checked with the model,
 * so a chapter that asks for a setup the model refuses fails the build with the control named.
 */
import { ModelInputError } from "../../model/index.ts";
import { WidgetSettingsError, settingsObject } from "../widget.ts";
import {
  defaultFramework,
  memoryControls,
  memoryDefaults,
  parseControlList,
  parseField,
  type MemoryExplorerSettings,
  type MemoryExplorerState,
} from "./state.ts";
import { computeMemoryView, controlOfModelField } from "./view.ts";

/** Throws WidgetSettingsError naming the control when the model rejects the state. */
export function checkWithModel(state: MemoryExplorerState): void {
  try {
    computeMemoryView(state);
  } catch (err) {
    if (err instanceof ModelInputError) {
      const mapped = controlOfModelField(err.field);
      const control = err.field === "config" || (mapped === "preset" && state.preset === "custom") ? "config" : mapped;
      throw new WidgetSettingsError(control, err.message);
    }
    throw err;
  }
}

/**
 * Parses `::: widget memory-explorer` YAML settings: every key optional (see
 * {@link memoryDefaults}; without `framework`, {@link defaultFramework} picks the profile for the
 * layout), plus `config` (an HF config object, with `preset: custom`), `hide` (controls shown only
 * under "More settings") and `lock` (controls the reader cannot change). The combination must be
 * one the engine accepts.
 */
export function parseMemorySettings(raw: unknown): MemoryExplorerSettings {
  const obj = settingsObject(raw, [...memoryControls, "config", "hide", "lock"]);
  const state: MemoryExplorerState = { ...memoryDefaults };
  for (const key of memoryControls) {
    if (obj[key] !== undefined) (state as unknown as Record<string, unknown>)[key] = parseField(key, obj[key]);
  }
  if (obj.config !== undefined) {
    state.config = parseField("config", obj.config) as Record<string, unknown> | null;
    if (obj.preset === undefined) state.preset = "custom";
  }
  if (state.preset === "custom" && !state.config)
    throw new WidgetSettingsError("config", "preset: custom needs a config object");
  if (state.preset !== "custom") state.config = null;
  if (obj.framework === undefined) state.framework = defaultFramework(state);
  const hide = parseControlList("hide", obj.hide);
  const lock = parseControlList("lock", obj.lock);
  checkWithModel(state);
  return { ...state, hide, lock };
}
