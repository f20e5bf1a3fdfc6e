/** Heading permalinks (src/plugins/permalinks.ts): only h2/h3 with ids, only in the chapter body, once. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { addHeadingPermalinks } from "../../src/plugins/permalinks.ts";

const page = (body: string, outside = "") =>
  `<html><body><header><h2 id="nav">Site</h2></header><article><div class="chapter-body">${body}</div></article>${outside}</body></html>`;

test("h2 and h3 with ids in the chapter body get a trailing # link", () => {
  const out = addHeadingPermalinks(page('<h2 id="sec:a" data-number="1.1"><span class="secnum">1.1</span> A</h2><h3 id="b">B</h3><h4 id="c">C</h4><h2>No id</h2>'));
  assert.ok(out.includes('<h2 id="sec:a" data-number="1.1"><span class="secnum">1.1</span> A<a class="heading-anchor" href="#sec:a" aria-label="Link to this section"></a></h2>'));
  assert.ok(out.includes('<h3 id="b">B<a class="heading-anchor" href="#b" aria-label="Link to this section"></a></h3>'));
  assert.ok(out.includes('<h4 id="c">C</h4>'));
  assert.ok(out.includes("<h2>No id</h2>"));
});

test("headings outside the chapter body, and pages without one, are left alone; applying twice changes nothing", () => {
  const html = page('<h2 id="x">X</h2>', '<footer><h2 id="cite-this">Cite</h2></footer>');
  const once = addHeadingPermalinks(html);
  assert.ok(once.includes('<h2 id="nav">Site</h2>'));
  assert.ok(once.includes('<h2 id="cite-this">Cite</h2>'));
  assert.equal(addHeadingPermalinks(once), once);
  const plain = "<html><body><h2 id=\"x\">X</h2></body></html>";
  assert.equal(addHeadingPermalinks(plain), plain);
});
