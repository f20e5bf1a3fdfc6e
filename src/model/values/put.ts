/**
 * What a chapter's value module receives, `put("ch2.name", v(value, unit, digits))`, and the
 * helpers every value module shares: the print digits, values computed on first read, and the
 * lookups of src/data that a value cannot do without (they throw on an unknown id).
 */
import type { ExerciseValue, PrintDigits } from "../exercise-values.ts";
import { findGpu, type GpuSpec } from "../../data/gpus.ts";
import { findInterconnect, type InterconnectSpec } from "../../data/interconnects.ts";
import { findModelPreset, type ModelPreset } from "../../data/models.ts";
import { parseModelConfig, type ModelArchitecture } from "../architecture.ts";
import { countParameters } from "../parameters.ts";

export type PutValue = (name: string, value: ExerciseValue) => void;

/**
 * A value in `unit`, printed with `digits` (`{ decimals: 1 }`, `{ significant: 3 }`); `extra` says how
 * a shorter print (`{=name:N}`) may round it, and which recorded fact it prints (src/data/facts.ts).
 */
export const v = (
  value: number,
  unit: string,
  digits: PrintDigits,
  extra: Pick<ExerciseValue, "rounding" | "fact"> = {},
): ExerciseValue => ({ value, unit, digits, ...extra });

/** Printed with 0, 1, 2 or 3 decimals. */
export const d0: PrintDigits = { decimals: 0 };
export const d1: PrintDigits = { decimals: 1 };
export const d2: PrintDigits = { decimals: 2 };
export const d3: PrintDigits = { decimals: 3 };

/**
 * A value computed on first read, for the few that take seconds (chapter 8's configuration
 * searches, appendix C's refits of the kernel efficiencies): allExerciseValues() builds every value
 * at once, and a reader of one chapter's values (a chapter test, the exercise checks) should not
 * pay for them.
 */
export function lazy(get: () => number, unit: string, digits: PrintDigits): ExerciseValue {
  let cached: number | undefined;
  return {
    get value() {
      cached ??= get();
      return cached;
    },
    unit,
    digits,
  };
}

/** `f`, run on the first call only; later calls return its first result. */
export function once<T>(f: () => T): () => T {
  let cached: T | undefined;
  return () => (cached ??= f());
}

/** The GPU of src/data/gpus.ts with this id. */
export function gpu(id: string): GpuSpec {
  const g = findGpu(id);
  if (!g) throw new Error(`exercise values: no GPU "${id}"`);
  return g;
}

/** The interconnect record (src/data/interconnects.ts) of the server of this GPU id. */
export function interconnect(gpuId: string): InterconnectSpec {
  const n = findInterconnect(gpuId);
  if (!n) throw new Error(`exercise values: no interconnect for "${gpuId}"`);
  return n;
}

/** The model preset of src/data/models.ts with this id. */
export function preset(id: string): ModelPreset {
  const p = findModelPreset(id);
  if (!p) throw new Error(`exercise values: no model preset "${id}"`);
  return p;
}

/** The total parameter count (parameters.ts) of the model preset with this id. */
export function params(id: string): number {
  return countParameters(preset(id).config).total;
}

/** The architecture (architecture.ts) of the model preset with this id. */
export function arch(id: string): ModelArchitecture {
  return parseModelConfig(preset(id).config).architecture;
}
