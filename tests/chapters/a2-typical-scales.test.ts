/**
 * Appendix C (a2-typical-scales): the derived figures under the table are recomputed here from
 * src/model and src/data; the table's own numbers are quotations and carry citations.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { countParameters, findGpu, findModelPreset, trainingFlops } from "../../src/model/index.ts";
import { assertMentions, readChapter } from "../helpers/chapter-text.ts";

const text = readChapter("a2-typical-scales");
const grouped = (x: number) => Math.round(x).toLocaleString("en-US");
/** "3.80 \times 10^{25}" */
const sci = (x: number) => {
  const e = Math.floor(Math.log10(x));
  return `${(x / 10 ** e).toFixed(2)} \\times 10^{${e}}`;
};
const preset = (id: string) => {
  const p = findModelPreset(id);
  assert.ok(p, id);
  return p.config;
};

test("Llama 3 405B: parameter count and 6ND compute", () => {
  const n = countParameters(preset("llama-3.1-405b")).total;
  assertMentions(text, grouped(n), "Llama 3.1 405B parameters");
  assertMentions(text, sci(trainingFlops(15.6e12, 6 * n)), "6ND for 15.6T tokens");
});

test("Llama 3 405B: what 30.84M H100 hours could deliver and the share 6ND uses", () => {
  const h100 = findGpu("h100-sxm");
  assert.ok(h100);
  assertMentions(text, `${(h100.bf16FlopsPerSecond / 1e12).toFixed(1)} TFLOPS`, "H100 dense bf16 peak");
  const capacity = 30.84e6 * 3600 * h100.bf16FlopsPerSecond;
  assertMentions(text, sci(capacity), "FLOPs the hours could deliver");
  const n = countParameters(preset("llama-3.1-405b")).total;
  const share = trainingFlops(15.6e12, 6 * n) / capacity;
  assertMentions(text, `${(share * 100).toFixed(1)}% of that`, "6ND over capacity");
});

test("DeepSeek-V3: days on 2,048 GPUs and 6ND with active parameters", () => {
  assertMentions(text, `${(2_664_000 / 2048 / 24).toFixed(1)} days`, "2,664K hours on 2,048 GPUs");
  const active = countParameters(preset("deepseek-v3")).active;
  assertMentions(text, grouped(active), "DeepSeek-V3 active parameters");
  assertMentions(text, sci(trainingFlops(14.8e12, 6 * active)), "6ND for 14.8T tokens");
});

test("BLOOM: days of continuous running", () => {
  assertMentions(text, `${(1_082_990 / 384 / 24).toFixed(1)} days`, "1,082,990 hours on 384 GPUs");
});

test("Llama 3 405B layouts multiply to 16,384 GPUs", () => {
  assert.equal(8 * 16 * 16 * 8, 16384);
  assert.equal(8 * 1 * 16 * 128, 16384);
  assertMentions(text, "8 \\times 16 \\times 16 \\times 8 = 16{,}384", "long-context layout product");
});
