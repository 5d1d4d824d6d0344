// The built-in REST fetchers' factories, exports of the package: `kubeappsFetcher` and
// `kubernetesListFetcher` read their options here (also before `init()`) and hand each request to
// the wasm (src/wasm/fetch.rs: the URL, the request's `filterOptions` as the core gave them, then
// web-sys `fetch`); `failed` makes the `SOURCE_FAILED` of a non-2xx answer, with what `Pager.fail`
// and `nextPage` read (`status`, `reason`, `continue`, `retryAfterMs`).
// Keep the import lines and the export line as they are: scripts/package.mjs rewrites them to
// CommonJS for the nodejs build.

import { makeError } from "./errors.js";
import { isObject } from "./json.js";
import { field, stringField, readInput, KUBEAPPS_FETCHER, LIST_FETCHER, LISTS } from "./inputs.js";

/**
 * A `Retry-After` value (RFC 9110 §10.2.3: delay-seconds, or an HTTP date) in milliseconds from
 * now (0 for a date past), or `undefined` when there is none or it reads as neither.
 */
function retryAfterMs(value) {
  if (typeof value !== "string" || value.trim() === "") return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Math.min(Number(v), 4294967) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** The `Retry-After` header of `headers` (a `Headers`, or anything with a `get`), in ms. */
function retryAfterOf(headers) {
  try {
    return retryAfterMs(typeof field(headers, "get") === "function" ? headers.get("retry-after") : undefined);
  } catch {
    return undefined;
  }
}

/**
 * The `SOURCE_FAILED` error of a built-in REST fetcher: `cause` is the transport's own error (the
 * fetch `Response` of a non-2xx answer, the network error of no answer); `details.body` the
 * answer's JSON body (a Kubernetes `Status`, a gRPC-gateway error), when it has one;
 * `details.retryAfterMs` the answer's `Retry-After` (a 429's, a 503's), in ms, when it has one.
 */
function failed(url, status, body, cause, why = "") {
  const details = { status, url };
  const reason = stringField(body, ["reason"]);
  if (reason !== "") details.reason = reason;
  const cont = stringField(body, ["metadata", "continue"]);
  if (cont !== "") details.continue = cont;
  if (isObject(body)) details.body = body;
  if (cause !== undefined) details.cause = cause;
  const after = retryAfterOf(field(cause, "headers"));
  if (after !== undefined) details.retryAfterMs = after;
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


export { kubeappsFetcher, kubernetesListFetcher, useFetchers, failed, limitOf, signalOf, retryAfterOf, retryAfterMs };
