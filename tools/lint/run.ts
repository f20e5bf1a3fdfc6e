/**
 * Runs every check of the prose gate over the files named by a configuration and returns the
 * findings, sorted by file and position. Pure with respect to its inputs: no printing, no exit.
 */
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { checkBibliography, checkBibTopics, bibProseView, citedKeys, entryRange } from "./bibliography.ts";
import { parseBibtex } from "./bibtex.ts";
import type { LintConfig } from "./config.ts";
import { dataProseView } from "./data-files.ts";
import { type Finding, LineIndex, type RuleId, compareFindings, makeFinding } from "./findings.ts";
import { type IgnoreDirective, applyIgnores, parseIgnores } from "./ignores.ts";
import { maskMarkdown } from "./mask-markdown.ts";
import { runPhraseRules } from "./phrases.ts";
import { checkRepeatedWords } from "./repeated.ts";
import { phraseRules } from "./rules.ts";
import { createSpellChecker } from "./spelling.ts";

/** A same-length copy of a file holding only prose, and the prose rules that apply to it. */
export interface ProseView {
  prose: string;
  rules: ReadonlySet<RuleId>;
  /** cspell locale list; defaults to en-US. */
  locale?: string;
}

export interface Source {
  /** Relative to the root, forward slashes. */
  file: string;
  absolutePath: string;
  text: string;
  index: LineIndex;
  views: ProseView[];
  directives: IgnoreDirective[];
  /** Findings made while reading the file (bibliography checks, malformed directives). */
  findings: Finding[];
}

export interface LintResult {
  findings: Finding[];
  /** Every file checked, relative to the root. */
  files: string[];
}

const allProse: ReadonlySet<RuleId> = new Set([
  "spelling",
  "repeated-word",
  "confusable",
  "uk-spelling",
  "term-casing",
]);
const quotedProse: ReadonlySet<RuleId> = new Set(["spelling", "repeated-word"]);

function walkMarkdown(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) found.push(...walkMarkdown(full));
    else if (name.endsWith(".md")) found.push(full);
  }
  return found;
}

const relative = (root: string, abs: string) => path.relative(root, abs).split(path.sep).join("/");

/** Reads every configured file into prose views, with the findings that need no spell checker. */
export function collectSources(config: LintConfig, root: string): { sources: Source[]; findings: Finding[] } {
  const sources: Source[] = [];
  const configFindings: Finding[] = [];
  const missing = (what: string, p: string) =>
    configFindings.push({
      file: p,
      line: 1,
      col: 1,
      offset: 0,
      length: 0,
      rule: "config",
      message: `${what} ${p} does not exist (see tools/lint/config.ts)`,
    });

  const markdownFiles: string[] = [];
  for (const r of config.markdownRoots) {
    const abs = path.resolve(root, r);
    if (!existsSync(abs)) missing("markdown root", r);
    else markdownFiles.push(...walkMarkdown(abs));
  }
  const cited = new Set<string>();
  for (const abs of markdownFiles) {
    const text = readFileSync(abs, "utf8");
    for (const k of citedKeys(text)) cited.add(k);
    const file = relative(root, abs);
    const index = new LineIndex(text);
    const { directives, findings } = parseIgnores(file, text, index);
    const prose = maskMarkdown(text, { frontMatterProseKeys: config.frontMatterProseKeys });
    sources.push({ file, absolutePath: abs, text, index, views: [{ prose, rules: allProse }], directives, findings });
  }

  for (const d of config.dataFiles) {
    const abs = path.resolve(root, d.path);
    if (!existsSync(abs)) {
      missing("data file", d.path);
      continue;
    }
    const text = readFileSync(abs, "utf8");
    for (const k of citedKeys(text)) cited.add(k);
    const index = new LineIndex(text);
    const { directives, findings } = parseIgnores(d.path, text, index);
    sources.push({
      file: d.path,
      absolutePath: abs,
      text,
      index,
      views: [{ prose: dataProseView(text, d.fields, /\.ya?ml$/.test(d.path)), rules: allProse }],
      directives,
      findings,
    });
  }

  const bib = config.bibliography;
  const bibAbs = path.resolve(root, bib.path);
  if (!existsSync(bibAbs)) missing("bibliography", bib.path);
  else {
    const text = readFileSync(bibAbs, "utf8");
    const index = new LineIndex(text);
    const { entries, errors } = parseBibtex(text);
    const { directives, findings } = parseIgnores(bib.path, text, index, entryRange(entries, index));
    for (const e of errors) findings.push(makeFinding(bib.path, index, e.offset, 1, "bib-syntax", e.message));
    findings.push(...checkBibliography(bib.path, index, entries, cited));
    if (bib.topics) findings.push(...checkBibTopics(bib.path, index, entries, bib.topics));
    sources.push({
      file: bib.path,
      absolutePath: bibAbs,
      text,
      index,
      views: [
        // Titles are quoted as published, in US or UK English.
        { prose: bibProseView(text, entries, bib.titleFields), rules: quotedProse, locale: "en-US,en-GB" },
        { prose: bibProseView(text, entries, bib.proseFields), rules: allProse },
      ],
      directives,
      findings,
    });
  }
  return { sources, findings: configFindings };
}

/**
 * Runs the whole gate, or with `only` (paths relative to the root) checks just those of its
 * files: every file is still read, since the bibliography check needs every citation.
 */
export async function lint(config: LintConfig, root: string, only?: ReadonlySet<string>): Promise<LintResult> {
  const collected = collectSources(config, root);
  const all = collected.findings;
  const sources = only ? collected.sources.filter((s) => only.has(s.file)) : collected.sources;
  const cspellConfig = path.resolve(root, config.cspellConfig);
  if (!existsSync(cspellConfig)) throw new Error(`cspell configuration ${config.cspellConfig} does not exist`);
  const speller = createSpellChecker(cspellConfig);

  for (const s of sources) {
    const found: Finding[] = [...s.findings];
    for (const view of s.views) {
      const phrase = runPhraseRules(view.prose, phraseRules).filter((h) => view.rules.has(h.rule));
      for (const h of phrase)
        found.push(makeFinding(s.file, s.index, h.offset, h.length, h.rule, h.message, h.suggestion));

      if (view.rules.has("spelling")) {
        const covered = (offset: number) => phrase.some((h) => offset >= h.offset && offset < h.offset + h.length);
        for (const h of await speller.check(s.absolutePath, view.prose, view.locale)) {
          if (covered(h.offset)) continue; // a phrase rule already names this word, with a better suggestion
          const others = h.suggestions.slice(1);
          found.push(
            makeFinding(
              s.file,
              s.index,
              h.offset,
              h.length,
              "spelling",
              `unknown word "${h.word}"${others.length > 0 ? ` (or: ${others.join(", ")})` : ""}`,
              h.suggestions[0],
            ),
          );
        }
      }
      if (view.rules.has("repeated-word")) {
        for (const h of await checkRepeatedWords(view.prose, config.allowedRepeats)) {
          found.push(
            makeFinding(
              s.file,
              s.index,
              h.offset,
              h.length,
              "repeated-word",
              `repeated word "${s.text.slice(h.offset, h.offset + h.length).replace(/\s+/g, " ")}"`,
              h.word,
            ),
          );
        }
      }
    }
    all.push(...applyIgnores(s.file, s.index, found, s.directives));
  }
  all.sort(compareFindings);
  return { findings: all, files: sources.map((s) => s.file) };
}
