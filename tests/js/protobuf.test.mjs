// The Pager fed @bufbuild/protobuf v1 messages, as the Kubeapps dashboard's protobuf-es client
// gets them: GetAvailablePackageSummariesResponse objects built with `new`, and ones decoded from
// binary with `fromBinary`. The classes are generated at test time from tests/proto/kubeapps.proto
// with buf (the npm package ships its binary) and protoc-gen-es@1 (target js) into a temp folder.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { pkg } from "./support/package.mjs";
import { drivePage, identity } from "./support/backend.mjs";

const { Pager } = pkg;
const ROOT = new URL("../..", import.meta.url).pathname;
let tmp, pb;

before(() => {
  tmp = mkdtempSync(join(tmpdir(), "kubeapps-pager-proto-"));
  // The generated module is ESM and imports "@bufbuild/protobuf": give it the repo's node_modules.
  writeFileSync(join(tmp, "package.json"), '{ "type": "module" }\n');
  symlinkSync(join(ROOT, "node_modules"), join(tmp, "node_modules"), "dir");
  const template = {
    version: "v2",
    plugins: [{ local: join(ROOT, "node_modules", ".bin", "protoc-gen-es"), out: join(tmp, "gen"), opt: ["target=js"] }],
  };
  execFileSync(join(ROOT, "node_modules", ".bin", "buf"), ["generate", join(ROOT, "tests", "proto"), "--template", JSON.stringify(template)], {
    cwd: ROOT,
    env: { ...process.env, BUF_CACHE_DIR: join(tmp, "buf-cache") },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return import(pathToFileURL(join(tmp, "gen", "kubeapps_pb.js")).href).then((m) => (pb = m));
});

after(() => tmp && rmSync(tmp, { recursive: true, force: true }));

const CLUSTER = "default";
const NAMESPACE = "kubeapps";

/**
 * Two catalogs of AvailablePackageSummary messages, each sorted by name as its plugin streams it.
 * Several fields are left at their proto3 default: displayName "", shortDescription "",
 * categories [], latestVersion unset.
 */
function catalogs() {
  const { AvailablePackageSummary, AvailablePackageReference, Context, Plugin, PackageAppVersion } = pb;
  const make = (plugin, repo, name, fields = {}) =>
    new AvailablePackageSummary({
      availablePackageRef: new AvailablePackageReference({
        context: new Context({ cluster: CLUSTER, namespace: NAMESPACE }),
        identifier: `${repo}/${name}`,
        plugin: new Plugin({ name: plugin, version: "v1alpha1" }),
      }),
      name,
      ...fields,
    });
  const v = (pkgVersion) => new PackageAppVersion({ pkgVersion, appVersion: "1.0.0" });
  const helm = [
    make("helm.packages", "bitnami", "apache", { displayName: "Apache", shortDescription: "HTTP server", categories: ["Infrastructure"], latestVersion: v("9.0.0") }),
    make("helm.packages", "bitnami", "cassandra", { categories: ["Database"] }),
    make("helm.packages", "bitnami", "grafana", { displayName: "Grafana", latestVersion: v("8.0.0") }),
    make("helm.packages", "bitnami", "mariadb", { shortDescription: "MariaDB server", categories: ["Database"] }),
    make("helm.packages", "bitnami", "mysql", { categories: ["Database"], latestVersion: v("9.4.0") }),
    make("helm.packages", "bitnami", "nginx", { displayName: "NGINX" }),
    make("helm.packages", "bitnami", "phpmyadmin", { shortDescription: "Web UI for MySQL", categories: ["Infrastructure"] }),
    make("helm.packages", "bitnami", "postgresql", { categories: ["Database"] }),
    make("helm.packages", "bitnami", "redis"),
  ];
  const flux = [
    make("fluxv2.packages", "podinfo", "grafana"),
    make("fluxv2.packages", "podinfo", "mysql-operator", { categories: ["Database", "Operator"] }),
    make("fluxv2.packages", "podinfo", "podinfo", { shortDescription: "Go microservice template" }),
    make("fluxv2.packages", "podinfo", "redis", { categories: ["Database"] }),
  ];
  return [helm, flux];
}

// The test backends here do not filter: the pager does (`filter: "pager"`; a Kubeapps plugin
// would filter itself by default).
const OPTIONS = {
  sources: [
    { plugin: "helm.packages", cluster: CLUSTER, namespace: NAMESPACE, kind: "kubeapps", filter: "pager" },
    { plugin: "fluxv2.packages", cluster: CLUSTER, namespace: NAMESPACE, kind: "kubeapps", filter: "pager" },
  ],
  pageSize: 3,
  chunkLimit: 2,
};

/** A plugin paging by decimal offsets that answers with GetAvailablePackageSummariesResponse messages. */
function messageSource(list) {
  return {
    answer(request) {
      const offset = request.pageToken === "" ? 0 : Number(request.pageToken);
      const end = offset + request.limit;
      const fields = { availablePackageSummaries: list.slice(offset, end), categories: ["Database", "Infrastructure"] };
      // The last chunk leaves nextPageToken at its default, "".
      if (end < list.length) fields.nextPageToken = String(end);
      return new pb.GetAvailablePackageSummariesResponse(fields);
    },
  };
}

/** The docs' merge order for sort "name" (name bytes, plugin, cluster, namespace, identifier), with the filter applied. */
function expected(lists, { query = "", categories = [] } = {}) {
  const q = query.toLowerCase();
  const keep = (s) =>
    (categories.length === 0 || s.categories.some((c) => categories.includes(c))) &&
    (q === "" || [s.name, s.displayName, s.shortDescription, s.availablePackageRef.identifier].some((f) => f.toLowerCase().includes(q)));
  const key = (s) => [s.name, s.availablePackageRef.plugin.name, CLUSTER, NAMESPACE, s.availablePackageRef.identifier];
  const cmp = (a, b) => {
    const ka = key(a), kb = key(b);
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return Buffer.compare(Buffer.from(ka[i]), Buffer.from(kb[i]));
    return 0;
  };
  return lists.flat().filter(keep).sort(cmp);
}

function pageAll(pager, sources) {
  const pages = [];
  for (let i = 0; i < 100; i++) {
    const page = drivePage(pager, sources);
    pages.push(page);
    if (page.done) return pages;
  }
  throw new Error("never done");
}

test("a custom predicate is given the very messages fed (AvailablePackageSummary instances) and decides for the sources the pager filters", () => {
  const lists = catalogs();
  const fed = new Set(lists.flat());
  const seen = [];
  const matches = (item, source) => {
    seen.push(item);
    assert.ok(item instanceof pb.AvailablePackageSummary, "the generated class itself");
    assert.equal(source.plugin, item.availablePackageRef.plugin.name);
    return item.categories.includes("Database") && item.latestVersion === undefined;
  };
  const pager = new Pager({ ...OPTIONS, predicate: { id: "databases-without-version", matches } });
  const items = pageAll(pager, lists.map(messageSource)).flatMap((p) => p.items);
  const want = expected(lists, { categories: ["Database"] }).filter((s) => s.latestVersion === undefined);
  assert.deepEqual(items.map(identity), want.map(identity));
  assert.ok(want.length >= 3 && want.length < lists.flat().length);
  for (const item of [...items, ...seen]) assert.ok(fed.has(item), `${identity(item)} is the message object fed (===)`);
  assert.deepEqual(new Set(seen), fed, "every item judged");
  pager.free();
});

test("GetAvailablePackageSummariesResponse messages fed as they are: pages in order, items are the very messages", () => {
  const lists = catalogs();
  const fed = new Set(lists.flat());
  const pager = new Pager(OPTIONS);
  const pages = pageAll(pager, lists.map(messageSource));
  const items = pages.flatMap((p) => p.items);
  assert.deepEqual(items.map(identity), expected(lists).map(identity));
  for (const item of items) {
    assert.ok(fed.has(item), `${identity(item)} is the message object fed (===)`);
    assert.ok(item instanceof pb.AvailablePackageSummary);
  }
  assert.ok(pages.slice(0, -1).every((p) => p.items.length === OPTIONS.pageSize));
  // Resuming from a page's token gives the same next page.
  const resumed = drivePage(Pager.resume(pages[1].nextPageToken, OPTIONS), lists.map(messageSource));
  assert.deepEqual(resumed.items.map(identity), pages[2].items.map(identity));
  pager.free();
});

test("messages decoded from binary with fromBinary page the same, and the items are the decoded objects", async () => {
  const lists = catalogs();
  const sources = lists.map(messageSource);
  const decoded = new Set();
  const fetchChunk = async (request) => {
    const bytes = sources[request.sourceIndex].answer(request).toBinary();
    const response = pb.GetAvailablePackageSummariesResponse.fromBinary(bytes);
    for (const s of response.availablePackageSummaries) decoded.add(s);
    return response;
  };
  const pager = new Pager(OPTIONS);
  const items = [];
  for (let i = 0; i < 100; i++) {
    const page = await pager.nextPage(fetchChunk, {});
    items.push(...page.items);
    if (page.done) break;
  }
  assert.deepEqual(items.map(identity), expected(lists).map(identity));
  const originals = new Set(lists.flat());
  for (const item of items) {
    assert.ok(decoded.has(item), `${identity(item)} is a decoded message object (===)`);
    assert.ok(!originals.has(item));
  }
  // Fields left at their default come back as defaults, and the pager read them as such.
  const cassandra = items.find((s) => s.name === "cassandra");
  assert.deepEqual([cassandra.displayName, cassandra.shortDescription, cassandra.latestVersion], ["", "", undefined]);
  pager.free();
});

test("proto3 defaults (\"\", []) read as absent: filters see them as empty, and JSON without them pages the same", () => {
  const filters = [{ categories: ["Database"] }, { query: "sql" }, { query: "server" }, { query: "sql", categories: ["Infrastructure"] }];
  for (const filter of filters) {
    for (const sort of ["name", "displayName"]) {
      const lists = catalogs();
      const options = { ...OPTIONS, filter, sort };
      const messagePages = pageAll(new Pager(options), lists.map(messageSource));
      const items = messagePages.flatMap((p) => p.items);
      if (sort === "name") {
        // Against the oracle: categories [] never match a category, "" never matches a query.
        assert.deepEqual(items.map(identity), expected(lists, filter).map(identity), JSON.stringify(filter));
        const filteredOut = messagePages.reduce((n, p) => n + p.stats.filteredOut, 0);
        assert.equal(filteredOut, lists.flat().length - items.length);
      }
      // The same responses as proto3 JSON (`toJson()` omits every default-valued field).
      const jsonSources = lists.map(messageSource).map((s) => ({ answer: (r) => s.answer(r).toJson() }));
      const json = pageAll(new Pager(options), jsonSources).flatMap((p) => p.items);
      assert.ok(json.every((s) => !("shortDescription" in s && s.shortDescription === "")), "toJson omitted defaults");
      assert.deepEqual(items.map(identity), json.map(identity), `${sort} ${JSON.stringify(filter)}`);
    }
  }
});

test("an empty response message (every field default) is an end of list", () => {
  const pager = new Pager({ ...OPTIONS, sources: [OPTIONS.sources[0]] });
  const page = drivePage(pager, [{ answer: () => new pb.GetAvailablePackageSummariesResponse() }]);
  assert.deepEqual([page.items.length, page.done], [0, true]);
  pager.free();
});
