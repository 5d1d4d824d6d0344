import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import http from "node:http";
import { generateCatalog, HOSTILE_NAME } from "../../server/catalog/generate.mjs";
import { loadCatalog } from "../../server/catalog/load.mjs";
import { parseHelmIndex, repoNameFromUrl } from "../../server/catalog/helm.mjs";
import { parseSemver, compareSemver, highest } from "../../server/catalog/semver.mjs";

// Beside the repository, as the README and CI have it (not a fixed path: a clone may be anywhere).
const SHARED = path.resolve(new URL("../../../shared/data", import.meta.url).pathname);
const count = (recs, f) => recs.filter(f).length;

test("the generated catalog is deterministic in its seed and large", () => {
  const a = generateCatalog({ seed: 11 }).records;
  const b = generateCatalog({ seed: 11 }).records;
  const c = generateCatalog({ seed: 12 }).records;
  assert.deepEqual(a, b);
  assert.notDeepEqual(a.map((r) => r.latestVersion), c.map((r) => r.latestVersion));
  assert.ok(a.length >= 1000, `${a.length} packages`);
  for (const p of ["helm.packages", "fluxv2.packages", "kapp_controller.packages"]) {
    assert.ok(count(a, (r) => r.plugin === p) >= 150, p);
  }
});

test("generated: unique per plugin and namespace, recurring across them, with ties and Unicode", () => {
  const recs = generateCatalog({ seed: 1 }).records;
  const keys = new Set(recs.map((r) => `${r.plugin}|${r.namespace}|${r.name}`));
  const ids = new Set(recs.map((r) => `${r.plugin}|${r.namespace}|${r.identifier}`));
  assert.equal(keys.size, recs.length, "object names unique in a plugin's namespace");
  assert.equal(ids.size, recs.length, "identifiers unique in a plugin's namespace");
  const byId = new Map();
  for (const r of recs) byId.set(r.identifier, [...(byId.get(r.identifier) ?? []), r]);
  const multi = [...byId.values()].filter((l) => l.length > 1);
  assert.ok(multi.some((l) => new Set(l.map((r) => r.plugin)).size > 1), "same identifier in two plugins");
  assert.ok(multi.some((l) => l.some((r) => r.plugin === "helm.packages" && r.namespace === "team-a")), "same identifier in two namespaces");
  const byName = new Map();
  for (const r of recs) byName.set(r.name, (byName.get(r.name) ?? 0) + 1);
  const ties = [...byName.values()].filter((n) => n > 1).length;
  assert.ok(ties >= 3, `${ties} names tie`);
  assert.ok(recs.some((r) => /[^\x00-\x7f]/.test(r.name)), "non-ASCII names");
  assert.ok(recs.some((r) => /[\u{10000}-\u{10ffff}]/u.test(r.name)), "astral names");
  assert.ok(recs.some((r) => r.plugin === "kapp_controller.packages" && r.displayName !== r.name && r.iconUrl?.startsWith("data:image/svg+xml;base64,")));
  assert.ok(!recs.some((r) => r.name === HOSTILE_NAME));
  const hostile = generateCatalog({ seed: 1, hostile: true }).records.filter((r) => r.name === HOSTILE_NAME);
  assert.equal(hostile.length, 1);
});

test("semver: Masterminds-style precedence", () => {
  const sorted = ["1.10.0", "1.2.0", "v1.10.0-rc.1", "1.10.0-rc.10", "1.10.0-rc.2", "1.10.0-alpha", "2", "1.10.0+build.5"]
    .sort((a, b) => compareSemver(parseSemver(a), parseSemver(b)));
  assert.deepEqual(sorted, ["1.2.0", "1.10.0-alpha", "v1.10.0-rc.1", "1.10.0-rc.2", "1.10.0-rc.10", "1.10.0", "1.10.0+build.5", "2"]);
  assert.equal(parseSemver("latest"), null);
  assert.equal(highest(["nope", "0.9.1", "0.10.0-rc.1"]), "0.10.0-rc.1");
});

async function fixtureDir() {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "kp-data-"));
  const w = async (p, text) => {
    await fs.mkdir(path.dirname(path.join(dir, p)), { recursive: true });
    await fs.writeFile(path.join(dir, p), text);
  };
  await w("alpha/index.yaml", `apiVersion: v1
entries:
  common:
  - name: common
    version: "1.10"
    appVersion: 1.10.0
    description: Shared helpers
    annotations:
      category: Infrastructure
  - name: common
    version: 1.9.0
  web:
  - name: web
    version: 2.0.0
    icon: https://example.invalid/web.png
    description: A web server
  - name: web
    version: 2.1.0
  empty: []
generated: "2023-01-01T00:00:00Z"
`);
  await w("beta/index.yaml", "apiVersion: v1\nentries:\n  common:\n  - name: common\n    version: 0.1.0\n");
  await w("carvel/pkgs/foo/metadata.yaml", `apiVersion: data.packaging.carvel.dev/v1alpha1
kind: PackageMetadata
metadata:
  name: foo.example.org
spec:
  displayName: Foo
  shortDescription: The foo package
  providerName: Example
  categories: [network, "dns"]
  iconSVGBase64: PHN2Zy8+
`);
  await w("carvel/pkgs/foo/1.2.0/package.yaml", "apiVersion: data.packaging.carvel.dev/v1alpha1\nkind: Package\nmetadata:\n  name: foo.example.org.1.2.0\nspec:\n  refName: foo.example.org\n  version: 1.2.0\n");
  await w("carvel/pkgs/foo/1.10.0/package.yaml", "apiVersion: data.packaging.carvel.dev/v1alpha1\nkind: Package\nmetadata:\n  name: foo.example.org.1.10.0\nspec:\n  refName: foo.example.org\n  version: 1.10.0\n---\napiVersion: data.packaging.carvel.dev/v1alpha1\nkind: Package\nmetadata:\n  name: foo.example.org.1.11.0-rc.1\nspec:\n  refName: foo.example.org\n  version: 1.11.0-rc.1\n");
  await w("carvel/pkgs/orphan/metadata.yaml", "apiVersion: data.packaging.carvel.dev/v1alpha1\nkind: PackageMetadata\nmetadata:\n  name: orphan.example.org\nspec:\n  displayName: Orphan\n");
  return dir;
}

test("Helm and Carvel files map the way Kubeapps maps them", async () => {
  const dir = await fixtureDir();
  try {
    const { records, info } = await loadCatalog({ dataDir: dir });
    const find = (plugin, id) => records.find((r) => r.plugin === plugin && r.identifier === id);
    assert.deepEqual(find("helm.packages", "alpha/common"), {
      plugin: "helm.packages", cluster: "default", namespace: "kubeapps", repo: "alpha", name: "common",
      identifier: "alpha/common", displayName: "common", shortDescription: "Shared helpers",
      categories: ["Infrastructure"], latestVersion: { pkgVersion: "1.10", appVersion: "1.10.0" },
    });
    assert.deepEqual(find("helm.packages", "alpha/web").categories, [""], "Kubeapps keeps [category] even when empty");
    assert.equal(find("helm.packages", "alpha/web").iconUrl, "https://example.invalid/web.png");
    assert.equal(find("helm.packages", "alpha/empty"), undefined, "a chart without versions is skipped");
    assert.equal(find("helm.packages", "beta/common").namespace, "beta", "a clashing repo becomes namespaced");
    assert.equal(count(records, (r) => r.plugin === "fluxv2.packages"), 2, "flux serves the first repository");
    assert.deepEqual(find("kapp_controller.packages", "carvel/foo.example.org"), {
      plugin: "kapp_controller.packages", cluster: "default", namespace: "kubeapps", repo: "carvel",
      name: "foo.example.org", identifier: "carvel/foo.example.org", displayName: "Foo",
      shortDescription: "The foo package", longDescription: "", providerName: "Example",
      categories: ["network", "dns"], latestVersion: { pkgVersion: "1.11.0-rc.1", appVersion: "1.11.0-rc.1" },
      iconSVGBase64: "PHN2Zy8+", iconUrl: "data:image/svg+xml;base64,PHN2Zy8+",
    });
    assert.equal(find("kapp_controller.packages", "carvel/orphan.example.org").latestVersion, undefined);
    assert.deepEqual(info.carvelWithoutPackage, ["orphan.example.org"]);
    assert.deepEqual(info.helm, { alpha: 2, beta: 1 });
    assert.deepEqual(info.helmNotNewestFirst, ["alpha/web"]);
    assert.equal(find("helm.packages", "alpha/web").latestVersion.pkgVersion, "2.0.0", "entry[0], as Kubeapps does");
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});

test("--helm-index: a live index is fetched and named after its URL; failures say why", async () => {
  const text = "apiVersion: v1\nentries:\n  nginx:\n  - name: nginx\n    version: 15.0.0\n";
  const server = http.createServer((req, res) => {
    if (req.url === "/stable/index.yaml") res.end(text);
    else res.writeHead(404).end();
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${server.address().port}`;
  try {
    const { records } = await loadCatalog({ helmIndexUrls: [`${base}/stable/index.yaml`] });
    assert.deepEqual(records.map((r) => `${r.plugin} ${r.identifier}`), ["helm.packages stable/nginx", "fluxv2.packages stable/nginx"]);
    const named = await loadCatalog({ helmIndexUrls: [`mine=${base}/stable/index.yaml`] });
    assert.equal(named.records[0].identifier, "mine/nginx");
    await assert.rejects(loadCatalog({ helmIndexUrls: [`${base}/missing/index.yaml`] }), /HTTP 404/);
  } finally {
    await new Promise((r) => server.close(r));
  }
  const closed = http.createServer();
  await new Promise((r) => closed.listen(0, "127.0.0.1", r));
  const deadPort = closed.address().port;
  await new Promise((r) => closed.close(r));
  await assert.rejects(loadCatalog({ helmIndexUrls: [`http://127.0.0.1:${deadPort}/index.yaml`] }), /cannot fetch \(ECONNREFUSED\)/);
  assert.throws(() => parseHelmIndex("entries: [1", "x.yaml"), /x.yaml: not YAML/);
  assert.throws(() => parseHelmIndex("apiVersion: v1\n", "x.yaml"), /not a Helm repository index/);
  assert.equal(repoNameFromUrl("https://charts.bitnami.com/bitnami/index.yaml"), "bitnami");
  assert.equal(repoNameFromUrl("https://Example.org/"), "example-org");
});

test("../shared/data: 312 Helm charts, 39 Carvel packages, index entries newest first", { skip: !(await fs.stat(SHARED).catch(() => null)) && "no shared data on this machine" }, async () => {
  const { records, info } = await loadCatalog({ dataDir: SHARED });
  assert.equal(count(records, (r) => r.plugin === "helm.packages"), 312);
  assert.deepEqual(info.helm, { bitnami: 106, "k8s-at-home": 206 });
  assert.equal(count(records, (r) => r.plugin === "kapp_controller.packages"), 39);
  assert.equal(count(records, (r) => r.plugin === "fluxv2.packages"), 106);
  assert.equal(new Set(records.filter((r) => r.plugin === "helm.packages").map((r) => r.name)).size, 308, "four names in both repos");
  assert.deepEqual(info.carvelWithoutPackage, ["kube-vip-cloud-provider.community.tanzu.vmware.com"]);
  // Kubeapps takes entry[0] as the latest: Helm wrote every chart newest first.
  assert.deepEqual(info.helmNotNewestFirst, []);
});
