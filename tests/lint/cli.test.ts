/**
 * The prose lint's command line with file arguments (as the pre-commit hook and `npm run check`
 * run it): a path that does not exist fails, naming it, instead of checking nothing and passing.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";

test("a missing file fails the prose lint, named", () => {
  const r = spawnSync(
    process.execPath,
    ["--import", "tsx", "tools/lint/index.ts", "content/chapters/00-preface.md", "content/chapters/99-nope.md"],
    { encoding: "utf8" },
  );
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /^lint: no such file: content\/chapters\/99-nope\.md$/m);
});
