/**
 * The reader's exercise progress as stored (src/widgets/runtime/exercise-check.ts keeps it in
 * localStorage), and the one-time move of answers saved under positional keys to stable ones.
 * Pure: no DOM, no storage, so that unit tests can run it.
 */

export interface ProgressStore {
  /** Answers as typed, by exercise key ("one-gpu/exercise-how-many-parameters-fit-in-80-gb"). */
  solved: Record<string, string[]>;
  /** Checkable exercises per chapter slug. */
  totals: Record<string, number>;
  /** Chapters whose answers saved under positional keys were moved to stable keys. */
  migrated: string[];
}

/** "one-gpu" for "one-gpu/exercise-…". */
export function chapterOf(key: string): string {
  return key.split("/")[0] ?? "";
}

/**
 * Moves answers saved under positional keys to stable ones, for the chapters of `boxes` not
 * migrated yet: each box is [stable key, positional key or undefined]. Returns whether the store
 * changed. Pure: the store is changed in place.
 */
export function migrateLegacyKeys(store: ProgressStore, boxes: ReadonlyArray<[string, string | undefined]>): boolean {
  const chapters = new Set(boxes.map(([key]) => chapterOf(key)).filter((c) => !store.migrated.includes(c)));
  if (chapters.size === 0) return false;
  // Every old key is read before any is written, should a stable key equal another box's old one.
  const moves: Array<{ key: string; legacy: string; answers: string[] | undefined }> = [];
  for (const [key, legacy] of boxes) {
    if (chapters.has(chapterOf(key)) && legacy !== undefined && legacy !== key)
      moves.push({ key, legacy, answers: store.solved[legacy] });
  }
  for (const { legacy } of moves) delete store.solved[legacy];
  for (const { key, answers } of moves) if (answers && !store.solved[key]) store.solved[key] = answers;
  store.migrated.push(...chapters);
  return true;
}
