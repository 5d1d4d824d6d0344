// Fourth adversarial round (the slimmed boundary: the nextPage queue in driver.js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { pkg, PagerError } from "./support/package.mjs";
import { summary, offsetSource } from "./support/backend.mjs";

const { Pager } = pkg;
const one = { sources: [{ plugin: "helm.packages", cluster: "default", namespace: "kubeapps" }], pageSize: 2, chunkLimit: 3 };
const names = (page) => page.items.map((s) => s.name);
const catalog = () => offsetSource(["a", "b", "c", "d", "e", "f", "g", "h"].map((n) => summary("helm.packages", n)));

function deferred() {
  let resolve;
  const promise = new Promise((r) => (resolve = r));
  return { promise, resolve };
}
const later = (ms) => new Promise((r) => setTimeout(r, ms));

test("a nextPage waiting behind another rejects with ABORTED as soon as it is aborted; the calls after it still wait", async () => {
  const source = catalog();
  const pager = new Pager(one);
  const gate = deferred();
  let running = 0;
  let overlapped = false;
  const fetchChunk = async (request) => {
    overlapped ||= running > 0;
    running++;
    await gate.promise;
    running--;
    return source.answer(request);
  };
  const first = pager.nextPage(fetchChunk);
  const controller = new AbortController();
  let second;
  const secondSettled = pager.nextPage(fetchChunk, { signal: controller.signal }).then(
    () => (second = "resolved"),
    (e) => (second = e),
  );
  const third = pager.nextPage(fetchChunk);
  await later(10);
  controller.abort();
  await Promise.race([secondSettled, later(200)]);
  assert.ok(second instanceof PagerError, `ABORTED while the first call still runs, got ${second}`);
  assert.equal(second.code, "ABORTED");
  gate.resolve();
  // The first call gives the first page, the third the next one: one call at a time.
  assert.deepEqual(names(await first), ["a", "b"]);
  assert.deepEqual(names(await third), ["c", "d"]);
  assert.equal(overlapped, false, "the third call started while the first one ran");
  pager.free();
});

test("nextPage with a fetchChunk that is not a function: INVALID_OPTIONS with the documented details.field", async () => {
  const pager = new Pager(one);
  for (const bad of [undefined, null, 5, "fetch", {}]) {
    await assert.rejects(pager.nextPage(bad), (e) => e instanceof PagerError && e.code === "INVALID_OPTIONS" && e.details.field === "fetchChunk");
  }
  pager.free();
});
