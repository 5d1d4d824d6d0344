// The plugins' GetAvailablePackageSummaries over REST, in the three paging behaviours:
// `kubernetes` (apiserver chunks, continue tokens, snapshots, 410), `kubeapps-offset`
// (today's plugins: a decimal item offset into the current list) and `unordered` (the
// same, but the list order changes on every request, as Flux walking a Go map).
import { kubeList } from "./kube-list.mjs";
import { grpcError } from "./errors.mjs";
import { pluginMatcher } from "./search.mjs";
import { toSummariesResponse } from "./summary.mjs";
import { compareUtf8 } from "./order.mjs";
import { shuffled } from "./rng.mjs";
import { CLUSTER } from "./store.mjs";

// Go's strconv.ParseInt(s, 10, bits) accepts an optional sign and decimal digits only.
function parseGoInt(s, bits) {
  if (!/^[+-]?\d+$/.test(s)) return null;
  const n = BigInt(s);
  const lim = 1n << BigInt(bits - 1);
  if (n < -lim || n >= lim) return null;
  return Number(n);
}

/**
 * parseSummariesRequest reads grpc-gateway query parameters of a
 * GetAvailablePackageSummariesRequest: `context.cluster`, `context.namespace`,
 * `paginationOptions.pageSize` (int32), `paginationOptions.pageToken`,
 * `filterOptions.query`, repeated `filterOptions.categories` and
 * `filterOptions.repositories`, `filterOptions.pkgVersion`, `filterOptions.appVersion`.
 * Returns `{req}` or `{reply}` (400 InvalidArgument).
 */
export function parseSummariesRequest(params) {
  const sizeText = params.get("paginationOptions.pageSize");
  let pageSize = 0;
  if (sizeText !== null && sizeText !== "") {
    pageSize = parseGoInt(sizeText, 32);
    if (pageSize === null) {
      return {
        reply: grpcError("InvalidArgument",
          `type mismatch, parameter: paginationOptions.pageSize, error: strconv.ParseInt: parsing ${JSON.stringify(sizeText)}: invalid syntax`),
      };
    }
  }
  const cluster = params.get("context.cluster") ?? "";
  if (cluster !== "" && cluster !== CLUSTER) {
    return { reply: grpcError("InvalidArgument", `not supported yet: request.Context.Cluster: [${cluster}]`) };
  }
  return {
    req: {
      namespace: params.get("context.namespace") ?? "",
      pageSize,
      pageToken: params.get("paginationOptions.pageToken") ?? "",
      filter: {
        query: params.get("filterOptions.query") ?? "",
        categories: params.getAll("filterOptions.categories").filter((s) => s !== ""),
        repositories: params.getAll("filterOptions.repositories").filter((s) => s !== ""),
        pkgVersion: params.get("filterOptions.pkgVersion") ?? "",
        appVersion: params.get("filterOptions.appVersion") ?? "",
      },
    },
  };
}

// The distinct non-empty categories of a plugin's packages in a namespace, sorted
// (Kubeapps' helm plugin answers every category of the namespace, not only the page's).
function categoriesOf(app, plugin, namespace) {
  const set = new Set();
  for (const r of app.store.liveSorted(plugin, namespace)) for (const c of r.categories ?? []) if (c) set.add(c);
  return [...set].sort(compareUtf8);
}

/**
 * pluginPage answers one GetAvailablePackageSummaries of `plugin` in `behaviour`
 * (default: the plugin's current one), counted under `via`. Returns `{ok: true, records,
 * nextPageToken, categories}` or `{ok: false, reply}`:
 * - kubernetes: `pageSize` is `limit`, `pageToken` the continue token; the filter is
 *   applied to each chunk AFTER `limit` (short and empty chunks keep their token);
 *   errors are Kubernetes Status bodies (400, 410 Expired, 500);
 * - kubeapps-offset / unordered: the token is a decimal item offset ("" = 0) into the
 *   filtered list sorted by name (ties: insertion order) or, unordered, freshly shuffled;
 *   `pageSize` 0 = everything; `nextPageToken` is "" at the end. A token that is not a
 *   non-negative integer is 400 InvalidArgument.
 */
export function pluginPage(app, plugin, req, { via = "direct", behaviour = app.behaviours[plugin] } = {}) {
  app.count(plugin, via);
  // A plugin switched down (POST /demo/down) answers every request with its failure, for good.
  const down = app.down[plugin];
  if (down) return { ok: false, reply: grpcError(down.kind, `${plugin} is down: ${down.message}`) };
  // Each plugin's own search (server/search.mjs).
  let pred;
  try {
    pred = pluginMatcher(plugin, req.filter);
  } catch (e) {
    return { ok: false, reply: grpcError("Internal", `pq: ${e.message}`) };
  }
  const categories = categoriesOf(app, plugin, req.namespace);
  if (behaviour === "kubernetes") {
    if (req.pageSize < 0) return { ok: false, reply: grpcError("InvalidArgument", "pageSize must not be negative") };
    const r = kubeList(app, plugin, { namespace: req.namespace, limit: req.pageSize, continueToken: req.pageToken });
    if (!r.ok) return r;
    const recs = r.items.map((i) => i.rec);
    return { ok: true, records: pred ? recs.filter(pred) : recs, nextPageToken: r.continueToken, categories };
  }
  const fault = app.takeFault(plugin, { continuing: false });
  if (fault) return { ok: false, reply: grpcError("Unavailable", fault.message ?? "injected failure (POST /demo/fail)") };
  const offset = req.pageToken === "" ? 0 : parseGoInt(req.pageToken, 64);
  if (offset === null || offset < 0) {
    return { ok: false, reply: grpcError("InvalidArgument", `unable to interpret page token ${JSON.stringify(req.pageToken)}`) };
  }
  if (req.pageSize < 0) return { ok: false, reply: grpcError("InvalidArgument", "pageSize must not be negative") };
  let list = app.store.liveSorted(plugin, req.namespace);
  if (pred) list = list.filter(pred);
  if (behaviour === "unordered") list = shuffled(app.shuffleRand, list);
  const end = req.pageSize > 0 ? Math.min(offset + req.pageSize, list.length) : list.length;
  const records = list.slice(Math.min(offset, list.length), end);
  return { ok: true, records, nextPageToken: end < list.length ? String(end) : "", categories };
}

/** GET /apis/plugins/{plugin}/packages/v1alpha1/availablepackages as a reply `{status, body}`. */
export function handlePluginList(app, plugin, params) {
  const parsed = parseSummariesRequest(params);
  if (parsed.reply) {
    app.count(plugin, "direct");
    return parsed.reply;
  }
  const r = pluginPage(app, plugin, parsed.req);
  if (!r.ok) return r.reply;
  return { status: 200, body: toSummariesResponse(r.records, r.nextPageToken, r.categories) };
}
