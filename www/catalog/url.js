// The page's state in its URL, so that a reload or a shared link shows the same list at the same
// place: `?q=&category=&repo=&plugin=&sort=&size=&chunk=&compare=1&page=<NextPageToken>`.

export const DEFAULTS = Object.freeze({ sort: "name", size: 24, chunk: 100 });

const intIn = (text, min, max, fallback) => {
  if (text === null || !/^\d{1,6}$/.test(text)) return fallback;
  const n = Number(text);
  return n >= min && n <= max ? n : fallback;
};

const distinct = (list) => [...new Set(list.filter((s) => s !== ""))];

/**
 * readState reads the URL's search part: `{query, categories, repositories, plugins, sort, size,
 * chunk, compare, page}`. Bad values fall back to the defaults (size 1..200, chunk 1..1000).
 */
export function readState(search = location.search) {
  const p = new URLSearchParams(search);
  const sort = p.get("sort");
  return {
    query: (p.get("q") ?? "").trim(),
    categories: distinct(p.getAll("category")),
    repositories: distinct(p.getAll("repo")),
    plugins: distinct(p.getAll("plugin")),
    sort: ["name", "displayName", "natural"].includes(sort) ? sort : DEFAULTS.sort,
    size: intIn(p.get("size"), 1, 200, DEFAULTS.size),
    chunk: intIn(p.get("chunk"), 1, 1000, DEFAULTS.chunk),
    compare: p.get("compare") === "1",
    page: p.get("page") || null,
  };
}

/** The search part for a state (defaults left out; `page` last, as it is the long one). */
export function searchOf(state) {
  const p = new URLSearchParams();
  if (state.query) p.set("q", state.query);
  for (const c of state.categories) p.append("category", c);
  for (const r of state.repositories) p.append("repo", r);
  for (const pl of state.plugins) p.append("plugin", pl);
  if (state.sort !== DEFAULTS.sort) p.set("sort", state.sort);
  if (state.size !== DEFAULTS.size) p.set("size", String(state.size));
  if (state.chunk !== DEFAULTS.chunk) p.set("chunk", String(state.chunk));
  if (state.compare) p.set("compare", "1");
  if (state.page) p.set("page", state.page);
  const s = p.toString();
  return s ? `?${s}` : "";
}

/** Replaces the URL (no new history entry per page) with the state's. */
export function writeState(state) {
  const url = `${location.pathname}${searchOf(state)}`;
  if (url !== `${location.pathname}${location.search}`) history.replaceState(null, "", url);
}

/** The filter part of a state, as PagerOptions.filter and /demo/truth take it. */
export function filterOf(state) {
  return { query: state.query, categories: state.categories, repositories: state.repositories, plugins: state.plugins };
}
