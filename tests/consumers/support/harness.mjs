// Helpers of the consumer tests: pack pkg/ as npm would publish it, install the tarball into a temp
// copy of a consumer app, run the repo's own build tools on it, serve a build folder on 127.0.0.1.
import { execFile } from "node:child_process";
import { cp, mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { createReadStream } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";

export const ROOT = path.resolve(new URL("../../..", import.meta.url).pathname);
export const CONSUMERS = path.join(ROOT, "tests", "consumers");
export const BIN = {
  webpack: path.join(ROOT, "node_modules", "webpack-cli", "bin", "cli.js"),
  vite: path.join(ROOT, "node_modules", "vite", "bin", "vite.js"),
};

/**
 * The environment for a child process: this one's, less npm's `npm_*` variables. Under `npm test`
 * they name the repo as npm's prefix, and an `npm install` in a temp app must not act on the repo.
 */
export function childEnv(extra = {}) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  return { ...env, ...extra };
}

/** Runs a command; resolves with its stdout, rejects with its stdout and stderr in the message. */
export function run(file, args, { cwd, env = childEnv(), timeout = 120_000 } = {}) {
  return new Promise((resolve, reject) => {
    execFile(file, args, { cwd, env, timeout, maxBuffer: 64 << 20 }, (error, stdout, stderr) => {
      if (error) {
        error.message = `${file} ${args.join(" ")} (in ${cwd}) failed: ${error.message}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`;
        reject(error);
      } else resolve(stdout);
    });
  });
}

/** A fresh temp folder; `remove()` deletes it. */
export async function tempDir(prefix = "kubeapps-pager-consumers-") {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** `npm pack pkg/` into `dir`: the path of the tarball, exactly what `npm publish` would upload. */
export async function packTarball(dir) {
  const pkg = path.join(ROOT, "pkg");
  await stat(path.join(pkg, "package.json")).catch(() => {
    throw new Error("pkg/ is not built: run `bash scripts/build.sh` first");
  });
  const out = await run("npm", ["pack", pkg, "--pack-destination", dir, "--silent"], { cwd: dir });
  const name = out.trim().split("\n").pop();
  if (!name.endsWith(".tgz")) throw new Error(`npm pack printed no tarball name: ${out}`);
  return path.join(dir, name);
}

/**
 * Copies tests/consumers/<name> into `dir`, puts the shared app files beside its entry (`src/` when
 * the app has one), and installs the tarball there. Offline: the package has no dependencies.
 * Returns the app's folder.
 */
export async function makeApp(name, dir, tarball) {
  const app = path.join(dir, name);
  await cp(path.join(CONSUMERS, name), app, { recursive: true });
  const hasSrc = await stat(path.join(app, "src")).then((s) => s.isDirectory(), () => false);
  const shared = path.join(CONSUMERS, "shared");
  for (const file of await readdir(shared)) {
    await cp(path.join(shared, file), path.join(app, hasSrc ? "src" : "", file));
  }
  await run("npm", ["install", "--no-audit", "--no-fund", "--offline", "--ignore-scripts", "--loglevel=error", tarball], {
    cwd: app,
  });
  return app;
}

const MIME = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
  ".map": "application/json",
  ".json": "application/json",
  ".css": "text/css",
};

/**
 * Serves `root` read-only on 127.0.0.1 at a free port, as a static host would (`/` is index.html).
 * Returns `{ url, served, close }`; `served` lists `{ path, status, type }` per request.
 */
export function serveStatic(root) {
  const served = [];
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://x");
    let rel = decodeURIComponent(url.pathname);
    if (rel.endsWith("/")) rel += "index.html";
    const file = path.join(root, path.normalize(rel));
    const record = (status, type) => served.push({ path: url.pathname, status, type });
    if (!file.startsWith(root + path.sep) || req.method !== "GET") {
      record(404, null);
      res.writeHead(404).end();
      return;
    }
    const ok = await stat(file).then((s) => s.isFile(), () => false);
    if (!ok) {
      record(404, null);
      res.writeHead(404).end();
      return;
    }
    const type = MIME[path.extname(file)] ?? "application/octet-stream";
    record(200, type);
    res.writeHead(200, { "content-type": type, "cache-control": "no-store" });
    createReadStream(file).pipe(res);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      resolve({
        url: `http://127.0.0.1:${port}/`,
        served,
        close: () => new Promise((r) => server.close(() => r())),
      });
    });
  });
}

/**
 * Opens `url` in a new page of `browser`, waits for the app's #result to say done or failed, and
 * returns `{ state, text, items, errors }`: console errors, page errors, failed requests and HTTP
 * errors all land in `errors`.
 */
export async function runInBrowser(browser, url, { timeout = 30_000 } = {}) {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(`pageerror: ${e}`));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(`console: ${m.text()}`);
  });
  page.on("requestfailed", (r) => errors.push(`requestfailed: ${r.url()} ${r.failure()?.errorText}`));
  page.on("response", (r) => {
    if (r.status() >= 400) errors.push(`http ${r.status()}: ${r.url()}`);
  });
  try {
    await page.goto(url);
    await page.waitForSelector('#result[data-state="done"], #result[data-state="failed"]', { timeout });
    const state = await page.getAttribute("#result", "data-state");
    const text = await page.textContent("#result");
    const items = await page.$$eval("#items li", (lis) => lis.map((li) => li.textContent));
    return { state, text, items, errors };
  } finally {
    await page.close();
  }
}
