/**
 * The reader's theme choice: where it is stored and how it is read, shared by theme.ts (runs
 * in `<head>`) and book.ts (the toggle button). Storage can be unavailable (private modes,
 * blocked cookies): then the choice lasts for the page only.
 */
export type Theme = "light" | "dark";

const themeStorageKey = "scaling-out-theme";

export function readStoredTheme(): Theme | undefined {
  try {
    const v = window.localStorage.getItem(themeStorageKey);
    return v === "light" || v === "dark" ? v : undefined;
  } catch {
    return undefined;
  }
}

export function storeTheme(theme: Theme): void {
  try {
    window.localStorage.setItem(themeStorageKey, theme);
  } catch {
    /* storage blocked: the choice holds until the next page */
  }
}

/** The theme in effect: the one set on `<html data-theme>`, else the system's. */
export function effectiveTheme(): Theme {
  const set = document.documentElement.getAttribute("data-theme");
  if (set === "light" || set === "dark") return set;
  return window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}
