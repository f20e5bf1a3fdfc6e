/**
 * The dev server never goes quiet (issue #54): a tiny book served the way `npm start` serves the
 * book (Eleventy's command line with tools/eleventy-preload.ts), then edited while it runs. Each
 * step waits for the server's answer to one save:
 *
 * - the same mistake saved twice is reported twice (the preload printed each message once per
 *   process, so the second save said only "Wrote 0 files");
 * - a number the ledger refuses is reported at its column in the file as it is now (the ledger
 *   kept a file's lines for the life of the process, so an edit left its columns stale);
 * - bibliography.bib replaced as `git checkout` replaces it (unlinked, then written anew) is still
 *   watched: a later edit to it rebuilds (Eleventy watched the literal path, which went quiet).
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { createTinyBook, minimalBib } from "../helpers/tiny-book.ts";

const chapterFile = "content/chapters/01-one.md";
const chapter = (body: string) => `---\ntitle: One\ndescription: The first chapter.\n---\n\n## Start\n\n${body}\n`;

let root = "";
let child: ChildProcess | undefined;
let exited: Promise<unknown> = Promise.resolve();
let output = "";

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  assert.ok(address && typeof address === "object");
  return address.port;
}

/**
 * Waits until the output after `from` holds `pattern` and then `end` (or fails after 60 s): a
 * rebuild ends with "Wrote N files" (also when it failed) and then "Watching…".
 */
async function answer(from: number, pattern: RegExp, end = /Watching/): Promise<string> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const since = output.slice(from);
    if (pattern.test(since) && end.test(since.slice(since.search(pattern)))) return since;
    if (child?.exitCode !== null) break;
    await sleep(100);
  }
  throw new Error(`no ${pattern} from the dev server; it printed:\n${output.slice(from)}`);
}

/** Writes a file of the book and returns the server's answer to the save. */
async function save(rel: string, text: string, pattern: RegExp): Promise<string> {
  const from = output.length;
  writeFileSync(path.join(root, rel), text);
  return answer(from, pattern);
}

before(async () => {
  root = createTinyBook({ [chapterFile]: chapter("Text [@known2020].") });
  const port = await freePort();
  child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "--import",
      path.resolve("tools/eleventy-preload.ts"),
      "node_modules/@11ty/eleventy/cmd.cjs",
      "--config=.eleventy.ts",
      "--serve",
      `--port=${port}`,
    ],
    { cwd: root, env: { ...process.env, SITE_DIR: "_site" }, stdio: ["ignore", "pipe", "pipe"] },
  );
  exited = new Promise((resolve) => child!.on("exit", resolve));
  const read = (chunk: Buffer) => (output += chunk.toString());
  child.stdout!.on("data", read);
  child.stderr!.on("data", read);
  await answer(0, /Server at/, /./);
});

after(async () => {
  if (child?.exitCode === null) child.kill("SIGTERM");
  await exited;
  rmSync(root, { recursive: true, force: true });
});

const unknownKey = /content\/chapters\/01-one\.md:8:\d+ unknown citation key "@nope2020"/;

test("the same mistake saved twice is reported twice", { timeout: 150_000 }, async () => {
  assert.match(await save(chapterFile, chapter("Text [@nope2020]."), unknownKey), unknownKey);
  const second = await save(chapterFile, chapter("Text [@nope2020], saved again."), unknownKey);
  assert.match(second, unknownKey, "the second save repeats the error");
  assert.equal([...second.matchAll(new RegExp(unknownKey, "g"))].length, 1, "once per save");
  await save(chapterFile, chapter("Text [@known2020]."), /Wrote \d+ files/);
});

test("a ledger error's column is the one in the file as saved", { timeout: 150_000 }, async () => {
  const refused = (column: number) =>
    new RegExp(`content/chapters/01-one\\.md:8:${column} number "12,345" is not accounted for`);
  // In a list item: the ledger finds the item's text in the file's line to place the column.
  assert.match(await save(chapterFile, chapter("- We read 12,345 words."), /not accounted for/), refused(11));
  assert.match(
    await save(chapterFile, chapter("- Yesterday we read 12,345 words."), /not accounted for/),
    refused(21),
    "the column moves with the edit",
  );
  await save(chapterFile, chapter("Text [@known2020]."), /Wrote \d+ files/);
});

test("bibliography.bib is still watched after git checkout replaces it", { timeout: 150_000 }, async () => {
  const bib = path.join(root, "bibliography.bib");
  const added = minimalBib.replace("known2020", "added2021").replace("A Known Paper", "An Added Paper");
  await save(chapterFile, chapter("Text [@added2021]."), /unknown citation key "@added2021"/);
  // `git checkout` unlinks the file and writes a new one.
  let from = output.length;
  unlinkSync(bib);
  await sleep(500);
  writeFileSync(bib, `${minimalBib}\n${added}`);
  const rebuilt = await answer(from, /Wrote \d+ files/);
  assert.doesNotMatch(rebuilt, /unknown citation key/, "the new file was read");
  from = output.length;
  appendFileSync(bib, "\n@misc{broken2022,\n  title = {No author}\n}\n");
  assert.match(
    await answer(from, /bibliography\.bib:\d+ malformed entry "broken2022"/),
    /malformed entry "broken2022"/,
    "a later edit of the new file rebuilds",
  );
});
