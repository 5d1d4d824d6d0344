// Carvel PackageMetadata and Package YAML (kapp-controller, data.packaging.carvel.dev/v1alpha1)
// mapped the way Kubeapps' kapp_controller plugin builds an AvailablePackageSummary:
// name = metadata.name, identifier `<repo>/<name>`, displayName = spec.displayName,
// categories = spec.categories, iconUrl = `data:image/svg+xml;base64,<iconSVGBase64>`,
// latest version = the highest semver among the Packages whose spec.refName is the name
// (pkgVersion = appVersion, as Kubeapps sets both).
import YAML from "yaml";
import { CLUSTER } from "../store.mjs";
import { highest } from "./semver.mjs";

const KAPP = "kapp_controller.packages";

/** Every YAML document of a file's text as JS (documents that fail to parse are reported). */
export function parseDocuments(text, source) {
  const docs = YAML.parseAllDocuments(text, { schema: "failsafe", uniqueKeys: false });
  const list = Array.isArray(docs) ? docs : [];
  const out = [];
  for (const d of list) {
    if (d.errors?.length) throw new Error(`${source}: ${d.errors[0].message}`);
    const js = d.toJS();
    if (js && typeof js === "object") out.push(js);
  }
  return out;
}

/**
 * carvelRecords maps PackageMetadata and Package objects (from any number of files) to
 * records of repository `repo` in `namespace`. A PackageMetadata that no Package refers
 * to is kept (it is an object of the cluster, listed by the Kubernetes endpoint) without
 * `latestVersion`; Kubeapps' plugin reports "no package versions" for it. Its name is
 * added to `orphans` when given (TCE ships one: kube-vip-cloud-provider, whose Package
 * says refName `kube-vip-cloud-provider.community.vmware.com`).
 */
export function carvelRecords(objects, { repo, namespace, orphans = [] }) {
  const versions = new Map();
  const metas = [];
  for (const o of objects) {
    if (o.kind === "PackageMetadata" && o.metadata?.name) metas.push(o);
    if (o.kind === "Package" && o.spec?.refName && o.spec?.version) {
      const list = versions.get(o.spec.refName) ?? [];
      list.push(o.spec.version);
      versions.set(o.spec.refName, list);
    }
  }
  const out = [];
  for (const m of metas) {
    const latest = highest(versions.get(m.metadata.name) ?? []);
    if (!latest) orphans.push(m.metadata.name);
    const spec = m.spec ?? {};
    const rec = {
      plugin: KAPP, cluster: CLUSTER, namespace, repo, name: m.metadata.name,
      identifier: `${repo}/${m.metadata.name}`,
      displayName: spec.displayName ?? "",
      shortDescription: spec.shortDescription ?? "",
      longDescription: spec.longDescription ?? "",
      providerName: spec.providerName ?? "",
      categories: Array.isArray(spec.categories) ? spec.categories.map(String) : [],
    };
    if (latest) rec.latestVersion = { pkgVersion: latest, appVersion: latest };
    if (spec.iconSVGBase64) {
      rec.iconSVGBase64 = String(spec.iconSVGBase64).replace(/\s+/g, "");
      rec.iconUrl = `data:image/svg+xml;base64,${rec.iconSVGBase64}`;
    }
    out.push(rec);
  }
  return out;
}
