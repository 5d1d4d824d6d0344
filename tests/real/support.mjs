// Shared by the real-service tests: PostgreSQL and etcd started once per test file (and always
// stopped, also when a test fails), the demo server over them, the built package, scrolls, and
// direct reads of the stores for the ground truth.
import { after, before } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { startServices } from "../../server/real/services.mjs";
import { startRealServer } from "../../server/real/server.mjs";

const require = createRequire(import.meta.url);
/** The built package, as Node programs load it. */
export const pkg = require("../../pkg/nodejs/index.js");
export const { Pager, PagerError, kubeappsFetcher, kubernetesListFetcher } = pkg;

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** ../shared/data beside the repository (real Helm indexes and Carvel packages), or null. */
export const DATA = (() => {
  const d = path.resolve(ROOT, "../shared/data");
  return fs.existsSync(path.join(d, "bitnami", "index.yaml")) ? d : null;
})();

/**
 * useServices starts PostgreSQL and etcd before the file's tests and stops them after (node:test
 * runs `after` hooks when a test fails too; services.mjs also stops them at process exit and on
 * signals). Returns a holder whose `.services` is set once they run.
 */
export function useServices() {
  const holder = { services: null, servers: [] };
  before(async () => {
    holder.services = await startServices();
  }, { timeout: 180_000 });
  after(async () => {
    for (const s of holder.servers) await s.close().catch(() => {});
    await holder.services?.stop();
  });
  holder.server = async (options = {}) => {
    // No Cluster view pods unless a test asks for them (`clusterPods`): loading them takes time.
    const s = await startRealServer({ port: 0, services: holder.services, clusterPods: 0, ...options });
    holder.servers.push(s);
    s.base = s.url.replace(/\/$/, "");
    s.get = async (p) => {
      const res = await fetch(s.base + p);
      return { status: res.status, json: await res.json().catch(() => undefined) };
    };
    s.post = async (p, body = {}) => {
      const res = await fetch(s.base + p, { method: "POST", body: JSON.stringify(body) });
      return { status: res.status, json: await res.json().catch(() => undefined) };
    };
    return s;
  };
  return holder;
}

/** `plugin/cluster/namespace/identifier` of a summary or a PackageMetadata-derived summary. */
export function identity(s) {
  const r = s.availablePackageRef;
  return `${r.plugin.name}/${r.context.cluster}/${r.context.namespace}/${r.identifier}`;
}

/** Query string of grpc-gateway parameters (arrays repeat). */
export function qs(params) {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const x of Array.isArray(v) ? v : [v]) if (x !== undefined) u.append(k, String(x));
  return u.toString();
}

/** A fetchChunk for the REST gateway that also sends `filterOptions` (the backend filters). */
export function filteringFetcher(base, filter = {}) {
  const inner = kubeappsFetcher({ baseUrl: `${base}/apis` });
  if (!filter.query && !filter.categories?.length && !filter.repositories?.length) return inner;
  return async (request, init) => {
    const url = new URL(`${base}/apis/plugins/${request.source.plugin.replace(/\.packages$/, "")}/packages/v1alpha1/availablepackages`);
    url.search = qs({
      "context.cluster": request.source.cluster, "context.namespace": request.source.namespace,
      "paginationOptions.pageSize": request.limit, "paginationOptions.pageToken": request.pageToken || undefined,
      "filterOptions.query": filter.query || undefined, "filterOptions.categories": filter.categories ?? [],
      "filterOptions.repositories": filter.repositories ?? [],
    });
    const res = await fetch(url, { signal: init?.signal });
    const body = await res.json();
    if (!res.ok) throw Object.assign(new Error(`HTTP ${res.status}: ${body.message}`), { status: res.status });
    return body;
  };
}

/**
 * scroll pages `pager` to the end through `fetchChunk`, calling `between(pageIndex)` after each
 * page (`retry(error)` after a failed one, else it throws); resolves to `{identities, pages,
 * last, inconsistent}` (a page said its list went on after a 410) (`idOf(item)`: default a summary's identity). Fails after `maxPages`.
 */
export async function scroll(pager, fetchChunk, { between, maxPages = 2000, retry, idOf = identity } = {}) {
  const identities = [];
  let pages = 0;
  let last;
  let inconsistent = false;
  for (;;) {
    let page;
    try {
      page = await pager.nextPage(fetchChunk);
    } catch (e) {
      if (!retry) throw e;
      await retry(e);
      continue;
    }
    pages += 1;
    last = page;
    inconsistent ||= page.inconsistent;
    for (const item of page.items) identities.push(idOf(item));
    if (page.done) break;
    if (pages >= maxPages) throw new Error(`no end after ${maxPages} pages`);
    if (between) await between(pages);
  }
  return { identities, pages, last, inconsistent };
}

/** Asserts no identity twice and exactly the `expected` set (names the first differences). */
export function assertExactlyOnce(shown, expected, what = "") {
  const seen = new Map();
  const twice = [];
  for (const id of shown) {
    if (seen.has(id)) twice.push(id);
    seen.set(id, true);
  }
  const want = new Set(expected);
  const missing = [...want].filter((id) => !seen.has(id));
  const extra = [...seen.keys()].filter((id) => !want.has(id));
  assert.deepEqual({ twice: twice.slice(0, 10), missing: missing.slice(0, 10), extra: extra.slice(0, 10) },
    { twice: [], missing: [], extra: [] }, `${what}: ${twice.length} twice, ${missing.length} missing, ${extra.length} not expected`);
}

/** Asserts no identity twice and every one of `mustShow` shown (under churn: the present-throughout set). */
export function assertNoneTwiceNoneMissing(shown, mustShow, what = "") {
  const seen = new Set();
  const twice = [];
  for (const id of shown) {
    if (seen.has(id)) twice.push(id);
    seen.add(id);
  }
  const missing = mustShow.filter((id) => !seen.has(id));
  assert.deepEqual({ twice: twice.slice(0, 10), missing: missing.slice(0, 10) }, { twice: [], missing: [] },
    `${what}: ${twice.length} twice, ${missing.length} missing`);
}

/** Every helm identity a request in `namespace` reads, straight from SQL (no paging). */
export async function helmRowsDirect(app, namespace, extraWhere = "", params = []) {
  const r = await app.helm.pool.query(
    `SELECT repo_namespace, chart_id FROM charts WHERE (repo_namespace = $1 OR repo_namespace = $2) ${extraWhere}`,
    [namespace, app.helm.globalNamespace, ...params]);
  return r.rows.map((x) => `helm.packages/default/${x.repo_namespace}/${x.chart_id}`);
}
