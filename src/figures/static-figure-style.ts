/**
 * Shared look of the book's code-generated static figures (SVG files under assets/img/ that
 * pages load with <img>). An SVG loaded as an image cannot see the page's CSS, so each file
 * carries its own <style>: the palette's CSS variables with the light colors as fallbacks, and a
 * `prefers-color-scheme: dark` block so the figure follows the reader's theme. When the same
 * SVG is inlined into a page, the page's variables win.
 */
import { dom, figureSvg } from "./kit/dom.ts";
import { lightPalette, paletteCss } from "./kit/palette.ts";
import { formatBytes } from "./kit/format.ts";

const baseCss = [
  paletteCss(".sofig"),
  "text{fill:var(--c-text);font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;font-size:13px}",
  ".muted{fill:var(--c-muted)}",
  ".axis path,.axis line{stroke:var(--c-muted)}",
  ".axis text{fill:var(--c-muted);font-size:12px}",
  ".grid line{stroke:var(--c-muted);stroke-opacity:.25}",
  ".params{fill:var(--c-params)}",
  ".master{fill:color-mix(in srgb,var(--c-optim) 45%,white)}",
  ".grads{fill:var(--c-grads)}",
  ".optim{fill:var(--c-optim)}",
  ".acts{fill:var(--c-acts)}",
  ".accum{fill:color-mix(in srgb,var(--c-grads) 45%,white)}",
  ".ref-line{stroke:var(--c-text);stroke-width:1.2;stroke-dasharray:5 4;fill:none}",
  ".cap-line{stroke:var(--c-accent);stroke-width:1.5;fill:none}",
  ".cap-text{fill:var(--c-accent)}",
  ".seg-label{font-size:12px;fill:white}",
  `.seg-label.on-light{fill:${lightPalette.text}}`,
].join("\n");

/**
 * Creates the root `<svg>` of a static figure inside `root` (using `root.ownerDocument`, so it runs
 * under linkedom at build time), with a `<title>`, a `<desc>` and the shared style.
 */
export function createStaticSvg(
  root: Element,
  options: { id: string; width: number; height: number; title: string; desc: string },
): SVGSVGElement {
  const doc = root.ownerDocument;
  const { width, height, title, desc } = options;
  const svg = figureSvg(doc, {
    idPrefix: options.id,
    width,
    height,
    title,
    desc,
    attrs: { width, height, class: "sofig" },
  });
  svg.append(dom(doc).svg("style", {}, baseCss));
  root.append(svg);
  return svg;
}

/** Decimal gigabytes with `digits` decimals, e.g. `formatGB(19.77e9, 1)` → "19.8 GB". */
export function formatGB(bytes: number, digits = 1): string {
  return formatBytes(bytes, "GB", { decimals: digits });
}
