// Shared test helpers: a server per test file, JSON requests, token decoding, scans.
import { startServer } from "../../server/main.mjs";

/** Starts a server on a free port; returns it with `get`, `post` bound to its URL. */
export async function serve(options = {}) {
  const s = await startServer({ port: 0, ...options });
  const base = s.url.replace(/\/$/, "");
  const request = async (method, path, body) => {
    const res = await fetch(base + path, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  };
  return {
    ...s,
    base,
    get: (path) => request("GET", path),
    post: (path, body = {}) => request("POST", path, body),
  };
}

/** Query string from an object (arrays become repeated parameters). */
export function qs(params) {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    for (const x of Array.isArray(v) ? v : [v]) u.append(k, String(x));
  }
  return u.toString();
}

/** The kubeapps-apis path of a plugin's (or the core's) available packages. */
export function availablePath(plugin, params) {
  const base = plugin === "core"
    ? "/apis/core/packages/v1alpha1/availablepackages"
    : `/apis/plugins/${plugin}/packages/v1alpha1/availablepackages`;
  return `${base}?${qs(params)}`;
}

/** `plugin/cluster/namespace/identifier` of a summary. */
export function identityOfSummary(s) {
  const r = s.availablePackageRef;
  return `${r.plugin.name}/${r.context.cluster}/${r.context.namespace}/${r.identifier}`;
}

/** The JSON inside a continue token. */
export function decodeToken(token) {
  return JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
}

/**
 * scan follows a plugin's (or the core's) pages to the end; returns `{pages, items,
 * tokens}`. `between(i)` runs after page i (for mutations). Stops after `maxPages`.
 */
export async function scan(srv, plugin, params, { between, maxPages = 1000 } = {}) {
  const pages = [];
  const tokens = [];
  let token = "";
  for (let i = 0; i < maxPages; i++) {
    const r = await srv.get(availablePath(plugin, { ...params, "paginationOptions.pageToken": token || undefined }));
    if (r.status !== 200) throw new Error(`page ${i}: HTTP ${r.status} ${r.text}`);
    pages.push(r.json.availablePackageSummaries ?? []);
    token = r.json.nextPageToken ?? "";
    tokens.push(token);
    if (!token) break;
    if (between) await between(i, token);
  }
  return { pages, items: pages.flat(), tokens };
}

/** Identities seen more than once, and identities of `expected` never seen. */
export function faults(seenIdentities, expected) {
  const count = new Map();
  for (const id of seenIdentities) count.set(id, (count.get(id) ?? 0) + 1);
  const duplicates = [...count].filter(([, n]) => n > 1).map(([id]) => id);
  const misses = expected.filter((id) => !count.has(id));
  return { duplicates, misses };
}
