/**
 * The book's Markdown plugins on a bare markdown-it (no Eleventy): exact HTML for each
 * authoring feature of the contract in CONTRIBUTING.md.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { render, renderEdition } from "../helpers/book-markdown.ts";

/** Replaces each KaTeX span (long, version-specific output) with its TeX source, for readable expectations. */
function tex(html: string): string {
  const open = '<span class="katex">';
  let out = "";
  let pos = 0;
  for (let i = html.indexOf(open); i >= 0; i = html.indexOf(open, pos)) {
    out += html.slice(pos, i);
    let depth = 0;
    let j = i;
    const tag = /<span\b|<\/span>/g;
    tag.lastIndex = i;
    for (let m = tag.exec(html); m; m = tag.exec(html)) {
      depth += m[0] === "</span>" ? -1 : 1;
      if (depth === 0) {
        j = m.index + m[0].length;
        break;
      }
    }
    const inner = html.slice(i, j);
    const source = /<annotation encoding="application\/x-tex">([\s\S]*?)<\/annotation>/.exec(inner)?.[1] ?? "?";
    out += `[TeX:${source}]`;
    pos = j;
  }
  return out + html.slice(pos);
}

describe("citations", () => {
  test("[@a; @b] becomes numbered links in order of first use, with a reference list", () => {
    const html = render("See [@rajbhandari2020zero; @shoeybi2019megatron] and [@rajbhandari2020zero].");
    assert.ok(
      html.startsWith(
        '<p>See <span class="citation">[<a class="cite" href="#ref-rajbhandari2020zero" data-cite="rajbhandari2020zero">1</a>, ' +
          '<a class="cite" href="#ref-shoeybi2019megatron" data-cite="shoeybi2019megatron">2</a>]</span> and ' +
          '<span class="citation">[<a class="cite" href="#ref-rajbhandari2020zero" data-cite="rajbhandari2020zero">1</a>]</span>.</p>\n',
      ),
      html,
    );
    assert.ok(
      html.includes(
        '<li id="ref-rajbhandari2020zero">Rajbhandari, S., Rasley, J., Ruwase, O., &amp; He, Y. (2020). ZeRO: Memory Optimizations Toward Training Trillion Parameter Models. <i>Proceedings of SC20</i>. <a href="https://doi.org/10.1109/SC41405.2020.00024" rel="noopener">https://doi.org/10.1109/SC41405.2020.00024</a></li>\n' +
          '<li id="ref-shoeybi2019megatron">Shoeybi, M., &amp; Patwary, M. (2019). <i>Megatron-LM: Training Multi-Billion Parameter Language Models Using Model Parallelism</i>. arXiv preprint arXiv:1909.08053. <a href="https://arxiv.org/abs/1909.08053" rel="noopener">https://arxiv.org/abs/1909.08053</a></li>',
      ),
      html,
    );
    assert.ok(
      html.includes(
        '<section class="references" aria-labelledby="references">\n<h2 id="references">References</h2>\n<ol class="references-list">',
      ),
    );
  });

  test("a page without citations has no reference list; links and footnotes are not citations", () => {
    const html = render("A [link](/x/) and [^1].\n\n[^1]: Note.");
    assert.ok(!html.includes("references"));
    assert.ok(html.includes('<a href="/x/">link</a>'));
  });
});

describe("math", () => {
  test("inline math renders with KaTeX (HTML and MathML) and keeps following punctuation on its line", () => {
    const html = render("Cost $x^2$; next.");
    assert.ok(html.includes('<math xmlns="http://www.w3.org/1998/Math/MathML">'), "MathML for screen readers");
    assert.equal(tex(html), '<p>Cost <span class="math-nowrap">[TeX:x^2];</span> next.</p>\n');
  });

  test("a labelled display equation is numbered with \\tag and referenced as Eq. (n)", () => {
    const html = render(
      "$$\nM = 16N\n$$ {#eq:states}\n\n$$a = b$$\n\n$$ c = d $$ {#eq:second}\n\nBy @eq:states and @eq:second.",
    );
    assert.equal(
      tex(html),
      '<div class="math display" id="eq:states"><span class="katex-display">[TeX:M = 16N\n\\tag{1}]</span></div>\n' +
        '<div class="math display"><span class="katex-display">[TeX:a = b]</span></div>\n' +
        '<div class="math display" id="eq:second"><span class="katex-display">[TeX:c = d\n\\tag{2}]</span></div>\n' +
        '<p>By <a class="xref" href="#eq:states" data-xref="eq">Eq. (1)</a> and <a class="xref" href="#eq:second" data-xref="eq">Eq. (2)</a>.</p>\n',
    );
  });

  test("shared macros from tex-macros.ts are available", () => {
    assert.ok(render("$80\\GB$").includes("GB"));
  });

  test("{{ and {% are plain TeX (no template engine runs on chapters)", () => {
    assert.ok(tex(render("${{a}}$")).includes("[TeX:{{a}}]"));
  });
});

describe("sections", () => {
  test("headings get stable ids and numbers; @sec: prints the section number", () => {
    const html = render("## Why ZeRO? {#sec:why}\n\n### The details\n\n## Why ZeRO?\n\nSee @sec:why.");
    assert.equal(
      html,
      '<section class="part">\n<h2 id="sec:why" data-number="3.1"><span class="secnum">3.1</span> Why ZeRO?</h2>\n' +
        '<h3 id="the-details" data-number="3.1.1"><span class="secnum">3.1.1</span> The details</h3>\n</section>\n' +
        '<section class="part">\n<h2 id="why-zero" data-number="3.2"><span class="secnum">3.2</span> Why ZeRO?</h2>\n' +
        '<p>See <a class="xref" href="#sec:why" data-xref="sec">Section 3.1</a>.</p>\n</section>\n',
    );
  });

  test("appendix sections are lettered; the preface has no numbers and @sec: prints the heading", () => {
    assert.ok(
      render("## Setup", "content/chapters/a1-reference.md").startsWith(
        '<section class="part">\n<h2 id="setup" data-number="B.1"><span class="secnum">B.1</span> Setup</h2>',
      ),
    );
    assert.equal(
      render("## Units {#sec:units}\n\nSee @sec:units.", "content/chapters/00-preface.md"),
      '<section class="part">\n<h2 id="sec:units">Units</h2>\n<p>See <a class="xref" href="#sec:units" data-xref="sec">Units</a>.</p>\n</section>\n',
    );
  });
});

describe("figures and tables", () => {
  test("an image alone in a paragraph is a numbered figure with its title as caption", () => {
    const html = render('![A box](/assets/img/box.svg "A caption with $x$."){#fig:box .wide}\n\nSee @fig:box.');
    assert.equal(
      tex(html),
      '<figure class="figure wide" id="fig:box">\n' +
        '<img src="/assets/img/box.svg" alt="A box" width="120" height="40" loading="lazy" decoding="async">\n' +
        '<figcaption><span class="fig-label">Figure 1.</span> A caption with <span class="math-nowrap">[TeX:x].</span></figcaption>\n' +
        "</figure>\n" +
        '<p>See <a class="xref" href="#fig:box" data-xref="fig">Figure 1</a>.</p>\n',
    );
  });

  test("a figure caption gets the typographer's quotes and apostrophes, like the text around it", () => {
    const html = render(`![A box](/assets/img/box.svg "The GPU's \\"peak\\" and the book's model.")`);
    assert.match(
      html,
      /<figcaption><span class="fig-label">Figure 1\.<\/span> The GPU’s “peak” and the book’s model\.<\/figcaption>/,
    );
  });

  test("a ::: figure block holds raw SVG and takes its caption from the Caption: paragraph", () => {
    assert.equal(
      render(
        '::: figure {#fig:blk .full-width}\n<svg viewBox="0 0 1 1"></svg>\n\nCaption: Block caption.\n:::\n\n@fig:blk',
      ),
      '<figure class="figure full-width" id="fig:blk">\n<svg viewBox="0 0 1 1"></svg><figcaption><span class="fig-label">Figure 1.</span> Block caption.</figcaption>\n</figure>\n' +
        '<p><a class="xref" href="#fig:blk" data-xref="fig">Figure 1</a></p>\n',
    );
  });

  test("Table: after a table is its numbered caption", () => {
    assert.equal(
      render("| a |\n|---|\n| 1 |\n\nTable: Caption. {#tbl:t}\n\nSee @tbl:t."),
      '<figure class="table-figure" id="tbl:t">\n<figcaption><span class="fig-label">Table 1.</span> Caption.</figcaption>\n<div class="table-scroll">\n' +
        "<table>\n<thead>\n<tr>\n<th>a</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>1</td>\n</tr>\n</tbody>\n</table>\n</div>\n</figure>\n" +
        '<p>See <a class="xref" href="#tbl:t" data-xref="tbl">Table 1</a>.</p>\n',
    );
  });
});

describe("blocks", () => {
  test("callouts with default and custom titles, and margin asides", () => {
    assert.equal(
      render("::: note\nA.\n:::\n\n::: warning Mind the gap\nB.\n:::\n\n::: takeaway\nC.\n:::\n\n::: aside\nD.\n:::"),
      '<div class="callout callout-note" role="note">\n<p class="callout-title">Note</p>\n<p>A.</p>\n</div>\n' +
        '<div class="callout callout-warning" role="note">\n<p class="callout-title">Mind the gap</p>\n<p>B.</p>\n</div>\n' +
        '<div class="callout callout-takeaway" role="note">\n<p class="callout-title">Key takeaways</p>\n<p>C.</p>\n</div>\n' +
        '<aside class="aside">\n<p>D.</p>\n</aside>\n',
    );
  });

  test("exercises are numbered, take their id from the title, and hold a collapsed <details> solution (same ::: fence nests)", () => {
    assert.equal(
      render("::: exercise Estimate\nQ.\n::: solution\nS.\n:::\n:::\n\n::: exercise\nQ2.\n:::"),
      '<section class="exercise" id="exercise-estimate" aria-label="Exercise 1">\n<p class="exercise-title"><span class="exercise-label">Exercise 1</span> Estimate</p>\n' +
        '<p>Q.</p>\n<details class="solution">\n<summary>Solution</summary>\n<p>S.</p>\n</details>\n</section>\n' +
        '<section class="exercise" id="exercise-2" aria-label="Exercise 2">\n<p class="exercise-title"><span class="exercise-label">Exercise 2</span></p>\n<p>Q2.</p>\n</section>\n',
    );
  });
});

describe("footnotes", () => {
  test("a footnote is a numbered link plus a sidenote, and a note at the end", () => {
    assert.equal(
      render("Text.[^a]\n\n[^a]: Note with [@rajbhandari2020zero].").split(/(?=<section class="references")/)[0],
      '<p>Text.<sup class="footnote-ref"><a href="#fn-1" id="fnref-1" data-footnote="1">1</a></sup><span class="sidenote" role="note"><span class="sidenote-number">1</span> Note with <span class="citation">[<a class="cite" href="#ref-rajbhandari2020zero" data-cite="rajbhandari2020zero">1</a>]</span>.</span></p>\n' +
        '<section class="footnotes" aria-labelledby="footnotes">\n<h2 id="footnotes">Footnotes</h2>\n<ol class="footnotes-list">\n' +
        '<li id="fn-1" class="footnote-item"><p>Note with <span class="citation">[<a class="cite" href="#ref-rajbhandari2020zero" data-cite="rajbhandari2020zero">1</a>]</span>. <a href="#fnref-1" class="footnote-backref" aria-label="Back to reference 1">↩︎</a></p>\n' +
        "</li>\n</ol>\n</section>\n",
    );
  });
});

describe("widgets", () => {
  test("::: widget renders the static figure inside a data-widget mount point with JSON settings", () => {
    const html = render("::: widget unit-converter\nvalue: 1\nunit: GiB\n:::");
    assert.ok(
      html.startsWith(
        '<div tabindex="-1" data-settings="{&quot;value&quot;:1,&quot;unit&quot;:&quot;GiB&quot;}" data-widget="unit-converter" id="widget-unit-converter-1" class="widget">',
      ),
      html,
    );
    assert.ok(
      html.includes(
        '<tbody><tr><th scope="row">bytes</th><td>1,073,741,824</td></tr><tr><th scope="row">GB</th><td>1.07374</td></tr>' +
          '<tr class="uc-current"><th scope="row">GiB</th><td>1</td></tr><tr><th scope="row">TB</th><td>0.00107374</td></tr>' +
          '<tr><th scope="row">TiB</th><td>0.000976563</td></tr></tbody>',
      ),
      html,
    );
  });

  test("two widgets of one kind on a page get distinct ids", () => {
    const html = render("::: widget unit-converter\n:::\n\n::: widget unit-converter\n:::");
    assert.ok(html.includes('id="widget-unit-converter-1"') && html.includes('id="widget-unit-converter-2"'));
  });
});

describe("page summary for the layout", () => {
  test("the ToC (h2 with nested h3, numbers, math kept), word count and parts come from the tokens of the render", () => {
    const parts = renderEdition(
      "## One two {#sec:a}\n\nThree four five.[^1]\n\n### Six $x$\n\n## Seven\n\nSee [@rajbhandari2020zero].\n\n[^1]: Eight.",
      "content/chapters/04-test.md",
    );
    assert.deepEqual(
      parts.toc.map((e) => [
        e.id,
        e.number,
        e.html,
        e.children.map((c) => [c.id, c.number, c.html.replace(/<span class="katex">[\s\S]*$/, "<katex>")]),
      ]),
      [
        ["sec:a", "4.1", "One two", [["six", "4.1.1", "Six <katex>"]]],
        ["seven", "4.2", "Seven", []],
      ],
    );
    assert.equal(parts.words, 10); // one two, three four five, six x, seven, see, eight
    assert.ok(
      parts.body.endsWith("</p>\n</section>\n") &&
        !parts.body.includes("footnotes") &&
        !parts.body.includes("references"),
    );
    assert.ok(parts.footnotes.startsWith('<section class="footnotes"') && parts.footnotes.endsWith("</section>"));
    assert.ok(parts.references.startsWith('<section class="references"') && parts.references.endsWith("</section>"));
  });
});
