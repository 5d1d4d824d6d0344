// The fluxv2 plugin's GetAvailablePackageSummaries as kubeapps-apis pages it
// (plugins/fluxv2/packages/v1alpha1/server.go, chart.go filterAndPaginateCharts), rewritten:
// the charts of each ready HelmRepository come from the plugin's chart cache as one list per
// repository (sorted by name inside it here), the repositories are walked as a Go map
// (`for _, packages := range charts`): in an order Go randomises on every walk, so on every
// request; the filter (case-sensitive substring, categories any-of, versions of the newest
// entry) runs while walking; the decimal offset counts the charts that passed; nextPageToken
// only on a full page; no categories in the answer. The chart cache (Redis in Kubeapps) is
// this in-memory map: Flux keeps no SQL database to stand in for.
import { randomInt } from "node:crypto";
import { PluginError } from "./plugin-error.mjs";
import { itemOffsetFromPageToken } from "./paginate.mjs";
import { CLUSTER } from "./helm-pg.mjs";

const byteOrder = (a, b) => Buffer.compare(Buffer.from(a.name), Buffer.from(b.name));

// A chart (models.Chart fields the plugin reads) as an AvailablePackageSummary.
function summary(c) {
  const out = {
    availablePackageRef: {
      context: { cluster: CLUSTER, namespace: c.namespace },
      identifier: `${c.repo}/${c.name}`,
      plugin: { name: "fluxv2.packages", version: "v1alpha1" },
    },
    name: c.name,
  };
  if (c.version) out.latestVersion = { pkgVersion: c.version, ...(c.appVersion ? { appVersion: c.appVersion } : {}) };
  if (c.icon) out.iconUrl = c.icon;
  out.displayName = c.name;
  if (c.description) out.shortDescription = c.description;
  out.categories = [c.category ?? ""];
  return out;
}

function passesFilter(c, f) {
  if (f.categories?.length && !f.categories.includes(c.category ?? "")) return false;
  if (f.appVersion && f.appVersion !== (c.appVersion ?? "")) return false;
  if (f.pkgVersion && f.pkgVersion !== (c.version ?? "")) return false;
  const q = f.query ?? "";
  if (!q) return true;
  return c.name.includes(q) || (c.description ?? "").includes(q) || (c.keywords ?? []).some((k) => k.includes(q)) ||
    (c.sources ?? []).some((s) => s.includes(q)) || (c.maintainers ?? []).some((m) => (m.name ?? "").includes(q));
}

/**
 * FluxService holds the chart cache: repositories `namespace/name` → charts `{namespace, repo,
 * name, description, keywords, sources, maintainers, icon, category, version, appVersion}`.
 * `random(n)` picks the walk order (default: crypto randomness, as Go's map iteration).
 */
export class FluxService {
  constructor({ random = (n) => randomInt(n) } = {}) {
    this.repos = new Map();
    this.random = random;
  }

  /** Replaces a repository's charts (a resync of its index). */
  setRepo(namespace, repo, charts) {
    this.repos.set(`${namespace}/${repo}`, charts.map((c) => ({ ...c, namespace, repo })).sort(byteOrder));
  }

  /** Inserts or replaces one chart. */
  upsert(chart) {
    const key = `${chart.namespace}/${chart.repo}`;
    const list = (this.repos.get(key) ?? []).filter((c) => c.name !== chart.name);
    list.push(chart);
    this.repos.set(key, list.sort(byteOrder));
  }

  /** Deletes one chart; returns it or null. */
  delete(namespace, repo, name) {
    const list = this.repos.get(`${namespace}/${repo}`) ?? [];
    const i = list.findIndex((c) => c.name === name);
    return i < 0 ? null : list.splice(i, 1)[0];
  }

  /** Every chart. */
  all() {
    return [...this.repos.values()].flat();
  }

  /** GetAvailablePackageSummaries (see the file's head). */
  async getAvailablePackageSummaries(request = {}) {
    const cluster = request.context?.cluster ?? "";
    if (cluster !== "" && cluster !== CLUSTER) throw new PluginError("unimplemented", `Not supported yet: request.Context.Cluster: [${cluster}]`);
    const offset = itemOffsetFromPageToken(request.paginationOptions?.pageToken ?? "");
    const pageSize = Number(request.paginationOptions?.pageSize ?? 0) | 0;
    const f = request.filterOptions ?? {};
    const wanted = (f.repositories ?? []).filter(Boolean);
    const keys = [...this.repos.keys()].filter((k) => !wanted.length || wanted.includes(k.slice(k.indexOf("/") + 1)));
    for (let i = keys.length - 1; i > 0; i--) {
      const j = this.random(i + 1);
      [keys[i], keys[j]] = [keys[j], keys[i]];
    }
    const out = [];
    const startAt = pageSize > 0 ? offset : -1;
    let i = 0;
    walk: for (const k of keys) {
      for (const c of this.repos.get(k)) {
        if (!passesFilter(c, f)) continue;
        i += 1;
        if (startAt < i) {
          out.push(summary(c));
          if (pageSize > 0 && out.length === pageSize) break walk;
        }
      }
    }
    const res = {};
    if (out.length) res.availablePackageSummaries = out;
    if (pageSize > 0 && out.length === pageSize) res.nextPageToken = String(offset + pageSize);
    return res;
  }
}
