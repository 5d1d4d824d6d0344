// Issue 15 end to end, the built package against the demo backend (server/): the plugins' own
// search is the search (parity with the backend's matching for every field it matches: nothing
// lost, nothing added), and a plugin that fails for good leaves the others paging, named on
// every page, its items back without repeats once it answers again.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { pkg } from "./support/package.mjs";
import { startServer } from "../../server/main.mjs";

const { Pager, kubeappsFetcher, kubeappsFilterOptions } = pkg;

let srv;
before(async () => {
  srv = await startServer({ port: 0 });
});
after(() => srv.close());

const base = () => srv.url.replace(/\/$/, "");
const post = (path, body) =>
  fetch(base() + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then((r) => r.json());
const get = (path) => fetch(base() + path).then((r) => r.json());

const SOURCES = [
  { plugin: "helm.packages", namespace: "kubeapps" },
  { plugin: "fluxv2.packages", namespace: "kubeapps", kind: "unordered" },
  // Paged through the kapp_controller plugin's REST endpoint (continue tokens): it filters.
  { plugin: "kapp_controller.packages", namespace: "kubeapps", kind: "kubernetes", filter: "source" },
];
const identity = (s) => {
  const r = s.availablePackageRef;
  return `${r.plugin.name}/${r.context.cluster}/${r.context.namespace}/${r.identifier}`;
};

/** Every page of a pager over the demo's three plugins with `filter`. */
async function all(filter, { pageSize = 25, onPage } = {}) {
  const pager = new Pager({ sources: SOURCES, pageSize, chunkLimit: 40, filter });
  const fetchChunk = kubeappsFetcher({ baseUrl: `${base()}/apis` });
  const pages = [];
  try {
    for (let i = 0; i < 500; i++) {
      const page = await pager.nextPage(fetchChunk);
      pages.push(page);
      if (onPage) await onPage(page, pager, i);
      if (page.done && page.unreachable.length === 0) break;
      if (page.done && !onPage) break;
    }
  } finally {
    pager.free();
  }
  return pages;
}

/** The backend's own matching: what each plugin's search gives, in the three namespaces asked. */
async function truth(filter) {
  const q = new URLSearchParams({ namespace: "kubeapps" });
  if (filter.query) q.set("query", filter.query);
  for (const c of filter.categories ?? []) q.append("categories", c);
  for (const r of filter.repositories ?? []) q.append("repositories", r);
  return (await get(`/demo/truth?${q}`)).identities;
}

/** A catalog record of the backend, read through its config-free paths: one helm chart by name. */
async function helmSummary(query) {
  const r = await get(`/apis/plugins/helm/packages/v1alpha1/availablepackages?context.namespace=kubeapps&filterOptions.query=${encodeURIComponent(query)}`);
  return r.availablePackageSummaries ?? [];
}

test("the search is the plugins' own: parity with the backend for every field it matches", async () => {
  // A query per field the helm plugin's SQL reads, each matching packages through that field
  // alone (a keyword, a source URL, a repository name, a description word, a name part), and
  // the plugins that match other fields (kapp: long description; flux: case-sensitive).
  const cases = [
    { why: "name", filter: { query: "redis" } },
    { why: "description (shortDescription)", filter: { query: "object storage" } },
    { why: "keywords (JSON text of the array)", filter: { query: "\"database\"" } },
    { why: "sources (JSON text)", filter: { query: "github.com/jetstack" } },
    { why: "repository name", filter: { query: "bitnami" } },
    { why: "maintainers: never in helm's SQL (NULL on an array), a substring in flux's Go", filter: { query: "Grafana Labs" } },
    { why: "ILIKE wildcards in the query", filter: { query: "re_is" } },
    { why: "kapp's long description", filter: { query: "Packaged for kapp" } },
    { why: "categories", filter: { categories: ["Database"] } },
    { why: "query and category", filter: { query: "sql", categories: ["Database"] } },
  ];
  for (const { why, filter } of cases) {
    const pages = await all(filter);
    const shown = pages.flatMap((p) => p.items.map(identity));
    const want = await truth(filter);
    assert.ok(want.length > 0, `${why}: the backend matches something`);
    assert.equal(new Set(shown).size, shown.length, `${why}: nothing twice`);
    assert.deepEqual([...shown].sort(), [...want].sort(), `${why}: exactly what the plugins match`);
    assert.ok(pages.every((p) => p.unreachable.length === 0));
  }
  // The fields are the backend's, not the pager's own rules: a keyword-only match is found (the
  // pager's query rule reads name, displayName, shortDescription and identifier only).
  const byKeyword = await helmSummary("\"database\"");
  assert.ok(byKeyword.some((s) => !`${s.name} ${s.shortDescription ?? ""}`.toLowerCase().includes("database")));
  // Maintainers: flux finds them (case-sensitive), helm never.
  const grafana = (await all({ query: "Grafana Labs" })).flatMap((p) => p.items);
  assert.ok(grafana.length > 0 && grafana.every((s) => s.availablePackageRef.plugin.name !== "helm.packages"));
  assert.deepEqual((await all({ query: "grafana labs" })).flatMap((p) => p.items).filter((s) => s.availablePackageRef.plugin.name === "fluxv2.packages"), []);
});

test("the request carries the filter as kubeapps-apis reads it; the helper builds it", async () => {
  assert.deepEqual(kubeappsFilterOptions({ query: " \u3000sql ", categories: ["b", "a", "b"], plugins: ["x"] }), {
    query: "sql",
    categories: ["a", "b"],
  });
  assert.equal(kubeappsFilterOptions({ plugins: ["x"], query: "  " }), undefined);
  assert.deepEqual(kubeappsFilterOptions({ pkgVersion: "1.0.0", repositories: ["\u{1F600}", "\uFFFD"] }), {
    repositories: ["\uFFFD", "\u{1F600}"],
    pkgVersion: "1.0.0",
  });
  assert.throws(() => kubeappsFilterOptions({ query: 5 }), (e) => e.code === "INVALID_OPTIONS");
  const pager = new Pager({
    sources: [...SOURCES, { plugin: "my.plugin", namespace: "kubeapps" }],
    filter: { query: " sql ", categories: ["Database"], plugins: ["helm.packages", "my.plugin"] },
  });
  const requests = pager.nextRequests();
  const sent = kubeappsFilterOptions({ query: " sql ", categories: ["Database"] });
  for (const r of requests) {
    if (r.source.plugin === "my.plugin") assert.equal(r.filterOptions, undefined, "the pager filters an unknown plugin");
    else assert.deepEqual(r.filterOptions, sent, r.source.plugin);
  }
  pager.free();
  // A version filter needs every source to filter.
  assert.throws(
    () => new Pager({ sources: [{ plugin: "my.plugin" }], filter: { appVersion: "1" } }),
    (e) => e.code === "INVALID_OPTIONS" && e.details.field === "filter.appVersion",
  );
  // And the sides are bound to the token.
  const p = new Pager({ sources: SOURCES, filter: { query: "sql" } });
  const token = p.pageToken();
  p.free();
  const otherSide = SOURCES.map((s) => ({ ...s, filter: "pager" }));
  assert.throws(() => Pager.resume(token, { sources: otherSide, filter: { query: "sql" } }), (e) => e.code === "FILTER_MISMATCH");
});

test("a plugin that fails for good: the others go on, named on each page; retried, its items come back once", async () => {
  await post("/demo/reset", {});
  const want = await truth({});
  await post("/demo/down", { plugin: "fluxv2.packages", down: true });
  const shown = [];
  const pages = await all({}, {
    pageSize: 40,
    onPage: async (page, pager, i) => {
      shown.push(...page.items.map(identity));
      if (i < 3) {
        assert.deepEqual(page.unreachable.map((u) => [u.source, u.cause, u.status]), [
          ["fluxv2.packages//kubeapps", "failed-for-good", 501],
        ]);
        assert.ok(page.items.every((s) => s.availablePackageRef.plugin.name !== "fluxv2.packages"));
        assert.equal(page.items.length, 40, "full pages from helm and kapp");
      }
      if (i === 2) {
        await post("/demo/down", { plugin: "fluxv2.packages", down: false });
        assert.equal(pager.retryUnreachable(5), 0, "index 5 names no source");
        assert.equal(pager.retryUnreachable(), 1);
        assert.equal(pager.retryUnreachable(), 0, "nothing left to retry");
      }
    },
  });
  const after = pages.slice(3);
  assert.ok(after[0].late && after[0].stats.lateItems > 0, "flux's items the list went past come late");
  assert.ok(after.every((p) => p.unreachable.length === 0));
  assert.equal(new Set(shown).size, shown.length, "nothing twice");
  assert.deepEqual([...shown].sort(), [...want].sort(), "every package of the three plugins");
});

test("nextPage retries a source set aside on its own after a backoff; a transient failure still rejects", async () => {
  await post("/demo/reset", {});
  await post("/demo/down", { plugin: "kapp_controller.packages", down: true, kind: "PermissionDenied" });
  const pager = new Pager({ sources: SOURCES, pageSize: 2000 });
  const fetchChunk = kubeappsFetcher({ baseUrl: `${base()}/apis` });
  const first = await pager.nextPage(fetchChunk);
  assert.ok(first.done);
  assert.deepEqual(first.unreachable.map((u) => [u.sourceIndex, u.status]), [[2, 403]]);
  // Within the backoff (5 s), another call does not ask kapp again.
  await post("/demo/down", { plugin: "kapp_controller.packages", down: false });
  const before = (await get("/demo/requests")).plugins["kapp_controller.packages"].direct;
  const second = await pager.nextPage(fetchChunk);
  assert.equal((await get("/demo/requests")).plugins["kapp_controller.packages"].direct, before);
  assert.equal(second.unreachable.length, 1);
  await new Promise((r) => setTimeout(r, 5100));
  const third = await pager.nextPage(fetchChunk);
  assert.deepEqual(third.unreachable, []);
  assert.ok(third.items.length > 0 && third.items.every((s) => s.availablePackageRef.plugin.name === "kapp_controller.packages"));
  pager.free();
  // A 503 is transient: the call rejects with SOURCE_FAILED and the next one asks again.
  await post("/demo/reset", {});
  const p2 = new Pager({ sources: SOURCES.slice(0, 1), pageSize: 5 });
  await post("/demo/fail", { plugin: "helm.packages" });
  // (retry: false: without it nextPage retries the 503 itself, and the page comes.)
  await assert.rejects(p2.nextPage(fetchChunk, { retry: false }), (e) => e.code === "SOURCE_FAILED" && e.details.status === 503);
  const ok = await p2.nextPage(fetchChunk);
  assert.equal(ok.items.length, 5);
  assert.deepEqual(ok.unreachable, []);
  p2.free();
});
