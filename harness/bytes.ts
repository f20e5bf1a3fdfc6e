/**
 * Byte accounting for the built site, shared by `npm run bench` and the budget test
 * (tests/browser/budgets.test.ts).
 *
 * - A page's initial load is every file Chromium fetches for it before the reader scrolls
 *   (HTML, stylesheets, the fonts the text actually uses, book.js and anything it imports),
 *   except widget bundles (`/assets/js/widgets/…`), which the lazy loader fetches only when a
 *   widget comes near the viewport, and images, counted apart. Text files count as their gzip -9
 *   size (what a static host serves); woff2 and other compressed formats count as their raw size.
 * - A widget's bundle is its entry file plus every chunk it imports, transitively, each file
 *   compressed on its own (as served).
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import type { Page } from "playwright-core";
import { settle } from "./chromium.ts";

/** File types that a host compresses on the wire. */
const compressible = new Set([".html", ".css", ".js", ".mjs", ".json", ".svg", ".txt", ".xml", ".map"]);

/** Bytes on the wire for one file: gzip -9 for text, raw for already-compressed formats. */
function transferBytes(file: string): number {
  const buf = readFileSync(file);
  return compressible.has(path.extname(file)) ? gzipSync(buf, { level: 9 }).length : buf.length;
}

/** The built file behind a URL path ("/zero/" → "<site>/zero/index.html"); undefined outside the site. */
function fileForUrlPath(siteDir: string, urlPath: string): string | undefined {
  const root = path.resolve(siteDir);
  const candidate = path.join(root, decodeURIComponent(urlPath));
  if (!candidate.startsWith(root)) return undefined;
  if (existsSync(candidate) && statSync(candidate).isDirectory()) return path.join(candidate, "index.html");
  return existsSync(candidate) ? candidate : undefined;
}

export interface BundleBytes {
  files: number;
  gzip: number;
  raw: number;
}

/** gzip bytes of a widget entry and every chunk it imports, each file compressed on its own. */
export function bundleGzipBytes(widgetsDir: string, entry: string): BundleBytes {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*"(\.\.?\/[^"]+\.js)"/g))
      visit(path.resolve(path.dirname(file), m[1]!));
  };
  visit(path.join(widgetsDir, entry));
  let gzip = 0;
  let raw = 0;
  for (const f of seen) {
    const buf = readFileSync(f);
    raw += buf.length;
    gzip += gzipSync(buf, { level: 9 }).length;
  }
  return { files: seen.size, gzip, raw };
}

export interface InitialLoad {
  /** URL path of the page, e.g. "/preface/". */
  page: string;
  html: number;
  css: number;
  js: number;
  fonts: number;
  /** html + css + js + fonts: what the 150 KB budget covers. */
  total: number;
  /** Images (SVG figures, …) fetched before scrolling; reported, not budgeted. */
  images: number;
  /** Widget bundles fetched before scrolling (widgets that start within the lazy loader's margin). */
  widgetPaths: string[];
  /** Every same-origin path fetched, with its transfer bytes. */
  files: Array<{ path: string; bytes: number }>;
}

/**
 * Loads `urlPath` in `page` (a fresh page, viewport as given by its context) without scrolling,
 * waits for the network to go quiet, and adds up what was fetched.
 */
export async function measureInitialLoad(
  page: Page,
  origin: string,
  siteDir: string,
  urlPath: string,
): Promise<InitialLoad> {
  const fetched: string[] = [];
  page.on("request", (req) => {
    const url = req.url();
    if (url.startsWith(origin)) fetched.push(new URL(url).pathname);
  });
  await page.goto(origin + urlPath, { waitUntil: "load" });
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  // No request in flight and none started for 500 ms (at most 10 s in all).
  await settle(page);
  const load: InitialLoad = {
    page: urlPath,
    html: 0,
    css: 0,
    js: 0,
    fonts: 0,
    total: 0,
    images: 0,
    widgetPaths: [],
    files: [],
  };
  for (const p of [...new Set(fetched)]) {
    const file = fileForUrlPath(siteDir, p);
    if (!file) continue;
    const bytes = transferBytes(file);
    load.files.push({ path: p, bytes });
    const ext = path.extname(file);
    if (p.startsWith("/assets/js/widgets/")) load.widgetPaths.push(p);
    else if (ext === ".html") load.html += bytes;
    else if (ext === ".css") load.css += bytes;
    else if (ext === ".js" || ext === ".mjs") load.js += bytes;
    else if (ext === ".woff2" || ext === ".woff" || ext === ".ttf") load.fonts += bytes;
    else load.images += bytes;
  }
  load.total = load.html + load.css + load.js + load.fonts;
  return load;
}
