/**
 * Figures and tables from plain Markdown.
 *
 * - A paragraph that holds only an image becomes a numbered figure:
 *     ![Alt text saying what it shows](/assets/img/x.svg "Caption text"){#fig:name .wide}
 *   The title (in quotes) is the caption and is required; `{#fig:name}` makes it referable
 *   with `@fig:name`; `.wide` / `.full-width` widen it.
 * - A table followed directly by a paragraph `Table: Caption {#tbl:name}` gets that caption,
 *   a number and the id; `@tbl:name` prints "Table n".
 * - Every image, in a figure or not, must have alt text, must be an SVG under `/assets/`
 *   (no request leaves the site's origin), and the file must exist.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { MarkdownIt, StateCore, Token } from "markdown-it";
import { Parser } from "htmlparser2";
import { addLabel, docState, escapeHtml, fail, lineInContent, sourceLine, type DocState } from "./doc-state.ts";
import { docId } from "./edition.ts";
import { stripPrefix } from "./containers.ts";

export interface FiguresOptions {
  /** Folder that is served at /assets/ (default "assets"). */
  assetsDir?: string;
}

const svgSizes = new Map<string, { mtimeKey: string; width?: string; height?: string }>();

/**
 * The `viewBox` of the first `<svg>` element, read by htmlparser2 in XML mode (the `<?xml …?>`
 * declaration is a processing instruction to it, not an element, so it needs no stripping).
 */
function rootViewBox(text: string): string | undefined {
  let viewBox: string | undefined;
  let found = false;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (found || name !== "svg") return;
        found = true;
        viewBox = attributes.viewBox;
        parser.pause();
      },
    },
    { xmlMode: true },
  );
  parser.end(text);
  return viewBox;
}

/** width/height from an SVG's viewBox (or attributes), so the page does not jump when it loads. */
function svgSize(file: string): { width?: string; height?: string } {
  const text = readFileSync(file, "utf8");
  const cached = svgSizes.get(file);
  if (cached && cached.mtimeKey === text) return cached;
  const result: { mtimeKey: string; width?: string; height?: string } = { mtimeKey: text };
  const vb = rootViewBox(text)
    ?.trim()
    .split(/[\s,]+/)
    .map(Number);
  if (vb && vb.length === 4 && vb.every(Number.isFinite)) {
    result.width = String(Math.round(vb[2]!));
    result.height = String(Math.round(vb[3]!));
  }
  svgSizes.set(file, result);
  return result;
}

function checkImage(doc: DocState, image: Token, line: number, assetsDir: string): void {
  const src = image.attrGet("src") ?? "";
  const alt = (image.children ?? [])
    .map((c) => c.content)
    .join("")
    .trim();
  if (alt === "") fail(doc, line, `image "${src}" has no alt text (write what the figure shows inside ![…])`);
  if (/^[a-z]+:/i.test(src) || src.startsWith("//")) {
    fail(doc, line, `image "${src}" is not on this site (copy it under assets/img/ and use /assets/img/…)`);
  }
  if (!src.startsWith("/assets/"))
    fail(doc, line, `image "${src}" must be a root-relative path under /assets/ (e.g. /assets/img/x.svg)`);
  if (!/\.svg$/i.test(src)) fail(doc, line, `image "${src}" is not an SVG (figures are SVG only)`);
  const file = path.join(assetsDir, decodeURIComponent(src.slice("/assets/".length)));
  if (!existsSync(file)) fail(doc, line, `missing image "${src}" (no file ${path.relative(process.cwd(), file)})`);
  const size = svgSize(file);
  if (size.width && !image.attrGet("width")) image.attrSet("width", size.width);
  if (size.height && !image.attrGet("height")) image.attrSet("height", size.height);
}

function figuresCoreRule(state: StateCore, assetsDir: string): boolean {
  const doc = docState(state.env);
  const tokens = state.tokens;
  // Images anywhere.
  for (const t of tokens) {
    if (t.type !== "inline" || !t.children) continue;
    for (const child of t.children) {
      if (child.type !== "image") continue;
      const offset = t.content.indexOf(child.attrGet("src") ?? "\u0000");
      const line = offset < 0 ? (t.map?.[0] ?? 0) : lineInContent(t.map?.[0] ?? 0, t.content, offset);
      checkImage(doc, child, line, assetsDir);
    }
  }
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    // A paragraph that is one image: a figure.
    if (t.type === "paragraph_open" && tokens[i + 1]?.type === "inline" && tokens[i + 2]?.type === "paragraph_close") {
      const inline = tokens[i + 1]!;
      const parts = (inline.children ?? []).filter(
        (c) => !(c.type === "text" && c.content.trim() === "") && c.type !== "softbreak",
      );
      if (parts.length !== 1 || parts[0]!.type !== "image") continue;
      const image = parts[0]!;
      const line = t.map?.[0] ?? 0;
      const caption = image.attrGet("title") ?? "";
      const id = image.attrGet("id");
      const classes = (image.attrGet("class") ?? "").split(/\s+/).filter(Boolean);
      if (caption.trim() === "") {
        fail(
          doc,
          line,
          `figure "${image.attrGet("src")}" has no caption (add one in quotes: ![alt](/assets/img/x.svg "Caption"))`,
        );
      }
      if (id !== null && !/^fig:[A-Za-z0-9][A-Za-z0-9_-]*$/.test(id))
        fail(doc, line, `figure label "${id}" must look like fig:name`);
      const n = ++doc.counters.fig;
      if (id) addLabel(doc, { kind: "fig", id, text: `Figure ${n}`, line: sourceLine(doc, line) });
      image.attrs = (image.attrs ?? []).filter(([k]) => k !== "title" && k !== "id" && k !== "class");
      image.attrSet("loading", "lazy");
      image.attrSet("decoding", "async");

      const open = new state.Token("html_block", "", 0);
      open.content = `<figure class="${["figure", ...classes].map(escapeHtml).join(" ")}"${id ? ` id="${escapeHtml(docId(state.env, id))}"` : ""}>\n`;
      const body = new state.Token("inline", "", 0);
      body.content = inline.content;
      body.map = inline.map;
      body.children = [image];
      const capOpen = new state.Token("html_block", "", 0);
      capOpen.content = `\n<figcaption><span class="fig-label">Figure ${n}.</span> `;
      const cap = new state.Token("inline", "", 0);
      cap.content = caption;
      cap.map = inline.map;
      cap.children = [];
      state.md.inline.parse(caption, state.md, state.env, cap.children);
      const capClose = new state.Token("html_block", "", 0);
      capClose.content = "</figcaption>\n</figure>\n";
      tokens.splice(i, 3, open, body, capOpen, cap, capClose);
      i += 4;
      continue;
    }
    // A table followed by "Table: caption {#tbl:name}".
    if (t.type === "table_open") {
      let close = i;
      while (close < tokens.length && tokens[close]!.type !== "table_close") close++;
      const p = tokens[close + 1];
      const inline = tokens[close + 2];
      if (p?.type !== "paragraph_open" || inline?.type !== "inline" || !/^Table:\s*/.test(inline.content)) continue;
      const line = p.map?.[0] ?? 0;
      const id = p.attrGet("id");
      if (id !== null && !/^tbl:[A-Za-z0-9][A-Za-z0-9_-]*$/.test(id))
        fail(doc, line, `table label "${id}" must look like tbl:name`);
      const n = ++doc.counters.tbl;
      if (id) addLabel(doc, { kind: "tbl", id, text: `Table ${n}`, line: sourceLine(doc, line) });
      stripPrefix(inline, /^Table:\s*/);
      const open = new state.Token("html_block", "", 0);
      open.content = `<figure class="table-figure"${id ? ` id="${escapeHtml(docId(state.env, id))}"` : ""}>\n<figcaption><span class="fig-label">Table ${n}.</span> `;
      const mid = new state.Token("html_block", "", 0);
      mid.content = `</figcaption>\n<div class="table-scroll">\n`;
      const end = new state.Token("html_block", "", 0);
      end.content = `</div>\n</figure>\n`;
      const table = tokens.slice(i, close + 1);
      tokens.splice(i, close + 4 - i, open, inline, mid, ...table, end);
      i += table.length + 3;
    }
  }
  return true;
}

export function figuresPlugin(md: MarkdownIt, options: FiguresOptions = {}): void {
  const assetsDir = path.resolve(options.assetsDir ?? "assets");
  // Before the typographer (smartquotes) so that a caption, which comes from the image's title
  // attribute and is parsed here, gets curly quotes and apostrophes like the text around it;
  // after markdown-it-attrs, whose {#fig:…} ids and classes it reads.
  md.core.ruler.after("curly_attributes", "book_figures", (state) => figuresCoreRule(state, assetsDir));
}
