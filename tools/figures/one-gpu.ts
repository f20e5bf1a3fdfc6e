/**
 * Writes the code-generated figures of the single-GPU chapter (content/chapters/02-one-gpu.md)
 * from the book's model:
 *   assets/img/one-gpu/bytes-per-parameter.svg
 *   assets/img/one-gpu/memory-timeline.svg
 *
 * Run `node --import tsx tools/figures/one-gpu.ts` after changing the model or the drawing code;
 * tests/figures/one-gpu-figures.test.ts fails when a committed file differs from what this
 * script would write, so the figures cannot drift from the model.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseHTML } from "linkedom";
import { bytesPerParameter, countParameters, findGpu, findModelPreset, trainingMemory } from "../../src/model/index.ts";
import { drawBytesPerParameter, type BytesLayout } from "../../src/figures/bytes-per-parameter.ts";
import { drawMemoryTimeline, type MemoryTimelineInput } from "../../src/figures/memory-timeline.ts";

/** The running example of the chapter: Llama 3.2 1B, s = 4096, b = 4, bf16, no recomputation, FlashAttention. */
const timelineSetup = {
  seqLength: 4096,
  microBatchSize: 4,
  precision: "bf16",
  recompute: "none",
  attention: "flash",
} as const;

/** Inputs of the memory timeline, from the model. */
export function memoryTimelineInput(): MemoryTimelineInput {
  const preset = findModelPreset("llama-3.2-1b");
  const gpu = findGpu("h100-sxm");
  if (!preset || !gpu) throw new Error("missing preset llama-3.2-1b or GPU h100-sxm in src/data");
  const n = countParameters(preset.config).total;
  const memory = trainingMemory(preset.config, timelineSetup).perGpu;
  // The model's optimizer bytes are the fp32 master copy (4 B/param) plus Adam's two moments (8 B/param).
  const masterBytes = 4 * n;
  return {
    modelName: preset.name,
    weightsBytes: memory.parameters + masterBytes,
    gradientBytes: memory.gradients,
    momentBytes: memory.optimizer - masterBytes,
    activationBytes: memory.activations,
    gpuBytes: gpu.hbmBytes,
    gpuName: "H100",
  };
}

/**
 * The four layouts of the bytes-per-parameter figure, from the model: fp32, bf16 mixed precision,
 * fp32 gradients in place of bf16 ones (Megatron-LM's bf16 layout, 18 bytes), and bf16 gradients
 * plus a separate fp32 buffer (20 bytes).
 */
export function bytesLayouts(): BytesLayout[] {
  const fp32 = bytesPerParameter("fp32");
  const bf16 = bytesPerParameter("bf16");
  const bf16MainGrad = bytesPerParameter("bf16", true, "replace");
  const bf16Accum = bytesPerParameter("bf16", true);
  const master = 4; // fp32 master weights, part of the model's optimizer bytes in mixed precision
  return [
    {
      label: "fp32",
      segments: [
        { kind: "params", label: "weights", bytesPerParameter: fp32.parameters },
        { kind: "grads", label: "gradients", bytesPerParameter: fp32.gradients },
        { kind: "optim", label: "Adam moments", bytesPerParameter: fp32.optimizer },
      ],
    },
    {
      label: "bf16 mixed precision",
      segments: [
        { kind: "params", label: "weights", bytesPerParameter: bf16.parameters },
        { kind: "grads", label: "gradients", bytesPerParameter: bf16.gradients },
        { kind: "master", label: "fp32 master weights", bytesPerParameter: master },
        { kind: "optim", label: "Adam moments", bytesPerParameter: bf16.optimizer - master },
      ],
    },
    {
      label: "bf16, fp32 gradients",
      segments: [
        { kind: "params", label: "weights", bytesPerParameter: bf16MainGrad.parameters },
        { kind: "accum", label: "fp32 gradients", bytesPerParameter: bf16MainGrad.gradients },
        { kind: "master", label: "fp32 master weights", bytesPerParameter: master },
        { kind: "optim", label: "Adam moments", bytesPerParameter: bf16MainGrad.optimizer - master },
      ],
    },
    {
      label: "bf16 + fp32 grad buffer",
      segments: [
        { kind: "params", label: "weights", bytesPerParameter: bf16Accum.parameters },
        { kind: "grads", label: "gradients", bytesPerParameter: bf16.gradients },
        { kind: "accum", label: "fp32 gradient buffer", bytesPerParameter: bf16Accum.gradients - bf16.gradients },
        { kind: "master", label: "fp32 master weights", bytesPerParameter: master },
        { kind: "optim", label: "Adam moments", bytesPerParameter: bf16Accum.optimizer - master },
      ],
    },
  ];
}

function serialize(draw: (root: Element) => SVGSVGElement): string {
  const { document } = parseHTML("<!doctype html><html><body><div id=root></div></body></html>");
  const root = document.getElementById("root")!;
  draw(root);
  return `${root.innerHTML}\n`;
}

/** File name → SVG text of every figure this script writes. */
export function renderOneGpuFigures(): Record<string, string> {
  return {
    "bytes-per-parameter.svg": serialize((root) => drawBytesPerParameter(root, bytesLayouts())),
    "memory-timeline.svg": serialize((root) => drawMemoryTimeline(root, memoryTimelineInput())),
  };
}

export const outputDir = path.resolve("assets/img/one-gpu");

if (import.meta.url === `file://${process.argv[1]}`) {
  mkdirSync(outputDir, { recursive: true });
  for (const [name, svg] of Object.entries(renderOneGpuFigures())) {
    writeFileSync(path.join(outputDir, name), svg);
    console.log(`wrote ${path.relative(process.cwd(), path.join(outputDir, name))}`);
  }
}
