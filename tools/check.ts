/**
 * `npm run check -- <chapter>`: the one command to run before a pull request that changes a
 * chapter (named by its slug, file name or path, as for `npm run test:chapter`). It
 *
 * 1. builds the book (`npm run build`: every build check, one line per mistake), typechecks
 *    (`npm run typecheck`), lints the files changed on this branch (the prose lint on the
 *    chapter and on changed Markdown and bibliography, ESLint and Prettier on changed code) and
 *    runs the chapter's unit tests (tools/test-chapter.ts), all at once;
 * 2. then, on the build, the browser tests of the chapter's widgets (tests/browser/<widget>.test.ts
 *    and tests/browser/<slug>.test.ts).
 *
 * It prints one line per step as it ends, the output of each step that failed, and exits 1 if
 * any did. "Changed" means changed against the branch point from `origin/main` (or `main`),
 * committed or not, plus untracked files. `npm test` runs everything, as CI does.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { chapterBrowserTestFiles, chapterFromArgs, chapterSlug, chapterTestFiles } from "./test-chapter.ts";

interface StepResult {
  name: string;
  ok: boolean;
  seconds: number;
  output: string;
  skipped?: string;
}

/** Runs a command (no shell), collecting its output; resolves when it exits. */
function run(name: string, command: string, args: readonly string[]): Promise<StepResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1" },
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("close", (code) => {
      const result = { name, ok: code === 0, seconds: (performance.now() - started) / 1000, output };
      report(result);
      resolve(result);
    });
  });
}

function skip(name: string, why: string): StepResult {
  const result = { name, ok: true, seconds: 0, output: "", skipped: why };
  report(result);
  return result;
}

function report(r: StepResult): void {
  const status = r.skipped !== undefined ? `skipped (${r.skipped})` : r.ok ? "ok" : "FAILED";
  console.log(`check: ${r.name}: ${status}${r.skipped === undefined ? ` (${r.seconds.toFixed(1)} s)` : ""}`);
}

const git = (...args: string[]): string[] => {
  const r = spawnSync("git", args, { encoding: "utf8" });
  return r.status === 0 ? r.stdout.split("\n").filter(Boolean) : [];
};

/** Files changed against the branch point from origin/main (or main), committed or not, and untracked ones. */
export function changedFiles(): string[] {
  const base = ["origin/main", "main"].map((ref) => git("merge-base", "HEAD", ref)[0]).find(Boolean) ?? "HEAD";
  const files = [
    ...git("diff", "--name-only", "--diff-filter=ACMR", base),
    ...git("ls-files", "--others", "--exclude-standard"),
  ];
  return [...new Set(files)].filter((f) => existsSync(f)).sort();
}

/** What each linter gets of the changed files (and the chapter, always read by the prose lint). */
export function lintTargets(changed: readonly string[], chapterPath: string) {
  const prose = [...new Set([chapterPath, ...changed.filter((f) => /\.(md|bib)$/.test(f))])];
  const code = changed.filter((f) => /\.(ts|js|mjs|cjs)$/.test(f));
  // The files `npm run format:check` covers.
  const formatted = code.filter(
    (f) => /^(src|tools|tests|harness)\/.*\.ts$/.test(f) || f === ".eleventy.ts" || f === "eslint.config.js",
  );
  return { prose, code, formatted };
}

async function main(): Promise<void> {
  const file = chapterFromArgs("check", process.argv[2]);
  const slug = chapterSlug(file);
  const chapterPath = path.join("content/chapters", file);
  const markdown = readFileSync(chapterPath, "utf8");
  const started = performance.now();
  const node = process.execPath;
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const { prose, code, formatted } = lintTargets(changedFiles(), chapterPath);
  const unitTests = chapterTestFiles(file, markdown);
  const browserTests = chapterBrowserTestFiles(file, markdown);
  console.log(`check ${slug}: build, typecheck, lint (${prose.length + code.length} files), tests`);

  const lint = async (): Promise<StepResult> => {
    const steps = [run("prose lint", node, ["--import", "tsx", "tools/lint/index.ts", ...prose])];
    if (code.length > 0) {
      steps.push(
        run("ESLint", node, [
          "node_modules/eslint/bin/eslint.js",
          "--max-warnings",
          "0",
          "--no-warn-ignored",
          "--cache",
          "--cache-location",
          ".cache/eslint/",
          ...code,
        ]),
      );
    }
    if (formatted.length > 0) {
      steps.push(run("Prettier", node, ["node_modules/prettier/bin/prettier.cjs", "--check", ...formatted]));
    }
    const results = await Promise.all(steps);
    return {
      name: "lint",
      ok: results.every((r) => r.ok),
      seconds: Math.max(...results.map((r) => r.seconds)),
      output: results
        .filter((r) => !r.ok)
        .map((r) => r.output)
        .join("\n"),
    };
  };

  const [build, ...rest] = await Promise.all([
    run("build", npm, ["run", "-s", "build"]),
    run("typecheck", npm, ["run", "-s", "typecheck"]),
    lint(),
    unitTests.length > 0
      ? run(`chapter tests (${unitTests.length} files)`, node, [
          "--import",
          "tsx",
          "--import",
          "./tests/helpers/fast-check-seed.ts",
          "--test",
          ...unitTests,
        ])
      : Promise.resolve(skip("chapter tests", `no tests/chapters/${file.replace(/\.md$/, ".test.ts")}`)),
  ]);
  const browser =
    browserTests.length === 0
      ? skip("browser tests", "no widget of this chapter has one")
      : !build!.ok
        ? skip("browser tests", "the build failed")
        : await run(`browser tests (${browserTests.join(", ")})`, node, [
            "--import",
            "tsx",
            "--test",
            "--test-concurrency=1",
            ...browserTests,
          ]);
  const results = [build!, ...rest, browser];
  const failed = results.filter((r) => !r.ok);
  for (const r of failed) console.log(`\n--- ${r.name} ---\n${r.output.trimEnd()}`);
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  console.log(
    failed.length === 0
      ? `\ncheck ${slug}: all passed in ${seconds} s`
      : `\ncheck ${slug}: ${failed.map((r) => r.name).join(", ")} failed (${seconds} s)`,
  );
  if (failed.length > 0) process.exitCode = 1;
}

if (import.meta.filename === process.argv[1]) await main();
