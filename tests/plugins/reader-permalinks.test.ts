/**
 * Heading permalinks (src/plugins/markdown/edition.ts): h2/h3 section headings of a chapter render, once; other pages opt in.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { md, render, renderEdition } from "../helpers/book-markdown.ts";

const anchor = (id: string) => `<a class="heading-anchor" href="#${id}" aria-label="Link to this section"></a>`;

test("h2 and h3 section headings of a chapter get a trailing # link; h4 does not", () => {
  const out = renderEdition("## A {#sec:a}\n\n### B\n\n#### C\n").body;
  assert.ok(out.includes(`<h2 id="sec:a" data-number="3.1"><span class="secnum">3.1</span> A${anchor("sec:a")}</h2>`));
  assert.ok(out.includes(`<h3 id="b" data-number="3.1.1"><span class="secnum">3.1.1</span> B${anchor("b")}</h3>`));
  assert.ok(out.includes("<h4>C</h4>"));
  assert.equal(out.split("heading-anchor").length - 1, 2);
});

test("a page that is not a chapter has no permalinks unless its data asks for them; the footnotes heading has none", () => {
  assert.equal(render("## X\n", "content/changelog.md"), '<section class="part">\n<h2 id="x">X</h2>\n</section>\n');
  assert.equal(
    md.render("## X\n", { page: { inputPath: "content/changelog.md" }, headingPermalinks: true }),
    `<section class="part">\n<h2 id="x">X${anchor("x")}</h2>\n</section>\n`,
  );
  const r = renderEdition("## X\n\nText.[^1]\n\n[^1]: Note.\n");
  assert.ok(!r.footnotes.includes("heading-anchor"));
});
