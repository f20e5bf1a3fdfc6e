/**
 * The search index's files (src/plugins/search.ts): each build replaces `pagefind/` whole, so the
 * hash-named index files of an earlier build do not stay beside the new ones.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { writeSearchFiles } from "../../src/plugins/search.ts";

const bytes = (s: string) => new TextEncoder().encode(s);

test("writeSearchFiles replaces pagefind/ and leaves the rest of the output alone", () => {
  const out = mkdtempSync(path.join(os.tmpdir(), "search-files-"));
  try {
    mkdirSync(path.join(out, "pagefind", "index"), { recursive: true });
    writeFileSync(path.join(out, "pagefind", "index", "en_old.pf_index"), "stale");
    writeFileSync(path.join(out, "index.html"), "<p>home</p>");
    writeSearchFiles(out, [
      { path: "pagefind.js", content: bytes("js") },
      { path: "index/en_new.pf_index", content: bytes("new") },
    ]);
    assert.deepEqual(readdirSync(path.join(out, "pagefind", "index")), ["en_new.pf_index"]);
    assert.equal(readFileSync(path.join(out, "pagefind", "pagefind.js"), "utf8"), "js");
    assert.equal(readFileSync(path.join(out, "index.html"), "utf8"), "<p>home</p>");
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test("writeSearchFiles refuses a path that leaves pagefind/", () => {
  const out = mkdtempSync(path.join(os.tmpdir(), "search-files-"));
  try {
    assert.throws(() => writeSearchFiles(out, [{ path: "../index.html", content: bytes("x") }]), /outside pagefind/);
    assert.equal(existsSync(path.join(out, "index.html")), false);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
