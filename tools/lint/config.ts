/**
 * What the prose gate checks, in one place. Paths are relative to the repository root.
 * Tests build their own configuration pointing at tests/lint/fixtures.
 */
import { LEGACY_TOPICS, READING_TOPICS } from "../../src/plugins/site/reading-list.ts";

export interface DataFileConfig {
  /** A JSON, YAML or TypeScript file holding prose (e.g. a glossary). */
  path: string;
  /** Property names whose string values are prose; every occurrence in the file is checked. */
  fields: readonly string[];
}

export interface LintConfig {
  /** Folders searched (recursively) for `.md` files. */
  markdownRoots: readonly string[];
  /** Front-matter keys whose values are prose. */
  frontMatterProseKeys: readonly string[];
  bibliography: {
    path: string;
    /** Published titles and venues: spelling and doubled words only (casing and UK spelling are the authors'). */
    titleFields: readonly string[];
    /** Our own words about an entry: every prose rule. */
    proseFields: readonly string[];
    /**
     * Reading-list topics (src/plugins/site/reading-list.ts): every entry needs one in `keywords`,
     * except the entries the reading list places itself. Unset: no topic check.
     */
    topics?: { ids: readonly string[]; placed: ReadonlySet<string> };
  };
  /** Data files with prose. A listed file that does not exist is a finding. */
  dataFiles: readonly DataFileConfig[];
  /** Words that may legitimately appear twice in a row ("that that", "had had"). */
  allowedRepeats: readonly string[];
  /** cspell configuration (language, dictionaries, project word list). */
  cspellConfig: string;
}

export const lintConfig: LintConfig = {
  markdownRoots: ["content"],
  frontMatterProseKeys: ["title", "subtitle", "description"],
  bibliography: {
    path: "bibliography.bib",
    titleFields: ["title", "booktitle", "journal", "series", "howpublished"],
    proseFields: ["note"],
    topics: { ids: READING_TOPICS.map((t) => t.id), placed: new Set(Object.keys(LEGACY_TOPICS)) },
  },
  dataFiles: [{ path: "src/data/book.ts", fields: ["title", "subtitle", "contributors"] }],
  allowedRepeats: ["that", "had"],
  cspellConfig: "cspell.config.yaml",
};
