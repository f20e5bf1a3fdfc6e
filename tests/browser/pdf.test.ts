/**
 * The PDF edition (`npm run pdf`, tools/pdf.ts → <site dir>/book.pdf; `npm test` runs it after
 * the build). Reads the file's bytes: Chromium (Skia) writes each page object and each font
 * descriptor as a plain, uncompressed dictionary, so counting them needs no PDF library.
 *
 * Page count: 182 A4 pages when this test was written (November 2026: 17 chapters and
 * appendices, cover and a two-page contents). The range allows the book to grow or shrink by
 * a good deal, and still fails if chapters went missing (a page per chapter would be ~20) or
 * the print stylesheet broke (a collapsed layout, or pages blown up to several times as many).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseHTML } from "linkedom";
import { siteDir, sitePages } from "../../harness/site-pages.ts";

const file = path.join(siteDir, "book.pdf");

/** Page objects: `/Type /Page` not followed by a name character (which `/Pages` is). */
function countPdfPages(text: string): number {
  return (text.match(/\/Type\s*\/Page(?![A-Za-z0-9])/g) ?? []).length;
}

test("book.pdf exists, is a PDF, and has a sane number of pages", () => {
  assert.ok(existsSync(file), `${file} missing: run "npm run pdf" after the build`);
  const bytes = readFileSync(file);
  assert.equal(bytes.subarray(0, 5).toString("latin1"), "%PDF-");
  const text = bytes.toString("latin1");
  assert.equal(countPdfPages("<< /Type /Pages /Kids [] >> << /Type /Page >> <</Type/Page/Parent 1 0 R>>"), 2);
  const pages = countPdfPages(text);
  assert.ok(pages >= 120 && pages <= 450, `${pages} pages`);
  assert.ok(bytes.length > 1_000_000 && bytes.length < 40_000_000, `${bytes.length} bytes`);
});

test("book.pdf embeds its fonts, and keeps links: to other sites, inside the book, and an outline", () => {
  const text = readFileSync(file).toString("latin1");
  const fonts = (text.match(/\/FontFile[23]?\s/g) ?? []).length;
  assert.ok(fonts >= 3, `${fonts} embedded font files (body text, KaTeX math, monospace)`);
  const uris = [...text.matchAll(/\/URI\s*\(([^)]*)\)/g)].map((m) => m[1]!);
  assert.ok(uris.length >= 100, `${uris.length} link annotations to URLs`);
  assert.ok(
    uris.some((u) => u.startsWith("https://arxiv.org/")),
    "references link to their papers",
  );
  assert.deepEqual(
    uris.filter((u) => /127\.0\.0\.1|localhost/.test(u)),
    [],
    "no link to the temporary local server",
  );
  assert.ok((text.match(/\/Dest\s/g) ?? []).length >= 200, "cross-references are links inside the PDF");
  assert.match(text, /\/Outlines\s/, "the headings form the PDF's outline");
});

/**
 * The links to the PDF (home page, /book/) resolve in the built tree: a build shows them only
 * when book.pdf is there (src/plugins/site/pdf-edition.ts), and the deploy workflow checks its
 * published tree with this test, BASE_PATH set to the Pages path prefix and PDF_LINK_REQUIRED=1
 * (it prints the PDF before its final build, so there the links must be present).
 */
test("every link to book.pdf in the built site resolves to the file", () => {
  const prefix = (process.env.BASE_PATH ?? "").replace(/\/+$/, "");
  const linked: string[] = [];
  for (const page of sitePages()) {
    const { document } = parseHTML(readFileSync(path.join(siteDir, page, "index.html"), "utf8"));
    for (const a of document.querySelectorAll("a[href]")) {
      const href = a.getAttribute("href")!;
      if (!/book\.pdf(?:[?#]|$)/.test(href) || /^[a-z]+:/i.test(href)) continue;
      const url = new URL(href, `http://site${prefix}${page}`);
      assert.ok(url.pathname.startsWith(`${prefix}/`), `${page}: ${href} is outside the site (prefix "${prefix}")`);
      const target = path.join(siteDir, decodeURIComponent(url.pathname.slice(prefix.length)));
      assert.ok(existsSync(target), `${page} links to ${href}, but ${target} does not exist`);
      linked.push(page);
    }
  }
  if (process.env.PDF_LINK_REQUIRED === "1") {
    assert.ok(
      linked.includes("/") && linked.includes("/book/"),
      `the home page and /book/ link to the PDF (linked from: ${linked.join(", ") || "nowhere"})`,
    );
  }
});
