/**
 * Sub-path deployment (a GitHub Pages project site): the book built with
 * `--pathprefix=/sub/` into a temporary folder and served only under /sub/ must have no
 * broken link and no failed request on any page it links to: book.js, theme.js, widget
 * bundles, KaTeX fonts, figures, and search (Pagefind's UI and index). Slow: it runs a
 * whole build of its own.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createServer, type Server } from "node:http";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { launchChromium, watchPage, settle } from "../../harness/chromium.ts";

const prefix = "/sub/";
const mime: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json",
  ".woff2": "font/woff2",
  ".wasm": "application/wasm",
};

let outDir: string;
let server: Server;
let origin: string;
let browser: Browser;

before(async () => {
  outDir = mkdtempSync(path.join(tmpdir(), "book-sub-"));
  const built = spawnSync(
    process.execPath,
    [
      "--import",
      "tsx",
      "node_modules/@11ty/eleventy/cmd.cjs",
      "--config=.eleventy.ts",
      "--quiet",
      `--pathprefix=${prefix}`,
    ],
    { env: { ...process.env, SITE_DIR: outDir }, encoding: "utf8" },
  );
  assert.equal(built.status, 0, `build with --pathprefix=${prefix} failed:\n${built.stderr}`);
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (!url.pathname.startsWith(prefix)) {
      res.writeHead(404).end();
      return;
    }
    let file = path.join(outDir, decodeURIComponent(url.pathname.slice(prefix.length)));
    if (!file.startsWith(outDir)) {
      res.writeHead(404).end();
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) file = path.join(file, "index.html");
    if (!existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res
      .writeHead(200, { "content-type": mime[path.extname(file)] ?? "application/octet-stream" })
      .end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

test(
  `every page reachable from ${prefix} loads without a broken link or failed request`,
  { timeout: 300_000 },
  async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: "reduce" });
    const page = await context.newPage();
    const problems = watchPage(page, origin);
    const seen = new Set<string>([prefix]);
    const queue = [prefix];
    const outside: string[] = [];
    while (queue.length) {
      const p = queue.shift()!;
      const response = await page.goto(origin + p, { waitUntil: "load" });
      assert.equal(response?.status(), 200, `${p} answers 200`);
      // Scroll through so every lazy widget bundle is requested too.
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await settle(page);
      const hrefs = await page.locator("a[href]").evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
      for (const href of hrefs) {
        if (/^(https?:|mailto:|#)/.test(href)) continue;
        const url = new URL(href, origin + p);
        if (!url.pathname.startsWith(prefix)) outside.push(`${p} → ${href}`);
        else if (url.pathname.endsWith("/") && !seen.has(url.pathname)) {
          seen.add(url.pathname);
          queue.push(url.pathname);
        }
      }
    }
    assert.ok(seen.size >= 10, `crawled ${seen.size} pages`);
    assert.deepEqual(outside, [], "links that leave the sub-path");
    assert.deepEqual(problems, { consoleErrors: [], pageErrors: [], offOrigin: [], failed: [] });
    await context.close();
  },
);

test(`search and the theme script work under ${prefix}`, async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: "light" });
  const page = await context.newPage();
  const problems = watchPage(page, origin);
  await page.goto(`${origin}${prefix}search/?q=bubble`);
  const link = page.locator(".pagefind-ui__result-link").first();
  await link.waitFor({ timeout: 15_000 });
  assert.match((await link.getAttribute("href")) ?? "", /^\/sub\/[a-z0-9-]+\/$/);
  await page.locator("button.theme-toggle").click();
  await page.goto(`${origin}${prefix}preface/`);
  assert.equal(await page.evaluate(() => document.documentElement.getAttribute("data-theme")), "dark");
  assert.deepEqual(problems, { consoleErrors: [], pageErrors: [], offOrigin: [], failed: [] });
  await context.close();
});
