/**
 * `npm test` (tools/test-all.ts) runs on two lanes at once and drops nothing: every check of the
 * sequence it replaced (typecheck, lint, unit, companion, site tests, build, PDF, browser tests)
 * is a step, every browser test file runs exactly once, and a step that needs the build or the
 * PDF waits for it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { runSteps, steps, type Result } from "../../tools/test-all.ts";

test("every check of the old sequence is a step, each browser test file runs once", () => {
  const all = steps();
  const scripts = all.flatMap((s) => (s.command[0] === "npm" ? [s.command.at(-1)!] : []));
  for (const script of ["typecheck", "lint", "test:unit", "test:companion", "test:site", "build", "pdf"]) {
    assert.ok(scripts.includes(script), `npm run ${script} is a step`);
  }
  const browserFiles = all.flatMap((s) => s.command.filter((a) => a.startsWith("tests/browser/")));
  const expected = readdirSync("tests/browser")
    .filter((f) => f.endsWith(".test.ts"))
    .map((f) => `tests/browser/${f}`)
    .sort();
  assert.deepEqual([...browserFiles].sort(), expected);
});

test("steps wait for what they read: the build, then the PDF", () => {
  const all = steps();
  const byName = new Map(all.map((s) => [s.name, s]));
  for (const s of all) {
    for (const input of s.after ?? []) assert.ok(byName.has(input), `${s.name} waits for ${input}, which is a step`);
    const files = s.command.filter((a) => a.startsWith("tests/browser/"));
    const needsSite = files.some((f) => f !== "tests/browser/reader-base-path.test.ts");
    if (needsSite || s.name === "pdf") assert.ok(s.after?.includes("build") || s.after?.includes("pdf"), s.name);
  }
  assert.deepEqual(byName.get("pdf test")?.after, ["pdf"]);
  // Within a lane steps run in order, so a step may only wait for one listed before it or in the other lane.
  for (const [i, s] of all.entries()) {
    for (const input of s.after ?? []) {
      const at = all.findIndex((t) => t.name === input);
      assert.ok(all[at]!.lane !== s.lane || at < i, `${s.name} would wait for ${input}, later in its own lane`);
    }
  }
});

test("the lanes run at once; a step waits for its input in the other lane and is skipped when it failed", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "test-all-"));
  const order = path.join(dir, "order");
  // Each step notes its name in `order` when it ends, after `ms`.
  const step = (name: string, ms: number, code = 0) => [
    process.execPath,
    "-e",
    `setTimeout(() => { require("node:fs").appendFileSync(${JSON.stringify(order)}, ${JSON.stringify(name)} + "\\n"); process.exit(${code}); }, ${ms})`,
  ];
  const log = console.log;
  console.log = () => undefined; // runSteps prints each step's output
  let results: Result[];
  try {
    ({ results } = await runSteps([
      { name: "slow build", command: step("slow build", 3000), lane: 1 },
      { name: "broken", command: step("broken", 0, 1), lane: 1 },
      { name: "quick", command: step("quick", 0), lane: 2 },
      { name: "needs the build", command: step("needs the build", 0), lane: 2, after: ["slow build"] },
      { name: "needs broken", command: step("needs broken", 0), lane: 2, after: ["broken"] },
    ]));
  } finally {
    console.log = log;
  }
  const by = new Map(results.map((r) => [r.step.name, r]));
  assert.equal(by.get("slow build")?.ok, true);
  assert.equal(by.get("broken")?.ok, false);
  assert.equal(by.get("needs the build")?.ok, true);
  assert.equal(by.get("needs broken")?.skipped, "broken failed");
  const ended = readFileSync(order, "utf8").trim().split("\n");
  assert.ok(
    ended.indexOf("quick") < ended.indexOf("slow build"),
    `lane 2 did not wait for lane 1: ${ended.join(", ")}`,
  );
  assert.ok(
    ended.indexOf("slow build") < ended.indexOf("needs the build"),
    `the build came first: ${ended.join(", ")}`,
  );
  assert.ok(!ended.includes("needs broken"), "skipped");
  rmSync(dir, { recursive: true, force: true });
});
