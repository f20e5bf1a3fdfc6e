/**
 * Computed values of the chapter "beyond-one-datacenter" for its prose: `{=ch11.name}` prints one (see
 * ../exercise-values.ts for the conventions: the value in its unit, how it prints, and a comment
 * that says which model function or stated input it comes from). Pure.
 */
import { busBandwidthFactor, collectiveSeconds } from "../communication.ts";
import { bytesPerValue } from "../number-formats.ts";
import { countParameters } from "../parameters.ts";
import { chapterEightTop, evaluateRanked } from "./five-d-parallelism.ts";
import { d0, d1, d2, d3, lazy, once, preset, v, type PutValue } from "./put.ts";
import { fact } from "./facts.ts";

const GB = 1e9;
const MB = 1e6;

export function beyondOneDatacenterValues(put: PutValue): void {
  const config70 = preset("llama-3.1-70b").config;
  const params = countParameters(config70).total;

  // @sec:why: bf16 gradients of the 70B model, all-reduced over a 100 Gb/s link (a stated,
  // illustrative input) between two sites.
  const gradientBytes = bytesPerValue("bf16") * params;
  const linkBytesPerSecond = (100 * GB) / 8;
  put("ch11.gradientsGB", v(gradientBytes / GB, "GB", d1));
  put("ch11.linkGBps", v(linkBytesPerSecond / GB, "GB/s", d1));
  put("ch11.busFactorTwoRanks", v(busBandwidthFactor("all-reduce", 2), "", d0));
  const sync = collectiveSeconds({
    collective: "all-reduce",
    messageBytes: gradientBytes,
    ranks: 2,
    busBandwidthBytesPerSecond: linkBytesPerSecond,
  });
  put("ch11.syncSeconds", v(sync, "s", d2));

  // The step of this model on 256 H100s at 512 sequences of 8,192 tokens: the configuration the search
  // of the 5D-parallelism chapter ranks first, evaluated by the engine (evaluateScenario with the
  // framework the search paired with its ZeRO stage). A DiLoCo round of H = 500 inner steps (the DiLoCo
  // paper's setting); the chapter and its exercises work from the step as printed (rounded to 10 ms).
  const round = () => 500 * chapterElevenStepSeconds();
  put(
    "ch11.stepSeconds",
    lazy(() => chapterElevenStepSeconds(), "s", d2),
  );
  put(
    "ch11.syncOverheadShare",
    lazy(() => (100 * sync) / chapterElevenStepSeconds(), "%", d1),
  );
  put(
    "ch11.roundOverheadShare",
    lazy(() => (100 * sync) / round(), "%", d3),
  );
  put(
    "ch11.roundGbps",
    lazy(() => (8 * gradientBytes) / round() / GB, "Gb/s", d3),
  );
  // How many times faster the link is than a round needs, rounded down to hundreds ("more than").
  put(
    "ch11.linkHeadroom",
    lazy(() => Math.floor(linkBytesPerSecond / (gradientBytes / round()) / 100) * 100, "", d0),
  );

  // Streaming DiLoCo: ten fragments; 4-bit outer gradients instead of fp16 (the paper's quantization).
  put("ch11.fragmentGB", v(gradientBytes / 10 / GB, "GB", d1));
  put("ch11.fp16Bits", v(8 * bytesPerValue("fp16"), "bits", d0));
  put("ch11.quantizedGB", v((params * 4) / 8 / GB, "GB", d1));

  // @sec:limits: a replica of 256 GPUs (a stated input) at each site; one site 10% slower
  // (a stated input) slows the synchronous round, which waits for the slowest, by as much.
  const replicaGpus = 256;
  const replicasPerSite = 1; // DiLoCo: every worker (site) holds a full replica
  put("ch11.gpusPerSite", v(replicaGpus * replicasPerSite, "GPUs", d0));
  const siteTimes = [1, 1.1];
  put("ch11.roundSlowdownPercent", v(100 * (Math.max(...siteTimes) / Math.min(...siteTimes) - 1), "%", d0));

  // Exercise 1: the round's outer gradient (as printed, 0.1 GB) over the round (as printed) in MB/s.
  const printedGradientGB = Math.round((gradientBytes / GB) * 10) / 10;
  put(
    "ch11.roundMBps",
    lazy(() => (printedGradientGB * GB) / round() / MB, "MB/s", d1),
  );
  // Exercise 3: site A at the printed step for H = 500, and for H = 600; site B 20% slower (stated):
  // the seconds site A idles while site B finishes, and that share of the round.
  const slowRound = () => round() * 1.2;
  put("ch11.siteARoundSeconds", lazy(round, "s", d0));
  put(
    "ch11.siteAH600Seconds",
    lazy(() => 600 * chapterElevenStepSeconds(), "s", d0),
  );
  put("ch11.roundSeconds", lazy(slowRound, "s", d0));
  put(
    "ch11.siteAIdleSeconds",
    lazy(() => slowRound() - round(), "s", d0),
  );
  put(
    "ch11.idleShare",
    lazy(() => (100 * (slowRound() - round())) / slowRound(), "%", d1),
  );

  // INTELLECT-1 (src/data/facts.ts): fp32 data parallelism's bytes per parameter per step against one
  // int8 byte every H steps, and one outer gradient of its ten billion parameters in int8.
  const intellectH = fact("intellect1.innerSteps").value;
  const intellectBytes = fact("intellect1.bytesPerValue").value;
  put("ch11.intellectReduction", v((intellectH * bytesPerValue("fp32")) / intellectBytes, "", d0));
  put("ch11.intellectOuterGB", v((fact("intellect1.paramsBillions").value * 1e9 * intellectBytes) / GB, "GB", d0));
}

/**
 * One step of chapter 8's top configuration as the chapter prints it (seconds, rounded to 10 ms):
 * the engine's evaluation of the search's first row.
 */
export const chapterElevenStepSeconds = once(
  () => Math.round(evaluateRanked(chapterEightTop()).step.stepSeconds * 100) / 100,
);
