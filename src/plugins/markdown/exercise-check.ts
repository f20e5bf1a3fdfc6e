/**
 * Self-checked exercises and computed values (issue #28).
 *
 * - `{=name}` prints a named value of src/model/exercise-values.ts through the book's formatter
 *   (src/figures/kit/format.ts), in text and inside `$…$`/`$$…$$` math (where "1,234" becomes
 *   "1{,}234"); `{=name:N}` prints N decimals, as the value's record allows (src/data/facts.ts,
 *   FactRounding). An inline rule makes a token of it in text; math sources are rewritten on their
 *   tokens before KaTeX runs. An unknown name fails the build at file:line:column, with the nearest
 *   known name.
 * - `::: answer` inside an `::: exercise` holds YAML: a list of answers, each with a `label`, the
 *   `value` (a name from the same module, never a typed number), a relative `tolerance`, and
 *   optional `hints` (a value name or a number → what that wrong answer probably means):
 *
 *       ::: answer
 *       - label: Model states
 *         value: ch2.llama2StatesGB
 *         tolerance: 0.01
 *         hints:
 *           ch2.llama2StatesBufferGB: That includes the fp32 accumulation buffer.
 *       :::
 *
 *   It renders a `<form class="exercise-check" hidden>` inside a `<template class="exercise-check-template">`
 *   (inert until the script puts it in place): one labelled input per answer with
 *   `data-answer` (the value, in the unit the label names), `data-tolerance`, `data-unit` and
 *   `data-hints`, a Check button and a live region. The form stays hidden without JavaScript
 *   (the page reads as before: question, then solution); src/widgets/runtime/exercise-check.ts
 *   reveals it and judges answers with src/widgets/runtime/answer-check.ts.
 * - The heading of a chapter's exercises gets `data-exercise-count` (checkable exercises); the
 *   table of contents lists every exercise under that heading (src/plugins/markdown/summary.ts).
 */
import { existsSync } from "node:fs";
import type { MarkdownIt, StateCore, StateInline, Token } from "markdown-it";
import { load as loadYaml } from "js-yaml";
import { docState, escapeHtml, fail, lineInContent, type DocState } from "./doc-state.ts";
import { allExerciseValues, exerciseValue, type ExerciseValue } from "../../model/index.ts";
import { didYouMean } from "../shared/errors.ts";
import { formatNumber } from "../../figures/kit/format.ts";
import { docId } from "./edition.ts";

/**
 * What `{=name}` prints: the value through the book's formatter; `{=name:N}` (`decimals`) prints N
 * decimals, rounded as the value's record allows (`rounding`: "exact" refuses fewer digits, "down"
 * and "up" round one way). A value with a `rounding` never prints more digits than it records.
 * Throws an Error whose message says what is wrong.
 */
export function printValue(value: ExerciseValue, inMath = false, decimals?: number): string {
  let text: string;
  if (decimals === undefined) text = formatNumber(value.value, value.digits);
  else {
    const recorded = value.digits.decimals;
    if (value.rounding && recorded !== undefined && decimals > recorded) {
      throw new Error(`prints ${decimals} decimals, more than the ${recorded} its record has`);
    }
    if (value.rounding === "exact" && recorded !== undefined && decimals < recorded) {
      throw new Error(`is recorded exactly (rounding "exact"): print all ${recorded} decimals`);
    }
    const scale = 10 ** decimals;
    const x = value.value * scale;
    const rounded =
      value.rounding === "down"
        ? Math.floor(x + 1e-9 * Math.abs(x)) / scale
        : value.rounding === "up"
          ? Math.ceil(x - 1e-9 * Math.abs(x)) / scale
          : value.value;
    text = formatNumber(rounded, { decimals });
  }
  return inMath ? text.replace(/,/g, "{,}") : text;
}

/** `{=name}` or `{=name:N}` (N decimals): the name and the decimals. */
const referencePattern = /\{=([A-Za-z][\w.-]*?)(?::(\d))?\}/g;

/** Every value name, for a did-you-mean. */
function valueNames(): string[] {
  return Object.keys(allExerciseValues());
}

/**
 * The text `{=name}` / `{=name:N}` prints, or an error message (an unknown name with the nearest
 * known one, or a print its record does not allow).
 */
export function printReference(
  name: string,
  decimals: number | undefined,
  inMath = false,
  home = "src/model/exercise-values.ts",
): string | { error: string } {
  const value = exerciseValue(name);
  const marker = `{=${name}${decimals === undefined ? "" : `:${decimals}`}}`;
  if (!value) {
    const where = /^(?:gpu|net|model|format)\./.test(name)
      ? "src/data (src/model/values/data.ts lists the names)"
      : name.startsWith("fact.")
        ? "src/data/facts.ts"
        : home;
    return { error: `unknown value "${marker}" (define it in ${where})${didYouMean(name, valueNames())}` };
  }
  try {
    return printValue(value, inMath, decimals);
  } catch (e) {
    return { error: `"${marker}" ${(e as Error).message}` };
  }
}

/**
 * Replaces every `{=name}` in a piece of Markdown source with its printed value, for the chapter
 * tests that read the source (tests/helpers/chapter-text.ts). A reference after an odd number
 * of `$` is taken to be inside math. Unknown names throw.
 */
export function expandValueReferences(source: string): string {
  let dollars = 0;
  let last = 0;
  let out = "";
  for (const m of source.matchAll(referencePattern)) {
    const before = source.slice(last, m.index);
    dollars += (before.replace(/\\\$/g, "").match(/\$/g) ?? []).length;
    const printed = printReference(m[1]!, m[2] === undefined ? undefined : Number(m[2]), dollars % 2 === 1);
    if (typeof printed !== "string") throw new Error(printed.error);
    out += before + printed;
    last = m.index + m[0].length;
  }
  return stripInputMarkers(out + source.slice(last));
}

/** `{:8,192}` marks a value the text chooses (the number ledger's "input"): printed as written. */
const inputPattern = /\{:([^{}]*(?:\{,\}[^{}]*)*)\}/g;
const inputNumber = /^[-−]?\d+(?:,\d{3})*(?:\.\d+)?(?:e[+-]?\d+)?$/;

/** The text an input marker prints (in math, "8,192" becomes "8{,}192"). */
export function printInput(text: string, inMath = false): string {
  const plain = text.replace(/\{,\}/g, ",").trim();
  return inMath ? plain.replace(/(?<=\d),(?=\d{3})/g, "{,}") : plain;
}

/** Replaces `{:x}` with x (for the chapter tests that read the source). */
function stripInputMarkers(source: string): string {
  let dollars = 0;
  let last = 0;
  let out = "";
  for (const m of source.matchAll(inputPattern)) {
    const before = source.slice(last, m.index);
    dollars += (before.replace(/\\\$/g, "").match(/\$/g) ?? []).length;
    out += before + printInput(m[1]!, dollars % 2 === 1);
    last = m.index + m[0].length;
  }
  return out + source.slice(last);
}

/** Inline rule: `{=name}` → a `book_value` token (resolved by the core rule, which knows the line). */
function valueInlineRule(state: StateInline, silent: boolean): boolean {
  const src = state.src;
  const pos = state.pos;
  if (src.charCodeAt(pos) !== 0x7b /* { */ || src.charCodeAt(pos + 1) !== 0x3d /* = */) return false;
  const m = /^\{=([A-Za-z][\w.-]*?)(?::(\d))?\}/.exec(src.slice(pos));
  if (!m) return false;
  if (!silent) {
    const token = state.push("book_value", "", 0);
    token.meta = { name: m[1], decimals: m[2] === undefined ? undefined : Number(m[2]), offset: pos, marker: m[0] };
  }
  state.pos += m[0].length;
  return true;
}

/** Inline rule: `{:8,192}` → a `book_input` token that prints the number as written. */
function inputInlineRule(state: StateInline, silent: boolean): boolean {
  const src = state.src;
  const pos = state.pos;
  if (src.charCodeAt(pos) !== 0x7b /* { */ || src.charCodeAt(pos + 1) !== 0x3a /* : */) return false;
  const m = /^\{:([^{}]*(?:\{,\}[^{}]*)*)\}/.exec(src.slice(pos));
  if (!m) return false;
  if (!silent) {
    const token = state.push("book_input", "", 0);
    token.content = printInput(m[1]!);
    token.meta = { offset: pos };
  }
  state.pos += m[0].length;
  return true;
}

function checkInput(doc: DocState, line: number, text: string): void {
  if (!inputNumber.test(printInput(text))) {
    fail(
      doc,
      line,
      `"{:${text}}" marks an input and holds one number as the text prints it (e.g. {:8,192}), not "${text}"`,
    );
  }
}

/** Where a page's values are defined: its chapter's module of src/model/values/, when it has one. */
function valuesHome(doc: DocState): string {
  const own = doc.chapter ? `src/model/values/${doc.chapter.slug}.ts` : undefined;
  return own && existsSync(own) ? own : "src/model/exercise-values.ts";
}

/**
 * The named value; an unknown name fails at `line` (and, with `needle`, the column where that
 * text starts), naming the module to define it in and the nearest known name.
 */
function resolve(doc: DocState, line: number, name: string, needle = `{=${name}}`): ExerciseValue {
  const value = exerciseValue(name);
  if (!value) {
    fail(
      doc,
      line,
      `unknown value "{=${name}}" (define it in ${valuesHome(doc)})${didYouMean(name, valueNames())}`,
      undefined,
      needle,
    );
  }
  return value;
}

/** The printed text of a reference, or the build error at its line and column. */
function printAt(
  doc: DocState,
  line: number,
  marker: string,
  name: string,
  decimals: number | undefined,
  inMath: boolean,
): string {
  const printed = printReference(name, decimals, inMath, valuesHome(doc));
  if (typeof printed !== "string") fail(doc, line, printed.error, undefined, marker);
  return printed;
}

function substituteMath(doc: DocState, line: number, tex: string): string {
  return tex
    .replace(referencePattern, (all: string, name: string, decimals: string | undefined) =>
      printAt(doc, line, all, name, decimals === undefined ? undefined : Number(decimals), true),
    )
    .replace(inputPattern, (_all, text: string) => {
      checkInput(doc, line, text);
      return printInput(text, true);
    });
}

/** Core rule (before KaTeX): resolves `{=name}` in text tokens and in math sources. */
function valuesCoreRule(state: StateCore): boolean {
  const doc = docState(state.env);
  for (const token of state.tokens) {
    const line = token.map ? token.map[0] : 0;
    if (token.type === "math_block") {
      token.content = substituteMath(doc, line, token.content);
      continue;
    }
    if (token.type !== "inline" || !token.children) continue;
    resolveChildren(doc, line, token.content, token.children);
  }
  return true;
}

/** Resolves values, inputs and math in inline children, and in an image's alt text (its children). */
function resolveChildren(doc: DocState, line: number, content: string, children: Token[]): void {
  for (const child of children) {
    if (child.type === "book_value") {
      const meta = child.meta as { name: string; decimals?: number; offset: number; marker: string };
      child.content = printAt(
        doc,
        lineInContent(line, content, meta.offset),
        meta.marker,
        meta.name,
        meta.decimals,
        false,
      );
      child.type = "text"; // plain text from here on: alt text (renderInlineAsText) keeps it too
    } else if (child.type === "book_input") {
      const meta = child.meta as { offset: number };
      checkInput(doc, lineInContent(line, content, meta.offset), child.content);
      child.type = "text";
    } else if (child.type === "math_inline" && (child.content.includes("{=") || child.content.includes("{:"))) {
      const at = content.indexOf(child.content);
      child.content = substituteMath(doc, at < 0 ? line : lineInContent(line, content, at), child.content);
    } else if (child.type === "image" && child.children) {
      resolveChildren(doc, line, content, child.children);
    }
  }
}

export interface AnswerHint {
  value: number;
  text: string;
}

export interface AnswerSpec {
  label: string;
  /** The value's name in src/model/exercise-values.ts. */
  name: string;
  value: number;
  unit: string;
  tolerance: number;
  hints: AnswerHint[];
}

/** Reads an `::: answer` block's YAML into answer specs, failing the build on any mistake. */
function parseAnswerBlock(doc: DocState, line: number, yaml: string): AnswerSpec[] {
  let data: unknown;
  try {
    data = loadYaml(yaml);
  } catch (e) {
    const mark = (e as { mark?: { line?: number } }).mark;
    fail(doc, line + 1 + (mark?.line ?? 0), `answer: not valid YAML: ${(e as Error).message.split("\n")[0]}`, e);
  }
  if (!Array.isArray(data) || data.length === 0) {
    fail(doc, line, `"::: answer" holds a YAML list of answers ("- label: …", "value: …", "tolerance: …")`);
  }
  const known = ["label", "value", "tolerance", "hints"];
  return data.map((item: unknown, i: number): AnswerSpec => {
    const where = `answer ${i + 1}`;
    // The line of this answer's `key:` (or of the answer itself), in the file.
    const at = (key?: string) => line + 1 + answerKeyLine(yaml, i, key);
    if (!item || typeof item !== "object") fail(doc, at(), `${where}: expected "label", "value" and "tolerance"`);
    const rec = item as Record<string, unknown>;
    for (const key of Object.keys(rec)) {
      if (!known.includes(key)) {
        const hint = didYouMean(key, known);
        fail(doc, at(key), `${where}: unknown key "${key}" (known: ${known.join(", ")})${hint}`, undefined, `${key}:`);
      }
    }
    if (typeof rec.label !== "string" || rec.label.trim() === "")
      fail(doc, at("label"), `${where}: "label" must be a short text`);
    if (typeof rec.value !== "string" || !/^[A-Za-z][\w.-]*$/.test(rec.value)) {
      const got = typeof rec.value === "number" ? `the number ${rec.value}` : JSON.stringify(rec.value ?? null);
      fail(
        doc,
        at("value"),
        `${where}: "value" is ${got}, not a name: answers are named numeric values, so write the name of one ` +
          `defined in ${valuesHome(doc)} (e.g. value: ch2.llama2StatesGB) and print it in the solution with ` +
          `{=name} (the number is never typed twice)`,
        undefined,
        "value:",
      );
    }
    const value = resolve(doc, at("value"), rec.value, rec.value);
    const tolerance = rec.tolerance;
    if (typeof tolerance !== "number" || !(tolerance > 0 && tolerance < 0.5)) {
      fail(
        doc,
        at("tolerance"),
        `${where}: "tolerance" must be a relative tolerance between 0 and 0.5 (e.g. 0.01), got ${String(tolerance)}`,
      );
    }
    const hints: AnswerHint[] = [];
    if (rec.hints !== undefined) {
      if (!rec.hints || typeof rec.hints !== "object" || Array.isArray(rec.hints)) {
        fail(doc, at("hints"), `${where}: "hints" maps a value name or a number to a text`);
      }
      for (const [key, text] of Object.entries(rec.hints as Record<string, unknown>)) {
        if (typeof text !== "string" || text.trim() === "")
          fail(doc, at("hints"), `${where}: hint "${key}" needs a text`);
        const n = Number(key);
        const hintValue = Number.isFinite(n) && key.trim() !== "" ? n : resolve(doc, at("hints"), key, key).value;
        if (Math.abs(hintValue - value.value) <= tolerance * Math.abs(value.value)) {
          fail(doc, at("hints"), `${where}: hint "${key}" (${hintValue}) is within the tolerance of the answer itself`);
        }
        hints.push({ value: round(hintValue), text: text.trim() });
      }
    }
    return { label: rec.label.trim(), name: rec.value, value: round(value.value), unit: value.unit, tolerance, hints };
  });
}

/**
 * The 0-based line, in an answer block's YAML, of answer `index`'s `key:` (or of its "- " when
 * `key` is undefined or not found): the list items start with "-" at the block's least indent.
 */
function answerKeyLine(yaml: string, index: number, key?: string): number {
  const lines = yaml.split("\n");
  const indent = Math.min(...lines.filter((l) => /^\s*-/.test(l)).map((l) => l.search(/\S/)));
  const starts = lines.flatMap((l, k) => (/^\s*-/.test(l) && l.search(/\S/) === indent ? [k] : []));
  const start = starts[index] ?? 0;
  const end = starts[index + 1] ?? lines.length;
  if (key === undefined) return start;
  const pattern = new RegExp(`^\\s*(?:-\\s*)?${key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*:`);
  for (let k = start; k < end; k++) if (pattern.test(lines[k]!)) return k;
  return start;
}

/** Ten significant digits: enough for any tolerance, and no binary noise in the attribute. */
function round(x: number): number {
  return Number(x.toPrecision(10));
}

interface AnswerMeta {
  name: string;
  answers?: AnswerSpec[];
  exerciseKey?: string;
  /** The key of the same exercise when keys were positions (src/widgets/runtime/exercise-check.ts moves it). */
  legacyKey?: string;
  exerciseId?: string;
}

interface ContainerMeta {
  name: string;
  attrs: { id?: string };
  number?: number;
  checkable?: boolean;
  exerciseId?: string;
  legacyId?: string;
}

/** The label as shown: the author's text, with the unit in parentheses unless it names it already. */
function answerLabel(spec: Pick<AnswerSpec, "label" | "unit">): string {
  if (spec.unit === "" || spec.label.includes(`(${spec.unit})`) || spec.label.endsWith(` ${spec.unit}`))
    return spec.label;
  return `${spec.label} (${spec.unit})`;
}

/** Core rule (after the containers are numbered, before widgets): reads answer blocks. */
function answersCoreRule(state: StateCore): boolean {
  const doc = docState(state.env);
  const stack: Token[] = [];
  const slug = doc.chapter?.slug ?? "page";
  let firstExercise = -1;
  let checkable = 0;
  for (let i = 0; i < state.tokens.length; i++) {
    const t = state.tokens[i]!;
    if (t.type === "book_container_open") {
      stack.push(t);
      if ((t.meta as ContainerMeta).name === "exercise" && firstExercise < 0) firstExercise = i;
      continue;
    }
    if (t.type === "book_container_close") {
      stack.pop();
      continue;
    }
    if (t.type !== "book_widget" || (t.meta as AnswerMeta).name !== "answer") continue;
    const line = t.map ? t.map[0] : 0;
    const parent = stack[stack.length - 1];
    const parentMeta = parent?.meta as ContainerMeta | undefined;
    if (parentMeta?.name !== "exercise") fail(doc, line, `"::: answer" must be directly inside "::: exercise"`);
    if (parentMeta.checkable)
      fail(doc, line, `an exercise has at most one "::: answer" block (list several answers in it)`);
    parentMeta.checkable = true;
    checkable++;
    t.type = "book_answer";
    const exerciseId = parentMeta.exerciseId ?? parentMeta.attrs.id ?? `exercise-${parentMeta.number}`;
    const meta = t.meta as AnswerMeta;
    meta.answers = parseAnswerBlock(doc, line, t.content);
    meta.exerciseId = exerciseId;
    meta.exerciseKey = `${slug}/${exerciseId}`;
    meta.legacyKey = `${slug}/${parentMeta.legacyId ?? exerciseId}`;
  }
  // The exercises' heading: the last h2 before the first exercise.
  if (firstExercise >= 0) {
    for (let j = firstExercise; j >= 0; j--) {
      const t = state.tokens[j]!;
      if (t.type === "heading_open" && t.tag === "h2") {
        t.attrSet("data-exercise-count", String(checkable));
        t.attrSet("data-exercise-chapter", slug);
        break;
      }
    }
  }
  return true;
}

function renderAnswer(meta: AnswerMeta, env: unknown): string {
  const answers = meta.answers ?? [];
  // On /book/ every id carries the chapter's prefix (edition.ts), so the boxes of two chapters differ.
  const id = docId(env, meta.exerciseId!);
  const fields = answers
    .map((a, k) => {
      const inputId = `${id}-answer-${k + 1}`;
      const hints = a.hints.length > 0 ? ` data-hints="${escapeHtml(JSON.stringify(a.hints))}"` : "";
      return (
        `<div class="exercise-check-field"><label for="${escapeHtml(inputId)}">${escapeHtml(answerLabel(a))}</label>` +
        `<input id="${escapeHtml(inputId)}" type="text" inputmode="decimal" autocomplete="off" spellcheck="false"` +
        ` data-answer="${a.value}" data-tolerance="${a.tolerance}" data-unit="${escapeHtml(a.unit)}"${hints}></div>\n`
      );
    })
    .join("");
  // Inside a <template>: its content is inert, so the browser holds no form control for the box
  // until the script puts the form in place (src/widgets/runtime/exercise-check.ts). Chromium's
  // form handling measures every control of the document when the HTML has been parsed, and a
  // control in a part that is being skipped (content-visibility: auto, book.css) makes it lay the
  // whole part out for that: on /book/, every chapter (docs/performance-log.md, "Paint", sixteenth look).
  return (
    `<template class="exercise-check-template">` +
    `<form class="exercise-check" hidden data-exercise-key="${escapeHtml(meta.exerciseKey!)}"${meta.legacyKey !== meta.exerciseKey ? ` data-exercise-legacy-key="${escapeHtml(meta.legacyKey!)}"` : ""}>\n` +
    `<p class="exercise-check-title">Check your answer</p>\n${fields}` +
    `<div class="exercise-check-actions"><button type="submit">Check</button></div>\n` +
    `<p class="exercise-check-verdict" role="status" aria-live="polite"></p>\n</form></template>\n`
  );
}

export function exerciseCheckPlugin(md: MarkdownIt): void {
  md.inline.ruler.before("text", "book_value", valueInlineRule);
  md.inline.ruler.before("text", "book_input", inputInlineRule);
  md.core.ruler.before("book_math", "book_values", valuesCoreRule);
  md.core.ruler.before("book_widgets", "book_answers", answersCoreRule);
  md.renderer.rules.book_value = (tokens, idx) => escapeHtml(tokens[idx]!.content);
  md.renderer.rules.book_input = (tokens, idx) => escapeHtml(tokens[idx]!.content);
  md.renderer.rules.book_answer = (tokens, idx, _options, env) => renderAnswer(tokens[idx]!.meta as AnswerMeta, env);
}
