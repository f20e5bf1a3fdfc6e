/**
 * `npm run ledger [-- <slug>…] [--all] [--facts]`: the number ledger of the chapters (issues #27, #53).
 *
 * Parses each chapter with the book's Markdown (as the build does) and prints, per chapter, how
 * many numbers are computed, src/data by name, recorded facts, arithmetic-checked, inputs,
 * structural or formula constants, and every unaccounted number
 * as `file:line:column "text"  …context`. `--all` lists every number with its class and reason.
 * `--facts` lists the recorded facts (src/data/facts.ts) each chapter prints, and every record that
 * no chapter prints and no value module reads. Exits 1 when a number is unaccounted (or, with
 * `--facts`, when a record is unused). The build fails on the same numbers
 * (src/plugins/markdown/number-ledger.ts) in every chapter.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import matter from "gray-matter";
import { createBookMarkdown } from "../src/plugins/markdown/markdown.ts";
import { includeCodeMarkdown } from "../src/plugins/markdown/include-code.ts";
import { loadBibliography } from "../src/plugins/markdown/bibliography.ts";
import { chapterInfo } from "../src/plugins/shared/chapters.ts";
import {
  factsReadByModules,
  ledgerOf,
  type LedgerEntry,
  type NumberClass,
} from "../src/plugins/markdown/number-ledger.ts";
import { FACTS } from "../src/data/facts.ts";

const args = process.argv.slice(2);
const all = args.includes("--all");
const listFacts = args.includes("--facts");
const wanted = args.filter((a) => !a.startsWith("--"));
const dir = "content/chapters";
const bibliography = loadBibliography("bibliography.bib");
const md = createBookMarkdown({ bibliography: () => bibliography, assetsDir: "assets" });
includeCodeMarkdown(md); // as the build does (.eleventy.ts)
const classes: NumberClass[] = [
  "computed",
  "data",
  "fact",
  "arithmetic",
  "input",
  "structural",
  "formula",
  "unaccounted",
];

let unaccounted = 0;
const rows: string[][] = [["chapter", ...classes]];
const printedBy = new Map<string, Set<string>>();
for (const name of readdirSync(dir)
  .filter((f) => f.endsWith(".md"))
  .sort()) {
  const file = path.join(dir, name);
  const info = chapterInfo(file);
  if (!info || (wanted.length > 0 && !wanted.includes(info.slug))) continue;
  const body = matter(readFileSync(file, "utf8")).content;
  const env = { page: { inputPath: `./${file}` }, ledgerReport: true };
  md.parse(body, env);
  const entries: LedgerEntry[] = ledgerOf(env) ?? [];
  const lines = readFileSync(file, "utf8").split("\n");
  rows.push([info.slug, ...classes.map((c) => String(entries.filter((e) => e.cls === c).length))]);
  const facts = [...new Set(entries.filter((e) => e.cls === "fact").map((e) => e.name!.slice("fact.".length)))];
  for (const id of facts) printedBy.set(id, (printedBy.get(id) ?? new Set()).add(info.slug));
  if (listFacts && facts.length > 0) {
    console.log(`${info.slug} (${file}): ${facts.length} fact${facts.length === 1 ? "" : "s"}`);
    for (const id of facts.sort()) {
      const record = FACTS.find((x) => x.id === id);
      console.log(
        `  ${id}  ${record ? `${record.value} ${record.unit}  [@${record.key}] ${record.locator}` : "(unknown)"}`,
      );
    }
  }
  for (const e of entries) {
    if (e.cls !== "unaccounted" && !all) continue;
    if (e.cls === "unaccounted") unaccounted++;
    const text = lines[e.line - 1] ?? "";
    const context = text.slice(Math.max(0, e.column - 40), e.column + 40).trim();
    console.log(`${file}:${e.line}:${e.column} ${e.cls}${e.reason ? ` (${e.reason})` : ""} "${e.text}"  …${context}…`);
  }
}
const widths = rows[0]!.map((_, k) => Math.max(...rows.map((r) => r[k]!.length)));
console.log("");
for (const r of rows)
  console.log(r.map((c, k) => (k === 0 ? c.padEnd(widths[k]!) : c.padStart(widths[k]!))).join("  "));
console.log(`\n${unaccounted} unaccounted number${unaccounted === 1 ? "" : "s"}`);
let unused = 0;
if (listFacts && wanted.length === 0) {
  const read = factsReadByModules();
  const modulesOnly = FACTS.filter((x) => !printedBy.has(x.id) && read.has(x.id));
  const none = FACTS.filter((x) => !printedBy.has(x.id) && !read.has(x.id));
  unused = none.length;
  console.log(`\n${FACTS.length} recorded facts; ${printedBy.size} printed by a chapter`);
  if (modulesOnly.length > 0)
    console.log(`read only by value modules (derived numbers): ${modulesOnly.map((x) => x.id).join(", ")}`);
  console.log(
    none.length > 0
      ? `unused records (no chapter prints them, no value module reads them): ${none.map((x) => x.id).join(", ")}`
      : "no unused records",
  );
}
process.exitCode = unaccounted > 0 || unused > 0 ? 1 : 0;
