/**
 * The cited facts of src/data/facts.ts as printable values, `{=fact.<id>}` (issue #53), and
 * `fact(id)` for a value module that computes a derived number from one. Pure.
 */
import { FACTS, findFact, type Fact } from "../../data/facts.ts";
import { v, type PutValue } from "./put.ts";

/** The recorded fact with this id (throws on an unknown id, naming it). */
export function fact(id: string): Fact {
  const found = findFact(id);
  if (!found) throw new Error(`exercise values: no fact "${id}" in src/data/facts.ts`);
  return found;
}

export function factValues(put: PutValue): void {
  for (const x of FACTS) {
    put(`fact.${x.id}`, v(x.value, x.unit, { decimals: x.decimals ?? 0 }, { rounding: x.rounding, fact: x.id }));
  }
}
