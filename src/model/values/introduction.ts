/**
 * Computed values of the chapter "introduction" for its prose: `{=ch1.name}` prints one (see
 * ../exercise-values.ts for the conventions: the value in its unit, how it prints, and a comment
 * that says which model function or stated input it comes from). Pure.
 *
 * No efficiency or bandwidth of its own: the compute rate is the book's fitted kernel efficiency for
 * Hopper (step.ts's KERNEL_EFFICIENCY) times the H100's dense bf16 peak, and link speeds come from
 * placement.ts (an 8-GPU NVLink ring; one rank per server, which crosses on one NIC).
 */
import { trainingFlops } from "../compute.ts";
import { bytesPerParameter, modelStateBytes } from "../memory.ts";
import { clusterShape, groupLink } from "../placement.ts";
import { gpuGeneration, KERNEL_EFFICIENCY } from "../step.ts";
import { d0, d1, d2, gpu, interconnect, params, v, type PutValue } from "./put.ts";
import { fact } from "./facts.ts";

const GB = 1e9;
const MiB = 2 ** 20;
const DAY = 86_400;
const YEAR = 365.25 * DAY;

export function introductionValues(put: PutValue): void {
  const h100 = gpu("h100-sxm");
  const psi405b = params("llama-3.1-405b");
  const psi70b = params("llama-3.1-70b");
  const eta = KERNEL_EFFICIENCY[gpuGeneration(h100.id)];
  // What nvidia-smi reports for an "80 GB" H100 (nvidia2024nccl1264, a recorded fact printed by the preface).
  const smiBytes = fact("nvidiaSmi.h100MiB").value * MiB;

  // 6ND for Llama 3.1 405B on the paper's 15.6T tokens (grattafiori2024llama3), printed as the mantissa of 10^25.
  const flops405 = trainingFlops(fact("llama3.tokensTrillions").value * 1e12, 6 * psi405b);
  put("ch1.flops405Mantissa", v(flops405 / 1e25, "1e25 FLOPs", d2));
  // Those FLOPs at the Hopper kernel efficiency of the H100's dense peak: on one GPU (years, one
  // significant digit, "about 2,000" at 52%) and on the paper's 16,384 GPUs (days).
  put("ch1.etaPct", v(100 * eta, "%", d0));
  const oneGpuSeconds = flops405 / (eta * h100.bf16FlopsPerSecond);
  put("ch1.oneGpuYears", v(oneGpuSeconds / YEAR, "years", { significant: 1 }));
  put("ch1.clusterDays", v(oneGpuSeconds / fact("llama3.gpus").value / DAY, "days", d0));
  // Megatron-LM's 1T run: its per-GPU throughput over the A100's dense bf16 peak (narayanan2021efficient, gpus.ts).
  const a100 = gpu("a100-sxm-80gb");
  put(
    "ch1.megatronPeakShare",
    v((100 * fact("megatron.tflopsPerGpu1T").value * 1e12) / a100.bf16FlopsPerSecond, "%", d1),
  );

  // Model states (memory.ts, bf16 mixed precision with Adam) of Llama 3.1 405B against one H100's
  // advertised 80 GB, and against what nvidia-smi reports.
  const states405 = modelStateBytes(psi405b).total;
  put("ch1.states405GB", v(states405 / GB, "GB", d0));
  put("ch1.states405Ratio", v(states405 / h100.hbmBytes, "H100s", d1));
  put("ch1.states405Gpus", v(Math.ceil(states405 / h100.hbmBytes), "GPUs", d0));
  put("ch1.states405GpusSmi", v(Math.ceil(states405 / smiBytes), "GPUs", d0));

  // Links (§ Communication): NVLink per direction (the datasheet's bidirectional figure halved), and
  // what the book's model gives an 8-GPU ring inside a server and a ring with one rank per server.
  const cluster = clusterShape(h100.id);
  const ring = groupLink(cluster, "all-gather", { ranks: cluster.gpusPerServer, stride: 1 }).busBytesPerSecond;
  const nic = groupLink(cluster, "all-gather", {
    ranks: cluster.gpusPerServer,
    stride: cluster.gpusPerServer,
  }).busBytesPerSecond;
  const nicLine = interconnect(h100.id).nicLineBytesPerSecond; // 400 Gb/s per GPU, in bytes per second
  put("ch1.nvlinkRingGBs", v(ring / GB, "GB/s", d0));
  put("ch1.nicBusGBs", v(nic / GB, "GB/s", d0));
  put("ch1.linkGap", v(ring / nic, "", d0));
  put("ch1.headlineGap", v(h100.nvlinkBytesPerSecond / nicLine, "", d0));

  // Bytes per parameter of bf16 mixed precision with Adam (memory.ts): 2 + 2 + 12.
  const b = bytesPerParameter("bf16");
  put("ch1.bytesPerParam", v(b.parameters + b.gradients + b.optimizer, "bytes", d0));
  // The exercise on Llama 3.1 70B: its model states and how many 80 GB GPUs' worth they are, and the
  // floor counted against nvidia-smi's figure.
  const states70 = modelStateBytes(psi70b).total;
  put("ch1.states70GB", v(states70 / GB, "GB", d0));
  put("ch1.states70Ratio", v(states70 / h100.hbmBytes, "GPUs", d1));
  put("ch1.statesGpusSmi", v(Math.ceil(states70 / smiBytes), "GPUs", d0));
  // The exercise's 6ND / (1,024 × MFU × 989e12) in seconds, printed as the mantissa of 10^7. The MFU is
  // the question's stated expectation (40%), an input of the exercise, not the model's efficiency.
  put("ch1.trainSecondsMantissa", v((6 * 70.55e9 * 15e12) / (1024 * EXERCISE_MFU * 989e12) / 1e7, "1e7 s", d2));
}

/** The MFU the first exercise tells the reader to expect (its stated input). */
export const EXERCISE_MFU = 0.4;
