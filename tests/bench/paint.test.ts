import { test } from "node:test";
import assert from "node:assert/strict";
import { bareTwin, busyMs, median, paintBudget } from "../../tools/bench/paint.ts";

test("bareTwin removes every link, script and style element and keeps everything else byte for byte", () => {
  const html =
    '<!doctype html><html><head><meta charset="utf-8"><script src="/t.js"></script>' +
    '<link rel="stylesheet" href="/a.css"><style>p{color:red}</style><title>T</title>' +
    '<script type="module">if (1 < 2) document.title = "</p>";</script></head>' +
    '<body><p>One &amp; two</p><img src="/x.svg" alt="x"><script>var s = "<style>";</script></body></html>';
  assert.equal(
    bareTwin(html),
    '<!doctype html><html><head><meta charset="utf-8"><title>T</title></head>' +
      '<body><p>One &amp; two</p><img src="/x.svg" alt="x"></body></html>',
  );
});

test("paint budget is 2× for the single-page edition and 1.5× elsewhere; median of even and odd counts", () => {
  assert.equal(paintBudget("/book/"), 2);
  assert.equal(paintBudget("/one-gpu/"), 1.5);
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 2, 3]), 2.5);
});

test("busy CPU time sums user, nice, sys and irq over every core, not idle", () => {
  const core = (user: number, idle: number) => ({ times: { user, nice: 2, sys: 3, idle, irq: 1 } });
  assert.equal(busyMs([core(100, 5000), core(50, 9000)]), 100 + 2 + 3 + 1 + 50 + 2 + 3 + 1);
  assert.ok(busyMs() > 0);
});
