// The dashboard's transport (issue 12, point 4): the demo backend's plugin services spoken over
// Connect and gRPC-web (server/connect.mjs, @connectrpc/connect-node), clients made from the
// generated descriptors (tests/proto/gen) as the Kubeapps dashboard makes them
// (createPromiseClient + a transport), paged by the built package's connectFetcher: every package
// once against the backend's ground truth, installed lists, a failure mapped to its status with the
// ConnectError as cause and then retried, an abort mid-call. In Chromium: tests/e2e/connect.test.mjs.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createPromiseClient, ConnectError, Code } from "@connectrpc/connect";
import { createConnectTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import { HelmPackagesService } from "../proto/gen/helm_connect.js";
import { FluxV2PackagesService } from "../proto/gen/fluxv2_connect.js";
import { KappControllerPackagesService } from "../proto/gen/kapp_controller_connect.js";
import { AvailablePackageSummary, InstalledPackageSummary } from "../proto/gen/kubeapps_pb.js";
import { serve } from "../server/helpers.mjs";
import { installedReleases } from "../../server/installed.mjs";
import { connectHandler } from "../../server/connect.mjs";
import { FluxService } from "../../server/real/flux.mjs";
import { PluginError } from "../../server/real/plugin-error.mjs";
import { createServer } from "node:http";
import { pkg, PagerError } from "./support/package.mjs";

const { Pager, connectFetcher } = pkg;
let server;

before(async () => (server = await serve()));
after(() => server?.close());

const TRANSPORTS = {
  connect: () => createConnectTransport({ baseUrl: `${server.base}/apis`, httpVersion: "1.1" }),
  "grpc-web": () => createGrpcWebTransport({ baseUrl: `${server.base}/apis`, httpVersion: "1.1" }),
};

function clientsOver(transport) {
  return {
    "helm.packages": createPromiseClient(HelmPackagesService, transport),
    "fluxv2.packages": createPromiseClient(FluxV2PackagesService, transport),
    "kapp_controller.packages": createPromiseClient(KappControllerPackagesService, transport),
  };
}

/** The demo's sources, of the kinds its plugins' default behaviours call for. */
async function sources() {
  const config = (await server.get("/demo/config")).json;
  const kind = { kubernetes: "kubernetes", "kubeapps-offset": "kubeapps", unordered: "unordered" };
  return config.plugins.flatMap((p) =>
    Object.keys(p.namespaces).sort().map((namespace) => ({ plugin: p.name, cluster: config.cluster, namespace, kind: kind[p.behaviour] })),
  );
}

const idOf = (s) => {
  const ref = s.availablePackageRef ?? s.installedPackageRef;
  return `${ref.plugin.name}/${ref.context.cluster}/${ref.context.namespace}/${ref.identifier}`;
};

async function pageAll(pager, fetchChunk) {
  const items = [];
  let categories = [];
  for (;;) {
    const page = await pager.nextPage(fetchChunk);
    items.push(...page.items);
    categories = page.categories;
    if (page.done) return { items, categories };
  }
}

for (const [name, transport] of Object.entries(TRANSPORTS)) {
  test(`over ${name}: connectFetcher pages the three plugins to the end, every package once, as generated messages, with their categories`, async () => {
    const fetchChunk = connectFetcher({ clients: clientsOver(transport()) });
    const pager = new Pager({ sources: await sources(), pageSize: 50, chunkLimit: 40 });
    const { items, categories } = await pageAll(pager, fetchChunk);
    const truth = (await server.get("/demo/truth")).json;
    assert.deepEqual(items.map(idOf).sort(), [...truth.identities].sort(), "every package of the backend once");
    assert.equal(new Set(items.map(idOf)).size, items.length, "none twice");
    assert.ok(items.every((s) => s instanceof AvailablePackageSummary), "the very protobuf-es messages the client decoded");
    const records = ["helm.packages", "fluxv2.packages", "kapp_controller.packages"].flatMap((p) => server.store.liveSorted(p));
    const all = new Set(records.flatMap((r) => r.categories ?? []).filter(Boolean));
    assert.deepEqual(categories, [...all].sort(), "the categories the plugins reported, merged");
    pager.free();
  });
}

test("over gRPC-web: installed packages of each plugin, paged with the same pager, match the backend's releases", async () => {
  const fetchChunk = connectFetcher({ clients: clientsOver(TRANSPORTS["grpc-web"]()), list: "installed" });
  const srcs = (await sources()).map((s) => ({ ...s, kind: "kubeapps" }));
  const pager = new Pager({ sources: srcs, pageSize: 25, chunkLimit: 10 });
  const { items } = await pageAll(pager, fetchChunk);
  const expected = srcs.flatMap((s) => installedReleases(server.app, s.plugin, s.namespace).map((x) => `${s.plugin}/${s.cluster}/${s.namespace}/${x.release}`));
  assert.ok(expected.length > 50, `${expected.length} releases`);
  assert.deepEqual(items.map(idOf).sort(), expected.sort());
  assert.ok(items.every((s) => s instanceof InstalledPackageSummary));
  const names = items.map((s) => s.name);
  assert.deepEqual(names, [...names].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)) || 0), "merged by release name");
  pager.free();
});

test("over Connect: a plugin that fails (Unavailable) is SOURCE_FAILED 503 with the ConnectError as cause; the next call retries and nothing is lost", async () => {
  const fetchChunk = connectFetcher({ clients: clientsOver(TRANSPORTS.connect()) });
  const srcs = (await sources()).filter((s) => s.plugin === "helm.packages");
  const pager = new Pager({ sources: srcs, pageSize: 30, chunkLimit: 30 });
  const first = await pager.nextPage(fetchChunk);
  await server.post("/demo/fail", { plugin: "helm", message: "helm plugin restarting" });
  // retry: false: the call rejects at the first failure (nextPage retries a 503 by default). The
  // pages that the chunks read already hold (the slow start's growing chunks) come first.
  const before = [];
  let error = null;
  for (let i = 0; i < 10 && error === null; i++) {
    error = await pager.nextPage(fetchChunk, { retry: false }).then((page) => (before.push(...page.items), null), (e) => e);
  }
  assert.ok(error instanceof PagerError && error.code === "SOURCE_FAILED");
  assert.ok(error.cause instanceof ConnectError, "the ConnectError, one step away");
  assert.equal(error.cause.code, Code.Unavailable);
  assert.equal(error.details.status, 503);
  assert.equal(error.details.connectCode, "unavailable");
  assert.match(error.details.source, /^helm\.packages\//);
  assert.match(error.message, /helm plugin restarting/);
  assert.match(error.userMessage, /unavailable/i);
  const rest = await pageAll(pager, fetchChunk);
  const seen = [...first.items, ...before, ...rest.items].map(idOf);
  const truth = (await server.get("/demo/truth?plugins=helm.packages")).json;
  assert.deepEqual(seen.sort(), [...truth.identities].sort());
  pager.free();
});

test("over Connect: an abort cancels the call in flight (ABORTED); a bad cluster is InvalidArgument → 400, set aside", async () => {
  const clients = clientsOver(TRANSPORTS.connect());
  const pager = new Pager({ sources: (await sources()).slice(0, 1) });
  const controller = new AbortController();
  controller.abort("view closed");
  const aborted = await pager.nextPage(connectFetcher({ clients }), { signal: controller.signal }).catch((e) => e);
  assert.equal(aborted.code, "ABORTED");
  const other = new Pager({ sources: [{ plugin: "helm.packages", cluster: "elsewhere", namespace: "kubeapps" }] });
  // Refused at the list's start (no position there can have vanished): the source fails for good,
  // named on the page, not retried as a refused position nor a SOURCE_FAILED for the whole list.
  const page = await other.nextPage(connectFetcher({ clients }));
  const [u] = page.unreachable;
  assert.deepEqual([page.unreachable.length, u.cause, u.status], [1, "failed-for-good", 400]);
  assert.deepEqual([u.error.code, u.error.details.status, u.error.cause.code], ["SOURCE_FAILED", 400, Code.InvalidArgument]);
  pager.free();
  other.free();
});

test("connectHandler sits over a real backend's service object (server/real's chart cache): paged to the end; its PluginError is the Connect code it names", async () => {
  const flux = new FluxService();
  const charts = (repo, n) => Array.from({ length: n }, (_, i) => ({ name: `${repo}-chart-${String(i).padStart(2, "0")}`, description: "d", version: "1.0.0", appVersion: "1" }));
  flux.setRepo("kubeapps", "bitnami", charts("bitnami", 23));
  flux.setRepo("kubeapps", "jetstack", charts("jetstack", 9));
  let fail = false;
  const service = {
    getAvailablePackageSummaries: (request) => {
      if (fail) throw new PluginError("unavailable", "chart cache resyncing");
      return flux.getAvailablePackageSummaries(request);
    },
  };
  const http = createServer(connectHandler({ "fluxv2.packages": service }));
  await new Promise((r) => http.listen(0, "127.0.0.1", r));
  try {
    const transport = createConnectTransport({ baseUrl: `http://127.0.0.1:${http.address().port}/apis`, httpVersion: "1.1" });
    const fetchChunk = connectFetcher({ clients: { "fluxv2.packages": createPromiseClient(FluxV2PackagesService, transport) } });
    const source = { plugin: "fluxv2.packages", cluster: "default", namespace: "kubeapps", kind: "unordered" };
    const pager = new Pager({ sources: [source], pageSize: 10, chunkLimit: 7 });
    const { items } = await pageAll(pager, fetchChunk);
    assert.deepEqual(items.map((s) => s.name), flux.all().map((c) => c.name).sort());
    fail = true;
    const error = await new Pager({ sources: [source] }).nextPage(fetchChunk).catch((e) => e);
    assert.deepEqual([error.code, error.details.status, error.cause.code, error.cause.rawMessage], ["SOURCE_FAILED", 503, Code.Unavailable, "chart cache resyncing"]);
    // A service without the installed list answers Unimplemented (501).
    // It fails for good (issue 15): the page names the source, with the SOURCE_FAILED as its cause.
    const installed = await new Pager({ sources: [source] })
      .nextPage(connectFetcher({ clients: { "fluxv2.packages": createPromiseClient(FluxV2PackagesService, transport) }, list: "installed" }));
    const cause = installed.unreachable[0].error;
    assert.deepEqual([installed.unreachable[0].status, cause.details.status, cause.details.connectCode], [501, 501, "unimplemented"]);
    pager.free();
  } finally {
    await new Promise((r) => http.close(r));
  }
});
