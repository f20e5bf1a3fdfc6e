/**
 * Child-process half of tiny-book.ts: builds the book in the current directory and prints
 * one JSON line with the outcome. Running each tiny build in its own process keeps
 * Eleventy's relative paths, caches and late file copies away from the test process.
 */
import Eleventy from "@11ty/eleventy";
import { findBookError } from "../../src/plugins/shared/errors.ts";

let result: { error?: string; bookError?: { file: string; line?: number; message: string; rawMessage: string } } = {};
try {
  const elev = new Eleventy(undefined, undefined, { configPath: ".eleventy.ts", quietMode: true });
  await elev.write();
} catch (e) {
  const be = findBookError(e);
  result = {
    error: e instanceof Error ? e.message : String(e),
    bookError: be ? { file: be.file, line: be.line, message: be.message, rawMessage: be.rawMessage } : undefined,
  };
}
process.stdout.write(`\n@@tiny-book@@${JSON.stringify(result)}\n`);
process.exit(0);
