// Adversarial callers: values that throw what cannot be printed, arrays whose `Symbol.species`
// makes their copies, promises with throwing methods, signal-likes with throwing getters, a pager
// freed from a getter while it is being fed. Each case once failed with a non-PagerError, wedged
// the pager, or (a throw unwinding through the wasm frames, whose shadow stack is never given
// back) killed the module after a few hundred calls.
import { test } from "node:test";
import assert from "node:assert/strict";
import { pkg, codec, PagerError } from "./support/package.mjs";
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

test("free() from a getter of an item being fed: no throw, the pager is freed", () => {
  const pager = new Pager(one);
  const [request] = pager.nextRequests();
  const item = summary("helm.packages", "a");
  let thrown;
  Object.defineProperty(item, "name", {
    get() {
      try {
        pager.free();
      } catch (e) {
        thrown = e;
      }
      return "a";
    },
  });
  pager.feed(request.requestId, { availablePackageSummaries: [item] });
  assert.equal(thrown, undefined, `free() threw ${thrown?.message}`);
  assert.equal(code(() => pager.pageReady()), "PAGER_FREED");
  pager.free(); // again: nothing
  moduleWorks();
});

test("free() from a getter during nextPage's last feed rejects the call with PAGER_FREED", async () => {
  const pager = new Pager(one);
  const source = helm();
  const call = pager.nextPage(async (request) => {
    const answer = source.answer(request);
    const item = { ...answer.availablePackageSummaries[0] };
    Object.defineProperty(item, "name", {
      get() {
        pager.free();
        return "a";
      },
    });
    answer.availablePackageSummaries[0] = item;
    return answer;
  });
  await assert.rejects(call, (e) => e instanceof PagerError && e.code === "PAGER_FREED");
  moduleWorks();
});

test("a fetchChunk promise whose own catch/then throw: the call settles with a page, the pager goes on", async () => {
  const pager = new Pager(two);
  const sources = [helm(), flux()];
  const page = await pager.nextPage((request) => {
    const promise = Promise.resolve(sources[request.sourceIndex].answer(request));
    if (request.sourceIndex === 0) {
      promise.catch = () => {
        throw new Error("own catch");
      };
    }
    return promise;
  });
  assert.deepEqual(names(page), ["a", "b"]);
  const next = await pager.nextPage(async (request) => sources[request.sourceIndex].answer(request));
  assert.deepEqual(names(next), ["c", "d"]);
  pager.free();
});

test("fetchChunk is called itself, not through an own `call` property", async () => {
  const pager = new Pager(one);
  const source = helm();
  const fetchChunk = Object.assign(async (request) => source.answer(request), { call: () => Promise.resolve({}) });
  assert.deepEqual(names(await pager.nextPage(fetchChunk)), ["a", "c"]);
  pager.free();
});

test("a signal-like whose aborted or reason getter throws: a page or ABORTED, never another error", async () => {
  const source = helm();
  const fetchChunk = async (request) => source.answer(request);
  let reads = 0;
  const flaky = { get aborted() { if (reads++ > 0) throw Object.create(null); return false; }, addEventListener() {} };
  const pager = new Pager(one);
  const unhandled = [];
  const onUnhandled = (e) => unhandled.push(e);
  process.on("unhandledRejection", onUnhandled);
  try {
    assert.deepEqual(names(await pager.nextPage(fetchChunk, { signal: flaky })), ["a", "c"]);
    const aborted = { aborted: true, get reason() { throw 1; } };
    await assert.rejects(pager.nextPage(fetchChunk, { signal: aborted }), (e) => e instanceof PagerError && e.code === "ABORTED");
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.deepEqual(unhandled, []);
  } finally {
    process.off("unhandledRejection", onUnhandled);
    pager.free();
  }
});

test("a page token (made with the codec) whose watermark is over the key limit is refused at resume, not a stuck list later", () => {
  // 64 sources: keys of at most 32 bytes. One watermark of about 5 KB still fits the token it comes
  // in, but beside 63 other sources' ordinary keys no later position would fit one.
  const options = { sources: Array.from({ length: 64 }, (_, i) => ({ plugin: `p${i}`, cluster: "c", namespace: "n" })), pageSize: 64, chunkLimit: 1 };
  const fresh = new Pager(options);
  const state = codec.decodePageToken(fresh.pageToken());
  fresh.free();
  const identity = { plugin: "p0", cluster: "c", namespace: "n", identifier: "x" };
  state.sources[0].watermark = { sortKey: "a" + "\u0800".repeat(1650), identity };
  const token = codec.encodePageToken(state);
  assert.equal(code(() => Pager.resume(token, options)), "INVALID_PAGE_TOKEN");
  // At the limit (31 bytes of sort key + the identifier's 1): resumes, and its pages encode.
  state.sources[0].watermark = { sortKey: "a".repeat(31), identity };
  const pager = Pager.resume(codec.encodePageToken(state), options);
  for (const request of pager.nextRequests()) {
    const i = request.sourceIndex;
    const name = `z${i}_`.padEnd(15, "q"); // key: 15 + "r/" + 15 = 32 bytes
    const items = i > 0 ? [summary(`p${i}`, name, { cluster: "c", namespace: "n", repo: "r" })] : [];
    pager.feed(request.requestId, { availablePackageSummaries: items });
  }
  assert.equal(pager.takePage().items.length, 63);
  pager.free();
});

test("a copy of a Pager (Object.assign onto its prototype, as lodash's cloneDeep copies) is not a live pager", () => {
  const pager = new Pager(one);
  const copy = Object.assign(Object.create(Object.getPrototypeOf(pager)), pager);
  assert.equal(code(() => copy.pageToken()), "PAGER_FREED");
  copy.free(); // frees nothing
  assert.deepEqual(names(drivePage(pager, [helm()])), ["a", "c"]);
  const token = pager.pageToken();
  pager.free();
  // It used to read the freed pager's memory (garbage) and free it a second time.
  assert.equal(code(() => copy.pageToken()), "PAGER_FREED");
  assert.equal(code(() => copy.nextRequests()), "PAGER_FREED");
  copy.free();
  assert.deepEqual(structuredClone(new Pager(one)), {});
  assert.equal(typeof token, "string");
  moduleWorks();
});

test("a Pager used and freed through a Proxy (Vue's reactive, MobX) is not freed again when collected", async () => {
  // Freed through a Proxy, wasm-bindgen could not unregister the object from its finalizer: once
  // collected, its pointer was freed a second time, breaking whichever pager had that memory since.
  const v8 = await import("node:v8");
  const vm = await import("node:vm");
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc");
  const reactive = (o) => new Proxy(o, { get: (t, k, r) => Reflect.get(t, k, r), set: (t, k, v, r) => Reflect.set(t, k, v, r) });
  const kept = [];
  for (let i = 0; i < 50; i++) {
    (() => {
      const proxied = reactive(new Pager(one));
      assert.deepEqual(names(drivePage(proxied, [helm()])), ["a", "c"]);
      proxied.free();
      assert.equal(code(() => proxied.pageReady()), "PAGER_FREED");
    })();
    kept.push(new Pager(one)); // most likely in the memory just freed
  }
  for (let k = 0; k < 10; k++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  for (const pager of kept) {
    assert.deepEqual(names(drivePage(pager, [helm()])), ["a", "c"]);
    pager.free();
  }
  // nextPage through a Proxy, free through the Proxy or the object: the call rejects at once.
  for (const through of ["proxy", "object"]) {
    const pager = new Pager(one);
    const proxied = reactive(pager);
    const call = proxied.nextPage(async (request) => {
      (through === "proxy" ? proxied : pager).free();
      return helm().answer(request);
    });
    await assert.rejects(call, (e) => e instanceof PagerError && e.code === "PAGER_FREED");
  }
  moduleWorks();
});

test("a frozen or sealed Pager works and frees (freeze once kept free() from zeroing the pointer: a TypeError, never freed)", () => {
  for (const lock of [Object.freeze, Object.seal, Object.preventExtensions]) {
    const pager = lock(new Pager(one));
    assert.deepEqual(names(drivePage(pager, [helm()])), ["a", "c"]);
    pager.free();
    assert.equal(code(() => pager.pageToken()), "PAGER_FREED");
    pager.free();
  }
  moduleWorks();
});

test("NaN or ±Infinity in options is INVALID_OPTIONS, not the default (JSON wrote them as null: absent)", () => {
  for (const field of ["pageSize", "chunkLimit", "maxSourceItems", "maxChunksWithoutProgress"]) {
    for (const value of [NaN, Infinity, -Infinity]) {
      assert.equal(code(() => new Pager({ ...one, [field]: value })), "INVALID_OPTIONS", `${field}: ${value}`);
      try {
        new Pager({ ...one, [field]: value });
      } catch (e) {
        assert.equal(e.details.field, field);
        assert.ok(e.message.endsWith(`${field}: expected JSON data, found ${value}`), e.message);
      }
    }
  }
  const state = codec.decodePageToken(new Pager(one).pageToken());
  state.sources[0].offset = NaN;
  assert.equal(code(() => codec.encodePageToken(state)), "INVALID_PAGE_TOKEN");
  assert.equal(code(() => codec.encodeContinueToken({ resourceVersion: Infinity, start: "a" })), "INVALID_CONTINUE_TOKEN");
  // Absent (undefined) and null still mean the default.
  for (const value of [undefined, null]) new Pager({ ...one, pageSize: value }).free();
});

test("a sparse items or categories array of length 2^32 - 1 is INVALID_RESPONSE at once (was read hole by hole: out of memory)", () => {
  const pager = new Pager(one);
  const [request] = pager.nextRequests();
  const sparse = [];
  sparse.length = 2 ** 32 - 1;
  sparse[5] = summary("helm.packages", "a");
  const started = Date.now();
  assert.equal(code(() => pager.feed(request.requestId, { availablePackageSummaries: sparse })), "INVALID_RESPONSE");
  assert.equal(code(() => pager.feed(request.requestId, { items: sparse })), "INVALID_RESPONSE");
  // Likewise categories: a missing one is an error, not "" (a hole at a time).
  const categories = [];
  categories.length = 2 ** 32 - 1;
  const item = summary("helm.packages", "a", { categories });
  assert.equal(code(() => pager.feed(request.requestId, { availablePackageSummaries: [item] })), "INVALID_RESPONSE");
  const holey = summary("helm.packages", "a", { categories: ["x", , "y"] });
  assert.throws(() => pager.feed(request.requestId, { availablePackageSummaries: [holey] }), /categories\[1\] must be a string/);
  assert.ok(Date.now() - started < 1000);
  pager.free();
});

test("a nextPage made from inside the options' signal getter runs before the call, not beside it", async () => {
  const pager = new Pager(one);
  const source = helm();
  const fetchChunk = async (request) => source.answer(request);
  let inner;
  const outer = pager.nextPage(fetchChunk, {
    get signal() {
      inner ??= pager.nextPage(fetchChunk);
      return undefined;
    },
  });
  // They ran side by side: the outer one found the inner one's requests unanswered (NO_PROGRESS).
  assert.deepEqual(names(await inner), ["a", "c"]);
  assert.deepEqual(names(await outer), ["e"]);
  pager.free();
});
