/**
 * Reproducible builds (issue #15): two clean builds of the same sources, into two different
 * fresh output folders, give byte-identical sites: same file list, same bytes. Causes this
 * guards against: build dates (the book's date is a constant in src/data/book.ts), random or
 * counter ids that depend on build order, unstable ordering (object keys, file listings,
 * bibliography), and output paths leaking into files. On failure it names every differing file
 * with the offset and a few bytes either side of the first difference.
 *
 * Each build runs in a child process with `SITE_DIR`, as `npm run build` does. It reads the
 * working tree, so an edit to content/ or src/ between the two builds would show up as a
 * difference: do not edit while it runs.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

async function buildInto(dir: string): Promise<void> {
  await run(
    process.execPath,
    ["--import", "tsx", "node_modules/@11ty/eleventy/cmd.cjs", "--config=.eleventy.ts", "--quiet"],
    {
      env: { ...process.env, SITE_DIR: dir },
      maxBuffer: 64 * 1024 * 1024,
    },
  );
}

function listFiles(root: string, dir = root): string[] {
  return readdirSync(dir)
    .flatMap((name) => {
      const full = path.join(dir, name);
      return statSync(full).isDirectory() ? listFiles(root, full) : [path.relative(root, full)];
    })
    .sort();
}

/** Where two buffers first differ, with context, or undefined when they are equal. */
function firstDifference(a: Buffer, b: Buffer): string | undefined {
  if (a.equals(b)) return undefined;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const show = (buf: Buffer) => JSON.stringify(buf.subarray(Math.max(0, i - 40), i + 40).toString("utf8"));
  return `sizes ${a.length} and ${b.length}, first difference at byte ${i}:\n    ${show(a)}\n    ${show(b)}`;
}

test("firstDifference names the offset and the bytes around it", () => {
  assert.equal(firstDifference(Buffer.from("same"), Buffer.from("same")), undefined);
  assert.equal(
    firstDifference(Buffer.from("abcX"), Buffer.from("abcY")),
    'sizes 4 and 4, first difference at byte 3:\n    "abcX"\n    "abcY"',
  );
});

test("two clean builds produce byte-identical sites", { timeout: 240_000 }, async () => {
  const tmp = os.tmpdir();
  const a = mkdtempSync(path.join(tmp, "repro-a-"));
  const b = mkdtempSync(path.join(tmp, "repro-b-"));
  try {
    // At once: each build is mostly one Node thread, and CI has two cores.
    await Promise.all([buildInto(a), buildInto(b)]);
    const filesA = listFiles(a);
    const filesB = listFiles(b);
    assert.ok(filesA.includes("index.html") && filesA.length > 20, `build wrote ${filesA.length} files`);
    assert.deepEqual(filesB, filesA, "same file list");
    const diffs: string[] = [];
    for (const f of filesA) {
      const d = firstDifference(readFileSync(path.join(a, f)), readFileSync(path.join(b, f)));
      if (d) diffs.push(`${f}: ${d}`);
    }
    assert.deepEqual(diffs, [], `differing files:\n${diffs.join("\n")}`);
    // The output folder's name must not leak into what was written.
    const leaks = filesA.filter((f) => readFileSync(path.join(a, f)).includes(path.basename(a)));
    assert.deepEqual(leaks, [], "files that mention the output folder");
  } finally {
    rmSync(a, { recursive: true, force: true });
    rmSync(b, { recursive: true, force: true });
  }
});
