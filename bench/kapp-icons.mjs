// What kapp_controller's inline icons cost per page: the plugin writes each PackageMetadata's
// `spec.iconSVGBase64` into the summary's `iconUrl` as a `data:image/svg+xml;base64,` URL
// (buildAvailablePackageSummary, plugins/kapp_controller/packages/v1alpha1/server_data_adapters.go
// in vmware-tanzu/kubeapps), and its GetAvailablePackageSummariesRequest has no field to leave it
// out (context, filterOptions, paginationOptions only). Measures, over the real Carvel packages
// (../shared/data/tce-carvel, as the real-service mode serves them: server/real/kapp.mjs), the bytes
// of the plugin's answers with and without those icons: JSON as the REST gateway and Connect's
// JSON codec send it, raw and gzip (node:zlib, level 6). No network, no timing.
//
//   node bench/kapp-icons.mjs [data dir, default ../shared/data] [page size, default 20]
import path from "node:path";
import zlib from "node:zlib";
import { loadCatalog } from "../server/catalog/load.mjs";
import { packageMetadataOf, summaryOfPackageMetadata } from "../server/real/kapp.mjs";

const [dataDir = path.join(import.meta.dirname, "../../shared/data"), size = "20"] = process.argv.slice(2);
const pageSize = Number(size);
const { records } = await loadCatalog({ dataDir });
const kapp = records.filter((r) => r.plugin === "kapp_controller.packages");
// The plugin's order: the apiserver's (namespace, then name).
kapp.sort((a, b) => (a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
const summaries = kapp.map((r) => summaryOfPackageMetadata(packageMetadataOf(r)));
const bare = summaries.map(({ iconUrl, ...rest }) => rest);
const answer = (items, offset, next) => {
  const res = { availablePackageSummaries: items };
  if (next) res.nextPageToken = String(offset + items.length);
  const categories = items.flatMap((s) => s.categories ?? []);
  if (categories.length) res.categories = categories;
  return JSON.stringify(res);
};
const bytes = (text) => [Buffer.byteLength(text), zlib.gzipSync(text).length];
const withIcons = summaries.filter((s) => s.iconUrl);
const iconBytes = withIcons.map((s) => Buffer.byteLength(s.iconUrl));
console.log(`${summaries.length} Carvel packages, ${withIcons.length} with an inline icon: ${iconBytes.reduce((a, b) => a + b, 0)} B of data: URLs (smallest ${Math.min(...iconBytes)}, largest ${Math.max(...iconBytes)})`);
const row = (label, a, b) => {
  const [ra, ga] = bytes(a), [rb, gb] = bytes(b);
  console.log(`| ${label} | ${ra} | ${ga} | ${rb} | ${gb} | ${(ra / rb).toFixed(1)}× / ${(ga / gb).toFixed(1)}× |`);
};
console.log("| answer | with icons, B | gzip | without, B | gzip | ratio raw / gzip |");
console.log("| --- | --- | --- | --- | --- | --- |");
row(`whole list (${summaries.length} items, one request)`, answer(summaries, 0, false), answer(bare, 0, false));
for (let offset = 0, k = 1; offset < summaries.length; offset += pageSize, k++) {
  const end = Math.min(offset + pageSize, summaries.length);
  row(`page ${k} of ${pageSize} (items ${offset + 1}-${end})`, answer(summaries.slice(offset, end), offset, end < summaries.length), answer(bare.slice(offset, end), offset, end < summaries.length));
}
// The same packages through the apiserver (the `kubernetes` behaviour: a LIST of PackageMetadata
// objects): whole objects, long descriptions and icons included; a LIST selects objects
// (labelSelector, fieldSelector), never fields.
const objects = kapp.map(packageMetadataOf);
const list = (items) => JSON.stringify({ apiVersion: "data.packaging.carvel.dev/v1alpha1", kind: "PackageMetadataList", metadata: { resourceVersion: "1" }, items });
row(`PackageMetadata LIST (${objects.length} objects)`, list(objects), list(objects.map(({ spec: { iconSVGBase64, ...spec }, ...o }) => ({ ...o, spec }))));
