#!/usr/bin/env node
// `node bench/clusters.mjs [--quick] [--no-write]` (issue 25, run by hand after `bash
// scripts/build.sh`; not part of `npm run bench`): pods of 3 clusters, 10,000 and 100,000 in all,
// each cluster behind a fake apiserver (an HTTP server listing as the apiserver does: storage-key
// order, `limit`, `continue`, `remainingItemCount`) that answers every request after 20 ms. Two
// clients, each in a child Node process of its own (`--expose-gc`: its JS heap is its own):
//
//  - whole lists (Headlamp's `useKubeObjectList` way): every cluster's pod list fetched whole,
//    concurrently, parsed, merged and sorted in JS; pages are slices of that array;
//  - kubeapps-pager: one Pager over `kubernetesFetcher`, `sort: "apiserver"` (every list
//    streams), page size 50, chunk limit 500; the pages shown are kept (50 pages: 2,500 pods).
//
// For each: time to the first page, response bytes (bodies as sent, uncompressed), JS heap used
// (after a full GC) and wasm linear memory, at page 1 and after 50 pages. Writes its table between
// the clusters markers of BENCHMARKS.md. Node, not a browser: the heap is V8's either way.
import { execFileSync, fork } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CLUSTERS = ["east", "north", "west"];
const LATENCY_MS = 20;
const PAGE_SIZE = 50;
const PAGES = 50;
const BEGIN = "<!-- clusters:begin -->";
const END = "<!-- clusters:end -->";

// ---------------------------------------------------------------- the child: one client

if (process.argv[2] === "--client") {
  const [, , , which, base] = process.argv;
  const { createRequire } = await import("node:module");
  const require = createRequire(import.meta.url);
  const pkg = require(path.join(REPO, "pkg/nodejs/index.js"));
  const heap = () => {
    global.gc();
    global.gc();
    return process.memoryUsage().heapUsed;
  };
  const out = {};
  // Response bytes as the client receives them (each answer's Content-Length: bodies as sent).
  let bytes = 0;
  const fetchOnce = globalThis.fetch;
  globalThis.fetch = async (...a) => {
    const r = await fetchOnce(...a);
    bytes += Number(r.headers.get("content-length") ?? 0);
    return r;
  };
  // Node's fetch loads itself on its first call: not the list's time.
  await fetch(`${base}/warm-up`).then((r) => r.arrayBuffer());
  bytes = 0;
  const t0 = performance.now();
  if (which === "whole") {
    // Every list whole, concurrently; merged in the browser by (namespace, name), then cluster.
    const lists = await Promise.all(
      CLUSTERS.map(async (c) => {
        const body = await (await fetch(`${base}/clusters/${c}/api/v1/pods`)).json();
        for (const o of body.items) o.cluster = c;
        return body.items;
      }),
    );
    const key = (o) => `${o.metadata.namespace}/${o.metadata.name}`;
    const all = lists.flat().sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.cluster < b.cluster ? -1 : 1));
    const shown = all.slice(0, PAGE_SIZE);
    out.firstPageMs = performance.now() - t0;
    out.bytes1 = bytes;
    out.heap1 = heap();
    for (let p = 1; p < PAGES; p++) shown.push(...all.slice(p * PAGE_SIZE, (p + 1) * PAGE_SIZE));
    out.heap50 = heap();
    out.bytes50 = bytes;
    out.wasm1 = out.wasm50 = 0;
    out.shown = shown.length;
    out.check = shown.slice(0, 3).map((o) => `${o.cluster}/${key(o)}`);
    globalThis.keep = all;
  } else {
    const fetchChunk = pkg.kubernetesFetcher({ clusters: Object.fromEntries(CLUSTERS.map((c) => [c, { baseUrl: `${base}/clusters/${c}` }])) });
    const pager = new pkg.Pager({ sources: CLUSTERS.map((cluster) => ({ cluster, resource: "pods.v1" })), sort: "apiserver", pageSize: PAGE_SIZE });
    const shown = [];
    const first = await pager.nextPage(fetchChunk);
    shown.push(...first.items);
    out.firstPageMs = performance.now() - t0;
    out.bytes1 = bytes;
    out.heap1 = heap();
    out.wasm1 = pkg.wasmMemoryBytes();
    out.streamed = first.stats.sources.every((s) => s.streamed);
    for (let p = 1; p < PAGES; p++) shown.push(...(await pager.nextPage(fetchChunk)).items);
    out.heap50 = heap();
    out.bytes50 = bytes;
    out.wasm50 = pkg.wasmMemoryBytes();
    out.shown = shown.length;
    out.check = shown.slice(0, 3).map((o) => `${o.cluster}/${o.metadata.namespace}/${o.metadata.name}`);
    globalThis.keep = [pager, shown];
  }
  process.send(out);
  process.exit(0);
}

// ---------------------------------------------------------------- the parent: the apiservers

/** A pod of about 1.3 KB of JSON (real pods are larger: several KB with their spec and status). */
function pod(cluster, i, rand) {
  const namespace = `team-${String(rand() * 40 | 0).padStart(2, "0")}`;
  const app = ["api", "cache", "db", "frontend", "ingest", "metrics", "queue", "worker"][rand() * 8 | 0];
  const name = `${app}-${(rand() * 36 ** 8 | 0).toString(36)}-${(rand() * 36 ** 5 | 0).toString(36)}`;
  return {
    apiVersion: "v1", kind: "Pod",
    metadata: {
      name, namespace, uid: `${cluster}-${i}-0000-4000-8000-000000000000`, resourceVersion: String(1000 + i),
      creationTimestamp: "2026-12-01T10:00:00Z", labels: { app, "pod-template-hash": "7d9f8c6b5" },
      ownerReferences: [{ apiVersion: "apps/v1", kind: "ReplicaSet", name: `${app}-7d9f8c6b5`, uid: "rs", controller: true }],
    },
    spec: {
      nodeName: `${cluster}-node-${rand() * 20 | 0}`, serviceAccountName: "default", restartPolicy: "Always",
      containers: [{ name: app, image: `registry.example/${app}:1.${rand() * 30 | 0}`, ports: [{ containerPort: 8080, protocol: "TCP" }], resources: { requests: { cpu: "100m", memory: "128Mi" } } }],
    },
    status: {
      phase: "Running", podIP: `10.${rand() * 255 | 0}.${rand() * 255 | 0}.${rand() * 255 | 0}`, startTime: "2026-12-01T10:00:05Z",
      conditions: ["Initialized", "Ready", "ContainersReady", "PodScheduled"].map((type) => ({ type, status: "True", lastTransitionTime: "2026-12-01T10:00:06Z" })),
      containerStatuses: [{ name: app, ready: true, restartCount: 0, image: `registry.example/${app}`, started: true }],
    },
  };
}

function mulberry32(a) {
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fake apiservers for `total` pods over the clusters: `{ base, bytes(), close() }`. */
async function apiservers(total) {
  const rand = mulberry32(25);
  const data = {};
  for (const [k, c] of CLUSTERS.entries()) {
    const n = Math.floor(total / 3) + (k < total % 3 ? 1 : 0);
    const pods = Array.from({ length: n }, (_, i) => pod(c, i, rand));
    const key = (o) => `${o.metadata.namespace}/${o.metadata.name}`;
    pods.sort((a, b) => (key(a) < key(b) ? -1 : 1));
    data[c] = { keys: pods.map(key), json: pods.map((o) => JSON.stringify(o)) };
  }
  let bytes = 0;
  const server = createServer((req, res) => {
    const url = new URL(req.url, "http://x");
    const m = /^\/clusters\/(\w+)\/api\/v1\/pods$/.exec(url.pathname);
    const d = m && data[m[1]];
    setTimeout(() => {
      if (!d) {
        res.writeHead(404).end();
        return;
      }
      const start = url.searchParams.get("continue") ?? "";
      const limit = Number(url.searchParams.get("limit") ?? 0) || Infinity;
      // The first key after `start` (binary search).
      let lo = 0, hi = d.keys.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (d.keys[mid] <= start) lo = mid + 1;
        else hi = mid;
      }
      const end = Math.min(d.keys.length, lo + limit);
      const metadata = { resourceVersion: "1000" };
      if (end < d.keys.length) Object.assign(metadata, { continue: d.keys[end - 1], remainingItemCount: d.keys.length - end });
      const body = `{"kind":"PodList","apiVersion":"v1","metadata":${JSON.stringify(metadata)},"items":[${d.json.slice(lo, end).join(",")}]}`;
      const length = Buffer.byteLength(body);
      bytes += length;
      res.writeHead(200, { "content-type": "application/json", "content-length": length });
      res.end(body);
    }, LATENCY_MS);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return {
    base: `http://127.0.0.1:${server.address().port}`,
    bytes: () => bytes,
    reset: () => (bytes = 0),
    close: () => new Promise((r) => server.close(r)),
  };
}

function runClient(which, base) {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ["--client", which, base], { execArgv: ["--expose-gc", "--max-old-space-size=4096"] });
    child.once("message", resolve);
    child.once("exit", (code) => code !== 0 && reject(new Error(`${which}: exit ${code}`)));
  });
}

const MB = (b) => (b / 1048576).toFixed(1);
const args = new Set(process.argv.slice(2));
const sizes = args.has("--quick") ? [10_000] : [10_000, 100_000];
const rows = [];
for (const total of sizes) {
  const s = await apiservers(total);
  const got = {};
  for (const which of ["whole", "pager"]) {
    s.reset();
    got[which] = await runClient(which, s.base);
    if (got[which].bytes50 !== s.bytes()) throw new Error(`${which}: ${got[which].bytes50} B received, ${s.bytes()} B sent`);
  }
  if (JSON.stringify(got.whole.check) !== JSON.stringify(got.pager.check)) throw new Error(`the clients disagree: ${got.whole.check} / ${got.pager.check}`);
  if (!got.pager.streamed) throw new Error("the pager did not stream every cluster");
  await s.close();
  for (const which of ["whole", "pager"]) {
    const g = got[which];
    rows.push(`| ${total.toLocaleString("en-US")} | ${which === "whole" ? "whole lists, merged in JS (Headlamp's way)" : "kubeapps-pager, `sort: \"apiserver\"`"} | ${g.firstPageMs.toFixed(0)} ms | ${MB(g.bytes1)} MB | ${MB(g.bytes50)} MB | ${MB(g.heap1)} MB | ${MB(g.heap50)} MB | ${which === "whole" ? "—" : `${MB(g.wasm1)} MB`} | ${which === "whole" ? "—" : `${MB(g.wasm50)} MB`} |`);
  }
  const ratio = got.whole.firstPageMs / got.pager.firstPageMs;
  rows.push(`| | **whole / pager** | **${ratio.toFixed(1)}× sooner** | ${(got.whole.bytes1 / got.pager.bytes1).toFixed(1)}× fewer | | ${(got.whole.heap1 / got.pager.heap1).toFixed(1)}× less | | | |`);
  console.error(`${total}: whole ${got.whole.firstPageMs.toFixed(0)} ms, pager ${got.pager.firstPageMs.toFixed(0)} ms`);
}

const cpu = os.cpus()[0]?.model ?? "unknown CPU";
const rev = (() => {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: REPO }).toString().trim();
  } catch {
    return "?";
  }
})();
const table = [
  `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} × ${cpu}, Node ${process.version}, commit ${rev},`,
  "`node bench/clusters.mjs`. **The machine was shared with other jobs during this run** (2 cores, several",
  "builds at once): times are indicative, bytes and memory are not affected. Bytes: response bodies received",
  "by page 1 and by page 50 (the whole lists have everything at page 1; the pager one chunk of 500 per cluster",
  "per step of the merge). JS heap: V8's used heap after a full GC, the pages shown kept (page 1: 50 pods;",
  "50 pages: 2,500), the client's own module and data included; wasm: the module's linear memory (it grows,",
  "never shrinks).",
  "",
  "| pods (3 clusters) | client | first page | bytes, page 1 | bytes, 50 pages | JS heap, page 1 | JS heap, 50 pages | wasm, page 1 | wasm, 50 pages |",
  "|---:|---|---:|---:|---:|---:|---:|---:|---:|",
  ...rows,
].join("\n");
console.log(table);
if (!args.has("--no-write")) {
  const file = path.join(REPO, "BENCHMARKS.md");
  let md = readFileSync(file, "utf8");
  if (!md.includes(BEGIN)) md += `\n## Clusters: any Kubernetes list across clusters (issue 25)\n\n${BEGIN}\n${END}\n`;
  md = md.replace(new RegExp(`${BEGIN}[\\s\\S]*${END}`), `${BEGIN}\n${table}\n${END}`);
  writeFileSync(file, md);
}
