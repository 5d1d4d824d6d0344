// The catalog's natural order: the sort control's "Name, natural order" loads the collation entry
// ("kubeapps-pager/collation", /pkg/collation/web/) only when chosen, and the list it shows in
// Chromium is the order the same entry's Node build gives the backend's items (one collation,
// every engine alike), each item once. On the real data (../shared/data) when present, else the
// generated catalog.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { launch, serve } from "./support/browser.mjs";
import { truth, openCatalog, scrollToEnd, identities, waitReady } from "./support/catalog.mjs";

const require = createRequire(import.meta.url);
const collation = require("../../pkg/collation/nodejs/index.js");
const DATA = fileURLToPath(new URL("../../../shared/data", import.meta.url));

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** The truth's items in the collation's order, by the Node build: each source read whole. */
function naturalOrder(items) {
  const bySource = new Map();
  for (const it of items) {
    const key = `${it.plugin}/${it.cluster}/${it.namespace}`;
    if (!bySource.has(key)) bySource.set(key, { plugin: it.plugin, cluster: it.cluster, namespace: it.namespace, items: [] });
    bySource.get(key).items.push(it);
  }
  const sources = [...bySource.values()];
  const pager = new collation.Pager({
    sources: sources.map(({ plugin, cluster, namespace }) => ({ plugin, cluster, namespace, kind: "unordered" })),
    pageSize: 10000,
    collation: { locale: "en" },
  });
  try {
    while (!pager.pageReady()) {
      for (const r of pager.nextRequests()) {
        const summaries = sources[r.sourceIndex].items.map((it) => ({
          availablePackageRef: { identifier: it.identifier, context: { cluster: it.cluster, namespace: it.namespace }, plugin: { name: it.plugin } },
          name: it.name,
          displayName: it.displayName,
          identity: it.identity,
        }));
        pager.feed(r.requestId, { availablePackageSummaries: summaries, nextPageToken: "" });
      }
    }
    return pager.takePage().items.map((s) => s.identity);
  } finally {
    pager.free();
  }
}

test("the natural order loads the collation entry when chosen and shows the collation's order, once each", async () => {
  const server = await serve(existsSync(DATA) ? { dataDir: DATA } : {});
  try {
    const requested = [];
    const { page, errors } = await openCatalog(browser, server, "?size=100&chunk=100", {
      before: async (p) => {
        p.on("request", (r) => requested.push(new URL(r.url()).pathname));
        // The real data's icons are links to the projects' sites: no network in tests.
        await p.route((url) => !url.href.startsWith(server.url), (route) => route.abort());
      },
    });
    assert.ok(!requested.some((path) => path.startsWith("/pkg/collation/")), "not loaded before it is asked for");
    await page.selectOption('[data-testid="sort"]', "natural");
    await page.waitForFunction(() => new URL(location.href).searchParams.get("sort") === "natural");
    const end = await scrollToEnd(page);
    assert.equal(end.state, "done");
    assert.ok(requested.includes("/pkg/collation/web/kubeapps_pager_collation_bg.wasm"), "the collation entry's wasm");
    const expected = naturalOrder((await truth(server, { sort: "name" })).items);
    assert.deepEqual(await identities(page), expected);
    // Under the byte order the same list starts elsewhere (uppercase and punctuation first).
    const byName = (await truth(server, { sort: "name" })).identities;
    assert.notDeepEqual(byName, expected);
    // The stats table says how each source was read: the demo's sources are read whole here.
    const streamed = await page.$$eval('[data-testid="stats-table"] tbody th', (th) => th.map((t) => t.dataset.streamed));
    assert.ok(streamed.length > 0 && streamed.every((s) => s === "0"), JSON.stringify(streamed));
    // A reload of the URL (sort=natural, the token) resumes under the same collation.
    await page.reload();
    await waitReady(page);
    assert.equal(await page.$eval('[data-testid="sort"]', (s) => s.value), "natural");
    assert.ok(await page.$eval("#notice", (n) => n.hidden), "no notice: the token fits the natural order");
    assert.deepEqual(errors.filter((e) => !/Failed to load resource/.test(e)), []);
    await page.close();
  } finally {
    await server.close();
  }
});
