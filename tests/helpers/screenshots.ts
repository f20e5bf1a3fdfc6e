/**
 * Screenshots for a person to look at, never compared by a test: taken only when the run asks
 * for them (`SCREENSHOTS=1 node --import tsx --test tests/browser/x.test.ts`, into
 * test-output/screenshots/), so that an ordinary run spends no time writing images nobody reads.
 * A test that needs an image to check something calls Playwright's `screenshot()` itself.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Locator, Page } from "playwright-core";

/** Whether this run keeps screenshots. */
const keepingScreenshots = process.env.SCREENSHOTS === "1";

/** Saves a screenshot of `target` to `file` when the run keeps screenshots; otherwise does nothing. */
export async function keepScreenshot(
  target: Page | Locator,
  file: string,
  options: { clip?: { x: number; y: number; width: number; height: number }; timeout?: number } = {},
): Promise<void> {
  if (!keepingScreenshots) return;
  mkdirSync(path.dirname(file), { recursive: true });
  await target.screenshot({ path: file, ...options });
}
