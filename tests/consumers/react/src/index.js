// The React consumer app: one scenario per URL (`?s=<name>`), always under <StrictMode>, against
// the test's backend on the same origin (/apis: the kubeapps-apis REST paths). What it saw goes to
// `window.probe` for react.test.mjs to read. No JSX (no Babel): createElement.
import { createElement as h, StrictMode, useEffect, useMemo, useState, version } from "react";
import { createRoot } from "react-dom/client";
import { Pager, kubeappsFetcher } from "kubeapps-pager";
import { usePager } from "kubeapps-pager/react";
import { pagerInfiniteQuery } from "kubeapps-pager/tanstack";
import { QueryClient, QueryClientProvider, useInfiniteQuery } from "@tanstack/react-query";

// Every pager that ever runs nextPage, and every free: the StrictMode and lifetime checks.
const probe = (window.probe = { react: version, pagers: 0, frees: 0, renders: 0, state: null, done: false, error: null });
const seen = new WeakSet();
const nextPage = Pager.prototype.nextPage;
Pager.prototype.nextPage = function (...args) {
  if (!seen.has(this)) {
    seen.add(this);
    probe.pagers++;
  }
  return nextPage.apply(this, args);
};
const free = Pager.prototype.free;
Pager.prototype.free = function () {
  probe.frees++;
  return free.call(this);
};

const params = new URLSearchParams(location.search);
const scenario = params.get("s");
const fetchChunk = kubeappsFetcher({ baseUrl: `${location.origin}/apis` });
const SOURCES = [
  { plugin: "helm.packages", cluster: "default", namespace: "kubeapps" },
  { plugin: "kapp_controller.packages", cluster: "default", namespace: "kubeapps" },
];
const OPTIONS = { sources: SOURCES, pageSize: 10, chunkLimit: 8 };
const identity = (s) => {
  const r = s.availablePackageRef;
  return `${r.plugin.name}/${r.context.cluster}/${r.context.namespace}/${r.identifier}`;
};

/** usePager to the end (loadMore whenever idle), or up to `stopAfter` items. */
function HookList({ maxPages, stopAfter = Infinity }) {
  const [query, setQuery] = useState("");
  probe.setQuery = setQuery; // a new filter: a new list
  const options = useMemo(() => ({ ...OPTIONS, filter: { query } }), [query]);
  const list = usePager(options, fetchChunk, { maxPages, prefetch: !params.has("noPrefetch") });
  probe.renders++;
  probe.state = {
    items: list.items.map(identity),
    late: list.late.map(identity),
    unreachable: list.unreachable.map((u) => u.source),
    categories: list.categories,
    loading: list.loading,
    done: list.done,
    atStart: list.atStart,
    firstIndex: list.firstIndex,
    error: list.error && { code: list.error.code, message: list.error.message },
  };
  probe.hook = list;
  useEffect(() => {
    probe.mounts = (probe.mounts ?? 0) + 1; // 2 under StrictMode's double mount (a development build)
  }, []);
  useEffect(() => {
    if (!list.loading && !list.done && !list.error && list.items.length < stopAfter) list.loadMore();
  });
  return h("ul", { id: "items" }, list.items.map((s) => h("li", { key: identity(s) }, identity(s))));
}

/** Mounts the hook, and unmounts it (root.render(null)) when the test says so. */
function HookApp() {
  const stopAfter = scenario === "hook-unmount" ? 1 : params.has("stopAfter") ? Number(params.get("stopAfter")) : Infinity;
  return h(HookList, { stopAfter, maxPages: params.has("maxPages") ? Number(params.get("maxPages")) : undefined });
}

/** useInfiniteQuery over pagerInfiniteQuery: the test drives it through probe.query. */
function QueryList({ maxPages }) {
  const query = useMemo(() => pagerInfiniteQuery({ options: OPTIONS, fetchChunk, maxPages }), [maxPages]);
  useEffect(() => () => query.free(), [query]);
  const q = useInfiniteQuery(query);
  probe.adapter = query;
  useEffect(() => {
    probe.mounts = (probe.mounts ?? 0) + 1;
  }, []);
  probe.query = q;
  const pages = q.data?.pages ?? [];
  probe.state = {
    pages: pages.map((p) => ({ index: p.index, items: p.items.map(identity) })),
    status: q.status,
    fetching: q.isFetching,
    hasNextPage: q.hasNextPage,
    hasPreviousPage: q.hasPreviousPage,
    error: q.error && { code: q.error.code, message: q.error.message },
    pagersOpened: query.stats.pagersOpened,
  };
  return h("ul", { id: "items" }, pages.flatMap((p) => p.items).map((s) => h("li", { key: identity(s) }, identity(s))));
}

const queryClient = (window.queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } }));
const root = createRoot(document.getElementById("root"));
probe.unmount = () => root.render(null);
const app = scenario?.startsWith("query")
  ? h(QueryClientProvider, { client: queryClient }, h(QueryList, { maxPages: params.has("maxPages") ? Number(params.get("maxPages")) : undefined }))
  : h(HookApp);
root.render(h(StrictMode, null, app));
probe.ready = true;
