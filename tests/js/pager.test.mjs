// The Pager class through the built nodejs package: order, identity of items, resume, stale answers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { pkg, PagerError } from "./support/package.mjs";
import { summary, offsetSource, continueSource, drivePage, identity } from "./support/backend.mjs";

const { Pager } = pkg;

function catalog() {
  const helm = ["apache", "consul", "grafana", "nginx", "redis", "zookeeper"].map((n) => summary("helm.packages", n, { repo: "bitnami" }));
  const flux = ["grafana", "podinfo", "redis"].map((n) => summary("fluxv2.packages", n, { repo: "podinfo" }));
  const kapp = ["cert-manager", "contour", "grafana"].map((n) => summary("kapp_controller.packages", n, { repo: "tce" }));
  return { helm, flux, kapp };
}

function setup({ pageSize = 4, chunkLimit = 2 } = {}) {
  const { helm, flux, kapp } = catalog();
  const sources = [offsetSource(helm), offsetSource(flux), continueSource(kapp)];
  const options = {
    sources: [
      { plugin: "helm.packages", cluster: "default", namespace: "kubeapps", kind: "kubeapps" },
      { plugin: "fluxv2.packages", cluster: "default", namespace: "kubeapps", kind: "kubeapps" },
      { plugin: "kapp_controller.packages", cluster: "default", namespace: "kubeapps", kind: "kubernetes" },
    ],
    pageSize,
    chunkLimit,
  };
  const all = [...helm, ...flux, ...kapp];
  return { sources, options, all };
}

/** The merge order of the docs for sort "name": name bytes, then plugin, cluster, namespace, identifier. */
function expectedOrder(items) {
  const key = (s) => [s.name, s.availablePackageRef.plugin.name, "default", "kubeapps", s.availablePackageRef.identifier];
  return [...items].sort((a, b) => {
    const ka = key(a), kb = key(b);
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i] < kb[i] ? -1 : 1;
    return 0;
  });
}

function pageAll(pager, sources) {
  const shown = [];
  for (let i = 0; i < 100; i++) {
    const page = drivePage(pager, sources);
    shown.push(...page.items);
    if (page.done) return shown;
  }
  throw new Error("never done");
}

test("pages three sources in one total order, each item once, as the very objects fed", () => {
  const { sources, options, all } = setup();
  const pager = new Pager(options);
  const shown = pageAll(pager, sources);
  assert.deepEqual(shown.map(identity), expectedOrder(all).map(identity));
  // Same objects, not copies: unknown fields and identity survive.
  for (const item of shown) assert.ok(all.includes(item));
  pager.free();
});

test("a pager resumed from each nextPageToken gives the same next page as the original", () => {
  const { sources, options } = setup({ pageSize: 3 });
  const original = new Pager(options);
  for (let i = 0; i < 5; i++) {
    const page = drivePage(original, sources);
    if (page.done) break;
    assert.match(page.nextPageToken, /^[A-Za-z0-9_-]+$/);
    const resumed = Pager.resume(page.nextPageToken, options);
    const a = drivePage(resumed, sources);
    const b = drivePage(Pager.resume(page.nextPageToken, options), sources);
    assert.deepEqual(a.items.map(identity), b.items.map(identity));
    resumed.free();
  }
});

test("a page size change on resume is honoured", () => {
  const { sources, options } = setup({ pageSize: 2 });
  const first = drivePage(new Pager(options), sources);
  const bigger = drivePage(Pager.resume(first.nextPageToken, { ...options, pageSize: 5 }), sources);
  assert.equal(bigger.items.length, 5);
});

test("an answer to a request never made is ignored and counted, never merged", () => {
  const { sources, options } = setup();
  const pager = new Pager(options);
  const [request] = pager.nextRequests();
  assert.equal(pager.feed(request.requestId + 1000, sources[request.sourceIndex].answer(request)), "stale");
  assert.equal(pager.feed(request.requestId, sources[request.sourceIndex].answer(request)), "accepted");
  assert.equal(pager.feed(request.requestId, sources[request.sourceIndex].answer(request)), "stale");
  assert.equal(pager.stats.staleResponses, 2);
});

test("errors are PagerError instances with a stable code and details", () => {
  const { options } = setup();
  const cases = [
    [() => new Pager({ ...options, pageSize: 0 }), "INVALID_OPTIONS"],
    [() => new Pager({ ...options, sources: Array.from({ length: 65 }, (_, i) => ({ plugin: "helm.packages", namespace: `ns-${i}` })) }), "INVALID_OPTIONS"],
    [() => new Pager({ ...options, bogus: 1 }), "INVALID_OPTIONS"],
    [() => Pager.resume("not a token!", options), "INVALID_PAGE_TOKEN"],
    [() => Pager.resume("eyJoZWxtLnBhY2thZ2VzIjp7", options), "INVALID_PAGE_TOKEN"],
  ];
  for (const [call, code] of cases) {
    assert.throws(call, (e) => {
      assert.ok(e instanceof Error, "instanceof Error");
      assert.ok(e instanceof PagerError, "instanceof PagerError");
      assert.equal(e.name, "PagerError");
      assert.equal(e.code, code);
      assert.equal(typeof e.details, "object");
      assert.ok(typeof e.stack === "string" && e.stack.length > 0);
      return true;
    });
  }
});

test("a token from another filter is refused with FILTER_MISMATCH", () => {
  const { sources, options } = setup();
  const page = drivePage(new Pager(options), sources);
  assert.throws(
    () => Pager.resume(page.nextPageToken, { ...options, filter: { repositories: ["bitnami"] } }),
    (e) => e instanceof PagerError && e.code === "FILTER_MISMATCH",
  );
});

test("a bad response gives INVALID_RESPONSE naming nothing lost: the same request still works", () => {
  const { sources, options, all } = setup();
  const pager = new Pager(options);
  const requests = pager.nextRequests();
  const r = requests[0];
  assert.throws(() => pager.feed(r.requestId, { availablePackageSummaries: [{ name: 42 }] }), (e) => e.code === "INVALID_RESPONSE");
  for (const q of requests) pager.feed(q.requestId, sources[q.sourceIndex].answer(q));
  const shown = pageAll(pager, sources);
  assert.equal(shown.length, all.length);
});

test("every method of a freed pager throws PAGER_FREED; free() and [Symbol.dispose]() twice are harmless", async () => {
  const { options } = setup();
  const freed = (method) => (e) => {
    assert.ok(e instanceof PagerError, `${method}: a PagerError, got ${e?.constructor?.name}: ${e?.message}`);
    assert.equal(e.code, "PAGER_FREED");
    assert.equal(e.details.method, method);
    return true;
  };
  for (const dispose of [(p) => p.free(), (p) => p[Symbol.dispose]()]) {
    const pager = new Pager(options);
    const [request] = pager.nextRequests();
    dispose(pager);
    assert.throws(() => pager.nextRequests(), freed("nextRequests"));
    assert.throws(() => pager.feed(request.requestId, { availablePackageSummaries: [] }), freed("feed"));
    assert.throws(() => pager.fail(request.requestId, { status: 503 }), freed("fail"));
    assert.throws(() => pager.pageReady(), freed("pageReady"));
    assert.throws(() => pager.takePage(), freed("takePage"));
    assert.throws(() => pager.pageToken(), freed("pageToken"));
    assert.throws(() => pager.stats, freed("stats"));
    await assert.rejects(pager.nextPage(async () => ({})), freed("nextPage"));
    pager.free();
    pager[Symbol.dispose]();
    dispose(pager);
  }
  // A pager resumed from a token is guarded the same way, and other pagers are untouched.
  const other = new Pager(options);
  const resumed = Pager.resume(other.pageToken(), options);
  resumed.free();
  assert.throws(() => resumed.pageReady(), freed("pageReady"));
  assert.equal(other.pageReady(), false);
  other.free();
});

test("INVALID_OPTIONS names the member at fault in details.field, typos and wrong types included", () => {
  const sources = [{ plugin: "helm.packages" }];
  const cases = [
    [{ sources, pagesize: 5 }, "pagesize", "unknown field"],
    [{ sources, filter: { category: ["x"] } }, "filter.category", "unknown field"],
    [{ sources, sort: "date" }, "sort", 'expected one of "name", "displayName"'],
    [{ sources: [{ plugin: "h", kind: "k8s" }] }, "sources[0].kind", "expected one of"],
    [{ sources: [{ plugin: 5 }] }, "sources[0].plugin", "expected a string, found a number"],
    [{ sources, pageSize: "5" }, "pageSize", "expected a whole number, found a string"],
    [{ sources, filter: { categories: [1] } }, "filter.categories[0]", "expected a string"],
    [{}, "sources", "missing (required)"],
    [{ sources, pageSize: 0 }, "pageSize", ""],
  ];
  for (const [options, field, says] of cases) {
    assert.throws(
      () => new Pager(options),
      (e) => {
        assert.ok(e instanceof PagerError);
        assert.equal(e.code, "INVALID_OPTIONS");
        assert.equal(e.details.field, field, e.message);
        assert.ok(e.message.startsWith(`invalid options: ${field}: ${says}`), e.message);
        assert.doesNotMatch(e.message, /at byte/);
        return true;
      },
    );
  }
});

test("no sources is an empty, done list (a dashboard with no packages plugin configured)", async () => {
  const pager = new Pager({ sources: [], pageSize: 10 });
  let calls = 0;
  const page = await pager.nextPage(async () => {
    calls++;
    throw new Error("no source to ask");
  });
  assert.equal(calls, 0, "nothing is fetched");
  assert.deepEqual(page.items, []);
  assert.equal(page.done, true);
  assert.deepEqual(page.unreachable, []);
  assert.deepEqual(page.categories, []);
  const resumed = Pager.resume(page.nextPageToken, { sources: [], pageSize: 10 });
  const again = await resumed.nextPage(async () => assert.fail("no source to ask"));
  assert.equal(again.done, true);
  assert.equal(again.items.length, 0);
  pager.free();
  resumed.free();
});
