/**
 * Every built page is valid HTML (html-validate's recommended rules with the changes in
 * .htmlvalidate.json, explained in docs/html-validate.md: KaTeX needs inline styles, ids
 * such as "eq:name" contain a colon, and the title's length is checked here, decoded), and is
 * written in ASCII (src/plugins/site/ascii-html.ts). It sits with the browser tests because it needs
 * the built site, though it needs no browser; guards against broken markup from templates,
 * plugins and widgets.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { HtmlValidate } from "html-validate";
import { DomUtils, parseDocument } from "htmlparser2";

/** html-validate's `long-title` limit, which .htmlvalidate.json turns off because it counts references as written. */
const titleMaxLength = 70;

function htmlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === "assets" ? [] : htmlFiles(full);
    return name.endsWith(".html") ? [full] : [];
  });
}

test("every page in _site is valid HTML", async () => {
  // The rules and why each differs from the recommended preset: .htmlvalidate.json, docs/html-validate.md.
  const validator = new HtmlValidate(JSON.parse(readFileSync(".htmlvalidate.json", "utf8")));
  const files = htmlFiles(process.env.SITE_DIR ?? "_site");
  assert.ok(files.length > 1, "run npm run build first");
  const problems: string[] = [];
  for (const file of files) {
    const report = await validator.validateFile(file);
    for (const r of report.results) {
      for (const m of r.messages) problems.push(`${file}:${m.line}:${m.column} ${m.ruleId}: ${m.message}`);
    }
    const title = DomUtils.findOne((e) => e.name === "title", parseDocument(readFileSync(file, "utf8")).children);
    const text = title ? DomUtils.textContent(title) : "";
    if (text.length > titleMaxLength) problems.push(`${file}: title longer than ${titleMaxLength} characters: ${text}`);
  }
  assert.deepEqual(problems, []);
});

test("every page in _site is written in ASCII (src/plugins/site/ascii-html.ts)", () => {
  const files = htmlFiles(process.env.SITE_DIR ?? "_site");
  assert.ok(files.length > 1, "run npm run build first");
  const problems: string[] = [];
  for (const file of files) {
    const lines = readFileSync(file, "utf8").split("\n");
    const line = lines.findIndex((text) => /[\u0080-\u{10ffff}]/u.test(text));
    if (line === -1) continue;
    const column = (lines[line] ?? "").search(/[\u0080-\u{10ffff}]/u);
    problems.push(
      `${file}:${line + 1}:${column + 1} ${JSON.stringify((lines[line] ?? "").slice(Math.max(0, column - 30), column + 10))}`,
    );
  }
  assert.deepEqual(problems, []);
});
