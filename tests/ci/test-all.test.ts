/**
 * `npm test` (tools/test-all.ts) runs on two lanes at once and drops nothing: every check of the
 * sequence it replaced (typecheck, lint, unit, companion, site tests, build, PDF, browser tests)
 * is a step, every browser test file runs exactly once, and a step that needs the build or the
 * PDF waits for it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { steps } from "../../tools/test-all.ts";

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
