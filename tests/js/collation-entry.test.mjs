// The collation entry, "kubeapps-pager/collation": the pager module with the collator (the same
// API plus the `collation` option), mapped by package.json as "." is; the plain entry refuses a
// collation and names the entry to import. Order, stats, tokens bound to the collation.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { pkg, codec, collation } from "./support/package.mjs";

const root = new URL("../../pkg/", import.meta.url);
const manifest = JSON.parse(readFileSync(new URL("package.json", root), "utf8"));

const HELM = { plugin: "helm.packages", cluster: "default", namespace: "kubeapps" };
const KAPP = { plugin: "kapp_controller.packages", cluster: "default", namespace: "kubeapps", kind: "kubernetes" };

const summary = (plugin, name) => ({
  availablePackageRef: { identifier: `repo/${name}`, context: { cluster: "default", namespace: "kubeapps" }, plugin: { name: plugin } },
  name,
  displayName: name,
});

/** A fetchChunk over two sources: helm by offset in `helmOrder`, kapp's list whole (byte order). */
function backend(helmOrder, kapp) {
  const requests = [];
  const fetchChunk = async (request) => {
    requests.push(request);
    if (request.source.plugin === "helm.packages") {
      const from = Number(request.pageToken || 0);
      const end = Math.min(helmOrder.length, from + request.limit);
      return {
        availablePackageSummaries: helmOrder.slice(from, end).map((n) => summary("helm.packages", n)),
        nextPageToken: end < helmOrder.length ? String(end) : "",
      };
    }
    return { kind: "PackageMetadataList", metadata: { resourceVersion: "5", continue: "" }, items: kapp.map((name) => ({ metadata: { name, namespace: "kubeapps" } })) };
  };
  return { fetchChunk, requests };
}

const nameOf = (it) => it.name ?? it.metadata.name;

async function all(pager, fetchChunk) {
  const names = [];
  const pages = [];
  for (;;) {
    const page = await pager.nextPage(fetchChunk);
    pages.push(page);
    names.push(...page.items.map(nameOf));
    if (page.done) return { names, pages };
  }
}

const HELM_NATURAL = ["apache", "kubeapps", "kube-prometheus", "kubernetes-event-exporter", "kube-state-metrics", "Zeta-Board"];
const KAPP_NAMES = ["Apache", "cert-manager", "école", "zeta"].sort();

test("the collation entry exports what the pager entry does; package.json maps it as it maps \".\"", async () => {
  assert.deepEqual(Object.keys(collation).sort(), Object.keys(pkg).sort());
  const esm = await import(new URL("collation/nodejs/index.mjs", root));
  assert.equal(esm.Pager, collation.Pager);
  const { exports } = manifest;
  assert.deepEqual(exports["./collation"], JSON.parse(JSON.stringify(exports["."]).replaceAll('"./', '"./collation/')));
  for (const target of ["web", "bundler", "nodejs"]) {
    assert.deepEqual(exports[`./collation/${target}`], JSON.parse(JSON.stringify(exports[`./${target}`]).replaceAll('"./', '"./collation/')));
  }
  assert.ok(manifest.files.includes("collation/"));
  const stub = JSON.parse(readFileSync(new URL("collation/package.json", root), "utf8"));
  assert.deepEqual(stub, { main: "./nodejs/index.js", module: "./web/index.js", types: "./web/index.d.ts" });
  for (const file of Object.values(stub)) assert.ok(existsSync(new URL(`collation/${file}`, root)), file);
  const web = await import(new URL("collation/web/index.js", root));
  assert.equal(web.init, web.default);
  // One brand: errors of every entry are instances of every entry's class.
  try {
    collation.Pager.resume("not a token!", { sources: [HELM] });
    assert.fail("resumed");
  } catch (e) {
    assert.ok(e instanceof pkg.PagerError && e instanceof codec.PagerError && e instanceof collation.PagerError);
  }
});

test("the plain pager entry refuses a collation: INVALID_OPTIONS naming the entry to import", () => {
  for (const make of [
    () => new pkg.Pager({ sources: [HELM], collation: { locale: "en" } }),
    () => new pkg.Pager({ sources: [HELM], collation: {} }),
    () => pkg.Pager.resume(new collation.Pager({ sources: [HELM], collation: {} }).pageToken(), { sources: [HELM], collation: {} }),
  ]) {
    assert.throws(make, (e) => {
      assert.ok(e instanceof pkg.PagerError);
      assert.equal(e.code, "INVALID_OPTIONS");
      assert.deepEqual(e.details, { field: "collation", entry: "kubeapps-pager/collation" });
      assert.match(e.message, /kubeapps-pager\/collation/);
      return true;
    });
  }
  // Without it, the plain entry is as it was; `collation: null` is "not given".
  new pkg.Pager({ sources: [HELM], collation: null }).free();
});

test("a collation option is read against its shape", () => {
  for (const [collationOption, field] of [
    [{ locale: "fr" }, "collation.locale"],
    [{ locale: "en", strength: 1 }, "collation.strength"],
    ["en", "collation"],
    [{ locale: null }, "collation.locale"],
  ]) {
    assert.throws(() => new collation.Pager({ sources: [HELM], collation: collationOption }), (e) => {
      assert.equal(e.code, "INVALID_OPTIONS");
      assert.equal(e.details.field, field, JSON.stringify(collationOption));
      return true;
    });
  }
});

test("collated pages come in the natural order; the stats say which source streamed", async () => {
  for (const locale of [undefined, "root", "en"]) {
    const { fetchChunk, requests } = backend(HELM_NATURAL, KAPP_NAMES);
    const options = { sources: [HELM, KAPP], pageSize: 3, chunkLimit: 2, collation: locale ? { locale } : {} };
    const pager = new collation.Pager(options);
    const { names, pages } = await all(pager, fetchChunk);
    assert.deepEqual(names, [
      "apache", "Apache", "cert-manager", "école", "kubeapps", "kube-prometheus",
      "kubernetes-event-exporter", "kube-state-metrics", "zeta", "Zeta-Board",
    ]);
    for (const page of pages) assert.deepEqual(page.stats.sources.map((s) => s.streamed), [true, false]);
    assert.equal(pager.stats.sources[0].streamed, true);
    assert.ok(!("streamed" in pager.stats), "totals have no streamed flag");
    // helm was paged by offsets in chunks (streamed), kapp read once whole.
    assert.ok(requests.filter((r) => r.source.plugin === "helm.packages").length > 1);
    pager.free();
  }
  // The plain order (bytes) over the same names: uppercase first, é last.
  const { fetchChunk } = backend([...HELM_NATURAL].sort(), KAPP_NAMES);
  const plain = new pkg.Pager({ sources: [HELM, KAPP], pageSize: 20 });
  const { names, pages } = await all(plain, fetchChunk);
  assert.deepEqual(names.slice(0, 3), ["Apache", "Zeta-Board", "apache"]);
  assert.deepEqual(pages[0].stats.sources.map((s) => s.streamed), [true, true]);
});

test("a page token is bound to its collation; it resumes under the same one, in either entry's codec view", async () => {
  const { fetchChunk } = backend(HELM_NATURAL, KAPP_NAMES);
  const options = { sources: [HELM, KAPP], pageSize: 3, chunkLimit: 2, collation: { locale: "en" } };
  const first = new collation.Pager(options);
  const page = await first.nextPage(fetchChunk);
  first.free();
  const token = page.nextPageToken;
  assert.equal(codec.inspectToken(token).kind, "page");
  for (const other of [{}, { locale: "root" }, undefined]) {
    const o = { ...options, collation: other };
    assert.throws(() => collation.Pager.resume(token, o), (e) => e.code === "FILTER_MISMATCH");
  }
  const resumed = collation.Pager.resume(token, options);
  const rest = await all(resumed, fetchChunk);
  assert.deepEqual([...page.items.map(nameOf), ...rest.names], [
    "apache", "Apache", "cert-manager", "école", "kubeapps", "kube-prometheus",
    "kubernetes-event-exporter", "kube-state-metrics", "zeta", "Zeta-Board",
  ]);
});

test("a source whose database orders otherwise is detected, not trusted: one whole read, every item once", async () => {
  // helm's database sorts by bytes (C collation): "Zeta-Board" comes first.
  const { fetchChunk } = backend([...HELM_NATURAL].sort(), KAPP_NAMES);
  const pager = new collation.Pager({ sources: [HELM, KAPP], pageSize: 3, chunkLimit: 2, collation: { locale: "en" } });
  const { names, pages } = await all(pager, fetchChunk);
  assert.deepEqual([...names].sort(), [...HELM_NATURAL, ...KAPP_NAMES].sort(), "every item once");
  assert.equal(pager.stats.sources[0].wholeReadSwitches, 1);
  assert.equal(pager.stats.sources[0].streamed, false, "read whole after the switch");
  assert.equal(pages.at(-1).stats.sources[0].streamed, false);
  pager.free();
  // Declared as read whole, the same source pages in the natural order from the start.
  const whole = new collation.Pager({ sources: [{ ...HELM, order: "none" }, KAPP], pageSize: 3, chunkLimit: 2, collation: { locale: "en" } });
  const read = await all(whole, fetchChunk);
  assert.deepEqual(read.names, [
    "apache", "Apache", "cert-manager", "école", "kubeapps", "kube-prometheus",
    "kubernetes-event-exporter", "kube-state-metrics", "zeta", "Zeta-Board",
  ]);
  assert.deepEqual(read.pages[0].stats.sources.map((s) => s.streamed), [false, false]);
  assert.equal(whole.stats.sources[0].wholeReadSwitches, 0);
});
