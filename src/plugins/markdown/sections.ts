/**
 * Headings: stable ids and section numbers.
 *
 * `##` and `###` get ids from markdown-it-anchor (our slug function: lower case, ASCII letters,
 * digits and hyphens), or the explicit `{#sec:name}` an author writes. In a numbered chapter
 * (or appendix) each h2/h3 gets a visible number ("3.2", "3.2.1", "A.1"); a heading with a
 * `sec:` id becomes a label, so `@sec:name` prints "Section 3.2" (or, in the unnumbered
 * preface, the heading's own text).
 */
import anchor from "markdown-it-anchor";
import type { MarkdownIt, StateCore, Token } from "markdown-it";
import { addLabel, docState, escapeHtml, fail, sourceLine } from "./doc-state.ts";

/** "Why ZeRO? (Part 2)" → "why-zero-part-2". Never empty. */
function slugify(text: string): string {
  const slug = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return slug === "" ? "section" : /^[0-9]/.test(slug) ? `s-${slug}` : slug;
}

/** Plain text of a heading's inline children (text, code and the TeX source of math). */
function inlineText(children: Token[] | null): string {
  if (!children) return "";
  return children
    .map((c) => (c.type === "text" || c.type === "code_inline" ? c.content : c.type === "math_inline" ? c.content : ""))
    .join("")
    .trim();
}

const validSecId = /^sec:[A-Za-z0-9][A-Za-z0-9_-]*$/;

function sectionsCoreRule(state: StateCore): boolean {
  const doc = docState(state.env);
  const chapterNumber = doc.chapter?.number ?? "";
  let h2 = 0;
  let h3 = 0;
  const tokens = state.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.type !== "heading_open") continue;
    const line = t.map ? t.map[0] : 0;
    if (t.tag === "h1") fail(doc, line, `use "##" and "###" for headings; the page title comes from the front matter`);
    if (t.tag !== "h2" && t.tag !== "h3") continue;
    const inline = tokens[i + 1]!;
    const id = t.attrGet("id") ?? "";
    if (t.tag === "h2") {
      h2++;
      h3 = 0;
    } else {
      if (h2 === 0) fail(doc, line, `"###" heading before any "##" heading`);
      h3++;
    }
    const number =
      chapterNumber === "" ? "" : t.tag === "h2" ? `${chapterNumber}.${h2}` : `${chapterNumber}.${h2}.${h3}`;
    const title = inlineText(inline.children);
    if (id.startsWith("sec:") || id.startsWith("sec-")) {
      if (!validSecId.test(id))
        fail(doc, line, `section label "${id}" must look like sec:name (letters, digits, - and _)`);
      addLabel(doc, { kind: "sec", id, text: number ? `Section ${number}` : title, line: sourceLine(doc, line) });
    }
    if (number && inline.children) {
      const num = new state.Token("html_inline", "", 0);
      num.content = `<span class="secnum">${escapeHtml(number)}</span> `;
      inline.children.unshift(num);
      t.attrSet("data-number", number);
    }
  }
  return true;
}

export function sectionsPlugin(md: MarkdownIt): void {
  md.use(anchor, { level: [2, 3], slugify, tabIndex: false });
  md.core.ruler.push("book_sections", sectionsCoreRule);
}
