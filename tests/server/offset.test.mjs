import test from "node:test";
import assert from "node:assert/strict";
import { serve, scan, availablePath, identityOfSummary, faults, qs } from "./helpers.mjs";

let srv;
test.before(async () => {
  srv = await serve({ seed: 3, behaviours: { "helm.packages": "kubeapps-offset", "fluxv2.packages": "unordered" } });
});
test.after(() => srv.close());
test.beforeEach(async () => {
  await srv.post("/demo/reset");
});

const truthOf = async (params) => (await srv.get(`/demo/truth?${qs(params)}`)).json;

test("kubeapps-offset: a quiet full scan equals the truth; tokens are decimal offsets", async () => {
  const { items, tokens } = await scan(srv, "helm", { "context.namespace": "kubeapps", "paginationOptions.pageSize": 25 });
  const truth = await truthOf({ plugins: "helm", namespace: "kubeapps" });
  assert.deepEqual(items.map(identityOfSummary), truth.identities);
  assert.deepEqual(tokens.slice(0, -1), tokens.slice(0, -1).map((_, i) => String(25 * (i + 1))));
  assert.equal(tokens[tokens.length - 1], "");
});

test("kubeapps-offset across namespaces: ties on name in insertion order", async () => {
  const all = await srv.get(availablePath("helm", { "paginationOptions.pageSize": 0 }));
  const names = all.json.availablePackageSummaries.map((s) => s.name);
  const sorted = names.slice().sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  assert.deepEqual(names, sorted);
  assert.ok(names.some((n, i) => n === names[i + 1]), "the catalog has name ties across namespaces");
  // The generated catalog inserts kubeapps, then team-a, then team-b.
  const rank = { kubeapps: 0, "team-a": 1, "team-b": 2 };
  const s = all.json.availablePackageSummaries;
  for (let i = 1; i < s.length; i++) {
    if (s[i].name !== s[i - 1].name) continue;
    assert.ok(rank[s[i - 1].availablePackageRef.context.namespace] < rank[s[i].availablePackageRef.context.namespace], s[i].name);
  }
  assert.equal(all.json.nextPageToken, undefined, "pageSize 0 is everything, no token");
});

test("kubeapps-offset under churn: an insert ahead repeats an item, a delete ahead loses one", async () => {
  const params = { "context.namespace": "kubeapps", "paginationOptions.pageSize": 10 };
  const rev0 = (await truthOf({ plugins: "helm", namespace: "kubeapps" })).revision;
  const ins = await scan(srv, "helm", params, {
    maxPages: 3,
    between: async (i) => {
      if (i === 0) await srv.post("/demo/mutate", { plugin: "helm", insert: [{ name: "0-first", repo: "late" }] });
    },
  });
  const seen = ins.items.map(identityOfSummary);
  assert.ok(faults(seen, []).duplicates.length === 1, "the 10th item comes again on page 2");

  await srv.post("/demo/reset");
  const truth = await truthOf({ plugins: "helm", namespace: "kubeapps" });
  let rev1;
  const del = await scan(srv, "helm", params, {
    between: async (i) => {
      if (i !== 0) return;
      const r = await srv.post("/demo/mutate", { plugin: "helm", delete: [truth.items[0].identifier] });
      rev1 = r.json.revision - 1;
    },
  });
  const since = (await srv.get(`/demo/truth?${qs({ plugins: "helm", namespace: "kubeapps", since: rev1 })}`)).json.since;
  const f = faults(del.items.map(identityOfSummary), since.identities);
  assert.equal(f.duplicates.length, 0);
  assert.deepEqual(f.misses, [truth.identities[10]], "the item that moved to offset 9 is never shown");
  assert.ok(rev0 < rev1);
});

test("unordered: each request reorders the list, so offsets repeat and skip items", async () => {
  const a = await srv.get(availablePath("fluxv2", { "paginationOptions.pageSize": 0, "context.namespace": "kubeapps" }));
  const b = await srv.get(availablePath("fluxv2", { "paginationOptions.pageSize": 0, "context.namespace": "kubeapps" }));
  const ia = a.json.availablePackageSummaries.map(identityOfSummary);
  const ib = b.json.availablePackageSummaries.map(identityOfSummary);
  assert.notDeepEqual(ia, ib);
  assert.deepEqual(ia.slice().sort(), ib.slice().sort());
  const { items } = await scan(srv, "fluxv2", { "context.namespace": "kubeapps", "paginationOptions.pageSize": 20 });
  const truth = await truthOf({ plugins: "fluxv2", namespace: "kubeapps" });
  const f = faults(items.map(identityOfSummary), truth.identities);
  assert.equal(items.length, truth.count, "as many items as the truth...");
  assert.ok(f.duplicates.length > 0 && f.misses.length > 0, "...but some twice and some never");
});

test("offset behaviours: the filter applies before the offset; errors are grpc-gateway bodies", async () => {
  const { items, pages } = await scan(srv, "helm", { "paginationOptions.pageSize": 4, "filterOptions.categories": ["Database", "Storage"] });
  const truth = await truthOf({ plugins: "helm", categories: "Database,Storage" });
  assert.deepEqual(items.map(identityOfSummary).sort(), truth.identities.slice().sort());
  assert.ok(pages.slice(0, -1).every((p) => p.length === 4), "full pages until the last");
  const bad = await srv.get(availablePath("helm", { "paginationOptions.pageToken": "abc" }));
  assert.equal(bad.status, 400);
  assert.deepEqual(bad.json, { code: 3, message: 'unable to interpret page token "abc"', details: [] });
  const neg = await srv.get(availablePath("helm", { "paginationOptions.pageToken": "-1" }));
  assert.equal(neg.status, 400);
  const size = await srv.get(availablePath("helm", { "paginationOptions.pageSize": "ten" }));
  assert.equal(size.status, 400);
  assert.equal(size.json.code, 3);
  const cluster = await srv.get(availablePath("helm", { "context.cluster": "other" }));
  assert.equal(cluster.status, 400);
});

test("summaries: grpc-gateway JSON with default values left out, categories of the namespace", async () => {
  const r = await srv.get(availablePath("helm", { "context.namespace": "kubeapps", "paginationOptions.pageSize": 1 }));
  const s = r.json.availablePackageSummaries[0];
  assert.deepEqual(Object.keys(s), ["availablePackageRef", "name", "latestVersion", "iconUrl", "displayName", "shortDescription", "categories"]);
  assert.deepEqual(s.availablePackageRef.plugin, { name: "helm.packages", version: "v1alpha1" });
  assert.deepEqual(s.availablePackageRef.context, { cluster: "default", namespace: "kubeapps" });
  assert.ok(r.json.categories.length > 5);
  assert.deepEqual(r.json.categories, r.json.categories.slice().sort());
  await srv.post("/demo/mutate", { plugin: "helm", insert: [{ name: "000-bare", repo: "x" }] });
  const bare = (await srv.get(availablePath("helm", { "context.namespace": "kubeapps", "paginationOptions.pageSize": 1 }))).json.availablePackageSummaries[0];
  assert.deepEqual(bare, {
    availablePackageRef: { context: { cluster: "default", namespace: "kubeapps" }, identifier: "x/000-bare", plugin: { name: "helm.packages", version: "v1alpha1" } },
    name: "000-bare",
    displayName: "000-bare",
  });
  const empty = await srv.get(availablePath("helm", { "filterOptions.query": "no-such-package-anywhere" }));
  assert.deepEqual(Object.keys(empty.json), ["categories"]);
});
