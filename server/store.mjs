// An MVCC store shaped like etcd under the apiserver: one global revision bumped by
// every write, per-resource keys `namespace/name` in byte order, reads at any revision
// not yet compacted, and compaction that drops the history older than a revision.
import { compareUtf8 } from "./order.mjs";

/** The one cluster every record lives in. */
export const CLUSTER = "default";

/** A request the store refuses; `status` is the HTTP status, `reason` the Kubernetes one. */
export class StoreError extends Error {
  constructor(status, reason, message) {
    super(message);
    this.status = status;
    this.reason = reason;
  }
}

/** The revision asked for was compacted away (etcd: "required revision has been compacted"). */
export class CompactedError extends StoreError {
  constructor(rev, compacted) {
    super(410, "Expired", `required revision ${rev} has been compacted (compacted revision ${compacted})`);
  }
}

function keyOf(namespace, name) {
  return `${namespace}/${name}`;
}

// First index in sorted `keys` whose key is >= k (byte order).
function lowerBound(keys, k) {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compareUtf8(keys[mid], k) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

class Resource {
  constructor() {
    this.keys = []; // every key with history, sorted
    this.hist = new Map(); // key -> [{rev, rec|null, createRev}] ascending
    this.live = new Map(); // key -> {rec, createRev, modRev}
    this.byIdentifier = new Map(); // namespace \0 identifier -> key (live only)
    this.sortedCache = null;
  }
}

/**
 * MvccStore holds the records of every plugin. A record is a plain object with at least
 * `{plugin, namespace, name, identifier}`; it is frozen once stored. Each write
 * (create, update, delete) bumps `revision` by one; reads name a revision and see the
 * data as of that revision, unless it is older than `compactedRevision` (CompactedError).
 * A change log (not compacted) answers "present since revision R" for the ground truth.
 */
export class MvccStore {
  /**
   * @param {{plugins: string[], clock?: () => number, compactAfterMs?: number,
   *          logLimit?: number, startRevision?: number}} options
   */
  constructor({ plugins, clock = Date.now, compactAfterMs = 0, logLimit = 1_000_000, startRevision = 0 }) {
    this.plugins = [...plugins];
    this.clock = clock;
    this.compactAfterMs = compactAfterMs;
    this.revision = startRevision;
    this.compactedRevision = startRevision;
    this.logLimit = logLimit;
    this.log = []; // {rev, plugin, namespace, identifier, before, after}
    this.logStart = startRevision; // revisions <= logStart are not in the log
    this.writeTimes = []; // [{rev, at}] since the last compaction, for auto-compaction
    this.res = new Map(this.plugins.map((p) => [p, new Resource()]));
  }

  #resource(plugin) {
    const r = this.res.get(plugin);
    if (!r) throw new StoreError(404, "NotFound", `unknown plugin ${JSON.stringify(plugin)}`);
    return r;
  }

  #write(plugin, r, key, rec, createRev, before) {
    this.revision += 1;
    const rev = this.revision;
    let versions = r.hist.get(key);
    if (!versions) {
      versions = [];
      r.hist.set(key, versions);
      r.keys.splice(lowerBound(r.keys, key), 0, key);
    }
    versions.push({ rev, rec, createRev });
    r.sortedCache = null;
    const ref = rec ?? before;
    this.log.push({ rev, plugin, namespace: ref.namespace, identifier: ref.identifier, before, after: rec });
    if (this.log.length > this.logLimit) {
      const dropped = this.log.splice(0, this.log.length - this.logLimit);
      this.logStart = dropped[dropped.length - 1].rev;
    }
    this.writeTimes.push({ rev, at: this.clock() });
    return rev;
  }

  /** Creates a record; 409 AlreadyExists when its key or its identifier is taken. Returns the revision. */
  create(plugin, record) {
    const r = this.#resource(plugin);
    const rec = Object.freeze({ ...record, plugin });
    const key = keyOf(rec.namespace, rec.name);
    const idKey = `${rec.namespace}\u0000${rec.identifier}`;
    if (r.live.has(key)) {
      throw new StoreError(409, "AlreadyExists", `${plugin} ${key} already exists`);
    }
    if (r.byIdentifier.has(idKey)) {
      throw new StoreError(409, "AlreadyExists",
        `${plugin} ${rec.namespace}/${rec.identifier} already exists`);
    }
    const rev = this.#write(plugin, r, key, rec, this.revision + 1, null);
    r.live.set(key, { rec, createRev: rev, modRev: rev });
    r.byIdentifier.set(idKey, key);
    return rev;
  }

  /** The live entry `{rec, createRev, modRev}` of an identifier, or undefined. */
  get(plugin, namespace, identifier) {
    const r = this.#resource(plugin);
    const key = r.byIdentifier.get(`${namespace}\u0000${identifier}`);
    return key === undefined ? undefined : r.live.get(key);
  }

  /**
   * Replaces fields of a live record (404 NotFound when absent). `name`, `namespace`,
   * `identifier` and `plugin` cannot change (400 BadRequest): they make its key.
   */
  update(plugin, namespace, identifier, patch) {
    const r = this.#resource(plugin);
    const key = r.byIdentifier.get(`${namespace}\u0000${identifier}`);
    const cur = key === undefined ? undefined : r.live.get(key);
    if (!cur) throw new StoreError(404, "NotFound", `${plugin} ${namespace}/${identifier} not found`);
    for (const f of ["name", "namespace", "identifier", "plugin"]) {
      if (patch[f] !== undefined && patch[f] !== cur.rec[f]) {
        throw new StoreError(400, "BadRequest", `${f} cannot change in an update (it is part of the key)`);
      }
    }
    const rec = Object.freeze({ ...cur.rec, ...patch });
    const rev = this.#write(plugin, r, key, rec, cur.createRev, cur.rec);
    r.live.set(key, { rec, createRev: cur.createRev, modRev: rev });
    return rev;
  }

  /** Deletes a live record (404 NotFound when absent). Returns the revision. */
  delete(plugin, namespace, identifier) {
    const r = this.#resource(plugin);
    const idKey = `${namespace}\u0000${identifier}`;
    const key = r.byIdentifier.get(idKey);
    const cur = key === undefined ? undefined : r.live.get(key);
    if (!cur) throw new StoreError(404, "NotFound", `${plugin} ${namespace}/${identifier} not found`);
    const rev = this.#write(plugin, r, key, null, cur.createRev, cur.rec);
    r.live.delete(key);
    r.byIdentifier.delete(idKey);
    return rev;
  }

  /** Throws CompactedError when `rev` was compacted; a StoreError for a future revision. */
  checkRevision(rev) {
    this.autoCompact();
    if (rev < this.compactedRevision) throw new CompactedError(rev, this.compactedRevision);
    if (rev > this.revision) {
      throw new StoreError(500, "InternalError", "etcdserver: mvcc: required revision is a future revision");
    }
  }

  /**
   * listAt reads one chunk of a resource as of revision `rev`: keys >= `fromKey` that
   * start with `prefix`, in byte order, at most `limit` (0 = no limit). Returns
   * `{items: [{key, rec, modRev}], more, remaining}`; `remaining` counts the visible
   * items after the chunk. Throws CompactedError for a compacted revision.
   */
  listAt(plugin, { rev, prefix = "", fromKey = "", limit = 0 }) {
    this.checkRevision(rev);
    const r = this.#resource(plugin);
    const start = compareUtf8(fromKey, prefix) > 0 ? fromKey : prefix;
    const items = [];
    let remaining = 0;
    for (let i = lowerBound(r.keys, start); i < r.keys.length; i++) {
      const key = r.keys[i];
      if (!key.startsWith(prefix)) break;
      const v = visibleAt(r.hist.get(key), rev);
      if (!v) continue;
      if (limit > 0 && items.length >= limit) remaining += 1;
      else items.push({ key, rec: v.rec, modRev: v.rev });
    }
    return { items, more: remaining > 0, remaining };
  }

  /**
   * The live records of a plugin (in one namespace, or all for ""), sorted by name in
   * byte order, ties in insertion (creation revision) order. Shared; do not mutate.
   */
  liveSorted(plugin, namespace = "") {
    const r = this.#resource(plugin);
    if (!r.sortedCache) {
      r.sortedCache = { all: null, byNs: new Map() };
      r.sortedCache.all = [...r.live.values()]
        .sort((a, b) => compareUtf8(a.rec.name, b.rec.name) || a.createRev - b.createRev)
        .map((e) => e.rec);
    }
    if (namespace === "") return r.sortedCache.all;
    let list = r.sortedCache.byNs.get(namespace);
    if (!list) {
      list = r.sortedCache.all.filter((rec) => rec.namespace === namespace);
      r.sortedCache.byNs.set(namespace, list);
    }
    return list;
  }

  /** Live record counts: `{plugin: {namespace: n}}`. */
  counts() {
    const out = {};
    for (const [plugin, r] of this.res) {
      const byNs = {};
      for (const { rec } of r.live.values()) byNs[rec.namespace] = (byNs[rec.namespace] ?? 0) + 1;
      out[plugin] = byNs;
    }
    return out;
  }

  /**
   * compact drops the history older than `rev` (default: the current revision), as etcd
   * does: reads and continue tokens at revisions < rev then fail with CompactedError.
   */
  compact(rev = this.revision) {
    const target = Math.min(rev, this.revision);
    if (target <= this.compactedRevision) return this.compactedRevision;
    for (const r of this.res.values()) {
      const keep = [];
      for (const key of r.keys) {
        const versions = r.hist.get(key);
        let idx = -1;
        for (let i = versions.length - 1; i >= 0; i--) {
          if (versions[i].rev <= target) {
            idx = i;
            break;
          }
        }
        if (idx > 0) versions.splice(0, idx);
        if (idx >= 0 && versions[0].rec === null) versions.shift();
        if (versions.length === 0) r.hist.delete(key);
        else keep.push(key);
      }
      r.keys = keep;
    }
    this.compactedRevision = target;
    this.writeTimes = this.writeTimes.filter((w) => w.rev > target);
    return target;
  }

  /**
   * autoCompact compacts to the newest revision written at least `compactAfterMs` ago
   * (etcd's periodic auto-compaction, applied lazily at each read). Off when 0.
   */
  autoCompact() {
    if (!(this.compactAfterMs > 0)) return;
    const horizon = this.clock() - this.compactAfterMs;
    let target = -1;
    for (const w of this.writeTimes) {
      if (w.at <= horizon) target = w.rev;
      else break;
    }
    if (target > this.compactedRevision) this.compact(target);
  }

  /**
   * presentSince lists the identities (`plugin/cluster/namespace/identifier`) of records
   * live now that were live, and passed `pred`, at every revision from `since` to now.
   * Throws StoreError 400 when `since` is in the future or older than the change log.
   */
  presentSince(since, pred = () => true) {
    if (!Number.isSafeInteger(since) || since > this.revision || since < 0) {
      throw new StoreError(400, "BadRequest", `since must be a revision between 0 and ${this.revision}`);
    }
    if (since < this.logStart) {
      throw new StoreError(410, "Expired", `the change log starts after revision ${this.logStart}`);
    }
    const broken = new Set();
    for (let i = this.log.length - 1; i >= 0 && this.log[i].rev > since; i--) {
      const e = this.log[i];
      if (!e.before || !e.after || !pred(e.before) || !pred(e.after)) {
        broken.add(`${e.plugin}/${CLUSTER}/${e.namespace}/${e.identifier}`);
      }
    }
    const out = [];
    for (const plugin of this.plugins) {
      for (const rec of this.liveSorted(plugin)) {
        const id = identityOf(rec);
        if (pred(rec) && !broken.has(id)) out.push(id);
      }
    }
    return out;
  }
}

// The version of a key visible at `rev` ({rev, rec}), or null (absent or deleted).
function visibleAt(versions, rev) {
  for (let i = versions.length - 1; i >= 0; i--) {
    if (versions[i].rev <= rev) return versions[i].rec ? versions[i] : null;
  }
  return null;
}

/** `plugin/cluster/namespace/identifier`, the identity string of the ground truth. */
export function identityOf(rec) {
  return `${rec.plugin}/${rec.cluster ?? CLUSTER}/${rec.namespace}/${rec.identifier}`;
}
