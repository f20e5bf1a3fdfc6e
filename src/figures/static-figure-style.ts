/**
 * Shared look of the book's code-generated static figures (SVG files under assets/img/ that
 * pages load with <img>). An SVG loaded as an image cannot see the page's CSS, so each file
 * carries its own <style>: the palette's CSS variables with the light colors as fallbacks, and a
 * `prefers-color-scheme: dark` block so the figure follows the reader's theme. When the same
 * SVG is inlined into a page, the page's variables win.
 */

/** Class name → CSS declarations used by every static figure. */
const lightPalette =
  "--c-text:#1b1d22;--c-muted:#585f6b;--c-accent:#0a5fc2;--c-params:#2563c9;--c-grads:#c2410c;" +
  "--c-optim:#2f7d3b;--c-acts:#8a3ab0;--c-comm:#0a7a8c;--c-bubble:#9aa1ab";
const darkPalette =
  "--c-text:#e5e7eb;--c-muted:#a3a9b4;--c-accent:#72b2ff;--c-params:#6fa3ff;--c-grads:#ff8f5a;" +
  "--c-optim:#63c777;--c-acts:#d08cf0;--c-comm:#45c4d6;--c-bubble:#6b7280";

/**
 * The engine's palette (assets/css/book.css) repeated on the figure's root element, light and
 * dark, so the file looks the same whether it is inlined or loaded with <img>.
 */
const baseCss = [
  `.sofig{${lightPalette}}`,
  `@media (prefers-color-scheme:dark){.sofig{${darkPalette}}}`,
  "text{fill:var(--c-text);font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;font-size:13px}",
  ".muted{fill:var(--c-muted)}",
  ".axis path,.axis line{stroke:var(--c-muted)}",
  ".axis text{fill:var(--c-muted);font-size:12px}",
  ".grid line{stroke:var(--c-muted);stroke-opacity:.25}",
  ".params{fill:var(--c-params)}",
  ".master{fill:color-mix(in srgb,var(--c-optim) 45%,#fff)}",
  ".grads{fill:var(--c-grads)}",
  ".optim{fill:var(--c-optim)}",
  ".acts{fill:var(--c-acts)}",
  ".accum{fill:color-mix(in srgb,var(--c-grads) 45%,#fff)}",
  ".ref-line{stroke:var(--c-text);stroke-width:1.2;stroke-dasharray:5 4;fill:none}",
  ".cap-line{stroke:var(--c-accent);stroke-width:1.5;fill:none}",
  ".cap-text{fill:var(--c-accent)}",
  ".seg-label{font-size:12px;fill:#fff}",
  ".seg-label.on-light{fill:#1b1d22}",
].join("\n");

const svgNs = "http://www.w3.org/2000/svg";

/**
 * Creates the root `<svg>` of a static figure inside `root` (using `root.ownerDocument`, so it runs
 * under linkedom at build time), with a `<title>`, a `<desc>` and the shared style.
 */
export function createStaticSvg(
  root: Element,
  options: { id: string; width: number; height: number; title: string; desc: string },
): SVGSVGElement {
  const doc = root.ownerDocument;
  const svg = doc.createElementNS(svgNs, "svg") as SVGSVGElement;
  svg.setAttribute("xmlns", svgNs);
  svg.setAttribute("viewBox", `0 0 ${options.width} ${options.height}`);
  svg.setAttribute("width", String(options.width));
  svg.setAttribute("height", String(options.height));
  svg.setAttribute("class", "sofig");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-labelledby", `${options.id}-title ${options.id}-desc`);
  const title = doc.createElementNS(svgNs, "title");
  title.setAttribute("id", `${options.id}-title`);
  title.textContent = options.title;
  const desc = doc.createElementNS(svgNs, "desc");
  desc.setAttribute("id", `${options.id}-desc`);
  desc.textContent = options.desc;
  const style = doc.createElementNS(svgNs, "style");
  style.textContent = baseCss;
  svg.append(title, desc, style);
  root.append(svg);
  return svg;
}

/** Decimal gigabytes with `digits` decimals, e.g. `formatGB(19.77e9, 1)` → "19.8 GB". */
export function formatGB(bytes: number, digits = 1): string {
  return `${(bytes / 1e9).toFixed(digits)} GB`;
}
