// The asynchronous half of the boundary, in JS: `pager.nextPage(fetchChunk, { signal })`, which
// only awaits the caller's promises and calls the pager's own sans-IO methods (docs/DESIGN.md,
// "What runs in JS, and why"), and the built-in fetchers' factories: they read their options and
// hand each request to the wasm (src/wasm/fetch.rs: web-sys fetch), except `connectFetcher`,
// which calls the caller's own Connect clients. Also the reading of the pager's JS inputs
// (options, fetcher options, failures): one table-driven reader here instead of a schema
// interpreter in the wasm; the wasm gets typed values, packed. The fetchers are the package's own
// exports (scripts/package.mjs re-exports them next to the glue's).
// Never throws synchronously, but for the PagerErrors of the readers (`INVALID_OPTIONS`, and
// `INVALID_RESPONSE` from `readFailure`: the wasm catches them) and of the fetchers. Keep the import lines and the export line as they are:
// scripts/package.mjs rewrites them to CommonJS for the nodejs build.

import { makeError } from "./errors.js";
import { describe, isObject, wellFormed } from "./json.js";
import { kubernetesFetcher, resourceSource } from "./kube.js";

/** 410 answers in a row within one call before the driver gives up (`SOURCE_FAILED`). */
const MAX_EXPIRED_IN_A_ROW = 8;

/**
 * The automatic retry of an unreachable source: a nextPage call asks it again once this long has
 * passed since it was set aside, 5 s the first time, doubling each time it is set aside again
 * without having answered in between, at most 5 minutes.
 */
const RETRY_FIRST_MS = 5000;
const RETRY_MAX_MS = 300000;

/** Pager → Map(source index → { at, delay }): when nextPage retries each unreachable source. */
const backoffs = new WeakMap();

const ignore = () => {};

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
 * A failure as `Pager.fail` and `nextPage` read it, each member read once: `status` (0 to 999,
 * else 0), `reason` and `continue`, from the failure itself or, where it has none, its `details`
 * (a built-in fetcher's PagerError). A Kubernetes `Status` given as it is (the body of a 410
 * Expired, `kind: "Status"`) has its HTTP status in `code` (its `status` is "Failure") and its
 * continue token in `metadata.continue` (read there when it has no `continue`).
 */
function failureOf(cause) {
  const details = field(cause, "details");
  const pick = (...path) => {
    const read = (v) => path.reduce(field, v);
    const v = read(cause);
    return v === undefined && isObject(details) ? read(details) : v;
  };
  // Only a Status's `code`: other errors' codes are no HTTP status (a DOMException's 19, "ECONNRESET").
  const status = pick("kind") === "Status" ? pick("code") : pick("status");
  return {
    status: typeof status === "number" && status >= 0 && status < 1000 ? Math.trunc(status) : 0,
    reason: pick("reason"),
    continue: pick("continue") ?? pick("metadata", "continue"),
  };
}

/** Codes a rejected fetchChunk passes through as they are, not as the source's SOURCE_FAILED. */
const PASS_THROUGH = ["REENTRANT_CALL", "PAGER_FREED"];

/** The brand every PagerError carries (errors.js), read safely: any entry's copy of the class. */
const PAGER_ERROR = Symbol.for("kubeapps-pager.PagerError");

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


// ---------------------------------------------------------------------------
// Reading JS inputs against declared shapes (the `.d.ts` interfaces)

// A shape is an array of fields `[name, kind, presence]`; a kind is STR, U32, MAP (an object of
// strings: headers), an array of strings (one of them; read as its index), `{ of: kind }` (an
// array) or a shape. Presence: REQUIRED; DEFAULTED, may be missing (a default fills it), `null` is
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
 * 0 to 2^45 - 1; `Unpack` (src/view.rs) reads them.
 */
const packNumber = (n) => String.fromCharCode(n & 32767, (n / 32768) & 32767, n / 1073741824);

/**
 * Packs `fields` (as `readInput` gives them) by `shape` for `Unpack` (src/view.rs), in the shape's
 * order: a string as its length in UTF-16 units then itself (`""` when not given), a number or a
 * choice as 1 + it (0: not given), an array as its length then each item, an object as its fields
 * (each not given when the object is not).
 */
function pack(v, kind) {
  if (kind === STR) return packNumber((v ??= "").length) + v;
  if (kind === U32 || typeof kind[0] === "string") return packNumber(v === undefined ? 0 : v + 1);
  if (kind.of) return packNumber((v ??= []).length) + v.map((item) => pack(item, kind.of)).join("");
  return kind.map((f, i) => pack(v?.[i], f[1])).join("");
}

/** `PagerOptions` packed for `unpack_options` (src/view.rs), or `INVALID_OPTIONS`. */
function readOptions(value) {
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
  return pack(o, OPTIONS);
}

/**
 * A failure for `Pager.fail` (as `failureOf` reads it), packed for `unpack_failure` (src/view.rs):
 * `status`, then `reason` and `continue`, each 1 for a string then the string, else 0. Throws
 * `INVALID_RESPONSE` (naming the request's `source`) for one with a lone surrogate.
 */
function readFailure(failure, source) {
  const read = failureOf(failure);
  let out = packNumber(read.status);
  for (const key of ["reason", "continue"]) {
    const v = read[key];
    if (typeof v !== "string") out += packNumber(0);
    else if (!wellFormed(v)) throw makeError("INVALID_RESPONSE", `the failure's ${key} is not well-formed text (a lone surrogate)`, { source });
    else out += packNumber(1) + packNumber(v.length) + v;
  }
  return out;
}

/** Pager → the hooks of the nextPage calls running on it, called when it is freed. */
const freeHooks = new WeakMap();
/** The Pager whose nextPage() is calling drive() right now (set by the guard around nextPage). */
let caller;
/** The Pager whose fetchChunk is running right now (synchronously), if any. */
let fetching;

/** Whether `pager` is a Pager that has not been freed (wasm-bindgen zeroes the pointer on free). */
function live(pager) {
  return isObject(pager) && typeof pager.__wbg_ptr === "number" && pager.__wbg_ptr !== 0;
}

/** wasm pointer → a WeakRef of the Pager object that holds it (the one wasm-bindgen registered). */
const owners = new Map();

/**
 * The Pager object itself when `pager` is a Proxy of it (Vue's `reactive`, MobX): freed through a
 * Proxy, wasm-bindgen cannot unregister the object from its FinalizationRegistry, and when the
 * object is collected it frees the pointer a second time, corrupting another pager that uses that
 * memory since. The pointer, a number, reads through any Proxy.
 */
function selfOf(pager) {
  return (live(pager) && owners.get(pager.__wbg_ptr)?.deref()) || pager;
}

/**
 * Wraps the methods of the Pager class (the prototype of `probe`, which is freed) so that a freed
 * pager throws `PAGER_FREED` instead of wasm-bindgen's "null pointer passed to rust", `free()` and
 * `[Symbol.dispose]()` may be called again, a nextPage running when its pager is freed rejects with
 * `PAGER_FREED` at once, and a nextPage made from inside its own pager's fetchChunk (it would wait
 * for itself) rejects with `REENTRANT_CALL`. Called once per module, by the first Pager made.
 */
function guardPager(probe) {
  const proto = Object.getPrototypeOf(probe);
  probe.free();
  const freed = (method) =>
    makeError(
      "PAGER_FREED",
      `Pager.${method}: the pager was freed`,
      { method },
    );
  for (const name of Object.getOwnPropertyNames(proto)) {
    const d = Object.getOwnPropertyDescriptor(proto, name);
    const f = d.value;
    if (name === "constructor" || name.startsWith("__")) continue;
    if (name === "free") {
      d.value = function free() {
        const self = selfOf(this);
        if (!live(self)) return; // freed already: nothing to do
        owners.delete(self.__wbg_ptr);
        const hooks = freeHooks.get(self);
        try {
          f.call(self);
        } catch (e) {
          // Freed from inside one of its own calls (a getter of an item being fed): wasm-bindgen
          // has let go of it already (the pointer is 0), and frees it when that call returns, but
          // says so by throwing.
          if (live(self)) throw e;
        }
        freeHooks.delete(self);
        for (const hook of hooks ?? []) hook();
      };
    } else if (name === "nextPage") {
      d.value = function nextPage(fetchChunk, options) {
        const self = selfOf(this);
        if (!live(self)) return Promise.reject(freed(name));
        if (fetching === self) {
          return Promise.reject(makeError("REENTRANT_CALL", "nextPage() from inside its own fetchChunk would wait for itself", {}));
        }
        // The caller's getter of `signal` runs now, before the call takes its place in line: a
        // nextPage made from inside it is then a call before this one, not one beside it.
        const signal = isObject(options) ? field(options, "signal") : undefined;
        caller = self;
        try {
          return f.call(self, fetchChunk, { signal });
        } finally {
          caller = undefined;
        }
      };
    } else if (typeof f === "function") {
      d.value = function (...args) {
        if (!live(this)) throw freed(name);
        return f.apply(this, args);
      };
    } else if (typeof d.get === "function") {
      const get = d.get;
      d.get = function () {
        if (!live(this)) throw freed(name);
        return get.call(this);
      };
    } else {
      continue;
    }
    Object.defineProperty(proto, name, d);
  }
  if (typeof Symbol.dispose === "symbol") proto[Symbol.dispose] = proto.free;
  // wasm-bindgen keeps the wasm pointer in an own, enumerable `__wbg_ptr`, so a copy of a Pager
  // (`Object.assign(Object.create(proto), pager)`, which is how lodash's cloneDeep copies class
  // instances) got the pointer too: it read the pager's memory after the pager was freed (garbage),
  // and freed it a second time. Made a non-enumerable accessor when first set (this setter runs for
  // the first assignment, in the constructor or `__wrap`), a copy has no pointer: it is not a live
  // pager. A Proxy of a pager (Vue's `reactive`) still reads and sets the pointer of its target,
  // and `Object.freeze` cannot keep `free()` from zeroing it (a frozen pager could not be freed).
  Object.defineProperty(proto, "__wbg_ptr", {
    get: () => 0,
    set(ptr) {
      Object.defineProperty(this, "__wbg_ptr", { get: () => ptr, set: (p) => (ptr = p), configurable: true });
      if (ptr && typeof WeakRef === "function") owners.set(ptr, new WeakRef(this));
    },
  });
}

/**
 * Pager → a promise (never rejected) that settles once its last nextPage call and every call
 * before it have settled: the next call starts then. A call aborted (or freed) while it waits
 * settles at once, but the calls after it still wait for the ones before it.
 */
const lastCall = new WeakMap();

/**
 * Drives `pager` (a handle sharing the caller's pager) until a page is ready: nextRequests,
 * `fetchChunk` (a function, else `INVALID_OPTIONS`) for each request (concurrently), feed or fail
 * each answer in request order. `labels[i]` is source i's label, `kubernetes[i]` "1" for a
 * kubernetes source. Starts once the caller's previous call, if any, has settled. Every request
 * of a round is settled (fed, failed or, after an abort, cleared) before the promise settles; the
 * handle is freed then.
 */
function drive(pager, fetchChunk, options, labels, kubernetes) {
  // The caller's own Pager: when it is freed, this call rejects with PAGER_FREED at once.
  const owner = caller;
  caller = undefined;
  if (typeof fetchChunk !== "function") {
    pager.free();
    return Promise.reject(makeError("INVALID_OPTIONS", "fetchChunk must be a function", { field: "fetchChunk" }));
  }
  // One call at a time: a second call waits for the first to settle (React StrictMode and eager
  // scroll handlers do call twice), then asks for the page after it.
  const previous = owner && lastCall.get(owner);
  let freedNow = false;
  let hook;
  const freedStop =
    owner &&
    new Promise((resolve) => {
      hook = () => {
        freedNow = true;
        resolve(null);
      };
      const hooks = freeHooks.get(owner) ?? new Set();
      hooks.add(hook);
      freeHooks.set(owner, hooks);
    });
  const freedError = () =>
    makeError("PAGER_FREED", "Pager.nextPage: the pager was freed while it ran", { method: "nextPage" });
  const candidate = isObject(options) ? field(options, "signal") : undefined;
  const signal = isObject(candidate) && field(candidate, "aborted") !== undefined ? candidate : undefined;
  // Read through `field`: a signal-like object's getters may throw.
  const isAborted = () => signal !== undefined && !!field(signal, "aborted");
  let listener;
  const abort =
    signal &&
    new Promise((resolve) => {
      if (isAborted()) return resolve(null);
      listener = () => resolve(null);
      try {
        signal.addEventListener("abort", listener);
      } catch {
        listener = undefined;
      }
    });
  const stops = [abort, freedStop].filter(Boolean);
  const fetchOptions = {};
  if (signal) fetchOptions.signal = signal;
  const aborted = () => {
    const details = {};
    details.reason = field(signal, "reason");
    return makeError("ABORTED", "nextPage() was aborted; the pager is where it was", details);
  };
  const clear = (id) => pager.fail(id, { status: 0 });
  // A synchronous throw becomes a rejected promise. The promise is marked handled: after an abort
  // or a failure nobody awaits it, and its late rejection must not surface as unhandled.
  // A promise of our own (a fresh one, not fetchChunk's: its own `then` or `catch` may throw).
  const start = (request) => {
    const outer = fetching;
    fetching = owner;
    try {
      const promise = new Promise((resolve) => resolve(Reflect.apply(fetchChunk, undefined, [request, fetchOptions])));
      promise.catch(ignore);
      return promise;
    } finally {
      fetching = outer;
    }
  };
  // A request of this call answered or failed by someone else (from inside fetchChunk, say): going
  // on would ask for it again and again, so stop with an error instead.
  const outside = (id) =>
    makeError(
      "REENTRANT_CALL",
      `request ${id} was answered or failed outside nextPage (by fetchChunk?); drive a pager one way at a time`,
      {},
    );
  const sourceFailed = (index, { status, reason }, answer) => {
    const label = labels[index] ?? "";
    // A built-in fetcher's own SOURCE_FAILED: its details (url, status, body, connectCode…) and
    // its cause (the Response, the network error, the ConnectError) become this error's, so the
    // transport's own error is one step away (`error.cause`), not two.
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
  };

  // Each unreachable source's backoff, kept with the caller's Pager (the handle is this call's).
  const key = owner ?? pager;
  const retry = backoffs.get(key) ?? new Map();
  backoffs.set(key, retry);

  async function run() {
    // Start once the previous calls have settled (in a microtask when there are none), or stop
    // waiting for them at once when this call is aborted or the pager freed.
    await (previous && Promise.race([previous, ...stops]));
    if (freedNow) throw freedError();
    if (isAborted()) throw aborted();
    // Unreachable sources whose backoff has passed are asked again (their items come back).
    const now = Date.now();
    for (const [index, b] of retry) if (now >= b.at) pager.retryUnreachable(index);
    let expiredInARow = 0;
    for (;;) {
      // Also after a round: the pager may have been freed while its answers were fed (by a getter).
      if (freedNow) throw freedError();
      const page = pager.takePage();
      if (page !== null) {
        // Each source set aside carries the failure that did it (the transport's own error).
        for (const u of page.unreachable) if (retry.has(u.sourceIndex)) u.error = retry.get(u.sourceIndex).cause;
        return page;
      }
      const requests = pager.nextRequests();
      if (requests.length === 0) {
        // nextPage settles every request of a round and calls run one at a time, so only
        // requests taken with nextRequests() and never answered can leave it nothing to ask.
        throw makeError(
          "NO_PROGRESS",
          "the pager has no page and nothing to ask: requests from nextRequests() are still unanswered",
          {},
        );
      }
      const pending = requests.map((r) => [r.requestId, r.sourceIndex, start(r)]);
      let firstError;
      for (let k = 0; k < pending.length; k++) {
        const [id, index, promise] = pending[k];
        let ok = true;
        let answer;
        try {
          answer = await (stops.length > 0 ? Promise.race([promise, ...stops]) : promise);
        } catch (e) {
          ok = false;
          answer = e;
        }
        if (freedNow) throw freedError();
        if (isAborted()) {
          // Late answers to these requests will be ignored as stale.
          for (const [rest] of pending.slice(k)) clear(rest);
          throw aborted();
        }
        if (ok) {
          try {
            if (pager.feed(id, answer) === "stale") throw outside(id);
            expiredInARow = 0;
            retry.delete(index);
          } catch (e) {
            // The core left its state as it was; clear the request so the next call asks again.
            clear(id);
            firstError ??= e;
          }
        } else {
          // Read once: a getter may answer differently each time, and the pager and this loop
          // must agree on the failure (whether it was a 410 the pager recovered from).
          const failure = failureOf(answer);
          let outcome;
          try {
            outcome = pager.fail(id, failure);
          } catch (e) {
            // A failure the pager cannot read (a lone surrogate in its reason or continue): the
            // request is still open; clear it, or every later call would find it unanswered.
            clear(id);
            firstError ??= e;
            continue;
          }
          if (outcome === "stale") {
            firstError ??= outside(id);
            continue;
          }
          if (outcome === "unreachable") {
            // Set aside: the page goes on from the other sources and names it. Retried later.
            const delay = Math.min(2 * (retry.get(index)?.delay ?? RETRY_FIRST_MS / 2), RETRY_MAX_MS);
            retry.set(index, { at: Date.now() + delay, delay, cause: answer });
            continue;
          }
          const recovers = failure.status === 410 && kubernetes[index] === "1";
          if (recovers && expiredInARow < MAX_EXPIRED_IN_A_ROW) {
            expiredInARow++;
          } else if (field(answer, PAGER_ERROR) === true && PASS_THROUGH.includes(field(answer, "code"))) {
            // Not the source's failure but the caller's (e.g. nextPage awaited inside fetchChunk).
            firstError ??= answer;
          } else {
            firstError ??= sourceFailed(index, failure, answer);
          }
        }
      }
      if (firstError !== undefined) throw firstError;
    }
  }

  const promise = run().finally(() => {
    freeHooks.get(owner)?.delete(hook);
    try {
      if (listener) signal.removeEventListener("abort", listener);
    } catch {
      // A signal-like object without removeEventListener: nothing to remove.
    }
    pager.free();
  });
  // Resolves with undefined (not this call's page: no chain of pages kept alive).
  if (owner) lastCall.set(owner, promise.catch(ignore).then(() => previous));
  return promise;
}

/**
 * The `SOURCE_FAILED` error of a built-in REST fetcher: `cause` is the transport's own error (the
 * fetch `Response` of a non-2xx answer, the network error of no answer); `details.body` the
 * answer's JSON body (a Kubernetes `Status`, a gRPC-gateway error), when it has one.
 */
function failed(url, status, body, cause, why = "") {
  const details = { status, url };
  const reason = stringField(body, ["reason"]);
  if (reason !== "") details.reason = reason;
  const cont = stringField(body, ["metadata", "continue"]);
  if (cont !== "") details.continue = cont;
  if (isObject(body)) details.body = body;
  if (cause !== undefined) details.cause = cause;
  const message = stringField(body, ["message"]);
  const text =
    status === 0 || why
      ? `GET ${url}: ${status ? `HTTP ${status}` : "no answer"}${why ? ` (${why})` : ""}`
      : message === ""
        ? `GET ${url}: HTTP ${status}`
        : `GET ${url}: HTTP ${status}: ${message}`;
  return makeError("SOURCE_FAILED", text, details);
}

/**
 * The wasm's maker of a REST fetcher's fetchChunk (`make_fetcher` in src/wasm/fetch.rs: the URL,
 * then web-sys `fetch`), handed over by the module's start function when it is instantiated (on
 * import in Node and bundlers, in `init()` in the web build).
 */
let makeFetcher;
function useFetchers(make) {
  makeFetcher = make;
}

/**
 * A REST fetcher's fetchChunk over its options as read (`kind` 0 kubeapps, 1 a Kubernetes list):
 * the wasm's, made at its first request, so that a fetcher can be made before `init()` (at a
 * module's top level); a request before `init()` rejects.
 */
function restFetcher(kind, url, headers, cluster = "", namespace = "", list = "") {
  let chunk;
  return (request, init) => {
    if (chunk === undefined) {
      if (makeFetcher === undefined) return Promise.reject(new Error("kubeapps-pager: a request before init(): await init() first"));
      chunk = makeFetcher(kind, url, headers, cluster, namespace, list);
    }
    return chunk(request, init);
  };
}

/** A request's `limit` as a whole number (0 when it is not a number). */
function limitOf(request) {
  const n = field(request, "limit");
  return typeof n === "number" && Number.isFinite(n) && n >= 0 ? Math.min(Math.trunc(n), 4294967295) : 0;
}

/** The signal in `fetchChunk`'s second argument. */
function signalOf(init) {
  return isObject(init) ? field(init, "signal") : undefined;
}

/** Throws `INVALID_OPTIONS` for a header that `new Headers()` refuses: when a fetcher is made, not at its first request. */
function checkHeaders(headers) {
  for (const [name, value] of headers) {
    try {
      if (typeof Headers === "function") new Headers([[name, value]]);
    } catch (e) {
      const field = `headers[${JSON.stringify(name)}]`;
      throw makeError("INVALID_OPTIONS", `invalid options: ${field}: ${stringField(e, ["message"])}`, { field });
    }
  }
}

/** Throws `INVALID_OPTIONS` naming `field` when `url` holds what `bad` matches: `what` says what. */
function checkUrl(url, bad, field, what) {
  if (bad.test(url)) throw makeError("INVALID_OPTIONS", `invalid options: ${field}: must not hold ${what}`, { field });
}

/**
 * The fetcher options read against `shape`, or `INVALID_OPTIONS`: the URL (without its trailing
 * slashes for `trim`), the `context` (kubeapps only) and the headers as [name, value] pairs
 * sorted by name, each checked by `new Headers()`.
 */
function fetcherOptions(options, shape) {
  const [url, headers = [], [cluster = "", namespace = ""] = [], list = 0] = readInput(options, shape);
  headers.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  checkHeaders(headers);
  return [url, headers, cluster, namespace, list];
}

/**
 * `kubeappsFetcher(options)`, an export of the package: a `fetchChunk` for the kubeapps-apis REST
 * gateway, `GET {baseUrl}/plugins/{plugin}/packages/v1alpha1/availablepackages` (plugin
 * `helm.packages` → `helm`; `installedpackages` with `list: "installed"`), `KubeappsFetcherOptions`: plugin, cluster and namespace from each
 * request's source (`context.cluster`/`namespace` fill empty ones). Throws `INVALID_OPTIONS`. A
 * non-2xx answer rejects with a `SOURCE_FAILED` whose `details` carry `status`, and for a
 * Kubernetes `Status` body its `reason` and `metadata.continue` (`continue`), which is what
 * `Pager.fail` and `nextPage` read to recover from 410 Expired. The options are read here (also
 * before `init()`); each request is the wasm's (`src/wasm/fetch.rs`: the global `fetch` through
 * web-sys), and needs `init()` to have run.
 */
function kubeappsFetcher(options) {
  const [url, headers, cluster, namespace, list] = fetcherOptions(options, KUBEAPPS_FETCHER);
  checkUrl(url, /[?#]/, "baseUrl", "a query or fragment (the path and the query are the fetcher's)");
  return restFetcher(0, url.replace(/\/+$/, ""), headers, cluster, namespace, LISTS[list]);
}

/** UTF-8 byte order (the core's), by code points: JS's own sort compares UTF-16 units. */
function utf8Order(a, b) {
  const x = [...a], y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0) - y[i].codePointAt(0);
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/**
 * `kubeappsFilterOptions(filter)`, an export of the package: the Kubeapps `FilterOptions` (JSON
 * field names, empty fields left out, as protojson writes them) that the pager sends a source that
 * filters for the pager's `filter` (`FilterOptions`): the query trimmed of Unicode white space,
 * categories and repositories sorted (UTF-8 byte order) without repeats, `plugins` left out (the
 * pager applies it); `undefined` when nothing is left. A request to such a source carries it as
 * `filterOptions`; a fetcher of another transport (Connect, gRPC-web) puts it in its request.
 * Throws `INVALID_OPTIONS` as `new Pager` does for a bad filter.
 */
function kubeappsFilterOptions(filter) {
  const [query = "", categories = [], repositories = [], , pkgVersion = "", appVersion = ""] = readInput(filter ?? {}, FILTER);
  const set = (v) => [...new Set(v)].sort(utf8Order);
  const out = {};
  const q = query.replace(/^\p{White_Space}+|\p{White_Space}+$/gu, "");
  if (q !== "") out.query = q;
  if (categories.length > 0) out.categories = set(categories);
  if (repositories.length > 0) out.repositories = set(repositories);
  if (pkgVersion !== "") out.pkgVersion = pkgVersion;
  if (appVersion !== "") out.appVersion = appVersion;
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * `kubernetesListFetcher(options)`, an export of the package: a `fetchChunk` for a plain Kubernetes
 * list (`KubernetesListFetcherOptions`): adds `limit` and, when given, `continue`. Throws
 * `INVALID_OPTIONS`; answers as `kubeappsFetcher`'s.
 */
function kubernetesListFetcher(options) {
  const [url, headers] = fetcherOptions(options, LIST_FETCHER);
  checkUrl(url, /#/, "url", "a fragment (limit and continue would land in it)");
  return restFetcher(1, url, headers);
}

/**
 * The HTTP status of each Connect / gRPC code (index: the code's number, 1 canceled … 16
 * unauthenticated), as grpc-gateway maps them (runtime.HTTPStatusFromCode), which is what the
 * kubeapps-apis REST gateway answers for the same failure: a source fails alike over either.
 */
const CONNECT_STATUS = [200, 499, 500, 400, 504, 404, 409, 403, 429, 400, 409, 400, 501, 500, 503, 500, 401];
const CONNECT_CODES = "ok canceled unknown invalid_argument deadline_exceeded not_found already_exists permission_denied resource_exhausted failed_precondition aborted out_of_range unimplemented internal unavailable data_loss unauthenticated".split(" ");

/**
 * `connectFetcher(options)`, an export of the package: a `fetchChunk` over a dashboard's own
 * Connect clients (`createPromiseClient(HelmPackagesService, transport)`, @connectrpc/connect v1,
 * any transport: Connect, gRPC-web, gRPC). `options.clients` maps a plugin name to its client;
 * each request calls the client's `getAvailablePackageSummaries` (`getInstalledPackageSummaries`
 * with `list: "installed"`) with `{ context, paginationOptions: { pageToken, pageSize } }` and
 * `{ signal }` plus `callOptions`, and resolves with the response message as it is. A failure
 * rejects with `SOURCE_FAILED`: `details.status` the code's HTTP status (`CONNECT_STATUS`),
 * `details.connectCode` its name, `cause` the ConnectError itself. An abort passes through as it
 * is (nextPage reports `ABORTED`). Throws `INVALID_OPTIONS` for a client without the method.
 */
function connectFetcher(options) {
  const clients = field(options, "clients");
  // The plain-data options read as JSON (the clients and callOptions hold functions and signals).
  const rest = {};
  for (const key of Object.keys(isObject(options) ? options : {})) if (key !== "clients" && key !== "callOptions") rest[key] = options[key];
  const [[cluster = "", namespace = ""] = [], list = 0] = readInput(rest, CONNECT_FETCHER);
  const method = list ? "getInstalledPackageSummaries" : "getAvailablePackageSummaries";
  const callOptions = field(options, "callOptions");
  if (!isObject(clients)) throw makeError("INVALID_OPTIONS", "invalid options: clients: expected an object of plugin name → Connect client", { field: "clients" });
  for (const plugin of Object.keys(clients)) {
    if (typeof field(clients[plugin], method) !== "function") {
      const at = `clients[${JSON.stringify(plugin)}]`;
      throw makeError("INVALID_OPTIONS", `invalid options: ${at}: a Connect client with ${method}()`, { field: at });
    }
  }
  return async (request, init) => {
    const plugin = stringField(request, ["source", "plugin"]);
    const client = Object.hasOwn(clients, plugin) ? clients[plugin] : undefined;
    const at = `${plugin} ${method}`;
    if (client === undefined) throw makeError("SOURCE_FAILED", `${at}: no client for plugin ${JSON.stringify(plugin)} in options.clients`, { status: 0 });
    const signal = signalOf(init);
    const call = { ...(isObject(callOptions) ? callOptions : {}) };
    if (isObject(signal)) call.signal = signal;
    const message = {
      context: { cluster: stringField(request, ["source", "cluster"]) || cluster, namespace: stringField(request, ["source", "namespace"]) || namespace },
      paginationOptions: { pageToken: stringField(request, ["pageToken"]), pageSize: limitOf(request) },
    };
    // The filter, for a source that filters (Kubeapps' FilterOptions: the message field's init).
    const filter = field(request, "filterOptions");
    if (isObject(filter)) message.filterOptions = filter;
    try {
      return await client[method](message, call);
    } catch (e) {
      if (isObject(signal) && field(signal, "aborted")) throw e;
      const code = field(e, "code");
      const name = typeof code === "number" ? CONNECT_CODES[code] : undefined;
      const status = name ? CONNECT_STATUS[code] : 0;
      const text = field(e, "rawMessage") ?? causeText(e);
      const details = { status, cause: e };
      if (name) details.connectCode = name;
      throw makeError("SOURCE_FAILED", `${at}: ${name ? `${name} (HTTP ${status})` : "no answer"}${text ? `: ${text}` : ""}`, details);
    }
  };
}

export { drive, guardPager, kubeappsFetcher, kubeappsFilterOptions, kubernetesListFetcher, kubernetesFetcher, connectFetcher, readOptions, readFailure, useFetchers, failed, causeText };
