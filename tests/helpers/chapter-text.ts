/**
 * Reading a chapter's Markdown from a test, so that every number the prose prints can be
 * recomputed from src/model and checked against the text. A chapter test does:
 *
 *   const text = readChapter("02-one-gpu");
 *   assertMentions(text, formatGB(bytes), "Adam states of an 8B model");
 *
 * The check is textual on purpose: if the prose and the model disagree, the test names the
 * expected string and the chapter file, and the author fixes one of them.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import assert from "node:assert/strict";
import { load as loadYaml } from "js-yaml";
import { expandValueReferences } from "../../src/plugins/markdown/exercise-check.ts";

const chaptersDir = path.resolve("content/chapters");

/**
 * Markdown source of a chapter, by file name without `.md` (e.g. "02-one-gpu"), with each
 * computed value `{=name}` printed as the build prints it (src/plugins/markdown/exercise-check.ts).
 */
export function readChapter(slug: string): string {
  const file = path.join(chaptersDir, `${slug}.md`);
  return expandValueReferences(readFileSync(file, "utf8"));
}

/**
 * Asserts that `text` contains `expected` verbatim (whitespace runs, including line breaks
 * inside a paragraph, compare equal to one space).
 */
export function assertMentions(text: string, expected: string, what: string): void {
  const norm = (s: string) => s.replace(/\s+/g, " ");
  assert.ok(
    norm(text).includes(norm(expected)),
    `expected the chapter to print "${expected}" (${what}); the model computes this value`,
  );
}

/**
 * The YAML settings of the `index`-th `::: widget <name>` block of a chapter (its source, before any
 * value is printed), so that a test can compute what the widget shows by default and check that the
 * prose quotes the same number.
 */
export function widgetSettings(slug: string, name: string, index = 0): Record<string, unknown> {
  const source = readFileSync(path.join(chaptersDir, `${slug}.md`), "utf8");
  const blocks = [
    ...source.matchAll(new RegExp(`^::: widget ${name}(?: title="[^"\\n]*")?\\n([\\s\\S]*?)^:::$`, "gm")),
  ];
  const block = blocks[index];
  assert.ok(block, `${slug} has a widget ${name} number ${index + 1}`);
  const settings = loadYaml(block[1] ?? "");
  assert.ok(settings && typeof settings === "object", `${slug}: widget ${name} has YAML settings`);
  return settings as Record<string, unknown>;
}
