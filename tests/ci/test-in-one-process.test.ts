/**
 * `npm run test:unit` runs the unit test files in one process (tools/test-in-one-process.ts) and
 * still fails as `node --test` does: a failing test, or a file that does not load, makes the run
 * exit with 1 and is named in its report, and the other files' tests still run. package.json's
 * script runs every unit test file through it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

function runner(files: string[]) {
  return spawnSync(process.execPath, ["--import", "tsx", "tools/test-in-one-process.ts", ...files], {
    encoding: "utf8",
    env: { ...process.env, NODE_TEST_CONTEXT: undefined },
  });
}

test("a failing test or a file that does not load fails the run, names itself, and the rest still run", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "one-process-"));
  try {
    const file = (name: string, text: string) => {
      writeFileSync(path.join(dir, name), text);
      return path.join(dir, name);
    };
    const passes = file("a.test.ts", 'import { test } from "node:test";\ntest("a passes", () => {});\n');
    const fails = file(
      "b.test.ts",
      'import { test } from "node:test";\nimport assert from "node:assert/strict";\ntest("b fails", () => assert.equal(1, 2));\n',
    );
    const broken = file("c.test.ts", 'import "./missing-module.ts";\n');
    const last = file("d.test.ts", 'import { test } from "node:test";\ntest("d passes too", () => {});\n');

    const ok = runner([passes, last]);
    assert.equal(ok.status, 0, ok.stdout + ok.stderr);
    assert.match(ok.stdout, /# pass 2\n/);

    const bad = runner([passes, fails, broken, last]);
    assert.equal(bad.status, 1, bad.stdout + bad.stderr);
    assert.match(bad.stdout, /^ok \d+ - a passes$/m);
    assert.match(bad.stdout, /^not ok \d+ - b fails$/m);
    assert.match(bad.stdout, new RegExp(`^not ok \\d+ - ${broken.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} loads$`, "m"));
    assert.match(bad.stdout, /^ok \d+ - d passes too$/m);
    assert.match(bad.stdout, /# fail 2\n/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("an option after the script is refused, not read as a file", () => {
  const r = runner(["--test-name-pattern=x"]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /give node's options before the script/);
});

test("test:unit runs every unit test file, in one process", () => {
  const script = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts[
    "test:unit"
  ]!;
  assert.match(
    script,
    /tools\/test-in-one-process\.ts \$\(find tests -name '\*\.test\.ts' -not -path 'tests\/browser\/\*' -not -path 'tests\/site\/\*' \| sort\)$/,
  );
  assert.doesNotMatch(script, /--test\b/);
});
