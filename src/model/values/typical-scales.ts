/**
 * Computed values of the chapter "typical-scales" for its prose: `{=a2.name}` prints one (see
 * ../exercise-values.ts for the conventions: the value in its unit, how it prints, and a comment
 * that says which model function or stated input it comes from). Pure.
 */
import type { PutValue } from "./put.ts";

export function typicalScalesValues(put: PutValue): void {
  void put;
}
