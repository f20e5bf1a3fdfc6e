/**
 * `npm run test:unit`: runs node:test files in this one process, instead of one process per file as
 * `node --test` does. Each file is imported in turn; its tests register with node:test's root test
 * and run as they come, reported as `node --test` reports them (TAP when the output is not a
 * terminal), and the process exits with 1 when any test failed. A file that cannot be loaded (a
 * syntax error, an import that throws) becomes a failing test that names it, and the others still
 * run.
 *
 * Why: with a process per file, each of the 109 unit test files started node and tsx and
 * transformed and loaded the modules it imports (the model, the plugins, the chapters' values)
 * again: 206 CPU-seconds in all, against 104 in one process, the same 1,184 tests passing
 * (docs/ci-time.md, "Fourth round"). The files share the process, so a test must leave the process
 * as it found it (environment, working directory, global mocks), as the unit tests do; the browser
 * and site tests, which start servers and browsers, keep a process per file.
 *
 *   node --import tsx tools/test-in-one-process.ts tests/a.test.ts tests/b.test.ts
 */
import path from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

const files = process.argv.slice(2);
const options = files.filter((f) => f.startsWith("-"));
if (options.length > 0) {
  // node's own test options go before the script: node --test-name-pattern=… tools/test-in-one-process.ts …
  console.error(`test-in-one-process: give node's options before the script, not after it: ${options.join(" ")}`);
  process.exit(2);
}
if (files.length === 0) {
  console.error("test-in-one-process: no test file given");
  process.exit(2);
}
for (const file of files) {
  try {
    await import(pathToFileURL(path.resolve(file)).href);
  } catch (err) {
    test(`${file} loads`, () => {
      throw err;
    });
  }
}
