// What a Kubeapps dashboard needs of the package (issue 13), on the built package in Node:
// the categories each page carries, errors whose `cause` is the transport's own error and whose
// `userMessage` is for users, the installed-packages list through the same pager and fetcher,
// connectFetcher's mapping of Connect codes (fake clients throwing real ConnectErrors; the
// end-to-end run against the demo's Connect server is connect.test.mjs), the page window with
// scroll back (also from a deep link), the URL token helpers under HashRouter and BrowserRouter
// URLs, and the web build's init called concurrently.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import { ConnectError, Code } from "@connectrpc/connect";
import { pkg, PagerError } from "./support/package.mjs";
import { summary, offsetSource, identity } from "./support/backend.mjs";

const { Pager, kubeappsFetcher, connectFetcher, PageWindow, readPageToken, writePageToken } = pkg;

const HELM = { plugin: "helm.packages", cluster: "default", namespace: "kubeapps" };
const KAPP = { plugin: "kapp_controller.packages", cluster: "default", namespace: "kubeapps" };

/** `n` summaries of `plugin`, named p000…, each in one of the `categories` by turn. */
function items(plugin, n, categories = []) {
  return Array.from({ length: n }, (_, i) =>
    summary(plugin, `p${String(i).padStart(3, "0")}`, { categories: categories.length ? [categories[i % categories.length]] : [] }),
  );
}

/** An offset source whose responses carry `categories()` (a function: what the backend says now). */
function withCategories(source, categories) {
  return { ...source, answer: (r) => ({ ...source.answer(r), categories: categories() }) };
}

// ---- 3. categories ----

test("each page carries the categories the sources reported: merged and per source, latest answer wins", async () => {
  let helmCats = ["Web", "Database"];
  const sources = [
    withCategories(offsetSource(items("helm.packages", 12, ["Web", "Database"])), () => helmCats),
    withCategories(offsetSource(items("kapp_controller.packages", 12, ["CI"])), () => ["CI", "Database"]),
  ];
  const fetchChunk = async (r) => sources[r.sourceIndex].answer(r);
  const pager = new Pager({ sources: [HELM, KAPP], pageSize: 5, chunkLimit: 4 });
  const page = await pager.nextPage(fetchChunk);
  assert.deepEqual(page.categories, ["CI", "Database", "Web"]);
  assert.deepEqual(page.sourceCategories, {
    "helm.packages/default/kubeapps": ["Web", "Database"],
    "kapp_controller.packages/default/kubeapps": ["CI", "Database"],
  });
  // The backend's categories change (a package of a new category was added): the next answer says so.
  helmCats = ["Web", "Database", "Analytics"];
  let later;
  do later = await pager.nextPage(fetchChunk);
  while (!later.done && later.stats.sources[0].requests === 0);
  assert.deepEqual(later.categories, ["Analytics", "CI", "Database", "Web"]);
  pager.free();
});

test("categories: a refused answer changes none; a Kubernetes List and an installed list report none", () => {
  const pager = new Pager({ sources: [HELM], pageSize: 3, chunkLimit: 2 });
  let [r] = pager.nextRequests();
  pager.feed(r.requestId, { availablePackageSummaries: items("helm.packages", 2), nextPageToken: "2", categories: ["A"] });
  [r] = pager.nextRequests();
  assert.throws(
    () => pager.feed(r.requestId, { availablePackageSummaries: [], nextPageToken: "", categories: ["B", 7] }),
    (e) => e instanceof PagerError && e.code === "INVALID_RESPONSE" && /categories\[1\]/.test(e.message),
  );
  // A List (no categories field) keeps what the source said before.
  pager.feed(r.requestId, { items: [items("helm.packages", 4)[2]], metadata: { continue: "" } });
  while (!pager.pageReady()) for (const q of pager.nextRequests()) pager.feed(q.requestId, { items: [], metadata: {} });
  const page = pager.takePage();
  assert.deepEqual(page.categories, ["A"]);

  const installed = new Pager({ sources: [HELM], pageSize: 3 });
  [r] = installed.nextRequests();
  installed.feed(r.requestId, { installedPackageSummaries: [], nextPageToken: "" });
  const none = installed.takePage();
  assert.deepEqual([none.categories, none.sourceCategories], [[], {}]);
  pager.free();
  installed.free();
});

// ---- 7. installed packages ----

/** An InstalledPackageSummary as the REST gateway sends it. */
function installedSummary(plugin, release, pkgDisplayName) {
  return {
    installedPackageRef: { context: { cluster: "default", namespace: "kubeapps" }, identifier: release, plugin: { name: plugin, version: "v1alpha1" } },
    name: release,
    pkgDisplayName,
    currentVersion: { pkgVersion: "1.0.0", appVersion: "1.0" },
    status: { ready: true, reason: "STATUS_REASON_INSTALLED", userReason: "Deployed" },
  };
}

/** A local HTTP server; `handle(req, url)` answers `{ status, body }`. Resolves with `{ url, requests, close }`. */
async function serve(handle) {
  const requests = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url, "http://x");
    requests.push(url);
    const { status, body } = handle(req, url);
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, requests, close: () => new Promise((r) => server.close(r)) };
}

test("installed packages: kubeappsFetcher({ list: 'installed' }) pages GetInstalledPackageSummaries of two plugins, merged by release name", async () => {
  const lists = {
    helm: Array.from({ length: 23 }, (_, i) => installedSummary("helm.packages", `rel-${String(i * 2).padStart(2, "0")}`, `App ${i}`)),
    kapp_controller: Array.from({ length: 9 }, (_, i) => installedSummary("kapp_controller.packages", `rel-${String(i * 5 + 1).padStart(2, "0")}`, `Kapp ${i}`)),
  };
  const server = await serve((req, url) => {
    const m = /^\/apis\/plugins\/(\w+)\/packages\/v1alpha1\/installedpackages$/.exec(url.pathname);
    if (!m) return { status: 404, body: { code: 5, message: "no route" } };
    const list = lists[m[1]];
    const offset = Number(url.searchParams.get("paginationOptions.pageToken") || 0);
    const size = Number(url.searchParams.get("paginationOptions.pageSize"));
    const end = Math.min(offset + size, list.length);
    return { status: 200, body: { installedPackageSummaries: list.slice(offset, end), nextPageToken: end < list.length ? String(end) : "" } };
  });
  try {
    const fetchChunk = kubeappsFetcher({ baseUrl: `${server.url}/apis`, list: "installed" });
    const pager = new Pager({ sources: [HELM, KAPP], pageSize: 7, chunkLimit: 5 });
    const seen = [];
    for (let page = await pager.nextPage(fetchChunk); ; page = await pager.nextPage(fetchChunk)) {
      seen.push(...page.items);
      if (page.done) break;
    }
    const expected = [...lists.helm, ...lists.kapp_controller].map((s) => s.name).sort();
    assert.deepEqual(seen.map((s) => s.name), expected, "every release once, by name");
    assert.ok(seen.every((s) => s.installedPackageRef), "the very installed summaries");
    assert.ok(server.requests.every((u) => u.pathname.endsWith("/installedpackages")));
    pager.free();
  } finally {
    await server.close();
  }
});

// ---- 5. errors ----

test("SOURCE_FAILED from kubeappsFetcher: cause is the Response (one step), details name the source, userMessage is for users", async () => {
  const server = await serve(() => ({ status: 401, body: { code: 16, message: "Unauthorized: token expired" } }));
  try {
    const pager = new Pager({ sources: [HELM] });
    const error = await pager.nextPage(kubeappsFetcher({ baseUrl: `${server.url}/apis` })).then(() => null, (e) => e);
    assert.ok(error instanceof PagerError && error.code === "SOURCE_FAILED");
    assert.ok(error.cause instanceof Response, "the fetch Response itself");
    assert.equal(error.cause.status, 401);
    assert.equal(error.details.cause, error.cause);
    assert.equal(error.details.status, 401);
    assert.equal(error.details.source, "helm.packages/default/kubeapps");
    assert.match(error.details.url, /\/apis\/plugins\/helm\/packages\/v1alpha1\/availablepackages\?/);
    assert.deepEqual(error.details.body, { code: 16, message: "Unauthorized: token expired" });
    assert.match(error.message, /helm\.packages\/default\/kubeapps failed \(status 401: GET .*token expired/);
    assert.match(error.userMessage, /sign in/i);
    assert.doesNotMatch(error.userMessage, /http|apis|helm|401/i, "no URL, status or internal names");
    pager.free();
  } finally {
    await server.close();
  }
});

test("SOURCE_FAILED with no answer: cause is the network error; a fetchChunk's own Kubernetes Status is the cause as it is", async () => {
  const server = await serve(() => ({ status: 200, body: {} }));
  await server.close(); // nothing listens there now
  const pager = new Pager({ sources: [HELM] });
  const error = await pager.nextPage(kubeappsFetcher({ baseUrl: `${server.url}/apis` })).catch((e) => e);
  assert.equal(error.code, "SOURCE_FAILED");
  assert.ok(error.cause instanceof TypeError, `the fetch TypeError, not ${error.cause}`);
  assert.equal(error.details.status, 0);
  assert.match(error.userMessage, /could not be reached/);

  const status = { kind: "Status", apiVersion: "v1", code: 403, reason: "Forbidden", message: "packagemetadatas is forbidden" };
  // A 403 fails for good (issue 15): the page names the source, with the Status as it came.
  const denied = await pager.nextPage(() => Promise.reject(status));
  const [u] = denied.unreachable;
  assert.equal(u.error, status);
  assert.deepEqual([u.status, u.reason, u.source], [403, "Forbidden", "helm.packages/default/kubeapps"]);
  // Codes other than SOURCE_FAILED have user texts too, apart from their developer messages.
  const invalid = (() => {
    try {
      Pager.resume("not a token", { sources: [HELM] });
    } catch (e) {
      return e;
    }
  })();
  assert.equal(invalid.code, "INVALID_PAGE_TOKEN");
  assert.notEqual(invalid.userMessage, invalid.message);
  assert.match(invalid.userMessage, /not valid/);
  pager.free();
});

// ---- issue 12 point 4: connectFetcher ----

/** A fake Connect client of one plugin: answers from `source`, or throws `fail()`'s error when it gives one. */
function fakeClient(source, fail = () => undefined, calls = []) {
  const answer = async (request, options) => {
    calls.push({ request, options });
    const e = fail();
    if (e) throw e;
    const r = source.answer({ pageToken: request.paginationOptions.pageToken, limit: request.paginationOptions.pageSize });
    return r;
  };
  return { getAvailablePackageSummaries: answer, getInstalledPackageSummaries: answer };
}

test("connectFetcher: sends context and paginationOptions with the signal and callOptions, pages to the end", async () => {
  const helm = offsetSource(items("helm.packages", 17));
  const kapp = offsetSource(items("kapp_controller.packages", 8));
  const calls = [];
  const fetchChunk = connectFetcher({
    clients: { "helm.packages": fakeClient(helm, undefined, calls), "kapp_controller.packages": fakeClient(kapp, undefined, calls) },
    callOptions: { timeoutMs: 1234, headers: { authorization: "Bearer t" } },
  });
  const pager = new Pager({ sources: [HELM, KAPP], pageSize: 6, chunkLimit: 4 });
  const controller = new AbortController();
  const seen = [];
  for (;;) {
    const page = await pager.nextPage(fetchChunk, { signal: controller.signal });
    seen.push(...page.items.map(identity));
    if (page.done) break;
  }
  assert.deepEqual(seen.sort(), [...helm.list, ...kapp.list].map(identity).sort());
  assert.deepEqual(calls[0].request, { context: { cluster: "default", namespace: "kubeapps" }, paginationOptions: { pageToken: "", pageSize: 4 } });
  assert.equal(calls[0].options.signal, controller.signal);
  assert.equal(calls[0].options.timeoutMs, 1234);
  assert.deepEqual(calls[0].options.headers, { authorization: "Bearer t" });
  pager.free();
});

test("connectFetcher maps each Connect code to its HTTP status (grpc-gateway's) and keeps the ConnectError as cause", async () => {
  const table = [
    [Code.Canceled, 499], [Code.Unknown, 500], [Code.InvalidArgument, 400], [Code.DeadlineExceeded, 504],
    [Code.NotFound, 404], [Code.AlreadyExists, 409], [Code.PermissionDenied, 403], [Code.ResourceExhausted, 429],
    [Code.FailedPrecondition, 400], [Code.Aborted, 409], [Code.OutOfRange, 400], [Code.Unimplemented, 501],
    [Code.Internal, 500], [Code.Unavailable, 503], [Code.DataLoss, 500], [Code.Unauthenticated, 401],
  ];
  const helm = offsetSource(items("helm.packages", 3));
  for (const [code, status] of table) {
    const thrown = new ConnectError(`plugin says ${Code[code]}`, code);
    const fetchChunk = connectFetcher({ clients: { "helm.packages": fakeClient(helm, () => thrown) } });
    const pager = new Pager({ sources: [HELM] });
    if ([404, 403, 501, 400].includes(status)) {
      // Fails for good (issue 15; a 400 at the list's start, where no position can have vanished:
      // the request itself refused): no rejection; the page names the source, with the failure.
      const page = await pager.nextPage(fetchChunk);
      assert.deepEqual(page.unreachable.map((u) => [u.source, u.status]), [["helm.packages/default/kubeapps", status]], Code[code]);
      const error = page.unreachable[0].error;
      assert.equal(error.code, "SOURCE_FAILED", Code[code]);
      assert.equal(error.cause, thrown, "the ConnectError itself, one step away");
      assert.equal(pager.retryUnreachable(), 1);
      const again = await pager.nextPage(connectFetcher({ clients: { "helm.packages": fakeClient(helm) } }));
      assert.equal(again.items.length, 3);
      pager.free();
      continue;
    }
    const error = await pager.nextPage(fetchChunk).catch((e) => e);
    assert.equal(error.code, "SOURCE_FAILED", Code[code]);
    assert.equal(error.details.status, status, Code[code]);
    assert.equal(error.cause, thrown, "the ConnectError itself, one step away");
    assert.equal(error.details.source, "helm.packages/default/kubeapps");
    assert.match(error.details.connectCode, /^[a-z_]+$/);
    assert.match(error.message, new RegExp(`plugin says ${Code[code]}`));
    // The pager is unchanged: the next call retries and goes on.
    const page = await pager.nextPage(connectFetcher({ clients: { "helm.packages": fakeClient(helm) } }));
    assert.equal(page.items.length, 3);
    pager.free();
  }
  const pager = new Pager({ sources: [HELM] });
  const unauth = await pager
    .nextPage(connectFetcher({ clients: { "helm.packages": fakeClient(helm, () => new ConnectError("expired", Code.Unauthenticated)) } }))
    .catch((e) => e);
  assert.equal(unauth.details.connectCode, "unauthenticated");
  assert.match(unauth.userMessage, /sign in/i);
  pager.free();
});

test("connectFetcher honours the abort signal (ABORTED, the call's signal aborted); bad options are INVALID_OPTIONS", async () => {
  let seenSignal;
  const slow = {
    getAvailablePackageSummaries: (req, { signal }) =>
      new Promise((_, reject) => {
        seenSignal = signal;
        signal.addEventListener("abort", () => reject(new ConnectError("canceled", Code.Canceled)));
      }),
  };
  const pager = new Pager({ sources: [HELM] });
  const controller = new AbortController();
  const pending = pager.nextPage(connectFetcher({ clients: { "helm.packages": slow } }), { signal: controller.signal });
  await new Promise((r) => setTimeout(r, 10));
  controller.abort("filter changed");
  const error = await pending.catch((e) => e);
  assert.equal(error.code, "ABORTED");
  assert.equal(error.details.reason, "filter changed");
  assert.ok(seenSignal.aborted);
  pager.free();

  const invalid = (f) => assert.throws(f, (e) => e instanceof PagerError && e.code === "INVALID_OPTIONS");
  invalid(() => connectFetcher({}));
  invalid(() => connectFetcher({ clients: { "helm.packages": {} } }));
  invalid(() => connectFetcher({ clients: { "helm.packages": slow }, list: "deployed" }));
  invalid(() => connectFetcher({ clients: { "helm.packages": slow }, baseUrl: "/apis" }));
  // A source whose plugin has no client fails as that source.
  const lonely = new Pager({ sources: [KAPP] });
  const none = await lonely.nextPage(connectFetcher({ clients: { "helm.packages": slow } })).catch((e) => e);
  assert.equal(none.code, "SOURCE_FAILED");
  assert.match(none.message, /no client for plugin "kapp_controller\.packages"/);
  lonely.free();
});

// ---- 4. the page window and the URL ----

function windowFixture({ n = 53, pageSize = 5 } = {}) {
  const helm = offsetSource(items("helm.packages", n));
  let requests = 0;
  const fetchChunk = async (r) => {
    requests++;
    return helm.answer(r);
  };
  const options = { sources: [HELM], pageSize, chunkLimit: 7 };
  const open = (t) => (t ? Pager.resume(t, options) : new Pager(options));
  return { helm, fetchChunk, open, requests: () => requests };
}

test("PageWindow: at most maxPages pages in memory; scrolling back re-fetches earlier pages from their tokens", async () => {
  const { helm, fetchChunk, open } = windowFixture();
  const win = new PageWindow({ open, fetchChunk, maxPages: 3 });
  const forward = [];
  for (let w; (w = await win.next()); ) {
    forward[w.index] = w.page.items.map(identity);
    assert.ok(win.pages.length <= 3, "bounded");
    assert.deepEqual(win.pages.map((p) => p.index), Array.from({ length: win.pages.length }, (_, k) => w.index - win.pages.length + 1 + k));
  }
  assert.ok(win.done);
  assert.deepEqual(forward.flat(), helm.list.map(identity), "every item once, in order");
  assert.equal(forward.length, 11);
  // Back to the top: each page again, the same items, the window still bounded.
  for (let w; (w = await win.previous()); ) {
    assert.deepEqual(w.page.items.map(identity), forward[w.index], `page ${w.index}`);
    assert.ok(win.pages.length <= 3);
  }
  assert.ok(win.atStart);
  assert.equal(win.first, 0);
  // And down again, from the kept tokens.
  const again = await win.next();
  assert.equal(again.index, 3);
  assert.deepEqual(again.page.items.map(identity), forward[3]);
  win.free();
});

test("PageWindow from a deep link: with the earlier tokens (history.state) no walk; without them one walk from the start", async () => {
  const { fetchChunk, open, requests } = windowFixture();
  const first = new PageWindow({ open, fetchChunk, maxPages: 2 });
  const forward = [];
  for (let w; (w = await first.next()) && w.index < 7; ) forward[w.index] = w.page.items.map(identity);
  // The window now shows pages 6 and 7; the URL holds page 6's position.
  const position = first.position();
  assert.equal(position.index, 6);
  assert.equal(position.earlier.length, 6);
  first.free();

  // A reload: history.state kept the earlier tokens.
  const reloaded = new PageWindow({ open, fetchChunk, maxPages: 2, at: position });
  assert.equal((await reloaded.next()).index, 6);
  let before = requests();
  const back = await reloaded.previous();
  assert.deepEqual([back.index, back.page.items.map(identity)], [5, forward[5]]);
  const oneFetch = requests() - before;
  reloaded.free();

  // A shared link: only the index and the token.
  const linked = new PageWindow({ open, fetchChunk, maxPages: 2, at: { index: 6, token: position.token } });
  const shown = await linked.next();
  assert.deepEqual([shown.index, shown.page.items.map(identity)], [6, forward[6]]);
  before = requests();
  const walkedBack = await linked.previous();
  assert.deepEqual([walkedBack.index, walkedBack.page.items.map(identity)], [5, forward[5]]);
  assert.ok(requests() - before > oneFetch, "the first step back walked the list from the start");
  for (let w; (w = await linked.previous()); ) assert.deepEqual(w.page.items.map(identity), forward[w.index]);
  assert.ok(linked.atStart);
  assert.equal(linked.position().earlier.length, 0);
  linked.free();
  assert.throws(() => new PageWindow({ open, fetchChunk, at: { index: 1, token: "x", earlier: ["", "y"] } }), (e) => e.code === "INVALID_OPTIONS");
  assert.throws(() => new PageWindow({ open, fetchChunk, at: { index: 2, token: "" } }), (e) => e.details.field === "at.token");
  assert.throws(() => new PageWindow({ open, fetchChunk, maxPages: 0 }), (e) => e.details.field === "maxPages");
});

/** A page's location and history, as a browser has them, for the URL helpers. */
function browserLike(href, state = null) {
  const history = {
    state,
    calls: 0,
    replaceState(s, _unused, url) {
      this.calls++;
      this.state = s;
      location.href = String(url);
    },
  };
  const location = { href };
  return { location, history };
}

test("writePageToken/readPageToken under a HashRouter URL: the token goes into the hash's query, the router's state is kept", () => {
  const { location, history } = browserLike("https://kubeapps.example/#/c/default/ns/kubeapps/catalog?Search=sql", { usr: null, key: "k1", idx: 4 });
  const href = writePageToken({ index: 3, token: "AbC-_9", earlier: ["", "t1", "t2"] }, { location, history });
  assert.equal(href, "https://kubeapps.example/#/c/default/ns/kubeapps/catalog?Search=sql&page=3.AbC-_9");
  assert.equal(history.calls, 1);
  assert.deepEqual([history.state.usr, history.state.key, history.state.idx], [null, "k1", 4], "React Router's own state untouched");
  assert.deepEqual(readPageToken({ location, history }), { index: 3, token: "AbC-_9", earlier: ["", "t1", "t2"] });
  // A shared link: the same URL, no history.state.
  assert.deepEqual(readPageToken({ location, history: { state: null } }), { index: 3, token: "AbC-_9", earlier: [] });
  // Back at the top: the parameter goes, the rest stays.
  writePageToken({ index: 0, token: "" }, { location, history });
  assert.equal(location.href, "https://kubeapps.example/#/c/default/ns/kubeapps/catalog?Search=sql");
  assert.equal(readPageToken({ location, history }), null);
});

test("writePageToken/readPageToken under a BrowserRouter URL: the search, a plain #anchor kept; a bare token reads as index 0", () => {
  const { location, history } = browserLike("https://x.example/catalog?q=db#top");
  writePageToken({ index: 12, token: "tok" }, { location, history });
  assert.equal(location.href, "https://x.example/catalog?q=db&page=12.tok#top");
  assert.deepEqual(readPageToken({ location, history }), { index: 12, token: "tok", earlier: [] });
  assert.deepEqual(readPageToken({ location: { href: "https://x.example/catalog?page=bare_token" }, history }), { index: 0, token: "bare_token", earlier: [] });
  assert.deepEqual(readPageToken({ location: { href: "https://x.example/#/apps?page=2.t" }, history: { state: null }, param: "page" }), { index: 2, token: "t", earlier: [] });
});

test("place: \"search\" under a HashRouter URL: the token goes before the #, where the router never reads it", () => {
  const { location, history } = browserLike("https://kubeapps.example/#/c/default/ns/kubeapps/catalog?Search=sql", { key: "k1" });
  writePageToken({ index: 2, token: "t2", earlier: ["", "t1"] }, { location, history, place: "search" });
  assert.equal(location.href, "https://kubeapps.example/?page=2.t2#/c/default/ns/kubeapps/catalog?Search=sql", "the hash, the router's, unchanged");
  assert.equal(history.state.key, "k1");
  assert.deepEqual(readPageToken({ location, history, place: "search" }), { index: 2, token: "t2", earlier: ["", "t1"] });
  assert.equal(readPageToken({ location, history }), null, "the default reads the hash's query, which has none");
  writePageToken({ index: 0, token: "" }, { location, history, place: "search" });
  assert.equal(location.href, "https://kubeapps.example/#/c/default/ns/kubeapps/catalog?Search=sql");
  assert.throws(() => readPageToken({ location, history, place: "hash" }), (e) => e.code === "INVALID_OPTIONS" && e.details.field === "place");
});

test("PageWindow.retryUnreachable: after a last page without a source, the retried source's items come (late ones flagged), none twice", async () => {
  const helm = offsetSource(items("helm.packages", 12));
  const kapp = offsetSource(items("kapp_controller.packages", 6));
  let kappDown = true;
  const fetchChunk = async (request, init) => {
    if (request.source.plugin === KAPP.plugin && kappDown) throw Object.assign(new Error("forbidden"), { status: 403 });
    return (request.source.plugin === HELM.plugin ? helm : kapp).answer(request, init);
  };
  const options = { sources: [HELM, KAPP], pageSize: 5, chunkLimit: 5 };
  const win = new PageWindow({ open: (t) => (t ? Pager.resume(t, options) : new Pager(options)), fetchChunk });
  assert.equal(win.retryUnreachable(), 0, "no pager yet");
  const shown = [];
  let last;
  for (let w; (w = await win.next()); last = w) shown.push(...w.page.items.map(identity));
  assert.ok(win.done);
  assert.deepEqual(last.page.unreachable.map((u) => u.source), ["kapp_controller.packages/default/kubeapps"]);
  assert.equal(shown.length, 12);
  kappDown = false;
  assert.equal(win.retryUnreachable(), 1);
  assert.equal(win.done, false, "the list is open again");
  let late = 0;
  for (let w; (w = await win.next()); ) {
    shown.push(...w.page.items.map(identity));
    late += w.page.stats.lateItems;
  }
  assert.equal(new Set(shown).size, 18, "every item once");
  assert.ok(late > 0, "the items the list went past came late");
  win.free();
});

// ---- 6. lazy init ----

test("the web build's init: concurrent and repeated calls instantiate the wasm once; a failed init is retried", async () => {
  const wasm = readFileSync(new URL("../../pkg/web/kubeapps_pager_bg.wasm", import.meta.url));
  const original = WebAssembly.instantiate;
  let instantiations = 0;
  WebAssembly.instantiate = function (...args) {
    instantiations++;
    return original.apply(this, args);
  };
  try {
    // A module instance of its own (the query), as a route's first load would get.
    const web = await import(`../../pkg/web/index.js?lazy-${Date.now()}`);
    await assert.rejects(web.default({ module_or_path: new Uint8Array([0, 97, 115, 109, 9, 9, 9, 9]) }));
    assert.equal(instantiations, 1);
    const results = await Promise.all([web.default({ module_or_path: wasm }), web.init({ module_or_path: wasm }), web.default({ module_or_path: wasm })]);
    assert.equal(instantiations, 2, "one more instantiation for three concurrent calls");
    assert.ok(results.every((r) => r === results[0]));
    assert.equal(await web.default(), results[0], "a later call, even without input, is the same");
    assert.equal(instantiations, 2);
    const pager = new web.Pager({ sources: [HELM] });
    assert.equal(pager.nextRequests().length, 1);
    pager.free();
  } finally {
    WebAssembly.instantiate = original;
  }
});
