/**
 * Citations: `[@key]` and `[@a; @b]` become numbered links `[1]`, `[1, 2]` (numbers in order
 * of first use on the page), and a numbered reference list is appended to the page. An
 * unknown key, or a bracket that starts like a citation but is not one (`[@key, p. 3]`),
 * fails the build with the line. The browser shows the reference as a card on hover/focus
 * (book.js reads the list item the link points to); without JavaScript the link jumps to it.
 */
import type { MarkdownIt, StateCore, StateInline, Token } from "markdown-it";
import { docState, escapeHtml, fail, lineInContent } from "./doc-state.ts";
import { didYouMean } from "../shared/errors.ts";
import { formatEntry, type Bibliography } from "./bibliography.ts";
import { docHref, docId, headingTag, landmarkLabelledBy } from "./edition.ts";

export interface CitationsOptions {
  /** Called once per page, so that edits to bibliography.bib show up in watch mode. */
  bibliography: () => Bibliography;
}

const keyPattern = /^@([A-Za-z0-9_:.-]+)$/;

function citationRule(state: StateInline, silent: boolean): boolean {
  const start = state.pos;
  if (state.src.charCodeAt(start) !== 0x5b /* [ */ || state.src.charCodeAt(start + 1) !== 0x40 /* @ */) return false;
  const end = state.src.indexOf("]", start);
  if (end < 0) return false;
  if (state.src.charCodeAt(end + 1) === 0x28 /* ( */) return false; // a link whose text starts with @
  const inner = state.src.slice(start + 1, end);
  if (silent) return true;
  const parts = inner.split(";").map((p) => p.trim());
  const keys: string[] = [];
  let error: string | undefined;
  for (const p of parts) {
    const m = keyPattern.exec(p);
    if (!m) {
      error = `malformed citation "[${inner}]" (write [@key] or [@a; @b]; locators such as "p. 3" are not supported)`;
      break;
    }
    keys.push(m[1]!);
  }
  const token = state.push("book_cite", "", 0);
  token.meta = { keys, error, offset: start };
  state.pos = end + 1;
  return true;
}

interface CiteMeta {
  keys: string[];
  error?: string;
  offset: number;
  numbers?: number[];
}

function citationsCoreRule(state: StateCore, options: CitationsOptions): boolean {
  const doc = docState(state.env);
  const order: string[] = [];
  let bib: Bibliography | undefined;
  for (const t of state.tokens) {
    if (t.type !== "inline" || !t.children) continue;
    for (const child of t.children) {
      if (child.type !== "book_cite") continue;
      const meta = child.meta as CiteMeta;
      const line = lineInContent(t.map?.[0] ?? 0, t.content, Math.max(0, t.content.indexOf(`[@${meta.keys[0] ?? ""}`)));
      if (meta.error) fail(doc, line, meta.error);
      bib ??= options.bibliography();
      meta.numbers = meta.keys.map((key) => {
        if (!bib!.entries.has(key)) {
          fail(
            doc,
            line,
            `unknown citation key "@${key}" (not in bibliography.bib)${didYouMean(key, bib!.entries.keys())}`,
            undefined,
            `@${key}`,
          );
        }
        let n = order.indexOf(key);
        if (n < 0) n = order.push(key) - 1;
        return n + 1;
      });
    }
  }
  if (order.length > 0) {
    const items = order
      .map(
        (key) => `<li id="${escapeHtml(docId(state.env, `ref-${key}`))}">${formatEntry(bib!.entries.get(key)!)}</li>`,
      )
      .join("\n");
    const h = headingTag(state.env, 2);
    const labelledBy = landmarkLabelledBy(state.env, "references");
    const token = new state.Token("book_references", "", 0);
    token.content = `<section class="references" aria-labelledby="${labelledBy}">\n<${h} id="${docId(state.env, "references")}">References</${h}>\n<ol class="references-list">\n${items}\n</ol>\n</section>\n`;
    state.tokens.push(token);
  }
  return true;
}

export function citationsPlugin(md: MarkdownIt, options: CitationsOptions): void {
  md.inline.ruler.before("link", "book_cite", citationRule);
  md.core.ruler.push("book_citations", (state) => citationsCoreRule(state, options));
  md.renderer.rules.book_references = (tokens: Token[], idx: number) => tokens[idx]!.content;
  md.renderer.rules.book_cite = (tokens: Token[], idx: number, _options, env) => {
    const meta = tokens[idx]!.meta as CiteMeta;
    const links = meta.keys.map(
      (key, i) =>
        `<a class="cite" href="${escapeHtml(docHref(env, `#ref-${key}`))}" data-cite="${escapeHtml(key)}">${meta.numbers![i]}</a>`,
    );
    return `<span class="citation">[${links.join(", ")}]</span>`;
  };
}
