import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  convertBytes,
  formatAmount,
  formatBytes,
  parseAmount,
  summary,
  unitConverterWidget,
} from "../../src/figures/unit-converter.ts";
import { WidgetSettingsError } from "../../src/figures/widget.ts";

describe("unit-converter", () => {
  test("converts with GB = 1e9 B, GiB = 2^30 B, TB = 1e12 B, TiB = 2^40 B", () => {
    assert.deepEqual(convertBytes(80, "GB"), {
      bytes: 80e9,
      GB: 80,
      GiB: 80e9 / 2 ** 30,
      TB: 0.08,
      TiB: 80e9 / 2 ** 40,
    });
    assert.equal(convertBytes(1, "TiB").bytes, 1_099_511_627_776);
    assert.equal(formatAmount(convertBytes(80, "GB").GiB), "74.5058");
    assert.equal(formatBytes(2 ** 40), "1,099,511,627,776");
    assert.equal(formatAmount(1e24), "1 × 10²⁴");
    assert.equal(formatAmount(2.5e-9), "2.5 × 10⁻⁹");
  });

  test("reads what readers type, and refuses everything else with a message (never NaN or Infinity)", () => {
    assert.deepEqual(parseAmount(" 80,000 ", "GB"), { ok: true, value: 80000 });
    assert.deepEqual(parseAmount("1.5e3", "GiB"), { ok: true, value: 1500 });
    assert.deepEqual(parseAmount("0", "GB"), { ok: true, value: 0 });
    for (const bad of ["", "  ", "abc", "-1", "1e", "NaN", "Infinity", "1/2", "0x10", "--1", "12 GB"]) {
      const r = parseAmount(bad, "GB");
      assert.equal(r.ok, false, `"${bad}" should be refused`);
    }
    assert.deepEqual(parseAmount("1e40", "GB"), { ok: false, message: "Enter at most 1 × 10²¹ GB (10³⁰ bytes)." });
    assert.deepEqual(parseAmount("1e400", "bytes"), {
      ok: false,
      message: "Enter at most 1 × 10³⁰ bytes (10³⁰ bytes).",
    });
  });

  test("settings: defaults, validation naming the field", () => {
    assert.deepEqual(unitConverterWidget.parseSettings({}), { value: 80, unit: "GB" });
    assert.deepEqual(unitConverterWidget.parseSettings({ value: 2, unit: "TiB" }), { value: 2, unit: "TiB" });
    assert.throws(
      () => unitConverterWidget.parseSettings({ unit: "MB" }),
      (e: unknown) => e instanceof WidgetSettingsError && e.field === "unit",
    );
    assert.throws(
      () => unitConverterWidget.parseSettings({ value: -3 }),
      (e: unknown) => e instanceof WidgetSettingsError && e.field === "value",
    );
    assert.throws(
      () => unitConverterWidget.parseSettings({ value: "80" }),
      (e: unknown) => e instanceof WidgetSettingsError && e.field === "value",
    );
    assert.throws(
      () => unitConverterWidget.parseSettings([1]),
      (e: unknown) => e instanceof WidgetSettingsError,
    );
  });

  test("the screen-reader summary spells every unit", () => {
    assert.equal(
      summary(1, "GiB"),
      "1 GiB is 1,073,741,824 bytes, 1.07374 GB, 1 GiB, 0.00107374 TB or 0.000976563 TiB.",
    );
  });
});
