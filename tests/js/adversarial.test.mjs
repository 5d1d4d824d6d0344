// Adversarial callers: values that throw what cannot be printed, arrays whose `Symbol.species`
// makes their copies, promises with throwing methods, signal-likes with throwing getters, a pager
// freed from a getter while it is being fed. Each case once failed with a non-PagerError, wedged
// the pager, or (a throw unwinding through the wasm frames, whose shadow stack is never given
// back) killed the module after a few hundred calls.
import { test } from "node:test";
import assert from "node:assert/strict";
import { pkg, PagerError } from "./support/package.mjs";
import { summary, offsetSource, drivePage } from "./support/backend.mjs";

const { Pager } = pkg;

const one = { sources: [{ plugin: "helm.packages", cluster: "default", namespace: "kubeapps" }], pageSize: 2, chunkLimit: 3 };
const two = {
  sources: [
    { plugin: "helm.packages", cluster: "default", namespace: "kubeapps" },
    { plugin: "fluxv2.packages", cluster: "default", namespace: "kubeapps" },
  ],
  pageSize: 2,
  chunkLimit: 3,
};
const helm = () => offsetSource(["a", "c", "e"].map((n) => summary("helm.packages", n)));
const flux = () => offsetSource(["b", "d"].map((n) => summary("fluxv2.packages", n)));
const names = (page) => page.items.map((s) => s.name);

/** `f()`'s PagerError code; fails on any other throw and on no throw. */
function code(f) {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof PagerError, `a PagerError, got ${e?.constructor?.name ?? typeof e}: ${String(e?.message)}`);
    return e.code;
  }
  assert.fail("expected a throw");
}

/** The module still works: a fresh pager pages a small catalog. */
function moduleWorks() {
  const pager = new Pager(one);
  assert.deepEqual(names(drivePage(pager, [helm()])), ["a", "c"]);
  pager.free();
}

// Values a getter or toJSON may throw that have no string form (String() of them throws).
const UNPRINTABLE = {
  "Object.create(null)": () => Object.create(null),
  "a Proxy whose getPrototypeOf throws": () => new Proxy({}, { getPrototypeOf() { throw 1; } }),
  "an Error whose message getter throws": () => Object.defineProperty(new Error(), "message", { get() { throw Object.create(null); } }),
};

for (const [what, make] of Object.entries(UNPRINTABLE)) {
  test(`an item getter throwing ${what}: INVALID_RESPONSE, the pager unchanged, 2,000 times`, () => {
    const pager = new Pager(one);
    const [request] = pager.nextRequests();
    const item = summary("helm.packages", "a");
    Object.defineProperty(item, "name", { get() { throw make(); } });
    for (let i = 0; i < 2000; i++) {
      assert.equal(code(() => pager.feed(request.requestId, { availablePackageSummaries: [item] })), "INVALID_RESPONSE");
    }
    const source = helm();
    pager.feed(request.requestId, source.answer(request));
    assert.deepEqual(names(drivePage(pager, [source])), ["a", "c"]);
    pager.free(); // not stuck "borrowed"
    moduleWorks();
  });

  test(`options whose getter throws ${what}: INVALID_OPTIONS, 2,000 times`, () => {
    const options = { get sources() { throw make(); } };
    for (let i = 0; i < 2000; i++) {
      assert.equal(code(() => new Pager(options)), "INVALID_OPTIONS");
      assert.equal(code(() => pkg.kubeappsFetcher({ get baseUrl() { throw make(); } })), "INVALID_OPTIONS");
    }
    moduleWorks();
  });
}

test("an items array whose Symbol.species makes a throwing copy: pages come from a plain copy", () => {
  let armed = false;
  const items = [summary("helm.packages", "a"), summary("helm.packages", "b")];
  items.constructor = {
    [Symbol.species]: function (n) {
      return new Proxy(new Array(n), {
        get(target, key) {
          if (armed && key !== "length" && key !== "constructor") throw Object.create(null);
          return target[key];
        },
      });
    },
  };
  const pager = new Pager(one);
  const [request] = pager.nextRequests();
  assert.equal(pager.feed(request.requestId, { availablePackageSummaries: items }), "accepted");
  armed = true;
  const page = pager.takePage();
  assert.equal(page.items[0], items[0]);
  assert.equal(page.items[1], items[1]);
  pager.free();
  moduleWorks();
});

test("a lone surrogate in nextPageToken, metadata.continue or resourceVersion is INVALID_RESPONSE, not U+FFFD", () => {
  const responses = [
    { availablePackageSummaries: [summary("helm.packages", "a")], nextPageToken: "3\ud800" },
    { items: [], metadata: { continue: "\udc00abc" } },
    { items: [], metadata: { resourceVersion: "12\ud83d" } },
    // Not a pair across the two fields either.
    { items: [], metadata: { continue: "x\ud83d", resourceVersion: "\ude00" } },
  ];
  for (const response of responses) {
    const pager = new Pager(one);
    const [request] = pager.nextRequests();
    const before = pager.pageToken();
    assert.equal(code(() => pager.feed(request.requestId, response)), "INVALID_RESPONSE", JSON.stringify(response));
    assert.equal(pager.pageToken(), before);
    const source = helm();
    pager.feed(request.requestId, source.answer(request));
    assert.deepEqual(names(drivePage(pager, [source])), ["a", "c"]);
    pager.free();
  }
  // A well-formed pair is fine.
  const pager = new Pager(one);
  const [request] = pager.nextRequests();
  assert.equal(pager.feed(request.requestId, { availablePackageSummaries: [summary("helm.packages", "a")], nextPageToken: "\ud83d\ude00" }), "accepted");
  assert.equal(pager.nextRequests()[0].pageToken, "\ud83d\ude00");
  pager.free();
});
