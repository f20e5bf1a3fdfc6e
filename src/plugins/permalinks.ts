/**
 * Permalink anchors: every `<h2 id>` / `<h3 id>` in a chapter body gets a trailing
 * `<a class="heading-anchor" href="#id">` so a reader can copy a link to the section. The
 * visible mark is drawn by CSS (no text in the heading for search, the ToC or previews to pick
 * up); the link's accessible name comes from its aria-label.
 */
const headingRe = /<(h[23]) id="([^"]+)"([^>]*)>([\s\S]*?)<\/\1>/g;

/** Adds the anchors to the part of a page between the chapter body's start and `</article>`. */
export function addHeadingPermalinks(html: string): string {
  const start = html.indexOf('<div class="chapter-body">');
  if (start < 0) return html;
  const end = html.indexOf("</article>", start);
  const stop = end < 0 ? html.length : end;
  const body = html.slice(start, stop).replace(headingRe, (whole, tag: string, id: string, attrs: string, inner: string) => {
    if (inner.includes('class="heading-anchor"')) return whole;
    return `<${tag} id="${id}"${attrs}>${inner}<a class="heading-anchor" href="#${id}" aria-label="Link to this section"></a></${tag}>`;
  });
  return html.slice(0, start) + body + html.slice(stop);
}

export function permalinksPlugin(eleventyConfig: any): void {
  eleventyConfig.addTransform("heading-permalinks", function (this: { page: { outputPath?: string | false } }, content: string) {
    const out = this.page?.outputPath;
    return typeof out === "string" && out.endsWith(".html") ? addHeadingPermalinks(content) : content;
  });
}
