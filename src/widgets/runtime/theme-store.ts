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

/** Stores a theme, or with "system" forgets the stored one so that pages follow the system again. */
export function storeTheme(theme: Theme | "system"): void {
  try {
    if (theme === "system") window.localStorage.removeItem(themeStorageKey);
    else window.localStorage.setItem(themeStorageKey, theme);
  } catch {
    /* storage blocked: the choice holds until the next page */
  }
}

/** The system's theme (`prefers-color-scheme`). */
export function systemTheme(): Theme {
  return window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

/** The theme in effect: the one set on `<html data-theme>`, else the system's. */
export function effectiveTheme(): Theme {
  const set = document.documentElement.getAttribute("data-theme");
  if (set === "light" || set === "dark") return set;
  return systemTheme();
}
