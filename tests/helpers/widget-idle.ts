/**
 * Waiting for a widget's deferred redraw (src/widgets/runtime/after-paint.ts): a widget checks an
 * edit at once and redraws after the edit has painted, marking its root `data-widget-busy` until
 * then. Read a widget's drawing or readout after this, not right after the action.
 */
import type { Page } from "playwright-core";

/** Resolves once the widget matched by `selector` has no redraw pending. */
export async function widgetIdle(page: Page, selector: string): Promise<void> {
  await page.waitForFunction((s) => {
    const root = document.querySelector(s);
    const widget = root?.closest("[data-widget]") ?? root;
    return widget !== null && widget !== undefined && !widget.hasAttribute("data-widget-busy");
  }, selector);
}
