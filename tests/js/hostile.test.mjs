// Hostile input at the boundary: thousands of generated bad values for options, responses, failures
// and tokens. Each must be answered with a PagerError (never a crash of the module), and the pager
// must keep working afterwards.
import { test } from "node:test";
import assert from "node:assert/strict";
import { pkg, PagerError } from "./support/package.mjs";
import { summary, offsetSource, drivePage, identity } from "./support/backend.mjs";

const { Pager } = pkg;

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
