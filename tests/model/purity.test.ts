import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

// src/model and src/data run in the browser too: no node:* modules, no d3, no DOM globals, and
// nothing imported from outside src/model and src/data (src/data imports nothing at all but
// other src/data files).
const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** Source without comments and string contents, so prose like "the document" cannot trip the check. */
function codeOnly(source: string): string {
  return source
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/(^|[^:])\/\/.*$/gm, "$1")
    .replace(/`(?:\\[\s\S]|[^`\\])*`/g, "``")
    .replace(/"(?:\\.|[^"\\\n])*"/g, '""')
    .replace(/'(?:\\.|[^'\\\n])*'/g, "''");
}

const importPattern =
  /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)/g;

for (const area of ["src/model", "src/data"]) {
  test(`${area}: no node:*, d3, DOM globals or imports from outside src/model and src/data`, () => {
    const files = tsFiles(join(root, area));
    assert.ok(files.length > 0);
    const problems: string[] = [];
    for (const file of files) {
      const source = readFileSync(file, "utf8");
      const rel = relative(root, file);
      for (const match of source.matchAll(importPattern)) {
        const spec = match[1] ?? match[2];
        if (!spec.startsWith(".")) {
          problems.push(`${rel} imports "${spec}": only relative imports within src/model and src/data are allowed`);
          continue;
        }
        const target = relative(root, resolve(dirname(file), spec));
        const allowed =
          area === "src/data"
            ? target.startsWith("src/data/")
            : target.startsWith("src/model/") || target.startsWith("src/data/");
        if (!allowed) problems.push(`${rel} imports ${target}: ${area} may not import from there`);
      }
      const code = codeOnly(source);
      for (const global of ["window", "document", "navigator", "localStorage", "HTMLElement", "require", "process"]) {
        if (new RegExp(`(?<![\\w.$])${global}\\b`).test(code)) problems.push(`${rel} uses the global "${global}"`);
      }
    }
    assert.deepEqual(problems, []);
  });
}
