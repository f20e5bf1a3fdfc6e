/**
 * The setup every browser test file shares: one site server over the built site and one system
 * Chromium for the whole file, started in a node:test `before` hook and closed in `after`.
 *
 *   const site = useSiteAndBrowser();
 *   test("…", async () => { const page = await site.browser.newPage(); await page.goto(site.server.url + "/"); });
 *
 * Call it at the top level of a test file (or inside a `describe`, for that suite only). Setup
 * that needs the browser goes in `then`, which runs in the same hook once both are up: under
 * Node 20, a file's second top-level `before` hook does not wait for the first. Reading `server`
 * or `browser` before the hook has run throws, naming the mistake.
 */
import { after, before } from "node:test";
import type { Browser } from "playwright-core";
import { launchChromium } from "./chromium.ts";
import { startSiteServer, type SiteServer } from "./site-server.ts";

export interface SiteAndBrowser {
  /** The static server of `_site` (or `SITE_DIR`): its `url` and the paths requested so far. */
  readonly server: SiteServer;
  /** The Chromium shared by the file's tests; each test opens its own page or context. */
  readonly browser: Browser;
}

export function useSiteAndBrowser(then?: (site: SiteAndBrowser) => Promise<void>): SiteAndBrowser {
  let server: SiteServer | undefined;
  let browser: Browser | undefined;
  before(async () => {
    server = await startSiteServer();
    browser = await launchChromium();
    await then?.(site);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
  const notYet = (what: string) =>
    new Error(`useSiteAndBrowser(): ${what} read before the before() hook ran (read it inside a test or hook)`);
  const site: SiteAndBrowser = {
    get server() {
      if (!server) throw notYet("server");
      return server;
    },
    get browser() {
      if (!browser) throw notYet("browser");
      return browser;
    },
  };
  return site;
}
