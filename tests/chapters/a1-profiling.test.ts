/**
 * Appendix B (a1-profiling): the exercise numbers, recomputed from src/data and src/model.
 */
import { test } from "node:test";
import { countParameters, findGpu, findModelPreset } from "../../src/model/index.ts";
import { assertMentions, readChapter } from "../helpers/chapter-text.ts";

const text = readChapter("a1-profiling");

test("exercise: MFU and gap shares from a trace", () => {
  const peak = findGpu("h100-sxm")!.bf16FlopsPerSecond;
  assertMentions(text, `${(peak / 1e12).toFixed(1)} \\times 10^{12}`, "H100 peak");
  assertMentions(text, `= ${((4.0e14 / (1.25 * peak)) * 100).toFixed(1)}\\%$`, "MFU now");
  assertMentions(text, `${((150 / 1250) * 100).toFixed(0)}% of the step`, "exposed share");
  assertMentions(text, `${((100 / 1250) * 100).toFixed(0)}%`, "idle share");
  assertMentions(text, `MFU would be ${((4.0e14 / (1.0 * peak)) * 100).toFixed(1)}%`, "MFU without gaps");
});

test("exercise: Adam states of Llama 3.1 8B appear on the first step", () => {
  const n = countParameters(findModelPreset("llama-3.1-8b")!.config).total;
  assertMentions(
    text,
    `$8 \\times ${n.toLocaleString("en-US").replace(/,/g, "{,}")}$ B = ${((8 * n) / 1e9).toFixed(2)} GB`,
    "Adam states",
  );
});
