/**
 * Keyboard access to content that scrolls sideways: a wide display equation, code block or
 * table (`overflow-x: auto` in book.css) that is wider than the column gets `tabindex="0"`, so
 * a keyboard user can focus it and scroll it with the arrow keys (WCAG 2.1.1; axe rule
 * scrollable-region-focusable). Only boxes that really overflow at the current width become
 * Tab stops, and they stop being one when the window grows. Boxes that already contain a
 * focusable element are left alone. Imported by book.ts, for its effect and for markScrollRegions.
 */
import { onBlockRendered, outsideSkippedBlocks } from "./skipped-blocks.ts";

const scrollBoxes = "pre, .math.display, .table-scroll";
const focusable = "a[href], button, input, select, textarea, summary, [tabindex]";

/**
 * Gives each box that overflows a Tab stop, and takes it from one that no longer does. A box in a
 * block that the browser is skipping (`content-visibility: auto`, book.css, until the load) is
 * left as it is: it measures as fitting there, and reading its size makes the browser lay out its
 * block for the read, one block after another. On /one-gpu/ at 390 px, CPU 4× slower, that was 7
 * layouts while book.js started, and its module took 929 ms to run (docs/performance-log.md, "Paint",
 * fifteenth look). book.ts calls this again once the skipping ends at the load, and start() below
 * for each block that the browser renders before then, or that a reader opens.
 * On /book/ the chapters stay skipped off screen after the load, and measuring every chapter at
 * once, as before, took 6.6-7.0 s at 4×. So from the load on, a box that a skipped block still holds
 * is made a Tab stop before it is measured (`data-scroll-region="unmeasured"`): every box that
 * scrolls is reachable by keyboard at once (axe's scrollable-region-focusable passes on /book/,
 * issue #54), and when its chapter renders (Tab into it does that) the boxes that fit lose the stop
 * again, all but the one focused. A keyboard reader meets at most one box that does not scroll per
 * chapter; before, Tab passed the wide boxes above a chapter's first link. A box in a closed
 * <details> is left for the toggle below, and one that holds a focusable element is left alone.
 */
export function markScrollRegions(root: ParentNode = document): void {
  const found = Array.from(root.querySelectorAll<HTMLElement>(scrollBoxes));
  // A skipped block may itself be a box: the build marks the blocks of the first parts
  // (src/plugins/site/critical-css.ts), a formula or a code block among them.
  if (root instanceof HTMLElement && root.matches(scrollBoxes)) found.unshift(root);
  const boxes = outsideSkippedBlocks(found);
  // After the load, what is still skipped stays so (the chapters of /book/): a Tab stop until measured.
  if (document.readyState === "complete" && boxes.length < found.length) {
    const rendered = new Set(boxes);
    for (const el of found) {
      if (rendered.has(el) || el.hasAttribute("tabindex") || el.closest("details:not([open])")) continue;
      if (el.querySelector(focusable)) continue;
      el.setAttribute("tabindex", "0");
      el.dataset.scrollRegion = "unmeasured";
    }
  }
  // Every box is measured before any is changed: a read after a change lays the page out again.
  // No tolerance: a box 1px too wide scrolls by 1px, and axe (like a keyboard user) counts it.
  const overflowing = boxes.map((el) => el.scrollWidth > el.clientWidth);
  boxes.forEach((el, i) => {
    const overflows = overflowing[i];
    if (overflows && el.dataset.scrollRegion === "unmeasured") {
      el.dataset.scrollRegion = "";
    } else if (overflows && !el.hasAttribute("tabindex") && !el.querySelector(focusable)) {
      el.setAttribute("tabindex", "0");
      el.dataset.scrollRegion = "";
    } else if (!overflows && el.dataset.scrollRegion !== undefined && el !== document.activeElement) {
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
  // A block that the browser skipped is measured once it is rendered.
  onBlockRendered((block) => markScrollRegions(block));
  // A box in a closed <details> (an exercise's solution) measures nothing until it is opened.
  document.addEventListener(
    "toggle",
    (event) => {
      if (event.target instanceof HTMLDetailsElement && event.target.open) markScrollRegions(event.target);
    },
    { capture: true },
  );
  // Web fonts change widths once they arrive. (Not `document.fonts.ready`: with no font loading yet
  // it has already resolved, and measured the page a second time right away.)
  document.fonts?.addEventListener("loadingdone", () => markScrollRegions());
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
