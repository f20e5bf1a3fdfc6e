/**
 * Checks on bibliography.bib that keep the reference list trustworthy: no duplicate keys, every
 * entry has a title, a year, an author (or, for software, standards and web pages, the
 * `organization` or `institution` that published it), a venue (journal, booktitle, howpublished,
 * publisher, institution, school or eprint) and a url or doi; URLs and DOIs are well formed; and
 * every entry is either cited from the book (`[@key]` in content/ or a prose data file) or on the
 * reading list (a non-empty `note` field, which says why to read it).
 *
 * `howpublished` is deliberately not accepted in place of an author: it says where a work
 * appeared, not who is responsible for it. Write the organization as the author instead
 * (`author = {{NVIDIA}}`, double braces keep it one name).
 *
 * It also builds the prose views of the file: published titles and venues get spelling and
 * doubled-word checks only (they are quoted as published), our own notes get every prose rule.
 */
import type { BibEntry } from "./bibtex.ts";
import { type Finding, type LineIndex, makeFinding } from "./findings.ts";
import { TOKEN_FILL, maskMarkdown } from "./mask-markdown.ts";

const authorFields = ["author", "editor", "organization", "institution"];
const venueFields = ["journal", "booktitle", "howpublished", "publisher", "institution", "school", "eprint"];

const has = (e: BibEntry, name: string): boolean => e.fields.some((f) => f.name === name && f.value.trim() !== "");
const field = (e: BibEntry, name: string) => e.fields.find((f) => f.name === name);

/** Keys cited in a Markdown (or data) text: every `@key` inside a `[…]` group that holds one. */
export function citedKeys(text: string): Set<string> {
  const keys = new Set<string>();
  for (const group of text.matchAll(/\[[^[\]]*?-?@[^[\]]*\]/g)) {
    for (const k of group[0].matchAll(/(?<![\w@])-?@([A-Za-z0-9_][\w:.+-]*[\w])/g)) {
      if (!/^(?:eq|fig|sec|tbl):/.test(k[1])) keys.add(k[1]);
    }
  }
  return keys;
}

export function checkBibliography(
  file: string,
  index: LineIndex,
  entries: BibEntry[],
  cited: ReadonlySet<string>,
): Finding[] {
  const findings: Finding[] = [];
  const seen = new Map<string, BibEntry>();
  const links = new Map<string, BibEntry>();
  for (const e of entries) {
    const at = (
      rule: Finding["rule"],
      message: string,
      offset = e.keyOffset,
      length = e.key.length,
      suggestion?: string,
    ) => findings.push(makeFinding(file, index, offset, length, rule, message, suggestion));

    const lower = e.key.toLowerCase();
    const first = seen.get(lower);
    if (first) {
      at(
        "bib-duplicate-key",
        `key "${e.key}" is already used by the entry on line ${index.position(first.offset).line}`,
      );
    } else seen.set(lower, e);

    // One entry per work: the reading list would show the same link twice.
    const link = field(e, "url") ?? field(e, "doi");
    const linkKey = link?.value.trim().replace(/\/$/, "");
    if (link && linkKey) {
      const firstWithLink = links.get(linkKey);
      if (firstWithLink) {
        at(
          "bib-duplicate-url",
          `entry "${e.key}" links to "${linkKey}", as "${firstWithLink.key}" on line ${index.position(firstWithLink.offset).line} does (one entry per work)`,
          link.valueOffset,
          link.value.length,
        );
      } else links.set(linkKey, e);
    }

    const names = new Set<string>();
    for (const f of e.fields) {
      if (names.has(f.name))
        at("bib-syntax", `entry "${e.key}" has field "${f.name}" twice`, f.nameOffset, f.name.length);
      names.add(f.name);
    }

    if (!has(e, "title")) at("bib-missing-field", `entry "${e.key}" has no title`);
    const year = field(e, "year");
    if (!year || year.value.trim() === "") at("bib-missing-field", `entry "${e.key}" has no year`);
    else if (!/^\d{4}$/.test(year.value.trim()))
      at(
        "bib-missing-field",
        `entry "${e.key}": year "${year.value}" is not a four-digit year`,
        year.valueOffset,
        year.value.length,
      );
    if (!authorFields.some((n) => has(e, n))) {
      at(
        "bib-missing-field",
        `entry "${e.key}" has no author (for software or a web page, name the publisher as author = {{Name}}, or use organization)`,
      );
    }
    if (!venueFields.some((n) => has(e, n))) {
      at(
        "bib-missing-field",
        `entry "${e.key}" has no venue (journal, booktitle, howpublished, publisher, institution, school or eprint)`,
      );
    }
    if (!has(e, "url") && !has(e, "doi")) at("bib-missing-field", `entry "${e.key}" has neither url nor doi`);

    const url = field(e, "url");
    if (url) {
      const problem = urlProblem(url.value);
      if (problem) at("bib-url", `entry "${e.key}": url "${url.value}" ${problem}`, url.valueOffset, url.value.length);
    }
    const doi = field(e, "doi");
    if (doi) {
      const value = doi.value.trim();
      const prefixed = /^(?:https?:\/\/(?:dx\.)?doi\.org\/|doi:)(.*)$/i.exec(value);
      if (prefixed) {
        at(
          "bib-doi",
          `entry "${e.key}": the doi field holds the bare DOI, without "${value.slice(0, value.length - prefixed[1].length)}"`,
          doi.valueOffset,
          doi.value.length,
          prefixed[1],
        );
      } else if (!/^10\.\d{4,9}\/\S+$/.test(value)) {
        at(
          "bib-doi",
          `entry "${e.key}": doi "${value}" is not of the form 10.NNNN/suffix`,
          doi.valueOffset,
          doi.value.length,
        );
      }
    }

    if (!cited.has(e.key) && !has(e, "note")) {
      at(
        "bib-uncited",
        `entry "${e.key}" is not cited in the book and has no note (the reading list); cite it, add a note = {…} saying why to read it, or remove it`,
      );
    }
  }
  return findings;
}

/**
 * Every entry names its reading-list topic in `keywords` (src/plugins/site/reading-list.ts places it
 * there; an unknown topic fails the build): reported at the entry's key, or at the value, with
 * the allowed topics. Entries the reading list places itself (`placed`) may leave it out.
 */
export function checkBibTopics(
  file: string,
  index: LineIndex,
  entries: BibEntry[],
  topics: { ids: readonly string[]; placed: ReadonlySet<string> },
): Finding[] {
  const findings: Finding[] = [];
  const allowed = topics.ids.join(", ");
  for (const e of entries) {
    const keywords = field(e, "keywords");
    const value = keywords?.value.split(",")[0]?.trim() ?? "";
    if (!keywords || value === "") {
      if (topics.placed.has(e.key)) continue;
      const message = `entry "${e.key}" has no keywords = {topic} (its reading-list section; one of: ${allowed})`;
      findings.push(makeFinding(file, index, e.keyOffset, e.key.length, "bib-topic", message));
    } else if (!topics.ids.includes(value)) {
      const message = `entry "${e.key}": keywords "${keywords.value}" is not a reading-list topic (one of: ${allowed})`;
      findings.push(makeFinding(file, index, keywords.valueOffset, keywords.value.length, "bib-topic", message));
    }
  }
  return findings;
}

function urlProblem(raw: string): string | undefined {
  const value = raw.trim();
  if (value !== raw) return "has surrounding spaces";
  if (/\s/.test(value)) return "contains whitespace";
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return "is not a valid absolute URL";
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:")
    return `uses ${parsed.protocol} (only http and https are links readers can follow)`;
  if (!parsed.hostname.includes(".")) return `has no valid host ("${parsed.hostname}")`;
  return undefined;
}

/**
 * A view of the file keeping only the values of the named fields, with LaTeX markup (commands,
 * braces, ties, math) blanked. Same length as the file.
 */
export function bibProseView(text: string, entries: BibEntry[], fields: readonly string[]): string {
  const out = text.replace(/[^\n]/g, TOKEN_FILL).split("");
  for (const e of entries) {
    for (const f of e.fields) {
      if (!fields.includes(f.name)) continue;
      for (const [start, end] of f.parts) {
        const raw = text.slice(start, end);
        const cleaned = raw
          // Code: \texttt{…}, \url{…}, identifiers written with \_ (memory\_allocated)
          // dotted (torch.optim.Adam), and file paths (torch/optim/adam.py).
          .replace(/\\(?:url|href|texttt|verb)\{[^{}]*\}/g, (s) => TOKEN_FILL.repeat(s.length))
          .replace(/[A-Za-z0-9]+(?:(?:\\_|\.)[A-Za-z0-9]+)+/g, (s) =>
            s.includes("\\_") || s.split(".").length > 2 ? TOKEN_FILL.repeat(s.length) : s,
          )
          .replace(/[\w.-]+(?:\/[\w.-]+)+/g, (s) =>
            s.split("/").length > 2 || /\.\w{1,4}$/.test(s) ? TOKEN_FILL.repeat(s.length) : s,
          )
          .replace(/\\[A-Za-z]+\*?|\\[^A-Za-z\n]/g, (s) => " ".repeat(s.length))
          .replace(/[{}~]/g, " ");
        for (let k = 0; k < cleaned.length; k++) if (raw[k] !== "\n") out[start + k] = cleaned[k];
      }
    }
  }
  return maskMarkdown(out.join(""), { frontMatterProseKeys: [] });
}

/** Extends a lint-ignore range that starts on an entry's first line to the whole entry. */
export function entryRange(entries: BibEntry[], index: LineIndex) {
  return (fromLine: number, toLine: number) => {
    const e = entries.find((x) => index.position(x.offset).line === fromLine);
    return e ? { fromLine, toLine: Math.max(toLine, index.position(e.end - 1).line) } : { fromLine, toLine };
  };
}
