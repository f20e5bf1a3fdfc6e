/**
 * Builds a tiny book in a temporary folder with the real configuration (.eleventy.ts, the
 * src/ plugins, layouts and widgets), so tests can assert what the whole build does with a
 * given chapter, bibliography or asset. The temporary folder links to this repository's
 * src/ and node_modules/; `files` adds or replaces files relative to the book root.
 */
import { cpSync, mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const repo = path.resolve(".");

export const minimalBib = `@misc{known2020,
  author = {Doe, Jane},
  title = {A Known Paper},
  howpublished = {arXiv preprint arXiv:2001.00001},
  year = {2020},
  url = {https://arxiv.org/abs/2001.00001},
  note = {Used by the tests.}
}
`;

const minimalFiles: Record<string, string> = {
  "bibliography.bib": minimalBib,
  "content/index.md":
    "---\ntitle: Test book\ndescription: A test book.\nlayout: home.njk\npermalink: /\n---\n\nHello.\n",
  "content/chapters/chapters.11tydata.json": '{ "layout": "chapter.njk" }\n',
  // The layout links these pages from every page (footer); the tiny book has short stand-ins.
  "content/glossary.njk":
    '---\ntitle: Glossary\ndescription: A stand-in.\nlayout: base.njk\npermalink: /glossary/\n---\n<main id="main"><h1>Glossary</h1></main>\n',
  "content/search.njk":
    '---\ntitle: Search\ndescription: A stand-in.\nlayout: base.njk\npermalink: /search/\n---\n<main id="main"><h1>Search</h1></main>\n',
  "content/reading-list.njk":
    '---\ntitle: Reading list\ndescription: A stand-in.\nlayout: base.njk\npermalink: /reading-list/\n---\n<main id="main"><h1>Reading list</h1></main>\n',
  "content/changelog.md":
    "---\ntitle: Changelog\ndescription: A stand-in.\nlayout: changelog.njk\npermalink: /changelog/\n---\n\n## November 22, 2026 {#2026-11-22}\n\n- A stand-in entry.\n",
  "content/chapters/00-preface.md":
    "---\ntitle: Preface\ndescription: The preface.\n---\n\n## Start\n\nText [@known2020].\n",
};

export interface TinyBuild {
  root: string;
  /** The build's error message, or undefined when it succeeded. */
  error: string | undefined;
  bookError: { file: string; line?: number; message: string; rawMessage: string } | undefined;
}

/**
 * Writes a tiny book (the minimal files with `files` added, replaced or, as null, left out) into a
 * new temporary folder and returns the folder.
 */
export function createTinyBook(files: Record<string, string | null>): string {
  const root = mkdtempSync(path.join(os.tmpdir(), "tiny-book-"));
  symlinkSync(path.join(repo, "node_modules"), path.join(root, "node_modules"));
  symlinkSync(path.join(repo, "src"), path.join(root, "src"));
  cpSync(path.join(repo, ".eleventy.ts"), path.join(root, ".eleventy.ts"));
  // Like the repository, the tiny book is an ES module package: .eleventy.ts then loads as ESM,
  // which ESM-only dependencies (pagefind) need.
  writeFileSync(path.join(root, "package.json"), JSON.stringify({ private: true, type: "module" }));
  mkdirSync(path.join(root, "assets/img"), { recursive: true });
  cpSync(path.join(repo, "assets/css"), path.join(root, "assets/css"), { recursive: true });
  const all = { ...minimalFiles, ...files };
  for (const [rel, text] of Object.entries(all)) {
    if (text === null) continue;
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  }
  return root;
}

/** Builds the book; never throws for build errors (they are returned). */
export async function buildTinyBook(files: Record<string, string | null>): Promise<TinyBuild> {
  const root = createTinyBook(files);
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", path.join(repo, "tests/helpers/tiny-book-runner.ts")],
    // SITE_DIR pinned: an absolute SITE_DIR inherited from the caller would send the tiny book
    // into the caller's site folder.
    { cwd: root, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, SITE_DIR: "_site" } },
  );
  const marker = stdout.lastIndexOf("@@tiny-book@@");
  if (marker < 0) throw new Error(`tiny book build printed no result:\n${stdout}`);
  const result = JSON.parse(stdout.slice(marker + "@@tiny-book@@".length)) as Pick<TinyBuild, "error" | "bookError">;
  return { root, error: result.error, bookError: result.bookError };
}

export function removeTinyBook(build: TinyBuild): void {
  rmSync(build.root, { recursive: true, force: true });
}
