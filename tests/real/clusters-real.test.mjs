// Issue 25 over the real services: pods of three clusters in etcd (one key prefix per cluster,
// listed with the apiserver's semantics behind /clusters/<name>/api/v1/pods), paged by one
// pager over kubernetesFetcher in the apiserver's order, through the public API (nextPage).
// Under churn (pods created and deleted between pages) and etcd's compaction (410 Expired):
// nothing present throughout is missed, nothing is shown twice, pages stay in order.
import { test } from "node:test";
import assert from "node:assert/strict";
import { useServices, pkg } from "./support.mjs";

const { Pager, kubernetesFetcher } = pkg;
const svc = useServices();
const CLUSTERS = ["east", "north", "west"];

const fetcherOf = (server) =>
  kubernetesFetcher({ clusters: Object.fromEntries(CLUSTERS.map((c) => [c, { baseUrl: `${server.base}/clusters/${c}` }])) });
const idOf = (o) => `${o.cluster}/${o.metadata.namespace}/${o.metadata.name}#${o.metadata.uid}`;
const keyOf = (o) => [`${o.metadata.namespace}/${o.metadata.name}`, o.cluster];
const below = (a, b) => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);

test("three clusters' pods paged under churn and compaction: every pod present throughout once, in order", { timeout: 240_000 }, async () => {
  const server = await svc.server({ clusterPods: 6000 });
  const fetchChunk = fetcherOf(server);
  const since = (await server.get("/demo/clusters/truth")).json.revision;
  const pager = new Pager({ sources: CLUSTERS.map((cluster) => ({ cluster, resource: "pods.v1" })), sort: "apiserver", pageSize: 100, chunkLimit: 250 });
  const shown = [];
  let inconsistent = false;
  let late = 0;
  const first = await pager.nextPage(fetchChunk);
  assert.deepEqual(first.stats.sources.map((s) => [s.requests, s.streamed]), [[1, true], [1, true], [1, true]], "page 1: one chunk of each cluster");
  shown.push(...first.items);
  for (let n = 1; ; n++) {
    // Pods created and deleted while scrolling; etcd compacted twice (the lists' snapshots go).
    assert.equal((await server.post("/demo/clusters/churn", { steps: 8 })).status, 200);
    if (n === 10 || n === 30) assert.equal((await server.post("/demo/compact")).status, 200);
    const page = await pager.nextPage(fetchChunk);
    inconsistent ||= page.inconsistent;
    late += page.stats.lateItems;
    assert.deepEqual(page.unreachable, []);
    shown.push(...page.items);
    if (page.done) break;
    assert.ok(n < 500, "ends");
  }
  assert.ok(inconsistent, "a compaction mid-list was recovered from (410 Expired)");
  assert.equal(late, 0);
  const truth = (await server.get(`/demo/clusters/truth?since=${since}`)).json;
  const ids = shown.map(idOf);
  const twice = ids.filter((id, i) => ids.indexOf(id) !== i);
  assert.deepEqual(twice, [], "no object shown twice");
  const seen = new Set(ids);
  const missed = truth.since.uids.filter((id) => !seen.has(id));
  assert.deepEqual(missed, [], "every pod present throughout shown");
  assert.ok(truth.since.uids.length > 5000 && truth.revision > 300, `${truth.since.uids.length} throughout, ${truth.revision} writes`);
  for (let i = 1; i < shown.length; i++) assert.ok(below(keyOf(shown[i - 1]), keyOf(shown[i])), `in the apiserver's order at ${i}`);
});

test("selectors go to the apiserver: the paged, merged list is the clusters' own unpaged answers", { timeout: 120_000 }, async () => {
  const server = await svc.server({ clusterPods: 3000 });
  const fetchChunk = fetcherOf(server);
  const query = "labelSelector=tier%3Ddata&fieldSelector=status.phase%3DRunning";
  const whole = [];
  for (const c of CLUSTERS) {
    const r = await server.get(`/clusters/${c}/api/v1/namespaces/payments/pods?${query}`);
    assert.equal(r.status, 200);
    whole.push(...r.json.items.map((o) => ({ ...o, cluster: c })));
  }
  whole.sort((a, b) => (below(keyOf(a), keyOf(b)) ? -1 : 1));
  assert.ok(whole.length > 20);
  const pager = new Pager({
    sources: CLUSTERS.map((cluster) => ({ cluster, resource: { version: "v1", resource: "pods" }, namespace: "payments", labelSelector: "tier=data", fieldSelector: "status.phase=Running" })),
    sort: "apiserver",
    pageSize: 7,
    chunkLimit: 5,
  });
  const shown = [];
  for (;;) {
    const page = await pager.nextPage(fetchChunk);
    shown.push(...page.items);
    if (page.done) break;
  }
  assert.deepEqual(shown.map(idOf), whole.map(idOf));
  // Deployments too (apps/v1), and what the apiserver refuses is set aside, named.
  const bad = new Pager({
    sources: [
      { cluster: "east", resource: "deployments.v1.apps" },
      { cluster: "north", resource: "pods.v1", fieldSelector: "spec.restartPolicy=Always" },
      { cluster: "west", resource: "/apis/batch/v1/jobs" },
    ],
    sort: "apiserver",
    pageSize: 1000,
  });
  const page = await bad.nextPage(fetchChunk);
  assert.equal(page.items.length, 64, "east's deployments: 8 apps in 8 namespaces");
  assert.ok(page.done);
  assert.deepEqual(page.unreachable.map((u) => [u.source, u.status]), [["pods.v1?fieldSelector=spec.restartPolicy%3DAlways/north/", 400], ["jobs.v1.batch/west/", 404]]);
  assert.match(page.unreachable[0].error.message, /field label not supported/);
});
