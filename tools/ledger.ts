/**
 * `npm run ledger [-- <slug>…] [--all]`: the number ledger of the chapters (issue #27).
 *
 * Parses each chapter with the book's Markdown (as the build does) and prints, per chapter, how
 * many numbers are computed, arithmetic-checked, cited, inputs, structural or formula constants,
 * and every unaccounted number as `file:line:column "text"  …context`. `--all` lists every
 * number with its class and reason. Exits 1 when a number is unaccounted. The build fails on the
 * same numbers (src/plugins/number-ledger.ts) in every chapter.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import matter from "gray-matter";
import { createBookMarkdown } from "../src/plugins/markdown.ts";
import { includeCodeMarkdown } from "../src/plugins/include-code.ts";
import { loadBibliography } from "../src/plugins/bibliography.ts";
import { chapterInfo } from "../src/plugins/chapters.ts";
import { ledgerOf, type LedgerEntry, type NumberClass } from "../src/plugins/number-ledger.ts";

const args = process.argv.slice(2);
const all = args.includes("--all");
const wanted = args.filter((a) => !a.startsWith("--"));
const dir = "content/chapters";
const bibliography = loadBibliography("bibliography.bib");
const md = createBookMarkdown({ bibliography: () => bibliography, assetsDir: "assets" });
includeCodeMarkdown(md); // as the build does (.eleventy.ts)
const classes: NumberClass[] = [
  "computed",
  "data",
  "arithmetic",
  "cited",
  "input",
  "structural",
  "formula",
  "unaccounted",
];

let unaccounted = 0;
const rows: string[][] = [["chapter", ...classes]];
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
process.exitCode = unaccounted > 0 ? 1 : 0;
