/** Last-change dates from git (src/plugins/site/git-dates.ts): the chapters' "Updated" dates and the sitemap. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gitLastModified, pageUpdated } from "../../src/plugins/site/git-dates.ts";

test("gitLastModified: each file's last commit date, not the clock; empty without a repository", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "git-dates-"));
  try {
    const git = (args: string[], date: string) =>
      execFileSync("git", args, {
        cwd: dir,
        stdio: "ignore",
        env: {
          ...process.env,
          GIT_AUTHOR_DATE: `${date}T12:00:00Z`,
          GIT_COMMITTER_DATE: `${date}T12:00:00Z`,
          GIT_AUTHOR_NAME: "t",
          GIT_AUTHOR_EMAIL: "t@example.invalid",
          GIT_COMMITTER_NAME: "t",
          GIT_COMMITTER_EMAIL: "t@example.invalid",
        },
      });
    assert.deepEqual(gitLastModified("content", dir), new Map(), "no repository: no dates");
    git(["init", "-q"], "2026-01-01");
    mkdirSync(path.join(dir, "content"));
    writeFileSync(path.join(dir, "content/a.md"), "a\n");
    writeFileSync(path.join(dir, "content/b.md"), "b\n");
    git(["add", "."], "2026-11-22");
    git(["commit", "-qm", "first"], "2026-11-22");
    writeFileSync(path.join(dir, "content/b.md"), "b, corrected\n");
    git(["commit", "-qam", "correct b"], "2026-11-25");
    writeFileSync(path.join(dir, "content/a.md"), "a, not committed yet\n");
    const dates = gitLastModified("content", dir);
    assert.deepEqual([...dates].sort(), [
      ["content/a.md", "2026-11-22"],
      ["content/b.md", "2026-11-25"],
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("pageUpdated: the file's date, never before publication, the book's date for a file git does not know", () => {
  const dates = new Map([
    ["content/chapters/08-five-d-parallelism.md", "2026-11-25"],
    ["content/chapters/old.md", "2026-10-01"],
  ]);
  assert.equal(
    pageUpdated("content/chapters/08-five-d-parallelism.md", dates, "2026-11-22", "2026-11-22"),
    "2026-11-25",
  );
  assert.equal(pageUpdated("content/chapters/old.md", dates, "2026-11-22", "2026-11-22"), "2026-11-22");
  assert.equal(pageUpdated("content/chapters/new.md", dates, "2026-11-22", "2026-11-30"), "2026-11-30");
});
