/**
 * src/plugins/markdown/section-wrap.ts: each top-level h2 part of a page is a `<section class="part">`
 * (book.css skips the rendering of parts off screen); nothing else in the HTML changes.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { render, renderEdition } from "../helpers/book-markdown.ts";

const open = '<section class="part">\n';
const close = "</section>\n";

describe("section parts", () => {
  test("the text before the first h2 stays unwrapped; each h2 opens a part that holds its h3s", () => {
    const html = render("Intro.\n\n## A {#sec:a}\n\nOne.\n\n### A.1\n\nTwo.\n\n## B\n\nSee @sec:a.");
    const parts = html.split(open);
    assert.equal(parts.length, 3);
    assert.equal(parts[0], "<p>Intro.</p>\n");
    assert.ok(
      parts[1]!.startsWith('<h2 id="sec:a"') &&
        parts[1]!.includes('<h3 id="a-1"') &&
        parts[1]!.endsWith(`<p>Two.</p>\n${close}`),
    );
    assert.ok(parts[2]!.startsWith('<h2 id="b"') && parts[2]!.endsWith(`Section 3.1</a>.</p>\n${close}`));
  });

  test("a page without an h2 has no part", () => {
    assert.equal(render("Just text.\n\n- A list."), "<p>Just text.</p>\n<ul>\n<li>A list.</li>\n</ul>\n");
  });

  test("an h2 inside a ::: block does not start a part", () => {
    const html = render("## A\n\n::: note\n## Inside\n\nText.\n:::\n\nAfter.");
    assert.equal(html.split(open).length, 2);
    assert.ok(html.endsWith(`<p>After.</p>\n${close}`));
  });

  test("the last part closes before the footnotes and the references, so the layout's split still works", () => {
    const { body, footnotes, references } = renderEdition(
      "## A\n\nText.[^1] [@rajbhandari2020zero]\n\n## B\n\nMore.\n\n[^1]: A note.",
      "content/chapters/04-test.md",
    );
    assert.equal(body.split(open).length - 1, 2);
    assert.equal(body.split(close).length - 1, 2);
    assert.ok(body.endsWith(`<p>More.</p>\n${close}`));
    assert.ok(footnotes.startsWith('<section class="footnotes"') && !footnotes.includes('class="part"'));
    assert.ok(references.startsWith('<section class="references"') && !references.includes('class="part"'));
  });
});
