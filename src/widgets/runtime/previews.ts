/**
 * Previews of book.js: hovering or focusing a citation, cross-reference or footnote shows the
 * target in a small card; on touch screens a footnote opens its card on tap.
 */
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

export function setUpPreviews(): void {
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
