// The state of the real-service mode: the three plugin services over the real stores, the
// demo's panels on top of them (churn as real writes, compaction as etcd's, injected
// failures, request counters) and the ground truth read back from the stores themselves.
// Every write the demo makes gets a demo revision (one counter over the three stores) and a
// change-log entry, so /demo/truth?since=REV can say which packages were present throughout.
import { HelmService, summaryOfChart as summaryOfInfo } from "./helm-pg.mjs";
import { FluxService } from "./flux.mjs";
import { KappService, summaryOfPackageMetadata, LATEST_VERSION_ANNOTATION } from "./kapp.mjs";
import { EtcdClient } from "./etcd.mjs";
import { PACKAGE_METADATAS, listAll } from "./kube-etcd.mjs";
import { GLOBAL_NAMESPACE, HELM_NAMESPACE, layout, infoOfRecord } from "./catalog.mjs";
import { PluginError } from "./plugin-error.mjs";
import { makeFilter } from "../filter.mjs";
import { comparatorFor } from "../order.mjs";
import { PLUGINS } from "../summary.mjs";
import { mulberry32, randInt, pick } from "../rng.mjs";
import { newRecordFor } from "../catalog/generate.mjs";

const CLUSTER = "default";

/** What each plugin does in this mode (helm and fluxv2 as their plugins; kapp_controller may switch). */
export const REAL_BEHAVIOURS = {
  "helm.packages": ["kubeapps-offset"],
  "fluxv2.packages": ["unordered"],
  "kapp_controller.packages": ["kubernetes", "kubeapps-offset"],
};

/** The record (the truth's shape) of an AvailablePackageSummary. */
export function recordOfSummary(s) {
  const ref = s.availablePackageRef;
  return {
    plugin: ref.plugin.name, cluster: ref.context.cluster ?? CLUSTER, namespace: ref.context.namespace,
    identifier: ref.identifier, name: s.name, displayName: s.displayName ?? "",
    shortDescription: s.shortDescription ?? "", categories: s.categories ?? [],
  };
}

/** The truth record of a helm row (`lightRows`), as its summary would give it. */
function helmRecord(r) {
  return {
    plugin: "helm.packages", cluster: CLUSTER, namespace: r.namespace, identifier: r.id, name: r.name,
    displayName: r.name, shortDescription: r.description, categories: [r.category],
  };
}

/** `plugin/cluster/namespace/identifier`. */
export function identityOf(r) {
  return `${r.plugin}/${r.cluster ?? CLUSTER}/${r.namespace}/${r.identifier}`;
}

function bump(v = "0.0.0") {
  const m = /^(v?)(\d+)\.(\d+)\.(\d+)(.*)$/.exec(v);
  return m ? `${m[1]}${m[2]}.${m[3]}.${Number(m[4]) + 1}` : `${v}-1`;
}

/**
 * RealApp holds the services (`services` from services.mjs), the loaded catalog (`records`,
 * `info`, `extras`), the collation of the helm database and the demo's counters.
 * `await app.load()` before use; `await app.close()` to release the connections.
 */
export class RealApp {
  constructor({ services, records, info = {}, extras, collation = "en_US.UTF-8", seed = 1, latencyMs = 0 }) {
    this.services = services;
    this.records = records;
    this.info = { ...info, backend: "real" };
    this.extras = extras;
    this.collation = collation;
    this.seed = seed;
    this.latencyMs = latencyMs;
    this.etcd = new EtcdClient(services.etcd.url);
    this.helm = new HelmService({ connection: services.pg.connection(collation) });
    this.flux = new FluxService();
    this.kapp = new KappService({ etcd: this.etcd });
    this.behaviours = { "helm.packages": "kubeapps-offset", "fluxv2.packages": "unordered", "kapp_controller.packages": "kubernetes" };
    this.onReset = [];
    this.#zero();
  }

  #zero() {
    this.revision = 0;
    this.log = [];
    this.faults = Object.fromEntries(PLUGINS.map((p) => [p, []]));
    this.requests = { core: 0, plugins: Object.fromEntries(PLUGINS.map((p) => [p, { direct: 0, viaCore: 0, kubernetesList: 0 }])) };
    this.rand = mulberry32(this.seed ^ 0xc0ffee);
  }

  /** Loads the catalog into the stores (after clearing what a previous load left). */
  async load() {
    const l = layout(this.records, this.extras);
    await this.helm.init();
    await this.helm.clear();
    await this.helm.insertCharts(l.helm);
    for (const r of l.flux) this.flux.setRepo(r.namespace, r.repo, r.charts);
    await this.etcd.range("\0"); // etcd answers
    const old = await listAll(this.etcd, PACKAGE_METADATAS);
    for (const pm of old.items) await this.kapp.delete(pm.metadata.namespace, pm.metadata.name);
    await this.kapp.putAll(l.kapp);
    this.dbCollation = await this.helm.collation();
  }

  /** Reloads the catalog and zeroes the counters (continue tokens from before keep their revision). */
  async reset() {
    this.flux = new FluxService();
    await this.load();
    this.#zero();
    for (const f of this.onReset) f();
  }

  async close() {
    await this.helm.close();
  }

  /** The plugin service of a plugin name. */
  service(plugin) {
    if (plugin === "helm.packages") return this.helm;
    if (plugin === "fluxv2.packages") return this.flux;
    if (plugin === "kapp_controller.packages") return this.kapp;
    throw new PluginError("not_found", `unknown plugin ${plugin}`);
  }

  // ---- reads ----

  /** The namespace a request without one reads `plugin` in (helm needs one: the demo's user's). */
  defaultNamespace(plugin) {
    return plugin === "helm.packages" ? HELM_NAMESPACE : "";
  }

  /**
   * pluginPage answers one GetAvailablePackageSummaries `request` (kubeapps-apis JSON) of
   * `plugin`, counted under `via`: resolves to `{ok: true, response}` or `{ok: false, reply}`
   * (a grpc-gateway error or, for kapp_controller in `kubernetes` behaviour, a Kubernetes Status).
   */
  async pluginPage(plugin, request, { via = "direct", behaviour = this.behaviours[plugin] } = {}) {
    this.requests.plugins[plugin][via] += 1;
    const fault = this.faults[plugin].shift();
    if (fault) throw new PluginError("unavailable", fault.message ?? "injected failure (POST /demo/fail)");
    if (plugin === "kapp_controller.packages" && behaviour === "kubernetes") {
      const r = await this.kapp.kubernetesPage(request);
      return r.ok ? { ok: true, response: r.response } : r;
    }
    return { ok: true, response: await this.service(plugin).getAvailablePackageSummaries(request) };
  }

  /** Every package a user in the demo's namespaces sees now, as truth records. */
  async liveRecords() {
    const helm = (await this.helm.lightRows([HELM_NAMESPACE, GLOBAL_NAMESPACE])).map(helmRecord);
    const flux = (await this.flux.getAvailablePackageSummaries({})).availablePackageSummaries ?? [];
    const kapp = (await listAll(this.etcd, PACKAGE_METADATAS)).items;
    return [...helm, ...flux.map(recordOfSummary), ...kapp.map((pm) => recordOfSummary(summaryOfPackageMetadata(pm)))];
  }

  /** GET /demo/truth over the real stores (the same parameters and answer as the simulated backend's). */
  async truth(params) {
    const sort = params.get("sort") || "name";
    const cmp = comparatorFor(sort);
    const list = (k) => params.getAll(k).flatMap((s) => s.split(",")).map((s) => s.trim()).filter(Boolean);
    const base = makeFilter({ query: params.get("query") ?? "", categories: list("categories"), repositories: list("repositories"), plugins: list("plugins") });
    const namespace = params.get("namespace") ?? "";
    const pred = namespace ? (r) => r.namespace === namespace && base(r) : base;
    const items = (await this.liveRecords()).filter(pred).sort(cmp);
    const body = {
      revision: this.revision, sort, count: items.length, identities: items.map(identityOf),
      items: items.map((r) => ({ identity: identityOf(r), plugin: r.plugin, cluster: r.cluster, namespace: r.namespace, identifier: r.identifier, name: r.name, displayName: r.displayName })),
    };
    const since = params.get("since");
    if (since !== null && since !== "") {
      const rev = Number(since);
      const broken = new Set();
      for (const e of this.log) {
        if (e.rev > rev && (!e.before || !e.after || !pred(e.before) || !pred(e.after))) broken.add(identityOf(e.before ?? e.after));
      }
      body.since = { revision: rev, identities: body.identities.filter((id) => !broken.has(id)) };
    }
    return body;
  }

  /** GET /demo/config. */
  async config(churn) {
    const counts = {};
    for (const r of await this.liveRecords()) {
      const ns = r.plugin === "helm.packages" ? HELM_NAMESPACE : r.plugin === "fluxv2.packages" ? GLOBAL_NAMESPACE : r.namespace;
      counts[r.plugin] ??= {};
      counts[r.plugin][ns] = (counts[r.plugin][ns] ?? 0) + 1;
    }
    const etcdRev = await this.etcd.revision().catch(() => null);
    return {
      cluster: CLUSTER,
      backend: "real",
      plugins: PLUGINS.map((p) => ({
        name: p, behaviour: this.behaviours[p], behaviours: REAL_BEHAVIOURS[p],
        namespaces: counts[p] ?? {}, count: Object.values(counts[p] ?? {}).reduce((a, b) => a + b, 0),
      })),
      behaviours: ["kubernetes", "kubeapps-offset", "unordered"],
      revision: this.revision,
      compactedRevision: this.compactedRevision ?? 0,
      etcdRevision: etcdRev,
      compactAfterMs: 0,
      seed: this.seed,
      catalog: this.info,
      churn: churn?.status() ?? null,
      collation: { database: this.dbCollation, requested: this.collation },
      services: { postgres: `127.0.0.1:${this.services.pg.port}`, etcd: this.services.etcd.url, folders: [this.services.pg.dir, this.services.etcd.dir] },
    };
  }

  /** Sets kapp_controller's behaviour (`kubernetes` or `kubeapps-offset`); the others are fixed here. */
  setBehaviour(plugin, behaviour) {
    if (!REAL_BEHAVIOURS[plugin]?.includes(behaviour)) {
      throw new PluginError("invalid_argument", `with --backend real, ${plugin} pages only as ${REAL_BEHAVIOURS[plugin]?.join(" or ") ?? "nothing"}: its plugin's own paging`);
    }
    this.behaviours[plugin] = behaviour;
    return plugin;
  }

  // ---- writes ----

  #logWrite(before, after) {
    this.revision += 1;
    this.log.push({ rev: this.revision, before, after });
  }

  /** etcd's own compaction at its newest revision: continue tokens of older lists answer 410. */
  async compact() {
    const rev = await this.etcd.revision();
    await this.etcd.compact(rev);
    this.compactedRevision = rev;
    return { compactedRevision: rev, revision: this.revision };
  }

  /**
   * One random write to `plugin`: `insert`, `delete`, `update` (a version bump) or, for helm,
   * `resync` (a repository's charts deleted and inserted again, in one transaction).
   * Resolves to true when something was written.
   */
  async write(plugin, kind) {
    const rand = this.rand;
    if (plugin === "helm.packages") {
      const rows = await this.helm.lightRows([HELM_NAMESPACE, GLOBAL_NAMESPACE]);
      if (kind === "resync") {
        if (!rows.length) return false;
        const { namespace, repo } = pick(rand, rows);
        const r = await this.helm.resyncRepo(namespace, repo);
        for (const info of r.inserted) {
          const rec = recordOfSummary(summaryOfInfo(info));
          this.#logWrite(rec, rec); // present before and after: the transaction hid the gap
        }
        return true;
      }
      if (kind === "insert") {
        const namespace = rows.length ? pick(rand, rows).namespace : GLOBAL_NAMESPACE;
        const taken = new Set(rows.filter((r) => r.namespace === namespace).map((r) => r.name));
        const rec = newRecordFor("helm.packages", namespace, rand, taken);
        const info = infoOfRecord(rec, namespace);
        await this.helm.upsertChart(info);
        this.#logWrite(null, recordOfSummary(summaryOfInfo(info)));
        return true;
      }
      if (!rows.length) return false;
      const victim = pick(rand, rows);
      const before = helmRecord(victim);
      if (kind === "delete") {
        await this.helm.deleteChart(victim.namespace, victim.repo, victim.id);
        this.#logWrite(before, null);
      } else {
        const info = await this.helm.chart(victim.namespace, victim.repo, victim.id);
        if (!info) return false;
        const v = info.chartVersions[0] ?? { version: "0.0.0", app_version: "" };
        info.chartVersions.unshift({ ...v, version: bump(v.version) });
        await this.helm.upsertChart(info);
        this.#logWrite(before, recordOfSummary(summaryOfInfo(info)));
      }
      return true;
    }
    if (plugin === "fluxv2.packages") {
      const all = this.flux.all();
      if (kind === "insert") {
        const base = all.length ? pick(rand, all) : { namespace: GLOBAL_NAMESPACE, repo: "bitnami" };
        const taken = new Set(all.filter((c) => c.namespace === base.namespace && c.repo === base.repo).map((c) => c.name));
        const rec = newRecordFor("fluxv2.packages", base.namespace, rand, taken);
        const chart = { namespace: base.namespace, repo: base.repo, name: rec.name, description: rec.shortDescription ?? "", category: rec.categories?.[0] ?? "", version: rec.latestVersion?.pkgVersion ?? "1.0.0", appVersion: rec.latestVersion?.appVersion ?? "" };
        this.flux.upsert(chart);
        this.#logWrite(null, this.#fluxRecord(chart));
        return true;
      }
      if (!all.length) return false;
      const victim = pick(rand, all);
      const before = this.#fluxRecord(victim);
      if (kind === "delete") {
        this.flux.delete(victim.namespace, victim.repo, victim.name);
        this.#logWrite(before, null);
      } else {
        const next = { ...victim, version: bump(victim.version) };
        this.flux.upsert(next);
        this.#logWrite(before, this.#fluxRecord(next));
      }
      return true;
    }
    const list = (await listAll(this.etcd, PACKAGE_METADATAS)).items;
    if (kind === "insert") {
      const namespace = list.length ? pick(rand, list).metadata.namespace : GLOBAL_NAMESPACE;
      const taken = new Set(list.filter((p) => p.metadata.namespace === namespace).map((p) => p.metadata.name));
      const rec = newRecordFor("kapp_controller.packages", namespace, rand, taken);
      await this.kapp.put(rec);
      this.#logWrite(null, { ...rec, cluster: CLUSTER });
      return true;
    }
    if (!list.length) return false;
    const pm = list[randInt(rand, list.length)];
    const before = recordOfSummary(summaryOfPackageMetadata(pm));
    if (kind === "delete") {
      await this.kapp.delete(pm.metadata.namespace, pm.metadata.name);
      this.#logWrite(before, null);
    } else {
      const next = structuredClone(pm);
      delete next.metadata.resourceVersion;
      next.metadata.annotations[LATEST_VERSION_ANNOTATION] = bump(next.metadata.annotations[LATEST_VERSION_ANNOTATION]);
      await this.etcd.put(`${PACKAGE_METADATAS}${pm.metadata.namespace}/${pm.metadata.name}`, JSON.stringify(next));
      this.#logWrite(before, recordOfSummary(summaryOfPackageMetadata(next)));
    }
    return true;
  }

  #fluxRecord(c) {
    return { plugin: "fluxv2.packages", cluster: CLUSTER, namespace: c.namespace, identifier: `${c.repo}/${c.name}`, name: c.name, displayName: c.name, shortDescription: c.description ?? "", categories: [c.category ?? ""] };
  }
}

