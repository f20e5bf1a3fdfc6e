/**
 * Security checks at build time (issue #15): strings from the bibliography and front matter are
 * escaped (a tiny book whose data contains markup prints it as text), and the post-build checks
 * (src/plugins/after-build/site-checks.ts) reject inline script, event handler attributes and malformed
 * external links, naming the file. The browser half is tests/browser/security.test.ts.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseHTML } from "linkedom";
import { buildTinyBook, removeTinyBook } from "../helpers/tiny-book.ts";
import { externalUrlProblem, inlineScriptProblems } from "../../src/plugins/after-build/site-checks.ts";

describe("escaping and build checks", () => {
  test("markup in a bibliography title and in front matter is printed as text", async () => {
    const build = await buildTinyBook({
      "bibliography.bib": `@misc{hostile2021,
  author = {Mallory, Eve},
  title = {Attention <script>alert(1)</script> and <img src=x onerror=alert(2)>},
  howpublished = {arXiv preprint arXiv:2101.00001},
  year = {2021},
  url = {https://arxiv.org/abs/2101.00001},
  note = {Checks escaping <b>here</b>.}
}
`,
      "content/chapters/00-preface.md":
        '---\ntitle: "Preface <em>bold</em>"\ndescription: "About <script>alert(3)</script> things."\n---\n\n## Start\n\nText [@hostile2021].\n',
    });
    try {
      assert.equal(build.error, undefined);
      const html = readFileSync(path.join(build.root, "_site/preface/index.html"), "utf8");
      const { document } = parseHTML(html);
      assert.equal(document.querySelectorAll("script:not([src])").length, 0, "no inline script element");
      assert.equal(document.querySelectorAll("img[onerror], em, b").length, 0, "no element made from data");
      assert.ok(html.includes("&lt;script&gt;alert(1)&lt;/script&gt;"), "bibliography title escaped");
      assert.ok(html.includes("Preface &lt;em&gt;bold&lt;/em&gt;"), "front matter title escaped");
      assert.ok(
        document.body.textContent!.includes("Attention <script>alert(1)</script> and <img src=x onerror=alert(2)>"),
        "shown as text",
      );
      assert.deepEqual(inlineScriptProblems(html), []);
    } finally {
      removeTinyBook(build);
    }
  });

  test("inline scripts, event handlers and malformed external links fail the build, naming the file", async () => {
    const build = await buildTinyBook({
      "content/chapters/00-preface.md":
        "---\ntitle: Preface\ndescription: The preface.\n---\n\n## Start\n\nText [@known2020] and [a link](ftp://example.org/x).\n",
    });
    try {
      assert.equal(build.bookError?.file, "content/chapters/00-preface.md");
      assert.match(build.bookError!.rawMessage, /link "ftp:\/\/example\.org\/x" uses the scheme "ftp:"/);
    } finally {
      removeTinyBook(build);
    }
    const html =
      '<html><head><script type="application/json">{"a":1}</script><script src="/x.js"></script><script>alert(1)</script></head>' +
      '<body><a href="#" onclick="go()">x</a><svg><g onload="f()"></g></svg><p>onclick="not an attribute"</p></body></html>';
    assert.deepEqual(
      inlineScriptProblems(html).map((p) => p.message.split(" (")[0]),
      ["inline <script>", "inline event handler onclick= on <a>", "inline event handler onload= on <g>"],
    );
    assert.equal(externalUrlProblem("https://arxiv.org/abs/2104.04473"), undefined);
    assert.equal(externalUrlProblem("mailto:book@example.org"), undefined);
    assert.equal(
      externalUrlProblem("javascript:alert(1)"),
      'uses the scheme "javascript:" (only http, https and mailto)',
    );
    assert.equal(externalUrlProblem("ftp://example.org/x"), 'uses the scheme "ftp:" (only http, https and mailto)');
    assert.equal(externalUrlProblem("https://exa mple.org"), "contains whitespace");
    assert.equal(externalUrlProblem("http://"), "is not a valid URL");
    assert.equal(externalUrlProblem("https://localhost/"), 'has no valid host name ("localhost")');
    assert.equal(externalUrlProblem("//cdn.example.org/x.js"), "is protocol-relative (write https://)");
    assert.equal(externalUrlProblem("mailto:nobody"), "is not a valid mailto address");
  });
});
