/**
 * Static figure for the single-GPU chapter: GPU memory over the first two training steps,
 * stacked by category. The byte counts come from the caller (tools/figures/one-gpu.ts takes them
 * from src/model); this file lays out the schedule and draws it with the kit's `svg()` builder. The
 * axis is d3-axis, which draws into a d3 selection, so d3-selection stays for that one call.
 *
 * Schedule of one step, in arbitrary time units: forward [0, 1] (activations grow linearly,
 * layer by layer), backward [1, 3] (twice the forward time; activations shrink while gradients
 * grow), optimizer step [3, 3.2] (PyTorch's Adam allocates its two moments lazily in its first
 * step), then `zero_grad(set_to_none=True)` frees the gradients. The second step repeats this with
 * the moments already resident. The peaks follow Eq. (peak-steps) of the chapter:
 * step 1: weights + max(activations, gradients + moments); step t ≥ 2: weights + moments +
 * max(activations, gradients).
 */
import { scaleLinear } from "d3-scale";
import { select } from "d3-selection";
import { axisLeft } from "d3-axis";
import { area, line } from "d3-shape";
import { createStaticSvg, formatGB } from "./static-figure-style.ts";
import { dom } from "./kit/dom.ts";

export interface MemoryTimelineInput {
  /** Model name for the title, e.g. "Llama 3.2 1B". */
  modelName: string;
  /** bf16 weights plus the fp32 master copy (resident from the start). */
  weightsBytes: number;
  /** Gradients (alive from the backward pass to zero_grad). */
  gradientBytes: number;
  /** Adam's two moments (allocated in the first optimizer step). */
  momentBytes: number;
  /** Activations of one microbatch at the end of the forward pass. */
  activationBytes: number;
  /** Memory of the GPU, drawn as a line (optional). */
  gpuBytes?: number;
  /** GPU name for the capacity line, e.g. "H100". */
  gpuName?: string;
}

interface Sample {
  t: number;
  weights: number;
  moments: number;
  grads: number;
  acts: number;
}

const stepLength = 3.3;
const eps = 1e-3;

/** Memory by category at time `t` of the two-step schedule. */
export function memoryAt(input: MemoryTimelineInput, t: number): Sample {
  const step = t < stepLength ? 0 : 1;
  const tau = t - step * stepLength;
  const A = input.activationBytes;
  const G = input.gradientBytes;
  let acts = 0;
  let grads = 0;
  if (tau <= 1) acts = A * tau;
  else if (tau <= 3) {
    acts = (A * (3 - tau)) / 2;
    grads = (G * (tau - 1)) / 2;
  } else if (tau <= 3.2) grads = G;
  const moments = step === 1 || tau > 3.1 ? input.momentBytes : 0;
  return { t, weights: input.weightsBytes, moments, grads, acts };
}

/** Peak memory of step 1 and of step 2 (steady state). */
export function timelinePeaks(input: MemoryTimelineInput): { first: number; second: number } {
  const W = input.weightsBytes;
  const M = input.momentBytes;
  return {
    first: W + Math.max(input.activationBytes, input.gradientBytes + M),
    second: W + M + Math.max(input.activationBytes, input.gradientBytes),
  };
}

/** Sample times: every breakpoint of the schedule, with a twin just after each jump. */
function sampleTimes(): number[] {
  const local = [0, 1, 3, 3.1, 3.1 + eps, 3.2, 3.2 + eps];
  const times = [...local, ...local.map((t) => t + stepLength), 2 * stepLength];
  return times.sort((a, b) => a - b);
}

const width = 720;
const height = 380;
const margin = { top: 44, right: 20, bottom: 56, left: 64 };

/** Draws the two-step timeline into `root` and returns the `<svg>`. */
export function drawMemoryTimeline(root: Element, input: MemoryTimelineInput): SVGSVGElement {
  const peaks = timelinePeaks(input);
  const svg = createStaticSvg(root, {
    id: "mtl",
    width,
    height,
    title: `GPU memory over the first two training steps of ${input.modelName}`,
    desc:
      `Stacked memory by category over two steps. Weights and master copy ${formatGB(input.weightsBytes)} throughout; ` +
      `activations rise to ${formatGB(input.activationBytes)} in each forward pass and fall in each backward pass; ` +
      `gradients rise to ${formatGB(input.gradientBytes)} during each backward pass; ` +
      `Adam moments of ${formatGB(input.momentBytes)} appear at the first optimizer step. ` +
      `Peak of step 1: ${formatGB(peaks.first)}; peak of step 2: ${formatGB(peaks.second)}.`,
  });
  const samples = sampleTimes().map((t) => memoryAt(input, t));
  const top = Math.max(peaks.second, input.gpuBytes ?? 0) * 1.08;
  const x = scaleLinear()
    .domain([0, 2 * stepLength])
    .range([margin.left, width - margin.right]);
  const y = scaleLinear()
    .domain([0, top / 1e9])
    .range([height - margin.bottom, margin.top])
    .nice();
  const b = dom(root.ownerDocument).svg;

  const grid = b("g", { class: "grid" });
  svg.append(grid);
  for (const d of y.ticks(6)) grid.append(b("line", { x1: margin.left, x2: width - margin.right, y1: y(d), y2: y(d) }));
  // d3-axis draws the ticks and needs a d3 selection: the one place this file uses d3-selection.
  const axis = b("g", { class: "axis", transform: `translate(${margin.left},0)` });
  svg.append(axis);
  select(axis).call(axisLeft(y).ticks(6));
  svg.append(
    b(
      "text",
      {
        class: "muted",
        transform: `translate(16,${(margin.top + height - margin.bottom) / 2}) rotate(-90)`,
        "text-anchor": "middle",
      },
      "memory (GB)",
    ),
  );

  const layers: { key: keyof Omit<Sample, "t">; cls: string; label: string }[] = [
    { key: "weights", cls: "params", label: "weights + fp32 master" },
    { key: "moments", cls: "optim", label: "Adam moments" },
    { key: "grads", cls: "grads", label: "gradients" },
    { key: "acts", cls: "acts", label: "activations" },
  ];
  const areas = b("g", { "aria-hidden": "true" });
  svg.append(areas);
  layers.forEach((layer, i) => {
    const below = (s: Sample) => layers.slice(0, i).reduce((sum, l) => sum + s[l.key], 0);
    const shape = area<Sample>()
      .x((s) => x(s.t))
      .y0((s) => y(below(s) / 1e9))
      .y1((s) => y((below(s) + s[layer.key]) / 1e9));
    areas.append(b("path", { class: layer.cls, d: shape(samples) ?? "" }));
  });

  // Legend.
  let lx = margin.left;
  const legend = b("g", { "aria-hidden": "true" });
  svg.append(legend);
  for (const layer of layers) {
    legend.append(b("rect", { class: layer.cls, x: lx, y: 10, width: 12, height: 12 }));
    legend.append(b("text", { x: lx + 17, y: 21 }, layer.label));
    lx += 40 + layer.label.length * 7.4;
  }

  // Peak lines.
  const peakLine = line<[number, number]>()
    .x((d) => d[0])
    .y((d) => d[1]);
  const annotate = (value: number, t0: number, t1: number, text: string) => {
    svg.append(
      b("path", {
        class: "ref-line",
        d:
          peakLine([
            [x(t0), y(value / 1e9)],
            [x(t1), y(value / 1e9)],
          ]) ?? "",
      }),
    );
    svg.append(b("text", { x: x(t0) + 4, y: y(value / 1e9) - 6 }, text));
  };
  annotate(peaks.first, 0, stepLength, `step 1 peak ${formatGB(peaks.first)}`);
  annotate(peaks.second, stepLength, 2 * stepLength, `step 2 peak ${formatGB(peaks.second)}`);
  if (input.gpuBytes) {
    const yy = y(input.gpuBytes / 1e9);
    svg.append(
      b("path", {
        class: "cap-line",
        d:
          peakLine([
            [margin.left, yy],
            [width - margin.right, yy],
          ]) ?? "",
      }),
    );
    svg.append(
      b(
        "text",
        { class: "cap-text", x: width - margin.right - 4, y: yy - 6, "text-anchor": "end" },
        `${input.gpuName ?? "GPU"} memory ${formatGB(input.gpuBytes, 0)}`,
      ),
    );
  }

  // Phase labels under the axis.
  const phases: [number, number, string][] = [
    [0, 1, "forward"],
    [1, 3, "backward"],
    [3, 3.3, "opt."],
  ];
  for (let step = 0; step < 2; step++) {
    for (const [start, end, label] of phases) {
      const t0 = start + step * stepLength;
      const t1 = end + step * stepLength;
      svg.append(
        b(
          "text",
          {
            class: "muted",
            x: x((t0 + t1) / 2),
            y: height - margin.bottom + 18,
            "text-anchor": "middle",
            "font-size": "12",
          },
          label,
        ),
      );
    }
    svg.append(
      b(
        "text",
        {
          x: x(step * stepLength + stepLength / 2),
          y: height - margin.bottom + 40,
          "text-anchor": "middle",
          "font-weight": "600",
        },
        `step ${step + 1}`,
      ),
    );
    if (step === 1) {
      svg.append(
        b("line", {
          class: "ref-line",
          x1: x(stepLength),
          x2: x(stepLength),
          y1: margin.top,
          y2: height - margin.bottom + 44,
        }),
      );
    }
  }
  return svg;
}
