/**
 * axe-core for the browser tests: an `AxeBuilder` that runs axe in the page itself and returns the
 * nodes of violations only. Every rule still runs on every node.
 *
 * - `setLegacyMode()`: axe runs as one `axe.run()` in the page. By default @axe-core/playwright
 *   runs `axe.runPartial()` in each frame, carries the partial results (every node checked, as
 *   JSON) to a blank page it opens, and finishes there; that is for cross-origin iframes, which the
 *   book has none of (no page has an iframe, and the site's policy is `default-src 'self'`). On a
 *   chapter it halved axe's time with the same violations (docs/ci-time.md, "Fourth round").
 * - `resultTypes`: axe no longer describes each node that passed (a selector and an HTML excerpt
 *   per node, thousands on a chapter with math), which no test reads.
 */
import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "playwright-core";

export function axeBuilder(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).setLegacyMode(true).options({ resultTypes: ["violations"] });
}
