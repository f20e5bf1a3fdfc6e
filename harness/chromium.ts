/**
 * Launching the system Chromium for browser tests (Playwright cannot download browsers here).
 * `CHROMIUM_PATH` overrides the binary. Also: collecting console errors and failed or
 * off-origin requests of a page, so every test can assert a clean page.
 */
import { chromium, type Browser, type Page } from "playwright-core";

export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * The Chromium features Playwright switches off (playwright-core 1.65.1, chromiumSwitches.ts).
 * They are repeated here because a second `--disable-features` replaces the first instead of
 * adding to it; tests/browser/harness.test.ts fails when Playwright's list grows past this one.
 */
export const playwrightDisabledFeatures = [
  "AvoidUnnecessaryBeforeUnloadCheckSync",
  "DestroyProfileOnBrowserClose",
  "HttpsUpgrades",
  "HttpsFirstBalancedModeAutoEnable",
  "LensOverlay",
  "MediaRouter",
  "PaintHolding",
  "ThirdPartyStoragePartitioning",
  "AvoidCorsURLLoaderRestartOnRedirect",
  "TcpPortRandomizationWin",
  "OptimizationHints",
  "NetworkTimeServiceQuerying",
  "AimEnabled",
  "PreconnectToSearch",
  "msForceBrowserSignIn",
  "msEdgeUpdateLaunchServicesPreferredVersion",
];

/**
 * Features this harness switches off as well. In Chromium 156 headless, every new browser
 * context opens a window, and every window loads the address bar's popup
 * (chrome://omnibox-popup.top-chrome/) in a renderer of its own: about 0.7 s of CPU in the
 * first second after `newContext()`, on a 2-core machine, while the page under test loads. In
 * the paint benchmark it delayed a chapter page's largest paint by 140-210 ms and widened the
 * spread (docs/performance-log.md, "Paint"). Puppeteer switches the same two features off by default
 * (puppeteer/puppeteer#15278).
 */
export const harnessDisabledFeatures = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup"];

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
      `--disable-features=${[...playwrightDisabledFeatures, ...harnessDisabledFeatures].join(",")}`,
    ],
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
  page.on("requestfailed", (req) => {
    const reason = req.failure()?.errorText ?? "";
    // A lazy image whose load Chromium itself cancels (net::ERR_ABORTED while the test scrolls
    // past it) is not a fault of the site; a missing image still shows as HTTP 404 below.
    if (req.resourceType() === "image" && reason === "net::ERR_ABORTED") return;
    problems.failed.push(`${req.url()} ${reason}`);
  });
  page.on("response", (res) => {
    if (res.status() >= 400) problems.failed.push(`${res.url()} HTTP ${res.status()}`);
  });
  return problems;
}

/**
 * Waits for the load event, then until the page has started and finished every request for
 * `quietMs` in a row (at most `maxMs` in all, then it returns anyway). This is Playwright's
 * "networkidle" idea, used instead of it because in this Chromium "networkidle" now and then never
 * fires although no request of the page is pending (seen as 30 s timeouts, about one run in
 * thirty). Tests use it before asserting that something was *not* loaded and before screenshots.
 */
export async function settle(page: Page, quietMs = 500, maxMs = 10_000): Promise<void> {
  await page.waitForLoadState("load");
  let inFlight = 0;
  let last = Date.now();
  const started = () => {
    inFlight++;
    last = Date.now();
  };
  const ended = () => {
    inFlight = Math.max(0, inFlight - 1);
    last = Date.now();
  };
  page.on("request", started);
  page.on("requestfinished", ended);
  page.on("requestfailed", ended);
  try {
    const deadline = Date.now() + maxMs;
    while (Date.now() < deadline && (inFlight > 0 || Date.now() - last < quietMs)) {
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    page.off("request", started);
    page.off("requestfinished", ended);
    page.off("requestfailed", ended);
  }
}

/**
 * Resolves once the page has rendered `frames` more frames. IntersectionObserver and
 * ResizeObserver deliver their notifications as part of rendering a frame, so after this
 * anything they would trigger for the current layout has started: use it instead of a fixed
 * sleep before asserting that something did not happen (a widget not loaded, no overflow).
 */
export async function afterFrames(page: Page, frames = 2): Promise<void> {
  // No named functions inside: tsx would wrap them in a helper the page does not have.
  await page.evaluate(async (n) => {
    for (let i = 0; i < n; i++) await new Promise((resolve) => requestAnimationFrame(resolve));
  }, frames);
}

/**
 * Resolves once every timer the page had set for up to `ms` milliseconds from now has run: a
 * timer the page sets now with the same delay runs after them. Use it to assert that a debounced
 * handler (book.js waits 150 ms after a media change) did nothing, without a sleep in the test.
 */
export async function afterPageTimers(page: Page, ms: number): Promise<void> {
  await page.evaluate((delay) => new Promise((resolve) => setTimeout(resolve, delay)), ms);
}
