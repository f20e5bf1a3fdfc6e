/**
 * The cited facts of src/data/facts.ts (issue #53): each record names a bibliography entry and a
 * locator, prints as `{=fact.<id>}` with the digits and the rounding its record allows, and a
 * misspelled name fails the build at file:line:column with the nearest name.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { FACTS, findFact } from "../../src/data/facts.ts";
import { loadBibliography } from "../../src/plugins/markdown/bibliography.ts";
import { printReference, printValue, expandValueReferences } from "../../src/plugins/markdown/exercise-check.ts";
import { exerciseValue, type ExerciseValue } from "../../src/model/index.ts";
import { renderError } from "../helpers/book-markdown.ts";

test("every record has a unique id, a finite value, a known bibliography key and a locator", () => {
  const keys = new Set(loadBibliography("bibliography.bib").entries.keys());
  const seen = new Set<string>();
  for (const x of FACTS) {
    assert.match(x.id, /^[a-z][A-Za-z0-9]*(?:\.[A-Za-z0-9]+)+$/, `id "${x.id}": dotted camelCase words`);
    assert.ok(!seen.has(x.id), `"${x.id}" is recorded twice`);
    seen.add(x.id);
    assert.ok(Number.isFinite(x.value), `${x.id}: value`);
    assert.ok(keys.has(x.key), `${x.id}: "${x.key}" is not in bibliography.bib`);
    assert.ok(x.locator.trim().length >= 4, `${x.id}: a locator (table, section, page or URL anchor)`);
    const decimals = x.decimals ?? 0;
    assert.ok(
      Math.abs(Number(x.value.toFixed(decimals)) - x.value) < 1e-9 * Math.max(1, Math.abs(x.value)),
      `${x.id}: ${x.value} does not print exactly with ${decimals} decimals`,
    );
    const value = exerciseValue(`fact.${x.id}`);
    assert.ok(value, `${x.id} is printable as {=fact.${x.id}}`);
    assert.equal(value.fact, x.id);
  }
  assert.equal(findFact("cuda.warpSize")?.value, 32);
});

test("{=name:N} prints N decimals as the record's rounding allows", () => {
  const value = (x: number, decimals: number, rounding?: ExerciseValue["rounding"]): ExerciseValue => ({
    value: x,
    unit: "TFLOPS",
    digits: { decimals },
    ...(rounding ? { rounding } : {}),
  });
  assert.equal(printValue(value(989.4, 1, "nearest"), false, 0), "989");
  assert.equal(printValue(value(989.6, 1, "nearest"), false, 0), "990");
  assert.equal(printValue(value(989.6, 1, "down"), false, 0), "989", "a bound the text may not exceed");
  assert.equal(printValue(value(989.4, 1, "up"), false, 0), "990");
  assert.equal(printValue(value(989.4, 1, "down"), false, 1), "989.4", "at the recorded digits it prints as recorded");
  assert.throws(() => printValue(value(2.039, 3, "exact"), false, 1), /recorded exactly/);
  assert.throws(() => printValue(value(989.4, 1, "nearest"), false, 2), /more than the 1 its record has/);
  assert.equal(printValue(value(1978.9, 1, "nearest"), true, 0), "1{,}979");
  // The real records: a datasheet value and a fact.
  assert.equal(printReference("gpu.h100-sxm.bf16", 0), "989");
  assert.equal(printReference("gpu.h100-sxm.bf16", undefined), "989.4");
  assert.equal(printReference("gpu.a100-sxm-80gb.hbmBandwidth", undefined), "2.039");
  assert.equal(expandValueReferences("{=gpu.h100-sxm.bf16:0} and ${=fact.cuda.registersPerSm}$"), "989 and $65{,}536$");
});

test("a misspelled fact or data name fails the build at file:line:column, with the nearest name", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "facts-"));
  const file = path.join(dir, "02-sample.md");
  const src = "One.\n\nA warp has {=fact.cuda.warpSise} threads.\n";
  writeFileSync(file, src);
  const e = renderError(src, file);
  assert.equal(e.line, 3);
  assert.equal(e.column, 12);
  assert.match(
    e.rawMessage,
    /unknown value "\{=fact\.cuda\.warpSise\}" \(define it in src\/data\/facts\.ts\); did you mean `fact\.cuda\.warpSize`\?/,
  );
  const inMath = "One.\n\n$x = {=gpu.h100-sxm.hbmBandwith}$\n";
  writeFileSync(file, inMath);
  const m = renderError(inMath, file);
  assert.equal(m.line, 3);
  assert.equal(m.column, 6);
  assert.match(m.rawMessage, /did you mean `gpu\.h100-sxm\.hbmBandwidth`\?/);
  const exact = "One.\n\nIt has {=gpu.h100-sxm.hbm:1} GB.\n";
  writeFileSync(file, exact);
  assert.match(renderError(exact, file).rawMessage, /"\{=gpu\.h100-sxm\.hbm:1\}" prints 1 decimals, more than the 0/);
});
