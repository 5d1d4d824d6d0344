// Records as the wire shapes: Kubeapps' AvailablePackageSummary (grpc-gateway JSON,
// camelCase, fields at their default value omitted, proto field order) and Carvel's
// PackageMetadata (the Kubernetes object of the kapp_controller data).
import { CLUSTER } from "./store.mjs";

/** Kubeapps plugin names, as `availablePackageRef.plugin.name`. */
export const PLUGINS = ["helm.packages", "fluxv2.packages", "kapp_controller.packages"];

// protojson with EmitUnpopulated=false: "" and [] are left out; a set message stays.
function put(obj, key, value) {
  if (value === undefined || value === null || value === "") return;
  if (Array.isArray(value) && value.length === 0) return;
  obj[key] = value;
}

/** The AvailablePackageSummary JSON of a record. */
export function toSummary(rec) {
  const context = {};
  put(context, "cluster", rec.cluster ?? CLUSTER);
  put(context, "namespace", rec.namespace);
  const ref = { context };
  put(ref, "identifier", rec.identifier);
  ref.plugin = { name: rec.plugin, version: "v1alpha1" };
  const out = { availablePackageRef: ref };
  put(out, "name", rec.name);
  if (rec.latestVersion) {
    const v = {};
    put(v, "pkgVersion", rec.latestVersion.pkgVersion);
    put(v, "appVersion", rec.latestVersion.appVersion);
    out.latestVersion = v;
  }
  put(out, "iconUrl", rec.iconUrl);
  put(out, "displayName", rec.displayName);
  put(out, "shortDescription", rec.shortDescription);
  put(out, "categories", rec.categories);
  return out;
}

/** The GetAvailablePackageSummariesResponse JSON. */
export function toSummariesResponse(records, nextPageToken, categories) {
  const out = {};
  put(out, "availablePackageSummaries", records.map(toSummary));
  put(out, "nextPageToken", nextPageToken);
  put(out, "categories", categories);
  return out;
}

/** The Carvel annotation that names a PackageMetadata's repository ("namespace/repo"). */
export const REPO_REF_ANNOTATION = "packaging.carvel.dev/package-repository-ref";

/** A kapp_controller record as a `data.packaging.carvel.dev/v1alpha1` PackageMetadata. */
export function toPackageMetadata(rec, modRev) {
  const metadata = { name: rec.name, namespace: rec.namespace, resourceVersion: String(modRev) };
  if (rec.repo) metadata.annotations = { [REPO_REF_ANNOTATION]: `${rec.namespace}/${rec.repo}` };
  const spec = {};
  put(spec, "displayName", rec.displayName);
  put(spec, "longDescription", rec.longDescription);
  put(spec, "shortDescription", rec.shortDescription);
  put(spec, "iconSVGBase64", rec.iconSVGBase64);
  put(spec, "providerName", rec.providerName);
  put(spec, "categories", rec.categories);
  return { apiVersion: "data.packaging.carvel.dev/v1alpha1", kind: "PackageMetadata", metadata, spec };
}
