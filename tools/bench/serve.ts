/**
 * A static server for benchmarks: like harness/site-server.ts, but it compresses text with
 * gzip when the client accepts it, as any static host does, so Lighthouse sees realistic
 * transfer sizes. Loopback only, random port.
 */
import { createServer } from "node:http";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

const types: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json",
  ".woff2": "font/woff2",
  ".png": "image/png",
  ".wasm": "application/wasm",
  ".xml": "application/xml",
  ".txt": "text/plain; charset=utf-8",
};
const compress = new Set([".html", ".js", ".css", ".svg", ".json", ".xml", ".txt"]);

export async function serveCompressed(root: string): Promise<{ url: string; close(): Promise<void> }> {
  const siteRoot = path.resolve(root);
  const cache = new Map<string, Buffer>();
  const server = createServer((req, res) => {
    const urlPath = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    let file = path.join(siteRoot, urlPath);
    if (!file.startsWith(siteRoot)) return void res.writeHead(403).end();
    if (existsSync(file) && statSync(file).isDirectory()) file = path.join(file, "index.html");
    if (!existsSync(file)) return void res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    const ext = path.extname(file);
    const headers: Record<string, string> = { "content-type": types[ext] ?? "application/octet-stream", "cache-control": "max-age=3600" };
    let body: Buffer = readFileSync(file);
    if (compress.has(ext) && /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""))) {
      const cached = cache.get(file) ?? gzipSync(body, { level: 9 });
      cache.set(file, cached);
      body = cached;
      headers["content-encoding"] = "gzip";
      headers["vary"] = "accept-encoding";
    }
    res.writeHead(200, headers).end(body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("server has no port");
  return { url: `http://127.0.0.1:${address.port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}
