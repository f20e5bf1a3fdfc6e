/**
 * Preloaded by `npm run build` and `npm start` (`--import`): three fixes to how Eleventy's command
 * line talks to an author.
 *
 * - An author's mistake (a BookError, src/plugins/shared/errors.ts) is printed as one line,
 *   `file:line:column message`, instead of Eleventy's wrapper (the template chain, the message
 *   twice and a stack trace, about 38 lines). Eleventy reports a failed render twice (the
 *   template, then the build), so a message is printed once per build: once per process would
 *   leave the dev server quiet ("Wrote 0 files") when a later save repeats the same mistake. Any
 *   other error is printed by Eleventy as before. The build still exits with 1.
 * - The dev server sends a failed rebuild's error to the page, whose reload client logs it in the
 *   browser's console ("Build error: …"): it sends that same one line, not the error of the
 *   template that happened to render the chapter (for /book/, the whole book's template chain).
 * - `--quiet` silences every "[11ty] Benchmark" line: Eleventy creates its "Configuration"
 *   benchmarks before it reads `--quiet`, and they printed anyway.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import { findBookError } from "../src/plugins/shared/errors.ts";

interface ErrorHandler {
  error(e: unknown, msg?: string): void;
}
interface BenchmarkGroup {
  setIsVerbose(verbose: boolean): void;
}
interface BenchmarkManager {
  benchmarkGroups: Record<string, BenchmarkGroup>;
  setVerboseOutput(verbose: boolean): void;
}

/** One of Eleventy's modules (not exported by the package); cmd.cjs imports these very files. */
async function eleventyModule<T>(file: string): Promise<T> {
  return (await import(pathToFileURL(path.resolve("node_modules/@11ty/eleventy/src", file)).href)) as T;
}

const { EleventyErrorHandler } = await eleventyModule<{ EleventyErrorHandler: { prototype: ErrorHandler } }>(
  "Errors/EleventyErrorHandler.js",
);
const { default: Eleventy } = await eleventyModule<{
  default: { prototype: { executeBuild(...args: unknown[]): Promise<unknown> } };
}>("Eleventy.js");
const { default: EleventyServe } = await eleventyModule<{
  default: { prototype: { sendError(arg: { error: unknown }): Promise<void> } };
}>("EleventyServe.js");
const { default: BenchmarkManagerClass } = await eleventyModule<{ default: { prototype: BenchmarkManager } }>(
  "Benchmark/BenchmarkManager.js",
);

/** The messages printed during the current build. */
const printed = new Set<string>();

const executeBuild = Eleventy.prototype.executeBuild;
Eleventy.prototype.executeBuild = function (this: unknown, ...args: unknown[]) {
  printed.clear();
  return executeBuild.apply(this, args);
};

const eleventyError = EleventyErrorHandler.prototype.error;
EleventyErrorHandler.prototype.error = function (this: ErrorHandler, e: unknown, msg?: string) {
  const bookError = findBookError(e);
  if (!bookError) return eleventyError.call(this, e, msg);
  if (!printed.has(bookError.message)) console.error(bookError.message);
  printed.add(bookError.message);
  process.exitCode = 1;
};

const sendError = EleventyServe.prototype.sendError;
EleventyServe.prototype.sendError = function (this: unknown, { error }: { error: unknown }) {
  const bookError = findBookError(error);
  // The reload client prints `Build error: ${error.message}`; a plain Error serializes its message.
  return sendError.call(this, { error: bookError ? new Error(bookError.message) : error });
};

const setVerboseOutput = BenchmarkManagerClass.prototype.setVerboseOutput;
BenchmarkManagerClass.prototype.setVerboseOutput = function (this: BenchmarkManager, verbose: boolean) {
  setVerboseOutput.call(this, verbose);
  // "Aggregate" is never verbose (Eleventy's own rule); the groups made before this call are.
  for (const [name, group] of Object.entries(this.benchmarkGroups)) group.setIsVerbose(verbose && name !== "Aggregate");
};
