/**
 * Keyboard access to content that scrolls sideways: a wide display equation, code block or
 * table (`overflow-x: auto` in book.css) that is wider than the column gets `tabindex="0"`, so
 * a keyboard user can focus it and scroll it with the arrow keys (WCAG 2.1.1; axe rule
 * scrollable-region-focusable). Only boxes that really overflow at the current width become
 * Tab stops, and they stop being one when the window grows. Boxes that already contain a
 * focusable element are left alone. Imported by book.ts, for its effect and for markScrollRegions.
 */
const scrollBoxes = "pre, .math.display, .table-scroll";
const focusable = "a[href], button, input, select, textarea, summary, [tabindex]";

/**
 * Gives each box that overflows a Tab stop, and takes it from one that no longer does. A box that
 * the first paint skips (`content-visibility: auto`, book.css) measures as not overflowing until it
 * is rendered, so book.ts calls this again once the skipping ends at the load.
 */
export function markScrollRegions(root: ParentNode = document): void {
  for (const el of root.querySelectorAll<HTMLElement>(scrollBoxes)) {
    // No tolerance: a box 1px too wide scrolls by 1px, and axe (like a keyboard user) counts it.
    const overflows = el.scrollWidth > el.clientWidth;
    if (overflows && !el.hasAttribute("tabindex") && !el.querySelector(focusable)) {
      el.setAttribute("tabindex", "0");
      el.dataset.scrollRegion = "";
    } else if (!overflows && el.dataset.scrollRegion !== undefined) {
      el.removeAttribute("tabindex");
      delete el.dataset.scrollRegion;
    }
  }
}

/**
 * A viewport this small is not a reader's window: Chromium briefly resizes the page to 1×1
 * (and then to the full page height) while taking a screenshot taller than the viewport.
 * Re-measuring every box there forces a layout of the whole chapter at 1px width, and the
 * tabindex changes it makes move the element being captured, so the capture never settles.
 */
export function isTransientViewport(win: Window = window): boolean {
  return win.innerWidth < 200 || win.innerHeight < 100;
}

function start(): void {
  markScrollRegions();
  let pending: number | undefined;
  window.addEventListener("resize", () => {
    // Measure once the size has settled (dragging a window edge fires many events).
    window.clearTimeout(pending);
    pending = window.setTimeout(() => {
      if (!isTransientViewport()) markScrollRegions();
    }, 150);
  });
  // Web fonts change widths once they arrive.
  document.fonts?.ready.then(() => markScrollRegions());
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
