/**
 * The one way to silence a check on purpose, visible in the source next to the text it excuses:
 *
 *     <!-- lint-ignore term-casing: defining the format's full name once -->
 *     The format is called bfloat16 ("brain floating point"); the rest of the book writes bf16.
 *
 * A directive alone on its line applies to the next line; a directive at the end of a line of text
 * applies to that line. In BibTeX a `% lint-ignore …` line directly above `@type{key,` applies to
 * the whole entry (see bibtex.ts); in data files `// lint-ignore …` or `# lint-ignore …` work the
 * same way. Several rules may be named, separated by commas. The reason is required, the rule
 * names must exist, and a directive that silences nothing is itself a finding, so exceptions
 * cannot outlive the text they were written for.
 */
import { type Finding, type LineIndex, type RuleId, isRuleId, makeFinding } from "./findings.ts";

export interface IgnoreDirective {
  /** Offset of the `lint-ignore` keyword in the file. */
  offset: number;
  /** First and last line (1-based, inclusive) it applies to. */
  fromLine: number;
  toLine: number;
  rules: RuleId[];
  reason: string;
  used: boolean;
}

const directive = /lint-ignore\b[ \t]*([^:\n]*?)[ \t]*(?::[ \t]*(.*?))?[ \t]*(?:-->|\*\/)?[ \t]*$/;
const commentOnly = /^\s*(?:<!--|%|\/\/|#|\/\*)\s*lint-ignore\b/;
const notIgnorable: RuleId[] = ["lint-ignore", "config"];

/**
 * Reads every directive of a file. `extend` may widen a directive's range (the bibliography uses
 * it to cover a whole entry). Malformed directives come back as findings.
 */
export function parseIgnores(
  file: string,
  text: string,
  index: LineIndex,
  extend?: (fromLine: number, toLine: number) => { fromLine: number; toLine: number },
): { directives: IgnoreDirective[]; findings: Finding[] } {
  const directives: IgnoreDirective[] = [];
  const findings: Finding[] = [];
  const lines = text.split("\n");
  let offset = 0;
  for (let k = 0; k < lines.length; k++) {
    const lineText = lines[k];
    const at = lineText.indexOf("lint-ignore");
    const lineOffset = offset;
    offset += lineText.length + 1;
    if (at === -1) continue;
    const m = directive.exec(lineText.slice(at));
    if (!m) continue;
    const where = lineOffset + at;
    const names = m[1]
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s !== "");
    const reason = (m[2] ?? "").trim();
    const bad = names.filter((s) => !isRuleId(s) || notIgnorable.includes(s as RuleId));
    if (names.length === 0 || bad.length > 0) {
      findings.push(
        makeFinding(
          file,
          index,
          where,
          "lint-ignore".length,
          "lint-ignore",
          names.length === 0
            ? "lint-ignore names no rule; write `lint-ignore <rule>: <reason>`"
            : `lint-ignore names unknown or non-ignorable rule(s) ${bad.map((b) => `"${b}"`).join(", ")}`,
        ),
      );
      continue;
    }
    if (reason === "") {
      findings.push(
        makeFinding(
          file,
          index,
          where,
          "lint-ignore".length,
          "lint-ignore",
          `lint-ignore ${names.join(", ")} gives no reason; write \`lint-ignore ${names.join(", ")}: <why this is right>\``,
        ),
      );
      continue;
    }
    const lineNo = k + 1;
    let range = commentOnly.test(lineText)
      ? { fromLine: lineNo + 1, toLine: lineNo + 1 }
      : { fromLine: lineNo, toLine: lineNo };
    if (extend) range = extend(range.fromLine, range.toLine);
    directives.push({ offset: where, ...range, rules: names as RuleId[], reason, used: false });
  }
  return { directives, findings };
}

/** Drops the findings a directive covers (marking it used), then reports unused directives. */
export function applyIgnores(
  file: string,
  index: LineIndex,
  findings: Finding[],
  directives: IgnoreDirective[],
): Finding[] {
  const kept: Finding[] = [];
  for (const f of findings) {
    const d = directives.find((x) => x.rules.includes(f.rule) && f.line >= x.fromLine && f.line <= x.toLine);
    if (d) d.used = true;
    else kept.push(f);
  }
  for (const d of directives) {
    if (!d.used) {
      kept.push(
        makeFinding(
          file,
          index,
          d.offset,
          "lint-ignore".length,
          "lint-ignore",
          `lint-ignore ${d.rules.join(", ")} silences nothing on line${d.fromLine === d.toLine ? ` ${d.fromLine}` : `s ${d.fromLine}-${d.toLine}`}; remove it`,
        ),
      );
    }
  }
  return kept;
}
