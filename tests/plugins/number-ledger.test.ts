/**
 * The number ledger (issue #27): the arithmetic checker (src/plugins/tex-arithmetic.ts), the
 * classification of numbers in snippets rendered as a chapter (src/plugins/number-ledger.ts), the
 * build error at file:line:column, and a mutation check over the real chapters: a datasheet figure
 * whose last digit is changed is no longer accounted for.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import matter from "gray-matter";
import { md, testBib } from "../helpers/book-markdown.ts";
import { createBookMarkdown } from "../../src/plugins/markdown.ts";
import { includeCodeMarkdown } from "../../src/plugins/include-code.ts";
import { loadBibliography } from "../../src/plugins/bibliography.ts";
import { findBookError } from "../../src/plugins/errors.ts";
import { ledgerOf, type LedgerEntry, type NumberClass } from "../../src/plugins/number-ledger.ts";
import { checkChain, evaluateSide, printedHalfUnit, splitRelations } from "../../src/plugins/tex-arithmetic.ts";
import { assertApprox } from "../helpers/approx.ts";

void testBib;
const FILE = "content/chapters/03-zero.md"; // a chapter that is not pending: the ledger is enforced

function ledger(src: string): LedgerEntry[] {
  const env = { page: { inputPath: FILE }, ledgerReport: true };
  md.parse(src, env);
  return ledgerOf(env) ?? [];
}
function classes(src: string): string[] {
  return ledger(src).map((e) => `${e.text}:${e.cls}`);
}
function buildError(src: string): string {
  try {
    md.render(src, { page: { inputPath: FILE } });
  } catch (e) {
    const be = findBookError(e);
    if (be) return be.message;
    throw e;
  }
  return "";
}

describe("arithmetic in math", () => {
  test("evaluates the TeX the book writes", () => {
    assert.equal(evaluateSide("4 + 12/64"), 4.1875);
    assert.equal(evaluateSide("2 \\times 8{,}030{,}261{,}248"), 16_060_522_496);
    assertApprox(evaluateSide("\\frac{400\\ \\text{TFLOPS}}{989\\ \\text{TFLOPS}}")!, 400 / 989);
    assert.equal(evaluateSide("989.4\\times10^{12} / 50\\times10^{9}"), 989.4e12 / 50e9);
    assert.equal(evaluateSide("\\lfloor 65{,}536 / 96 \\rfloor"), 682);
    assertApprox(evaluateSide("2^9 \\cdot 10^{-4}")!, 0.0512);
    assertApprox(evaluateSide("40.4\\%")!, 0.404);
    assert.equal(evaluateSide("16N"), undefined, "a symbol makes a side symbolic");
    assert.equal(evaluateSide("\\text{MFU}"), undefined);
  });

  test("half a unit of the last printed digit", () => {
    assert.equal(printedHalfUnit("4.19"), 0.005);
    assert.equal(printedHalfUnit("107.8\\,\\text{GB}"), 0.05);
    assert.equal(printedHalfUnit("2{,}000"), 0.5, "an exact integer after =");
    assert.equal(printedHalfUnit("2{,}000", true), 500, "trailing zeros may be rounding after \\approx");
  });

  test("a chain holds to the printed precision, across a unit change, and fails otherwise", () => {
    const holds = (tex: string) => checkChain(splitRelations(tex)).failure === undefined;
    assert.ok(holds("4 + 12/64 = 4.1875"));
    assert.ok(holds("4 + 12/64 \\approx 4.19"));
    assert.ok(holds("4 + 12/64 = 4.19"), "= holds to the printed digits: 4.1875 prints as 4.19");
    assert.ok(!holds("512/256 = 3") && holds("512/256 = 2"), "an integer after = from exact operands is exact");
    assert.ok(
      !holds("65{,}536 / 96 = 682") && holds("\\lfloor 65{,}536 / 96 \\rfloor = 682"),
      "a whole count is written as a floor",
    );
    assert.ok(!holds("15/(32 \\times 0.1) = 5.69"), "a short decimal (0.1) is taken as exact");
    assert.ok(!holds("4 + 12/64 = 4.20"));
    assert.ok(!holds("4 + 12/64 = 4.1975"));
    assert.ok(holds("16 \\times 8 \\times 10^9 = 128"), "128 in the unit named after the math (GB)");
    assert.ok(holds("2 \\times 8{,}030{,}261{,}248 = 16.06"));
    assert.ok(!holds("2 \\times 8{,}030{,}261{,}248 = 16.16"));
    assert.ok(holds("\\tfrac{2}{3} \\cdot 4.649 = 3.100"), "4.649 is itself rounded: the error it carries is allowed");
    assert.ok(!holds("\\tfrac{2}{3} \\cdot 4.649 = 3.200"));
  });
});

describe("classification", () => {
  test("markers, data facts, citations, inputs, structure and formulas", () => {
    assert.deepEqual(classes("States take {=ch2.llama2StatesGB} GB for a batch of {:8,192} tokens.\n"), [
      "{=ch2.llama2StatesGB}:computed",
      "{:8,192}:input",
    ]);
    assert.deepEqual(classes("An H100 runs 989 TFLOPS of dense bf16 and holds 80 GB.\n"), ["989:data", "80:data"]);
    assert.deepEqual(classes("An H100 runs 988 TFLOPS.\n"), ["988:unaccounted"], "one digit off the datasheet");
    assert.deepEqual(classes("ZeRO cut memory 8 times [@rajbhandari2020zero]. It has 5 parts.\n"), [
      "8:cited",
      "5:unaccounted",
    ]);
    assert.deepEqual(classes("In 2020, chapter 8 and Llama 3.1 used 1F1B on H100s with 2:4 sparsity.\n"), [
      "2020:structural",
      "8:structural",
      "3.1:structural",
      "2:structural",
      "4:structural",
    ]);
    assert.deepEqual(classes("With $b = 8$ the states take $16N$ bytes and $x_1 = 2^{30}$.\n"), [
      "8:input",
      "16:formula",
      "1:structural",
      "2:structural",
      "30:structural",
    ]);
    assert.deepEqual(classes("That is $4 + 12/64 = 4.1875$ bytes.\n"), [
      "4:arithmetic",
      "12:arithmetic",
      "64:arithmetic",
      "4.1875:arithmetic",
    ]);
  });

  test("an exercise's question states its givens; its solution does not, and hardware rates are not givens", () => {
    const src = `## Exercises

::: exercise A question
With 64 GPUs and 60 GB/s links, how long?

::: solution
It takes 7 seconds.
:::
:::
`;
    assert.deepEqual(classes(src), ["64:input", "60:unaccounted", "7:unaccounted"]);
  });

  // The masks come from the book's inline parse; the regexes they replace got the code span, the
  // escaped backslash, the dollar amounts and the autolink below wrong ("5", "8", "5" and "1", "2").
  test("what is not prose is what the book's inline parser reads as code, math, links and markup", () => {
    // A code span opened by two backticks holds a single one ("`` a`5 ``"): all of it is code.
    assert.deepEqual(classes("Run `` a`5 `` and `` x ` 7 `` now.\n"), []);
    // "\$" is an escaped dollar, prose; the math after it is still math.
    assert.deepEqual(classes("It costs \\$ a lot; with $b = 8$ it fits.\n"), ["8:input"]);
    // An escaped backslash does not escape the "$" after it: "\\$b = 8$" is math.
    assert.deepEqual(classes("A path C:\\\\$b = 8$ here.\n"), ["8:input"]);
    // Dollar amounts that do not open math (a closing "$" before a digit) are prose.
    assert.deepEqual(classes("It costs $5 and $6 per hour.\n"), ["5:unaccounted", "6:unaccounted"]);
    // An autolink is a link target, even with "$" in it. A link's text and title are prose, its target is not.
    assert.deepEqual(classes("See <https://example.com/$1/v2/$2> or <https://arxiv.org/abs/2104.04473>.\n"), []);
    assert.deepEqual(classes('See [chapter 8](/chapters/8-x/#s2 "Part 3") and [the 7 steps](/a/7).\n'), [
      "8:structural",
      "3:unaccounted",
      "7:unaccounted",
    ]);
    // Entities, inline HTML, footnote references, cross-references and attributes are not prose.
    const src = '## Part {#sec:part}\n\nA&#8202;B <span data-n="4">x</span> note[^1] and @sec:part.\n\n[^1]: A note.\n';
    assert.deepEqual(classes(src), []);
  });

  test("a table row with a citation cites every cell", () => {
    const src = "| Run | GPUs |\n| --- | --- |\n| A [@shoeybi2019megatron] | 512 |\n| B | 256 |\n";
    assert.deepEqual(classes(src), ["512:cited", "256:unaccounted"]);
  });
});

describe("build errors", () => {
  test("an unaccounted number fails the build at file:line:column with what to do", () => {
    const message = buildError("First line.\nThe run used 37 nodes.\n");
    assert.match(message, /^content\/chapters\/03-zero\.md:2:14 number "37" is not accounted for: compute it/);
    // The chapter's one home for values is named; an input is offered only for a number the text chooses.
    assert.match(message, / compute it in src\/model\/values\/zero\.ts and print it with \{=name\} if it follows/);
    assert.match(message, /, or, only if the text chooses it, mark it as an input \(\{:37\}\)$/);
  });

  test("arithmetic that does not hold fails the build, naming both values", () => {
    const message = buildError("The sum $4 + 12/64 = 4.1975$ is wrong.\n");
    assert.match(
      message,
      /03-zero\.md:1:\d+ arithmetic does not hold: "4 \+ 12\/64 = 4\.1975" \(4 \+ 12\/64 is 4\.1875, 4\.1975 is 4\.1975\)/,
    );
  });

  test("an input marker holds one number", () => {
    assert.match(buildError("A batch of {:eight} sequences.\n"), /"\{:eight\}" marks an input and holds one number/);
    assert.equal(
      md
        .render("A batch of {:8,192} tokens, $s = {:8,192}$.\n", { page: { inputPath: FILE } })
        .includes("8,192 tokens"),
      true,
    );
  });
});

describe("the book's chapters", () => {
  const bibliography = loadBibliography("bibliography.bib");
  const book = createBookMarkdown({ bibliography: () => bibliography, assetsDir: "assets" });
  includeCodeMarkdown(book); // as the build does (.eleventy.ts)
  const dir = "content/chapters";
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".md"))
    .sort();
  const parse = (file: string, body: string) => {
    const env = { page: { inputPath: `./${file}` }, ledgerReport: true };
    book.parse(body, env);
    return ledgerOf(env) ?? [];
  };

  /**
   * Up to three entries of class `cls` in each chapter, spread over the chapter: the entry, the
   * file's text, the offset in that text where the entry starts, and the chapter's ledger again
   * with the digit at a given offset of the text raised by one (9 becomes 0).
   */
  function* sample(cls: NumberClass) {
    for (const name of files) {
      const file = path.join(dir, name);
      const text = readFileSync(file, "utf8");
      const { content: body } = matter(text);
      const offset = text.length - body.length;
      const lines = text.split("\n");
      const found = parse(file, body).filter((e) => e.cls === cls);
      for (const e of found.filter((_, k) => k % Math.max(1, Math.floor(found.length / 3)) === 0).slice(0, 3)) {
        const start = lines.slice(0, e.line - 1).reduce((n, l) => n + l.length + 1, 0) + e.column - 1;
        const reparse = (at: number) =>
          parse(file, body.slice(0, at - offset) + String((Number(text[at]) + 1) % 10) + body.slice(at - offset + 1));
        yield { file, text, e, start, reparse };
      }
    }
  }

  test("a datasheet figure with one digit changed is no longer accounted for (mutation check)", () => {
    let mutated = 0;
    const missed: string[] = [];
    for (const { file, text, e, start, reparse } of sample("data")) {
      // The entry's last digit.
      const written = /^[\d.,{}]*\d/.exec(text.slice(start))?.[0] ?? ""; // "8{,}030" in math
      const at = start + written.length - 1;
      assert.ok(Number.isInteger(Number(text[at])), `${file}:${e.line}:${e.column} "${e.text}" ends in a digit`);
      const after = reparse(at).find((x) => x.line === e.line && x.column === e.column);
      mutated++;
      if (after && after.cls === "data") missed.push(`${file}:${e.line}:${e.column} ${e.text} → still ${after.reason}`);
    }
    assert.ok(mutated >= 10, `mutated ${mutated} datasheet figures`);
    assert.deepEqual(missed, []);
  });

  test("a number of checked arithmetic with its first digit changed fails its chain (mutation check)", () => {
    let mutated = 0;
    const missed: string[] = [];
    for (const { file, text, e, start, reparse } of sample("arithmetic")) {
      const digit = Number(text[start]);
      if (!Number.isInteger(digit)) continue; // located inside a substituted marker: not a literal
      const after = reparse(start);
      mutated++;
      const failed = after.some((x) => x.line === e.line && x.reason.startsWith("arithmetic does not hold"));
      const still = after.find((x) => x.line === e.line && x.column === e.column && x.cls === "arithmetic");
      if (!failed && still)
        missed.push(`${file}:${e.line}:${e.column} ${e.text} → ${String((digit + 1) % 10)}… still holds`);
    }
    assert.ok(mutated >= 20, `mutated ${mutated} numbers of checked arithmetic`);
    assert.deepEqual(missed, []);
  });
});
