// Any Kubernetes resource as a pager source, and one fetchChunk over many clusters (issue 25).
//
// A resource source (`{ cluster, resource, namespace?, labelSelector?, fieldSelector? }`) is read
// here into the source the core knows (`{ plugin, cluster, namespace, kind: "kubernetes" }`): its
// `plugin` is the list's own name, `resource.version[.group]` as kubectl spells a fully qualified
// resource (`deployments.v1.apps`, `pods.v1`), followed by its selectors as a URL query when it has
// any (`pods.v1?labelSelector=app%3Dweb`). So the source's identity, its label on every page
// (`pods.v1/east/`), its page token and the fingerprint all name the list with its selectors, and
// each request carries what `kubernetesFetcher` needs to build its URL. Nothing is decided here
// that the core decides (order, recovery, what is unreachable): the fetcher only maps the HTTP
// answer to the failure shape the core reads (status, reason, continue).
// Keep the import and export lines as they are: scripts/package.mjs rewrites them to CommonJS.

import { makeError } from "./errors.js";
import { isObject, wellFormed } from "./json.js";

/** A resource's or version's name (a DNS label, RFC 1123, as the apiserver's paths hold them). */
const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** An API group (a DNS subdomain: labels joined by dots). */
const GROUP = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
/** A list path: `/api/<version>/<resource>` (the core group) or `/apis/<group>/<version>/<resource>`. */
const LIST_PATH = /^\/(?:api\/([^/]+)|apis\/([^/]+)\/([^/]+))\/([^/]+)$/;

const invalid = (field, problem) =>
  makeError("INVALID_OPTIONS", `invalid options: ${field}: ${problem}`, { field });

/**
 * The key `resource.version[.group]` of a resource as `readOptions` read it: `[group, version,
 * resource]` (an object `{ group?, version, resource }`) or a string, either that key itself
 * (`deployments.v1.apps`) or a list path (`/apis/apps/v1/deployments`, `/api/v1/pods`). Throws
 * `INVALID_OPTIONS` naming `field` for a name the apiserver's paths cannot hold.
 */
function resourceKey(resource, field) {
  let group, version, name;
  if (typeof resource === "string") {
    const path = LIST_PATH.exec(resource);
    if (path) {
      [version, group, name] = [path[1] ?? path[3], path[2] ?? "", path[4]];
    } else if (resource.startsWith("/")) {
      throw invalid(field, "a list path is /api/<version>/<resource> or /apis/<group>/<version>/<resource>");
    } else {
      const parts = resource.split(".");
      [name, version = "", group] = [parts[0], parts[1], parts.slice(2).join(".")];
    }
  } else {
    [group = "", version, name] = resource;
  }
  if (!LABEL.test(name)) throw invalid(field, `resource ${JSON.stringify(name)} is not a resource name (lowercase letters, digits, '-')`);
  if (!LABEL.test(version)) throw invalid(field, `version ${JSON.stringify(version)} is not an API version (e.g. v1)`);
  if (group !== "" && !GROUP.test(group)) throw invalid(field, `group ${JSON.stringify(group)} is not an API group (e.g. apps)`);
  return group === "" ? `${name}.${version}` : `${name}.${version}.${group}`;
}

/**
 * One source of `readOptions`' extended shape (`[plugin, cluster, namespace, kind, order, filter,
 * resource, labelSelector, fieldSelector]`, `undefined` = not given), `i` its index, as the core's
 * shape `[plugin, cluster, namespace, kind, order, filter]`: a resource source becomes a
 * `kubernetes` source whose plugin is its key and selectors (see the top of this file). Throws
 * `INVALID_OPTIONS`: a source with both or neither of `plugin` and `resource`, a selector without
 * a resource, a resource source declared of another kind.
 */
function resourceSource(fields, i) {
  const [plugin, cluster, namespace, kind, order, filter, resource, labelSelector, fieldSelector] = fields;
  const at = `sources[${i}]`;
  if (resource === undefined) {
    if (plugin === undefined) throw invalid(`${at}.plugin`, "missing (required), or give a resource");
    for (const [name, v] of [["labelSelector", labelSelector], ["fieldSelector", fieldSelector]]) {
      if (v !== undefined) throw invalid(`${at}.${name}`, "a selector goes with a resource (the apiserver applies it)");
    }
    return [plugin, cluster, namespace, kind, order, filter];
  }
  if (plugin !== undefined) throw invalid(`${at}.plugin`, "a source has a plugin or a resource, not both");
  if (kind !== undefined && kind !== 0) throw invalid(`${at}.kind`, 'a resource is listed by an apiserver: "kubernetes"');
  let key = resourceKey(resource, `${at}.resource`);
  const query = new URLSearchParams();
  if (labelSelector) query.set("labelSelector", labelSelector);
  if (fieldSelector) query.set("fieldSelector", fieldSelector);
  if (query.toString() !== "") key += `?${query}`;
  return [key, cluster, namespace, 0, order, filter];
}

/**
 * The list URL of a request's source (`{ plugin, cluster, namespace }`, the plugin a resource
 * source's key) under `baseUrl`, with `limit`, `continue` and the source's selectors; `null` when
 * the plugin is no resource key.
 */
function listUrl(baseUrl, source, limit, token) {
  const plugin = typeof source?.plugin === "string" ? source.plugin : "";
  const q = plugin.indexOf("?");
  const [key, selectors] = q < 0 ? [plugin, ""] : [plugin.slice(0, q), plugin.slice(q + 1)];
  const [name = "", version = "", ...rest] = key.split(".");
  const group = rest.join(".");
  if (!LABEL.test(name) || !LABEL.test(version) || (group !== "" && !GROUP.test(group))) return null;
  const namespace = typeof source.namespace === "string" ? source.namespace : "";
  const path =
    (group === "" ? `/api/${version}` : `/apis/${group}/${version}`) +
    (namespace === "" ? "" : `/namespaces/${encodeURIComponent(namespace)}`) +
    `/${name}`;
  const query = new URLSearchParams(selectors);
  // A whole number of items (0: the apiserver's own default, all of them: not sent).
  if (limit > 0) query.set("limit", String(limit));
  if (token !== "") query.set("continue", token);
  const search = query.toString();
  return search === "" ? `${baseUrl}${path}` : `${baseUrl}${path}?${search}`;
}

/** `SOURCE_FAILED` for a request to `url` of `source` (its label), with `details` and `cause`. */
function sourceFailed(label, url, text, details, cause) {
  const d = { ...details, source: label, url };
  if (cause !== undefined) d.cause = cause;
  return makeError("SOURCE_FAILED", `${label}: GET ${url}: ${text}`, d);
}

/**
 * The clusters of `kubernetesFetcher`'s options as a Map of name → { baseUrl, headers }: `headers`
 * [name, value] pairs, each checked by `new Headers()`. Throws `INVALID_OPTIONS`.
 */
function readClusters(options) {
  const clusters = isObject(options) ? options.clusters : undefined;
  if (!isObject(clusters) || Array.isArray(clusters)) throw invalid("clusters", "expected an object of cluster name → { baseUrl, headers? }");
  const out = new Map();
  for (const name of Object.keys(clusters)) {
    const at = `clusters[${JSON.stringify(name)}]`;
    const c = clusters[name];
    if (!isObject(c)) throw invalid(at, "expected an object { baseUrl, headers? }");
    const { baseUrl, headers = {} } = c;
    if (typeof baseUrl !== "string" || !wellFormed(baseUrl)) throw invalid(`${at}.baseUrl`, "expected a string (the apiserver, kubectl proxy or a dashboard's /clusters/<name> proxy)");
    if (/[?#]/.test(baseUrl)) throw invalid(`${at}.baseUrl`, "must not hold a query or fragment (the path and the query are the fetcher's)");
    if (!isObject(headers) || Array.isArray(headers)) throw invalid(`${at}.headers`, "expected an object of header name → value");
    const pairs = [];
    for (const [k, v] of Object.entries(headers)) {
      if (typeof v !== "string") throw invalid(`${at}.headers[${JSON.stringify(k)}]`, "expected a string");
      try {
        if (typeof Headers === "function") new Headers([[k, v]]);
      } catch (e) {
        throw invalid(`${at}.headers[${JSON.stringify(k)}]`, String(e?.message ?? e));
      }
      pairs.push([k, v]);
    }
    out.set(name, { baseUrl: baseUrl.replace(/\/+$/, ""), headers: pairs });
  }
  if (out.size === 0) throw invalid("clusters", "no cluster given");
  return out;
}

/**
 * `kubernetesFetcher(options)`, an export of the package: one `fetchChunk` for resource sources
 * over many clusters (`KubernetesFetcherOptions`): `options.clusters` maps each source's `cluster`
 * to `{ baseUrl, headers? }`, the URL an apiserver's paths go under (`kubectl proxy`'s
 * `http://127.0.0.1:8001`, Headlamp's `/clusters/<name>`, the apiserver itself). Each request is
 * `GET {baseUrl}/api/<version>[/namespaces/<ns>]/<resource>` (the core group) or
 * `/apis/<group>/<version>/...`, with `limit`, `continue`, `labelSelector` and `fieldSelector`,
 * and resolves with the Kubernetes List, each item given `cluster` (the source's cluster name, unless
 * it has one). It rejects with `SOURCE_FAILED` naming the source
 * (`details.source`, `url`, `status`, `reason`, `continue`, `body`, `cause`): a non-2xx answer
 * with its status and, for a Kubernetes `Status`, its `reason` and `metadata.continue` (a 410's
 * recovery; 404 an unknown resource and 400 a refused selector set the source aside); no answer
 * with status 0; an answer that is no JSON (an HTML page: a baseUrl that is no apiserver) with
 * its status and reason `NotFound` (no list there: set aside); a source whose cluster is not in
 * `clusters`, status 404 reason `NotFound`. An abort rejects as fetch does. Throws
 * `INVALID_OPTIONS` for bad options.
 */
function kubernetesFetcher(options) {
  const clusters = readClusters(options);
  return async (request, init) => {
    const source = isObject(request) && isObject(request.source) ? request.source : {};
    const label = `${source.plugin}/${source.cluster}/${source.namespace}`;
    const cluster = clusters.get(source.cluster);
    if (cluster === undefined) {
      throw makeError("SOURCE_FAILED", `${label}: no cluster ${JSON.stringify(source.cluster)} in options.clusters`, { source: label, status: 404, reason: "NotFound" });
    }
    const limit = typeof request.limit === "number" && request.limit > 0 ? Math.trunc(request.limit) : 0;
    const token = typeof request.pageToken === "string" ? request.pageToken : "";
    const url = listUrl(cluster.baseUrl, source, limit, token);
    if (url === null) {
      throw makeError("SOURCE_FAILED", `${label}: not a resource source (its plugin is no resource.version.group)`, { source: label, status: 404, reason: "NotFound" });
    }
    const signal = isObject(init) ? init.signal : undefined;
    let response;
    try {
      response = await fetch(url, { headers: [["Accept", "application/json"], ...cluster.headers], signal });
    } catch (e) {
      if (signal?.aborted) throw e;
      throw sourceFailed(label, url, `no answer (${e?.message ?? e})`, { status: 0 }, e);
    }
    const text = await response.text().catch(() => "");
    let body;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const status = response.status;
    if (!isObject(body)) {
      const type = response.headers.get("content-type") ?? "no content type";
      // An HTML page (a dashboard's index.html behind a wrong baseUrl, a login page): no list
      // there, and none on a retry.
      const details = { status, reason: "NotFound", contentType: type };
      throw sourceFailed(label, url, `HTTP ${status}: ${type}, not a Kubernetes List or Status (is baseUrl an apiserver or its proxy?)`, details, response);
    }
    if (!response.ok) {
      const details = { status, body };
      if (typeof body.reason === "string" && body.reason !== "") details.reason = body.reason;
      const cont = isObject(body.metadata) ? body.metadata.continue : undefined;
      if (typeof cont === "string" && cont !== "") details.continue = cont;
      const message = typeof body.message === "string" && body.message !== "" ? `: ${body.message}` : "";
      throw sourceFailed(label, url, `HTTP ${status}${message}`, details, response);
    }
    // Each object says which cluster it came from (as Headlamp's objects do): its own copy, fresh
    // from JSON.parse; a `cluster` field the server sent is kept.
    if (Array.isArray(body.items)) for (const item of body.items) if (isObject(item) && !("cluster" in item)) item.cluster = source.cluster;
    return body;
  };
}

export { kubernetesFetcher, resourceSource, resourceKey, listUrl };
