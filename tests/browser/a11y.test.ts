/**
 * Accessibility of every built page (issue #15), in Chromium:
 * - axe-core (WCAG 2.0/2.1 A and AA rules) finds nothing on any page, in the light theme and
 *   at phone width (390px), with every widget mounted so its controls are checked too; in the
 *   dark theme (color scheme emulated, and `data-theme` set on <html> as the theme toggle does)
 *   the rules about colors find nothing (the theme changes colors only);
 * - every control of every widget is reached with the Tab key, in order from the page before it,
 *   and shows a visible focus indicator when focused from the keyboard;
 * - every widget announces its result: changing a control with the keyboard alone changes the
 *   text of the widget's polite live region;
 * - the skip link is the first Tab stop, becomes visible, and moves to the main text;
 * - under `prefers-reduced-motion: reduce` no element has a CSS transition or animation longer
 *   than 0.01 s and scrolling is not smooth.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { BrowserContextOptions, Page } from "playwright-core";
import { axeBuilder } from "../../harness/axe.ts";
import { useSiteAndBrowser } from "../../harness/site-and-browser.ts";
import { mountAllWidgets, sitePages } from "../../harness/site-pages.ts";
import { scenarios } from "../../harness/widget-scenarios.ts";

const desktop: BrowserContextOptions = { viewport: { width: 1280, height: 900 }, reducedMotion: "reduce" };

const site = useSiteAndBrowser();

/**
 * axe on every page but /book/, widgets mounted: one line per violation ("<page> <rule> (n×): <targets>").
 * /book/ repeats the chapters' markup (checked here on their own pages) in one page of about
 * 77,000 elements that axe needs minutes for; tests/browser/reader-book.test.ts runs axe on the
 * parts /book/ adds (cover, contents) and one chapter in place.
 */
async function axeEveryPage(page: Page, rules?: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const p of sitePages().filter((path) => path !== "/book/")) {
    await page.goto(site.server.url + p, { waitUntil: "load" });
    await mountAllWidgets(page);
    await page.evaluate(() => document.fonts.ready);
    await page.evaluate(() => window.scrollTo(0, 0));
    const axe = axeBuilder(page);
    const result = await (
      rules ? axe.withRules([...rules]) : axe.withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    ).analyze();
    for (const v of result.violations) {
      const where = v.nodes
        .slice(0, 3)
        .map((n) => n.target.join(" "))
        .join(", ");
      found.push(`${p} ${v.id} (${v.nodes.length}×): ${where}`);
    }
  }
  return found;
}

/**
 * The rules whose outcome depends on colors. The dark theme changes nothing but colors (book.css
 * sets only custom properties under `data-theme="dark"` and `prefers-color-scheme: dark`; the
 * widgets draw with the same variables), so the other rules, checked in the light theme, would
 * give the same answers on the same markup: in the dark theme axe runs these alone (they are
 * half of its time on a chapter).
 */
const colorRules = ["color-contrast", "link-in-text-block"] as const;

describe("axe-core", () => {
  for (const theme of ["light", "dark"] as const) {
    const what = theme === "light" ? "no WCAG 2.1 A/AA violation" : `no ${colorRules.join(" or ")} violation`;
    test(`${what} on any page, ${theme} theme, widgets mounted`, async () => {
      const context = await site.browser.newContext({ ...desktop, colorScheme: theme });
      await context.addInitScript((t) => document.documentElement.setAttribute("data-theme", t), theme);
      const page = await context.newPage();
      assert.deepEqual(await axeEveryPage(page, theme === "dark" ? colorRules : undefined), []);
      await context.close();
    });
  }

  // At phone width wide equations, tables and code scroll sideways and must be focusable
  // (scrollable-region-focusable); the ToC is a drawer. One theme: colors do not change with width.
  test("no WCAG 2.1 A/AA violation on any page at phone width (390px), widgets mounted", async () => {
    const context = await site.browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      reducedMotion: "reduce",
    });
    assert.deepEqual(await axeEveryPage(await context.newPage()), []);
    await context.close();
  });
});

/** Tab stops in document order: what the Tab key visits (no tabindex > 0 is used in the book). */
async function tabbables(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const sel = "a[href], button, input, select, textarea, summary, [tabindex]";
    const out: string[] = [];
    let i = 0;
    for (const el of document.querySelectorAll<HTMLElement>(sel)) {
      i++;
      if (
        (el as HTMLButtonElement).disabled ||
        el.tabIndex < 0 ||
        el.closest("[inert], details:not([open]) > :not(summary)")
      )
        continue;
      if (el instanceof HTMLInputElement && el.type === "hidden") continue;
      const style = getComputedStyle(el);
      if (style.visibility === "hidden" || el.getClientRects().length === 0) continue;
      el.dataset.a11yTab = String(i);
      out.push(String(i));
    }
    return out;
  });
}

describe("keyboard", () => {
  test("every widget control is reached by Tab, in order, with a visible focus indicator", async () => {
    const context = await site.browser.newContext(desktop);
    const page = await context.newPage();
    let controls = 0;
    for (const p of sitePages()) {
      await page.goto(site.server.url + p, { waitUntil: "load" });
      const names = await mountAllWidgets(page);
      if (names.length === 0) continue;
      const order = await tabbables(page);
      const roots = page.locator("[data-widget]");
      for (let w = 0; w < names.length; w++) {
        const inside = await roots
          .nth(w)
          .evaluate((root) =>
            Array.from(root.querySelectorAll<HTMLElement>("[data-a11y-tab]")).map((el) => el.dataset.a11yTab!),
          );
        const first = order.indexOf(inside[0] ?? "");
        if (inside.length === 0 || first < 0) continue; // a figure-only widget has no controls
        // Start on the Tab stop before the widget (or the top of the page) and Tab through it.
        if (first > 0) await page.locator(`[data-a11y-tab="${order[first - 1]}"]`).focus();
        else await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
        // Focusing with .focus() does not set keyboard modality; one Tab from there does.
        for (const expected of inside) {
          await page.keyboard.press("Tab");
          const state = await page.evaluate(() => {
            const el = document.activeElement as HTMLElement | null;
            if (!el) return { tab: null, visible: false, desc: "nothing" };
            const s = getComputedStyle(el);
            const outline = s.outlineStyle !== "none" && parseFloat(s.outlineWidth) >= 1;
            const shadow = s.boxShadow !== "none";
            return {
              tab: el.dataset.a11yTab ?? null,
              visible: el.matches(":focus-visible") && (outline || shadow),
              desc: `<${el.tagName.toLowerCase()} name=${el.getAttribute("name")} class=${el.className}>`,
            };
          });
          assert.equal(state.tab, expected, `${p} ${names[w]}: Tab reached ${state.desc} instead of the next control`);
          assert.ok(state.visible, `${p} ${names[w]}: ${state.desc} has no visible focus indicator`);
          controls++;
        }
      }
    }
    assert.ok(controls >= 10, `only ${controls} widget controls found`);
    await context.close();
  });

  test("every widget announces its result after a change made with the keyboard alone", async () => {
    const context = await site.browser.newContext(desktop);
    const page = await context.newPage();
    const seen = new Set<string>();
    const problems: string[] = [];
    for (const s of scenarios) {
      const name = s.widget.replace(/^widget-|-\d+$/g, "");
      if (seen.has(name)) continue;
      seen.add(name);
      await page.goto(`${site.server.url}/${s.page}/`, { waitUntil: "load" });
      const root = page.locator(`#${s.widget}`);
      if ((await root.count()) === 0) {
        problems.push(`${name}: no #${s.widget} on /${s.page}/`);
        continue;
      }
      await root.scrollIntoViewIfNeeded();
      await page.waitForFunction((id) => document.getElementById(id)?.dataset.widgetState === "mounted", s.widget);
      const live = root.locator('[aria-live="polite"]').first();
      if ((await live.count()) === 0) {
        problems.push(`${name}: no aria-live="polite" region`);
        continue;
      }
      const before = (await live.textContent()) ?? "";
      const control = root.locator(`[name="${s.control}"]`).first();
      await control.focus();
      const kind = await control.evaluate((el) => (el.tagName === "SELECT" ? "select" : (el as HTMLInputElement).type));
      const current = await control.inputValue();
      if (kind === "range")
        await page.keyboard.press(current === (await control.getAttribute("max")) ? "ArrowLeft" : "ArrowRight");
      else if (kind === "select") await page.keyboard.press("ArrowDown");
      else {
        await page.keyboard.press("ControlOrMeta+A");
        await page.keyboard.type(current === s.values[1] ? s.values[0] : s.values[1]);
      }
      const after = await page
        .waitForFunction(
          ([el, old]) => {
            const t = (el as Element).textContent?.trim() ?? "";
            return t !== "" && t !== (old as string).trim() ? t : false;
          },
          [await live.elementHandle(), before] as const,
          { timeout: 3000 },
        )
        .then((h) => h.jsonValue())
        .catch(() => undefined);
      if (!after)
        problems.push(
          `${name}: live region still "${before.trim().slice(0, 60)}" after changing ${s.control} (${kind})`,
        );
    }
    assert.deepEqual(problems, []);
    assert.ok(seen.size >= 8, `checked ${seen.size} widgets`);
    await context.close();
  });

  test("the skip link is the first Tab stop, shows itself, and jumps to the main text", async () => {
    const context = await site.browser.newContext(desktop);
    const page = await context.newPage();
    for (const p of sitePages()) {
      await page.goto(site.server.url + p, { waitUntil: "load" });
      // The search page's only control in <main> is Pagefind's box, which book.js loads after the
      // first paint: wait for it (the race, not the skip link, made this fail once in CI).
      await page.waitForFunction(() => {
        const host = document.querySelector<HTMLElement>("[data-search-ui]");
        return !host || host.dataset.searchState === "ready" || host.dataset.searchState === "error";
      });
      await page.keyboard.press("Tab");
      const link = await page.evaluate(() => {
        const el = document.activeElement as HTMLAnchorElement;
        const r = el.getBoundingClientRect();
        return { cls: el.className, href: el.getAttribute("href"), text: el.textContent, top: r.top, bottom: r.bottom };
      });
      assert.equal(link.cls, "skip-link", `${p}: first Tab stop`);
      assert.equal(link.href, "#main");
      assert.ok(link.top >= 0 && link.bottom <= 900, `${p}: skip link on screen when focused (top ${link.top})`);
      await page.keyboard.press("Enter");
      const after = await page.evaluate(() => ({
        hash: location.hash,
        tag: document.getElementById("main")?.tagName ?? null,
        top: document.getElementById("main")?.getBoundingClientRect().top ?? null,
        atBottom: window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1,
        padding: parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0,
      }));
      assert.equal(after.hash, "#main", p);
      assert.equal(after.tag, "MAIN", `${p}: #main is the <main> element`);
      // At the top of the viewport (below the html scroll-padding), unless the page is too short to scroll that far.
      assert.ok(
        after.top !== null && (Math.abs(after.top - after.padding) < 2 || after.atBottom),
        `${p}: main text at the top after the jump (${after.top}px, scroll-padding ${after.padding}px)`,
      );
      // The next Tab continues inside the main text, not in the header.
      await page.keyboard.press("Tab");
      const inMain = await page.evaluate(() => Boolean(document.activeElement?.closest("main")));
      assert.ok(inMain, `${p}: Tab after the skip link lands in <main>`);
    }
    await context.close();
  });
});

describe("skip to a widget", () => {
  // Issue #54: reaching the configuration finder by Tab took 331 presses.
  test("each widget has a skip link near the top of the Tab order that focuses it; Tab then reaches its controls", async () => {
    const context = await site.browser.newContext(desktop);
    const page = await context.newPage();
    for (const [p, id, title] of [
      ["/five-d-parallelism/", "widget-config-finder-1", "Searching the parallel configurations that fit"],
      [
        "/pipeline-parallelism/",
        "widget-pipeline-explorer-4",
        "Zero bubble (ZB-H1): weight gradients fill the idle time",
      ],
    ] as const) {
      await page.goto(site.server.url + p, { waitUntil: "load" });
      const links = await page
        .locator("nav.widget-skip a")
        .evaluateAll((as) => as.map((a) => ({ href: a.getAttribute("href"), text: a.textContent })));
      const widgets = await page.locator("[data-widget]").evaluateAll((ws) => ws.map((w) => `#${w.id}`));
      assert.deepEqual(
        links.map((l) => l.href),
        widgets,
        `${p}: one skip link per widget, in order`,
      );
      // Skip link to the text, then the widget links: the wanted one within a few presses.
      let presses = 0;
      let focused = "";
      while (presses < 12 && focused !== `#${id}`) {
        await page.keyboard.press("Tab");
        presses++;
        if (presses === 1) {
          await page.keyboard.press("Enter"); // "Skip to the text"
          presses++;
        }
        focused = await page.evaluate(() => document.activeElement?.getAttribute("href") ?? "");
      }
      assert.equal(focused, `#${id}`, `${p}: no skip link to #${id} in the first presses`);
      assert.ok(presses <= 8, `${p}: ${presses} presses to the widget's skip link`);
      const link = await page.evaluate(() => {
        const a = document.activeElement as HTMLElement;
        const r = a.getBoundingClientRect();
        return { text: a.textContent, top: r.top, bottom: r.bottom, visible: getComputedStyle(a).position };
      });
      assert.equal(link.text, `Skip to the widget: ${title}`);
      assert.ok(link.top >= 0 && link.bottom <= 900, `${p}: the focused skip link is on screen (${link.top})`);
      await page.keyboard.press("Enter");
      assert.equal(await page.evaluate(() => document.activeElement?.id), id, `${p}: Enter focuses the widget`);
      await page.waitForFunction((w) => document.getElementById(w)?.dataset.widgetState === "mounted", id);
      await page.keyboard.press("Tab");
      const inside = await page.evaluate(
        (w) => ({
          inWidget: Boolean(document.activeElement?.closest(`#${w}`)),
          tag: document.activeElement?.tagName,
        }),
        id,
      );
      assert.ok(inside.inWidget, `${p}: Tab after the widget lands on ${inside.tag} outside it`);
    }
    await context.close();
  });
});

describe("touch targets", () => {
  // Issue #54: controls were 33-38 px tall on phones; the aim is 44 px (check boxes 24 px square).
  test("at 390 px every control is at least 44 px tall, every check box 24 px, widgets mounted", async () => {
    const context = await site.browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      reducedMotion: "reduce",
    });
    const page = await context.newPage();
    const small: string[] = [];
    let checked = 0;
    for (const p of sitePages().filter((path) => path !== "/book/")) {
      await page.goto(site.server.url + p, { waitUntil: "load" });
      await mountAllWidgets(page);
      const found = await page.evaluate(() => {
        for (const d of document.querySelectorAll("details")) d.open = true;
        const out: string[] = [];
        let n = 0;
        const sel = "button, select, textarea, summary, input:not([type=hidden])";
        for (const el of document.querySelectorAll<HTMLElement>(sel)) {
          const r = el.getBoundingClientRect();
          if (r.width === 0 || getComputedStyle(el).visibility === "hidden") continue;
          n++;
          const box = el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio");
          const need = box ? 24 : 44;
          if (r.height < need - 0.5 || (box && r.width < need - 0.5))
            out.push(
              `<${el.tagName.toLowerCase()} ${el.getAttribute("name") ?? el.className}> ${Math.round(r.height)} px`,
            );
        }
        return { out: out.slice(0, 5), n };
      });
      checked += found.n;
      for (const f of found.out) small.push(`${p} ${f}`);
    }
    assert.deepEqual(small, []);
    assert.ok(checked > 300, `only ${checked} controls measured`);
    await context.close();
  });
});

describe("reduced motion", () => {
  test("no CSS transition or animation longer than 0.01 s, no smooth scrolling, on any page", async () => {
    const context = await site.browser.newContext({ ...desktop, reducedMotion: "reduce" });
    const page = await context.newPage();
    const found: string[] = [];
    for (const p of sitePages()) {
      await page.goto(site.server.url + p, { waitUntil: "load" });
      await mountAllWidgets(page);
      const slow = await page.evaluate(() => {
        // No named helper functions in here: tsx would wrap them in a __name() the page lacks.
        const out: string[] = [];
        if (getComputedStyle(document.documentElement).scrollBehavior === "smooth")
          out.push("html: scroll-behavior smooth");
        for (const el of document.querySelectorAll("*")) {
          for (const pseudo of [null, "::before", "::after"]) {
            const s = getComputedStyle(el, pseudo);
            let t = 0;
            for (const v of s.transitionDuration.split(","))
              t = Math.max(t, v.trim().endsWith("ms") ? parseFloat(v) / 1000 : parseFloat(v));
            let a = 0;
            if (s.animationName !== "none") {
              for (const v of s.animationDuration.split(","))
                a = Math.max(a, v.trim().endsWith("ms") ? parseFloat(v) / 1000 : parseFloat(v));
            }
            if (t > 0.01 || a > 0.01) {
              out.push(
                `<${el.tagName.toLowerCase()} class="${el.getAttribute("class") ?? ""}">${pseudo ?? ""} transition ${s.transitionDuration} animation ${s.animationName} ${s.animationDuration}`,
              );
            }
          }
        }
        return out.slice(0, 5);
      });
      for (const s of slow) found.push(`${p} ${s}`);
    }
    assert.deepEqual(found, []);
    await context.close();
  });
});
