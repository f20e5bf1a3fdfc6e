/**
 * The reading list at /reading-list/: every bibliography entry, grouped by topic, each with
 * the one-line `note` that says why to read it.
 *
 * An entry's topic is its `keywords` field (one of {@link READING_TOPICS}' ids). Entries added
 * before the field existed are placed by {@link LEGACY_TOPICS}; an entry with neither lands in
 * "More references", so a new entry is never lost. A `keywords` value that is not a known topic
 * fails the build with the entry's key and line (a typo would otherwise hide the entry).
 */
import path from "node:path";
import { BookError } from "../shared/errors.ts";
import { escapeHtml } from "../markdown/doc-state.ts";
import { permalinkHtml } from "../markdown/edition.ts";
import { formatEntry, loadBibliography, type BibEntry, type Bibliography } from "../markdown/bibliography.ts";
import type { UserConfig } from "@11ty/eleventy";

/** A group of the reading list. */
export interface ReadingTopic {
  /** Value of the `keywords` field, also the section id. */
  id: string;
  /** Section heading. */
  title: string;
}

/** Topics in the order the reading list shows them. */
export const READING_TOPICS: readonly ReadingTopic[] = [
  { id: "handbooks", title: "Open handbooks" },
  { id: "scaling-reports", title: "Reports of large training runs" },
  { id: "frameworks", title: "Training frameworks" },
  { id: "data-parallelism", title: "Data parallelism and ZeRO" },
  { id: "tensor-sequence-parallelism", title: "Tensor and sequence parallelism" },
  { id: "context-parallelism", title: "Context parallelism" },
  { id: "pipeline-parallelism", title: "Pipeline parallelism" },
  { id: "expert-parallelism", title: "Mixture of experts and expert parallelism" },
  { id: "kernels", title: "Kernels and attention" },
  { id: "mixed-precision", title: "Number formats and mixed precision" },
  { id: "low-communication", title: "Training with little communication" },
  { id: "hardware", title: "Hardware, networks and collectives" },
  { id: "debugging", title: "Profiling, debugging and tooling" },
];

/** Section id and heading of entries without a topic. */
export const OTHER_TOPIC: ReadingTopic = { id: "more", title: "More references" };

/** Topics of the entries that were written before the `keywords` field was introduced. */
export const LEGACY_TOPICS: Readonly<Record<string, string>> = {
  rajbhandari2020zero: "data-parallelism",
  shoeybi2019megatron: "tensor-sequence-parallelism",
  narayanan2021efficient: "pipeline-parallelism",
  jiang2024mixtral: "expert-parallelism",
  lepikhin2021gshard: "expert-parallelism",
  fedus2022switch: "expert-parallelism",
  gale2023megablocks: "expert-parallelism",
  narayanan2019pipedream: "pipeline-parallelism",
  narayanan2021memory: "pipeline-parallelism",
  lamypoirier2023breadth: "pipeline-parallelism",
  bigscience2022bloom: "scaling-reports",
  grattafiori2024llama3: "scaling-reports",
  meta2024llama31card: "scaling-reports",
  kaplan2020scaling: "scaling-reports",
  deepseekai2024v3: "scaling-reports",
  chowdhery2022palm: "scaling-reports",
  korthikanti2023reducing: "tensor-sequence-parallelism",
  nvidia2023h100: "hardware",
  touvron2023llama2: "scaling-reports",
  kingma2015adam: "data-parallelism",
  micikevicius2018mixed: "mixed-precision",
  chen2016training: "data-parallelism",
  dao2022flashattention: "kernels",
  pytorch2024cudasemantics: "debugging",
  pytorch2024adam: "frameworks",
  pytorch2024zerograd: "frameworks",
  pytorch2024memorysnapshot: "debugging",
  pytorch2024profiler: "debugging",
  pytorch2024ddp: "data-parallelism",
  megatronlm2024code: "frameworks",
  meta2024llamamodels: "frameworks",
  ainslie2023gqa: "kernels",
  nvidia2024nccltests: "hardware",
  wang2023overlap: "tensor-sequence-parallelism",
  liu2023ring: "context-parallelism",
  jacobs2023ulysses: "context-parallelism",
  milakov2018online: "kernels",
  brandon2023striped: "context-parallelism",
  fang2024usp: "context-parallelism",
  li2020pytorch: "data-parallelism",
  zhao2023fsdp: "data-parallelism",
  ren2021zerooffload: "data-parallelism",
  rajbhandari2021zeroinfinity: "data-parallelism",
  mccandlish2018empirical: "data-parallelism",
  patarasuk2009bandwidth: "hardware",
  pytorch2025fullyshard: "data-parallelism",
  deepspeed2025config: "frameworks",
  kalamkar2019study: "mixed-precision",
  micikevicius2022fp8: "mixed-precision",
  ocp2023ofp8: "mixed-precision",
  rouhani2023microscaling: "mixed-precision",
  nvidia2025nvfp4: "mixed-precision",
  nvidia2020ampere: "hardware",
  ieee2019floatingpoint: "mixed-precision",
  nvidia2024transformerengine: "mixed-precision",
  pytorch2024amp: "mixed-precision",
  pytorch2022matmulprecision: "mixed-precision",
  huang2019gpipe: "pipeline-parallelism",
  qi2024zerobubble: "pipeline-parallelism",
};

/** One line of the reading list. */
export interface ReadingEntry {
  key: string;
  /** The formatted reference (APA, HTML, link clickable). */
  referenceHtml: string;
  /** Why to read it, as written in the `note` field (plain text). */
  note: string;
}

/** One section of the reading list. */
export interface ReadingGroup {
  topic: ReadingTopic;
  entries: ReadingEntry[];
}

/** The topic id an entry belongs to; throws BookError for an unknown `keywords` value. */
export function entryTopic(entry: BibEntry, file: string): string {
  const raw = entry.fields.keywords?.trim();
  if (raw) {
    const id = raw.split(",")[0]!.trim();
    if (!READING_TOPICS.some((t) => t.id === id)) {
      const known = READING_TOPICS.map((t) => t.id).join(", ");
      throw new BookError(
        file,
        entry.line,
        `entry "${entry.key}": keywords "${raw}" is not a reading-list topic (one of: ${known})`,
      );
    }
    return id;
  }
  return LEGACY_TOPICS[entry.key] ?? OTHER_TOPIC.id;
}

/** A `note` field as plain text: TeX escapes such as `\_` and `\&` become the character. */
export function plainNote(note: string): string {
  return note.replace(/\\([_&%$#{}])/g, "$1").trim();
}

/** Sort key: the first author's family name (or organisation), then year, then key. */
function sortKey(entry: BibEntry): string {
  const first = entry.csl.author?.[0] as { family?: string; literal?: string } | undefined;
  const name = (first?.family ?? first?.literal ?? entry.key).toLowerCase();
  return `${name}\u0000${entry.fields.year ?? ""}\u0000${entry.key}`;
}

/** Groups every entry of the bibliography by topic, in {@link READING_TOPICS} order; empty groups are left out. */
export function readingList(bib: Bibliography): ReadingGroup[] {
  const byTopic = new Map<string, BibEntry[]>();
  for (const entry of bib.entries.values()) {
    const id = entryTopic(entry, bib.file);
    byTopic.set(id, [...(byTopic.get(id) ?? []), entry]);
  }
  const groups: ReadingGroup[] = [];
  for (const topic of [...READING_TOPICS, OTHER_TOPIC]) {
    const entries = byTopic.get(topic.id);
    if (!entries) continue;
    entries.sort((a, b) => sortKey(a).localeCompare(sortKey(b)));
    groups.push({
      topic,
      entries: entries.map((e) => ({ key: e.key, referenceHtml: formatEntry(e), note: plainNote(e.fields.note!) })),
    });
  }
  return groups;
}

/** The reading list as HTML: a short contents list, then one section per topic. */
export function readingListHtml(groups: readonly ReadingGroup[]): string {
  const count = groups.reduce((n, g) => n + g.entries.length, 0);
  const nav = groups
    .map((g) => `<li><a href="#topic-${g.topic.id}">${escapeHtml(g.topic.title)}</a> (${g.entries.length})</li>`)
    .join("\n");
  const sections = groups
    .map((g) => {
      const items = g.entries
        .map(
          (e) =>
            `<li id="read-${escapeHtml(e.key)}"><p class="reading-ref">${e.referenceHtml}</p>\n<p class="reading-note">${escapeHtml(e.note)}</p></li>`,
        )
        .join("\n");
      return `<section class="reading-topic" aria-labelledby="topic-${g.topic.id}">\n<h2 id="topic-${g.topic.id}">${escapeHtml(g.topic.title)}${permalinkHtml(`topic-${g.topic.id}`)}</h2>\n<ul class="reading-list">\n${items}\n</ul>\n</section>`;
    })
    .join("\n");
  const plural = (k: number, word: string) => `${k} ${word}${k === 1 ? "" : "s"}`;
  return `<nav class="reading-topics" aria-label="Topics"><p>${plural(count, "work")} in ${plural(groups.length, "group")}:</p>\n<ul>\n${nav}\n</ul></nav>\n${sections}`;
}

/** Adds the `readingList` shortcode (the whole list as HTML, from bibliography.bib, re-read on each build). */
export function readingListPlugin(eleventyConfig: UserConfig, options: { bibliographyFile?: string } = {}): void {
  const bibFile = options.bibliographyFile ?? "bibliography.bib";
  eleventyConfig.addShortcode("readingList", () =>
    readingListHtml(readingList(loadBibliography(path.resolve(bibFile)))),
  );
}
