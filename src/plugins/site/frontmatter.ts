/**
 * Front matter check. Every Markdown page must start with YAML front matter holding `title`
 * and `description` (one sentence), and may hold `subtitle`; chapters may hold nothing else,
 * so a typo such as `descripton:` fails instead of silently doing nothing. Other pages (the
 * home page) may also set `layout` and `permalink`.
 */
import { readFileSync } from "node:fs";
import { load as loadYaml } from "js-yaml";
import { BookError, normalizeFile } from "../shared/errors.ts";
import { isChapterPath } from "../shared/chapters.ts";
import type { UserConfig } from "@11ty/eleventy";

const chapterKeys = ["title", "description", "subtitle"];
const pageKeys = [...chapterKeys, "layout", "permalink"];

/** Validates the front matter of one file's text; throws BookError. */
function checkFrontMatter(text: string, file: string): void {
  const src = text.replace(/\r\n?/g, "\n");
  const rel = normalizeFile(file);
  const m = /^---\n([\s\S]*?)\n---[ \t]*(\n|$)/.exec(src);
  if (!m)
    throw new BookError(rel, 1, `front matter missing: start the file with "---", title: …, description: …, "---"`);
  const yaml = m[1]!;
  let data: unknown;
  try {
    data = loadYaml(yaml);
  } catch (e) {
    const line = (e as { mark?: { line?: number } }).mark?.line;
    const msg = (e instanceof Error ? e.message : String(e)).split("\n")[0];
    throw new BookError(rel, line === undefined ? 1 : line + 2, `bad front matter: ${msg}`, { cause: e });
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    throw new BookError(rel, 2, `bad front matter: expected "key: value" lines`);
  }
  const lineOf = (key: string): number => {
    const i = yaml.split("\n").findIndex((l) => l.startsWith(`${key}:`));
    return i < 0 ? 1 : i + 2;
  };
  const allowed = isChapterPath(rel) ? chapterKeys : pageKeys;
  const obj = data as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) {
      throw new BookError(rel, lineOf(key), `bad front matter: unknown key "${key}" (allowed: ${allowed.join(", ")})`);
    }
  }
  for (const key of ["title", "description"]) {
    const v = obj[key];
    if (typeof v !== "string" || v.trim() === "") {
      throw new BookError(rel, lineOf(key), `bad front matter: "${key}" must be a non-empty string`);
    }
  }
  if (obj.subtitle !== undefined && (typeof obj.subtitle !== "string" || obj.subtitle.trim() === "")) {
    throw new BookError(rel, lineOf("subtitle"), `bad front matter: "subtitle" must be a non-empty string`);
  }
  const description = (obj.description as string).trim();
  if (!/[.?!]$/.test(description)) {
    throw new BookError(
      rel,
      lineOf("description"),
      `bad front matter: "description" must be one sentence ending with a period`,
    );
  }
}

export function frontMatterPlugin(eleventyConfig: UserConfig): void {
  eleventyConfig.addPreprocessor("book-front-matter", "md", (data, content) => {
    checkFrontMatter(readFileSync(data.page.inputPath, "utf8"), data.page.inputPath);
    return content;
  });
}
