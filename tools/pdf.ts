/**
 * `npm run pdf`: the PDF edition. Serves the built site (SITE_DIR, default `_site`; run
 * `npm run build` first), opens the single-page edition /book/ in Chromium with print media and
 * the light theme, opens every `<details>` (exercise solutions), and prints it with `page.pdf`
 * to `<site dir>/book.pdf`: A4, the book title as the running header, "page / pages" in the
 * footer, and the headings as the PDF's outline (bookmarks). The print stylesheet (the
 * "Single-page edition … and print" block at the end of assets/css/book.css) draws the cover,
 * starts each chapter on a new page and hides the site chrome and widget controls.
 *
 * Links stay clickable: links inside the book become links inside the PDF; links to other
 * pages of the site point at the published site (`SITE_URL`, else `book.siteUrl` in
 * src/data/book.ts, resolved as for the Open Graph URLs), never at the temporary local server.
 * Links to other sites are kept.
 */
import { statSync } from "node:fs";
import path from "node:path";
import { book } from "../src/data/book.ts";
import { lightPalette } from "../src/figures/kit/palette.ts";
import { resolveSiteUrl } from "../src/plugins/site/social.ts";
import { launchChromium } from "../harness/chromium.ts";
import { startSiteServer } from "../harness/site-server.ts";

const siteDir = process.env.SITE_DIR ?? "_site";

function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** Header and footer templates (Chromium renders them apart from the page: inline styles only). */
const templateStyle = `font-family: system-ui, sans-serif; font-size: 8pt; color: ${lightPalette.muted}; width: 100%; margin: 0 18mm;`;
export const headerTemplate = `<div style="${templateStyle} display: flex; justify-content: space-between;"><span>${escapeHtml(book.title)}</span><span>${escapeHtml(book.subtitle)}</span></div>`;
export const footerTemplate = `<div style="${templateStyle} text-align: center;"><span class="pageNumber"></span> / <span class="totalPages"></span></div>`;

export async function printBook(outputDir = siteDir): Promise<{ file: string; bytes: number; seconds: number }> {
  const started = performance.now();
  const siteUrl = resolveSiteUrl(book.siteUrl, process.env.SITE_URL);
  const server = await startSiteServer(outputDir);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ colorScheme: "light" });
    await page.emulateMedia({ media: "print", colorScheme: "light" });
    const response = await page.goto(`${server.url}/book/`, { waitUntil: "load" });
    if (!response || !response.ok())
      throw new Error(`/book/ answered ${response?.status()}: is the site built with the single-page edition?`);
    await page.evaluate(
      async ({ origin, site, title }) => {
        document.documentElement.setAttribute("data-theme", "light");
        document.title = title; // the PDF's Title
        for (const d of document.querySelectorAll("details")) d.open = true;
        for (const a of document.querySelectorAll<HTMLAnchorElement>("a[href]")) {
          const url = new URL(a.href);
          if (url.origin !== origin) continue;
          if (url.pathname === location.pathname && url.hash) continue; // inside the book: a PDF link
          a.href = site + url.pathname + url.search + url.hash;
        }
        await document.fonts.ready;
      },
      { origin: server.url, site: siteUrl, title: `${book.title}: ${book.subtitle}` },
    );
    const file = path.join(outputDir, "book.pdf");
    await page.pdf({
      path: file,
      format: "A4",
      margin: { top: "20mm", bottom: "18mm", left: "18mm", right: "18mm" },
      printBackground: true,
      displayHeaderFooter: true,
      headerTemplate,
      footerTemplate,
      outline: true,
      tagged: true,
    });
    return { file, bytes: statSync(file).size, seconds: (performance.now() - started) / 1000 };
  } finally {
    await browser.close();
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { file, bytes, seconds } = await printBook();
  console.log(`${file}: ${(bytes / 1e6).toFixed(1)} MB in ${seconds.toFixed(1)} s`);
}
