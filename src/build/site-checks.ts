/**
 * Checks over the whole built site, after Eleventy has written it: every internal link,
 * image, stylesheet and script points at a file that exists, every `#anchor` names an id on
 * the target page, nothing loads from another origin, links to other sites are well-formed
 * http(s) or mailto URLs (checked offline: syntax only, no network), no citation syntax (`[@…`)
 * was left unrendered, and no page carries inline script (a `<script>` without `src`, except
 * JSON data blocks, or an `on…=` event handler attribute), which the Content-Security-Policy
 * (src/build/csp.ts) would block. HTML is read with linkedom, never with regular expressions. A problem fails
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

/** Files a later step writes into the built site, so links to them are fine: `npm run pdf` (tools/pdf.ts) → book.pdf. */
export const writtenAfterBuild: ReadonlySet<string> = new Set(["book.pdf"]);

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
      if (ref === "" || (tag === "link" && ref.startsWith("data:"))) continue;
      const external = /^[a-z][a-z0-9+.-]*:/i.test(ref) || ref.startsWith("//");
      if (external) {
        // Plain links to other sites are fine; anything the page *loads* must be ours.
        if (tag !== "a") report(ref, `"${ref}" loads from another origin (copy it into assets/)`);
        else {
          const why = externalUrlProblem(ref);
          if (why) report(ref, `link "${ref}" ${why}`);
        }
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
      if (target && writtenAfterBuild.has(path.relative(outputDir, target).split(path.sep).join("/"))) continue;
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
    for (const why of inlineScriptProblems(document)) report(why.needle, why.message);
    // Citation syntax the Markdown did not understand would ship as text.
    // Outermost scopes only (an article inside main is read once), without cloning: the text
    // outside code and math, as textContent would give it.
    for (const scope of document.querySelectorAll("main, article")) {
      if (scope.parentElement?.closest("main, article")) continue;
      const m = /\[-?@[A-Za-z0-9_:.-]+[^\]]*\]/.exec(proseText(scope));
      if (m) report(m[0], `unrendered citation "${m[0]}"`);
    }
  }
  return problems;
}

/**
 * Why a link to another site is malformed, or undefined when it is fine. Offline: syntax only.
 * Allowed: absolute http/https URLs with a host, and mailto with an address; no whitespace.
 */
export function externalUrlProblem(ref: string): string | undefined {
  if (/\s/.test(ref)) return "contains whitespace";
  if (ref.startsWith("//")) return "is protocol-relative (write https://)";
  let url: URL;
  try {
    url = new URL(ref);
  } catch {
    return "is not a valid URL";
  }
  if (url.protocol === "mailto:") return /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(decodeURIComponent(url.pathname)) ? undefined : "is not a valid mailto address";
  if (url.protocol !== "http:" && url.protocol !== "https:") return `uses the scheme "${url.protocol}" (only http, https and mailto)`;
  if (!/^[a-z0-9.-]+$/i.test(url.hostname) || !url.hostname.includes(".") || /^[.-]|[.-]$/.test(url.hostname)) {
    return `has no valid host name ("${url.hostname}")`;
  }
  return undefined;
}

/**
 * Inline script the Content-Security-Policy forbids: a `<script>` without `src` (JSON data
 * blocks, `type="application/json"` or `application/ld+json`, are data and allowed) and any
 * event handler attribute (`onclick=` …).
 */
export function inlineScriptProblems(document: Document): { needle: string; message: string }[] {
  const found: { needle: string; message: string }[] = [];
  for (const el of document.querySelectorAll("script")) {
    if (el.hasAttribute("src")) continue;
    const type = (el.getAttribute("type") ?? "").trim().toLowerCase();
    if (type === "application/json" || type === "application/ld+json") continue;
    found.push({ needle: "<script", message: "inline <script> (the Content-Security-Policy blocks it: put the code in src/widgets/ and load it by src)" });
  }
  for (const el of document.querySelectorAll("*")) {
    for (const attr of Array.from(el.attributes)) {
      if (/^on[a-z]+$/i.test(attr.name)) {
        found.push({ needle: `${attr.name}=`, message: `inline event handler ${attr.name}= on <${el.tagName.toLowerCase()}> (the Content-Security-Policy blocks it: add a listener in script)` });
      }
    }
  }
  return found;
}

const notProse = new Set(["code", "pre", "annotation", "script", "style"]);

/** An element's text content, leaving out code, KaTeX's TeX annotations, scripts and styles. */
function proseText(el: Element): string {
  let out = "";
  for (const child of Array.from(el.childNodes)) {
    if (child.nodeType === 3) out += child.textContent ?? "";
    else if (child.nodeType === 1 && !notProse.has((child as Element).tagName.toLowerCase())) out += proseText(child as Element);
  }
  return out;
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
