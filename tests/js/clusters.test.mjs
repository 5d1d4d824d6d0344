// Issue 25: any Kubernetes resource as a source, over several clusters, through the public API
// (`new Pager` with resource sources, `nextPage` with `kubernetesFetcher`) against local fake
// apiservers that list as an apiserver does: objects in storage-key order (namespace/name),
// `limit` and `continue` (the key to start after), `labelSelector` applied by the server.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { pkg, PagerError } from "./support/package.mjs";

const { Pager, kubernetesFetcher } = pkg;

/** `n` pods of cluster `cluster` over namespaces ns-0..ns-2, labelled app=a or app=b. */
function pods(cluster, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const namespace = `ns-${i % 3}`;
    const name = `pod-${String((i * 7919) % n).padStart(4, "0")}`;
    out.push({ metadata: { namespace, name, uid: `${cluster}-${i}`, labels: { app: i % 2 ? "a" : "b" } } });
  }
  return out;
}

const storageKey = (o) => `${o.metadata.namespace}/${o.metadata.name}`;
const byKey = (a, b) => (storageKey(a) < storageKey(b) ? -1 : storageKey(a) > storageKey(b) ? 1 : 0);

/**
 * Fake apiservers behind one HTTP server, one per cluster under `/clusters/<name>`, each listing
 * `/api/v1[/namespaces/<ns>]/pods`. `html`: clusters that answer an HTML page instead; `busyOnce`:
 * clusters whose first request is answered by a proxy's HTML 503 page.
 */
async function apiservers(clusters, { html = [], busyOnce = [] } = {}) {
  const busy = new Set(busyOnce);
  const seen = [];
  const auth = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url, "http://x");
    seen.push(req.url);
    auth.push(`${req.url.split("/")[2]} ${req.headers.authorization ?? "-"}`);
    const m = /^\/clusters\/([^/]+)(\/.*)$/.exec(url.pathname);
    const cluster = m && clusters[m[1]];
    const send = (status, body, type = "application/json") => {
      res.writeHead(status, { "content-type": type });
      res.end(typeof body === "string" ? body : JSON.stringify(body));
    };
    if (m && html.includes(m[1])) return send(200, "<!doctype html><title>Dashboard</title>", "text/html");
    if (m && busy.delete(m[1])) return send(503, "<!doctype html><title>503 Service Unavailable</title>", "text/html");
    const path = m && /^\/api\/v1(?:\/namespaces\/([^/]+))?\/(\w+)$/.exec(m[2]);
    if (!cluster || !path || path[2] !== "pods") {
      return send(404, { kind: "Status", status: "Failure", reason: "NotFound", code: 404, message: "the server could not find the requested resource" });
    }
    const selector = url.searchParams.get("labelSelector");
    let match = () => true;
    if (selector !== null) {
      const eq = /^(\w+)=(\w+)$/.exec(selector);
      if (!eq) return send(400, { kind: "Status", reason: "BadRequest", code: 400, message: `unable to parse requirement: ${selector}` });
      match = (o) => o.metadata.labels?.[eq[1]] === eq[2];
    }
    const start = url.searchParams.get("continue") ?? "";
    const limit = Number(url.searchParams.get("limit") ?? 0) || Infinity;
    const all = cluster.filter((o) => (!path[1] || o.metadata.namespace === path[1]) && storageKey(o) > start && match(o)).sort(byKey);
    const items = all.slice(0, limit);
    const more = all.length > items.length;
    const metadata = { resourceVersion: "7" };
    if (more) {
      metadata.continue = storageKey(items[items.length - 1]);
      metadata.remainingItemCount = all.length - items.length;
    }
    send(200, { kind: "PodList", apiVersion: "v1", metadata, items });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${server.address().port}`;
  return { base, seen, auth, close: () => new Promise((r) => server.close(r)) };
}

const NAMES = ["east", "north", "west"];

/** Pages `pager` to the end (at most `max` pages): every page. */
async function drain(pager, fetchChunk, max = 1000) {
  const pages = [];
  for (let i = 0; i < max; i++) {
    const page = await pager.nextPage(fetchChunk);
    pages.push(page);
    if (page.done) return pages;
  }
  throw new Error("not done");
}

const identity = (o, cluster) => `${cluster}/${o.metadata.namespace}/${o.metadata.name}`;

test("pods of three clusters over all namespaces stream in the apiserver's order, each once", async () => {
  const data = Object.fromEntries(NAMES.map((c, i) => [c, pods(c, 200 + 50 * i)]));
  const s = await apiservers(data);
  try {
    const fetchChunk = kubernetesFetcher({ clusters: Object.fromEntries(NAMES.map((c) => [c, { baseUrl: `${s.base}/clusters/${c}/` }])) });
    const pager = new Pager({
      sources: NAMES.map((cluster) => ({ cluster, resource: { version: "v1", resource: "pods" } })),
      sort: "apiserver",
      pageSize: 25,
      chunkLimit: 40,
    });
    const first = await pager.nextPage(fetchChunk);
    // Streamed: page 1 took one chunk of each cluster, not their whole lists: the slow start's
    // first chunk, 2 × ceil(25 / 3 clusters) = 18 (under chunkLimit 40).
    assert.equal(s.seen.length, 3, s.seen.join("\n"));
    assert.ok(s.seen.every((u) => /\/api\/v1\/pods\?limit=18$/.test(u)), s.seen.join("\n"));
    assert.deepEqual(first.stats.sources.map((x) => [x.source, x.streamed]), NAMES.map((c) => [`pods.v1/${c}/`, true]));
    // remainingItemCount, less what was read since: the apiserver's estimate of what is left.
    assert.deepEqual(first.stats.sources.map((x) => x.remainingItems), NAMES.map((c, i) => data[c].length - 18 * first.stats.sources[i].requests));
    assert.equal(first.stats.remainingItems, undefined, "no total: an estimate per source");
    const pages = [first, ...(await drain(pager, fetchChunk))];
    const shown = pages.flatMap((p) => p.items);
    const expected = NAMES.flatMap((c) => data[c].map((o) => ({ o, c })));
    assert.equal(shown.length, expected.length, "every pod of the three clusters");
    // In namespace/name order; equal keys of two clusters in cluster order.
    const want = expected
      .sort((a, b) => byKey(a.o, b.o) || (a.c < b.c ? -1 : 1))
      .map(({ o }) => o.metadata.uid);
    assert.deepEqual(shown.map((o) => o.metadata.uid), want);
    assert.ok(pages.every((p) => p.unreachable.length === 0 && !p.inconsistent));
    assert.deepEqual(pages[pages.length - 1].stats.sources.map((x) => x.remainingItems), [null, null, null], "none after each list's last chunk");
  } finally {
    await s.close();
  }
});

test("a page token resumes every cluster's position exactly; a namespace and a selector go to the apiserver", async () => {
  const data = Object.fromEntries(NAMES.map((c) => [c, pods(c, 120)]));
  const s = await apiservers(data);
  try {
    const fetchChunk = kubernetesFetcher({ clusters: Object.fromEntries(NAMES.map((c) => [c, { baseUrl: `${s.base}/clusters/${c}`, headers: { Authorization: `Bearer ${c}` } }])) });
    const options = {
      sources: [
        { cluster: "east", resource: "pods.v1", labelSelector: "app=a" },
        { cluster: "north", resource: "/api/v1/pods", namespace: "ns-1" },
        { cluster: "west", resource: { group: "", version: "v1", resource: "pods" } },
      ],
      sort: "apiserver",
      pageSize: 17,
      chunkLimit: 10,
    };
    const straight = (await drain(new Pager(options), fetchChunk)).flatMap((p) => p.items.map((o) => o.metadata.uid));
    const pager = new Pager(options);
    const head = [];
    for (let i = 0; i < 3; i++) head.push(...(await pager.nextPage(fetchChunk)).items);
    const token = (await pager.nextPage(fetchChunk)).nextPageToken;
    const resumed = Pager.resume(token, options);
    const tail = (await drain(resumed, fetchChunk)).flatMap((p) => p.items);
    const fourth = straight.slice(head.length, head.length + 17);
    assert.deepEqual([...head.map((o) => o.metadata.uid), ...fourth, ...tail.map((o) => o.metadata.uid)], straight);
    const east = data.east.filter((o) => o.metadata.labels.app === "a").length;
    const north = data.north.filter((o) => o.metadata.namespace === "ns-1").length;
    assert.equal(straight.length, east + north + 120);
    assert.ok(s.seen.some((u) => u.startsWith("/clusters/east/api/v1/pods?labelSelector=app%3Da&limit=10")), s.seen.join("\n"));
    assert.ok(s.seen.some((u) => u.startsWith("/clusters/north/api/v1/namespaces/ns-1/pods?limit=10")));
    assert.ok(s.seen.some((u) => /^\/clusters\/west\/api\/v1\/pods\?limit=10&continue=ns-/.test(u)));
    // Each cluster's own headers.
    assert.deepEqual([...new Set(s.auth)].sort(), NAMES.map((c) => `${c} Bearer ${c}`));
    // A token is bound to its sources' selectors: another selector is another list.
    const other = { ...options, sources: [{ ...options.sources[0], labelSelector: "app=b" }, ...options.sources.slice(1)] };
    assert.throws(() => Pager.resume(token, other), (e) => e instanceof PagerError && e.code === "FILTER_MISMATCH");
  } finally {
    await s.close();
  }
});

test("a proxy's HTML 503 page is transient: retried inside nextPage, the cluster listed whole", async () => {
  const data = { east: pods("east", 30), north: pods("north", 20) };
  const s = await apiservers(data, { busyOnce: ["north"] });
  try {
    const clusters = Object.fromEntries(Object.keys(data).map((c) => [c, { baseUrl: `${s.base}/clusters/${c}` }]));
    const fetchChunk = kubernetesFetcher({ clusters });
    const pager = new Pager({ sources: Object.keys(data).map((cluster) => ({ cluster, resource: "pods.v1" })), sort: "apiserver", pageSize: 100 });
    const page = await pager.nextPage(fetchChunk, { retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 2 } });
    assert.equal(page.items.length, 50, "both clusters whole");
    assert.deepEqual(page.unreachable, []);
    assert.equal(s.seen.filter((u) => u.startsWith("/clusters/north/")).length, 2, "north asked twice: the 503 page, then its list");
  } finally {
    await s.close();
  }
});

test("an unknown resource, a refused selector and a cluster that answers HTML are set aside, named on the page; the others go on", async () => {
  const data = Object.fromEntries(NAMES.map((c) => [c, pods(c, 60)]));
  data.south = pods("south", 10);
  const s = await apiservers(data, { html: ["west"] });
  try {
    const clusters = Object.fromEntries([...NAMES, "south"].map((c) => [c, { baseUrl: `${s.base}/clusters/${c}` }]));
    const fetchChunk = kubernetesFetcher({ clusters });
    const pager = new Pager({
      sources: [
        { cluster: "east", resource: "pods.v1" },
        { cluster: "north", resource: "deployments.v1.apps" },
        { cluster: "south", resource: "pods.v1", labelSelector: "app in (a)" },
        { cluster: "west", resource: "pods.v1" },
      ],
      sort: "apiserver",
      pageSize: 100,
    });
    const pages = await drain(pager, fetchChunk);
    const last = pages[pages.length - 1];
    assert.equal(pages.flatMap((p) => p.items).length, 60, "east's pods, all of them");
    const named = Object.fromEntries(last.unreachable.map((u) => [u.source, u]));
    assert.deepEqual(Object.keys(named).sort(), ["deployments.v1.apps/north/", "pods.v1/west/", "pods.v1?labelSelector=app+in+%28a%29/south/"]);
    const north = named["deployments.v1.apps/north/"];
    assert.equal(north.status, 404);
    assert.equal(north.error.code, "SOURCE_FAILED");
    assert.equal(north.error.details.source, "deployments.v1.apps/north/");
    // The slow start's first chunk: 2 × ceil(100 / 4 streamed sources) = 50.
    assert.match(north.error.details.url, /\/clusters\/north\/apis\/apps\/v1\/deployments\?limit=50$/);
    const south = named["pods.v1?labelSelector=app+in+%28a%29/south/"];
    assert.equal(south.status, 400);
    assert.equal(south.reason, "BadRequest");
    assert.match(south.error.message, /unable to parse requirement/);
    const west = named["pods.v1/west/"];
    assert.equal(west.reason, "NotFound");
    assert.equal(west.error.details.contentType, "text/html");
    assert.match(west.error.message, /not a Kubernetes List/);
    assert.ok(west.error instanceof PagerError);
  } finally {
    await s.close();
  }
});

test("bad resource sources and fetcher options are INVALID_OPTIONS naming the field", () => {
  const bad = (options, field) =>
    assert.throws(() => new Pager(options), (e) => {
      assert.ok(e instanceof PagerError);
      assert.equal(e.code, "INVALID_OPTIONS");
      assert.equal(e.details.field, field, e.message);
      return true;
    });
  bad({ sources: [{ cluster: "a", resource: "Pods.v1" }] }, "sources[0].resource");
  bad({ sources: [{ cluster: "a", resource: "/api/v1" }] }, "sources[0].resource");
  bad({ sources: [{ cluster: "a", resource: { resource: "pods" } }] }, "sources[0].resource.version");
  bad({ sources: [{ cluster: "a", resource: "pods.v1", plugin: "helm.packages" }] }, "sources[0].plugin");
  bad({ sources: [{ cluster: "a", plugin: "helm.packages", labelSelector: "a=b" }] }, "sources[0].labelSelector");
  bad({ sources: [{ cluster: "a" }] }, "sources[0].plugin");
  bad({ sources: [{ cluster: "a", resource: "pods.v1", kind: "kubeapps" }] }, "sources[0].kind");
  bad({ sources: [{ cluster: "a", resource: "pods.v1" }], sort: "apiserver", collation: {} }, "collation");
  const fetcherBad = (options, field) =>
    assert.throws(() => kubernetesFetcher(options), (e) => e instanceof PagerError && e.code === "INVALID_OPTIONS" && e.details.field === field);
  fetcherBad({}, "clusters");
  fetcherBad({ clusters: {} }, "clusters");
  fetcherBad({ clusters: { a: { baseUrl: "http://x/?q" } } }, 'clusters["a"].baseUrl');
  fetcherBad({ clusters: { a: { baseUrl: "http://x", headers: { "a b": "1" } } } }, 'clusters["a"].headers["a b"]');
  // A source whose cluster the fetcher does not know fails for good (404), naming it.
  const fetchChunk = kubernetesFetcher({ clusters: { a: { baseUrl: "http://127.0.0.1:9" } } });
  return assert.rejects(fetchChunk({ source: { plugin: "pods.v1", cluster: "b", namespace: "" }, pageToken: "", limit: 1 }, {}), (e) => e.code === "SOURCE_FAILED" && e.details.status === 404 && /no cluster "b"/.test(e.message));
});

test("sort by name: a list over all namespaces is read whole, one over a namespace streams; both in name order", async () => {
  const data = Object.fromEntries(NAMES.map((c) => [c, pods(c, 90)]));
  const s = await apiservers(data);
  try {
    const fetchChunk = kubernetesFetcher({ clusters: Object.fromEntries(NAMES.map((c) => [c, { baseUrl: `${s.base}/clusters/${c}` }])) });
    const pager = new Pager({
      sources: [{ cluster: "east", resource: "pods.v1" }, { cluster: "west", resource: "pods.v1", namespace: "ns-2" }],
      sort: "name",
      pageSize: 10,
      chunkLimit: 7,
    });
    const pages = await drain(pager, fetchChunk);
    assert.deepEqual(pages[0].stats.sources.map((x) => x.streamed), [false, true]);
    const names = pages.flatMap((p) => p.items.map((o) => o.metadata.name));
    assert.equal(names.length, 90 + 30);
    assert.deepEqual(names, [...names].sort());
  } finally {
    await s.close();
  }
});

test("any resource: spec fields named like a package's but shaped otherwise are no error", async () => {
  const pager = new Pager({ sources: [{ cluster: "east", resource: "widgets.v1.example.com" }], sort: "apiserver" });
  const page = await pager.nextPage(async () => ({
    kind: "WidgetList",
    metadata: {},
    items: [
      { metadata: { namespace: "a", name: "w1" }, spec: { displayName: { en: "W" }, categories: "x", shortDescription: 7 } },
      { metadata: { namespace: "a", name: "w2" }, spec: { categories: ["ok", 3] } },
    ],
  }));
  assert.deepEqual(page.items.map((o) => o.metadata.name), ["w1", "w2"]);
  assert.deepEqual(page.categories, []);
});
