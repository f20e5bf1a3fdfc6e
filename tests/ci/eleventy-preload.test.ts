/**
 * tools/eleventy-preload.ts patches three of Eleventy's classes; what the dev server prints is
 * tested end to end in tests/site/dev-server.test.ts. Here: the error a failed rebuild sends to
 * the page is the book's one line, and `--quiet` (setVerboseOutput(false)) silences the
 * benchmark groups that already exist.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { BookError } from "../../src/plugins/shared/errors.ts";

await import("../../tools/eleventy-preload.ts");

const eleventyModule = async <T>(file: string): Promise<T> =>
  (await import(pathToFileURL(path.resolve("node_modules/@11ty/eleventy/src", file)).href)) as T;

interface Group {
  isVerbose: boolean;
}
interface Manager {
  get(name: string): Group;
  setVerboseOutput(verbose: boolean): void;
}

test("a failed rebuild sends the page the book's one-line error", async () => {
  const { default: EleventyServe } = await eleventyModule<{
    default: { prototype: { sendError(arg: { error: unknown }): Promise<void> } };
  }>("EleventyServe.js");
  const sent: unknown[] = [];
  const fakeServe = { _server: {}, server: { sendError: ({ error }: { error: unknown }) => sent.push(error) } };
  const bookError = new BookError("content/chapters/01-one.md", 8, 'unknown citation key "@nope"', { column: 7 });
  // Eleventy wraps a template's error: the book's error is the cause of the cause.
  const wrapped = new Error("Having trouble rendering njk template ./content/book.njk", {
    cause: new Error("(./content/book.njk)", { cause: bookError }),
  });
  await EleventyServe.prototype.sendError.call(fakeServe, { error: wrapped });
  const other = new Error("something else");
  await EleventyServe.prototype.sendError.call(fakeServe, { error: other });
  assert.equal(sent.length, 2);
  assert.equal((sent[0] as Error).message, 'content/chapters/01-one.md:8:7 unknown citation key "@nope"');
  assert.equal(sent[1], other, "any other error is sent as it is");
});

test("--quiet silences the benchmark groups made before it is read", async () => {
  const { default: BenchmarkManager } = await eleventyModule<{ default: new () => Manager }>(
    "Benchmark/BenchmarkManager.js",
  );
  const manager = new BenchmarkManager();
  const configuration = manager.get("Configuration");
  assert.equal(configuration.isVerbose, true);
  manager.setVerboseOutput(false);
  assert.equal(configuration.isVerbose, false, "made before --quiet, silenced by it");
  assert.equal(manager.get("Watcher").isVerbose, false, "made after");
  manager.setVerboseOutput(true);
  assert.equal(configuration.isVerbose, true);
  assert.equal(manager.get("Aggregate").isVerbose, false, "Aggregate never prints");
});
