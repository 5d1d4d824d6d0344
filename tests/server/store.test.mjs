import test from "node:test";
import assert from "node:assert/strict";
import { MvccStore, CompactedError, StoreError } from "../../server/store.mjs";

const P = "kapp_controller.packages";
const rec = (name, ns = "kubeapps", extra = {}) => ({ namespace: ns, name, identifier: `repo/${name}`, ...extra });
const names = (chunk) => chunk.items.map((i) => i.rec.name);

function store(clock) {
  return new MvccStore({ plugins: [P], clock });
}

test("every write bumps the revision; lists read the snapshot they name", () => {
  const s = store();
  for (const n of ["c", "a", "b"]) s.create(P, rec(n));
  assert.equal(s.revision, 3);
  const r0 = s.revision;
  s.create(P, rec("aa"));
  s.delete(P, "kubeapps", "repo/b");
  s.update(P, "kubeapps", "repo/c", { displayName: "C!" });
  assert.equal(s.revision, 6);
  assert.deepEqual(names(s.listAt(P, { rev: r0, prefix: "kubeapps/" })), ["a", "b", "c"]);
  assert.deepEqual(names(s.listAt(P, { rev: 6, prefix: "kubeapps/" })), ["a", "aa", "c"]);
  assert.equal(s.listAt(P, { rev: 6, prefix: "kubeapps/" }).items[2].rec.displayName, "C!");
  assert.equal(s.listAt(P, { rev: r0, prefix: "kubeapps/" }).items[2].rec.displayName, undefined);
  const c = s.listAt(P, { rev: 6, prefix: "kubeapps/", fromKey: "kubeapps/a\u0000", limit: 1 });
  assert.deepEqual(names(c), ["aa"]);
  assert.equal(c.more, true);
  assert.equal(c.remaining, 1);
});

test("keys are namespace/name in byte order; names are unique per namespace", () => {
  const s = store();
  s.create(P, rec("b", "team-a"));
  s.create(P, rec("𝔘", "kubeapps"));
  s.create(P, rec("ｆ", "kubeapps"));
  s.create(P, rec("a", "team-a"));
  assert.deepEqual(s.listAt(P, { rev: s.revision }).items.map((i) => i.key), ["kubeapps/ｆ", "kubeapps/𝔘", "team-a/a", "team-a/b"]);
  assert.throws(() => s.create(P, rec("a", "team-a")), (e) => e instanceof StoreError && e.status === 409);
  assert.throws(() => s.create(P, { ...rec("other", "team-a"), identifier: "repo/a" }), (e) => e.status === 409);
  assert.throws(() => s.update(P, "team-a", "repo/a", { name: "z" }), (e) => e.status === 400);
  assert.throws(() => s.delete(P, "team-a", "repo/none"), (e) => e.status === 404);
});

test("compaction drops older revisions: reads below it fail, at and above it work", () => {
  const s = store();
  for (const n of ["a", "b", "c"]) s.create(P, rec(n));
  s.delete(P, "kubeapps", "repo/a");
  s.update(P, "kubeapps", "repo/b", { displayName: "B" });
  assert.equal(s.res.get(P).hist.get("kubeapps/b").length, 2);
  s.compact(5);
  assert.throws(() => s.listAt(P, { rev: 4 }), CompactedError);
  assert.deepEqual(names(s.listAt(P, { rev: 5 })), ["b", "c"]);
  assert.deepEqual(s.res.get(P).keys, ["kubeapps/b", "kubeapps/c"], "the deleted key's history is gone");
  assert.equal(s.res.get(P).hist.get("kubeapps/b").length, 1);
  s.create(P, rec("a"));
  assert.deepEqual(names(s.listAt(P, { rev: 5 })), ["b", "c"], "a re-created key is not visible before its creation");
  assert.deepEqual(names(s.listAt(P, { rev: 6 })), ["a", "b", "c"]);
  assert.throws(() => s.checkRevision(7), (e) => e.status === 500);
});

test("auto-compaction compacts to the newest revision older than the age", () => {
  let now = 1000;
  const s = new MvccStore({ plugins: [P], clock: () => now, compactAfterMs: 100 });
  s.create(P, rec("a"));
  now = 1050;
  s.create(P, rec("b"));
  now = 1120;
  s.autoCompact();
  assert.equal(s.compactedRevision, 1);
  now = 1200;
  s.autoCompact();
  assert.equal(s.compactedRevision, 2);
  assert.throws(() => s.listAt(P, { rev: 1 }), CompactedError);
});

test("liveSorted: by name, ties in insertion order across namespaces", () => {
  const s = store();
  s.create(P, rec("x", "team-b"));
  s.create(P, rec("x", "team-a"));
  s.create(P, rec("a", "team-c"));
  assert.deepEqual(s.liveSorted(P).map((r) => `${r.namespace}/${r.name}`), ["team-c/a", "team-b/x", "team-a/x"]);
  assert.deepEqual(s.liveSorted(P, "team-a").map((r) => r.name), ["x"]);
});

test("presentSince: live and passing the filter at every revision since", () => {
  const s = store();
  for (const n of ["a", "b", "c", "d"]) s.create(P, rec(n, "kubeapps", { categories: ["X"] }));
  const r0 = s.revision;
  s.delete(P, "kubeapps", "repo/a");
  s.create(P, rec("e", "kubeapps", { categories: ["X"] }));
  s.update(P, "kubeapps", "repo/b", { categories: ["Y"] });
  s.update(P, "kubeapps", "repo/b", { categories: ["X"] });
  s.update(P, "kubeapps", "repo/c", { displayName: "C" });
  s.delete(P, "kubeapps", "repo/d");
  s.create(P, rec("d", "kubeapps", { categories: ["X"] }));
  const inX = (r) => r.categories.includes("X");
  assert.deepEqual(s.presentSince(r0, inX), [`${P}/default/kubeapps/repo/c`]);
  assert.deepEqual(s.presentSince(r0).sort(), [`${P}/default/kubeapps/repo/b`, `${P}/default/kubeapps/repo/c`]);
  assert.throws(() => s.presentSince(s.revision + 1), (e) => e.status === 400);
});
