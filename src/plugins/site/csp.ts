/**
 * Content-Security-Policy: one policy, written into every built page as
 * `<meta http-equiv="Content-Security-Policy">` (right after `<meta charset>`, before anything
 * that loads) and into `_headers` (Netlify / Cloudflare Pages format) at the root of the built
 * site, where the HTTP header can also carry what a `<meta>` policy cannot (frame-ancestors).
 *
 * Each source is there for a reason (docs/security.md repeats this for readers of the repo):
 * - `default-src 'self'`: anything not listed below comes from our origin only.
 * - `script-src 'self' 'wasm-unsafe-eval'`: book.js and the widget bundles are files on our
 *   origin; no inline script, no eval. 'wasm-unsafe-eval' lets Pagefind compile its
 *   WebAssembly search index (it allows WebAssembly compilation only, not JavaScript eval).
 * - `style-src 'self' 'unsafe-inline'`: our stylesheets, each page's inline `<style>` of first-screen
 *   rules (critical-css.ts), and the `style="…"` attributes KaTeX
 *   writes at build time (heights, vertical offsets) and styles widgets set while drawing
 *   (d3 `.style()`, one widget adds a `<style>` element). Styles cannot run code.
 * - `img-src 'self' data:`: our SVGs; `data:` for the empty favicon (`<link rel=icon href="data:,">`).
 * - `font-src 'self'`: KaTeX's woff2 fonts in /assets/katex/fonts (cut to the book's characters: math-fonts.ts).
 * - `connect-src 'self'`: Pagefind fetches its index and WebAssembly from our origin.
 * - `object-src 'none'`, `base-uri 'self'`, `form-action 'self'`: no plugins, no `<base>`
 *   hijacking, forms (the search box) submit only to us.
 * The build also fails on inline `<script>` and `on…=` attributes (src/plugins/after-build/site-checks.ts),
 * so the policy never has to be loosened for them.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { Parser } from "htmlparser2";
import type { UserConfig } from "@11ty/eleventy";
import { BookError } from "../shared/errors.ts";

/** The policy's directives, in the order they are written. */
const cspDirectives: ReadonlyArray<readonly [string, string]> = [
  ["default-src", "'self'"],
  ["script-src", "'self' 'wasm-unsafe-eval'"],
  ["style-src", "'self' 'unsafe-inline'"],
  ["img-src", "'self' data:"],
  ["font-src", "'self'"],
  ["connect-src", "'self'"],
  ["object-src", "'none'"],
  ["base-uri", "'self'"],
  ["form-action", "'self'"],
];

/** Directives a browser ignores (and warns about) in a `<meta>` policy: HTTP header only. */
const headerOnlyDirectives: ReadonlyArray<readonly [string, string]> = [["frame-ancestors", "'none'"]];

export const contentSecurityPolicy: string = cspDirectives.map(([k, v]) => `${k} ${v}`).join("; ");

export const cspMetaTag = `<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy}">`;

/** `_headers` for Netlify and Cloudflare Pages: the same policy plus header-only protections. */
export function headersFile(): string {
  const policy = [...cspDirectives, ...headerOnlyDirectives].map(([k, v]) => `${k} ${v}`).join("; ");
  return [
    "# Written by the build (src/plugins/site/csp.ts); edit the policy there, not here.",
    "/*",
    `  Content-Security-Policy: ${policy}`,
    "  X-Content-Type-Options: nosniff",
    "  X-Frame-Options: DENY",
    "  Referrer-Policy: strict-origin-when-cross-origin",
    "  Permissions-Policy: camera=(), microphone=(), geolocation=()",
    "  Cross-Origin-Opener-Policy: same-origin",
    "",
  ].join("\n");
}

/**
 * Puts the policy into one page's HTML, right after `<meta charset>` (or first in `<head>`), so
 * it governs everything the page loads. htmlparser2 finds the tags and their source offsets;
 * the rest of the page is copied as it was. A page without `<head>`, or one that sets its own
 * policy, is a build error.
 */
function insertCspMeta(html: string, inputPath: string): string {
  let charsetEnd: number | undefined;
  let headEnd: number | undefined;
  let ownPolicy = false;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === "head") headEnd ??= parser.endIndex + 1;
        if (name !== "meta") return;
        if (attrs.charset?.toLowerCase() === "utf-8") charsetEnd ??= parser.endIndex + 1;
        if (attrs["http-equiv"]?.toLowerCase() === "content-security-policy") ownPolicy = true;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  if (ownPolicy) {
    throw new BookError(
      inputPath,
      undefined,
      "the page sets its own Content-Security-Policy; the policy lives in src/plugins/site/csp.ts",
    );
  }
  const at = charsetEnd ?? headEnd;
  if (at === undefined)
    throw new BookError(inputPath, undefined, "page has no <head> to put the Content-Security-Policy in");
  return `${html.slice(0, at)}\n${cspMetaTag}${html.slice(at)}`;
}

export function cspPlugin(eleventyConfig: UserConfig): void {
  eleventyConfig.addTransform("content-security-policy", function (content) {
    const outputPath = this.page.outputPath;
    if (typeof outputPath !== "string" || !outputPath.endsWith(".html")) return content;
    return insertCspMeta(content, this.page.inputPath);
  });
  eleventyConfig.on("eleventy.after", ({ directories }) => {
    writeFileSync(path.join(directories.output, "_headers"), headersFile());
  });
}
