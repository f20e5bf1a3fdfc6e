/**
 * `npm start` (README: one command builds and serves the book). The script in package.json is
 * run as written, on a free port instead of 8080 and into a temporary output folder (SITE_DIR),
 * until the dev server says where it serves; then the home page, a chapter, the minified
 * stylesheet and a math face cut to the book's characters must come back from it. This guards the
 * script's flags: `tsx watch` reads its own flags (`--clear-screen`, `--include`) only before the
 * first flag it hands to Node (`--import`) and hands the rest to Node too, which then refuses to
 * start. A script that never serves fails the test after 150 s, or sooner if it exits.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { katexFontOutput, katexFontSource } from "../../src/plugins/after-build/math-fonts.ts";

/** A port nothing listens on now (the system's choice for port 0). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  assert.ok(address && typeof address === "object");
  return address.port;
}

test("npm start builds the book and serves it", { timeout: 180_000 }, async () => {
  const scripts = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts;
  const start = scripts.start ?? "";
  assert.match(start, /--port=8080\b/, "the start script names its port");
  const port = await freePort();
  const out = mkdtempSync(path.join(os.tmpdir(), "serve-"));
  const child = spawn("sh", ["-c", start.replace("--port=8080", `--port=${port}`)], {
    env: {
      ...process.env,
      SITE_DIR: out,
      PATH: `${path.resolve("node_modules/.bin")}${path.delimiter}${process.env.PATH ?? ""}`,
    },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no "Server at" within 150 s:\n${output}`)), 150_000);
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const m = /Server at (http:\/\/\S+?)\/?\s/.exec(output);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      };
      child.stdout.on("data", read);
      child.stderr.on("data", read);
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`npm start exited (${code}) before serving:\n${output}`));
      });
    });
    const get = async (p: string) => {
      const res = await fetch(url + p);
      return { status: res.status, text: await res.text() };
    };
    const home = await get("/");
    assert.equal(home.status, 200, "the home page");
    assert.match(home.text, /<title>[^<]*Scaling Out/);
    const chapter = await get("/one-gpu/");
    assert.equal(chapter.status, 200, "a chapter");
    assert.match(chapter.text, /<h1[^>]*>/);
    const css = await get("/assets/css/book.css");
    assert.equal(css.status, 200, "the stylesheet");
    assert.ok(
      css.text.trimEnd().endsWith("/*# sourceMappingURL=book.css.map */"),
      "the stylesheet is the minified one",
    );
    const face = await fetch(`${url}/${katexFontOutput}/KaTeX_Main-Regular.woff2`);
    assert.equal(face.status, 200, "a math face");
    const faceBytes = (await face.arrayBuffer()).byteLength;
    const fullBytes = statSync(path.join(katexFontSource, "KaTeX_Main-Regular.woff2")).size;
    assert.ok(faceBytes > 0 && faceBytes < fullBytes, `the face is the cut one (${faceBytes} of ${fullBytes} bytes)`);
  } finally {
    if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, "SIGTERM");
    await exited;
    rmSync(out, { recursive: true, force: true });
  }
});
