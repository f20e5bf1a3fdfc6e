/**
 * Per-document state shared by the Markdown plugins during one parse: where the source file
 * is, how many lines of front matter precede the Markdown body (so that errors name the line
 * an editor shows), the chapter number, and the labels (`eq:`, `fig:`, `sec:`, `tbl:`)
 * collected so far. A fresh state is created at the start of every parse, so nothing leaks
 * from one page to the next.
 */
import { readFileSync } from "node:fs";
import type { MarkdownIt, StateCore } from "markdown-it";
import { BookError, normalizeFile } from "../shared/errors.ts";
import { chapterInfo, type ChapterInfo } from "../shared/chapters.ts";

export type LabelKind = "eq" | "fig" | "sec" | "tbl";

export interface Label {
  kind: LabelKind;
  /** The element id, e.g. "eq:adam-bytes". */
  id: string;
  /** What a reference prints, e.g. "Eq. (3)", "Figure 2", "Section 2.1", "Table 1". */
  text: string;
  /** 1-based source line of the definition. */
  line: number;
}

export interface DocState {
  file: string;
  lineOffset: number;
  chapter: ChapterInfo | undefined;
  labels: Map<string, Label>;
  counters: { eq: number; fig: number; tbl: number; exercise: number; aside: number };
  /** Words of running text (summary.ts). */
  words: number;
}

const states = new WeakMap<object, DocState>();

/** Markdown-it env as Eleventy passes it (the page's data) or as a test passes it. */
export interface BookEnv {
  page?: { inputPath?: string };
  [key: string]: unknown;
}

export function docState(env: object): DocState {
  const s = states.get(env);
  if (!s) throw new Error("book markdown: document state missing (bookStatePlugin must run first)");
  return s;
}

/** Number of lines before the Markdown body in the file on disk (0 if unknown). */
export function frontMatterLines(filePath: string, body: string): number {
  let text: string;
  try {
    text = readFileSync(filePath, "utf8").replace(/\r\n?/g, "\n");
  } catch {
    return 0;
  }
  if (body.length > 0) {
    const idx = text.lastIndexOf(body);
    if (idx >= 0 && idx + body.length === text.length) return countNewlines(text.slice(0, idx));
    const trimmed = body.trimStart();
    const idx2 = text.lastIndexOf(trimmed);
    if (trimmed.length > 0 && idx2 >= 0) {
      // Count the lines the body's leading blank lines occupied as well.
      return countNewlines(text.slice(0, idx2)) - countNewlines(body.slice(0, body.length - trimmed.length));
    }
  }
  const fm = /^---\n[\s\S]*?\n---\n/.exec(text);
  return fm ? countNewlines(fm[0]) : 0;
}

function countNewlines(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) === 10) n++;
  return n;
}

/** The 1-based source line of a 0-based body line. */
export function sourceLine(state: DocState, bodyLine: number): number {
  return state.lineOffset + bodyLine + 1;
}

/**
 * Throws a BookError at a 0-based body line; with `needle`, also at the column where that text
 * starts on the line in the file (when it can be found there).
 */
export function fail(
  state: DocState,
  bodyLine: number | undefined,
  message: string,
  cause?: unknown,
  needle?: string,
): never {
  const line = bodyLine === undefined ? undefined : sourceLine(state, bodyLine);
  throw new BookError(state.file, line, message, {
    cause,
    column: line && needle ? columnOf(state.file, line, needle) : undefined,
  });
}

/** 1-based column of `needle` on 1-based `line` of `file`, if it is there. */
function columnOf(file: string, line: number, needle: string): number | undefined {
  try {
    const at = readFileSync(file, "utf8").split("\n")[line - 1]?.indexOf(needle) ?? -1;
    return at < 0 ? undefined : at + 1;
  } catch {
    return undefined;
  }
}

/** Line (0-based, in the body) of a character offset inside an inline token's content. */
export function lineInContent(blockLine: number, content: string, offset: number): number {
  return blockLine + countNewlines(content.slice(0, offset));
}

/** First core rule: creates the document state. Must be `use`d before the other book plugins. */
export function bookStatePlugin(md: MarkdownIt): void {
  md.core.ruler.after("normalize", "book_state", (state: StateCore) => {
    const env = state.env as BookEnv;
    const inputPath = env.page?.inputPath ?? "(unknown file)";
    const file = normalizeFile(inputPath);
    // markdown-it-anchor keeps its slug registry in env; start every parse with an empty one.
    delete (env as { markdownItAnchor?: unknown }).markdownItAnchor;
    states.set(state.env, {
      file,
      lineOffset: env.page?.inputPath ? frontMatterLines(inputPath, state.src) : 0,
      chapter: chapterInfo(file),
      labels: new Map(),
      counters: { eq: 0, fig: 0, tbl: 0, exercise: 0, aside: 0 },
      words: 0,
    });
    return true;
  });
}

/** Registers a label, failing on duplicates. */
export function addLabel(state: DocState, label: Label): void {
  const prev = state.labels.get(label.id);
  if (prev) {
    throw new BookError(state.file, label.line, `duplicate label "${label.id}" (first defined on line ${prev.line})`);
  }
  state.labels.set(label.id, label);
}

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(s: string): string {
  return s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}
