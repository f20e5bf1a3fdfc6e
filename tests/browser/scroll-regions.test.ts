/**
 * book.js measures the boxes that may scroll sideways (src/widgets/runtime/scroll-regions.ts)
 * without laying out what the first paint skips. Until the load, the blocks below the first screen
 * are skipped (`content-visibility: auto`, book.css), and reading the size of a box inside one makes
 * Chromium lay that block out for the read. Measured one box at a time, /one-gpu/ at 390 px was
 * laid out 7 times while book.js started (docs/performance.md, "Paint", fifteenth look). The test
 * reads Chromium's trace of one load: the layouts that a script forced, with book.js on its stack,
 * before the load event. Several of them from one place in the code (the same stack, line and
 * column) mean a loop that lays the page out on each turn.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { useSiteAndBrowser } from "../../harness/site-and-browser.ts";

const site = useSiteAndBrowser();

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  args?: {
    name?: string;
    beginData?: { stackTrace?: { url: string; functionName: string; lineNumber: number; columnNumber: number }[] };
  };
}

test("book.js lays the page out at most once from any one place before the load", async () => {
  const context = await site.browser.newContext({ viewport: { width: 390, height: 844 } });
  try {
    const page = await context.newPage();
    await site.browser.startTracing(page, {
      categories: ["devtools.timeline", "disabled-by-default-devtools.timeline.stack"],
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
    const load = events.find((e) => e.name === "MarkLoad");
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
    const counts = new Map<string, number>();
    for (const e of forced) {
      const stack = (e.args?.beginData?.stackTrace ?? [])
        .map((f) => `${f.functionName || "(anonymous)"} ${f.url.split("/").pop()}:${f.lineNumber}:${f.columnNumber}`)
        .join(" < ");
      counts.set(stack, (counts.get(stack) ?? 0) + 1);
    }
    const repeated = [...counts].filter(([, n]) => n > 1);
    assert.deepEqual(
      repeated.map(([stack, n]) => `${n} layouts from ${stack}`),
      [],
      `book.js forced ${forced.length} layouts before the load`,
    );
  } finally {
    await context.close();
  }
});
