/**
 * Blocks that the browser skips while they are off screen (`content-visibility: auto`, book.css:
 * a chapter page's parts until the load, /book/'s chapters while away from the screen). Reading
 * the size of an element inside such a block, or showing a form control there, makes Chromium lay
 * the whole block out (docs/performance-log.md, "Paint", fifteenth and sixteenth looks). So work that
 * measures or adds controls is done for rendered blocks first and for the others as they render:
 * scroll-regions.ts (a wide box's Tab stop) and exercise-check.ts (an exercise's answer box).
 */

/**
 * The elements that are rendered and that no skipped block holds (an element in a `display: none`
 * subtree is left out too), each asked through `probe` (by default itself).
 * `checkVisibility` with this option answers from style alone (Chromium 121; Firefox and Safari
 * have it wherever they have content-visibility); where it is missing, every element is kept, as
 * is one whose probe is null. The root's computed style is read first: that brings style up to
 * date when the root's own is stale, as it is right after book.ts ends the skipping with a class
 * on <html>, and without it Chromium's checkVisibility still said "skipped" there (seen on
 * /typical-scales/ at the load).
 */
export function outsideSkippedBlocks<T extends Element>(
  elements: Iterable<T>,
  probe: (el: T) => Element | null = (el) => el,
): T[] {
  void getComputedStyle(document.documentElement).color;
  return Array.from(elements).filter((el) => probe(el)?.checkVisibility?.({ contentVisibilityAuto: true }) !== false);
}

/**
 * Calls `callback` with each block that the browser starts to render (it stops skipping it): on
 * a chapter page when the reader nears a part before the load, on /book/ whenever a chapter comes
 * near the screen. The event does not bubble, so it is caught on its way down.
 */
export function onBlockRendered(callback: (block: Element) => void): void {
  document.addEventListener(
    "contentvisibilityautostatechange",
    (event) => {
      const block = event.target;
      if (!(event as ContentVisibilityAutoStateChangeEvent).skipped && block instanceof Element) callback(block);
    },
    { capture: true },
  );
}
