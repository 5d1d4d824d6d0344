// The package's two entries: "kubeapps-pager" (the pager module) and "kubeapps-pager/codec" (the
// token functions, a wasm module of its own). Each exports exactly its own functions; package.json
// maps both the same way; a PagerError of either module is `instanceof` the PagerError of both.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { pkg, codec } from "./support/package.mjs";

const root = new URL("../../pkg/", import.meta.url);
const manifest = JSON.parse(readFileSync(new URL("package.json", root), "utf8"));

const PAGER_EXPORTS = ["Pager", "PagerError", "default", "init", "kubeappsFetcher", "kubernetesListFetcher", "wasmMemoryBytes"];
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
});

test('package.json maps "./codec" as it maps ".", types first', () => {
  const { exports } = manifest;
  const prefixed = JSON.parse(JSON.stringify(exports["."]).replaceAll('"./', '"./codec/'));
  assert.deepEqual(exports["./codec"], prefixed);
  for (const entry of [".", "./codec"]) {
    assert.equal(Object.keys(exports[entry])[0], "types");
    assert.equal(Object.keys(exports[entry].node)[0], "types");
  }
  for (const target of ["web", "bundler", "nodejs"]) {
    assert.deepEqual(exports[`./codec/${target}`], JSON.parse(JSON.stringify(exports[`./${target}`]).replaceAll('"./', '"./codec/')));
  }
  assert.ok(manifest.files.includes("codec/"));
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

test("decodePageToken builds the same state as the JSON view (inspectToken), key order and non-ASCII text included", () => {
  const mark = (sortKey, plugin, identifier) => ({ sortKey, identity: { plugin, cluster: "clüster", namespace: "ns\u0000x", identifier } });
  const state = {
    fingerprint: "0123456789abcdef",
    pageSize: 4294967295,
    sources: [
      { plugin: "helm.packages", cluster: "default", namespace: "kubeapps", chunkToken: "", offset: 0, watermark: null, resourceVersion: "", exhausted: true, inconsistent: false },
      { plugin: "plügin 😀", cluster: "clüster", namespace: "ns\u0000x", chunkToken: "+RID:~kubeapps/pkg-b==#RT:1#TRC:10", offset: 4294967295, watermark: mark("paquet-é😀漢", "other", "repo/paquet-é😀漢"), resourceVersion: "18446744073709551615", exhausted: false, inconsistent: true },
      { plugin: "kapp_controller.packages", cluster: "", namespace: "", chunkToken: "12", offset: 3, watermark: mark("", "", "no-repo"), resourceVersion: "007", exhausted: false, inconsistent: false },
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
