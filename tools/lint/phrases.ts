/**
 * A small phrase-rule engine over the prose view: each rule is a regular expression (with the
 * `d` flag; an optional group named `hit` marks the reported span) and a check that turns a match
 * into a message and a suggestion, or accepts it.
 *
 * Why not textlint-rule-terminology: it brings about 160 packages for what is a loop over
 * regular expressions here, and it parses Markdown itself, while we already have a prose view
 * with code, math, URLs and citation keys blanked (so rules cannot fire inside them).
 */
import type { RuleId } from "./findings.ts";

export type PhraseRuleId = Extract<RuleId, "confusable" | "uk-spelling" | "term-casing">;

export interface PhraseRule {
  rule: PhraseRuleId;
  /** Global, with the `d` flag. */
  pattern: RegExp;
  /** A message and suggestion for a bad match, or undefined when the match is fine. */
  check(hit: string, match: RegExpExecArray): { message: string; suggestion: string } | undefined;
}

export interface PhraseHit {
  offset: number;
  length: number;
  rule: PhraseRuleId;
  message: string;
  suggestion: string;
}

/** Gives `replacement` the capitalization of `original` (ALL CAPS, Initial, or as written). */
export function matchCase(original: string, replacement: string): string {
  if (original.length > 1 && original === original.toUpperCase() && original !== original.toLowerCase()) {
    return replacement.toUpperCase();
  }
  const head = original[0];
  if (head !== undefined && head !== head.toLowerCase()) return replacement[0].toUpperCase() + replacement.slice(1);
  return replacement;
}

/** Every bad match of every rule, leftmost first; a hit inside an earlier, longer hit is dropped. */
export function runPhraseRules(prose: string, rules: readonly PhraseRule[]): PhraseHit[] {
  const hits: PhraseHit[] = [];
  for (const r of rules) {
    r.pattern.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = r.pattern.exec(prose)) !== null) {
      if (m[0].length === 0) {
        r.pattern.lastIndex++;
        continue;
      }
      const span = m.indices?.groups?.hit ?? m.indices?.[0];
      if (!span) throw new Error(`phrase rule ${r.pattern} needs the d flag`);
      const hit = prose.slice(span[0], span[1]);
      const verdict = r.check(hit, m);
      if (verdict) hits.push({ offset: span[0], length: span[1] - span[0], rule: r.rule, ...verdict });
    }
  }
  hits.sort((a, b) => a.offset - b.offset || b.length - a.length);
  const kept: PhraseHit[] = [];
  for (const h of hits) {
    const prev = kept[kept.length - 1];
    if (prev && h.offset < prev.offset + prev.length) continue;
    kept.push(h);
  }
  return kept;
}
