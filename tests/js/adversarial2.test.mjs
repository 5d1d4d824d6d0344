// Second adversarial round: lone surrogates where round 1 left them (fail()'s reason and continue,
// the codec's string arguments), and token errors without a TokenFault reason.
import { test } from "node:test";
import assert from "node:assert/strict";
import { pkg, codec, PagerError } from "./support/package.mjs";
import { summary, offsetSource, drivePage } from "./support/backend.mjs";

const { Pager } = pkg;
const one = { sources: [{ plugin: "helm.packages", cluster: "default", namespace: "kubeapps" }], pageSize: 2, chunkLimit: 3 };
const kube = { sources: [{ plugin: "helm.packages", cluster: "default", namespace: "kubeapps", kind: "kubernetes" }], pageSize: 2, chunkLimit: 3 };
const helm = () => offsetSource(["a", "c", "e"].map((n) => summary("helm.packages", n)));
const names = (page) => page.items.map((s) => s.name);
const REASONS = ["too-long", "whitespace", "mixed-alphabet", "bad-character", "bad-padding", "truncated", "integrity", "unknown-version", "too-many-sources", "overflow", "not-utf8", "malformed", "invalid-field", "empty"];

/** `f()`'s PagerError; fails on any other throw and on no throw. */
function error(f) {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof PagerError, `a PagerError, got ${e?.constructor?.name ?? typeof e}: ${String(e?.message)}`);
    return e;
  }
  assert.fail("expected a throw");
}

test("a lone surrogate in fail()'s reason or continue is INVALID_RESPONSE; the request stays open", () => {
  for (const failure of [{ status: 500, reason: "bad\ud800" }, { status: 410, continue: "\udc00abc" }, { status: 410, details: { continue: "x\ud83d" } }]) {
    for (const options of [one, kube]) {
      const pager = new Pager(options);
      const [request] = pager.nextRequests();
      const before = pager.pageToken();
      assert.equal(error(() => pager.fail(request.requestId, failure)).code, "INVALID_RESPONSE", JSON.stringify(failure));
      assert.equal(pager.pageToken(), before);
      const source = helm();
      pager.feed(request.requestId, source.answer(request));
      assert.deepEqual(names(drivePage(pager, [source])), ["a", "c"]);
      pager.free();
    }
  }
});

test("codec string arguments with a lone surrogate are typed token errors, not U+FFFD", () => {
  const cases = [
    [() => codec.decodeKubeappsToken('{"\ud800":1}'), "INVALID_KUBEAPPS_TOKEN"],
    [() => codec.decodeKubeappsToken("1\udc00"), "INVALID_KUBEAPPS_TOKEN"],
    [() => codec.decodePageToken("AAAA\ud800"), "INVALID_PAGE_TOKEN"],
    [() => codec.decodeContinueToken("\ud800"), "INVALID_CONTINUE_TOKEN"],
    [() => codec.encodeContinueToken({ resourceVersion: 5, start: "\ud800" }), "INVALID_CONTINUE_TOKEN"],
    [() => codec.encodeContinueToken({ resourceVersion: "5\ud800", start: "a" }), "INVALID_CONTINUE_TOKEN"],
    [() => Pager.resume("\ud800", one), "INVALID_PAGE_TOKEN"],
  ];
  for (const [f, code] of cases) {
    const e = error(f);
    assert.equal(e.code, code, String(f));
    assert.ok(REASONS.includes(e.details.reason), `${f}: reason ${e.details.reason}`);
    assert.ok(!e.message.includes("\ufffd"), e.message);
  }
  const info = codec.inspectToken('{"\ud800":1}');
  assert.equal(info.kind, "invalid");
  assert.ok(REASONS.includes(info.reason));
});

test("a token that is not a string is a token error with a reason", () => {
  for (const bad of [5, null, undefined, {}, ["x"]]) {
    for (const [f, code] of [
      [() => codec.decodePageToken(bad), "INVALID_PAGE_TOKEN"],
      [() => codec.decodeContinueToken(bad), "INVALID_CONTINUE_TOKEN"],
      [() => codec.decodeKubeappsToken(bad), "INVALID_KUBEAPPS_TOKEN"],
    ]) {
      const e = error(f);
      assert.equal(e.code, code);
      assert.ok(REASONS.includes(e.details.reason), `${code} for ${String(bad)}: reason ${e.details.reason}`);
    }
  }
});

test("nextPage: a rejection whose reason or continue has a lone surrogate is a PagerError and leaves nothing unanswered", async () => {
  for (const options of [one, kube]) {
    for (const failure of [{ status: 500, reason: "x\ud800" }, Object.assign(new Error("gone"), { status: 410, continue: "\udc00" })]) {
      const pager = new Pager(options);
      await assert.rejects(
        pager.nextPage(async () => {
          throw failure;
        }),
        (e) => e instanceof PagerError,
      );
      // Not NO_PROGRESS: the failed request was cleared, the same call is asked again.
      const source = helm();
      const page = await pager.nextPage(async (request) => source.answer(request));
      assert.deepEqual(names(page), ["a", "c"]);
      pager.free();
    }
  }
});

test("metadata.remainingItemCount as a string must be decimal digits: \"\", \" 5\", \"5e2\", \"0x10\", \"-0\" are INVALID_RESPONSE", () => {
  const feed = (remainingItemCount) => {
    const pager = new Pager(kube);
    const [request] = pager.nextRequests();
    try {
      return pager.feed(request.requestId, { items: [{ metadata: { name: "x" } }], metadata: { resourceVersion: "5", continue: "", remainingItemCount } });
    } catch (e) {
      assert.ok(e instanceof PagerError, String(e));
      return e.code;
    } finally {
      pager.free();
    }
  };
  for (const bad of ["", " 5", "5 ", "5e2", "0x10", "-0", "+5", "1.0", "Infinity"]) assert.equal(feed(bad), "INVALID_RESPONSE", JSON.stringify(bad));
  for (const good of ["0", "5", "9007199254740991", 5, 0, 5n]) assert.equal(feed(good), "accepted", String(good));
});
