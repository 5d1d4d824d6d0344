// Reads a chunk response on the JS side, once per chunk, so that the boundary crosses into wasm
// with one string and one array of lengths instead of one call per field per item (no JSON: see
// `ChunkFields` in src/wasm/view.rs for the layout). Accepted shapes:
//  - Kubeapps GetAvailablePackageSummariesResponse / GetInstalledPackageSummariesResponse as JSON
//    (camelCase, default-valued fields omitted) or as @bufbuild/protobuf v1 message objects;
//  - a Kubernetes List (`items`, `metadata.continue`, `metadata.resourceVersion`,
//    `metadata.remainingItemCount`), whose items are Kubeapps summaries or Kubernetes objects
//    (`metadata.name`, `metadata.namespace`; `spec.displayName`, `spec.shortDescription` and
//    `spec.categories` when they are a string, a string and an array of strings: any resource).
// Also builds pages and stats for the pager in one call each. Never throws but for a custom
// predicate's `PREDICATE_FAILED` (readChunk, caught by the wasm): a value it cannot read gives its
// message. Keep the import and export lines as they are: scripts/package.mjs
// rewrites them to CommonJS for the nodejs build (the export line the file's last line).

import { describe, isObject, wellFormed } from "./json.js";
import { verdictsOf, isPredicateFailure } from "./predicate.js";

/** `need` bits (src/wasm/pager.rs `fields_read`): the optional key fields the core reads. */
const DISPLAY_NAME = 1, SHORT_DESCRIPTION = 2, CATEGORIES = 4, EVERY_FIELD = 7;

/**
 * The key fields of a chunk's items, packed: `text` gets each field followed by "\0" (the last
 * "\0" left off), `lens` its length (UTF-16 units), per item `plugin, cluster, namespace,
 * identifier, name, displayName, shortDescription`, then the number of categories and each
 * category. A field absent (undefined/null) reads as "" (as []: categories); anything but a string
 * (an array of strings, without holes) is an error naming `items[i].field`, built only then. A
 * field `need` leaves out (the core does not read it for this source) goes as "" (categories: none)
 * and is checked all the same: `ok` says whether every such field is well-formed text. With
 * `check`, each field must be well-formed text.
 */
function packKeys(items, check, need) {
  let text = "", ok = true;
  const lens = [];
  const fail = (value, i, field, k) => {
    const what = `items[${i}].${field}${k === undefined ? "" : `[${k}]`}`;
    throw new TypeError(
      typeof value !== "string" ? `${what} must be a string, got ${typeof value}` : `${what} is not well-formed text (a lone surrogate)`,
    );
  };
  const str = (value, i, field, k) => {
    // A missing field reads as "", a missing category (a hole: a sparse array of length 2^32 - 1
    // would be read hole by hole, out of memory) is an error.
    if (value == null && k === undefined) value = "";
    else if (typeof value !== "string" || (check && !wellFormed(value))) fail(value, i, field, k);
    text += value + "\0";
    lens.push(value.length);
  };
  // A field left out: checked as `str` checks it, sent as "".
  const skip = (value, i, field, k) => {
    if (value != null || k !== undefined) {
      if (typeof value !== "string") fail(value, i, field, k);
      ok = ok && wellFormed(value);
    }
    text += "\0";
    lens.push(0);
  };
  const display = need & DISPLAY_NAME ? str : skip;
  const description = need & SHORT_DESCRIPTION ? str : skip;
  const categoriesRead = (need & CATEGORIES) !== 0;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (!isObject(item)) throw new TypeError(`items[${i}] must be an object`);
    const ref = item.availablePackageRef ?? item.installedPackageRef;
    let categories, field;
    if (isObject(ref)) {
      const context = isObject(ref.context) ? ref.context : {};
      const plugin = isObject(ref.plugin) ? ref.plugin : {};
      str(plugin.name, i, "ref.plugin.name");
      str(context.cluster, i, "ref.context.cluster");
      str(context.namespace, i, "ref.context.namespace");
      str(ref.identifier, i, "ref.identifier");
      str(item.name, i, "name");
      display(item.displayName ?? item.pkgDisplayName, i, "displayName");
      description(item.shortDescription, i, "shortDescription");
      [categories, field] = [item.categories, "categories"];
    } else if (isObject(item.metadata)) {
      const meta = item.metadata;
      const spec = isObject(item.spec) ? item.spec : {};
      text += "\0\0";
      lens.push(0, 0);
      str(meta.namespace, i, "metadata.namespace");
      str(meta.name, i, "metadata.name");
      str(meta.name, i, "metadata.name");
      // Any resource's spec: its own `displayName`, `shortDescription` and `categories` (a
      // PackageMetadata's) are read when they have those types, and are absent otherwise (a
      // resource whose spec has fields of these names with other shapes is still a list item).
      const asText = (v) => (typeof v === "string" ? v : undefined);
      display(asText(spec.displayName), i, "spec.displayName");
      description(asText(spec.shortDescription), i, "spec.shortDescription");
      const cats = spec.categories;
      [categories, field] = [Array.isArray(cats) && cats.every((c) => typeof c === "string") ? cats : undefined, "spec.categories"];
    } else {
      throw new TypeError(`items[${i}] has neither availablePackageRef, installedPackageRef nor metadata`);
    }
    if (categories == null) categories = [];
    else if (!Array.isArray(categories)) throw new TypeError(`items[${i}].${field} must be an array of strings`);
    if (categoriesRead) {
      lens.push(categories.length);
      for (let k = 0; k < categories.length; k++) str(categories[k], i, field, k);
    } else {
      lens.push(0);
      for (let k = 0; k < categories.length; k++) {
        const c = categories[k];
        if (typeof c !== "string") fail(c, i, field, k);
        ok = ok && wellFormed(c);
      }
    }
  }
  return { text: text.slice(0, -1), lens, ok };
}

/** A string field that does not go to wasm as a key: absent reads as "". */
function str(value, what) {
  if (value === undefined || value === null) return "";
  if (typeof value !== "string") throw new TypeError(`${what} must be a string, got ${typeof value}`);
  return value;
}

/** An optional count: a number, a decimal string (proto int64 as JSON) or a bigint (protobuf-es). */
function count(value, what) {
  if (value === undefined || value === null) return null;
  // A string (an int64 in protobuf JSON) is decimal digits: `Number` would also read "" as 0, "5e2"
  // as 500, " 5", "0x10".
  const n = typeof value === "bigint" ? Number(value) : typeof value === "string" ? (/^[0-9]+$/.test(value) ? Number(value) : NaN) : value;
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0) throw new TypeError(`${what} must be a non-negative integer`);
  return n;
}

/**
 * What `readChunk` read last, for `copyChunk` (the wasm calls it right after, with no JS between):
 * `n` items, the `next` token, the `resourceVersion` ("" when none), `text` (every item's key
 * fields joined by "\0") and `lens` (their lengths), as `ChunkFields` (src/wasm/view.rs) reads them,
 * and the `remaining` item count (or null).
 */
let last;

/**
 * Reads a chunk response: returns our own copy of its items (an Array) and keeps what `copyChunk`
 * copies into wasm memory; or the message (a string) of why it cannot be read. `judges[index]`,
 * when there is one (predicate.js `makeJudges`), judges each item with the custom predicate once
 * the response is read (its verdicts go with the key fields); its `PREDICATE_FAILED` is thrown.
 * `need`: the optional key fields the core reads for this source (`packKeys`; all when absent).
 */
function readChunk(response, judges, index, need = EVERY_FIELD) {
  try {
    if (!isObject(response) || Array.isArray(response)) throw new TypeError("the response must be an object");
    let items, next, categories, resourceVersion = null, remaining = null;
    if ("items" in response || "metadata" in response) {
      if (!Array.isArray(response.items)) throw new TypeError("items must be an array (a Kubernetes List)");
      const meta = isObject(response.metadata) ? response.metadata : {};
      items = response.items;
      next = str(meta.continue, "metadata.continue");
      resourceVersion = str(meta.resourceVersion, "metadata.resourceVersion") || null;
      remaining = count(meta.remainingItemCount, "metadata.remainingItemCount");
    } else {
      // A Kubeapps response omits fields at their default value, so `{}` is an empty, final page;
      // an object with none of its fields but others (a gRPC or Kubernetes Status from a proxy,
      // an error body) is not one.
      const known = ["availablePackageSummaries", "installedPackageSummaries", "nextPageToken", "categories"];
      const keys = Object.keys(response);
      // A fetch `Response` (or any class instance) has no own fields and would read as `{}`.
      if (typeof response.json === "function" || typeof response.then === "function") {
        throw new TypeError("a fetch Response or a promise, not its JSON: return `await response.json()` from fetchChunk");
      }
      const proto = Object.getPrototypeOf(response);
      if (keys.length === 0 && proto !== Object.prototype && proto !== null) {
        throw new TypeError(`not a Kubeapps summaries response or a Kubernetes List (an object of class ${proto.constructor?.name ?? "unknown"} with no fields)`);
      }
      if (keys.length > 0 && !keys.some((k) => known.includes(k))) {
        throw new TypeError(`not a Kubeapps summaries response or a Kubernetes List (fields: ${keys.slice(0, 5).join(", ")})`);
      }
      items = response.availablePackageSummaries ?? response.installedPackageSummaries ?? [];
      if (!Array.isArray(items)) throw new TypeError("availablePackageSummaries must be an array");
      next = str(response.nextPageToken, "nextPageToken");
      // The categories of the whole source (Kubeapps answers every category of the plugin's
      // packages in the namespace with each page), for a filter sidebar; omitted = none. An
      // installed-packages response has no such field: it reports nothing.
      if (response.installedPackageSummaries == null) {
        const list = response.categories ?? [];
        if (!Array.isArray(list)) throw new TypeError("categories must be an array of strings");
        categories = [];
        for (let k = 0, n = list.length; k < n; k++) {
          const c = list[k];
          if (typeof c !== "string" || !wellFormed(c)) throw new TypeError(`categories[${k}] must be well-formed text`);
          categories.push(c);
        }
      }
    }
    // These go to wasm as strings too: a lone surrogate would become U+FFFD, and the next request
    // would send (and the page token keep) another token than the server's.
    if (!wellFormed(`${next}\0${resourceVersion ?? ""}`)) {
      throw new TypeError("the next token or resourceVersion is not well-formed text (a lone surrogate)");
    }
    // Our own copy of the item list, read once now: pages are built from it later, so a transport
    // that reuses or clears its arrays, or a getter that throws later, cannot change a page. A
    // plain Array, filled by index: `slice` would let the array's `constructor[Symbol.species]`
    // make the copy (an object whose getters then run, and may throw, while a page is built).
    // An item that is not an object stops the copy at once (a sparse array of length 2^32 - 1
    // would otherwise be copied hole by hole: minutes, and out of memory).
    const list = items;
    items = [];
    for (let i = 0, n = list.length; i < n; i++) {
      const item = list[i]; // read once
      if (!isObject(item)) throw new TypeError(`items[${i}] must be an object`);
      items.push(item);
    }
    const keys = packKeys(items, false, need);
    // One check for the whole chunk (the "\0"s keep one field's surrogate from pairing with the
    // next one's); only when it fails, read again checking each field, to name the one at fault.
    const text = keys.text;
    if (!keys.ok || !wellFormed(text)) {
      packKeys(items, true, EVERY_FIELD); // throws, naming the field
      throw new TypeError("the items' text is not well-formed (a lone surrogate)");
    }
    // The predicate runs last (on a response that can be read) and before `last` is set: it is
    // the caller's code, and may read another chunk (feed another pager) meanwhile.
    const judge = judges?.[index];
    const verdicts = judge ? verdictsOf(items, judge) : null;
    last = { n: items.length, next, resourceVersion: resourceVersion ?? "", text, lens: keys.lens, remaining, categories, verdicts };
    return items;
  } catch (e) {
    if (isPredicateFailure(e)) throw e;
    return describe(e);
  }
}

/** Counter `k` of `counters`: u64s as (low, high) u32 pairs. */
const counter = (counters, k) => counters[2 * k] + counters[2 * k + 1] * 2 ** 32;

/** `into` with the counters named `names` from counter `at` on. */
function counted(into, counters, at, names) {
  for (let k = 0; k < names.length; k++) into[names[k]] = counter(counters, at + k);
  return into;
}

/**
 * `PagerStats` from `counters` (a Uint32Array, see `counter`; from u32 `at` on): the totals'
 * counters, `itemsEmitted`, then each source's counters, `streamed` (1 or 0) and estimates (each
 * 1 + it, 0: null); `labels` names the sources, `names` `{ counters, estimates }` in their order
 * (the core's `SourceStats::COUNTER_NAMES` and `SourceStats::ESTIMATE_NAMES`).
 */
function makeStats(counters, labels, { counters: names, estimates }, at = 0) {
  const c = at ? counters.subarray(at) : counters;
  const nc = names.length;
  const ne = estimates.length;
  const stats = counted({}, c, 0, names);
  stats.itemsEmitted = counter(c, nc);
  stats.sources = labels.map((source, s) => {
    const at = nc + 1 + (nc + 1 + ne) * s;
    const o = counted({ source }, c, at, names);
    o.streamed = counter(c, at + nc) === 1;
    for (let k = 0; k < ne; k++) {
      const v = counter(c, at + nc + 1 + k);
      o[estimates[k]] = v === 0 ? null : v - 1;
    }
    return o;
  });
  return stats;
}

/** A pager's labels array (one per pager, shared by its handles) → each source's last reported categories. */
const reported = new WeakMap();

/**
 * Keeps the categories of the chunk `readChunk` read last as source `index`'s (called by the wasm
 * once that chunk was accepted, so a refused or stale answer changes nothing); a chunk without
 * any (a Kubernetes List, installed packages) keeps what the source reported before.
 */
function keepCategories(labels, index) {
  if (last.categories === undefined) return;
  if (!reported.has(labels)) reported.set(labels, []);
  reported.get(labels)[index] = last.categories;
}

/** `categories` (every source's, merged: sorted by UTF-16 code units, each once) and `sourceCategories` (label → the source's own). */
function categoriesOf(labels) {
  const bySource = {};
  const all = new Set();
  (reported.get(labels) ?? []).forEach((list, s) => {
    bySource[labels[s]] = list.slice();
    for (const c of list) all.add(c);
  });
  return { categories: [...all].sort(), sourceCategories: bySource };
}

/** The item arrays of the page being built, in the order `pageChunk` gave them (its chunk slots). */
let chunks = [];

/** Adds the next chunk slot of the page being built (`makePage` takes them). */
function pageChunk(items) {
  chunks.push(items);
}

/**
 * A page, in one call. `data` (a Uint32Array): flags (bit k the flag `names.flags[k]`), the
 * item count n, n chunk slots (`pageChunk`), n indices,
 * then the counters (`makeStats`): item k is `chunks[slot k][index k]`, the very object fed;
 * `unreachable` the page's `UnreachableSource[]`. Without a `token`, the pager's `PagerStats` of
 * the counters in `data` instead. `names`: `{ flags, counters, estimates }`, the core's names of
 * the page's flags, counters and estimates (src/wasm/pager.rs: `PAGE_FLAGS`,
 * `SourceStats::COUNTER_NAMES`, `SourceStats::ESTIMATE_NAMES`).
 */
function makePage(data, token, labels, unreachable, names) {
  if (token === undefined) return makeStats(data, labels, names);
  const [flags, n] = data;
  const items = new Array(n);
  const slots = chunks;
  chunks = [];
  for (let k = 0; k < n; k++) items[k] = slots[data[2 + k]][data[2 + n + k]];
  const page = { items, nextPageToken: token };
  names.flags.forEach((name, k) => (page[name] = ((flags >> k) & 1) !== 0));
  page.unreachable = unreachable;
  page.stats = makeStats(data, labels, names, 2 + 2 * n);
  return Object.assign(page, categoriesOf(labels));
}

const encoder = new TextEncoder();

/**
 * Copies what `readChunk` read last into wasm memory (`bytes` and `lens` are views of it). `lens`
 * starts with a header of 8 u32s: this fills the first 6 (the item count, the UTF-16 units of the
 * next token, the resourceVersion and the key text together, the number of key lengths, whether
 * there is a `remaining` count, its low and high halves), then, when `lens` has room for them after
 * the header, the key lengths, then the predicate's verdicts (one per item, 1 or 0) when it judged
 * the chunk; `bytes` gets the next token, the resourceVersion and the key text as UTF-8, and the
 * header's last 2 u32s the bytes of the first two. Returns the bytes written, or -1 when the
 * lengths or the text do not fit (a call with a header alone reads the sizes).
 */
function copyChunk(bytes, lens) {
  const { n, next, resourceVersion, text, lens: keyLens, remaining, verdicts } = last;
  const r = remaining ?? 0;
  lens.set([n, next.length + resourceVersion.length + text.length, keyLens.length, remaining !== null, r % 4294967296, r / 4294967296]);
  if (lens.length !== 8 + keyLens.length + (verdicts ? n : 0)) return -1;
  lens.set(keyLens, 8);
  if (verdicts) lens.set(verdicts, 8 + keyLens.length);
  let at = 0;
  for (const [k, part] of [next, resourceVersion, text].entries()) {
    const { read, written } = encoder.encodeInto(part, bytes.subarray(at));
    if (read !== part.length) return -1;
    if (k < 2) lens[6 + k] = written;
    at += written;
  }
  return at;
}

export { readChunk, copyChunk, pageChunk, makePage, keepCategories };
