// Reading the pager's JS inputs against their declared shapes (the `.d.ts` interfaces): the
// pager's options, the fetchers' options, `nextPage`'s `retry` option, and failures as `fail()`
// and `nextPage` read them. One table-driven reader here instead of a schema interpreter in the
// wasm; the wasm gets typed values, packed in the order the core hands over with each call
// (`OPTIONS_ORDER` and the like in src/wasm/view.rs: that order's one definition; the shapes
// below are found in it by name, their own order is only the error messages').
// Throws only the PagerErrors of what does not fit (`INVALID_OPTIONS`; `INVALID_RESPONSE` from
// `readFailure`: the wasm catches them). Keep the import lines and the export line as they are:
// scripts/package.mjs rewrites them to CommonJS for the nodejs build.

import { makeError } from "./errors.js";
import { describe, isObject, wellFormed } from "./json.js";
import { resourceSource } from "./kube.js";


/** `obj[key]` for an object or function (a throwing getter reads as undefined), else undefined. */
function field(obj, key) {
  if (!isObject(obj) && typeof obj !== "function") return undefined;
  try {
    return obj[key];
  } catch {
    return undefined;
  }
}

/** The string at `path` inside `obj` (every step an object), else "". */
function stringField(obj, path) {
  let v = obj;
  for (const key of path) {
    if (!isObject(v)) return "";
    v = field(v, key);
  }
  return typeof v === "string" ? v : "";
}

/**
 * A failure as `Pager.fail` and `nextPage` read it, each member read once: `status`, `reason`,
 * `continue` and `retryAfterMs` (a built-in fetcher's reading of the answer's `Retry-After`), from
 * the failure itself or, where it has none, its `details` (a built-in fetcher's PagerError). A
 * Kubernetes `Status` given as it is (the body of a 410 Expired, `kind: "Status"`) has its HTTP
 * status in `code` (its `status` is "Failure") and its continue token in `metadata.continue` (read
 * there when it has no `continue`). `status`: an integer from 0 to 599; none (`undefined`, `null`,
 * a failure that is no object: a network error) is 0, no answer; anything else (NaN, -1, 1e20,
 * 503.5, "503") throws `INVALID_RESPONSE` (`details`: `source`, `field: "status"`, `status`).
 */
function failureOf(cause, source = "") {
  const details = field(cause, "details");
  const pick = (...path) => {
    const read = (v) => path.reduce(field, v);
    const v = read(cause);
    return v === undefined && isObject(details) ? read(details) : v;
  };
  // Only a Status's `code`: other errors' codes are no HTTP status (a DOMException's 19, "ECONNRESET").
  const status = pick("kind") === "Status" ? pick("code") : pick("status");
  const after = pick("retryAfterMs");
  if (status != null && !(Number.isInteger(status) && status >= 0 && status <= 599)) {
    throw makeError("INVALID_RESPONSE", "the failure's status is no HTTP status (an integer from 0 to 599)", {
      source,
      field: "status",
      status,
    });
  }
  return {
    status: status ?? 0,
    reason: pick("reason"),
    continue: pick("continue") ?? pick("metadata", "continue"),
    retryAfterMs: typeof after === "number" && after >= 0 && after < Infinity ? after : undefined,
  };
}



/** A short text for a failure's cause: its message, or its own cause's (a fetch TypeError's `cause`). */
function causeText(cause) {
  const message = field(cause, "message");
  if (typeof message !== "string" || message === "") return "";
  const inner = field(cause, "cause");
  const innerMessage = isObject(inner) ? field(inner, "message") : undefined;
  return typeof innerMessage === "string" && innerMessage !== "" && !message.includes(innerMessage)
    ? `${message}: ${innerMessage}`
    : message;
}

/** Codes a rejected fetchChunk passes through as they are, not as the source's SOURCE_FAILED. */
const PASS_THROUGH = ["REENTRANT_CALL", "PAGER_FREED"];

/** The brand every PagerError carries (errors.js), read safely: any entry's copy of the class. */
const PAGER_ERROR = Symbol.for("kubeapps-pager.PagerError");

/** Whether a fetchChunk's rejection is the caller's error (a PagerError of PASS_THROUGH), not its source's failure. */
const isPassThrough = (e) => field(e, PAGER_ERROR) === true && PASS_THROUGH.includes(field(e, "code"));

/**
 * The SOURCE_FAILED error of source `label` for `failure` (`failureOf(answer)`), `answer` the
 * fetchChunk's rejection. A built-in fetcher's own SOURCE_FAILED: its details (url, status, body,
 * connectCode…) and its cause (the Response, the network error, the ConnectError) become this
 * error's, so the transport's own error is one step away (`error.cause`), not two.
 */
function sourceFailedError(label, { status, reason }, answer) {
  const own = field(answer, PAGER_ERROR) === true && field(answer, "code") === "SOURCE_FAILED";
  const details = own ? { ...field(answer, "details") } : {};
  const cause = own ? details.cause : answer;
  details.source = label;
  details.status = status;
  if (typeof reason === "string") details.reason = reason;
  if (cause === undefined) delete details.cause;
  else details.cause = cause;
  const why = own ? field(answer, "message") : causeText(cause);
  const message = `source ${label} failed (status ${status}${why ? `: ${why}` : ""}); the pager is unchanged, call again to retry`;
  return makeError("SOURCE_FAILED", message, details);
}


// ---------------------------------------------------------------------------
// Reading JS inputs against declared shapes (the `.d.ts` interfaces)

// A shape is an array of fields `[name, kind, presence]`; a kind is STR, U32, MAP (an object of
// strings: headers), an array of strings (one of them; read as its index), `{ of: kind }` (an
// array), `{ either: shape }` (a string, or an object of that shape) or a shape. Presence: REQUIRED; DEFAULTED, may be missing (a default fills it), `null` is
// the wrong type; OPTIONAL, missing or `null` is "not given".
const STR = 1, U32 = 2, MAP = 3;
const REQUIRED = 0, DEFAULTED = 1, OPTIONAL = 2;
const STRINGS = { of: STR };

const SOURCE = [
  ["plugin", STR, REQUIRED],
  ["cluster", STR, DEFAULTED],
  ["namespace", STR, DEFAULTED],
  ["kind", ["kubernetes", "kubeapps", "unordered"], OPTIONAL],
  ["order", ["name", "none"], OPTIONAL],
  ["filter", ["source", "pager"], OPTIONAL],
];
// A source as the caller may write it: a plugin's, or any Kubernetes resource's (kube.js
// `resourceSource` reads it into SOURCE: a resource is a string or `{ group?, version, resource }`).
const RESOURCE = { either: [["group", STR, DEFAULTED], ["version", STR, REQUIRED], ["resource", STR, REQUIRED]] };
const SOURCE_IN = [
  ["plugin", STR, OPTIONAL],
  ...SOURCE.slice(1),
  ["resource", RESOURCE, OPTIONAL],
  ["labelSelector", STR, OPTIONAL],
  ["fieldSelector", STR, OPTIONAL],
];
const FILTER = [
  ["query", STR, DEFAULTED],
  ["categories", STRINGS, DEFAULTED],
  ["repositories", STRINGS, DEFAULTED],
  ["plugins", STRINGS, DEFAULTED],
  ["pkgVersion", STR, DEFAULTED],
  ["appVersion", STR, DEFAULTED],
];
const OPTIONS = [
  ["sources", { of: SOURCE }, REQUIRED],
  ["pageSize", U32, OPTIONAL],
  ["chunkLimit", U32, OPTIONAL],
  ["sort", ["name", "displayName", "apiserver"], OPTIONAL],
  ["filter", FILTER, OPTIONAL],
  ["maxSourceItems", U32, OPTIONAL],
  ["maxChunksWithoutProgress", U32, OPTIONAL],
  // The locales in `Collation::ALL`'s order (src/collation.rs).
  ["collation", [["locale", ["root", "en"], DEFAULTED]], OPTIONAL],
];
const OPTIONS_IN = [["sources", { of: SOURCE_IN }, REQUIRED], ...OPTIONS.slice(1)];
const LISTS = ["available", "installed"];
const KUBEAPPS_FETCHER = [
  ["baseUrl", STR, REQUIRED],
  ["headers", MAP, DEFAULTED],
  ["context", [["cluster", STR, DEFAULTED], ["namespace", STR, DEFAULTED]], DEFAULTED],
  ["list", LISTS, OPTIONAL],
];
const CONNECT_FETCHER = KUBEAPPS_FETCHER.slice(2);
const LIST_FETCHER = [
  ["url", STR, REQUIRED],
  ["headers", MAP, DEFAULTED],
];

/** The longest input read, in characters of its JSON text. */
const MAX_INPUT = 1048576;

/** "a string", "an object", "an Arguments": the indefinite article `what` takes, then `what`. */
const a = (what) => `${/^[aeiou]/i.test(what) ? "an" : "a"} ${what}`;
const kindOf = (v) => (v === null ? "null" : a(Array.isArray(v) ? "array" : typeof v));

/**
 * `value` read against `shape`: each object as an array of its fields' values in the shape's
 * order (`undefined`: not given). Throws `INVALID_OPTIONS` naming the member at fault
 * (`sources[1].kind`; `options` for the whole value). The value is first copied as JSON writes it
 * (toJSON, getters and Proxies run once, `undefined` members dropped; cycles, BigInts, NaN,
 * ±Infinity, functions, symbols and Maps, Sets or Headers are errors; at most `MAX_INPUT`
 * characters), so that only plain data is read: nothing of the caller's runs while reading, and
 * the rules are the JSON ones the options always had.
 */
function readInput(value, shape) {
  const fail = (at, problem) => {
    const field = at || "options";
    throw makeError("INVALID_OPTIONS", `invalid options: ${field}: ${problem}`, { field });
  };
  let data;
  // Where each object being copied sits (`sources[1]`), to name the member of a value JSON would
  // not keep as it is: a function or symbol (dropped), NaN or ±Infinity (null), a BigInt (an
  // error), a Map, Set or Headers (`{}`: its entries lost).
  const paths = new Map();
  let fault;
  try {
    const text =
      JSON.stringify(value ?? null, function (key, v) {
        const up = paths.get(this);
        const at = up === undefined ? "" : Array.isArray(this) ? `${up}[${key}]` : up ? `${up}.${key}` : key;
        if (isObject(v)) paths.set(v, at);
        const t = typeof v;
        if (
          t === "function" || t === "symbol" || t === "bigint" || (t === "number" && !Number.isFinite(v)) ||
          (isObject(v) && !Array.isArray(v) && !(v instanceof String) && typeof v[Symbol.iterator] === "function")
        ) {
          const what = t === "number" ? v : a(t === "object" ? Object.prototype.toString.call(v).slice(8, -1) : t);
          throw (fault = [at, `expected JSON data, found ${what}`]);
        }
        return v;
      }) ?? "null";
    // Options are small; a huge value (100 million categories) would exhaust the wasm's memory.
    if (text.length > MAX_INPUT) throw (fault = ["", `more than ${MAX_INPUT} characters as JSON`]);
    data = JSON.parse(text);
  } catch (e) {
    if (fault) fail(...fault);
    // A getter or toJSON may throw anything: its message, if it has one that can be read.
    fail("", describe(e));
  }
  const read = (v, kind, at) => {
    const expected = (what) => fail(at, `expected ${what}, found ${kindOf(v)}`);
    if (kind === U32) {
      if (typeof v !== "number") expected("a whole number");
      if (!Number.isInteger(v) || v < 0 || v > 4294967295) fail(at, "expected a whole number from 0 to 4294967295");
      return v;
    }
    if (kind === STR || typeof kind[0] === "string") {
      if (typeof v !== "string") expected("a string");
      if (!wellFormed(v)) fail(at, "not well-formed text (a lone surrogate)");
      if (kind === STR) return v;
      if (!kind.includes(v)) fail(at, `expected one of ${kind.map((k) => `"${k}"`).join(", ")}`);
      return kind.indexOf(v);
    }
    if (kind.either) return read(v, typeof v === "string" ? STR : kind.either, at);
    if (kind.of) {
      if (!Array.isArray(v)) expected("an array");
      return v.map((item, i) => read(item, kind.of, `${at}[${i}]`));
    }
    if (!isObject(v) || Array.isArray(v)) expected("an object");
    const path = (key) => (at ? `${at}.${key}` : key);
    const keys = Object.keys(v);
    if (kind === MAP) return keys.map((key) => [key, read(v[key], STR, path(key))]);
    const fields = [];
    for (const key of keys) {
      const i = kind.findIndex((f) => f[0] === key);
      if (i < 0) fail(path(key), "unknown field");
      if (v[key] !== null || kind[i][2] !== OPTIONAL) fields[i] = read(v[key], kind[i][1], path(key));
    }
    for (const [name, , presence] of kind) if (presence === REQUIRED && !keys.includes(name)) fail(path(name), "missing (required)");
    return fields;
  };
  return read(data, shape, "");
}

/**
 * Three characters of 15 bits each, low first (below U+8000: never a surrogate), for a number from
 * 0 to 2^45 - 1; `Unpack` (src/wasm/view.rs) reads them.
 */
const packNumber = (n) => String.fromCharCode(n & 32767, (n / 32768) & 32767, n / 1073741824);

/**
 * An order as the core hands it (`OPTIONS_ORDER` and the like in src/wasm/view.rs: "a b(c d) e",
 * an object's fields or a choice's values in `(…)`): an array of `[name, inner]` (`inner`: that
 * field's own order, or undefined).
 */
function orderOf(text) {
  const stack = [[]];
  for (const t of text.match(/\w+\(?|\)/g)) {
    if (t === ")") stack.shift();
    else {
      const entry = [t.replace("(", "")];
      stack[0].push(entry);
      if (entry[0] !== t) stack.unshift((entry[1] = []));
    }
  }
  return stack[0];
}

/**
 * Packs `v` (as `readInput` gives it) by `kind` for `Unpack` (src/wasm/view.rs), in the core's
 * `order` (`orderOf`; each field found in the shape by name: no field order is kept here): a
 * string as its length in UTF-16 units then itself (`""` when not given), a number as 1 + it, a
 * choice as 1 + its index in the core's order (0: not given), an array as its length then each
 * item, an object as its fields (each not given when the object is not). Throws for a name the
 * core's order has and the shapes here lack (never, unless the two sides disagree).
 */
function pack(v, kind, order) {
  if (kind === STR) return packNumber((v ??= "").length) + v;
  if (kind === U32) return packNumber(v === undefined ? 0 : v + 1);
  if (kind.of) return packNumber((v ??= []).length) + v.map((item) => pack(item, kind.of, order)).join("");
  const at = (name, list) => {
    const i = list.findIndex((f) => f[0] === name);
    // Never, unless inputs.js and the core disagree on a name.
    if (i < 0) throw makeError("INVALID_OPTIONS", `invalid options: ${name}: unknown to inputs.js or the core`, { field: name });
    return i;
  };
  if (typeof kind[0] === "string") return packNumber(v === undefined ? 0 : 1 + at(kind[v], order));
  return order.map(([name, inner]) => {
    const i = at(name, kind);
    return pack(v?.[i], kind[i][1], inner);
  }).join("");
}

/** `PagerOptions` packed in the core's `order` (`OPTIONS_ORDER`) for `unpack_options` (src/wasm/view.rs), or `INVALID_OPTIONS`. */
function readOptions(value, order) {
  // Said apart from `null`: `Pager.resume(token)` without its options is the usual slip.
  if (value === undefined) {
    throw makeError("INVALID_OPTIONS", "invalid options: options: missing (new Pager(options) and Pager.resume(token, options) both take them)", { field: "options" });
  }
  const o = readInput(value, OPTIONS_IN);
  o[0] = o[0].map(resourceSource);
  // `collation: {}` is the root collation (the locale's default).
  if (o[7]) o[7][0] ??= 0;
  if (o[7] && o[3] === 2) {
    throw makeError("INVALID_OPTIONS", 'invalid options: collation: sort "apiserver" is the apiserver\'s byte order (a collation orders name or displayName)', { field: "collation" });
  }
  return pack(o, OPTIONS, orderOf(order));
}

/**
 * A failure for `Pager.fail` (as `failureOf` reads it), packed in the core's `order`
 * (`FAILURE_ORDER`) for `unpack_failure` (src/wasm/view.rs): `status`, a number; `reason` and
 * `continue`, each 1 for a string then the string, else 0. Throws `INVALID_RESPONSE` (naming the
 * request's `source`) for one with a lone surrogate.
 */
function readFailure(failure, source, order) {
  const read = failureOf(failure, source);
  let out = "";
  for (const [key] of orderOf(order)) {
    const v = read[key];
    if (key === "status") out += packNumber(v);
    else if (typeof v !== "string") out += packNumber(0);
    else if (!wellFormed(v)) throw makeError("INVALID_RESPONSE", `the failure's ${key} is not well-formed text (a lone surrogate)`, { source });
    else out += packNumber(1) + packNumber(v.length) + v;
  }
  return out;
}


/** A `FilterOptions` (`undefined` or `null`: none) packed in the core's `order` (`FILTER_ORDER`) for `unpack_filter` (src/wasm/view.rs), or `INVALID_OPTIONS`. */
function readFilter(value, order) {
  return pack(readInput(value ?? {}, FILTER), FILTER, orderOf(order));
}

/** `NextPageOptions.retry`: `false` (no retries) or `{ retries?, baseDelayMs?, maxDelayMs? }`. */
const RETRY = [
  ["retries", U32, OPTIONAL],
  ["baseDelayMs", U32, OPTIONAL],
  ["maxDelayMs", U32, OPTIONAL],
];

/** `NextPageOptions.prefetch` as an object: `{ requests?, bytes? }`. */
const PREFETCH = [
  ["requests", U32, OPTIONAL],
  ["bytes", U32, OPTIONAL],
];

/** `value` read against `shape`, or `INVALID_OPTIONS` naming `<name>.<field>`. */
function readNested(value, shape, name) {
  try {
    return readInput(value, shape);
  } catch (e) {
    const at = e?.details?.field;
    const field = at === "options" ? name : `${name}.${at}`;
    throw makeError("INVALID_OPTIONS", `invalid options: ${field}: ${String(e.message).replace(/^invalid options: [^:]*: /, "")}`, { field });
  }
}

/**
 * `nextPage`'s `retry` option read against `RETRY`: `[retries, baseDelayMs, maxDelayMs]`, each
 * `undefined` when not given (the core's default fills it: `RetryPolicy` in
 * src/pager/retry.rs); `false` is `[0]`. Throws `INVALID_OPTIONS` naming `retry.<field>`.
 */
function readRetry(value) {
  if (value === undefined) return [];
  if (value === false) return [0];
  return readNested(value, RETRY, "retry");
}

/**
 * `nextPage`'s options' `signal`: `undefined` or `null` (none), else an AbortSignal (any realm's, or
 * a signal-like object: one with an `aborted` member, not read here; its `addEventListener`, if
 * any, is used). Throws `INVALID_OPTIONS`
 * naming `signal` for anything else (an AbortController, not its `.signal`, say), and naming
 * `options` for options that are neither an object nor `undefined`/`null`.
 */
function readSignal(options) {
  if (options == null) return undefined;
  if (!isObject(options)) {
    throw makeError("INVALID_OPTIONS", "invalid options: options: not an object", { field: "options" });
  }
  const signal = field(options, "signal");
  if (signal == null) return undefined;
  // `in`, not a read: the `aborted` getter is the driver's to call (once per check).
  const hasAborted = () => {
    try {
      return "aborted" in signal;
    } catch {
      return false;
    }
  };
  if (isObject(signal) && hasAborted()) return signal;
  throw makeError("INVALID_OPTIONS", "invalid options: signal: not an AbortSignal (an AbortController's is its .signal)", { field: "signal" });
}

/**
 * `nextPage`'s `prefetch` option: `undefined` for none (`undefined`, `false`), else
 * `[requests, bytes]`, each `undefined` when not given (the core's default fills it:
 * `PrefetchBudget` in src/pager/prefetch.rs); `true` is `[]`. Throws `INVALID_OPTIONS` naming
 * `prefetch.<field>`.
 */
function readPrefetch(value) {
  if (value === undefined || value === false) return undefined;
  if (value === true) return [];
  return readNested(value, PREFETCH, "prefetch");
}

export { field, stringField, failureOf, readSignal, causeText, sourceFailedError, isPassThrough, readInput, readOptions, readFailure, readFilter, readRetry, readPrefetch, FILTER, KUBEAPPS_FETCHER, CONNECT_FETCHER, LIST_FETCHER, LISTS };
