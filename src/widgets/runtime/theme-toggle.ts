/**
 * The theme button of book.js. It cycles through three choices, each press to the next, and stores
 * the choice (theme.ts applies it before the first paint on the next page):
 * - "system": no stored choice, no `data-theme` on <html>; book.css follows `prefers-color-scheme`,
 *   also when the system changes while the page is open;
 * - the theme opposite the system's, so that the first press from "system" always changes what the
 *   reader sees;
 * - the system's own theme, fixed (it stays when the system changes); the next press goes back to
 *   "system".
 * With a light system that is system → dark → light → system; with a dark one, system → light →
 * dark → system. The button's label names the choice in effect and the one a press makes, and its
 * `data-theme-choice` draws the icon: an outline circle for light, a filled one for dark, a half
 * filled one for the system (book.css).
 */
import { storeTheme, systemTheme, type Theme } from "./theme-store.ts";

export type ThemeChoice = Theme | "system";

/** The choice in effect: the theme set on <html>, else "system". */
export function currentThemeChoice(): ThemeChoice {
  const set = document.documentElement.getAttribute("data-theme");
  return set === "light" || set === "dark" ? set : "system";
}

/** The choice a press makes, from `choice`, when the system's theme is `system`. */
export function nextThemeChoice(choice: ThemeChoice, system: Theme): ThemeChoice {
  const opposite: Theme = system === "dark" ? "light" : "dark";
  if (choice === "system") return opposite;
  if (choice === opposite) return system;
  return "system";
}

function describe(choice: ThemeChoice, system: Theme): string {
  return choice === "system" ? `follow the system (now ${system})` : `${choice}`;
}

export function setUpThemeToggle(): void {
  const button = document.querySelector<HTMLButtonElement>("button.theme-toggle");
  if (!button) return;
  const label = () => {
    const system = systemTheme();
    const choice = currentThemeChoice();
    const next = nextThemeChoice(choice, system);
    const text = `Theme: ${describe(choice, system)}. Switch to ${describe(next, system)}`;
    button.setAttribute("aria-label", text);
    button.title = text;
    button.dataset.themeChoice = choice;
  };
  label();
  button.addEventListener("click", () => {
    const next = nextThemeChoice(currentThemeChoice(), systemTheme());
    if (next === "system") document.documentElement.removeAttribute("data-theme");
    else document.documentElement.setAttribute("data-theme", next);
    storeTheme(next);
    label();
  });
  // While the page follows the system, keep the label true when the system changes.
  window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", label);
}
