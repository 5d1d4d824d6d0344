// The real-service mode's clusters (issue 25): pods and deployments of three clusters in etcd, one
// key prefix per cluster (`/clusters/<name>/registry/pods/<namespace>/<name>`, the apiserver's
// own layout under it), listed by `listChunk` with the apiserver's semantics (one snapshot per
// list, continue tokens, 410 Expired after a compaction, remainingItemCount) behind an
// apiserver-like REST path per cluster: `/clusters/<name>/api/v1[/namespaces/<ns>]/pods` and
// `/clusters/<name>/apis/apps/v1[/namespaces/<ns>]/deployments` (Headlamp's proxy's shape). Label
// and field selectors are applied by the server, as the apiserver does: after reading, each chunk
// filled up to `limit` matches from as many etcd ranges as it takes, its continue token after the
// last key read. Churn creates and deletes pods (a recreated name gets a new uid); every write is
// logged with a fleet revision, so /demo/clusters/truth?since=REV says which pods were present
// throughout.
import { encodeContinue } from "../continue-token.mjs";
import { k8sStatus } from "../errors.mjs";
import { parseLimit } from "../kube-list.mjs";
import { mulberry32, randInt, pick } from "../rng.mjs";
import { listChunk } from "./kube-etcd.mjs";

/** The clusters served. */
export const CLUSTERS = ["east", "north", "west"];
const NAMESPACES = ["default", "kube-system", "monitoring", "payments", "search", "team-a", "team-b", "web"];
const APPS = ["api", "cache", "db", "frontend", "ingest", "metrics", "queue", "worker"];
const PHASES = ["Running", "Running", "Running", "Pending", "Succeeded"];

/** The resources served: list path under a cluster → etcd resource folder and List kind. */
const RESOURCES = [
  { path: /^\/api\/v1(?:\/namespaces\/([^/]+))?\/pods$/, folder: "pods", kind: "PodList", apiVersion: "v1" },
  { path: /^\/apis\/apps\/v1(?:\/namespaces\/([^/]+))?\/deployments$/, folder: "deployments", kind: "DeploymentList", apiVersion: "apps/v1" },
];

/** The etcd prefix of `folder` in `cluster`. */
export const prefixOf = (cluster, folder) => `/clusters/${cluster}/registry/${folder}/`;

/** The label selector `s` (`k=v`, `k==v`, `k!=v`, `k`, `!k`, comma-joined) as a predicate over labels, or null when it cannot be parsed. */
function labelMatcher(s) {
  const tests = [];
  for (const part of s.split(",").map((x) => x.trim()).filter(Boolean)) {
    const m = /^(!?)([A-Za-z0-9][-A-Za-z0-9_./]*)(?:\s*(==|=|!=)\s*([-A-Za-z0-9_.]*))?$/.exec(part);
    if (!m || (m[1] && m[3])) return null;
    const [, not, key, op, value] = m;
    if (!op) tests.push(not ? (l) => !(key in l) : (l) => key in l);
    else if (op === "!=") tests.push((l) => l[key] !== value);
    else tests.push((l) => l[key] === value);
  }
  return (labels = {}) => tests.every((t) => t(labels));
}

/** The fields a selector may name, per object (the apiserver's own set for pods, and metadata's). */
const FIELDS = {
  "metadata.name": (o) => o.metadata.name,
  "metadata.namespace": (o) => o.metadata.namespace,
  "status.phase": (o) => o.status?.phase ?? "",
  "spec.nodeName": (o) => o.spec?.nodeName ?? "",
};

/** The field selector `s` as a predicate over objects, or `{ error }` naming what it cannot select by. */
function fieldMatcher(s) {
  const tests = [];
  for (const part of s.split(",").map((x) => x.trim()).filter(Boolean)) {
    const m = /^([a-zA-Z.]+)\s*(==|=|!=)\s*(.*)$/.exec(part);
    if (!m) return { error: `invalid field selector: ${part}` };
    const get = FIELDS[m[1]];
    if (!get) return { error: `field label not supported: ${m[1]}` };
    tests.push(m[2] === "!=" ? (o) => get(o) !== m[3] : (o) => get(o) === m[3]);
  }
  return { match: (o) => tests.every((t) => t(o)) };
}

/**
 * ClusterFleet: `await fleet.load()` writes `pods` pods (spread over the clusters, 8 namespaces
 * each) and their deployments; `fleet.route(path, params)` answers a `/clusters/...` GET (null:
 * no such path); `startChurn(rate)`, `write()`, `truth(params)`, `status()`.
 */
export class ClusterFleet {
  constructor({ etcd, pods = 10_000, seed = 1 }) {
    this.etcd = etcd;
    this.pods = pods;
    this.seed = seed;
    this.timer = null;
    this.#zero();
  }

  #zero() {
    this.revision = 0;
    this.log = [];
    this.uids = 0;
    this.requests = Object.fromEntries(CLUSTERS.map((c) => [c, 0]));
    this.churned = { created: 0, deleted: 0 };
    this.rand = mulberry32(this.seed ^ 0x5ca1ab1e);
  }

  #pod(cluster, namespace, app, rand) {
    const name = `${app}-${(randInt(rand, 36 ** 5)).toString(36).padStart(5, "0")}-${randInt(rand, 36 ** 5).toString(36).padStart(5, "0")}`;
    return {
      apiVersion: "v1", kind: "Pod",
      metadata: { name, namespace, uid: `${cluster}-${++this.uids}`, labels: { app, tier: app === "db" || app === "cache" ? "data" : "app" } },
      spec: { nodeName: `${cluster}-node-${randInt(rand, 12)}` },
      status: { phase: pick(rand, PHASES) },
    };
  }

  /**
   * Clears every cluster's objects and writes the pods and deployments again; with `pods` 0,
   * writes nothing at all (etcd's revisions are then the catalog's alone, as before issue 25).
   */
  async load() {
    this.stopChurn();
    this.#zero();
    if (this.pods === 0) return;
    await this.etcd.deletePrefix("/clusters/");
    const rand = this.rand;
    const pairs = [];
    for (let i = 0; i < this.pods; i++) {
      const cluster = CLUSTERS[i % CLUSTERS.length];
      const namespace = pick(rand, NAMESPACES);
      const pod = this.#pod(cluster, namespace, pick(rand, APPS), rand);
      pairs.push([`${prefixOf(cluster, "pods")}${namespace}/${pod.metadata.name}`, JSON.stringify(pod)]);
    }
    for (const cluster of CLUSTERS) {
      for (const namespace of NAMESPACES) {
        for (const app of APPS) {
          const d = { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: app, namespace, uid: `${cluster}-d-${++this.uids}`, labels: { app } }, spec: { replicas: 1 + randInt(rand, 5) } };
          pairs.push([`${prefixOf(cluster, "deployments")}${namespace}/${app}`, JSON.stringify(d)]);
        }
      }
    }
    await this.etcd.putAll(pairs);
  }

  /**
   * Answers `GET /clusters/<cluster><list path>?limit&continue&labelSelector&fieldSelector`:
   * `{ status, body }` (a List or a Kubernetes Status), or null when the path is none of ours.
   */
  async route(path, params) {
    const m = /^\/clusters\/([^/]+)(\/.*)$/.exec(path);
    if (!m) return null;
    const cluster = decodeURIComponent(m[1]);
    if (!CLUSTERS.includes(cluster)) return k8sStatus(404, `no cluster ${JSON.stringify(cluster)}`);
    this.requests[cluster] += 1;
    let resource, ns;
    for (const r of RESOURCES) {
      const hit = r.path.exec(m[2]);
      if (hit) [resource, ns] = [r, hit[1] ? decodeURIComponent(hit[1]) : ""];
    }
    if (!resource) return k8sStatus(404, "the server could not find the requested resource");
    const limit = parseLimit(params.get("limit"));
    if (limit === null) return k8sStatus(400, `invalid limit ${JSON.stringify(params.get("limit"))}`);
    const labels = labelMatcher(params.get("labelSelector") ?? "");
    if (!labels) return k8sStatus(400, `unable to parse requirement: ${params.get("labelSelector")}`);
    const fields = fieldMatcher(params.get("fieldSelector") ?? "");
    if (fields.error) return k8sStatus(400, fields.error);
    const match = (o) => labels(o.metadata.labels) && fields.match(o);
    const prefix = prefixOf(cluster, resource.folder);
    const keyPrefix = ns ? `${prefix}${ns}/` : prefix;
    // As the apiserver: read chunks of `limit` keys until `limit` objects matched (or the end),
    // all at the first chunk's revision; the continue token starts after the last key read.
    const items = [];
    let token = params.get("continue") ?? "";
    let rv, remaining, next = "";
    for (;;) {
      const r = await listChunk(this.etcd, prefix, { namespace: ns, limit, continueToken: token, resourceVersion: params.get("resourceVersion") ?? "" });
      if (!r.ok) return r.reply;
      rv ??= r.resourceVersion;
      for (const [k, it] of r.items.entries()) {
        if (!match(it.object)) continue;
        items.push(it.object);
        if (limit > 0 && items.length === limit && (k < r.items.length - 1 || r.continueToken)) {
          next = k < r.items.length - 1 ? encodeContinue(`${it.key}\u0000`, keyPrefix, rv) : r.continueToken;
          break;
        }
      }
      if (next || !r.continueToken) {
        remaining = next && r.remaining !== undefined ? r.remaining : undefined;
        break;
      }
      token = r.continueToken;
    }
    const metadata = { resourceVersion: String(rv) };
    if (next) metadata.continue = next;
    // Only without a selector is the count of keys left the count of items left (the apiserver
    // sends none with one).
    if (next && remaining !== undefined && !params.get("labelSelector") && !params.get("fieldSelector")) metadata.remainingItemCount = remaining;
    return { status: 200, body: { kind: resource.kind, apiVersion: resource.apiVersion, metadata, items } };
  }

  /** Every live pod of every cluster: `[{ identity: cluster/namespace/name, uid }]`, in the apiserver's order per cluster. */
  async livePods() {
    const out = [];
    for (const cluster of CLUSTERS) {
      const prefix = prefixOf(cluster, "pods");
      const r = await this.etcd.range(prefix, { rangeEnd: prefixEnd(prefix) });
      for (const kv of r.kvs) {
        const o = JSON.parse(kv.value);
        out.push({ identity: `${cluster}/${o.metadata.namespace}/${o.metadata.name}`, uid: o.metadata.uid, cluster });
      }
    }
    return out;
  }

  /** One churn write: a pod created (in a random cluster and namespace) or deleted. */
  async write(kind = this.rand() < 0.5 ? "create" : "delete") {
    const rand = this.rand;
    const cluster = pick(rand, CLUSTERS);
    const prefix = prefixOf(cluster, "pods");
    if (kind === "create") {
      const namespace = pick(rand, NAMESPACES);
      const pod = this.#pod(cluster, namespace, pick(rand, APPS), rand);
      await this.etcd.put(`${prefix}${namespace}/${pod.metadata.name}`, JSON.stringify(pod));
      this.#logged(`${cluster}/${namespace}/${pod.metadata.name}`, pod.metadata.uid);
      this.churned.created += 1;
      return true;
    }
    // A random live pod: the first key at or after a random point of the key space.
    const from = `${prefix}${pick(rand, NAMESPACES)}/${randInt(rand, 36 ** 2).toString(36)}`;
    let r = await this.etcd.range(from, { rangeEnd: prefixEnd(prefix), limit: 1 });
    if (r.kvs.length === 0) r = await this.etcd.range(prefix, { rangeEnd: prefixEnd(prefix), limit: 1 });
    const kv = r.kvs[0];
    if (!kv) return false;
    const o = JSON.parse(kv.value);
    await this.etcd.delete(kv.key);
    this.#logged(`${cluster}/${o.metadata.namespace}/${o.metadata.name}`, o.metadata.uid);
    this.churned.deleted += 1;
    return true;
  }

  #logged(identity, uid) {
    this.revision += 1;
    this.log.push({ rev: this.revision, identity, uid });
  }

  /** Writes `ratePerSecond` churn writes a second (0 stops). */
  startChurn(ratePerSecond) {
    this.stopChurn();
    if (!(ratePerSecond > 0)) return;
    const period = Math.max(10, Math.floor(1000 / ratePerSecond));
    let busy = false;
    this.timer = setInterval(() => {
      if (busy) return;
      busy = true;
      this.write().catch(() => {}).finally(() => (busy = false));
    }, period);
    this.timer.unref?.();
    this.rate = ratePerSecond;
  }

  stopChurn() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.rate = 0;
  }

  /**
   * GET /demo/clusters/truth: `{ revision, count, uids }` (every live pod's `cluster/ns/name#uid`)
   * and, with `since=REV`, `since.uids`: those present throughout since REV (none of them created
   * or deleted after it): what a list scrolled since REV must show, each once.
   */
  async truth(params) {
    const live = await this.livePods();
    const body = { revision: this.revision, count: live.length, uids: live.map((p) => `${p.identity}#${p.uid}`) };
    const since = params.get("since");
    if (since !== null && since !== "") {
      const rev = Number(since);
      const touched = new Set(this.log.filter((e) => e.rev > rev).map((e) => e.uid));
      body.since = { revision: rev, uids: live.filter((p) => !touched.has(p.uid)).map((p) => `${p.identity}#${p.uid}`) };
    }
    return body;
  }

  /** GET /demo/clusters. */
  status() {
    return { clusters: CLUSTERS, pods: this.pods, revision: this.revision, churn: { ratePerSecond: this.rate ?? 0, ...this.churned }, requests: this.requests };
  }
}

/** The end of the range of every key with `prefix`. */
function prefixEnd(prefix) {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}
