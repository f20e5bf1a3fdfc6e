/**
 * BookError: the one error type the build throws for an author's mistake.
 *
 * Its message always starts with the source file and line, so that the first line Eleventy
 * prints is enough to fix the problem (one line, shown here on two):
 *
 *   content/chapters/03-zero.md:41:12 unknown citation key "@raj2020zero" (not in bibliography.bib);
 *   did you mean `rajbhandari2020zero`?
 *
 * `file` is relative to the repository root (no leading "./"); `line` is 1-based and counts
 * the front matter, i.e. it is the line an editor shows; `column` (1-based) is there when the
 * offending text is known. `line` is undefined when a problem concerns a whole file (for
 * example a page generated from a layout). `npm run build` prints a BookError as that one line
 * (tools/eleventy-preload.ts), not Eleventy's wrapper with a stack trace.
 */
export class BookError extends Error {
  readonly file: string;
  readonly line: number | undefined;
  readonly column: number | undefined;
  readonly rawMessage: string;

  constructor(
    file: string,
    line: number | undefined,
    rawMessage: string,
    options?: { cause?: unknown; column?: number },
  ) {
    const column = line === undefined ? undefined : options?.column;
    const where =
      line === undefined ? normalizeFile(file) : `${normalizeFile(file)}:${line}${column ? `:${column}` : ""}`;
    super(`${where} ${rawMessage}`, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "BookError";
    this.file = normalizeFile(file);
    this.line = line;
    this.column = column;
    this.rawMessage = rawMessage;
  }
}

/**
 * Edit distance (insertions, deletions, substitutions, and swaps of two neighboring characters,
 * the commonest typo: "alpah") between two strings.
 */
export function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j]!, before[j - 2]! + 1);
    }
    [before, prev] = [prev, row];
  }
  return prev[b.length]!;
}

/**
 * The known name nearest to `name` by edit distance, ignoring case (a tie goes to the name that
 * also matches the case better), or undefined when none is close: more than `limit` edits, by
 * default a third of the name (at least 2).
 */
export function nearestName(name: string, known: Iterable<string>, limit?: number): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  let bestCaseDistance = Infinity;
  for (const k of known) {
    const d = editDistance(name.toLowerCase(), k.toLowerCase());
    if (d > bestDistance) continue;
    const dc = editDistance(name, k);
    if (d < bestDistance || dc < bestCaseDistance) [best, bestDistance, bestCaseDistance] = [k, d, dc];
  }
  return best !== undefined && bestDistance <= (limit ?? Math.max(2, Math.ceil(name.length / 3))) ? best : undefined;
}

/** "; did you mean `narayanan2021efficient`?" for the nearest known name (see nearestName), or "". */
export function didYouMean(name: string, known: Iterable<string>): string {
  const best = nearestName(name, known);
  return best === undefined ? "" : `; did you mean \`${best}\`?`;
}

/** "./content/x.md" and absolute paths inside the repository become "content/x.md". */
export function normalizeFile(file: string): string {
  let f = file.replace(/\\/g, "/");
  const cwd = process.cwd().replace(/\\/g, "/") + "/";
  if (f.startsWith(cwd)) f = f.slice(cwd.length);
  return f.replace(/^\.\//, "");
}

/** True for a BookError, also one from another copy of this module (tests build through symlinks). */
export function isBookError(e: unknown): e is BookError {
  return (
    e instanceof BookError ||
    (e instanceof Error && e.name === "BookError" && typeof (e as Partial<BookError>).rawMessage === "string")
  );
}

/** Finds a BookError anywhere in an error's `originalError`/`cause` chain (Eleventy wraps template errors). */
export function findBookError(error: unknown): BookError | undefined {
  let e: unknown = error;
  for (let depth = 0; e && depth < 20; depth++) {
    if (isBookError(e)) return e;
    const next = e as { originalError?: unknown; cause?: unknown };
    e = next.originalError ?? next.cause;
  }
  return undefined;
}
