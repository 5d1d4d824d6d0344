// Kubernetes lists from a real etcd (the generated catalog's PackageMetadatas under
// /registry/data.packaging.carvel.dev/packagemetadatas/): a list answered at one etcd revision
// with `limit` and the apiserver's continue token, writes between chunks unseen by the list,
// etcd's own compaction mid-list answered 410 Expired with an inconsistent continue token, and
// kubeapps-pager scrolling such a list through a compaction.
import { test } from "node:test";
import assert from "node:assert/strict";
import { useServices, qs, scroll, Pager, kubernetesListFetcher, kubeappsFetcher, assertNoneTwiceNoneMissing } from "./support.mjs";
import { PACKAGE_METADATAS } from "../../server/real/kube-etcd.mjs";
import { prefixRangeEnd } from "../../server/real/etcd.mjs";

const svc = useServices();
let s;
const list = (ns, p) => `/apis/data.packaging.carvel.dev/v1alpha1/namespaces/${ns}/packagemetadatas?${qs(p)}`;
const token = (t) => JSON.parse(Buffer.from(t, "base64url").toString("utf8"));
const kappWrites = (n) => s.churn.configure({ plugins: ["kapp_controller"], insert: 1, delete: 1, update: 1, steps: n });

async function namesAt(ns, revision) {
  const prefix = `${PACKAGE_METADATAS}${ns}/`;
  const r = await s.app.etcd.range(prefix, { rangeEnd: prefixRangeEnd(prefix), revision });
  return r.kvs.map((kv) => kv.key.slice(prefix.length));
}

test("the server loads the generated catalog into etcd", { timeout: 120_000 }, async () => {
  s = await svc.server({});
  assert.ok((await namesAt("kubeapps", 0)).length > 100);
});

test("a list is answered at one etcd revision: limit, the apiserver's continue token, writes between chunks unseen", async () => {
  const first = (await s.get(list("kubeapps", { limit: 10 }))).json;
  const rv = Number(first.metadata.resourceVersion);
  const all = await namesAt("kubeapps", rv);
  assert.equal(first.items.length, 10);
  assert.equal(first.metadata.remainingItemCount, all.length - 10);
  const t = token(first.metadata.continue);
  assert.deepEqual(t, { v: "meta.k8s.io/v1", rv, start: `${first.items[9].metadata.name}\u0000` });
  const names = first.items.map((i) => i.metadata.name);
  let cont = first.metadata.continue;
  while (cont) {
    await kappWrites(3); // puts and deletes in etcd, each a new revision
    const next = (await s.get(list("kubeapps", { limit: 10, continue: cont }))).json;
    assert.equal(Number(next.metadata.resourceVersion), rv, "every chunk at the list's revision");
    names.push(...next.items.map((i) => i.metadata.name));
    cont = next.metadata.continue ?? "";
  }
  assert.deepEqual(names, all, "the list is etcd's snapshot at its revision, in key order");
  assert.ok((await s.app.etcd.revision()) > rv, "the writes happened");
});

test("compaction mid-list: 410 Expired with an inconsistent continue token (rv -1) that goes on at the newest revision", async () => {
  const first = (await s.get(list("kubeapps", { limit: 10 }))).json;
  const rv = Number(first.metadata.resourceVersion);
  await kappWrites(2);
  await s.post("/demo/compact");
  const gone = await s.get(list("kubeapps", { limit: 10, continue: first.metadata.continue }));
  assert.equal(gone.status, 410);
  assert.equal(gone.json.reason, "Expired");
  assert.equal(gone.json.kind, "Status");
  const t = token(gone.json.metadata.continue);
  assert.deepEqual(t, { v: "meta.k8s.io/v1", rv: -1, start: token(first.metadata.continue).start });
  const on = await s.get(list("kubeapps", { limit: 10, continue: gone.json.metadata.continue }));
  assert.equal(on.status, 200);
  assert.ok(Number(on.json.metadata.resourceVersion) > rv, "read at the newest revision");
  assert.ok(on.json.items[0].metadata.name > first.items[9].metadata.name, "from where the list was");
});

test("kubeapps-pager scrolls a list through writes and a compaction: nothing twice, nothing present throughout missed", { timeout: 60_000 }, async () => {
  const start = s.app.revision;
  const source = { plugin: "kapp_controller.packages", cluster: "default", namespace: "kubeapps", kind: "kubernetes" };
  const pager = new Pager({ sources: [source], pageSize: 15, chunkLimit: 10 });
  let compacted = 0;
  try {
    const fetchChunk = kubernetesListFetcher({ url: `${s.base}${list("kubeapps", {}).replace(/\?$/, "")}` });
    const { identities, inconsistent } = await scroll(pager, fetchChunk, {
      idOf: (pm) => `${pm.metadata.namespace}/${pm.metadata.name}`,
      between: async (n) => {
        await kappWrites(4);
        if (n === 2 || n === 5) {
          await s.post("/demo/compact");
          compacted += 1;
        }
      },
    });
    assert.equal(compacted, 2);
    assert.ok(inconsistent, "the list went on after a 410 Expired, and the page said so");
    const want = (await s.app.truth(new URLSearchParams({ plugins: "kapp_controller.packages", namespace: "kubeapps", since: String(start) }))).since.identities
      .map((id) => id.split("/")).map((p) => `${p[2]}/${p[4]}`); // plugin/cluster/ns/repo/name → ns/name
    assertNoneTwiceNoneMissing(identities, want, "list across compactions");
  } finally {
    pager.free();
  }
});

test("the kapp_controller plugin paged as the apiserver (kubernetes behaviour) through the REST gateway survives a compaction", { timeout: 60_000 }, async () => {
  const start = s.app.revision;
  const source = { plugin: "kapp_controller.packages", cluster: "default", namespace: "kubeapps", kind: "kubernetes" };
  const pager = new Pager({ sources: [source], pageSize: 15, chunkLimit: 10 });
  try {
    const { identities, inconsistent } = await scroll(pager, kubeappsFetcher({ baseUrl: `${s.base}/apis` }), {
      between: async (n) => {
        await kappWrites(3);
        if (n === 3) await s.post("/demo/compact");
      },
    });
    const want = (await s.app.truth(new URLSearchParams({ plugins: "kapp_controller.packages", namespace: "kubeapps", since: String(start) }))).since.identities;
    assert.ok(inconsistent, "a 410 Expired was met and recovered from");
    assertNoneTwiceNoneMissing(identities, want, "plugin over etcd across a compaction");
  } finally {
    pager.free();
  }
});

test("a custom predicate filters a real etcd list (PackageMetadata objects as the apiserver lists them), and a resume keeps it", { timeout: 60_000 }, async () => {
  const source = { plugin: "kapp_controller.packages", cluster: "default", namespace: "kubeapps", kind: "kubernetes" };
  const seen = [];
  // The objects the fetcher returned, as they came from etcd: keep packages whose own name (the
  // part before the first dot: `argo-cd` of `argo-cd.tanzu.vmware.com`) has a "g".
  const rule = (name) => name.split(".")[0].includes("g");
  const predicate = { id: "has-g-v1", matches: (pm, src) => (seen.push(src.plugin), rule(pm.metadata.name)) };
  const options = { sources: [source], pageSize: 4, chunkLimit: 3, predicate };
  const fetchChunk = kubernetesListFetcher({ url: `${s.base}${list("kubeapps", {}).replace(/\?$/, "")}` });
  const all = await namesAt("kubeapps", s.app.revision);
  const want = all.filter(rule);
  assert.ok(want.length > 8 && want.length < all.length - 8, `enough matches to page and enough refused (${want.length} of ${all.length})`);
  const first = new Pager(options);
  const page1 = await first.nextPage(fetchChunk);
  first.free();
  // Resumed from the token, as after a reload: the rest, under the same predicate.
  const resumed = Pager.resume(page1.nextPageToken, options);
  try {
    const { identities } = await scroll(resumed, fetchChunk, { idOf: (pm) => pm.metadata.name });
    const names = [...page1.items.map((pm) => pm.metadata.name), ...identities];
    assert.deepEqual(names, want, "exactly the matching objects, in the list's order, once each");
    assert.ok(resumed.stats.filteredOut > 0, "the predicate's rejections are counted");
  } finally {
    resumed.free();
  }
  assert.ok(seen.length > 0 && seen.every((p) => p === "kapp_controller.packages"));
  // Another rule's token is not this list's position.
  assert.throws(() => Pager.resume(page1.nextPageToken, { ...options, predicate: { ...predicate, id: "has-g-v2" } }), (e) => e.code === "FILTER_MISMATCH");
});
