/**
 * Checks over the whole built site, after Eleventy has written it: every internal link,
 * image, stylesheet and script points at a file that exists, every `#anchor` names an id on
 * the target page, nothing loads from another origin, and no citation syntax (`[@…`) was left
 * unrendered. HTML is read with linkedom, never with regular expressions. A problem fails
 * the build as a BookError naming the source file, and the line when the source contains the
 * link text literally.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { parseHTML } from "linkedom";
import { BookError, normalizeFile } from "./errors.ts";

export interface BuiltPage {
  inputPath: string;
  outputPath: string | false;
  url: string | false;
  content: string;
}

export interface SiteProblem {
  file: string;
  line: number | undefined;
  message: string;
}

interface ParsedPage {
  page: BuiltPage;
  ids: Set<string>;
}

/** Output file for a root-relative URL path ("/zero/" → "_site/zero/index.html"). */
function fileForPath(outputDir: string, urlPath: string): string | undefined {
  const decoded = decodeURIComponent(urlPath);
  const candidate = path.join(outputDir, decoded);
  if (!path.resolve(candidate).startsWith(path.resolve(outputDir))) return undefined;
  if (decoded.endsWith("/")) return path.join(candidate, "index.html");
  if (existsSync(candidate) && statSync(candidate).isDirectory()) return path.join(candidate, "index.html");
  return candidate;
}

function lineOf(inputPath: string, needle: string): number | undefined {
  try {
    const lines = readFileSync(inputPath, "utf8").split("\n");
    const i = lines.findIndex((l) => l.includes(needle));
    return i < 0 ? undefined : i + 1;
  } catch {
    return undefined;
  }
}

/** Runs every check; returns the problems (empty when the site is sound). */
export function checkSite(pages: BuiltPage[], outputDir: string, pathPrefix = "/"): SiteProblem[] {
  const problems: SiteProblem[] = [];
  const byFile = new Map<string, ParsedPage>();
  const docs = new Map<string, Document>();
  for (const page of pages) {
    if (!page.outputPath || !page.outputPath.endsWith(".html")) continue;
    const { document } = parseHTML(page.content);
    const ids = new Set<string>();
    for (const el of document.querySelectorAll("[id]")) ids.add(el.getAttribute("id")!);
    const key = path.resolve(page.outputPath);
    byFile.set(key, { page, ids });
    docs.set(key, document as unknown as Document);
  }
  const prefix = pathPrefix.endsWith("/") ? pathPrefix : `${pathPrefix}/`;
  for (const [key, { page }] of byFile) {
    const document = docs.get(key)!;
    const report = (needle: string, message: string) =>
      problems.push({ file: normalizeFile(page.inputPath), line: lineOf(page.inputPath, needle), message });
    const refs: [string, string][] = [];
    for (const el of document.querySelectorAll("a[href], link[href]")) refs.push([el.getAttribute("href")!, el.tagName.toLowerCase()]);
    for (const el of document.querySelectorAll("img[src], script[src], iframe[src], source[src], video[src], audio[src]")) {
      refs.push([el.getAttribute("src")!, el.tagName.toLowerCase()]);
    }
    for (const [ref, tag] of refs) {
      if (ref === "" || ref.startsWith("data:") || ref.startsWith("mailto:")) continue;
      const external = /^[a-z][a-z0-9+.-]*:/i.test(ref) || ref.startsWith("//");
      if (external) {
        // Plain links to other sites are fine; anything the page *loads* must be ours.
        if (tag !== "a") report(ref, `"${ref}" loads from another origin (copy it into assets/)`);
        continue;
      }
      const [pathPart, fragment] = splitRef(ref);
      let target: string | undefined;
      if (pathPart === "") {
        target = key;
      } else if (pathPart.startsWith("/")) {
        if (!pathPart.startsWith(prefix)) {
          report(ref, `link "${ref}" is outside the site's path prefix ${prefix}`);
          continue;
        }
        target = fileForPath(outputDir, "/" + pathPart.slice(prefix.length));
      } else {
        target = fileForPath(outputDir, path.posix.join(path.posix.dirname(new URL(page.url || "/", "http://x").pathname + "x"), pathPart));
      }
      if (!target || !existsSync(target)) {
        report(ref, `broken link "${ref}" (no such page or file in the built site)`);
        continue;
      }
      if (fragment !== undefined && fragment !== "") {
        const t = byFile.get(path.resolve(target));
        if (t && !t.ids.has(decodeURIComponent(fragment))) {
          report(ref, `broken link "${ref}": no element with id "${decodeURIComponent(fragment)}" on ${t.page.url}`);
        }
      }
    }
    // Citation syntax the Markdown did not understand would ship as text.
    const walker = document.querySelectorAll("main, article");
    for (const scope of walker) {
      const clone = scope.cloneNode(true) as Element;
      for (const skip of clone.querySelectorAll("code, pre, annotation, script, style")) skip.remove();
      const m = /\[-?@[A-Za-z0-9_:.-]+[^\]]*\]/.exec(clone.textContent ?? "");
      if (m) report(m[0], `unrendered citation "${m[0]}"`);
    }
  }
  return problems;
}

function splitRef(ref: string): [string, string | undefined] {
  const noQuery = ref.replace(/\?[^#]*/, "");
  const i = noQuery.indexOf("#");
  return i < 0 ? [noQuery, undefined] : [noQuery.slice(0, i), noQuery.slice(i + 1)];
}

export function siteChecksPlugin(eleventyConfig: any): void {
  eleventyConfig.on(
    "eleventy.after",
    ({ results, directories, runMode }: { results: BuiltPage[]; directories: { output: string }; runMode: string }) => {
      const problems = checkSite(results, directories.output, eleventyConfig.pathPrefix ?? "/");
      if (problems.length === 0) return;
      const errors = problems.map((p) => new BookError(p.file, p.line, p.message));
      if (runMode === "serve" || runMode === "watch") {
        for (const e of errors) console.error(`[book] ${e.message}`);
        return;
      }
      const first = errors[0]!;
      if (errors.length > 1) {
        throw new BookError(first.file, first.line, `${first.rawMessage}\n${errors.slice(1).map((e) => `  ${e.message}`).join("\n")}`);
      }
      throw first;
    },
  );
}
