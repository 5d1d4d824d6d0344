// server/search.mjs: each plugin's own search, as kubeapps-apis runs it (read from
// vmware-tanzu/kubeapps: the helm plugin's SQL in postgresql_utils.go GenerateWhereClause,
// fluxv2's passesFilter, kapp_controller's FilterMetadatas), and through the REST endpoints.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { ilike, jsonbText, helmMatcher, fluxMatcher, kappMatcher, pluginMatcher } from "../../server/search.mjs";
import { serve, availablePath } from "./helpers.mjs";

const chart = {
  plugin: "helm.packages", repo: "bitnami", identifier: "bitnami/redis", name: "redis", displayName: "Redis®",
  shortDescription: "An in-memory data store", categories: ["Database"],
  keywords: ["key-value", "cache"], sources: ["https://github.com/bitnami/charts"],
  maintainers: [{ name: "VMware" }], latestVersion: { pkgVersion: "1.2.3", appVersion: "7.0" },
};

test("ILIKE '%query%': case-insensitive, % and _ are wildcards, \\ escapes, a trailing \\ is an SQL error", () => {
  assert.ok(ilike("MEMORY")("An in-memory data store"));
  assert.ok(ilike("in_memory")("in-memory"), "_ is any one character");
  assert.ok(ilike("in%store")("in-memory data store"), "% is any run");
  assert.ok(!ilike("in\\_memory")("in-memory"), "\\_ is a literal _");
  assert.ok(ilike("in\\_memory")("in_memory"));
  assert.ok(ilike("a.b")("a.b") && !ilike("a.b")("axb"), "regex characters are literal");
  assert.ok(ilike("ÉTÉ")("un été"), "Unicode case folding");
  assert.ok(!ilike("x")(undefined), "NULL never matches");
  assert.throws(() => ilike("abc\\"), /must not end with escape character/);
});

test("the JSON text of a JSONB array, as PostgreSQL's ->> gives it", () => {
  assert.equal(jsonbText(["a", "b \"c\""]), '["a", "b \\"c\\""]');
  assert.equal(jsonbText([]), "[]");
  assert.equal(jsonbText(undefined), undefined);
});

test("helm: name, description, repository, keywords and sources; maintainers never (NULL); categories and versions", () => {
  const m = (f) => helmMatcher(f)(chart);
  for (const q of ["REDIS", "data store", "bitnami", "key-value", "\"cache\"", "\", \"", "github.com/bitnami"]) assert.ok(m({ query: q }), q);
  assert.ok(!m({ query: "VMware" }), "info->'maintainers'->>'name' is NULL on an array");
  assert.ok(!m({ query: "Redis®" }), "displayName is no column of the search");
  assert.ok(!m({ query: "bitnami/redis" }), "nor the identifier");
  assert.ok(m({ categories: ["Web", "Database"] }) && !m({ categories: ["Web"] }));
  assert.ok(m({ repositories: ["bitnami"] }) && !m({ repositories: ["other"] }));
  assert.ok(m({ pkgVersion: "9.9.9" }), "a version alone is ignored (both or none)");
  assert.ok(m({ pkgVersion: "1.2.3", appVersion: "7.0" }) && !m({ pkgVersion: "1.2.3", appVersion: "6.0" }));
});

test("fluxv2: a case-sensitive substring, maintainers too; kapp: lowercase over the descriptions, every category", () => {
  const f = (q) => fluxMatcher({ query: q })(chart);
  assert.ok(f("VMware") && f("cache") && f("github.com") && f("in-memory"));
  assert.ok(!f("vmware") && !f("REDIS"), "Go's strings.Contains");
  const pkg = { plugin: "kapp_controller.packages", repo: "tce", identifier: "tce/cert-manager.community.tanzu.vmware.com", name: "cert-manager.community.tanzu.vmware.com", displayName: "cert-manager", shortDescription: "Certificates", longDescription: "Packaged for kapp-controller.", categories: ["Security", "Networking"] };
  const k = (filter) => kappMatcher(filter)(pkg);
  assert.ok(k({ query: "PACKAGED FOR" }) && k({ query: "cert-manager" }));
  assert.ok(!k({ query: "tanzu" }), "the name is no part of kapp's search");
  assert.ok(k({ categories: ["Security", "Networking"] }) && !k({ categories: ["Security", "Web"] }), "every category given");
  assert.equal(pluginMatcher("helm.packages", { query: "", categories: [] }), null, "nothing asked: no filter");
});

let srv;
before(async () => {
  srv = await serve();
});
after(() => srv.close());

test("the plugin endpoints search as their plugin does; a trailing \\ is answered 500 as the SQL error", async () => {
  const names = async (plugin, params) =>
    ((await srv.get(availablePath(plugin, { "context.namespace": "kubeapps", ...params }))).json.availablePackageSummaries ?? []).map((s) => s.name);
  const viaSources = await names("helm", { "filterOptions.query": "github.com/jetstack" });
  assert.ok(viaSources.length > 0);
  const t = (await srv.get(`/demo/truth?namespace=kubeapps&plugins=helm.packages&query=${encodeURIComponent("github.com/jetstack")}`)).json;
  assert.deepEqual(viaSources, t.items.map((i) => i.name));
  const bad = await srv.get(availablePath("helm", { "filterOptions.query": "abc\\" }));
  assert.equal(bad.status, 500);
  assert.match(bad.json.message, /escape character/);
});

test("POST /demo/down: every request fails for good until brought back; reset brings it back", async () => {
  const down = await srv.post("/demo/down", { plugin: "helm", down: true, kind: "NotFound" });
  assert.deepEqual(down.json, { plugin: "helm.packages", down: true, kind: "NotFound" });
  for (let i = 0; i < 2; i++) assert.equal((await srv.get(availablePath("helm", {}))).status, 404);
  assert.equal((await srv.get("/demo/config")).json.plugins.find((p) => p.name === "helm.packages").down, "NotFound");
  assert.equal((await srv.get(availablePath("core", {}))).status, 404, "today's core fails whole");
  assert.equal((await srv.post("/demo/down", { plugin: "helm", down: "yes" })).status, 400);
  assert.equal((await srv.post("/demo/down", { plugin: "helm", down: true, kind: "Unavailable" })).status, 400);
  await srv.post("/demo/down", { plugin: "helm", down: false });
  assert.equal((await srv.get(availablePath("helm", {}))).status, 200);
  await srv.post("/demo/down", { plugin: "fluxv2", down: true });
  assert.equal((await srv.get(availablePath("fluxv2", {}))).status, 501);
  await srv.post("/demo/reset");
  assert.equal((await srv.get(availablePath("fluxv2", {}))).status, 200);
});
