/**
 * Computed values of the chapter "introduction" for its prose: `{=ch1.name}` prints one (see
 * ../exercise-values.ts for the conventions: the value in its unit, how it prints, and a comment
 * that says which model function or stated input it comes from). Pure.
 */
import type { PutValue } from "./put.ts";

export function introductionValues(put: PutValue): void {
  void put;
}
