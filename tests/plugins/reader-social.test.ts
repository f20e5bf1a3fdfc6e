/** Sharing metadata (src/plugins/site/social.ts): site URL, absolute URLs, card paths, card drawing. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  absoluteUrl,
  bookCard,
  cardPath,
  cardSvg,
  resolveSiteUrl,
  wrapText,
  writeCard,
} from "../../src/plugins/site/social.ts";

test("SITE_URL overrides the configured URL; trailing slashes go; bad values fail", () => {
  assert.equal(resolveSiteUrl("https://a.example/book/", undefined), "https://a.example/book");
  assert.equal(resolveSiteUrl("https://a.example/book", "  "), "https://a.example/book");
  assert.equal(resolveSiteUrl("https://a.example/book", "http://localhost:8080/"), "http://localhost:8080");
  assert.throws(() => resolveSiteUrl("x", "example.org"), /not an absolute URL/);
  assert.throws(() => resolveSiteUrl("x", "ftp://example.org"), /http or https/);
  assert.throws(() => resolveSiteUrl("x", "https://example.org/?a=1"), /query or fragment/);
});

test("absolute URLs: the site URL's path without a prefix; the prefix replaces it", () => {
  const site = "https://scaling-out-book.github.io/scaling-out";
  assert.equal(absoluteUrl("/", site), "https://scaling-out-book.github.io/scaling-out/");
  assert.equal(absoluteUrl("/zero/", site, "/"), "https://scaling-out-book.github.io/scaling-out/zero/");
  assert.equal(absoluteUrl("/zero/", site, "/scaling-out/"), "https://scaling-out-book.github.io/scaling-out/zero/");
  assert.equal(absoluteUrl("/zero/", "https://example.org", "/sub/"), "https://example.org/sub/zero/");
  assert.equal(absoluteUrl("/a.png", "https://example.org/old", "sub"), "https://example.org/sub/a.png");
  assert.throws(() => absoluteUrl("zero/", site), /root-relative/);
});

test("chapters get their own card, other pages the book's", () => {
  assert.equal(cardPath("./content/chapters/03-data-parallelism.md"), "/assets/cards/data-parallelism.png");
  assert.equal(cardPath("./content/chapters/a1-profiling.md"), "/assets/cards/profiling.png");
  assert.equal(cardPath("./content/index.md"), "/assets/cards/book.png");
  assert.equal(cardPath("./content/glossary.njk"), "/assets/cards/book.png");
});

test("word wrap keeps lines within the width, and words whole", () => {
  const measure = (s: string) => s.length * 10; // 10 px per character
  assert.deepEqual(wrapText("aaa bbb ccc dddd", 10, true, 80, measure), ["aaa bbb", "ccc dddd"]);
  assert.deepEqual(wrapText("averyveryverylongword x", 10, true, 50, measure), ["averyveryverylongword", "x"]);
});

test("a long title shrinks to fit three lines; the card names the label, title and byline", () => {
  const svg = cardSvg({
    label: "Chapter 10",
    title: "Mixed precision training: fp32, tf32, fp16, bf16 and fp8",
    subtitle: "",
  });
  assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="1200" height="630"/);
  assert.match(svg, />Chapter 10<\/text>/);
  assert.match(svg, />The Scaling Out contributors<\/text>/);
  const titleLines = [...svg.matchAll(/font-weight="700" font-size="(\d+)" fill="#1b1d22">([^<]*)</g)];
  assert.ok(titleLines.length >= 2 && titleLines.length <= 3, `${titleLines.length} lines`);
  assert.equal(titleLines.map((m) => m[2]).join(" "), "Mixed precision training: fp32, tf32, fp16, bf16 and fp8");
  const book = cardSvg(bookCard());
  assert.match(book, />Scaling Out<\/text>/);
  assert.match(book, />AN OPEN, INTERACTIVE BOOK<\/text>/);
  assert.match(cardSvg({ label: "", title: "A & B <C>", subtitle: "" }), />A &amp; B &lt;C&gt;</);
});

test("cards render to a 1200×630 PNG, and the second time come from the cache", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "cards-"));
  try {
    const svg = cardSvg({ label: "Appendix A", title: "Collective communication", subtitle: "" });
    const out = path.join(dir, "out", "a.png");
    assert.equal(writeCard(svg, out, path.join(dir, "cache")), true);
    const png = readFileSync(out);
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    assert.equal(png.toString("ascii", 12, 16), "IHDR");
    assert.equal(png.readUInt32BE(16), 1200);
    assert.equal(png.readUInt32BE(20), 630);
    const again = path.join(dir, "out", "b.png");
    assert.equal(writeCard(svg, again, path.join(dir, "cache")), false);
    assert.ok(readFileSync(again).equals(png));
    assert.ok(statSync(again).size > 5000);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
