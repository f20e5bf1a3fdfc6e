/**
 * Launching the system Chromium for browser tests (Playwright cannot download browsers here).
 * `CHROMIUM_PATH` overrides the binary. Also: collecting console errors and failed or
 * off-origin requests of a page, so every test can assert a clean page.
 */
import { chromium, type Browser, type Page } from "playwright-core";

export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
  });
}

export interface PageProblems {
  consoleErrors: string[];
  pageErrors: string[];
  offOrigin: string[];
  failed: string[];
}

/** Starts recording problems on a page; `origin` is the test server's URL. */
export function watchPage(page: Page, origin: string): PageProblems {
  const problems: PageProblems = { consoleErrors: [], pageErrors: [], offOrigin: [], failed: [] };
  page.on("console", (msg) => {
    if (msg.type() === "error" || msg.type() === "warning") problems.consoleErrors.push(`${msg.type()}: ${msg.text()}`);
  });
  page.on("pageerror", (err) => problems.pageErrors.push(String(err)));
  page.on("request", (req) => {
    const url = req.url();
    if (!url.startsWith(origin) && !url.startsWith("data:") && !url.startsWith("blob:")) problems.offOrigin.push(url);
  });
  page.on("requestfailed", (req) => problems.failed.push(`${req.url()} ${req.failure()?.errorText ?? ""}`));
  page.on("response", (res) => {
    if (res.status() >= 400) problems.failed.push(`${res.url()} HTTP ${res.status()}`);
  });
  return problems;
}
