/**
 * `npm run test:chapter -- <chapter>`: the tests of one chapter, in seconds: its prose tests
 * (tests/chapters/NN-<slug>.test.ts) and the tests of the widgets it uses (`::: widget name` in
 * content/chapters/NN-<slug>.md → tests/figures/<name>.test.ts and tests/model/<name>.test.ts,
 * where they exist, plus the files `widgetTests` lists for it: tests named after another module
 * the widget draws with or computes from). The chapter is named by its slug (`data-parallelism`),
 * its file name (`03-data-parallelism.md`) or its path. Browser tests need a build and are not
 * run here: `npm run check -- <chapter>` (tools/check.ts) builds and runs them too.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { nearestName } from "../src/plugins/shared/errors.ts";

/**
 * Tests of a widget that are not named after it: its other drawing modules and the model
 * modules it computes with. Every path must exist (tests/ci/test-chapter.test.ts checks).
 */
export const widgetTests: Readonly<Record<string, readonly string[]>> = {
  collectives: ["tests/model/collective-steps.test.ts", "tests/model/communication.test.ts"],
  "config-finder": ["tests/model/config-search.test.ts"],
  "dp-overlap": ["tests/model/compute.test.ts"],
  "memory-explorer": ["tests/model/memory.test.ts"],
  "overlap-calculator": ["tests/model/communication.test.ts"],
  "pipeline-explorer": ["tests/model/pipeline.test.ts"],
  roofline: ["tests/figures/roofline-plotly.test.ts"],
};

/** The test files of one chapter file (content/chapters/NN-<slug>.md), those that exist, each once. */
export function chapterTestFiles(file: string, markdown: string): string[] {
  const widgets = new Set([...markdown.matchAll(/^:::+\s*widget\s+([a-z0-9-]+)/gm)].map((m) => m[1]!));
  const candidates = [
    path.join("tests/chapters", file.replace(/\.md$/, ".test.ts")),
    ...[...widgets].flatMap((w) => [
      path.join("tests/figures", `${w}.test.ts`),
      path.join("tests/model", `${w}.test.ts`),
      ...(widgetTests[w] ?? []),
    ]),
  ];
  return [...new Set(candidates)].filter((f) => existsSync(f));
}

/**
 * The browser tests of one chapter file: tests/browser/<widget>.test.ts for each widget it uses
 * and tests/browser/<slug>.test.ts, those that exist, each once. They need a build (`_site`).
 */
export function chapterBrowserTestFiles(file: string, markdown: string): string[] {
  const widgets = new Set([...markdown.matchAll(/^:::+\s*widget\s+([a-z0-9-]+)/gm)].map((m) => m[1]!));
  const candidates = [...widgets, chapterSlug(file)].map((name) => path.join("tests/browser", `${name}.test.ts`));
  return [...new Set(candidates)].filter((f) => existsSync(f));
}

/** "data-parallelism" for "03-data-parallelism.md". */
export function chapterSlug(file: string): string {
  return path
    .basename(file)
    .replace(/^[0-9a-z]\d-/, "")
    .replace(/\.md$/, "");
}

/**
 * The file (in content/chapters/) of the chapter an author names by its slug ("data-parallelism"),
 * its file name ("03-data-parallelism.md", with or without ".md") or its path
 * ("content/chapters/03-data-parallelism.md"); undefined when none matches.
 */
export function findChapter(name: string, chapters: readonly string[]): string | undefined {
  const base = path.basename(name.replace(/\\/g, "/")).replace(/\.md$/, "");
  return chapters.find((f) => f.replace(/\.md$/, "") === base || chapterSlug(f) === base);
}

/** Every chapter file name in content/chapters/, sorted. */
export function chapterFiles(): string[] {
  return readdirSync("content/chapters")
    .filter((f) => f.endsWith(".md"))
    .sort();
}

/** The chapter file named on the command line, or exits 2 with the usage and the nearest slug. */
export function chapterFromArgs(command: string, arg: string | undefined): string {
  const chapters = chapterFiles();
  const file = arg === undefined ? undefined : findChapter(arg, chapters);
  if (!file) {
    const slugs = chapters.map(chapterSlug);
    const near = arg === undefined ? undefined : nearestName(chapterSlug(arg), slugs);
    if (arg !== undefined) console.error(`${command}: no chapter "${arg}"${near ? `; did you mean ${near}?` : ""}`);
    console.error(`usage: npm run ${command} -- <slug, file name or path>   (slugs: ${slugs.join(", ")})`);
    process.exit(2);
  }
  return file;
}

function main(): void {
  const file = chapterFromArgs("test:chapter", process.argv[2]);
  const slug = chapterSlug(file);
  const files = chapterTestFiles(file, readFileSync(path.join("content/chapters", file), "utf8"));
  if (files.length === 0) {
    // `node --test` with no file would run every test it can find.
    console.log(
      `test:chapter ${slug}: no tests for this chapter (no tests/chapters/${file.replace(/\.md$/, ".test.ts")} ` +
        "and no tests of the widgets it uses); write one when the chapter states a number (CONTRIBUTING.md)",
    );
    return;
  }
  console.log(`test:chapter ${slug}: ${files.join(" ")}`);
  const r = spawnSync(
    process.execPath,
    ["--import", "tsx", "--import", "./tests/helpers/fast-check-seed.ts", "--test", ...files],
    { stdio: "inherit" },
  );
  process.exit(r.status ?? 1);
}

if (import.meta.filename === process.argv[1]) main();
