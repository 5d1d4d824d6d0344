// The benchmark's workload: three in-memory sources of generated Kubeapps `AvailablePackageSummary`
// objects and the backends that answer ChunkRequests from them, with no network. Two sources page
// by Kubeapps decimal offsets (`helm.packages`, `fluxv2.packages`), one by apiserver-format continue
// tokens and answers as a Kubernetes List (`kapp_controller.packages`). Plain ES module: runs in the
// browser and in Node alike (the bench serves the whole repository, so the demo server's PRNG is
// shared with it).

import { mulberry32 as prng } from "../../server/rng.mjs";

/** The category every tenth item carries: the 10%-selectivity filter asks for it. */
export const SELECTIVE_CATEGORY = "Database";
const CATEGORIES = [
  SELECTIVE_CATEGORY, "Monitoring", "Networking", "Security", "Storage",
  "Analytics", "CI/CD", "Messaging", "Logging", "Developer Tools",
];

/** The three sources, in the options' order. */
export const SOURCES = [
  { plugin: "helm.packages", cluster: "default", namespace: "kubeapps", kind: "kubeapps", repos: ["bitnami", "stable", "community"] },
  { plugin: "fluxv2.packages", cluster: "default", namespace: "kubeapps", kind: "kubeapps", repos: ["flux-charts", "flux-infra"] },
  { plugin: "kapp_controller.packages", cluster: "default", namespace: "kubeapps", kind: "kubernetes", repos: [] },
];

/** 600 pronounceable words; names are `word-word`, so the three sources interleave and overlap. */
function vocabulary() {
  const c = ["b", "c", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z"];
  const v = ["a", "e", "i", "o", "u"];
  const rnd = prng(7);
  const words = new Set();
  while (words.size < 600) {
    let w = "";
    const syllables = 2 + Math.floor(rnd() * 2);
    for (let k = 0; k < syllables; k++) w += c[Math.floor(rnd() * c.length)] + v[Math.floor(rnd() * v.length)];
    words.add(w);
  }
  return [...words];
}

const title = (name) => name.split("-").map((w) => w[0].toUpperCase() + w.slice(1)).join(" ");
const byteOrder = (a, b) => (a < b ? -1 : a > b ? 1 : 0); // ASCII names: UTF-16 order = byte order

/** One summary, shaped as the kubeapps-apis REST gateway sends it. */
export function summary(source, name, identifier, serial) {
  return {
    availablePackageRef: {
      context: { cluster: source.cluster, namespace: source.namespace },
      identifier,
      plugin: { name: source.plugin, version: "v1alpha1" },
    },
    name,
    displayName: title(name),
    latestVersion: { pkgVersion: `1.${serial % 50}.0`, appVersion: `2.${serial % 7}.1` },
    iconUrl: `https://charts.example.com/icons/${name}.png`,
    shortDescription: `${title(name)} packaged for Kubernetes`,
    categories: [CATEGORIES[serial % CATEGORIES.length]],
  };
}

/**
 * `perSource` summaries for each of the three sources, each list sorted by name bytes (what the
 * plugins do). Kubeapps sources hold about 5% equal names (same chart in two repositories: ties the
 * pager orders by identity); the Kubernetes source's names are unique (object names).
 */
export function generateCatalog(perSource) {
  const words = vocabulary();
  return SOURCES.map((source, s) => {
    const rnd = prng(1000 + s);
    const names = new Set();
    const target = source.kind === "kubernetes" ? perSource : Math.ceil(perSource * 0.95);
    while (names.size < target) {
      const a = words[Math.floor(rnd() * words.length)];
      const b = words[Math.floor(rnd() * words.length)];
      // A third word past 360,000 combinations keeps any size reachable.
      names.add(rnd() < 0.5 ? `${a}-${b}` : `${a}-${b}-${words[Math.floor(rnd() * words.length)]}`);
    }
    const entries = [...names].map((name, k) => ({ name, repo: k % Math.max(1, source.repos.length) }));
    // Ties: the same name again from another repository.
    for (let k = 0; entries.length < perSource; k += 19) {
      const e = entries[k % target];
      entries.push({ name: e.name, repo: (e.repo + 1) % source.repos.length });
    }
    entries.sort((x, y) => byteOrder(x.name, y.name) || x.repo - y.repo);
    return entries.map((e, serial) => {
      const identifier = source.kind === "kubernetes" ? `${e.name}.packages.example.com` : `${source.repos[e.repo]}/${e.name}`;
      return summary(source, e.name, identifier, serial * 7 + s);
    });
  });
}

// base64url without padding, for continue tokens (apiserver: base64.RawURLEncoding of JSON).
const b64urlEncode = (text) => btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const b64urlDecode = (token) => atob(token.replace(/-/g, "+").replace(/_/g, "/"));

/**
 * A plugin's search (`GetAvailablePackageSummariesRequest.filterOptions`, which the pager sends a
 * source that filters: `ChunkRequest.filterOptions`), as the helm plugin applies it in SQL
 * (`GenerateWhereClause`, see server/search.mjs): `query` a case-insensitive substring of the name,
 * the description or the repository; `categories` and `repositories` any-of, exact. `null` when
 * the request sends none (the source answers everything).
 */
export function pluginSearch(filterOptions) {
  if (!filterOptions) return null;
  const query = (filterOptions.query ?? "").toLowerCase();
  const categories = filterOptions.categories?.length ? new Set(filterOptions.categories) : null;
  const repositories = filterOptions.repositories?.length ? new Set(filterOptions.repositories) : null;
  return (s) => {
    const identifier = s.availablePackageRef.identifier;
    const slash = identifier.indexOf("/");
    const repo = slash < 0 ? identifier : identifier.slice(0, slash);
    if (repositories && !repositories.has(repo)) return false;
    if (categories && !(s.categories ?? []).some((c) => categories.has(c))) return false;
    if (query && ![s.name, s.shortDescription, repo].some((f) => (f ?? "").toLowerCase().includes(query))) return false;
    return true;
  };
}

/**
 * An answerer over a sorted list paging by decimal offsets (Kubeapps plugins today):
 * `answer(request)` gives `{ availablePackageSummaries, nextPageToken }`, the offsets over what the
 * request's `filterOptions` keeps (the plugins search, then page: the filtered list is made once
 * per filter).
 */
export function offsetBackend(all) {
  const searched = new Map();
  return (request) => {
    const key = request.filterOptions ? JSON.stringify(request.filterOptions) : "";
    let list = searched.get(key);
    if (list === undefined) {
      const keep = pluginSearch(request.filterOptions);
      searched.set(key, (list = keep ? all.filter(keep) : all));
    }
    const offset = request.pageToken === "" ? 0 : Number(request.pageToken);
    if (!Number.isSafeInteger(offset) || offset < 0) throw new Error(`bad offset token ${request.pageToken}`);
    const end = offset + request.limit;
    return {
      availablePackageSummaries: list.slice(offset, end),
      nextPageToken: end < list.length ? String(end) : "",
    };
  };
}

/**
 * An answerer paging a Kubernetes List with apiserver-format continue tokens (key `namespace/name`),
 * one snapshot at `resourceVersion`; the continue token's start is found by binary search.
 */
export function continueBackend(list, { resourceVersion = 4242 } = {}) {
  const keys = list.map((s) => `${s.availablePackageRef.context.namespace}/${s.name}`);
  const lowerBound = (key) => {
    let lo = 0, hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keys[mid] < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return (request) => {
    let start = 0;
    if (request.pageToken !== "") {
      const token = JSON.parse(b64urlDecode(request.pageToken));
      if (token.rv !== resourceVersion) throw new Error("continue token of another snapshot");
      start = lowerBound(token.start);
    }
    const chunk = list.slice(start, start + request.limit);
    const end = start + chunk.length;
    // A filter sent to a list applies after `limit`, as a selector does (chunks may come short).
    const keep = pluginSearch(request.filterOptions);
    const items = keep ? chunk.filter(keep) : chunk;
    const more = end < list.length;
    const cont = more ? b64urlEncode(JSON.stringify({ v: "meta.k8s.io/v1", rv: resourceVersion, start: `${keys[end - 1]}\u0000` })) : "";
    const metadata = { resourceVersion: String(resourceVersion), continue: cont };
    if (more) metadata.remainingItemCount = list.length - end;
    return { apiVersion: "v1", kind: "List", metadata, items };
  };
}

/** The answerers for a catalog, by source index. */
export function backends(catalog) {
  return catalog.map((list, s) => (SOURCES[s].kind === "kubernetes" ? continueBackend(list) : offsetBackend(list)));
}

/** Pager options (the package's `PagerOptions`) for a page size and selectivity (1 or 0.1). */
export function pagerOptions(pageSize, selectivity, chunkLimit = 500) {
  const options = {
    sources: SOURCES.map(({ plugin, cluster, namespace, kind }) => ({ plugin, cluster, namespace, kind })),
    pageSize,
    chunkLimit,
    sort: "name",
  };
  if (selectivity < 1) options.filter = { categories: [SELECTIVE_CATEGORY] };
  return options;
}

/**
 * Lazily generated offset sources for the memory run: `count` items each, made on request (a
 * million summaries held at once would measure the JS heap, not the pager). Names are shared by
 * the three sources (ties across sources, ordered by plugin).
 */
export function lazyBackends(count) {
  const pad = (i) => String(i).padStart(8, "0");
  return SOURCES.map((source, s) => (request) => {
    const offset = request.pageToken === "" ? 0 : Number(request.pageToken);
    const end = Math.min(count, offset + request.limit);
    const items = [];
    for (let i = offset; i < end; i++) {
      const name = `pkg-${pad(i)}`;
      items.push(summary(source, name, `repo${s}/${name}`, i));
    }
    return { availablePackageSummaries: items, nextPageToken: end < count ? String(end) : "" };
  });
}

/** Options for `lazyBackends` (every source read by offsets). */
export function lazyOptions(pageSize) {
  return {
    sources: SOURCES.map(({ plugin, cluster, namespace }) => ({ plugin, cluster, namespace, kind: "kubeapps" })),
    pageSize,
    chunkLimit: 500,
  };
}
