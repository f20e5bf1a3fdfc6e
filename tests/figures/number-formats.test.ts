import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { parseHTML } from "linkedom";
import { numberFormatsWidget } from "../../src/figures/number-formats.ts";
import { parseNumberInput } from "../../src/figures/number-formats/settings.ts";
import { formatValue } from "../../src/figures/number-formats/text.ts";
import { numberFormatsView, summarizeView } from "../../src/figures/number-formats/view.ts";
import { WidgetSettingsError } from "../../src/figures/widget.ts";
import { decodeBits, encodeNumber } from "../../src/model/index.ts";

function render(raw: unknown, width?: number) {
  const { document } = parseHTML(
    "<!doctype html><html><body><div id='nf' data-widget='number-formats'></div></body></html>",
  );
  const root = document.getElementById("nf")!;
  numberFormatsWidget.renderStatic(root, numberFormatsWidget.parseSettings(raw));
  void width;
  return root;
}

describe("number-formats settings", () => {
  it("defaults to 0.1, focus fp8-e4m3, no saturation", () => {
    assert.deepEqual(numberFormatsWidget.parseSettings({}), { value: 0.1, focus: "fp8-e4m3", saturate: false });
    assert.deepEqual(numberFormatsWidget.parseSettings(null), { value: 0.1, focus: "fp8-e4m3", saturate: false });
  });
  it("rejects unknown keys and bad values, naming the field", () => {
    const cases: [unknown, string][] = [
      [{ colour: 1 }, "colour"],
      [{ value: "abc" }, "value"],
      [{ value: Infinity }, "value"],
      [{ value: 1e301 }, "value"],
      [{ focus: "fp12" }, "focus"],
      [{ saturate: "yes" }, "saturate"],
    ];
    for (const [raw, field] of cases) {
      assert.throws(
        () => numberFormatsWidget.parseSettings(raw),
        (e: unknown) => e instanceof WidgetSettingsError && e.field === field,
        JSON.stringify(raw),
      );
    }
  });
});

describe("parseNumberInput() on what readers type", () => {
  it("accepts signs, exponents, thousands separators and the Unicode minus", () => {
    assert.deepEqual(parseNumberInput(" 65,504 "), { ok: true, value: 65504 });
    assert.deepEqual(parseNumberInput("-3.5e-4"), { ok: true, value: -3.5e-4 });
    assert.deepEqual(parseNumberInput("−2"), { ok: true, value: -2 });
    assert.deepEqual(parseNumberInput("1e40"), { ok: true, value: 1e40 });
    assert.deepEqual(parseNumberInput("-0"), { ok: true, value: 0 });
  });
  it("refuses empty, text, lone signs and magnitudes beyond 1e300 with a message", () => {
    for (const t of ["", "   ", "abc", "-", "1e", "0x10", "1e400", "-1e301", "NaN", "Infinity", "1,2.3.4"]) {
      const r = parseNumberInput(t);
      assert.equal(r.ok, false, t);
      if (!r.ok) assert.ok(r.message.length > 10);
    }
  });
});

describe("numberFormatsView() takes every number from the model", () => {
  it("0.1: the stored values and errors match encodeNumber()", () => {
    const view = numberFormatsView({ value: 0.1, focus: "fp8-e4m3", saturate: false });
    const fp16 = view.rows.find((r) => r.id === "fp16")!;
    assert.equal(fp16.encoded.bits, 0x2e66);
    assert.equal(fp16.storedText, "0.0999756");
    assert.equal(fp16.errorText, "0.0244%");
    assert.equal(fp16.gapText, "2⁻¹⁴");
    const e4m3 = view.rows.find((r) => r.id === "fp8-e4m3")!;
    assert.equal(e4m3.storedText, "0.1016");
    assert.equal(e4m3.errorText, "1.56%");
    assert.equal(view.rows.find((r) => r.id === "tf32")!.paddingBits, 13);
  });
  it("the spacing strip lists exactly the E4M3 values in [1/32, 1/8]", () => {
    const view = numberFormatsView({ value: 0.1, focus: "fp8-e4m3", saturate: false });
    const expected: number[] = [];
    for (let b = 0; b < 128; b++) {
      const v = decodeBits("fp8-e4m3", b);
      if (v >= 1 / 32 && v <= 1 / 8) expected.push(v);
    }
    assert.deepEqual(
      view.strip.ticks,
      expected.sort((a, b) => a - b),
    );
    assert.equal(view.strip.count, 17);
    assert.equal(view.strip.stored, encodeNumber("fp8-e4m3", 0.1).value);
  });
  it("70000 overflows fp16 and E5M2 to +∞ and E4M3 to NaN; saturation clamps", () => {
    const view = numberFormatsView({ value: 70000, focus: "fp16", saturate: false });
    const status = Object.fromEntries(view.rows.map((r) => [r.id, r.status]));
    assert.equal(status.fp16, "overflow → +∞");
    assert.equal(status["fp8-e5m2"], "overflow → +∞");
    assert.equal(status["fp8-e4m3"], "overflow → NaN (no ∞)");
    assert.equal(view.rows.find((r) => r.id === "bf16")!.storedText, "70,144");
    const sat = numberFormatsView({ value: 70000, focus: "fp16", saturate: true });
    assert.equal(sat.rows.find((r) => r.id === "fp8-e4m3")!.storedText, "448");
    assert.equal(sat.rows.find((r) => r.id === "fp16")!.storedText, "65,504");
  });
  it("1e-5 flushes to zero in E4M3 and lands on E5M2's smallest subnormal", () => {
    const view = numberFormatsView({ value: 1e-5, focus: "fp8-e5m2", saturate: false });
    assert.equal(view.rows.find((r) => r.id === "fp8-e4m3")!.status, "underflow → 0");
    assert.equal(view.rows.find((r) => r.id === "fp8-e5m2")!.encoded.value, 2 ** -16);
  });
  it("formatValue() prints exponents with superscripts and groups thousands", () => {
    assert.equal(formatValue(1.52587890625e-5, 3), "1.53×10⁻⁵");
    assert.equal(formatValue(65504, 6), "65,504");
    assert.equal(formatValue(-Infinity), "−∞");
  });
  it("summarizeView() names every format", () => {
    const s = summarizeView(numberFormatsView({ value: 0.1, focus: "bf16", saturate: false }));
    for (const label of ["fp32", "tf32", "fp16", "bf16", "fp8 E4M3", "fp8 E5M2"]) assert.ok(s.includes(label), label);
  });
});

describe("renderStatic() under linkedom", () => {
  it("draws six bit rows whose cells spell the model's bit patterns", () => {
    const root = render({ value: 0.1 });
    const rows = root.querySelectorAll("g.nf-row");
    assert.equal(rows.length, 6);
    const fp16 = root.querySelector('g.nf-row[data-format="fp16"]')!;
    const bits = Array.from(fp16.querySelectorAll("text"))
      .map((t) => t.textContent)
      .filter((t) => t === "0" || t === "1")
      .join("");
    assert.equal(bits, "0010111001100110");
    assert.equal(fp16.querySelector("text.nf-stored")!.textContent, "≈ 0.0999756");
  });
  it("renders disabled, labelled controls and a live summary", () => {
    const root = render({ value: 300, focus: "bf16", saturate: true });
    for (const id of ["nf-value", "nf-magnitude", "nf-focus", "nf-saturate"]) {
      const input = root.querySelector(`#${id}`)!;
      assert.ok(input.hasAttribute("disabled"), id);
      assert.ok(root.querySelector(`label[for="${id}"]`), `label for ${id}`);
    }
    assert.equal(root.querySelector("#nf-value-message")!.getAttribute("role"), "alert");
    assert.ok(root.querySelector("#nf-saturate")!.hasAttribute("checked"));
    assert.match(root.querySelector("[aria-live]")!.textContent ?? "", /fp8 E4M3 stores 288/);
  });
  it("never prints undefined, NaN or Infinity in the static drawing of hostile defaults", () => {
    for (const value of [0, -0, 1e300, -1e300, 5e-324, 65520, -448]) {
      const root = render({ value });
      const txt = root.textContent ?? "";
      assert.ok(!/undefined|Infinity/.test(txt), `${value}: ${txt.slice(0, 80)}`);
      for (const attr of ["x", "y", "width", "x1", "x2", "cx"]) {
        for (const el of Array.from(root.querySelectorAll(`[${attr}]`))) {
          assert.ok(Number.isFinite(Number(el.getAttribute(attr))), `${value}: ${attr}=${el.getAttribute(attr)}`);
        }
      }
    }
  });
});
