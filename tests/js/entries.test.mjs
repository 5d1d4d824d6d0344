// The package's two entries: "kubeapps-pager" (the pager module) and "kubeapps-pager/codec" (the
// token functions, a wasm module of its own). Each exports exactly its own functions; package.json
// maps both the same way; a PagerError of either module is `instanceof` the PagerError of both.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { pkg, codec } from "./support/package.mjs";

const root = new URL("../../pkg/", import.meta.url);
const require = createRequire(import.meta.url);
const manifest = JSON.parse(readFileSync(new URL("package.json", root), "utf8"));

const PAGER_EXPORTS = [
  "PageWindow", "Pager", "PagerError", "connectFetcher", "default", "init", "kubeappsFetcher",
  "kubeappsFilterOptions", "kubernetesFetcher", "kubernetesListFetcher", "readPageToken", "wasmMemoryBytes", "writePageToken",
];
const CODEC_EXPORTS = [
  "PagerError", "decodeContinueToken", "decodeKubeappsToken", "decodePageToken", "default",
  "encodeContinueToken", "encodePageToken", "init", "inspectToken",
];

test("each entry exports exactly its own functions (CommonJS and ESM faces)", async () => {
  assert.deepEqual(Object.keys(pkg).sort(), PAGER_EXPORTS);
  assert.deepEqual(Object.keys(codec).sort(), CODEC_EXPORTS);
  const pagerEsm = await import(new URL("nodejs/index.mjs", root));
  const codecEsm = await import(new URL("codec/nodejs/index.mjs", root));
  assert.deepEqual(Object.keys(pagerEsm).sort(), PAGER_EXPORTS);
  assert.deepEqual(Object.keys(codecEsm).sort(), CODEC_EXPORTS);
  assert.equal(pagerEsm.Pager, pkg.Pager, "the ESM face is the same module instance");
  assert.equal(codecEsm.inspectToken, codec.inspectToken);
  // Babel's and TypeScript's interop take `exports.default` as the default import when the
  // CommonJS face says `__esModule` (CRA 5's Jest: tests/consumers/jest27); Node's loader ignores it.
  for (const cjs of [pkg, codec]) {
    assert.equal(cjs.__esModule, true);
    assert.equal(cjs.default, cjs.init);
    assert.equal(typeof cjs.default, "function");
  }
  assert.equal(pagerEsm.default, pkg.init);
});

/** Every conditions object under `value` (itself included), with its path. */
function conditionObjects(value, at = []) {
  if (typeof value !== "object" || value === null) return [];
  return [[at.join("."), value], ...Object.entries(value).flatMap(([k, v]) => conditionObjects(v, [...at, k]))];
}

test('package.json maps "./codec" as it maps "."; each condition carries its own types, first', () => {
  const { exports } = manifest;
  const prefixed = JSON.parse(JSON.stringify(exports["."]).replaceAll('"./', '"./codec/'));
  assert.deepEqual(exports["./codec"], prefixed);
  for (const target of ["web", "bundler", "nodejs"]) {
    assert.deepEqual(exports[`./codec/${target}`], JSON.parse(JSON.stringify(exports[`./${target}`]).replaceAll('"./', '"./codec/')));
  }
  for (const [key, entry] of Object.entries(exports).filter(([k]) => k !== "./package.json")) {
    // A `types` beside `node` would win over it in TypeScript's nodenext resolution.
    assert.ok(!("types" in entry) || !("node" in entry), `${key}: no top-level types beside node`);
    for (const [at, object] of conditionObjects(entry)) {
      if (!("default" in object) || typeof object.default !== "string") continue;
      // A leaf: the declarations of the file it loads, listed first.
      const file = object.default;
      const types = file.endsWith(".mjs") ? file.replace(/\.mjs$/, ".d.mts") : file.endsWith(".cjs") ? file.replace(/\.cjs$/, ".d.cts") : file.replace(/\.js$/, ".d.ts");
      assert.deepEqual(Object.keys(object), ["types", "default"], `${key} ${at}`);
      assert.equal(object.types, types, `${key} ${at}`);
      assert.ok(existsSync(new URL(types, root)), `${key} ${at}: ${types} exists`);
    }
  }
  // What TypeScript picks: Node (nodenext, import and require) the nodejs declarations, bundlers the web ones.
  for (const entry of [".", "./codec"]) {
    const dir = entry === "." ? "." : "./codec";
    assert.equal(Object.keys(exports[entry])[0], "node");
    assert.equal(exports[entry].node.import.types, `${dir}/nodejs/index.d.mts`);
    assert.equal(exports[entry].node.require.types, `${dir}/nodejs/index.d.ts`);
    assert.equal(exports[entry].import.types, `${dir}/web/index.d.ts`);
  }
  assert.ok(manifest.files.includes("codec/"));
});

test("resolvers that ignore `exports` find both entries: package.json and codec/package.json", () => {
  assert.deepEqual([manifest.main, manifest.module, manifest.types], ["./nodejs/index.js", "./web/index.js", "./web/index.d.ts"]);
  const stub = JSON.parse(readFileSync(new URL("codec/package.json", root), "utf8"));
  assert.deepEqual(stub, { main: "./nodejs/index.js", module: "./web/index.js", types: "./web/index.d.ts" });
  for (const file of Object.values(stub)) assert.ok(existsSync(new URL(`codec/${file}`, root)), file);
  assert.equal(require(new URL(`codec/${stub.main}`, root).pathname).inspectToken, codec.inspectToken);
});

test("the declarations name every export as it is exported (no `x2 as x` aliases)", () => {
  for (const file of ["web/kubeapps_pager.d.ts", "nodejs/kubeapps_pager.d.ts", "bundler/kubeapps_pager.d.ts"]) {
    const text = readFileSync(new URL(file, root), "utf8");
    assert.match(text, /^export function kubeappsFetcher\(options: KubeappsFetcherOptions\): FetchChunk<KubeappsSummariesResponse<AvailablePackageSummary>>;$/m, file);
    assert.doesNotMatch(text, /kubeappsFetcher2| as \w+ \}/, file);
    // Made generic by scripts/package.mjs: the Pager over its items' type (a custom predicate's),
    // pages typed by the fetchChunk's response type.
    assert.match(text, /^export class Pager<T = any> \{$/m, file);
    assert.match(text, /constructor\(options: PagerOptions<T>\);/, file);
    assert.match(text, /static resume<T = any>\(token: string, options: PagerOptions<T>\): Pager<T>;/, file);
    assert.match(text, /nextPage<R extends ChunkResponse<T> = ChunkResponse<T>>\(fetchChunk: FetchChunk<R>, options\?: NextPageOptions \| null\): Promise<Page<ItemOf<R>>>;/, file);
    assert.match(text, /takePage<U = T>\(\): Page<U> \| null;/, file);
  }
});

test("instanceof PagerError holds across the two entries", () => {
  assert.notEqual(pkg.PagerError, codec.PagerError, "two modules, two classes");
  let fromCodec, fromPager;
  try {
    codec.decodePageToken("not a token!");
  } catch (e) {
    fromCodec = e;
  }
  try {
    pkg.Pager.resume("not a token!", { sources: [{ plugin: "helm.packages" }] });
  } catch (e) {
    fromPager = e;
  }
  for (const e of [fromCodec, fromPager]) {
    assert.ok(e instanceof pkg.PagerError, "instanceof the pager entry's PagerError");
    assert.ok(e instanceof codec.PagerError, "instanceof the codec entry's PagerError");
    assert.ok(e instanceof Error);
    assert.equal(e.name, "PagerError");
    assert.equal(e.code, "INVALID_PAGE_TOKEN");
  }
  assert.equal(pkg.PagerError.name, "PagerError");
  assert.equal(codec.PagerError.name, "PagerError");
  // Constructed by hand, too; and nothing else passes.
  assert.ok(new codec.PagerError("ABORTED", "x") instanceof pkg.PagerError);
  assert.ok(!(new Error("x") instanceof pkg.PagerError));
  assert.ok(!({ code: "ABORTED", name: "PagerError" } instanceof codec.PagerError));
  assert.ok(!(Object.create(Error.prototype) instanceof pkg.PagerError));
  // A subclass tests as usual: only its own instances.
  class Sub extends pkg.PagerError {}
  assert.ok(new Sub("ABORTED", "x") instanceof Sub);
  assert.ok(new Sub("ABORTED", "x") instanceof codec.PagerError);
  assert.ok(!(fromCodec instanceof Sub));
});

test("the two modules agree: a continue token made by the codec entry pages through the pager entry", () => {
  const token = codec.encodeContinueToken({ resourceVersion: 7, start: "kubeapps/a\u0000" });
  assert.deepEqual(codec.decodeContinueToken(token), {
    version: "meta.k8s.io/v1",
    resourceVersion: "7",
    start: "kubeapps/a\u0000",
    consistent: true,
  });
  const pager = new pkg.Pager({ sources: [{ plugin: "p", cluster: "c", namespace: "kubeapps", kind: "kubernetes" }], pageSize: 1 });
  const [request] = pager.nextRequests();
  const item = { name: "a", availablePackageRef: { identifier: "r/a", context: { cluster: "c", namespace: "kubeapps" }, plugin: { name: "p" } } };
  pager.feed(request.requestId, { items: [item], metadata: { resourceVersion: "7", continue: token } });
  const page = pager.takePage();
  assert.deepEqual(page.items, [item]);
  const state = codec.decodePageToken(page.nextPageToken);
  assert.equal(state.sources[0].chunkToken, token, "the first chunk is consumed: the page token holds the next one");
  assert.equal(codec.inspectToken(page.nextPageToken).kind, "page");
  pager.free();
});

test("the web builds export init both as the default and by name", async () => {
  for (const file of ["web/index.js", "codec/web/index.js"]) {
    const web = await import(new URL(file, root));
    assert.equal(typeof web.init, "function", file);
    assert.equal(web.init, web.default, file);
    assert.equal(typeof web.initSync, "function", file);
  }
});

test("the package's README is the user's (docs/PACKAGE.md), its links resolve inside the package", () => {
  const readme = readFileSync(new URL("README.md", root), "utf8");
  const doc = readFileSync(new URL("../docs/PACKAGE.md", root), "utf8");
  assert.equal(readme, doc.replaceAll("{{version}}", manifest.version).replace(/^<!-- tsc: .* -->\n/gm, ""));
  assert.doesNotMatch(readme, /npm (start|test)\b|\{\{|<!-- tsc:/);
  for (const [, target] of readme.matchAll(/\]\(([^)]+)\)/g)) {
    if (/^[a-z]+:/.test(target)) continue;
    assert.ok(existsSync(new URL(target.split("#")[0], root)), `README links to ${target}, which the package lacks`);
  }
});

test("decodePageToken builds the same state as the JSON view (inspectToken), key order and non-ASCII text included", () => {
  const mark = (sortKey, plugin, identifier) => ({ sortKey, identity: { plugin, cluster: "clüster", namespace: "ns\u0000x", identifier } });
  const state = {
    fingerprint: "0123456789abcdef",
    pageSize: 4294967295,
    sources: [
      { plugin: "helm.packages", cluster: "default", namespace: "kubeapps", chunkToken: "", offset: 0, watermark: null, resourceVersion: "", exhausted: true, inconsistent: false, behind: false },
      { plugin: "plügin 😀", cluster: "clüster", namespace: "ns\u0000x", chunkToken: "+RID:~kubeapps/pkg-b==#RT:1#TRC:10", offset: 4294967295, watermark: mark("paquet-é😀漢", "other", "repo/paquet-é😀漢"), resourceVersion: "18446744073709551615", exhausted: false, inconsistent: true, behind: true },
      { plugin: "kapp_controller.packages", cluster: "", namespace: "", chunkToken: "12", offset: 3, watermark: mark("", "", "no-repo"), resourceVersion: "007", exhausted: false, inconsistent: false, behind: false },
    ],
  };
  const token = codec.encodePageToken(state);
  const decoded = codec.decodePageToken(token);
  assert.deepEqual(decoded, state);
  const { kind, version, byteLength, textLength, ...viewed } = codec.inspectToken(token);
  assert.equal(kind, "page");
  assert.equal(JSON.stringify(decoded), JSON.stringify(viewed), "same keys in the same order");
  assert.equal(codec.encodePageToken(decoded), token);
});

test("kubeapps-pager/react and kubeapps-pager/tanstack: ESM and CommonJS faces, the same exports; optional peers", async () => {
  const exportsOf = (m) => Object.keys(m).filter((k) => k !== "default" && k !== "__esModule").sort();
  for (const [dir, names] of [["react", ["usePager"]], ["tanstack", ["pagerInfiniteQuery"]]]) {
    const esm = await import(new URL(`${dir}/index.js`, root));
    const cjs = require(new URL(`${dir}/index.cjs`, root).pathname);
    assert.deepEqual(exportsOf(esm), names, `${dir} (ESM)`);
    assert.deepEqual(exportsOf(cjs), names, `${dir} (CommonJS)`);
    assert.deepEqual(manifest.exports[`./${dir}`], {
      import: { types: `./${dir}/index.d.ts`, default: `./${dir}/index.js` },
      require: { types: `./${dir}/index.d.cts`, default: `./${dir}/index.cjs` },
    });
    assert.ok(manifest.files.includes(`${dir}/`));
  }
  assert.deepEqual(manifest.peerDependencies, { react: ">=18", "@tanstack/react-query": "^5" });
  assert.deepEqual(manifest.peerDependenciesMeta, { react: { optional: true }, "@tanstack/react-query": { optional: true } });
  // The wasm entries import neither React nor the JS entries.
  for (const file of ["web/index.js", "nodejs/index.js", "collation/web/index.js"]) {
    assert.doesNotMatch(readFileSync(new URL(file, root), "utf8"), /from ?"react"|require\("react"\)|kubeapps-pager\/react/, file);
  }
});

test("pagerInfiniteQuery in Node: consecutive pages on one live pager; a pageParam elsewhere resumes; backward pages on their own", async () => {
  const { pagerInfiniteQuery } = await import(new URL("tanstack/index.js", root));
  const names = Array.from({ length: 23 }, (_, i) => `p${String(i).padStart(2, "0")}`);
  const asked = [];
  const fetchChunk = async (request) => {
    asked.push(request.pageToken);
    const offset = Number(request.pageToken || 0);
    const end = offset + request.limit;
    return {
      availablePackageSummaries: names.slice(offset, end).map((name) => ({
        availablePackageRef: { context: { cluster: "default", namespace: "kubeapps" }, identifier: `r/${name}`, plugin: { name: "helm.packages", version: "v1alpha1" } },
        name,
      })),
      nextPageToken: end < names.length ? String(end) : "",
    };
  };
  const options = { sources: [{ plugin: "helm.packages", cluster: "default", namespace: "kubeapps" }], pageSize: 5, chunkLimit: 5 };
  const q = pagerInfiniteQuery({ options, fetchChunk });
  assert.deepEqual(q.queryKey, ["kubeapps-pager", options]);
  const signal = new AbortController().signal;
  const pages = [];
  for (let param = q.initialPageParam; param; param = q.getNextPageParam(pages.at(-1))) {
    pages.push(await q.queryFn({ pageParam: param, signal, direction: "forward" }));
  }
  assert.deepEqual(pages.flatMap((p) => p.items.map((s) => s.name)), names);
  assert.deepEqual(pages.map((p) => p.index), [0, 1, 2, 3, 4]);
  assert.equal(q.stats.pagersOpened, 1);
  assert.equal(new Set(asked).size, asked.length, "no chunk asked twice");
  // Back from page 3: page 2 from its saved token, by a pager of its own.
  const back = q.getPreviousPageParam(pages[3]);
  assert.deepEqual(back, { index: 2, token: pages[1].nextPageToken });
  const again = await q.queryFn({ pageParam: back, signal, direction: "backward" });
  assert.deepEqual(again.items.map((s) => s.name), pages[2].items.map((s) => s.name));
  assert.equal(q.stats.pagersOpened, 2);
  assert.equal(q.getPreviousPageParam(pages[0]), undefined);
  // A refetch from page 0: resumes once, then goes on with that pager.
  const first = await q.queryFn({ pageParam: q.initialPageParam, signal, direction: "forward" });
  await q.queryFn({ pageParam: q.getNextPageParam(first), signal, direction: "forward" });
  assert.equal(q.stats.pagersOpened, 3);
  // An aborted call leaves the live pager where it was: the same page comes next.
  const aborted = new AbortController();
  aborted.abort();
  const next = q.getNextPageParam(pages[1]);
  await assert.rejects(q.queryFn({ pageParam: next, signal: aborted.signal, direction: "forward" }), (e) => e.code === "ABORTED");
  const page2 = await q.queryFn({ pageParam: next, signal, direction: "forward" });
  assert.deepEqual(page2.items.map((s) => s.name), pages[2].items.map((s) => s.name));
  assert.equal(q.stats.pagersOpened, 3, "still the live pager");
  q.free();
  // Started at a reload's position (readPageToken(): page 2, the earlier tokens from history.state).
  const at = { index: 2, token: pages[1].nextPageToken, earlier: ["", pages[0].nextPageToken] };
  const r = pagerInfiniteQuery({ options, fetchChunk, at });
  assert.deepEqual(r.initialPageParam, { index: 2, token: at.token });
  const opened = await r.queryFn({ pageParam: r.initialPageParam, signal, direction: "forward" });
  assert.deepEqual(opened.items.map((s) => s.name), pages[2].items.map((s) => s.name));
  assert.deepEqual(r.getPreviousPageParam(opened), { index: 1, token: at.earlier[1] });
  // A deep link without the earlier tokens has no page before it.
  const bare = pagerInfiniteQuery({ options, fetchChunk, at: { index: 2, token: at.token } });
  assert.equal(bare.getPreviousPageParam({ ...opened }), undefined);
  r.free();
});
