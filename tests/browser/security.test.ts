/**
 * Security of the built site (issue #15): every page carries the Content-Security-Policy from
 * src/plugins/site/csp.ts and, loaded in Chromium with every widget scrolled into view and mounted,
 * causes no CSP violation and no request to another origin, and an injected inline script is
 * refused. Escaping and the build's inline-script and link checks: tests/plugins/security.test.ts.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { watchPage, settle } from "../../harness/chromium.ts";
import { useSiteAndBrowser } from "../../harness/site-and-browser.ts";
import { mountAllWidgets, siteDir, sitePages } from "../../harness/site-pages.ts";
import { contentSecurityPolicy, cspMetaTag, headersFile } from "../../src/plugins/site/csp.ts";

const site = useSiteAndBrowser();

describe("Content-Security-Policy", () => {
  test("every page has the policy as the first element after <meta charset>, and _headers carries it", () => {
    const pages = sitePages();
    assert.ok(pages.length > 1, "run npm run build first");
    for (const p of pages) {
      const html = readFileSync(path.join(siteDir, p, "index.html"), "utf8");
      assert.ok(html.includes(`<meta charset="utf-8">\n${cspMetaTag}`), `${p}: CSP meta right after <meta charset>`);
      assert.equal(html.split("Content-Security-Policy").length, 2, `${p}: exactly one policy`);
    }
    assert.equal(
      contentSecurityPolicy,
      "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
        "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'",
    );
    const headers = readFileSync(path.join(siteDir, "_headers"), "utf8");
    assert.equal(headers, headersFile());
    assert.ok(headers.includes(`Content-Security-Policy: ${contentSecurityPolicy}; frame-ancestors 'none'\n`));
  });

  test("no page violates it or requests another origin, with every widget mounted", async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: "reduce" });
    // Runs before any page script; securitypolicyviolation fires for blocked scripts, styles, eval…
    await context.addInitScript(() => {
      const w = window as unknown as { __csp: string[] };
      w.__csp = [];
      document.addEventListener("securitypolicyviolation", (e) => {
        w.__csp.push(`${e.violatedDirective} blocked ${e.blockedURI || "(inline)"} at ${e.sourceFile}:${e.lineNumber}`);
      });
    });
    let widgets = 0;
    for (const p of sitePages()) {
      const page = await context.newPage();
      const problems = watchPage(page, site.server.url);
      const cspConsole: string[] = [];
      page.on("console", (m) => {
        if (/Content Security Policy|Refused to/i.test(m.text())) cspConsole.push(m.text());
      });
      await page.goto(site.server.url + p, { waitUntil: "load" });
      widgets += (await mountAllWidgets(page)).length;
      await settle(page);
      const violations = await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
      assert.deepEqual(violations, [], `CSP violations on ${p}`);
      assert.deepEqual(cspConsole, [], `CSP console messages on ${p}`);
      assert.deepEqual(problems.offOrigin, [], `requests to other origins from ${p}`);
      assert.deepEqual(problems.pageErrors, [], `page errors on ${p}`);
      await page.close();
    }
    assert.ok(widgets >= 5, `only ${widgets} widgets found on the site`);
    await context.close();
  });

  test("the policy really is enforced: injected inline script and handlers are refused and reported", async () => {
    const context = await site.browser.newContext();
    await context.addInitScript(() => {
      const w = window as unknown as { __csp: string[] };
      w.__csp = [];
      document.addEventListener("securitypolicyviolation", (e) => w.__csp.push(e.effectiveDirective));
    });
    const page = await context.newPage();
    await page.goto(site.server.url + "/", { waitUntil: "load" });
    // Markup added through the DOM, as an injection would, runs under the page's policy.
    // (page.evaluate itself runs through DevTools, which CSP does not govern, so eval is not
    // tested here; the policy has no 'unsafe-eval' and the test above asserts its exact text.)
    await page.evaluate(() => {
      const s = document.createElement("script");
      s.textContent = "window.__ran = 'inline';";
      document.head.append(s);
      const b = document.createElement("button");
      b.setAttribute("onclick", "window.__ran = 'handler'");
      document.body.append(b);
      b.click();
    });
    // Both refusals are reported by a securitypolicyviolation event each (queued, not at once):
    // wait for both before asserting that neither script ran. If one never comes, the assertion
    // below says which.
    await page
      .waitForFunction(() => (window as unknown as { __csp: string[] }).__csp.length >= 2, undefined, {
        timeout: 5_000,
      })
      .catch(() => undefined);
    const outcome = await page.evaluate(() => {
      const w = window as unknown as { __ran?: string; __csp: string[] };
      return { ran: w.__ran ?? null, violations: [...w.__csp].sort() };
    });
    assert.deepEqual(outcome, { ran: null, violations: ["script-src-attr", "script-src-elem"] });
    await context.close();
  });
});
