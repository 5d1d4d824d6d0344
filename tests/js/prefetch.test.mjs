// nextPage's `prefetch` through the public path: kubeappsFetcher over a local REST gateway, and a
// plain fetchChunk. The next page served from prefetched answers makes no request of its own; an
// abort of the next call, free() and a failure of a prefetched request behave as without prefetch.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { pkg, PagerError } from "./support/package.mjs";
import { summary, offsetSource, continueSource, identity } from "./support/backend.mjs";

const { Pager, kubeappsFetcher } = pkg;

// A prefetch failure must never surface outside a call.
const unhandled = [];
process.on("unhandledRejection", (e) => unhandled.push(e));

// Names that interleave across the two sources: pkg-000-a, pkg-000-b, pkg-001-a…
const names = (n, tag) => Array.from({ length: n }, (_, i) => `pkg-${String(i).padStart(3, "0")}-${tag}`);

/** helm (offsets) and kapp (continue tokens), 12 items each, page 4, chunks of 4. */
function catalog() {
  return {
    helm: offsetSource(names(12, "a").map((n) => summary("helm.packages", n, { repo: "bitnami" }))),
    kapp_controller: continueSource(names(12, "b").map((n) => summary("kapp_controller.packages", n, { repo: "tce" }))),
  };
}

const options = {
  sources: [
    { plugin: "helm.packages", cluster: "default", namespace: "kubeapps", kind: "kubeapps" },
    { plugin: "kapp_controller.packages", cluster: "default", namespace: "kubeapps", kind: "kubernetes" },
  ],
  pageSize: 4,
  chunkLimit: 4,
};

/**
 * The REST gateway over `catalog()`. `g.failNext(status)`: the next request it gets (whichever
 * source's) fails with `status`; `g.failed` names that request's plugin.
 */
async function gateway() {
  const sources = catalog();
  const counts = {};
  const g = {};
  const server = createServer((req, res) => {
    const url = new URL(req.url, "http://x");
    const plugin = url.pathname.split("/")[3];
    counts[plugin] = (counts[plugin] ?? 0) + 1;
    const status = g.fault;
    if (status) [g.fault, g.failed] = [undefined, plugin];
    res.writeHead(status ?? 200, { "content-type": "application/json" });
    if (status) return res.end(JSON.stringify({ code: status, message: "injected" }));
    const request = {
      pageToken: url.searchParams.get("paginationOptions.pageToken") ?? "",
      limit: Number(url.searchParams.get("paginationOptions.pageSize")),
    };
    res.end(JSON.stringify(sources[plugin].answer(request)));
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const fetchChunk = kubeappsFetcher({ baseUrl: `http://127.0.0.1:${server.address().port}/apis` });
  return Object.assign(g, {
    fetchChunk,
    counts,
    failNext: (status) => (g.fault = status),
    close: () => new Promise((r) => server.close(r)),
  });
}

/**
 * Pages the whole list, `prefetch` given to every call; per page its items, its token, and how
 * many fetchChunk calls the call itself made (with its own signal: requests sent ahead carry
 * their own).
 */
async function pageAll(pager, fetchChunk, prefetch) {
  const pages = [];
  let current;
  const logged = (request, init) => {
    if (init.signal === current) pages.at(-1).asked++;
    return fetchChunk(request, init);
  };
  for (let i = 0; i < 50; i++) {
    current = new AbortController().signal;
    pages.push({ asked: 0 });
    const page = await pager.nextPage(logged, { signal: current, prefetch, retry: { baseDelayMs: 1 } });
    Object.assign(pages.at(-1), { items: page.items.map(identity), token: page.nextPageToken, stats: page.stats });
    if (page.done) return pages;
  }
  throw new Error("never done");
}

test("with prefetch, each next page is served from answers fetched ahead: no request of its own; the same pages and tokens", async () => {
  const g = await gateway();
  try {
    const plain = await pageAll(new Pager(options), g.fetchChunk, false);
    const before = { ...g.counts };
    const pager = new Pager(options);
    const ahead = await pageAll(pager, g.fetchChunk, true);
    assert.deepEqual(ahead.map((p) => p.items), plain.map((p) => p.items));
    assert.deepEqual(ahead.map((p) => p.token), plain.map((p) => p.token));
    assert.equal(ahead.flatMap((p) => p.items).length, 24);
    // Page 1 asks; every later page was waiting in answers fetched ahead.
    assert.ok(ahead[0].asked > 0);
    assert.deepEqual(ahead.slice(1).map((p) => p.asked), ahead.slice(1).map(() => 0));
    const stats = pager.stats;
    assert.ok(stats.prefetchedRequests > 0, JSON.stringify(stats));
    assert.ok(stats.prefetchedItems > 0);
    assert.equal(stats.prefetchesCancelled, 0);
    // Nothing asked twice: the prefetched requests are the ones the plain run made.
    const withPrefetch = Object.fromEntries(Object.entries(g.counts).map(([k, v]) => [k, v - before[k]]));
    assert.deepEqual(withPrefetch, before);
    assert.equal(stats.requests, before.helm + before.kapp_controller);
    pager.free();
  } finally {
    await g.close();
  }
  assert.deepEqual(unhandled, []);
});

test("resuming from each page token gives the same page with and without prefetch", async () => {
  const g = await gateway();
  try {
    const plain = await pageAll(new Pager(options), g.fetchChunk, false);
    for (let i = 0; i + 1 < plain.length; i++) {
      const a = Pager.resume(plain[i].token, options);
      const b = Pager.resume(plain[i].token, options);
      const pa = await a.nextPage(g.fetchChunk);
      const pb = await b.nextPage(g.fetchChunk, { prefetch: true });
      const pb2 = await b.nextPage(g.fetchChunk, { prefetch: true });
      const pa2 = await a.nextPage(g.fetchChunk);
      assert.deepEqual(pb.items.map(identity), pa.items.map(identity));
      assert.equal(pb.nextPageToken, pa.nextPageToken);
      assert.deepEqual(pb2.items.map(identity), pa2.items.map(identity));
      assert.equal(pb2.nextPageToken, pa2.nextPageToken);
      assert.deepEqual(pa.items.map(identity), plain[i + 1].items);
      a.free();
      b.free();
    }
  } finally {
    await g.close();
  }
});

/** A plain fetchChunk over `catalog()` whose requests wait for `release()`; records each signal. */
function held() {
  const sources = [catalog().helm, catalog().kapp_controller];
  const waiting = [];
  const fetchChunk = (request, init) =>
    new Promise((resolve, reject) => {
      const entry = { request, signal: init.signal, go: () => resolve(sources[request.sourceIndex].answer(request)) };
      waiting.push(entry);
      init.signal?.addEventListener("abort", () => reject(Object.assign(new Error("aborted"), { name: "AbortError" })));
    });
  const releaseAll = () => {
    for (const w of waiting.splice(0)) w.go();
  };
  return { fetchChunk, waiting, releaseAll };
}

/** Page 1 with prefetch, its requests answered; returns the requests sent ahead (held). */
async function firstPageThenAhead(pager, h) {
  const first = pager.nextPage(h.fetchChunk, { prefetch: true });
  while (h.waiting.length === 0) await new Promise((r) => setImmediate(r));
  // Answer page 1's rounds until it resolves; what is asked after that went ahead.
  let done = false;
  first.then(() => (done = true));
  while (!done) {
    h.releaseAll();
    await new Promise((r) => setImmediate(r));
  }
  const page = await first;
  assert.ok(h.waiting.length > 0, "something went ahead");
  return { page, ahead: h.waiting.slice() };
}

test("aborting the next call cancels the requests sent ahead; the call after asks them again", async () => {
  const h = held();
  const pager = new Pager(options);
  const { ahead } = await firstPageThenAhead(pager, h);
  const controller = new AbortController();
  const next = pager.nextPage(h.fetchChunk, { signal: controller.signal, prefetch: true });
  await new Promise((r) => setImmediate(r));
  controller.abort();
  await assert.rejects(next, (e) => e instanceof PagerError && e.code === "ABORTED");
  assert.ok(ahead.every((w) => w.signal.aborted), "their fetch's signal aborted");
  assert.equal(pager.stats.prefetchesCancelled, ahead.length);
  h.waiting.length = 0;
  // The same page as without prefetch: the requests are asked again.
  const again = pager.nextPage(h.fetchChunk);
  while (h.waiting.length === 0) await new Promise((r) => setImmediate(r));
  assert.deepEqual(h.waiting.map((w) => [w.request.sourceIndex, w.request.pageToken]), ahead.map((w) => [w.request.sourceIndex, w.request.pageToken]));
  let settled = false;
  again.finally(() => (settled = true)).catch(() => {});
  while (!settled) {
    h.releaseAll();
    await new Promise((r) => setImmediate(r));
  }
  const page = await again;
  const reference = new Pager(options);
  const g = await gateway();
  try {
    await reference.nextPage(g.fetchChunk);
    assert.deepEqual(page.items.map(identity), (await reference.nextPage(g.fetchChunk)).items.map(identity));
  } finally {
    await g.close();
  }
  pager.free();
  reference.free();
});

test("free() aborts the requests sent ahead", async () => {
  const h = held();
  const pager = new Pager(options);
  const { ahead } = await firstPageThenAhead(pager, h);
  assert.ok(ahead.every((w) => !w.signal.aborted));
  pager.free();
  assert.ok(ahead.every((w) => w.signal.aborted));
  assert.deepEqual(unhandled, []);
});

/** Page 1 with prefetch, the request it sends ahead failing with `status` (arrives after the call). */
async function firstPageAheadFailing(g, status) {
  const pager = new Pager(options);
  const first = await pager.nextPage(g.fetchChunk, { prefetch: true });
  // The request sent ahead reaches the server after the call settled (a macrotask later).
  g.failNext(status);
  const before = Object.values(g.counts).reduce((a, b) => a + b);
  for (let i = 0; i < 100 && g.failed === undefined; i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(g.failed, "a request went ahead and failed");
  assert.ok(Object.values(g.counts).reduce((a, b) => a + b) > before, "asked after the call settled");
  assert.equal(pager.stats.prefetchedRequests, 0, "counted once answered or failed: not yet");
  // Its failure surfaces nowhere until the next call.
  await new Promise((r) => setTimeout(r, 20));
  return { pager, first };
}

/** The label prefix of the gateway plugin path `plugin` (`helm` → `helm.packages`). */
const pluginOf = (path) => `${path}.packages`;

test("a transient failure of a request sent ahead is met by the next call and retried there", async () => {
  const g = await gateway();
  try {
    const reference = new Pager(options);
    await reference.nextPage(g.fetchChunk);
    const want = await reference.nextPage(g.fetchChunk);
    const { pager } = await firstPageAheadFailing(g, 503);
    const page = await pager.nextPage(g.fetchChunk, { prefetch: true, retry: { baseDelayMs: 1 } });
    assert.deepEqual(page.items.map(identity), want.items.map(identity));
    assert.equal(page.nextPageToken, want.nextPageToken);
    const failedIndex = options.sources.findIndex((s) => s.plugin === pluginOf(g.failed));
    // Counted once, as any failed request: the failure and the retry that answered.
    assert.ok(page.stats.sources[failedIndex].requests >= 2);
    pager.free();
    reference.free();
  } finally {
    await g.close();
  }
  assert.deepEqual(unhandled, []);
});

test("a request sent ahead that fails for good sets its source aside in the next call, with the failure as error, once", async () => {
  const g = await gateway();
  try {
    const { pager } = await firstPageAheadFailing(g, 403);
    const page = await pager.nextPage(g.fetchChunk, { prefetch: true });
    assert.equal(page.unreachable.length, 1);
    assert.ok(page.unreachable[0].source.startsWith(pluginOf(g.failed)), JSON.stringify(page.unreachable[0]));
    assert.equal(page.unreachable[0].error?.code, "SOURCE_FAILED");
    assert.equal(page.unreachable[0].error?.details.status, 403);
    assert.equal(page.stats.unreachable, 1);
    // Reported once: the page after does not count it again.
    const after = await pager.nextPage(g.fetchChunk, { prefetch: true });
    assert.equal(after.stats.unreachable, 0);
    assert.equal(pager.stats.unreachable, 1);
    pager.free();
  } finally {
    await g.close();
  }
  assert.deepEqual(unhandled, []);
});

test("a request sent ahead that fails (retries off) rejects the next call with SOURCE_FAILED, once; the call after goes on", async () => {
  const g = await gateway();
  try {
    const { pager, first } = await firstPageAheadFailing(g, 500);
    await assert.rejects(
      pager.nextPage(g.fetchChunk, { prefetch: true, retry: false }),
      (e) => e instanceof PagerError && e.code === "SOURCE_FAILED" && e.details.status === 500 && e.details.source.startsWith(pluginOf(g.failed)),
    );
    // The pager is where it was: the failed call's page comes now, and no error again.
    assert.equal(pager.pageToken(), first.nextPageToken);
    const page = await pager.nextPage(g.fetchChunk, { prefetch: true, retry: false });
    const reference = new Pager(options);
    await reference.nextPage(g.fetchChunk);
    assert.deepEqual(page.items.map(identity), (await reference.nextPage(g.fetchChunk)).items.map(identity));
    pager.free();
    reference.free();
  } finally {
    await g.close();
  }
  assert.deepEqual(unhandled, []);
});

test("prefetch options: a budget of 0 requests sends nothing ahead; bad values are INVALID_OPTIONS", async () => {
  const g = await gateway();
  try {
    const pager = new Pager(options);
    const pages = await pageAll(pager, g.fetchChunk, { requests: 0 });
    assert.equal(pager.stats.prefetchedRequests, 0);
    assert.ok(pages.slice(1).some((p) => p.asked > 0));
    const bytes = new Pager(options);
    await pageAll(bytes, g.fetchChunk, { bytes: 0 });
    assert.equal(bytes.stats.prefetchedRequests, 0);
    for (const bad of [{ requests: -1 }, { bytes: 1.5 }, { requests: "1" }, "yes", 1]) {
      await assert.rejects(pager.nextPage(g.fetchChunk, { prefetch: bad }), (e) => e.code === "INVALID_OPTIONS" && e.details.field.startsWith("prefetch"), JSON.stringify(bad));
    }
    pager.free();
    bytes.free();
  } finally {
    await g.close();
  }
});
