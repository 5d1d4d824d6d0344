// The pager module's JS input readers (src/wasm/inputs.js: `readOptions`, the fetchers' options,
// `readFailure`), read straight from the source: what they accept and read, against the serde
// shapes the boundary once had (the oracle corpus tests/golden/js_inputs_oracle.json, checked
// against serde by `js_input_oracle_is_what_the_serde_shapes_read` in src/wasm/view/tests.rs), and
// what they refuse, naming the member at fault. Through the package: that the wasm reads what
// they pack.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { readOptions as readOptionsIn, readFailure as readFailureIn } from "../../src/wasm/inputs.js";
import { PagerError } from "../../src/wasm/errors.js";
import { pkg, codec } from "./support/package.mjs";

// The fetchers' options are read by driver.js too, but their requests are the wasm's
// (src/wasm/fetch.rs): taken from the package, where the wasm is loaded.
const { kubeappsFetcher, kubernetesListFetcher } = pkg;

// The orders the core hands inputs.js (src/wasm/view.rs: `OPTIONS_ORDER`, `FAILURE_ORDER`), read
// from its source, as the wasm passes them.
const viewRs = readFileSync(new URL("../../src/wasm/view.rs", import.meta.url), "utf8");
const orderIn = (name) => viewRs.match(new RegExp(`pub const ${name}: &str = "([^"]*)";`))[1];
const readOptions = (value) => readOptionsIn(value, orderIn("OPTIONS_ORDER"));
const readFailure = (failure, source) => readFailureIn(failure, source, orderIn("FAILURE_ORDER"));

const oracle = JSON.parse(readFileSync(new URL("../golden/js_inputs_oracle.json", import.meta.url), "utf8"));

// `variants` of src/wasm/view/tests.rs: each scalar or key swapped for each of SWAPS, each member dropped.
const SWAPS = [
  "null", "true", "0", "-1", "1.5", "4294967295", "4294967296", "1e+21", '""', '"x"', '"name"', '"none"',
  '"kubernetes"', '"displayName"', '"100"', "[]", '["a"]', "{}", '{"x":1}', '"00ff1234abcd0001"',
  '"00FF1234ABCD0001"', "9223372036854775807", "9223372036854775808", "", ",", "}",
];

function variants(text) {
  const out = [text];
  const spans = [];
  for (let i = 0; i < text.length; ) {
    const start = i;
    const c = text[i];
    if (c === '"') {
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
      i++;
    } else if (c === "-" || (c >= "0" && c <= "9") || (c >= "a" && c <= "z")) {
      while (i < text.length && !",]}:".includes(text[i])) i++;
    } else {
      i++;
      continue;
    }
    spans.push([start, Math.min(i, text.length)]);
  }
  for (const [a, b] of spans) {
    for (const swap of SWAPS) out.push(text.slice(0, a) + swap + text.slice(b));
    if (text.startsWith(":", b)) {
      const found = text.slice(b).search(/[,}]/);
      let end = found < 0 ? text.length : b + found;
      if (text.startsWith(",", end)) end++;
      out.push(text.slice(0, a) + text.slice(end));
    }
  }
  return out;
}

/** The corpus of one reader: each JSON variant's value and what the serde shapes read of it. */
function corpus(name) {
  const { bases, count, expected, index } = oracle[name];
  const values = [];
  for (const base of bases) {
    for (const text of variants(base)) {
      try {
        values.push([text, JSON.parse(text)]);
      } catch {}
    }
  }
  assert.equal(values.length, count, `${name}: the variants of src/wasm/view/tests.rs`);
  return values.map(([text, value], i) => [text, value, expected[index[i]]]);
}

/** What `unpack_options` (src/wasm/view.rs) makes of `readOptions`' string, as the oracle writes it. */
function unpack(packed) {
  let at = 0;
  const num = () => packed.charCodeAt(at++) + packed.charCodeAt(at++) * 32768 + packed.charCodeAt(at++) * 2 ** 30;
  const str = () => {
    const n = num();
    return packed.slice(at, (at += n));
  };
  const or = (fallback) => {
    const n = num();
    return n === 0 ? fallback : n - 1;
  };
  const strings = () => Array.from({ length: num() }, str);
  // Members added after the oracle was written (a source's `filter`, the filter's versions)
  // appear only when given: the oracle's bases give none of them.
  const sources = Array.from({ length: num() }, () => {
    const s = {
      plugin: str(),
      cluster: str(),
      namespace: str(),
      kind: ["kubeapps", "kubernetes", "kubeapps", "unordered"][num()],
      order: [null, "name", "none"][num()],
    };
    const side = [null, "source", "pager"][num()];
    if (side !== null) s.filter = side;
    return s;
  });
  const options = { sources, pageSize: or(20), chunkLimit: or(500), sort: num() === 2 ? "displayName" : "name" };
  options.filter = { query: str(), categories: strings(), repositories: strings(), plugins: strings() };
  for (const key of ["pkgVersion", "appVersion"]) {
    const v = str();
    if (v !== "") options.filter[key] = v;
  }
  options.maxSourceItems = or(10000);
  options.maxChunksWithoutProgress = or(256);
  // `collation` (issue 16): 1 + the locale's index in `Collation::ALL`, 0 when not given.
  const locale = or(null);
  if (locale !== null) options.collation = { locale: ["root", "en"][locale] };
  assert.equal(at, packed.length, "read to the end");
  return options;
}

/** `f()`, or null for an INVALID_OPTIONS PagerError (any other throw fails). */
function orNull(f) {
  try {
    return f();
  } catch (e) {
    assert.ok(e instanceof PagerError, String(e));
    assert.equal(e.code, "INVALID_OPTIONS", e.message);
    assert.equal(e.message, `invalid options: ${e.details.field}: ${e.message.slice(`invalid options: ${e.details.field}: `.length)}`);
    return null;
  }
}

test("readOptions reads what the serde shapes read, for hundreds of near-valid options", () => {
  let accepted = 0;
  const cases = corpus("options");
  for (const [text, value, want] of cases) {
    const got = orNull(() => unpack(readOptions(value)));
    assert.deepEqual(got, want, text);
    if (got !== null) accepted++;
  }
  assert.ok(cases.length > 700 && accepted > 100, `${accepted} of ${cases.length}`);
});

/** What a fetcher sends for one request: its URL and headers, through a stand-in `fetch`. */
async function sent(fetchChunk, request) {
  const real = globalThis.fetch;
  let seen;
  globalThis.fetch = async (url, init) => {
    seen = { url, headers: [...init.headers] };
    return new Response("{}");
  };
  try {
    await fetchChunk(request, {});
  } finally {
    globalThis.fetch = real;
  }
  return seen;
}

/** The headers as `new Headers()` holds them, or null when it refuses them. */
function platformHeaders(pairs) {
  try {
    const h = new Headers([["Accept", "application/json"]]);
    for (const [k, v] of pairs) h.append(k, v);
    return [...h];
  } catch {
    return null;
  }
}

test("the fetchers read their options as the serde shapes read them", async () => {
  const enc = encodeURIComponent;
  const request = { source: { plugin: "helm.packages", cluster: "", namespace: "" }, pageToken: "", limit: 7 };
  for (const [name, make] of [["kubeappsFetcher", kubeappsFetcher], ["kubernetesListFetcher", kubernetesListFetcher]]) {
    let accepted = 0;
    for (const [text, value, want] of corpus(name)) {
      const fetchChunk = orNull(() => make(value));
      // Besides the shape: headers that `new Headers()` refuses, a query or fragment in the URL.
      const headers = want && platformHeaders(want.headers);
      const url = want && (name === "kubeappsFetcher" ? !/[?#]/.test(want.url) : !want.url.includes("#"));
      if (!headers || !url) {
        assert.equal(fetchChunk, null, text);
        continue;
      }
      accepted++;
      const base = want.url.replace(/\/+$/, "");
      const expected =
        name === "kubeappsFetcher"
          ? `${base}/plugins/helm/packages/v1alpha1/availablepackages?context.cluster=${enc(want.cluster)}&context.namespace=${enc(want.namespace)}&paginationOptions.pageSize=7`
          : `${want.url}${want.url.includes("?") ? "&" : "?"}limit=7`;
      assert.deepEqual(await sent(fetchChunk, request), { url: expected, headers }, text);
    }
    assert.ok(accepted > 20, `${name}: ${accepted}`);
  }
});

/** The INVALID_OPTIONS error of `f()`: its field and message. */
function refusal(f) {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof PagerError, String(e));
    assert.equal(e.code, "INVALID_OPTIONS");
    assert.ok(e.message.startsWith(`invalid options: ${e.details.field}: `), e.message);
    return [e.details.field, e.message.slice(`invalid options: ${e.details.field}: `.length)];
  }
  assert.fail("expected INVALID_OPTIONS");
}

test("readOptions names the member at fault, and says what it expected", () => {
  const sources = [{ plugin: "p" }];
  const cyclic = { sources };
  cyclic.self = cyclic;
  for (const [value, field, says] of [
    [undefined, "options", "missing (new Pager(options) and Pager.resume(token, options) both take them)"],
    [null, "options", "expected an object, found null"],
    ["x", "options", "expected an object, found a string"],
    [[], "options", "expected an object, found an array"],
    [{}, "sources", "missing (required)"],
    [{ sources: {} }, "sources", "expected an array, found an object"],
    [{ sources: [null] }, "sources[0]", "expected an object, found null"],
    [{ sources: [{}] }, "sources[0].plugin", "missing (required)"],
    [{ sources: [{ plugin: "p", cluster: null }] }, "sources[0].cluster", "expected a string, found null"],
    [{ sources: [{ plugin: "p", kind: 1 }] }, "sources[0].kind", "expected a string, found a number"],
    [{ sources: [{ plugin: "p", kind: "k8s" }] }, "sources[0].kind", 'expected one of "kubernetes", "kubeapps", "unordered"'],
    [{ sources: [{ plugin: "p" }, { plugin: "q", order: "Name" }] }, "sources[1].order", 'expected one of "name", "none"'],
    [{ sources: [{ plugin: "p", Kind: "kubeapps" }] }, "sources[0].Kind", "unknown field"],
    [{ sources, pageSize: "5" }, "pageSize", "expected a whole number, found a string"],
    [{ sources, pageSize: 1.5 }, "pageSize", "expected a whole number from 0 to 4294967295"],
    [{ sources, pageSize: -1 }, "pageSize", "expected a whole number from 0 to 4294967295"],
    [{ sources, chunkLimit: 2 ** 32 }, "chunkLimit", "expected a whole number from 0 to 4294967295"],
    // What JSON would not keep as it is (drop, write as null or as `{}`) names its member too.
    [{ sources, pageSize: 10n }, "pageSize", "expected JSON data, found a bigint"],
    [{ sources, pageSize: NaN }, "pageSize", "expected JSON data, found NaN"],
    [{ sources: [{ plugin: "p" }, { plugin: "q", kind: -Infinity }] }, "sources[1].kind", "expected JSON data, found -Infinity"],
    [{ sources, pageSize: () => 5 }, "pageSize", "expected JSON data, found a function"],
    [{ sources: [{ plugin: "p", cluster: Symbol("c") }] }, "sources[0].cluster", "expected JSON data, found a symbol"],
    [{ sources, filter: { categories: ["a", Symbol("c")] } }, "filter.categories[1]", "expected JSON data, found a symbol"],
    [{ sources, filter: new Map([["query", "x"]]) }, "filter", "expected JSON data, found a Map"],
    [{ sources, filter: (function () { return arguments; })("x") }, "filter", "expected JSON data, found an Arguments"],
    [{ sources, filter: { plugins: new Set(["p"]) } }, "filter.plugins", "expected JSON data, found a Set"],
    [{ sources, filter: { query: { toJSON: () => NaN } } }, "filter.query", "expected JSON data, found NaN"],
    [() => ({ sources }), "options", "expected JSON data, found a function"],
    [{ sources, filter: [] }, "filter", "expected an object, found an array"],
    [{ sources, filter: { query: null } }, "filter.query", "expected a string, found null"],
    [{ sources, filter: { plugins: ["a", 1] } }, "filter.plugins[1]", "expected a string, found a number"],
    [{ sources, filter: { categories: ["\ud800"] } }, "filter.categories[0]", "not well-formed text (a lone surrogate)"],
    [{ sources: [{ plugin: "a\udfffb" }] }, "sources[0].plugin", "not well-formed text (a lone surrogate)"],
    [JSON.parse('{"sources":[{"plugin":"p"}],"__proto__":{}}'), "__proto__", "unknown field"],
    [{ sources, constructor: {} }, "constructor", "unknown field"],
    [{ get sources() { throw new Error("getter"); } }, "options", "getter"],
    [{ get sources() { throw Object.create(null); } }, "options", "a value that cannot be read"],
    [{ sources, self: cyclic }, "options", "Converting circular structure to JSON"],
    [new Proxy({ sources, extra: 1 }, {}), "extra", "unknown field"],
  ]) {
    const [gotField, gotSays] = refusal(() => readOptions(value));
    assert.equal(gotField, field, `${gotField}: ${gotSays}`);
    assert.ok(gotSays.startsWith(says), `${field}: ${gotSays}`);
  }
});

test("inputs longer than 1 MiB of JSON are INVALID_OPTIONS (100 million empty categories exhausted the wasm's memory: a trap)", () => {
  const sources = [{ plugin: "p" }];
  const overhead = JSON.stringify({ sources, filter: { query: "" } }).length;
  const query = "q".repeat(2 ** 20 - overhead);
  assert.equal(unpack(readOptions({ sources, filter: { query } })).filter.query, query);
  for (const value of [{ sources, filter: { query: query + "q" } }, { sources, filter: { categories: Array(400000).fill("") } }]) {
    assert.deepEqual(refusal(() => readOptions(value)), ["options", "more than 1048576 characters as JSON"]);
    assert.throws(() => new pkg.Pager(value), (e) => e instanceof PagerError && e.code === "INVALID_OPTIONS" && e.details.field === "options");
  }
  assert.equal(refusal(() => kubernetesListFetcher({ url: "/", headers: { a: "x".repeat(2 ** 20) } }))[0], "options");
});

test("readOptions: null is not given where the shape allows it; JSON's reading of values otherwise", () => {
  const sources = [{ plugin: "p" }];
  const defaults = unpack(readOptions({ sources }));
  const nulls = { sources: [{ plugin: "p", kind: null, order: null }], pageSize: null, chunkLimit: null, sort: null, filter: null, maxSourceItems: null, maxChunksWithoutProgress: null, collation: null };
  assert.deepEqual(unpack(readOptions(nulls)), defaults);
  // A collation: `{}` is the root locale's.
  assert.deepEqual(unpack(readOptions({ sources, collation: {} })).collation, { locale: "root" });
  assert.deepEqual(unpack(readOptions({ sources, collation: { locale: "en" } })).collation, { locale: "en" });
  // undefined members are not there; toJSON, getters and Proxies are read as JSON.stringify reads them.
  assert.deepEqual(unpack(readOptions({ sources, pageSize: undefined, filter: { query: undefined } })), defaults);
  const read = unpack(
    readOptions(
      new Proxy({ sources: [{ get plugin() { return "g"; } }], filter: { query: { toJSON: () => "q" }, categories: [new String("c")] }, sort: "displayName" }, {}),
    ),
  );
  assert.equal(read.sources[0].plugin, "g");
  assert.deepEqual(read.filter, { query: "q", categories: ["c"], repositories: [], plugins: [] });
  assert.equal(read.sort, "displayName");
  // Every number from 0 to 2^32 - 1 packs and reads back, strings of any text too.
  for (const n of [0, 1, 32767, 32768, 2 ** 30 - 1, 2 ** 30, 2 ** 32 - 1]) {
    assert.equal(unpack(readOptions({ sources, maxSourceItems: n })).maxSourceItems, n);
  }
  const text = "\u0000é😀\uffff" + "x".repeat(70000);
  assert.equal(unpack(readOptions({ sources: [{ plugin: text, namespace: "\u0000" }] })).sources[0].plugin, text);
});

test("the fetchers' options: the member at fault, headers sorted by name", async () => {
  for (const [make, value, field, says] of [
    [kubeappsFetcher, {}, "baseUrl", "missing (required)"],
    [kubeappsFetcher, { baseUrl: "/", context: { cluster: 1 } }, "context.cluster", "expected a string, found a number"],
    [kubeappsFetcher, { baseUrl: "/", context: { ns: "" } }, "context.ns", "unknown field"],
    [kubeappsFetcher, { baseUrl: "/", headers: { a: 1 } }, "headers.a", "expected a string, found a number"],
    [kubeappsFetcher, { baseUrl: "/", headers: { a: "\ud800" } }, "headers.a", "not well-formed text (a lone surrogate)"],
    [kubernetesListFetcher, { url: "/", headers: [] }, "headers", "expected an object, found an array"],
    [kubernetesListFetcher, { url: null }, "url", "expected a string, found null"],
    [kubernetesListFetcher, { url: "/", context: {} }, "context", "unknown field"],
    // JSON writes these as `{}`: the headers would be lost without a word.
    [kubeappsFetcher, { baseUrl: "/", headers: new Headers({ Authorization: "Bearer t" }) }, "headers", "expected JSON data, found a Headers"],
    [kubernetesListFetcher, { url: "/", headers: new Map([["Authorization", "Bearer t"]]) }, "headers", "expected JSON data, found a Map"],
    [kubernetesListFetcher, { url: "/", headers: { a: NaN } }, "headers.a", "expected JSON data, found NaN"],
    [kubernetesListFetcher, { url: "/", headers: { a: () => "x" } }, "headers.a", "expected JSON data, found a function"],
  ]) {
    const [gotField, gotSays] = refusal(() => make(value));
    assert.equal(gotField, field, gotSays);
    assert.ok(gotSays.startsWith(says), gotSays);
  }
  const fetchChunk = kubernetesListFetcher({ url: "/l", headers: { b: "2", B: "1", a: "3" } });
  const { headers } = await sent(fetchChunk, { pageToken: "", limit: 1 });
  // Sorted by name before they are appended: "B" then "b" (one header, "1, 2"), then "a".
  assert.deepEqual(headers, [["a", "3"], ["accept", "application/json"], ["b", "1, 2"]]);
});

test("readFailure: status, reason and continue, as Pager.fail reads them", () => {
  const read = (failure) => {
    const p = readFailure(failure);
    let at = 0;
    const num = () => p.charCodeAt(at++) + p.charCodeAt(at++) * 32768 + p.charCodeAt(at++) * 2 ** 30;
    const text = () => {
      if (num() !== 1) return null;
      const n = num();
      return p.slice(at, (at += n));
    };
    const out = { status: num(), reason: text(), continue: text() };
    assert.equal(at, p.length);
    return out;
  };
  assert.deepEqual(read({ status: 410, reason: "Expired", continue: "c" }), { status: 410, reason: "Expired", continue: "c" });
  // A status that is no HTTP status (not an integer from 0 to 599) is refused; none at all is 0.
  for (const status of [503.9, -1, 600, 1000, NaN, Infinity, 1e20, "410", 5n, {}]) {
    assert.throws(
      () => readFailure({ status }, "s"),
      (e) => e instanceof PagerError && e.code === "INVALID_RESPONSE" && e.details.field === "status" && e.details.source === "s",
      String(status),
    );
  }
  for (const status of [undefined, null]) assert.equal(read({ status }).status, 0);
  assert.equal(read({ status: 599 }).status, 599);
  // A built-in fetcher's PagerError carries them in `details`; its own members come first.
  assert.deepEqual(read({ details: { status: 410, reason: "Expired", continue: "d" } }), { status: 410, reason: "Expired", continue: "d" });
  assert.deepEqual(read({ status: 500, details: { status: 410, reason: "x" } }), { status: 500, reason: "x", continue: null });
  // Anything else reads as nothing: primitives, throwing getters, non-strings.
  for (const value of [null, undefined, 5, "410", { get status() { throw new Error(); }, reason: 1 }]) {
    assert.deepEqual(read(value), { status: 0, reason: null, continue: null });
  }
  assert.deepEqual(read({ status: 410, continue: "" }), { status: 410, reason: null, continue: "" });
  for (const key of ["reason", "continue"]) {
    assert.throws(
      () => readFailure({ status: 410, [key]: "a\ud800" }),
      (e) => e instanceof PagerError && e.code === "INVALID_RESPONSE" && e.message.includes(`failure's ${key}`),
    );
  }
});

test("the pager reads what readOptions packs: each option changes the pager as documented", () => {
  const { Pager } = pkg;
  const state = (options) => {
    const pager = new Pager(options);
    try {
      return codec.decodePageToken(pager.pageToken());
    } finally {
      pager.free();
    }
  };
  const sources = [{ plugin: "helm.packages", cluster: "c", namespace: "n" }, { plugin: "flux", kind: "kubernetes" }];
  const base = state({ sources });
  assert.equal(base.pageSize, 20);
  assert.deepEqual(
    base.sources.map((s) => [s.plugin, s.cluster, s.namespace]),
    [["helm.packages", "c", "n"], ["flux", "", ""]],
  );
  assert.equal(state({ sources, pageSize: 7 }).pageSize, 7);
  // The fingerprint covers the sort order, the filter and the sources (kind and order included):
  // the defaults given explicitly (or as null) are the defaults, anything else is not.
  const same = [
    { sources, sort: "name", filter: { query: "", categories: [] }, pageSize: null },
    { sources: [{ ...sources[0], kind: "kubeapps", order: null }, sources[1]], filter: null },
    // A kubernetes source over all namespaces is read whole by default (its order is "none").
    { sources: [sources[0], { ...sources[1], order: "none" }] },
  ];
  for (const options of same) assert.equal(state(options).fingerprint, base.fingerprint, JSON.stringify(options));
  const differs = [
    { sources, sort: "displayName" },
    { sources, filter: { query: "sql" } },
    { sources, filter: { categories: ["Database"] } },
    { sources, filter: { repositories: ["bitnami"] } },
    { sources, filter: { plugins: ["flux"] } },
    { sources: [{ ...sources[0], kind: "unordered" }, sources[1]] },
    { sources: [{ ...sources[0], order: "none" }, sources[1]] },
    { sources: [{ ...sources[0], kind: "kubernetes" }, sources[1]] },
    { sources: [sources[0], { ...sources[1], order: "name" }] },
  ];
  const prints = new Set([base.fingerprint, ...differs.map((o) => state(o).fingerprint)]);
  assert.equal(prints.size, differs.length + 1);
  // Validation stays the core's, naming the field.
  for (const [options, field] of [
    [{ sources, chunkLimit: 0 }, "chunkLimit"],
    [{ sources, maxSourceItems: 0 }, "maxSourceItems"],
    [{ sources, maxChunksWithoutProgress: 0 }, "maxChunksWithoutProgress"],
    [{ sources, pageSize: 10001 }, "pageSize"],
    [{ sources: [{ plugin: "" }] }, "sources[0].plugin"],
    [{ sources: [sources[0], sources[0]] }, "sources[1]"],
    [{ sources: Array.from({ length: 65 }, (_, i) => ({ plugin: "helm.packages", namespace: `ns-${i}` })) }, "sources"],
  ]) {
    assert.equal(refusal(() => new Pager(options))[0], field);
  }
});
