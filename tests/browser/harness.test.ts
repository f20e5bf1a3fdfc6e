/**
 * The browser harness itself (harness/chromium.ts): launchChromium switches off Chromium's
 * address-bar popup, which would otherwise load in a renderer of its own with every new context
 * and compete with the page under test, and it still switches off every feature Playwright does
 * (a second `--disable-features` replaces Playwright's instead of adding to it). And axeBuilder
 * (harness/axe.ts), which every axe check of the book goes through, still finds what it must.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { chromium, type Browser } from "playwright-core";
import {
  chromiumPath,
  harnessDisabledFeatures,
  launchChromium,
  playwrightDisabledFeatures,
} from "../../harness/chromium.ts";
import { axeBuilder } from "../../harness/axe.ts";

/** The features a running browser was started with `--disable-features` (the last such switch wins). */
async function disabledFeatures(browser: Browser): Promise<string[]> {
  const cdp = await browser.newBrowserCDPSession();
  const { commandLine } = await cdp.send("SystemInfo.getInfo");
  const switches = commandLine.split(" ").filter((arg) => arg.startsWith("--disable-features="));
  assert.ok(switches.length > 0, "the browser was started with --disable-features");
  return switches.at(-1)!.slice("--disable-features=".length).split(",");
}

test("launchChromium keeps every feature Playwright switches off and adds the address-bar popup", async () => {
  const plain = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ["--headless", "--no-sandbox"],
  });
  let playwrights: string[];
  try {
    playwrights = await disabledFeatures(plain);
  } finally {
    await plain.close();
  }
  const missing = playwrights.filter((f) => !playwrightDisabledFeatures.includes(f));
  assert.deepEqual(missing, [], "Playwright now switches off more features: add them to playwrightDisabledFeatures");

  const browser = await launchChromium();
  try {
    const ours = await disabledFeatures(browser);
    for (const f of [...playwrights, ...harnessDisabledFeatures]) assert.ok(ours.includes(f), `${f} is switched off`);
    // A new context opens a window; no address-bar popup is loaded with it.
    const cdp = await browser.newBrowserCDPSession();
    const context = await browser.newContext();
    await context.newPage();
    const { targetInfos } = await cdp.send("Target.getTargets", { filter: [{}] });
    const urls = targetInfos.map((t) => t.url);
    assert.ok(urls.includes("about:blank"), `the new page is listed: ${urls.join(", ")}`);
    assert.deepEqual(
      urls.filter((u) => u.startsWith("chrome://omnibox-popup")),
      [],
      "no omnibox popup renderer",
    );
    await context.close();
  } finally {
    await browser.close();
  }
});

test("axeBuilder finds violations in the page itself (low contrast, an image without alt text, an unlabeled field) and describes no passing node beyond one per rule", async () => {
  const browser = await launchChromium();
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.setContent(
      `<!doctype html><html lang="en"><head><title>t</title></head><body><main><h1>T</h1>` +
        `<p style="color:#bbb;background:#fff">Pale text.</p><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">` +
        `<input type="text"><p>Fine text.</p></main></body></html>`,
    );
    const result = await axeBuilder(page).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    assert.deepEqual(result.violations.map((v) => `${v.id} ${v.nodes.length}`).sort(), [
      "color-contrast 1",
      "image-alt 1",
      "label 1",
    ]);
    // resultTypes: a rule that passed describes one node at most, not every node it checked.
    assert.ok(result.passes.length > 0);
    for (const r of result.passes) assert.ok(r.nodes.length <= 1, `${r.id}: ${r.nodes.length} nodes described`);
    await context.close();
  } finally {
    await browser.close();
  }
});
