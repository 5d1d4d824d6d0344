// A static file server for the benchmark page: the repository (bench/, pkg/) plus extra mounts
// (the temporary builds), on 127.0.0.1, cross-origin isolated (COOP + COEP) so that Chromium's
// performance.now() ticks at 5 µs instead of 100 µs.
import http from "node:http";
import path from "node:path";
import { readFile } from "node:fs/promises";

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".json": "application/json" };

/** Starts the server; `mounts` maps a URL prefix (`/bench-pkg/`) to a directory. Resolves to `{ url, close }`. */
export async function serveStatic(root, mounts = {}) {
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url, "http://x");
    let file = null;
    for (const [prefix, dir] of Object.entries(mounts)) {
      if (url.pathname.startsWith(prefix)) file = path.join(dir, url.pathname.slice(prefix.length));
    }
    file ??= path.join(root, url.pathname);
    const base = Object.entries(mounts).find(([p]) => url.pathname.startsWith(p))?.[1] ?? root;
    if (!path.resolve(file).startsWith(path.resolve(base))) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, {
        "content-type": TYPES[path.extname(file)] ?? "application/octet-stream",
        "cache-control": "no-store",
        "cross-origin-opener-policy": "same-origin",
        "cross-origin-embedder-policy": "require-corp",
        "cross-origin-resource-policy": "same-origin",
      });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }),
  };
}
