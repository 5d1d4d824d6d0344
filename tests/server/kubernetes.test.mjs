import test from "node:test";
import assert from "node:assert/strict";
import { serve, scan, availablePath, decodeToken, identityOfSummary, qs } from "./helpers.mjs";

const KAPP = "kapp_controller";
const truthPath = (params) => `/demo/truth?${qs(params)}`;
let srv;

test.before(async () => {
  srv = await serve({ behaviours: { "kapp_controller.packages": "kubernetes", "helm.packages": "kubernetes" } });
});
test.after(() => srv.close());
test.beforeEach(async () => {
  await srv.post("/demo/reset");
});

test("a full scan equals the truth and every token is the apiserver's JSON", async () => {
  const params = { "context.namespace": "kubeapps", "paginationOptions.pageSize": 7 };
  const { items, pages, tokens } = await scan(srv, KAPP, params);
  const truth = (await srv.get(truthPath({ plugins: "kapp_controller", namespace: "kubeapps" }))).json;
  assert.deepEqual(items.map(identityOfSummary), truth.identities);
  assert.ok(pages.length > 10);
  for (let i = 0; i < tokens.length - 1; i++) {
    const last = pages[i][pages[i].length - 1].name;
    const expected = `{"v":"meta.k8s.io/v1","rv":${truth.revision},"start":${JSON.stringify(`${last}\u0000`)}}`;
    assert.equal(Buffer.from(tokens[i], "base64url").toString(), expected);
    assert.match(tokens[i], /^[A-Za-z0-9_-]+$/);
  }
  assert.equal(tokens[tokens.length - 1], "");
});

test("across namespaces the key is namespace/name and the order is by key", async () => {
  const { items, tokens } = await scan(srv, KAPP, { "paginationOptions.pageSize": 50 });
  const keys = items.map((s) => `${s.availablePackageRef.context.namespace}/${s.name}`);
  assert.deepEqual(keys, keys.slice().sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
  assert.ok(new Set(items.map((s) => s.availablePackageRef.context.namespace)).size > 1);
  assert.match(decodeToken(tokens[0]).start, /^kubeapps\/.+\u0000$/);
});

test("a list is one snapshot: writes after its first chunk are not seen", async () => {
  const params = { "context.namespace": "kubeapps", "paginationOptions.pageSize": 20 };
  const before = (await srv.get(truthPath({ plugins: "kapp_controller", namespace: "kubeapps" }))).json;
  const lastName = before.items[before.items.length - 1].name;
  const { items } = await scan(srv, KAPP, params, {
    between: async (i) => {
      if (i !== 0) return;
      const r = await srv.post("/demo/mutate", {
        plugin: "kapp_controller",
        insert: [{ name: "zzz-late.example.org", repo: "late" }],
        delete: [lastName],
      });
      assert.equal(r.status, 200);
    },
  });
  assert.deepEqual(items.map(identityOfSummary), before.identities, "the snapshot of the first chunk");
  const after = (await srv.get(truthPath({ plugins: "kapp_controller", namespace: "kubeapps" }))).json;
  assert.notDeepEqual(after.identities, before.identities);
});

test("the filter applies after limit: short and empty chunks still carry a token", async () => {
  const query = "grafana";
  const params = { "context.namespace": "kubeapps", "paginationOptions.pageSize": 5, "filterOptions.query": query };
  const { pages, tokens, items } = await scan(srv, KAPP, params);
  const truth = (await srv.get(truthPath({ plugins: "kapp_controller", namespace: "kubeapps", query }))).json;
  assert.deepEqual(items.map(identityOfSummary), truth.identities);
  assert.ok(truth.count > 0);
  const emptyWithToken = pages.filter((p, i) => p.length === 0 && tokens[i] !== "");
  const shortWithToken = pages.filter((p, i) => p.length > 0 && p.length < 5 && tokens[i] !== "");
  assert.ok(emptyWithToken.length > 0, "some chunk is empty and not the end");
  assert.ok(shortWithToken.length > 0, "some chunk is short and not the end");
});

test("after compaction a continue answers 410 Expired with an rv -1 token that goes on", async () => {
  const params = { "context.namespace": "kubeapps", "paginationOptions.pageSize": 10 };
  const first = await srv.get(availablePath(KAPP, params));
  const token = first.json.nextPageToken;
  const lastShown = first.json.availablePackageSummaries[9].name;
  await srv.post("/demo/mutate", { plugin: "kapp", insert: [{ name: "zz-after-compaction.example.org", repo: "late" }] });
  const c = await srv.post("/demo/compact");
  assert.equal(c.json.compactedRevision, c.json.revision);
  const gone = await srv.get(availablePath(KAPP, { ...params, "paginationOptions.pageToken": token }));
  assert.equal(gone.status, 410);
  assert.equal(gone.json.kind, "Status");
  assert.equal(gone.json.apiVersion, "v1");
  assert.equal(gone.json.status, "Failure");
  assert.equal(gone.json.reason, "Expired");
  assert.equal(gone.json.code, 410);
  assert.match(gone.json.message, /too old to display a consistent list/);
  const inconsistent = gone.json.metadata.continue;
  assert.deepEqual(decodeToken(inconsistent), { v: "meta.k8s.io/v1", rv: -1, start: `${lastShown}\u0000` });
  // Go on from the inconsistent token: the rest at the latest revision, new item included.
  const pages = [];
  let t = inconsistent;
  while (t) {
    const r = await srv.get(availablePath(KAPP, { ...params, "paginationOptions.pageToken": t }));
    assert.equal(r.status, 200);
    pages.push(...r.json.availablePackageSummaries);
    if (r.json.nextPageToken) assert.equal(decodeToken(r.json.nextPageToken).rv, c.json.revision);
    t = r.json.nextPageToken;
  }
  const truth = (await srv.get(truthPath({ plugins: "kapp_controller", namespace: "kubeapps" }))).json;
  const after = truth.items.filter((i) => Buffer.compare(Buffer.from(i.name), Buffer.from(lastShown)) > 0);
  assert.deepEqual(pages.map(identityOfSummary), after.map((i) => i.identity));
  assert.ok(pages.some((p) => p.name === "zz-after-compaction.example.org"));
});

test("injected expiry without an inconsistent token, bad tokens, resourceVersion beside continue", async () => {
  const base = "/apis/data.packaging.carvel.dev/v1alpha1/namespaces/kubeapps/packagemetadatas";
  const first = await srv.get(`${base}?limit=3`);
  const token = first.json.metadata.continue;
  await srv.post("/demo/expire", { plugin: "kapp_controller", inconsistentToken: false });
  const gone = await srv.get(`${base}?${qs({ limit: 3, continue: token })}`);
  assert.equal(gone.status, 410);
  assert.deepEqual(gone.json.metadata, {});
  const again = await srv.get(`${base}?${qs({ limit: 3, continue: token })}`);
  assert.equal(again.status, 200, "the fault is one-shot");
  const bad = await srv.get(`${base}?${qs({ limit: 3, continue: "not+a+token" })}`);
  assert.equal(bad.status, 400);
  assert.equal(bad.json.reason, "BadRequest");
  assert.match(bad.json.message, /^invalid continue token: continue key is not valid/);
  const rv = await srv.get(`${base}?${qs({ limit: 3, continue: token, resourceVersion: "5" })}`);
  assert.equal(rv.status, 400);
  assert.equal(rv.json.message, "specifying resource version is not allowed when using continue");
});

test("PackageMetadataList: Kubernetes shapes, remainingItemCount, whole list = truth", async () => {
  const base = "/apis/data.packaging.carvel.dev/v1alpha1/namespaces/kubeapps/packagemetadatas";
  const truth = (await srv.get(truthPath({ plugins: "kapp_controller", namespace: "kubeapps" }))).json;
  const names = [];
  let cont = "";
  let expectRemaining = truth.count;
  for (;;) {
    const r = await srv.get(`${base}?${qs({ limit: 40, continue: cont || undefined })}`);
    assert.equal(r.status, 200);
    assert.equal(r.json.kind, "PackageMetadataList");
    assert.equal(r.json.apiVersion, "data.packaging.carvel.dev/v1alpha1");
    assert.equal(r.json.metadata.resourceVersion, String(truth.revision));
    for (const it of r.json.items) {
      assert.equal(it.kind, "PackageMetadata");
      assert.equal(it.apiVersion, "data.packaging.carvel.dev/v1alpha1");
      assert.equal(it.metadata.namespace, "kubeapps");
      assert.match(it.metadata.resourceVersion, /^\d+$/);
      assert.equal(typeof it.spec.displayName, "string");
      names.push(it.metadata.name);
    }
    expectRemaining -= r.json.items.length;
    cont = r.json.metadata.continue ?? "";
    if (!cont) {
      assert.equal(r.json.metadata.remainingItemCount, undefined);
      break;
    }
    assert.equal(r.json.metadata.remainingItemCount, expectRemaining);
  }
  assert.deepEqual(names, truth.items.map((i) => i.name));
  const all = await srv.get("/apis/data.packaging.carvel.dev/v1alpha1/packagemetadatas");
  assert.equal(all.json.items.length, (await srv.get(truthPath({ plugins: "kapp_controller" }))).json.count);
  assert.equal(all.json.metadata.continue, undefined);
});
