/**
 * Eleventy configuration: a table of contents of the build plugins in src/plugins/, one per
 * file, in a folder per build stage (markdown/, site/, after-build/, shared/: src/plugins/README.md).
 * Run through tsx (Node 20 cannot load .ts configs): see the npm scripts.
 */
import { HtmlBasePlugin, type UserConfig } from "@11ty/eleventy";
import { frontMatterPlugin } from "./src/plugins/site/frontmatter.ts";
import { collectionsPlugin } from "./src/plugins/site/collections.ts";
import { markdownLibraryPlugin } from "./src/plugins/markdown/markdown-library.ts";
import { layoutHelpersPlugin } from "./src/plugins/site/layout-helpers.ts";
import { bundlePlugin } from "./src/plugins/site/bundle.ts";
import { assetsPlugin } from "./src/plugins/site/assets.ts";
import { siteChecksPlugin } from "./src/plugins/after-build/site-checks.ts";
import { readingListPlugin } from "./src/plugins/site/reading-list.ts";
import { cspPlugin } from "./src/plugins/site/csp.ts";
import { asciiHtmlPlugin } from "./src/plugins/site/ascii-html.ts";
import { criticalCssPlugin } from "./src/plugins/site/critical-css.ts";
import { searchPlugin } from "./src/plugins/after-build/search.ts";
import { glossaryPlugin } from "./src/plugins/site/glossary.ts";
import { highlightPlugin } from "./src/plugins/markdown/highlight.ts";
import { includeCodePlugin } from "./src/plugins/markdown/include-code.ts";
import { socialPlugin } from "./src/plugins/site/social.ts";
import { sitemapPlugin } from "./src/plugins/after-build/sitemap.ts";
import { feedPlugin } from "./src/plugins/site/feed.ts";
import { pdfEditionPlugin } from "./src/plugins/site/pdf-edition.ts";
import { mathFontsPlugin } from "./src/plugins/after-build/math-fonts.ts";

export default function (eleventyConfig: UserConfig) {
  eleventyConfig.addPlugin(frontMatterPlugin); // title/description required, unknown keys fail
  eleventyConfig.addPlugin(collectionsPlugin); // chapters in file-name order, /slug/ URLs
  eleventyConfig.addPlugin(markdownLibraryPlugin); // math, citations, cross-refs, blocks, widgets; chapters rendered per edition (page, /book/)
  eleventyConfig.addPlugin(highlightPlugin); // code fences: highlight.js at build time, unknown language fails
  eleventyConfig.addPlugin(includeCodePlugin); // ```include file#region``` listings and ```companion-table``` from companion/ (unknown file or region fails)
  eleventyConfig.addPlugin(socialPlugin); // absolute URLs for Open Graph/Twitter meta; a 1200×630 PNG card per chapter
  eleventyConfig.addPlugin(sitemapPlugin); // after the build: sitemap.xml (every page, lastmod from git) and robots.txt
  eleventyConfig.addPlugin(feedPlugin); // /changelog.xml: Atom feed of content/changelog.md's dated sections
  eleventyConfig.addPlugin(layoutHelpersPlugin); // book metadata, ToC, reading time, cite-this
  eleventyConfig.addPlugin(glossaryPlugin); // /glossary/: terms from src/data/glossary.ts
  eleventyConfig.addPlugin(pdfEditionPlugin); // pdfEdition.available: link to /book.pdf only when the file is there
  eleventyConfig.addPlugin(readingListPlugin); // {% readingList %}: bibliography grouped by topic
  eleventyConfig.addPlugin(bundlePlugin); // esbuild: book.js and one bundle per widget
  eleventyConfig.addPlugin(assetsPlugin); // assets/ and KaTeX's CSS
  eleventyConfig.addPlugin(mathFontsPlugin); // after the build: KaTeX's fonts cut to the characters the math draws
  eleventyConfig.addPlugin(HtmlBasePlugin); // honours --pathPrefix for sub-path deployments
  eleventyConfig.addPlugin(criticalCssPlugin); // first-screen rules inline, the full sheets at the end of <body>
  eleventyConfig.addPlugin(cspPlugin); // Content-Security-Policy <meta> on every page, _headers
  eleventyConfig.addPlugin(asciiHtmlPlugin); // every page written in ASCII: character references, CSS escapes (faster to decode)
  eleventyConfig.addPlugin(siteChecksPlugin); // after the build: links, anchors, origins
  eleventyConfig.addPlugin(searchPlugin); // after the build: Pagefind index of chapter bodies → /pagefind/

  return {
    dir: { input: "content", includes: "../src/layouts", data: "_data", output: process.env.SITE_DIR ?? "_site" },
    markdownTemplateEngine: false,
    htmlTemplateEngine: "njk",
    templateFormats: ["md", "njk"],
  };
}
