// fluxv2 and kapp_controller as their plugins page (generated catalog): fluxv2 walks its
// repositories in Go map order, new on every request, charts sorted inside each; kapp_controller
// slices the whole list (byte order) by offsets and answers 400 InvalidArgument past the end.
// kubeapps-pager reads both to the end; and today's core path answers over the same services.
import { test } from "node:test";
import assert from "node:assert/strict";
import { useServices, qs, scroll, Pager, kubeappsFetcher, assertExactlyOnce } from "./support.mjs";

const svc = useServices();
let s;
const path = (plugin, p) => `/apis/plugins/${plugin}/packages/v1alpha1/availablepackages?${qs(p)}`;

test("the server loads the generated catalog", { timeout: 120_000 }, async () => {
  s = await svc.server({});
  assert.ok(s.app.flux.repos.size >= 3, "several fluxv2 repositories");
});

test("fluxv2: repositories in a new random order on every request, charts sorted inside each, offsets", async () => {
  const repoOrder = (summaries) => [...new Set(summaries.map((x) => `${x.availablePackageRef.context.namespace}/${x.availablePackageRef.identifier.split("/")[0]}`))];
  const orders = new Set();
  for (let i = 0; i < 8; i++) {
    const all = (await s.get(path("fluxv2", {}))).json.availablePackageSummaries;
    const order = repoOrder(all);
    assert.equal(order.length, s.app.flux.repos.size, "each repository in one run (no interleaving)");
    for (const repo of order) {
      const names = all.filter((x) => `${x.availablePackageRef.context.namespace}/${x.availablePackageRef.identifier.split("/")[0]}` === repo).map((x) => x.name);
      assert.deepEqual(names, [...names].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))), `${repo} sorted`);
    }
    orders.add(order.join(","));
  }
  assert.ok(orders.size > 1, "the walk order changed between requests");
  const p = (await s.get(path("fluxv2", { "paginationOptions.pageSize": 10, "paginationOptions.pageToken": "20" }))).json;
  assert.equal(p.availablePackageSummaries.length, 10);
  assert.equal(p.nextPageToken, "30");
  assert.equal(p.categories, undefined, "the flux plugin answers no categories");
});

test("fluxv2 read by kubeapps-pager as unordered: every chart once", { timeout: 60_000 }, async () => {
  const pager = new Pager({ sources: [{ plugin: "fluxv2.packages", cluster: "default", namespace: "kubeapps", kind: "unordered" }], pageSize: 25 });
  try {
    const { identities } = await scroll(pager, kubeappsFetcher({ baseUrl: `${s.base}/apis` }));
    const want = s.app.flux.all().map((c) => `fluxv2.packages/default/${c.namespace}/${c.repo}/${c.name}`);
    assertExactlyOnce(identities, want, "fluxv2");
  } finally {
    pager.free();
  }
});

test("kapp_controller as its plugin pages: byte order, offsets, 400 InvalidArgument past the end, a token only on a full page", async () => {
  await s.post("/demo/behaviour", { plugin: "kapp_controller", behaviour: "kubeapps-offset" });
  const all = (await s.get(path("kapp_controller", { "context.namespace": "kubeapps" }))).json.availablePackageSummaries;
  const names = all.map((x) => x.name);
  assert.deepEqual(names, [...names].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
  const n = names.length;
  const last = (await s.get(path("kapp_controller", { "context.namespace": "kubeapps", "paginationOptions.pageSize": 10, "paginationOptions.pageToken": String(n - 3) }))).json;
  assert.equal(last.availablePackageSummaries.length, 3);
  assert.equal(last.nextPageToken, undefined);
  const atEnd = await s.get(path("kapp_controller", { "context.namespace": "kubeapps", "paginationOptions.pageSize": 10, "paginationOptions.pageToken": String(n) }));
  assert.equal(atEnd.status, 200, "an offset equal to the length is an empty page");
  const past = await s.get(path("kapp_controller", { "context.namespace": "kubeapps", "paginationOptions.pageSize": 10, "paginationOptions.pageToken": String(n + 1) }));
  assert.equal(past.status, 400);
  assert.equal(past.json.code, 3);
  assert.match(past.json.message, /^Invalid pagination arguments/);
});

test("kapp_controller read by kubeapps-pager with the plugin's offsets: every package once", { timeout: 60_000 }, async () => {
  const sources = ["kubeapps", "team-a"].map((namespace) => ({ plugin: "kapp_controller.packages", cluster: "default", namespace }));
  const pager = new Pager({ sources, pageSize: 20, chunkLimit: 15 });
  try {
    const { identities } = await scroll(pager, kubeappsFetcher({ baseUrl: `${s.base}/apis` }));
    const want = (await s.app.truth(new URLSearchParams({ plugins: "kapp_controller.packages" }))).identities;
    assertExactlyOnce(identities, want, "kapp_controller");
  } finally {
    pager.free();
  }
});

test("today's Kubeapps core path answers over the same services ({plugin: offset} token)", async () => {
  const r = (await s.get(`/apis/core/packages/v1alpha1/availablepackages?${qs({ "paginationOptions.pageSize": 12 })}`)).json;
  assert.equal(r.availablePackageSummaries.length, 12);
  const t = JSON.parse(r.nextPageToken);
  assert.deepEqual(Object.keys(t).sort(), Object.keys(t).filter((k) => k.endsWith(".packages")).sort());
  assert.ok(r.availablePackageSummaries.every((x, i, a) => i === 0 || Buffer.compare(Buffer.from(a[i - 1].name), Buffer.from(x.name)) <= 0), "merged by name");
});
