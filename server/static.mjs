// Static files (www/ and pkg/) with the MIME types a browser needs for ES modules and
// WebAssembly, and no way out of their folder.
import fs from "node:fs/promises";
import path from "node:path";

/** MIME types by extension (`application/wasm` lets WebAssembly.instantiateStreaming work). */
export const MIME = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".ts": "text/plain; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
};

/**
 * resolveStatic maps a URL path below `root` to a file path, or null when a segment is
 * malformed percent-encoding, `.`/`..`, or holds a slash, backslash or NUL once decoded.
 */
export function resolveStatic(root, urlPath) {
  const segments = [];
  for (const raw of urlPath.split("/")) {
    if (raw === "") continue;
    let seg;
    try {
      seg = decodeURIComponent(raw);
    } catch {
      return null;
    }
    if (seg === "." || seg === ".." || /[/\\\0]/.test(seg)) return null;
    segments.push(seg);
  }
  const file = path.join(root, ...segments);
  return file === root || file.startsWith(root + path.sep) ? file : null;
}

/**
 * serveStatic answers GET/HEAD of `urlPath` from `root` (a folder gives its index.html):
 * 200 with the file, 404 when absent, 400 for a path that tries to leave the folder.
 */
export async function serveStatic(req, res, root, urlPath) {
  let file = resolveStatic(root, urlPath);
  if (file === null) return sendText(res, 400, "bad path\n");
  try {
    let st = await fs.stat(file);
    if (st.isDirectory()) {
      file = path.join(file, "index.html");
      st = await fs.stat(file);
    }
    if (!st.isFile()) return sendText(res, 404, "not found\n");
    const type = MIME[path.extname(file).toLowerCase()] ?? "application/octet-stream";
    res.writeHead(200, {
      "content-type": type,
      "content-length": st.size,
      "cache-control": "no-cache",
      "x-content-type-options": "nosniff",
    });
    if (req.method === "HEAD") return res.end();
    res.end(await fs.readFile(file));
  } catch (e) {
    if (e.code === "ENOENT" || e.code === "ENOTDIR") return sendText(res, 404, "not found\n");
    throw e;
  }
}

/** A small text reply. */
export function sendText(res, status, text) {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "x-content-type-options": "nosniff" });
  res.end(text);
}
