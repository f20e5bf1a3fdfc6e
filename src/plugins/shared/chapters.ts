/**
 * What a chapter's file name says about it. Chapters live in `content/chapters/` and are
 * ordered by their prefix: `00-preface.md`, `01-introduction.md` … `12-conclusion.md`, then
 * appendices `a0-…` (Appendix A), `a1-…` (Appendix B), …. The URL is the name without the
 * prefix (`/preface/`). `00` is the preface and has no number.
 */
export type ChapterKind = "preface" | "chapter" | "appendix";

export interface ChapterInfo {
  /** File name without `.md`, e.g. "03-zero". Sorting these gives book order. */
  fileSlug: string;
  /** URL slug, e.g. "zero" (served at `/zero/`). */
  slug: string;
  kind: ChapterKind;
  /** "3" for chapter 3, "A" for the first appendix, "" for the preface. */
  number: string;
  /** "Chapter 3", "Appendix A", or "" for the preface. */
  label: string;
}

const chapterFile = /^(\d\d|[a-z]\d)-([a-z0-9]+(?:-[a-z0-9]+)*)$/;

/** Parses a chapter file name (with or without directory and `.md`); undefined if it is not one. */
export function chapterInfo(fileOrPath: string): ChapterInfo | undefined {
  const base = fileOrPath.replace(/\\/g, "/").split("/").pop()!.replace(/\.md$/, "");
  const m = chapterFile.exec(base);
  if (!m) return undefined;
  const [, prefix, slug] = m as unknown as [string, string, string];
  if (/^\d\d$/.test(prefix)) {
    const n = Number(prefix);
    if (n === 0) return { fileSlug: base, slug, kind: "preface", number: "", label: "" };
    return { fileSlug: base, slug, kind: "chapter", number: String(n), label: `Chapter ${n}` };
  }
  if (prefix.startsWith("a")) {
    const letter = String.fromCharCode("A".charCodeAt(0) + Number(prefix.slice(1)));
    return { fileSlug: base, slug, kind: "appendix", number: letter, label: `Appendix ${letter}` };
  }
  return undefined;
}

/** True for paths inside content/chapters/. */
export function isChapterPath(inputPath: string): boolean {
  return /(^|\/)content\/chapters\/[^/]+\.md$/.test(inputPath.replace(/\\/g, "/"));
}
