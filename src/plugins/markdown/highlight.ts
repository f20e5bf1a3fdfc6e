/**
 * Syntax highlighting of fenced code blocks, at build time: highlight.js turns the code into
 * `<span class="hljs-…">` tokens while the Markdown renders, so readers download no
 * highlighter and the colors are there with JavaScript off, in print and in the PDF. The
 * colors are CSS variables in assets/css/book.css (one set per theme).
 *
 * Only the languages registered below are known. A fence that names any other language fails
 * the build with the file and line: a typo such as ```pyhton would otherwise ship as plain text
 * without anyone noticing, and a language the book really needs is one line here. A fence with
 * no language is plain text on purpose (program output, a file listing).
 *
 * Every fenced block is wrapped in `<div class="code-block">`: book.js puts its "Copy code"
 * button there, outside the `<pre>`, so the `<pre>` stays a plain scroll box (focusable when it
 * overflows) and the page without JavaScript has no button at all.
 */
import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import c from "highlight.js/lib/languages/c";
import cpp from "highlight.js/lib/languages/cpp";
import diff from "highlight.js/lib/languages/diff";
import ini from "highlight.js/lib/languages/ini";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import markdown from "highlight.js/lib/languages/markdown";
import plaintext from "highlight.js/lib/languages/plaintext";
import python from "highlight.js/lib/languages/python";
import shell from "highlight.js/lib/languages/shell";
import typescript from "highlight.js/lib/languages/typescript";
import yaml from "highlight.js/lib/languages/yaml";
import type MarkdownIt from "markdown-it";
import type { StateCore } from "markdown-it";
import { BookError, normalizeFile } from "../shared/errors.ts";
import { escapeHtml, frontMatterLines } from "./doc-state.ts";
import type { UserConfig } from "@11ty/eleventy";

/** The fence names the book accepts: highlight.js grammar → extra names for it. */
const grammars: ReadonlyArray<readonly [string, Parameters<typeof hljs.registerLanguage>[1], readonly string[]]> = [
  ["python", python, ["py", "triton"]], // Triton kernels are Python
  ["bash", bash, ["sh", "zsh"]],
  ["shell", shell, ["console", "shell-session"]], // "$ command" lines followed by output
  ["c", c, ["h"]],
  ["cpp", cpp, ["c++", "cc", "cuda", "cu"]], // CUDA C++ reads as C++ (__global__ and friends are identifiers)
  ["json", json, []],
  ["yaml", yaml, ["yml"]],
  ["ini", ini, ["toml"]],
  ["javascript", javascript, ["js", "mjs"]],
  ["typescript", typescript, ["ts"]],
  ["markdown", markdown, ["md"]],
  ["diff", diff, ["patch"]],
  ["plaintext", plaintext, ["text", "txt"]],
];

for (const [name, grammar, aliases] of grammars) {
  hljs.registerLanguage(name, grammar);
  if (aliases.length) hljs.registerAliases([...aliases], { languageName: name });
}

/** Every name a fence may use, sorted. */
export const knownLanguages: readonly string[] = grammars.flatMap(([name, , aliases]) => [name, ...aliases]).sort();

/** The language named by a fence's info string ("python {.wide}" → "python"), lower-cased; "" for none. */
export function fenceLanguage(info: string): string {
  return (info.trim().split(/\s+/)[0] ?? "").toLowerCase();
}

/** True when a fence may name this language ("" = plain text). */
export function isKnownLanguage(lang: string): boolean {
  return lang === "" || hljs.getLanguage(lang) !== undefined;
}

/**
 * The code as highlighted HTML (token spans, text escaped), without the `<pre><code>` around it.
 * Throws for an unknown language; "" gives the escaped text.
 */
export function highlightCode(code: string, lang: string): string {
  if (lang === "") return escapeHtml(code);
  if (!hljs.getLanguage(lang)) throw new Error(`unknown code language "${lang}"`);
  return hljs.highlight(code, { language: lang, ignoreIllegals: true }).value;
}

/** markdown-it plugin: validates fence languages (file:line errors), highlights, wraps each block. */
export function highlightMarkdown(md: MarkdownIt): void {
  md.core.ruler.push("book_code_languages", (state: StateCore) => {
    for (const token of state.tokens) {
      if (token.type !== "fence") continue;
      const lang = fenceLanguage(token.info);
      if (isKnownLanguage(lang)) continue;
      const env = state.env as { page?: { inputPath?: string } };
      const inputPath = env.page?.inputPath;
      const file = normalizeFile(inputPath ?? "(unknown file)");
      const line = token.map ? (inputPath ? frontMatterLines(inputPath, state.src) : 0) + token.map[0] + 1 : undefined;
      throw new BookError(
        file,
        line,
        `unknown code language "${lang}" in a fenced block (known: ${knownLanguages.join(", ")}; add one in src/plugins/markdown/highlight.ts)`,
      );
    }
    return true;
  });
  md.set({ highlight: (code: string, lang: string) => highlightCode(code, fenceLanguage(lang)) });
  const fence = md.renderer.rules.fence!;
  md.renderer.rules.fence = (tokens, idx, options, env, self) => {
    return `<div class="code-block">${fence(tokens, idx, options, env, self).trimEnd()}</div>\n`;
  };
}

export function highlightPlugin(eleventyConfig: UserConfig): void {
  eleventyConfig.amendLibrary("md", (md: MarkdownIt) => highlightMarkdown(md));
}
