/**
 * theme.js: the only script that blocks parsing, loaded at the end of `<head>` (after the
 * first screen's inline rules; the full stylesheets load at the end of `<body>`, see
 * src/plugins/site/critical-css.ts), so a reader's stored choice of theme is on `<html>` before the
 * body is parsed or painted (no flash of the other theme). It is an
 * external file on purpose: the Content-Security-Policy allows no inline script. It does two things:
 *
 * - copies a stored choice (`localStorage["scaling-out-theme"]`, "light" or "dark") to
 *   `<html data-theme>`; with no stored choice book.css follows `prefers-color-scheme`;
 * - adds the class `theme-js` so the header's theme button shows (it needs book.js to work;
 *   with JavaScript off it stays hidden).
 *
 * book.ts owns the button and writes the choice; the key and values are shared from here.
 */
import { readStoredTheme } from "./theme-store.ts";

const root = document.documentElement;
root.classList.add("theme-js");
const stored = readStoredTheme();
if (stored) root.setAttribute("data-theme", stored);
