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
 * Gives each box that overflows a Tab stop, and takes it from one that no longer does. A box in a
 * block that the browser is skipping (`content-visibility: auto`, book.css, until the load) is
 * left as it is: it measures as fitting there, and reading its size makes the browser lay out its
 * block for the read, one block after another. On /one-gpu/ at 390 px, CPU 4× slower, that was 7
 * layouts in one 930 ms task while book.js started (docs/performance.md, "Paint", fifteenth look).
 * book.ts calls this again once the skipping ends at the load, and start() below for each block
 * that the browser renders before then (or, on /book/, at any time).
 */
export function markScrollRegions(root: ParentNode = document): void {
  // checkVisibility with this option says whether a skipped block holds the box, from style alone
  // (Chromium 121, Firefox 125, Safari 18). Where it is missing, every box is measured. Style is
  // brought up to date first: right after book.ts ended the skipping, Chromium's checkVisibility
  // still said "skipped" until the next style update (seen on /typical-scales/ at the load).
  void getComputedStyle(document.documentElement).color;
  const boxes = Array.from(root.querySelectorAll<HTMLElement>(scrollBoxes)).filter(
    (el) => el.checkVisibility?.({ contentVisibilityAuto: true }) !== false,
  );
  // Every box is measured before any is changed: a read after a change lays the page out again.
  // No tolerance: a box 1px too wide scrolls by 1px, and axe (like a keyboard user) counts it.
  const overflowing = boxes.map((el) => el.scrollWidth > el.clientWidth);
  boxes.forEach((el, i) => {
    const overflows = overflowing[i];
    if (overflows && !el.hasAttribute("tabindex") && !el.querySelector(focusable)) {
      el.setAttribute("tabindex", "0");
      el.dataset.scrollRegion = "";
    } else if (!overflows && el.dataset.scrollRegion !== undefined) {
      el.removeAttribute("tabindex");
      delete el.dataset.scrollRegion;
    }
  });
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
  // A block that the browser skipped is measured once it is rendered: on a chapter page when the
  // reader nears it before the load, and on /book/, whose chapters stay skipped while off screen.
  // The event does not bubble, so it is caught on its way down.
  document.addEventListener(
    "contentvisibilityautostatechange",
    (event) => {
      const block = event.target;
      if (!(event as ContentVisibilityAutoStateChangeEvent).skipped && block instanceof Element)
        markScrollRegions(block);
    },
    { capture: true },
  );
  // Web fonts change widths once they arrive. (Not `document.fonts.ready`: with no font loading yet
  // it has already resolved, and measured the page a second time right away.)
  document.fonts?.addEventListener("loadingdone", () => markScrollRegions());
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
