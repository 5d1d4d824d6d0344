// The apiserver's chunked LIST over the MVCC store (k8s.io/apiserver etcd3 store GetList):
// `limit`/`continue`, a snapshot per list, 410 Expired for compacted continue tokens with
// an inconsistent (rv -1) token to go on, and the PackageMetadataList endpoint on top.
import { CompactedError, StoreError } from "./store.mjs";
import { decodeContinue, encodeContinue, InvalidContinueError } from "./continue-token.mjs";
import { k8sStatus, INCONSISTENT_CONTINUE, CONTINUE_EXPIRED } from "./errors.mjs";
import { toPackageMetadata } from "./summary.mjs";

function expired(fromKey, prefix, inconsistentToken = true) {
  if (!inconsistentToken) return k8sStatus(410, CONTINUE_EXPIRED, { reason: "Expired" });
  return k8sStatus(410, INCONSISTENT_CONTINUE, {
    reason: "Expired",
    continueToken: encodeContinue(fromKey, prefix, -1),
  });
}

/**
 * kubeList reads one chunk of `plugin`'s objects in `namespace` ("" = every namespace).
 * `limit` 0 = everything. Without `continueToken` the chunk is read at the current
 * revision; with one, at the token's revision (the list's snapshot), or at the current
 * revision for an inconsistent (negative rv) token.
 * Returns `{ok: true, items: [{key, rec, modRev}], continueToken, resourceVersion,
 * remaining}` (`continueToken` "" at the end, `remaining` only when there is more) or
 * `{ok: false, reply}` with a Status: 400 BadRequest (bad token, resourceVersion beside
 * continue), 410 Expired (compacted; `metadata.continue` holds the rv -1 token), 500, or
 * an injected failure.
 */
export function kubeList(app, plugin, { namespace = "", limit = 0, continueToken = "", resourceVersion = "" }) {
  const store = app.store;
  const prefix = namespace ? `${namespace}/` : "";
  const fault = app.takeFault(plugin, { continuing: continueToken !== "" });
  if (fault?.kind === "fail") {
    return { ok: false, reply: k8sStatus(fault.status ?? 503, fault.message ?? "injected failure (POST /demo/fail)") };
  }
  let fromKey = prefix;
  let rev;
  try {
    if (continueToken) {
      if (resourceVersion && resourceVersion !== "0") {
        return { ok: false, reply: k8sStatus(400, "specifying resource version is not allowed when using continue") };
      }
      const d = decodeContinue(continueToken, prefix);
      fromKey = d.fromKey;
      if (fault?.kind === "expire") return { ok: false, reply: expired(fromKey, prefix, fault.inconsistentToken !== false) };
      rev = d.rv > 0 ? d.rv : store.revision;
      store.checkRevision(rev);
    } else {
      store.autoCompact();
      rev = store.revision;
    }
    const chunk = store.listAt(plugin, { rev, prefix, fromKey, limit });
    const last = chunk.items[chunk.items.length - 1];
    return {
      ok: true,
      items: chunk.items,
      continueToken: chunk.more ? encodeContinue(`${last.key}\u0000`, prefix, rev) : "",
      resourceVersion: rev,
      remaining: chunk.more ? chunk.remaining : undefined,
    };
  } catch (e) {
    if (e instanceof InvalidContinueError) return { ok: false, reply: k8sStatus(400, `invalid continue token: ${e.message}`) };
    if (e instanceof CompactedError) return { ok: false, reply: expired(fromKey, prefix) };
    if (e instanceof StoreError) return { ok: false, reply: k8sStatus(e.status, e.message, { reason: e.reason }) };
    throw e;
  }
}

/** Parses a Kubernetes `limit` (int64; absent or <= 0 = no limit); null when malformed. */
export function parseLimit(s) {
  if (s === null || s === undefined || s === "") return 0;
  if (!/^[+-]?\d+$/.test(s)) return null;
  const n = Number(s);
  return n > 0 ? Math.min(n, Number.MAX_SAFE_INTEGER) : 0;
}

/**
 * GET /apis/data.packaging.carvel.dev/v1alpha1[/namespaces/{ns}]/packagemetadatas:
 * a `PackageMetadataList` of the kapp_controller records, always with Kubernetes paging
 * whatever the plugin's behaviour (it is the cluster underneath the plugin).
 */
export function packageMetadataList(app, namespace, params) {
  const plugin = "kapp_controller.packages";
  app.count(plugin, "kubernetesList");
  const limit = parseLimit(params.get("limit"));
  if (limit === null) return k8sStatus(400, `invalid limit ${JSON.stringify(params.get("limit"))}`);
  const r = kubeList(app, plugin, {
    namespace, limit,
    continueToken: params.get("continue") ?? "",
    resourceVersion: params.get("resourceVersion") ?? "",
  });
  if (!r.ok) return r.reply;
  const metadata = { resourceVersion: String(r.resourceVersion) };
  if (r.continueToken) metadata.continue = r.continueToken;
  if (r.remaining !== undefined) metadata.remainingItemCount = r.remaining;
  return {
    status: 200,
    body: {
      kind: "PackageMetadataList",
      apiVersion: "data.packaging.carvel.dev/v1alpha1",
      metadata,
      items: r.items.map((i) => toPackageMetadata(i.rec, i.modRev)),
    },
  };
}
