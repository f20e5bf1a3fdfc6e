/**
 * The contract every widget follows. A widget has three parts:
 *
 * 1. `src/figures/<name>.ts` exports a `WidgetDefinition`: `parseSettings` turns the YAML
 *    written in the chapter into typed settings (or throws `WidgetSettingsError` naming the
 *    field), and `renderStatic` draws the default state into an element using only
 *    `root.ownerDocument` (no `window`/`document` globals), so the build can run it under
 *    linkedom. That drawing is what readers see with JavaScript off, in print and in the PDF.
 * 2. `src/figures/index.ts` lists it in `widgetRegistry` under its name.
 * 3. `src/widgets/<name>.ts` is the browser entry: it exports `mount(root, settings)`, which
 *    receives the `<div data-widget>` element (already holding the static drawing) and the
 *    settings `parseSettings` returned (as JSON). esbuild bundles it to
 *    `/assets/js/widgets/<name>.js`; the page loads it when it scrolls near.
 */
export class WidgetSettingsError extends Error {
  readonly field: string;
  /** For an unknown setting: the known ones (the build suggests the nearest). */
  readonly known: readonly string[] | undefined;
  constructor(field: string, message: string, known?: readonly string[]) {
    super(`setting "${field}": ${message}`);
    this.name = "WidgetSettingsError";
    this.field = field;
    this.known = known;
  }
}

export interface WidgetDefinition<S> {
  /**
   * What the widget draws, as a lower-case clause ("converts an amount of memory …"): the build's
   * "unknown widget … did you mean `x` (description)?" message names it beside the nearest name.
   */
  description: string;
  /** Validates the YAML settings (an object; `{}` when none are written). */
  parseSettings(raw: unknown): S;
  /** Draws the default state into `root` (build time, under linkedom). */
  renderStatic(root: Element, settings: S): void;
}

/** Identity helper that keeps the settings type of a definition. */
export function defineWidget<S>(definition: WidgetDefinition<S>): WidgetDefinition<S> {
  return definition;
}

/** Checks that settings are a plain object with only the given keys; returns it. */
export function settingsObject(raw: unknown, allowedKeys: readonly string[]): Record<string, unknown> {
  if (raw === null || raw === undefined) return {};
  if (typeof raw !== "object" || Array.isArray(raw)) {
    throw new WidgetSettingsError("(settings)", "must be YAML key: value lines");
  }
  const obj = raw as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    if (!allowedKeys.includes(key)) {
      throw new WidgetSettingsError(key, `unknown setting (known: ${allowedKeys.join(", ")})`, allowedKeys);
    }
  }
  return obj;
}
