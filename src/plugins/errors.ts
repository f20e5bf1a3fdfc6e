/**
 * BookError: the one error type the build throws for an author's mistake.
 *
 * Its message always starts with the source file and line, so that the first line Eleventy
 * prints is enough to fix the problem:
 *
 *   content/chapters/03-zero.md:41 unknown citation key "@raj2020zero"
 *
 * `file` is relative to the repository root (no leading "./"); `line` is 1-based and counts
 * the front matter, i.e. it is the line an editor shows. `line` is undefined when a problem
 * concerns a whole file (for example a page generated from a layout).
 */
export class BookError extends Error {
  readonly file: string;
  readonly line: number | undefined;
  readonly rawMessage: string;

  constructor(file: string, line: number | undefined, rawMessage: string, options?: { cause?: unknown }) {
    const where = line === undefined ? normalizeFile(file) : `${normalizeFile(file)}:${line}`;
    super(`${where} ${rawMessage}`, options);
    this.name = "BookError";
    this.file = normalizeFile(file);
    this.line = line;
    this.rawMessage = rawMessage;
  }
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
