// What a fed response may and may not be, and how the pager holds on to it. Each test replays a
// finding of adversarial testing: answers the pager used to read wrongly.
import { test } from "node:test";
import assert from "node:assert/strict";
import { pkg, PagerError } from "./support/package.mjs";
import { summary, offsetSource, drivePage, identity } from "./support/backend.mjs";

const { Pager } = pkg;
// The test backend does not filter: the pager does (a Kubeapps plugin would filter itself).
const OPTIONS = {
  sources: [{ plugin: "helm.packages", cluster: "default", namespace: "kubeapps", kind: "kubeapps", filter: "pager" }],
  pageSize: 3,
  chunkLimit: 3,
};

test("bodies that are not a summaries response or a List are INVALID_RESPONSE, not an empty final page", () => {
  const bad = [
    [],
    [summary("helm.packages", "a")],
    { code: 13, message: "internal error", details: [] }, // a gRPC status from a proxy, with HTTP 200
    { kind: "Status", status: "Failure", code: 500 },
    { items: "nope" },
    { metadata: { continue: "x" } },
    { error: "boom" },
  ];
  for (const body of bad) {
    const pager = new Pager(OPTIONS);
    const [r] = pager.nextRequests();
    assert.throws(() => pager.feed(r.requestId, body), (e) => e instanceof PagerError && e.code === "INVALID_RESPONSE", JSON.stringify(body));
    assert.equal(pager.pageReady(), false, "nothing was taken as the end of the list");
  }
  // What Kubeapps really sends for an empty last page: every field at its default, omitted.
  for (const body of [{}, { categories: ["Database"] }, { nextPageToken: "" }]) {
    const pager = new Pager(OPTIONS);
    const [r] = pager.nextRequests();
    assert.equal(pager.feed(r.requestId, body), "accepted");
    assert.equal(pager.takePage().done, true);
  }
});

test("a transport that reuses its arrays after feed cannot change a page", () => {
  const names = ["a", "b", "c", "d", "e"];
  const source = offsetSource(names.map((n) => summary("helm.packages", n)));
  const pager = new Pager({ ...OPTIONS, pageSize: 5, chunkLimit: 5 });
  const [r] = pager.nextRequests();
  const answer = source.answer(r);
  const fed = [...answer.availablePackageSummaries];
  pager.feed(r.requestId, answer);
  answer.availablePackageSummaries.length = 0; // the transport clears its buffer for the next call
  answer.availablePackageSummaries.push(summary("helm.packages", "zzz"));
  const page = pager.takePage();
  assert.deepEqual(page.items.map(identity), fed.map(identity));
  page.items.forEach((item, i) => assert.equal(item, fed[i], "the very objects fed"));
});

test("an item list is read once, at feed: a getter that throws on a later read cannot lose a page", () => {
  const source = offsetSource(["a", "b", "c"].map((n) => summary("helm.packages", n)));
  const pager = new Pager(OPTIONS);
  const [r] = pager.nextRequests();
  const good = source.answer(r);
  let reads = 0;
  const trap = new Proxy(good.availablePackageSummaries, {
    get(target, key) {
      if (key === "1" && ++reads > 1) throw new Error("index getter boom");
      return Reflect.get(target, key);
    },
  });
  pager.feed(r.requestId, { ...good, availablePackageSummaries: trap });
  const page = drivePage(pager, [source]);
  assert.deepEqual(page.items.map((s) => s.name), ["a", "b", "c"]);
  assert.equal(reads, 1);
});

test("an item list whose getter throws at feed is INVALID_RESPONSE, and the pager goes on", () => {
  const source = offsetSource(["a", "b", "c"].map((n) => summary("helm.packages", n)));
  const pager = new Pager(OPTIONS);
  const [r] = pager.nextRequests();
  const good = source.answer(r);
  const trap = new Proxy(good.availablePackageSummaries, {
    get(target, key) {
      if (key === "1") throw new Error("index getter boom");
      return Reflect.get(target, key);
    },
  });
  assert.throws(() => pager.feed(r.requestId, { ...good, availablePackageSummaries: trap }), (e) => e.code === "INVALID_RESPONSE");
  pager.feed(r.requestId, good);
  assert.deepEqual(drivePage(pager, [source]).items.map((s) => s.name), ["a", "b", "c"]);
});

test("a fetchChunk that fails its own request through the pager stops nextPage with REENTRANT_CALL", async () => {
  const source = offsetSource(["a", "b", "c", "d"].map((n) => summary("helm.packages", n)));
  const pager = new Pager(OPTIONS);
  let calls = 0;
  const meddling = async (request) => {
    calls++;
    pager.fail(request.requestId, { status: 503 });
    return source.answer(request);
  };
  await assert.rejects(pager.nextPage(meddling), (e) => e instanceof PagerError && e.code === "REENTRANT_CALL");
  assert.equal(calls, 1, "no spinning");
  const page = await pager.nextPage(async (request) => source.answer(request));
  assert.deepEqual(page.items.map((s) => s.name), ["a", "b", "c"]);
});

test("a lone surrogate in a key field is INVALID_RESPONSE naming the item and field, never read as U+FFFD", () => {
  const names = ["a", "b", "c"];
  const bad = [
    [{ name: "b\uD800" }, "items[1].name"],
    [{ displayName: "\uDC00b" }, "items[1].displayName"],
    // Two halves in adjacent fields do not make a pair.
    [{ name: "b\uD83D", displayName: "\uDE00" }, "items[1].name"],
    [{ categories: ["ok", "x\uDBFF"] }, "items[1].categories[1]"],
  ];
  for (const [edit, field] of bad) {
    const source = offsetSource(names.map((n) => summary("helm.packages", n)));
    const pager = new Pager(OPTIONS);
    const [r] = pager.nextRequests();
    const good = source.answer(r);
    const items = good.availablePackageSummaries.map((s, i) => (i === 1 ? { ...s, ...edit } : s));
    assert.throws(
      () => pager.feed(r.requestId, { ...good, availablePackageSummaries: items }),
      (e) => e instanceof PagerError && e.code === "INVALID_RESPONSE" && e.message.includes(field) && /surrogate/.test(e.message),
      field,
    );
    // Nothing changed: the same request still takes the good answer.
    pager.feed(r.requestId, good);
    assert.deepEqual(drivePage(pager, [source]).items.map((s) => s.name), names);
  }
});

test("key fields with NULs, surrogate pairs and other non-ASCII text sort by their UTF-8 bytes and come back as fed", () => {
  const utf8 = (s) => Buffer.from(s, "utf8");
  // A source serves its names in byte order: the pager checks it, so a field misread fails here.
  // (The test backend sorts by UTF-16 units: no U+E000..U+FFFF beside astral characters.)
  const names = ["a\0b", "a\0c", "é", "z", "\u{1F600}", "\u{1F600}\0x", "ω"].sort((x, y) => Buffer.compare(utf8(x), utf8(y)));
  const items = names.map((n) => summary("helm.packages", n, { categories: [`${n}\0`, "\uD83D\uDE00"] }));
  const source = offsetSource(items);
  const pager = new Pager({ ...OPTIONS, pageSize: 10, chunkLimit: 10 });
  const page = drivePage(pager, [source]);
  assert.deepEqual(page.items.map((s) => s.name), names);
  for (const item of page.items) assert.ok(items.includes(item), "the very object fed");
  const filtered = drivePage(new Pager({ ...OPTIONS, pageSize: 10, chunkLimit: 10, filter: { categories: ["é\0"] } }), [source]);
  assert.deepEqual(filtered.items.map((s) => s.name), ["é"]);
});

test("fields the core does not read for a source still cross checked: a bad one is INVALID_RESPONSE naming it", () => {
  // Sorted by name, no filter: displayName, shortDescription and categories are not sent to
  // the core, and a response that would be refused with them is refused all the same.
  const bad = [
    [{ shortDescription: 5 }, "items[1].shortDescription must be a string"],
    [{ displayName: ["x"] }, "items[1].displayName must be a string"],
    [{ shortDescription: "x\uDC00" }, "items[1].shortDescription is not well-formed"],
    [{ categories: ["ok", 7] }, "items[1].categories[1] must be a string"],
    [{ categories: ["ok", "\uD800"] }, "items[1].categories[1] is not well-formed"],
    [{ categories: "Database" }, "items[1].categories must be an array"],
  ];
  for (const [edit, message] of bad) {
    const source = offsetSource(["a", "b", "c"].map((n) => summary("helm.packages", n)));
    const pager = new Pager(OPTIONS);
    const [r] = pager.nextRequests();
    const good = source.answer(r);
    const items = good.availablePackageSummaries.map((s, i) => (i === 1 ? { ...s, ...edit } : s));
    assert.throws(
      () => pager.feed(r.requestId, { ...good, availablePackageSummaries: items }),
      (e) => e instanceof PagerError && e.code === "INVALID_RESPONSE" && e.message.includes(message),
      message,
    );
  }
});

test("the fields a pager-side filter or the sort reads reach the core: query on shortDescription, categories, displayName order", () => {
  const items = [
    summary("helm.packages", "a", { displayName: "Zeta", shortDescription: "has the needle", categories: ["Other"] }),
    summary("helm.packages", "b", { displayName: "Beta", categories: ["Database"] }),
    summary("helm.packages", "c", { displayName: "Alpha", shortDescription: "NEEDLE too", categories: ["Database"] }),
    summary("helm.packages", "d", { displayName: "Delta", shortDescription: "nothing" }),
  ];
  const shown = (options) => {
    const pager = new Pager({ ...OPTIONS, pageSize: 10, ...options });
    return drivePage(pager, [offsetSource(items)]).items.map((s) => s.name);
  };
  assert.deepEqual(shown({ filter: { query: "needle" } }), ["a", "c"]);
  assert.deepEqual(shown({ filter: { categories: ["Database"] } }), ["b", "c"]);
  assert.deepEqual(shown({ sort: "displayName" }), ["c", "b", "d", "a"]);
  assert.deepEqual(shown({ sort: "displayName", filter: { query: "needle", categories: ["Database"] } }), ["c"]);
  assert.deepEqual(shown({}), ["a", "b", "c", "d"]);
});

test("items of the source's own plugin, cluster and namespace and items from elsewhere stay apart", () => {
  // The source's own context crosses as "" (the core reads it as the source's); another one
  // crosses as it is: the same name from another namespace, cluster or plugin is another package.
  const items = [
    summary("helm.packages", "a"),
    summary("helm.packages", "a", { namespace: "kubeapps-global" }),
    summary("helm.packages", "a", { cluster: "other" }),
    summary("other.plugin", "a"),
    summary("helm.packages", "b", { namespace: "" }),
  ];
  const pager = new Pager({ ...OPTIONS, pageSize: 10, chunkLimit: 10 });
  const page = drivePage(pager, [offsetSource(items)]);
  assert.deepEqual(page.items.map(identity), items.map(identity));
  assert.equal(page.stats.duplicatesDropped, 0);
  // Fed twice (a repeat), each is one item: the own-context one included.
  const again = new Pager({ ...OPTIONS, pageSize: 10, chunkLimit: 10 });
  const twice = [...items, summary("helm.packages", "a")];
  assert.deepEqual(drivePage(again, [offsetSource(twice)]).items.map(identity), items.map(identity));
});
