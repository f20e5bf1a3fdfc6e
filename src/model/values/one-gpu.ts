/**
 * Computed values of the chapter "one-gpu" for its prose: `{=ch2.name}` prints one (see
 * ../exercise-values.ts for the conventions: the value in its unit, how it prints, and a comment
 * that says which model function or stated input it comes from). Pure.
 */
import type { PutValue } from "./put.ts";

export function oneGpuValues(put: PutValue): void {
  void put;
}
