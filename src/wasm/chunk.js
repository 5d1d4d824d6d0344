// Reads a chunk response on the JS side, once per chunk, so that the boundary crosses into wasm
// with one string instead of one call per field per item. Accepted shapes:
//  - Kubeapps GetAvailablePackageSummariesResponse / GetInstalledPackageSummariesResponse as JSON
//    (camelCase, default-valued fields omitted) or as @bufbuild/protobuf v1 message objects;
//  - a Kubernetes List (`items`, `metadata.continue`, `metadata.resourceVersion`,
//    `metadata.remainingItemCount`), whose items are Kubeapps summaries or Kubernetes objects
//    (`metadata.name`, `metadata.namespace`, `spec.displayName`, `spec.shortDescription`, `spec.categories`).
// Never throws: a value it cannot read gives `{ error }`. Keep the export line the file's last line
// (scripts/package.mjs rewrites it to CommonJS for the nodejs build).

const isObject = (v) => typeof v === "object" && v !== null;

/** A string field: absent (undefined/null) reads as "", anything but a string is an error. */
function str(value, what) {
  if (value === undefined || value === null) return "";
  if (typeof value !== "string") throw new TypeError(`${what} must be a string, got ${typeof value}`);
  return value;
}

/** `categories`: absent reads as [], else an array of strings. */
function strings(value, what) {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new TypeError(`${what} must be an array of strings`);
  return value.map((v, i) => str(v, `${what}[${i}]`));
}

/** The key fields of one item as a tuple: [plugin, cluster, namespace, identifier, name, displayName, shortDescription, categories]. */
function itemKey(item, i) {
  const at = `items[${i}]`;
  if (!isObject(item)) throw new TypeError(`${at} must be an object`);
  const ref = item.availablePackageRef ?? item.installedPackageRef;
  if (isObject(ref)) {
    const context = isObject(ref.context) ? ref.context : {};
    const plugin = isObject(ref.plugin) ? ref.plugin : {};
    const name = str(item.name, `${at}.name`);
    const display = str(item.displayName ?? item.pkgDisplayName, `${at}.displayName`);
    return [
      str(plugin.name, `${at}.ref.plugin.name`),
      str(context.cluster, `${at}.ref.context.cluster`),
      str(context.namespace, `${at}.ref.context.namespace`),
      str(ref.identifier, `${at}.ref.identifier`),
      name,
      display,
      str(item.shortDescription, `${at}.shortDescription`),
      strings(item.categories, `${at}.categories`),
    ];
  }
  if (isObject(item.metadata)) {
    const meta = item.metadata;
    const spec = isObject(item.spec) ? item.spec : {};
    const name = str(meta.name, `${at}.metadata.name`);
    return [
      "",
      "",
      str(meta.namespace, `${at}.metadata.namespace`),
      name,
      name,
      str(spec.displayName, `${at}.spec.displayName`),
      str(spec.shortDescription, `${at}.spec.shortDescription`),
      strings(spec.categories, `${at}.spec.categories`),
    ];
  }
  throw new TypeError(`${at} has neither availablePackageRef, installedPackageRef nor metadata`);
}

/** An optional count: a number, a decimal string (proto int64 as JSON) or a bigint (protobuf-es). */
function count(value, what) {
  if (value === undefined || value === null) return null;
  const n = typeof value === "bigint" ? Number(value) : typeof value === "string" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0) throw new TypeError(`${what} must be a non-negative integer`);
  return n;
}

/**
 * Reads a chunk response. Returns `{ items, keys, next, resourceVersion, remaining }` where `keys` is
 * the JSON text of one key tuple per item, or `{ error }`.
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
    const keys = new Array(items.length);
    for (let i = 0; i < items.length; i++) keys[i] = itemKey(items[i], i);
    return { items, keys: JSON.stringify(keys), next, resourceVersion, remaining };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

/** Builds a page's items: item k is `chunks[which[k]][indices[k]]` (one call per page, not per item). */
function pickItems(chunks, which, indices) {
  const out = new Array(indices.length);
  for (let k = 0; k < indices.length; k++) out[k] = chunks[which[k]][indices[k]];
  return out;
}

export { readChunk, pickItems };
