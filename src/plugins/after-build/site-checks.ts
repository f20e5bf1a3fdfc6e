/**
 * Checks over the whole built site, after Eleventy has written it: every internal link,
 * image, stylesheet and script points at a file that exists, every `#anchor` names an id on
 * the target page, nothing loads from another origin, links to other sites are well-formed
 * http(s) or mailto URLs (checked offline: syntax only, no network), no citation syntax (`[@…`)
 * was left unrendered, and no page carries inline script (a `<script>` without `src`, except
 * JSON data blocks, or an `on…=` event handler attribute), which the Content-Security-Policy
 * (src/plugins/site/csp.ts) would block. A problem fails the build as a BookError naming the source
 * file, and the line when the source contains the link text literally.
 *
 * Each page is read once by htmlparser2's streaming parser (the tokenizer linkedom itself
 * uses), never with regular expressions, and without building a DOM: the checks need only
 * tags, attributes and text, and building linkedom documents for every page (/book/ alone has
 * about 77,000 elements) took about 1.5 s of a 10 s build.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { Parser } from "htmlparser2";
import { BookError, normalizeFile } from "../shared/errors.ts";
import type { UserConfig } from "@11ty/eleventy";

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

/**
 * Files a later step writes into the built site, so links to them are fine: `npm run pdf` (tools/pdf.ts) → book.pdf.
 */
const writtenAfterBuild: ReadonlySet<string> = new Set(["book.pdf"]);

/** What the checks need from one page. */
export interface PageScan {
  /** Every `id` attribute value. */
  ids: Set<string>;
  /** Every URL the page links to or loads: `[value, tag]` for `a`/`link` `href` and the `src` of loading elements. */
  refs: [string, string][];
  /** Inline script and event handler attributes (see inlineScriptProblems). */
  inlineScripts: { needle: string; message: string }[];
  /**
   * The prose text of each outermost `main` or `article`: text
   * outside code, pre, KaTeX's TeX annotations, scripts and styles.
   */
  prose: string[];
}

const srcTags = new Set(["img", "script", "iframe", "source", "video", "audio"]);
const notProse = new Set(["code", "pre", "annotation", "script", "style"]);

/** Reads one page's HTML in a single streaming pass (htmlparser2: entities decoded, names lower-cased). */
export function scanPage(html: string): PageScan {
  const scan: PageScan = { ids: new Set(), refs: [], inlineScripts: [], prose: [] };
  let scopeDepth = 0; // open main/article elements
  let skipDepth = 0; // open elements whose text is not prose
  let text = "";
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (attrs.id !== undefined) scan.ids.add(attrs.id);
        if ((name === "a" || name === "link") && attrs.href !== undefined) scan.refs.push([attrs.href, name]);
        if (srcTags.has(name) && attrs.src !== undefined) scan.refs.push([attrs.src, name]);
        if (name === "script" && attrs.src === undefined) {
          const type = (attrs.type ?? "").trim().toLowerCase();
          if (type !== "application/json" && type !== "application/ld+json") {
            scan.inlineScripts.push({
              needle: "<script",
              message:
                "inline <script> (the Content-Security-Policy blocks it: put the code in src/widgets/ and load it by src)",
            });
          }
        }
        for (const attr of Object.keys(attrs)) {
          if (/^on[a-z]+$/i.test(attr)) {
            scan.inlineScripts.push({
              needle: `${attr}=`,
              message: `inline event handler ${attr}= on <${name}> (the Content-Security-Policy blocks it: add a listener in script)`,
            });
          }
        }
        if (name === "main" || name === "article") scopeDepth++;
        if (scopeDepth > 0 && notProse.has(name)) skipDepth++;
      },
      ontext(data) {
        if (scopeDepth > 0 && skipDepth === 0) text += data;
      },
      onclosetag(name) {
        if (scopeDepth > 0 && notProse.has(name) && skipDepth > 0) skipDepth--;
        if ((name === "main" || name === "article") && scopeDepth > 0) {
          scopeDepth--;
          if (scopeDepth === 0) {
            scan.prose.push(text);
            text = "";
          }
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  return scan;
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
  const byFile = new Map<string, { page: BuiltPage; scan: PageScan }>();
  for (const page of pages) {
    if (!page.outputPath || !page.outputPath.endsWith(".html")) continue;
    byFile.set(path.resolve(page.outputPath), { page, scan: scanPage(page.content) });
  }
  const prefix = pathPrefix.endsWith("/") ? pathPrefix : `${pathPrefix}/`;
  for (const [key, { page, scan }] of byFile) {
    const report = (needle: string, message: string) =>
      problems.push({ file: normalizeFile(page.inputPath), line: lineOf(page.inputPath, needle), message });
    for (const [ref, tag] of scan.refs) {
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
        target = fileForPath(
          outputDir,
          path.posix.join(path.posix.dirname(new URL(page.url || "/", "http://x").pathname + "x"), pathPart),
        );
      }
      if (target && writtenAfterBuild.has(path.relative(outputDir, target).split(path.sep).join("/"))) continue;
      if (!target || !existsSync(target)) {
        report(ref, `broken link "${ref}" (no such page or file in the built site)`);
        continue;
      }
      if (fragment !== undefined && fragment !== "") {
        const t = byFile.get(path.resolve(target));
        if (t && !t.scan.ids.has(decodeURIComponent(fragment))) {
          report(ref, `broken link "${ref}": no element with id "${decodeURIComponent(fragment)}" on ${t.page.url}`);
        }
      }
    }
    for (const why of scan.inlineScripts) report(why.needle, why.message);
    // Citation syntax the Markdown did not understand would ship as text.
    for (const prose of scan.prose) {
      const m = /\[-?@[A-Za-z0-9_:.-]+[^\]]*\]/.exec(prose);
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
  if (url.protocol === "mailto:")
    return /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(decodeURIComponent(url.pathname))
      ? undefined
      : "is not a valid mailto address";
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return `uses the scheme "${url.protocol}" (only http, https and mailto)`;
  if (!/^[a-z0-9.-]+$/i.test(url.hostname) || !url.hostname.includes(".") || /^[.-]|[.-]$/.test(url.hostname)) {
    return `has no valid host name ("${url.hostname}")`;
  }
  return undefined;
}

/**
 * Inline script the Content-Security-Policy forbids in a page's HTML: a `<script>` without
 * `src` (JSON data blocks, `type="application/json"` or `application/ld+json`, are data and
 * allowed) and any event handler attribute (`onclick=` …).
 */
export function inlineScriptProblems(html: string): { needle: string; message: string }[] {
  return scanPage(html).inlineScripts;
}

function splitRef(ref: string): [string, string | undefined] {
  const noQuery = ref.replace(/\?[^#]*/, "");
  const i = noQuery.indexOf("#");
  return i < 0 ? [noQuery, undefined] : [noQuery.slice(0, i), noQuery.slice(i + 1)];
}

export function siteChecksPlugin(eleventyConfig: UserConfig): void {
  eleventyConfig.on("eleventy.after", ({ results, directories, runMode }) => {
    const problems = checkSite(results, directories.output, eleventyConfig.pathPrefix ?? "/");
    if (problems.length === 0) return;
    const errors = problems.map((p) => new BookError(p.file, p.line, p.message));
    if (runMode === "serve" || runMode === "watch") {
      for (const e of errors) console.error(`[book] ${e.message}`);
      return;
    }
    const first = errors[0]!;
    if (errors.length > 1) {
      throw new BookError(
        first.file,
        first.line,
        `${first.rawMessage}\n${errors
          .slice(1)
          .map((e) => `  ${e.message}`)
          .join("\n")}`,
      );
    }
    throw first;
  });
}
