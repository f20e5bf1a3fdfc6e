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
 */
import katex from "katex";
import { tex } from "@mdit/plugin-tex";
import type { MarkdownIt, StateBlock, StateCore, Token } from "markdown-it";
import { texMacros } from "./tex-macros.ts";
import { addLabel, docState, escapeHtml, fail, sourceLine, type DocState } from "./doc-state.ts";
import { docId } from "./edition.ts";
import { recordFormula } from "./math-fonts.ts";

const labelPattern = /^\{#([^}\s]*)\}$/;
const validEqLabel = /^eq:[A-Za-z0-9][A-Za-z0-9_-]*$/;

/**
 * Renders TeX with the book's settings; throws KaTeX's error unchanged. The characters drawn are
 * recorded for the math faces (src/plugins/math-fonts.ts).
 */
function renderTex(source: string, displayMode: boolean): string {
  const html = katex.renderToString(source, {
    displayMode,
    throwOnError: true,
    strict: "error",
    output: "htmlAndMathml",
    trust: false,
    macros: { ...texMacros },
  });
  recordFormula(html);
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
  token.meta = { label, badLabel, labelLine: line };
  state.line = line + 1;
  return true;
}

function renderOrFail(doc: DocState, bodyLine: number, source: string, display: boolean): string {
  try {
    return renderTex(source, display);
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    const shown = source.length > 80 ? source.slice(0, 77) + "..." : source;
    return fail(doc, bodyLine, `TeX error: ${msg} (in "${display ? "$$" : "$"}${shown}${display ? "$$" : "$"}")`, e);
  }
}

/** Core rule: numbers labelled equations (so @eq: can resolve) and renders every formula. */
function mathCoreRule(state: StateCore): boolean {
  const doc = docState(state.env);
  for (const token of state.tokens) {
    if (token.type === "book_math_unclosed") {
      fail(doc, token.map![0], `display math opened with "$$" is never closed`);
    }
    if (token.type === "math_block") {
      const meta = token.meta as { label?: string; badLabel?: string; labelLine: number };
      let source = token.content;
      if (meta.badLabel) {
        fail(
          doc,
          meta.labelLine,
          `malformed equation label "${meta.badLabel}" (write {#eq:name} after the closing $$)`,
        );
      }
      if (meta.label !== undefined) {
        if (!validEqLabel.test(meta.label)) {
          fail(doc, meta.labelLine, `equation label "${meta.label}" must look like eq:name (letters, digits, - and _)`);
        }
        if (/\\tag\b/.test(source))
          fail(doc, token.map![0], `labelled equation "${meta.label}" must not use \\tag (the number is automatic)`);
        const n = ++doc.counters.eq;
        addLabel(doc, { kind: "eq", id: meta.label, text: `Eq. (${n})`, line: sourceLine(doc, meta.labelLine) });
        source = `${source}\n\\tag{${n}}`;
      }
      const html = renderOrFail(doc, token.map![0], source, true);
      const id = meta.label ? ` id="${escapeHtml(docId(state.env, meta.label))}"` : "";
      token.meta = { ...meta, html: `<div class="math display"${id}>${html}</div>\n` };
    } else if (token.type === "inline" && token.children) {
      const blockLine = token.map ? token.map[0] : 0;
      for (const child of token.children) {
        if (child.type !== "math_inline") continue;
        const offset = token.content.indexOf(`$${child.content}$`);
        const line = offset < 0 ? blockLine : blockLine + (token.content.slice(0, offset).match(/\n/g)?.length ?? 0);
        child.meta = { html: renderOrFail(doc, line, child.content, false) };
      }
      keepPunctuationWithMath(token.children);
    }
  }
  return true;
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
  md.core.ruler.push("book_math", mathCoreRule);
  md.renderer.rules.math_inline = (tokens: Token[], idx: number) => (tokens[idx]!.meta as { html: string }).html;
  md.renderer.rules.math_block = (tokens: Token[], idx: number) => (tokens[idx]!.meta as { html: string }).html;
}
