// The async driver pager.nextPage(fetchChunk, { signal }) against a fake backend:
// concurrency, abort mid-flight, failure then retry, 410 recovery, late answers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { pkg, PagerError } from "./support/package.mjs";
import { summary, offsetSource, continueSource, identity } from "./support/backend.mjs";

const { Pager } = pkg;

const names = (n, prefix) => Array.from({ length: n }, (_, i) => `${prefix}-${String(i).padStart(3, "0")}`);

function twoSources() {
  const helm = offsetSource(names(12, "a").map((n) => summary("helm.packages", n, { repo: "bitnami" })));
  const kapp = continueSource(names(12, "b").map((n) => summary("kapp_controller.packages", n, { repo: "tce" })));
  const options = {
    sources: [
      { plugin: "helm.packages", cluster: "default", namespace: "kubeapps", kind: "kubeapps" },
      { plugin: "kapp_controller.packages", cluster: "default", namespace: "kubeapps", kind: "kubernetes" },
    ],
    pageSize: 5,
    chunkLimit: 4,
  };
  return { sources: [helm, kapp], options, total: 24 };
}

/** A deferred promise. */
function deferred() {
  let resolve, reject;
  const promise = new Promise((a, b) => ((resolve = a), (reject = b)));
  return { promise, resolve, reject };
}

const tick = () => new Promise((r) => setImmediate(r));

async function pageAll(pager, fetchChunk) {
  const shown = [];
  for (let i = 0; i < 100; i++) {
    const page = await pager.nextPage(fetchChunk);
    shown.push(...page.items.map(identity));
    if (page.done) return shown;
  }
  throw new Error("never done");
}

test("requests to different sources run concurrently", async () => {
  const { sources, options } = twoSources();
  const pager = new Pager(options);
  const waiting = [];
  const fetchChunk = (request) => {
    const d = deferred();
    waiting.push({ request, d });
    return d.promise;
  };
  let settled = false;
  const page = pager.nextPage(fetchChunk).finally(() => (settled = true));
  await tick();
  // Both sources were asked before either answered.
  assert.deepEqual(waiting.map((w) => w.request.sourceIndex).sort(), [0, 1]);
  // Answer every request, including later rounds, until the page comes.
  for (let answered = 0; !settled; await tick()) {
    for (; answered < waiting.length; answered++) {
      const w = waiting[answered];
      w.d.resolve(sources[w.request.sourceIndex].answer(w.request));
    }
  }
  const result = await page;
  assert.equal(result.items.length, 5);
});

test("abort mid-flight rejects promptly with ABORTED and leaves the position unchanged", async () => {
  const { sources, options, total } = twoSources();
  const pager = new Pager(options);
  const controller = new AbortController();
  const never = () => new Promise(() => {}); // a backend that never answers
  const pending = pager.nextPage(never, { signal: controller.signal });
  await tick();
  controller.abort(new Error("user left"));
  await assert.rejects(pending, (e) => e instanceof PagerError && e.code === "ABORTED");
  // Nothing was lost: the same pager pages everything, once.
  const shown = await pageAll(pager, async (r) => sources[r.sourceIndex].answer(r));
  assert.equal(shown.length, total);
  assert.equal(new Set(shown).size, total);
});

test("aborts are the caller's, not the source's: more aborted calls than MAX_FAILURES_IN_A_ROW set no source aside", async () => {
  const { sources, options, total } = twoSources();
  const pager = new Pager(options);
  const never = () => new Promise(() => {}); // a backend that never answers
  for (let i = 0; i < 8; i++) {
    const controller = new AbortController();
    const pending = pager.nextPage(never, { signal: controller.signal });
    await tick();
    controller.abort();
    await assert.rejects(pending, (e) => e instanceof PagerError && e.code === "ABORTED");
  }
  // Every source answers the next call: none was set aside by the aborts, nothing counted.
  const page = await pager.nextPage(async (r) => sources[r.sourceIndex].answer(r));
  assert.deepEqual(page.unreachable, []);
  const shown = [...page.items.map(identity), ...(await pageAll(pager, async (r) => sources[r.sourceIndex].answer(r)))];
  assert.equal(shown.length, total);
  assert.equal(new Set(shown).size, total);
});

test("cancel(requestId) clears a request without counting it; its late answer is stale", () => {
  const { sources, options } = twoSources();
  const pager = new Pager(options);
  for (let i = 0; i < 8; i++) {
    const [r] = pager.nextRequests().filter((q) => q.sourceIndex === 0);
    assert.equal(r.pageToken, "");
    assert.equal(pager.cancel(r.requestId), true);
    assert.equal(pager.cancel(r.requestId), false);
    if (i === 0) assert.equal(pager.feed(r.requestId, sources[0].answer(r)), "stale");
  }
  assert.throws(() => pager.cancel(-1), (e) => e instanceof PagerError && e.code === "INVALID_RESPONSE");
  pager.free();
});

test("an already aborted signal rejects without fetching", async () => {
  const { options } = twoSources();
  const pager = new Pager(options);
  let calls = 0;
  await assert.rejects(
    pager.nextPage(() => (calls++, Promise.resolve({})), { signal: AbortSignal.abort() }),
    (e) => e.code === "ABORTED",
  );
  assert.equal(calls, 0);
});

test("a failing source rejects with SOURCE_FAILED naming it; the next call retries and nothing is lost", async () => {
  const { sources, options, total } = twoSources();
  const pager = new Pager(options);
  let failNext = true;
  const flaky = async (r) => {
    if (r.sourceIndex === 1 && failNext) {
      failNext = false;
      throw Object.assign(new Error("503"), { status: 503 });
    }
    return sources[r.sourceIndex].answer(r);
  };
  // retry: false: the call rejects at the first failure (nextPage retries a transient one by default).
  await assert.rejects(pager.nextPage(flaky, { retry: false }), (e) => {
    assert.equal(e.code, "SOURCE_FAILED");
    assert.equal(e.details.source, "kapp_controller.packages/default/kubeapps");
    assert.equal(e.details.status, 503);
    return true;
  });
  const shown = await pageAll(pager, flaky);
  assert.equal(shown.length, total);
  assert.equal(new Set(shown).size, total);
});

test("a 410 Expired from a kubernetes source is recovered from and flags the page inconsistent", async () => {
  const { sources, options, total } = twoSources();
  const pager = new Pager(options);
  const first = await pager.nextPage(async (r) => sources[r.sourceIndex].answer(r));
  let expired = false;
  const fetchChunk = async (r) => {
    if (r.sourceIndex === 1 && r.pageToken !== "" && !expired) {
      expired = true;
      throw Object.assign(new Error("Expired"), { status: 410, reason: "Expired" });
    }
    return sources[r.sourceIndex].answer(r);
  };
  const shown = [...first.items.map(identity)];
  let sawInconsistent = false;
  for (let i = 0; i < 20; i++) {
    const page = await pager.nextPage(fetchChunk);
    sawInconsistent ||= page.inconsistent;
    shown.push(...page.items.map(identity));
    if (page.done) break;
  }
  assert.ok(expired, "the test expired a continue token");
  assert.ok(sawInconsistent, "a page after the 410 is flagged inconsistent");
  assert.equal(new Set(shown).size, total);
  assert.equal(shown.length, total);
  assert.ok(pager.stats.expiredRecoveries >= 1);
});

test("a Kubernetes Status thrown as it came (code 410, metadata.continue) is a 410 too", async () => {
  const { sources, options, total } = twoSources();
  const pager = new Pager(options);
  const shown = (await pager.nextPage(async (r) => sources[r.sourceIndex].answer(r))).items.map(identity);
  let expired = false;
  const fetchChunk = async (r) => {
    if (r.sourceIndex === 1 && r.pageToken !== "" && !expired) {
      expired = true;
      // The apiserver's body, as a client that rejects with the parsed body throws it.
      throw { kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", message: "too old", reason: "Expired", code: 410 };
    }
    return sources[r.sourceIndex].answer(r);
  };
  for (let i = 0; i < 20; i++) {
    const page = await pager.nextPage(fetchChunk);
    shown.push(...page.items.map(identity));
    if (page.done) break;
  }
  assert.ok(expired);
  assert.equal(pager.stats.expiredRecoveries, 1);
  assert.equal(new Set(shown).size, total);
  assert.equal(shown.length, total);
});

test("fail() reads a Kubernetes Status's code and metadata.continue, and no other error's numeric code", () => {
  const { options } = twoSources();
  const pager = new Pager(options);
  const kube = () => pager.nextRequests().find((r) => r.sourceIndex === 1);
  const first = kube();
  const status = { kind: "Status", status: "Failure", reason: "Expired", code: 410, metadata: { continue: "inconsistent-token" } };
  assert.equal(pager.fail(first.requestId, status), "recovered");
  assert.equal(pager.stats.expiredRecoveries, 1, "read as a 410");
  const again = kube();
  assert.equal(again.pageToken, "inconsistent-token", "goes on from the Status's metadata.continue");
  // A DOMException's `code` (19: NetworkError) is no HTTP status: the failure reads as status 0.
  const network = new DOMException("network down", "NetworkError");
  assert.equal(network.code, 19);
  assert.equal(pager.fail(again.requestId, network), "retry");
  assert.equal(pager.stats.expiredRecoveries, 1);
  assert.equal(kube().pageToken, "inconsistent-token", "the same request is asked again");
});

test("answers that arrive after an abort are refused as stale and change nothing", async () => {
  const { sources, options, total } = twoSources();
  const pager = new Pager(options);
  const controller = new AbortController();
  const late = [];
  const slow = (r) => {
    const d = deferred();
    late.push({ r, d });
    return d.promise;
  };
  const pending = pager.nextPage(slow, { signal: controller.signal });
  await tick();
  controller.abort();
  await assert.rejects(pending, (e) => e.code === "ABORTED");
  // The backend answers now, too late: feeding those answers is refused as stale.
  for (const { r, d } of late) {
    d.resolve(sources[r.sourceIndex].answer(r));
    assert.equal(pager.feed(r.requestId, sources[r.sourceIndex].answer(r)), "stale");
  }
  assert.equal(pager.stats.staleResponses, late.length);
  const shown = await pageAll(pager, async (r) => sources[r.sourceIndex].answer(r));
  assert.equal(shown.length, total);
});

test("fetches still pending after an abort may reject later without an unhandled rejection", async () => {
  const { options } = twoSources();
  const pager = new Pager(options);
  const unhandled = [];
  const onUnhandled = (reason) => unhandled.push(reason);
  process.on("unhandledRejection", onUnhandled);
  try {
    const controller = new AbortController();
    // Like fetch(): each request rejects with an AbortError when the signal aborts.
    const abortable = (_request, { signal }) =>
      new Promise((_, reject) => signal.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))));
    const pending = pager.nextPage(abortable, { signal: controller.signal });
    await tick();
    controller.abort();
    await assert.rejects(pending, (e) => e.code === "ABORTED");
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(unhandled, []);
  } finally {
    process.off("unhandledRejection", onUnhandled);
  }
});

test("nextPage with a fetchChunk that is not a function rejects INVALID_OPTIONS at once, out of line", async () => {
  const { sources, options } = twoSources();
  const pager = new Pager(options);
  let release;
  const gate = new Promise((r) => (release = r));
  const fetchChunk = async (r) => (await gate, sources[r.sourceIndex].answer(r));
  const running = pager.nextPage(fetchChunk);
  for (const bad of [undefined, null, 42, "f", {}]) {
    // Rejects while the first call still waits: it does not queue behind it, nor take its place.
    await assert.rejects(pager.nextPage(bad), (e) => e instanceof PagerError && e.code === "INVALID_OPTIONS" && e.message === "fetchChunk must be a function");
  }
  const second = pager.nextPage(fetchChunk);
  release();
  const [a, b] = await Promise.all([running, second]);
  const shown = [...a.items, ...b.items].map(identity);
  assert.equal(new Set(shown).size, 10);
  pager.free();
});

test("two nextPage calls at once run one after the other and give consecutive pages", async () => {
  const { sources, options, total } = twoSources();
  const pager = new Pager(options);
  const fetchChunk = async (r) => sources[r.sourceIndex].answer(r);
  const [a, b] = await Promise.all([pager.nextPage(fetchChunk), pager.nextPage(fetchChunk)]);
  const first = [...a.items, ...b.items].map(identity);
  assert.equal(first.length, 10);
  assert.equal(new Set(first).size, 10);
  const rest = await pageAll(pager, fetchChunk);
  assert.equal(first.length + rest.length, total);
  assert.equal(new Set([...first, ...rest]).size, total);
});

test("free() while nextPage runs rejects it with PAGER_FREED at once, and the call queued after it too", async () => {
  const { options } = twoSources();
  const pager = new Pager(options);
  const never = () => new Promise(() => {}); // a backend that never answers
  const running = pager.nextPage(never);
  const queued = pager.nextPage(never);
  await tick();
  pager.free();
  for (const call of [running, queued]) {
    await assert.rejects(call, (e) => e instanceof PagerError && e.code === "PAGER_FREED" && e.details.method === "nextPage");
  }
  // Freed from inside fetchChunk: the same.
  const { sources } = twoSources();
  const other = new Pager(options);
  await assert.rejects(
    other.nextPage((r) => {
      other.free();
      return sources[r.sourceIndex].answer(r);
    }),
    (e) => e instanceof PagerError && e.code === "PAGER_FREED",
  );
  other.free();
});

test("nextPage from inside its own pager's fetchChunk is REENTRANT_CALL, not a deadlock", async () => {
  const { sources, options, total } = twoSources();
  const pager = new Pager(options);
  let inner;
  const fetchChunk = async (r) => {
    inner ??= pager.nextPage(async (q) => sources[q.sourceIndex].answer(q));
    await inner;
    return sources[r.sourceIndex].answer(r);
  };
  // The caller's mistake reaches the caller as itself, not as the source's SOURCE_FAILED.
  await assert.rejects(pager.nextPage(fetchChunk), (e) => e instanceof PagerError && e.code === "REENTRANT_CALL");
  await assert.rejects(inner, (e) => e instanceof PagerError && e.code === "REENTRANT_CALL");
  // Nothing was lost: the pager goes on.
  const shown = await pageAll(pager, async (r) => sources[r.sourceIndex].answer(r));
  assert.equal(shown.length, total);
  assert.equal(new Set(shown).size, total);
});

test("a fetch Response returned instead of its JSON is INVALID_RESPONSE saying so, not an empty list", async () => {
  const { sources, options, total } = twoSources();
  const pager = new Pager(options);
  const asResponse = async (r) => new Response(JSON.stringify(sources[r.sourceIndex].answer(r)));
  await assert.rejects(pager.nextPage(asResponse), (e) => {
    assert.ok(e instanceof PagerError);
    assert.equal(e.code, "INVALID_RESPONSE");
    assert.match(e.message, /response\.json\(\)/);
    return true;
  });
  // A class instance with no fields is refused too; a plain `{}` is a Kubeapps empty last page.
  class Empty {}
  await assert.rejects(pager.nextPage(async () => new Empty()), (e) => e.code === "INVALID_RESPONSE" && /class Empty/.test(e.message));
  // Nothing was lost: with the JSON the same pager lists everything.
  const shown = await pageAll(pager, async (r) => sources[r.sourceIndex].answer(r));
  assert.equal(shown.length, total);
  assert.equal(new Set(shown).size, total);
});
