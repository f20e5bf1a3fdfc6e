/**
 * The build's check for citation syntax left unrendered (src/plugins/after-build/site-checks.ts): found in
 * prose, ignored in code and in KaTeX's TeX annotations, reported once per page even when an
 * article sits inside main (as on every chapter page and, seventeen times, on /book/); and the
 * one-pass page scan the checks read (ids, links, loaded files, prose).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { checkSite, scanPage } from "../../src/plugins/after-build/site-checks.ts";

function check(body: string): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), "site-checks-"));
  try {
    const html = `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`;
    const page = {
      inputPath: "content/x.md",
      outputPath: path.join(dir, "x", "index.html"),
      url: "/x/",
      content: html,
    };
    return checkSite([page], dir).map((p) => p.message);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("an unrendered citation in prose is reported once, even inside article inside main", () => {
  assert.deepEqual(
    check("<main><article><p>As shown [@smith2020x].</p></article><article><p>Fine.</p></article></main>"),
    ['unrendered citation "[@smith2020x]"'],
  );
});

test("citation syntax in code, pre and math annotations is not prose", () => {
  const body =
    "<main><article><p>Write <code>[@key]</code>.</p><pre><code>[@a; @b]</code></pre>" +
    '<span class="katex"><math><semantics><mi>x</mi><annotation encoding="application/x-tex">[@x]</annotation></semantics></math></span></article></main>';
  assert.deepEqual(check(body), []);
});

test("text outside main and article is not checked", () => {
  assert.deepEqual(check("<header><p>[@not-checked]</p></header><main><p>ok</p></main>"), []);
});

test("scanPage reads ids, links and loaded files with entities decoded, inside SVG and math too", () => {
  const scan = scanPage(
    '<!doctype html><html><head><link rel="stylesheet" href="/a.css"><script src="/b.js?v=1&amp;x=2"></script></head><body>' +
      '<main id="m"><p id="p:1">Text <a href="#fig&#58;x">fig</a> <img src="i.svg" alt=""></p>' +
      '<svg><use href="#g"/><g id="g"/><a href="/svg-link/">s</a></svg><math><mi id="mi">x</mi></math></main>' +
      '<footer><a href="https://example.org/?a=1&amp;b=2">ext</a></footer></body></html>',
  );
  assert.deepEqual([...scan.ids], ["m", "p:1", "g", "mi"]);
  assert.deepEqual(scan.refs, [
    ["/a.css", "link"],
    ["/b.js?v=1&x=2", "script"],
    ["#fig:x", "a"],
    ["i.svg", "img"],
    ["/svg-link/", "a"],
    ["https://example.org/?a=1&b=2", "a"],
  ]);
  assert.deepEqual(scan.inlineScripts, []);
  assert.deepEqual(scan.prose, ["Text fig sx"]);
});
