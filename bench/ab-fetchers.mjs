// A/B of the built-in REST fetchers (`kubeappsFetcher`, `kubernetesListFetcher`) of two builds of
// the package in one Node process, against a local HTTP server in the same process (loopback, no
// added latency): whole walks of the bench's catalog page by page through `nextPage`, a run of
// single requests straight through a fetchChunk, and the same through a replaced global fetch
// that answers at once (the fetcher's own cost: URL, headers, crossings, awaiting). The two builds are interleaved round by round, so
// machine load hits both alike; both must give the same pages. Not part of `npm run bench`; for
// comparing a change of the fetchers against a baseline:
//
//   node bench/ab-fetchers.mjs <baseline pkg/nodejs dir> [candidate dir, default pkg/nodejs] [items per source] [rounds]
import { createServer } from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import assert from "node:assert/strict";
import { generateCatalog, backends, pagerOptions, SOURCES } from "./lib/workload.js";

const require = createRequire(import.meta.url);
const [base, cand = "pkg/nodejs", per = "5000", rounds = "5"] = process.argv.slice(2);
if (!base) throw new Error("usage: node bench/ab-fetchers.mjs <baseline pkg/nodejs dir> [candidate dir] [items per source] [rounds]");
const builds = { base: require(path.resolve(base, "index.js")), cand: require(path.resolve(cand, "index.js")) };
const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];

// The server: each kubeapps source at its plugin's REST path, the kubernetes source at /k8s/list.
// Answers are cached by URL (the same for both builds), so the server's own JSON work is done once.
const catalog = generateCatalog(Number(per));
const answer = backends(catalog);
const cache = new Map();
const server = createServer((req, res) => {
  let body = cache.get(req.url);
  if (body === undefined) {
    const url = new URL(req.url, "http://x");
    const limit = Number(url.searchParams.get("limit") ?? url.searchParams.get("paginationOptions.pageSize"));
    const k8s = url.pathname === "/k8s/list";
    const s = k8s ? SOURCES.findIndex((x) => x.kind === "kubernetes") : SOURCES.findIndex((x) => url.pathname.includes(`/plugins/${x.plugin.replace(/\.packages$/, "")}/`));
    const pageToken = (k8s ? url.searchParams.get("continue") : url.searchParams.get("paginationOptions.pageToken")) ?? "";
    body = JSON.stringify(answer[s]({ pageToken, limit }));
    cache.set(req.url, body);
  }
  res.writeHead(200, { "content-type": "application/json" });
  res.end(body);
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const origin = `http://127.0.0.1:${server.address().port}`;

/** One fetchChunk over both fetchers of `lib`: the kubernetes source to the list, the others to the REST gateway. */
function fetchChunkOf(lib) {
  const rest = lib.kubeappsFetcher({ baseUrl: `${origin}/apis` });
  const list = lib.kubernetesListFetcher({ url: `${origin}/k8s/list` });
  return (request, init) => (SOURCES[request.sourceIndex].kind === "kubernetes" ? list : rest)(request, init);
}

/** A whole walk: pages and ms, and the names of every page (to compare the builds). */
async function walk(lib, options) {
  const pager = new lib.Pager(options);
  const fetchChunk = fetchChunkOf(lib);
  const names = [];
  const t0 = performance.now();
  for (;;) {
    const page = await pager.nextPage(fetchChunk);
    names.push(page.items.map((i) => i.name).join(","));
    if (page.done) break;
  }
  const ms = performance.now() - t0;
  pager.free();
  return { ms, pages: names.length, names };
}

/** `n` requests one after the other straight through a fetchChunk (limit 20): µs per request. */
async function requests(lib, n) {
  const fetchChunk = lib.kubeappsFetcher({ baseUrl: `${origin}/apis` });
  const request = { requestId: 1, sourceIndex: 0, source: { plugin: SOURCES[0].plugin, cluster: "", namespace: "" }, pageToken: "40", limit: 20 };
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await fetchChunk(request, {});
  return ((performance.now() - t0) * 1000) / n;
}

console.log(`node ${process.version}, ${per} items per source (${SOURCES.length} sources), ${rounds} rounds after a warm-up`);
const scanned = Number(per) * SOURCES.length;
for (const [pageSize, chunkLimit] of [[20, 500], [20, 50], [100, 500]]) {
  const options = pagerOptions(pageSize, 1, chunkLimit);
  const perPage = { base: [], cand: [] }, rate = { base: [], cand: [] };
  for (let r = 0; r <= Number(rounds); r++) {
    const seen = {};
    for (const k of Object.keys(builds)) {
      const w = await walk(builds[k], options);
      seen[k] = w.names;
      if (r === 0) continue; // warm-up
      perPage[k].push(w.ms / w.pages);
      rate[k].push(scanned / (w.ms / 1000));
    }
    assert.deepEqual(seen.cand, seen.base, "both builds give the same pages");
  }
  const b = med(perPage.base), c = med(perPage.cand);
  console.log(
    `page ${pageSize}, chunk ${chunkLimit}: ms/page base ${b.toFixed(3)} cand ${c.toFixed(3)} (cand/base ${(c / b).toFixed(2)}); ` +
      `items/s base ${Math.round(med(rate.base))} cand ${Math.round(med(rate.cand))}`,
  );
}
/** The fetcher's own cost: `n` requests through a replaced global fetch that answers at once. */
async function overhead(lib, n) {
  const real = globalThis.fetch;
  const body = { availablePackageSummaries: [], nextPageToken: "60" };
  const answer = { status: 200, ok: true, json: () => Promise.resolve(body) };
  globalThis.fetch = () => Promise.resolve(answer);
  try {
    return await requests(lib, n);
  } finally {
    globalThis.fetch = real;
  }
}

for (const [what, run, n] of [["single requests to the server (limit 20)", requests, 500], ["the fetcher alone (a replaced fetch answering at once)", overhead, 20000]]) {
  const us = { base: [], cand: [] };
  for (let r = 0; r <= Number(rounds); r++) {
    for (const k of Object.keys(builds)) {
      const v = await run(builds[k], n);
      if (r > 0) us[k].push(v);
    }
  }
  const b = med(us.base), c = med(us.cand);
  console.log(`${what}: µs/request base ${b.toFixed(1)} cand ${c.toFixed(1)} (cand/base ${(c / b).toFixed(2)})`);
}
server.close();
