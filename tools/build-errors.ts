/**
 * Preloaded by `npm run build` and `npm start` (`--import`): an author's mistake (a BookError,
 * src/plugins/errors.ts) is printed as one line, `file:line:column message`, instead of
 * Eleventy's wrapper (the template chain, the message twice and a stack trace, about 38
 * lines). Any other error is printed by Eleventy as before. The build still exits with 1.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import { findBookError } from "../src/plugins/errors.ts";

interface ErrorHandler {
  error(e: unknown, msg?: string): void;
}

// Eleventy's error handler is not exported by the package; cmd.cjs imports this very file.
const handlerFile = pathToFileURL(path.resolve("node_modules/@11ty/eleventy/src/Errors/EleventyErrorHandler.js")).href;
const { EleventyErrorHandler } = (await import(handlerFile)) as { EleventyErrorHandler: { prototype: ErrorHandler } };
const eleventyError = EleventyErrorHandler.prototype.error;
// Eleventy reports a failed render twice (the template, then the build): print each message once.
const printed = new Set<string>();
EleventyErrorHandler.prototype.error = function (this: ErrorHandler, e: unknown, msg?: string) {
  const bookError = findBookError(e);
  if (!bookError) return eleventyError.call(this, e, msg);
  if (!printed.has(bookError.message)) console.error(bookError.message);
  printed.add(bookError.message);
  process.exitCode = 1;
};
