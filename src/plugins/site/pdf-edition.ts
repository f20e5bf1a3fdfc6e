/**
 * Whether the PDF edition exists, for the links to it (issue #28: the landing page and /book/
 * linked to /book.pdf, which a plain `npm run build` never writes, so the link was a 404).
 * `npm run pdf` (tools/pdf.ts) prints `<site dir>/book.pdf` after a build; a build that finds the
 * file there (a rebuild after `npm run pdf`, or the deploy workflow, which prints the PDF first
 * and puts it into the fresh site folder before its final build) links to it, and a build
 * without it shows no link. Templates read `pdfEdition.available`.
 */
import type { UserConfig } from "@11ty/eleventy";
import { existsSync } from "node:fs";
import path from "node:path";

export interface PdfEdition {
  available: boolean;
  /** Site-relative URL (the HTML base plugin adds a path prefix). */
  href: string;
}

/** The PDF edition of the site built into `siteDir`. */
function pdfEdition(siteDir: string): PdfEdition {
  return { available: existsSync(path.join(siteDir, "book.pdf")), href: "/book.pdf" };
}

export function pdfEditionPlugin(eleventyConfig: UserConfig): void {
  eleventyConfig.addGlobalData("pdfEdition", () =>
    pdfEdition(eleventyConfig.directories?.output ?? process.env.SITE_DIR ?? "_site"),
  );
}
