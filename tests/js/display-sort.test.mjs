// Issue 24, through the public path: under `sort: "displayName"` a helm source (its display
// names are its chart names) streams in its name order through `pager.nextPage` with
// `kubeappsFetcher` over a local HTTP server, instead of being read whole before page 1; one
// whose answer disagrees with the display-name order is switched to a whole read, and the item
// that broke the order comes late, once, on a page that says `reordered`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { pkg } from "./support/package.mjs";
import { summary, identity } from "./support/backend.mjs";

const { Pager, kubeappsFetcher } = pkg;

// `plugins[name]` answers GET /apis/plugins/{name}/packages/v1alpha1/availablepackages.
const plugins = {};
let server;
let base;
before(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url, "http://localhost");
    const m = /^\/apis\/plugins\/([^/]+)\/packages\/v1alpha1\/availablepackages$/.exec(url.pathname);
    const handler = m && plugins[m[1]];
    const { status = 200, body = {} } = handler ? handler(url.searchParams) : { status: 404, body: { code: 5, message: "no such plugin" } };
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${server.address().port}/apis`;
});
after(() => new Promise((resolve) => server.close(resolve)));

/** A plugin paging `list` (in its order: by name, as helm's SQL) by decimal offsets; each request's (offset, limit) logged. */
function offsetPlugin(list, log) {
  return (q) => {
    const token = q.get("paginationOptions.pageToken") ?? "";
    const limit = Number(q.get("paginationOptions.pageSize"));
    const offset = token === "" ? 0 : Number(token);
    log.push({ offset, limit });
    const page = list.slice(offset, offset + limit);
    const next = offset + limit < list.length ? String(offset + limit) : "";
    return { body: { availablePackageSummaries: page, nextPageToken: next } };
  };
}

const byName = (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
const displayKey = (s) => (s.displayName || s.name).toLowerCase();

function catalog() {
  const helm = Array.from({ length: 120 }, (_, i) => summary("helm.packages", `chart-${String(i).padStart(3, "0")}`, { repo: "bitnami" }));
  // kapp_controller: display names that are not its names (read whole under displayName).
  const kapp = [
    summary("kapp_controller.packages", "cert-manager.community.tanzu.vmware.com", { displayName: "cert-manager" }),
    summary("kapp_controller.packages", "helm-controller.fluxcd.community.tanzu.vmware.com", { displayName: "Flux Helm Controller" }),
  ];
  return { helm, kapp };
}

async function scroll(helm, kapp, { pageSize = 10, chunkLimit = 20 } = {}) {
  const helmLog = [];
  const kappLog = [];
  plugins.helm = offsetPlugin([...helm].sort(byName), helmLog);
  plugins.kapp_controller = offsetPlugin(kapp, kappLog);
  const pager = new Pager({
    sources: [{ plugin: "helm.packages", namespace: "kubeapps" }, { plugin: "kapp_controller.packages", namespace: "kubeapps" }],
    pageSize,
    chunkLimit,
    sort: "displayName",
  });
  const fetchChunk = kubeappsFetcher({ baseUrl: base });
  const pages = [];
  try {
    for (let i = 0; i < 100; i++) {
      const page = await pager.nextPage(fetchChunk, { retry: false });
      pages.push({ page, helmRequests: helmLog.length });
      if (page.done) break;
    }
  } finally {
    pager.free();
  }
  return { pages, helmLog, kappLog };
}

test("displayName: a helm source whose display names are its names streams (page 1 after one chunk), every item once, in display-name order", async () => {
  const { helm, kapp } = catalog();
  const { pages, helmLog, kappLog } = await scroll(helm, kapp);
  const first = pages[0].page;
  assert.equal(pages[0].helmRequests, 1, "page 1: one chunk of helm");
  assert.ok(helmLog[0].limit <= 21, `helm asked ${helmLog[0].limit} items for page 1, not a whole read`);
  assert.deepEqual(first.stats.sources.map((s) => s.streamed), [true, false]);
  assert.equal(kappLog[0].limit, 10_001, "kapp_controller read whole (maxSourceItems + 1)");
  const shown = pages.flatMap(({ page }) => page.items);
  assert.equal(shown.length, 122);
  assert.equal(new Set(shown.map(identity)).size, 122, "nothing twice");
  const keys = shown.map(displayKey);
  assert.deepEqual(keys, [...keys].sort(), "display-name order");
  assert.ok(pages.every(({ page }) => !page.reordered && page.stats.sources[0].wholeReadSwitches === 0));
  // 120 charts by chunks of 20 (each continuation re-reads the item before it): no whole read.
  assert.ok(helmLog.every((r) => r.limit <= 22), JSON.stringify(helmLog));
  assert.ok(helmLog.length <= 8, `${helmLog.length} helm requests`);
});

test("displayName: a chart whose display name breaks the name order switches helm to a whole read; it comes late, once, flagged", async () => {
  const { helm, kapp } = catalog();
  // Last by name, first-ish by display name: the merge has gone past `b…` when its chunk comes.
  helm.push(summary("helm.packages", "zz-last", { repo: "bitnami", displayName: "Bravo" }));
  const { pages, helmLog } = await scroll(helm, kapp);
  const shown = pages.flatMap(({ page }) => page.items);
  assert.equal(shown.length, 123);
  assert.equal(new Set(shown.map(identity)).size, 123, "nothing twice");
  const switches = pages.reduce((n, { page }) => n + page.stats.sources[0].wholeReadSwitches, 0);
  const late = pages.reduce((n, { page }) => n + page.stats.sources[0].lateItems, 0);
  assert.equal(switches, 1);
  assert.equal(late, 1);
  const at = pages.findIndex(({ page }) => page.items.some((s) => s.name === "zz-last"));
  assert.ok(pages[at].page.reordered, "the page with the late item says reordered");
  assert.ok(pages[at].page.stats.sources[0].lateItems === 1);
  assert.ok(helmLog.some((r) => r.limit === 10_001), "read whole after the switch");
});
