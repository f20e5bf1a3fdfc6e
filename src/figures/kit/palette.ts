/**
 * The palette in TypeScript: the CSS variables of assets/css/book.css (light and dark values) and
 * the `var(--c-…)` references figures draw with. Figures inlined in a page use `color.x` and
 * follow the reader's theme; a figure that leaves the page (a static SVG loaded with <img>, an
 * SVG the reader downloads) carries `paletteCss()` so the same variables resolve there.
 * tests/figures/kit-palette.test.ts checks these values against book.css.
 */

export const paletteNames = [
  "bg",
  "surface",
  "surface-2",
  "text",
  "muted",
  "border",
  "accent",
  "accent-soft",
  "params",
  "grads",
  "optim",
  "acts",
  "comm",
  "bubble",
  "warning",
  "invalid",
] as const;

export type PaletteName = (typeof paletteNames)[number];

export const lightPalette: Readonly<Record<PaletteName, string>> = {
  bg: "#ffffff",
  surface: "#f5f6f8",
  "surface-2": "#eceef2",
  text: "#1b1d22",
  muted: "#585f6b",
  border: "#dfe2e7",
  accent: "#0a5fc2",
  "accent-soft": "#e7f0fb",
  params: "#2563c9",
  grads: "#c2410c",
  optim: "#2f7d3b",
  acts: "#8a3ab0",
  comm: "#0a7a8c",
  bubble: "#9aa1ab",
  warning: "#a64b00",
  invalid: "#b3261e",
};

export const darkPalette: Readonly<Record<PaletteName, string>> = {
  bg: "#14161a",
  surface: "#1d2025",
  "surface-2": "#262a31",
  text: "#e5e7eb",
  muted: "#a3a9b4",
  border: "#343943",
  accent: "#72b2ff",
  "accent-soft": "#1b2a3d",
  params: "#6fa3ff",
  grads: "#ff8f5a",
  optim: "#63c777",
  acts: "#d08cf0",
  comm: "#45c4d6",
  bubble: "#6b7280",
  warning: "#f0a04b",
  invalid: "#ff8a80",
};

type CamelName<S extends string> = S extends `${infer A}-${infer B}` ? `${A}${Capitalize<CamelName<B>>}` : S;

const camel = (s: string) => s.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

/** `color.params` → "var(--c-params)", `color.surface2` → "var(--c-surface-2)". */
export const color = Object.fromEntries(paletteNames.map((n) => [camel(n), `var(--c-${n})`])) as Readonly<
  Record<CamelName<PaletteName>, string>
>;

/** The colour of each pipeline operation (forward, backward, weight gradient, overlapped F&B). */
export const pipelineOpColors: Readonly<Record<"F" | "B" | "W" | "FB", string>> = {
  F: color.params,
  B: color.grads,
  W: color.optim,
  FB: color.acts,
};

function declarations(p: Readonly<Record<PaletteName, string>>): string {
  return paletteNames.map((n) => `--c-${n}:${p[n]}`).join(";");
}

/**
 * CSS that defines the palette on `selector`, light by default and dark under
 * `prefers-color-scheme: dark`, for an SVG that is shown outside the book's pages.
 */
export function paletteCss(selector: string, theme: "auto" | "light" | "dark" = "auto"): string {
  if (theme !== "auto") return `${selector}{${declarations(theme === "light" ? lightPalette : darkPalette)}}`;
  return `${selector}{${declarations(lightPalette)}}\n@media (prefers-color-scheme:dark){${selector}{${declarations(darkPalette)}}}`;
}

/**
 * `var(--c-text, #1b1d22)`: the variable with the palette's own value as a fallback, for CSS of an
 * SVG file that pages load with <img> (it cannot see the page's variables).
 */
export function colorWithFallback(name: PaletteName, theme: "light" | "dark" = "light"): string {
  return `var(--c-${name},${(theme === "light" ? lightPalette : darkPalette)[name]})`;
}
