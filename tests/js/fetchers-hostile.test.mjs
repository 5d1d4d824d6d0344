// The built-in REST fetchers' requests (src/wasm/fetch.rs: web-sys fetch awaited in the wasm)
// given hostile values: requests and fetch options whose getters throw, revoked Proxies, and a
// replaced global `fetch` (a test's stand-in, a polyfill) that throws, answers with no promise, a
// thenable that throws, or an answer whose members throw. Every call settles as the JS fetchers
// did (the same value or the same error), none hangs (a JS exception unwinding through a
// suspended wasm task left its promise pending for good in an earlier port), and a plain request
// made after all of them still works. (One difference: the JS fetchers threw at a request whose
// filterOptions held a revoked Proxy, from `Array.isArray`; the wasm reads it as missing.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { pkg, PagerError } from "./support/package.mjs";

const { kubeappsFetcher, kubernetesListFetcher } = pkg;

/** What `promise` settled with: ["ok", value] or ["error", error]; fails when it is still pending after 5 s. */
async function settled(promise) {
  let timer;
  const pending = new Promise((resolve) => (timer = setTimeout(() => resolve(["pending"]), 5000)));
  try {
    const out = await Promise.race([promise.then((v) => ["ok", v], (e) => ["error", e]), pending]);
    assert.notEqual(out[0], "pending", "the fetchChunk's promise never settled");
    return out;
  } finally {
    clearTimeout(timer);
  }
}

/** Runs `body` with the global fetch replaced by `fake`; returns what fake was called with. */
async function withFetch(fake, body) {
  const real = globalThis.fetch;
  const calls = [];
  globalThis.fetch = (url, init) => {
    calls.push({ url, init });
    return fake(url, init);
  };
  try {
    await body();
  } finally {
    globalThis.fetch = real;
  }
  return calls;
}

const request = { source: { plugin: "helm.packages", cluster: "c", namespace: "n" }, pageToken: "", limit: 3 };
const ok = () => Promise.resolve(new Response('{"items":[]}'));
const thrower = (message) => {
  throw new Error(message);
};

test("hostile requests and fetch options read as missing: the request is still made", async () => {
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  const trap = new Proxy({}, { get: () => thrower("get trap") });
  const requests = [
    trap,
    revoked.proxy,
    { get source() { return thrower("source"); }, get pageToken() { return thrower("token"); }, get limit() { return thrower("limit"); } },
    { ...request, filterOptions: trap },
    { ...request, filterOptions: { categories: revoked.proxy, query: trap, repositories: new Proxy([], { get: () => thrower("length") }) } },
    5,
    null,
  ];
  const inits = [undefined, null, 7, trap, revoked.proxy, { get signal() { return thrower("signal"); } }];
  const calls = await withFetch(ok, async () => {
    for (const make of [() => kubeappsFetcher({ baseUrl: "/apis" }), () => kubernetesListFetcher({ url: "/l" })]) {
      const fetchChunk = make();
      for (const r of requests) assert.deepEqual(await settled(fetchChunk(r, {})), ["ok", { items: [] }]);
      for (const init of inits) assert.deepEqual(await settled(fetchChunk(request, init)), ["ok", { items: [] }]);
    }
  });
  assert.equal(calls.length, 2 * (requests.length + inits.length));
  // What a request that cannot be read asks for: no plugin, the fetcher's context, limit 0.
  assert.equal(calls[0].url, "/apis/plugins//packages/v1alpha1/availablepackages?context.cluster=&context.namespace=&paginationOptions.pageSize=0");
  assert.equal(calls[3].url, "/apis/plugins/helm/packages/v1alpha1/availablepackages?context.cluster=c&context.namespace=n&paginationOptions.pageSize=3");
  assert.equal(calls[requests.length + inits.length].url, "/l?limit=0");
  for (const { init } of calls) assert.equal(init.signal, undefined);
});

test("a replaced global fetch that throws, or answers with no promise or a hostile thenable: SOURCE_FAILED with no answer", async () => {
  const boom = new Error("boom");
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  const hostilePromise = Promise.resolve(new Response("{}"));
  Object.defineProperty(hostilePromise, "constructor", { get: () => thrower("constructor") });
  const cases = [
    [() => { throw boom; }, boom],
    [() => ({ then() { throw boom; } }), boom],
    [() => Promise.reject(boom), boom],
    [() => hostilePromise, "constructor"],
    // Resolving with it reads its `then`.
    [() => revoked.proxy, "Cannot perform 'get' on a proxy that has been revoked"],
  ];
  await withFetch(
    (url, init) => cases[Number(new URL(url, "http://x").searchParams.get("limit"))][0](url, init),
    async () => {
      const fetchChunk = kubernetesListFetcher({ url: "/l" });
      for (let i = 0; i < cases.length; i++) {
        const [state, e] = await settled(fetchChunk({ limit: i }, {}));
        assert.equal(state, "error");
        assert.ok(e instanceof PagerError, String(e));
        assert.equal(e.code, "SOURCE_FAILED");
        assert.equal(e.details.status, 0);
        assert.equal(e.details.url, `/l?limit=${i}`);
        if (cases[i][1] === boom) assert.equal(e.cause, boom);
        else assert.equal(e.cause.message, cases[i][1]);
        assert.equal(e.message, `GET /l?limit=${i}: no answer (${e.cause.message})`);
      }
    },
  );
});

test("an AbortError from fetch passes through as it is, also one thrown synchronously", async () => {
  const abort = new DOMException("stopped", "AbortError");
  for (const fake of [() => Promise.reject(abort), () => { throw abort; }]) {
    await withFetch(fake, async () => {
      assert.deepEqual(await settled(kubeappsFetcher({ baseUrl: "/apis" })(request, {})), ["error", abort]);
    });
  }
});

test("answers whose members throw: the member's own error, or SOURCE_FAILED when only the body cannot be read", async () => {
  const statusError = new Error("status");
  const answers = [
    [{ get status() { throw statusError; } }, ["error", statusError]],
    [undefined, ["error", TypeError]],
    [null, ["error", TypeError]],
    [{ status: 200, ok: true, json: () => ({ a: 1 }) }, ["ok", { a: 1 }]],
    [{ status: 200, ok: true, json: () => thrower("json") }, ["error", "HTTP 200 (the body is not a JSON object)"]],
    [{ status: 200, ok: true, json: () => Promise.reject(new Error("json")) }, ["error", "HTTP 200 (the body is not a JSON object)"]],
    [{ status: 503, ok: false, json: () => ({ message: "down" }) }, ["error", "HTTP 503: down"]],
    [{ status: 200, json: () => ({}), get ok() { throw statusError; } }, ["error", statusError]],
  ];
  await withFetch(
    (url) => Promise.resolve(answers[Number(new URL(url, "http://x").searchParams.get("limit"))][0]),
    async () => {
      const fetchChunk = kubernetesListFetcher({ url: "/l" });
      for (let i = 0; i < answers.length; i++) {
        const [state, value] = await settled(fetchChunk({ limit: i }, {}));
        const [wantState, want] = answers[i][1];
        assert.equal(state, wantState, `answer ${i}: ${value}`);
        if (typeof want === "function") assert.ok(value instanceof want, `answer ${i}: ${value}`);
        else if (typeof want === "string") {
          assert.ok(value instanceof PagerError && value.code === "SOURCE_FAILED", `answer ${i}: ${value}`);
          assert.equal(value.message, `GET /l?limit=${i}: ${want}`);
          assert.equal(value.cause, answers[i][0], "the answer itself is the cause");
        } else assert.deepEqual(value, want, `answer ${i}`);
      }
    },
  );
});

test("a lone surrogate in a request throws encodeURIComponent's URIError synchronously, as it always did", async () => {
  await withFetch(ok, async () => {
    const fetchChunk = kubeappsFetcher({ baseUrl: "/apis" });
    assert.throws(() => fetchChunk({ ...request, pageToken: "\ud800" }, {}), URIError);
    assert.throws(() => kubernetesListFetcher({ url: "/l" })({ pageToken: "a\udc00" }, {}), URIError);
    // The fetcher goes on.
    assert.deepEqual(await settled(fetchChunk(request, {})), ["ok", { items: [] }]);
  });
});

test("after every hostile call above, a pager still pages through a built-in fetcher", async () => {
  const page = { availablePackageSummaries: [{ name: "a", availablePackageRef: { identifier: "r/a", context: {}, plugin: { name: "helm.packages" } } }], nextPageToken: "" };
  await withFetch(() => Promise.resolve(new Response(JSON.stringify(page))), async () => {
    const pager = new pkg.Pager({ sources: [{ plugin: "helm.packages" }], pageSize: 5 });
    const [state, got] = await settled(pager.nextPage(kubeappsFetcher({ baseUrl: "/apis" })));
    assert.equal(state, "ok", String(got));
    assert.deepEqual(got.items.map((i) => i.name), ["a"]);
    pager.free();
  });
});
