/**
 * Computed values of the chapter "introduction" for its prose: `{=ch1.name}` prints one (see
 * ../exercise-values.ts for the conventions: the value in its unit, how it prints, and a comment
 * that says which model function or stated input it comes from). Pure.
 */
import { trainingFlops } from "../compute.ts";
import { bytesPerParameter, modelStateBytes } from "../memory.ts";
import { d0, d1, d2, gpu, params, v, type PutValue } from "./put.ts";
import { fact } from "./facts.ts";

const GB = 1e9;
const DAY = 86_400;
const YEAR = 365.25 * DAY;

export function introductionValues(put: PutValue): void {
  const h100 = gpu("h100-sxm");
  const psi405b = params("llama-3.1-405b");
  const psi70b = params("llama-3.1-70b");

  // 6ND for Llama 3.1 405B on the paper's 15.6T tokens (grattafiori2024llama3), printed as the mantissa of 10^25.
  const flops405 = trainingFlops(fact("llama3.tokensTrillions").value * 1e12, 6 * psi405b);
  put("ch1.flops405Mantissa", v(flops405 / 1e25, "1e25 FLOPs", d2));
  // Those FLOPs at the stated 40% of the H100's dense peak: on one GPU (years, one significant digit,
  // "about 3,000") and on the paper's 16,384 GPUs (days).
  const oneGpuSeconds = flops405 / (0.4 * h100.bf16FlopsPerSecond);
  put("ch1.oneGpuYears", v(oneGpuSeconds / YEAR, "years", { significant: 1 }));
  put("ch1.clusterDays", v(oneGpuSeconds / fact("llama3.gpus").value / DAY, "days", d0));
  // Megatron-LM's 1T run: its per-GPU throughput over the A100's dense bf16 peak (narayanan2021efficient, gpus.ts).
  const a100 = gpu("a100-sxm-80gb");
  put(
    "ch1.megatronPeakShare",
    v((100 * fact("megatron.tflopsPerGpu1T").value * 1e12) / a100.bf16FlopsPerSecond, "%", d1),
  );

  // Model states (memory.ts, bf16 mixed precision with Adam) of Llama 3.1 405B against one H100's 80 GB.
  const states405 = modelStateBytes(psi405b).total;
  put("ch1.states405GB", v(states405 / GB, "GB", d0));
  put("ch1.states405Ratio", v(states405 / h100.hbmBytes, "H100s", d1));
  put("ch1.states405Gpus", v(Math.ceil(states405 / h100.hbmBytes), "GPUs", d0));

  // Bytes per parameter of bf16 mixed precision with Adam (memory.ts): 2 + 2 + 12.
  const b = bytesPerParameter("bf16");
  put("ch1.bytesPerParam", v(b.parameters + b.gradients + b.optimizer, "bytes", d0));
  // The exercise on Llama 3.1 70B: its model states and how many 80 GB GPUs' worth they are.
  const states70 = modelStateBytes(psi70b).total;
  put("ch1.states70GB", v(states70 / GB, "GB", d0));
  put("ch1.states70Ratio", v(states70 / h100.hbmBytes, "GPUs", d1));
  // The exercise's 6ND / (1,024 × 0.40 × 989e12) in seconds, printed as the mantissa of 10^7.
  put("ch1.trainSecondsMantissa", v((6 * 70.55e9 * 15e12) / (1024 * 0.4 * 989e12) / 1e7, "1e7 s", d2));
}
