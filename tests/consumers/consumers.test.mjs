// The packed npm package (`npm pack pkg/`) as its users get it, in four consumers, each a tiny app
// under tests/consumers/<name>/ installed into a temp folder with the tarball:
//  - a page with an import map and no bundler, served as it is, in headless Chromium;
//  - webpack 5 configured as Create React App 5 does (no wasm experiment, no wasm loader), built
//    for production and for development, served on 127.0.0.1 and run in headless Chromium;
//  - Vite 7 (`vite build`, no config, no plugin), likewise; and its dev server with the one config
//    line docs/USAGE.md gives;
//  - a Node ESM app (`import init, { Pager, PagerError } from "kubeapps-pager"`) and a CommonJS one
//    (`require("kubeapps-pager")`);
//  - a Create React App 5 style Jest 27 (babel-jest with babel-preset-react-app, jsdom): the default
//    import through Babel's interop.
// Every app imports "kubeapps-pager/codec" too (the continue tokens of its Kubernetes source).
// Each pages the same in-app backend (shared/catalog.mjs: offset paging + Kubernetes continue
// paging, a resume from a NextPageToken halfway) to the end; this file checks the report against
// the order the docs define, computed here independently of the pager.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { copyFile, readdir, readFile } from "node:fs/promises";
import { launch } from "../e2e/support/browser.mjs";
import { BIN, ROOT, childEnv, makeApp, packTarball, run, runInBrowser, serveStatic, tempDir } from "./support/harness.mjs";
import { catalog, identity, OPTIONS, PAGE_SIZE, CHUNK_LIMIT } from "./shared/catalog.mjs";

const APPS = ["browser-esm", "webpack", "vite", "node-esm", "node-cjs", "jest27"];
let temp, tarball, browser;
const ROOT_MODULES = path.join(ROOT, "node_modules");
const apps = {};

before(async () => {
  temp = await tempDir();
  tarball = await packTarball(temp.dir);
  // Installs touch only each app's own folder: run them side by side.
  await Promise.all(APPS.map(async (name) => (apps[name] = await makeApp(name, temp.dir, tarball))));
});

after(async () => {
  await browser?.close();
  if (process.env.KEEP_CONSUMERS) console.log(`consumer apps kept in ${temp?.dir}`);
  else await temp?.remove();
});

async function chromium() {
  browser ??= await launch();
  return browser;
}

/** The docs' merge order for sort "name": name bytes, then plugin, cluster, namespace, identifier. */
function expectedIdentities() {
  const { helm, kapp } = catalog();
  const key = (s) => [s.name, s.availablePackageRef.plugin.name, s.availablePackageRef.context.cluster,
    s.availablePackageRef.context.namespace, s.availablePackageRef.identifier];
  const cmp = (a, b) => {
    const ka = key(a), kb = key(b);
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return Buffer.compare(Buffer.from(ka[i]), Buffer.from(kb[i]));
    return 0;
  };
  return [...helm, ...kapp].sort(cmp).map(identity);
}

/** Checks a consumer's report (shared/catalog.mjs `pageAll`). */
function checkReport(report) {
  const expected = expectedIdentities();
  assert.deepEqual(report.identities, expected, "every package once, in the documented order");
  assert.equal(new Set(report.identities).size, report.identities.length, "no duplicates");
  assert.ok(report.resumed, "went on from a NextPageToken");
  assert.ok(report.sameObjects, "page items are the very objects the backend answered");
  assert.ok(report.tokensUrlSafe, "page tokens are URL-safe");
  // Full pages until the end; only the last may be short.
  const sizes = report.pageSizes;
  assert.ok(sizes.slice(0, -1).every((n) => n === PAGE_SIZE), `page sizes ${sizes}`);
  assert.ok(sizes.at(-1) <= PAGE_SIZE);
  assert.equal(sizes.reduce((a, b) => a + b, 0), expected.length);
  // Each chunk is fetched, and none twice except around the resume: a fresh pager re-reads the
  // chunk each source was in to skip to the token's position, and an offset source may read once
  // more from further back when that re-read does not start strictly before the token's last tie
  // group (issue 11's verification, docs/DESIGN.md). So at most two extra requests a source.
  const { helm, kapp } = catalog();
  const chunks = Math.ceil(helm.length / CHUNK_LIMIT) + Math.ceil(kapp.length / CHUNK_LIMIT);
  assert.ok(report.requests >= chunks && report.requests <= chunks + 2 * OPTIONS.sources.length, `${report.requests} requests`);
  // A thrown error, a rejected one and one of the codec entry are each PagerError of both entries.
  const [thrown, rejected, codec] = report.errors;
  assert.deepEqual(
    [thrown.instanceofPagerError, thrown.instanceofCodecPagerError, thrown.instanceofError, thrown.name, thrown.code],
    [true, true, true, "PagerError", "INVALID_PAGE_TOKEN"],
  );
  assert.deepEqual(
    [rejected.instanceofPagerError, rejected.instanceofCodecPagerError, rejected.instanceofError, rejected.name, rejected.code, rejected.details.status],
    [true, true, true, "PagerError", "SOURCE_FAILED", 503],
  );
  assert.deepEqual(
    [codec.instanceofPagerError, codec.instanceofCodecPagerError, codec.instanceofError, codec.name, codec.code],
    [true, true, true, "PagerError", "INVALID_CONTINUE_TOKEN"],
  );
}

/**
 * Serves `dir`, runs its app in Chromium, checks the report; `wasmAt` matches the served paths of
 * the two wasm modules, the pager's then the codec's.
 */
async function runBuiltApp(dir, [pagerAt, codecAt]) {
  const server = await serveStatic(dir);
  try {
    const result = await runInBrowser(await chromium(), server.url);
    assert.equal(result.state, "done", result.text);
    assert.deepEqual(result.errors, [], "no console errors, page errors or failed requests");
    const report = JSON.parse(result.text);
    checkReport(report);
    assert.deepEqual(result.items, report.identities, "the DOM shows the items");
    const wasm = server.served.filter((r) => r.path.endsWith(".wasm"));
    assert.equal(wasm.length, 2, `two wasm fetches, the pager's and the codec's: ${JSON.stringify(server.served)}`);
    const pager = wasm.filter((r) => pagerAt.test(r.path));
    const codec = wasm.filter((r) => codecAt.test(r.path));
    assert.deepEqual([pager.length, codec.length], [1, 1], JSON.stringify(wasm));
    for (const r of wasm) assert.deepEqual([r.status, r.type], [200, "application/wasm"]);
  } finally {
    await server.close();
  }
}

test("browser ESM without a bundler: an import map to the web build", async () => {
  await runBuiltApp(apps["browser-esm"], [
    /^\/node_modules\/kubeapps-pager\/web\/kubeapps_pager_bg\.wasm$/,
    /^\/node_modules\/kubeapps-pager\/codec\/web\/kubeapps_pager_codec_bg\.wasm$/,
  ]);
});

for (const mode of ["production", "development"]) {
  test(`webpack 5 with Create React App 5's defaults (${mode}) bundles the browser entry and its wasm`, async () => {
    const app = apps.webpack;
    await run(process.execPath, [BIN.webpack, "--config", path.join(app, "webpack.config.js")], {
      cwd: app,
      env: childEnv({ NODE_ENV: mode, BROWSERSLIST_ENV: mode }),
    });
    const build = path.join(app, mode === "production" ? "build" : "build-dev");
    await copyFile(path.join(app, "public", "index.html"), path.join(build, "index.html"));
    const media = await readdir(path.join(build, "static", "media"));
    assert.ok(media.some((f) => /^kubeapps_pager_bg\.[0-9a-f]+\.wasm$/.test(f)), `emitted: ${media}`);
    assert.ok(media.some((f) => /^kubeapps_pager_codec_bg\.[0-9a-f]+\.wasm$/.test(f)), `emitted: ${media}`);
    await runBuiltApp(build, [
      /^\/static\/media\/kubeapps_pager_bg\.[0-9a-f]+\.wasm$/,
      /^\/static\/media\/kubeapps_pager_codec_bg\.[0-9a-f]+\.wasm$/,
    ]);
  });
}

test("Vite 7 `vite build`, no config, bundles the browser entry and its wasm", async () => {
  const app = apps.vite;
  await run(process.execPath, [BIN.vite, "build", "--logLevel", "warn"], { cwd: app });
  await runBuiltApp(path.join(app, "dist"), [/^\/assets\/kubeapps_pager_bg-[\w-]+\.wasm$/, /^\/assets\/kubeapps_pager_codec_bg-[\w-]+\.wasm$/]);
});

test("Vite 7 dev server with the one line docs/USAGE.md gives (optimizeDeps.exclude)", async () => {
  const app = apps.vite;
  const { createServer } = await import("vite");
  const server = await createServer({
    root: app,
    configFile: path.join(app, "vite.dev.config.js"),
    logLevel: "warn",
    server: { host: "127.0.0.1", port: 0, strictPort: false, hmr: false, watch: null },
  });
  await server.listen();
  try {
    const { port } = server.httpServer.address();
    const result = await runInBrowser(await chromium(), `http://127.0.0.1:${port}/`);
    assert.equal(result.state, "done", result.text);
    assert.deepEqual(result.errors, []);
    checkReport(JSON.parse(result.text));
  } finally {
    await server.close();
  }
});

test("Node ESM: import init and named exports from the package, await init()", async () => {
  const app = apps["node-esm"];
  const report = JSON.parse(await run(process.execPath, ["main.mjs"], { cwd: app }));
  checkReport(report);
  assert.equal(report.resolved, new URL(`file://${app}/node_modules/kubeapps-pager/nodejs/index.mjs`).href);
});

test("Node CommonJS: require the package", async () => {
  const app = apps["node-cjs"];
  const report = JSON.parse(await run(process.execPath, ["main.cjs"], { cwd: app }));
  checkReport(report);
  assert.equal(report.resolved, path.join(app, "node_modules", "kubeapps-pager", "nodejs", "index.js"));
});

test("Node CommonJS without global TextEncoder/TextDecoder, as in Jest's jsdom environment", async () => {
  const app = apps["node-cjs"];
  const probe = "new TextDecoder()"; // the preload did remove it
  await assert.rejects(run(process.execPath, ["--require", "./no-text-codecs.cjs", "-e", probe], { cwd: app }), /TextDecoder is not defined/);
  checkReport(JSON.parse(await run(process.execPath, ["--require", "./no-text-codecs.cjs", "main.cjs"], { cwd: app })));
});

test("resolvers that ignore `exports` (Jest 27, as in Create React App 5): both entries resolve and load", async () => {
  // Jest 27's default resolver is `resolve.sync` (the `resolve` package, here from webpack-cli's
  // dependencies), which knows nothing of `exports`: "kubeapps-pager/codec" is the folder codec/,
  // and its package.json `main` the file.
  const { createRequire } = await import("node:module");
  const resolve = createRequire(import.meta.url)("resolve");
  const app = apps["node-cjs"];
  const pkgDir = path.join(app, "node_modules", "kubeapps-pager");
  const resolved = ["kubeapps-pager", "kubeapps-pager/codec"].map((id) => resolve.sync(id, { basedir: app, extensions: [".js", ".json"] }));
  assert.deepEqual(resolved, [path.join(pkgDir, "nodejs", "index.js"), path.join(pkgDir, "codec", "nodejs", "index.js")]);
  const probe = `const [p, c] = ${JSON.stringify(resolved)}.map(require);
    process.stdout.write(JSON.stringify([typeof p.Pager, c.inspectToken("40").kind]));`;
  assert.deepEqual(JSON.parse(await run(process.execPath, ["-e", probe], { cwd: app })), ["function", "kubeappsOffset"]);
});

test("Jest 27 as Create React App 5 runs it (babel-jest, babel-preset-react-app, jsdom): default and named imports", async () => {
  const app = apps.jest27;
  const report = path.join(app, "report.json");
  const jest = path.join(ROOT_MODULES, "jest", "bin", "jest.js");
  await run(process.execPath, [jest, "--config", path.join(app, "jest.config.cjs"), "--ci", "--runInBand"], {
    cwd: app,
    env: childEnv({ NODE_ENV: "test", BABEL_ENV: "test", TOOLS: ROOT_MODULES, REPORT: report }),
    timeout: 240_000,
  });
  checkReport(JSON.parse(await readFile(report, "utf8")));
});
