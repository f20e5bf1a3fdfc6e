/**
 * Each fixture paragraph holds one mistake; the gate must report it at the exact line:col with
 * the right replacement, and must stay silent on the clean fixture (legitimate uses of watched
 * words, and code, math, URLs, citation keys and widget settings full of "pytorch"/"allreduce").
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { fixtureConfig, lintFixtures } from "./helpers.ts";

let byFile: Map<string, string[]>;
let messages: Map<string, string>;

before(async () => {
  const result = await lintFixtures(fixtureConfig("prose", "empty.bib"));
  byFile = result.byFile;
  messages = new Map(result.findings.map((f) => [`${f.file.split("/").pop()}:${f.line}:${f.col}`, f.message]));
});

describe("prose rules on fixtures", () => {
  it("clean.md: back and forth, loosely coupled, the wrapper wraps the module, code and math with pytorch/allreduce pass", () => {
    assert.deepEqual(byFile.get("clean.md"), undefined);
  });

  it("spelling: unknown words in front matter and body, with cspell's first suggestion", () => {
    assert.deepEqual(byFile.get("spelling.md"), [
      "2:25 spelling → typo",
      "3:18 spelling → gradient",
      "6:27 spelling → across",
    ]);
    assert.equal(messages.get("spelling.md:6:27")?.startsWith('unknown word "accross"'), true);
  });

  it("repeated-word: doubled words, also across a line break and at a capitalized sentence start", () => {
    assert.deepEqual(byFile.get("repeated.md"), [
      "1:1 repeated-word → The",
      "1:18 repeated-word → is",
      "3:13 repeated-word → the",
    ]);
  });

  it("confusable: one real-word mistake per paragraph, each with its replacement", () => {
    assert.deepEqual(byFile.get("confusables.md"), [
      "6:38 confusable → warps",
      "8:21 confusable → lose",
      "10:21 confusable → complementary",
      "12:5 confusable → fourth",
      "14:7 confusable → techniques",
      "16:14 confusable → bubble or bundle",
      "18:1 confusable → Breadth-First",
      "20:5 confusable → dependence",
      "22:17 confusable → effect",
      "24:21 confusable → its",
      "26:7 confusable → whether",
      "28:11 confusable → discrete",
    ]);
  });

  it("confusable (GPU and ML pairs): wraps/warps, principle/principal, stationery, spare/sparse, proceeding, then/than, wait/weight, cash/cache, course/coarse, bare/bear, breath/breadth", () => {
    assert.deepEqual(byFile.get("confusables-gpu.md"), [
      "6:27 confusable → warps",
      "8:6 confusable → warp",
      "10:5 confusable → warp",
      "12:13 confusable → warps",
      "14:7 confusable → warp",
      "16:10 confusable → principal",
      "18:4 confusable → principle",
      "20:20 confusable → stationary",
      "22:3 confusable → sparse",
      "24:5 confusable → preceding",
      "26:22 confusable → than",
      "28:7 confusable → weight",
      "30:14 confusable → cache",
      "32:3 confusable → coarse",
      "34:1 confusable → Bear",
      "36:1 confusable → Breadth",
    ]);
    assert.match(messages.get("confusables-gpu.md:6:27") ?? "", /warp \(32 threads scheduled together\)/);
  });

  it("uk-spelling: -ise, -yse, -our, -ll-, -re and single words, with the US form in the same case", () => {
    assert.deepEqual(byFile.get("uk-spelling.md"), [
      "1:4 uk-spelling → parallelize",
      "1:20 uk-spelling → optimizer",
      "1:34 uk-spelling → normalize",
      "3:5 uk-spelling → behavior",
      "3:22 uk-spelling → color",
      "5:1 uk-spelling → Modeling",
      "5:15 uk-spelling → labeled",
      "5:35 uk-spelling → center",
      "7:4 uk-spelling → analyze",
      "7:12 uk-spelling → utilization",
      "7:25 uk-spelling → initialize",
      "7:45 uk-spelling → synchronize",
      "7:64 uk-spelling → serialize",
      "7:94 uk-spelling → tokenizer",
      "9:4 uk-spelling → favor",
      "9:13 uk-spelling → catalog",
      "9:26 uk-spelling → licenses",
    ]);
  });

  it("term-casing: product names and terms in their canonical form; ZeRO-3, ZeRO++, FlashAttention-2, All-reduce and micro-batch size pass", () => {
    assert.deepEqual(byFile.get("terms.md"), [
      "1:8 term-casing → PyTorch",
      "1:20 term-casing → PyTorch",
      "1:33 term-casing → NCCL",
      "3:1 term-casing → ZeRO",
      "3:9 term-casing → ZeRO",
      "3:18 term-casing → ZeRO",
      "5:1 term-casing → FlashAttention",
      "5:21 term-casing → FlashAttention",
      "7:1 term-casing → Megatron-LM",
      "7:14 term-casing → Megatron-LM",
      "7:29 term-casing → DeepSpeed",
      "9:1 term-casing → NVLink",
      "9:12 term-casing → InfiniBand",
      "11:4 term-casing → all-reduce",
      "11:18 term-casing → all-reduce",
      "11:32 term-casing → all-reduce",
      "13:6 term-casing → all-gather",
      "13:17 term-casing → reduce-scatter",
      "13:36 term-casing → all-to-all",
      "15:16 term-casing → bf16",
      "15:24 term-casing → bf16",
      "15:47 term-casing → fp32",
      "15:53 term-casing → fp16",
      "15:61 term-casing → fp8",
      "17:6 term-casing → microbatch",
      "17:22 term-casing → microbatch",
      "19:3 term-casing → GPU",
      "19:11 term-casing → HBM",
      "19:21 term-casing → CUDA",
      "19:30 term-casing → Triton",
      "19:63 term-casing → TFLOPS",
    ]);
  });

  it("lint-ignore: silences the next line (or its own line), and reports missing reasons, unknown rules and unused directives", () => {
    assert.deepEqual(byFile.get("ignore.md"), [
      "4:12 term-casing → bf16",
      "6:6 lint-ignore",
      "9:6 lint-ignore",
      "12:6 lint-ignore",
    ]);
    assert.match(messages.get("ignore.md:6:6") ?? "", /gives no reason/);
    assert.match(messages.get("ignore.md:9:6") ?? "", /"nonsense-rule"/);
    assert.match(messages.get("ignore.md:12:6") ?? "", /silences nothing on line 13/);
  });
});
