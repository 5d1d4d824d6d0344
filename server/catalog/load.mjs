// Chooses and loads the catalog: real files (`--data DIR`), live Helm indexes
// (`--helm-index URL`), or the generated one.
import fs from "node:fs/promises";
import path from "node:path";
import { generateCatalog, hostileRecord } from "./generate.mjs";
import { helmRecords, parseHelmIndex, fetchHelmIndex, repoNameFromUrl } from "./helm.mjs";
import { carvelRecords, parseDocuments } from "./carvel.mjs";

/** The namespace of global repositories (Kubeapps' global packaging namespace). */
export const GLOBAL_NAMESPACE = "kubeapps";

async function walk(dir, names, out = []) {
  let entries;
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) await walk(p, names, out);
    else if (e.isFile() && names.includes(e.name)) out.push(p);
  }
  return out;
}

/**
 * place puts each repository group `{plugin, repo, records}` in the global namespace
 * unless one of its names is already there for that plugin (Kubernetes object names are
 * unique in a namespace); then the whole repository becomes a namespaced one, in a
 * namespace named after it. Duplicate names inside a group keep the first.
 */
function place(groups) {
  const taken = new Map();
  const out = [];
  for (const g of groups) {
    const seen = new Set();
    const recs = g.records.filter((r) => !seen.has(r.name) && seen.add(r.name));
    const set = taken.get(g.plugin) ?? new Set();
    taken.set(g.plugin, set);
    const clash = recs.some((r) => set.has(r.name));
    const namespace = clash ? g.repo : GLOBAL_NAMESPACE;
    if (!clash) for (const r of recs) set.add(r.name);
    for (const r of recs) out.push({ ...r, namespace });
  }
  return out;
}

/**
 * loadDataDir reads `DIR/<repo>/index.yaml` (Helm) and `DIR/<repo>/**\/metadata.yaml`,
 * `package.yaml` (Carvel). Helm charts go to helm.packages and, for the repositories in
 * `fluxRepos` (default: the first one by name), to fluxv2.packages; Carvel packages to
 * kapp_controller.packages. Returns `{groups, info}`. Throws when the folder is unreadable.
 */
export async function loadDataDir(dir, { fluxRepos } = {}) {
  const entries = await fs.readdir(dir, { withFileTypes: true });
  const repos = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  const helm = [];
  const carvel = [];
  const info = { helm: {}, carvel: {} };
  for (const repo of repos) {
    const indexPath = path.join(dir, repo, "index.yaml");
    let text = null;
    try {
      text = await fs.readFile(indexPath, "utf8");
    } catch {
      text = null;
    }
    if (text !== null) {
      const notNewestFirst = [];
      const recs = helmRecords(parseHelmIndex(text, indexPath), { repo, plugin: "helm.packages", namespace: "", notNewestFirst });
      helm.push({ repo, records: recs });
      if (notNewestFirst.length) info.helmNotNewestFirst = [...(info.helmNotNewestFirst ?? []), ...notNewestFirst];
      info.helm[repo] = recs.length;
    }
    const files = await walk(path.join(dir, repo), ["metadata.yaml", "package.yaml"]);
    if (files.length) {
      const objects = [];
      for (const f of files) objects.push(...parseDocuments(await fs.readFile(f, "utf8"), f));
      const orphans = [];
      const recs = carvelRecords(objects, { repo, namespace: "", orphans });
      if (orphans.length) info.carvelWithoutPackage = [...(info.carvelWithoutPackage ?? []), ...orphans];
      if (recs.length) {
        carvel.push({ repo, records: recs });
        info.carvel[repo] = recs.length;
      }
    }
  }
  return { helm, carvel, info, fluxRepos: fluxRepos ?? helm.slice(0, 1).map((h) => h.repo) };
}

/**
 * loadCatalog returns `{records, info}` for the server. With neither `dataDir` nor
 * `helmIndexUrls` it is the generated catalog (`seed`, `hostile`). Throws an Error with a
 * clear message when a folder cannot be read or an index cannot be fetched or parsed.
 */
export async function loadCatalog({ dataDir, helmIndexUrls = [], seed = 1, hostile = false, fluxRepos, fetchImpl } = {}) {
  if (!dataDir && helmIndexUrls.length === 0) return generateCatalog({ seed, hostile });
  let helm = [];
  let carvel = [];
  let flux = fluxRepos;
  const info = { source: "data", dataDir: dataDir ?? null, helmIndexUrls, helm: {}, carvel: {} };
  if (dataDir) {
    const d = await loadDataDir(dataDir, { fluxRepos });
    helm = d.helm;
    carvel = d.carvel;
    flux = d.fluxRepos;
    Object.assign(info.helm, d.info.helm);
    Object.assign(info.carvel, d.info.carvel);
    if (d.info.carvelWithoutPackage) info.carvelWithoutPackage = d.info.carvelWithoutPackage;
    info.helmNotNewestFirst = d.info.helmNotNewestFirst ?? [];
  }
  for (const spec of helmIndexUrls) {
    const eq = spec.indexOf("=");
    const named = eq > 0 && !spec.slice(0, eq).includes(":");
    const url = named ? spec.slice(eq + 1) : spec;
    const repo = named ? spec.slice(0, eq) : repoNameFromUrl(url);
    const recs = helmRecords(await fetchHelmIndex(url, { fetchImpl }), { repo, plugin: "helm.packages", namespace: "" });
    helm.push({ repo, records: recs });
    info.helm[repo] = recs.length;
    if (!dataDir && !flux) flux = [repo];
  }
  const fluxSet = new Set(flux ?? []);
  info.fluxRepos = [...fluxSet];
  const groups = [
    ...helm.map((h) => ({ plugin: "helm.packages", repo: h.repo, records: h.records })),
    ...helm.filter((h) => fluxSet.has(h.repo)).map((h) => ({
      plugin: "fluxv2.packages", repo: h.repo,
      records: h.records.map((r) => ({ ...r, plugin: "fluxv2.packages" })),
    })),
    ...carvel.map((c) => ({ plugin: "kapp_controller.packages", repo: c.repo, records: c.records })),
  ];
  const records = place(groups);
  if (hostile) records.push(hostileRecord());
  return { records, info };
}
