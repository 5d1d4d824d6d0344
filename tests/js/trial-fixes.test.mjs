// Through the public path (`pager.nextPage` with a fetchChunk of the test's), the faults a fresh
// user's trial found: a source read whole against a server that caps its answers (a legal short
// chunk: followed to the end, never a false SOURCE_TOO_LARGE), a 400 at a list's start (the source
// set aside at once, not asked 17 times), a failure status that is no HTTP status, and a `signal`
// that is no AbortSignal.
import { test } from "node:test";
import assert from "node:assert/strict";
import { pkg } from "./support/package.mjs";
import { summary, identity } from "./support/backend.mjs";

const { Pager } = pkg;

const names = (n, prefix) => Array.from({ length: n }, (_, i) => `${prefix}-${String(i).padStart(3, "0")}`);
const source = (plugin, kind = "kubeapps", extra = {}) => ({ plugin, cluster: "default", namespace: "kubeapps", kind, ...extra });

/** An offset-paged plugin over `items` (in the order given) whose answers hold at most `cap` items. */
function cappedOffsets(items, cap) {
  return (request) => {
    const offset = request.pageToken === "" ? 0 : Number(request.pageToken);
    const page = items.slice(offset, offset + Math.min(request.limit, cap));
    const end = offset + page.length;
    return { availablePackageSummaries: page, nextPageToken: end < items.length ? String(end) : "" };
  };
}

async function scroll(pager, fetchChunk) {
  const shown = [];
  const unreachable = new Set();
  for (let i = 0; i < 1000; i++) {
    const page = await pager.nextPage(fetchChunk);
    shown.push(...page.items.map(identity));
    for (const u of page.unreachable) unreachable.add(u.source);
    if (page.done) return { shown, unreachable: [...unreachable] };
  }
  throw new Error("never done");
}

test("sources read whole follow a capped server's next tokens to the end: every item, no SOURCE_TOO_LARGE", async () => {
  // helm streams; fluxv2 is unordered (read whole); kapp is read whole under displayName.
  const helm = names(150, "h").map((n) => summary("helm.packages", n));
  const flux = names(150, "f").reverse().map((n) => summary("fluxv2.packages", n));
  const kapp = names(150, "k").map((n, i) => summary("kapp_controller.packages", n, { displayName: `K ${String(149 - i).padStart(3, "0")}` }));
  const answers = { "helm.packages": cappedOffsets(helm, 100), "fluxv2.packages": cappedOffsets(flux, 100), "kapp_controller.packages": cappedOffsets(kapp, 100) };
  for (const sort of ["name", "displayName"]) {
    const pager = new Pager({
      sources: [source("helm.packages"), source("kapp_controller.packages"), source("fluxv2.packages", "unordered")],
      pageSize: 20,
      chunkLimit: 50,
      maxSourceItems: 300,
      sort,
    });
    const asked = [];
    const { shown } = await scroll(pager, async (request) => {
      asked.push(`${request.source.plugin}:${request.pageToken}:${request.limit}`);
      return answers[request.source.plugin](request);
    });
    pager.free();
    assert.equal(shown.length, 450, sort);
    assert.equal(new Set(shown).size, 450, sort);
    // One request asked for it all (cap + 1); the server's cap answered 100 and a next token,
    // followed asking what is left of the cap + 1.
    assert.ok(asked.includes("fluxv2.packages::301"), asked.join(" "));
    assert.ok(asked.includes("fluxv2.packages:100:201"), asked.join(" "));
    if (sort === "displayName") assert.ok(asked.includes("kapp_controller.packages:100:201"), asked.join(" "));
  }
});

test("a source read whole is too large only once the items read go over maxSourceItems", async () => {
  const flux = names(150, "f").map((n) => summary("fluxv2.packages", n));
  const pager = new Pager({ sources: [source("fluxv2.packages", "unordered")], pageSize: 20, chunkLimit: 50, maxSourceItems: 120 });
  await assert.rejects(pager.nextPage(cappedOffsets(flux, 100)), (e) => e.code === "SOURCE_TOO_LARGE" && e.details.cap === 120);
  pager.free();
});

test("a 400 at the start of an offset list sets the source aside at once; the others go on", async () => {
  const helm = names(30, "h").map((n) => summary("helm.packages", n));
  for (const retry of [undefined, false]) {
    const pager = new Pager({ sources: [source("helm.packages"), source("kapp_controller.packages")], pageSize: 50, chunkLimit: 50 });
    let refused = 0;
    const page = await pager.nextPage(async (request) => {
      if (request.source.plugin === "helm.packages") return cappedOffsets(helm, 100)(request);
      refused++;
      throw Object.assign(new Error("Bad Request: invalid filter"), { status: 400, reason: "InvalidArgument" });
    }, retry === undefined ? {} : { retry });
    pager.free();
    assert.equal(refused, 1, "asked once");
    assert.equal(page.items.length, 30);
    assert.ok(page.done);
    assert.deepEqual(page.unreachable.map((u) => [u.source, u.cause, u.status]), [["kapp_controller.packages/default/kubeapps", "failed-for-good", 400]]);
  }
});

test("a refused position's walk back ends as soon as the list's start is refused", async () => {
  const kapp = names(60, "k").map((n) => summary("kapp_controller.packages", n));
  const pager = new Pager({ sources: [source("kapp_controller.packages")], pageSize: 20, chunkLimit: 20 });
  const first = await pager.nextPage(cappedOffsets(kapp, 100));
  assert.equal(first.items.length, 20);
  const asked = [];
  const page = await pager.nextPage(async (request) => {
    asked.push(request.pageToken);
    throw Object.assign(new Error("Bad Request"), { status: 400 });
  }, { retry: false });
  pager.free();
  assert.equal(asked.at(-1), "", asked.join(","));
  assert.equal(asked.filter((t) => t === "").length, 1, asked.join(","));
  assert.ok(page.done);
  assert.deepEqual(page.unreachable.map((u) => u.cause), ["failed-for-good"]);
});

test("a failure status that is no HTTP status is INVALID_RESPONSE, the pager unchanged", async () => {
  const helm = names(10, "h").map((n) => summary("helm.packages", n));
  for (const status of [NaN, -1, 1e20, 503.5, 600, "503", 5n]) {
    const pager = new Pager({ sources: [source("helm.packages")], pageSize: 5, chunkLimit: 5 });
    await assert.rejects(
      pager.nextPage(async () => {
        throw { status };
      }, { retry: false }),
      (e) => e.code === "INVALID_RESPONSE" && e.details.field === "status" && e.details.source !== undefined,
      String(status),
    );
    // Sans-IO `fail` reads failures the same way.
    const [r] = pager.nextRequests();
    assert.throws(() => pager.fail(r.requestId, { status }), (e) => e.code === "INVALID_RESPONSE", String(status));
    assert.equal(pager.fail(r.requestId, { status: 503 }), "retry");
    pager.free();
    const again = new Pager({ sources: [source("helm.packages")], pageSize: 5, chunkLimit: 5 });
    assert.equal((await again.nextPage(cappedOffsets(helm, 100))).items.length, 5);
    again.free();
  }
  // No status at all (a network error): no answer, status 0.
  const pager = new Pager({ sources: [source("helm.packages")], pageSize: 5, chunkLimit: 5 });
  await assert.rejects(
    pager.nextPage(async () => {
      throw new TypeError("fetch failed");
    }, { retry: false }),
    (e) => e.code === "SOURCE_FAILED" && e.details.status === 0,
  );
  pager.free();
});

test("nextPage rejects a signal that is no AbortSignal (INVALID_OPTIONS naming signal), the pager unchanged", async () => {
  const helm = names(10, "h").map((n) => summary("helm.packages", n));
  const pager = new Pager({ sources: [source("helm.packages")], pageSize: 5, chunkLimit: 5 });
  let called = 0;
  const fetchChunk = async (request) => (called++, cappedOffsets(helm, 100)(request));
  for (const signal of [new AbortController(), "x", 1, {}, { signal: {} }]) {
    await assert.rejects(pager.nextPage(fetchChunk, { signal }), (e) => e.code === "INVALID_OPTIONS" && e.details.field === "signal", String(signal));
  }
  await assert.rejects(pager.nextPage(fetchChunk, "x"), (e) => e.code === "INVALID_OPTIONS" && e.details.field === "options");
  assert.equal(called, 0);
  for (const options of [undefined, null, {}, { signal: undefined }, { signal: null }, { signal: new AbortController().signal }, { signal: { aborted: false } }]) {
    await pager.nextPage(fetchChunk, options);
  }
  assert.ok(called > 0);
  pager.free();
});
