// The helm plugin's GetAvailablePackageSummaries over a real PostgreSQL, as kubeapps-apis does it
// (cmd/kubeapps-apis/plugins/helm/packages/v1alpha1/server.go, utils/postgresql_utils.go and
// pkg/dbutils in vmware-tanzu/kubeapps), rewritten:
// - the asset syncer's schema: `repositories` (namespace, name) and `charts`, one row per chart
//   per repository and namespace, the chart (models.Chart) as JSONB in `info`;
// - a request in namespace N reads the rows of N and of the global packaging namespace;
// - `SELECT info FROM charts WHERE … ORDER BY (info->>'name') ASC LIMIT size OFFSET offset`:
//   the order is the database's collation (en_US.UTF-8 is not byte order) and rows with equal
//   names come in whatever order the sort leaves them (no tie-breaker, as in Kubeapps);
// - the filters in SQL as GenerateWhereClause writes them (ILIKE search over name,
//   description, repo name, keywords, sources, maintainers; categories and repositories any-of;
//   pkgVersion + appVersion as a JSONB containment);
// - the page token is the decimal item offset; nextPageToken = offset + pageSize only when the
//   page is full (so a list whose size is a multiple of pageSize ends with an empty page);
// - `categories` = every category of the namespace (not only the page's), ordered by SQL.
import pg from "pg";
import { highest } from "../catalog/semver.mjs";
import { PluginError } from "./plugin-error.mjs";
import { itemOffsetFromPageToken } from "./paginate.mjs";

/** The cluster every package lives in. */
export const CLUSTER = "default";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS repositories (
  ID serial NOT NULL PRIMARY KEY,
  namespace varchar NOT NULL,
  name varchar NOT NULL,
  checksum varchar,
  last_update varchar,
  UNIQUE(namespace, name)
);
CREATE TABLE IF NOT EXISTS charts (
  ID serial NOT NULL PRIMARY KEY,
  repo_name varchar NOT NULL,
  repo_namespace varchar NOT NULL,
  chart_id varchar,
  info jsonb NOT NULL,
  UNIQUE(repo_name, repo_namespace, chart_id),
  FOREIGN KEY (repo_name, repo_namespace) REFERENCES repositories (name, namespace) ON DELETE CASCADE
);`;

// Masterminds/semver's allowed characters (Kubeapps' containsOnlyAllowedChars).
const VERSION_CHARS = /^[A-Za-z0-9+.-]*$/;

/**
 * whereClause builds the WHERE clause and its parameters of a chart query `{namespace,
 * globalNamespace, query, categories, repositories, pkgVersion, appVersion}` as the plugin's
 * GenerateWhereClause does (namespace "_all" = every namespace). Throws PluginError
 * invalid_argument for a version with characters semver does not allow.
 */
export function whereClause(cq) {
  const clauses = [];
  const params = [];
  const p = (v) => {
    params.push(v);
    return `$${params.length}`;
  };
  if (cq.namespace !== "_all") clauses.push(`(repo_namespace = ${p(cq.namespace)} OR repo_namespace = ${p(cq.globalNamespace)})`);
  if (cq.pkgVersion && cq.appVersion) {
    if (!VERSION_CHARS.test(cq.pkgVersion)) throw new PluginError("invalid_argument", "invalid version");
    if (!VERSION_CHARS.test(cq.appVersion)) throw new PluginError("invalid_argument", "invalid app version");
    clauses.push(`(info->'chartVersions' @> ${p(JSON.stringify([{ version: cq.pkgVersion, app_version: cq.appVersion }]))}::jsonb)`);
  }
  const repos = (cq.repositories ?? []).filter(Boolean);
  if (repos.length) clauses.push(`(${repos.map((r) => `(repo_name = ${p(r)})`).join(" OR ")})`);
  const cats = (cq.categories ?? []).filter(Boolean);
  if (cats.length) clauses.push(`(${cats.map((c) => `info->>'category' = ${p(c)}`).join(" OR ")})`);
  if (cq.query) {
    // The query's own % and _ stay wildcards, as in Kubeapps. `maintainers` is an array, so
    // `->> 'name'` of it is NULL: Kubeapps' maintainer clause never matches; kept as it is.
    const q = p(`%${cq.query}%`);
    clauses.push(`((info ->> 'name' ILIKE ${q}) OR (info ->> 'description' ILIKE ${q}) OR ` +
      `(info -> 'repo' ->> 'name' ILIKE ${q}) OR (info ->> 'keywords' ILIKE ${q}) OR ` +
      `(info ->> 'sources' ILIKE ${q}) OR (info -> 'maintainers' ->> 'name' ILIKE ${q}))`);
  }
  return { where: clauses.length ? `WHERE ${clauses.join(" AND ")}` : "", params };
}

/** The AvailablePackageSummary JSON of a chart's info (pkgutils.AvailablePackageSummaryFromChart). */
export function summaryOfChart(info) {
  const out = {
    availablePackageRef: {
      context: { cluster: CLUSTER, namespace: info.repo?.namespace ?? "" },
      identifier: info.ID,
      plugin: { name: "helm.packages", version: "v1alpha1" },
    },
    name: info.name,
  };
  const versions = info.chartVersions ?? [];
  if (versions.length) {
    const top = highest(versions.map((v) => v.version));
    const v = versions.find((x) => x.version === top) ?? versions[0];
    const latest = {};
    if (v.version) latest.pkgVersion = v.version;
    if (v.app_version) latest.appVersion = v.app_version;
    out.latestVersion = latest;
  }
  if (info.icon) out.iconUrl = info.icon;
  out.displayName = info.name;
  if (info.description) out.shortDescription = info.description;
  out.categories = [info.category ?? ""];
  return out;
}

/**
 * chartInfo builds the models.Chart JSON the asset syncer stores for a chart: `{ID, name,
 * repo: {namespace, name, url, type}, description, home, keywords, maintainers, sources, icon,
 * category, chartVersions: [{version, app_version, created, digest, urls}]}` (newest first).
 */
export function chartInfo({ namespace, repo, name, description = "", home = "", keywords = [], maintainers = [],
  sources = [], icon = "", category = "", versions = [], url = "" }) {
  return {
    ID: `${repo}/${name}`, name,
    repo: { namespace, name: repo, url, type: "helm" },
    description, home, keywords, maintainers, sources, icon, raw_icon: "", category,
    chartVersions: versions.map((v) => ({
      version: v.version, app_version: v.appVersion ?? "", created: v.created ?? "0001-01-01T00:00:00Z",
      digest: v.digest ?? "", urls: v.urls ?? [],
    })),
  };
}

/**
 * HelmService is the helm plugin over one PostgreSQL database (`connection`: pg settings).
 * `getAvailablePackageSummaries(request)` takes and answers the kubeapps-apis JSON shapes
 * (GetAvailablePackageSummariesRequest/Response, protojson field names) and rejects with a
 * PluginError (Connect code names), so the REST gateway and a Connect server can sit over it.
 */
export class HelmService {
  constructor({ connection, globalNamespace = "kubeapps", maxConnections = 4 }) {
    this.globalNamespace = globalNamespace;
    this.pool = new pg.Pool({ ...connection, max: maxConnections, connectionTimeoutMillis: 5000, idleTimeoutMillis: 10_000 });
    // A server restart kills idle connections: the pool drops them and reconnects on demand.
    this.pool.on("error", () => {});
    this.queries = 0;
  }

  /** Creates the schema (idempotent). */
  async init() {
    await this.pool.query(SCHEMA);
  }

  /** The database's collation (LC_COLLATE), as PostgreSQL reports it. */
  async collation() {
    const r = await this.pool.query("SELECT datcollate FROM pg_database WHERE datname = current_database()");
    return r.rows[0].datcollate;
  }

  async #query(sql, params) {
    this.queries += 1;
    return this.pool.query(sql, params);
  }

  /** GetAvailablePackageSummaries (see the file's head). */
  async getAvailablePackageSummaries(request = {}) {
    let namespace = request.context?.namespace ?? "";
    const cluster = request.context?.cluster ?? "";
    if (namespace === "") {
      throw new PluginError("unimplemented", "Not supported yet: not including a namespace means that it returns everything a user can read");
    }
    if (cluster !== "" && cluster !== CLUSTER) namespace = this.globalNamespace;
    const f = request.filterOptions ?? {};
    const pageSize = Number(request.paginationOptions?.pageSize ?? 0) | 0;
    const offset = itemOffsetFromPageToken(request.paginationOptions?.pageToken ?? "");
    const base = { namespace, globalNamespace: this.globalNamespace };
    let categories;
    let rows;
    try {
      const c = whereClause(base);
      categories = (await this.#query(
        `SELECT (info ->> 'category') AS name, COUNT( (info ->> 'category')) AS count FROM charts ${c.where} GROUP BY (info ->> 'category') ORDER BY (info ->> 'category') ASC`,
        c.params)).rows.map((r) => r.name);
    } catch (e) {
      throw new PluginError("internal", `Unable to fetch chart categories: ${e.message}`, e);
    }
    const w = whereClause({ ...base, query: f.query ?? "", categories: f.categories ?? [], repositories: f.repositories ?? [],
      pkgVersion: f.pkgVersion ?? "", appVersion: f.appVersion ?? "" });
    let page = "";
    if (pageSize > 0) page = `LIMIT ${pageSize}`;
    if (offset > 0) page = `${page} OFFSET ${offset}`; // a negative offset reads from the start, as in Kubeapps
    try {
      rows = (await this.#query(`SELECT info FROM charts ${w.where} ORDER BY (info->>'name') ASC ${page}`, w.params)).rows;
    } catch (e) {
      throw new PluginError("internal", `Unable to retrieve charts: ${e.message}`, e);
    }
    const summaries = rows.map((r) => summaryOfChart(r.info));
    const out = {};
    if (summaries.length) out.availablePackageSummaries = summaries;
    if (pageSize > 0 && summaries.length === pageSize) out.nextPageToken = String(offset + pageSize);
    if (categories.length) out.categories = categories;
    return out;
  }

  // ---- writes (the asset syncer's and the demo's churn) ----

  /** Makes sure a repository row exists (EnsureRepoExists). */
  async ensureRepo(namespace, name, client = this.pool) {
    await client.query("INSERT INTO repositories (namespace, name) VALUES ($1, $2) ON CONFLICT (namespace, name) DO NOTHING", [namespace, name]);
  }

  /** Inserts charts `[info]` (each `info.repo` names its repository); one statement per 500 rows. */
  async insertCharts(infos, client = this.pool) {
    for (const [ns, name] of [...new Set(infos.map((i) => `${i.repo.namespace}\u0000${i.repo.name}`))].map((k) => k.split("\u0000"))) {
      await this.ensureRepo(ns, name, client);
    }
    for (let i = 0; i < infos.length; i += 500) {
      const part = infos.slice(i, i + 500);
      const values = part.map((_, j) => `($${j * 4 + 1}, $${j * 4 + 2}, $${j * 4 + 3}, $${j * 4 + 4})`).join(", ");
      await client.query(`INSERT INTO charts (repo_namespace, repo_name, chart_id, info) VALUES ${values}`,
        part.flatMap((c) => [c.repo.namespace, c.repo.name, c.ID, JSON.stringify(c)]));
    }
  }

  /** Inserts or replaces one chart (the asset syncer's Sync: ON CONFLICT DO UPDATE). */
  async upsertChart(info) {
    await this.ensureRepo(info.repo.namespace, info.repo.name);
    await this.pool.query(`INSERT INTO charts (repo_namespace, repo_name, chart_id, info) VALUES ($1, $2, $3, $4)
      ON CONFLICT (repo_name, repo_namespace, chart_id) DO UPDATE SET info = $4`,
    [info.repo.namespace, info.repo.name, info.ID, JSON.stringify(info)]);
  }

  /** Deletes one chart; resolves to its info (or null when absent). */
  async deleteChart(namespace, repo, chartId) {
    const r = await this.pool.query("DELETE FROM charts WHERE repo_namespace = $1 AND repo_name = $2 AND chart_id = $3 RETURNING info",
      [namespace, repo, chartId]);
    return r.rows[0]?.info ?? null;
  }

  /**
   * resyncRepo deletes every chart of a repository and inserts `infos` (default: the same
   * charts again), in one transaction: readers never see the repository empty, but the rows
   * are new, so equal names may now sort in another order.
   */
  async resyncRepo(namespace, repo, infos) {
    const client = await this.pool.connect();
    try {
      await client.query("BEGIN");
      const old = await client.query("DELETE FROM charts WHERE repo_namespace = $1 AND repo_name = $2 RETURNING info", [namespace, repo]);
      const next = infos ?? old.rows.map((r) => r.info);
      await this.insertCharts(next, client);
      await client.query("COMMIT");
      return { deleted: old.rows.map((r) => r.info), inserted: next };
    } catch (e) {
      await client.query("ROLLBACK").catch(() => {});
      throw e;
    } finally {
      client.release();
    }
  }

  /**
   * The rows of `namespaces` without their whole info: `{namespace, repo, id, name, description,
   * category}` (what the truth and the churn need; an info with every chart version is large).
   */
  async lightRows(namespaces) {
    const r = await this.pool.query(`SELECT repo_namespace, repo_name, chart_id, info->>'name' AS name,
      info->>'description' AS description, info->>'category' AS category FROM charts WHERE repo_namespace = ANY($1)`, [namespaces]);
    return r.rows.map((x) => ({ namespace: x.repo_namespace, repo: x.repo_name, id: x.chart_id, name: x.name, description: x.description ?? "", category: x.category ?? "" }));
  }

  /** One chart's info, or null. */
  async chart(namespace, repo, chartId) {
    const r = await this.pool.query("SELECT info FROM charts WHERE repo_namespace = $1 AND repo_name = $2 AND chart_id = $3", [namespace, repo, chartId]);
    return r.rows[0]?.info ?? null;
  }

  /** Removes every row (for a reset). */
  async clear() {
    await this.pool.query("TRUNCATE charts, repositories");
  }

  async close() {
    await this.pool.end().catch(() => {});
  }
}
