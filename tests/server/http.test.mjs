import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { serve, availablePath } from "./helpers.mjs";
import { HOSTILE_NAME } from "../../server/catalog/generate.mjs";

let srv;
let dir;
test.before(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "kp-www-"));
  await fs.mkdir(path.join(dir, "www", "js"), { recursive: true });
  await fs.mkdir(path.join(dir, "pkg"), { recursive: true });
  await fs.writeFile(path.join(dir, "www", "index.html"), "<!doctype html><title>demo</title>");
  await fs.writeFile(path.join(dir, "www", "js", "app.js"), "export {};");
  await fs.writeFile(path.join(dir, "pkg", "kubeapps_pager_bg.wasm"), Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
  await fs.writeFile(path.join(dir, "pkg", "kubeapps_pager.js"), "export default 1;");
  await fs.writeFile(path.join(dir, "secret.txt"), "not served");
  srv = await serve({ hostile: true, wwwDir: path.join(dir, "www"), pkgDir: path.join(dir, "pkg") });
});
test.after(async () => {
  await srv.close();
  await fs.rm(dir, { recursive: true, force: true });
});

test("listens on 127.0.0.1 only", () => {
  assert.equal(srv.server.address().address, "127.0.0.1");
  assert.match(srv.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
});

test("static files with the MIME types modules and WebAssembly need", async () => {
  const cases = [
    ["/", "text/html; charset=utf-8", "<!doctype html><title>demo</title>"],
    ["/js/app.js", "text/javascript; charset=utf-8", "export {};"],
    ["/pkg/kubeapps_pager.js", "text/javascript; charset=utf-8", "export default 1;"],
  ];
  for (const [p, type, body] of cases) {
    const r = await srv.get(p);
    assert.equal(r.status, 200, p);
    assert.equal(r.headers.get("content-type"), type, p);
    assert.equal(r.text, body, p);
  }
  const wasm = await fetch(`${srv.base}/pkg/kubeapps_pager_bg.wasm`);
  assert.equal(wasm.headers.get("content-type"), "application/wasm");
  assert.deepEqual([...new Uint8Array(await wasm.arrayBuffer())], [0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);
  assert.equal((await srv.get("/pkg/missing.js")).status, 404);
  assert.equal((await srv.get("/nope.html")).status, 404);
});

test("no way out of www/ or pkg/", async () => {
  for (const p of ["/..%2fsecret.txt", "/pkg/..%2f..%2fsecret.txt", "/%2e%2e/secret.txt", "/js/%5c..%5csecret.txt", "/bad%zz"]) {
    const r = await srv.get(p);
    assert.ok(r.status === 400 || r.status === 404, `${p}: ${r.status}`);
    assert.doesNotMatch(r.text, /not served/);
  }
});

test("a hostile name is served as data: JSON, nosniff, exact bytes", async () => {
  const r = await srv.get(availablePath("helm", { "filterOptions.repositories": "hostile" }));
  assert.equal(r.status, 200);
  assert.equal(r.headers.get("content-type"), "application/json");
  assert.equal(r.headers.get("x-content-type-options"), "nosniff");
  const [s] = r.json.availablePackageSummaries;
  assert.equal(s.name, HOSTILE_NAME);
  assert.equal(s.displayName, HOSTILE_NAME);
  assert.equal(s.iconUrl, "javascript:alert(3)");
  const truth = (await srv.get("/demo/truth?query=onerror")).json;
  assert.deepEqual(truth.identities, [`helm.packages/default/kubeapps/hostile/${HOSTILE_NAME}`]);
  const icon = await srv.get(`/demo/icon/${encodeURIComponent(HOSTILE_NAME)}.svg`);
  assert.equal(icon.headers.get("content-type"), "image/svg+xml");
  assert.match(icon.headers.get("content-security-policy"), /default-src 'none'/);
  assert.match(icon.text, />&#60;<\/text>/);
  assert.doesNotMatch(icon.text, /<img/);
});

test("wrong methods, unknown routes and bad bodies get clear errors", async () => {
  assert.equal((await srv.post(availablePath("helm", {}))).status, 405);
  assert.equal((await srv.get("/demo/reset")).status, 405);
  assert.equal((await srv.get("/apis/plugins/other/packages/v1alpha1/availablepackages")).status, 404);
  const r = await fetch(`${srv.base}/demo/mutate`, { method: "POST", body: "{not json" });
  assert.equal(r.status, 400);
  assert.match((await r.json()).error, /not JSON/);
});
