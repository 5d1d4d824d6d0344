// Issue 22, through the public path: `pager.nextPage` acts on what the core says it did with each
// failure and answer (src/wasm/driver.js decides nothing of its own). A kapp_controller list that
// shrinks under the scroll (HTTP 400 "Invalid pagination arguments" past its new end) is read to
// the end over a local HTTP server with `kubeappsFetcher`; transient failures are retried inside
// the call (the core's RetryPolicy, `Retry-After` honoured, an abort stops the wait); a cycling
// continue token keeps its answer and ends the source; a proxy that drops `continue` is set aside
// as `no-progress` within a few requests.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { pkg } from "./support/package.mjs";
import { summary, identity, offsetSource, continueSource } from "./support/backend.mjs";

const { Pager, kubeappsFetcher } = pkg;

// The REST gateway of a tiny kubeapps-apis: `plugins[name]` answers `(query) => { status, body,
// headers? }` for GET /apis/plugins/{name}/packages/v1alpha1/availablepackages.
const plugins = {};
let server;
let base;
before(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url, "http://localhost");
    const m = /^\/apis\/plugins\/([^/]+)\/packages\/v1alpha1\/availablepackages$/.exec(url.pathname);
    const handler = m && plugins[m[1]];
    const { status = 200, body = {}, headers = {} } = handler ? handler(url.searchParams) : { status: 404, body: { code: 5, message: "no such plugin" } };
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify(body));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${server.address().port}/apis`;
});
after(() => new Promise((resolve) => server.close(resolve)));

/** A plugin over `list` paging by decimal offsets as Kubeapps' plugins do, with its requests logged. */
function offsetPlugin(list, log = []) {
  return (q) => {
    const token = q.get("paginationOptions.pageToken") ?? "";
    const size = Number(q.get("paginationOptions.pageSize"));
    const offset = token === "" ? 0 : Number(token);
    log.push(offset);
    // kapp_controller's answer to an offset past the end of its list.
    if (offset > list.length) return { status: 400, body: { code: 3, message: "Invalid pagination arguments", details: [] } };
    const page = list.slice(offset, offset + size);
    const next = offset + size < list.length ? String(offset + size) : "";
    return { body: { availablePackageSummaries: page, nextPageToken: next } };
  };
}

const names = (prefix, n) => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(3, "0")}`);

test("a kapp_controller list that shrinks under the scroll is read to the end through nextPage: every survivor once, no rejection", async () => {
  for (const [chunkLimit, shrinkAt, cut] of [[10, 60, 65], [20, 80, 75], [7, 63, 65]]) {
    const kapp = names("k", 120).map((n) => summary("kapp_controller.packages", n));
    const helm = names("h", 40).map((n) => summary("helm.packages", n));
    const log = [];
    const serve = offsetPlugin(kapp, log);
    let shrunk = false;
    plugins.kapp_controller = (q) => {
      // Once the scroll is past `shrinkAt`, the repository loses its first `cut` packages (read
      // already): every later offset is past the new end of the list.
      const offset = Number(q.get("paginationOptions.pageToken") || 0);
      if (!shrunk && offset >= shrinkAt) {
        shrunk = true;
        kapp.splice(0, cut);
      }
      return serve(q);
    };
    plugins.helm = offsetPlugin(helm);
    const survivors = kapp.slice(cut).map(identity);
    const pager = new Pager({
      sources: [{ plugin: "helm.packages", namespace: "kubeapps" }, { plugin: "kapp_controller.packages", namespace: "kubeapps" }],
      pageSize: 10,
      chunkLimit,
    });
    const fetchChunk = kubeappsFetcher({ baseUrl: base });
    const shown = [];
    for (let i = 0; i < 100; i++) {
      const page = await pager.nextPage(fetchChunk, { retry: false });
      shown.push(...page.items.map(identity));
      if (page.done) break;
    }
    pager.free();
    const what = `chunkLimit ${chunkLimit}, shrunk at ${shrinkAt} by ${cut}`;
    assert.ok(shrunk, what);
    assert.ok(log.some((offset) => offset > 120 - cut), `a request past the new end was refused (${what})`);
    assert.equal(new Set(shown).size, shown.length, `nothing twice (${what})`);
    for (const id of [...survivors, ...helm.map(identity)]) assert.ok(shown.includes(id), `${id} shown (${what})`);
  }
});

test("the refused positions are recovered by the core: fail() says so, and nextPage never sees a SOURCE_FAILED", () => {
  const pager = new Pager({ sources: [{ plugin: "kapp_controller.packages", namespace: "kubeapps" }], pageSize: 5, chunkLimit: 5 });
  const source = offsetSource(names("k", 20).map((n) => summary("kapp_controller.packages", n)));
  let r = pager.nextRequests()[0];
  pager.feed(r.requestId, source.answer(r));
  r = pager.nextRequests()[0];
  assert.notEqual(r.pageToken, "");
  assert.equal(pager.fail(r.requestId, { status: 400 }), "recovered");
  // A 410 of a source that is no Kubernetes list is no recovery; a 500 fails, a 503 is retried.
  r = pager.nextRequests()[0];
  assert.equal(pager.fail(r.requestId, { status: 410 }), "failed");
  r = pager.nextRequests()[0];
  assert.equal(pager.fail(r.requestId, { status: 503 }), "retry");
  r = pager.nextRequests()[0];
  assert.equal(pager.fail(r.requestId, { status: 403 }), "unreachable");
  pager.free();
});

/** A helm plugin that fails `failures` times (status, headers) before answering. */
function flaky(failures, list) {
  const serve = offsetPlugin(list);
  const seen = { requests: 0 };
  plugins.helm = (q) => {
    seen.requests++;
    const f = failures.shift();
    return f ? { status: f.status, headers: f.headers, body: { code: 14, message: "unavailable" } } : serve(q);
  };
  return seen;
}

const helmOnly = () => new Pager({ sources: [{ plugin: "helm.packages", namespace: "kubeapps" }], pageSize: 5 });

test("transient failures (429, 502, 503, 504) are retried inside nextPage, then the page comes", async () => {
  const list = names("h", 3).map((n) => summary("helm.packages", n));
  const seen = flaky([{ status: 503 }, { status: 429 }, { status: 502 }], list);
  const pager = helmOnly();
  const page = await pager.nextPage(kubeappsFetcher({ baseUrl: base }), { retry: { baseDelayMs: 1, maxDelayMs: 5 } });
  assert.deepEqual(page.items.map((s) => s.name), ["h000", "h001", "h002"]);
  assert.equal(seen.requests, 4, "three retries, then the answer");
  assert.equal(page.stats.sources[0].requests, 4);
  pager.free();
});

test("the default policy retries too: a 503 without options is asked again (within the first backoff, under 1 s)", async () => {
  const list = names("h", 2).map((n) => summary("helm.packages", n));
  const seen = flaky([{ status: 503 }], list);
  const pager = helmOnly();
  const page = await pager.nextPage(kubeappsFetcher({ baseUrl: base }));
  assert.equal(page.items.length, 2);
  assert.equal(seen.requests, 2);
  pager.free();
});

test("retries spent: SOURCE_FAILED with the last failure, the pager unchanged; retry: false tries once", async () => {
  const list = names("h", 3).map((n) => summary("helm.packages", n));
  const fetchChunk = kubeappsFetcher({ baseUrl: base });
  for (const [retry, requests] of [[{ retries: 2, baseDelayMs: 1, maxDelayMs: 1 }, 3], [false, 1], [{ retries: 0 }, 1]]) {
    const seen = flaky(Array.from({ length: requests }, () => ({ status: 504 })), list);
    const pager = helmOnly();
    const token = pager.pageToken();
    const error = await pager.nextPage(fetchChunk, { retry }).then(() => assert.fail("resolved"), (e) => e);
    assert.equal(error.code, "SOURCE_FAILED", JSON.stringify(retry));
    assert.equal(error.details.status, 504);
    assert.equal(seen.requests, requests, JSON.stringify(retry));
    assert.equal(pager.pageToken(), token, "unchanged");
    // The next call asks again (and the source answers now).
    const page = await pager.nextPage(fetchChunk, { retry: false });
    assert.equal(page.items.length, 3);
    pager.free();
  }
});

test("Retry-After (seconds or an HTTP date) is a floor under the jittered wait; fetchers pass it as details.retryAfterMs", async () => {
  const list = names("h", 2).map((n) => summary("helm.packages", n));
  const fetchChunk = kubeappsFetcher({ baseUrl: base });
  for (const header of ["1", () => new Date(Date.now() + 1500).toUTCString()]) {
    const value = typeof header === "function" ? header() : header;
    flaky([{ status: 503, headers: { "retry-after": value } }], list);
    const pager = helmOnly();
    const started = Date.now();
    const page = await pager.nextPage(fetchChunk, { retry: { baseDelayMs: 1, maxDelayMs: 10000 } });
    // An HTTP date has a one-second resolution: it may be as little as ~0.5 s away.
    assert.ok(Date.now() - started >= 450, `waited for Retry-After ${value}`);
    assert.equal(page.items.length, 2);
    pager.free();
  }
  flaky([{ status: 429, headers: { "retry-after": "7" } }], list);
  const error = await fetchChunk({ source: { plugin: "helm.packages", cluster: "", namespace: "kubeapps" }, pageToken: "", limit: 5 }).then(
    () => assert.fail("resolved"),
    (e) => e,
  );
  assert.equal(error.details.retryAfterMs, 7000);
});

test("an abort stops the wait for a retry at once: ABORTED, the pager unchanged", async () => {
  const list = names("h", 2).map((n) => summary("helm.packages", n));
  flaky([{ status: 503, headers: { "retry-after": "60" } }], list);
  const pager = helmOnly();
  const token = pager.pageToken();
  const controller = new AbortController();
  const fetchChunk = kubeappsFetcher({ baseUrl: base });
  const call = pager.nextPage(fetchChunk, { signal: controller.signal, retry: { maxDelayMs: 60000 } });
  setTimeout(() => controller.abort(new Error("user left")), 50);
  const started = Date.now();
  const error = await call.then(() => assert.fail("resolved"), (e) => e);
  assert.equal(error.code, "ABORTED");
  assert.ok(Date.now() - started < 10000, "not after the 60 s wait");
  assert.equal(pager.pageToken(), token);
  const page = await pager.nextPage(fetchChunk);
  assert.equal(page.items.length, 2);
  pager.free();
});

test("a bad retry option is INVALID_OPTIONS naming it, and nothing is asked", async () => {
  const pager = helmOnly();
  let asked = 0;
  const fetchChunk = async () => {
    asked++;
    return { availablePackageSummaries: [] };
  };
  for (const [retry, field] of [[{ retries: -1 }, "retry.retries"], [{ baseDelayMs: "1" }, "retry.baseDelayMs"], [{ tries: 1 }, "retry.tries"], [true, "retry"]]) {
    const error = await pager.nextPage(fetchChunk, { retry }).then(() => assert.fail("resolved"), (e) => e);
    assert.equal(error.code, "INVALID_OPTIONS", JSON.stringify(retry));
    assert.equal(error.details.field, field);
  }
  assert.equal(asked, 0);
  pager.free();
});

test("a continue token that cycles (t1 → t2 → t1): its answer's items are kept, the source ends, stats count it", async () => {
  const other = offsetSource(names("h", 6).map((n) => summary("helm.packages", n)));
  const kapp = names("k", 6).map((n) => summary("kapp_controller.packages", n));
  const answers = { "": ["t1", 0], t1: ["t2", 2], t2: ["t1", 4] };
  const asked = [];
  const fetchChunk = async (request) => {
    if (request.sourceIndex === 1) return other.answer(request);
    asked.push(request.pageToken);
    const [next, at] = answers[request.pageToken];
    return { availablePackageSummaries: kapp.slice(at, at + 2), nextPageToken: next };
  };
  const pager = new Pager({
    sources: [{ plugin: "kapp_controller.packages", namespace: "kubeapps", kind: "kubernetes" }, { plugin: "helm.packages", namespace: "kubeapps" }],
    pageSize: 100,
    chunkLimit: 2,
  });
  const page = await pager.nextPage(fetchChunk, { retry: false });
  assert.deepEqual(asked, ["", "t1", "t2"]);
  assert.equal(page.items.length, 12, "every kapp item (the cycle's answer too) and every helm item");
  assert.ok(page.done && page.truncated);
  assert.equal(page.stats.sources[0].cycledTokens, 1);
  assert.equal(pager.stats.cycledTokens, 1);
  pager.free();
});

test("a proxy that drops continue: the source is set aside as no-progress within a few requests, the others go on", async () => {
  const other = offsetSource(names("h", 30).map((n) => summary("helm.packages", n)));
  const kapp = continueSource(names("k", 40).map((n) => summary("kapp_controller.packages", n)));
  let asked = 0;
  const fetchChunk = async (request) => {
    if (request.sourceIndex === 1) return other.answer(request);
    asked++;
    // The continue token never reaches the server: the first chunk, every time.
    return kapp.answer({ ...request, pageToken: "" });
  };
  const pager = new Pager({
    sources: [{ plugin: "kapp_controller.packages", namespace: "kubeapps", kind: "kubernetes" }, { plugin: "helm.packages", namespace: "kubeapps" }],
    pageSize: 10,
    chunkLimit: 5,
  });
  const shown = [];
  let last;
  for (let i = 0; i < 20; i++) {
    last = await pager.nextPage(fetchChunk, { retry: false });
    shown.push(...last.items.map(identity));
    if (last.done) break;
  }
  assert.ok(asked <= 5, `${asked} requests to the source that drops continue`);
  assert.ok(last.done);
  assert.deepEqual(last.unreachable.map((u) => [u.sourceIndex, u.cause]), [[0, "no-progress"]]);
  assert.equal(new Set(shown).size, shown.length);
  for (const s of other.list) assert.ok(shown.includes(identity(s)));
  pager.free();
});

test("an echoed token (asked t1, answered t1) ends the list through nextPage: no cycle, not truncated", async () => {
  const kapp = names("k", 4).map((n) => summary("kapp_controller.packages", n));
  const asked = [];
  const fetchChunk = async (request) => {
    asked.push(request.pageToken);
    const at = request.pageToken === "" ? 0 : 2;
    return { availablePackageSummaries: kapp.slice(at, at + 2), nextPageToken: "t1" };
  };
  const pager = new Pager({ sources: [{ plugin: "kapp_controller.packages", namespace: "kubeapps", kind: "kubernetes" }], pageSize: 10, chunkLimit: 2 });
  const page = await pager.nextPage(fetchChunk, { retry: false });
  assert.deepEqual(asked, ["", "t1"]);
  assert.deepEqual(page.items.map((s) => s.name), ["k000", "k001", "k002", "k003"]);
  assert.ok(page.done && !page.truncated);
  assert.equal(page.stats.cycledTokens, 0);
  pager.free();
});

test("410s in a row are recovered from up to the core's bound, then the call fails", async () => {
  let asked = 0;
  const fetchChunk = async (request) => {
    asked++;
    if (request.pageToken === "") return { items: [{ metadata: { name: "a", namespace: "ns" } }], metadata: { continue: "c1" } };
    // Expired, every time, with an inconsistent token to go on with: never an answer.
    throw Object.assign(new Error("expired"), { status: 410, reason: "Expired", continue: `c${asked}` });
  };
  const pager = new Pager({ sources: [{ plugin: "pods", kind: "kubernetes", namespace: "ns" }], pageSize: 5, chunkLimit: 1 });
  const error = await pager.nextPage(fetchChunk, { retry: false }).then(() => assert.fail("resolved"), (e) => e);
  assert.equal(error.code, "SOURCE_FAILED");
  assert.equal(error.details.status, 410);
  assert.equal(pager.stats.expiredRecoveries, 16);
  assert.equal(asked, 1 + 17, "the first chunk, 16 recoveries, the 17th 410 fails");
  pager.free();
});
