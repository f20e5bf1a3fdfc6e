/**
 * axe-core for the browser tests: an `AxeBuilder` that returns the nodes of violations only.
 * Every rule still runs on every node; `resultTypes` only spares axe from describing each node
 * that passed (a selector and an HTML excerpt per node, thousands on a chapter with math), which
 * no test reads. On the chapters that was most of axe's time (docs/ci-time.md).
 */
import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "playwright-core";

export function axeBuilder(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).options({ resultTypes: ["violations"] });
}
