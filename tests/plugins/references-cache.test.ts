/**
 * The disk cache of formatted references (src/plugins/markdown/bibliography.ts, src/plugins/shared/cache.ts):
 * citeproc's HTML for an entry is written under $BOOK_CACHE_DIR/references/ and read back
 * instead of running citeproc again; another cache folder starts empty.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { citeprocHtml, parseBibliography } from "../../src/plugins/markdown/bibliography.ts";

const bib = `@misc{cachetest2024,
  author = {Doe, Jane},
  title = {A Title Only This Test Uses},
  howpublished = {arXiv preprint arXiv:2401.00001},
  year = {2024},
  url = {https://arxiv.org/abs/2401.00001},
  note = {For the cache test.}
}
`;

test("citeproc's output is cached on disk by entry and formatter, and read back", () => {
  const before = process.env.BOOK_CACHE_DIR;
  const dirs = [mkdtempSync(path.join(os.tmpdir(), "refs-a-")), mkdtempSync(path.join(os.tmpdir(), "refs-b-"))];
  try {
    const csl = parseBibliography(bib).entries.get("cachetest2024")!.csl;
    process.env.BOOK_CACHE_DIR = dirs[0];
    const html = citeprocHtml(csl);
    assert.match(html, /class="csl-entry">Doe, J\. \(2024\)\. <i>A Title Only This Test Uses<\/i>/);
    const files = readdirSync(path.join(dirs[0]!, "references"));
    assert.equal(files.length, 1);
    assert.match(files[0]!, /^[0-9a-f]{32}\.html$/);
    assert.equal(readFileSync(path.join(dirs[0]!, "references", files[0]!), "utf8"), html);
    // Read back: a doctored file is what comes out.
    writeFileSync(path.join(dirs[0]!, "references", files[0]!), '<div class="csl-entry">from the cache</div>');
    assert.equal(citeprocHtml(csl), '<div class="csl-entry">from the cache</div>');
    // Another entry gets another file; another folder formats again.
    citeprocHtml({ ...csl, title: "Another Title" });
    assert.equal(readdirSync(path.join(dirs[0]!, "references")).length, 2);
    process.env.BOOK_CACHE_DIR = dirs[1];
    assert.equal(citeprocHtml(csl), html);
  } finally {
    if (before === undefined) delete process.env.BOOK_CACHE_DIR;
    else process.env.BOOK_CACHE_DIR = before;
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
});
