/** Build-time code highlighting (src/plugins/markdown/highlight.ts) through the book's own Markdown. */
import { test } from "node:test";
import assert from "node:assert/strict";
import MarkdownIt from "markdown-it";
import {
  fenceLanguage,
  highlightCode,
  highlightMarkdown,
  isKnownLanguage,
  knownLanguages,
} from "../../src/plugins/markdown/highlight.ts";
import { isBookError } from "../../src/plugins/shared/errors.ts";

function render(src: string): string {
  const md = new MarkdownIt();
  highlightMarkdown(md);
  return md.render(src);
}

test("a Python fence becomes token spans inside a code-block wrapper", () => {
  const html = render("```python\ndef f(x):\n    return x + 1  # one\n```\n");
  assert.equal(
    html,
    '<div class="code-block"><pre><code class="language-python"><span class="hljs-keyword">def</span> <span class="hljs-title function_">f</span>(<span class="hljs-params">x</span>):\n' +
      '    <span class="hljs-keyword">return</span> x + <span class="hljs-number">1</span>  <span class="hljs-comment"># one</span>\n</code></pre></div>\n',
  );
});

test("CUDA reads as C++, keeps its own class name; Triton reads as Python", () => {
  const cuda = render("```cuda\n__global__ void k(float* y) { y[0] = 1.0f; }\n```\n");
  assert.match(cuda, /<code class="language-cuda">/);
  assert.match(cuda, /<span class="hljs-type">void<\/span>/);
  assert.match(cuda, /<span class="hljs-number">1.0f<\/span>/);
  assert.match(render("```triton\nimport triton\n```\n"), /<span class="hljs-keyword">import<\/span> triton/);
});

test("a fence without a language is escaped plain text, still wrapped", () => {
  assert.equal(
    render("```\na <b> & c\n```\n"),
    '<div class="code-block"><pre><code>a &lt;b&gt; &amp; c\n</code></pre></div>\n',
  );
  assert.equal(highlightCode("<x>", ""), "&lt;x&gt;");
});

test("an unknown language fails with the file and line, naming the known ones", () => {
  const md = new MarkdownIt();
  highlightMarkdown(md);
  assert.throws(
    () => md.render("Text.\n\n```pyhton\nx = 1\n```\n", {}),
    (e: unknown) =>
      isBookError(e) && e.line === 3 && /unknown code language "pyhton"/.test(e.message) && /python/.test(e.message),
  );
});

test("fence info: first word, lower-cased; the known list has the book's languages", () => {
  assert.equal(fenceLanguage(" Python {.wide}"), "python");
  assert.equal(fenceLanguage(""), "");
  for (const lang of ["python", "bash", "cuda", "json", "typescript", "ts", "yaml", "text", ""])
    assert.ok(isKnownLanguage(lang), lang);
  assert.equal(isKnownLanguage("rust"), false);
  assert.deepEqual([...knownLanguages], [...knownLanguages].sort());
});
