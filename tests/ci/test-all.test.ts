/**
 * `npm test` (tools/test-all.ts) runs on two lanes at once and drops nothing: every check of the
 * sequence it replaced (typecheck, lint, unit, companion, site tests, build, PDF, browser tests)
 * is a step, every browser test file is in the shared queue exactly once, the longest first, and a
 * step or file that needs the build or the PDF waits for it; when an input fails, what needs it
 * is skipped.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { plan, runPlan, type Plan, type Result } from "../../tools/test-all.ts";

test("every check of the old sequence is a step; every browser test file is queued once", () => {
  const p = plan();
  const scripts = p.steps.map((s) => s.command.at(-1));
  for (const script of ["build", "typecheck", "lint", "test:unit", "test:companion", "test:site", "pdf"]) {
    assert.ok(scripts.includes(script), `npm run ${script} is a step`);
  }
  const files = readdirSync("tests/browser")
    .filter((f) => f.endsWith(".test.ts"))
    .map((f) => `tests/browser/${f}`)
    .sort();
  assert.deepEqual([...p.queue].sort(), files);
  assert.equal(p.queue[0], "tests/browser/a11y.test.ts", "the longest first");
  assert.equal(p.queue.at(-1), "tests/browser/pdf.test.ts", "the PDF's test last");
  assert.deepEqual(p.queueAfter, { "tests/browser/pdf.test.ts": "pdf" });
  const byName = new Map(p.steps.map((s) => [s.name, s]));
  assert.deepEqual(byName.get("pdf")?.after, ["build"]);
  for (const s of p.steps) for (const input of s.after ?? []) assert.ok(byName.has(input), `${s.name}: ${input}`);
});

test("the lanes run at once, share the queue, and skip what needs a failed step", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "test-all-"));
  const order = path.join(dir, "order");
  // Each command notes its name in `order` when it ends, after `ms`.
  const note = (name: string, ms: number, code = 0) => [
    process.execPath,
    "-e",
    `setTimeout(() => { require("node:fs").appendFileSync(${JSON.stringify(order)}, ${JSON.stringify(name)} + "\\n"); process.exit(${code}); }, ${ms})`,
  ];
  const p: Plan = {
    steps: [
      { name: "build", command: note("build", 2500), lane: 1 },
      { name: "quick", command: note("quick", 0), lane: 2 },
      { name: "broken", command: note("broken", 0, 1), lane: 2 },
    ],
    queue: ["tests/none-a.test.ts", "tests/none-b.test.ts", "tests/none-c.test.ts"],
    queueAfter: { "tests/none-c.test.ts": "broken" },
  };
  const log = console.log;
  console.log = () => undefined; // runPlan prints each step's output
  let results: Result[];
  try {
    ({ results } = await runPlan(p));
  } finally {
    console.log = log;
  }
  const by = new Map(results.map((r) => [r.name, r]));
  const ended = readFileSync(order, "utf8").trim().split("\n");
  assert.ok(ended.indexOf("quick") < ended.indexOf("build"), `lane 2 did not wait for lane 1: ${ended.join(", ")}`);
  assert.equal(by.get("broken")?.ok, false);
  // Lane 2, done first, took the first file and waited with it for the build; lane 1 took the
  // next once the build was done. The one that needs "broken" was skipped. (The files do not
  // exist, so their runs fail.)
  assert.equal(by.get("tests/none-a.test.ts")?.lane, 2);
  assert.equal(by.get("tests/none-b.test.ts")?.lane, 1);
  assert.equal(by.get("tests/none-a.test.ts")?.skipped, undefined);
  assert.equal(by.get("tests/none-c.test.ts")?.skipped, "broken failed");
  rmSync(dir, { recursive: true, force: true });
});
