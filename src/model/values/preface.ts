/**
 * Computed values of the chapter "preface" for its prose: `{=pre.name}` prints one (see
 * ../exercise-values.ts for the conventions: the value in its unit, how it prints, and a comment
 * that says which model function or stated input it comes from). Pure.
 */
import { bytesPerParameter } from "../memory.ts";
import { d0, d1, v, type PutValue } from "./put.ts";

const GB = 1e9;
const GiB = 2 ** 30;
const TB = 1e12;
const TiB = 2 ** 40;
const total = (b: { parameters: number; gradients: number; optimizer: number }) =>
  b.parameters + b.gradients + b.optimizer;

export function prefaceValues(put: PutValue): void {
  // How much larger the binary units are than the decimal ones.
  put("pre.gibOverGbPercent", v(100 * (GiB / GB - 1), "%", d1));
  put("pre.tibOverTbPercent", v(100 * (TiB / TB - 1), "%", d0));
  // The warning's plan: 80 GiB assumed where an 80 GB device holds 80e9 / 2^30 GiB.
  put("pre.gibOverBudget", v(80 - (80 * GB) / GiB, "GiB", d1));
  // Model-state bytes per parameter (memory.ts): bf16 mixed precision with Adam; with an fp32 gradient
  // buffer that replaces the bf16 gradients (Megatron-LM's bf16 path); and one kept alongside them.
  put("pre.bytesPerParam", v(total(bytesPerParameter("bf16")), "bytes", d0));
  put("pre.bytesPerParamFp32Grad", v(total(bytesPerParameter("bf16", true, "replace")), "bytes", d0));
  put("pre.bytesPerParamFp32GradBuffer", v(total(bytesPerParameter("bf16", true, "alongside")), "bytes", d0));
}
