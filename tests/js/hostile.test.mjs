// Hostile input at the boundary: thousands of generated bad values for options, responses, failures
// and tokens. Each must be answered with a PagerError (never a crash of the module), and the pager
// must keep working afterwards.
import { test } from "node:test";
import assert from "node:assert/strict";
import { pkg, PagerError } from "./support/package.mjs";
import { summary, offsetSource, drivePage, identity } from "./support/backend.mjs";

const { Pager, kubeappsFetcher, kubernetesListFetcher } = pkg;

/** Small deterministic PRNG (mulberry32) so failures reproduce. */
function rng(seed) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function cyclic() {
  const o = { name: "loop" };
  o.self = o;
  return o;
}

function withProto() {
  return JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}}');
}

/** Values that are wrong almost anywhere. */
const ATOMS = [
  undefined, null, true, 0, -1, 1.5, NaN, Infinity, -Infinity, 2 ** 53, -(2 ** 60), 10n, "", "x",
  "\ud800", "a\udfffb", "\u0000", "🦀".repeat(3), Symbol("s"), () => 1, [], [null], {}, new Date(0),
  new Map([["a", 1]]), new Uint8Array(3), cyclic(), withProto(), Object.create(null), new Proxy({}, {}),
];

function pick(r, xs) {
  return xs[Math.floor(r() * xs.length)];
}

/** A random mutation of a valid value: replace, delete or add a field at some depth. */
function mutate(r, value, depth = 0) {
  const choice = r();
  if (depth > 3 || value === null || typeof value !== "object" || choice < 0.25) return pick(r, ATOMS);
  const copy = Array.isArray(value) ? [...value] : { ...value };
  const keys = Object.keys(copy);
  if (choice < 0.4 || keys.length === 0) {
    copy[pick(r, ["__proto__", "constructor", "extra", "0", "items", "name", "plugin"])] = pick(r, ATOMS);
  } else if (choice < 0.5) {
    delete copy[pick(r, keys)];
  } else {
    const k = pick(r, keys);
    copy[k] = mutate(r, copy[k], depth + 1);
  }
  return copy;
}

const validOptions = {
  sources: [
    { plugin: "helm.packages", cluster: "default", namespace: "kubeapps", kind: "kubeapps" },
    { plugin: "fluxv2.packages", cluster: "default", namespace: "kubeapps", kind: "kubernetes", order: "name" },
  ],
  pageSize: 3,
  chunkLimit: 2,
  sort: "name",
  filter: { query: "", categories: [], repositories: [], plugins: [] },
};

function validResponse() {
  return {
    availablePackageSummaries: [summary("helm.packages", "a"), summary("helm.packages", "b")],
    nextPageToken: "2",
  };
}

/** Calls f; returns "ok", or the PagerError code; fails the test on any other throw. */
function outcome(f) {
  try {
    f();
    return "ok";
  } catch (e) {
    assert.ok(e instanceof PagerError, `expected a PagerError, got ${e?.constructor?.name}: ${e?.message ?? e}`);
    assert.ok(e instanceof Error);
    assert.equal(typeof e.code, "string");
    return e.code;
  }
}

test("1,000 generated bad option values give INVALID_OPTIONS (or work), never a crash", () => {
  const r = rng(1);
  const codes = new Map();
  for (let i = 0; i < 1000; i++) {
    const bad = mutate(r, validOptions);
    const code = outcome(() => new Pager(bad).free());
    codes.set(code, (codes.get(code) ?? 0) + 1);
    if (code !== "ok") assert.equal(code, "INVALID_OPTIONS");
  }
  assert.ok((codes.get("INVALID_OPTIONS") ?? 0) > 500, `most mutations are invalid: ${[...codes]}`);
});

test("1,000 generated bad responses give INVALID_RESPONSE (or are taken), and the pager goes on", () => {
  const r = rng(2);
  const helm = offsetSource(["a", "b", "c", "d", "e"].map((n) => summary("helm.packages", n)));
  const flux = offsetSource(["f", "g"].map((n) => summary("fluxv2.packages", n)));
  let rejected = 0;
  for (let i = 0; i < 1000; i++) {
    const pager = new Pager({ ...validOptions, sources: [validOptions.sources[0]] });
    const [request] = pager.nextRequests();
    const bad = mutate(r, validResponse());
    const code = outcome(() => pager.feed(request.requestId, bad));
    if (code !== "ok") {
      rejected++;
      assert.ok(["INVALID_RESPONSE", "NO_PROGRESS"].includes(code), code);
      // The state is unchanged: the same request is still open and a good answer completes the list.
      pager.feed(request.requestId, helm.answer(request));
      const shown = [];
      for (let p = 0; p < 10; p++) {
        const page = drivePage(pager, [helm, flux]);
        shown.push(...page.items.map(identity));
        if (page.done) break;
      }
      assert.equal(shown.length, 5);
    }
    pager.free();
  }
  assert.ok(rejected > 300, `most mutations are rejected: ${rejected}`);
});

test("bad request ids, failures and tokens give PagerError or are ignored, never a crash", () => {
  const r = rng(3);
  const pager = new Pager(validOptions);
  for (let i = 0; i < 1000; i++) {
    const value = pick(r, ATOMS);
    const code1 = outcome(() => pager.feed(value, validResponse()));
    assert.ok(["ok", "INVALID_RESPONSE"].includes(code1), code1);
    const code2 = outcome(() => pager.fail(value, mutate(r, { status: 503, reason: "x", continue: "" })));
    assert.ok(["ok", "INVALID_RESPONSE"].includes(code2), code2);
    const code3 = outcome(() => Pager.resume(typeof value === "string" ? value + "x" : value, validOptions));
    assert.ok(["INVALID_PAGE_TOKEN", "INVALID_OPTIONS"].includes(code3) || code3 === "ok", code3);
  }
  // Still a working pager.
  const sources = [
    offsetSource(["a", "b"].map((n) => summary("helm.packages", n))),
    offsetSource(["c"].map((n) => summary("fluxv2.packages", n))),
  ];
  assert.deepEqual(drivePage(new Pager(validOptions), sources).items.map((s) => s.name), ["a", "b", "c"]);
});

test("300 generated uses of freed pagers give PAGER_FREED, and freeing again is harmless", async () => {
  const r = rng(4);
  const methods = ["nextRequests", "feed", "fail", "pageReady", "takePage", "pageToken", "stats", "nextPage"];
  for (let i = 0; i < 300; i++) {
    const pager = new Pager(validOptions);
    const sources = [
      offsetSource(["a", "b", "c"].map((n) => summary("helm.packages", n))),
      offsetSource(["d"].map((n) => summary("fluxv2.packages", n))),
    ];
    for (let k = Math.floor(r() * 3); k > 0; k--) drivePage(pager, sources);
    if (r() < 0.5) pager.free();
    else pager[Symbol.dispose]();
    for (let k = 0; k < 5; k++) {
      const method = pick(r, methods);
      const args = [pick(r, ATOMS), pick(r, ATOMS)];
      if (method === "nextPage") {
        const call = pager.nextPage(r() < 0.5 ? async () => ({}) : args[0], args[1]);
        await assert.rejects(call, (e) => e instanceof PagerError && (e.code === "PAGER_FREED"));
      } else if (method === "stats") {
        assert.equal(outcome(() => pager.stats), "PAGER_FREED");
      } else {
        assert.equal(outcome(() => pager[method](...args)), "PAGER_FREED", method);
      }
      if (r() < 0.3) assert.equal(outcome(() => (r() < 0.5 ? pager.free() : pager[Symbol.dispose]())), "ok");
    }
  }
});

test("200 generated keys around the page token's limit are refused iff too long, and every token encodes", () => {
  const r = rng(5);
  let refused = 0;
  for (let i = 0; i < 200; i++) {
    const n = 1 + Math.floor(r() * 8);
    const options = {
      sources: Array.from({ length: n }, (_, s) => ({ plugin: "helm.packages", cluster: "default", namespace: `ns-${s}` })),
      pageSize: 3,
      chunkLimit: 3,
      sort: r() < 0.5 ? "name" : "displayName",
    };
    // Half a page token, whatever the number of sources (they share the rest by what they take).
    const max = 3072 - 16;
    const pager = new Pager(options);
    const requests = pager.nextRequests();
    const request = requests[0];
    // One item of a random key length near the limit (name or displayName), among short ones.
    const len = Math.max(1, Math.floor(max * (0.5 + r())));
    const char = pick(r, ["x", "é", "🦀"]);
    const text = char.repeat(Math.ceil(len / Buffer.byteLength(char)));
    const long = summary("helm.packages", options.sort === "name" ? text : "m", { repo: "r", namespace: "ns-0", displayName: text });
    const items = [summary("helm.packages", "a", { namespace: "ns-0" }), long, summary("helm.packages", "\u{10FFFF}", { namespace: "ns-0" })];
    if (options.sort === "displayName") items.sort((a, b) => (a.displayName.toLowerCase() < b.displayName.toLowerCase() ? -1 : 1));
    const key = Buffer.byteLength(options.sort === "name" ? long.name : long.displayName) + Buffer.byteLength(long.availablePackageRef.identifier);
    const index = items.indexOf(long);
    const before = pager.pageToken();
    const code = outcome(() => pager.feed(request.requestId, { availablePackageSummaries: items }));
    if (key > max) {
      refused++;
      assert.equal(code, "INVALID_RESPONSE", `${n} sources, key ${key} > ${max}`);
      assert.equal(pager.pageToken(), before, "unchanged");
      try {
        pager.feed(request.requestId, { availablePackageSummaries: items });
      } catch (e) {
        assert.match(e.message, new RegExp(`item ${index}'s key is ${key} bytes.* at most ${max} bytes`));
        assert.equal(e.details.source, `helm.packages/default/ns-0`);
      }
    } else {
      assert.equal(code, "ok", `${n} sources, key ${key} <= ${max}`);
      for (const q of requests.slice(1)) pager.feed(q.requestId, { availablePackageSummaries: [] });
      // Every page's token encodes: the pager never wedges on a key it took.
      for (let p = 0; p < 5 && !pager.takePage()?.done; p++) {
        for (const q of pager.nextRequests()) pager.feed(q.requestId, { availablePackageSummaries: [] });
      }
      assert.equal(typeof pager.pageToken(), "string");
    }
    pager.free();
  }
  assert.ok(refused > 50 && refused < 150, `about half refused: ${refused}`);
});

test("200 generated source lists: identities too long for a page token are INVALID_OPTIONS, the rest make tokens", () => {
  const r = rng(6);
  let refused = 0;
  for (let i = 0; i < 200; i++) {
    const n = 1 + Math.floor(r() * 64);
    const len = Math.floor(r() * r() * 200);
    const options = {
      sources: Array.from({ length: n }, (_, s) => ({ plugin: `p${s}`, cluster: "c".repeat(len), namespace: pick(r, ["", "kubeapps", "n".repeat(len)]) })),
    };
    let pager;
    const code = outcome(() => (pager = new Pager(options)));
    if (code !== "ok") {
      refused++;
      assert.equal(code, "INVALID_OPTIONS");
      continue;
    }
    assert.equal(typeof pager.pageToken(), "string");
    pager.free();
  }
  assert.ok(refused > 20, `some refused: ${refused}`);
});

test("500 generated fetcher headers: INVALID_OPTIONS exactly when new Headers() refuses them", () => {
  const r = rng(7);
  const chars = ["a", "Z", "0", "-", "_", " ", "\t", "\n", "\r", "\u0000", ":", "é", "☃", "\u{1F980}", "~", '"', "(", "ÿ", "\u0100"];
  const word = () => Array.from({ length: Math.floor(r() * 5) }, () => pick(r, chars)).join("");
  let refused = 0;
  for (let i = 0; i < 500; i++) {
    const headers = { [word()]: word() };
    let platform = "ok";
    try {
      new Headers(Object.entries(headers));
    } catch {
      platform = "INVALID_OPTIONS";
    }
    if (platform !== "ok") refused++;
    assert.equal(outcome(() => kubeappsFetcher({ baseUrl: "/", headers })), platform, JSON.stringify(headers));
    assert.equal(outcome(() => kubernetesListFetcher({ url: "/", headers })), platform, JSON.stringify(headers));
  }
  assert.ok(refused > 100, `many refused: ${refused}`);
});

/** Values a getter may throw, some without a string form (String() of them throws). */
const THROWN = [
  () => Object.create(null),
  () => new Proxy({}, { getPrototypeOf() { throw 1; } }),
  () => Object.defineProperty(new Error(), "message", { get() { throw Object.create(null); } }),
  () => ({ toString() { throw new Error("no string"); } }),
  () => Symbol("thrown"),
  () => undefined,
  () => new Error("plain"),
];

/** A copy of `value` with a getter that throws at one random path of it (objects only). */
function withThrowingGetter(r, value, thrown) {
  if (value === null || typeof value !== "object") return value;
  const copy = Array.isArray(value) ? [...value] : { ...value };
  const keys = Object.keys(copy);
  const key = keys.length === 0 || r() < 0.3 ? pick(r, ["extra", "0", "items", "name", "metadata"]) : pick(r, keys);
  if (keys.includes(key) && r() < 0.6 && copy[key] !== null && typeof copy[key] === "object") {
    copy[key] = withThrowingGetter(r, copy[key], thrown);
  } else {
    Object.defineProperty(copy, key, { enumerable: true, get() { throw thrown(); } });
  }
  return copy;
}

test("3,000 generated throwing getters in responses, options and fetcher options: PagerError every time, the module lives on", () => {
  // A throw escaping the JS half of the boundary unwinds through the wasm frames that called it;
  // their shadow stack is never given back, and after about a thousand of those the module traps
  // (every later call fails). Each bad value here is also checked to leave its pager as it was.
  const r = rng(8);
  const options = { ...validOptions, sources: [validOptions.sources[0]] };
  let rejected = 0;
  for (let i = 0; i < 1000; i++) {
    const thrown = pick(r, THROWN);
    const pager = new Pager(options);
    const [request] = pager.nextRequests();
    const before = pager.pageToken();
    const code = outcome(() => pager.feed(request.requestId, withThrowingGetter(r, validResponse(), thrown)));
    if (code !== "ok") {
      rejected++;
      assert.equal(code, "INVALID_RESPONSE");
      assert.equal(pager.pageToken(), before);
      assert.equal(pager.feed(request.requestId, validResponse()), "accepted");
    }
    pager.free();
    const optionsCode = outcome(() => new Pager(withThrowingGetter(r, validOptions, thrown)).free());
    assert.ok(["ok", "INVALID_OPTIONS"].includes(optionsCode), optionsCode);
    const fetcherCode = outcome(() => kubeappsFetcher(withThrowingGetter(r, { baseUrl: "/", headers: { a: "b" } }, thrown)));
    assert.ok(["ok", "INVALID_OPTIONS"].includes(fetcherCode), fetcherCode);
  }
  assert.ok(rejected > 500, `most are read, and refused: ${rejected}`);
  const helm = offsetSource(["a", "b", "c", "d", "e"].map((n) => summary("helm.packages", n)));
  const flux = offsetSource(["f", "g"].map((n) => summary("fluxv2.packages", n)));
  const fresh = new Pager(validOptions);
  const shown = [];
  for (let p = 0; p < 10; p++) {
    const page = drivePage(fresh, [helm, flux]);
    shown.push(...page.items.map(identity));
    if (page.done) break;
  }
  assert.equal(shown.length, 7);
  fresh.free();
});

test("nextPage reads a failure once: a getter answering differently cannot make the loop and the pager disagree", async () => {
  const item = (name) => ({ metadata: { name, namespace: "ns" } });
  const options = { sources: [{ plugin: "k", kind: "kubernetes", namespace: "ns" }], pageSize: 1, chunkLimit: 1 };
  // 500 for the pager, then 410: the loop took it for a recovery and asked 8 times more.
  let calls = 0;
  const flipping = (first, then, extra = {}) => {
    let reads = 0;
    return { get status() { return ++reads === 1 ? first : then; }, ...extra };
  };
  const a = new Pager(options);
  await assert.rejects(
    a.nextPage(async () => {
      calls++;
      throw flipping(500, 410);
    }),
    (e) => e instanceof PagerError && e.code === "SOURCE_FAILED" && e.details.status === 500,
  );
  assert.equal(calls, 1);
  // 410 for the pager (it recovers, from `continue`), then 500: nextPage said SOURCE_FAILED, "the
  // pager is unchanged", though it had moved on.
  const b = new Pager(options);
  const fetchChunk = async (r) => {
    if (r.pageToken === "") return { items: [item("a")], metadata: { continue: "t1", resourceVersion: "5" } };
    if (r.pageToken === "t1") throw flipping(410, 500, { continue: "t2" });
    return { items: [item("b")], metadata: { resourceVersion: "6" } };
  };
  assert.deepEqual((await b.nextPage(fetchChunk)).items.map((i) => i.metadata.name), ["a"]);
  assert.deepEqual((await b.nextPage(fetchChunk)).items.map((i) => i.metadata.name), ["b"]);
  assert.equal(b.stats.expiredRecoveries, 1);
  a.free();
  b.free();
});

test("fail() with a reason or continue that is not well-formed text: INVALID_RESPONSE naming the source, as documented", () => {
  const pager = new Pager({ sources: [{ plugin: "p" }, { plugin: "k", kind: "kubernetes", namespace: "ns" }] });
  const request = pager.nextRequests()[1];
  for (const failure of [{ status: 410, continue: "a\ud800" }, { status: 500, reason: "\udfff" }]) {
    assert.throws(
      () => pager.fail(request.requestId, failure),
      (e) => e instanceof PagerError && e.code === "INVALID_RESPONSE" && e.details.source === "k//ns",
    );
  }
  // The request is still open: answered now, it is taken.
  assert.equal(pager.fail(request.requestId, { status: 503 }), "retry");
  pager.free();
});
