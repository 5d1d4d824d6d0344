// The Headlamp plugin (examples/headlamp-plugin/) in Chromium against the demo server: its
// dist/main.js, built by headlamp-plugin's own toolchain (scripts/headlamp-plugin.sh, run here
// when the build is missing or older than its sources or the package), runs in a host page made
// of Headlamp's own frontend library (window.pluginLib, its registry and Redux store, its theme;
// headlamp/harness.jsx says what is not Headlamp's), loaded by Headlamp's runPlugin, and the route
// it registered is mounted. Scrolled to the end, the list shows every package of the demo's
// ground truth once, in the pager's order; a search is the plugins' own; a plugin down is named,
// the rest listed whole, and a Retry brings it back; the plugin's settings component changes the
// base URL and the list follows. The wasm comes from main.js itself: no request for a .wasm file.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createServer } from "node:http";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { build } from "esbuild";
import { launch, serve, openPage, screenshotPath } from "./support/browser.mjs";
import { api, truth } from "./support/catalog.mjs";

const ROOT = new URL("../../", import.meta.url).pathname;
const EXAMPLE = join(ROOT, "examples/headlamp-plugin");
const MAIN_JS = join(EXAMPLE, "dist/main.js");
const PLUGIN = "kubeapps-pager-headlamp-plugin";
const ROUTE = "/kubeapps-packages";
const PODS_ROUTE = "/pods-across-clusters";

/** The newest modification time among `paths` (files, or folders walked). */
function newest(...paths) {
  let t = 0;
  for (const p of paths) {
    const s = statSync(p);
    if (s.isDirectory()) for (const e of readdirSync(p)) t = Math.max(t, newest(join(p, e)));
    else t = Math.max(t, s.mtimeMs);
  }
  return t;
}

/**
 * Installs and builds the plugin with headlamp-plugin's toolchain (scripts/headlamp-plugin.sh)
 * unless its dependencies are installed and dist/main.js is newer than what it is made of.
 */
function ensurePluginBuilt() {
  const inputs = [join(EXAMPLE, "src"), join(EXAMPLE, "package-lock.json"), join(ROOT, "pkg/web")];
  const installed = existsSync(join(EXAMPLE, "node_modules/@kinvolk/headlamp-plugin/package.json"));
  if (installed && existsSync(MAIN_JS) && statSync(MAIN_JS).mtimeMs > newest(...inputs)) return;
  execFileSync("bash", [join(ROOT, "scripts/headlamp-plugin.sh")], { stdio: "inherit", timeout: 900_000 });
}

/**
 * Headlamp's i18n setup loads its locales with `import(\`./locales/${lng}/${ns}.json?import=default\`)`,
 * Vite's syntax; esbuild bundles the same files from the glob without the query.
 */
const headlampI18nLocales = {
  name: "headlamp-i18n-locales",
  setup(b) {
    b.onLoad({ filter: /headlamp-plugin[\\/]lib[\\/]i18n[\\/]config\.js$/ }, (args) => {
      const source = readFileSync(args.path, "utf8");
      const contents = source.replace(".json?import=default`", ".json`");
      if (contents === source) throw new Error(`${args.path}: the locales import changed; update this plugin`);
      return { contents, loader: "js", resolveDir: dirname(args.path) };
    });
  },
};

const HTML = `<!doctype html><meta charset="utf-8"><title>Headlamp harness</title><link rel="icon" href="data:,">
<body><aside id="settings"></aside><main id="main" style="height:90vh;overflow:auto"></main><script src="harness.js"></script></body>`;

let browser, server, out;
before(async () => {
  ensurePluginBuilt();
  // The demo server serves the host page as its www/: index.html, harness.js, and the plugin
  // where Headlamp serves plugins (plugins/<name>/main.js); /apis on the same origin is the
  // plugin's default base URL.
  out = mkdtempSync(join(tmpdir(), "headlamp-harness-"));
  mkdirSync(join(out, "plugins", PLUGIN), { recursive: true });
  copyFileSync(MAIN_JS, join(out, "plugins", PLUGIN, "main.js"));
  writeFileSync(join(out, "index.html"), HTML);
  await build({
    entryPoints: [new URL("./headlamp/harness.jsx", import.meta.url).pathname],
    bundle: true,
    format: "iife",
    jsx: "automatic",
    outfile: join(out, "harness.js"),
    nodePaths: [join(EXAMPLE, "node_modules")],
    // What Headlamp's own (Vite) build of its frontend provides, for its compiled lib/: JSX in .js
    // files, import.meta.env, a `process` and `global`, `path`, styles and fonts it imports.
    define: { "process.env.NODE_ENV": '"development"', "import.meta.env": "{}", global: "globalThis" },
    banner: { js: "var process = globalThis.process || { env: {}, versions: {}, browser: true };" },
    loader: { ".js": "jsx", ".css": "empty", ".ttf": "empty", ".woff": "empty", ".woff2": "empty", ".svg": "dataurl", ".png": "dataurl" },
    // One React, the example's (Headlamp's 18): the root's node_modules has React 19 (the react
    // entry's tests), which esbuild would find first from this folder; two Reacts hang the page.
    alias: {
      path: "path-browserify",
      react: join(EXAMPLE, "node_modules/react"),
      "react-dom": join(EXAMPLE, "node_modules/react-dom"),
    },
    plugins: [headlampI18nLocales],
    // React's development build (StrictMode runs effects twice only there), minified: the page
    // loads 11 MB instead of 25 MB, about twice as fast.
    minify: true,
    logLevel: "error",
  });
  browser = await launch();
  server = await serve({ wwwDir: out });
});
after(async () => {
  await browser?.close();
  await server?.close();
  if (out) rmSync(out, { recursive: true, force: true });
});

/**
 * Opens the host page with `config` preset in the plugin's ConfigStore and waits until the route
 * is mounted. Records every request URL. Returns `{ page, errors, requests }`.
 */
async function openPlugin(config, { route = ROUTE, clusters } = {}) {
  const { page, errors } = await openPage(browser, "about:blank");
  const requests = [];
  page.on("request", (r) => requests.push(r.url()));
  const params = new URLSearchParams({ plugin: PLUGIN, route, config: JSON.stringify(config) });
  if (clusters) params.set("clusters", JSON.stringify(clusters));
  await page.goto(`${server.url}index.html?${params}`);
  await page.waitForFunction(() => document.body.dataset.ready, null, { timeout: 60_000 });
  const ready = await page.evaluate(() => ({ ready: document.body.dataset.ready, error: document.body.dataset.error }));
  assert.equal(ready.ready, "1", `the host page failed: ${ready.error}`);
  return { page, errors, requests };
}

/** The list's (`data-testid` `list`) `{ state, count, late, firstIndex }` once no page is loading. */
async function settled(page, list = "kubeapps-packages") {
  await page.waitForFunction((list) => {
    const state = document.querySelector(`[data-testid="${list}"]`)?.dataset.state;
    return state !== undefined && state !== "loading";
  }, list, { timeout: 60_000 });
  return page.$eval(`[data-testid="${list}"]`, (e) => ({
    state: e.dataset.state,
    count: Number(e.dataset.count),
    late: Number(e.dataset.late),
    firstIndex: Number(e.dataset.firstIndex),
  }));
}

/** The identities of the list's rows, in order. */
const rowIds = (page) => page.$$eval("[data-identity]", (rows) => rows.map((r) => r.dataset.identity));

/** Scrolls the last row into view until the list is done; returns the rows' identities in order and the pages it took. */
async function scrollToEnd(page, list = "kubeapps-packages", maxScrolls = 200) {
  for (let scrolls = 0; scrolls < maxScrolls; scrolls++) {
    const s = await settled(page, list);
    if (s.state === "error") throw new Error(await page.textContent(`[data-testid="${list}-error"]`));
    if (s.state === "done") {
      const ids = await page.$$eval("[data-identity]", (rows) => rows.map((r) => r.dataset.identity));
      return { ids, scrolls };
    }
    await page.$eval("tbody tr:last-child", (row) => row.scrollIntoView());
    // A page adds rows to the list, or late items only (a source back after a Retry).
    await page.waitForFunction(
      ([list, before]) => {
        const e = document.querySelector(`[data-testid="${list}"]`);
        return Number(e.dataset.count) + Number(e.dataset.late) > before || ["done", "error"].includes(e.dataset.state);
      },
      [list, s.count + s.late],
      { timeout: 60_000 }
    );
  }
  throw new Error(`the list did not end within ${maxScrolls} scrolls`);
}

/** The plugin's config for every plugin and namespace the demo serves. */
async function demoConfig(extra = {}) {
  const cfg = await api(server, "/demo/config");
  const namespaces = [...new Set(cfg.plugins.flatMap((p) => Object.keys(p.namespaces)))].sort();
  return { cluster: cfg.cluster, namespaces: namespaces.join(","), pageSize: 50, ...extra };
}

/** The requests for a .wasm file. */
const wasmFileRequests = (requests) => requests.filter((u) => /\.wasm(\?|$)/.test(u));

test("the plugin registers its routes, sidebar entries and settings in Headlamp's store", async () => {
  const { page, errors } = await openPlugin(await demoConfig());
  const reg = await page.evaluate(() => {
    const r = window.harness.registrations();
    return {
      routes: r.routes.map((x) => ({ path: x.path, sidebar: x.sidebar, exact: x.exact })),
      sidebar: r.sidebar.map((x) => ({ name: x.name, url: x.url, label: x.label })),
      settings: r.settings,
    };
  });
  assert.deepEqual(reg.routes, [
    { path: ROUTE, sidebar: "kubeapps-packages", exact: true },
    { path: PODS_ROUTE, sidebar: "pods-across-clusters", exact: true },
  ]);
  assert.deepEqual(reg.sidebar, [
    { name: "kubeapps-packages", url: ROUTE, label: "Kubeapps packages" },
    { name: "pods-across-clusters", url: PODS_ROUTE, label: "Pods across clusters" },
  ]);
  assert.deepEqual(reg.settings, [PLUGIN]);
  await settled(page);
  assert.deepEqual(errors, []);
  await page.close();
});

test("scrolled to the end, the list shows every package of the ground truth once, in the pager's order", async () => {
  const config = await demoConfig();
  const { page, errors, requests } = await openPlugin(config);
  const { ids, scrolls } = await scrollToEnd(page);
  const expected = await truth(server, { sort: "displayName" });
  assert.ok(expected.count > 1000, `the demo catalog is big enough to page (${expected.count})`);
  assert.equal(new Set(ids).size, ids.length, "no package twice");
  assert.deepEqual(ids, expected.identities, "every package once, in the ground truth's order");
  assert.ok(scrolls >= Math.ceil(expected.count / config.pageSize) - 1, `loaded page by page (${scrolls} scrolls)`);
  // Loaded through the plugin: kubeapps-apis requests to /apis, and no .wasm file fetched.
  assert.ok(requests.some((u) => u.includes("/apis/plugins/")), "the list came from kubeapps-apis' REST paths");
  assert.deepEqual(wasmFileRequests(requests), [], "the wasm comes inlined in main.js");
  await page.screenshot({ path: screenshotPath("headlamp-plugin") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("a search is the plugins' own: the list is what their search matches", async () => {
  const { page, errors } = await openPlugin(await demoConfig());
  await settled(page);
  const all = await truth(server, { sort: "displayName" });
  const expected = await truth(server, { sort: "displayName", query: "sql" });
  assert.ok(expected.count > 0 && expected.count < all.count, `a search that matches some (${expected.count} of ${all.count})`);
  await page.fill('[data-testid="kubeapps-packages-search"]', "sql");
  // The search is a new list: wait until its first page replaced the unfiltered rows.
  await page.waitForFunction(
    (matching) => {
      const e = document.querySelector('[data-testid="kubeapps-packages"]');
      const rows = [...document.querySelectorAll("[data-identity]")].map((r) => r.dataset.identity);
      return e.dataset.state !== "loading" && rows.length > 0 && rows.every((id) => matching.includes(id));
    },
    expected.identities,
    { timeout: 60_000 }
  );
  const { ids } = await scrollToEnd(page);
  assert.deepEqual(ids, expected.identities);
  assert.deepEqual(errors, []);
  await page.close();
});

test("a plugin down is named with a Retry, the others are listed whole, and the Retry brings it back", async () => {
  await api(server, "/demo/down", { plugin: "fluxv2.packages", down: true, kind: "Unimplemented" });
  let up = false;
  try {
    const { page, errors } = await openPlugin(await demoConfig());
    const { ids } = await scrollToEnd(page);
    const others = await truth(server, { sort: "displayName", plugins: ["helm.packages", "kapp_controller.packages"] });
    assert.deepEqual(ids, others.identities, "the other plugins whole, in order");
    const banner = await page.textContent('[data-testid="kubeapps-packages-unreachable"]');
    assert.match(banner, /fluxv2\.packages/);

    // Back up, and Retry: its packages come, none twice, none missed. Those that sort among the
    // rows already shown are late (usePager's `late`): announced and listed apart, never spliced
    // into the list being read; "Show in place" reads the list again, where they stand in order.
    await api(server, "/demo/down", { plugin: "fluxv2.packages", down: false });
    up = true;
    await page.click('[data-testid="kubeapps-packages-unreachable"] button');
    await page.waitForFunction(() => document.querySelector('[data-testid="kubeapps-packages"]').dataset.state !== "done");
    const after = await scrollToEnd(page);
    const late = await page.$$eval("[data-late-identity]", (rows) => rows.map((r) => r.dataset.lateIdentity));
    const all = await truth(server, { sort: "displayName" });
    const flux = await truth(server, { sort: "displayName", plugins: ["fluxv2.packages"] });
    assert.ok(late.length > 0, "fluxv2's packages that sort among the shown rows came late");
    assert.deepEqual(after.ids.slice(0, ids.length), ids, "what was shown stays where it was");
    const seen = [...after.ids, ...late];
    assert.equal(new Set(seen).size, seen.length, "no package twice");
    assert.deepEqual([...seen].sort(), [...all.identities].sort(), "every package once");
    assert.ok(late.every((id) => flux.identities.includes(id)), "the late packages are fluxv2's");
    assert.equal(await page.getAttribute('[data-testid="kubeapps-packages-late"]', "data-count"), String(late.length));
    assert.match(await page.textContent('[data-testid="kubeapps-packages-late"]'), new RegExp(`^${late.length} more packages arrived`));
    assert.equal(await page.$('[data-testid="kubeapps-packages-unreachable"]'), null, "the banner is gone");

    await page.click('[data-testid="kubeapps-packages-late"] button');
    await page.waitForFunction(() => document.querySelector('[data-testid="kubeapps-packages-late"]') === null);
    const inPlace = await scrollToEnd(page);
    assert.deepEqual(inPlace.ids, all.identities, "read again, every package in its place");
    // 501 responses are logged by Chromium as failed loads; nothing else may fail.
    assert.deepEqual(errors.filter((e) => !/status of 501/.test(e)), []);
    await page.close();
  } finally {
    if (!up) await api(server, "/demo/down", { plugin: "fluxv2.packages", down: false });
  }
});

test("the settings: no kubeapps-apis at the base URL names every source with a hint; the right URL typed in the plugin's settings lists them", async () => {
  const { page, errors } = await openPlugin(await demoConfig({ baseUrl: "/nowhere" }));
  const first = await settled(page);
  assert.equal(first.state, "done");
  assert.equal(first.count, 0);
  const banner = await page.textContent('[data-testid="kubeapps-packages-unreachable"]');
  assert.match(banner, /no source answers at \/nowhere: check the kubeapps-apis base URL/);
  assert.match(banner, /helm\.packages.*HTTP 404/);

  // Settings → Plugins → the plugin: its field writes Headlamp's ConfigStore, and the list starts over.
  await page.fill('#settings input[value="/nowhere"]', "/apis");
  assert.deepEqual(await page.evaluate(() => window.harness.registrations().config["kubeapps-pager-headlamp-plugin"].baseUrl), "/apis");
  await page.waitForFunction(() => document.querySelectorAll("[data-identity]").length > 0, null, { timeout: 60_000 });
  const { ids } = await scrollToEnd(page);
  assert.deepEqual(ids, (await truth(server, { sort: "displayName" })).identities);
  assert.equal(await page.$('[data-testid="kubeapps-packages-unreachable"]'), null);
  // The 404s of /nowhere are logged by Chromium as failed loads; nothing else may fail.
  assert.deepEqual(errors.filter((e) => !/status of 404/.test(e)), []);
  await page.close();
});

test("the position is in the URL: a reload reopens the page being read, and Show earlier scrolls back to the top", async () => {
  const config = await demoConfig();
  const { page, errors } = await openPlugin(config);
  const expected = (await truth(server, { sort: "displayName" })).identities;
  for (let pages = 1; pages < 3; pages++) {
    const s = await settled(page);
    await page.$eval("tbody tr:last-child", (row) => row.scrollIntoView());
    await page.waitForFunction((count) => Number(document.querySelector('[data-testid="kubeapps-packages"]').dataset.count) > count, s.count);
  }
  assert.equal((await settled(page)).count, 3 * config.pageSize);
  // usePager wrote page 2's position (`<index>.<token>`) beside the host page's own parameters.
  const url = new URL(page.url());
  assert.match(url.searchParams.get("kubeapps-page") ?? "", /^2\./);
  assert.equal(url.searchParams.get("plugin"), PLUGIN, "the page's own parameters are kept");

  await page.reload();
  await page.waitForFunction(() => document.body.dataset.ready, null, { timeout: 60_000 });
  const reopened = await settled(page);
  assert.equal(reopened.firstIndex, 2);
  assert.deepEqual(await rowIds(page), expected.slice(2 * config.pageSize, 3 * config.pageSize), "page 2, as it was");
  for (let index = 1; index >= 0; index--) {
    await page.click('[data-testid="kubeapps-packages-previous"]');
    await page.waitForFunction((i) => document.querySelector('[data-testid="kubeapps-packages"]').dataset.firstIndex === String(i), index);
  }
  await settled(page);
  assert.deepEqual(await rowIds(page), expected.slice(0, 3 * config.pageSize), "scrolled back to the top: pages 0 to 2");
  assert.equal(await page.$('[data-testid="kubeapps-packages-previous"]'), null, "at the start: nothing earlier");
  assert.deepEqual(errors, []);
  await page.close();
});

/**
 * An apiserver-like server for the "Pods across clusters" route, as Headlamp's backend proxies
 * each cluster (`/clusters/<name>/api/v1/pods`): each cluster's pods in the apiserver's order
 * (namespace/name), `limit` and `continue` (an opaque offset), `resourceVersion`,
 * `remainingItemCount`; a cluster it does not have answers 404 with a `Status`. It sends CORS
 * headers (the plugin's "Headlamp backend URL" setting points at it, another origin than the
 * page). `requests` records each path and query.
 */
async function clusterProxy(fleet) {
  const requests = [];
  const cors = { "access-control-allow-origin": "*", "access-control-allow-headers": "*" };
  const server = createServer((req, res) => {
    const url = new URL(req.url, "http://x");
    if (req.method === "OPTIONS") return res.writeHead(204, cors).end();
    requests.push(url.pathname + url.search);
    const json = (status, body) => res.writeHead(status, { ...cors, "content-type": "application/json" }).end(JSON.stringify(body));
    const m = /^\/clusters\/([^/]+)\/api\/v1\/pods$/.exec(url.pathname);
    const pods = m && fleet[decodeURIComponent(m[1])];
    if (!pods) return json(404, { kind: "Status", apiVersion: "v1", status: "Failure", reason: "NotFound", code: 404, message: "the server could not find the requested resource" });
    const limit = Number(url.searchParams.get("limit") ?? 0) || pods.length;
    const token = url.searchParams.get("continue");
    const offset = token ? Number(Buffer.from(token, "base64url").toString()) : 0;
    const end = Math.min(offset + limit, pods.length);
    const metadata = { resourceVersion: "4242" };
    if (end < pods.length) Object.assign(metadata, { continue: Buffer.from(String(end)).toString("base64url"), remainingItemCount: pods.length - end });
    json(200, { kind: "PodList", apiVersion: "v1", metadata, items: pods.slice(offset, end) });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, requests, close: () => new Promise((r) => server.close(r)) };
}

/** `count` pods of `cluster` over three namespaces, in the apiserver's order; some names recur in every cluster. */
function podsOf(cluster, count) {
  const pods = [];
  for (let i = 0; i < count; i++) {
    const namespace = ["default", "kube-system", "web"][i % 3];
    const name = i % 4 === 0 ? `shared-${i}` : `${cluster}-app-${String(i).padStart(3, "0")}`;
    pods.push({ metadata: { namespace, name, uid: `${cluster}-${i}` }, spec: { nodeName: `${cluster}-node-${i % 2}` }, status: { phase: "Running" } });
  }
  const key = (p) => `${p.metadata.namespace}/${p.metadata.name}`;
  return pods.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

test("Pods across clusters: every pod of the clusters Headlamp knows, once, in the apiserver's order, paged per cluster; a cluster whose proxy has no pods is named", async () => {
  const fleet = { east: podsOf("east", 70), north: podsOf("north", 45), west: podsOf("west", 60) };
  const proxy = await clusterProxy(fleet);
  try {
    const clusters = ["east", "gone", "north", "west"];
    const { page, errors } = await openPlugin({ pageSize: 25, headlampBackendUrl: proxy.url }, { route: PODS_ROUTE, clusters });
    const { ids, scrolls } = await scrollToEnd(page, "cluster-pods");
    // The apiserver's order: namespace/name by bytes, a name in several clusters by cluster.
    const expected = Object.entries(fleet)
      .flatMap(([cluster, pods]) => pods.map((p) => ({ cluster, key: `${p.metadata.namespace}/${p.metadata.name}` })))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.cluster < b.cluster ? -1 : a.cluster > b.cluster ? 1 : 0))
      .map((p) => `${p.cluster}/${p.key}`);
    assert.equal(new Set(ids).size, ids.length, "no pod twice");
    assert.deepEqual(ids, expected, "every pod once, in the apiserver's order");
    assert.ok(scrolls >= Math.ceil(expected.length / 25) - 1, `loaded page by page (${scrolls} scrolls)`);
    // Through each cluster's proxy path, with the apiserver's paging parameters.
    for (const c of clusters) assert.ok(proxy.requests.some((r) => r.startsWith(`/clusters/${c}/api/v1/pods?limit=`)), `asked ${c}`);
    const banner = await page.textContent('[data-testid="cluster-pods-unreachable"]');
    assert.match(banner, /pods\.v1\/gone\/ \(HTTP 404\)/);
    assert.doesNotMatch(banner, /east|north|west/);
    // Its position in the URL under its own parameter.
    assert.match(new URL(page.url()).searchParams.get("pods-page") ?? "", /^\d+\./);
    await page.screenshot({ path: screenshotPath("headlamp-plugin-pods") });
    // The 404 of the cluster that has none is logged by Chromium as a failed load; nothing else may fail.
    assert.deepEqual(errors.filter((e) => !/status of 404/.test(e)), []);
    await page.close();
  } finally {
    await proxy.close();
  }
});
