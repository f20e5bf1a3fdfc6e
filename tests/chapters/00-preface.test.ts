/**
 * The preface's numbers that are not quotations: the unit gaps, the H100's capacity as advertised
 * and as `nvidia-smi` reports it, the book's planning budget, and the bandwidth units, recomputed
 * from src/model and src/data and found in the text as printed.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { clusterShape, findGpu, groupLink, memoryBudget } from "../../src/model/index.ts";
import { assertMentions, readChapter } from "../helpers/chapter-text.ts";

const text = readChapter("00-preface");
const h100 = findGpu("h100-sxm");
/** What nvidia-smi reports for an "80 GB" H100 (NVIDIA/nccl issue 1264): 81,559 MiB. */
const smiBytes = 81_559 * 2 ** 20;

test("a GiB is 7.37% larger than a GB and a TiB 9.95% larger than a TB", () => {
  assertMentions(text, `A GiB is about ${(100 * (2 ** 30 / 1e9 - 1)).toFixed(2)}% larger`, "GiB over GB");
  assertMentions(text, `a TiB about ${(100 * (2 ** 40 / 1e12 - 1)).toFixed(2)}% larger`, "TiB over TB");
});

test("the warning: 80 GB is 74.5 GiB, but an H100 sold as 80 GB reports 79.6 GiB (85.5 GB)", () => {
  assertMentions(text, `holds ${((80 * 1e9) / 2 ** 30).toFixed(1)} GiB`, "80 GB in GiB");
  assertMentions(text, `as 80 GiB is ${(80 - (80 * 1e9) / 2 ** 30).toFixed(1)} GiB over budget`, "overstatement");
  assertMentions(
    text,
    `which is ${(smiBytes / 2 ** 30).toFixed(1)} GiB or ${(smiBytes / 1e9).toFixed(1)} GB`,
    "nvidia-smi's figure",
  );
  assert.doesNotMatch(text, /An 80 GB device holds about/);
});

test("the book's budget: 90% of the advertised 80 GB, 72 GB, and the headroom on a real H100", () => {
  assert.ok(h100);
  const budget = memoryBudget(h100);
  assertMentions(
    text,
    `fill at most ${Math.round(100 * budget.fraction)}% of it, ${budget.usableBytes / 1e9} GB`,
    "budget",
  );
  assertMentions(text, `leaves about ${((smiBytes - budget.usableBytes) / 1e9).toFixed(1)} GB`, "headroom");
});

test("bandwidth units: NVLink 900 GB/s in both directions is 450 GB/s each way; an 8-GPU ring reaches about 370 GB/s", () => {
  assert.ok(h100);
  assertMentions(
    text,
    `${h100.nvlinkBytesPerSecond / 1e9} GB/s for an H100, which is ${h100.nvlinkBytesPerSecond / 2e9} GB/s each way`,
    "NVLink per direction",
  );
  const ring = groupLink(clusterShape("h100-sxm"), "all-gather", { ranks: 8, stride: 1 }).busBytesPerSecond;
  assertMentions(text, `achieves about ${ring / 1e9} GB/s`, "NVLink ring");
});

test("notation: the context-parallel degree and the other shared symbols are in the table", () => {
  for (const row of ["| $c$ | context-parallel degree |", "| $V$ | vocabulary size |", "| $B$ | global batch"]) {
    assertMentions(text, row, row);
  }
});
