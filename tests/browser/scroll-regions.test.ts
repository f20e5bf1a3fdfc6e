/**
 * book.js measures the boxes that may scroll sideways (src/widgets/runtime/scroll-regions.ts)
 * without laying out what the first paint skips. Until the load, the blocks below the first screen
 * are skipped (`content-visibility: auto`, book.css), and reading the size of a box inside one makes
 * Chromium lay that block out for the read. Measured one box at a time, /one-gpu/ at 390 px was
 * laid out 7 times while book.js started (docs/performance-log.md, "Paint", fifteenth look). The test
 * reads Chromium's trace of one load: the layouts that a script forced, with book.js on its stack,
 * before the load event. Several of them from one place in the code (the same stack, line and
 * column) in one task mean a loop that lays the page out on each turn.
 * Boxes that a skipped block holds are measured when the block is rendered. On /book/, whose
 * chapters stay skipped off screen after the load, every wide box of a chapter must be a Tab stop
 * once the chapter has been scrolled into view, and, from the load on, every box of a chapter not yet
 * rendered is a Tab stop until it is measured (axe's scrollable-region-focusable on /book/). A box
 * in a closed <details> is measured when the details is opened.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { axeBuilder } from "../../harness/axe.ts";
import { afterFrames } from "../../harness/chromium.ts";
import { useSiteAndBrowser } from "../../harness/site-and-browser.ts";

const site = useSiteAndBrowser();

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: {
    name?: string;
    data?: { isMainFrame?: boolean };
    beginData?: { stackTrace?: { url: string; functionName: string; lineNumber: number; columnNumber: number }[] };
  };
}

test("book.js lays the page out at most once from any one place before the load", async () => {
  const context = await site.browser.newContext({ viewport: { width: 390, height: 844 } });
  try {
    const page = await context.newPage();
    await site.browser.startTracing(page, {
      categories: ["devtools.timeline", "disabled-by-default-devtools.timeline.stack", "toplevel"],
    });
    await page.goto(site.server.url + "/one-gpu/", { waitUntil: "load" });
    const trace = JSON.parse((await site.browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
    // The page must have had skipped blocks that hold boxes to measure, or the count proves nothing.
    const wideBoxes = await page.evaluate(
      () =>
        document.querySelectorAll(".part:not(:first-of-type) :is(pre, .math.display, .table-scroll)[tabindex]").length,
    );
    assert.ok(wideBoxes > 0, "/one-gpu/ at 390 px has no Tab-stop box after its first part");

    const events = trace.traceEvents;
    const load = events.find((e) => e.name === "MarkLoad" && e.args?.data?.isMainFrame !== false);
    assert.ok(load, "no load mark in the trace");
    const main = events.find(
      (e) => e.name === "thread_name" && e.pid === load.pid && e.args?.name === "CrRendererMain",
    );
    assert.ok(main, "no renderer main thread in the trace");
    const forced = events.filter(
      (e) =>
        e.name === "Layout" &&
        e.pid === load.pid &&
        e.tid === main.tid &&
        e.ts < load.ts &&
        (e.args?.beginData?.stackTrace ?? []).some((f) => f.url.endsWith("/assets/js/book.js")),
    );
    // book.js measures the first screen as it starts, so a trace that holds none has lost the stacks.
    assert.ok(forced.length > 0, "no layout with book.js on its stack before the load: were the stacks traced?");
    const tasks = events.filter(
      (e) => e.name === "ThreadControllerImpl::RunTask" && e.pid === load.pid && e.tid === main.tid && e.ph === "X",
    );
    const counts = new Map<string, number>();
    for (const e of forced) {
      const task = tasks.find((t) => t.ts <= e.ts && e.ts <= t.ts + (t.dur ?? 0));
      const stack =
        `task at ${task ? task.ts : "?"}: ` +
        (e.args?.beginData?.stackTrace ?? [])
          .map((f) => `${f.functionName || "(anonymous)"} ${f.url.split("/").pop()}:${f.lineNumber}:${f.columnNumber}`)
          .join(" < ");
      counts.set(stack, (counts.get(stack) ?? 0) + 1);
    }
    const repeated = [...counts].filter(([, n]) => n > 1);
    assert.deepEqual(
      repeated.map(([stack, n]) => `${n} layouts in the ${stack}`),
      [],
      `book.js forced ${forced.length} layouts before the load`,
    );
  } finally {
    await context.close();
  }
});

// At the load the skipping ends, and the boxes it held are measured then. Chromium answered the first
// of these from the state before the skipping ended (seen on /typical-scales/ at 1280 px).
for (const [path, width, height] of [
  ["/typical-scales/", 1280, 900],
  ["/one-gpu/", 390, 844],
  ["/context-parallelism/", 390, 844],
] as const) {
  test(`${path} at ${width} px: every box wider than the column is a Tab stop after the load`, async () => {
    const page = await site.browser.newPage({ viewport: { width, height } });
    try {
      await page.goto(site.server.url + path, { waitUntil: "load" });
      const found = await page.evaluate(() => {
        const focusable = "a[href], button, input, select, textarea, summary, [tabindex]";
        const wide = Array.from(document.querySelectorAll<HTMLElement>("pre, .math.display, .table-scroll")).filter(
          (box) => box.scrollWidth > box.clientWidth && !box.querySelector(focusable),
        );
        return {
          wide: wide.length,
          untabbable: wide.filter((box) => box.tabIndex < 0).map((box) => box.id || box.className || box.tagName),
        };
      });
      assert.ok(found.wide > 0, `${path} has no box wider than the column at ${width} px`);
      assert.deepEqual(found.untabbable, []);
    } finally {
      await page.close();
    }
  });
}

test("on /book/, the wide boxes of each chapter are Tab stops once it is scrolled into view", async () => {
  const page = await site.browser.newPage({ viewport: { width: 390, height: 844 } });
  try {
    await page.goto(site.server.url + "/book/", { waitUntil: "load" });
    const chapters = await page.locator(".edition > .edition-chapter").count();
    assert.ok(chapters > 10, `/book/ has ${chapters} chapters`);
    const missing: string[] = [];
    let wide = 0;
    for (let i = 0; i < chapters; i++) {
      await page
        .locator(".edition > .edition-chapter")
        .nth(i)
        .evaluate((chapter) => chapter.scrollIntoView());
      await afterFrames(page, 3);
      const found = await page
        .locator(".edition > .edition-chapter")
        .nth(i)
        .evaluate((chapter) => {
          // Not filtered by what is rendered: the chapter is in view, and a box in a chapter still
          // skipped reads its true width (the browser lays it out for the read), so it fails here.
          const boxes = Array.from(chapter.querySelectorAll<HTMLElement>("pre, .math.display, .table-scroll")).filter(
            (box) => box.scrollWidth > box.clientWidth,
          );
          const focusable = "a[href], button, input, select, textarea, summary, [tabindex]";
          const without = boxes.filter((box) => !box.hasAttribute("tabindex") && !box.querySelector(focusable));
          return {
            wide: boxes.length,
            without: without.map((box) => `${chapter.id} ${box.id || box.className || box.tagName}`),
          };
        });
      wide += found.wide;
      missing.push(...found.without);
    }
    assert.ok(wide > 20, `only ${wide} wide boxes found on /book/ at 390 px`);
    assert.deepEqual(missing, []);
  } finally {
    await page.close();
  }
});

// Issue #54: axe's scrollable-region-focusable failed on /book/ for 19 boxes, in both themes, because
// a chapter not yet rendered kept its wide boxes out of the Tab order. From the load on, such boxes
// are Tab stops until measured; the chapter's render takes the stop from those that fit.
for (const [width, height] of [
  [1280, 900],
  [390, 844],
] as const) {
  test(`/book/ at ${width} px, right after the load: every box that scrolls is a Tab stop, rendered or not`, async () => {
    const context = await site.browser.newContext({ viewport: { width, height } });
    const page = await context.newPage();
    try {
      await page.goto(site.server.url + "/book/", { waitUntil: "load" });
      await afterFrames(page, 2);
      const found = await page.evaluate(() => {
        const focusable = "a[href], button, input, select, textarea, summary, [tabindex]";
        const all = Array.from(document.querySelectorAll<HTMLElement>("pre, .math.display, .table-scroll"));
        const skipped = all.filter((box) => !box.checkVisibility({ contentVisibilityAuto: true })).length;
        // Reading the width lays a skipped chapter out for the read, as axe does.
        const wide = all.filter(
          (box) =>
            !box.closest("details:not([open])") && box.scrollWidth > box.clientWidth && !box.querySelector(focusable),
        );
        return {
          skipped,
          wide: wide.length,
          untabbable: wide.filter((box) => box.tabIndex < 0).map((b) => b.closest("article")?.id + " " + b.className),
        };
      });
      assert.ok(found.skipped > 20, `only ${found.skipped} boxes were in chapters not yet rendered`);
      assert.ok(found.wide > 0, `no box scrolls on /book/ at ${width} px`);
      assert.deepEqual(found.untabbable, []);
      if (width === 1280) {
        for (const theme of ["light", "dark"] as const) {
          await page.emulateMedia({ colorScheme: theme });
          const result = await axeBuilder(page).withRules(["scrollable-region-focusable"]).analyze();
          assert.deepEqual(
            result.violations.flatMap((v) => v.nodes.map((n) => `${theme}: ${n.target.join(" ")}`)),
            [],
          );
        }
      }
    } finally {
      await context.close();
    }
  });
}

test("on /book/, a chapter's render takes the Tab stop from the boxes that fit, but not from the focused one", async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 900 } });
  try {
    await page.goto(site.server.url + "/book/", { waitUntil: "load" });
    const chapter = page.locator("article.edition-chapter#gpu-kernels");
    const before = await chapter.evaluate((a) => ({
      unmeasured: a.querySelectorAll("[data-scroll-region=unmeasured]").length,
      stops: a.querySelectorAll(":is(pre, .math.display, .table-scroll)[tabindex]").length,
    }));
    assert.ok(before.unmeasured > 5, `chapter 9 holds ${before.unmeasured} unmeasured boxes at the load`);
    // Focus the chapter's first Tab-stop box (as Tab would), which renders the chapter.
    await chapter.locator("[data-scroll-region=unmeasured]").first().focus();
    const focusedId = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      el.dataset.testFocused = "";
      return el.className;
    });
    assert.ok(focusedId.length > 0);
    await afterFrames(page, 3);
    const after = await chapter.evaluate((a) => {
      const boxes = Array.from(a.querySelectorAll<HTMLElement>("pre, .math.display, .table-scroll"));
      // A box that a block inside the chapter still skips is measured when that block renders.
      const shown = boxes.filter((b) => b.checkVisibility({ contentVisibilityAuto: true }));
      return {
        unmeasured: shown.filter((b) => b.dataset.scrollRegion === "unmeasured" && b !== document.activeElement).length,
        fittingStops: shown
          .filter(
            (b) => b.hasAttribute("tabindex") && b.scrollWidth <= b.clientWidth && b.dataset.testFocused === undefined,
          )
          .map((b) => b.className),
        focusedKept: a.querySelector<HTMLElement>("[data-test-focused]")?.tabIndex,
      };
    });
    assert.equal(after.unmeasured, 0, "the rendered boxes of the chapter were measured");
    assert.deepEqual(after.fittingStops, [], "a box that fits is no Tab stop once measured");
    assert.equal(after.focusedKept, 0, "the focused box keeps its stop");
  } finally {
    await page.close();
  }
});

// No solution in the book holds a box too wide for a phone today, so the test adds one: a closed
// <details> like a solution, holding a line of code wider than the column, after the load.
test("a wide box in a closed details becomes a Tab stop when it is opened", async () => {
  const page = await site.browser.newPage({ viewport: { width: 390, height: 844 } });
  try {
    await page.goto(site.server.url + "/collectives/", { waitUntil: "load" });
    await page.evaluate(() => {
      const details = document.createElement("details");
      details.className = "solution";
      details.id = "test-solution";
      const summary = document.createElement("summary");
      summary.textContent = "Solution";
      const pre = document.createElement("pre");
      pre.textContent = "x = " + "0123456789 ".repeat(20);
      details.append(summary, pre);
      document.querySelector("main")!.append(details);
    });
    const pre = page.locator("#test-solution pre");
    assert.equal(await pre.evaluate((box) => box.tabIndex), -1, "the closed box is a Tab stop already");
    await page.locator("#test-solution summary").click();
    await afterFrames(page, 2);
    const box = await pre.evaluate((el) => ({ wide: el.scrollWidth > el.clientWidth, tabIndex: el.tabIndex }));
    assert.ok(box.wide, "the added line of code fits the column");
    assert.equal(box.tabIndex, 0);
  } finally {
    await page.close();
  }
});
