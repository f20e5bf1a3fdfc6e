/**
 * Every author mistake the build must refuse, each with the file and the real source line
 * (counting the front matter) in the message. Markdown-level checks run on a bare
 * markdown-it; the rest (front matter, bibliography, links and anchors across pages, and
 * one Markdown error to prove the line offset) run a whole tiny book through Eleventy.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { md, renderError } from "../helpers/book-markdown.ts";
import { buildTinyBook, minimalBib, removeTinyBook, type TinyBuild } from "../helpers/tiny-book.ts";
import { parseBibliography } from "../../src/plugins/markdown/bibliography.ts";
import { BookError, didYouMean, editDistance, findBookError, nearestName } from "../../src/plugins/shared/errors.ts";

const file = "content/chapters/03-zero.md";

describe("Markdown errors name the file and line", () => {
  const cases: [string, string, string][] = [
    [
      "unknown citation key",
      "One.\n\nTwo\nthree [@nope2020].",
      `${file}:4 unknown citation key "@nope2020" (not in bibliography.bib)`,
    ],
    [
      "malformed citation",
      "See [@rajbhandari2020zero, p. 3].",
      `${file}:1 malformed citation "[@rajbhandari2020zero, p. 3]" (write [@key] or [@a; @b]; locators such as "p. 3" are not supported)`,
    ],
    [
      "TeX error (inline)",
      "Fine.\n\nBad $\\frac{1$ here.",
      `${file}:3:13 TeX error: Unexpected end of input in a macro argument, expected '}' at the end of the formula`,
    ],
    [
      "TeX error (display): the token's line, not the opening $$",
      "Text.\n\n$$\n\\badmacro{x}\n$$",
      `${file}:4:1 TeX error: Undefined control sequence: \\badmacro`,
    ],
    ["unclosed display math", "$$\nx = 1\n\nmore", `${file}:1 display math opened with "$$" is never closed`],
    [
      "malformed equation label",
      "$$\nx\n$$ {#eq-x}",
      `${file}:3 equation label "eq-x" must look like eq:name (letters, digits, - and _)`,
    ],
    [
      "unknown cross-reference",
      "## A {#sec:a}\n\nSee @sec:b.",
      `${file}:3 unknown cross-reference "@sec:b" (labels on this page: sec:a); did you mean \`sec:a\`?`,
    ],
    ["duplicate label", "$$x$$ {#eq:a}\n\n$$y$$ {#eq:a}", `${file}:3 duplicate label "eq:a" (first defined on line 1)`],
    [
      "unknown block",
      "::: notes\nx\n:::",
      `${file}:1 unknown block "::: notes" (known: aside, note, warning, takeaway, exercise, solution, answer, figure, widget)`,
    ],
    ["unclosed block", "Text.\n\n::: note\nx", `${file}:3 "::: note" is never closed (add a line with only ":::")`],
    ["solution outside an exercise", "::: solution\nx\n:::", `${file}:1 "::: solution" must be inside "::: exercise"`],
    [
      "unknown widget",
      "Text.\n\n::: widget memory-explorerr\n:::",
      `${file}:3 unknown widget "memory-explorerr" (known: ${""}`,
    ],
    [
      "bad widget setting value",
      "::: widget unit-converter\nvalue: 80\nunit: GBs\n:::",
      `${file}:3 widget "unit-converter": setting "unit": must be one of bytes, GB, GiB, TB, TiB (got "GBs")`,
    ],
    [
      "unknown widget setting",
      "::: widget unit-converter\ncolour: red\n:::",
      `${file}:2 widget "unit-converter": setting "colour": unknown setting (known: value, unit)`,
    ],
    [
      "misspelt widget setting",
      "::: widget unit-converter\nvalue: 80\nunits: GB\n:::",
      `${file}:3 widget "unit-converter": setting "units": unknown setting (known: value, unit); did you mean \`unit\`?`,
    ],
    ["widget settings that are not YAML", "::: widget unit-converter\nvalue: [1\n:::", `${file}:`],
    [
      "image without alt text",
      "Text.\n\n![](/assets/img/box.svg)",
      `${file}:3 image "/assets/img/box.svg" has no alt text (write what the figure shows inside ![…])`,
    ],
    [
      "missing image",
      '![A box](/assets/img/nope.svg "Cap.")',
      `${file}:1 missing image "/assets/img/nope.svg" (no file tests/plugins/fixtures/assets/img/nope.svg)`,
    ],
    [
      "image from another origin",
      '![A box](https://example.com/x.svg "Cap.")',
      `${file}:1 image "https://example.com/x.svg" is not on this site (copy it under assets/img/ and use /assets/img/…)`,
    ],
    [
      "raster image",
      '![A box](/assets/img/box.png "Cap.")',
      `${file}:1 image "/assets/img/box.png" is not an SVG (figures are SVG only)`,
    ],
    [
      "figure without caption",
      "![A box](/assets/img/box.svg)",
      `${file}:1 figure "/assets/img/box.svg" has no caption (add one in quotes: ![alt](/assets/img/x.svg "Caption"))`,
    ],
    [
      "figure block without label",
      "::: figure\n<svg></svg>\n\nCaption: x\n:::",
      `${file}:1 "::: figure" needs a label: ::: figure {#fig:name}`,
    ],
    [
      "h1 in a chapter",
      "# Title",
      `${file}:1 use "##" and "###" for headings; the page title comes from the front matter`,
    ],
  ];
  for (const [name, src, expected] of cases) {
    test(name, () => {
      const e = renderError(src);
      assert.ok(e instanceof BookError);
      assert.equal(e.file, file);
      if (expected.endsWith(":") || name === "unknown widget") assert.ok(e.message.startsWith(expected), e.message);
      else assert.equal(e.message, expected);
    });
  }
  test("an unknown widget names the nearest widget and what it draws", () => {
    const e = renderError("::: widget memory-explorerr\n:::");
    assert.match(e.message, /; did you mean `memory-explorer` \(memory per GPU .*\)\?$/);
  });
});

describe("bibliography errors name the entry and line", () => {
  test("a missing field", () => {
    const bib = `${minimalBib}\n@article{broken2021,\n  author = {Roe, Rick},\n  title = {Broken},\n  year = {2021},\n  url = {https://example.org}\n}\n`;
    assert.throws(() => parseBibliography(bib), {
      message:
        'bibliography.bib:10 malformed entry "broken2021": missing a venue (journal, booktitle, howpublished, publisher, institution, school), note (one line on why to read it)',
    });
  });
  test("a syntax error", () => {
    assert.throws(
      () => parseBibliography(`${minimalBib}\n@misc{bad2022,\n  title = {Unclosed,\n  year = {2022}\n`),
      (e: unknown) => {
        assert.ok(e instanceof BookError);
        assert.match(e.message, /^bibliography\.bib:\d+ malformed entry "bad2022": /);
        return true;
      },
    );
  });
  test("a duplicate key", () => {
    assert.throws(() => parseBibliography(minimalBib + "\n" + minimalBib), {
      message: 'bibliography.bib:10 duplicate entry "known2020" (first on line 1)',
    });
  });
  test("fields are escaped: a <script> in a title stays text", async () => {
    const { formatEntry } = await import("../../src/plugins/markdown/bibliography.ts");
    const bib = parseBibliography(minimalBib.replace("A Known Paper", "A <script>alert(1)</script> Paper"));
    const html = formatEntry(bib.entries.get("known2020")!);
    assert.ok(html.includes("A &lt;script&gt;alert(1)&lt;/script&gt; Paper"), html);
    assert.ok(!html.includes("<script"));
  });
});

describe("whole-book builds fail with the file and line", () => {
  const builds: TinyBuild[] = [];
  after(() => builds.forEach(removeTinyBook));
  const build = async (files: Record<string, string | null>) => {
    const b = await buildTinyBook(files);
    builds.push(b);
    return b;
  };
  const chapter = (body: string, fm = "title: One\ndescription: The first chapter.") => `---\n${fm}\n---\n\n${body}\n`;

  test("a sound tiny book builds", async () => {
    const b = await build({ "content/chapters/01-one.md": chapter("## Start\n\nSee [the preface](/preface/#start).") });
    assert.equal(b.error, undefined);
  });

  test("unknown citation key: the line counts the front matter", async () => {
    const b = await build({ "content/chapters/01-one.md": chapter("## Start\n\nText [@nope].") });
    assert.equal(
      b.bookError?.message,
      'content/chapters/01-one.md:8:7 unknown citation key "@nope" (not in bibliography.bib)',
    );
  });

  test("broken internal link", async () => {
    const b = await build({ "content/chapters/01-one.md": chapter("## Start\n\nSee [two](/two/).") });
    assert.equal(
      b.bookError?.message,
      'content/chapters/01-one.md:8 broken link "/two/" (no such page or file in the built site)',
    );
  });

  test("broken #anchor on another page and on the same page", async () => {
    const b = await build({ "content/chapters/01-one.md": chapter("## Start\n\nSee [x](/preface/#nowhere).") });
    assert.equal(
      b.bookError?.message,
      'content/chapters/01-one.md:8 broken link "/preface/#nowhere": no element with id "nowhere" on /preface/',
    );
    const c = await build({ "content/chapters/01-one.md": chapter("## Start\n\nSee [x](#missing).") });
    assert.equal(
      c.bookError?.message,
      'content/chapters/01-one.md:8 broken link "#missing": no element with id "missing" on /one/',
    );
  });

  test("missing front matter field", async () => {
    const b = await build({ "content/chapters/01-one.md": chapter("Text.", "title: One") });
    assert.equal(
      b.bookError?.message,
      'content/chapters/01-one.md:1 bad front matter: "description" must be a non-empty string',
    );
  });

  test("unknown front matter key", async () => {
    const b = await build({ "content/chapters/01-one.md": chapter("Text.", "title: One\ndescripton: Typo.") });
    assert.equal(
      b.bookError?.message,
      'content/chapters/01-one.md:3 bad front matter: unknown key "descripton" (allowed: title, description, subtitle)',
    );
  });

  test("front matter that is not YAML", async () => {
    const b = await build({ "content/chapters/01-one.md": "---\ntitle: [One\n---\n\nText.\n" });
    assert.match(String(b.bookError?.message ?? b.error), /01-one\.md/);
  });

  test("malformed bibliography entry", async () => {
    const b = await build({
      "bibliography.bib":
        minimalBib +
        "\n@misc{nonote2020,\n  author = {A, B},\n  title = {T},\n  year = {2020},\n  howpublished = {x},\n  url = {https://example.org}\n}\n",
    });
    assert.equal(
      b.bookError?.message,
      'bibliography.bib:10 malformed entry "nonote2020": missing note (one line on why to read it)',
    );
  });

  test("an SVG that exists passes; one that does not fails with its line", async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>\n';
    const ok = await build({
      "assets/img/one/a.svg": svg,
      "content/chapters/01-one.md": chapter(
        '## Start\n\n![A square](/assets/img/one/a.svg "A square."){#fig:a}\n\nSee @fig:a.',
      ),
    });
    assert.equal(ok.error, undefined);
    const bad = await build({
      "content/chapters/01-one.md": chapter('## Start\n\n![A square](/assets/img/one/b.svg "A square.")'),
    });
    assert.equal(
      bad.bookError?.message,
      'content/chapters/01-one.md:8 missing image "/assets/img/one/b.svg" (no file assets/img/one/b.svg)',
    );
  });
});

describe("a TeX error is one line at the offending token", () => {
  const cases: [string, string, string][] = [
    [
      "a labelled equation: no \\tag in the message, the line of the token",
      "Text.\n\n$$\na = b \\\\\nc = \\lamda + 1\n$$ {#eq:a}",
      `${file}:5:5 TeX error: Undefined control sequence: \\lamda; did you mean \`\\lambda\`?`,
    ],
    [
      "a labelled one-line equation cut short",
      "$$ x = \\frac{1}{2 $$ {#eq:b}",
      `${file}:1:18 TeX error: Unexpected end of input in a macro argument, expected '}' at the end of the formula`,
    ],
    [
      "in a list item: the column counts the marker",
      "- one\n- two with $x = \\alpah$ here",
      `${file}:2:17 TeX error: Undefined control sequence: \\alpah; did you mean \`\\alpha\`?`,
    ],
    [
      "in a table cell: the row's line",
      "| a | b |\n|--|--|\n| 1 | $\\sqrtt{2}$ |",
      `${file}:3:8 TeX error: Undefined control sequence: \\sqrtt; did you mean \`\\sqrt\`?`,
    ],
    [
      "after a printed value: the column in the text as written",
      "$$\nx = {=ch2.llama2StatesGB} + \\fooo\n$$",
      `${file}:2:29 TeX error: Undefined control sequence: \\fooo`,
    ],
    [
      "a mismatched environment",
      "$$\n\\begin{aligned} a &= b \\end{align}\n$$ {#eq:c}",
      `${file}:2:24 TeX error: Mismatch: \\begin{aligned} matched by \\end{align}`,
    ],
  ];
  for (const [name, src, expected] of cases) test(name, () => assert.equal(renderError(src).message, expected));
  test("reported before the number ledger, which reads math before KaTeX runs", () => {
    let message = "";
    try {
      md.render("Text $x = 12{,}345 \\lamda$ here.", { page: { inputPath: file } });
    } catch (e) {
      message = findBookError(e)?.message ?? String(e);
    }
    assert.equal(message, `${file}:1:20 TeX error: Undefined control sequence: \\lamda; did you mean \`\\lambda\`?`);
  });
});

test("an unknown citation key or label suggests the nearest known one by edit distance", () => {
  assert.equal(
    renderError("See [@rajbhandari2020zer].").rawMessage,
    'unknown citation key "@rajbhandari2020zer" (not in bibliography.bib); did you mean `rajbhandari2020zero`?',
  );
  assert.equal(renderError("See [@qqqq].").rawMessage, 'unknown citation key "@qqqq" (not in bibliography.bib)');
  assert.equal(
    didYouMean("narayanan2021eficient", ["narayanan2021efficient", "narayanan2019pipedream"]),
    "; did you mean `narayanan2021efficient`?",
  );
  assert.equal(editDistance("kitten", "sitting"), 3);
  assert.equal(editDistance("alpah", "alpha"), 1, "two neighbours swapped are one edit");
  assert.equal(nearestName("lamda", ["Lambda", "lambda"]), "lambda", "a tie goes to the case that matches");
});
