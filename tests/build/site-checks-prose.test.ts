/**
 * The build's check for citation syntax left unrendered (src/build/site-checks.ts): found in
 * prose, ignored in code and in KaTeX's TeX annotations, reported once per page even when an
 * article sits inside main (as on every chapter page and, seventeen times, on /book/).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { checkSite } from "../../src/build/site-checks.ts";

function check(body: string): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), "site-checks-"));
  try {
    const html = `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`;
    const page = { inputPath: "content/x.md", outputPath: path.join(dir, "x", "index.html"), url: "/x/", content: html };
    return checkSite([page], dir).map((p) => p.message);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("an unrendered citation in prose is reported once, even inside article inside main", () => {
  assert.deepEqual(check("<main><article><p>As shown [@smith2020x].</p></article><article><p>Fine.</p></article></main>"), [
    'unrendered citation "[@smith2020x]"',
  ]);
});

test("citation syntax in code, pre and math annotations is not prose", () => {
  const body =
    '<main><article><p>Write <code>[@key]</code>.</p><pre><code>[@a; @b]</code></pre>' +
    '<span class="katex"><math><semantics><mi>x</mi><annotation encoding="application/x-tex">[@x]</annotation></semantics></math></span></article></main>';
  assert.deepEqual(check(body), []);
});

test("text outside main and article is not checked", () => {
  assert.deepEqual(check("<header><p>[@not-checked]</p></header><main><p>ok</p></main>"), []);
});
