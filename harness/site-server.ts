/**
 * A small static server for the built site (`_site`), for browser tests: loopback only, a
 * random free port, correct MIME types (ES modules need text/javascript), `/dir/` →
 * `/dir/index.html`, 404 for anything else. Fails loudly if the site has not been built.
 */
import { createServer, type Server } from "node:http";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const mimeTypes: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".ttf": "font/ttf",
  ".png": "image/png",
  ".txt": "text/plain; charset=utf-8",
};

export interface SiteServer {
  /** Base URL without a trailing slash, e.g. "http://127.0.0.1:41234". */
  url: string;
  /** Every path requested so far, in order (e.g. "/assets/js/widgets/unit-converter.js"). */
  requests: string[];
  close(): Promise<void>;
}

export async function startSiteServer(root = process.env.SITE_DIR ?? "_site"): Promise<SiteServer> {
  const siteRoot = path.resolve(root);
  if (!existsSync(path.join(siteRoot, "index.html"))) {
    throw new Error(`${root}/index.html not found: run "npm run build" before the browser tests`);
  }
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const urlPath = decodeURIComponent(new URL(req.url ?? "/", "http://localhost").pathname);
    requests.push(urlPath);
    let file = path.join(siteRoot, urlPath);
    if (!file.startsWith(siteRoot)) {
      res.writeHead(403).end();
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) file = path.join(file, "index.html");
    if (!existsSync(file)) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    res.writeHead(200, { "content-type": mimeTypes[path.extname(file)] ?? "application/octet-stream" });
    res.end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("server has no port");
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
