/** The changelog's "**Corrections:**" bullet (src/plugins/markdown/changelog.ts). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { md } from "../helpers/book-markdown.ts";

const source = "## A {#2026-01-01}\n\n- **Corrections:** fixed\n  - [x](/x/)\n- **Other:** not this\n";

test("the changelog's Corrections bullet gets the callout classes, and nothing else does", () => {
  const html = md.render(source, { page: { inputPath: "./content/changelog.md" } });
  assert.match(html, /<li class="callout callout-warning changelog-corrections"><strong>Corrections:<\/strong> fixed/);
  assert.match(html, /<li><strong>Other:<\/strong>/);
  assert.doesNotMatch(html, /style=/);
});

test("other pages keep a Corrections bullet as it is", () => {
  const html = md.render(source, { page: { inputPath: "./content/about.md" } });
  assert.doesNotMatch(html, /changelog-corrections/);
});
