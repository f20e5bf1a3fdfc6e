/**
 * The kit's number field parser (src/figures/kit/field.ts): the one reading of what a reader types
 * into any widget, and the palette module against assets/css/book.css.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  looksNumeric,
  parseNumberField,
  parseOptionalNumberField,
  readNumber,
  ruleText,
} from "../../src/figures/kit/field.ts";
import { darkPalette, lightPalette, paletteNames } from "../../src/figures/kit/palette.ts";

test("readNumber accepts signs, exponents and thousands separators, and nothing else", () => {
  assert.equal(readNumber("16,384"), 16384);
  assert.equal(readNumber(" 1 024.5 "), 1024.5);
  assert.equal(readNumber("1_000"), 1000);
  assert.equal(readNumber("−3"), -3);
  assert.equal(readNumber("6.1e-5"), 6.1e-5);
  assert.ok(Object.is(readNumber("-0"), 0));
  for (const bad of ["abc", "", "NaN", "Infinity", "1e400", "1,,000", "12 GB", "0x10", "--1", ",5"])
    assert.equal(readNumber(bad), null, bad);
  assert.equal(looksNumeric("1e400"), true);
  assert.equal(looksNumeric("abc"), false);
});

test("parseNumberField refuses empty, non-numbers, non-finite and out-of-range values with a sentence", () => {
  const rule = { integer: true, min: 1, max: 1024, example: "8" };
  assert.deepEqual(parseNumberField("1,024", rule), { ok: true, value: 1024 });
  assert.equal(ruleText(rule), "Enter a whole number from 1 to 1,024, for example 8.");
  assert.deepEqual(parseNumberField("", rule), {
    ok: false,
    message: "Enter a whole number from 1 to 1,024, for example 8.",
  });
  assert.deepEqual(parseNumberField("abc", rule), {
    ok: false,
    message: "“abc” is not a number. Enter a whole number from 1 to 1,024, for example 8.",
  });
  assert.deepEqual(parseNumberField("NaN", rule), {
    ok: false,
    message: "That is not a number. Enter a whole number from 1 to 1,024, for example 8.",
  });
  for (const bad of ["0", "2.5", "1025", "1e40", "1e400", "-1"])
    assert.equal(parseNumberField(bad, rule).ok, false, bad);
  assert.equal(ruleText({ above: 0, max: 100 }), "Enter a number above 0 and at most 100.");
  assert.deepEqual(parseNumberField("0", { above: 0 }), { ok: false, message: "Enter a number above 0." });
  assert.deepEqual(parseOptionalNumberField(" ", { min: 0 }), { ok: true, value: null });
});

test("kit/palette.ts holds the colours of assets/css/book.css, light and dark", () => {
  const css = readFileSync("assets/css/book.css", "utf8");
  const block = (start: string) => css.slice(css.indexOf(start), css.indexOf("}", css.indexOf(start)));
  const light = block(":root {");
  const dark = block(':root[data-theme="dark"] {');
  for (const name of paletteNames) {
    assert.match(light, new RegExp(`--c-${name}: ${lightPalette[name]};`), `light ${name}`);
    assert.match(dark, new RegExp(`--c-${name}: ${darkPalette[name]};`), `dark ${name}`);
  }
});
