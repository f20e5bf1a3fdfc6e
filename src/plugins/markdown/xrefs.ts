/**
 * Cross-references: `@eq:name`, `@fig:name`, `@sec:name`, `@tbl:name` print "Eq. (3)",
 * "Figure 2", "Section 2.1" (or, in the unnumbered preface, the heading) and "Table 1" as a
 * link to the labelled element. Labels are collected by math.ts, figures.ts, containers.ts and
 * sections.ts earlier in the same parse, so a reference may come before its target. An
 * unknown label fails the build with the line. book.js adds a hover preview of the target.
 */
import type { MarkdownIt, StateCore, StateInline, Token } from "markdown-it";
import { docState, escapeHtml, fail, lineInContent } from "./doc-state.ts";
import { docHref } from "./edition.ts";
import { didYouMean } from "../shared/errors.ts";

const refPattern = /^@(eq|fig|sec|tbl):([A-Za-z0-9][A-Za-z0-9_-]*)/;

function xrefRule(state: StateInline, silent: boolean): boolean {
  const pos = state.pos;
  if (state.src.charCodeAt(pos) !== 0x40 /* @ */) return false;
  const prev = pos > 0 ? state.src[pos - 1]! : " ";
  if (/[A-Za-z0-9_.]/.test(prev)) return false; // an e-mail address or similar
  const m = refPattern.exec(state.src.slice(pos));
  if (!m) return false;
  // Do not swallow a trailing hyphen or underscore that ends a sentence fragment.
  const id = `${m[1]}:${m[2]!.replace(/[-_]+$/, "")}`;
  if (!silent) {
    const token = state.push("book_xref", "", 0);
    token.meta = { id, offset: pos };
  }
  state.pos = pos + 1 + id.length;
  return true;
}

function xrefsCoreRule(state: StateCore): boolean {
  const doc = docState(state.env);
  for (const t of state.tokens) {
    if (t.type !== "inline" || !t.children) continue;
    for (const child of t.children) {
      if (child.type !== "book_xref") continue;
      const meta = child.meta as { id: string; text?: string };
      const label = doc.labels.get(meta.id);
      if (!label) {
        const offset = t.content.indexOf(`@${meta.id}`);
        const line = lineInContent(t.map?.[0] ?? 0, t.content, Math.max(0, offset));
        const known = [...doc.labels.keys()].filter((k) => k.startsWith(meta.id.split(":")[0]! + ":"));
        const suggestion = didYouMean(meta.id, known);
        const list = known.length ? ` (labels on this page: ${known.join(", ")})` : "";
        fail(doc, line, `unknown cross-reference "@${meta.id}"${list}${suggestion}`, undefined, `@${meta.id}`);
      }
      meta.text = label.text;
    }
  }
  return true;
}

export function xrefsPlugin(md: MarkdownIt): void {
  md.inline.ruler.before("emphasis", "book_xref", xrefRule);
  md.core.ruler.push("book_xrefs", xrefsCoreRule);
  md.renderer.rules.book_xref = (tokens: Token[], idx: number, _options, env) => {
    const meta = tokens[idx]!.meta as { id: string; text: string };
    const kind = meta.id.split(":")[0]!;
    return `<a class="xref" href="${escapeHtml(docHref(env, `#${meta.id}`))}" data-xref="${kind}">${escapeHtml(meta.text)}</a>`;
  };
}
