/**
 * Search in book.js: the header box submits to /search/?q=…, where Pagefind's UI shows the hits.
 * "/" focuses the search box on every page. On the search page (`[data-search-ui]`), Pagefind's UI
 * and its stylesheet are loaded from the index the build writes to /pagefind/ and run the URL's `q`.
 */
interface PagefindUIInstance {
  triggerSearch(term: string): void;
}
type PagefindUIConstructor = new (options: Record<string, unknown>) => PagefindUIInstance;

// book.js lives at <base>/assets/js/book.js; the index at <base>/pagefind/ (path-prefix safe).
const pagefindBase = new URL("../../pagefind/", import.meta.url);

function loadPagefindUI(): Promise<PagefindUIConstructor> {
  const css = document.createElement("link");
  css.rel = "stylesheet";
  css.href = new URL("pagefind-ui.css", pagefindBase).href;
  document.head.append(css);
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = new URL("pagefind-ui.js", pagefindBase).href;
    script.addEventListener("load", () => {
      const ctor = (window as unknown as { PagefindUI?: PagefindUIConstructor }).PagefindUI;
      if (ctor) resolve(ctor);
      else reject(new Error("pagefind-ui.js did not define PagefindUI"));
    });
    script.addEventListener("error", () => reject(new Error("pagefind-ui.js could not load")));
    document.head.append(script);
  });
}

export function setUpSearch(): void {
  const box = document.querySelector<HTMLInputElement>(".site-search input[type=search]");
  document.addEventListener("keydown", (e) => {
    if (e.key !== "/" || e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target as HTMLElement;
    if (t.closest("input, textarea, select, [contenteditable]")) return;
    const target = document.querySelector<HTMLInputElement>(".pagefind-ui__search-input") ?? box;
    if (!target) return;
    e.preventDefault();
    target.focus();
  });
  const host = document.querySelector<HTMLElement>("[data-search-ui]");
  if (!host) return;
  const query = new URLSearchParams(window.location.search).get("q") ?? "";
  if (box) box.value = query;
  loadPagefindUI()
    .then((PagefindUI) => {
      const ui = new PagefindUI({
        element: "#search",
        bundlePath: pagefindBase.pathname,
        showSubResults: true,
        showImages: false,
        resetStyles: false,
        autofocus: false, // the skip link stays the first Tab stop; "/" focuses the box
      });
      host.dataset.searchState = "ready";
      if (query) ui.triggerSearch(query);
    })
    .catch((err: unknown) => {
      host.dataset.searchState = "error";
      host.textContent = "Search could not start in this browser.";
      console.warn(err);
    });
}
