/**
 * The include plugin: a chapter's listing is the marked region of the companion file, and an
 * unknown file, region or measured layout fails the build at the chapter's line.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import MarkdownIt from "markdown-it";
import { includeCodeMarkdown } from "../../src/plugins/markdown/include-code.ts";

function render(source: string): string {
  const md = new MarkdownIt();
  includeCodeMarkdown(md);
  return md.render(source, { page: { inputPath: "content/chapters/99-test.md" } });
}

test("an include fence becomes the region's code, as a Python block without the markers", () => {
  const html = render("Text.\n\n```include\ncompanion/data_parallel.py#bucket-hook\n```\n");
  assert.match(html, /<pre><code class="language-python">def _register\(self, p\):/);
  assert.doesNotMatch(html, /\[start:|\[end:/);
});

test("an unknown file or region fails with the chapter's file and line", () => {
  assert.throws(
    () => render("Text.\n\n```include\ncompanion/nope.py#x\n```\n"),
    /^BookError: content\/chapters\/99-test\.md:3 include: cannot read "companion\/nope\.py"/,
  );
  assert.throws(
    () => render("```include\ncompanion/zero.py#nope\n```\n"),
    (e: Error) =>
      e.message.startsWith(
        'content/chapters/99-test.md:1 include: no region "nope" in companion/zero.py (regions: zero3-unit, zero-step)',
      ),
  );
});

test("a companion-table fence becomes a table with one row per measured layout", () => {
  const html = render("```companion-table\ntiny.json --dp 2\ntiny.json --tp 2\n```\n");
  assert.equal((html.match(/<tr>/g) ?? []).length, 3);
  assert.match(html, /<code>--tp 2<\/code>/);
  assert.throws(
    () => render("```companion-table\ntiny.json --dp 3\n```\n"),
    /99-test\.md:1 companion-table: no measured layout "tiny\.json --dp 3"/,
  );
});
