// The apiserver's chunked LIST over a real etcd, as k8s.io/apiserver's etcd3 store (GetList)
// does it, rewritten: objects under `/registry/<group>/<resource>/<namespace>/<name>`; one
// etcd range per chunk with `limit`; a fresh list is read at etcd's newest revision, which
// becomes the list's resourceVersion; the continue token (apiserver format, server/
// continue-token.mjs) holds the last key + "\0" and that revision, so every chunk of one list
// is read at the same revision (one snapshot); remainingItemCount = etcd's count of the
// range minus the limit; a continue token whose revision etcd has compacted answers 410
// Expired with an inconsistent continue token (rv -1: go on at the newest revision).
import { decodeContinue, encodeContinue, InvalidContinueError } from "../continue-token.mjs";
import { k8sStatus, INCONSISTENT_CONTINUE } from "../errors.mjs";
import { prefixRangeEnd, EtcdError } from "./etcd.mjs";

/** Where the apiserver keeps kapp-controller's PackageMetadatas (a CRD: group/resource). */
export const PACKAGE_METADATAS = "/registry/data.packaging.carvel.dev/packagemetadatas/";

/** The etcd key of an object. */
export function objectKey(resourcePrefix, namespace, name) {
  return `${resourcePrefix}${namespace}/${name}`;
}

/**
 * listChunk answers one LIST of the objects under `resourcePrefix` in `namespace` ("" = all
 * namespaces) with `limit` (0 = all) and `continueToken`. Resolves to `{ok: true, items:
 * [{key, object, modRevision}], continueToken, resourceVersion, remaining}` (`continueToken`
 * "" at the end) or `{ok: false, reply}`: a Kubernetes Status 400 (bad token, or
 * resourceVersion beside continue), 410 Expired (compacted; `metadata.continue` = the
 * inconsistent token) or 500 (etcd failed). Objects are the stored JSON with
 * `metadata.resourceVersion` set to the key's modRevision, as the apiserver's versioner does.
 */
export async function listChunk(etcd, resourcePrefix, { namespace = "", limit = 0, continueToken = "", resourceVersion = "" }) {
  const keyPrefix = namespace ? `${resourcePrefix}${namespace}/` : resourcePrefix;
  let fromKey = keyPrefix;
  let withRev = 0;
  if (continueToken) {
    try {
      const d = decodeContinue(continueToken, keyPrefix);
      fromKey = d.fromKey;
      if (d.rv > 0) withRev = d.rv; // rv < 0: the inconsistent token, read at the newest revision
    } catch (e) {
      if (e instanceof InvalidContinueError) return { ok: false, reply: k8sStatus(400, `invalid continue token: ${e.message}`) };
      throw e;
    }
    if (resourceVersion && resourceVersion !== "0") {
      return { ok: false, reply: k8sStatus(400, "specifying resource version is not allowed when using continue") };
    }
  }
  let r;
  try {
    r = await etcd.range(fromKey, { rangeEnd: prefixRangeEnd(keyPrefix), revision: withRev, limit });
  } catch (e) {
    if (e instanceof EtcdError && e.compacted && continueToken) {
      return {
        ok: false,
        reply: k8sStatus(410, INCONSISTENT_CONTINUE, { reason: "Expired", continueToken: encodeContinue(fromKey, keyPrefix, -1) }),
      };
    }
    if (e instanceof EtcdError) return { ok: false, reply: k8sStatus(500, `etcd: ${e.message}`) };
    return { ok: false, reply: k8sStatus(503, `etcd does not answer: ${e.cause?.code ?? e.message}`, { reason: "ServiceUnavailable" }) };
  }
  const rev = withRev || r.revision;
  const items = r.kvs.map((kv) => {
    const object = JSON.parse(kv.value);
    object.metadata = { ...object.metadata, resourceVersion: String(kv.modRevision) };
    return { key: kv.key, object, modRevision: kv.modRevision };
  });
  const more = limit > 0 && r.more;
  const last = items[items.length - 1];
  return {
    ok: true,
    items,
    continueToken: more ? encodeContinue(`${last.key}\u0000`, keyPrefix, rev) : "",
    resourceVersion: rev,
    remaining: more ? r.count - limit : undefined,
  };
}

/** Reads every object under the prefix in one range at the newest revision: `{items, resourceVersion}` (or throws EtcdError). */
export async function listAll(etcd, resourcePrefix, namespace = "") {
  const keyPrefix = namespace ? `${resourcePrefix}${namespace}/` : resourcePrefix;
  const r = await etcd.range(keyPrefix, { rangeEnd: prefixRangeEnd(keyPrefix) });
  return {
    resourceVersion: r.revision,
    items: r.kvs.map((kv) => {
      const object = JSON.parse(kv.value);
      object.metadata = { ...object.metadata, resourceVersion: String(kv.modRevision) };
      return object;
    }),
  };
}
