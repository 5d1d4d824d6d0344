// Ground truth from the demo backend (GET /demo/truth) and the checks of what a column shows
// against it: what it shows twice, what it missed.
import { getJson } from "./dom.js";

/**
 * compareCodePoints orders two strings by Unicode code point, which is the UTF-8 byte order the
 * pager's collation uses (docs/DESIGN.md, "One total order"). JS `<` compares UTF-16 code units,
 * which puts U+E000..U+FFFF after the surrogates; the shift below undoes that.
 */
export function compareCodePoints(a, b) {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x < y ? -1 : 1;
  }
  return a.length - b.length < 0 ? -1 : a.length === b.length ? 0 : 1;
}

/**
 * sortKey is the pager's key tuple of `{name, displayName, plugin, cluster, namespace, identifier}`:
 * `name` sort (name, plugin, cluster, namespace, identifier); `displayName` sort (lowercase display,
 * display, plugin, …) where an empty displayName sorts as its name.
 */
export function sortKey(f, sort) {
  const tail = [f.plugin, f.cluster, f.namespace, f.identifier];
  if (sort === "displayName") {
    const display = f.displayName === "" ? f.name : f.displayName;
    return [display.toLowerCase(), display, ...tail];
  }
  return [f.name, ...tail];
}

/** Compares two key tuples component by component. */
export function compareKeys(a, b) {
  for (let i = 0; i < a.length; i++) {
    const c = compareCodePoints(a[i], b[i]);
    if (c !== 0) return c;
  }
  return 0;
}

/** The query string of a filter for /demo/truth (`plugins` restricts like the pager's sources). */
export function truthQuery(filter, sort, since) {
  const p = new URLSearchParams();
  p.set("sort", sort);
  if (filter.query) p.set("query", filter.query);
  for (const c of filter.categories) p.append("categories", c);
  for (const r of filter.repositories) p.append("repositories", r);
  for (const pl of filter.plugins) p.append("plugins", pl);
  if (since !== undefined && since !== null) p.set("since", String(since));
  return p.toString();
}

/** GET /demo/truth for a filter and sort, with `since` (revision) when given. */
export function fetchTruth(filter, sort, since, init) {
  return getJson(`/demo/truth?${truthQuery(filter, sort, since)}`, init);
}

/** Identities that occur more than once in a list, with how many extra times. */
export function extraCopies(identities) {
  const seen = new Set();
  let extra = 0;
  for (const id of identities) {
    if (seen.has(id)) extra++;
    else seen.add(id);
  }
  return extra;
}

/**
 * missedInRange: the truth items present the whole time (`truth.since.identities`) that sort in
 * [from, to] (key tuples; null = open end) and are not in `shown` (a Set of identities).
 */
export function missedInRange(truth, shown, sort, from, to) {
  const present = new Set(truth.since?.identities ?? truth.identities);
  const out = [];
  for (const item of truth.items) {
    if (!present.has(item.identity) || shown.has(item.identity)) continue;
    const key = sortKey(item, sort);
    if (from && compareKeys(key, from) < 0) continue;
    if (to && compareKeys(key, to) > 0) continue;
    out.push(item.identity);
  }
  return out;
}
