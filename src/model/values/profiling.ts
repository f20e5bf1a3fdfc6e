/**
 * Computed values of the chapter "profiling" for its prose: `{=a1.name}` prints one (see
 * ../exercise-values.ts for the conventions: the value in its unit, how it prints, and a comment
 * that says which model function or stated input it comes from). Pure.
 */
import { bytesPerParameter } from "../memory.ts";
import { d0, v, type PutValue } from "./put.ts";

export function profilingValues(put: PutValue): void {
  // The trace exercise's stated inputs: a 1,250 ms step with 150 ms of exposed NCCL time and 100 ms idle.
  put("a1.exposedShare", v((100 * 150) / 1250, "%", d0));
  put("a1.idleShare", v((100 * 100) / 1250, "%", d0));
  // Adam's two fp32 moments: the optimizer bytes per parameter of fp32 training (memory.ts), 4 + 4.
  put("a1.adamBytesPerParam", v(bytesPerParameter("fp32").optimizer, "bytes", d0));
}
