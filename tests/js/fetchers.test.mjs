// The built-in fetchers (kubeappsFetcher, kubernetesListFetcher) against a local HTTP server:
// the URLs and headers they send, what they resolve with, and the SOURCE_FAILED errors they reject
// with (which Pager.fail and nextPage read to recover from 410 Expired).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { pkg, PagerError } from "./support/package.mjs";

const { kubeappsFetcher, kubernetesListFetcher } = pkg;

/** A server answering each request with `reply(req)` → { status, body } (body: object or raw string). */
async function serve(reply) {
  const seen = [];
  const server = createServer((req, res) => {
    seen.push({ url: req.url, headers: req.headers });
    const { status = 200, body = {} } = reply(req);
    res.writeHead(status, { "content-type": "application/json" });
    res.end(typeof body === "string" ? body : JSON.stringify(body));
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${server.address().port}`;
  return { base, seen, close: () => new Promise((r) => server.close(r)) };
}

const request = (over = {}) => ({
  requestId: 65,
  sourceIndex: 1,
  source: { plugin: "helm.packages", cluster: "", namespace: "kubeapps" },
  pageToken: "",
  limit: 20,
  ...over,
});

test("kubeappsFetcher asks the REST gateway for the source's chunk and resolves with the body", async () => {
  const body = { availablePackageSummaries: [], nextPageToken: "3" };
  const s = await serve(() => ({ body }));
  try {
    const fetchChunk = kubeappsFetcher({
      baseUrl: `${s.base}/apis//`,
      context: { cluster: "default" },
      headers: { Authorization: "Bearer t", "X-B": "2" },
    });
    assert.deepEqual(await fetchChunk(request(), {}), body);
    assert.deepEqual(await fetchChunk(request({ pageToken: "a b&c", limit: 7, source: { plugin: "x y", cluster: "c/1", namespace: "" } }), {}), body);
    assert.equal(
      s.seen[0].url,
      "/apis/plugins/helm/packages/v1alpha1/availablepackages?context.cluster=default&context.namespace=kubeapps&paginationOptions.pageSize=20",
    );
    assert.equal(
      s.seen[1].url,
      "/apis/plugins/x%20y/packages/v1alpha1/availablepackages?context.cluster=c%2F1&context.namespace=&paginationOptions.pageSize=7&paginationOptions.pageToken=a%20b%26c",
    );
    assert.equal(s.seen[0].headers.accept, "application/json");
    assert.equal(s.seen[0].headers.authorization, "Bearer t");
    assert.equal(s.seen[0].headers["x-b"], "2");
  } finally {
    await s.close();
  }
});

test("kubernetesListFetcher adds limit and continue to the list URL", async () => {
  const s = await serve(() => ({ body: { items: [], metadata: {} } }));
  try {
    await kubernetesListFetcher({ url: `${s.base}/api/v1/x` })(request({ limit: 5 }), {});
    await kubernetesListFetcher({ url: `${s.base}/api/v1/x?labelSelector=a` })(request({ pageToken: "eyJ2Ijo=", limit: 2 }), {});
    assert.equal(s.seen[0].url, "/api/v1/x?limit=5");
    assert.equal(s.seen[1].url, "/api/v1/x?labelSelector=a&limit=2&continue=eyJ2Ijo%3D");
  } finally {
    await s.close();
  }
});

test("a 410 Status rejects with SOURCE_FAILED carrying status, reason and continue", async () => {
  const status = { kind: "Status", reason: "Expired", message: "too old", metadata: { continue: "next-token" } };
  const s = await serve(() => ({ status: 410, body: status }));
  try {
    const fetchChunk = kubernetesListFetcher({ url: `${s.base}/l` });
    await assert.rejects(fetchChunk(request(), {}), (e) => {
      assert.ok(e instanceof PagerError);
      assert.equal(e.code, "SOURCE_FAILED");
      assert.equal(e.message, `GET ${s.base}/l?limit=20: HTTP 410: too old`);
      assert.deepEqual(Object.keys(e.details), ["status", "url", "reason", "continue", "body", "cause"]);
      assert.deepEqual(e.details.body, status, "the Status as it came");
      assert.ok(e.cause instanceof Response && e.cause.status === 410, "the transport's own answer");
      assert.equal(e.details.status, 410);
      assert.equal(e.details.url, `${s.base}/l?limit=20`);
      assert.equal(e.details.reason, "Expired");
      assert.equal(e.details.continue, "next-token");
      return true;
    });
  } finally {
    await s.close();
  }
});

test("a body that is not a JSON object, and a server that is not there, reject with SOURCE_FAILED", async () => {
  const s = await serve((req) => (req.url.includes("limit=1") ? { body: "7" } : { status: 500, body: "oops" }));
  try {
    const fetchChunk = kubernetesListFetcher({ url: `${s.base}/l` });
    await assert.rejects(fetchChunk(request({ limit: 1 }), {}), (e) => {
      assert.equal(e.code, "SOURCE_FAILED");
      assert.equal(e.details.status, 200);
      assert.ok(e.cause instanceof Response && e.cause.ok);
      assert.equal(e.message, `GET ${s.base}/l?limit=1: HTTP 200 (the body is not a JSON object)`);
      return true;
    });
    await assert.rejects(fetchChunk(request({ limit: 2 }), {}), (e) => {
      assert.equal(e.code, "SOURCE_FAILED");
      assert.equal(e.message, `GET ${s.base}/l?limit=2: HTTP 500`);
      assert.deepEqual(Object.keys(e.details), ["status", "url", "cause"]);
      assert.equal(e.cause.status, 500);
      return true;
    });
  } finally {
    await s.close();
  }
  // Nothing listens on port 1: the request fails without an answer (status 0).
  const gone = kubernetesListFetcher({ url: "http://127.0.0.1:1/l" });
  await assert.rejects(gone(request(), {}), (e) => {
    assert.equal(e.code, "SOURCE_FAILED");
    assert.equal(e.details.status, 0);
    assert.ok(e.details.cause instanceof Error);
    // The network error is in the message and is the standard `cause`, not only deep in details.
    assert.equal(e.cause, e.details.cause);
    assert.ok(e.message.startsWith("GET http://127.0.0.1:1/l?limit=20: no answer ("), e.message);
    assert.ok(e.message.includes(e.details.cause.message), e.message);
    return true;
  });
});

test("an aborted request rejects with the AbortError itself", async () => {
  const s = await serve(() => ({ body: {} }));
  try {
    const fetchChunk = kubeappsFetcher({ baseUrl: s.base });
    await assert.rejects(fetchChunk(request(), { signal: AbortSignal.abort() }), (e) => e.name === "AbortError");
  } finally {
    await s.close();
  }
});

test("bad fetcher options throw INVALID_OPTIONS", () => {
  for (const bad of [undefined, {}, { baseUrl: 1 }, { baseUrl: "/", extra: 1 }, { baseUrl: "/", context: { x: "" } }, { baseUrl: "/", headers: { a: 1 } }]) {
    assert.throws(() => kubeappsFetcher(bad), (e) => e instanceof PagerError && e.code === "INVALID_OPTIONS");
  }
  for (const bad of [null, { url: "/", context: {} }, { baseUrl: "/" }]) {
    assert.throws(() => kubernetesListFetcher(bad), (e) => e instanceof PagerError && e.code === "INVALID_OPTIONS");
  }
});

test("header names and values that new Headers() would refuse throw INVALID_OPTIONS when the fetcher is made", () => {
  const bad = [
    { "": "x" },
    { "X Y": "1" },
    { "X:Y": "1" },
    { "Ünïcode": "1" },
    { "X-A": "line\nbreak" },
    { "X-A": "carriage\rreturn" },
    { "X-A": "nul\u0000" },
    { "X-A": "snow ☃" },
    { Authorization: "Bearer \u{1F980}" },
  ];
  for (const headers of bad) {
    // What the platform says, so that the test follows the Fetch standard rather than our reading of it.
    assert.throws(() => new Headers(Object.entries(headers)), TypeError, JSON.stringify(headers));
    for (const make of [() => kubeappsFetcher({ baseUrl: "/", headers }), () => kubernetesListFetcher({ url: "/", headers })]) {
      assert.throws(make, (e) => {
        assert.ok(e instanceof PagerError, `${JSON.stringify(headers)}: ${e}`);
        assert.equal(e.code, "INVALID_OPTIONS");
        assert.match(e.details.field, /^headers\[/);
        return true;
      });
    }
  }
  // What Headers accepts is accepted: surrounding white space (trimmed), Latin-1, odd token characters.
  const good = { "X-Tab": "\tvalue \n", "X-Latin": "café", "x!#$%&'*+-.^_`|~": "ok", Empty: "" };
  assert.doesNotThrow(() => new Headers(Object.entries(good)));
  assert.equal(typeof kubeappsFetcher({ baseUrl: "/", headers: good }), "function");
  assert.equal(typeof kubernetesListFetcher({ url: "/", headers: good }), "function");
});

test("fetcher options: INVALID_OPTIONS names the member at fault", () => {
  for (const [make, options, field] of [
    [kubeappsFetcher, {}, "baseUrl"],
    [kubeappsFetcher, { baseURL: "/apis" }, "baseURL"],
    [kubeappsFetcher, { baseUrl: 5 }, "baseUrl"],
    [kubeappsFetcher, { baseUrl: "/apis", context: { cluster: 1 } }, "context.cluster"],
    [kubernetesListFetcher, { url: "/l", header: {} }, "header"],
    // The fetchers add the path and query: one in the base would put them in a fragment.
    [kubeappsFetcher, { baseUrl: "/apis?x=1" }, "baseUrl"],
    [kubeappsFetcher, { baseUrl: "/apis#top" }, "baseUrl"],
    [kubernetesListFetcher, { url: "/l#x" }, "url"],
  ]) {
    assert.throws(
      () => make(options),
      (e) => e instanceof PagerError && e.code === "INVALID_OPTIONS" && e.details.field === field && e.message.startsWith(`invalid options: ${field}: `),
    );
  }
});
