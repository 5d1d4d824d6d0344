// Kubeapps FilterOptions (+ `plugins`) with the pager's rules (src/filter.rs), used by
// the plugins' server-side filter and by the ground truth.
import { lowercase } from "./order.mjs";

/**
 * makeFilter builds a predicate over records `{plugin, identifier, name, displayName,
 * shortDescription, categories}` from `{query, categories, repositories, plugins}`.
 * Every non-empty field must match; an empty one matches everything:
 * - query: case-insensitive substring of name, displayName, shortDescription or identifier;
 * - categories: any-of, exact; repositories: any-of, exact, against the identifier's part
 *   before the first `/` (all of it when there is none); plugins: any-of, exact.
 */
export function makeFilter({ query = "", categories = [], repositories = [], plugins = [] } = {}) {
  const q = lowercase(query);
  const cats = new Set(categories);
  const repos = new Set(repositories);
  const plugs = new Set(plugins);
  return (r) => {
    if (plugs.size && !plugs.has(r.plugin)) return false;
    if (repos.size && !repos.has(repositoryOf(r.identifier))) return false;
    if (cats.size && !(r.categories ?? []).some((c) => cats.has(c))) return false;
    if (q) {
      const fields = [r.name, r.displayName, r.shortDescription, r.identifier];
      if (!fields.some((f) => f && lowercase(f).includes(q))) return false;
    }
    return true;
  };
}

/** True when any filter field is set (Kubeapps only filters when FilterOptions has content). */
export function isFiltering({ query = "", categories = [], repositories = [], plugins = [] } = {}) {
  return query !== "" || categories.length > 0 || repositories.length > 0 || plugins.length > 0;
}

/** The repository of an identifier: its part before the first `/`, or all of it. */
export function repositoryOf(identifier) {
  const i = identifier.indexOf("/");
  return i < 0 ? identifier : identifier.slice(0, i);
}
