/**
 * Helpers shared by the site-wide browser tests (security, a11y, budgets): the list of built
 * pages, and mounting every widget on a page by scrolling it into view.
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";

export const siteDir = process.env.SITE_DIR ?? "_site";

/** Every page of the built site, as URL paths ("/", "/preface/", …), sorted. */
export function sitePages(root = siteDir): string[] {
  const pages: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) {
        if (name !== "assets" && name !== "pagefind") walk(full);
      } else if (name === "index.html") {
        pages.push(
          "/" +
            path
              .relative(root, dir)
              .split(path.sep)
              .filter(Boolean)
              .map((s) => `${s}/`)
              .join(""),
        );
      }
    }
  };
  walk(root);
  return pages.sort();
}

/**
 * Scrolls each `[data-widget]` of the page into view and waits until the lazy loader marks it
 * mounted; throws naming the widget when one does not mount. Returns the widgets' names.
 */
export async function mountAllWidgets(page: Page, timeoutMs = 10_000): Promise<string[]> {
  const roots = page.locator("[data-widget]");
  const n = await roots.count();
  const names: string[] = [];
  for (let i = 0; i < n; i++) {
    const root = roots.nth(i);
    await root.scrollIntoViewIfNeeded();
    const name = (await root.getAttribute("data-widget")) ?? "?";
    names.push(name);
    try {
      await page.waitForFunction(
        (el) => (el as HTMLElement).dataset.widgetState === "mounted",
        await root.elementHandle(),
        {
          timeout: timeoutMs,
        },
      );
    } catch {
      throw new Error(
        `${page.url()}: widget ${name} #${i + 1} is "${await root.getAttribute("data-widget-state")}", not mounted`,
      );
    }
  }
  return names;
}
