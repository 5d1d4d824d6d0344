// A kapp_controller repository that shrinks while a user scrolls, through the public path
// (`pager.nextPage` with the built-in fetchers) on the real services: the PackageMetadatas live in
// etcd, and the plugin pages them as Kubeapps' kapp_controller plugin does (offsets over the whole
// list in byte order, 400 InvalidArgument "Invalid pagination arguments" for an offset past the
// end: server/real/kapp.mjs). After some pages most PackageMetadatas are deleted from etcd, so the
// next offset lands past the new end; the scroll, and a resume from the page token taken before
// the deletes, must go on to the end with every package present throughout shown once, and no
// nextPage call may reject. Over REST (`kubeappsFetcher`, the REST gateway) and over Connect
// (`connectFetcher` with @connectrpc/connect clients of the same plugin service), under the plain
// entry (byte order) and "kubeapps-pager/collation" (byte order, and the root collation). The source is declared as the
// README shows it (plugin, cluster, namespace: the kind is the plugin's default).
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { createPromiseClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { KappControllerPackagesService } from "../proto/gen/kapp_controller_connect.js";
import { connectHandler } from "../../server/connect.mjs";
import { PACKAGE_METADATAS, listAll } from "../../server/real/kube-etcd.mjs";
import { useServices, identity, pkg, assertNoneTwiceNoneMissing } from "./support.mjs";

const require = createRequire(import.meta.url);
/** `require("kubeapps-pager/collation")`: the pager with the collator. */
const collated = require("../../pkg/collation/nodejs/index.js");

const NAMESPACE = "kubeapps";
const SOURCE = { plugin: "kapp_controller.packages", cluster: "default", namespace: NAMESPACE };
// The pager entry in byte order; the collation entry (another wasm module) in byte order too, and
// in the root collation: there the plugin's byte order is not the merge order, so the source is
// found out of order and read whole (`wholeReadSwitches`), and the shrink meets a whole read.
const ENTRIES = {
  "plain entry": { module: pkg, options: {} },
  "collation entry, byte order": { module: collated, options: {} },
  "collation entry, root collation": { module: collated, options: { collation: { locale: "root" } } },
};
/** Pages shown before the repository shrinks. */
const PAGES_BEFORE = 8;
const PAGE_SIZE = 10;

const svc = useServices();
let s;
let connect;
after(() => connect?.close());

/** Every PackageMetadata name of the namespace, as etcd holds them now (byte order). */
async function names() {
  return (await listAll(s.app.etcd, PACKAGE_METADATAS, NAMESPACE)).items.map((pm) => pm.metadata.name);
}

/** The fetchChunk of a transport, over the real server `s`. */
function fetcher(entry, transport) {
  if (transport === "rest") return entry.module.kubeappsFetcher({ baseUrl: `${s.base}/apis` });
  const client = createPromiseClient(KappControllerPackagesService, createConnectTransport({ baseUrl: `${connect.base}/apis`, httpVersion: "1.1" }));
  return entry.module.connectFetcher({ clients: { "kapp_controller.packages": client } });
}

/** `nextPage` until done; a rejected call fails the test (no call may reject). */
async function scrollToEnd(pager, fetchChunk, shown, maxPages = 500) {
  for (let n = 0; n < maxPages; n++) {
    const page = await pager.nextPage(fetchChunk);
    for (const item of page.items) shown.push(identity(item));
    if (page.done) {
      assert.deepEqual(page.unreachable, [], "no source set aside");
      return;
    }
  }
  assert.fail(`no end after ${maxPages} pages`);
}

/**
 * Deletes most PackageMetadatas, so that the list is shorter than the position the scroll has
 * reached: every name but the last `keepLast` and one in seven of the rest. Returns the
 * identities present throughout (the ones kept).
 */
async function shrink(byName, keepLast) {
  const all = await names();
  const doomed = all.filter((_, i) => i < all.length - keepLast && i % 7 !== 3);
  for (const name of doomed) await s.app.kapp.delete(NAMESPACE, name);
  const left = await names();
  assert.equal(left.length, all.length - doomed.length);
  return left.map((name) => byName.get(name));
}

test("the real server pages kapp_controller as its plugin does, over REST and over Connect", { timeout: 120_000 }, async () => {
  s = await svc.server({});
  await s.post("/demo/behaviour", { plugin: "kapp_controller", behaviour: "kubeapps-offset" });
  const server = createServer(connectHandler({ "kapp_controller.packages": s.app.kapp }));
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  connect = { base: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
  const n = (await names()).length;
  assert.ok(n > PAGES_BEFORE * PAGE_SIZE + 40, `enough packages to shrink under the position (${n})`);
});

for (const [entryName, entry] of Object.entries(ENTRIES)) {
  for (const transport of ["rest", "connect"]) {
    for (const how of ["scroll", "resume"]) {
      test(`${how}: a kapp_controller repository shrinking past the position, through nextPage (${transport}, ${entryName})`, { timeout: 120_000 }, async () => {
        await s.app.reset();
        // The identity of each package, from the plugin itself (one answer, no paging).
        const whole = await s.app.kapp.getAvailablePackageSummaries({ context: { namespace: NAMESPACE } });
        const byName = new Map(whole.availablePackageSummaries.map((x) => [x.name, identity(x)]));
        const options = { sources: [SOURCE], pageSize: PAGE_SIZE, chunkLimit: PAGE_SIZE, ...entry.options };
        const fetchChunk = fetcher(entry, transport);
        const shown = [];
        let pager = new entry.module.Pager(options);
        try {
          let token;
          for (let k = 0; k < PAGES_BEFORE; k++) {
            const page = await pager.nextPage(fetchChunk);
            for (const item of page.items) shown.push(identity(item));
            token = page.nextPageToken;
            assert.ok(!page.done);
          }
          // Fewer packages left than the scroll has read: its next offset is past the end.
          const keep = await shrink(byName, 20);
          assert.ok(keep.length < PAGES_BEFORE * PAGE_SIZE, `the list (${keep.length}) is shorter than the position`);
          if (how === "resume") {
            // A reload: a new pager from the last page's token.
            pager.free();
            pager = entry.module.Pager.resume(token, options);
          }
          await scrollToEnd(pager, fetchChunk, shown);
          assertNoneTwiceNoneMissing(shown, keep, `${how} (${transport}, ${entryName})`);
        } finally {
          pager.free();
        }
      });
    }
  }
}
