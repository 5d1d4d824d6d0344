// Helm repository indexes (index.yaml, apiVersion v1) mapped to records the way Kubeapps
// maps a chart to an AvailablePackageSummary (pkg/helm/index.go, pkgutils
// AvailablePackageSummaryFromChart): identifier `<repo>/<chart>`, name = displayName =
// the chart name, shortDescription = description, iconUrl = icon, categories =
// [annotations.category] of the first entry (Kubeapps keeps `[""]` when there is none),
// latest version = the first entry (Helm writes entries newest first).
import YAML from "yaml";
import { CLUSTER } from "../store.mjs";
import { highest } from "./semver.mjs";

// The last indexes parsed, by text: --backend real reads each index twice (records, then the
// fields only its SQL search needs), and a 4 MB index takes seconds to parse. Treat as read-only.
const parsed = new Map();

/** Parses an index.yaml text; throws an Error naming `source` when it is not a Helm index. */
export function parseHelmIndex(text, source = "index.yaml") {
  const hit = parsed.get(text);
  if (hit) return hit;
  const doc = parseIndexText(text, source);
  parsed.set(text, doc);
  if (parsed.size > 4) parsed.delete(parsed.keys().next().value);
  return doc;
}

function parseIndexText(text, source) {
  let doc;
  try {
    // failsafe: every scalar a string, so versions like 1.10 stay "1.10".
    doc = YAML.parse(text, { schema: "failsafe", uniqueKeys: false, maxAliasCount: -1 });
  } catch (e) {
    throw new Error(`${source}: not YAML: ${e.message}`);
  }
  if (!doc || typeof doc !== "object" || !doc.entries || typeof doc.entries !== "object") {
    throw new Error(`${source}: not a Helm repository index (no "entries" map)`);
  }
  return doc;
}

/**
 * helmRecords maps a parsed index to records of `plugin` in `namespace`, one per chart
 * that has at least one version, in index order. Charts whose first entry is not their
 * highest semver (Kubeapps would show an older "latest") are pushed to `notNewestFirst`.
 */
export function helmRecords(index, { repo, plugin, namespace, notNewestFirst = [] }) {
  const out = [];
  for (const [key, versions] of Object.entries(index.entries)) {
    if (!Array.isArray(versions) || versions.length === 0) continue;
    const first = versions[0] ?? {};
    if (!first.version) continue;
    const name = first.name || key;
    const top = highest(versions.map((v) => v?.version));
    if (top !== undefined && top !== first.version) notNewestFirst.push(`${repo}/${name}`);
    const category = first.annotations?.category ?? "";
    const rec = {
      plugin, cluster: CLUSTER, namespace, repo, name,
      identifier: `${repo}/${name}`,
      displayName: name,
      shortDescription: first.description ?? "",
      categories: [category],
      latestVersion: { pkgVersion: first.version, appVersion: first.appVersion ?? "" },
    };
    if (first.icon) rec.iconUrl = first.icon;
    // What the helm plugin's search also reads (server/search.mjs); absent = NULL in its SQL.
    if (Array.isArray(first.keywords)) rec.keywords = first.keywords.filter((k) => typeof k === "string");
    if (Array.isArray(first.sources)) rec.sources = first.sources.filter((s) => typeof s === "string");
    if (Array.isArray(first.maintainers)) {
      rec.maintainers = first.maintainers.filter((m) => typeof m?.name === "string").map((m) => ({ name: m.name }));
    }
    out.push(rec);
  }
  return out;
}

/** Fetches a live index.yaml; throws an Error that says what failed (network, HTTP, format). */
export async function fetchHelmIndex(url, { fetchImpl = globalThis.fetch, timeoutMs = 30_000 } = {}) {
  let res;
  try {
    res = await fetchImpl(url, { signal: AbortSignal.timeout(timeoutMs) });
  } catch (e) {
    throw new Error(`--helm-index ${url}: cannot fetch (${e.cause?.code ?? e.cause?.message ?? e.message})`);
  }
  if (!res.ok) throw new Error(`--helm-index ${url}: HTTP ${res.status} ${res.statusText}`);
  return parseHelmIndex(await res.text(), url);
}

/** The repository name for an index URL: the path's last folder, else the host. */
export function repoNameFromUrl(url) {
  const u = new URL(url);
  const parts = u.pathname.split("/").filter(Boolean);
  if (parts.length && /\.ya?ml$/.test(parts[parts.length - 1])) parts.pop();
  const raw = parts.length ? parts[parts.length - 1] : u.hostname;
  return raw.toLowerCase().replace(/[^a-z0-9-]+/g, "-").replace(/^-+|-+$/g, "") || "repo";
}
