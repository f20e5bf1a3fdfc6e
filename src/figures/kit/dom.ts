/**
 * The book's one way to build DOM in figures and widgets: `el(tag, attrs, text)` for HTML and
 * `svg(tag, attrs, text)` for SVG, bound to a document (`dom(root.ownerDocument)`), so the same
 * code draws under linkedom at build time and in the browser (no `window`/`document` globals).
 *
 * Attribute values: a string or number is set as text; `true` sets an empty attribute
 * (`disabled: true`); `false`, `null` and `undefined` leave it out. Guards against the eleven
 * hand-rolled `el` helpers and the `createElementNS` calls that figures used to repeat.
 */

const SVG_NS = "http://www.w3.org/2000/svg";

export type AttrValue = string | number | boolean | null | undefined;
export type Attrs = Readonly<Record<string, AttrValue>>;

/** Sets (or, for false/null/undefined, removes) each attribute of `attrs` on `e`; returns `e`. */
export function setAttrs<E extends Element>(e: E, attrs: Attrs): E {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v === null || v === undefined) e.removeAttribute(k);
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  return e;
}

export interface Dom {
  /** An HTML element with attributes and optional text content. */
  el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Attrs, text?: string): HTMLElementTagNameMap[K];
  /** An SVG element (in the SVG namespace) with attributes and optional text content. */
  svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs?: Attrs, text?: string): SVGElementTagNameMap[K];
}

/** The element builders for one document. */
export function dom(doc: Document): Dom {
  return {
    el(tag, attrs = {}, text) {
      const e = setAttrs(doc.createElement(tag), attrs);
      if (text !== undefined) e.textContent = text;
      return e;
    },
    svg(tag, attrs = {}, text) {
      const e = setAttrs(doc.createElementNS(SVG_NS, tag), attrs);
      if (text !== undefined) e.textContent = text;
      return e;
    },
  };
}

/**
 * The child of `parent` with this tag and class, created (and appended) the first time: outputs
 * that a widget redraws keep their element, so focus, scroll and screen-reader position stay.
 */
export function child<K extends keyof HTMLElementTagNameMap>(
  parent: Element,
  tag: K,
  cls: string,
  extraClass = "",
): HTMLElementTagNameMap[K] {
  const found = Array.from(parent.children).find((c) => c.tagName.toLowerCase() === tag && c.classList.contains(cls));
  if (found) return found as HTMLElementTagNameMap[K];
  const e = dom(parent.ownerDocument).el(tag, { class: extraClass ? `${cls} ${extraClass}` : cls });
  parent.append(e);
  return e;
}

/** A table's head: one row of column headers, `<th scope="col">` each. */
export function tableHead(doc: Document, labels: readonly string[]): HTMLTableSectionElement {
  const { el } = dom(doc);
  const row = el("tr");
  row.append(...labels.map((label) => el("th", { scope: "col" }, label)));
  const head = el("thead");
  head.append(row);
  return head;
}

/**
 * Empties a widget's root for a redraw, keeping its title (`p.widget-title`, written by the build
 * from `::: widget name title="…"`).
 */
export function clearWidget(root: Element): void {
  for (const c of Array.from(root.children)) if (!c.classList.contains("widget-title")) c.remove();
}

export interface FigureSvgOptions {
  /** Prefix of the `<title>`/`<desc>` ids (`${idPrefix}-title`), unique on the page. */
  idPrefix: string;
  width: number;
  height: number;
  title: string;
  /** The long description; omitted when undefined. */
  desc?: string;
  /** Further attributes of the `<svg>` (class, style, width: "100%", …). */
  attrs?: Attrs;
}

/**
 * The root `<svg>` of a drawn figure: a viewBox, role="img", and a `<title>` (and `<desc>`) that
 * aria-labelledby names, so every chart reads the same to a screen reader.
 */
export function figureSvg(doc: Document, o: FigureSvgOptions): SVGSVGElement {
  const { svg } = dom(doc);
  const labelled = o.desc === undefined ? `${o.idPrefix}-title` : `${o.idPrefix}-title ${o.idPrefix}-desc`;
  const root = svg("svg", {
    xmlns: SVG_NS,
    viewBox: `0 0 ${o.width} ${o.height}`,
    role: "img",
    "aria-labelledby": labelled,
    ...o.attrs,
  });
  root.append(svg("title", { id: `${o.idPrefix}-title` }, o.title));
  if (o.desc !== undefined) root.append(svg("desc", { id: `${o.idPrefix}-desc` }, o.desc));
  return root;
}
