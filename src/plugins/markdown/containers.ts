/**
 * Fenced blocks `::: name …` … `:::` for everything that is not plain Markdown:
 *
 *   ::: aside                 margin note (in the right margin on wide screens)
 *   ::: note Title            callouts; the title is optional ("Note", "Warning",
 *   ::: warning Title         "Key takeaways" by default)
 *   ::: takeaway
 *   ::: exercise Title        numbered exercise, its id from its title (below); may contain
 *   ::: solution              a solution, collapsed by default (<details>)
 *   ::: answer                a checkable answer: YAML lines inside (exercise-check.ts)
 *   ::: figure {#fig:name .wide}   numbered figure; its last paragraph "Caption: …" is the caption
 *   ::: widget name           interactive widget; the lines inside are YAML settings (widgets.ts)
 *
 * Blocks nest (an exercise holds a solution, a figure holds a widget): a line `::: name`
 * opens, a line of only colons closes the innermost open block. markdown-it-container cannot
 * nest blocks with the same fence length, hence this small rule of our own.
 *
 * An exercise's id (its element id, its table-of-contents link and the key its answer box stores
 * a reader's answers under) comes from its title, "exercise-how-many-parameters-fit-in-80-gb", or
 * from `{#id}` after the title; not from its position, so that inserting an exercise moves no
 * reader's saved answers to another one. Two exercises of a page with the same id fail the build.
 */
import type { MarkdownIt, StateBlock, StateCore, Token } from "markdown-it";
import { addLabel, docState, escapeHtml, fail, sourceLine } from "./doc-state.ts";
import { docId, editionOf, landmarkLabel } from "./edition.ts";

const containerNames = [
  "aside",
  "note",
  "warning",
  "takeaway",
  "exercise",
  "solution",
  "answer",
  "figure",
  "widget",
] as const;
export type ContainerName = (typeof containerNames)[number];

const defaultTitles: Partial<Record<ContainerName, string>> = {
  note: "Note",
  warning: "Warning",
  takeaway: "Key takeaways",
};

const openPattern = /^:{3,}\s*([A-Za-z][\w-]*)(.*)$/;
const closePattern = /^:{3,}\s*$/;
/** Blocks whose lines are data (YAML), not Markdown. */
const rawBlocks = new Set(["widget", "answer"]);

export interface ContainerAttrs {
  id?: string;
  classes: string[];
}

/** Parses a trailing `{#id .class .class}` off a block's info string. */
function splitAttrs(info: string): { rest: string; attrs: ContainerAttrs; bad?: string } {
  const m = /\{([^}]*)\}\s*$/.exec(info);
  if (!m) return { rest: info.trim(), attrs: { classes: [] } };
  const attrs: ContainerAttrs = { classes: [] };
  for (const part of m[1]!.trim().split(/\s+/).filter(Boolean)) {
    if (part.startsWith("#")) attrs.id = part.slice(1);
    else if (part.startsWith(".")) attrs.classes.push(part.slice(1));
    else return { rest: info.slice(0, m.index).trim(), attrs, bad: part };
  }
  return { rest: info.slice(0, m.index).trim(), attrs };
}

function lineText(state: StateBlock, line: number): string {
  return state.src.slice(state.bMarks[line]! + state.tShift[line]!, state.eMarks[line]!);
}

function containerRule(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (state.sCount[startLine]! - state.blkIndent >= 4) return false;
  const open = openPattern.exec(lineText(state, startLine));
  if (!open) return false;
  if (silent) return true;
  const name = open[1]!;
  const info = open[2]!.trim();

  // Find the matching close, counting nested opens.
  let depth = 1;
  let line = startLine + 1;
  for (; line < endLine; line++) {
    const ls = state.bMarks[line]! + state.tShift[line]!;
    if (ls < state.eMarks[line]! && state.sCount[line]! < state.blkIndent) break;
    const text = lineText(state, line);
    if (closePattern.test(text)) {
      depth--;
      if (depth === 0) break;
    } else if (openPattern.test(text) && !rawBlocks.has(name)) {
      depth++;
    }
  }
  const closed = depth === 0;
  // Read {#id .class} here, before markdown-it-attrs could take it off the info string.
  const split = splitAttrs(info);
  const openToken = state.push("book_container_open", "div", 1);
  openToken.map = [startLine, closed ? line + 1 : line];
  openToken.info = name === "widget" ? info : split.rest;
  openToken.meta = { name, closed, attrs: split.attrs, badAttr: split.bad };
  openToken.block = true;

  if (rawBlocks.has(name)) {
    openToken.type = "book_widget"; // exercise-check.ts retypes answers before widgets.ts reads them
    openToken.nesting = 0;
    openToken.content = state.getLines(startLine + 1, line, state.sCount[startLine]!, false);
    state.line = closed ? line + 1 : line;
    return true;
  }

  const rest = split.rest;
  if (rest !== "") {
    const titleOpen = state.push("book_title_open", "p", 1);
    titleOpen.map = [startLine, startLine + 1];
    const title = state.push("inline", "", 0);
    title.content = rest;
    title.map = [startLine, startLine + 1];
    title.children = [];
    state.push("book_title_close", "p", -1);
  }

  const oldParent = state.parentType;
  const oldLineMax = state.lineMax;
  state.parentType = "container" as typeof state.parentType;
  state.lineMax = line;
  state.md.block.tokenize(state, startLine + 1, line);
  state.parentType = oldParent;
  state.lineMax = oldLineMax;

  const closeToken = state.push("book_container_close", "div", -1);
  closeToken.meta = { name };
  closeToken.block = true;
  state.line = closed ? line + 1 : line;
  return true;
}

interface OpenMeta {
  name: string;
  closed: boolean;
  attrs: ContainerAttrs;
  badAttr?: string;
  html?: string;
  number?: number;
  /** An exercise's id (see above). */
  exerciseId?: string;
  /** The id an exercise had when ids were positions ("exercise-3"), to move saved answers once. */
  legacyId?: string;
}

/** The most characters of a title an exercise id keeps (cut at a word). */
const maxTitleId = 60;

/** "Estimate: can you fine-tune Llama 2 7B on one GPU?" → "exercise-estimate-can-you-fine-tune-llama-2-7b-on-one-gpu". */
export function exerciseIdFromTitle(title: string): string | undefined {
  let slug = title
    .replace(/\{[=:]([^{}]*)\}/g, "$1") // a printed value or an input: its name or number
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  if (slug.length > maxTitleId)
    slug = slug.slice(0, slug.lastIndexOf("-", maxTitleId) > 0 ? slug.lastIndexOf("-", maxTitleId) : maxTitleId);
  return slug === "" ? undefined : `exercise-${slug}`;
}

/** Core rule: validates names and nesting, numbers exercises and figures, finds captions. */
function containersCoreRule(state: StateCore): boolean {
  const doc = docState(state.env);
  const tokens = state.tokens;
  const stack: { token: Token; name: string }[] = [];
  const exerciseIds = new Map<string, number>();
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.type !== "book_container_open" && t.type !== "book_container_close" && t.type !== "book_widget") continue;
    const line = t.map ? t.map[0] : 0;
    if (t.type === "book_container_close") {
      stack.pop();
      continue;
    }
    const meta = t.meta as OpenMeta;
    if (!(containerNames as readonly string[]).includes(meta.name)) {
      fail(doc, line, `unknown block "::: ${meta.name}" (known: ${containerNames.join(", ")})`);
    }
    if (!meta.closed) fail(doc, line, `"::: ${meta.name}" is never closed (add a line with only ":::")`);
    const parent = stack[stack.length - 1]?.name;
    if (meta.name === "solution" && parent !== "exercise")
      fail(doc, line, `"::: solution" must be inside "::: exercise"`);
    const { attrs, badAttr: bad } = meta;
    if (bad) fail(doc, line, `cannot read "${bad}" in the block's {…} (use #id and .class)`);
    if (t.type === "book_widget") continue;
    stack.push({ token: t, name: meta.name });

    if (meta.name === "exercise") {
      meta.number = ++doc.counters.exercise;
      meta.legacyId = attrs.id ?? `exercise-${meta.number}`;
      const title = tokens[i + 1]?.type === "book_title_open" ? tokens[i + 2]!.content : "";
      meta.exerciseId = attrs.id ?? exerciseIdFromTitle(title) ?? meta.legacyId;
      const first = exerciseIds.get(meta.exerciseId);
      if (first !== undefined) {
        fail(
          doc,
          line,
          `exercise id "${meta.exerciseId}" is taken by the exercise on line ${sourceLine(doc, first)} ` +
            `(the id comes from the title: change one title, or give one its own id, "::: exercise Title {#exercise-name}")`,
        );
      }
      exerciseIds.set(meta.exerciseId, line);
    }
    if (meta.name === "aside") meta.number = ++doc.counters.aside;
    if (meta.name === "figure") {
      if (!attrs.id?.startsWith("fig:")) fail(doc, line, `"::: figure" needs a label: ::: figure {#fig:name}`);
      // The caption is the last paragraph at this block's top level that starts with "Caption:".
      const close = findClose(tokens, i);
      let captionAt = -1;
      let depth = 0;
      for (let j = i + 1; j < close; j++) {
        const tj = tokens[j]!;
        if (tj.nesting === 1 && tj.type !== "paragraph_open") depth++;
        if (tj.nesting === -1 && tj.type !== "paragraph_close") depth--;
        if (depth === 0 && tj.type === "paragraph_open" && /^Caption:\s*/.test(tokens[j + 1]!.content)) captionAt = j;
      }
      // Raw HTML (an inline <svg>) on its own lines is the figure's body, not a paragraph.
      for (let j = i + 1; j < close; j++) {
        const tj = tokens[j]!;
        if (tj.type !== "paragraph_open" || tokens[j + 1]?.type !== "inline") continue;
        const kids = tokens[j + 1]!.children ?? [];
        if (
          kids.length > 0 &&
          kids.every(
            (k) => k.type === "html_inline" || k.type === "softbreak" || (k.type === "text" && k.content.trim() === ""),
          )
        ) {
          tj.hidden = true;
          tokens[j + 2]!.hidden = true;
        }
      }
      if (captionAt < 0)
        fail(doc, line, `figure "${attrs.id}" has no caption (end the block with a paragraph "Caption: …")`);
      stripPrefix(tokens[captionAt + 1]!, /^Caption:\s*/);
      const n = ++doc.counters.fig;
      meta.number = n;
      addLabel(doc, { kind: "fig", id: attrs.id!, text: `Figure ${n}`, line: sourceLine(doc, line) });
      tokens[captionAt]!.type = "book_figcaption_open";
      tokens[captionAt]!.meta = { label: `Figure ${n}` };
      tokens[captionAt + 2]!.type = "book_figcaption_close";
    }
  }
  return true;
}

function findClose(tokens: Token[], openIdx: number): number {
  let depth = 0;
  for (let j = openIdx; j < tokens.length; j++) {
    const t = tokens[j]!;
    if (t.type === "book_container_open") depth++;
    if (t.type === "book_container_close" && --depth === 0) return j;
  }
  return tokens.length;
}

/** Removes a prefix such as "Caption: " from an inline token's first text child. */
export function stripPrefix(inline: Token, prefix: RegExp): void {
  inline.content = inline.content.replace(prefix, "");
  const first = inline.children?.[0];
  if (first && first.type === "text") first.content = first.content.replace(prefix, "");
}

const closingTags: Record<ContainerName, string> = {
  aside: "</aside>\n",
  note: "</div>\n",
  warning: "</div>\n",
  takeaway: "</div>\n",
  exercise: "</section>\n",
  solution: "</details>\n",
  answer: "",
  figure: "</figure>\n",
  widget: "",
};

function classAttr(classes: string[]): string {
  return classes.map((c) => ` ${escapeHtml(c)}`).join("");
}

export function containersPlugin(md: MarkdownIt): void {
  md.block.ruler.before("fence", "book_container", containerRule, {
    alt: ["paragraph", "reference", "blockquote", "list"],
  });
  md.core.ruler.push("book_containers", containersCoreRule);

  md.renderer.rules.book_container_open = (tokens, idx, _options, env) => {
    const t = tokens[idx]!;
    const meta = t.meta as OpenMeta;
    const attrs = meta.attrs;
    const hasTitle = tokens[idx + 1]?.type === "book_title_open";
    const id = attrs.id ? ` id="${escapeHtml(docId(env, attrs.id))}"` : "";
    const cls = classAttr(attrs.classes);
    let html: string;
    switch (meta.name) {
      case "aside":
        // On /book/ every margin note is a landmark with a name unique on the page.
        html = `<aside class="aside${cls}"${id}${editionOf(env)?.landmark ? ` aria-label="${escapeHtml(landmarkLabel(env, `Margin note ${meta.number}`))}"` : ""}>\n`;
        break;
      case "note":
      case "warning":
      case "takeaway":
        html = `<div class="callout callout-${meta.name}${cls}"${id} role="note">\n`;
        if (!hasTitle) html += `<p class="callout-title">${defaultTitles[meta.name]}</p>\n`;
        break;
      case "exercise": {
        const exId = meta.exerciseId ?? attrs.id ?? `exercise-${meta.number}`;
        html = `<section class="exercise${cls}" id="${escapeHtml(docId(env, exId))}" aria-label="${escapeHtml(landmarkLabel(env, `Exercise ${meta.number}`))}">\n`;
        html += `<p class="exercise-title"><span class="exercise-label">Exercise ${meta.number}</span>${hasTitle ? "" : "</p>\n"}`;
        break;
      }
      case "solution":
        html = `<details class="solution${cls}"${id}>\n<summary>Solution</summary>\n`;
        if (hasTitle) html += `<p class="solution-title">`;
        break;
      case "figure":
        html = `<figure class="figure${cls}"${id}>\n`;
        break;
      default:
        html = `<div class="${escapeHtml(meta.name)}">\n`;
    }
    return html;
  };
  md.renderer.rules.book_container_close = (tokens, idx) =>
    closingTags[(tokens[idx]!.meta as { name: ContainerName }).name];
  md.renderer.rules.book_title_open = (tokens, idx) => {
    // Find the enclosing container to decide how its title renders.
    for (let j = idx - 1; j >= 0; j--) {
      const t = tokens[j]!;
      if (t.type === "book_container_open") {
        const name = (t.meta as OpenMeta).name;
        if (name === "exercise") return " ";
        if (name === "solution") return "";
        return `<p class="callout-title">`;
      }
    }
    return "<p>";
  };
  md.renderer.rules.book_title_close = () => "</p>\n";
  md.renderer.rules.book_figcaption_open = (tokens, idx) =>
    `<figcaption><span class="fig-label">${escapeHtml((tokens[idx]!.meta as { label: string }).label)}.</span> `;
  md.renderer.rules.book_figcaption_close = () => "</figcaption>\n";
}
