/**
 * Search: after every build, Pagefind indexes the built pages into `<output>/pagefind/` (its
 * Node API, no separate CLI step; in watch mode without holding up the reload). Only chapter
 * bodies and the glossary are indexed: the chapter layout marks `<article data-pagefind-body>`
 * (content/glossary.njk too), so the home page, reading list and search page stay out, and the
 * selectors below drop what a reader would not search for (widget drawings, the reference list,
 * the byline). Headings with ids become Pagefind sub-results, so a hit names the chapter and the
 * section.
 *
 * Pagefind reads a copy of each page made for it (`searchableHtml`), not the page itself:
 * - every formula becomes one line of plain text read from its MathML (`formulaText`:
 *   "I* = P/B", "9.62 × 10¹¹", "2³⁰ bytes"), where the index used to hold KaTeX's drawing
 *   flattened ("I∗=BP", "9.62×1011", "230 bytes");
 * - a chapter's title carries its number ("Chapter 9 · Inside the GPU"), as the table of
 *   contents shows it;
 * - each glossary term becomes a heading with the term's id, so a hit on a term is a sub-result
 *   that opens the glossary at that term.
 *
 * The browser side is Pagefind's own Default UI (`/pagefind/pagefind-ui.js`, written by this
 * step) on the /search/ page: it is maintained upstream, keyboard- and screen-reader-tested,
 * shows sub-results (sections) and excerpts, and finds its index relative to its own URL, so
 * it works offline and under a path prefix. It needs `'wasm-unsafe-eval'` in script-src.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseHTML } from "linkedom";
import * as pagefind from "pagefind";
import type { UserConfig } from "@11ty/eleventy";

/** What Pagefind leaves out of the index inside a chapter body. */
const searchExcludeSelectors: readonly string[] = [
  ".katex-mathml",
  "annotation",
  "[data-widget]",
  ".references-list",
  ".footnote-backref",
  "nav",
  ".byline",
];

const superscripts: Record<string, string> = {
  "0": "⁰",
  "1": "¹",
  "2": "²",
  "3": "³",
  "4": "⁴",
  "5": "⁵",
  "6": "⁶",
  "7": "⁷",
  "8": "⁸",
  "9": "⁹",
  "-": "⁻",
  "−": "⁻",
  "+": "⁺",
  // Marks that read as written beside the letter: I*, f′.
  "∗": "*",
  "*": "*",
  "′": "′",
};
const subscripts: Record<string, string> = {
  "0": "₀",
  "1": "₁",
  "2": "₂",
  "3": "₃",
  "4": "₄",
  "5": "₅",
  "6": "₆",
  "7": "₇",
  "8": "₈",
  "9": "₉",
};
/** Operators printed with a space on each side ("a = b", "x × y"). */
const spacedOperators = new Set(["=", "≈", "≠", "≤", "≥", "<", ">", "→", "←", "⇒", "∝", "+", "−", "×", "·", "⋅", "±"]);

/** `s` wrapped in parentheses unless it is one token (a number, a name, something already bracketed). */
function group(s: string): string {
  const t = s.trim();
  if ([...t].length === 1 || /^[\p{L}\p{N}.,'′*∗]+$/u.test(t) || /^\(.*\)$/.test(t)) return t;
  return `(${t})`;
}

function script(base: string, s: string, table: Record<string, string>, mark: string): string {
  const t = s.trim();
  const tight = t.replace(/\s+/g, "");
  if (tight !== "" && [...tight].every((c) => table[c] !== undefined))
    return base + [...tight].map((c) => table[c]).join("");
  return `${base}${mark}${group(t)}`;
}

/** One MathML element as a line of plain text. */
function mathmlText(el: Element): string {
  const kids = Array.from(el.children);
  const all = () => kids.map(mathmlText).join("");
  switch (el.localName) {
    case "annotation":
    case "annotation-xml":
    case "mphantom":
      return "";
    case "semantics":
      return kids[0] ? mathmlText(kids[0]) : "";
    case "mi":
    case "mn":
    case "mtext":
    case "ms":
      return (el.textContent ?? "").replace(/\u00a0/g, " ");
    case "mo": {
      // A sign that opens its group ("−4", "(−x") is unary: no spaces.
      const t = (el.textContent ?? "").trim();
      if (t === ",") return ", ";
      return spacedOperators.has(t) && el.previousElementSibling !== null ? ` ${t} ` : t;
    }
    case "mspace":
      return " ";
    case "mfrac":
      return `${group(mathmlText(kids[0]!))}/${group(mathmlText(kids[1]!))}`;
    case "msup":
      return script(mathmlText(kids[0]!), mathmlText(kids[1]!), superscripts, "^");
    case "msub":
      return script(mathmlText(kids[0]!), mathmlText(kids[1]!), subscripts, "_");
    case "msubsup":
      return script(
        script(mathmlText(kids[0]!), mathmlText(kids[1]!), subscripts, "_"),
        mathmlText(kids[2]!),
        superscripts,
        "^",
      );
    case "msqrt":
      return `√${group(all())}`;
    case "mroot":
      return `${group(mathmlText(kids[1]!))}√${group(mathmlText(kids[0]!))}`;
    case "munder":
    case "mover":
    case "munderover":
      // Limits and accents: the base carries the meaning for a reader scanning a snippet.
      return kids[0] ? mathmlText(kids[0]) : "";
    case "mtable":
      return kids
        .map(mathmlText)
        .filter((r) => r.trim() !== "")
        .join("; ");
    case "mtr":
    case "mlabeledtr":
      return kids
        .map(mathmlText)
        .filter((c) => c.trim() !== "")
        .join(" ");
    default:
      return all();
  }
}

/** A formula's `<math>` element as one line of plain text ("I* = P/B", "9.62 × 10¹¹"). */
export function formulaText(math: Element): string {
  return mathmlText(math)
    .replace(/∗/g, "*")
    .replace(/\s+/g, " ")
    .replace(/\( /g, "(")
    .replace(/ \)/g, ")")
    .replace(/ ([,.;:])/g, "$1")
    .trim();
}

/**
 * The copy of a built page that Pagefind indexes, or undefined for a page it should not index
 * (no `data-pagefind-body`). See the top of this file for what changes.
 */
export function searchableHtml(html: string): string | undefined {
  if (!html.includes("data-pagefind-body")) return undefined;
  const { document } = parseHTML(html);
  for (const formula of Array.from(document.querySelectorAll(".katex"))) {
    const math = formula.querySelector("math");
    if (math) formula.replaceWith(document.createTextNode(formulaText(math)));
  }
  const label = document.querySelector(".title-block .chapter-label");
  const h1 = document.querySelector(".title-block h1");
  if (label && h1) {
    const title = document.createElement("span");
    title.setAttribute("data-pagefind-meta", "title");
    title.setAttribute("data-pagefind-ignore", "");
    title.textContent = `${label.textContent?.trim()} · ${h1.textContent?.trim()}`;
    h1.after(title);
  }
  for (const entry of Array.from(document.querySelectorAll(".glossary-entry[id]"))) {
    const dt = entry.querySelector("dt");
    if (!dt) continue;
    const heading = document.createElement("h2");
    heading.id = entry.id;
    heading.textContent = dt.textContent ?? "";
    entry.removeAttribute("id");
    dt.replaceWith(heading);
  }
  return document.toString();
}

/** Every built page under `dir` that Pagefind should index, as its URL ("/gpu-kernels/") and copy. */
function searchablePages(dir: string, root = dir): Array<{ url: string; content: string }> {
  const pages: Array<{ url: string; content: string }> = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      if (name !== "assets" && name !== "pagefind") pages.push(...searchablePages(full, root));
    } else if (name === "index.html") {
      const content = searchableHtml(readFileSync(full, "utf8"));
      const rel = path.relative(root, dir).split(path.sep).filter(Boolean);
      if (content) pages.push({ url: "/" + rel.map((s) => `${s}/`).join(""), content });
    }
  }
  return pages;
}

/** One file of the index as Pagefind hands it over (`getFiles()`): a path inside `pagefind/`. */
export interface SearchFile {
  readonly path: string;
  readonly content: Uint8Array;
}

/**
 * Replaces `<outputDir>/pagefind/` with `files`. The index and fragment files are named by a
 * hash of their content, so without the clearing every build that changed a chapter left its
 * old ones beside the new (Eleventy does not empty its output folder), and a deploy of `_site/`
 * carried them along. Synchronous from the removal to the last write: in watch mode the dev
 * server shares this process, so no request is answered from a half-written folder.
 */
export function writeSearchFiles(outputDir: string, files: readonly SearchFile[]): void {
  const root = path.join(outputDir, "pagefind");
  rmSync(root, { recursive: true, force: true });
  for (const file of files) {
    const target = path.join(root, file.path);
    if (!target.startsWith(root + path.sep)) throw new Error(`pagefind: file outside pagefind/: ${file.path}`);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, file.content);
  }
}

async function buildSearchIndex(outputDir: string): Promise<number> {
  const { index, errors } = await pagefind.createIndex({
    excludeSelectors: [...searchExcludeSelectors],
    forceLanguage: "en",
  });
  if (!index) throw new Error(`pagefind: ${errors.join("; ")}`);
  try {
    let pageCount = 0;
    for (const page of searchablePages(outputDir)) {
      const added = await index.addHTMLFile(page);
      if (added.errors.length) throw new Error(`pagefind: ${page.url}: ${added.errors.join("; ")}`);
      pageCount++;
    }
    // The files are taken from Pagefind in memory and written here, not with its writeFiles():
    // one build wrote pagefind/pagefind.js cut off at 45,056 of its 45,555 bytes (a multiple of
    // 4,096; tests/site/reproducible.test.ts caught it), most likely because close() below kills
    // the backend process while it was still writing after writeFiles() had answered.
    // writeFileSync has written every byte when it returns.
    const built = await index.getFiles();
    if (built.errors.length) throw new Error(`pagefind: ${built.errors.join("; ")}`);
    writeSearchFiles(outputDir, built.files);
    return pageCount;
  } finally {
    await pagefind.close();
  }
}

export function searchPlugin(eleventyConfig: UserConfig): void {
  // While `npm start` watches, the index is rebuilt in the background: the browser reloads the
  // edited page without waiting about half a second for Pagefind, and search catches up a moment
  // later. Runs are queued, never overlapped. A one-off build waits for the index.
  let queue: Promise<unknown> = Promise.resolve();
  eleventyConfig.on("eleventy.after", async ({ directories, runMode }) => {
    if (runMode !== "watch" && runMode !== "serve") {
      await buildSearchIndex(directories.output);
      return;
    }
    queue = queue
      .then(() => buildSearchIndex(directories.output))
      .catch((err: unknown) => console.error(`[book] search index: ${String(err)}`));
  });
}
