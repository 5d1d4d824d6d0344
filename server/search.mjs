// Each plugin's own search (GetAvailablePackageSummaries' `filterOptions`), as kubeapps-apis
// applies it in the backend, over the demo's records. Read from vmware-tanzu/kubeapps (not
// copied): cmd/kubeapps-apis/plugins/
//  - helm/packages/v1alpha1/utils/postgresql_utils.go `GenerateWhereClause` (SQL over the chart's
//    `info` JSONB);
//  - fluxv2/packages/v1alpha1/chart.go `passesFilter`;
//  - kapp_controller/packages/v1alpha1/server_utils.go `FilterMetadatas`.
// The pager keeps whatever these match (a source that filters); /demo/truth uses them too.

import { repositoryOf } from "./filter.mjs";

/** A record's repository: `repo`, else the identifier's part before the first `/`. */
const repoOf = (r) => r.repo ?? repositoryOf(r.identifier ?? "");

/**
 * PostgreSQL's `text ILIKE pattern` for the pattern `%query%` the helm plugin builds: `%` any
 * run of characters, `_` any one, `\` escapes the next (the query is not escaped, so its own `%`
 * and `_` are wildcards, as in Kubeapps). Case-insensitive by Unicode case folding (the database
 * lowercases by its locale: the same for the catalog's text). A query ending in a lone `\` is an
 * SQL error in PostgreSQL ("LIKE pattern must not end with escape character"): thrown here.
 */
export function ilike(query) {
  let re = "";
  const chars = [...query];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (c === "%") re += "[\\s\\S]*";
    else if (c === "_") re += "[\\s\\S]";
    else if (c === "\\") {
      if (i + 1 === chars.length) throw new SyntaxError("LIKE pattern must not end with escape character");
      re += escapeRe(chars[++i]);
    } else re += escapeRe(c);
  }
  const rx = new RegExp(re, "iu");
  // `%query%`: anywhere. NULL (no such field) never matches.
  return (text) => typeof text === "string" && rx.test(text);
}

// Only syntax characters and `/` may be escaped in a `u` RegExp (`\-` is an error there).
const escapeRe = (c) => c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/**
 * PostgreSQL's text of a JSONB array of strings (`info ->> 'keywords'`): `["a", "b"]`, each
 * string JSON-escaped, ", " between; NULL (undefined) for a chart without the field.
 */
export function jsonbText(list) {
  if (!Array.isArray(list)) return undefined;
  return `[${list.map((s) => JSON.stringify(s)).join(", ")}]`;
}

/**
 * The helm plugin's match (`GenerateWhereClause`): every given clause must hold.
 * - query: `info->>'name'`, `info->>'description'`, `info->'repo'->>'name'`, `info->>'keywords'`
 *   and `info->>'sources'` (the JSON text of the arrays) ILIKE `%query%`; also
 *   `info->'maintainers'->>'name'`, which on a JSON array is NULL in PostgreSQL: it never matches;
 * - categories: `info->>'category'` any-of, exact; repositories: `repo_name` any-of, exact;
 * - pkgVersion and appVersion only together: a chart version with both (the records hold the
 *   latest version alone).
 */
export function helmMatcher({ query = "", categories = [], repositories = [], pkgVersion = "", appVersion = "" } = {}) {
  const q = query === "" ? null : ilike(query);
  const cats = categories.filter(Boolean), repos = repositories.filter(Boolean);
  return (r) => {
    if (repos.length && !repos.includes(repoOf(r))) return false;
    if (cats.length && !cats.includes(r.categories?.[0] ?? "")) return false;
    if (pkgVersion !== "" && appVersion !== "") {
      if (r.latestVersion?.pkgVersion !== pkgVersion || r.latestVersion?.appVersion !== appVersion) return false;
    }
    if (q) {
      const fields = [r.name, r.shortDescription, repoOf(r), jsonbText(r.keywords), jsonbText(r.sources)];
      if (!fields.some(q)) return false;
    }
    return true;
  };
}

/**
 * The fluxv2 plugin's match (`passesFilter`): categories any-of (the chart's one category),
 * appVersion and pkgVersion each equal to the latest version's, and the query a case-SENSITIVE
 * substring (Go's strings.Contains) of the name, the description, a keyword, a source or a
 * maintainer's name. (Repositories select which repositories are read at all.)
 */
export function fluxMatcher({ query = "", categories = [], repositories = [], pkgVersion = "", appVersion = "" } = {}) {
  return (r) => {
    if (repositories.length && !repositories.includes(repoOf(r))) return false;
    if (categories.length && !categories.includes(r.categories?.[0] ?? "")) return false;
    if (appVersion !== "" && r.latestVersion?.appVersion !== appVersion) return false;
    if (pkgVersion !== "" && r.latestVersion?.pkgVersion !== pkgVersion) return false;
    if (query === "") return true;
    const has = (s) => typeof s === "string" && s.includes(query);
    return (
      has(r.name) || has(r.shortDescription) || (r.keywords ?? []).some(has) || (r.sources ?? []).some(has) ||
      (r.maintainers ?? []).some((m) => has(m?.name))
    );
  };
}

/**
 * The kapp_controller plugin's match (`FilterMetadatas`): the query, lowercased, a substring of
 * `lower(displayName + " " + shortDescription + " " + longDescription)`; EVERY category given
 * among the package's; repositories any-of (the repository annotation).
 */
export function kappMatcher({ query = "", categories = [], repositories = [] } = {}) {
  const q = query.toLowerCase();
  return (r) => {
    if (repositories.length && !repositories.includes(repoOf(r))) return false;
    if (categories.length && !categories.every((c) => (r.categories ?? []).includes(c))) return false;
    if (q === "") return true;
    return `${r.displayName ?? ""} ${r.shortDescription ?? ""} ${r.longDescription ?? ""}`.toLowerCase().includes(q);
  };
}

const MATCHERS = { "helm.packages": helmMatcher, "fluxv2.packages": fluxMatcher, "kapp_controller.packages": kappMatcher };

/** Whether a filter asks anything of a plugin (Kubeapps filters only when FilterOptions has content). */
export function searches({ query = "", categories = [], repositories = [], pkgVersion = "", appVersion = "" } = {}) {
  return query !== "" || categories.length > 0 || repositories.length > 0 || pkgVersion !== "" || appVersion !== "";
}

/**
 * `plugin`'s own predicate for `filter` (Kubeapps FilterOptions), or null when it asks nothing.
 * Throws a SyntaxError for a query the plugin's backend cannot run (helm: a trailing `\`).
 */
export function pluginMatcher(plugin, filter) {
  if (!searches(filter)) return null;
  return (MATCHERS[plugin] ?? helmMatcher)(filter);
}
