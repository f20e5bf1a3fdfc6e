/**
 * Glossary marks of book.js. CSS shows a definition on hover and focus (book.css, "Glossary
 * marks"). Escape hides it without moving the pointer or the focus (WCAG 1.4.13, content on hover
 * or focus is dismissible); it shows again once the pointer or the focus moves to another place.
 * On a touch screen, which has no hover, the first tap on a term shows its definition (class
 * `gloss-open`) and a second tap follows the link to the glossary; a tap anywhere else closes it.
 */
export function setUpGlossaryMarks(): void {
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
