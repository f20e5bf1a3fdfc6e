import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { readFileSync } from "node:fs";
import {
  bitFields,
  bytesPerValue,
  decodeBits,
  dynamicRangeBinades,
  encodeNumber,
  fp8ScaleFactor,
  machineEpsilon,
  maxFinite,
  minNormal,
  minSubnormal,
  numberFormat,
  roundToFormat,
  spacingAt,
  summarizeNumberFormat,
  swampingRatio,
  updateIsLost,
  valuesPerBinade,
} from "../../src/model/number-formats.ts";
import type { NumberFormatId } from "../../src/model/number-formats.ts";
import { ModelInputError } from "../../src/model/errors.ts";

function float32Bits(x: number): number {
  const view = new DataView(new ArrayBuffer(4));
  view.setFloat32(0, x);
  return view.getUint32(0);
}

function float32FromBits(bits: number): number {
  const view = new DataView(new ArrayBuffer(4));
  view.setUint32(0, bits);
  return view.getFloat32(0);
}

describe("number-format limits (facts sheet G; IEEE 754 binary16/32, OCP FP8 micikevicius2022fp8, kalamkar2019study)", () => {
  it("maxFinite(): 65504 for fp16, 448 for e4m3, 57344 for e5m2, FLT_MAX for fp32", () => {
    assert.equal(maxFinite("fp16"), 65504);
    assert.equal(maxFinite("fp8-e4m3"), 448);
    assert.equal(maxFinite("fp8-e5m2"), 57344);
    assert.equal(maxFinite("fp32"), float32FromBits(0x7f7fffff));
    assert.equal(maxFinite("bf16"), (2 - 2 ** -7) * 2 ** 127);
    assert.equal(maxFinite("tf32"), (2 - 2 ** -10) * 2 ** 127);
    assert.equal(maxFinite("bf16").toPrecision(5), "3.3895e+38");
  });

  it("minNormal(): 2^-126 for fp32/bf16/tf32, 2^-14 for fp16 and e5m2, 2^-6 for e4m3", () => {
    assert.equal(minNormal("fp32"), 2 ** -126);
    assert.equal(minNormal("bf16"), 2 ** -126);
    assert.equal(minNormal("tf32"), 2 ** -126);
    assert.equal(minNormal("fp16"), 2 ** -14);
    assert.equal(minNormal("fp8-e5m2"), 2 ** -14);
    assert.equal(minNormal("fp8-e4m3"), 0.015625);
    assert.equal(minNormal("fp32"), float32FromBits(0x00800000));
  });

  it("minSubnormal(): 2^-149, 2^-24, 2^-133, 2^-9, 2^-16", () => {
    assert.equal(minSubnormal("fp32"), 2 ** -149);
    assert.equal(minSubnormal("fp32"), float32FromBits(0x00000001));
    assert.equal(minSubnormal("fp16"), 2 ** -24);
    assert.equal(minSubnormal("bf16"), 2 ** -133);
    assert.equal(minSubnormal("fp8-e4m3"), 2 ** -9);
    assert.equal(minSubnormal("fp8-e5m2"), 2 ** -16);
  });

  it("machineEpsilon(): 2^-m, bf16 = 0.0078125 and fp32 = FLT_EPSILON", () => {
    assert.equal(machineEpsilon("bf16"), 0.0078125);
    assert.equal(machineEpsilon("fp32"), 1.1920928955078125e-7);
    assert.equal(machineEpsilon("fp16"), 2 ** -10);
    assert.equal(machineEpsilon("tf32"), 2 ** -10);
    assert.equal(machineEpsilon("fp8-e4m3"), 0.125);
    assert.equal(machineEpsilon("fp8-e5m2"), 0.25);
  });

  it("valuesPerBinade(): 2^23, 1024, 1024, 128, 8, 4 values in [1, 2)", () => {
    const expected: Record<NumberFormatId, number> = {
      fp32: 8388608,
      tf32: 1024,
      fp16: 1024,
      bf16: 128,
      "fp8-e4m3": 8,
      "fp8-e5m2": 4,
    };
    for (const [id, count] of Object.entries(expected) as [NumberFormatId, number][]) {
      assert.equal(valuesPerBinade(id), count, id);
      // count them by decoding: every pattern whose value is in [1, 2)
      if (id !== "fp32" && id !== "tf32") {
        const width = { fp16: 16, bf16: 16, "fp8-e4m3": 8, "fp8-e5m2": 8 }[id];
        let n = 0;
        for (let b = 0; b < 2 ** width; b++) {
          const v = decodeBits(id, b);
          if (v >= 1 && v < 2) n++;
        }
        assert.equal(n, count, `${id} counted`);
      }
    }
  });

  it("bytesPerValue(): tf32 lives in a 4-byte container; fp8 is one byte", () => {
    assert.equal(bytesPerValue("fp32"), 4);
    assert.equal(bytesPerValue("tf32"), 4);
    assert.equal(bytesPerValue("bf16"), 2);
    assert.equal(bytesPerValue("fp8-e4m3"), 1);
  });

  it("summarizeNumberFormat(): tf32 has no documented subnormal, e4m3 no infinity", () => {
    assert.equal(summarizeNumberFormat("tf32").minSubnormal, null);
    assert.equal(summarizeNumberFormat("fp8-e4m3").hasInfinity, false);
    assert.equal(summarizeNumberFormat("fp8-e5m2").hasInfinity, true);
  });

  it("dynamicRangeBinades(): e4m3 spans about 18 binades and e5m2 about 32 (micikevicius2022fp8)", () => {
    assert.equal(Math.round(dynamicRangeBinades("fp8-e4m3")), 18);
    assert.equal(Math.round(dynamicRangeBinades("fp8-e5m2")), 32);
  });
});

describe("encodeNumber() against known encodings", () => {
  const cases: [NumberFormatId, number, number][] = [
    ["fp16", 1, 0x3c00],
    ["fp16", -2, 0xc000],
    ["fp16", 65504, 0x7bff],
    ["fp16", 65519, 0x7bff],
    ["fp16", 65520, 0x7c00], // the halfway point to 2^16 rounds to even, i.e. overflows
    ["fp16", 0.1, 0x2e66],
    ["fp16", 1 / 3, 0x3555],
    ["fp16", 2 ** -24, 0x0001],
    ["fp16", 2 ** -25, 0x0000], // tie between 0 and 2^-24 goes to even (0)
    ["fp16", 1.5 * 2 ** -25, 0x0001],
    ["fp16", 2 ** -14, 0x0400],
    ["fp16", -0, 0x8000],
    ["bf16", 1, 0x3f80],
    ["bf16", Math.PI, 0x4049],
    ["bf16", 0.1, 0x3dcd],
    ["fp8-e4m3", 1, 0x38],
    ["fp8-e4m3", 448, 0x7e],
    ["fp8-e4m3", -448, 0xfe],
    ["fp8-e4m3", 464, 0x7e], // halfway between 448 and 480 goes to the even fraction (448)
    ["fp8-e4m3", 465, 0x7f], // overflow without saturation is NaN: e4m3 has no infinity
    ["fp8-e4m3", 2 ** -9, 0x01],
    ["fp8-e4m3", 2 ** -6, 0x08],
    ["fp8-e4m3", 240, 0x77], // S.1110.111 = 1.875 · 2^7
    ["fp8-e5m2", 1, 0x3c],
    ["fp8-e5m2", 57344, 0x7b],
    ["fp8-e5m2", 61439, 0x7b],
    ["fp8-e5m2", 61440, 0x7c], // halfway to 2^16 rounds to even: infinity
    ["fp8-e5m2", 2 ** -16, 0x01],
    ["fp8-e5m2", Infinity, 0x7c],
    ["fp8-e5m2", -Infinity, 0xfc],
    ["fp8-e5m2", NaN, 0x7e],
    ["fp8-e4m3", NaN, 0x7f],
    ["tf32", 1 + 2 ** -10, (127 << 10) + 1],
  ];
  for (const [id, x, bits] of cases) {
    it(`${id}: ${Object.is(x, -0) ? "-0" : x} -> 0x${bits.toString(16)}`, () => {
      assert.equal(encodeNumber(id, x).bits, bits);
    });
  }

  it("saturating mode clamps overflow and infinities to ±max", () => {
    assert.equal(encodeNumber("fp8-e4m3", 1000, { overflow: "saturate" }).bits, 0x7e);
    assert.equal(encodeNumber("fp8-e4m3", -Infinity, { overflow: "saturate" }).value, -448);
    assert.equal(encodeNumber("fp8-e5m2", 1e6, { overflow: "saturate" }).value, 57344);
    assert.equal(encodeNumber("fp16", 1e6, { overflow: "saturate" }).value, 65504);
    assert.ok(Number.isNaN(encodeNumber("fp8-e4m3", NaN, { overflow: "saturate" }).value));
  });

  it("reports overflow, flush to zero and subnormal results", () => {
    const big = encodeNumber("fp16", 70000);
    assert.equal(big.overflowed, true);
    assert.equal(big.value, Infinity);
    assert.equal(big.class, "infinity");
    const tiny = encodeNumber("fp16", 1e-9);
    assert.equal(tiny.flushedToZero, true);
    assert.equal(tiny.value, 0);
    const sub = encodeNumber("fp16", 1e-6);
    assert.equal(sub.subnormal, true);
    assert.equal(sub.class, "subnormal");
    assert.equal(sub.value, 17 * 2 ** -24);
    assert.equal(encodeNumber("bf16", 1e-6).class, "normal");
  });

  it("bitFields() splits sign, exponent and mantissa", () => {
    assert.deepEqual(bitFields("fp8-e4m3", 0x7e), { sign: "0", exponent: "1111", mantissa: "110" });
    assert.deepEqual(bitFields("bf16", 0x3f80), { sign: "0", exponent: "01111111", mantissa: "0000000" });
  });
});

describe("encodeNumber() agrees with the platform's float32 rounding", () => {
  it("fp32 bits equal Float32Array/DataView bits for any double (property)", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true }), (x) => {
        const enc = encodeNumber("fp32", x);
        assert.equal(enc.bits >>> 0, float32Bits(x));
        assert.ok(Object.is(enc.value, Math.fround(x)));
      }),
      { numRuns: 5000 },
    );
  });

  it("fp32 agrees near the subnormal and overflow edges", () => {
    for (const x of [
      2 ** -150,
      1.5 * 2 ** -150,
      2 ** -149 * 2.5,
      3.4028235677973366e38,
      3.4028235677973362e38,
      1e39,
      -1e-46,
    ]) {
      assert.equal(encodeNumber("fp32", x).bits >>> 0, float32Bits(x), String(x));
    }
  });

  it("bf16 of an fp32 value equals round-to-nearest-even on the top 16 bits (property)", () => {
    fc.assert(
      fc.property(fc.float({ noNaN: true }), (x) => {
        const b = float32Bits(x);
        const expected = ((b + 0x7fff + ((b >>> 16) & 1)) >>> 16) & 0xffff;
        assert.equal(encodeNumber("bf16", x).bits, expected);
      }),
      { numRuns: 5000 },
    );
  });
});

describe("decode(encode(x)) is the nearest representable value", () => {
  const formats: NumberFormatId[] = ["fp16", "bf16", "fp8-e4m3", "fp8-e5m2"];
  const widths: Record<string, number> = { fp16: 16, bf16: 16, "fp8-e4m3": 8, "fp8-e5m2": 8 };

  for (const id of formats) {
    it(`${id}: every non-NaN bit pattern round-trips exactly (exhaustive)`, () => {
      for (let b = 0; b < 2 ** widths[id]; b++) {
        const v = decodeBits(id, b);
        if (Number.isNaN(v)) continue;
        assert.equal(encodeNumber(id, v).bits, b, `pattern 0x${b.toString(16)}`);
      }
    });
  }

  for (const id of formats) {
    it(`${id}: nearest with ties to even, for random x within range (property)`, () => {
      const finite = new Map<number, number>(); // value -> bits (positive, finite)
      for (let b = 0; b < 2 ** (widths[id] - 1); b++) {
        const v = decodeBits(id, b);
        if (Number.isFinite(v)) finite.set(v, b);
      }
      const values = [...finite.keys()].sort((p, q) => p - q);
      const max = maxFinite(id);
      fc.assert(
        fc.property(fc.double({ min: -max, max, noNaN: true }), (x) => {
          const got = roundToFormat(id, x);
          const ax = Math.abs(x);
          // the two neighbours lo <= ax <= hi
          let lo = 0;
          let hi = values[values.length - 1];
          for (const v of values) {
            if (v <= ax) lo = v;
            if (v >= ax) {
              hi = v;
              break;
            }
          }
          const dLo = ax - lo;
          const dHi = hi - ax;
          let want: number;
          if (dLo < dHi) want = lo;
          else if (dHi < dLo) want = hi;
          else want = (finite.get(lo)! & 1) === 0 ? lo : hi;
          assert.equal(Math.abs(got), want, `x = ${x}`);
          if (got !== 0) assert.equal(Math.sign(got), Math.sign(x));
        }),
        { numRuns: 3000 },
      );
    });
  }
});

describe("spacing, swamping and scaling", () => {
  it("spacingAt(): fp16 spacing is 2^-10 at 1 and 0.5 at 1000; bf16 spacing is 2 at 256", () => {
    assert.equal(spacingAt("fp16", 1), 2 ** -10);
    assert.equal(spacingAt("fp16", 1000), 0.5);
    assert.equal(spacingAt("bf16", 256), 2);
    assert.equal(spacingAt("fp16", 0), 2 ** -24);
    assert.equal(spacingAt("fp8-e4m3", 448), 32);
  });

  it("swampingRatio(): 2048 for fp16 (micikevicius2018mixed), 256 for bf16", () => {
    assert.equal(swampingRatio("fp16"), 2048);
    assert.equal(swampingRatio("bf16"), 256);
    assert.equal(updateIsLost("fp16", 1, 2 ** -11), true); // exactly half an ulp: tie to even keeps 1
    assert.equal(updateIsLost("fp16", 1, 2 ** -10), false);
    assert.equal(updateIsLost("bf16", 1, 2 ** -9), true);
    assert.equal(updateIsLost("fp32", 1, 2 ** -9), false);
  });

  for (const id of ["fp16", "bf16", "fp8-e4m3"] as NumberFormatId[]) {
    it(`${id}: updates below |w|/2^(m+2) always vanish, updates above |w|/2^(m+1) never do (property)`, () => {
      const m = numberFormat(id).mantissaBits;
      const max = maxFinite(id);
      fc.assert(
        fc.property(
          fc.double({ min: minNormal(id) * 2 ** (m + 3), max: max / 4, noNaN: true }),
          fc.double({ min: 0.001, max: 0.999, noNaN: true }),
          fc.boolean(),
          fc.boolean(),
          (wRaw, frac, negW, negU) => {
            const w = roundToFormat(id, negW ? -wRaw : wRaw);
            const small = roundToFormat(id, Math.abs(w) * 2 ** -(m + 2) * frac) * (negU ? -1 : 1);
            if (small !== 0 && Math.abs(small) < Math.abs(w) * 2 ** -(m + 2))
              assert.equal(updateIsLost(id, w, small), true, `w=${w} u=${small}`);
            const big = roundToFormat(id, Math.abs(w) * 2 ** -(m + 1) * (1 + frac)) * (negU ? -1 : 1);
            if (Math.abs(big) > Math.abs(w) * 2 ** -(m + 1))
              assert.equal(updateIsLost(id, w, big), false, `w=${w} u=${big}`);
          },
        ),
        { numRuns: 2000 },
      );
    });
  }

  it("fp8ScaleFactor(): amax 3.5 maps to 448 with scale 128; margin halves it", () => {
    assert.equal(fp8ScaleFactor("fp8-e4m3", 3.5), 128);
    assert.equal(fp8ScaleFactor("fp8-e4m3", 3.5, 1), 64);
    assert.equal(roundToFormat("fp8-e4m3", 3.5 * fp8ScaleFactor("fp8-e4m3", 3.5)), 448);
  });
});

describe("bad input", () => {
  it("an unknown format is a ModelInputError naming the field", () => {
    assert.throws(
      () => maxFinite("fp12" as NumberFormatId),
      (e: unknown) => e instanceof ModelInputError && e.field === "format",
    );
  });
  it("a bit pattern out of range is a ModelInputError on bits", () => {
    assert.throws(
      () => decodeBits("fp8-e4m3", 256),
      (e: unknown) => e instanceof ModelInputError && e.field === "bits",
    );
    assert.throws(
      () => decodeBits("fp8-e4m3", 1.5),
      (e: unknown) => e instanceof ModelInputError && e.field === "bits",
    );
  });
  it("amax must be positive and finite", () => {
    for (const amax of [0, -1, Infinity, NaN]) {
      assert.throws(
        () => fp8ScaleFactor("fp8-e4m3", amax),
        (e: unknown) => e instanceof ModelInputError && e.field === "amax",
      );
    }
  });
  it("encodeNumber never returns undefined fields for hostile numbers", () => {
    for (const x of [1e308, -1e308, 5e-324, -5e-324, Number.MAX_VALUE, Infinity, -Infinity, NaN]) {
      for (const id of ["fp32", "tf32", "fp16", "bf16", "fp8-e4m3", "fp8-e5m2"] as NumberFormatId[]) {
        const e = encodeNumber(id, x);
        assert.equal(typeof e.bits, "number");
        assert.ok(Number.isInteger(e.bits));
      }
    }
  });
});

describe("encodeNumber() agrees bit for bit with an independent implementation", () => {
  // tests/model/fixtures/number-formats-reference.json: 1,523 float32 values (random magnitudes from 1e-13 to
  // 1e5, plus edges: 448, 464, 465, 480, 57344, 61439, 61440, 65504, 65519, 65520, subnormals, -0, 3.4e38) cast
  // by numpy 2.4.6 (float16) and ml_dtypes 0.6.0 (bfloat16, float8_e4m3fn, float8_e5m2), stored as bit patterns.
  const reference = JSON.parse(
    readFileSync(new URL("./fixtures/number-formats-reference.json", import.meta.url), "utf8"),
  ) as Record<string, number[]> & { x: number[] };
  for (const id of ["fp16", "bf16", "fp8-e4m3", "fp8-e5m2"] as NumberFormatId[]) {
    it(`${id}: same bits as the reference casts (non-saturating overflow)`, () => {
      assert.ok(reference.x.length > 1500);
      reference.x.forEach((x, i) => {
        const mine = encodeNumber(id, x).bits;
        const theirs = reference[id][i];
        if (Number.isNaN(decodeBits(id, theirs))) assert.ok(Number.isNaN(decodeBits(id, mine)), `x = ${x}`);
        else assert.equal(mine, theirs, `x = ${x}`);
      });
    });
  }
});
