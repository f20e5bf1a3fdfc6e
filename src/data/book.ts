/**
 * The book's metadata: the one place for its title, byline, dates, repository and license.
 * Layouts read it as `book`; "Cite this book" is generated from it.
 */
export interface BookMetadata {
  title: string;
  subtitle: string;
  /** The byline. The book is written by its contributors; no individual names. */
  contributors: string;
  /** ISO dates (YYYY-MM-DD). */
  published: string;
  updated: string;
  repositoryUrl: string;
  /**
   * Where the built site's root is served, for absolute URLs (Open Graph, sitemap, feed). A
   * configured default, the GitHub Pages address that matches repositoryUrl; the build uses the
   * `SITE_URL` environment variable instead when it is set (src/plugins/site/social.ts).
   */
  siteUrl: string;
  license: {
    code: { name: string; url: string };
    text: { name: string; url: string };
  };
  language: string;
}

export const book: BookMetadata = {
  title: "Scaling Out",
  subtitle: "How large language models are trained on GPU clusters",
  contributors: "The Scaling Out contributors",
  published: "2026-11-22",
  updated: "2026-11-22",
  repositoryUrl: "https://github.com/scaling-out-book/scaling-out",
  siteUrl: "https://scaling-out-book.github.io/scaling-out",
  license: {
    code: { name: "MIT", url: "https://opensource.org/licenses/MIT" },
    text: { name: "CC BY 4.0", url: "https://creativecommons.org/licenses/by/4.0/" },
  },
  language: "en-US",
};
