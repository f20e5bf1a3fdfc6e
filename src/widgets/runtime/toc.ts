/**
 * The table of contents of book.js: highlights the section being read (scroll-spy); on narrow
 * screens the ToC is a drawer that closes after a jump.
 */
import { currentHeading, spySelector } from "./reading.ts";
import { isTransientViewport } from "./scroll-regions.ts";

const narrow = window.matchMedia("(max-width: 79.99rem)");

export function setUpToc(): void {
  const toc = document.querySelector<HTMLDetailsElement>("details.toc");
  if (!toc) return;
  const sync = () => {
    if (narrow.matches) toc.removeAttribute("open");
    else toc.setAttribute("open", "");
  };
  sync();
  // Follow real crossings of the breakpoint only, once the size has settled. Opening and
  // closing the drawer on every media change fed back into screenshots taller than the
  // viewport (Chromium resizes the page to 1×1 and to full height while capturing; the
  // drawer flipped, the page reflowed, and the capture waited for a layout that never
  // settled). A transient viewport leaves the ToC as it is.
  let syncTimer: number | undefined;
  let wasNarrow = narrow.matches;
  narrow.addEventListener("change", () => {
    window.clearTimeout(syncTimer);
    syncTimer = window.setTimeout(() => {
      if (isTransientViewport() || narrow.matches === wasNarrow) return;
      wasNarrow = narrow.matches;
      sync();
    }, 150);
  });
  toc.addEventListener("click", (e) => {
    if ((e.target as Element).closest("a") && narrow.matches) toc.removeAttribute("open");
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && narrow.matches && toc.open) {
      toc.removeAttribute("open");
      toc.querySelector("summary")?.focus();
    }
  });

  const links = new Map<string, HTMLAnchorElement>();
  for (const a of toc.querySelectorAll<HTMLAnchorElement>("a[href^='#']"))
    links.set(decodeURIComponent(a.hash.slice(1)), a);
  const headings = Array.from(document.querySelectorAll<HTMLElement>(spySelector));
  if (headings.length === 0) return;
  let current: HTMLAnchorElement | undefined;
  const update = () => {
    if (isTransientViewport()) return;
    const active = currentHeading(headings);
    const link = active ? links.get(active.id) : undefined;
    if (link === current) return;
    current?.removeAttribute("aria-current");
    link?.setAttribute("aria-current", "location");
    current = link;
  };
  let queued = false;
  window.addEventListener(
    "scroll",
    () => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(() => {
        queued = false;
        update();
      });
    },
    { passive: true },
  );
  update();
}
