/**
 * Judging a reader's answer to a checkable exercise: pure functions, no DOM (the form is
 * src/widgets/runtime/exercise-check.ts; the build writes the expected values, see
 * src/plugins/markdown/exercise-check.ts).
 *
 * What a reader may type: a number with thousands separators ("16,384", "16 384"), a leading
 * "~", "≈" or "about", a decimal exponent ("1.078e11", "1.078 × 10^11"), and a unit where one
 * is natural: any byte unit for a byte answer (GB = 1e9 bytes, GiB = 2^30 bytes, converted),
 * any time unit for a duration, "%" for a percentage, the answer's own word ("tokens", "GPUs"),
 * and k/M/B/T or thousand/million/billion for a count. A unit of the wrong kind ("5 s" for GB)
 * is invalid, with a message saying which unit is expected.
 *
 * Verdicts: `correct` within the tolerance; a `wrong` answer that matches a known mistake gets
 * its hint; `close` within a few times the tolerance ("check your rounding or units"), or off by
 * a power of 1,000 or by GB/GiB; `wrong` otherwise; `invalid` when nothing numeric was typed.
 */

export type Verdict = "correct" | "close" | "wrong" | "invalid";

export interface AnswerHint {
  value: number;
  text: string;
}

export interface AnswerSpec {
  /** The expected value, in `unit`. */
  answer: number;
  /** Relative tolerance, e.g. 0.01. */
  tolerance: number;
  /** The unit of `answer` ("GB", "ms", "%", "tokens", or ""). */
  unit: string;
  hints?: AnswerHint[];
}

export interface Judgement {
  verdict: Verdict;
  /** One sentence for the reader. */
  message: string;
  /** The reader's value converted to the answer's unit (absent when invalid). */
  value?: number;
}

/** How many tolerances away still counts as close. */
const closeFactor = 5;

type Family = "bytes" | "time" | "percent" | "rate" | "flops";

const unitTable: Record<string, [Family, number]> = {
  b: ["bytes", 1],
  byte: ["bytes", 1],
  bytes: ["bytes", 1],
  kb: ["bytes", 1e3],
  mb: ["bytes", 1e6],
  gb: ["bytes", 1e9],
  tb: ["bytes", 1e12],
  kib: ["bytes", 2 ** 10],
  mib: ["bytes", 2 ** 20],
  gib: ["bytes", 2 ** 30],
  tib: ["bytes", 2 ** 40],
  ns: ["time", 1e-9],
  µs: ["time", 1e-6],
  μs: ["time", 1e-6],
  us: ["time", 1e-6],
  ms: ["time", 1e-3],
  s: ["time", 1],
  sec: ["time", 1],
  second: ["time", 1],
  seconds: ["time", 1],
  min: ["time", 60],
  minute: ["time", 60],
  minutes: ["time", 60],
  h: ["time", 3600],
  hour: ["time", 3600],
  hours: ["time", 3600],
  day: ["time", 86_400],
  days: ["time", 86_400],
  year: ["time", 365.25 * 86_400],
  years: ["time", 365.25 * 86_400],
  "%": ["percent", 1],
  "b/s": ["rate", 1],
  "kb/s": ["rate", 1e3],
  "mb/s": ["rate", 1e6],
  "gb/s": ["rate", 1e9],
  "tb/s": ["rate", 1e12],
  "gbit/s": ["rate", 1e9 / 8],
  "mbit/s": ["rate", 1e6 / 8],
  gbps: ["rate", 1e9 / 8],
  mbps: ["rate", 1e6 / 8],
  flops: ["flops", 1],
  "flop/s": ["flops", 1],
  gflops: ["flops", 1e9],
  tflops: ["flops", 1e12],
  pflops: ["flops", 1e15],
};

/** Bits per second are written with a lower-case b: "Gb/s" is an eighth of "GB/s". */
const caseSensitive: Record<string, [Family, number]> = {
  "Gb/s": ["rate", 1e9 / 8],
  "Mb/s": ["rate", 1e6 / 8],
  "kb/s": ["rate", 1e3 / 8],
};

function unitOf(text: string): [Family, number] | undefined {
  return caseSensitive[text] ?? unitTable[text.toLowerCase()];
}

const familyWords: Record<Family, string> = {
  bytes: "a size",
  time: "a duration",
  percent: "a percentage",
  rate: "a bandwidth",
  flops: "a FLOP rate",
};

const countWords: Record<string, number> = {
  k: 1e3,
  thousand: 1e3,
  m: 1e6,
  million: 1e6,
  b: 1e9,
  bn: 1e9,
  billion: 1e9,
  t: 1e12,
  trillion: 1e12,
};

export interface ParsedNumber {
  value: number;
  /** What followed the number, trimmed ("" if nothing). */
  unit: string;
}

/** Reads the number at the start of `text`; undefined when there is none. */
export function parseNumber(text: string): ParsedNumber | undefined {
  let s = text.normalize("NFKC").trim();
  s = s.replace(/^(~|≈|about\s|approximately\s|approx\.?\s)\s*/i, "");
  s = s.replace(/^=\s*/, "");
  s = s.replace(/\u2212/g, "-");
  const m =
    /^([-+]?)(\d{1,3}(?:[,\s\u202f\u2009]\d{3})+|\d+)?(?:\.(\d+))?(?:\s*(?:e|E)([-+]?\d+)|\s*[x×*·]\s*10\s*\^\s*\(?([-+]?\d+)\)?)?/.exec(
      s,
    );
  if (!m || (m[2] === undefined && m[3] === undefined)) return undefined;
  const digits = `${m[1]}${(m[2] ?? "0").replace(/[,\s\u202f\u2009]/g, "")}.${m[3] ?? "0"}`;
  const exponent = Number(m[4] ?? m[5] ?? 0);
  const value = Number(digits) * 10 ** exponent;
  if (!Number.isFinite(value)) return undefined;
  return { value, unit: s.slice(m[0].length).trim() };
}

function singular(word: string): string {
  return word.toLowerCase().replace(/s$/, "");
}

/**
 * The reader's value in the answer's unit, or a message saying why it cannot be read.
 */
export function readAnswer(text: string, unit: string): { value: number } | { error: string } {
  if (text.trim() === "") return { error: "Type a number first." };
  const parsed = parseNumber(text);
  if (!parsed) return { error: "That is not a number: type digits, e.g. 12.5." };
  const { value } = parsed;
  let typed = parsed.unit.replace(/\s+/g, " ");
  const expected = unitOf(unit);
  if (typed === "") return { value };
  if (expected) {
    // "%": a percentage sign on a percentage answer.
    const got = unitOf(typed);
    if (got && got[0] === expected[0]) return { value: (value * got[1]) / expected[1] };
    // "1.078e11 B" is bytes; so is "108 GB".
    if (got) return { error: `Expected ${familyWords[expected[0]]}, in ${unit}.` };
    return { error: `Cannot read the unit "${typed}": use ${unit}.` };
  }
  // Counts and other units: the answer's own word, and a count suffix before it ("2.4k tokens").
  const word = unit === "" ? "" : singular(unit);
  const parts = typed.split(" ");
  const last = parts[parts.length - 1]!;
  if (word !== "" && (singular(last) === word || last.toLowerCase() === unit.toLowerCase())) {
    parts.pop();
    typed = parts.join(" ");
  }
  if (typed === "") return { value };
  const scale = countWords[typed.toLowerCase()];
  if (scale !== undefined && unitOf(unit) === undefined) return { value: value * scale };
  return {
    error:
      unit === "" ? `Type a plain number, without "${typed}".` : `Cannot read "${typed}": give the number in ${unit}.`,
  };
}

function relativeError(x: number, target: number): number {
  if (target === 0) return Math.abs(x);
  return Math.abs(x - target) / Math.abs(target);
}

const slips: [number, string][] = [
  [1e3, "a factor of 1,000"],
  [1e-3, "a factor of 1,000"],
  [1e6, "a factor of a million"],
  [1e-6, "a factor of a million"],
  [1e9, "a factor of a billion"],
  [1e-9, "a factor of a billion"],
  [100, "a factor of 100 (a fraction instead of a percentage?)"],
  [0.01, "a factor of 100"],
  [2 ** 30 / 1e9, "the ratio of GiB to GB"],
  [1e9 / 2 ** 30, "the ratio of GB to GiB"],
  [8, "a factor of 8 (bits and bytes?)"],
  [1 / 8, "a factor of 8 (bits and bytes?)"],
];

/** Judges one answer. */
export function judgeAnswer(text: string, spec: AnswerSpec): Judgement {
  const read = readAnswer(text, spec.unit);
  if ("error" in read) return { verdict: "invalid", message: read.error };
  const { value } = read;
  const err = relativeError(value, spec.answer);
  if (err <= spec.tolerance) return { verdict: "correct", message: "Correct.", value };
  for (const hint of spec.hints ?? []) {
    if (relativeError(value, hint.value) <= spec.tolerance)
      return { verdict: "wrong", message: `Not quite. ${hint.text}`, value };
  }
  if (err <= closeFactor * spec.tolerance)
    return { verdict: "close", message: "Close: check your rounding or units.", value };
  for (const [factor, what] of slips) {
    if (relativeError(value / factor, spec.answer) <= spec.tolerance) {
      return { verdict: "close", message: `Close: off by ${what}; check your units.`, value };
    }
  }
  return { verdict: "wrong", message: "Not quite: try again, or open the solution.", value };
}

/** Several answers: correct only when all are; otherwise the worst verdict leads. */
export function combineVerdicts(verdicts: Verdict[]): Verdict {
  const order: Verdict[] = ["invalid", "wrong", "close", "correct"];
  for (const v of order) if (verdicts.includes(v)) return v;
  return "invalid";
}
