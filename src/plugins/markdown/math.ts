/**
 * Math: `$…$` inline and `$$…$$` display, rendered with KaTeX at build time.
 *
 * - Inline math is parsed by @mdit/plugin-tex; display math by our own block rule, because a
 *   display equation may carry a label after its closing delimiter: `$$ … $$ {#eq:name}`.
 * - Rendering happens in a core rule (not in the renderer), so that a TeX error becomes a
 *   BookError naming the source line. KaTeX runs with `throwOnError: true` and
 *   `strict: "error"`; the only macros are those of tex-macros.ts.
 * - A labelled equation gets the next number of the page, typeset with `\tag{n}`, and the
 *   element id `eq:name`; `@eq:name` then prints "Eq. (n)".
 * - A TeX error names the file, line and column of the offending token (not the opening `$$`),
 *   in the author's source (never with the `\tag` the build adds), with a did-you-mean for an
 *   undefined command. The number ledger reads math before KaTeX runs: when it fails, the TeX
 *   is checked first (`texErrorsFirst`), so a typo in TeX is reported as one, not as a number.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import katex from "katex";
import { tex } from "@mdit/plugin-tex";
import type { MarkdownIt, StateBlock, StateCore, Token } from "markdown-it";
import { texMacros } from "./tex-macros.ts";
import { addLabel, docState, escapeHtml, fail, sourceLine, type DocState } from "./doc-state.ts";
import { BookError, nearestName } from "../shared/errors.ts";
import { docId } from "./edition.ts";
import { recordFormula } from "../after-build/math-fonts.ts";

const labelPattern = /^\{#([^}\s]*)\}$/;
const validEqLabel = /^eq:[A-Za-z0-9][A-Za-z0-9_-]*$/;

/**
 * Renders TeX with the book's settings; throws KaTeX's error unchanged. The characters drawn are
 * recorded for the math faces (src/plugins/after-build/math-fonts.ts).
 */
function renderTex(source: string, displayMode: boolean, record = true): string {
  const html = katex.renderToString(source, {
    displayMode,
    throwOnError: true,
    strict: "error",
    output: "htmlAndMathml",
    trust: false,
    macros: { ...texMacros },
  });
  if (record) recordFormula(html);
  return html;
}

/** Splits "… $$ {#eq:x}" into the TeX before the closing "$$" and the label, if the line closes. */
function closingLine(text: string): { tex: string; label: string | undefined; closes: boolean; badLabel?: string } {
  const trimmed = text.trimEnd();
  const close = trimmed.lastIndexOf("$$");
  if (close < 0) return { tex: text, label: undefined, closes: false };
  const after = trimmed.slice(close + 2).trim();
  if (after === "") return { tex: trimmed.slice(0, close), label: undefined, closes: true };
  const m = labelPattern.exec(after);
  if (m) return { tex: trimmed.slice(0, close), label: m[1], closes: true };
  // "$$" followed by something that is not a label: either "$$" inside TeX (rare) or a typo.
  if (after.startsWith("{")) return { tex: trimmed.slice(0, close), label: undefined, closes: true, badLabel: after };
  return { tex: text, label: undefined, closes: false };
}

function displayMathRule(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  const start = state.bMarks[startLine]! + state.tShift[startLine]!;
  const max = state.eMarks[startLine]!;
  if (state.sCount[startLine]! - state.blkIndent >= 4) return false;
  if (state.src.slice(start, start + 2) !== "$$") return false;
  if (silent) return true;

  const first = state.src.slice(start + 2, max);
  let texSource: string;
  let label: string | undefined;
  let badLabel: string | undefined;
  let line = startLine;
  // Where each line of the TeX starts in the body: its line and 0-based column.
  const columnOf = (pos: number) => pos - (state.src.lastIndexOf("\n", pos - 1) + 1);
  const starts: SourceStart[] = [{ line: startLine, column: columnOf(start + 2) }];
  const firstClose = closingLine(first);
  if (firstClose.closes && first.trim() !== "") {
    texSource = firstClose.tex;
    label = firstClose.label;
    badLabel = firstClose.badLabel;
  } else {
    const parts = [first];
    let closed = false;
    for (line = startLine + 1; line < endLine; line++) {
      const ls = state.bMarks[line]! + state.tShift[line]!;
      const le = state.eMarks[line]!;
      if (ls < le && state.sCount[line]! < state.blkIndent) break;
      const text = state.src.slice(ls, le);
      starts.push({ line, column: columnOf(ls) });
      const c = closingLine(text);
      if (c.closes) {
        parts.push(c.tex);
        label = c.label;
        badLabel = c.badLabel;
        closed = true;
        break;
      }
      parts.push(text);
    }
    if (!closed) {
      const token = state.push("book_math_unclosed", "", 0);
      token.map = [startLine, startLine + 1];
      state.line = startLine + 1;
      return true;
    }
    texSource = parts.join("\n");
  }
  const token = state.push("math_block", "math", 0);
  token.block = true;
  token.content = texSource.trim();
  token.markup = "$$";
  token.map = [startLine, line + 1];
  const lead = texSource.length - texSource.trimStart().length;
  const source: DisplaySource = { starts, lead };
  token.meta = { label, badLabel, labelLine: line, source, written: token.content };
  state.line = line + 1;
  return true;
}

/** A line of a display formula's TeX in the body: its 0-based line and column. */
interface SourceStart {
  line: number;
  column: number;
}

/** Where a display formula's TeX came from: its lines, and the blank characters trimmed before it. */
interface DisplaySource {
  starts: SourceStart[];
  lead: number;
}

/** Where a formula sits in the body, to turn an offset into its TeX into a line and column. */
type Placement =
  { kind: "display"; source: DisplaySource } | { kind: "inline"; blockLine: number; content: string; offset: number };

/** The body's 0-based line and 1-based column of `offset` into a formula's TeX. */
function locate(src: string, placement: Placement, offset: number): { line: number; column: number } {
  if (placement.kind === "display") {
    const { starts, lead } = placement.source;
    // The TeX was the lines joined with "\n", then trimmed: find the line the offset falls on.
    let q = offset + lead;
    const lines = src.split("\n");
    for (let i = 0; i < starts.length; i++) {
      const start = starts[i]!;
      // Every line but the last is TeX to its end.
      const length = (lines[start.line]?.length ?? 0) - start.column;
      if (q <= length || i === starts.length - 1) return { line: start.line, column: start.column + q + 1 };
      q -= length + 1;
    }
    return { line: starts[0]!.line, column: starts[0]!.column + 1 };
  }
  const p = placement;
  // The inline token's content is the block's text with each line's indentation (or list
  // marker) removed: find the content's line in the body's line to place the column.
  const at = p.offset + offset;
  const before = p.content.slice(0, at);
  const k = (before.match(/\n/g) ?? []).length;
  const lineStart = before.lastIndexOf("\n") + 1;
  const lineEnd = p.content.indexOf("\n", lineStart);
  const contentLine = p.content.slice(lineStart, lineEnd < 0 ? undefined : lineEnd);
  const bodyLine = src.split("\n")[p.blockLine + k] ?? "";
  const found = contentLine === "" ? -1 : bodyLine.indexOf(contentLine);
  const base = found >= 0 ? found : Math.max(0, bodyLine.length - contentLine.length);
  return { line: p.blockLine + k, column: base + (at - lineStart) + 1 };
}

let knownCommands: string[] | undefined;

/** KaTeX's commands (read from its bundle once, when a TeX error needs a suggestion) and the book's macros. */
function texCommands(): string[] {
  if (!knownCommands) {
    let bundle = "";
    try {
      bundle = readFileSync(createRequire(import.meta.url).resolve("katex"), "utf8");
    } catch {
      // no suggestion then
    }
    const names = new Set<string>(Object.keys(texMacros));
    for (const m of bundle.matchAll(/"\\\\([A-Za-z]+)"/g)) names.add(`\\${m[1]}`);
    knownCommands = [...names];
  }
  return knownCommands;
}

/** "; did you mean `\\lambda`?" for an undefined command close to one KaTeX or the book knows. */
function commandSuggestion(command: string): string {
  // Commands are short: one edit for up to five letters, two beyond ("\\alpah", "\\lamda").
  const near = nearestName(command, texCommands(), command.length - 1 <= 5 ? 1 : 2);
  if (near === undefined || near === command) return "";
  try {
    katex.renderToString(near, { throwOnError: true, macros: { ...texMacros } });
  } catch (e) {
    // A command that wants arguments fails without them; an unknown one is no suggestion.
    if (/Undefined control sequence/.test((e as Error).message)) return "";
  }
  return `; did you mean \`${near}\`?`;
}

interface KatexError {
  message: string;
  rawMessage?: string;
  position?: number;
  length?: number;
}

/**
 * A BookError for KaTeX's error on `source`: at the offending token's line and column, with
 * KaTeX's own message (without its copy of the formula) and, for an undefined command, the
 * nearest known one.
 */
function texError(doc: DocState, src: string, placement: Placement, source: string, error: unknown): BookError {
  const e = error as KatexError;
  const raw = (e.rawMessage ?? String(e.message ?? error)).replace(/^KaTeX parse error: /, "");
  const position = typeof e.position === "number" ? e.position : undefined;
  const token = position === undefined ? "" : source.slice(position, position + (e.length ?? 0)).trim();
  const where =
    position === undefined
      ? ""
      : token === ""
        ? position >= source.trimEnd().length
          ? " at the end of the formula"
          : ""
        : raw.includes(token)
          ? ""
          : ` at "${token}"`;
  const undefinedCommand = /^Undefined control sequence: (\\[A-Za-z]+)/.exec(raw);
  const suggestion = undefinedCommand ? commandSuggestion(undefinedCommand[1]!) : "";
  const at = locate(src, placement, position ?? 0);
  return new BookError(doc.file, sourceLine(doc, at.line), `TeX error: ${raw}${where}${suggestion}`, {
    cause: error,
    column: at.column,
  });
}

/**
 * Renders a formula, or throws the author's TeX error. `written` is the TeX as the chapter has it,
 * `tex` the same after `{=name}` values are printed into it; a labelled equation renders with the
 * `\tag{n}` the build adds. An error is looked for in the TeX as written, so that it points at
 * the chapter's text.
 */
function renderOrFail(doc: DocState, src: string, f: Formula, tex: string, tag?: number): string {
  try {
    return renderTex(tag === undefined ? tex : `${tex}\n\\tag{${tag}}`, f.display);
  } catch (e) {
    try {
      renderTex(f.written, f.display, false);
    } catch (written) {
      throw texError(doc, src, f.placement, f.written, written);
    }
    const raw = (e as KatexError).rawMessage ?? (e as Error).message;
    const cause = tag !== undefined && tex === f.written ? "the equation's number cannot be added to it" : "";
    throw texError(doc, src, f.placement, f.written, { message: cause ? `${cause} (${raw})` : raw, position: 0 });
  }
}

interface Formula {
  token: Token;
  placement: Placement;
  display: boolean;
  /** The TeX as the chapter has it (before `{=name}` is printed into it). */
  written: string;
}

/** Each formula of a parsed document, with where it sits and its TeX as written, in source order. */
function* formulas(tokens: readonly Token[]): Generator<Formula> {
  let lastLine = 0;
  for (const token of tokens) {
    if (token.map) lastLine = token.map[0]; // a table cell's inline token has no map: its row's line
    if (token.type === "math_block") {
      const meta = token.meta as { source: DisplaySource; written: string };
      yield { token, placement: { kind: "display", source: meta.source }, display: true, written: meta.written };
    } else if (token.type === "inline" && token.children) {
      for (const child of token.children) {
        if (child.type !== "math_inline") continue;
        const written = (child.meta as { written?: string } | null)?.written ?? child.content;
        const found = token.content.indexOf(`$${written}$`);
        const placement: Placement = {
          kind: "inline",
          blockLine: lastLine,
          content: token.content,
          offset: found < 0 ? 0 : found + 1,
        };
        yield { token: child, placement, display: false, written };
      }
    }
  }
}

/** Core rule (right after the inline parse): keeps each inline formula's TeX as written. */
function writtenTexRule(state: StateCore): boolean {
  for (const token of state.tokens) {
    if (token.type !== "inline" || !token.children) continue;
    for (const child of token.children)
      if (child.type === "math_inline") child.meta = { ...(child.meta as object), written: child.content };
  }
  return true;
}

/** Core rule: numbers labelled equations (so @eq: can resolve) and renders every formula. */
function mathCoreRule(state: StateCore): boolean {
  const doc = docState(state.env);
  for (const token of state.tokens) {
    if (token.type === "book_math_unclosed") {
      fail(doc, token.map![0], `display math opened with "$$" is never closed`);
    }
  }
  for (const f of formulas(state.tokens)) {
    const token = f.token;
    if (f.display) {
      const meta = token.meta as { label?: string; badLabel?: string; labelLine: number };
      if (meta.badLabel) {
        fail(
          doc,
          meta.labelLine,
          `malformed equation label "${meta.badLabel}" (write {#eq:name} after the closing $$)`,
        );
      }
      let tag: number | undefined;
      if (meta.label !== undefined) {
        if (!validEqLabel.test(meta.label)) {
          fail(doc, meta.labelLine, `equation label "${meta.label}" must look like eq:name (letters, digits, - and _)`);
        }
        if (/\\tag\b/.test(token.content))
          fail(doc, token.map![0], `labelled equation "${meta.label}" must not use \\tag (the number is automatic)`);
        tag = ++doc.counters.eq;
        addLabel(doc, { kind: "eq", id: meta.label, text: `Eq. (${tag})`, line: sourceLine(doc, meta.labelLine) });
      }
      const html = renderOrFail(doc, state.src, f, token.content, tag);
      const id = meta.label ? ` id="${escapeHtml(docId(state.env, meta.label))}"` : "";
      token.meta = { ...meta, html: `<div class="math display"${id}>${html}</div>\n` };
    } else {
      token.meta = { html: renderOrFail(doc, state.src, f, token.content) };
    }
  }
  for (const token of state.tokens)
    if (token.type === "inline" && token.children) keepPunctuationWithMath(token.children);
  return true;
}

/**
 * Throws the first TeX error of a parsed document, if any (nothing is rendered into the tokens).
 * For rules that read math before KaTeX runs (the number ledger): their own error about a formula
 * may come from the formula's TeX being wrong.
 */
function throwFirstTexError(state: StateCore): void {
  const doc = docState(state.env);
  for (const f of formulas(state.tokens)) {
    try {
      renderTex(f.written, f.display, false);
    } catch (e) {
      throw texError(doc, state.src, f.placement, f.written, e);
    }
  }
}

/**
 * Makes the core rule `ruleName` (which must run before the math is rendered) report a TeX error
 * instead of its own when it fails on a document whose TeX is wrong.
 */
export function texErrorsFirst(md: MarkdownIt, ruleName: string): void {
  const rule = (
    md.core.ruler as unknown as { __rules__: { name: string; fn: (state: StateCore) => boolean }[] }
  ).__rules__.find((r) => r.name === ruleName);
  if (!rule) throw new Error(`texErrorsFirst: no core rule "${ruleName}"`);
  const inner = rule.fn;
  md.core.ruler.at(ruleName, (state: StateCore) => {
    try {
      return inner(state);
    } catch (e) {
      throwFirstTexError(state);
      throw e;
    }
  });
}

/**
 * A line must not break between inline math and the punctuation right after it ("$x$;"):
 * wrap the formula and that character in a nowrap span.
 */
function keepPunctuationWithMath(children: Token[]): void {
  for (let i = 0; i < children.length - 1; i++) {
    const math = children[i]!;
    const next = children[i + 1]!;
    if (math.type !== "math_inline" || next.type !== "text") continue;
    const m = /^[.,;:!?)\]’”]+/.exec(next.content);
    if (!m) continue;
    const meta = math.meta as { html: string };
    meta.html = `<span class="math-nowrap">${meta.html}${escapeHtml(m[0])}</span>`;
    next.content = next.content.slice(m[0].length);
  }
}

export function mathPlugin(md: MarkdownIt): void {
  md.use(tex, { delimiters: "dollars", render: () => "" });
  md.block.ruler.before("math_block_dollar", "book_math_block", displayMathRule, {
    alt: ["paragraph", "reference", "blockquote", "list"],
  });
  md.core.ruler.after("inline", "book_math_written", writtenTexRule);
  md.core.ruler.push("book_math", mathCoreRule);
  md.renderer.rules.math_inline = (tokens: Token[], idx: number) => (tokens[idx]!.meta as { html: string }).html;
  md.renderer.rules.math_block = (tokens: Token[], idx: number) => (tokens[idx]!.meta as { html: string }).html;
}
