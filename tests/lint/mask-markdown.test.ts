/**
 * The prose view keeps every prose character at its offset and blanks everything else; these
 * cases pin what is blanked, and a property test pins that length and newlines never move.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { TOKEN_FILL, maskMarkdown } from "../../tools/lint/mask-markdown.ts";

const opts = { frontMatterProseKeys: ["title", "description"] };
/** Shows token fill as # so the expectations stay readable. */
const view = (src: string) => maskMarkdown(src, opts).replaceAll(TOKEN_FILL, "#");

describe("maskMarkdown", () => {
  it("keeps front-matter prose values and blanks keys, quotes and other keys", () => {
    assert.equal(
      view('---\ntitle: "One GPU"\nlayout: x.njk\n---\nText'),
      "###\n####### One GPU \n#############\n###\nText",
    );
  });

  it("blanks inline math and code as tokens, but not escaped or spaced dollars", () => {
    assert.equal(view("a $x+1$ b `c d` e"), "a ##### b ##### e");
    assert.equal(view("costs \\$5 and $ 6"), "costs \\$5 and $ 6");
    assert.equal(view("from $5 to $6"), "from $5 to $6");
  });

  it("blanks fenced code and display math, including a numbered equation's label", () => {
    assert.equal(view("x\n```py\nteh\n```\ny"), "x\n#####\n###\n###\ny");
    assert.equal(view("$$\na\n$$ {#eq:e}\nz"), "##\n#\n## #######\nz");
  });

  it("blanks citations, footnote labels, cross-references, attributes and URLs; keeps link text and image captions", () => {
    assert.equal(view("See [@a2020b; @c] and @fig:f-1.[^n]"), "See ############# and ########.####");
    assert.equal(view("## Head {#sec:h}"), "## Head ########");
    assert.equal(
      view("[link text](https://x.org/a) and https://y.org/b."),
      "[link text]                ) and ###############.",
    );
    assert.equal(view('![Alt text](/img/a.svg "Caption")'), '![Alt text]            "Caption")');
    assert.equal(view("the pytorch.org/memory_viz page"), "the ###################### page");
  });

  it("blanks HTML tags, comments and entities with spaces (so doubled words across them are still seen)", () => {
    assert.equal(view("the <em>the</em> a&nbsp;b <!-- c -->"), "the     the      a      b           ");
  });

  it("blanks widget blocks entirely and container markers but not titles", () => {
    assert.equal(
      view("::: widget w\na: 1\n:::\n::: note A title\nBody\n:::"),
      "############\n####\n###\n         A title\nBody\n   ",
    );
  });

  it("never changes the length or moves a newline", () => {
    const pieces = [
      "$",
      "$$",
      "`",
      "```",
      "\n",
      " ",
      "a",
      "[@k]",
      "<b>",
      "<!--",
      "-->",
      "{#x}",
      "::: widget w",
      ":::",
      "---",
      "http://a.b",
      "](",
      ")",
      "\\",
      "@eq:x",
      "&amp;",
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), (parts) => {
        const src = parts.join("");
        const out = maskMarkdown(src, opts);
        assert.equal(out.length, src.length);
        for (let k = 0; k < src.length; k++) assert.equal(out[k] === "\n", src[k] === "\n");
      }),
    );
  });
});
