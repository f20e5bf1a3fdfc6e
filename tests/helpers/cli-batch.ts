/**
 * Runs `npm run model` (src/cli/model.ts) once per argument list, all in one child Node process:
 * the CLI reads `process.argv` and writes to stdout and stderr when its module is evaluated, so the
 * child sets `process.argv`, captures both streams and imports the module afresh for each run (a
 * query string makes each import a new module instance; the model it imports is shared). The real
 * CLI code runs every time; only the Node start-up is paid once, so a test can ask it hundreds of
 * questions.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

export interface CliRun {
  /** The exit status the CLI set (0 ok, 1 bad input, 2 usage). */
  status: number;
  stdout: string;
  stderr: string;
}

const runner = (cliUrl: string) => `
const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const runs = JSON.parse(Buffer.concat(chunks).toString("utf8"));
const out = [];
const write = process.stdout.write.bind(process.stdout);
const writeErr = process.stderr.write.bind(process.stderr);
for (const [i, args] of runs.entries()) {
  let so = "";
  let se = "";
  process.stdout.write = (c) => { so += c; return true; };
  process.stderr.write = (c) => { se += c; return true; };
  process.argv = [process.argv[0], ${JSON.stringify(cliUrl)}, ...args];
  process.exitCode = 0;
  try {
    await import(${JSON.stringify(cliUrl)} + "?run=" + i);
  } finally {
    process.stdout.write = write;
    process.stderr.write = writeErr;
  }
  out.push({ status: process.exitCode ?? 0, stdout: so, stderr: se });
}
process.exitCode = 0;
write(JSON.stringify(out));
`;

/** Runs the CLI with each argument list; returns each run's status and output, in order. */
export function runCliBatch(runs: readonly (readonly string[])[]): CliRun[] {
  const dir = mkdtempSync(path.join(tmpdir(), "cli-batch-"));
  try {
    const script = path.join(dir, "runner.mjs");
    writeFileSync(script, runner(pathToFileURL(path.resolve("src/cli/model.ts")).href));
    const child = spawnSync(process.execPath, ["--import", "tsx", script], {
      input: JSON.stringify(runs),
      encoding: "utf8",
      maxBuffer: 1 << 30,
    });
    if (child.status !== 0) throw new Error(`cli-batch: the runner failed: ${child.stderr}`);
    return JSON.parse(child.stdout) as CliRun[];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
