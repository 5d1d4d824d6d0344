// kapp_controller over a real etcd: the PackageMetadatas are Kubernetes objects stored where the
// apiserver keeps them, and served two ways:
// - as the plugin pages them (plugins/kapp_controller/packages/v1alpha1/server_ctrl_packages.go,
//   rewritten): the whole list of the namespace at once, in the apiserver's order (key byte
//   order: namespace, then name), filtered (query: lowercase substring of displayName, short
//   and long description; categories all-of; repositories from the repository annotation),
//   then sliced by the decimal offset; an offset past the end (> length) answers 400
//   InvalidArgument "Invalid pagination arguments"; nextPageToken only on a full page;
// - as the apiserver's chunked LIST (kube-etcd.mjs), which is what the `kubernetes` behaviour
//   and the PackageMetadata endpoint answer.
// The newest Package version is kept in an annotation of the PackageMetadata (the plugin reads
// the Package objects for it; one object per package keeps the demo's store small).
import { PluginError } from "./plugin-error.mjs";
import { itemOffsetFromPageToken } from "./paginate.mjs";
import { PACKAGE_METADATAS, listAll, listChunk, objectKey } from "./kube-etcd.mjs";
import { CLUSTER } from "./helm-pg.mjs";
import { REPO_REF_ANNOTATION } from "../summary.mjs";

/** The annotation holding the newest Package version of a PackageMetadata here. */
export const LATEST_VERSION_ANNOTATION = "kubeapps-pager.dev/latest-version";

/** A kapp_controller record as the PackageMetadata object stored in etcd (no resourceVersion: etcd's revision is). */
export function packageMetadataOf(rec) {
  const annotations = {};
  if (rec.repo) annotations[REPO_REF_ANNOTATION] = `${rec.namespace}/${rec.repo}`;
  if (rec.latestVersion?.pkgVersion) annotations[LATEST_VERSION_ANNOTATION] = rec.latestVersion.pkgVersion;
  const spec = { refName: rec.name };
  for (const k of ["displayName", "shortDescription", "longDescription", "providerName", "iconSVGBase64"]) if (rec[k]) spec[k] = rec[k];
  if (rec.categories?.length) spec.categories = rec.categories;
  return {
    apiVersion: "data.packaging.carvel.dev/v1alpha1", kind: "PackageMetadata",
    metadata: { name: rec.name, namespace: rec.namespace, annotations }, spec,
  };
}

function repoOf(pm) {
  const ref = pm.metadata?.annotations?.[REPO_REF_ANNOTATION] ?? "";
  return ref.slice(ref.indexOf("/") + 1);
}

/** The AvailablePackageSummary of a PackageMetadata (buildAvailablePackageSummary). */
export function summaryOfPackageMetadata(pm) {
  const s = pm.spec ?? {};
  const out = {
    availablePackageRef: {
      context: { cluster: CLUSTER, namespace: pm.metadata.namespace },
      identifier: `${repoOf(pm)}/${pm.metadata.name}`,
      plugin: { name: "kapp_controller.packages", version: "v1alpha1" },
    },
    name: pm.metadata.name,
  };
  const v = pm.metadata.annotations?.[LATEST_VERSION_ANNOTATION];
  if (v) out.latestVersion = { pkgVersion: v, appVersion: v };
  if (s.iconSVGBase64) out.iconUrl = `data:image/svg+xml;base64,${s.iconSVGBase64}`;
  if (s.displayName) out.displayName = s.displayName;
  if (s.shortDescription) out.shortDescription = s.shortDescription;
  if (s.categories?.length) out.categories = s.categories;
  return out;
}

function matches(pm, f) {
  const s = pm.spec ?? {};
  if (f.query && !`${s.displayName ?? ""} ${s.shortDescription ?? ""} ${s.longDescription ?? ""}`.toLowerCase().includes(f.query.toLowerCase())) return false;
  if (f.categories?.length && !f.categories.every((c) => (s.categories ?? []).includes(c))) return false;
  if (f.repositories?.length && !f.repositories.includes(repoOf(pm))) return false;
  return true;
}

/** KappService: the kapp_controller plugin over the PackageMetadatas in etcd (see the file's head). */
export class KappService {
  constructor({ etcd }) {
    this.etcd = etcd;
  }

  /** GetAvailablePackageSummaries as the plugin pages (offsets over the whole list). */
  async getAvailablePackageSummaries(request = {}) {
    const namespace = request.context?.namespace ?? "";
    const token = request.paginationOptions?.pageToken ?? "";
    const offset = itemOffsetFromPageToken(token);
    const pageSize = Number(request.paginationOptions?.pageSize ?? 0) | 0;
    let list;
    try {
      list = (await listAll(this.etcd, PACKAGE_METADATAS, namespace)).items;
    } catch (e) {
      throw new PluginError("internal", `unable to get PackageMetadata: ${e.message}`, e);
    }
    const f = request.filterOptions ?? {};
    let pms = list.filter((pm) => matches(pm, f));
    if (pms.length > 0 && pageSize > 0) {
      if (offset > pms.length) {
        throw new PluginError("invalid_argument", `Invalid pagination arguments page_token:"${token}" page_size:${pageSize}`);
      }
      // Go slices pkgMetadatas[startAt:] with a negative start: a runtime panic, which the
      // server turns into an internal error.
      if (offset < 0) throw new PluginError("internal", `runtime error: slice bounds out of range [${offset}:]`);
      pms = pms.slice(offset, offset + pageSize);
    }
    const summaries = pms.map(summaryOfPackageMetadata);
    const res = {};
    if (summaries.length) res.availablePackageSummaries = summaries;
    if (pageSize > 0 && summaries.length === pageSize) res.nextPageToken = String(offset + pageSize);
    const categories = summaries.flatMap((s) => s.categories ?? []);
    if (categories.length) res.categories = categories;
    return res;
  }

  /**
   * The same plugin paged as the apiserver pages (the `kubernetes` behaviour): pageSize is
   * `limit`, pageToken the continue token; the filter runs on each chunk after `limit`.
   * Resolves to the response, or `{status}` reply of a Kubernetes Status for an error.
   */
  async kubernetesPage(request = {}) {
    const r = await listChunk(this.etcd, PACKAGE_METADATAS, {
      namespace: request.context?.namespace ?? "",
      limit: Math.max(0, Number(request.paginationOptions?.pageSize ?? 0) | 0),
      continueToken: request.paginationOptions?.pageToken ?? "",
    });
    if (!r.ok) return r;
    const f = request.filterOptions ?? {};
    const summaries = r.items.map((i) => i.object).filter((pm) => matches(pm, f)).map(summaryOfPackageMetadata);
    const res = {};
    if (summaries.length) res.availablePackageSummaries = summaries;
    if (r.continueToken) res.nextPageToken = r.continueToken;
    return { ok: true, response: res };
  }

  /** Creates or replaces the object of a record; resolves to the revision. */
  put(rec) {
    return this.etcd.put(objectKey(PACKAGE_METADATAS, rec.namespace, rec.name), JSON.stringify(packageMetadataOf(rec)));
  }

  /** Deletes the object; resolves to `{revision, deleted}`. */
  delete(namespace, name) {
    return this.etcd.delete(objectKey(PACKAGE_METADATAS, namespace, name));
  }

  /** Loads records in transactions of 128 puts. */
  putAll(recs) {
    return this.etcd.putAll(recs.map((r) => [objectKey(PACKAGE_METADATAS, r.namespace, r.name), JSON.stringify(packageMetadataOf(r))]));
  }
}
