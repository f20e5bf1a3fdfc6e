import { test } from "node:test";
import assert from "node:assert/strict";
import { bareTwin, busyTicks, median, paintBudget } from "../../tools/bench/paint.ts";

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

test("busy CPU ticks are user, nice, system, irq, softirq and steal from /proc/stat's first line, not idle or iowait", () => {
  const stat = "cpu  100 20 30 5000 70 4 6 1 0 0\ncpu0 50 10 15 2500 35 2 3 0 0 0\nintr 1\n";
  assert.equal(busyTicks(stat), 100 + 20 + 30 + 4 + 6 + 1);
  assert.throws(() => busyTicks("intr 1 2 3\n"), /not a \/proc\/stat cpu line/);
});
