/**
 * book.js: the one small script on every page. Everything here is an enhancement; the page
 * reads completely without it.
 *
 * - Widgets: each `<div data-widget="name" data-settings="…">` gets its bundle
 *   (`./widgets/<name>.js`, next to this file) when it comes within 600px of the viewport
 *   (also inside a part that the browser skipped while it was off screen);
 *   the module's `mount(root, settings)` takes over the static drawing.
 * - ToC: highlights the section being read (scroll-spy); on narrow screens the ToC is a
 *   drawer that closes after a jump.
 * - Previews: hovering or focusing a citation, cross-reference or footnote shows the target
 *   in a small card; on touch screens a footnote opens its card on tap.
 * - Glossary marks: Escape hides the definition shown on hover or focus; on touch screens the
 *   first tap on a term shows its definition, the second follows the link.
 * - Theme: the header's button cycles through light, dark and following the system, and stores
 *   the choice (theme.ts applies it before the first paint on the next page).
 * - Search: "/" focuses the search box; the search page runs Pagefind's UI.
 *
 * Each of these is one module beside this file (widget-loader, toc, previews, glossary-marks,
 * theme-toggle, search-box); this file starts them after the first paint and renders the parts
 * at the load event.
 */

import { markScrollRegions } from "./scroll-regions.ts"; // wide equations, code and tables: focusable when they scroll
import "./code-copy.ts"; // "Copy code" buttons on code blocks
import { mountExerciseChecks } from "./exercise-check.ts"; // answer boxes of checkable exercises, solved counts
import "./widget-links.ts"; // shared widget links open at the widget; "Download SVG" buttons
import "./reading.ts"; // reading progress, resume, read marks
import { setUpWidgets } from "./widget-loader.ts";
import { setUpToc } from "./toc.ts";
import { setUpPreviews } from "./previews.ts";
import { setUpGlossaryMarks } from "./glossary-marks.ts";
import { setUpThemeToggle } from "./theme-toggle.ts";
import { setUpSearch } from "./search-box.ts";

function start(): void {
  document.documentElement.classList.add("js");
  setUpThemeToggle();
  setUpSearch();
  setUpWidgets();
  setUpToc();
  setUpPreviews();
  setUpGlossaryMarks();
}

// Parts (content-visibility: auto) skip rendering only until the page has loaded; from then on
// they are ordinary blocks (book.css, "Parts"). Set during the load event itself, so anything that
// measures the page after it, a test driver's scroll included, meets laid-out parts. The exercises'
// answer boxes are put in place and the boxes that scroll sideways measured then: exercise-check.ts
// and scroll-regions.ts leave those that a skipped block holds.
function renderParts(): void {
  document.documentElement.classList.add("parts-rendered");
  mountExerciseChecks();
  markScrollRegions();
}
if (document.readyState === "complete") renderParts();
else window.addEventListener("load", renderParts);

// After the first paint (at once when the page has painted while it was parsed; else after the
// next frame), not before it: start() restyles the page (the class "js") and the ToC
// measures its headings (a forced layout), which delayed the first paint by up to a second on a
// slow phone (docs/performance-log.md, "Paint"). Nothing here is needed to read the first screen.
function startAfterFirstFrame(): void {
  if (performance.getEntriesByType("paint").length > 0) start();
  else requestAnimationFrame(() => window.setTimeout(start, 0));
}
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", startAfterFirstFrame);
else startAfterFirstFrame();
