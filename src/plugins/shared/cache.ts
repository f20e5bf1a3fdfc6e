/**
 * The build's on-disk cache for work whose result depends only on its input and on library
 * versions: social card PNGs (src/plugins/site/social.ts) and formatted references
 * (src/plugins/markdown/bibliography.ts). One file per result, named by a hash of everything that decides
 * it, so a stale file is never read (a changed input or library gives another name) and old
 * files are only dead weight; deleting the folder is always safe.
 *
 * Where: `node_modules/.cache/scaling-out/<name>/` (the usual place for tool caches; `npm ci`
 * empties it), or `$BOOK_CACHE_DIR/<name>/` when that is set (`npm run bench` points it at an
 * empty folder to time a build with nothing cached).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";

export function cacheDir(name: string): string {
  const root = process.env.BOOK_CACHE_DIR?.trim() || "node_modules/.cache/scaling-out";
  return path.resolve(root, name);
}

/** The cached bytes in `dir` under `file`, or undefined. */
export function readCached(dir: string, file: string): Buffer | undefined {
  const p = path.join(dir, file);
  return existsSync(p) ? readFileSync(p) : undefined;
}

/** Stores `data` in `dir` under `file`, atomically (two builds at once never read half a file). */
export function writeCached(dir: string, file: string, data: string | Uint8Array): void {
  mkdirSync(dir, { recursive: true });
  const p = path.join(dir, file);
  const tmp = `${p}.${process.pid}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, p);
}
