/**
 * `npm test`: every check, as CI runs it (.ci/run), on two lanes at once. CI has two cores, and
 * each step is mostly one busy thread (tsc, ESLint, a build, a test runner) or a browser that
 * waits on pages; run one after another, as `npm test` did, they left a core idle most of the
 * time and took 22-26 minutes (docs/ci-time.md).
 *
 * Lane 1 builds the site. Lane 2 runs typecheck, lint, the unit tests, the companion's tests and
 * the whole-site tests, then, once the build is there, prints the PDF and tests it. The browser
 * test files (tests/browser/, each run on its own with node's test runner) form one queue, the
 * longest first: lane 1 takes files from it as soon as the build is done, lane 2 once its own
 * steps are, so the two lanes end together whatever the machine's speed. Nothing is dropped:
 * every step of the old sequence runs, and every browser test file once.
 *
 * Each step's and each file's output is printed when it ends (so two lanes' lines do not
 * interleave), with its time; a step whose input failed is skipped. The run ends with a table of
 * every step's and file's time, and exits 1 if any failed. `npm test -- --list` prints the plan.
 */
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";

export interface Step {
  name: string;
  /** The command: an npm script (`npm run -s <script>`), or node with arguments. */
  command: readonly string[];
  lane: 1 | 2;
  /** Steps that must have passed first (in either lane). */
  after?: readonly string[];
}

export interface Plan {
  steps: Step[];
  /** Browser test files, the longest first; each lane takes the next once its steps are done. */
  queue: string[];
  /** Files of the queue that wait for a step (the PDF's test for the PDF). */
  queueAfter: Record<string, string>;
}

/**
 * The browser test files measured longest (docs/ci-time.md), longest first: they start the queue
 * so that no lane is left with a long file at the end. The others follow in name order.
 */
const longestFirst = [
  "tests/browser/a11y.test.ts",
  "tests/browser/critical-css.test.ts",
  "tests/browser/stylesheet-minified.test.ts",
  "tests/browser/widget-fuzz.test.ts",
  "tests/browser/html-valid.test.ts",
  "tests/browser/site.test.ts",
  "tests/browser/exercise-check.test.ts",
  "tests/browser/scroll-cue.test.ts",
];

/** Every test file of tests/browser/, the longest first, then by name. */
export function browserQueue(dir = "tests/browser"): string[] {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".test.ts"))
    .map((f) => path.posix.join(dir, f))
    .sort();
  return [...longestFirst.filter((f) => files.includes(f)), ...files.filter((f) => !longestFirst.includes(f))];
}

const pdfTest = "tests/browser/pdf.test.ts";

export function plan(): Plan {
  const npm = (script: string) => ["npm", "run", "-s", script];
  return {
    steps: [
      { name: "build", command: npm("build"), lane: 1 },
      { name: "typecheck", command: npm("typecheck"), lane: 2 },
      { name: "lint", command: npm("lint"), lane: 2 },
      { name: "unit tests", command: npm("test:unit"), lane: 2 },
      { name: "companion tests", command: npm("test:companion"), lane: 2 },
      { name: "site tests", command: npm("test:site"), lane: 2 },
      { name: "pdf", command: npm("pdf"), lane: 2, after: ["build"] },
    ],
    // The PDF's test last, so that no lane waits for the PDF while other files are left.
    queue: [...browserQueue().filter((f) => f !== pdfTest), pdfTest],
    queueAfter: { [pdfTest]: "pdf" },
  };
}

/** A browser test file run on its own, as `npm run test:browser` runs each. */
export function browserTestCommand(file: string): string[] {
  return [process.execPath, "--import", "tsx", "--test", "--test-concurrency=1", file];
}

export interface Result {
  name: string;
  lane: number;
  ok: boolean;
  seconds: number;
  skipped?: string;
}

function run(command: readonly string[]): Promise<{ ok: boolean; seconds: number; output: string }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const [cmd, ...args] = command;
    const child = spawn(cmd!, args, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("close", (code) => resolve({ ok: code === 0, seconds: (performance.now() - started) / 1000, output }));
  });
}

/** A promise of each step's result, settled when the step ends (or is skipped). */
type Outcomes = Map<string, { promise: Promise<Result>; settle: (r: Result) => void }>;

/** Runs one step or file once its inputs have passed, prints its output, and returns its result. */
async function runOne(
  name: string,
  lane: number,
  command: readonly string[],
  after: readonly string[],
  outcomes: Outcomes,
): Promise<Result> {
  const inputs = await Promise.all(after.map((input) => outcomes.get(input)!.promise));
  const failed = inputs.find((r) => !r.ok);
  if (failed) {
    console.log(`\n=== ${name}: skipped (${failed.name} failed)`);
    return { name, lane, ok: false, seconds: 0, skipped: `${failed.name} failed` };
  }
  const started = new Date().toISOString().slice(11, 19);
  const r = await run(command);
  console.log(
    `\n=== ${name}: ${r.ok ? "ok" : "FAILED"} (${r.seconds.toFixed(1)} s, lane ${lane}, from ${started} UTC)`,
  );
  console.log(r.output.trimEnd());
  return { name, lane, ok: r.ok, seconds: r.seconds };
}

/**
 * Runs a plan: each lane its steps in order, then files from the shared queue until it is empty
 * (lane 1's steps are only the build, which every browser test reads). A step waits for its
 * `after` steps, whatever their lane, and is skipped when one failed; so is every browser test
 * when the build failed. Returns every result (steps in plan order, then files as they ended)
 * and the wall time.
 */
export async function runPlan(p: Plan): Promise<{ results: Result[]; seconds: number }> {
  const started = performance.now();
  const outcomes: Outcomes = new Map();
  for (const s of p.steps) {
    let settle!: (r: Result) => void;
    const promise = new Promise<Result>((resolve) => (settle = resolve));
    outcomes.set(s.name, { promise, settle });
  }
  const queue = [...p.queue];
  const fileResults: Result[] = [];
  const lane = async (n: 1 | 2) => {
    for (const s of p.steps.filter((step) => step.lane === n)) {
      outcomes.get(s.name)!.settle(await runOne(s.name, n, s.command, s.after ?? [], outcomes));
    }
    // The build is every browser test's input.
    const buildStep = p.steps.find((s) => s.name === "build");
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      const after = [...(buildStep ? ["build"] : []), ...(p.queueAfter[file] ? [p.queueAfter[file]!] : [])];
      fileResults.push(await runOne(file, n, browserTestCommand(file), after, outcomes));
    }
  };
  await Promise.all([lane(1), lane(2)]);
  const stepResults = await Promise.all(p.steps.map((s) => outcomes.get(s.name)!.promise));
  return { results: [...stepResults, ...fileResults], seconds: (performance.now() - started) / 1000 };
}

async function main(): Promise<void> {
  const p = plan();
  if (process.argv.includes("--list")) {
    for (const s of p.steps) console.log(`lane ${s.lane}: ${s.name}: ${s.command.join(" ")}`);
    console.log(`then both lanes: ${p.queue.join(" ")}`);
    return;
  }
  const { results, seconds } = await runPlan(p);
  console.log("\n=== npm test: time per step and per browser test file");
  for (const r of results) {
    const time = r.skipped ? "skipped" : `${r.seconds.toFixed(1)} s`;
    console.log(`${r.name.padEnd(44)} lane ${r.lane}  ${time}${r.ok || r.skipped ? "" : "  FAILED"}`);
  }
  const failed = results.filter((r) => !r.ok);
  console.log(
    `${"total (wall)".padEnd(44)}         ${seconds.toFixed(1)} s` +
      (failed.length ? `; failed: ${failed.map((r) => r.name).join(", ")}` : ""),
  );
  if (failed.length > 0) process.exitCode = 1;
}

if (import.meta.filename === process.argv[1]) await main();
