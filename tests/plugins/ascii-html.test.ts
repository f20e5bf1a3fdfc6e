/**
 * src/plugins/site/ascii-html.ts: a page written in ASCII builds the same document. Each case parses the
 * input and the output with parse5, the HTML standard's own parsing algorithm, and compares the
 * trees. tests/browser/html-valid.test.ts checks that every built page is ASCII.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parse, type DefaultTreeAdapterMap } from "parse5";
import { asciiHtml } from "../../src/plugins/site/ascii-html.ts";
import { BookError } from "../../src/plugins/shared/errors.ts";

type Node = DefaultTreeAdapterMap["node"];

/** A tree as plain data: element names with attributes, text and comments, in order. */
function shape(node: Node): unknown {
  if (node.nodeName === "#text") return { text: (node as DefaultTreeAdapterMap["textNode"]).value };
  if (node.nodeName === "#comment") return { comment: (node as DefaultTreeAdapterMap["commentNode"]).data };
  const element = node as DefaultTreeAdapterMap["element"];
  const attrs = "attrs" in element ? element.attrs.map((a) => [a.name, a.value]) : [];
  const content = element.nodeName === "template" ? (element as DefaultTreeAdapterMap["template"]).content : element;
  const children = "childNodes" in content ? content.childNodes.map(shape) : [];
  return { name: element.nodeName, attrs, children };
}

const page = (head: string, body: string, title = "Zero−one × two") =>
  `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;

const ascii = (text: string) => !/[\u0080-\u{10ffff}]/u.test(text);

describe("asciiHtml", () => {
  test("text, attributes, RCDATA and comments become references, and the tree is the same", () => {
    const html = page(
      "",
      [
        '<p title="a − b ≤ c" data-x=’unquoted’>Léa’s “model” has 7\u00a0B × 2 bytes\u200b.</p>',
        "<textarea>θ ← θ − η∇</textarea>",
        "<!-- a comment with — a dash -->",
        '<svg viewBox="0 0 10 10"><text>∑ ∂</text><title>σ</title></svg>',
        "<math><mi>𝑥</mi><mo>\u2061</mo></math>",
        "<pre><code>x = 1  # ≈ one</code></pre>",
        "<noscript><p>Ψ needs no script</p></noscript>",
        "<p>Already escaped: &amp; &lt;b&gt; &#x2212; &minus;</p>",
      ].join("\n"),
    );
    const out = asciiHtml(html, "content/test.md");
    assert.ok(ascii(out), "every character is ASCII");
    // Parsed as with JavaScript off, where <noscript> holds markup (with it on, raw text never shown).
    const options = { scriptingEnabled: false };
    const built = JSON.stringify(shape(parse(out, options)));
    const asWritten = JSON.stringify({ comment: " a comment with &#x2014; a dash " });
    assert.ok(built.includes(asWritten), "a comment keeps the reference as written");
    const original = JSON.stringify({ comment: " a comment with — a dash " });
    assert.deepEqual(
      JSON.parse(built.replace(asWritten, original)),
      shape(parse(html, options)),
      "the same tree, comments aside",
    );
    assert.ok(out.includes("Zero&#x2212;one &#xd7; two"), "the title");
    assert.ok(out.includes('title="a &#x2212; b &#x2264; c"'), "a quoted attribute");
    assert.ok(out.includes("<mi>&#x1d465;</mi>"), "a character beyond U+FFFF is one reference, not two halves");
  });

  test("an inline <style> gets CSS escapes, and the rest of the page references", () => {
    const html = page('<style>.toc summary::after{content:"▾"}.a::before{content:"→ x"}</style>', "<p>→</p>");
    const out = asciiHtml(html, "content/test.md");
    assert.ok(ascii(out));
    assert.ok(
      out.includes('<style>.toc summary::after{content:"\\25be "}.a::before{content:"\\2192  x"}</style>'),
      out,
    );
    assert.ok(out.includes("<p>&#x2192;</p>"));
  });

  test("a style sheet's first and last characters, and one already escaped", () => {
    const html = page('<style>Ψ{}.a::after{content:"\\Ψ"}/*é*/Ψ</style>', "<p>Ψ</p>", "Zero-one");
    const out = asciiHtml(html, "content/test.md");
    assert.ok(out.includes('<style>\\3a8 {}.a::after{content:"\\3a8 "}/*\\e9 */\\3a8 </style>'), out);
    assert.ok(out.includes("<p>&#x3a8;</p>"), out);
  });

  test("a page already in ASCII is returned as it was", () => {
    const html = page("<style>p{margin:0}</style>", "<p>a &amp; b &#x2212; c</p>", "Zero-one");
    assert.equal(asciiHtml(html, "content/test.md"), html);
  });

  test("a character outside ASCII in an inline script, CDATA or a name is a build error", () => {
    const cases: Array<[string, RegExp]> = [
      [page('<script type="application/json">{"x":"−"}</script>', ""), /U\+2212 inside an inline <script>/],
      [page("", "<svg><desc><![CDATA[ σ ]]></desc></svg>"), /U\+03C3 inside a CDATA section/],
      [page("", '<p dátá="1">x</p>'), /attribute name with a character outside ASCII/],
      [page("", "<pé>x</pé>"), /tag name with a character outside ASCII/],
      [page("", "<xmp>a − b</xmp>"), /U\+2212 inside raw text/],
      [page("", "<iframe>σ</iframe>"), /U\+03C3 inside raw text/],
      [page("", "<p>a\u0080b</p>"), /C1 control U\+0080/],
      [`\ufeff${page("", "<p>−</p>")}`, /starts with a byte order mark/],
    ];
    for (const [html, message] of cases) {
      assert.throws(
        () => asciiHtml(html, "content/chapters/01-introduction.md"),
        (error: unknown) =>
          error instanceof BookError &&
          error.file === "content/chapters/01-introduction.md" &&
          message.test(error.message),
        String(message),
      );
    }
  });
});
