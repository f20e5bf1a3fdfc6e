/**
 * bibliography.bib: parsed, checked and formatted.
 *
 * Every entry must have author (or editor), title, year, a venue (journal, booktitle,
 * howpublished, publisher, institution or school), a url or doi, and a `note` (one line on why
 * to read it; the reading list shows it). A malformed or incomplete entry fails the build with
 * the entry's key and line. Entries are formatted in APA style by citation-js; citeproc
 * escapes every field, so a `<script>` in a title stays text.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Cite, plugins, type CslData } from "@citation-js/core";
import "@citation-js/plugin-bibtex";
import "@citation-js/plugin-csl";
import { parseHTML } from "linkedom";
import { BookError } from "../shared/errors.ts";
import { escapeHtml } from "./doc-state.ts";
import { cacheDir, readCached, writeCached } from "../shared/cache.ts";

export interface BibEntry {
  key: string;
  /** 1-based line of the entry's `@type{` in the .bib file. */
  line: number;
  type: string;
  /** The raw BibTeX fields, braces removed. */
  fields: Record<string, string>;
  csl: CslData;
}

export interface Bibliography {
  file: string;
  entries: Map<string, BibEntry>;
}

const venueFields = ["journal", "booktitle", "howpublished", "publisher", "institution", "school"];
const ignoredTypes = new Set(["comment", "preamble", "string"]);

/** Parses and checks BibTeX text; `file` is only used in error messages. */
export function parseBibliography(text: string, file = "bibliography.bib"): Bibliography {
  const src = text.replace(/\r\n?/g, "\n");
  const heads = [...src.matchAll(/^[ \t]*@([A-Za-z]+)[ \t]*[{(]/gm)];
  const entries = new Map<string, BibEntry>();
  heads.forEach((head, idx) => {
    const start = head.index!;
    const end = idx + 1 < heads.length ? heads[idx + 1]!.index! : src.length;
    const chunk = src.slice(start, end);
    const line = src.slice(0, start).split("\n").length;
    const type = head[1]!.toLowerCase();
    if (ignoredTypes.has(type)) return;
    const keyMatch = /^[ \t]*@[A-Za-z]+[ \t]*[{(][ \t]*([^,\s]*)\s*,/.exec(chunk);
    const key = keyMatch?.[1] ?? "";
    const name = key === "" ? `at line ${line}` : `"${key}"`;
    if (key === "") throw new BookError(file, line, `malformed entry ${name}: no citation key after "@${type}{"`);
    if (!/^[A-Za-z0-9_:.-]+$/.test(key))
      throw new BookError(file, line, `malformed entry "${key}": key may only use letters, digits, _ : . -`);
    let raw: { type: string; label: string; properties: Record<string, string> }[];
    let csl: CslData[];
    try {
      raw = plugins.input.chain(chunk, { target: "@biblatex/entries+list", generateGraph: false }) as typeof raw;
      csl = new Cite(chunk, { generateGraph: false }).data;
    } catch (e) {
      const msg = (e instanceof Error ? e.message : String(e)).split("\n")[0]!;
      const rel = /at line (\d+)/.exec(msg);
      const at = rel ? line + Number(rel[1]) - 1 : line;
      throw new BookError(file, at, `malformed entry ${name}: ${msg.replace(/ at line \d+ col \d+:?/, "")}`, {
        cause: e,
      });
    }
    if (raw.length !== 1 || csl.length !== 1) {
      throw new BookError(file, line, `malformed entry ${name}: could not read it as one BibTeX entry`);
    }
    const fields: Record<string, string> = {};
    for (const [k, v] of Object.entries(raw[0]!.properties)) fields[k.toLowerCase()] = String(v);
    const missing: string[] = [];
    if (!fields.author && !fields.editor) missing.push("author");
    if (!fields.title) missing.push("title");
    if (!fields.year && !fields.date) missing.push("year");
    if (!venueFields.some((f) => fields[f])) missing.push(`a venue (${venueFields.join(", ")})`);
    if (!fields.url && !fields.doi) missing.push("url or doi");
    if (!fields.note) missing.push("note (one line on why to read it)");
    if (missing.length > 0) throw new BookError(file, line, `malformed entry "${key}": missing ${missing.join(", ")}`);
    if (entries.has(key))
      throw new BookError(file, line, `duplicate entry "${key}" (first on line ${entries.get(key)!.line})`);
    entries.set(key, { key, line, type, fields, csl: csl[0]! });
  });
  return { file, entries };
}

export function loadBibliography(file: string): Bibliography {
  return parseBibliography(readFileSync(file, "utf8"), file);
}

const formatted = new Map<string, string>();

/** The link a reference points to: the DOI resolver or the url field. */
function entryLink(entry: BibEntry): string {
  const doi = entry.fields.doi?.trim();
  if (doi) return /^https?:\/\//.test(doi) ? doi : `https://doi.org/${doi}`;
  return entry.fields.url!.trim();
}

const cslOptions = { format: "html", template: "apa", lang: "en-US" } as const;

let formatter: string | undefined;
/** What decides citeproc's output besides the entry: the versions of the formatting packages and the options. */
function formatterId(): string {
  if (formatter === undefined) {
    const require = createRequire(import.meta.url);
    const version = (pkg: string) =>
      `${pkg} ${(JSON.parse(readFileSync(require.resolve(`${pkg}/package.json`), "utf8")) as { version: string }).version}`;
    formatter = [
      version("@citation-js/core"),
      version("@citation-js/plugin-csl"),
      version("citeproc"),
      JSON.stringify(cslOptions),
    ].join("\n");
  }
  return formatter;
}

/**
 * citeproc's HTML for one entry. It takes about 10 ms an entry, plus about a second to build
 * the APA style on first use, so results are kept on disk (src/plugins/shared/cache.ts), one file per
 * entry named by a hash of the entry's CSL data and the formatter's versions: a cold build with
 * a warm cache skips citeproc entirely.
 */
export function citeprocHtml(csl: CslData): string {
  const dir = cacheDir("references");
  const name = `${createHash("sha256").update(formatterId()).update("\n").update(JSON.stringify(csl)).digest("hex").slice(0, 32)}.html`;
  const hit = readCached(dir, name);
  if (hit) return hit.toString("utf8");
  const html = new Cite([csl]).format("bibliography", cslOptions) as string;
  writeCached(dir, name, html);
  return html;
}

/** The first text node under `root` whose text contains `needle`. */
function textNodeHolding(root: Node, needle: string): Text | undefined {
  for (const child of Array.from(root.childNodes)) {
    if (child.nodeType === 3 && (child as Text).data.includes(needle)) return child as Text;
    const inChild = textNodeHolding(child, needle);
    if (inChild) return inChild;
  }
  return undefined;
}

/**
 * One reference as HTML (APA), with its link made clickable. Kept in memory per entry content,
 * so watch-mode rebuilds stay fast, and citeproc's part on disk (citeprocHtml).
 */
export function formatEntry(entry: BibEntry): string {
  const cacheKey = JSON.stringify(entry.csl);
  const hit = formatted.get(cacheKey);
  if (hit !== undefined) return hit;
  const { _graph, ...csl } = entry.csl as CslData & { _graph?: unknown };
  void _graph;
  const html = citeprocHtml(csl as CslData);
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  const link = entryLink(entry);
  const body = document.querySelector(".csl-entry");
  const anchor = document.createElement("a");
  // linkedom writes attributes last-set first: this prints href="…" rel="noopener".
  anchor.setAttribute("rel", "noopener");
  anchor.setAttribute("href", link);
  anchor.textContent = link;
  let inner: string;
  const holder = body ? textNodeHolding(body, link) : undefined;
  if (body && holder) {
    // The URL citeproc printed becomes the link: the text node is split around it.
    const at = holder.data.indexOf(link);
    holder.replaceWith(
      document.createTextNode(holder.data.slice(0, at)),
      anchor,
      document.createTextNode(holder.data.slice(at + link.length)),
    );
    inner = body.innerHTML.trim();
  } else {
    inner = `${body?.innerHTML.trim() ?? escapeHtml(entry.fields.title ?? entry.key)} ${anchor.outerHTML}`;
  }
  formatted.set(cacheKey, inner);
  return inner;
}
