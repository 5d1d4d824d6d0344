// The custom predicate's JS half (`PagerOptions.predicate`, `{ id, matches }`): read apart from
// the other options (`matches` is a function, which their JSON reading refuses), and called on
// every item of each chunk of a source the pager filters, by `readChunk` (chunk.js) before the
// chunk crosses into wasm. The core takes the verdicts (`Pager::feed_judged`), where it would
// apply the filter's rules. Keep the import and export lines as they are: scripts/package.mjs
// rewrites them to CommonJS for the nodejs build (the export line the file's last line).

import { makeError } from "./errors.js";
import { describe, isObject, wellFormed } from "./json.js";

/** The longest predicate id, in UTF-16 units: it names a rule (it is hashed into every page token). */
const MAX_ID = 1024;

/**
 * `options.predicate` read once, apart: `null` when `options` has no `predicate` member (then the
 * options are read as they are), else `{ options, id, matches }` with `options` a copy of the
 * other members (each read once), and `id`/`matches` undefined for `predicate: null` or
 * `undefined` (no predicate). Throws `INVALID_OPTIONS` naming the member at fault
 * (`predicate`, `predicate.id`, `predicate.matches`, `predicate.other`).
 */
function readPredicate(options) {
  const fail = (field, problem) => {
    throw makeError("INVALID_OPTIONS", `invalid options: ${field}: ${problem}`, { field });
  };
  // Not an object: the options' own reader says so.
  if (!isObject(options) || Array.isArray(options)) return null;
  const rest = {};
  let predicate;
  let at = "predicate";
  try {
    if (!("predicate" in options)) return null;
    predicate = options.predicate;
    for (const key of Object.keys(options)) {
      at = key;
      if (key !== "predicate") rest[key] = options[key];
    }
  } catch (e) {
    fail(at, describe(e));
  }
  if (predicate === undefined || predicate === null) return { options: rest };
  if (!isObject(predicate) || Array.isArray(predicate)) fail("predicate", "expected an object { id, matches }");
  let keys, id, matches;
  at = "predicate";
  try {
    keys = Object.keys(predicate);
    at = "predicate.id";
    id = predicate.id;
    at = "predicate.matches";
    matches = predicate.matches;
  } catch (e) {
    fail(at, describe(e));
  }
  const unknown = keys.find((k) => k !== "id" && k !== "matches");
  if (unknown !== undefined) fail(`predicate.${unknown}`, "unknown field");
  if (typeof id !== "string") fail("predicate.id", id === undefined ? "missing (required)" : `expected a string, found ${id === null ? "null" : typeof id}`);
  if (id === "") fail("predicate.id", "must not be empty (it names the predicate's rule in every page token)");
  if (id.length > MAX_ID) fail("predicate.id", `longer than ${MAX_ID} characters`);
  if (!wellFormed(id)) fail("predicate.id", "not well-formed text (a lone surrogate)");
  if (typeof matches !== "function") {
    fail("predicate.matches", `expected a function (item, source) => boolean, found ${matches === null ? "null" : typeof matches}`);
  }
  return { options: rest, id, matches };
}

/**
 * Per source, what `verdictsOf` needs to judge its items, or null for a source the predicate does
 * not judge (`judged[i]` "1": the pager filters source i): the predicate's `matches` and `id`, the
 * source as the predicate is given it (`sources[i]`, `{ plugin, cluster, namespace }`, frozen: the
 * same object on every call) and its label, for errors.
 */
function makeJudges(predicate, sources, labels, judged) {
  return sources.map((source, i) =>
    judged[i] === "1" ? { matches: predicate.matches, id: predicate.id, source: Object.freeze(source), label: labels[i] } : null,
  );
}

/** The errors `verdictsOf` threw: `readChunk` lets them through as they are. */
const failures = new WeakSet();
const isPredicateFailure = (e) => isObject(e) && failures.has(e);

/**
 * The predicate's verdict on each of `items` (1 kept, 0 not): truthy keeps, as with
 * `Array.prototype.filter`. Throws `PREDICATE_FAILED` (`details`: `source`, `predicate` the id,
 * `index` of the item, `cause` what it threw) when `matches` throws, or when it returns a promise
 * or another thenable (a verdict is needed now; a promise would read as true).
 */
function verdictsOf(items, judge) {
  const { matches, id, source, label } = judge;
  const verdicts = new Uint32Array(items.length);
  const failed = (i, why, cause) => {
    const e = makeError(
      "PREDICATE_FAILED",
      `the predicate ${JSON.stringify(id)} ${why} on item ${i} of source ${label}; the pager is unchanged`,
      { source: label, predicate: id, index: i, cause },
    );
    failures.add(e);
    return e;
  };
  for (let i = 0; i < items.length; i++) {
    let verdict;
    try {
      verdict = Reflect.apply(matches, undefined, [items[i], source]);
    } catch (e) {
      throw failed(i, `threw (${describe(e)})`, e);
    }
    if (isObject(verdict) || typeof verdict === "function") {
      let then;
      try {
        then = verdict.then;
      } catch (e) {
        throw failed(i, `returned a value whose \`then\` throws (${describe(e)})`, e);
      }
      if (typeof then === "function") throw failed(i, "returned a promise (a predicate decides at once)", verdict);
    }
    verdicts[i] = verdict ? 1 : 0;
  }
  return verdicts;
}

export { readPredicate, makeJudges, verdictsOf, isPredicateFailure };
