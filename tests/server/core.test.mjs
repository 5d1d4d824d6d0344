import test from "node:test";
import assert from "node:assert/strict";
import { serve, scan, availablePath, identityOfSummary, faults, qs } from "./helpers.mjs";

let srv;
test.before(async () => {
  // Ordered plugins everywhere: the faults shown here come from the core, not from Flux.
  srv = await serve({ behaviours: { "helm.packages": "kubeapps-offset", "fluxv2.packages": "kubeapps-offset", "kapp_controller.packages": "kubernetes" } });
});
test.after(() => srv.close());
test.beforeEach(async () => {
  await srv.post("/demo/reset");
});

const cmp = (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b));

test("the core token is raw JSON of per-plugin item offsets, -1 once a plugin is done", async () => {
  const r = await srv.get(availablePath("core", { "paginationOptions.pageSize": 9 }));
  assert.equal(r.status, 200);
  const token = r.json.nextPageToken;
  assert.match(token, /^\{"[a-z_0-9.]+":-?\d+(,"[a-z_0-9.]+":-?\d+)*\}$/);
  const offsets = JSON.parse(token);
  const perPlugin = {};
  for (const s of r.json.availablePackageSummaries) perPlugin[s.availablePackageRef.plugin.name] = (perPlugin[s.availablePackageRef.plugin.name] ?? 0) + 1;
  assert.deepEqual(offsets, perPlugin, "each plugin that gave items sits at how many it gave");
  assert.deepEqual(Object.keys(offsets), Object.keys(offsets).sort(), "Go marshals map keys sorted");
  // A filter only helm.packages matches: the other plugins end at once and say -1.
  const only = await srv.get(availablePath("core", { "paginationOptions.pageSize": 4, "filterOptions.repositories": "community-charts" }));
  const t = JSON.parse(only.json.nextPageToken);
  assert.deepEqual(t, { "fluxv2.packages": -1, "helm.packages": 4, "kapp_controller.packages": -1 });
});

test("pages merge by name only, each plugin asked pageSize/(n-1) items", async () => {
  await srv.post("/demo/requests/reset");
  const { pages } = await scan(srv, "core", { "paginationOptions.pageSize": 10 }, { maxPages: 8 });
  for (const p of pages) {
    const names = p.map((s) => s.name);
    assert.deepEqual(names, names.slice().sort(cmp));
  }
  const ties = pages.flat().filter((s, i, a) => i > 0 && a[i - 1].name === s.name);
  for (const s of ties) assert.notEqual(s.availablePackageRef.plugin.name, "kapp_controller.packages");
  const counts = (await srv.get("/demo/requests")).json;
  assert.equal(counts.core, 8);
  assert.ok(counts.plugins["helm.packages"].viaCore >= 8);
  assert.equal(counts.plugins["helm.packages"].direct, 0);
});

test("known fault: a plugin idle for a page restarts from 0 (duplicates, here an endless cycle)", async () => {
  const truth = (await srv.get(`/demo/truth?${qs({ namespace: "kubeapps" })}`)).json;
  const maxPages = 2 * Math.ceil(truth.count / 10);
  const { items, tokens } = await scan(srv, "core", { "paginationOptions.pageSize": 10, "context.namespace": "kubeapps" }, { maxPages });
  const f = faults(items.map(identityOfSummary), truth.identities);
  assert.ok(f.duplicates.length > 0, "some packages are shown twice");
  assert.notEqual(tokens[tokens.length - 1], "", `still not at the end after ${maxPages} pages of 10 for ${truth.count} packages`);
  const seen = new Set();
  const repeated = tokens.some((t) => seen.size === seen.add(t).size);
  assert.ok(repeated, "a page token comes back: the scan is in a cycle");
});

test("known fault under churn: a delete ahead of a plugin's offset loses a package", async () => {
  // Only helm has community-charts: one plugin, so the loss is the offset's doing alone.
  const params = { "paginationOptions.pageSize": 6, "filterOptions.repositories": "community-charts" };
  const truth = (await srv.get(`/demo/truth?${qs({ repositories: "community-charts" })}`)).json;
  let rev;
  const { items } = await scan(srv, "core", params, {
    between: async (i) => {
      if (i !== 1) return;
      const r = await srv.post("/demo/mutate", { plugin: "helm", delete: [truth.items[0].identifier] });
      rev = r.json.revision - 1;
    },
  });
  const since = (await srv.get(`/demo/truth?${qs({ repositories: "community-charts", since: rev })}`)).json.since;
  const f = faults(items.map(identityOfSummary), since.identities);
  assert.deepEqual(f.misses, [truth.identities[12]]);
});

test("a bad core token is 500 Internal; a finished plugin is not asked again", async () => {
  const bad = await srv.get(availablePath("core", { "paginationOptions.pageToken": "{nope" }));
  assert.equal(bad.status, 500);
  assert.equal(bad.json.code, 13);
  assert.match(bad.json.message, /^Unable to request results from registered plugins: unable to unmarshal/);
  await srv.post("/demo/requests/reset");
  const token = JSON.stringify({ "helm.packages": -1, "fluxv2.packages": -1, "kapp_controller.packages": 3 });
  const r = await srv.get(availablePath("core", { "paginationOptions.pageSize": 4, "paginationOptions.pageToken": token }));
  assert.equal(r.status, 200);
  assert.ok(r.json.availablePackageSummaries.every((s) => s.availablePackageRef.plugin.name === "kapp_controller.packages"));
  const counts = (await srv.get("/demo/requests")).json.plugins;
  assert.equal(counts["helm.packages"].viaCore, 0);
  assert.equal(counts["fluxv2.packages"].viaCore, 0);
  assert.ok(counts["kapp_controller.packages"].viaCore >= 1);
});

test("a plugin's failure is the core's answer", async () => {
  await srv.post("/demo/fail", { plugin: "fluxv2", status: 503 });
  const r = await srv.get(availablePath("core", { "paginationOptions.pageSize": 6 }));
  assert.equal(r.status, 503);
  assert.equal(r.json.code, 14);
});

test("field case R01 through today's core: the idle kapp_controller plugin starts over", async () => {
  const rec = (plugin, name, repo) => ({ plugin, cluster: "default", namespace: "kubeapps", name, identifier: `${repo}/${name}`, displayName: name, categories: [] });
  const records = [
    ...["pkg-b", "pkg-c", "pkg-d", "pkg-e"].map((n) => rec("helm.packages", n, "repo-a")),
    rec("kapp_controller.packages", "pkg-a", "repo-c"),
    rec("kapp_controller.packages", "pkg-z", "repo-c"),
    rec("fluxv2.packages", "pkg-a1", "repo-f"),
  ];
  const small = await serve({ records, behaviours: { "helm.packages": "kubeapps-offset", "fluxv2.packages": "kubeapps-offset", "kapp_controller.packages": "kubernetes" } });
  try {
    const { pages, tokens } = await scan(small, "core", { "paginationOptions.pageSize": 2 });
    assert.deepEqual(pages.map((p) => p.map((s) => s.name)), [["pkg-a", "pkg-a1"], ["pkg-b", "pkg-c"], ["pkg-a", "pkg-d"], ["pkg-e", "pkg-z"], []]);
    assert.deepEqual(tokens.map((t) => (t ? JSON.parse(t) : t)), [
      { "fluxv2.packages": 1, "kapp_controller.packages": 1 },
      { "fluxv2.packages": -1, "helm.packages": 2 },
      { "fluxv2.packages": -1, "helm.packages": 3, "kapp_controller.packages": 1 },
      { "fluxv2.packages": -1, "helm.packages": -1, "kapp_controller.packages": 2 },
      "",
    ]);
  } finally {
    await small.close();
  }
});
