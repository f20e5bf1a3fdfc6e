/**
 * Computed values of the chapter "conclusion" for its prose: `{=ch12.name}` prints one (see
 * ../exercise-values.ts for the conventions: the value in its unit, how it prints, and a comment
 * that says which model function or stated input it comes from). Pure.
 */
import { bytesPerParameter } from "../memory.ts";
import { d0, v, type PutValue } from "./put.ts";

const total = (b: { parameters: number; gradients: number; optimizer: number }) =>
  b.parameters + b.gradients + b.optimizer;

export function conclusionValues(put: PutValue): void {
  // Model-state bytes per parameter (memory.ts): bf16 mixed precision with Adam; with an fp32 gradient
  // buffer that replaces the bf16 gradients (Megatron-LM's bf16 path); and one kept alongside them.
  put("ch12.bytesPerParam", v(total(bytesPerParameter("bf16")), "bytes", d0));
  put("ch12.bytesPerParamFp32Grad", v(total(bytesPerParameter("bf16", true, "replace")), "bytes", d0));
  put("ch12.bytesPerParamFp32GradBuffer", v(total(bytesPerParameter("bf16", true, "alongside")), "bytes", d0));
}
