/**
 * `npm run test:chapter -- <slug>`: the tests of one chapter, in seconds: its prose tests
 * (tests/chapters/NN-<slug>.test.ts) and the tests of the widgets it uses (`::: widget name` in
 * content/chapters/NN-<slug>.md → tests/figures/<name>.test.ts and tests/model/<name>.test.ts,
 * where they exist, plus the files `widgetTests` lists for it: tests named after another module
 * the widget draws with or computes from). Browser tests need a build and are not run here.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

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

function main(): void {
  const slug = process.argv[2];
  const chapters = readdirSync("content/chapters").filter((f) => f.endsWith(".md"));
  const file = chapters.find((f) => f.replace(/^[0-9a-z]\d-/, "").replace(/\.md$/, "") === slug);
  if (!slug || !file) {
    const slugs = chapters.map((f) => f.replace(/^[0-9a-z]\d-/, "").replace(/\.md$/, ""));
    console.error(`usage: npm run test:chapter -- <slug>   (one of: ${slugs.join(", ")})`);
    process.exit(2);
  }
  const files = chapterTestFiles(file, readFileSync(path.join("content/chapters", file), "utf8"));
  console.log(`test:chapter ${slug}: ${files.join(" ")}`);
  const r = spawnSync(
    process.execPath,
    ["--import", "tsx", "--import", "./tests/helpers/fast-check-seed.ts", "--test", ...files],
    { stdio: "inherit" },
  );
  process.exit(r.status ?? 1);
}

if (import.meta.filename === process.argv[1]) main();
