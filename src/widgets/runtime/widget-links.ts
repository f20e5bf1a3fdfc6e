/**
 * Links to widgets and figures leaving the page, imported for its effect by book.ts:
 *
 * - A shared widget link (`?widget-memory-explorer-1=dp:8#widget-memory-explorer-1`, or an older
 *   one with only the query) opens at that widget, not at the top of a long chapter: the page
 *   scrolls to it, the lazy loader mounts it (it is then in view) and the page scrolls to it again
 *   once it is mounted, since mounting changes heights.
 * - Every mounted widget that draws an SVG gets a "Download SVG" button: the largest chart of the
 *   widget as a standalone file, with the palette of the current theme written into it (an SVG
 *   file cannot see the page's CSS variables).
 *
 * Without JavaScript neither exists (a button that cannot work would only mislead).
 */
import { dom } from "../../figures/kit/dom.ts";
import { paletteCss } from "../../figures/kit/palette.ts";
import { effectiveTheme } from "./theme-store.ts";

/** The widget a link points at: its #id, else the first widget whose id is a query parameter. */
function linkedWidget(doc: Document, href: string): HTMLElement | null {
  const url = new URL(href);
  const byHash = url.hash.length > 1 ? doc.getElementById(decodeURIComponent(url.hash.slice(1))) : null;
  if (byHash?.hasAttribute("data-widget")) return byHash;
  for (const key of url.searchParams.keys()) {
    const el = /^widget-[a-z0-9-]+$/.test(key) ? doc.getElementById(key) : null;
    if (el?.hasAttribute("data-widget")) return el;
  }
  return null;
}

function followWidgetLink(): void {
  const target = linkedWidget(document, window.location.href);
  if (!target) return;
  target.scrollIntoView({ block: "start" });
  const observer = new MutationObserver(() => {
    if (target.dataset.widgetState !== "mounted" && target.dataset.widgetState !== "error") return;
    observer.disconnect();
    // After the widget (and any widget just above it) has drawn.
    window.requestAnimationFrame(() => target.scrollIntoView({ block: "start" }));
  });
  observer.observe(target, { attributes: true, attributeFilter: ["data-widget-state"] });
  window.setTimeout(() => observer.disconnect(), 10_000);
}

/** The widget's main chart: its largest visible `<svg>` (icons and legend markers are small). */
function mainChart(root: Element): SVGSVGElement | null {
  let best: SVGSVGElement | null = null;
  let bestArea = 60 * 60;
  for (const svg of Array.from(root.querySelectorAll<SVGSVGElement>("svg"))) {
    const r = svg.getBoundingClientRect();
    if (r.width * r.height > bestArea) {
      best = svg;
      bestArea = r.width * r.height;
    }
  }
  return best;
}

/** The chart as a standalone SVG file: namespaced, sized, with the theme's palette and font. */
function standaloneSvg(svg: SVGSVGElement, theme: "light" | "dark"): string {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  const r = svg.getBoundingClientRect();
  copy.setAttribute("xmlns", "http://www.w3.org/2000/svg");
  if (!copy.getAttribute("viewBox")) copy.setAttribute("viewBox", `0 0 ${Math.round(r.width)} ${Math.round(r.height)}`);
  copy.setAttribute("width", String(Math.round(r.width)));
  copy.setAttribute("height", String(Math.round(r.height)));
  copy.classList.add("so-export");
  const computed = getComputedStyle(svg);
  const style = dom(svg.ownerDocument).svg(
    "style",
    {},
    `${paletteCss(".so-export", theme)}\n.so-export{color:var(--c-text);font-family:${computed.fontFamily};background:var(--c-bg)}`,
  );
  copy.insertBefore(style, copy.firstChild);
  return new XMLSerializer().serializeToString(copy);
}

function addDownload(root: HTMLElement): void {
  if (root.querySelector(":scope > .widget-tools") || !mainChart(root)) return;
  const { el } = dom(document);
  const tools = el("p", { class: "widget-tools" });
  const button = el("button", { type: "button", class: "explorer-button widget-download" }, "Download SVG");
  button.addEventListener("click", () => {
    const chart = mainChart(root);
    if (!chart) return;
    const blob = new Blob([standaloneSvg(chart, effectiveTheme())], { type: "image/svg+xml" });
    const a = el("a", { href: URL.createObjectURL(blob), download: `${root.id || "figure"}.svg` });
    document.body.append(a);
    a.click();
    a.remove();
    window.setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  });
  tools.append(button);
  root.append(tools);
}

function watchMounts(): void {
  for (const root of Array.from(document.querySelectorAll<HTMLElement>("[data-widget]"))) {
    if (root.dataset.widgetState === "mounted") {
      addDownload(root);
      continue;
    }
    const observer = new MutationObserver(() => {
      if (root.dataset.widgetState !== "mounted") return;
      observer.disconnect();
      addDownload(root);
    });
    observer.observe(root, { attributes: true, attributeFilter: ["data-widget-state"] });
  }
}

if (typeof document !== "undefined" && document.querySelector("[data-widget]")) {
  followWidgetLink();
  watchMounts();
}
