// Reads a chunk response on the JS side, once per chunk, so that the boundary crosses into wasm
// with one string and one array of lengths instead of one call per field per item (no JSON: see
// `ChunkFields` in src/view.rs for the layout). Accepted shapes:
//  - Kubeapps GetAvailablePackageSummariesResponse / GetInstalledPackageSummariesResponse as JSON
//    (camelCase, default-valued fields omitted) or as @bufbuild/protobuf v1 message objects;
//  - a Kubernetes List (`items`, `metadata.continue`, `metadata.resourceVersion`,
//    `metadata.remainingItemCount`), whose items are Kubeapps summaries or Kubernetes objects
//    (`metadata.name`, `metadata.namespace`, `spec.displayName`, `spec.shortDescription`, `spec.categories`).
// Also builds pages and stats for the pager in one call each. Never throws: a value it cannot
// read gives `{ error }`. Keep the export line the file's last line (scripts/package.mjs rewrites
// it to CommonJS for the nodejs build).

const isObject = (v) => typeof v === "object" && v !== null;

// A lone surrogate would reach wasm as U+FFFD (the UTF-8 encoder replaces it): reject it instead.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const wellFormed =
  typeof String.prototype.isWellFormed === "function" ? (s) => s.isWellFormed() : (s) => !LONE_SURROGATE.test(s);

/**
 * The key fields of a chunk, packed: `parts` gets each field, `lens` its length (UTF-16 units),
 * per item `plugin, cluster, namespace, identifier, name, displayName, shortDescription`, then the
 * number of categories and each category. With `check`, each field must be well-formed text.
 */
class Keys {
  constructor(check) {
    this.check = check;
    this.parts = [];
    this.lens = [];
  }

  /** A string field: absent (undefined/null) reads as "", anything but a string is an error. */
  str(value, what) {
    if (value === undefined || value === null) value = "";
    else if (typeof value !== "string") throw new TypeError(`${what} must be a string, got ${typeof value}`);
    else if (this.check && !wellFormed(value)) throw new TypeError(`${what} is not well-formed text (a lone surrogate)`);
    this.parts.push(value);
    this.lens.push(value.length);
  }

  /** `categories`: absent reads as [], else an array of strings. */
  strings(value, what) {
    if (value === undefined || value === null) value = [];
    else if (!Array.isArray(value)) throw new TypeError(`${what} must be an array of strings`);
    const n = value.length;
    this.lens.push(n);
    for (let i = 0; i < n; i++) this.str(value[i], `${what}[${i}]`);
  }

  /** One item's key fields. */
  item(item, i) {
    const at = `items[${i}]`;
    if (!isObject(item)) throw new TypeError(`${at} must be an object`);
    const ref = item.availablePackageRef ?? item.installedPackageRef;
    if (isObject(ref)) {
      const context = isObject(ref.context) ? ref.context : {};
      const plugin = isObject(ref.plugin) ? ref.plugin : {};
      this.str(plugin.name, `${at}.ref.plugin.name`);
      this.str(context.cluster, `${at}.ref.context.cluster`);
      this.str(context.namespace, `${at}.ref.context.namespace`);
      this.str(ref.identifier, `${at}.ref.identifier`);
      this.str(item.name, `${at}.name`);
      this.str(item.displayName ?? item.pkgDisplayName, `${at}.displayName`);
      this.str(item.shortDescription, `${at}.shortDescription`);
      this.strings(item.categories, `${at}.categories`);
      return;
    }
    if (isObject(item.metadata)) {
      const meta = item.metadata;
      const spec = isObject(item.spec) ? item.spec : {};
      this.str("", "");
      this.str("", "");
      this.str(meta.namespace, `${at}.metadata.namespace`);
      this.str(meta.name, `${at}.metadata.name`);
      this.str(meta.name, `${at}.metadata.name`);
      this.str(spec.displayName, `${at}.spec.displayName`);
      this.str(spec.shortDescription, `${at}.spec.shortDescription`);
      this.strings(spec.categories, `${at}.spec.categories`);
      return;
    }
    throw new TypeError(`${at} has neither availablePackageRef, installedPackageRef nor metadata`);
  }

  /** Every item's key fields. */
  static of(items, check) {
    const keys = new Keys(check);
    for (let i = 0; i < items.length; i++) keys.item(items[i], i);
    return keys;
  }
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
  const n = typeof value === "bigint" ? Number(value) : typeof value === "string" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0) throw new TypeError(`${what} must be a non-negative integer`);
  return n;
}

/**
 * Reads a chunk response. Returns `{ items, text, lens, next, resourceVersion, remaining }` where
 * `text` is every item's key fields joined by "\0" and `lens` (a Uint32Array) their lengths, as
 * `ChunkFields` (src/view.rs) reads them; or `{ error }`.
 */
function readChunk(response) {
  try {
    if (!isObject(response) || Array.isArray(response)) throw new TypeError("the response must be an object");
    let items, next, resourceVersion = null, remaining = null;
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
      if (keys.length > 0 && !keys.some((k) => known.includes(k))) {
        throw new TypeError(`not a Kubeapps summaries response or a Kubernetes List (fields: ${keys.slice(0, 5).join(", ")})`);
      }
      items = response.availablePackageSummaries ?? response.installedPackageSummaries ?? [];
      if (!Array.isArray(items)) throw new TypeError("availablePackageSummaries must be an array");
      next = str(response.nextPageToken, "nextPageToken");
    }
    // Our own copy of the item list, read once now: pages are built from it later, so a transport
    // that reuses or clears its arrays, or a getter that throws later, cannot change a page.
    items = Array.prototype.slice.call(items);
    let keys = Keys.of(items, false);
    // One check for the whole chunk (the "\0"s keep one field's surrogate from pairing with the
    // next one's); only when it fails, read again checking each field, to name the one at fault.
    let text = keys.parts.join("\0");
    if (!wellFormed(text)) {
      keys = Keys.of(items, true);
      text = keys.parts.join("\0");
      if (!wellFormed(text)) throw new TypeError("the items' text is not well-formed (a lone surrogate)");
    }
    return { items, text, lens: new Uint32Array(keys.lens), next, resourceVersion, remaining };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * `PagerStats` from `counters` (a Float64Array): the totals' 7 counters, `itemsEmitted`, then 7 per
 * source, each as `requests, itemsScanned, filteredOut, duplicatesDropped, rescans, expiredRecoveries,
 * staleResponses`; `labels` names the sources.
 */
function makeStats(counters, labels) {
  const c = counters;
  const sources = new Array(labels.length);
  for (let s = 0, o = 8; s < labels.length; s++, o += 7) {
    sources[s] = {
      source: labels[s],
      requests: c[o],
      itemsScanned: c[o + 1],
      filteredOut: c[o + 2],
      duplicatesDropped: c[o + 3],
      rescans: c[o + 4],
      expiredRecoveries: c[o + 5],
      staleResponses: c[o + 6],
    };
  }
  return {
    requests: c[0],
    itemsScanned: c[1],
    filteredOut: c[2],
    duplicatesDropped: c[3],
    rescans: c[4],
    expiredRecoveries: c[5],
    staleResponses: c[6],
    itemsEmitted: c[7],
    sources,
  };
}

/**
 * A page, in one call: item k is `chunks[which[k]][indices[k]]` (the very objects fed); `flags` has
 * bit 0 `done`, bit 1 `inconsistent`, bit 2 `truncated`; `counters` as for `makeStats`.
 */
function makePage(chunks, which, indices, token, flags, counters, labels) {
  const items = new Array(indices.length);
  for (let k = 0; k < indices.length; k++) items[k] = chunks[which[k]][indices[k]];
  return {
    items,
    nextPageToken: token,
    done: (flags & 1) !== 0,
    inconsistent: (flags & 2) !== 0,
    truncated: (flags & 4) !== 0,
    stats: makeStats(counters, labels),
  };
}

export { readChunk, makePage, makeStats };
