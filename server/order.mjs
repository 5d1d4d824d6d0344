// The pager's one total order, on the server side: UTF-8 byte comparison of JS
// strings and the two sort keys of docs/DESIGN.md "One total order".

/** Unicode version of Rust's `str::to_lowercase` in the toolchain the pager is built with
 * (rustc 1.95: `char::UNICODE_VERSION` = 17.0.0). Node answers `process.versions.unicode`. */
export const RUST_UNICODE_VERSION = "17.0";

// Maps a UTF-16 code unit so that unit order equals code point order: surrogates
// (supplementary planes) must sort above U+E000..U+FFFF, which UTF-16 puts after them.
function unitRank(u) {
  if (u < 0xd800) return u;
  if (u <= 0xdfff) return u + 0x2000;
  return u - 0x800;
}

/**
 * compareUtf8 orders two strings as their UTF-8 bytes compare (= Unicode code point
 * order), not as JS `<` does (UTF-16 code units). Returns <0, 0 or >0.
 */
export function compareUtf8(a, b) {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return unitRank(x) - unitRank(y);
  }
  return a.length - b.length;
}

/**
 * lowercase is the collation's case folding: Unicode's default, locale-independent full
 * lowercase mapping with the Final_Sigma rule, which is what both Rust's
 * `str::to_lowercase` and JS `String.prototype.toLowerCase` implement.
 *
 * They agree code point for code point when both use the same Unicode version
 * (measured: rustc 1.95 and Node 20.20 with ICU 78, both Unicode 17.0: all 1,114,112
 * scalar values and 200,000 random Final_Sigma contexts give identical output). They
 * differ where the versions differ: a Node built on an older ICU leaves unmapped the
 * capitals that later versions gave a lowercase, e.g. (Unicode 16.0) U+1C89 CYRILLIC
 * CAPITAL TJE, U+A7CB, U+A7CC, U+A7DA, U+A7DC and the Garay capitals U+10D50..U+10D65.
 * `collationWarning()` reports such a skew at startup.
 */
export function lowercase(s) {
  return s.toLowerCase();
}

/** A warning string when this Node's Unicode version is not the pager's, else null. */
export function collationWarning() {
  const v = process.versions.unicode ?? "unknown";
  if (v === RUST_UNICODE_VERSION || v.startsWith(`${RUST_UNICODE_VERSION}.`)) return null;
  return `Node's Unicode ${v} differs from the pager's ${RUST_UNICODE_VERSION}: ` +
    "displayName order of code points whose lowercase mapping changed between them may differ";
}

function compareIdentity(a, b) {
  return compareUtf8(a.plugin, b.plugin) ||
    compareUtf8(a.cluster, b.cluster) ||
    compareUtf8(a.namespace, b.namespace) ||
    compareUtf8(a.identifier, b.identifier);
}

/** Total order by `name`: (name, plugin, cluster, namespace, identifier), all byte order. */
export function compareByName(a, b) {
  return compareUtf8(a.name, b.name) || compareIdentity(a, b);
}

/**
 * Total order by `displayName`: (lowercase(d), d, plugin, cluster, namespace, identifier)
 * where d is the displayName, or the name when the displayName is empty.
 */
export function compareByDisplayName(a, b) {
  const da = a.displayName || a.name;
  const db = b.displayName || b.name;
  return compareUtf8(lowercase(da), lowercase(db)) || compareUtf8(da, db) || compareIdentity(a, b);
}

/** The comparator for a sort name (`name` | `displayName`); throws on anything else. */
export function comparatorFor(sort) {
  if (sort === undefined || sort === "" || sort === "name") return compareByName;
  if (sort === "displayName") return compareByDisplayName;
  throw new RangeError(`unknown sort ${JSON.stringify(sort)} (name | displayName)`);
}
