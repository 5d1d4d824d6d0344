// A custom predicate (`options.predicate`, `{ id, matches }`), the built package end to end: it
// replaces the pager's rules for the sources the pager filters and only those, is given the very
// items fed and their source, binds page tokens by its id, and a throw leaves the pager as it was.
import { test } from "node:test";
import assert from "node:assert/strict";
import { pkg, PagerError } from "./support/package.mjs";
import { continueSource, drivePage, identity, offsetSource, summary } from "./support/backend.mjs";

const { Pager } = pkg;

// helm filters itself (the default for a Kubeapps plugin); its test backend here answers what a
// plugin would match for the query "db". kapp is a plain Kubernetes list and my.plugin an
// unknown plugin: the pager filters both.
const helmAll = ["apache", "mysql", "redis"].map((n) => summary("helm.packages", n, { repo: n === "apache" ? "bitnami" : "db" }));
const kappAll = ["contour", "db-operator", "dbx", "harbor"].map((n) => summary("kapp_controller.packages", n, { repo: "tce" }));
const mineAll = ["alpha", "beta-db", "gamma", "zeta"].map((n) => summary("my.plugin", n, { repo: "r" }));
const KEEP = new Set(["apache", "contour", "dbx", "gamma", "zeta"]);

const SOURCES = [
  { plugin: "helm.packages", cluster: "default", namespace: "kubeapps" },
  { plugin: "kapp_controller.packages", cluster: "default", namespace: "kubeapps", kind: "kubernetes" },
  { plugin: "my.plugin", cluster: "default", namespace: "kubeapps" },
];

/** The three backends; helm answers only its matches for the query (it filters). */
function backends() {
  const helm = offsetSource(helmAll);
  const filtering = {
    answer(request) {
      assert.deepEqual(request.filterOptions, { query: "db" }, "the source that filters is sent the filter");
      return { ...helm.answer(request), availablePackageSummaries: helm.answer(request).availablePackageSummaries.filter((s) => s.availablePackageRef.identifier.startsWith("db/")) };
    },
  };
  const plain = (src) => ({
    answer(request) {
      assert.equal(request.filterOptions, undefined, "a source the pager filters is sent no filter");
      return src.answer(request);
    },
  });
  return [filtering, plain(continueSource(kappAll)), plain(offsetSource(mineAll))];
}

/** A fetchChunk over `sources`, for nextPage. */
const fetcherOf = (sources) => async (request) => sources[request.sourceIndex].answer(request);

function pageAll(pager, sources) {
  const items = [];
  const pages = [];
  for (let i = 0; i < 100; i++) {
    const page = drivePage(pager, sources);
    pages.push(page);
    items.push(...page.items);
    if (page.done) return { items, pages };
  }
  throw new Error("never done");
}

test("the predicate replaces the pager's rules for the sources it filters, and only those", () => {
  const calls = [];
  const fed = new Set([...kappAll, ...mineAll]);
  const matches = function (item, source) {
    calls.push([item, source, this]);
    return KEEP.has(item.name) ? "yes" : 0; // truthiness, as Array.prototype.filter reads it
  };
  const pager = new Pager({ sources: SOURCES, pageSize: 4, chunkLimit: 2, filter: { query: "db" }, predicate: { id: "keep-v1", matches } });
  const { items, pages } = pageAll(pager, backends());
  // helm: what it matched (mysql, redis; apache is kept by the predicate but helm never gave it).
  // kapp and my.plugin: what the predicate keeps, whatever the query.
  assert.deepEqual(items.map((s) => s.name), ["contour", "dbx", "gamma", "mysql", "redis", "zeta"]);
  // Called with the very objects fed, only from the sources the pager filters, with their source.
  assert.ok(calls.length >= kappAll.length + mineAll.length, `${calls.length} calls`);
  for (const [item, source, self] of calls) {
    assert.ok(fed.has(item), `${identity(item)} is an object fed (===), of a source the pager filters`);
    assert.equal(self, undefined);
    assert.equal(source.plugin, item.availablePackageRef.plugin.name);
    assert.deepEqual({ ...source }, { plugin: source.plugin, cluster: "default", namespace: "kubeapps" });
    assert.ok(Object.isFrozen(source));
  }
  // The same source object on every call for one source.
  assert.equal(new Set(calls.map(([, s]) => s)).size, 2);
  // Rejections count as filteredOut, by source.
  const out = [0, 1, 2].map((i) => pages.reduce((n, p) => n + p.stats.sources[i].filteredOut, 0));
  assert.deepEqual(out, [0, 2, 2]);
  // `plugins` stays the pager's rule, over the predicate too.
  const only = new Pager({ sources: SOURCES, pageSize: 10, filter: { query: "db", plugins: ["my.plugin"] }, predicate: { id: "keep-v1", matches: (s) => KEEP.has(s.name) } });
  assert.deepEqual(pageAll(only, backends()).items.map((s) => s.name), ["gamma", "zeta"]);
  for (const p of [pager, only]) p.free();
});

test("the token is bound to the predicate's id: FILTER_MISMATCH under another id or none", async () => {
  const options = (id) => ({ sources: SOURCES, pageSize: 2, chunkLimit: 2, filter: { query: "db" }, ...(id && { predicate: { id, matches: (s) => KEEP.has(s.name) } }) });
  const pager = new Pager(options("keep-v1"));
  const first = await pager.nextPage(fetcherOf(backends()));
  assert.deepEqual(first.items.map((s) => s.name), ["contour", "dbx"]);
  for (const other of ["keep-v2", undefined]) {
    assert.throws(() => Pager.resume(first.nextPageToken, options(other)), (e) => e instanceof PagerError && e.code === "FILTER_MISMATCH", String(other));
  }
  // A token made without a predicate does not resume under one.
  const plain = new Pager(options());
  assert.throws(() => Pager.resume(plain.pageToken(), options("keep-v1")), (e) => e instanceof PagerError && e.code === "FILTER_MISMATCH");
  // The same id resumes: the rest once, judged. (`predicate: null` is no predicate.)
  const resumed = Pager.resume(first.nextPageToken, options("keep-v1"));
  const rest = pageAll(resumed, backends()).items.map((s) => s.name);
  assert.deepEqual(rest, ["gamma", "mysql", "redis", "zeta"]);
  assert.equal(Pager.resume(plain.pageToken(), { ...options(), predicate: null }).pageToken(), plain.pageToken());
  for (const p of [pager, plain, resumed]) p.free();
});

test("a predicate that throws rejects nextPage with PREDICATE_FAILED, the pager unchanged; the next call goes on", async () => {
  const boom = new Error("boom");
  let throwOn = "dbx";
  const matches = (item) => {
    if (item.name === throwOn) throw boom;
    return KEEP.has(item.name);
  };
  const options = { sources: SOURCES, pageSize: 2, chunkLimit: 2, filter: { query: "db" }, predicate: { id: "keep-v1", matches } };
  const pager = new Pager(options);
  const reference = new Pager({ ...options, predicate: { id: "keep-v1", matches: (s) => KEEP.has(s.name) } });
  const fetchChunk = fetcherOf(backends());
  const want = [];
  for (;;) {
    const page = await reference.nextPage(fetchChunk);
    want.push(page.items.map((s) => s.name));
    if (page.done) break;
  }
  const token = pager.pageToken();
  const error = await pager.nextPage(fetchChunk).then(() => assert.fail("resolved"), (e) => e);
  assert.ok(error instanceof PagerError);
  assert.equal(error.code, "PREDICATE_FAILED");
  assert.equal(error.cause, boom);
  assert.equal(error.details.cause, boom);
  assert.equal(error.details.source, "kapp_controller.packages/default/kubeapps");
  assert.equal(error.details.predicate, "keep-v1");
  assert.equal(typeof error.details.index, "number");
  assert.match(error.message, /keep-v1.*threw \(boom\)/);
  assert.equal(pager.pageToken(), token, "the position is unchanged");
  // The next calls go on and give what a pager that never failed gives.
  throwOn = undefined;
  const got = [];
  for (;;) {
    const page = await pager.nextPage(fetchChunk);
    got.push(page.items.map((s) => s.name));
    if (page.done) break;
  }
  assert.deepEqual(got, want);
  for (const p of [pager, reference]) p.free();
});

test("with the sans-IO methods, feed throws PREDICATE_FAILED and the request stays open; a promise is refused", () => {
  let verdict = () => Promise.resolve(true);
  const pager = new Pager({ sources: SOURCES.slice(1), pageSize: 10, predicate: { id: "p", matches: (s) => verdict(s) } });
  const [, kapp, mine] = backends();
  const requests = pager.nextRequests();
  const r = requests.find((q) => q.sourceIndex === 0);
  const answer = kapp.answer(r);
  assert.throws(() => pager.feed(r.requestId, answer), (e) => e instanceof PagerError && e.code === "PREDICATE_FAILED" && /promise/.test(e.message) && e.details.index === 0);
  assert.equal(pager.stats.filteredOut, 0);
  assert.equal(pager.stats.requests, 0, "nothing counted");
  verdict = (s) => KEEP.has(s.name);
  assert.equal(pager.feed(r.requestId, answer), "accepted", "the same request is still open");
  // A stale answer is not judged: counted as stale, whatever the predicate would do.
  verdict = () => {
    throw new Error("never called");
  };
  assert.equal(pager.feed(r.requestId, answer), "stale");
  verdict = (s) => KEEP.has(s.name);
  const m = requests.find((q) => q.sourceIndex === 1);
  pager.feed(m.requestId, mine.answer(m));
  const page = drivePage(pager, [kapp, mine]);
  assert.deepEqual(page.items.map((s) => s.name), ["contour", "dbx", "gamma", "zeta"]);
  pager.free();
});

test("a bad predicate is INVALID_OPTIONS naming the member", () => {
  const cases = [
    [{ id: "x", matches: "not a function" }, "predicate.matches"],
    [{ id: "x" }, "predicate.matches"],
    [{ id: "", matches: () => true }, "predicate.id"],
    [{ id: 7, matches: () => true }, "predicate.id"],
    [{ matches: () => true }, "predicate.id"],
    [{ id: "a\ud800", matches: () => true }, "predicate.id"],
    [{ id: "x".repeat(1025), matches: () => true }, "predicate.id"],
    [{ id: "x", matches: () => true, extra: 1 }, "predicate.extra"],
    [() => true, "predicate"],
    [["x", () => true], "predicate"],
    [{ get id() { throw new Error("getter"); }, matches: () => true }, "predicate.id"],
  ];
  for (const [k, [predicate, field]] of cases.entries()) {
    for (const make of [(o) => new Pager(o), (o) => Pager.resume(new Pager({ sources: SOURCES }).pageToken(), o)]) {
      assert.throws(
        () => make({ sources: SOURCES, predicate }),
        (e) => e instanceof PagerError && e.code === "INVALID_OPTIONS" && e.details.field === field,
        `case ${k}: ${field}`,
      );
    }
  }
  // The other options are still read as before, a predicate beside them or not.
  assert.throws(() => new Pager({ sources: SOURCES, pageSize: 0, predicate: { id: "x", matches: () => true } }), (e) => e.details.field === "pageSize");
  assert.throws(() => new Pager({ sources: SOURCES, extra: 1, predicate: { id: "x", matches: () => true } }), (e) => e.details.field === "extra");
  new Pager({ sources: SOURCES, predicate: undefined }).free();
});

test("a predicate that calls back into its own pager (pageToken, nextRequests, free) gets correct pages or PAGER_FREED", async () => {
  const mine = offsetSource(mineAll);
  const fetchChunk = async (request) => mine.answer(request);
  const sources = [{ plugin: "my.plugin", cluster: "default", namespace: "kubeapps" }];
  const names = (page) => page.items.map((s) => s.name);
  for (const call of ["pageToken", "nextRequests"]) {
    let pager;
    let calls = 0;
    const matches = () => {
      if (calls++ === 0) pager[call]();
      return true;
    };
    pager = new Pager({ sources, pageSize: 2, chunkLimit: 2, predicate: { id: "reentrant", matches } });
    assert.deepEqual(names(await pager.nextPage(fetchChunk)), ["alpha", "beta-db"], call);
    assert.deepEqual(names(await pager.nextPage(fetchChunk)), ["gamma", "zeta"], call);
    pager.free();
  }
  let pager;
  pager = new Pager({ sources, pageSize: 2, chunkLimit: 2, predicate: { id: "frees", matches: () => (pager.free(), true) } });
  await assert.rejects(pager.nextPage(fetchChunk), (e) => e instanceof PagerError && e.code === "PAGER_FREED");
});
