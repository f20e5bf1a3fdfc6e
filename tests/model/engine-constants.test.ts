/**
 * No tool keeps a bandwidth or a kernel efficiency of its own (issue #49): a chapter value module
 * (src/model/values/*.ts) or a widget (src/figures, src/widgets) that needs one asks the engine:
 * a group's bandwidth from where its ranks sit (src/model/placement.ts), the efficiency from
 * KERNEL_EFFICIENCY (src/model/step.ts). This test reads their source and fails on a line that sets
 * one as a literal: `50e9` or `50 * GB` next to a word for a link or a rate, a division by such a
 * literal rate, a typed-in GB/s turned into bytes per second (`GBps * 1e9`), `0.4 *` a FLOP rate,
 * or an `mfu`/`efficiency` set to a literal fraction.
 *
 * Today's offenders are listed below by file and the text that offends, each with the part of the
 * book that owns it; the list may only shrink: an entry whose text is gone fails too, so whoever
 * removes an offender removes its entry.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const ROOTS = ["src/model/values", "src/figures", "src/widgets"];

/** Words on a line that make a GB-sized literal a rate: links, bandwidths, bits to bytes. */
const RATE_CONTEXT =
  /bandwidth|bytes_?per_?second|BytesPerSecond|GBps|Gbps|GB\/s|busBw|\bBETA\b|\bB\s*=|\bib\b|\blink|nvlink|nvls|nccl|\bnic|\/\s*8\b/i;
/** Words on a line that make a quotient a time. */
const TIME_CONTEXT = /"(?:ms|s|µs|us)"|[Ss]econds\b|\btime\b/;
const GB_LITERAL = /\b(?!1e9\b)\d+(?:\.\d+)?\s*\*\s*(?:GB|1e9)\b|\b(?!1e9\b)\d+(?:\.\d+)?e(?:9|1[0-2])\b/;
const RULES: ReadonlyArray<{ kind: string; test: (line: string) => boolean }> = [
  { kind: "bandwidth literal", test: (l) => GB_LITERAL.test(l) && RATE_CONTEXT.test(l) },
  {
    // Bytes over a literal GB figure give a time only when the figure is a rate.
    kind: "division by a literal rate",
    test: (l) =>
      /\/\s*\(\s*\(?\s*\d+(?:\.\d+)?\s*\*\s*(?:GB|1e9)\b/.test(l) && (TIME_CONTEXT.test(l) || RATE_CONTEXT.test(l)),
  },
  { kind: "typed-in GB/s as bytes per second", test: (l) => /GBps\s*\*\s*1e9|Gbps\s*\*\s*1e9/.test(l) },
  { kind: "efficiency literal", test: (l) => /\b0\.\d+\s*\*\s*(?:[\w.]*[Ff]lops|\d+(?:\.\d+)?e1[2-5]\b)/.test(l) },
  {
    kind: "efficiency literal",
    test: (l) => /(?:\w*(?:mfu|MFU|[Ee]fficiency|EFFICIENCY)\w*|\beta)\s*[:=]\s*0\.\d+/.test(l),
  },
];

/** Code of a line: comment lines dropped, a trailing `// …` comment cut. */
function code(line: string): string {
  const t = line.trim();
  if (t.startsWith("//") || t.startsWith("*") || t.startsWith("/*")) return "";
  return line.replace(/\s\/\/\s.*$/, "");
}

export interface Offence {
  file: string;
  line: number;
  text: string;
  kind: string;
}

/** Every line of `source` that sets a bandwidth or an efficiency of its own. */
export function offences(file: string, source: string): Offence[] {
  const out: Offence[] = [];
  source.split("\n").forEach((raw, i) => {
    const line = code(raw);
    for (const rule of RULES) {
      if (rule.test(line)) {
        out.push({ file, line: i + 1, text: raw.trim(), kind: rule.kind });
        break;
      }
    }
  });
  return out;
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return files(p);
    return p.endsWith(".ts") ? [p] : [];
  });
}

/**
 * Today's offenders, by owner. Each entry: the file and a piece of the offending line's text.
 * Chapters 3 and 8 and appendix D are being rewritten onto the engine; the others are stated
 * inputs of their chapters or exercises that should come from src/data and src/model as well.
 */
const ALLOWED: ReadonlyArray<{ file: string; text: string; owner: string }> = [
  // Chapter 3 (data parallelism): its value module and its figures (dp-overlap, dp-chapter-figures).
  { file: "src/figures/dp-overlap.ts", text: "s.busBandwidthGBps * 1e9", owner: "chapter 3 dp-overlap" },
  // Other chapters' stated inputs (the exercises' 40% MFU, chapter 11's 100 Gb/s site link).
  { file: "src/model/values/introduction.ts", text: "export const EXERCISE_MFU = 0.4", owner: "chapter 1 exercise" },
  {
    file: "src/model/values/beyond-one-datacenter.ts",
    text: "const linkBytesPerSecond = (100 * GB) / 8",
    owner: "chapter 11",
  },
];

describe("no tool keeps a bandwidth or an efficiency of its own", () => {
  test("the scanner flags rates and efficiencies, not unit conversions", () => {
    const flagged = (line: string) => offences("x.ts", line).length > 0;
    for (const bad of [
      "export const DP_BUS_BYTES_PER_SECOND = 50e9;",
      "const PP_BYTES_PER_SECOND = 50e9;",
      "const ib = 50 * GB; // across servers",
      "export const OVERLAP_MFU = 0.4;",
      "const F = 0.4 * gpu.bf16FlopsPerSecond;",
      "const seconds = bytes / (45 * GB);",
      "busBandwidthBytesPerSecond: s.busBandwidthGBps * 1e9,",
      "const nvlink = 450e9;",
      "computeEfficiency: 0.6,",
    ])
      assert.ok(flagged(bad), bad);
    for (const fine of [
      'put("ch3.psi8Billions", v(psi8 / 1e9, "billion", d0));',
      "const gb = bytes / 1e9;",
      "formatNumber(c.memoryBytes / 1e9, { decimals: 1 })",
      "const states = 80 * GB;",
      "// 50 GB/s between servers (a comment)",
      "const usable = gpu.hbmBytes * PLANNING_MEMORY_FRACTION;",
      "fill-opacity: (0.2 + 0.8 * frac)",
    ])
      assert.ok(!flagged(fine), fine);
  });

  test("value modules and widgets set none outside the shrinking allow-list", () => {
    const found = ROOTS.flatMap(files)
      .sort()
      .flatMap((f) => offences(f.split(path.sep).join("/"), readFileSync(f, "utf8")));
    const unlisted = found.filter((o) => !ALLOWED.some((a) => a.file === o.file && o.text.includes(a.text)));
    assert.deepEqual(
      unlisted.map((o) => `${o.file}:${o.line} ${o.kind}: ${o.text}`),
      [],
      "use the engine's bandwidths (placement.ts's groupLink/groupSeconds, clusterShape) and KERNEL_EFFICIENCY",
    );
    const stale = ALLOWED.filter((a) => !found.some((o) => o.file === a.file && o.text.includes(a.text)));
    assert.deepEqual(
      stale.map((a) => `${a.file}: ${a.text}`),
      [],
      "these offenders are gone: remove their entries from ALLOWED",
    );
  });

  test("the widgets this change moved onto the engine are clean", () => {
    for (const f of [
      "src/figures/config-finder.ts",
      "src/figures/config-finder-state.ts",
      "src/figures/overlap-calculator.ts",
      "src/figures/overlap-calculator-state.ts",
      "src/figures/memory-explorer.ts",
      "src/figures/memory-explorer-charts.ts",
      ...files("src/figures/memory-explorer"),
      "src/figures/kit/scenario.ts",
      "src/widgets/config-finder.ts",
      "src/widgets/memory-explorer.ts",
      "src/widgets/overlap-calculator.ts",
    ]) {
      assert.deepEqual(offences(f, readFileSync(f, "utf8")), [], f);
      assert.doesNotMatch(readFileSync(f, "utf8"), /OVERLAP_MFU|DP_BUS_BYTES_PER_SECOND|PP_BYTES_PER_SECOND/, f);
    }
  });
});
