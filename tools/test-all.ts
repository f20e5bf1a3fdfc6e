/**
 * `npm test`: every check, as CI runs it (.ci/run), on two lanes at once. CI has two cores, and
 * each step is mostly one busy thread (tsc, ESLint, a build, a test runner) or a browser that
 * waits on pages; run one after another, as `npm test` did, they left a core idle most of the
 * time and took 22-26 minutes.
 *
 * Lane 1 is the long path: the build, then the browser tests on it. Lane 2 takes the rest in
 * order: typecheck, lint, unit tests, the companion's tests, the whole-site tests, then, once the
 * build is there, the HTML validation of every page, the PDF and its test, the sub-path
 * deployment test (which builds its own copy of the site) and two long browser test files, which
 * keep the lanes about even. Nothing is dropped: every step of the old sequence runs, and every test file once.
 *
 * Each step's output is printed when it ends (so two steps' lines do not interleave), with its
 * time; a failed step's output is printed whole, a step whose input failed is skipped, and the run
 * ends with a table of the steps' times and exits 1 if any failed. `npm test -- --list` prints
 * the steps without running them.
 */
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";

export interface Step {
  name: string;
  /** The command: an npm script (`npm run <script>`), or node with arguments. */
  command: readonly string[];
  lane: 1 | 2;
  /** Steps that must have passed first. */
  after?: readonly string[];
  env?: Record<string, string>;
}

/**
 * Files of tests/browser/ that lane 2 runs: the two that need no browser (every page through
 * html-validate; the PDF's bytes, after the PDF), the sub-path deployment's, which builds its own
 * copy of the site, and two long ones that keep the lanes about even (measured: docs/ci-time.md).
 */
const separateBrowserTests = [
  "tests/browser/html-valid.test.ts",
  "tests/browser/pdf.test.ts",
  "tests/browser/reader-base-path.test.ts",
];
const laneTwoBrowserTests = ["tests/browser/critical-css.test.ts", "tests/browser/stylesheet-minified.test.ts"];

/** The browser test files lane 1 runs, sorted: every file of tests/browser/ but the separate ones. */
export function laneOneBrowserTests(dir = "tests/browser"): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".test.ts"))
    .map((f) => path.posix.join(dir, f))
    .filter((f) => !separateBrowserTests.includes(f) && !laneTwoBrowserTests.includes(f))
    .sort();
}

const nodeTest = (files: readonly string[]) => [
  process.execPath,
  "--import",
  "tsx",
  "--test",
  "--test-concurrency=1",
  ...files,
];

export function steps(): Step[] {
  const npm = (script: string) => ["npm", "run", "-s", script];
  return [
    { name: "build", command: npm("build"), lane: 1 },
    { name: "browser tests", command: nodeTest(laneOneBrowserTests()), lane: 1, after: ["build"] },
    { name: "typecheck", command: npm("typecheck"), lane: 2 },
    { name: "lint", command: npm("lint"), lane: 2 },
    { name: "unit tests", command: npm("test:unit"), lane: 2 },
    { name: "companion tests", command: npm("test:companion"), lane: 2 },
    { name: "site tests", command: npm("test:site"), lane: 2 },
    { name: "html-validate", command: nodeTest(["tests/browser/html-valid.test.ts"]), lane: 2, after: ["build"] },
    { name: "pdf", command: npm("pdf"), lane: 2, after: ["build"] },
    { name: "pdf test", command: nodeTest(["tests/browser/pdf.test.ts"]), lane: 2, after: ["pdf"] },
    {
      name: "sub-path test",
      command: nodeTest(["tests/browser/reader-base-path.test.ts"]),
      lane: 2,
    },
    { name: "browser tests 2", command: nodeTest(laneTwoBrowserTests), lane: 2, after: ["build"] },
  ];
}

export interface Result {
  step: Step;
  ok: boolean;
  seconds: number;
  skipped?: string;
}

function run(step: Step): Promise<{ ok: boolean; seconds: number; output: string }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const [command, ...args] = step.command;
    const child = spawn(command!, args, {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...step.env },
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("close", (code) => resolve({ ok: code === 0, seconds: (performance.now() - started) / 1000, output }));
  });
}

/** A promise of each step's result, settled when the step ends (or is skipped). */
type Outcomes = Map<string, { promise: Promise<Result>; settle: (r: Result) => void }>;

async function lane(list: readonly Step[], outcomes: Outcomes): Promise<void> {
  for (const step of list) {
    const inputs = await Promise.all((step.after ?? []).map((name) => outcomes.get(name)!.promise));
    const failed = inputs.find((r) => !r.ok);
    let result: Result;
    if (failed) {
      console.log(`\n=== ${step.name}: skipped (${failed.step.name} failed)`);
      result = { step, ok: false, seconds: 0, skipped: `${failed.step.name} failed` };
    } else {
      const started = new Date().toISOString().slice(11, 19);
      const r = await run(step);
      const status = r.ok ? "ok" : "FAILED";
      console.log(`\n=== ${step.name}: ${status} (${r.seconds.toFixed(1)} s, lane ${step.lane}, from ${started} UTC)`);
      console.log(r.output.trimEnd());
      result = { step, ok: r.ok, seconds: r.seconds };
    }
    outcomes.get(step.name)!.settle(result);
  }
}

/**
 * Runs `all` on their lanes (each lane in order, the lanes at once); a step waits for its `after`
 * steps, whatever their lane, and is skipped when one failed. Returns every step's result, in the
 * order of `all`, and the wall time.
 */
export async function runSteps(all: readonly Step[]): Promise<{ results: Result[]; seconds: number }> {
  const started = performance.now();
  const outcomes: Outcomes = new Map();
  for (const s of all) {
    let settle!: (r: Result) => void;
    const promise = new Promise<Result>((resolve) => (settle = resolve));
    outcomes.set(s.name, { promise, settle });
  }
  const lanes = [...new Set(all.map((s) => s.lane))];
  await Promise.all(
    lanes.map((n) =>
      lane(
        all.filter((s) => s.lane === n),
        outcomes,
      ),
    ),
  );
  const results = await Promise.all(all.map((s) => outcomes.get(s.name)!.promise));
  return { results, seconds: (performance.now() - started) / 1000 };
}

async function main(): Promise<void> {
  const all = steps();
  if (process.argv.includes("--list")) {
    for (const s of all) console.log(`lane ${s.lane}: ${s.name}: ${s.command.join(" ")}`);
    return;
  }
  const { results, seconds } = await runSteps(all);
  console.log("\n=== npm test: time per step");
  for (const r of results) {
    const time = r.skipped ? "skipped" : `${r.seconds.toFixed(1)} s`;
    console.log(`${r.step.name.padEnd(18)} lane ${r.step.lane}  ${time}${r.ok || r.skipped ? "" : "  FAILED"}`);
  }
  const failed = results.filter((r) => !r.ok);
  console.log(
    `${"total (wall)".padEnd(18)}         ${seconds.toFixed(1)} s` +
      (failed.length ? `; failed: ${failed.map((r) => r.step.name).join(", ")}` : ""),
  );
  if (failed.length > 0) process.exitCode = 1;
}

if (import.meta.filename === process.argv[1]) await main();
