/**
 * Every built page is valid HTML (html-validate's recommended rules with the changes in
 * .htmlvalidate.json, explained in docs/html-validate.md: KaTeX needs inline styles and ids
 * such as "eq:name" contain a colon). Runs with the browser tests because it
 * needs the built site; guards against broken markup from templates, plugins and widgets.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { HtmlValidate } from "html-validate";

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
  }
  assert.deepEqual(problems, []);
});
