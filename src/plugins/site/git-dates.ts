/**
 * Dates of the last change of the book's source files, from git: the sitemap's `<lastmod>`
 * (sitemap.ts) and a chapter's "Updated" date (layout-helpers.ts, filter `updatedDate`).
 *
 * A file's date is the committer date (YYYY-MM-DD, `%cs`) of the last commit that touched it,
 * read with one `git log` over content/ per build. Never the clock and never a file's mtime, so
 * two builds of the same commit print the same dates (tests/site/reproducible.test.ts); an edit
 * not yet committed shows once it is. Without git or a repository (a tarball of the sources) the
 * map is empty and callers fall back to `book.updated`. A shallow clone knows only the commits it
 * fetched: there every file dates from the oldest of them that touched it (at worst the clone's
 * one commit), so a deploy should fetch the history of content/ (`fetch-depth: 0`).
 */
import { execFileSync } from "node:child_process";

/** Last commit date of every file under `dir` (repository-relative paths, "content/chapters/…"). */
export function gitLastModified(dir = "content", cwd = process.cwd()): Map<string, string> {
  const dates = new Map<string, string>();
  let out: string;
  try {
    out = execFileSync("git", ["log", "--format=@%cs", "--name-only", "--", dir], {
      cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      maxBuffer: 32 * 1024 * 1024,
    });
  } catch {
    return dates;
  }
  let date = "";
  for (const line of out.split("\n")) {
    if (line.startsWith("@")) date = line.slice(1);
    else if (line.trim() !== "" && !dates.has(line.trim())) dates.set(line.trim(), date);
  }
  return dates;
}

/**
 * A page's "Updated" date: the last commit that touched its source file, never earlier than the
 * book's publication (a chapter written before it was published was new on that day), and
 * `fallback` (the book's `updated`) for a file git does not know.
 */
export function pageUpdated(
  file: string,
  dates: ReadonlyMap<string, string>,
  published: string,
  fallback: string,
): string {
  const date = dates.get(file) ?? fallback;
  return date < published ? published : date;
}
