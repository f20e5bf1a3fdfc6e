/**
 * `npm run lint`: the prose quality gate. Checks every Markdown file under content/, the
 * bibliography and the configured prose data files; prints one line per finding
 * (`file:line:col  rule  message → suggestion`) and a summary, and exits 1 on any finding.
 * With file arguments (`node --import tsx tools/lint/index.ts content/chapters/03-x.md …`, as the
 * pre-commit hook runs it) only those of its files are checked; other paths are ignored, and a
 * path that does not exist fails.
 * See docs/prose-checks.md (the "Prose checks" section for CONTRIBUTING.md).
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { lintConfig } from "./config.ts";
import { formatFinding } from "./findings.ts";
import { lint } from "./run.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const started = performance.now();
const args = process.argv.slice(2);
// A file named that is not there (a typo, a renamed chapter) fails: checking nothing is no pass.
const missing = args.filter((a) => !existsSync(path.resolve(a)));
if (missing.length > 0) {
  for (const a of missing) console.log(`lint: no such file: ${a}`);
  process.exit(1);
}
const only =
  args.length > 0
    ? new Set(args.map((a) => path.relative(root, path.resolve(a)).split(path.sep).join("/")))
    : undefined;
const { findings, files } = await lint(lintConfig, root, only);
for (const f of findings) console.log(formatFinding(f));
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(
  `lint: ${findings.length} finding${findings.length === 1 ? "" : "s"} in ${files.length} file${files.length === 1 ? "" : "s"} (${seconds} s)`,
);
if (findings.length > 0) {
  console.log("To accept a correct word, add it to cspell/project-words.txt (sorted); to excuse one line, put");
  console.log("<!-- lint-ignore <rule>: <reason> --> on the line above. See docs/prose-checks.md.");
  process.exitCode = 1;
}
