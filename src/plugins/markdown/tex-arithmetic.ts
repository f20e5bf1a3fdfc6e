/**
 * Arithmetic shown in math, checked (issue #27): `$4 + 12/64 = 4.1875$` or
 * `$16 \times 6.74 \approx 107.8\,\text{GB}$`. A math span is split at its top-level `=` and
 * `\approx`; each side made only of numbers, operators, brackets and units is evaluated, and
 * neighbouring numeric sides must agree to the precision the text prints them with.
 *
 * The evaluator is a small recursive-descent parser over the TeX the book writes (numbers with
 * `{,}` separators, `+ - \times \cdot / \div`, `\frac{a}{b}`, `^{k}`, brackets, `\%`). It is not
 * a TeX interpreter: a side it cannot read is "not numeric" and is simply not checked. Pure.
 */

/** One side of a relation chain, as it appears in the math source. */
export interface MathSide {
  /** Offset of the side in the math source. */
  start: number;
  end: number;
  text: string;
  /** The relation that ends this side ("=", "\\approx"), or "" for the last side. */
  relation: string;
}

const RELATIONS = /\\approx|=|\\le(?![a-z])|\\ge(?![a-z])|<|>|\\to(?![a-z])|\\quad|\\qquad|\\implies|\\Rightarrow|;/g;

/** Splits math at top-level relations (not inside braces or `\left…\right`). */
export function splitRelations(tex: string): MathSide[] {
  const sides: MathSide[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < tex.length; i++) {
    const c = tex[i];
    if (c === "\\" && tex[i + 1] === "{") {
      i++;
      continue;
    }
    if (c === "{") depth++;
    else if (c === "}") depth--;
    if (depth !== 0) continue;
    RELATIONS.lastIndex = i;
    const m = RELATIONS.exec(tex);
    if (m && m.index === i) {
      sides.push({ start, end: i, text: tex.slice(start, i), relation: m[0] });
      start = i + m[0].length;
      i = start - 1;
    }
  }
  sides.push({ start, end: tex.length, text: tex.slice(start), relation: "" });
  return sides;
}

/** Units and spacing that may follow a number on a numeric side; they do not enter the value. */
const UNIT_TEXT =
  /\\(?:text|mathrm|textsf)\{\s*[^{}\d]*\}|\\(?:GB|GiB|MB|MiB|TB|TiB|KB|KiB|TFLOPS|PFLOPS|ms|us|s)(?![A-Za-z])/g;
const SPACING = /\\[,;:! ]|\\(?:quad|qquad|left|right|big|Big|bigl|bigr|Bigl|Bigr)(?![A-Za-z])|~/g;

/** The units a side names (for comparing sides), in order. */
function sideUnits(text: string): string {
  return (text.match(UNIT_TEXT) ?? []).map((u) => u.replace(/\s+/g, "")).join(" ");
}

/** The value of a numeric side, or undefined when the side is not plain arithmetic. */
export function evaluateSide(text: string): number | undefined {
  let src = text.replace(UNIT_TEXT, " ").replace(SPACING, " ").replace(/\{,\}/g, "");
  src = src.replace(/\\%/g, "%").trim();
  if (
    src === "" ||
    /[A-Za-z]/.test(src.replace(/\\(?:times|cdot|div|frac|dfrac|tfrac|lfloor|rfloor|lceil|rceil)(?![A-Za-z])/g, ""))
  )
    return undefined;
  try {
    const parser = new Parser(src);
    const value = parser.expression();
    parser.skip();
    if (parser.pos !== src.length || !Number.isFinite(value)) return undefined;
    return value;
  } catch {
    return undefined;
  }
}

/** Half a unit in the last printed place of a single number literal ("4.19" → 0.005), else 0. */
export function printedHalfUnit(text: string, roundedZeros = false): number {
  const src = text.replace(UNIT_TEXT, " ").replace(SPACING, " ").replace(/\{,\}/g, "").trim();
  const m = /^(\d+)(?:\.(\d+))?(?:\s*\\times\s*10\^\{?(-?\d+)\}?)?\s*\\?%?$/.exec(src);
  if (!m) return 0;
  const exponent = m[3] ? Number(m[3]) : 0;
  const decimals = m[2]?.length ?? 0;
  let half = 0.5 * 10 ** (exponent - decimals);
  // "≈ 1,500": trailing zeros of an integer may be rounding too (only after \approx).
  if (roundedZeros && !m[2]) {
    const zeros = /0*$/.exec(m[1]!)![0].length;
    if (zeros > 0 && m[1] !== "0") half = 0.5 * 10 ** (exponent + zeros);
  }
  if (src.endsWith("%")) half /= 100;
  return half;
}

class Parser {
  pos = 0;
  constructor(private readonly s: string) {}

  skip(): void {
    while (this.pos < this.s.length && /\s/.test(this.s[this.pos]!)) this.pos++;
  }
  private peek(word: string): boolean {
    this.skip();
    if (!this.s.startsWith(word, this.pos)) return false;
    const after = this.s[this.pos + word.length];
    return !(word.startsWith("\\") && after !== undefined && /[A-Za-z]/.test(after));
  }
  private take(word: string): boolean {
    if (!this.peek(word)) return false;
    this.pos += word.length;
    return true;
  }
  expression(): number {
    let v = this.term();
    for (;;) {
      if (this.take("+")) v += this.term();
      else if (this.take("-") || this.take("−")) v -= this.term();
      else return v;
    }
  }
  private term(): number {
    let v = this.factor();
    for (;;) {
      if (this.take("\\times") || this.take("\\cdot") || this.take("×") || this.take("*")) v *= this.factor();
      else if (this.take("/") || this.take("\\div") || this.take("÷")) v /= this.factor();
      else if (this.startsFactor())
        v *= this.factor(); // "2(3 + 4)"
      else return v;
    }
  }
  private startsFactor(): boolean {
    this.skip();
    const c = this.s[this.pos];
    return c === "(" || (c === "\\" && /^\\(?:frac|dfrac|tfrac)(?![A-Za-z])/.test(this.s.slice(this.pos)));
  }
  private factor(): number {
    if (this.take("-") || this.take("−")) return -this.factor();
    let v = this.atom();
    if (this.take("^")) v = v ** this.atom(false);
    if (this.take("%")) v /= 100;
    return v;
  }
  private atom(scientific = true): number {
    this.skip();
    if (this.take("(") || this.take("[")) {
      const v = this.expression();
      if (!this.take(")") && !this.take("]")) throw new Error("unbalanced");
      return v;
    }
    if (this.take("{")) {
      const v = this.expression();
      if (!this.take("}")) throw new Error("unbalanced");
      return v;
    }
    if (this.take("\\frac") || this.take("\\dfrac") || this.take("\\tfrac")) {
      const num = this.atom();
      const den = this.atom();
      return num / den;
    }
    for (const [open, close, f] of [
      ["\\lfloor", "\\rfloor", Math.floor],
      ["\\lceil", "\\rceil", Math.ceil],
    ] as const) {
      if (this.take(open)) {
        const v = this.expression();
        if (!this.take(close)) throw new Error("unbalanced");
        return f(v);
      }
    }
    const m = /^(\d+(?:,\d{3})*(?:\.\d+)?|\.\d+)/.exec(this.s.slice(this.pos));
    if (!m) throw new Error("not a number");
    this.pos += m[0].length;
    let v = Number(m[0].replace(/,/g, ""));
    // "989.4 \times 10^{12}" is one literal: bind the power of ten before any division.
    const sci = /^\s*(?:\\times|\\cdot|×)\s*10\^(?:\{\s*(-?\d+)\s*\}|(\d))/.exec(this.s.slice(this.pos));
    if (sci && scientific) {
      this.pos += sci[0].length;
      v *= 10 ** Number(sci[1] ?? sci[2]);
    }
    return v;
  }
}

/**
 * Relative error a side inherits from the rounded decimals it is computed from ("4.649" may be
 * 4.6485…4.6495): the sum of each decimal literal's half unit over its size (first order).
 */
function operandError(text: string): number {
  const src = text.replace(UNIT_TEXT, " ").replace(SPACING, " ").replace(/\{,\}/g, "");
  if (/^\s*[\d.,]+\s*\\?%?\s*$/.test(src)) return 0; // a single literal: its own half unit covers it
  let err = 0;
  // Only a literal with three or more significant digits is taken to be rounded ("4.649", not "0.1").
  for (const m of src.matchAll(/\d+\.(\d+)/g)) {
    if (m[0].replace(/^[0.]+/, "").replace(".", "").length < 3) continue;
    err += (0.5 * 10 ** -m[1]!.length) / Math.max(Number(m[0]), 1e-12);
  }
  return err;
}

/** Unit changes a chain may make between sides (decimal and binary prefixes, percent). */
const UNIT_SCALES = [1e3, 1e6, 1e9, 1e12, 1e15, 1e-3, 1e-6, 1e-9, 1e-12, 2 ** 10, 2 ** 20, 2 ** 30, 2 ** 40, 100, 0.01];

export interface ChainCheck {
  /** Indices of the sides that are numeric and were compared with a numeric neighbour. */
  checked: Set<number>;
  /** A failed comparison, for the error message. */
  failure?: { left: string; right: string; leftValue: number; rightValue: number; relation: string };
}

/**
 * Compares each pair of neighbouring numeric sides: `=` within half a unit of the last printed
 * digit of the less precise side (a single literal) or 1e-9 relative; `\approx` within a whole
 * unit of that digit, or 2% when neither side is a single literal.
 */
export function checkChain(sides: MathSide[]): ChainCheck {
  const values = sides.map((s) => evaluateSide(s.text));
  const checked = new Set<number>();
  for (let i = 0; i + 1 < sides.length; i++) {
    const relation = sides[i]!.relation;
    if (relation !== "=" && relation !== "\\approx") continue;
    const a = values[i];
    const b = values[i + 1];
    if (a === undefined || b === undefined) continue;
    const ua = sideUnits(sides[i]!.text);
    const ub = sideUnits(sides[i + 1]!.text);
    if (ua !== "" && ub !== "" && ua !== ub) continue; // a unit conversion: not plain arithmetic
    const approx = relation === "\\approx";
    const errA = operandError(sides[i]!.text);
    const errB = operandError(sides[i + 1]!.text);
    // "= 2" after exact operands ("512/256 = 2") is exact: an integer is rounding only after \approx
    // or when the other side is computed from rounded decimals.
    const exactA =
      !approx &&
      errB === 0 &&
      /^\s*\d+(?:\{,\}\d{3})*\s*$/.test(sides[i]!.text.replace(UNIT_TEXT, " ").replace(SPACING, " "));
    const exactB =
      !approx &&
      errA === 0 &&
      /^\s*\d+(?:\{,\}\d{3})*\s*$/.test(sides[i + 1]!.text.replace(UNIT_TEXT, " ").replace(SPACING, " "));
    const halfA = (exactA ? 0 : printedHalfUnit(sides[i]!.text, approx)) + errA * Math.abs(a);
    const halfB = (exactB ? 0 : printedHalfUnit(sides[i + 1]!.text, approx)) + errB * Math.abs(b);
    const slack = approx ? 2 : 1;
    const close = (x: number, y: number, hx: number, hy: number) => {
      const tol = slack * (hx + hy) + 1e-9 * Math.max(Math.abs(x), Math.abs(y));
      return Math.abs(x - y) <= (approx && hx + hy === 0 ? 0.02 * Math.max(Math.abs(x), Math.abs(y)) : tol);
    };
    // "$16 \times 8 \times 10^9 = 128$ GB": a side may be in the unit the text names after it.
    const holds =
      close(a, b, halfA, halfB) ||
      UNIT_SCALES.some((k) => close(a / k, b, halfA / k, halfB) || close(a, b / k, halfA, halfB / k));
    if (!holds) {
      return {
        checked,
        failure: {
          left: sides[i]!.text.trim(),
          right: sides[i + 1]!.text.trim(),
          leftValue: a,
          rightValue: b,
          relation,
        },
      };
    }
    checked.add(i);
    checked.add(i + 1);
  }
  return { checked };
}
