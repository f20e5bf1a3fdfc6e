/**
 * `npm run test:chapter -- <slug>`: the tests of one chapter, in seconds: its prose tests
 * (tests/chapters/NN-<slug>.test.ts) and the tests of the widgets it uses (`::: widget name` in
 * content/chapters/NN-<slug>.md → tests/figures/<name>.test.ts and tests/model/<name>.test.ts,
 * where they exist). Browser tests need a build and are not run here.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const slug = process.argv[2];
const chapters = readdirSync("content/chapters").filter((f) => f.endsWith(".md"));
const file = chapters.find((f) => f.replace(/^[0-9a-z]\d-/, "").replace(/\.md$/, "") === slug);
if (!slug || !file) {
  const slugs = chapters.map((f) => f.replace(/^[0-9a-z]\d-/, "").replace(/\.md$/, ""));
  console.error(`usage: npm run test:chapter -- <slug>   (one of: ${slugs.join(", ")})`);
  process.exit(2);
}
const widgets = new Set(
  [...readFileSync(path.join("content/chapters", file), "utf8").matchAll(/^:::+\s*widget\s+([a-z0-9-]+)/gm)].map(
    (m) => m[1]!,
  ),
);
const candidates = [
  path.join("tests/chapters", file.replace(/\.md$/, ".test.ts")),
  ...[...widgets].flatMap((w) => [
    path.join("tests/figures", `${w}.test.ts`),
    path.join("tests/model", `${w}.test.ts`),
  ]),
];
const files = candidates.filter((f) => existsSync(f));
console.log(`test:chapter ${slug}: ${files.join(" ")}`);
const r = spawnSync(
  process.execPath,
  ["--import", "tsx", "--import", "./tests/helpers/fast-check-seed.ts", "--test", ...files],
  { stdio: "inherit" },
);
process.exit(r.status ?? 1);
