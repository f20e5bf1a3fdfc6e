import { test } from "node:test";
import assert from "node:assert/strict";
import {
  bareTwin,
  busyMs,
  median,
  paintBudget,
  paintSchedule,
  pooledRatios,
  ratioInterval,
  viewports,
  type PaintLoad,
  type PaintRow,
} from "../../tools/bench/paint.ts";

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

test("paint schedule: by row, every round of a row before the next; interleaved, every row in each round", () => {
  const [desktop, phone] = viewports;
  const rows = (loads: PaintLoad[]) => loads.map((l) => `${l.viewport.name} ${l.page} ${l.round} ${l.kind}`);
  const withBaseline = (p: string) => p === "/a/";
  assert.deepEqual(rows(paintSchedule([desktop!, phone!], ["/a/", "/b/"], 2, withBaseline, "by-row")), [
    "desktop /a/ 0 baseline",
    "desktop /a/ 0 baselineTwin",
    "desktop /a/ 0 page",
    "desktop /a/ 0 twin",
    "desktop /a/ 1 baseline",
    "desktop /a/ 1 baselineTwin",
    "desktop /a/ 1 page",
    "desktop /a/ 1 twin",
    "desktop /b/ 0 page",
    "desktop /b/ 0 twin",
    "desktop /b/ 1 page",
    "desktop /b/ 1 twin",
    "phone /a/ 0 baseline",
    "phone /a/ 0 baselineTwin",
    "phone /a/ 0 page",
    "phone /a/ 0 twin",
    "phone /a/ 1 baseline",
    "phone /a/ 1 baselineTwin",
    "phone /a/ 1 page",
    "phone /a/ 1 twin",
    "phone /b/ 0 page",
    "phone /b/ 0 twin",
    "phone /b/ 1 page",
    "phone /b/ 1 twin",
  ]);
  assert.deepEqual(rows(paintSchedule([desktop!, phone!], ["/a/", "/b/"], 2, () => false, "interleaved")), [
    "desktop /a/ 0 page",
    "desktop /a/ 0 twin",
    "desktop /b/ 0 page",
    "desktop /b/ 0 twin",
    "phone /a/ 0 page",
    "phone /a/ 0 twin",
    "phone /b/ 0 page",
    "phone /b/ 0 twin",
    "desktop /a/ 1 page",
    "desktop /a/ 1 twin",
    "desktop /b/ 1 page",
    "desktop /b/ 1 twin",
    "phone /a/ 1 page",
    "phone /a/ 1 twin",
    "phone /b/ 1 page",
    "phone /b/ 1 twin",
  ]);
});

test("ratio interval: a percentile bootstrap of the ratio of medians, the same for the same samples", () => {
  // Every load alike: no spread, the interval is the ratio itself.
  assert.deepEqual(ratioInterval([300, 300, 300], [200, 200, 200]), [1.5, 1.5]);
  const page = [364, 328, 340, 216, 344, 376, 416];
  const twin = [204, 216, 320, 220, 272, 292, 204];
  const [lo, hi] = ratioInterval(page, twin);
  assert.deepEqual(ratioInterval(page, twin), [lo, hi], "seeded: the same interval twice");
  const ratioOfMedians = median(page) / median(twin);
  assert.ok(lo < ratioOfMedians && ratioOfMedians < hi, `${lo} < ${ratioOfMedians} < ${hi}`);
  // Bounds of any resample: smallest page load over largest twin load, and the other way round.
  assert.ok(lo >= 216 / 320 && hi <= 416 / 204, `${lo}, ${hi}`);
  // A wider level gives a wider interval; more loads of the same spread give a narrower one.
  const [lo99, hi99] = ratioInterval(page, twin, { level: 0.99 });
  assert.ok(lo99 <= lo && hi99 >= hi && hi99 - lo99 > hi - lo);
  const [loMore, hiMore] = ratioInterval([...page, ...page, ...page], [...twin, ...twin, ...twin]);
  assert.ok(hiMore - loMore < hi - lo, `${loMore}-${hiMore} narrower than ${lo}-${hi}`);
  assert.throws(() => ratioInterval([], [1]), /at least one load/);
  assert.throws(() => ratioInterval([1], [1], { level: 1 }), /level/);
});

test("pooled ratios: the median of every chapter row's page loads against every twin load, /book/ left out", () => {
  const loads = (fcp: number[], lcp: number[] = fcp) => fcp.map((fcpMs, i) => ({ fcpMs, lcpMs: lcp[i]! }));
  const row = (page: string, samples: PaintRow["samples"]): PaintRow => ({
    page,
    viewport: "desktop",
    fcpMs: 0,
    lcpMs: 0,
    bareFcpMs: 0,
    bareLcpMs: 0,
    fcpRatio: 0,
    lcpRatio: 0,
    fcpInterval: [0, 0],
    lcpInterval: [0, 0],
    budget: paintBudget(page),
    samples,
  });
  // Row by row the ratios of medians are 300/200 = 1.5 and 200/300 = 0.67; pooled, the six page
  // loads' median (250) over the six twin loads' (250) is 1.
  const rows = [
    row("/a/", { page: loads([300, 300, 200]), twin: loads([200, 200, 300]) }),
    row("/b/", { page: loads([200, 200, 300], [210, 210, 310]), twin: loads([300, 300, 200]) }),
    row("/book/", { page: loads([9000, 9000, 9000]), twin: loads([100, 100, 100]) }),
  ];
  const pooled = pooledRatios(rows);
  assert.equal(pooled.rows, 2);
  assert.deepEqual(pooled.current, {
    fcpMs: 250,
    bareFcpMs: 250,
    fcpRatio: 1,
    lcpMs: 255,
    bareLcpMs: 250,
    lcpRatio: 1.02,
  });
  assert.equal(pooled.baseline, undefined, "no baseline loads, no baseline line");
  const withBaseline = pooledRatios([
    row("/a/", { page: loads([300]), twin: loads([200]), baseline: loads([450]), baselineTwin: loads([300]) }),
  ]);
  assert.equal(withBaseline.baseline?.fcpRatio, 1.5);
  assert.throws(() => pooledRatios([rows[2]!]), /at least one chapter row/);
});
