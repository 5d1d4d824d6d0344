// The demo's control endpoints (JSON): configuration, behaviours, churn, mutations,
// compaction, injected faults, request counters and the ground truth.
import { StoreError, identityOf, CLUSTER } from "./store.mjs";
import { pluginName, BEHAVIOURS } from "./app.mjs";
import { comparatorFor, collationWarning, RUST_UNICODE_VERSION } from "./order.mjs";
import { pluginMatcher } from "./search.mjs";
import { PLUGINS } from "./summary.mjs";
import { hash32 } from "./rng.mjs";

function bad(message) {
  return new StoreError(400, "BadRequest", message);
}

function requirePlugin(p) {
  const full = pluginName(p);
  if (!full) throw bad(`unknown plugin ${JSON.stringify(p)} (helm, fluxv2, kapp_controller or their full names)`);
  return full;
}

function str(v, what, { optional = true } = {}) {
  if (v === undefined && optional) return undefined;
  if (typeof v !== "string") throw bad(`${what} must be a string`);
  return v.toWellFormed();
}

function strList(v, what) {
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || v.some((c) => typeof c !== "string")) throw bad(`${what} must be an array of strings`);
  return v.map((c) => c.toWellFormed());
}

function version(v) {
  if (v === undefined) return undefined;
  if (typeof v === "string") return { pkgVersion: v.toWellFormed(), appVersion: v.toWellFormed() };
  if (v && typeof v === "object") {
    return { pkgVersion: str(v.pkgVersion, "latestVersion.pkgVersion") ?? "", appVersion: str(v.appVersion, "latestVersion.appVersion") ?? "" };
  }
  throw bad("latestVersion must be a string or {pkgVersion, appVersion}");
}

/**
 * normalizeItem reads a package as the control API takes it (the case files' form):
 * `{name, repo?, identifier?, namespace?, displayName?, shortDescription?, categories?,
 * iconUrl?, latestVersion?, providerName?, iconSVGBase64?, longDescription?}`.
 * identifier defaults to `<repo>/<name>` (repo `demo`); namespace to `defaultNs`.
 * Returns `{key: {namespace, identifier}, fields}` where fields holds what was given.
 */
export function normalizeItem(plugin, item, defaultNs) {
  if (!item || typeof item !== "object" || Array.isArray(item)) throw bad("each item must be an object");
  const name = str(item.name, "name", { optional: item.identifier !== undefined });
  const namespace = str(item.namespace, "namespace") ?? defaultNs;
  let identifier = str(item.identifier, "identifier");
  let repo = str(item.repo, "repo");
  if (identifier === undefined) identifier = `${repo ?? "demo"}/${name}`;
  if (repo === undefined) repo = identifier.includes("/") ? identifier.slice(0, identifier.indexOf("/")) : "demo";
  const fields = {
    name, repo,
    displayName: str(item.displayName, "displayName"),
    shortDescription: str(item.shortDescription, "shortDescription"),
    longDescription: str(item.longDescription, "longDescription"),
    providerName: str(item.providerName, "providerName"),
    categories: strList(item.categories, "categories"),
    iconUrl: str(item.iconUrl, "iconUrl"),
    iconSVGBase64: str(item.iconSVGBase64, "iconSVGBase64"),
    latestVersion: version(item.latestVersion),
  };
  if (fields.iconSVGBase64 && !fields.iconUrl) fields.iconUrl = `data:image/svg+xml;base64,${fields.iconSVGBase64}`;
  for (const k of Object.keys(fields)) if (fields[k] === undefined) delete fields[k];
  return { key: { namespace, identifier }, fields, plugin };
}

function asList(v, what) {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw bad(`${what} must be an array`);
  return v;
}

/**
 * mutate applies `{plugin, namespace?, insert: [items], delete: [identifiers or names or
 * {namespace, identifier}], update: [items]}`: deletes, then updates, then inserts, each
 * one write (one revision). Everything is checked first: on any error (400, 404 unknown,
 * 409 taken) nothing is written.
 */
export function mutate(app, body) {
  const plugin = requirePlugin(body?.plugin);
  const store = app.store;
  const ns = str(body.namespace, "namespace") ?? "kubeapps";
  const dels = asList(body.delete, "delete").map((d) => {
    if (typeof d === "string") {
      if (store.get(plugin, ns, d)) return { namespace: ns, identifier: d };
      const byName = store.liveSorted(plugin, ns).find((r) => r.name === d);
      if (byName) return { namespace: ns, identifier: byName.identifier };
      throw new StoreError(404, "NotFound", `${plugin} ${ns}/${d} not found (neither an identifier nor a name)`);
    }
    const n = normalizeItem(plugin, d, ns);
    if (!store.get(plugin, n.key.namespace, n.key.identifier)) {
      throw new StoreError(404, "NotFound", `${plugin} ${n.key.namespace}/${n.key.identifier} not found`);
    }
    return n.key;
  });
  const deleted = new Set(dels.map((k) => `${k.namespace}\u0000${k.identifier}`));
  const ups = asList(body.update, "update").map((u) => {
    const n = normalizeItem(plugin, u, ns);
    const cur = store.get(plugin, n.key.namespace, n.key.identifier);
    if (!cur || deleted.has(`${n.key.namespace}\u0000${n.key.identifier}`)) {
      throw new StoreError(404, "NotFound", `${plugin} ${n.key.namespace}/${n.key.identifier} not found`);
    }
    if (n.fields.name !== undefined && n.fields.name !== cur.rec.name) throw bad("an update cannot rename (name is part of the key)");
    const { name: _n, repo: _r, ...patch } = n.fields;
    return { ...n.key, patch };
  });
  const names = new Map();
  const inserts = asList(body.insert, "insert").map((i) => {
    const n = normalizeItem(plugin, i, ns);
    if (n.fields.name === undefined || n.fields.name === "") throw bad("an inserted item needs a name");
    const idKey = `${n.key.namespace}\u0000${n.key.identifier}`;
    const nameKey = `${n.key.namespace}/${n.fields.name}`;
    const liveByName = store.liveSorted(plugin, n.key.namespace).find((r) => r.name === n.fields.name);
    const takenId = store.get(plugin, n.key.namespace, n.key.identifier) && !deleted.has(idKey);
    const takenName = liveByName && !deleted.has(`${n.key.namespace}\u0000${liveByName.identifier}`);
    if (takenId || takenName || names.has(nameKey) || names.has(idKey)) {
      throw new StoreError(409, "AlreadyExists", `${plugin} ${nameKey} (${n.key.identifier}) already exists`);
    }
    names.set(nameKey, true);
    names.set(idKey, true);
    return {
      plugin, cluster: CLUSTER, namespace: n.key.namespace, identifier: n.key.identifier,
      displayName: n.fields.name, shortDescription: "", categories: [], ...n.fields,
    };
  });
  for (const k of dels) store.delete(plugin, k.namespace, k.identifier);
  for (const u of ups) store.update(plugin, u.namespace, u.identifier, u.patch);
  for (const r of inserts) store.create(plugin, r);
  return { revision: store.revision, applied: { deleted: dels.length, updated: ups.length, inserted: inserts.length } };
}

function listParam(params, key) {
  return params.getAll(key).flatMap((s) => s.split(",")).map((s) => s.trim()).filter(Boolean);
}

/**
 * truth answers GET /demo/truth: every live package its plugin's own search matches for `query`,
 * `categories`, `repositories`, `pkgVersion`, `appVersion` (server/search.mjs), of `plugins` (and
 * `namespace` when given), in the pager's total order for
 * `sort` (name | displayName): `{revision, sort, count, identities, items}`; with
 * `since=REV` also `since: {revision, identities}`: those present and passing the filter
 * at every revision from REV to now (so "complete" can be checked under churn).
 */
export function truth(app, params) {
  const sort = params.get("sort") || "name";
  let cmp;
  try {
    cmp = comparatorFor(sort);
  } catch (e) {
    throw bad(e.message);
  }
  const plugins = listParam(params, "plugins").map(requirePlugin);
  const filter = {
    query: params.get("query") ?? "",
    categories: listParam(params, "categories"),
    repositories: listParam(params, "repositories"),
    pkgVersion: params.get("pkgVersion") ?? "",
    appVersion: params.get("appVersion") ?? "",
  };
  const namespace = params.get("namespace") ?? "";
  // What each plugin's own search matches (server/search.mjs): the pager keeps what a source
  // that filters answers. `plugins` is the pager's own rule.
  const matchers = {};
  for (const p of PLUGINS) {
    try {
      matchers[p] = pluginMatcher(p, filter) ?? (() => true);
    } catch (e) {
      throw bad(e.message);
    }
  }
  const pred = (r) =>
    (!namespace || r.namespace === namespace) && (!plugins.length || plugins.includes(r.plugin)) && matchers[r.plugin](r);
  const store = app.store;
  const items = PLUGINS.flatMap((p) => store.liveSorted(p).filter(pred)).sort(cmp);
  const body = {
    revision: store.revision,
    sort,
    count: items.length,
    identities: items.map(identityOf),
    items: items.map((r) => ({
      identity: identityOf(r), plugin: r.plugin, cluster: r.cluster ?? CLUSTER, namespace: r.namespace,
      identifier: r.identifier, name: r.name, displayName: r.displayName ?? "",
    })),
  };
  const sinceText = params.get("since");
  if (sinceText !== null && sinceText !== "") {
    if (!/^\d+$/.test(sinceText)) throw bad("since must be a revision number");
    const present = new Set(store.presentSince(Number(sinceText), pred));
    body.since = { revision: Number(sinceText), identities: body.identities.filter((id) => present.has(id)) };
  }
  return body;
}

/** GET /demo/config. */
export function config(app, churn) {
  const counts = app.store.counts();
  return {
    cluster: CLUSTER,
    plugins: PLUGINS.map((p) => ({
      name: p,
      behaviour: app.behaviours[p],
      down: app.down[p]?.kind ?? null,
      namespaces: counts[p],
      count: Object.values(counts[p]).reduce((a, b) => a + b, 0),
    })),
    behaviours: BEHAVIOURS,
    revision: app.store.revision,
    compactedRevision: app.store.compactedRevision,
    compactAfterMs: app.compactAfterMs,
    seed: app.seed,
    catalog: app.info,
    churn: churn.status(),
    collation: { rustUnicode: RUST_UNICODE_VERSION, nodeUnicode: process.versions.unicode, warning: collationWarning() },
  };
}

/** POST /demo/expire `{plugin, inconsistentToken?}`: the plugin's next continue request answers 410. */
export function expire(app, body) {
  const plugin = requirePlugin(body?.plugin);
  app.addFault(plugin, { kind: "expire", inconsistentToken: body.inconsistentToken !== false });
  return { plugin, pending: app.faults[plugin].length };
}

/** POST /demo/fail `{plugin, status?, message?}`: the plugin's next request fails (default 503). */
export function fail(app, body) {
  const plugin = requirePlugin(body?.plugin);
  const status = body.status ?? 503;
  if (!Number.isInteger(status) || status < 400 || status > 599) throw bad("status must be an HTTP error status (400-599)");
  app.addFault(plugin, { kind: "fail", status, message: str(body.message, "message") });
  return { plugin, pending: app.faults[plugin].length };
}

/** The failures a plugin can be down with: gRPC code names (grpc-gateway maps them to 501, 404, 403). */
const DOWN_KINDS = ["Unimplemented", "NotFound", "PermissionDenied"];

/**
 * POST /demo/down `{plugin, down, kind?}`: while `down`, every request of the plugin (direct or
 * through the core) fails for good with `kind` (default Unimplemented: a cluster without that
 * plugin); `down: false` brings it back. Answers `{plugin, down, kind?}`; reset brings all back.
 */
export function down(app, body) {
  const plugin = requirePlugin(body?.plugin);
  if (typeof body.down !== "boolean") throw bad("down must be true or false");
  if (!body.down) {
    delete app.down[plugin];
    return { plugin, down: false };
  }
  const kind = body.kind ?? "Unimplemented";
  if (!DOWN_KINDS.includes(kind)) throw bad(`kind must be one of ${DOWN_KINDS.join(", ")}`);
  app.down[plugin] = { kind, message: kind === "Unimplemented" ? "the plugin is not served on this cluster" : kind };
  return { plugin, down: true, kind };
}

/** GET /demo/requests: request counts per plugin and path since start or the last reset. */
export function requests(app) {
  const plugins = app.requests.plugins;
  let total = app.requests.core;
  for (const p of Object.values(plugins)) total += p.direct + p.kubernetesList;
  return { total, core: app.requests.core, plugins };
}

/**
 * GET /demo/icon/{name}.svg: a generated icon (the initial on a coloured disc). The
 * initial is XML-escaped; the reply carries a CSP that forbids scripts.
 */
export function icon(name) {
  const cp = name.codePointAt(0);
  const initial = cp === undefined ? "?" : String.fromCodePoint(cp).toUpperCase();
  const esc = initial.replace(/[<>&"']/g, (c) => `&#${c.codePointAt(0)};`);
  const hue = hash32(name) % 360;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" fill="hsl(${hue},55%,45%)"/><text x="32" y="42" font-size="28" text-anchor="middle" fill="#fff" font-family="sans-serif">${esc}</text></svg>`;
}
