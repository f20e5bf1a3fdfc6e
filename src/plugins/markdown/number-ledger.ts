/**
 * The number ledger (issues #27, #53): every number in a chapter's prose, captions, tables,
 * exercises and solutions, math included, is accounted for as one of
 *
 * - **computed**: `{=name}`, printed at build time from src/model and src/data (exercise-values.ts);
 * - **data**: src/data printed by name, `{=gpu.h100-sxm.l2}`, `{=net.h100-sxm.nicLine}`,
 *   `{=model.llama-3.1-8b.params}`, `{=format.bf16.bytes}` (src/model/values/data.ts);
 * - **fact**: a cited fact printed by name, `{=fact.llama3.gpus}`: a record of src/data/facts.ts with
 *   its unit, bibliography key and locator;
 * - **arithmetic**: part of a chain in math whose numeric sides the build evaluates and compares
 *   (`$4 + 12/64 = 4.1875$`; tex-arithmetic.ts); a chain that does not hold fails the build;
 * - **input**: a value the text chooses, marked `{:8,192}` (printed as written), an integer given
 *   to a symbol in math (`$b = 8$`), or a given of an exercise's question (outside its solution);
 * - **structural**: a year, a label's number ("chapter 8", "Table 3", "stage 2", "GPU 0"), a
 *   product or version name ("Llama 3.1", "CUDA 12"), a format's width ("16-bit", "8-bit"), an
 *   index or a power in math (`x_1`, `2^{30}`), a number spelled into a name (H100, ZeRO-3, 1F1B,
 *   405B: not counted at all);
 * - **formula**: a constant in a symbolic formula (`$16N$`, `$(p-1)/m$`).
 *
 * Anything else is **unaccounted** and fails the build at file:line:column (`npm run ledger`
 * lists a chapter's numbers by class). Every chapter is held to the same rules (issue #53), so that a
 * changed digit cannot pass as data or as a citation: a typed number in a cited sentence or table row
 * is unaccounted (it is a recorded fact, computed from facts, or src/data by name); a typed number
 * that equals a src/data attribute (src/model/data-facts.ts, at the precision printed) is
 * unaccounted, the message naming the attribute to print; a count before what it counts ("671B
 * parameters", "14.8T tokens") is a number, not a name; a hardware figure (a number with a unit of
 * src/data: TFLOPS, GB/s, GB, W…) given in an exercise's question is printed by name or marked
 * `{:x}`, and a marked one may not be a datasheet figure; a number given to one of the book's
 * symbols for a model's shape ($h$, $L$, $a$, $d$, $V$, $f$, $n_{kv}$) after the paragraph names a
 * model preset is that model's attribute, printed by name, and a different number fails naming the
 * attribute and its value (data by what it names). In prose, a `{=gpu.…}`, `{=net.…}` or
 * `{=fact.…}` value with a symbol unit (GB/s, TFLOPS, %, ×) must be followed by that unit.
 *
 * Code, widget and answer blocks, link targets, ids and citations' own text are not prose and are
 * skipped. The rule reads the Markdown source of each token (before `{=name}` and math are
 * rendered), so it sees what the author wrote.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { MarkdownIt, StateCore, Token } from "markdown-it";
import { BookError } from "../shared/errors.ts";
import { docState, sourceLine, type DocState } from "./doc-state.ts";
import { checkChain, evaluateSide, printedHalfUnit, splitRelations } from "./tex-arithmetic.ts";
import { exerciseValue, matchDataFact, matchModelAttribute } from "../../model/index.ts";
import { printInput, printReference } from "./exercise-check.ts";

export type NumberClass =
  "computed" | "data" | "fact" | "arithmetic" | "input" | "structural" | "formula" | "unaccounted";

/** The fact ids a value module reads with `fact("<id>")` (src/model). */
export function factsReadByModules(root = "src/model"): Set<string> {
  const out = new Set<string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith(".ts"))
        for (const m of readFileSync(p, "utf8").matchAll(/\bfact\(\s*"([^"]+)"\s*\)/g)) out.add(m[1]!);
    }
  };
  walk(root);
  return out;
}

/** The class of a `{=name}` marker: src/data by name, a recorded fact, or a computed value. */
export function markerClass(name: string): "data" | "fact" | "computed" {
  if (/^(?:gpu|net|model|format)\./.test(name)) return "data";
  if (name.startsWith("fact.")) return "fact";
  return "computed";
}

/** `{=name}` / `{=name:N}` in a source: name and decimals. */
const MARKER = /^\{=([A-Za-z][\w.-]*?)(?::(\d))?\}$/;

export interface LedgerEntry {
  /** 1-based line and column in the source file. */
  line: number;
  column: number;
  /** The number as written (or the marker, for `{=name}` and `{:…}`). */
  text: string;
  cls: NumberClass;
  /** Why it has that class, in a few words. */
  reason: string;
  /** A `{=name}` marker's value name ("fact.llama3.gpus"). */
  name?: string;
}

/** Words after which a number is a label, not a quantity ("chapter 8", "stage 2", "GPU 0"). */
const LABEL_WORDS = new Set(
  (
    "chapter chapters section sections § table tables figure figures fig. eq. eqs. equation equations appendix " +
    "exercise exercises part parts line lines page pages version versions v rank ranks stage stages gpu node " +
    "layer layers microbatch microbatches bucket buckets round rounds step steps issue pr # sm row rows column columns " +
    "phase item case option rule no. tier level iteration iterations device expert experts head heads block"
  ).split(" "),
);
/** Product and format names whose version follows them ("Llama 3.1", "CUDA 12", "NVLink 4"). */
const NAME_WORDS = new Set(
  (
    "llama gpt gemma qwen palm claude mistral phi cuda pytorch nccl python nvlink pcie gen infiniband deepseek " +
    "megatron-lm deepspeed hopper ampere blackwell transformer bert t5 opt bloom falcon mixtral grok olmo mt-nlg " +
    "jamba nemotron hbm ultra ethernet ubuntu debian node.js eleventy katex torch cudnn cublas cutlass triton mlperf"
  ).split(" "),
);
const HARDWARE_UNIT =
  /^\s*(?:\\[,;]\s*)?(?:\\text\{\s*)?(?:T|P|G)?FLOPS|^\s*(?:\\[,;]\s*)?(?:\\text\{\s*)?(?:GB|TB|Gb)\/s/;

/**
 * Units a `{=gpu.…}`/`{=net.…}`/`{=fact.…}` value must be followed by in the prose (a word unit,
 * "GPUs" or "tokens", may be paraphrased): the text after the marker, in prose or math.
 */
const SYMBOL_UNITS = new Set([
  "PFLOPS",
  "TFLOPS",
  "GB/s",
  "TB/s",
  "Gb/s",
  "GB",
  "TB",
  "MB",
  "KB",
  "KiB",
  "MiB",
  "GiB",
  "W",
  "%",
  "×",
]);
const MATH_UNIT_MACROS: Record<string, string> = { GB: "\\GB", TFLOPS: "\\TFLOPS", "GB/s": "\\GBps" };

/** Whether `after` (the source after a marker) starts with `unit`, as prose or as math writes it. */
function unitFollows(unit: string, after: string): boolean {
  if (!SYMBOL_UNITS.has(unit)) return true;
  // A range, "{=a}–{=b}%" or "{=a} to {=b} GB/s", or a list, "{=a}, {=b} and {=c} TFLOPS": the unit
  // follows its last item.
  const range = /^\s*(?:–|-|to|and|,|,\s*and)\s*\{=[^{}]*\}/.exec(after);
  if (range) return unitFollows(unit, after.slice(range[0].length));
  const esc = unit.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  const alternatives = [esc];
  if (unit === "%") alternatives.push("\\\\%");
  if (unit === "×") alternatives.push("\\\\times(?![A-Za-z])");
  const macro = MATH_UNIT_MACROS[unit];
  if (macro) alternatives.push(`${macro.replace(/\\/g, "\\\\")}(?![A-Za-z])`);
  const re = new RegExp(
    `^(?:\\s|~|\\\\[,;: !]|&nbsp;|\u00a0|\u202f)*(?:\\\\(?:text|mathrm)\\{\\s*)?(?:${alternatives.join("|")})(?![A-Za-z/])`,
  );
  return re.test(after);
}

const PROSE_NUMBER = /(\d+(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?:e[+-]?\d+)?/g;
const MATH_NUMBER = /\d+(?:\{,\}\d{3})*(?:\.\d+)?/g;

interface Span {
  start: number;
  end: number;
}

/** What one inline token's source holds, with non-prose masked out (offsets kept). */
interface Scanned {
  masked: string;
  math: Span[];
  markers: { start: number; text: string; cls: "computed" | "data" | "fact" | "input" }[];
  citations: number[];
}

function mask(s: string, from: number, to: number): string {
  return s.slice(0, from) + " ".repeat(to - from) + s.slice(to);
}

type RuleInline = Parameters<MarkdownIt["inline"]["ruler"]["at"]>[1];

/** A token of the book's inline parse that is not prose, with its span in the parsed source. */
interface ParsedSpan {
  type: string;
  start: number;
  end: number;
  /** Links and images: the offset of the label's closing "]" (the target follows it). */
  labelEnd?: number;
}

/** The token types whose source is not prose (or is a marker or a citation the ledger reads). */
const PARSED_TYPES = new Set([
  "code_inline",
  "html_inline",
  "math_inline",
  "text_special",
  "link_open",
  "image",
  "footnote_ref",
  "book_cite",
  "book_xref",
  "book_value",
  "book_input",
]);

/** A parse of a source slice: an image's alt text and a title are parsed on their own. */
interface Frame {
  src: string;
  /** Offset of `src` in the token's source. */
  base: number;
  /** Where the rule now running in this parse started (a nested parse reads a slice after it). */
  ruleStart: number;
}

/** The ledger's parse in progress (undefined: the wrapped rules and parse only pass through). */
let recording: { spans: ParsedSpan[]; frames: Frame[] } | undefined;
const seen = new WeakSet<Token>();
const wrapped = new WeakSet<object>();

/**
 * Wraps every inline rule of `md` (markdown-it's own and the book's: math, citations,
 * cross-references, {=name} and {:…} markers, footnotes) so that, while the ledger parses, each
 * token a rule pushes records the source span the rule consumed: `state.pos` before and after.
 * `md.inline.parse` is wrapped too, for the parses a rule starts on a slice of its source (the
 * image rule parses its alt text): their spans are shifted to the outer source.
 */
function recordInlineSpans(md: MarkdownIt): void {
  const inline = md.inline as { parse: MarkdownIt["inline"]["parse"] };
  if (!wrapped.has(inline.parse)) {
    const parse = inline.parse;
    const wrappedParse: typeof parse = function (this: unknown, str, md2, env, outTokens) {
      if (!recording) return parse.call(this, str, md2, env, outTokens);
      const outer = recording.frames.at(-1);
      const base = outer ? outer.base + outer.src.indexOf(str, outer.ruleStart) : 0;
      recording.frames.push({ src: str, base, ruleStart: 0 });
      try {
        parse.call(this, str, md2, env, outTokens);
      } finally {
        recording.frames.pop();
      }
    };
    wrapped.add(wrappedParse);
    inline.parse = wrappedParse;
  }
  const ruler = md.inline.ruler as unknown as { __rules__: { name: string; fn: RuleInline }[] };
  for (const rule of ruler.__rules__) {
    if (wrapped.has(rule.fn)) continue;
    const fn = rule.fn;
    const wrappedRule: RuleInline = (state, silent) => {
      const frame = recording?.frames.at(-1);
      if (!recording || !frame || silent) return fn(state, silent);
      const start = state.pos;
      const from = state.tokens.length;
      const outerStart = frame.ruleStart;
      frame.ruleStart = start;
      const ok = fn(state, silent);
      frame.ruleStart = outerStart;
      if (!ok) return ok;
      for (let k = from; k < state.tokens.length; k++) {
        const t = state.tokens[k]!;
        if (seen.has(t)) continue; // pushed by a nested rule (link text), which recorded it
        seen.add(t);
        if (!PARSED_TYPES.has(t.type)) continue;
        if (t.type === "text_special" && t.info !== "entity") continue; // an escape ("\$") prints its character
        const span: ParsedSpan = { type: t.type, start: frame.base + start, end: frame.base + state.pos };
        if (t.type === "link_open" && t.markup === "autolink") span.type = "autolink";
        else if (t.type === "link_open" || t.type === "image") {
          // The parser's own label scan (as the link and image rules call it) finds the "]".
          const pos = state.pos;
          const max = state.posMax;
          state.posMax = pos;
          const end = state.md.helpers.parseLinkLabel(
            state,
            t.type === "image" ? start + 1 : start,
            t.type !== "image",
          );
          state.pos = pos;
          state.posMax = max;
          if (end >= 0) span.labelEnd = frame.base + end;
        }
        recording.spans.push(span);
      }
      return ok;
    };
    wrapped.add(wrappedRule);
    md.inline.ruler.at(rule.name, wrappedRule);
  }
}

/**
 * The spans of `src` that the book's inline parser does not leave as prose text. A link's or an
 * image's title is parsed as inline text too (figures.ts renders an image's title as its caption).
 */
function parsedSpans(md: MarkdownIt, src: string, env: object): ParsedSpan[] {
  recordInlineSpans(md);
  const spans: ParsedSpan[] = [];
  recording = { spans, frames: [] };
  try {
    md.inline.parse(src, md, env, []);
    for (let i = 0; i < spans.length; i++) {
      const span = spans[i]!;
      if (span.labelEnd === undefined) continue;
      const target = linkTarget(md, src, span);
      if (!target.title) continue;
      recording.frames = [{ src, base: 0, ruleStart: target.title.start }];
      md.inline.parse(src.slice(target.title.start, target.title.end), md, env, []);
    }
  } finally {
    recording = undefined;
  }
  return spans;
}

/**
 * A link's or an image's target after its label: `](destination` (masked) and the title in
 * quotes (prose), read with markdown-it's own helpers. A reference link's "][label]" is masked whole.
 */
function linkTarget(md: MarkdownIt, src: string, span: ParsedSpan): { end: number; title?: Span } {
  let pos = span.labelEnd! + 1;
  if (src.charCodeAt(pos) !== 0x28 /* ( */) return { end: span.end };
  const skip = () => {
    while (pos < span.end && (md.utils.isSpace(src.charCodeAt(pos)) || src.charCodeAt(pos) === 0x0a)) pos++;
  };
  pos++;
  skip();
  const dest = md.helpers.parseLinkDestination(src, pos, span.end);
  if (!dest.ok) return { end: pos };
  const end = dest.pos;
  pos = end;
  skip();
  const title = md.helpers.parseLinkTitle(src, pos, span.end);
  return title.ok && pos > end ? { end, title: { start: pos + 1, end: title.pos - 1 } } : { end };
}

/**
 * Masks what the parser reads as code, math, HTML, entities, link targets, autolinks, footnote
 * references, citations, cross-references and markers, from the book's own inline parse of the
 * token's source (`env`: a copy whose footnote list the parse may extend).
 */
function scanInline(md: MarkdownIt, src: string, env: object): Scanned {
  let masked = src;
  const markers: Scanned["markers"] = [];
  const citations: number[] = [];
  const math: Span[] = [];
  for (const span of parsedSpans(md, src, env)) {
    const text = src.slice(span.start, span.end);
    let from = span.start;
    let to = span.end;
    switch (span.type) {
      case "book_value":
        markers.push({ start: span.start, text, cls: markerClass(MARKER.exec(text)?.[1] ?? "") });
        break;
      case "book_input":
        markers.push({ start: span.start, text, cls: "input" });
        break;
      case "math_inline":
        math.push({ start: span.start, end: span.end });
        break;
      case "book_cite":
        citations.push(span.start);
        break;
      case "footnote_ref":
        if (!text.startsWith("[^")) continue; // an inline note ^[…]: its text is prose
        break;
      case "link_open":
      case "image":
        if (span.labelEnd === undefined) continue;
        from = span.labelEnd;
        to = linkTarget(md, src, span).end;
        break;
    }
    masked = mask(masked, from, to);
  }
  // No inline rule reads these: markdown-it-attrs takes `{#id}` / `{.class}` off the text tokens in
  // a core rule, and bare URLs are text (linkify is off); markdown-it's linkify-it finds them.
  const cut = (from: number, to: number) => {
    if (masked.slice(from, to).trim() !== "") masked = mask(masked, from, to);
  };
  for (const m of src.matchAll(/\{[#.][^}]*\}/g)) cut(m.index, m.index + m[0].length);
  for (const m of md.linkify.match(src) ?? []) if (/^https?:$/.test(m.schema)) cut(m.index, m.lastIndex);
  return { masked, math, markers, citations };
}

const ABBREVIATIONS =
  /(?:\be\.g|\bi\.e|\bet al|\bEq|\bEqs|\bFig|\bvs|\bcf|\bSec|\bapprox|\bNo|\bp|\bpp|\bch|\bresp)\.$/i;

/** Sentence spans of a source text: ends at . ! ? followed by space, not after an abbreviation. */
function sentences(src: string): Span[] {
  const out: Span[] = [];
  let start = 0;
  for (const m of src.matchAll(/[.!?]["”’)\]]*\s+/g)) {
    const before = src.slice(start, m.index + 1);
    if (ABBREVIATIONS.test(before)) continue;
    out.push({ start, end: m.index + m[0].length });
    start = m.index + m[0].length;
  }
  out.push({ start, end: src.length });
  return out;
}

interface Context {
  /** Inside an exercise's question (not its solution). */
  question: boolean;
  /** The row or caption carries a citation (tables: any cell of the row). */
  rowCited: boolean;
}

/**
 * "data by what it names": a number given to one of the book's symbols for a model's shape ($h$, $L$,
 * $a$, $d$, $V$, $f$, $n_{kv}$) after the paragraph names a model preset is that model's attribute,
 * printed by name; a different number is an error naming the attribute and its value.
 */
function modelAttributeClass(symbol: string, text: string, before: string): [NumberClass, string] | undefined {
  const match = matchModelAttribute(symbol, before);
  if (!match) return undefined;
  const value = Number(text.replace(/\{,\}|,/g, ""));
  return value === match.value
    ? ["unaccounted", `it is ${match.label}: print it by name, {=${match.ref}}`]
    : ["unaccounted", `${match.label} is ${String(match.value)} in src/data ({=${match.ref}}), not ${text}`];
}

const CITED_NOT_FACT =
  "it is in a cited sentence but is not a recorded fact: record it in src/data/facts.ts and print it {=fact.<id>}, " +
  "compute it from facts ({=name}), or print src/data by name ({=gpu.…}, {=model.…})";
const HARDWARE_GIVEN =
  "a hardware figure in an exercise's question is printed by name ({=gpu.…}, {=net.…}) or, when the exercise " +
  "chooses it, marked as an input ({:x})";

/** The last word before `at` (lower case, trailing punctuation kept for "fig."). */
function wordBefore(text: string, at: number): string {
  const m = /([^\s()[\]]+)[\s[(]*$/.exec(text.slice(Math.max(0, at - 24), at));
  // "one block, 8 warps": a word that ends in punctuation does not label the number after it.
  // "**Llama 3 405B**": emphasis markers before a word are not part of it.
  return m && !/[,:;]$/.test(m[1]!) ? m[1]!.toLowerCase().replace(/^[*_]+/, "") : "";
}

const UNIT_AFTER =
  /^\s*(?:\\[,;: ]\s*)?(?:\\text\{\s*)?(PFLOPS|TFLOPS|TB\/s|GB\/s|Gb\/s|TB|GB|MB|KB|KiB|W|SMs)(?![A-Za-z])/;

/**
 * A typed number that, with the unit after it, is a fact of src/data at its printed precision: it is
 * unaccounted, with the name to print it by.
 */
function dataClass(text: string, after: string, before: string, paragraph: string): [NumberClass, string] | undefined {
  const plain = text.replace(/\{,\}|,/g, "");
  const value = Number(plain);
  const unit = UNIT_AFTER.exec(after)?.[1] ?? "";
  const fact = matchDataFact(value, unit, printedHalfUnit(plain), paragraph, before.slice(-40));
  if (!fact) return undefined;
  const decimals = plain.includes(".") ? plain.split(".")[1]!.length : 0;
  const natural = exerciseValue(fact.ref)?.digits.decimals;
  const suffix = natural !== undefined && natural !== decimals ? `:${decimals}` : "";
  return ["unaccounted", `it is src/data's ${fact.name}: print it by name, {=${fact.ref}${suffix}}`];
}

function proseClass(
  src: string,
  masked: string,
  start: number,
  text: string,
  cited: boolean,
  ctx: Context,
  previous: LedgerEntry | undefined,
  previousEnd: number,
): [NumberClass, string] {
  const before = wordBefore(masked, start);
  if (/^(19[5-9]\d|20[0-3]\d)$/.test(text)) return ["structural", "year"];
  const after = src.slice(start + text.length, start + text.length + 16);
  if (/^:\d/.test(after) || /\d:$/.test(src.slice(0, start))) return ["structural", "a ratio's name (2:4)"];
  // "a 16-bit gradient", "8-bit scales": the width that names a number format (as fp16 or int8 do).
  if (/^-bit\b/.test(after) && /^(?:4|8|16|32|64)$/.test(text)) return ["structural", "a format's width (16-bit)"];
  const data = dataClass(text, after, src.slice(0, start), src);
  if (data) return data;
  if (LABEL_WORDS.has(before) || LABEL_WORDS.has(before.replace(/s$/, ""))) return ["structural", `label (${before})`];
  if (NAME_WORDS.has(before)) return ["structural", `name (${before})`];
  if (
    previous?.cls === "structural" &&
    /^(?:,\s*|\s*(?:and|or|to|through|–|-|,\s*and)\s*)$/.test(masked.slice(previousEnd, start))
  ) {
    return ["structural", previous.reason];
  }
  // "($h$ = 4,096, ...)": a value given to a symbol in prose.
  const given = /\$([^$]{1,16})\$\s*=\s*$/.exec(src.slice(Math.max(0, start - 24), start));
  const named = given ? modelAttributeClass(given[1]!.trim(), text, src.slice(0, start)) : undefined;
  if (named) return named;
  if (cited) return ["unaccounted", CITED_NOT_FACT];
  if (ctx.question) {
    if (UNIT_AFTER.test(after)) return ["unaccounted", HARDWARE_GIVEN];
    if (!HARDWARE_UNIT.test(after)) return ["input", "a given of the exercise"];
  }
  return ["unaccounted", ""];
}

/** Classifies the numbers of one math span (source `tex`, at `offset` in the inline source). */
function mathEntries(
  paragraph: string,
  tex: string,
  offset: number,
  cited: boolean,
  ctx: Context,
  push: (at: number, text: string, cls: NumberClass, reason: string) => void,
  pushMarker: (at: number, text: string, name: string, after?: string) => void,
  report: (at: number, message: string) => void,
): void {
  // Markers inside math: the chain is checked with the values as printed, and their digits are
  // not counted again (the marker itself is already in the ledger).
  const substituted: Span[] = [];
  const shifts: { at: number; delta: number }[] = [];
  let out = "";
  let last = 0;
  for (const m of tex.matchAll(/\{=([A-Za-z][\w.-]*?)(?::(\d))?\}|\{:([^{}]*(?:\{,\}[^{}]*)*)\}/g)) {
    // Math is one token to the inline parser; its markers are read from the TeX, as
    // exercise-check.ts substitutes them.
    if (m[1])
      pushMarker(offset + m.index, m[0], m[1]); // math often leaves the unit out
    else push(offset + m.index, m[0], "input", "marked as an input");
    const reference = m[1] ? printReference(m[1], m[2] === undefined ? undefined : Number(m[2]), true) : undefined;
    const printed = m[1] ? (typeof reference === "string" ? reference : "0") : printInput(m[3]!, true);
    out += tex.slice(last, m.index);
    substituted.push({ start: out.length, end: out.length + printed.length });
    shifts.push({ at: out.length + printed.length, delta: m[0].length - printed.length });
    out += printed;
    last = m.index + m[0].length;
  }
  tex = out + tex.slice(last);
  tex = tex.replace(/[,.;]\s*$/, (p) => " ".repeat(p.length)); // "= 40.4\%," ends a sentence, not the chain
  const sides = splitRelations(tex);
  const chain = checkChain(sides);
  if (chain.failure) {
    const f = chain.failure;
    report(
      offset,
      `arithmetic does not hold: "${f.left} ${f.relation} ${f.right}" (${f.left} is ${String(Number(f.leftValue.toPrecision(10)))}, ` +
        `${f.right} is ${String(Number(f.rightValue.toPrecision(10)))})`,
    );
  }
  sides.forEach((side, i) => {
    const numeric = evaluateSide(side.text) !== undefined;
    // A unit in \text{} is not a symbol; a word ("\text{mean}") is.
    const plain = side.text.replace(/\\(?:text|mathrm|textsf|operatorname)\{([^{}]*)\}/g, (_t, word: string) =>
      /^\s*(?:[kMGTP]?i?B|[kMGTP]?FLOPS?|FLOP\/B|[mµu]?s|bytes?|tokens?|GPUs?|%|\\%|GB\/s|TB\/s|Gb\/s|h|days?|years?)?\s*$/.test(
        word,
      )
        ? " "
        : " x ",
    );
    const symbolic =
      /(?<!\\)[A-Za-z]|\\(?!(?:times|cdot|div|frac|dfrac|tfrac|left|right|approx|quad|qquad|text|mathrm|[,;:!%]))[A-Za-z]+/.test(
        plain.replace(/\\[A-Za-z]+/g, (cmd) =>
          /^\\(?:times|cdot|div|frac|dfrac|tfrac|left|right|approx|quad|qquad|big\w*|Big\w*)$/.test(cmd) ? " " : "x",
        ),
      );
    const assignment =
      i > 0 &&
      sides[i - 1]!.relation === "=" &&
      /^\s*(?:[A-Za-z]|\\[A-Za-z]+)(?:_(?:\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}|\w))?\s*$/.test(sides[i - 1]!.text);
    for (const m of side.text.matchAll(MATH_NUMBER)) {
      const inText = side.start + m.index;
      if (substituted.some((sp) => inText >= sp.start && inText < sp.end)) continue;
      // Back to the source's offsets: a marker is longer or shorter than the value it printed.
      const at = inText + shifts.filter((sh) => sh.at <= inText).reduce((n, sh) => n + sh.delta, 0);
      const text = m[0].replace(/\{,\}/g, ",");
      const prev = side.text.slice(0, m.index).replace(/\s+$/, "");
      if (/[A-Za-z]$/.test(side.text.slice(0, m.index)) || /^[A-Za-z]/.test(side.text.slice(m.index + m[0].length))) {
        if (/\\(?:text|mathrm)\{[^}]*$/.test(prev)) continue; // "\text{H100}": a name
      }
      if (/_\{?$/.test(prev) || /_\{[^}]*$/.test(prev)) {
        push(offset + at, text, "structural", "an index");
        continue;
      }
      if (/\^\{?-?$/.test(prev)) {
        push(offset + at, text, "structural", "an exponent");
        continue;
      }
      const base = /^(?:\^|\s*\^)/.test(side.text.slice(m.index + m[0].length));
      if (base && (text === "10" || text === "2")) {
        push(offset + at, text, "structural", "a power of ten or two");
        continue;
      }
      const data = dataClass(
        text,
        side.text.slice(m.index + m[0].length) + tex.slice(side.end),
        tex.slice(0, side.start + m.index),
        paragraph,
      );
      const multiple = new RegExp(`^\\s*${m[0].replace(/[{}]/g, "\\$&")}\\s*\\\\times\\s*$`).test(side.text);
      if (multiple) {
        push(offset + at, text, "formula", "a multiple (1×) in a formula table");
        continue;
      }
      const named =
        assignment && side.text.trim() === m[0]
          ? modelAttributeClass(sides[i - 1]!.text.trim(), text, paragraph.slice(0, offset) + tex.slice(0, side.start))
          : undefined;
      if (named) push(offset + at, text, ...named);
      else if (chain.checked.has(i)) push(offset + at, text, "arithmetic", "arithmetic checked by the build");
      else if (data) push(offset + at, text, ...data);
      else if (symbolic && !numeric) push(offset + at, text, "formula", "a constant in a formula");
      else if (assignment && /^\d+(?:,\d{3})*$/.test(text) && side.text.trim() === m[0] && !cited)
        push(offset + at, text, "input", "an integer given to a symbol");
      else if (cited) push(offset + at, text, "unaccounted", CITED_NOT_FACT);
      else if (ctx.question && !/(?:FLOPS|GB\/s|TB\/s)/.test(side.text))
        push(offset + at, text, "input", "a given of the exercise");
      else push(offset + at, text, "unaccounted", "");
    }
  });
}

/** Ledger of one inline source (a paragraph, heading, table cell or caption). */
function inlineLedger(
  src: string,
  scanned: Scanned,
  ctx: Context,
  where: (offset: number) => { line: number; column: number },
  report: (offset: number, message: string) => void,
): LedgerEntry[] {
  const out: LedgerEntry[] = [];
  const spans = sentences(src);
  const citedAt = (at: number) => {
    if (ctx.rowCited) return true;
    const s = spans.find((sp) => at >= sp.start && at < sp.end);
    return !!s && scanned.citations.some((c) => c >= s.start && c < s.end);
  };
  const push = (at: number, text: string, cls: NumberClass, reason: string, name?: string) =>
    out.push({ ...where(at), text, cls, reason, ...(name ? { name } : {}) });
  /** A `{=name}` marker: its class, and the unit a data or fact value must be followed by (in prose, `after`). */
  const pushMarker = (at: number, text: string, name: string, after?: string) => {
    const cls = markerClass(name);
    const value = cls === "computed" || after === undefined ? undefined : exerciseValue(name);
    if (value && !unitFollows(value.unit, after!)) {
      push(at, text, "unaccounted", `it prints a value in ${value.unit}: write "${value.unit}" after it`, name);
      return;
    }
    const reason =
      cls === "data"
        ? "src/data by name"
        : cls === "fact"
          ? "a recorded fact (src/data/facts.ts)"
          : "computed at build time";
    push(at, text, cls, reason, name);
  };
  for (const m of scanned.markers) {
    if (m.cls !== "input") {
      pushMarker(m.start, m.text, MARKER.exec(m.text)?.[1] ?? "", src.slice(m.start + m.text.length));
      continue;
    }
    // A value the text chooses may not be a datasheet figure typed in a marker ({:80} GB).
    const after = src.slice(m.start + m.text.length, m.start + m.text.length + 16);
    const data = dataClass(printInput(m.text.slice(2, -1)), after, src.slice(0, m.start), src);
    if (data) push(m.start, m.text, ...data);
    else push(m.start, m.text, "input", "marked as an input");
  }
  let previous: LedgerEntry | undefined;
  let previousEnd = 0;
  for (const m of scanned.masked.matchAll(PROSE_NUMBER)) {
    const start = m.index;
    const end = start + m[0].length;
    const before = scanned.masked[start - 1] ?? " ";
    const after = scanned.masked[end] ?? " ";
    // Part of a name or identifier: "H100", "ZeRO-3", "1F1B", "405B", "v5e", "fp8"; but a count with
    // a suffix before what it counts ("671B parameters", "14.8T tokens", "37B are active") is a number.
    const counted = /^[MBT](?:\s+(?:parameters|params|tokens|GPU hours)\b|\s+(?:are\s+)?active\b)/.test(
      scanned.masked.slice(end, end + 24),
    );
    if (/[\p{L}\p{N}_]/u.test(before) || (/[\p{L}_]/u.test(after) && !counted)) continue;
    if ((before === "-" || before === "‑") && /[\p{L}]/u.test(scanned.masked[start - 2] ?? "")) continue;
    if (before === "." && /\d/.test(scanned.masked[start - 2] ?? "")) continue;
    // A release with three parts ("24.11.1", "2.5.1") is a version, not a quantity.
    if (after === "." && /\d/.test(scanned.masked[end + 1] ?? "")) continue;
    const [cls, reason] = proseClass(src, scanned.masked, start, m[0], citedAt(start), ctx, previous, previousEnd);
    const entry: LedgerEntry = { ...where(start), text: m[0], cls, reason };
    out.push(entry);
    previous = entry;
    previousEnd = end;
  }
  for (const span of scanned.math) {
    const tex = src.slice(span.start + 1, span.end - 1);
    mathEntries(src, tex, span.start + 1, citedAt(span.start), ctx, push, pushMarker, (at, message) => {
      report(at, message);
      push(at, tex.trim(), "unaccounted", message);
    });
  }
  out.sort((a, b) => a.line - b.line || a.column - b.column);
  return out.filter((e, k) => k === 0 || e.line !== out[k - 1]!.line || e.column !== out[k - 1]!.column);
}

// Kept while the file is unchanged: the dev server renders an edited chapter in the same process.
const fileCache = new Map<string, { stamp: string; lines: string[] }>();
function fileLines(file: string): string[] {
  let stamp: string;
  try {
    const st = statSync(file);
    stamp = `${st.mtimeMs}:${st.size}`;
  } catch {
    return [];
  }
  const cached = fileCache.get(file);
  if (cached?.stamp === stamp) return cached.lines;
  let lines: string[];
  try {
    lines = readFileSync(file, "utf8").replace(/\r\n?/g, "\n").split("\n");
  } catch {
    lines = [];
  }
  fileCache.set(file, { stamp, lines });
  return lines;
}

/**
 * Maps an offset in `content` (whose first line is body line `firstLine`, and which starts
 * `shift` characters of wrapper before the source) to the file's line and column.
 */
function locator(
  doc: DocState,
  firstLine: number,
  content: string,
  shift = 0,
): (offset: number) => { line: number; column: number } {
  const lines = fileLines(doc.file);
  return (rawOffset) => {
    const offset = Math.max(0, rawOffset - shift);
    const before = content.slice(0, offset);
    const k = (before.match(/\n/g) ?? []).length;
    const line = sourceLine(doc, firstLine + k);
    const lineStart = before.lastIndexOf("\n") + 1;
    const lineEnd = content.indexOf("\n", lineStart);
    const contentLine = content.slice(lineStart, lineEnd < 0 ? undefined : lineEnd);
    const fileLine = lines[line - 1] ?? "";
    const at = contentLine === "" ? -1 : fileLine.indexOf(contentLine);
    const base = at >= 0 ? at : Math.max(0, fileLine.length - contentLine.length);
    return { line, column: base + (offset - lineStart) + 1 };
  };
}

const ledgers = new WeakMap<object, LedgerEntry[]>();

/** The ledger of the last parse with this env (for tools/ledger.ts and tests). */
export function ledgerOf(env: object): LedgerEntry[] | undefined {
  return ledgers.get(env);
}

function ledgerRule(state: StateCore): boolean {
  const doc = docState(state.env);
  // Plugin tests that render snippets as a chapter switch it off (env.numberLedger === false).
  if (!doc.chapter || (state.env as { numberLedger?: boolean }).numberLedger === false) return true;
  const entries: LedgerEntry[] = [];
  // The ledger's own inline parse may number footnote references: it does so on a copy.
  const env = state.env as { footnotes?: { refs?: Record<string, number>; list?: object[] } };
  const scratchEnv = {
    ...env,
    footnotes: env.footnotes && {
      ...env.footnotes,
      refs: env.footnotes.refs && { ...env.footnotes.refs },
      list: env.footnotes.list?.map((item) => ({ ...item })),
    },
  };
  const slug = doc.chapter.slug;
  const containers: string[] = [];
  let rowCited = false;
  let lastLine = 0;
  const tokens = state.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.map) lastLine = t.map[0]; // table cells' inline tokens have no map of their own: their row's
    if (t.type === "book_container_open") containers.push((t.meta as { name: string }).name);
    else if (t.type === "book_container_close") containers.pop();
    else if (t.type === "tr_open") {
      rowCited = false;
      for (let j = i + 1; j < tokens.length && tokens[j]!.type !== "tr_close"; j++) {
        if (tokens[j]!.type === "inline" && /\[-?@/.test(tokens[j]!.content)) rowCited = true;
      }
    } else if (t.type === "tr_close") rowCited = false;
    if (t.type !== "inline" && t.type !== "math_block") continue;
    if ((t.meta as { generated?: string } | null)?.generated) continue; // a companion table: measured, not prose
    const question = containers.includes("exercise") && !containers.includes("solution");
    const first = t.map ? t.map[0] : lastLine;
    // A display block's source starts on the line after its opening $$; it is scanned as "$…$".
    const content = t.type === "math_block" ? `$${t.content}$` : t.content;
    const at = t.type === "math_block" ? locator(doc, first + 1, t.content, 1) : locator(doc, first, t.content);
    // A chain that does not hold fails the build in every chapter; the report lists it instead.
    const report = (offset: number, message: string): void => {
      if ((state.env as { ledgerReport?: boolean }).ledgerReport) return;
      const p = at(offset);
      throw new BookError(doc.file, p.line, message, { column: p.column });
    };
    // A display block is all math; an inline token's source is parsed again by the book's parser.
    const scanned: Scanned =
      t.type === "math_block"
        ? { masked: " ".repeat(content.length), math: [{ start: 0, end: content.length }], markers: [], citations: [] }
        : scanInline(state.md, content, scratchEnv);
    entries.push(...inlineLedger(content, scanned, { question, rowCited }, at, report));
  }
  ledgers.set(state.env as object, entries);
  const unaccounted = entries.filter((e) => e.cls === "unaccounted");
  if (unaccounted.length > 0 && !(state.env as { ledgerReport?: boolean }).ledgerReport) {
    const first = unaccounted[0]!;
    const more = unaccounted.length > 1 ? ` (and ${unaccounted.length - 1} more: npm run ledger -- ${slug})` : "";
    const what = first.text.startsWith("{") ? first.text : `number "${first.text}"`;
    // {:N} is offered last and only for a number the text chooses: a derived number marked as an
    // input would no longer follow the model. The chapter's values have one home, named here.
    const home = `compute it in src/model/values/${slug}.ts and print it with {=name} if it follows from other numbers`;
    const input = `or, only if the text chooses it, mark it as an input ({:${first.text}})`;
    const fix =
      first.reason ||
      `${home}, record it as a cited fact ({=fact.<id>}, src/data/facts.ts), print src/data by name ({=gpu.…}), ${input}`;
    throw new BookError(doc.file, first.line, `${what} is not accounted for: ${fix}${more}`, {
      column: first.column,
    });
  }
  return true;
}

export function numberLedgerPlugin(md: MarkdownIt): void {
  md.core.ruler.before("book_values", "book_ledger", ledgerRule);
}
