import { test } from "node:test";
import assert from "node:assert/strict";
import {
  formatBytes,
  formatCount,
  formatInteger,
  formatNumber,
  formatPercent,
  formatSeconds,
} from "../../src/figures/kit/format.ts";

test("formatNumber prints integers exactly with separators and rounds by decimals or significant digits", () => {
  assert.equal(formatNumber(16384), "16,384");
  assert.equal(formatNumber(4.1875, { decimals: 2 }), "4.19");
  assert.equal(formatNumber(4.1, { decimals: 2 }), "4.10");
  assert.equal(formatNumber(4.1, { decimals: 2, trim: true }), "4.1");
  assert.equal(formatNumber(0.012345, { significant: 3 }), "0.0123");
  assert.equal(formatInteger(1128.6), "1,129");
});

test("byte, count, percent and duration formats use decimal units unless GiB is asked for", () => {
  assert.equal(formatBytes(48.2e9, "GB"), "48.2 GB");
  assert.equal(formatBytes(82.1e9, "GiB"), "76.5 GiB");
  assert.equal(formatBytes(5.333e6), "5.33 MB");
  assert.equal(formatBytes(512e3), "512 kB");
  assert.equal(formatBytes(0), "0 B");
  assert.equal(formatCount(8.03e9), "8.03B");
  assert.equal(formatPercent(0.4216), "42.2%");
  assert.equal(formatSeconds(0.0029), "2.9 ms");
  assert.equal(formatSeconds(12.4), "12.4 s");
  assert.equal(formatSeconds(3.2e-6), "3.2 µs");
});

test("every format refuses NaN and infinities instead of printing them", () => {
  for (const f of [
    formatNumber,
    formatInteger,
    formatPercent,
    formatCount,
    formatSeconds,
    (x: number) => formatBytes(x),
  ]) {
    assert.throws(() => f(Number.NaN), RangeError);
    assert.throws(() => f(Number.POSITIVE_INFINITY), RangeError);
  }
});
