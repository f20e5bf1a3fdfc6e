/** What a chapter's value module receives: `put("ch2.name", v(value, unit, digits))`. */
import type { ExerciseValue, PrintDigits } from "../exercise-values.ts";

export type PutValue = (name: string, value: ExerciseValue) => void;

/** A value in `unit`, printed with `digits` (`{ decimals: 1 }`, `{ significant: 3 }`). */
export const v = (value: number, unit: string, digits: PrintDigits): ExerciseValue => ({ value, unit, digits });
