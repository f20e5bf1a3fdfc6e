/**
 * Footnotes `[^n]`: markdown-it-footnote parses them; we render each reference twice:
 * a numbered link to the note at the end of the page (works everywhere, and is what narrow
 * screens and print use; book.js shows it as a popover on tap/hover), and a sidenote that
 * CSS places in the right margin on wide screens.
 */
import footnote from "markdown-it-footnote";
import type { MarkdownIt, PluginSimple, StateCore, Token } from "markdown-it";
import { docHref, docId, headingTag, landmarkLabelledBy } from "./edition.ts";

interface FootnoteRefMeta {
  id: number;
  subId?: number;
}

const bodies = new WeakMap<object, Map<number, Token[][]>>();

/** Core rule: remembers the inline content of each footnote so the reference can repeat it. */
function collectFootnotes(state: StateCore): boolean {
  const map = new Map<number, Token[][]>();
  let current: number | undefined;
  for (const t of state.tokens) {
    if (t.type === "footnote_open") current = (t.meta as { id: number }).id;
    else if (t.type === "footnote_close") current = undefined;
    else if (current !== undefined && t.type === "inline" && t.children) {
      const list = map.get(current) ?? [];
      list.push(t.children);
      map.set(current, list);
    }
  }
  bodies.set(state.env, map);
  return true;
}

export function footnotesPlugin(md: MarkdownIt): void {
  md.use(footnote as unknown as PluginSimple);
  md.core.ruler.push("book_footnotes", collectFootnotes);
  const r = md.renderer.rules;
  r.footnote_ref = (tokens, idx, options, env) => {
    const meta = tokens[idx]!.meta as FootnoteRefMeta;
    const n = meta.id + 1;
    const refId = `fnref-${n}${meta.subId ? `-${meta.subId}` : ""}`;
    const parts = bodies.get(env)?.get(meta.id) ?? [];
    const body = parts.map((children) => md.renderer.renderInline(children, options, env)).join(" ");
    const side = meta.subId
      ? ""
      : `<span class="sidenote" role="note"><span class="sidenote-number">${n}</span> ${body}</span>`;
    return `<sup class="footnote-ref"><a href="${docHref(env, `#fn-${n}`)}" id="${docId(env, refId)}" data-footnote="${n}">${n}</a></sup>${side}`;
  };
  r.footnote_block_open = (_tokens, _idx, _options, env) => {
    const h = headingTag(env, 2);
    return `<section class="footnotes" aria-labelledby="${landmarkLabelledBy(env, "footnotes")}">\n<${h} id="${docId(env, "footnotes")}">Footnotes</${h}>\n<ol class="footnotes-list">\n`;
  };
  r.footnote_block_close = () => "</ol>\n</section>\n";
  r.footnote_open = (tokens, idx, _options, env) =>
    `<li id="${docId(env, `fn-${(tokens[idx]!.meta as { id: number }).id + 1}`)}" class="footnote-item">`;
  r.footnote_close = () => "</li>\n";
  r.footnote_anchor = (tokens, idx, _options, env) => {
    const meta = tokens[idx]!.meta as FootnoteRefMeta;
    const n = meta.id + 1;
    const refId = `fnref-${n}${meta.subId ? `-${meta.subId}` : ""}`;
    return ` <a href="${docHref(env, `#${refId}`)}" class="footnote-backref" aria-label="Back to reference ${n}">↩︎</a>`;
  };
}
