// The demo's installed packages (GetInstalledPackageSummaries): a fixed set of releases derived
// from the loaded catalog (every fourth package of each plugin and namespace, by name, installed
// once as `<name>-<n>`), paged as Kubeapps' helm plugin pages `helm list`: sorted by release
// name, a decimal offset as the page token, "" at the end. Not changed by churn.
import { compareUtf8 } from "./order.mjs";
import { grpcError } from "./errors.mjs";
import { CLUSTER } from "./store.mjs";

const cache = new WeakMap();

/** Every release of `plugin` in `namespace` ("" = all), sorted by name (bytes). */
export function installedReleases(app, plugin, namespace = "") {
  let all = cache.get(app.records);
  if (!all) {
    all = [];
    const groups = new Map();
    for (const r of app.records) {
      const key = `${r.plugin}\u0000${r.namespace}`;
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(r);
    }
    for (const list of groups.values()) {
      list.sort((a, b) => compareUtf8(a.name, b.name));
      list.forEach((r, i) => {
        if (i % 4 === 0) all.push({ rec: r, release: `${r.name}-${(i / 4) % 3 + 1}`, ready: i % 20 !== 8 });
      });
    }
    all.sort((a, b) => compareUtf8(a.release, b.release));
    cache.set(app.records, all);
  }
  return all.filter((x) => x.rec.plugin === plugin && (namespace === "" || x.rec.namespace === namespace));
}

/** The InstalledPackageSummary JSON (grpc-gateway: default values left out) of a release. */
export function toInstalledSummary({ rec, release, ready }) {
  const out = {
    installedPackageRef: {
      context: { cluster: rec.cluster ?? CLUSTER, namespace: rec.namespace },
      identifier: release,
      plugin: { name: rec.plugin, version: "v1alpha1" },
    },
    name: release,
  };
  const v = rec.latestVersion?.pkgVersion;
  if (v) {
    out.pkgVersionReference = { version: v };
    out.currentVersion = { pkgVersion: v, ...(rec.latestVersion.appVersion ? { appVersion: rec.latestVersion.appVersion } : {}) };
    out.latestVersion = out.currentVersion;
  }
  if (rec.iconUrl) out.iconUrl = rec.iconUrl;
  if (rec.displayName) out.pkgDisplayName = rec.displayName;
  if (rec.shortDescription) out.shortDescription = rec.shortDescription;
  out.status = ready
    ? { ready: true, reason: "STATUS_REASON_INSTALLED", userReason: "Deployed" }
    : { reason: "STATUS_REASON_PENDING", userReason: "Pending install" };
  return out;
}

/**
 * One GetInstalledPackageSummaries of `plugin`: `{ namespace, pageSize, pageToken }` → `{status,
 * body}`: the GetInstalledPackageSummariesResponse JSON, or 400 InvalidArgument for a token that
 * is not a decimal offset. `pageSize` 0 = everything.
 */
export function installedPage(app, plugin, { namespace, pageSize, pageToken }) {
  app.count(plugin, "direct");
  const offset = pageToken === "" ? 0 : /^\d{1,15}$/.test(pageToken) ? Number(pageToken) : -1;
  if (offset < 0) return grpcError("InvalidArgument", `unable to interpret page token ${JSON.stringify(pageToken)}`);
  const list = installedReleases(app, plugin, namespace);
  const end = pageSize > 0 ? Math.min(offset + pageSize, list.length) : list.length;
  const body = {};
  const page = list.slice(Math.min(offset, list.length), end);
  if (page.length) body.installedPackageSummaries = page.map(toInstalledSummary);
  if (end < list.length) body.nextPageToken = String(end);
  return { status: 200, body };
}
