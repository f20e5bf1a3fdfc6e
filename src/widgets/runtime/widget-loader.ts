/**
 * The lazy widget loader of book.js: each `<div data-widget="name" data-settings="…">` gets its
 * bundle (`./widgets/<name>.js`, next to book.js) when it comes within 600px of the viewport, also
 * inside a part that the browser skipped while it was off screen; the module's
 * `mount(root, settings)` takes over the static drawing.
 */
const widgetBase = new URL("./widgets/", import.meta.url);

interface WidgetModule {
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

export function setUpWidgets(): void {
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
  // widget never mounted (docs/performance-log.md, "Paint"). So when such a part is rendered
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
