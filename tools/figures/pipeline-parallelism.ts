/**
 * Writes the schedule timelines of the pipeline chapter (content/chapters/06-pipeline-parallelism.md)
 * from the model's schedule generator:
 *   assets/img/pipeline-parallelism/{afab,1f1b,interleaved,zb-h1,dualpipe}.svg
 *
 * Run `node --import tsx tools/figures/pipeline-parallelism.ts` after changing the model or the
 * drawing code; tests/figures/pipeline-parallelism-figures.test.ts fails when a committed file
 * differs from what this script would write.
 *
 * All five use p = 4 stages, m = 8 microbatches and T_F = T_B = T_W = 1 (a full backward is 2), on
 * one shared time scale.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseHTML } from "linkedom";
import { pipelineSchedule, type PipelineInput, type PipelineResult } from "../../src/model/index.ts";
import { drawPipelineTimeline } from "../../src/figures/pipeline-timeline.ts";

const common = { stages: 4, microbatches: 8, forward: 1, backward: 1, weightGrad: 1 } as const;

/** The five figures: file name, schedule input, and the accessible title and description. */
export const timelineFigures: Array<{
  file: string;
  input: PipelineInput;
  title: string;
  desc: (r: PipelineResult) => string;
}> = [
  {
    file: "afab.svg",
    input: { ...common, schedule: "afab" },
    title: "All-forward-all-backward (GPipe) schedule, 4 stages, 8 microbatches",
    desc: (r) =>
      `Four rows, one per GPU. Forward boxes for microbatches 1 to 8 climb diagonally from GPU 0 to GPU 3, then backward boxes, twice as long, descend from GPU 3 to GPU 0. Idle time at the start and end of each row totals ${r.idlePerStage[0]} units per GPU; the step takes ${r.makespan} units.`,
  },
  {
    file: "1f1b.svg",
    input: { ...common, schedule: "1f1b" },
    title: "1F1B schedule, 4 stages, 8 microbatches",
    desc: (r) =>
      `Four rows, one per GPU. After a warm-up of forwards (three on GPU 0, none on GPU 3) each GPU alternates one forward and one backward, then drains its remaining backwards. The step takes ${r.makespan} units, as in GPipe; GPU 0 holds at most ${r.peakInFlight[0]} microbatches in flight.`,
  },
  {
    file: "interleaved.svg",
    input: { ...common, schedule: "interleaved", chunks: 2 },
    title: "Interleaved 1F1B schedule with two chunks per GPU, 4 stages, 8 microbatches",
    desc: (r) =>
      `Four rows, one per GPU. Each box is half a stage's work; boxes of the second chunk are lighter. The idle regions at both ends are about half as long as in 1F1B, and the step takes ${r.makespan} units.`,
  },
  {
    file: "zb-h1.svg",
    input: { ...common, schedule: "zb-h1" },
    title: "ZB-H1 zero-bubble schedule, 4 stages, 8 microbatches",
    desc: (r) =>
      `Four rows, one per GPU, with forward, input-gradient backward and weight-gradient boxes of equal length. Weight-gradient boxes fill the cool-down where 1F1B idles; the step takes ${r.makespan} units.`,
  },
  {
    file: "dualpipe.svg",
    input: { ...common, schedule: "dualpipe" },
    title: "DualPipe schedule on 4 GPUs with 8 microbatches, four from each end",
    desc: (r) =>
      `Four rows, one per GPU. Microbatches 1 to 4 enter at GPU 0 and 5 to 8 at GPU 3 (lighter boxes); in the middle of the step wide boxes overlap a forward of one direction with a backward of the other. The step takes ${r.makespan} units.`,
  },
];

const width = 720;

/** File name → SVG text. */
export function renderPipelineFigures(): Record<string, string> {
  const results = timelineFigures.map((f) => pipelineSchedule(f.input));
  const longest = Math.max(...results.map((r) => r.makespan));
  const unitWidth = (width - 56 - 12) / longest;
  const out: Record<string, string> = {};
  timelineFigures.forEach((f, i) => {
    const { document } = parseHTML("<!doctype html><html><body><div id=root></div></body></html>");
    const root = document.getElementById("root")!;
    const r = results[i];
    drawPipelineTimeline(root, {
      id: f.file.replace(".svg", ""),
      title: f.title,
      desc: f.desc(r),
      result: r,
      unitWidth,
      width,
    });
    out[f.file] = `${root.innerHTML}\n`;
  });
  return out;
}

export const outputDir = path.resolve("assets/img/pipeline-parallelism");

if (import.meta.url === `file://${process.argv[1]}`) {
  mkdirSync(outputDir, { recursive: true });
  for (const [name, svg] of Object.entries(renderPipelineFigures())) {
    writeFileSync(path.join(outputDir, name), svg);
    console.log(`wrote ${path.relative(process.cwd(), path.join(outputDir, name))}`);
  }
}
