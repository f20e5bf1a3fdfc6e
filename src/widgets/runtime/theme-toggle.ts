/**
 * The theme button of book.js: switches light/dark and stores the choice (theme.ts applies it
 * before the first paint on the next page).
 */
import { effectiveTheme, storeTheme, type Theme } from "./theme-store.ts";

export function setUpThemeToggle(): void {
  const button = document.querySelector<HTMLButtonElement>("button.theme-toggle");
  if (!button) return;
  const label = () => {
    const other: Theme = effectiveTheme() === "dark" ? "light" : "dark";
    button.setAttribute("aria-label", `Switch to ${other} theme`);
    button.title = `Switch to ${other} theme`;
  };
  label();
  button.addEventListener("click", () => {
    const next: Theme = effectiveTheme() === "dark" ? "light" : "dark";
    document.documentElement.setAttribute("data-theme", next);
    storeTheme(next);
    label();
  });
  // With no stored choice the page follows the system; keep the label true when it changes.
  window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", label);
}
