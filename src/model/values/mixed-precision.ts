/**
 * Computed values of the chapter "mixed-precision" for its prose: `{=ch10.name}` prints one (see
 * ../exercise-values.ts for the conventions: the value in its unit, how it prints, and a comment
 * that says which model function or stated input it comes from). Pure.
 */
import type { PutValue } from "./put.ts";

export function mixedPrecisionValues(put: PutValue): void {
  void put;
}
