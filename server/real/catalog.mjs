// The catalog of the real-service mode, laid out as a Kubeapps installation has it:
// - helm: every repository of the catalog global (namespace `kubeapps`, Kubeapps' global
//   packaging namespace); a namespaced repository keeps its namespace; and, so that one
//   repository is present both globally and in a namespace, the first global one is also
//   synced into `team-a` when no repository is already so (the real data). A helm request
//   in `team-a` reads team-a's rows and the global ones: many names then come twice.
// - fluxv2: the catalog's fluxv2 repositories, in the chart cache;
// - kapp_controller: the PackageMetadatas, in etcd.
// With `--data`, the Helm indexes are read again for the fields the plugin's search reads
// (keywords, sources, maintainers) and every version (chartVersions).
import fs from "node:fs/promises";
import path from "node:path";
import { parseHelmIndex } from "../catalog/helm.mjs";
import { chartInfo } from "./helm-pg.mjs";

/** Kubeapps' global packaging namespace. */
export const GLOBAL_NAMESPACE = "kubeapps";
/** The namespace the demo's helm source lists (its rows and the global ones). */
export const HELM_NAMESPACE = "team-a";

/** Per `repo/name`: the index fields the records do not keep (`--data` only). */
export async function readIndexExtras(dataDir) {
  const extras = new Map();
  if (!dataDir) return extras;
  for (const e of await fs.readdir(dataDir, { withFileTypes: true })) {
    if (!e.isDirectory()) continue;
    let text;
    try {
      text = await fs.readFile(path.join(dataDir, e.name, "index.yaml"), "utf8");
    } catch {
      continue;
    }
    const index = parseHelmIndex(text, e.name);
    for (const [key, versions] of Object.entries(index.entries)) {
      if (!Array.isArray(versions) || !versions.length) continue;
      const first = versions[0] ?? {};
      extras.set(`${e.name}/${first.name || key}`, {
        home: first.home ?? "",
        keywords: Array.isArray(first.keywords) ? first.keywords.map(String) : [],
        sources: Array.isArray(first.sources) ? first.sources.map(String) : [],
        maintainers: Array.isArray(first.maintainers) ? first.maintainers.map((m) => ({ name: String(m?.name ?? ""), email: String(m?.email ?? "") })) : [],
        versions: versions.filter((v) => v?.version).map((v) => ({ version: v.version, appVersion: v.appVersion ?? "", created: v.created, digest: v.digest, urls: v.urls })),
      });
    }
  }
  return extras;
}

/** The chart info (models.Chart JSON) of a helm record in `namespace`. */
export function infoOfRecord(rec, namespace, extras = new Map()) {
  const x = extras.get(rec.identifier) ?? {};
  const versions = x.versions ?? (rec.latestVersion ? [{ version: rec.latestVersion.pkgVersion, appVersion: rec.latestVersion.appVersion }] : []);
  return chartInfo({
    namespace, repo: rec.repo, name: rec.name, description: rec.shortDescription ?? "", home: x.home,
    keywords: x.keywords, maintainers: x.maintainers, sources: x.sources, icon: rec.iconUrl ?? "",
    category: rec.categories?.[0] ?? "", versions,
  });
}

/**
 * layout splits catalog records into `{helm: [info], flux: [{namespace, repo, charts}], kapp:
 * [record]}` (see the file's head).
 */
export function layout(records, extras = new Map()) {
  const helmRecs = records.filter((r) => r.plugin === "helm.packages");
  const helm = helmRecs.map((r) => infoOfRecord(r, r.namespace === GLOBAL_NAMESPACE ? GLOBAL_NAMESPACE : r.namespace, extras));
  const global = new Set(helm.filter((i) => i.repo.namespace === GLOBAL_NAMESPACE).map((i) => i.repo.name));
  const both = helm.some((i) => i.repo.namespace !== GLOBAL_NAMESPACE && global.has(i.repo.name));
  if (!both && global.size) {
    const first = [...global].sort()[0];
    for (const r of helmRecs.filter((x) => x.repo === first && x.namespace === GLOBAL_NAMESPACE)) helm.push(infoOfRecord(r, HELM_NAMESPACE, extras));
  }
  // --data puts a clashing repository in a namespace of its own: in SQL it can be global.
  for (const i of helm) {
    if (i.repo.namespace !== GLOBAL_NAMESPACE && i.repo.namespace !== HELM_NAMESPACE && i.repo.namespace === i.repo.name) i.repo.namespace = GLOBAL_NAMESPACE;
  }
  const fluxRepos = new Map();
  for (const r of records.filter((x) => x.plugin === "fluxv2.packages")) {
    const k = `${r.namespace}/${r.repo}`;
    if (!fluxRepos.has(k)) fluxRepos.set(k, { namespace: r.namespace, repo: r.repo, charts: [] });
    const x = extras.get(r.identifier) ?? {};
    fluxRepos.get(k).charts.push({
      name: r.name, description: r.shortDescription ?? "", keywords: x.keywords ?? [], sources: x.sources ?? [],
      maintainers: x.maintainers ?? [], icon: r.iconUrl ?? "", category: r.categories?.[0] ?? "",
      version: r.latestVersion?.pkgVersion ?? "", appVersion: r.latestVersion?.appVersion ?? "",
    });
  }
  return { helm, flux: [...fluxRepos.values()], kapp: records.filter((r) => r.plugin === "kapp_controller.packages") };
}
