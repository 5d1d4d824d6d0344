import test from "node:test";
import assert from "node:assert/strict";
import { serve, availablePath, identityOfSummary, qs } from "./helpers.mjs";
import { compareByDisplayName, compareByName } from "../../server/order.mjs";

let srv;
test.before(async () => {
  srv = await serve({ seed: 5 });
});
test.after(() => srv.close());
test.beforeEach(async () => {
  await srv.post("/demo/reset");
});

const truth = async (params = {}) => (await srv.get(`/demo/truth?${qs(params)}`)).json;

test("config tells plugins, behaviours, counts and the revision", async () => {
  const c = (await srv.get("/demo/config")).json;
  assert.deepEqual(c.plugins.map((p) => [p.name, p.behaviour]), [
    ["helm.packages", "kubeapps-offset"], ["fluxv2.packages", "unordered"], ["kapp_controller.packages", "kubernetes"],
  ]);
  const total = c.plugins.reduce((a, p) => a + p.count, 0);
  assert.equal(total, (await truth()).count);
  assert.equal(c.revision - c.compactedRevision, total, "one revision per created package");
  assert.equal(c.plugins[0].count, Object.values(c.plugins[0].namespaces).reduce((a, b) => a + b, 0));
});

test("behaviours switch at runtime; unknown ones are refused", async () => {
  const p = { "context.namespace": "kubeapps", "paginationOptions.pageSize": 5 };
  assert.equal((await srv.get(availablePath("helm", p))).json.nextPageToken, "5");
  const r = await srv.post("/demo/behaviour", { plugin: "helm", behaviour: "kubernetes" });
  assert.deepEqual(r.json, { plugin: "helm.packages", behaviour: "kubernetes" });
  const t = (await srv.get(availablePath("helm", p))).json.nextPageToken;
  assert.equal(JSON.parse(Buffer.from(t, "base64url").toString()).v, "meta.k8s.io/v1");
  assert.equal((await srv.post("/demo/behaviour", { plugin: "helm", behaviour: "random" })).status, 400);
  assert.equal((await srv.post("/demo/behaviour", { plugin: "nope", behaviour: "kubernetes" })).status, 400);
});

test("mutate inserts, updates, deletes; a conflict or a missing package writes nothing", async () => {
  const rev0 = (await truth()).revision;
  const ok = await srv.post("/demo/mutate", {
    plugin: "kapp_controller",
    insert: [{ name: "new.example.org", repo: "x", displayName: "New One", categories: ["Security"] }],
    update: [{ identifier: (await truth({ plugins: "kapp" })).items[0].identifier, namespace: "kubeapps", shortDescription: "changed" }],
  });
  assert.equal(ok.status, 200);
  assert.deepEqual(ok.json, { revision: rev0 + 2, applied: { deleted: 0, updated: 1, inserted: 1 } });
  const t = await truth({ plugins: "kapp", categories: "Security", query: "new one" });
  assert.ok(t.identities.includes("kapp_controller.packages/default/kubeapps/x/new.example.org"));
  const conflict = await srv.post("/demo/mutate", { plugin: "kapp", delete: ["x/new.example.org"], insert: [{ name: "a.b" }, { name: "a.b" }] });
  assert.equal(conflict.status, 409);
  const missing = await srv.post("/demo/mutate", { plugin: "kapp", delete: ["no/such"] });
  assert.equal(missing.status, 404);
  const rename = await srv.post("/demo/mutate", { plugin: "kapp", update: [{ identifier: "x/new.example.org", name: "other" }] });
  assert.equal(rename.status, 400);
  assert.equal((await truth()).revision, rev0 + 2, "nothing written by the failed calls");
  const reinsert = await srv.post("/demo/mutate", { plugin: "kapp", delete: ["new.example.org"], insert: [{ name: "new.example.org", repo: "x" }] });
  assert.equal(reinsert.status, 200, "a delete makes room for an insert in the same call");
});

test("churn: seeded steps, names and displayNames kept by updates, a timer that stops", async () => {
  const before = await truth();
  const r = await srv.post("/demo/churn", { steps: 60, insert: 0, delete: 0, update: true });
  assert.equal(r.json.applied.update, 60);
  const after = await truth();
  assert.deepEqual(after.identities, before.identities, "updates keep every identity and the order");
  assert.deepEqual(after.items.map((i) => i.displayName), before.items.map((i) => i.displayName));
  const other = await serve({ seed: 5 });
  try {
    await srv.post("/demo/reset");
    await srv.post("/demo/churn", { steps: 40 });
    await other.post("/demo/churn", { steps: 40 });
    assert.deepEqual((await truth()).identities, (await other.get("/demo/truth")).json.identities, "same seed, same churn");
  } finally {
    await other.close();
  }
  const on = await srv.post("/demo/churn", { ratePerSecond: 200, plugins: ["helm"] });
  assert.equal(on.json.running, true);
  const rev = (await truth()).revision;
  for (let i = 0; i < 500 && (await truth()).revision === rev; i++) await new Promise((res) => setTimeout(res, 10));
  const off = await srv.post("/demo/churn", { ratePerSecond: 0 });
  assert.equal(off.json.running, false);
  assert.ok(off.json.revision > rev, "the timer wrote");
  assert.ok(off.json.applied.insert + off.json.applied.delete + off.json.applied.update > 0);
  const stopped = off.json.revision;
  await new Promise((res) => setTimeout(res, 60));
  assert.equal((await truth()).revision, stopped);
  assert.equal((await srv.post("/demo/churn", { ratePerSecond: -1 })).status, 400);
});

test("truth: the pager's total order for both sorts, filters, and what was present since", async () => {
  const byName = await truth();
  const byDisplay = await truth({ sort: "displayName" });
  assert.equal(byName.count, byDisplay.count);
  assert.deepEqual(byName.items.slice().sort(compareByName), byName.items);
  assert.deepEqual(byDisplay.items.slice().sort(compareByDisplayName), byDisplay.items);
  assert.notDeepEqual(byName.identities, byDisplay.identities);
  const db = await truth({ categories: "Database", plugins: "helm,fluxv2" });
  assert.ok(db.count > 0 && db.items.every((i) => i.plugin !== "kapp_controller.packages"));
  assert.equal((await srv.get("/demo/truth?sort=size")).status, 400);

  const rev = byName.revision;
  const [gone, touched] = byName.items.filter((i) => i.plugin === "helm.packages" && i.namespace === "kubeapps");
  await srv.post("/demo/mutate", { plugin: "helm", delete: [gone.identifier], insert: [{ name: "aaa-new", repo: "x" }], update: [{ identifier: touched.identifier, shortDescription: "v2" }] });
  const since = (await truth({ since: rev })).since;
  assert.equal(since.revision, rev);
  assert.ok(!since.identities.includes(gone.identity));
  assert.ok(!since.identities.includes("helm.packages/default/kubeapps/x/aaa-new"));
  assert.ok(since.identities.includes(touched.identity), "an update keeps a package present");
  assert.equal(since.identities.length, byName.count - 1);
});

test("requests are counted per plugin and path; failures are injected once", async () => {
  await srv.post("/demo/requests/reset");
  await srv.get(availablePath("helm", { "paginationOptions.pageSize": 3 }));
  await srv.get(availablePath("core", { "paginationOptions.pageSize": 3 }));
  await srv.get("/apis/data.packaging.carvel.dev/v1alpha1/packagemetadatas?limit=2");
  const c = (await srv.get("/demo/requests")).json;
  assert.equal(c.core, 1);
  assert.equal(c.plugins["helm.packages"].direct, 1);
  assert.ok(c.plugins["helm.packages"].viaCore >= 1);
  assert.equal(c.plugins["kapp_controller.packages"].kubernetesList, 1);
  assert.equal(c.total, 3);
  await srv.post("/demo/fail", { plugin: "helm", status: 503 });
  assert.equal((await srv.get(availablePath("helm", {}))).status, 503);
  assert.equal((await srv.get(availablePath("helm", {}))).status, 200);
  assert.equal((await srv.post("/demo/fail", { plugin: "helm", status: 200 })).status, 400);
});

test("reset restores the catalog at new revisions: tokens from before answer 410", async () => {
  const before = await truth();
  const page = (await srv.get(availablePath("kapp_controller", { "paginationOptions.pageSize": 3 }))).json;
  await srv.post("/demo/mutate", { plugin: "helm", delete: [before.items[0].identifier], namespace: before.items[0].namespace });
  await srv.post("/demo/reset");
  const after = await truth();
  assert.deepEqual(after.identities, before.identities);
  assert.ok(after.revision > before.revision);
  const old = await srv.get(availablePath("kapp_controller", { "paginationOptions.pageSize": 3, "paginationOptions.pageToken": page.nextPageToken }));
  assert.equal(old.status, 410);
  const s = (await srv.get(availablePath("kapp_controller", { "paginationOptions.pageSize": 3 }))).json;
  assert.deepEqual(s.availablePackageSummaries.map(identityOfSummary), page.availablePackageSummaries.map(identityOfSummary));
});
