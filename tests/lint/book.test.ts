/**
 * The whole book passes its own prose gate: every chapter, the bibliography and the prose data
 * files, with the real configuration. The failure message is the gate's own output.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { lintConfig } from "../../tools/lint/config.ts";
import { type Finding, formatFinding } from "../../tools/lint/findings.ts";
import { lint } from "../../tools/lint/run.ts";
import { root } from "./helpers.ts";

describe("the book", () => {
  it("has zero prose findings (npm run lint)", async () => {
    const { findings, files } = await lint(lintConfig, root);
    assert.ok(
      files.some((f) => f.startsWith("content/")),
      "no Markdown found under content/",
    );
    assert.ok(files.includes(lintConfig.bibliography.path), "bibliography not checked");
    assert.deepEqual(
      findings.map(formatFinding),
      [],
      `${findings.length} finding(s):\n${findings.map(formatFinding).join("\n")}`,
    );
  });
});

describe("formatFinding", () => {
  it("prints file:line:col, the rule, the message and the suggestion", () => {
    const f: Finding = {
      file: "content/chapters/03-zero.md",
      line: 41,
      col: 12,
      offset: 900,
      length: 7,
      rule: "term-casing",
      message: '"Pytorch": the book writes "PyTorch"',
      suggestion: "PyTorch",
    };
    assert.equal(
      formatFinding(f),
      'content/chapters/03-zero.md:41:12  term-casing  "Pytorch": the book writes "PyTorch" → PyTorch',
    );
    const { suggestion: _, ...bare } = f;
    assert.equal(
      formatFinding(bare),
      'content/chapters/03-zero.md:41:12  term-casing  "Pytorch": the book writes "PyTorch"',
    );
  });
});
