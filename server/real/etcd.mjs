// A small etcd v3 client over etcd's own JSON gRPC gateway (etcd 3.4: POST /v3/kv/range,
// /v3/kv/put, /v3/kv/deleterange, /v3/kv/txn, /v3/kv/compaction). The gateway speaks the
// etcdserverpb messages as protojson: bytes are base64, int64 are decimal strings, and an
// error is `{error, message, code}` with the gRPC code (11 OutOfRange = compacted).

const b64 = (s) => Buffer.from(s, "utf8").toString("base64");
const unb64 = (s) => (s ? Buffer.from(s, "base64").toString("utf8") : "");

/** An error etcd answered; `grpcCode` is its gRPC code, `compacted`/`futureRevision` name the two a list cares about. */
export class EtcdError extends Error {
  constructor(message, grpcCode, httpStatus) {
    super(message);
    this.grpcCode = grpcCode;
    this.httpStatus = httpStatus;
    this.compacted = /required revision has been compacted/.test(message);
    this.futureRevision = /required revision is a future revision/.test(message);
  }
}

/** The end of the range of every key with `prefix` (clientv3.GetPrefixRangeEnd): the prefix with its last byte + 1. */
export function prefixRangeEnd(prefix) {
  const b = Buffer.from(prefix, "utf8");
  for (let i = b.length - 1; i >= 0; i--) {
    if (b[i] < 0xff) {
      const end = Buffer.from(b.subarray(0, i + 1));
      end[i] += 1;
      return end;
    }
  }
  return Buffer.from([0]); // every key
}

/**
 * EtcdClient talks to one etcd at `url` (`http://127.0.0.1:PORT`). Every method resolves to the
 * decoded answer or rejects with an EtcdError (etcd's error) or a TypeError (no answer).
 */
export class EtcdClient {
  constructor(url, { fetchImpl = globalThis.fetch } = {}) {
    this.url = url.replace(/\/$/, "");
    this.fetch = fetchImpl;
  }

  async #call(path, body) {
    const res = await this.fetch(`${this.url}${path}`, { method: "POST", body: JSON.stringify(body) });
    const json = await res.json().catch(() => ({}));
    if (!res.ok || json.error) throw new EtcdError(json.message ?? json.error ?? `HTTP ${res.status}`, json.code, res.status);
    return json;
  }

  /**
   * range reads keys in [key, rangeEnd) (rangeEnd a string or Buffer; absent = the one key) at
   * `revision` (0 = the newest), at most `limit` (0 = all), in byte order. Resolves to
   * `{revision, kvs: [{key, value, createRevision, modRevision}], more, count}` (`count` =
   * every key of the range at that revision, not only those returned).
   */
  async range(key, { rangeEnd, revision = 0, limit = 0 } = {}) {
    const body = { key: b64(key) };
    if (rangeEnd !== undefined) body.range_end = Buffer.isBuffer(rangeEnd) ? rangeEnd.toString("base64") : b64(rangeEnd);
    if (revision > 0) body.revision = String(revision);
    if (limit > 0) body.limit = String(limit);
    const r = await this.#call("/v3/kv/range", body);
    return {
      revision: Number(r.header.revision),
      kvs: (r.kvs ?? []).map((kv) => ({
        key: unb64(kv.key), value: unb64(kv.value),
        createRevision: Number(kv.create_revision), modRevision: Number(kv.mod_revision),
      })),
      more: r.more === true,
      count: Number(r.count ?? 0),
    };
  }

  /** Writes `value` at `key`; resolves to the new revision. */
  async put(key, value) {
    const r = await this.#call("/v3/kv/put", { key: b64(key), value: b64(value) });
    return Number(r.header.revision);
  }

  /** Deletes `key`; resolves to `{revision, deleted}`. */
  async delete(key) {
    const r = await this.#call("/v3/kv/deleterange", { key: b64(key) });
    return { revision: Number(r.header.revision), deleted: Number(r.deleted ?? 0) };
  }

  /** Deletes every key with `prefix`; resolves to `{revision, deleted}`. */
  async deletePrefix(prefix) {
    const r = await this.#call("/v3/kv/deleterange", { key: b64(prefix), range_end: prefixRangeEnd(prefix).toString("base64") });
    return { revision: Number(r.header.revision), deleted: Number(r.deleted ?? 0) };
  }

  /** Puts every `[key, value]` in one transaction (one revision; etcd allows 128 operations per txn). */
  async putAll(pairs) {
    let rev = 0;
    for (let i = 0; i < pairs.length; i += 128) {
      const success = pairs.slice(i, i + 128).map(([k, v]) => ({ request_put: { key: b64(k), value: b64(v) } }));
      const r = await this.#call("/v3/kv/txn", { success });
      rev = Number(r.header.revision);
    }
    return rev;
  }

  /** Compacts the history before `revision` (etcd's own compaction; physical: waits until done). */
  async compact(revision) {
    await this.#call("/v3/kv/compaction", { revision: String(revision), physical: true });
    return revision;
  }

  /** The current revision. */
  async revision() {
    return (await this.range("\0")).revision;
  }
}
