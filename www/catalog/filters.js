// The filter sidebar's facet lists: package types (plugins), categories and repositories.
// Facet values come from the backend's data and are rendered as text.
import { h, fill, num, getJson } from "./dom.js";
import { pluginLabel, repoOf } from "./cards.js";
import { compareCodePoints } from "./truth.js";

/**
 * renderChecks fills `el` with one checkbox per option `{value, label, count?}`; values in
 * `selected` but not among the options are listed too (so a link's filter can be unticked).
 * `onChange(values)` gets the ticked values, in option order.
 */
export function renderChecks(el, options, selected, onChange, testid) {
  const all = [...options];
  for (const value of selected) if (!all.some((o) => o.value === value)) all.push({ value, label: value });
  if (all.length === 0) {
    fill(el, h("span", { class: "empty" }, "none"));
    return;
  }
  const boxes = [];
  const changed = () => onChange(boxes.filter((b) => b.checked).map((b) => b.value));
  fill(el, all.map((o) => {
    const box = h("input", { type: "checkbox", value: o.value, dataset: { testid }, onchange: changed });
    box.checked = selected.includes(o.value);
    boxes.push(box);
    return h("label", { title: o.value },
      box,
      h("span", { class: "label" }, o.label),
      o.count !== undefined ? h("span", { class: "count", "aria-label": `${o.count} packages` }, num(o.count)) : null);
  }));
}

/** Plugin facet options from /demo/config. */
export function pluginOptions(config) {
  return config.plugins.map((p) => ({ value: p.name, label: `${pluginLabel(p.name)} (${p.name.replace(/\.packages$/, "")})`, count: p.count }));
}

/** Repository facet options from an unfiltered /demo/truth: the identifiers' repository parts. */
export function repositoryOptions(truth) {
  const counts = new Map();
  for (const item of truth.items) {
    const repo = repoOf(item.identifier);
    if (repo) counts.set(repo, (counts.get(repo) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => compareCodePoints(a[0], b[0])).map(([value, count]) => ({ value, label: value, count }));
}

/**
 * categoryOptions asks each source once (`pageSize` 1) for its `categories`: Kubeapps plugins
 * answer every category of the namespace with any page, which is where the dashboard gets them.
 */
export async function categoryOptions(config, signal) {
  const set = new Set();
  const asks = [];
  for (const p of config.plugins) {
    const path = p.name.replace(/\.packages$/, "");
    for (const namespace of Object.keys(p.namespaces)) {
      const q = new URLSearchParams({ "context.cluster": config.cluster, "context.namespace": namespace, "paginationOptions.pageSize": "1" });
      asks.push(getJson(`/apis/plugins/${encodeURIComponent(path)}/packages/v1alpha1/availablepackages?${q}`, { signal })
        .then((r) => {
          for (const c of Array.isArray(r?.categories) ? r.categories : []) if (typeof c === "string" && c !== "") set.add(c);
        })
        .catch(() => {})); // A facet list is a convenience: a source that fails here still pages.
    }
  }
  await Promise.all(asks);
  return [...set]
    .sort((a, b) => compareCodePoints(a.toLowerCase(), b.toLowerCase()) || compareCodePoints(a, b))
    .map((value) => ({ value, label: value }));
}
