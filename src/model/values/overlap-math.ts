/**
 * Computed values of the chapter "overlap-math" for its prose: `{=a3.name}` prints one (see
 * ../exercise-values.ts for the conventions: the value in its unit, how it prints, and a comment
 * that says which model function or stated input it comes from). Pure.
 */
import type { PutValue } from "./put.ts";

export function overlapMathValues(put: PutValue): void {
  void put;
}
