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
 * - Theme: the header's button switches light/dark and stores the choice (theme.ts applies
 *   it before the first paint on the next page).
 */

import "./scroll-regions.ts"; // wide equations, code and tables: focusable when they scroll
import "./code-copy.ts"; // "Copy code" buttons on code blocks
import "./exercise-check.ts"; // answer boxes of checkable exercises, solved counts
import "./widget-links.ts"; // shared widget links open at the widget; "Download SVG" buttons
import { currentHeading, spySelector } from "./reading.ts"; // reading progress, resume, read marks
import { effectiveTheme, storeTheme, type Theme } from "./theme-store.ts";
import { isTransientViewport } from "./scroll-regions.ts";

const widgetBase = new URL("./widgets/", import.meta.url);

export interface WidgetModule {
  mount(root: HTMLElement, settings: unknown): void;
}

function mountWidget(el: HTMLElement): void {
  if (el.dataset.widgetState) return;
  el.dataset.widgetState = "loading";
  const name = el.dataset.widget ?? "";
  if (!/^[a-z0-9-]+$/.test(name)) return;
  let settings: unknown = {};
  try {
    settings = JSON.parse(el.dataset.settings ?? "{}");
  } catch {
    settings = {};
  }
  import(/* @vite-ignore */ new URL(`${name}.js`, widgetBase).href)
    .then((mod: WidgetModule) => {
      mod.mount(el, settings);
      el.dataset.widgetState = "mounted";
    })
    .catch((err: unknown) => {
      el.dataset.widgetState = "error";
      console.warn(`widget ${name} could not start; the static figure stays.`, err);
    });
}

/** The part (`<section class="part">`, content-visibility: auto) a widget sits in, if any. */
const partSelector = ".chapter-body > .part";

function setUpWidgets(): void {
  const widgets = Array.from(document.querySelectorAll<HTMLElement>("[data-widget]"));
  if (widgets.length === 0) return;
  if (!("IntersectionObserver" in window)) {
    widgets.forEach(mountWidget);
    return;
  }
  const io = new IntersectionObserver(
    (entries) => {
      for (const e of entries) {
        if (e.isIntersecting) {
          io.unobserve(e.target);
          mountWidget(e.target as HTMLElement);
        }
      }
    },
    { rootMargin: "600px 0px" },
  );
  widgets.forEach((w) => io.observe(w));
  // A widget inside a part that the browser skips (content-visibility: auto, off screen) has no
  // layout, and Chromium's observer did not report it again once its part was rendered: the
  // widget never mounted (docs/performance.md, "Paint"). So when such a part is rendered
  // (contentvisibilityautostatechange) or comes near the screen (a second observer on the part,
  // which always has a box), its widgets are observed afresh, which measures them anew.
  const parts = new Map<Element, HTMLElement[]>();
  for (const w of widgets) {
    const part = w.closest(partSelector);
    if (!part) continue;
    const list = parts.get(part);
    if (list) list.push(w);
    else parts.set(part, [w]);
  }
  const reobserve = (part: Element) => {
    for (const w of parts.get(part) ?? []) {
      if (w.dataset.widgetState) continue;
      io.unobserve(w);
      io.observe(w);
    }
  };
  const partIo = new IntersectionObserver(
    (entries) => {
      for (const e of entries) if (e.isIntersecting) reobserve(e.target);
    },
    { rootMargin: "600px 0px" },
  );
  for (const part of parts.keys()) {
    partIo.observe(part);
    part.addEventListener("contentvisibilityautostatechange", (e) => {
      if (!(e as Event & { skipped?: boolean }).skipped) reobserve(part);
    });
  }
}

const narrow = window.matchMedia("(max-width: 79.99rem)");

function setUpToc(): void {
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

/* Previews */

let popover: HTMLElement | undefined;
let popoverOwner: HTMLElement | undefined;
let hideTimer: number | undefined;

function ensurePopover(): HTMLElement {
  if (popover) return popover;
  popover = document.createElement("div");
  popover.id = "book-popover";
  popover.className = "popover";
  popover.setAttribute("role", "tooltip");
  popover.hidden = true;
  popover.addEventListener("mouseenter", () => window.clearTimeout(hideTimer));
  popover.addEventListener("mouseleave", () => scheduleHide());
  document.body.append(popover);
  return popover;
}

function targetOf(link: HTMLAnchorElement): Element | null {
  const id = decodeURIComponent(link.hash.slice(1));
  return id ? document.getElementById(id) : null;
}

/** What the card shows for a link, as a detached copy (never the live element). */
function previewContent(link: HTMLAnchorElement): DocumentFragment | undefined {
  const target = targetOf(link);
  if (!target) return undefined;
  const frag = document.createDocumentFragment();
  const copy = (el: Element) => {
    const c = el.cloneNode(true) as Element;
    c.removeAttribute("id");
    for (const withId of c.querySelectorAll("[id]")) withId.removeAttribute("id");
    for (const back of c.querySelectorAll(".footnote-backref")) back.remove();
    return c;
  };
  if (link.classList.contains("cite") || link.closest(".footnote-ref")) {
    for (const child of Array.from(target.childNodes))
      frag.append(child.nodeType === 1 ? copy(child as Element) : child.cloneNode(true));
  } else if (target.tagName === "FIGURE") {
    const caption = target.querySelector("figcaption");
    const img = target.querySelector("img, svg");
    if (img && target.classList.contains("figure")) frag.append(copy(img));
    if (caption) frag.append(copy(caption));
  } else if (/^H[23]$/.test(target.tagName)) {
    const p = document.createElement("p");
    p.className = "popover-heading";
    p.append(copy(target));
    frag.append(p);
    const next = target.nextElementSibling;
    if (next && next.tagName === "P") frag.append(copy(next));
  } else {
    frag.append(copy(target));
  }
  return frag;
}

function showPreview(link: HTMLAnchorElement): void {
  const content = previewContent(link);
  if (!content) return;
  const pop = ensurePopover();
  window.clearTimeout(hideTimer);
  pop.replaceChildren(content);
  pop.hidden = false;
  popoverOwner?.removeAttribute("aria-describedby");
  popoverOwner = link;
  link.setAttribute("aria-describedby", pop.id);
  const r = link.getBoundingClientRect();
  const width = Math.min(420, document.documentElement.clientWidth - 16);
  pop.style.width = `${width}px`;
  const left = Math.max(
    8,
    Math.min(r.left + window.scrollX - 24, window.scrollX + document.documentElement.clientWidth - width - 8),
  );
  pop.style.left = `${left}px`;
  const below = r.bottom + window.scrollY + 8;
  pop.style.top = `${below}px`;
  const h = pop.getBoundingClientRect().height;
  if (r.bottom + 8 + h > window.innerHeight && r.top - 8 - h > 0) pop.style.top = `${r.top + window.scrollY - 8 - h}px`;
}

function hidePreview(): void {
  if (!popover) return;
  popover.hidden = true;
  popoverOwner?.removeAttribute("aria-describedby");
  popoverOwner = undefined;
}

function scheduleHide(): void {
  window.clearTimeout(hideTimer);
  hideTimer = window.setTimeout(hidePreview, 200);
}

const previewSelector = "a.cite, a.xref, .footnote-ref > a";

function setUpPreviews(): void {
  const hoverable = window.matchMedia("(hover: hover)");
  document.addEventListener("mouseover", (e) => {
    const link = (e.target as Element).closest?.<HTMLAnchorElement>(previewSelector);
    if (link && hoverable.matches) showPreview(link);
  });
  document.addEventListener("mouseout", (e) => {
    const link = (e.target as Element).closest?.(previewSelector);
    if (link) scheduleHide();
  });
  document.addEventListener("focusin", (e) => {
    const link = (e.target as Element).closest?.<HTMLAnchorElement>(previewSelector);
    // On touch screens a tap focuses the footnote link and then clicks it; the click toggles the card.
    if (link && !(link.closest(".footnote-ref") && !hoverable.matches)) showPreview(link);
    else if (!link && !popover?.contains(e.target as Node)) hidePreview();
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") hidePreview();
  });
  document.addEventListener("click", (e) => {
    const link = (e.target as Element).closest?.<HTMLAnchorElement>(".footnote-ref > a");
    // On touch screens a footnote opens its card instead of jumping to the end of the page.
    if (link && !hoverable.matches) {
      e.preventDefault();
      if (popoverOwner === link && !popover?.hidden) hidePreview();
      else showPreview(link);
      return;
    }
    if (
      popover &&
      !popover.hidden &&
      !popover.contains(e.target as Node) &&
      !(e.target as Element).closest?.(previewSelector)
    ) {
      hidePreview();
    }
  });
}

/* Glossary marks: CSS shows a definition on hover and focus (book.css, "Glossary marks"). Escape
   hides it without moving the pointer or the focus (WCAG 1.4.13, content on hover or focus is
   dismissible); it shows again once the pointer or the focus moves to another place. On a touch
   screen, which has no hover, the first tap on a term shows its definition (class `gloss-open`)
   and a second tap follows the link to the glossary; a tap anywhere else closes it. */

function setUpGlossaryMarks(): void {
  if (!document.querySelector(".gloss-term")) return;
  const root = document.documentElement;
  const hoverable = window.matchMedia("(hover: hover)");
  let open: Element | undefined;
  const close = () => {
    open?.classList.remove("gloss-open");
    open = undefined;
  };
  document.addEventListener("click", (e) => {
    const link = (e.target as Element).closest?.("a.gloss");
    const term = link?.closest(".gloss-term") ?? undefined;
    if (term && !hoverable.matches && term !== open) {
      e.preventDefault();
      close();
      term.classList.add("gloss-open");
      open = term;
      return;
    }
    if (!term || term !== open) close();
  });
  let dismissed: Element | null | undefined;
  const termAt = (el: EventTarget | null) => (el instanceof Element ? el.closest(".gloss-term") : null);
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape") return;
    close();
    const hovered = document.querySelectorAll(".gloss-term:hover");
    const term = termAt(document.activeElement) ?? hovered[hovered.length - 1] ?? null;
    if (!term) return;
    dismissed = term;
    root.classList.add("gloss-dismissed");
  });
  const restore = (e: Event) => {
    if (dismissed === undefined || termAt(e.target) === dismissed) return;
    dismissed = undefined;
    root.classList.remove("gloss-dismissed");
  };
  document.addEventListener("mouseover", restore);
  document.addEventListener("focusin", restore);
}

/* Theme button */

function setUpThemeToggle(): void {
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

/* Search: the header box submits to /search/?q=…, where Pagefind's UI shows the hits. */

interface PagefindUIInstance {
  triggerSearch(term: string): void;
}
type PagefindUIConstructor = new (options: Record<string, unknown>) => PagefindUIInstance;

// book.js lives at <base>/assets/js/book.js; the index at <base>/pagefind/ (path-prefix safe).
const pagefindBase = new URL("../../pagefind/", import.meta.url);

function loadPagefindUI(): Promise<PagefindUIConstructor> {
  const css = document.createElement("link");
  css.rel = "stylesheet";
  css.href = new URL("pagefind-ui.css", pagefindBase).href;
  document.head.append(css);
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = new URL("pagefind-ui.js", pagefindBase).href;
    script.addEventListener("load", () => {
      const ctor = (window as unknown as { PagefindUI?: PagefindUIConstructor }).PagefindUI;
      if (ctor) resolve(ctor);
      else reject(new Error("pagefind-ui.js did not define PagefindUI"));
    });
    script.addEventListener("error", () => reject(new Error("pagefind-ui.js could not load")));
    document.head.append(script);
  });
}

function setUpSearch(): void {
  const box = document.querySelector<HTMLInputElement>(".site-search input[type=search]");
  document.addEventListener("keydown", (e) => {
    if (e.key !== "/" || e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target as HTMLElement;
    if (t.closest("input, textarea, select, [contenteditable]")) return;
    const target = document.querySelector<HTMLInputElement>(".pagefind-ui__search-input") ?? box;
    if (!target) return;
    e.preventDefault();
    target.focus();
  });
  const host = document.querySelector<HTMLElement>("[data-search-ui]");
  if (!host) return;
  const query = new URLSearchParams(window.location.search).get("q") ?? "";
  if (box) box.value = query;
  loadPagefindUI()
    .then((PagefindUI) => {
      const ui = new PagefindUI({
        element: "#search",
        bundlePath: pagefindBase.pathname,
        showSubResults: true,
        showImages: false,
        resetStyles: false,
        autofocus: false, // the skip link stays the first Tab stop; "/" focuses the box
      });
      host.dataset.searchState = "ready";
      if (query) ui.triggerSearch(query);
    })
    .catch((err: unknown) => {
      host.dataset.searchState = "error";
      host.textContent = "Search could not start in this browser.";
      console.warn(err);
    });
}

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
// measures the page after it, a test driver's scroll included, meets laid-out parts.
function renderParts(): void {
  document.documentElement.classList.add("parts-rendered");
}
if (document.readyState === "complete") renderParts();
else window.addEventListener("load", renderParts);

// After the first paint (at once when the page has painted while it was parsed; else after the
// next frame), not before it: start() restyles the page (the class "js") and the ToC
// measures its headings (a forced layout), which delayed the first paint by up to a second on a
// slow phone (docs/performance.md, "Paint"). Nothing here is needed to read the first screen.
function startAfterFirstFrame(): void {
  if (performance.getEntriesByType("paint").length > 0) start();
  else requestAnimationFrame(() => window.setTimeout(start, 0));
}
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", startAfterFirstFrame);
else startAfterFirstFrame();
