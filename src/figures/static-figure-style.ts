/**
 * Shared look of the book's code-generated static figures (SVG files under assets/img/ that
 * pages load with <img>). An SVG loaded as an image cannot see the page's CSS, so each file
 * carries its own <style>: the palette's CSS variables with the light colors as fallbacks, and a
 * `prefers-color-scheme: dark` block so the figure follows the reader's theme. When the same
 * SVG is inlined into a page, the page's variables win.
 */

/** Class name → CSS declarations used by every static figure. */
const baseCss = [
  "text{fill:var(--c-text,#1f2328);font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;font-size:13px}",
  ".muted{fill:var(--c-muted,#57606a)}",
  ".axis path,.axis line{stroke:var(--c-muted,#8c959f)}",
  ".axis text{fill:var(--c-muted,#57606a);font-size:12px}",
  ".grid line{stroke:var(--c-muted,#8c959f);stroke-opacity:.25}",
  ".params{fill:var(--c-params,#4c78a8)}",
  ".master{fill:#fbc58d;fill:color-mix(in srgb,var(--c-optim,#f58518) 50%,#fff)}",
  ".grads{fill:var(--c-grads,#e45756)}",
  ".optim{fill:var(--c-optim,#f58518)}",
  ".acts{fill:var(--c-acts,#54a24b)}",
  ".accum{fill:#f2abaa;fill:color-mix(in srgb,var(--c-grads,#e45756) 50%,#fff)}",
  ".ref-line{stroke:var(--c-text,#1f2328);stroke-width:1.2;stroke-dasharray:5 4;fill:none}",
  ".cap-line{stroke:var(--c-accent,#b42318);stroke-width:1.5;fill:none}",
  ".cap-text{fill:var(--c-accent,#b42318)}",
  ".seg-label{font-size:12px;fill:#fff}",
  ".seg-label.on-light{fill:#1f2328}",
  "@media (prefers-color-scheme:dark){text{fill:var(--c-text,#e6edf3)}.seg-label{fill:#fff}.seg-label.on-light{fill:#1f2328}.muted,.axis text{fill:var(--c-muted,#9da7b3)}" +
    ".ref-line{stroke:var(--c-text,#e6edf3)}.cap-line{stroke:var(--c-accent,#ff8f7a)}.cap-text{fill:var(--c-accent,#ff8f7a)}}",
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
