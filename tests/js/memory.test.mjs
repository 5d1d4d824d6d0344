// One million items through the sans-IO API (nextRequests / feed / takePage) of the built nodejs
// package, from three sources (two Kubeapps offset plugins and one Kubernetes continue list), chunk
// 500, page 100: the WebAssembly memory stays flat. Dedupe is by watermark, so the pager keeps no
// per-item state; the only items alive are the current chunks'. Items are made per chunk when a
// request asks for them, so this test's own memory stays small too. The figures are printed as
// test diagnostics; nothing here asserts a time.
import { test } from "node:test";
import assert from "node:assert/strict";
import { performance } from "node:perf_hooks";
import { pkg, codec } from "./support/package.mjs";

const { Pager, wasmMemoryBytes } = pkg;
const { encodeContinueToken, decodeContinueToken } = codec;

const TOTAL = 1_000_000;
const SOURCES = 3;
const CHUNK = 500;
const PAGE = 100;
const WARM_UP = 50_000;
const MIB = 1 << 20;
const PLUGINS = ["helm.packages", "fluxv2.packages", "kapp_controller.packages"];
const NAMESPACE = "kubeapps";

/** Item i of the whole catalog (0 ≤ i < TOTAL) lives in source i % 3; names sort as i does. */
const nameOf = (i) => `pkg-${String(i).padStart(7, "0")}`;
const indexOf = (name) => Number(name.slice(4));

function summary(i) {
  const plugin = PLUGINS[i % SOURCES];
  const name = nameOf(i);
  return {
    availablePackageRef: {
      context: { cluster: "default", namespace: NAMESPACE },
      identifier: `repo/${name}`,
      plugin: { name: plugin, version: "v1alpha1" },
    },
    name,
    displayName: name,
    shortDescription: `package number ${i}`,
    categories: i % 7 === 0 ? ["Database"] : [],
  };
}

/** Items k..k+limit of source s (its k-th item is catalog item s + 3k), made now. */
function slice(s, k, limit) {
  const out = [];
  for (let j = k; j < k + limit; j++) {
    const i = s + SOURCES * j;
    if (i >= TOTAL) break;
    out.push(summary(i));
  }
  return out;
}
const sizeOf = (s) => Math.ceil((TOTAL - s) / SOURCES);

/** Answers a request the way each source's server would, making only the chunk asked for. */
function answer(request) {
  const s = request.sourceIndex;
  if (s < 2) {
    // Kubeapps plugin: decimal item offsets.
    const k = request.pageToken === "" ? 0 : Number(request.pageToken);
    const items = slice(s, k, request.limit);
    const next = k + request.limit < sizeOf(s) ? String(k + request.limit) : "";
    return { availablePackageSummaries: items, nextPageToken: next };
  }
  // Kubernetes list: continue token from the key after the chunk's last item, one resourceVersion.
  let k = 0;
  if (request.pageToken !== "") {
    const start = decodeContinueToken(request.pageToken).start; // "kubeapps/pkg-0000123\u0000"
    k = (indexOf(start.slice(NAMESPACE.length + 1, -1)) - s) / SOURCES + 1;
  }
  const items = slice(s, k, request.limit);
  const remaining = sizeOf(s) - k - items.length;
  const last = items[items.length - 1];
  const metadata = { resourceVersion: "4242" };
  if (remaining > 0) {
    metadata.continue = encodeContinueToken({ resourceVersion: 4242, start: `${NAMESPACE}/${last.name}\u0000` });
    metadata.remainingItemCount = remaining;
  }
  return { kind: "List", apiVersion: "v1", items, metadata };
}

test("1,000,000 items through nextRequests/feed/takePage: wasm memory stays flat", (t) => {
  const pager = new Pager({
    sources: PLUGINS.map((plugin, i) => ({ plugin, cluster: "default", namespace: NAMESPACE, kind: i < 2 ? "kubeapps" : "kubernetes" })),
    chunkLimit: CHUNK,
    pageSize: PAGE,
  });
  const start = performance.now();
  const atStart = wasmMemoryBytes();
  let emitted = 0, pages = 0, requests = 0, warm = null, warmHeap = 0, peak = atStart;
  let done = false;
  const taken = new Array(SOURCES).fill(0);
  while (!done) {
    if (!pager.pageReady()) {
      const reqs = pager.nextRequests();
      assert.ok(reqs.length > 0, "the pager asks for something or has a page");
      for (const r of reqs) {
        // The slow start: a first chunk of 2 × ceil(PAGE / SOURCES) = 68, doubling up to CHUNK.
        // A kubeapps source's later chunks re-read the last item's tie group (here the item alone) and
        // the item before it (from G - 1, limit + 2): docs/DESIGN.md, Ties.
        const chunk = Math.min(CHUNK, 2 * Math.ceil(PAGE / SOURCES) * 2 ** taken[r.sourceIndex]++);
        assert.equal(r.limit, r.sourceIndex < 2 && r.pageToken !== "" ? chunk + 2 : chunk);
        requests++;
        assert.equal(pager.feed(r.requestId, answer(r)), "accepted");
      }
      continue;
    }
    const page = pager.takePage();
    pages++;
    // Every item once, in order: names are unique across sources and sort as their index.
    for (const item of page.items) {
      assert.equal(item.name, nameOf(emitted));
      assert.equal(item.availablePackageRef.plugin.name, PLUGINS[emitted % SOURCES]);
      emitted++;
    }
    if (!page.done) assert.equal(page.items.length, PAGE);
    done = page.done;
    peak = Math.max(peak, wasmMemoryBytes());
    if (warm === null && emitted >= WARM_UP) {
      warm = wasmMemoryBytes();
      warmHeap = process.memoryUsage().heapUsed;
    }
  }
  const seconds = (performance.now() - start) / 1000;
  const atEnd = wasmMemoryBytes();
  const heap = process.memoryUsage().heapUsed;
  pager.free();

  assert.equal(emitted, TOTAL);
  assert.equal(pages, TOTAL / PAGE);
  // One request per chunk: no chunk was fetched twice. The slow start's first three chunks of each
  // source (68, 136, 272: 476 items), then chunks of CHUNK.
  const ramp = [68, 136, 272];
  const rampItems = ramp.reduce((a, b) => a + b, 0);
  assert.equal(requests, [0, 1, 2].reduce((n, s) => n + ramp.length + Math.ceil((sizeOf(s) - rampItems) / CHUNK), 0));
  const mib = (b) => (b / MIB).toFixed(2);
  t.diagnostic(`wasm memory: start ${mib(atStart)} MiB, after ${WARM_UP} items ${mib(warm)} MiB, end ${mib(atEnd)} MiB, peak ${mib(peak)} MiB`);
  t.diagnostic(`JS heap used: after warm-up ${mib(warmHeap)} MiB, end ${mib(heap)} MiB`);
  t.diagnostic(`${TOTAL} items, ${pages} pages, ${requests} requests in ${seconds.toFixed(1)} s (${Math.round(TOTAL / seconds)} items/s)`);
  assert.ok(atEnd - warm <= MIB, `wasm memory grew ${atEnd - warm} bytes after the warm-up`);
  assert.ok(peak <= 16 * MIB, `wasm memory peaked at ${peak} bytes`);
});
