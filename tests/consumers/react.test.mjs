// kubeapps-pager/react (usePager) and kubeapps-pager/tanstack (pagerInfiniteQuery) as a React app
// gets them: the packed tarball installed into tests/consumers/react/, built by webpack 5 and by
// Vite against React 18 (the repo's react18/react-dom18 aliases) and React 19, in development mode
// (StrictMode's double mount is a development behaviour), run in headless Chromium against a
// kubeapps-apis REST backend written here (two offset-paged plugins), which logs every request.
// Each build runs every scenario of the app (tests/consumers/react/src/index.js):
//  - the hook pages to the end, each item once, in order, with one pager under StrictMode (and the
//    StrictMode double mount did happen), nothing fetched twice; a reload reopens the last page;
//  - unmounting with a request in flight aborts it (the backend sees the connection closed) and
//    frees the pager;
//  - a source down is named in `unreachable`; `retryUnreachable()` brings its items, the ones the
//    list went past in `late`, never in `items`, each once;
//  - the TanStack adapter pages to the end with one pager and no chunk fetched twice; `maxPages`
//    keeps 3 pages and `fetchPreviousPage` scrolls back to page 0 with the same items; TanStack's
//    cancel aborts the request in flight; `refetch` after writes shows the list as it is now.
// And the Vite dev server (React 19) with the one config line docs/USAGE.md gives: the react
// entry, served as it is with the pager entry, pages to the end with one pager.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { createServer } from "node:http";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { launch } from "../e2e/support/browser.mjs";
import { BIN, ROOT, childEnv, makeApp, packTarball, run, tempDir } from "./support/harness.mjs";

const ROOT_MODULES = path.join(ROOT, "node_modules");
const REACT = {
  18: { react: path.join(ROOT_MODULES, "react18"), dom: path.join(ROOT_MODULES, "react-dom18") },
  19: { react: path.join(ROOT_MODULES, "react"), dom: path.join(ROOT_MODULES, "react-dom") },
};
const PLUGINS = { helm: "helm.packages", kapp_controller: "kapp_controller.packages" };
const KAPP = "kapp_controller.packages/default/kubeapps";

let temp, app, browser;

before(async () => {
  temp = await tempDir("kubeapps-pager-react-");
  app = await makeApp("react", temp.dir, await packTarball(temp.dir));
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await temp?.remove();
});

function summary(plugin, name) {
  return {
    availablePackageRef: {
      context: { cluster: "default", namespace: "kubeapps" },
      identifier: `repo/${name}`,
      plugin: { name: plugin, version: "v1alpha1" },
    },
    name,
    displayName: name,
    shortDescription: "",
    categories: [plugin === "helm.packages" ? "Database" : "Networking"],
  };
}

/** 45 helm packages (even numbers) and 35 kapp ones (odd): the merge interleaves them. */
function freshCatalog() {
  const name = (i) => `pkg-${String(i).padStart(3, "0")}`;
  return {
    "helm.packages": Array.from({ length: 45 }, (_, i) => name(2 * i)),
    "kapp_controller.packages": Array.from({ length: 35 }, (_, i) => name(2 * i + 1)),
  };
}

/** The list in the pager's order (sort "name": name bytes, then plugin …), as identities. */
function expected(catalog) {
  const all = Object.entries(catalog).flatMap(([plugin, names]) => names.map((n) => ({ plugin, n })));
  all.sort((a, b) => (a.n < b.n ? -1 : a.n > b.n ? 1 : a.plugin < b.plugin ? -1 : 1));
  return all.map(({ plugin, n }) => `${plugin}/default/kubeapps/repo/${n}`);
}

/**
 * Serves the built app and the plugins' REST paths. `state.log`: every chunk request
 * `{ plugin, token }`; `state.down`: plugins answering 403; `state.hold`: a plugin whose requests
 * wait until `release()` (or until the client goes away: then logged in `state.aborted`).
 */
async function serve(dir) {
  const state = { catalog: freshCatalog(), log: [], aborted: [], down: new Set(), hold: null, waiting: [] };
  state.release = () => {
    state.hold = null;
    for (const go of state.waiting.splice(0)) go();
  };
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://x");
    const api = /^\/apis\/plugins\/(\w+)\/packages\/v1alpha1\/availablepackages$/.exec(url.pathname);
    if (api) {
      const plugin = PLUGINS[api[1]];
      const token = url.searchParams.get("paginationOptions.pageToken") ?? "";
      const size = Number(url.searchParams.get("paginationOptions.pageSize"));
      state.log.push({ plugin, token });
      if (state.hold === plugin) {
        const gone = await new Promise((resolve) => {
          state.waiting.push(() => resolve(false));
          res.on("close", () => resolve(!res.writableEnded));
        });
        if (gone) {
          state.aborted.push({ plugin, token });
          return;
        }
      }
      if (state.down.has(plugin)) {
        res.writeHead(403, { "content-type": "application/json" }).end(JSON.stringify({ code: 7, message: "forbidden" }));
        return;
      }
      const names = state.catalog[plugin];
      const offset = Number(token || 0);
      const end = offset + size;
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({
        availablePackageSummaries: names.slice(offset, end).map((n) => summary(plugin, n)),
        nextPageToken: end < names.length ? String(end) : "",
        categories: [plugin === "helm.packages" ? "Database" : "Networking"],
      }));
      return;
    }
    if (url.pathname === "/favicon.ico") return res.writeHead(204).end();
    const rel = url.pathname === "/" ? "index.html" : decodeURIComponent(url.pathname).slice(1);
    const file = path.join(dir, path.normalize(rel));
    const ok = file.startsWith(dir + path.sep) && (await stat(file).then((s) => s.isFile(), () => false));
    if (!ok) return res.writeHead(404).end();
    const type = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm" }[path.extname(file)] ?? "application/octet-stream";
    res.writeHead(200, { "content-type": type, "cache-control": "no-store" });
    createReadStream(file).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${server.address().port}/`;
  state.close = () => new Promise((resolve) => {
    state.release();
    server.closeAllConnections();
    server.close(resolve);
  });
  return state;
}

/** No (plugin, token) asked twice in `log` since `from`: nothing re-read. */
function assertNoReread(log, from = 0) {
  const keys = log.slice(from).map((r) => `${r.plugin} ${r.token}`);
  assert.equal(new Set(keys).size, keys.length, `a chunk fetched twice: ${keys.join(", ")}`);
}

async function open(backend, query, errors) {
  const page = await browser.newPage();
  page.on("pageerror", (e) => errors.push(`pageerror: ${e}`));
  page.on("console", (m) => {
    // The 403s of the scenario with a source down are the browser's own log of them, expected.
    if (m.type() === "error" && !m.location()?.url?.includes("/apis/plugins/kapp_controller/")) errors.push(`console: ${m.text()}`);
  });
  await page.goto(`${backend.url}?${query}`);
  await page.waitForFunction(() => window.probe?.ready);
  return page;
}

const waitFor = (page, fn, arg) => page.waitForFunction(fn, arg, { timeout: 20_000 });
const probeState = (page) => page.evaluate(() => window.probe.state);
const waitUntil = async (check) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 50));
  assert.ok(check(), "timed out");
};

/** TanStack: waits for the query to be idle, then returns its state. */
async function settled(page) {
  await waitFor(page, () => window.probe.state && window.probe.state.status !== "pending" && !window.probe.state.fetching);
  return probeState(page);
}

async function scenarios(t, dir, reactVersion) {
  const backend = await serve(dir);
  const errors = [];
  try {
    const all = expected(backend.catalog);

    await t.test("usePager pages to the end under StrictMode: every item once, in order, one pager, no chunk twice", async () => {
      // Under a hash route with its own query, as Kubeapps' HashRouter: the token must stay out of it.
      const hash = "#/c/default/ns/kubeapps/catalog?Search=pkg";
      const page = await open(backend, `s=hook${hash}`, errors);
      await waitFor(page, () => window.probe.state?.done);
      const probe = await page.evaluate(() => {
        const { react, mounts, state, pagers } = window.probe;
        return { react, mounts, state, pagers };
      });
      assert.equal(probe.react.split(".")[0], String(reactVersion));
      assert.equal(probe.mounts, 2, "StrictMode mounted twice (a development build)");
      assert.deepEqual(probe.state.items, all);
      assert.deepEqual(probe.state.late, []);
      assert.deepEqual(probe.state.categories, ["Database", "Networking"]);
      assert.equal(probe.pagers, 1, "one pager for the double mount");
      assertNoReread(backend.log);
      assert.deepEqual(await page.$$eval("#items li", (lis) => lis.length), all.length);
      // The position is in the URL's search (the last page's start), not in the hash: a reload reopens that page.
      const search = new URL(page.url()).searchParams.get("page");
      assert.match(search, /^7\./);
      assert.equal(new URL(page.url()).hash, hash, "the router's hash and its query unchanged");
      await page.reload();
      await waitFor(page, () => window.probe.state?.done);
      const reopened = await probeState(page);
      assert.equal(reopened.firstIndex, 7);
      assert.deepEqual(reopened.items, all.slice(70));
      await page.evaluate(() => window.probe.hook.loadPrevious());
      await waitFor(page, () => window.probe.state.firstIndex === 6 && !window.probe.state.loading);
      assert.deepEqual((await probeState(page)).items, all.slice(60));
      assert.equal(new URL(page.url()).hash, hash);
      await page.close();
    });

    await t.test("usePager prefetches by default: once a page is shown, the requests loadMore would make first are on their way", async () => {
      // One page shown (stopAfter=10), then loadMore by hand; with and without prefetch.
      const key = (r) => `${r.plugin} ${r.token}`;
      const run = async (query) => {
        const from = backend.log.length;
        const page = await open(backend, query, errors);
        await waitFor(page, () => window.probe.state?.items.length === 10 && !window.probe.state.loading);
        await new Promise((r) => setTimeout(r, 300)); // what goes ahead is asked by now
        const first = backend.log.slice(from).map(key);
        await page.evaluate(() => window.probe.hook.loadMore());
        await waitFor(page, () => window.probe.state.items.length === 20 && !window.probe.state.loading);
        const items = (await probeState(page)).items;
        const all = backend.log.slice(from).map(key);
        await page.close();
        return { first, later: all.slice(first.length), items, from };
      };
      const off = await run("s=hook&stopAfter=10&noPrefetch=1");
      const on = await run("s=hook&stopAfter=10");
      assert.deepEqual(on.items, all.slice(0, 20));
      assert.deepEqual(off.items, on.items);
      // Before loadMore, the prefetching hook asked what the other asked first in loadMore.
      const ahead = on.first.slice(off.first.length);
      assert.deepEqual(on.first.slice(0, off.first.length), off.first);
      assert.ok(ahead.length > 0, JSON.stringify({ on, off }));
      assert.deepEqual([...ahead].sort(), off.later.slice(0, ahead.length).sort());
      assertNoReread(backend.log, on.from);
    });

    await t.test("usePager: a mangled token in the URL starts the list over (no error shown)", async () => {
      const page = await open(backend, "s=hook&page=3.not-a-token", errors);
      await waitFor(page, () => window.probe.state?.done);
      const state = await probeState(page);
      assert.equal(state.error, null);
      assert.equal(state.firstIndex, 0);
      assert.deepEqual(state.items, all);
      assert.match(new URL(page.url()).searchParams.get("page"), /^7\./, "the URL holds this list's position now");
      await page.close();
    });

    await t.test("usePager: unmounting aborts the request in flight and frees the pager", async () => {
      backend.hold = "kapp_controller.packages";
      const from = backend.aborted.length;
      const page = await open(backend, "s=hook-unmount", errors);
      await waitUntil(() => backend.waiting.length > 0);
      await page.evaluate(() => window.probe.unmount());
      await waitUntil(() => backend.aborted.length > from);
      const probe = await page.evaluate(() => ({ pagers: window.probe.pagers, frees: window.probe.frees }));
      assert.equal(probe.pagers, 1);
      assert.ok(probe.frees >= 1, "the pager was freed");
      backend.release();
      await page.close();
    });

    await t.test("usePager: a new filter aborts the old list's request in flight, frees its pager and makes one new pager", async () => {
      backend.hold = "kapp_controller.packages";
      const from = backend.aborted.length;
      const page = await open(backend, "s=hook-unmount", errors);
      await waitUntil(() => backend.waiting.length > 0);
      const before = await page.evaluate(() => ({ pagers: window.probe.pagers, frees: window.probe.frees }));
      backend.hold = null; // the new list's requests are answered
      await page.evaluate(() => window.probe.setQuery("pkg"));
      await waitUntil(() => backend.aborted.length > from);
      await waitFor(page, () => window.probe.state?.items.length > 0 && !window.probe.state.loading);
      const after = await page.evaluate(() => ({ pagers: window.probe.pagers, frees: window.probe.frees, state: window.probe.state }));
      assert.deepEqual([before.pagers, after.pagers], [1, 2], "one pager per list");
      assert.ok(after.frees > before.frees, "the old list's pager was freed");
      assert.deepEqual(after.state.items, all.slice(0, 10));
      backend.release();
      await page.close();
    });

    await t.test("usePager: a source down is named; retryUnreachable brings its items, those the list passed in `late`", async () => {
      backend.down.add("kapp_controller.packages");
      const page = await open(backend, "s=hook", errors);
      await waitFor(page, () => window.probe.state?.done);
      let state = await probeState(page);
      assert.deepEqual(state.unreachable, [KAPP]);
      assert.deepEqual(state.items, all.filter((id) => id.startsWith("helm")));
      backend.down.delete("kapp_controller.packages");
      await page.evaluate(() => window.probe.hook.retryUnreachable());
      await waitFor(page, () => window.probe.state.done && window.probe.state.unreachable.length === 0 && !window.probe.state.loading);
      state = await probeState(page);
      const kapp = all.filter((id) => id.startsWith("kapp"));
      // The list had ended at helm's last item (pkg-088): every kapp item before it comes late.
      assert.deepEqual(state.late, kapp.filter((id) => id < `${KAPP}/repo/pkg-088`));
      assert.deepEqual(state.items, [...all.filter((id) => id.startsWith("helm")), ...kapp.filter((id) => !state.late.includes(id))]);
      assert.equal(new Set([...state.items, ...state.late]).size, all.length, "every item once, in items or late");
      await page.close();
    });

    await t.test("TanStack adapter: pages to the end with one pager, no chunk fetched twice", async () => {
      const from = backend.log.length;
      const page = await open(backend, "s=query", errors);
      for (let state = await settled(page); state.hasNextPage; state = await settled(page)) {
        await page.evaluate(() => window.probe.query.fetchNextPage());
      }
      const state = await probeState(page);
      assert.equal(state.error, null);
      assert.deepEqual(state.pages.flatMap((p) => p.items), all);
      assert.deepEqual(state.pages.map((p) => p.index), [0, 1, 2, 3, 4, 5, 6, 7]);
      assert.equal(state.pagersOpened, 1);
      assert.equal(await page.evaluate(() => window.probe.pagers), 1);
      assertNoReread(backend.log, from);
      await page.close();
    });

    await t.test("TanStack adapter: maxPages 3 keeps three pages; fetchPreviousPage scrolls back to page 0", async () => {
      const page = await open(backend, "s=query&maxPages=3", errors);
      for (let state = await settled(page); state.hasNextPage; state = await settled(page)) {
        assert.ok(state.pages.length <= 3);
        await page.evaluate(() => window.probe.query.fetchNextPage());
      }
      let state = await probeState(page);
      assert.deepEqual(state.pages.map((p) => p.index), [5, 6, 7]);
      const forward = state.pagersOpened;
      assert.equal(forward, 1, "forward pages on one pager");
      while (state.hasPreviousPage) {
        await page.evaluate(() => window.probe.query.fetchPreviousPage());
        state = await settled(page);
        assert.ok(state.pages.length <= 3);
      }
      assert.deepEqual(state.pages.map((p) => p.index), [0, 1, 2]);
      assert.deepEqual(state.pages.flatMap((p) => p.items), all.slice(0, 30));
      assert.equal(state.pagersOpened, forward + 5, "one pager per page scrolled back to");
      await page.close();
    });

    await t.test("TanStack adapter: the query's signal aborts the request in flight; the next fetch works", async () => {
      backend.hold = "helm.packages";
      const from = backend.aborted.length;
      const page = await open(backend, "s=query", errors);
      await waitUntil(() => backend.waiting.length > 0);
      await page.evaluate(() => window.queryClient.cancelQueries());
      await waitUntil(() => backend.aborted.length > from);
      backend.release();
      await page.evaluate(() => window.probe.query.refetch());
      const state = await settled(page);
      assert.equal(state.error, null);
      assert.deepEqual(state.pages.flatMap((p) => p.items), all.slice(0, 10));
      await page.close();
    });

    await t.test("TanStack adapter: refetch after writes shows the list as it is now, each item once", async () => {
      const page = await open(backend, "s=query", errors);
      await settled(page);
      for (let i = 0; i < 2; i++) {
        await page.evaluate(() => window.probe.query.fetchNextPage());
        await settled(page);
      }
      const before = await probeState(page);
      assert.deepEqual(before.pages.flatMap((p) => p.items), all.slice(0, 30));
      // Churn: a package added early in the list, one deleted from the pages shown.
      backend.catalog["helm.packages"].push("pkg-005a");
      backend.catalog["helm.packages"].sort();
      backend.catalog["helm.packages"].splice(backend.catalog["helm.packages"].indexOf("pkg-010"), 1);
      const now = expected(backend.catalog);
      const from = backend.log.length;
      await page.evaluate(() => window.probe.query.refetch());
      const after = await settled(page);
      assert.deepEqual(after.pages.map((p) => p.index), [0, 1, 2]);
      assert.deepEqual(after.pages.flatMap((p) => p.items), now.slice(0, 30), "the refetched pages are the list as it is now");
      assert.equal(after.pagersOpened, before.pagersOpened + 1, "the refetch resumed once (page 0), then went on with that pager");
      assertNoReread(backend.log, from);
      backend.catalog = freshCatalog();
      await page.close();
    });

    assert.deepEqual(errors, [], "no page errors or console errors");
  } finally {
    await backend.close();
  }
}

for (const bundler of ["webpack", "vite"]) {
  for (const version of [18, 19]) {
    test(`${bundler} build, React ${version}, StrictMode: usePager and the TanStack adapter`, async (t) => {
      const env = childEnv({
        NODE_ENV: "development",
        REACT_DIR: REACT[version].react,
        REACT_DOM_DIR: REACT[version].dom,
        ROOT_MODULES,
      });
      let dir;
      if (bundler === "webpack") {
        await run(process.execPath, [BIN.webpack, "--config", path.join(app, "webpack.config.cjs")], { cwd: app, env });
        dir = path.join(app, "build");
        const { copyFile } = await import("node:fs/promises");
        await copyFile(path.join(app, "public", "index.html"), path.join(dir, "index.html"));
      } else {
        await run(process.execPath, [BIN.vite, "build", "--mode", "development", "--outDir", "dist", "--emptyOutDir"], { cwd: app, env });
        dir = path.join(app, "dist");
      }
      await scenarios(t, dir, version);
    });
  }
}

test("Vite dev server with optimizeDeps.exclude (the one line docs/USAGE.md gives), React 19: usePager pages to the end", async () => {
  const backend = await serve(app); // the plugins' REST paths; the dev server proxies /apis to it
  process.env.REACT_DIR = REACT[19].react;
  process.env.REACT_DOM_DIR = REACT[19].dom;
  process.env.ROOT_MODULES = ROOT_MODULES;
  const { createServer: createVite } = await import("vite");
  const vite = await createVite({
    root: app,
    configFile: path.join(app, "vite.config.js"),
    logLevel: "warn",
    optimizeDeps: { exclude: ["kubeapps-pager"] },
    server: {
      host: "127.0.0.1", port: 0, strictPort: false, hmr: false, watch: null,
      proxy: { "/apis": backend.url.replace(/\/$/, "") },
      fs: { allow: [app, ROOT_MODULES] },
    },
  });
  await vite.listen();
  const errors = [];
  try {
    const page = await browser.newPage();
    page.on("pageerror", (e) => errors.push(`pageerror: ${e}`));
    page.on("console", (m) => {
      if (m.type() === "error" && !m.location()?.url?.endsWith("/favicon.ico")) errors.push(`console: ${m.text()} (${m.location()?.url})`);
    });
    await page.goto(`http://127.0.0.1:${vite.httpServer.address().port}/?s=hook`);
    await page.waitForFunction(() => window.probe?.state?.done, null, { timeout: 60_000 });
    const probe = await page.evaluate(() => ({ pagers: window.probe.pagers, mounts: window.probe.mounts, items: window.probe.state.items }));
    assert.deepEqual(probe.items, expected(freshCatalog()));
    assert.equal(probe.mounts, 2, "StrictMode (a development server)");
    assert.equal(probe.pagers, 1);
    assertNoReread(backend.log);
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    await vite.close();
    await backend.close();
  }
});
