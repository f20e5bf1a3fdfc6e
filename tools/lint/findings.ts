/**
 * What every check returns, and how a finding is printed.
 *
 * A finding points at a character offset in the original file; the line and column are computed
 * from that offset, never from a transformed copy, so `file:line:col` opens the editor at the
 * offending character. Columns are 1-based UTF-16 code units (what editors and Node report).
 */

/** The names a `lint-ignore` directive may use. One name per kind of check. */
const ruleIds = [
  "spelling",
  "repeated-word",
  "confusable",
  "uk-spelling",
  "term-casing",
  "bib-syntax",
  "bib-duplicate-key",
  "bib-duplicate-url",
  "bib-missing-field",
  "bib-url",
  "bib-doi",
  "bib-uncited",
  "bib-topic",
  "lint-ignore",
  "config",
] as const;

export type RuleId = (typeof ruleIds)[number];

export function isRuleId(name: string): name is RuleId {
  return (ruleIds as readonly string[]).includes(name);
}

/** One problem in one file. `offset` and `length` are in UTF-16 code units of the original text. */
export interface Finding {
  /** Path relative to the repository root, with forward slashes. */
  file: string;
  line: number;
  col: number;
  offset: number;
  length: number;
  rule: RuleId;
  /** What is wrong, naming the offending text. */
  message: string;
  /** The replacement to make, when there is one. */
  suggestion?: string;
}

/** Maps offsets of one text to 1-based line and column. */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.starts.push(i + 1);
  }

  position(offset: number): { line: number; col: number } {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, col: offset - this.starts[lo] + 1 };
  }

  /** Offset of the first character of a 1-based line (the text length past the last line). */
  lineStart(line: number): number {
    return this.starts[line - 1] ?? Number.MAX_SAFE_INTEGER;
  }

  get lineCount(): number {
    return this.starts.length;
  }
}

/** Builds a finding with its line and column filled in. */
export function makeFinding(
  file: string,
  index: LineIndex,
  offset: number,
  length: number,
  rule: RuleId,
  message: string,
  suggestion?: string,
): Finding {
  const { line, col } = index.position(offset);
  const finding: Finding = { file, line, col, offset, length, rule, message };
  if (suggestion !== undefined) finding.suggestion = suggestion;
  return finding;
}

/** `file:line:col  rule  message (→ suggestion)`, the format editors and CI logs link. */
export function formatFinding(f: Finding): string {
  const fix = f.suggestion === undefined ? "" : ` → ${f.suggestion}`;
  return `${f.file}:${f.line}:${f.col}  ${f.rule}  ${f.message}${fix}`;
}

export function compareFindings(a: Finding, b: Finding): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return a.offset - b.offset || a.rule.localeCompare(b.rule);
}
